//! The tournament runner: a checked config ([`config`]), a [`Scheduler`]
//! per format ([`schedule`]), and the [`runner`]: game threads that play
//! games fed over crossbeam channels, and the main thread's collector,
//! which owns the journal, the statistics and the SPRT decision, and tells
//! the caller's [`RunObserver`] what happens: the runner prints nothing.
//! No sleeps, no polling, no shared mutable state but the channels. A run
//! shared by several machines is [`workers`]'.
//!
//! The main thread keeps `concurrency` games in flight: it asks the
//! scheduler for a new game each time a result comes back, so stopping (an
//! SPRT verdict) means asking for no more and finishing the games already
//! started. The results folder ([`folder`]) is where runs resume, and what
//! `report` and `merge` read.

pub mod config;
pub mod folder;
pub mod memory;
pub mod merge;
mod record;
pub mod runner;
pub mod schedule;
pub mod tune;
pub mod workers;

pub use crate::records::{Format, GameRecord, Shard};
pub use config::Tournament;
pub use folder::{read_info, report};
pub use merge::{merge, MergeOptions};
pub use runner::observer::{RunObserver, Silent};
pub use schedule::{Finished, Next, Pairing, Schedule, Scheduler};

use crate::error::Result;
use folder::Existing;
use runner::alone::Alone;
use runner::driver;
pub use runner::prepare::{exit_code, info, RunOptions, RunOutcome, EXIT_STOPPED};

/// Runs (or resumes) a tournament and writes its outputs, telling
/// `observer` what happens ([`Silent`] shows nothing).
///
/// # Errors
/// An output folder in use or holding another run's journal, a corrupt
/// journal, I/O errors, or a failure inside a game thread.
pub fn run(
    t: &Tournament,
    opts: &RunOptions,
    observer: &mut dyn RunObserver,
) -> Result<RunOutcome> {
    let scheduler = runner::prepare::scheduler(t, opts.shard)?;
    let mut alone = Alone::new(scheduler, false, existing(opts));
    driver::drive(t, opts, observer, &mut alone)
}

/// Runs a tournament with the games `scheduler` chooses (a format of the
/// caller's); the config's format still names the statistics (an SPRT's
/// pair counter, a round-robin's ratings).
///
/// # Errors
/// As [`run`]; also a scheduler that waits while no game is in flight.
pub fn run_with(
    t: &Tournament,
    scheduler: Box<dyn Scheduler>,
    opts: &RunOptions,
    observer: &mut dyn RunObserver,
) -> Result<RunOutcome> {
    let mut alone = Alone::new(scheduler, true, existing(opts));
    driver::drive(t, opts, observer, &mut alone)
}

/// What to do with a journal already in the output folder.
fn existing(opts: &RunOptions) -> Existing {
    match (opts.resume, opts.overwrite) {
        (true, _) => Existing::Resume {
            any_build: opts.allow_mixed_builds,
        },
        (false, true) => Existing::Overwrite,
        (false, false) => Existing::Show,
    }
}

#[cfg(test)]
mod tests {
    use super::runner::game_thread::PlayerFactory;
    use super::runner::observer::{Cadence, End, RunObserver, Start};
    use super::*;
    use crate::report::Results;
    use std::time::Duration;

    /// Every event, as it came.
    #[derive(Default)]
    struct Recorder {
        started: Vec<(u64, u64, bool, bool)>,
        games: Vec<(u64, u64)>,
        intervals: Vec<u64>,
        play_ended: usize,
        finished: Vec<(u64, bool)>,
    }

    impl RunObserver for Recorder {
        fn cadence(&self) -> Cadence {
            Cadence {
                pairs: Some(1),
                every: Some(Duration::from_secs(3600)),
            }
        }

        fn started(&mut self, s: &Start<'_>) {
            let (total, done) = (s.total, s.done);
            self.started
                .push((total, done, s.book_note.is_some(), s.resuming));
        }

        fn game_finished(&mut self, game: &GameRecord, games_done: u64) {
            assert!(self.started.len() == 1 && self.play_ended == 0);
            self.games.push((game.game_id, games_done));
        }

        fn interval(&mut self, results: &Results) {
            self.intervals.push(results.games_played);
        }

        fn play_ended(&mut self) {
            self.play_ended += 1;
        }

        fn finished(&mut self, end: &End<'_>) {
            assert_eq!(self.play_ended, 1, "play ends before the run finishes");
            self.finished
                .push((end.results.games_played, end.already_held));
        }
    }

