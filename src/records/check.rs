//! Checking a journal's games before anything is computed from them: a
//! hand-edited or corrupted line must be an error naming the file, line and
//! field, never a silently different result. Each game is checked on its
//! own (result, moves replayed from its start, ending) and against the run
//! it claims to belong to (game id in the schedule and the shard, engines
//! of the run).

use super::adjudge::{check_claim, check_score_rules, claim, Claim};
use super::game::{bad, points_for, BadGame, GameRecord};
use super::info::{Format, TournamentInfo};
use crate::game::othello::{parse_position, play_move_list, Board, Move};
use crate::game::tictactoe::{Cell, TicTacToe};
use crate::game::{Game, GameKind, MoveList};

/// Checks a game on its own: its result is 0, 0.5 or 1; its moves are
/// legal from its start; a game that ended normally is over, with the disc
/// difference and result of its final position; a forfeit is lost by the
/// engine it names; the per-move lists fit the moves.
///
/// # Errors
/// The first problem found.
pub fn check_game(rec: &GameRecord, game: GameKind) -> Result<(), BadGame> {
    check_counted(rec)?;
    // The moves first: the other fields are checked against them.
    match game {
        GameKind::Othello => {
            let (end, _) = replay_othello(rec)?;
            check_move_data(rec)?;
            if rec.reason.starts_with("adjudicated") {
                check_solved_at(rec, &end)?;
            }
            check_result(rec, &end, 64)
        }
        GameKind::TicTacToe => {
            let end = replay_tictactoe(&rec.moves)?;
            check_move_data(rec)?;
            if rec.reason.starts_with("adjudicated") {
                return Err(bad(
                    "reason",
                    format!("{:?}: tic-tac-toe games are never adjudicated", rec.reason),
                ));
            }
            check_result(rec, &end, 10)
        }
    }
}

/// The checks of [`check_game`] that do not need the moves: a result that
/// is one, a game of its pair (a game read by
/// [`GameRecord::counted_from_json`]).
pub fn check_counted(rec: &GameRecord) -> Result<(), BadGame> {
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
    Ok(())
}

/// An Othello game's moves replayed from its start: the end position and
/// the moves with the passes the text leaves out.
fn replay_othello(rec: &GameRecord) -> Result<(Board, Vec<Move>), BadGame> {
    let start = match &rec.start {
        Some(p) => parse_position(p).map_err(|e| bad("start", e.to_string()))?,
        None => Board::start(),
    };
    play_move_list(start, &rec.moves).map_err(|e| bad("moves", e.to_string()))
}

