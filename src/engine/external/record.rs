//! The game as an external engine must be told it. The runner gives a
//! player only positions; the protocols speak in moves. [`Record`] keeps
//! the start and the moves so far, finds the moves that lead from the last
//! position it knew to the one it is asked about (the opponent's move, and
//! any forced passes around it), and counts how many moves the engine has
//! been told.

use crate::engine::player::{GameSetup, PlayerError};
use crate::game::othello::{Board, Color, Move};
use crate::game::Game;

/// A game from an external engine's point of view.
#[derive(Clone, Debug)]
pub struct Record {
    /// The position the moves start from (the standard start when the
    /// opening is a move list, else the opening's position).
    pub start: Board,
    /// Every move from `start`, passes included.
    pub moves: Vec<Move>,
    /// The position after them.
    pub board: Board,
    /// How many of them the engine knows.
    pub told: usize,
}

impl Record {
    /// The game of `setup`: from the standard start through the opening's
    /// moves when they lead to the setup's start, else from that start.
    pub fn new(setup: &GameSetup<Board>) -> Record {
        let mut board = Board::start();
        let replayed = setup.opening.iter().all(|&mv| match board.try_play(mv) {
            Ok(b) => {
                board = b;
                true
            }
            Err(_) => false,
        });
        if replayed && board == setup.start {
            Record {
                start: Board::start(),
                moves: setup.opening.clone(),
                board,
                told: 0,
            }
        } else {
            Record {
                start: setup.start,
                moves: Vec::new(),
                board: setup.start,
                told: 0,
            }
        }
    }

    /// True when the moves start from the standard start position.
    pub fn from_standard_start(&self) -> bool {
        self.start == Board::start()
    }

    /// Brings the record to `pos` with the moves that lead there.
    ///
    /// # Errors
    /// [`PlayerError::Protocol`] when no sequence of legal moves does
    /// (a bug of the caller's: the runner skipped a move).
    pub fn catch_up(&mut self, pos: &Board) -> Result<(), PlayerError> {
        let mut path = Vec::new();
        if !moves_between(&self.board, pos, &mut path) {
            return Err(PlayerError::Protocol(format!(
                "asked to move in a position that does not follow the game so far ({})",
                crate::game::othello::board_string(pos)
            )));
        }
        self.moves.extend(path);
        self.board = *pos;
        Ok(())
    }

    /// Plays the engine's own move if it is legal (the runner ends the game
    /// on one that is not); returns whether it was.
    pub fn play(&mut self, mv: Move) -> bool {
        match self.board.try_play(mv) {
            Ok(b) => {
                self.board = b;
                self.moves.push(mv);
                true
            }
            Err(_) => false,
        }
    }

    /// The moves the engine has not been told, each with its mover.
    pub fn untold(&self) -> Vec<(Color, Move)> {
        let mut board = self.start;
        let mut out = Vec::new();
        for (i, &mv) in self.moves.iter().enumerate() {
            if i >= self.told {
                out.push((board.side, mv));
            }
            board = board.play(mv);
        }
        out
    }
}

/// Appends to `path` the legal moves (forced passes included) that lead
/// from `from` to `to`, if there are any. Each move puts one disc on a
/// square that `to` has occupied, which bounds the search.
fn moves_between(from: &Board, to: &Board, path: &mut Vec<Move>) -> bool {
    if from == to {
        return true;
    }
    let (placed, target) = (!from.empty(), !to.empty());
    if placed & !target != 0 || from.is_over() {
        return false;
    }
    if from.must_pass() {
        path.push(Move::PASS);
        if moves_between(&from.passed(), to, path) {
            return true;
        }
        path.pop();
        return false;
    }
    for sq in from.legal_squares() {
        if target & sq.bit() == 0 {
            continue;
        }
        let mv = Move::square(sq);
        path.push(mv);
        if moves_between(&from.play(mv), to, path) {
            return true;
        }
        path.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::play_move_list;

    fn setup(start: Board, opening: Vec<Move>) -> GameSetup<Board> {
        GameSetup {
            game_id: 0,
            start,
            opening,
            first: true,
            clock: None,
            move_time: None,
            seed: 0,
        }
    }

    #[test]
    fn the_opponent_s_moves_and_passes_are_found() {
        let (after, opening) = play_move_list(Board::start(), "f5d6").unwrap();
        let mut r = Record::new(&setup(after, opening));
        assert!(r.from_standard_start());
        assert_eq!(r.untold().len(), 2);
        r.told = 2;
        assert!(r.play(Move::parse("c3").unwrap()));
        let next = r.board.play(Move::parse("d3").unwrap());
        r.catch_up(&next).unwrap();
        let untold: Vec<String> = r
            .untold()
            .iter()
            .map(|(c, m)| format!("{c:?} {m}"))
            .collect();
        assert_eq!(untold, ["Black c3", "White d3"]);
        assert!(r.catch_up(&Board::start()).is_err());
        // Two moves in a row around a forced pass.
        for seed in 0..200 {
            let mut rng = crate::rng::SplitMix64::new(seed);
            let mut b = Board::start();
            let mut list = crate::game::MoveList::new();
            while !b.is_over() {
                list.clear();
                b.generate_moves(&mut list);
                let mv = list.get((rng.next_u64() % list.len() as u64) as usize);
                let next = b.play(mv);
                if next.must_pass() && !next.is_over() {
                    let last = next.passed().legal_squares().next().unwrap();
                    let end = next.passed().play(Move::square(last));
                    let mut path = Vec::new();
                    assert!(moves_between(&b, &end, &mut path));
                    assert_eq!(path.len(), 3, "{path:?}");
                    assert_eq!(path.iter().fold(b, |p, &m| p.try_play(m).unwrap()), end);
                    // The pass alone, too.
                    let mut path = Vec::new();
                    assert!(moves_between(&next, &next.passed(), &mut path));
                    assert_eq!(path, [Move::PASS]);
                    return;
                }
                b = next;
            }
        }
        panic!("no random game had a pass");
    }

    #[test]
    fn a_position_opening_starts_there() {
        let (pos, _) = play_move_list(Board::start(), "f5f6").unwrap();
        let r = Record::new(&setup(pos, Vec::new()));
        assert!(!r.from_standard_start());
        assert_eq!(r.start, pos);
        assert!(r.moves.is_empty());
    }
}
