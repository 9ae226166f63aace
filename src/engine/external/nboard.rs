//! The NBoard protocol (version 2), our side of it: what `arena` sends an
//! engine and what it accepts back.
//!
//! - Start: `nboard 2`, `set depth N` when the engine's limit is
//!   `Depth(N)`, the engine file's `init` lines, then `ping 1` answered by
//!   `pong 1` (lines before it are ignored).
//! - New game: `set game GGF` (the standard start and the opening's moves,
//!   or the opening's position), then `ping N` / `pong N`.
//! - A move: `move F5` for each move the engine has not been told (its own
//!   last one included: NBoard engines do not play the move they answer;
//!   `move PA` for a pass, since the engine's board must follow the game),
//!   then `go`, answered by `=== F5/EVAL/TIME` or, as Edax writes it,
//!   `=== f5 -1.00 0.0` (eval and time optional). `nodestats N T` before it
//!   gives the nodes, `search PV EVAL 0 DEPTH` the depth (what the engine
//!   does not send is unknown, not 0); `status`, `set myname` and anything
//!   else are ignored.
//!
//! NBoard has no clock: under a time limit no depth is sent, and the
//! engine plays at the level its arguments or `init` lines set (Edax and
//! NTest read no `TI[]` clock from the game either) while the runner
//! enforces the deadline.

use super::process::{Deadline, Process};
use super::record::Record;
use super::spec::ExternalConfig;
use crate::engine::player::{MoveInfo, PlayerError};
use crate::game::othello::Move;
use crate::records::ggf::{ggf_move, ggf_of};
use crate::search::Limit;
use std::time::{Duration, Instant};

/// What an NBoard session remembers.
#[derive(Debug, Default)]
pub struct Nboard {
    pings: u64,
}

/// What a line from the engine means while it thinks.
#[derive(Debug, PartialEq)]
enum Said {
    /// `=== move/eval/time`: the move as written, and the eval in
    /// centidiscs.
    Move(String, Option<i32>),
    /// `nodestats`: nodes so far.
    Nodes(u64),
    /// `search`: the depth reached.
    Depth(u32),
    /// Anything else.
    Other,
}

/// What of `limit` NBoard cannot carry, in words (`None`: all of it is
/// sent): it has a depth (`set depth`) but no clock.
pub fn limit_note(limit: Limit) -> Option<String> {
    match limit {
        Limit::Depth(_) => None,
        Limit::Nodes(_) => Some("NBoard has no node limit; it plays at its own settings".into()),
        Limit::MoveTime(_) | Limit::Clock(..) => Some(
            "NBoard has no clock; it plays at its own settings (the runner still holds it to the time)"
                .into(),
        ),
    }
}

/// Discs as a decimal (`-1.50`) to centidiscs.
fn centidiscs(text: &str) -> Option<i32> {
    let v: f64 = text.parse().ok()?;
    let cd = (v * 100.0).round();
    (cd.is_finite() && cd.abs() < 1e6).then_some(cd as i32)
}

/// Reads one line of an engine's thinking.
fn said(line: &str) -> Said {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix("===") {
        let mut parts = rest
            .split(|c: char| c == '/' || c.is_whitespace())
            .filter(|s| !s.is_empty());
        let mv = parts.next().unwrap_or("").to_string();
        return Said::Move(mv, parts.next().and_then(centidiscs));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["nodestats", nodes, ..] => nodes
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 0.0)
            .map_or(Said::Other, |n| Said::Nodes(n as u64)),
        ["search", _, _, _, depth, ..] => {
            let digits: String = depth.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().map_or(Said::Other, Said::Depth)
        }
        _ => Said::Other,
    }
}

