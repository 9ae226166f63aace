//! OBF files (the FFO test suites' format, as in Edax): one problem per
//! line, `<position string>; <MOVE>:<score>; ...`, the moves best first with
//! their exact scores; `%` starts a comment.

use crate::error::{Error, Result};
use crate::game::othello::{parse_board_string, Board, Move};
use crate::util::text::excerpt;
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

    /// The line printed on stderr when a solve disagrees with the file:
    /// the file and line, then both scores, or the move found and the
    /// file's best moves when only the move differs. `best_move` is the
    /// solver's move as text.
    pub fn mismatch(&self, path: &Path, score: i32, best_move: Option<&str>) -> String {
        let place = format!("{}:{}", path.display(), self.line);
        match self.expected_score() {
            Some(expected) if expected != score => {
                format!("{place}: the file gives score {expected:+}, the solver finds {score:+}")
            }
            expected => {
                let best: Vec<String> = self
                    .moves
                    .iter()
                    .filter(|&&(_, s)| Some(s) == expected)
                    .map(|(m, _)| m.to_string())
                    .collect();
                format!(
                    "{place}: score {score:+} agrees, but the solver's move {} is not among the file's best ({})",
                    best_move.unwrap_or("(none)"),
                    best.join(" ")
                )
            }
        }
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
                .ok_or_else(|| bad(col, format!("{:?}: expected MOVE:SCORE", excerpt(part, 40))))?;
            let mv = Move::parse(m.trim())
                .ok_or_else(|| bad(col, format!("{:?} is not a square", excerpt(m, 40))))?;
            let score: i32 = s
                .trim()
                .trim_start_matches('+')
                .parse()
                .map_err(|_| bad(col, format!("{:?} is not a score", excerpt(s, 40))))?;
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
