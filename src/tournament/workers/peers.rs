//! The other workers of a shared run, as one worker follows them: their
//! journals read as they grow ([`Tail::counted`]), each game read for what
//! is counted of it (not its moves, which `arena report` reads and checks)
//! and checked against the run's schedule. Read-only: a worker writes
//! nothing of theirs.

use crate::error::{Error, Result};
use crate::records::check::Slot;
use crate::records::tail::{Tail, READ_KEPT};
use crate::records::{GameRecord, TournamentInfo};
use crate::tournament::schedule::Schedule;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The journals of a run's other workers.
pub struct Peers {
    /// `DIR/workers`.
    dir: PathBuf,
    me: String,
    info: TournamentInfo,
    plan: Schedule,
    /// Each worker's journal, by ID: the ID as the games it wrote carry
    /// it, and where its journal was read up to.
    tails: BTreeMap<String, (Arc<str>, Tail)>,
    /// Time spent reading the other journals so far.
    spent: std::time::Duration,
    /// When the workers folder was last listed.
    listed: Option<std::time::Instant>,
}

/// Least time between two listings of the workers folder: a worker that
/// joins is followed within it (each listing costs a look at every
/// worker's entry, and a poll comes once per game or more).
const LIST_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Most steps of [`READ_KEPT`] bytes one look reads of a journal (1 GiB).
const STEPS_A_LOOK: usize = 1 << 14;

impl Peers {
    /// The other workers (than `me`) of the run `info` in `dir`.
    pub fn new(dir: &Path, me: &str, info: &TournamentInfo, plan: Schedule) -> Peers {
        Peers {
            dir: dir.join("workers"),
            me: me.to_string(),
            info: info.clone(),
            plan,
            tails: BTreeMap::new(),
            spent: std::time::Duration::ZERO,
            listed: None,
        }
    }

    /// The games the other workers journalled since the last call, each
    /// with the ID of the worker that journalled it.
    ///
    /// # Errors
    /// A worker's journal of another config, or with a game that is not
    /// the run's (its file, line and field); I/O.
    pub fn poll(&mut self) -> Result<Vec<(Arc<str>, GameRecord)>> {
        let start = std::time::Instant::now();
        let games = self.read();
        self.spent += start.elapsed();
        games
    }

    /// Time spent reading the other journals so far.
    pub fn spent(&self) -> std::time::Duration {
        self.spent
    }

    fn read(&mut self) -> Result<Vec<(Arc<str>, GameRecord)>> {
        self.find_workers()?;
        let plan = &self.plan;
        // A knockout's or Swiss's pairs depend on results: no fixed slot.
        let fixed = !self.info.format.by_results();
        let slot = |id: u64| {
            fixed.then(|| {
                let p = plan.pairing(id);
                Slot {
                    black: p.black,
                    white: p.white,
                    round: p.round,
                    opening_id: p.opening_id,
                }
            })
        };
        let mut games = Vec::new();
        for (writer, tail) in self.tails.values_mut() {
            // In steps of the room a tail keeps: a worker that joins a long
            // run late holds one step of each journal's bytes at a time (a
            // journal that grows without end is read on at the next look).
            for _ in 0..STEPS_A_LOOK {
                let (more, at_end) = tail.more_upto(&self.info, &slot, READ_KEPT as u64)?;
                games.extend(more.into_iter().map(|g| (Arc::clone(writer), g)));
                if at_end {
                    break;
                }
            }
        }
        Ok(games)
    }

    /// Follows the workers that have appeared since the last look.
    fn find_workers(&mut self) -> Result<()> {
        if self.listed.is_some_and(|at| at.elapsed() < LIST_EVERY) {
            return Ok(());
        }
        self.listed = Some(std::time::Instant::now());
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(Error::io(&self.dir, e)),
        };
        for entry in entries {
            let entry = entry.map_err(|e| Error::io(&self.dir, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == self.me || super::check_id(&name).is_err() || self.tails.contains_key(&name)
            {
                continue;
            }
            let journal = entry.path().join("journal.jsonl");
            let writer: Arc<str> = name.as_str().into();
            self.tails.insert(name, (writer, Tail::counted(&journal)));
        }
        Ok(())
    }
}
impl crate::tournament::runner::collector::Others for Peers {
    fn poll(&mut self) -> Result<Vec<(Arc<str>, GameRecord)>> {
        Peers::poll(self)
    }

    fn me(&self) -> Arc<str> {
        self.me.as_str().into()
    }

    fn spent(&self) -> std::time::Duration {
        Peers::spent(self)
    }
}
