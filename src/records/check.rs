//! Checking a journal's games before anything is computed from them: a
//! hand-edited or corrupted line must be an error naming the file, line and
//! field, never a silently different result. Each game is checked on its
//! own (result, moves replayed from its start, ending) and against the run
//! it claims to belong to (game id in the schedule and the shard, engines
//! of the run).

use super::game::{points_for, GameRecord};
use super::info::TournamentInfo;
use crate::game::othello::{parse_position, play_move_list, Board};
use crate::game::tictactoe::{Cell, TicTacToe};
use crate::game::{Game, GameKind, MoveList};

/// What is wrong with a game line: the field and the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadGame {
    /// The JSON key.
    pub field: &'static str,
    /// What is wrong, with the value.
    pub message: String,
}

fn bad(field: &'static str, message: String) -> BadGame {
    BadGame { field, message }
}

/// Checks a game on its own: its result is 0, 0.5 or 1; its moves are
/// legal from its start; a game that ended normally is over, with the disc
/// difference and result of its final position; a forfeit is a win or a
/// loss.
///
/// # Errors
/// The first problem found.
pub fn check_game(rec: &GameRecord, game: GameKind) -> Result<(), BadGame> {
    if ![0.0, 0.5, 1.0].contains(&rec.result) {
        return Err(bad(
            "result",
            format!("{} is not a game result (1, 0.5 or 0)", rec.result),
        ));
    }
    if rec.game_id / 2 != rec.pair_id {
        return Err(bad(
            "pair_id",
            format!(
                "{} is not the pair of game {} (that is {})",
                rec.pair_id,
                rec.game_id,
                rec.game_id / 2
            ),
        ));
    }
    match game {
        GameKind::Othello => {
            let start = match &rec.start {
                Some(p) => parse_position(p).map_err(|e| bad("start", e.to_string()))?,
                None => Board::start(),
            };
            let (end, _) =
                play_move_list(start, &rec.moves).map_err(|e| bad("moves", e.to_string()))?;
            check_result(rec, &end)
        }
        GameKind::TicTacToe => check_result(rec, &replay_tictactoe(&rec.moves)?),
    }
}

/// A tic-tac-toe game's moves (`a1b2…`) replayed from the empty board.
fn replay_tictactoe(moves: &str) -> Result<TicTacToe, BadGame> {
    let mut pos = TicTacToe::new();
    let mut legal = MoveList::new();
    for (i, pair) in moves.as_bytes().chunks(2).enumerate() {
        let text = String::from_utf8_lossy(pair);
        let cell = Cell::parse(&text).ok_or_else(|| {
            bad(
                "moves",
                format!("move {}: {text:?} is not a cell a1 to c3", i + 1),
            )
        })?;
        legal.clear();
        pos.generate_moves(&mut legal);
        if !legal.iter().any(|m| m == cell) {
            return Err(bad("moves", format!("move {}: {cell} is not legal", i + 1)));
        }
        pos = pos.play(cell);
    }
    Ok(pos)
}

/// A game's result against its end: a game played out is over with that
/// score; an adjudicated one has a result its score gives; a forfeit is a
/// win or a loss.
fn check_result<G: Game>(rec: &GameRecord, end: &G) -> Result<(), BadGame> {
    if rec.reason == "game over" {
        check_ending(rec, end)
    } else if rec.reason.starts_with("adjudicated") {
        check_adjudicated(rec)
    } else if rec.result == 0.5 {
        Err(bad(
            "result",
            format!("a game lost by {:?} cannot be a draw", rec.reason),
        ))
    } else {
        Ok(())
    }
}

/// An adjudicated game: a final score of at most 64 discs, and the result
/// it gives (the score itself is the solver's; it is not solved again).
fn check_adjudicated(rec: &GameRecord) -> Result<(), BadGame> {
    if rec.disc_diff.abs() > 64 {
        return Err(bad(
            "disc_diff",
            format!("{} is not a final score (-64 to 64)", rec.disc_diff),
        ));
    }
    if rec.result != points_for(rec.disc_diff) {
        return Err(bad(
            "result",
            format!(
                "{} does not match disc_diff {:+}",
                rec.result, rec.disc_diff
            ),
        ));
    }
    Ok(())
}

