//! The NBoard protocol (version 2), the engine's side of it, as `arena
//! serve --protocol nboard` speaks it:
//!
//! | command | answer |
//! | --- | --- |
//! | `nboard N` | nothing |
//! | `set depth N` | `set myname NAME` (the engine searches to depth N from now on) |
//! | `set game GGF` | nothing; a new game from the GGF's position (the engine is reset) |
//! | `move F5[/eval/time]`, `move PA` | nothing; the move is played |
//! | `go` | `nodestats NODES SECONDS`, `search MOVE EVAL 0 DEPTH`, `=== MOVE/EVAL/SECONDS` (the board is not changed); a move without an evaluation (a forced pass, the random mover's) is `nodestats`, then `=== MOVE` alone |
//! | `hint N` | `search MOVE EVAL 0 DEPTH` (nothing for a move without an evaluation) |
//! | `ping N` | `pong N`; read during a search, it stops it at once and the search's answer is not sent |
//! | `learn` | `learned` |
//! | `quit` | the server ends (a search in progress stops, as at the end of the input) |
//!
//! Other `set` commands and unknown lines are ignored, as the protocol
//! asks; a bad game or move is answered by a `status` line saying so.
//! Any other command read during a search waits for it and is answered
//! after it, in order (see [`super::input`]).

use super::Served;
use crate::engine::player::MoveInfo;
use crate::game::othello::Move;
use crate::records::ggf::{ggf_move, parse_ggf};

/// The `search` line of a move; nothing for a move without an evaluation
/// (a forced pass, the random mover's), which is not given as 0.00.
fn search_line(info: &MoveInfo<Move>) -> String {
    let (Some(cd), Some(depth)) = (info.score, info.depth) else {
        return String::new();
    };
    let eval = f64::from(cd) / 100.0;
    format!("search {} {eval:.2} 0 {depth}\n", ggf_move(info.mv))
}

/// The engine's answer to `go`: `=== MOVE/EVAL/SECONDS`, or `=== MOVE`
/// for a move without an evaluation.
fn go(served: &mut Served) -> String {
    match served.think() {
        Ok(Some(info)) => {
            let secs = info.time.as_secs_f64();
            let nodes = info
                .nodes
                .map_or(String::new(), |n| format!("nodestats {n} {secs:.3}\n"));
            let mv = ggf_move(info.mv);
            let answer = match info.score {
                Some(cd) => format!("=== {mv}/{:.2}/{secs:.3}\n", f64::from(cd) / 100.0),
                None => format!("=== {mv}\n"),
            };
            format!("{nodes}{}{answer}", search_line(&info))
        }
        Ok(None) => "status the game is over\n".into(),
        Err(e) => format!("status {e}\n"),
    }
}

/// `set game` and `set depth`.
fn set(served: &mut Served, what: &str, rest: &str) -> String {
    match what {
        "depth" => match rest.trim().parse::<u32>() {
            Ok(d) if served.set_depth(d) => format!("set myname {}\n", served.name()),
            Ok(_) | Err(_) => format!("status cannot search to depth {:?}\n", rest.trim()),
        },
        "game" => match parse_ggf(rest) {
            Ok((start, moves)) => {
                served.new_game(start);
                for mv in moves {
                    served.play(mv);
                }
                String::new()
            }
            Err(e) => format!("status bad game: {e}\n"),
        },
        _ => String::new(),
    }
}

/// The command word of a line.
fn command(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Whether `line` stops a search in progress the moment it is read:
/// `ping` and `quit`, and the end of the input (`None`: the GUI is gone).
pub fn stops(line: Option<&str>) -> bool {
    line.is_none_or(|l| matches!(command(l), "ping" | "quit"))
}

/// Whether `line` searches (`go`, `hint`): its answer is dropped when a
/// stopping line arrived during the search.
pub fn searches(line: &str) -> bool {
    matches!(command(line), "go" | "hint")
}

/// The answer to one command line, and whether to go on.
pub fn answer(served: &mut Served, line: &str) -> (String, bool) {
    let line = line.trim();
    let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let text = match command {
        "set" => {
            let rest = rest.trim_start();
            let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            set(served, what, value)
        }
        "move" => {
            let text = rest.trim().split('/').next().unwrap_or("");
            match Move::parse(text) {
                Some(mv) if served.play(mv) => String::new(),
                Some(_) | None => format!("status illegal move {text:?} ignored\n"),
            }
        }
        "go" => go(served),
        "hint" => match served.think() {
            Ok(Some(info)) => search_line(&info),
            Ok(None) => String::new(),
            Err(e) => format!("status {e}\n"),
        },
        "ping" => format!("pong {}\n", rest.trim()),
        "learn" => "learned\n".into(),
        "quit" => return (String::new(), false),
        _ => String::new(),
    };
    (text, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineConfig;
    use std::path::Path;

    fn served() -> Served {
        let text = "Engine(name: \"d2\", search: Pvs, limit: Depth(2), eval: Discs)";
        Served::new(&EngineConfig::parse(text, Path::new("d2.ron")).unwrap())
    }

    #[test]
    fn a_session_sets_a_game_moves_and_answers() {
        let mut s = served();
        assert_eq!(answer(&mut s, "nboard 2"), (String::new(), true));
        assert_eq!(answer(&mut s, "set depth 1").0, "set myname d2\n");
        assert_eq!(answer(&mut s, "ping 7").0, "pong 7\n");
        let game = "set game (;GM[Othello]PC[NBoard]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)";
        assert_eq!(answer(&mut s, game).0, "");
        assert_eq!(s.board.empties(), 58);
        let go = answer(&mut s, "go").0;
        let last = go.lines().last().unwrap();
        assert!(go.starts_with("nodestats "), "{go}");
        assert!(go.contains("\nsearch "), "{go}");
        assert!(
            last.starts_with("=== ") && last.split('/').count() == 3,
            "{go}"
        );
        // go does not play the move; move does.
        assert_eq!(s.board.empties(), 58);
        let mv = &last[4..6];
        assert_eq!(answer(&mut s, &format!("move {mv}")).0, "");
        assert_eq!(s.board.empties(), 57);
        assert!(answer(&mut s, "move a1")
            .0
            .starts_with("status illegal move"));
        assert!(answer(&mut s, "set game nonsense")
            .0
            .starts_with("status bad game"));
        assert_eq!(answer(&mut s, "unknown stuff"), (String::new(), true));
        assert_eq!(answer(&mut s, "quit"), (String::new(), false));
    }

    #[test]
    fn a_forced_pass_has_no_evaluation() {
        let mut s = served();
        // White to move on a board of black discs and one white: it must pass.
        let game = "set game (;GM[Othello]PC[NBoard]TY[8]BO[8 *******************************************************O-------- O];)";
        assert_eq!(answer(&mut s, game).0, "");
        assert_eq!(answer(&mut s, "go").0, "nodestats 0 0.000\n=== PA\n");
        assert_eq!(answer(&mut s, "hint 1").0, "");
    }
}
