//! A game thread's adjudication of its games: the solver's exact result at a
//! number of empties ([`SolveAt`]), then the rules by the engines' reported
//! scores (resign and draw, [`crate::records::adjudge`]), in that order.

use super::play::Adjudicator;
use crate::endgame::builtin::order_eval;
use crate::endgame::Solver;
use crate::game::othello::{Board, Move};
use crate::game::Game;
use crate::records::adjudge::{Call, ScoreJudge, ScoreRules};
use crate::tournament::config::options::Adjudicate;

/// Adjudication by the solver: a game that reaches `empties` empty squares
/// ends with the exact result of perfect play from there.
pub struct SolveAt {
    empties: u32,
    solver: Solver,
}

impl SolveAt {
    /// Adjudication at `empties` empties, with the solver's built-in
    /// ordering evaluation.
    pub fn new(empties: u32) -> SolveAt {
        SolveAt {
            empties,
            solver: Solver::new(ADJUDICATION_TT_MIB, Some(order_eval())),
        }
    }
}

/// The adjudicating solver's table, MiB.
const ADJUDICATION_TT_MIB: usize = 16;

impl Adjudicator<Board> for SolveAt {
    fn adjudicate(&mut self, pos: &Board, _: &[Move], _: &[Option<i32>]) -> Option<(i32, String)> {
        if pos.empties() > self.empties {
            return None;
        }
        let s = self.solver.solve(pos).score;
        let black = if pos.first_player_to_move() { s } else { -s };
        Some((black, format!("solved at {} empties", pos.empties())))
    }
}

/// A game thread's adjudicator: the solver (made on first use) when the run
/// solves, then the score rules, for the game between the engines named.
pub struct Judge {
    settings: Adjudicate,
    solve: Option<SolveAt>,
    names: [String; 2],
}

impl Judge {
    /// The adjudicator of a run adjudicating as `settings` say.
    pub fn new(settings: Adjudicate) -> Judge {
        Judge {
            settings,
            solve: None,
            names: Default::default(),
        }
    }

    /// The adjudicator of a game between black `names[0]` and white
    /// `names[1]` (`None` when the run does not adjudicate).
    pub fn for_game(&mut self, names: [&str; 2]) -> Option<&mut Judge> {
        if self.settings == Adjudicate::default() {
            return None;
        }
        self.names = names.map(str::to_string);
        Some(self)
    }

    fn rules(&self) -> ScoreRules {
        self.settings.score_rules()
    }
}

impl Adjudicator<Board> for Judge {
    fn adjudicate(
        &mut self,
        pos: &Board,
        moves: &[Move],
        scores: &[Option<i32>],
    ) -> Option<(i32, String)> {
        if let Some(n) = self.settings.solve_at_empties {
            let solve = self.solve.get_or_insert_with(|| SolveAt::new(n));
            if let Some(solved) = solve.adjudicate(pos, moves, scores) {
                return Some(solved);
            }
        }
        let rules = self.rules();
        if rules == ScoreRules::default() {
            return None;
        }
        let call = call_at(rules, pos, moves, scores)?;
        let names = [self.names[0].as_str(), self.names[1].as_str()];
        Some((call.black_score(), call.reason(names)))
    }
}

