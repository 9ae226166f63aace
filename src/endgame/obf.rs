//! OBF files (the FFO test suites' format, as in Edax): one problem per
//! line, `<position string>; <MOVE>:<score>; ...`, the moves best first with
//! their exact scores; `%` starts a comment.

use crate::error::{Error, Result};
use crate::game::othello::{parse_board_string, Board, Move};
use std::path::Path;

/// One problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line in the file.
    pub line: usize,
    /// The position.
    pub board: Board,
    /// Listed moves with their exact scores, best first (may be empty).
    pub moves: Vec<(Move, i32)>,
}

impl Problem {
    /// The exact score (the best listed), if any move is listed.
    pub fn expected_score(&self) -> Option<i32> {
        self.moves.iter().map(|m| m.1).max()
    }

    /// True when `mv` is listed with the best score.
    pub fn is_best(&self, mv: Move) -> bool {
        let best = self.expected_score();
        self.moves.iter().any(|&(m, s)| m == mv && Some(s) == best)
    }
}

/// Parses OBF text; `path` names it in errors.
///
/// # Errors
/// [`Error::Config`] naming the line and what is wrong.
pub fn parse(text: &str, path: &Path) -> Result<Vec<Problem>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('%').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |col: usize, msg: String| Error::config_at(path, i + 1, col, msg);
        let mut parts = line.split(';');
        let pos = parts.next().unwrap_or("").trim();
        let board = parse_board_string(pos).map_err(|e| bad(1, format!("bad position: {e}")))?;
        let mut moves = Vec::new();
        for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let col = raw.find(part).map_or(0, |c| c + 1);
            let (m, s) = part
                .split_once(':')
                .ok_or_else(|| bad(col, format!("{part:?}: expected MOVE:SCORE")))?;
            let mv =
                Move::parse(m.trim()).ok_or_else(|| bad(col, format!("{m:?} is not a square")))?;
            let score: i32 = s
                .trim()
                .trim_start_matches('+')
                .parse()
                .map_err(|_| bad(col, format!("{s:?} is not a score")))?;
            if board.try_play(mv).is_err() {
                return Err(bad(col, format!("{m} is not legal in this position")));
            }
            moves.push((mv, score));
        }
        out.push(Problem {
            line: i + 1,
            board,
            moves,
        });
    }
    Ok(out)
}
