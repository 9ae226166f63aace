//! A board that carries its pattern evaluation's instance readings
//! ([`Configs`]) down the midgame search, as the solver's shallow searches
//! do (`endgame/leaves.rs`) and as Edax's `eval_update` does: each child's
//! readings come from the move's square and flips, and a horizon node is
//! scored from them instead of reading the instances off the board again.
//!
//! An [`EvalBoard`] plays, hashes and ends exactly as its [`Board`]: a
//! search of it visits the same nodes and finds the same values as a
//! search of the board (tests below and in `tests/search.rs` hold the two
//! to that). Built for an evaluation without patterns it carries nothing.

use super::patterns::Configs;
use super::{OthelloEval, UNITS_PER_DISC};
use crate::game::cpu::{detect, Baseline, Cpu};
use crate::game::othello::bitboard::legal_moves;
use crate::game::othello::{Board, Move};
use crate::game::{Game, MoveList};
use crate::search::{final_value, SearchGame};

/// A [`Board`] with the readings its evaluation scores it from.
#[derive(Clone, Copy, Debug)]
pub struct EvalBoard {
    /// The position.
    pub board: Board,
    /// The readings of `board`, kept when the evaluation is a pattern one.
    configs: Option<Configs>,
}

impl EvalBoard {
    /// `board` with the readings `eval` scores it from.
    #[inline]
    pub fn new(board: Board, eval: &OthelloEval) -> EvalBoard {
        let configs = match eval {
            OthelloEval::Patterns(p) => Some(p.configs_of(board.player, board.opponent)),
            OthelloEval::Discs | OthelloEval::Squares(_) | OthelloEval::Features(_) => None,
        };
        EvalBoard { board, configs }
    }
}

impl Game for EvalBoard {
    type Move = Move;
    const NAME: &'static str = Board::NAME;

    #[inline(always)]
    fn generate_moves(&self, moves: &mut MoveList<Move>) {
        self.board.generate_moves(moves)
    }

    #[inline]
    fn play(&self, mv: Move) -> EvalBoard {
        self.play_on(Baseline, mv)
    }

    #[inline(always)]
    fn play_on<C: Cpu>(&self, cpu: C, mv: Move) -> EvalBoard {
        let board = self.board.play_unchecked_on(cpu, mv);
        let configs = self.configs.map(|c| match mv.to_square() {
            None => c.passed(),
            // The side that moved loses no disc but the flipped ones,
            // which the new side to move no longer has.
            Some(sq) => c.after(sq.index(), self.board.opponent ^ board.player),
        });
        EvalBoard { board, configs }
    }

    #[inline(always)]
    fn is_over(&self) -> bool {
        self.board.is_over()
    }

    #[inline(always)]
    fn final_score(&self) -> i32 {
        self.board.final_score()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash()
    }

    #[inline]
    fn first_player_to_move(&self) -> bool {
        self.board.first_player_to_move()
    }

    fn pass_move() -> Option<Move> {
        Board::pass_move()
    }

    #[inline(always)]
    fn move_count(&self) -> usize {
        self.board.move_count()
    }

    #[inline(always)]
    fn generate_moves_on<C: Cpu>(&self, cpu: C, moves: &mut MoveList<Move>) {
        self.board.generate_moves_on(cpu, moves)
    }

    #[inline(always)]
    fn move_count_on<C: Cpu>(&self, cpu: C) -> usize {
        self.board.move_count_on(cpu)
    }
}

impl SearchGame for EvalBoard {
    #[inline]
    fn move_slot(mv: Move) -> usize {
        Board::move_slot(mv)
    }

    #[inline]
    fn move_from_slot(slot: usize) -> Move {
        Board::move_from_slot(slot)
    }

    #[inline]
    fn is_pass(mv: Move) -> bool {
        Board::is_pass(mv)
    }

    #[inline]
    fn square_weight(mv: Move) -> i32 {
        Board::square_weight(mv)
    }