impl Nboard {
    /// `ping N` and the lines up to `pong N`.
    fn sync(&mut self, p: &mut Process, deadline: &Deadline) -> Result<(), PlayerError> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        p.send(&format!("ping {}", self.pings))?;
        let awaited = format!("the answer to `ping {}`", self.pings);
        while p.line(deadline, &awaited)?.trim() != pong {}
        Ok(())
    }

    /// The start of a session: version, depth, `init` lines, and a ping.
    ///
    /// # Errors
    /// The engine's failure (crash, silence past the deadline).
    pub fn handshake(
        &mut self,
        p: &mut Process,
        config: &ExternalConfig,
        deadline: &Deadline,
    ) -> Result<(), PlayerError> {
        p.send("nboard 2")?;
        if let Some(Limit::Depth(n)) = config.limit {
            p.send(&format!("set depth {n}"))?;
        }
        for line in &config.init {
            p.send(line)?;
        }
        self.sync(p, deadline)
    }

    /// A new game: the whole game so far in one `set game`.
    ///
    /// # Errors
    /// As [`Nboard::handshake`].
    pub fn new_game(
        &mut self,
        p: &mut Process,
        record: &mut Record,
        names: [&str; 2],
        deadline: &Deadline,
    ) -> Result<(), PlayerError> {
        let game = ggf_of(&record.start, &record.moves, names[0], names[1]);
        p.send(&format!("set game {game}"))?;
        record.told = record.moves.len();
        self.sync(p, deadline)
    }

    /// The engine's move in the record's position.
    ///
    /// # Errors
    /// As [`Nboard::handshake`], and [`PlayerError::Protocol`] for an
    /// answer that is not a move.
    pub fn choose(
        &mut self,
        p: &mut Process,
        record: &mut Record,
        deadline: &Deadline,
    ) -> Result<MoveInfo<Move>, PlayerError> {
        for (_, mv) in record.untold() {
            p.send(&format!("move {}", ggf_move(mv)))?;
        }
        record.told = record.moves.len();
        let start = Instant::now();
        p.send("go")?;
        // What the engine does not say stays unknown (Edax sends no
        // `search` line on `go`).
        let (mut nodes, mut depth) = (None, None);
        loop {
            match said(&p.line(deadline, "the answer to `go`")?) {
                Said::Move(text, score) => {
                    let mv = Move::parse(&text)
                        .ok_or_else(|| PlayerError::Protocol(format!("not a move: '{text}'")))?;
                    return Ok(answer(mv, score, depth, nodes, start.elapsed()));
                }
                Said::Nodes(n) => nodes = Some(n),
                Said::Depth(d) => depth = Some(d),
                Said::Other => {}
            }
        }
    }
}

/// A move with what the engine said about it.
fn answer(
    mv: Move,
    score: Option<i32>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Duration,
) -> MoveInfo<Move> {
    MoveInfo {
        mv,
        score,
        depth,
        nodes,
        time,
        pv: vec![mv],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_in_both_spellings() {
        assert_eq!(
            said("=== d6 -1.00 0.0"),
            Said::Move("d6".into(), Some(-100))
        );
        assert_eq!(said("=== F5/1.5/0.01"), Said::Move("F5".into(), Some(150)));
        assert_eq!(said("=== PA"), Said::Move("PA".into(), None));
        assert_eq!(said("=== xyz"), Said::Move("xyz".into(), None));
        assert_eq!(said("===  "), Said::Move(String::new(), None));
        assert_eq!(said("nodestats 35805 0.00"), Said::Nodes(35805));
        assert_eq!(said("search F5d6 -1.00 0 12@73%"), Said::Depth(12));
        assert_eq!(said("status Edax is thinking"), Said::Other);
        assert_eq!(said("nodestats lots"), Said::Other);
    }

    #[test]
    fn only_a_depth_is_carried() {
        assert_eq!(limit_note(Limit::Depth(8)), None);
        for limit in [Limit::MoveTime(1000), Limit::Clock(60_000, 0)] {
            let note = limit_note(limit).unwrap();
            assert!(note.starts_with("NBoard has no clock;"), "{note}");
        }
    }
}
