//! Playing one game: both players built fresh from their configs and the
//! game's seed, the opening set up, moves asked for in turn, clocks
//! enforced. A player that panics or plays an illegal move forfeits; one
//! that overruns its clock loses on time. The result is a [`GameRecord`].

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

use super::config::Tournament;
use super::schedule::Pairing;
use crate::engine::{build_player, MoveReport, Player};
use crate::game::othello::{board_string, Color, Move};
use crate::game::Game;
use crate::records::GameRecord;
use crate::search::limits::ClockState;
use crate::search::Limit;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// The seed of game `game_id` in a tournament seeded `seed`, for the engine
/// playing `colour` (0 black, 1 white): SplitMix64's finaliser over the three.
pub fn game_seed(seed: u64, game_id: u64, colour: u64) -> u64 {
    let mut z = seed
        .wrapping_add(game_id.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(colour.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How a game ended early.
enum Forfeit {
    Time,
    Crash(String),
    Illegal(Move),
}

/// Plays the game `p` of tournament `t`.
pub fn play_game(t: &Tournament, p: &Pairing) -> GameRecord {
    let opening = &t.book.openings[p.opening_id];
    let engines = [&t.engines[p.black], &t.engines[p.white]];
    let mut players: [Box<dyn Player>; 2] = [
        build_player(engines[0], game_seed(t.seed, p.game_id, 0)),
        build_player(engines[1], game_seed(t.seed, p.game_id, 1)),
    ];
    let mut clocks: [Option<ClockState>; 2] = [0, 1].map(|i| match engines[i].raw.limit {
        Limit::Clock(base, inc) if engines[i].search.is_some() => Some(ClockState {
            remaining: Duration::from_millis(base),
            increment: Duration::from_millis(inc),
        }),
        Limit::Clock(..) | Limit::Depth(_) | Limit::Nodes(_) | Limit::MoveTime(_) => None,
    });
    let mut moves: Vec<Move> = opening.moves.clone().unwrap_or_default();
    let opening_plies = moves.len();
    let mut board = opening.board;
    let (mut nodes, mut times_ms, mut depths) = (Vec::new(), Vec::new(), Vec::new());
    let mut forfeit: Option<(usize, Forfeit)> = None;
    while !board.is_over() {
        let side = usize::from(board.side == Color::White);
        if board.must_pass() {
            moves.push(Move::PASS);
            board = board.passed();
            nodes.push(0);
            times_ms.push(0.0);
            depths.push(0);
            continue;
        }
        let clock = clocks[side];
        let start = Instant::now();
        let answer = catch_unwind(AssertUnwindSafe(|| players[side].choose(&board, clock)));
        let elapsed = start.elapsed();
        let report: MoveReport = match answer {
            Ok(r) => r,
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".into());
                forfeit = Some((side, Forfeit::Crash(msg)));
                break;
            }
        };
        if let Some(c) = &mut clocks[side] {
            if elapsed > c.remaining {
                forfeit = Some((side, Forfeit::Time));
                break;
            }
            c.remaining = c.remaining - elapsed + c.increment;
        }
        match board.try_play(report.mv) {
            Ok(next) => board = next,
            Err(_) => {
                forfeit = Some((side, Forfeit::Illegal(report.mv)));
                break;
            }
        }
        moves.push(report.mv);
        nodes.push(report.nodes);
        times_ms.push((elapsed.as_secs_f64() * 1e6).round() / 1e3);
        depths.push(report.depth);
    }
    let (result, disc_diff, reason) = match forfeit {
        None => {
            let d = board.black_disc_diff();
            let r = match d.signum() {
                1 => 1.0,
                -1 => 0.0,
                _ => 0.5,
            };
            (r, d, "game over".to_string())
        }
        Some((loser, why)) => {
            let name = &engines[loser].name;
            let reason = match why {
                Forfeit::Time => format!("time forfeit: {name}"),
                Forfeit::Crash(msg) => format!("crash: {name} ({msg})"),
                Forfeit::Illegal(mv) => format!("illegal move: {name} ({mv})"),
            };
            if loser == 0 {
                (0.0, -64, reason)
            } else {
                (1.0, 64, reason)
            }
        }
    };
    GameRecord {
        pair_id: p.pair_id,
        game_id: p.game_id,
        round: p.round,
        opening_id: p.opening_id,
        black: engines[0].name.clone(),
        white: engines[1].name.clone(),
        start: opening
            .moves
            .is_none()
            .then(|| board_string(&opening.board)),
        opening_plies,
        moves: crate::game::othello::notation::move_list_string(&moves),
        result,
        disc_diff,
        reason,
        nodes,
        times_ms,
        depths,
    }
}
