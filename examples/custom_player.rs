//! A player of your own, in a tournament run from code.
//!
//! `Greedy` takes the move that flips the most discs (the classic beginner's
//! mistake). It implements `arena::engine::Player`, and the tournament's
//! player factory builds it for the engine named "greedy"; every other
//! engine is built from its config as usual. Run it with
//!
//! ```sh
//! cargo run --release --example custom_player
//! ```

use arena::engine::{Clock, EngineSpec, GameSetup, MoveInfo, Player, PlayerError};
use arena::tournament::runner::game_thread::PlayerFactory;
use arena::tournament::{self, RunOptions, Tournament};
use arena::{Board, Game, Move, MoveList};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Plays the move that flips the most discs (the first such move in
/// generation order when several tie).
struct Greedy;

impl Player<Board> for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }

    fn new_game(&mut self, _setup: &GameSetup<Board>) -> Result<(), PlayerError> {
        Ok(()) // nothing to forget between games
    }

    fn choose(&mut self, pos: &Board, _clock: &Clock) -> Result<MoveInfo<Move>, PlayerError> {
        let start = Instant::now();
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        // Our discs after the move: the more, the more were flipped.
        let mine = |b: &Board| {
            let (black, white) = b.disc_counts();
            if pos.first_player_to_move() {
                black
            } else {
                white
            }
        };
        let best = moves
            .iter()
            .max_by_key(|&m| (mine(&pos.play(m)), std::cmp::Reverse(m.to_string())))
            .ok_or_else(|| PlayerError::Protocol("no move to play".into()))?;
        Ok(MoveInfo::bare(best, start.elapsed()))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join("arena-custom-player");
    // The config names the engines; "greedy" is written as a random mover,
    // which the factory below replaces by our player.
    let config = format!(
        r#"Tournament(
            name: "greedy vs classic",
            engines: [
                Inline(Engine(name: "greedy", search: Random)),
                Path({:?}),
            ],
            format: RoundRobin(rounds: 10),
            book: (file: {:?}, order: Random, start: 0),
            concurrency: 2,
            seed: 1,
            out: {:?},
        )"#,
        root.join("engines/squares-classic.ron"),
        root.join("openings/all-4ply.txt"),
        out
    );
    let t = Tournament::parse(&config, &root.join("examples/custom_player.ron"))?;
    let players = PlayerFactory(Arc::new(|spec: &EngineSpec| -> Box<dyn Player<Board>> {
        match spec.name() {
            "greedy" => Box::new(Greedy),
            _ => spec.player(),
        }
    }));
    // What `arena run` shows: a bar on a terminal, plain lines otherwise
    // (`tournament::Silent` shows nothing).
    let mut shown = arena::cli::observe::observer(false, arena::cli::observe::EVERY_PAIRS, None);
    let outcome = tournament::run(
        &t,
        &RunOptions {
            overwrite: true,
            players,
            ..RunOptions::default()
        },
        &mut shown,
    )?;
    let greedy = &outcome.results.engines[0];
    println!(
        "greedy scored {:.1} of {} games against the classic weighted squares; results in {}",
        greedy.points,
        greedy.games,
        outcome.out.display()
    );
    Ok(())
}