    #[inline(always)]
    fn edax_fast_key<C: Cpu>(&self, cpu: C, mv: Move) -> i32 {
        self.board.edax_fast_key(cpu, mv)
    }

    // What ordering asks of a child needs no readings.
    #[inline(always)]
    fn replies_after<C: Cpu>(&self, cpu: C, mv: Move) -> usize {
        self.board.replies_after(cpu, mv)
    }

    #[inline(always)]
    fn hash_after<C: Cpu>(&self, cpu: C, mv: Move) -> u64 {
        self.board.hash_after(cpu, mv)
    }

    fn max_plies_left(&self) -> Option<u32> {
        self.board.max_plies_left()
    }
}

impl crate::search::Evaluator<EvalBoard> for OthelloEval {
    #[inline]
    fn evaluate(&self, b: &EvalBoard) -> i32 {
        match detect() {
            Some(avx2) => self.evaluate_on(avx2, b),
            None => self.evaluate_on(Baseline, b),
        }
    }

    #[inline(always)]
    fn evaluate_on<C: Cpu>(&self, cpu: C, b: &EvalBoard) -> i32 {
        match (self, &b.configs) {
            (OthelloEval::Patterns(p), Some(configs)) => {
                let (player, opponent) = (b.board.player, b.board.opponent);
                cpu.run(
                    #[inline(always)]
                    move || {
                        let own = legal_moves(player, opponent);
                        let theirs = legal_moves(opponent, player);
                        p.evaluate_configs_on(cpu, configs, player, opponent, own, theirs)
                    },
                )
            }
            (
                OthelloEval::Patterns(_)
                | OthelloEval::Discs
                | OthelloEval::Squares(_)
                | OthelloEval::Features(_),
                _,
            ) => crate::search::Evaluator::<Board>::evaluate_on(self, cpu, &b.board),
        }
    }

    fn units_per_point(&self) -> i32 {
        UNITS_PER_DISC
    }

    #[inline(always)]
    fn horizon_on<C: Cpu>(&self, cpu: C, b: &EvalBoard) -> i32 {
        match (self, &b.configs) {
            (OthelloEval::Patterns(p), Some(configs)) => p
                .evaluate_configs_unless_over_on(cpu, configs, b.board.player, b.board.opponent)
                .unwrap_or_else(|| final_value(self, b)),
            (
                OthelloEval::Patterns(_)
                | OthelloEval::Discs
                | OthelloEval::Squares(_)
                | OthelloEval::Features(_),
                _,
            ) => crate::search::Evaluator::<Board>::horizon_on(self, cpu, &b.board),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Evaluator;

    /// Random games from the start: every position's carried readings
    /// score it as the board does, at the horizon and as an evaluation.
    #[test]
    fn carried_readings_score_every_position_as_the_board_does() {
        let evals = [
            OthelloEval::Patterns(crate::eval::patterns::tests::shipped()),
            OthelloEval::Discs,
        ];
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for eval in &evals {
            for _ in 0..200 {
                let mut b = EvalBoard::new(Board::start(), eval);
                loop {
                    assert_eq!(
                        Evaluator::<EvalBoard>::horizon_on(eval, Baseline, &b),
                        Evaluator::<Board>::horizon_on(eval, Baseline, &b.board)
                    );
                    if b.is_over() {
                        break;
                    }
                    assert_eq!(
                        Evaluator::<EvalBoard>::evaluate(eval, &b),
                        Evaluator::<Board>::evaluate(eval, &b.board)
                    );
                    let mut moves = MoveList::new();
                    b.generate_moves(&mut moves);
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let mv = moves.get((rng % moves.len() as u64) as usize);
                    let next = b.play(mv);
                    assert_eq!(next.board, b.board.play(mv));
                    assert_eq!(next.hash(), next.board.hash());
                    b = next;
                }
            }
        }
    }
}