/// The opening's plies are among the moves, and the per-move lists (one
/// entry for each move after the opening; `scores` may be left out) are as
/// long as the moves they describe, with times that are times.
fn check_move_data(rec: &GameRecord) -> Result<(), BadGame> {
    let plies = rec.moves.len() / 2;
    if rec.opening_plies > plies {
        return Err(bad(
            "opening_plies",
            format!(
                "{} is more than the game's {plies} plies",
                rec.opening_plies
            ),
        ));
    }
    let after = plies - rec.opening_plies;
    let lists: [(&'static str, usize); 4] = [
        ("nodes", rec.nodes.len()),
        ("times_ms", rec.times_ms.len()),
        ("depths", rec.depths.len()),
        ("scores", rec.scores.len()),
    ];
    for (field, len) in lists {
        if len != 0 && len != after {
            return Err(bad(
                field,
                format!("{len} entries for the {after} moves after the opening"),
            ));
        }
    }
    if let Some(t) = rec.times_ms.iter().find(|t| !(t.is_finite() && **t >= 0.0)) {
        return Err(bad("times_ms", format!("{t} is not a time in ms")));
    }
    Ok(())
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
/// score; an adjudicated one has a result its score gives; a forfeit is
/// lost by the engine it names, by `largest` (the game's largest score).
fn check_result<G: Game>(rec: &GameRecord, end: &G, largest: i32) -> Result<(), BadGame> {
    if rec.reason == "game over" {
        check_ending(rec, end)
    } else if rec.reason.starts_with("adjudicated") {
        check_adjudicated(rec)
    } else {
        check_forfeit(rec, largest)
    }
}

/// A forfeit (`time forfeit: NAME (...)`, `crash: NAME (...)`, `illegal
/// move: NAME (...)`): NAME is one of the game's two engines, and it lost,
/// by the game's largest score.
fn check_forfeit(rec: &GameRecord, largest: i32) -> Result<(), BadGame> {
    let named = ["time forfeit: ", "crash: ", "illegal move: "]
        .iter()
        .find_map(|kind| rec.reason.strip_prefix(kind));
    let Some(named) = named else {
        return Err(bad(
            "reason",
            format!(
                "{:?} is not a way a game ends (game over, adjudicated, time forfeit, crash or illegal move)",
                rec.reason
            ),
        ));
    };
    // NAME, then ` (details)` (or nothing, as older versions wrote a time
    // forfeit). One name can begin the other ("ab" and "ab (ext)"), so
    // the line stands when an engine it can name lost as recorded.
    let names = |name: &str| {
        named
            .strip_prefix(name)
            .is_some_and(|r| r.is_empty() || r.starts_with(" ("))
    };
    let candidates: Vec<(f64, i32)> = [(&rec.black, 0.0, -largest), (&rec.white, 1.0, largest)]
        .into_iter()
        .filter(|(name, ..)| names(name))
        .map(|(_, result, diff)| (result, diff))
        .collect();
    let Some(&(result, disc_diff)) = candidates
        .iter()
        .find(|&&(r, _)| r == rec.result)
        .or(candidates.first())
    else {
        return Err(bad(
            "reason",
            format!("{:?} names neither engine of the game", rec.reason),
        ));
    };
    if rec.result != result {
        return Err(bad(
            "result",
            format!(
                "{} does not match {:?}: the engine named lost, so black scores {result}",
                rec.result, rec.reason
            ),
        ));
    }
    if rec.disc_diff != disc_diff {
        return Err(bad(
            "disc_diff",
            format!("{} is not a forfeit's score ({disc_diff:+})", rec.disc_diff),
        ));
    }
    Ok(())
}

/// The empties an adjudicated game's reason says it was solved at
/// (`adjudicated: solved at N empties`).
fn solved_at(reason: &str) -> Option<u32> {
    match claim(reason)? {
        Claim::Solved(n) => Some(n),
        Claim::Resign { .. } | Claim::Draw(_) => None,
    }
}

/// An adjudicated Othello game stops, not over, at the empties its reason
/// names (adjudication solves the position the moves reach), or where the
/// engines' scores called it (resign or draw).
fn check_solved_at(rec: &GameRecord, end: &Board) -> Result<(), BadGame> {
    let Some(c) = claim(&rec.reason) else {
        return Err(bad(
            "reason",
            format!(
                "{:?} is not an adjudication (\"adjudicated: solved at N empties\", \"adjudicated: resign: NAME (score <= -S for N moves)\" or \"adjudicated: draw (|score| <= S for N moves from move M)\")",
                rec.reason
            ),
        ));
    };
    check_claim(rec, c, end)?;
    match c {
        Claim::Solved(n) if n != end.empties() => Err(bad(
            "reason",
            format!(
                "{:?}, but the moves stop at {} empties",
                rec.reason,
                end.empties()
            ),
        )),
        Claim::Solved(_) | Claim::Resign { .. } | Claim::Draw(_) => Ok(()),
    }
}

/// Against a run that adjudicates at `limit` empties or fewer (`None`: it
/// does not adjudicate): an adjudicated game was solved within the limit,
/// and no game played a move (after its opening) from a position the
/// limit would have adjudicated.
fn check_adjudication_rule(rec: &GameRecord, limit: Option<u32>) -> Result<(), BadGame> {
    if let Some(n) = solved_at(&rec.reason) {
        return match limit {
            None => Err(bad(
                "reason",
                format!(
                    "{:?}, but this run does not adjudicate (tournament.json: adjudicate)",
                    rec.reason
                ),
            )),
            Some(l) if n > l => Err(bad(
                "reason",
                format!(
                    "{:?}, but this run adjudicates at {l} empties or fewer (tournament.json: adjudicate)",
                    rec.reason
                ),
            )),
            // Within the limit, but no later than the limit allowed.
            Some(l) => check_played_above(rec, l),
        };
    }
    match limit {
        Some(l) => check_played_above(rec, l),
        None => Ok(()),
    }
}

/// No move after the opening was played from a position with `l` empties
/// or fewer (where the run adjudicates).
fn check_played_above(rec: &GameRecord, l: u32) -> Result<(), BadGame> {
    // `opening_plies` counts the plies the text gives (as the per-move
    // lists do); a game without a ply of its own has nothing to check.
    if rec.moves.len() / 2 <= rec.opening_plies {
        return Ok(());
    }
    let (end, played) = replay_othello(rec)?;
    // Passes are only ever inserted before a move: the list's last entry is
    // the text's last ply.
    let Some(last) = played.last() else {
        return Ok(());
    };
    // Each move fills one square (a pass none), so the position before the
    // last move had the fewest empties any move was played from.
    let before = end.empties() + u32::from(!last.is_pass());
    if before <= l {
        return Err(bad(
            "moves",
            format!(
                "a move was played at {before} empties, where this run adjudicates (at {l} or fewer; tournament.json: adjudicate)"
            ),
        ));
    }
    Ok(())
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

/// Where the schedule puts a game: its engines (indices into the run's
/// engines), round and opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Black's engine.
    pub black: usize,
    /// White's engine.
    pub white: usize,
    /// Round of the meeting.
    pub round: u64,
    /// Opening index in the book.
    pub opening_id: usize,
}

/// A tune's game says its iteration (its pair's) and the values of each
/// of the tune's parameters its sides played; another run's game says
/// none.
fn check_tune(rec: &GameRecord, info: &TournamentInfo) -> Result<(), BadGame> {
    match (&info.format, &rec.tune) {
        (
            Format::Spsa {
                params,
                pairs_per_iteration,
                ..
            },
            Some(t),
        ) => {
            let k = super::tune::iteration_of(rec.pair_id, *pairs_per_iteration);
            if t.iteration != k {
                return Err(bad(
                    "tune",
                    format!(
                        "iteration {} but pair {} is of iteration {k}",
                        t.iteration, rec.pair_id
                    ),
                ));
            }
            if t.black.len() != params.len() || t.white.len() != params.len() {
                return Err(bad(
                    "tune",
                    format!(
                        "the tune has {} parameters, not the values given",
                        params.len()
                    ),
                ));
            }
            Ok(())
        }
        (Format::Spsa { .. }, None) => Err(bad(
            "tune",
            "missing: a tune's game says the values its sides played".into(),
        )),
        (_, Some(_)) => Err(bad("tune", "this run is not a tune".into())),
        (_, None) => Ok(()),
    }
}

/// Checks a game against its run: its id is one the run (its shard)
/// schedules, and its engines, round and opening are those the schedule
/// gives that id (`slot`; `None` for a schedule that is not fixed in
/// advance: then its engines are two different engines of the run).
///
/// # Errors
/// The first problem found.
pub fn check_in_run(
    rec: &GameRecord,
    info: &TournamentInfo,
    slot: impl Fn(u64) -> Option<Slot>,
) -> Result<(), BadGame> {
    check_place(rec, info)?;
    if let (Some(a), GameKind::Othello) = (&info.adjudicate, info.game) {
        check_adjudication_rule(rec, a.solve_at_empties)?;
        check_score_rules(rec, a)?;
    }
    check_scheduled(rec, info, slot)
}

/// The checks of [`check_in_run`] that do not need the moves, for a game
/// read by [`GameRecord::counted_from_json`]: its place in the schedule, a
/// tune's values, its slot or players.
///
/// # Errors
/// The field that is not the run's.
pub fn check_counted_in_run(
    rec: &GameRecord,
    info: &TournamentInfo,
    slot: impl Fn(u64) -> Option<Slot>,
) -> Result<(), BadGame> {
    check_place(rec, info)?;
    check_scheduled(rec, info, slot)
}

/// A tune's values as the run's, and the engines, round and opening as
/// the schedule's `slot` (or, without one, two engines of the run).
fn check_scheduled(
    rec: &GameRecord,
    info: &TournamentInfo,
    slot: impl Fn(u64) -> Option<Slot>,
) -> Result<(), BadGame> {
    check_tune(rec, info)?;
    match slot(rec.game_id) {
        Some(want) => check_slot(rec, info, &want),
        None => check_players(rec, info),
    }
}

/// A game of the run's schedule, and of its shard.
fn check_place(rec: &GameRecord, info: &TournamentInfo) -> Result<(), BadGame> {
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
    if !info.shard().owns(rec.pair_id) {
        return Err(bad(
            "game_id",
            format!(
                "{} belongs to another shard than {}",
                rec.game_id, info.shard
            ),
        ));
    }
    Ok(())
}

/// A game whose slot the schedule does not say (a format whose games
/// depend on results): two engines of the run, not one against itself.
fn check_players(rec: &GameRecord, info: &TournamentInfo) -> Result<(), BadGame> {
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

/// A game as the schedule has it in its slot `want`: its engines, round
/// and opening.
fn check_slot(rec: &GameRecord, info: &TournamentInfo, want: &Slot) -> Result<(), BadGame> {
    let name = |i: usize| info.engines.get(i).map_or("?", String::as_str);
    for (field, got, i) in [
        ("black", &rec.black, want.black),
        ("white", &rec.white, want.white),
    ] {
        if got != name(i) {
            return Err(bad(
                field,
                format!(
                    "{got:?}, but the schedule has {:?} as {field} in game {}",
                    name(i),
                    rec.game_id
                ),
            ));
        }
    }
    if rec.round != want.round {
        return Err(bad(
            "round",
            format!(
                "{}, but game {} is of round {}",
                rec.round, rec.game_id, want.round
            ),
        ));
    }
    if rec.opening_id != want.opening_id {
        return Err(bad(
            "opening_id",
            format!(
                "{}, but the schedule plays opening {} in game {}",
                rec.opening_id, want.opening_id, rec.game_id
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
#[path = "check_tests.rs"]
mod tests;