/// A game that ended normally: over, with its final position's score.
fn check_ending<G: Game>(rec: &GameRecord, end: &G) -> Result<(), BadGame> {
    if !end.is_over() {
        return Err(bad(
            "moves",
            "the game is not over after these moves, but its reason is \"game over\"".into(),
        ));
    }
    let score = end.final_score();
    let black = if end.first_player_to_move() {
        score
    } else {
        -score
    };
    if rec.disc_diff != black {
        return Err(bad(
            "disc_diff",
            format!(
                "{} does not match the final position ({black:+})",
                rec.disc_diff
            ),
        ));
    }
    if rec.result != points_for(black) {
        return Err(bad(
            "result",
            format!(
                "{} does not match the final position (black {black:+} discs)",
                rec.result
            ),
        ));
    }
    Ok(())
}

/// Checks a game against its run: its id is one the run (its shard)
/// schedules and its engines are two different engines of the run.
///
/// # Errors
/// The first problem found.
pub fn check_in_run(rec: &GameRecord, info: &TournamentInfo) -> Result<(), BadGame> {
    let games = info.total_pairs.saturating_mul(2);
    if rec.game_id >= games {
        return Err(bad(
            "game_id",
            format!(
                "{} is outside the schedule (games 0 to {})",
                rec.game_id,
                games.saturating_sub(1)
            ),
        ));
    }
    let shard = info.shard();
    if !shard.owns(rec.pair_id) {
        return Err(bad(
            "game_id",
            format!(
                "{} belongs to another shard than {}",
                rec.game_id, info.shard
            ),
        ));
    }
    for (field, name) in [("black", &rec.black), ("white", &rec.white)] {
        if !info.engines.contains(name) {
            return Err(bad(field, format!("{name:?} is not an engine of this run")));
        }
    }
    if rec.black == rec.white {
        return Err(bad("white", format!("{:?} cannot play itself", rec.white)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &str, result: f64, disc_diff: i32, reason: &str) -> GameRecord {
        GameRecord {
            pair_id: 0,
            game_id: 1,
            round: 0,
            opening_id: 0,
            black: "a".into(),
            white: "b".into(),
            start: None,
            opening_plies: 0,
            moves: moves.into(),
            result,
            disc_diff,
            reason: reason.into(),
            nodes: vec![],
            times_ms: vec![],
            depths: vec![],
            scores: vec![],
        }
    }

    // The shortest Othello game: black wins 13-0 after 9 moves (a
    // well-known fact of the game).
    const SHORTEST: &str = "e6f4e3f6g5d6e7f5c5";

    #[test]
    fn a_true_game_passes_and_each_lie_is_named() {
        let check = |r: &GameRecord| check_game(r, GameKind::Othello);
        assert_eq!(check(&record(SHORTEST, 1.0, 64, "game over")), Ok(()));
        let field = |r: GameRecord| check(&r).unwrap_err().field;
        assert_eq!(field(record(SHORTEST, 7.0, 64, "game over")), "result");
        assert_eq!(field(record(SHORTEST, 0.0, 64, "game over")), "result");
        assert_eq!(field(record(SHORTEST, 1.0, 13, "game over")), "disc_diff");
        assert_eq!(field(record("e6f4e3f6", 1.0, 64, "game over")), "moves");
        assert_eq!(field(record("e6e6", 1.0, 64, "crash: a (x)")), "moves");
        assert_eq!(field(record("e6", 0.5, 0, "crash: a (x)")), "result");
        assert_eq!(check(&record("e6", 0.0, -64, "crash: a (x)")), Ok(()));
        // Tic-tac-toe: X takes the top row in five moves and scores 10 - 5.
        let ttt = |m: &str, r: f64, d: i32| {
            check_game(&record(m, r, d, "game over"), GameKind::TicTacToe)
        };
        assert_eq!(ttt("a1a2b1b2c1", 1.0, 5), Ok(()));
        assert_eq!(ttt("a1a2b1b2c1", 1.0, 4).unwrap_err().field, "disc_diff");
        assert_eq!(ttt("a1a1", 1.0, 5).unwrap_err().field, "moves");
        assert_eq!(ttt("a1d9", 1.0, 5).unwrap_err().field, "moves");
    }
}