    fn tournament(out: &std::path::Path) -> Tournament {
        let text = format!(
            "Tournament(name: \"observed\", engines: [Inline(Engine(name: \"a\", search: Random, seed: 1)), Inline(Engine(name: \"b\", search: Random, seed: 2))], format: RoundRobin(rounds: 5), concurrency: 2, seed: 3, out: {out:?})"
        );
        Tournament::parse(&text, &out.join("observed.ron")).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_runner_tells_its_observer_every_game_and_the_end_once() {
        let dir = std::env::temp_dir().join(format!("arena-observer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let t = tournament(&dir);
        let mut seen = Recorder::default();
        let outcome = run(&t, &RunOptions::default(), &mut seen).unwrap();
        assert_eq!(outcome.results.games_played, 10);
        // The book note (no book), nothing played before.
        assert_eq!(seen.started, [(10, 0, true, false)]);
        assert_eq!(seen.games.len(), 10, "one event per game played");
        let mut ids: Vec<u64> = seen.games.iter().map(|g| g.0).collect();
        ids.sort_unstable();
        assert_eq!(ids, (0..10).collect::<Vec<_>>());
        let done: Vec<u64> = seen.games.iter().map(|g| g.1).collect();
        assert_eq!(done, (1..=10).collect::<Vec<_>>());
        // Statistics every pair (the cadence asked), first after game 1.
        assert_eq!(seen.intervals.first(), Some(&0));
        assert!(seen.intervals.contains(&10), "{:?}", seen.intervals);
        assert_eq!(seen.play_ended, 1);
        assert_eq!(seen.finished, [(10, false)]);

        // Shown again without --resume: nothing played, the folder held it.
        let mut again = Recorder::default();
        run(&t, &RunOptions::default(), &mut again).unwrap();
        assert_eq!(again.started, [(10, 10, true, false)]);
        assert!(again.games.is_empty() && again.intervals.is_empty());
        assert_eq!(
            (again.play_ended, again.finished.as_slice()),
            (1, &[(10, true)][..])
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Plain lines every 2 pairs, and games slow enough that the files'
    /// own 2-second write comes between them.
    struct SlowLines(Vec<u64>);

    impl RunObserver for SlowLines {
        fn cadence(&self) -> Cadence {
            Cadence {
                pairs: Some(2),
                every: None,
            }
        }

        fn game_finished(&mut self, _game: &GameRecord, _games_done: u64) {
            std::thread::sleep(Duration::from_millis(300));
        }

        fn interval(&mut self, results: &Results) {
            self.0.push(results.games_played);
        }
    }

    #[test]
    fn plain_lines_come_every_n_pairs_when_the_files_are_written_between() {
        let dir = std::env::temp_dir().join(format!("arena-slow-lines-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut seen = SlowLines(Vec::new());
        let outcome = run(&tournament(&dir), &RunOptions::default(), &mut seen).unwrap();
        assert_eq!(outcome.results.games_played, 10);
        assert!(dir.join("summary.md").is_file());
        // At the start, then after 4 and 8 games: never at the game the
        // files happened to be written (about the seventh, 2 s in).
        assert_eq!(seen.0, [0, 4, 8]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Result blocks every 2 pairs, and every game as it finishes.
    #[derive(Default)]
    struct Blocks {
        blocks: Vec<Results>,
        games: Vec<GameRecord>,
    }

    impl RunObserver for Blocks {
        fn cadence(&self) -> Cadence {
            Cadence {
                pairs: Some(2),
                every: None,
            }
        }

        fn game_finished(&mut self, game: &GameRecord, _games_done: u64) {
            self.games.push(game.clone());
        }

        fn interval(&mut self, results: &Results) {
            self.blocks.push(results.clone());
        }
    }

    /// A random mover that takes its time over game 3 (the second of
    /// pair 1), so that the other game thread finishes the games after it first.
    struct Slow {
        random: crate::engine::player::RandomPlayer,
        game: u64,
    }

    impl crate::engine::player::Player<crate::game::othello::Board> for Slow {
        fn name(&self) -> &str {
            crate::engine::player::Player::<crate::game::othello::Board>::name(&self.random)
        }

        fn new_game(
            &mut self,
            setup: &crate::engine::player::GameSetup<crate::game::othello::Board>,
        ) -> std::result::Result<(), crate::engine::player::PlayerError> {
            self.game = setup.game_id;
            self.random.new_game(setup)
        }

        fn choose(
            &mut self,
            pos: &crate::game::othello::Board,
            clock: &crate::engine::player::Clock,
        ) -> std::result::Result<
            crate::engine::player::MoveInfo<crate::game::othello::Move>,
            crate::engine::player::PlayerError,
        > {
            if self.game == 3 {
                std::thread::sleep(Duration::from_millis(40));
            }
            self.random.choose(pos, clock)
        }
    }

    #[test]
    fn result_blocks_are_of_the_first_pairs_whatever_order_games_finish_in() {
        let dir = std::env::temp_dir().join(format!("arena-blocks-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let t = tournament(&dir);
        let players = PlayerFactory(std::sync::Arc::new(|spec: &crate::engine::EngineSpec| {
            Box::new(Slow {
                random: crate::engine::player::RandomPlayer::new(spec.name(), 7),
                game: 0,
            }) as Box<dyn crate::engine::player::Player<crate::game::othello::Board>>
        }));
        let options = RunOptions {
            players,
            ..RunOptions::default()
        };
        let mut seen = Blocks::default();
        run(&t, &options, &mut seen).unwrap();
        let order: Vec<u64> = seen.games.iter().map(|g| g.game_id).collect();
        let at = |id| order.iter().position(|&g| g == id).unwrap();
        assert!(at(3) > at(4), "game 3 finished after game 4: {order:?}");
        // The first statistics (none played), then blocks of 2, 4 pairs
        // (5 pairs in all), each exactly the analysis of its first games.
        let info = info(&t, Shard::ALL);
        let played: Vec<u64> = seen.blocks.iter().map(|r| r.games_played).collect();
        assert_eq!(played, [0, 4, 8], "{order:?}");
        for block in &seen.blocks[1..] {
            let first: Vec<GameRecord> = seen
                .games
                .iter()
                .filter(|g| g.game_id < block.games_played)
                .cloned()
                .collect();
            let want = crate::report::analyse(&info, &first);
            assert_eq!(block.report_text(), want.report_text());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
