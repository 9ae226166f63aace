//! An engine's first games of a run, followed until it makes a move: one
//! that loses them the same way without a move (it exits at start, does not
//! answer its handshake) is broken, and the run stops instead of forfeiting
//! every game ([`super::collector`] asks).

use crate::records::GameRecord;
use std::collections::HashMap;

/// Games in a row an engine may lose the same way before it has made a
/// single move in the run, before the run stops.
pub const BROKEN_AFTER: usize = 3;

/// Each engine's first games of a run, until it makes a move.
#[derive(Default)]
pub(super) struct Starts(HashMap<String, FirstGames>);

/// An engine's first games of a run, until it makes a move.
#[derive(Default)]
struct FirstGames {
    /// True once it has made a move: later failures only forfeit.
    moved: bool,
    /// The failures in a row, the same way, before its first move.
    failures: usize,
    /// The way (its reason with numbers masked: times and pids differ).
    way: String,
}

impl Starts {
    /// Follows the first games of the two engines of `rec`: one that made
    /// a move is sound for the rest of the run; one that lost this game
    /// without a move, the same way as its games before, [`BROKEN_AFTER`]
    /// times in a row is broken: its name, the games and how it failed.
    pub(super) fn see(
        &mut self,
        rec: &GameRecord,
        followed: impl Fn(&str) -> bool,
    ) -> Option<(String, usize, String)> {
        let mut broken = None;
        for (name, black) in [(&rec.black, true), (&rec.white, false)] {
            if !followed(name) {
                continue;
            }
            let start = self.0.entry(name.clone()).or_default();
            if start.moved {
                continue;
            }
            if moved_in(rec, black) {
                start.moved = true;
                continue;
            }
            let Some(how) = forfeit_of(&rec.reason, name) else {
                continue;
            };
            let way = way_of(&how);
            if way == start.way {
                start.failures += 1;
            } else {
                (start.way, start.failures) = (way, 1);
            }
            if start.failures >= BROKEN_AFTER {
                broken = Some((name.clone(), start.failures, how));
            }
        }
        broken
    }
}

/// How the engine `name` lost a game of reason `reason`, when it forfeited
/// it (`crash: NAME (how)`, `time forfeit: NAME (how)`): `crash: how`.
fn forfeit_of(reason: &str, name: &str) -> Option<String> {
    ["crash: ", "time forfeit: "].iter().find_map(|kind| {
        let rest = reason.strip_prefix(kind)?.strip_prefix(name)?;
        let how = rest.strip_prefix(" (")?.strip_suffix(')')?;
        Some(format!("{kind}{how}"))
    })
}

/// The way an engine failed, for comparing two failures: its forfeit with
/// what it was doing left out (an engine that exits at start dies when sent
/// one line or waiting for another, as the timing falls) and numbers
/// masked (times, pids).
fn way_of(how: &str) -> String {
    let mut way = how.to_string();
    for doing in [" when sent ", " waiting for "] {
        if let Some(at) = way.find(doing) {
            let end = way[at..].find(';').map_or(way.len(), |k| at + k);
            way.replace_range(at..end, "");
        }
    }
    way.chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect()
}

/// True when black (`black`) or white made a move of its own in the game
/// of `rec`: a move after the opening, not a forced pass (which the runner
/// plays). The sides alternate, passes included; black moves first unless
/// the start position says otherwise.
fn moved_in(rec: &GameRecord, black: bool) -> bool {
    let black_starts = rec.start.as_deref().is_none_or(|p| {
        crate::game::othello::parse_position(p)
            .map_or(true, |b| b.side == crate::game::othello::Color::Black)
    });
    // Black's plies are the even ones when black starts.
    let parity = usize::from(black_starts != black);
    rec.moves
        .as_bytes()
        .chunks(2)
        .enumerate()
        .skip(rec.opening_plies)
        .any(|(k, mv)| k % 2 == parity && !mv.eq_ignore_ascii_case(b"pa"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(black: &str, moves: &str, opening_plies: usize, reason: &str) -> GameRecord {
        GameRecord {
            tune: None,
            pair_id: 0,
            game_id: 0,
            round: 0,
            opening_id: 0,
            black: black.into(),
            white: if black == "a" { "b" } else { "a" }.into(),
            start: None,
            opening_plies,
            moves: moves.into(),
            result: 0.0,
            disc_diff: -64,
            reason: reason.into(),
            nodes: Vec::new(),
            times_ms: Vec::new(),
            depths: Vec::new(),
            scores: Vec::new(),
        }
    }

    #[test]
    fn a_side_moved_when_it_played_a_move_after_the_opening() {
        // Opening f5d6 (black, white), then black c3: black moved, white not.
        let g = game("a", "f5d6c3", 2, "crash: b (x)");
        assert!(moved_in(&g, true) && !moved_in(&g, false));
        // The opening's plies are not the engines' moves.
        assert!(!moved_in(&game("a", "f5d6", 2, ""), true));
        // From a position with white to move, white's plies come first.
        let mut w = game("a", "c4", 0, "");
        w.start = Some(format!(
            "{} O",
            "-".repeat(27) + "OX------XO" + &"-".repeat(27)
        ));
        assert!(moved_in(&w, false) && !moved_in(&w, true));
        // A forced pass is the runner's, not a move.
        assert!(!moved_in(&game("a", "f5pa", 1, ""), false));
    }

    #[test]
    fn only_the_named_engines_forfeits_count() {
        let crash = "crash: ab (exited with code 1 waiting for `pong`)";
        assert_eq!(
            forfeit_of(crash, "ab").as_deref(),
            Some("crash: exited with code 1 waiting for `pong`")
        );
        assert_eq!(forfeit_of(crash, "a"), None);
        assert_eq!(forfeit_of("illegal move: ab (a1)", "ab"), None);
        assert_eq!(forfeit_of("game over", "ab"), None);
        assert_eq!(
            way_of("crash: exited with code 1 when sent `nboard 2`; its last error line: no data"),
            way_of("crash: exited with code 1 waiting for the answer to `ping 1`; its last error line: no data")
        );
        assert_ne!(
            way_of("crash: exited with code 1 waiting for x"),
            way_of("crash: killed by signal 9 waiting for x")
        );
    }

    #[test]
    fn three_first_games_lost_the_same_way_without_a_move_are_broken() {
        let mut s = Starts::default();
        let lost = |black, n: u32| {
            game(
                black,
                "f5",
                1,
                &format!("crash: b (exited with code 1 (pid {n}))"),
            )
        };
        assert_eq!(s.see(&lost("a", 1), |_| true), None);
        assert_eq!(s.see(&lost("b", 2), |_| true), None); // b black: lost before its move
        let (name, games, how) = s.see(&lost("a", 3), |_| true).expect("broken after 3");
        assert_eq!((name.as_str(), games), ("b", BROKEN_AFTER));
        assert_eq!(how, "crash: exited with code 1 (pid 3)");

        // Another way breaks the streak.
        let mut s = Starts::default();
        s.see(&lost("a", 1), |_| true);
        s.see(
            &game("a", "f5", 1, "time forfeit: b (used 2 s of 1 s)"),
            |_| true,
        );
        assert_eq!(s.see(&lost("a", 3), |_| true), None);

        // An engine that has moved once only forfeits from then on.
        let mut s = Starts::default();
        s.see(&game("a", "f5d6", 1, "crash: a (x)"), |_| true); // b played d6
        for n in 0..5 {
            assert_eq!(s.see(&lost("a", n), |_| true), None);
        }
    }
}