/// The score rules' call at `pos`, reached by `moves` (passes included)
/// with their `scores`: the moves are replayed backwards to know who made
/// each (the side to move alternates, passes being moves here).
fn call_at(rules: ScoreRules, pos: &Board, moves: &[Move], scores: &[Option<i32>]) -> Option<Call> {
    let mut judge = ScoreJudge::new(rules);
    let n = moves.len();
    let black_now = pos.first_player_to_move();
    for (k, &mv) in moves.iter().enumerate() {
        if mv.is_pass() {
            continue;
        }
        // Move n - 1 was made by the side not to move now, move n - 2 by
        // the side to move, and so on.
        let black = if (n - k) % 2 == 1 {
            !black_now
        } else {
            black_now
        };
        judge.see(black, scores.get(k).copied().flatten());
    }
    judge.call(pos.empties())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::play_move_list;
    use crate::game::MoveList;
    use crate::records::adjudge::{Draw, Resign};

    #[test]
    fn the_runner_knows_who_made_each_move_passes_included() {
        let rules = ScoreRules {
            resign: Some(Resign {
                move_count: 2,
                score: 1,
            }),
            draw: None,
        };
        let (pos, moves) = play_move_list(Board::start(), "f5d6c3d3").unwrap();
        let down = [Some(-150), Some(150), Some(-150), Some(150)];
        assert_eq!(
            call_at(rules, &pos, &moves, &down),
            Some(Call::Resign {
                black_lost: true,
                disc_diff: -2,
                rule: rules.resign.unwrap(),
            })
        );
        // The same moves and scores with white to move now: white began,
        // so white is down.
        let white_to_move = pos.passed();
        let white_lost = call_at(rules, &white_to_move, &moves, &down);
        assert!(matches!(
            white_lost,
            Some(Call::Resign {
                black_lost: false,
                ..
            })
        ));
        // A forced pass first is skipped: it neither counts nor breaks, and
        // the side of each move still alternates.
        let with_pass = [Move::PASS, moves[0], moves[1], moves[2], moves[3]];
        let scores = [None, down[0], down[1], down[2], down[3]];
        let black_lost = call_at(rules, &pos, &with_pass, &scores);
        assert!(matches!(
            black_lost,
            Some(Call::Resign {
                black_lost: true,
                ..
            })
        ));
        let white_lost = call_at(rules, &white_to_move, &with_pass, &scores);
        assert!(matches!(
            white_lost,
            Some(Call::Resign {
                black_lost: false,
                ..
            })
        ));
        let broken = [down[0], down[1], None, down[3]];
        assert_eq!(call_at(rules, &pos, &moves, &broken), None);
    }

    /// A game from the start to 12 empty squares, its last two moves not
    /// passes and not over: the position and the moves. The `k`th legal
    /// move is played at ply `k`, counted round the list.
    fn a_game_to_12_empties() -> (Board, Vec<Move>) {
        let (mut pos, mut played) = (Board::start(), Vec::new());
        let mut moves = MoveList::new();
        while pos.empties() > 12 && !pos.is_over() {
            moves.clear();
            pos.generate_moves(&mut moves);
            let mv = moves.get(played.len() % moves.len());
            pos = pos.play(mv);
            played.push(mv);
        }
        let n = played.len();
        assert!(!pos.is_over() && !played[n - 2].is_pass() && !played[n - 1].is_pass());
        (pos, played)
    }

    #[test]
    fn the_solver_goes_first_then_a_draw_then_a_resignation_as_in_cutechess() {
        let (pos, moves) = a_game_to_12_empties();
        let n = moves.len();
        // The last two moves: the loser's engine says -1.5 discs, the
        // winner's +1.5, so a resignation at 1 disc and a draw within 2
        // discs both hold after them.
        let mut scores = vec![None; n];
        (scores[n - 2], scores[n - 1]) = (Some(-150), Some(150));
        let resign = Resign {
            move_count: 1,
            score: 1,
        };
        let draw = Draw {
            move_number: 0,
            move_count: 1,
            score: 2,
        };
        let reason = |settings: Adjudicate| {
            let mut judge = Judge::new(settings);
            let judge = judge.for_game(["b", "w"]).unwrap();
            judge.adjudicate(&pos, &moves, &scores).map(|(_, why)| why)
        };
        let all = Adjudicate {
            solve_at_empties: Some(12),
            resign: Some(resign),
            draw: Some(draw),
        };
        assert_eq!(reason(all).as_deref(), Some("solved at 12 empties"));
        let not_yet = Adjudicate {
            solve_at_empties: Some(11),
            ..all
        };
        assert_eq!(
            reason(not_yet).as_deref(),
            Some("draw (|score| <= 2 for 1 moves from move 0)")
        );
        let resign_only = Adjudicate {
            draw: None,
            ..not_yet
        };
        let loser = if pos.first_player_to_move() { "b" } else { "w" };
        assert_eq!(
            reason(resign_only),
            Some(format!("resign: {loser} (score <= -1 for 1 moves)"))
        );
    }
}
