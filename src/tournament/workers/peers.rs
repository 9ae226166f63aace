//! The other workers of a shared run, as one worker follows them: their
//! journals read as they grow ([`Tail::counted`]), each game read for what
//! is counted of it (not its moves, which `arena report` reads and checks)
//! and checked against the run's schedule. Read-only: a worker writes
//! nothing of theirs.
//!
//! Where a run's pairs do not depend on results (not a knockout, a Swiss
//! or a tune), the live worker of the lowest ID is the run's lead: it
//! publishes what it counted ([`Tally`], its `workers/ID/tally`) after
//! each look. A worker that shows nothing of the run (`--quiet`) follows
//! the lead's tally instead of reading every journal, so that of many
//! workers one reads the run; it reads the journals itself while the lead
//! has no tally, and takes the lead's place when it is the lowest live ID.

use crate::error::{Error, Result};
use crate::records::check::Slot;
use crate::records::tail::{Tail, READ_KEPT};
use crate::records::{GameRecord, TournamentInfo};
use crate::tournament::runner::tally::Tally;
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
    /// Whether the run has a lead: its pairs do not depend on results.
    led: bool,
    /// Whether this worker may follow the lead rather than read the
    /// journals (it shows nothing of the run).
    follows: bool,
    /// The live worker of the lowest ID, when it is not this one.
    lead: Option<String>,
    /// The last tally read of a lead.
    followed: Option<Tally>,
    /// Whether the last look read the lead's tally (not the journals).
    following: bool,
    /// The last tally this worker published as the lead.
    published: Option<Tally>,
}

/// Least time between two listings of the workers folder: a worker that
/// joins is followed within it (each listing costs a look at every
/// worker's entry, and a poll comes once per game or more).
const LIST_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Most steps of [`READ_KEPT`] bytes one look reads of a journal (1 GiB).
const STEPS_A_LOOK: usize = 1 << 14;

impl Peers {
    /// The other workers (than `me`) of the run `info` in `dir`; `follows`
    /// when `me` may follow the run's lead rather than read every journal
    /// (it shows nothing of the run).
    pub fn new(
        dir: &Path,
        me: &str,
        info: &TournamentInfo,
        plan: Schedule,
        follows: bool,
    ) -> Peers {
        let led = !info.format.by_results() && info.format.tune_schedule().is_none();
        Peers {
            led,
            follows: follows && led,
            lead: None,
            followed: None,
            following: false,
            published: None,
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
        let over = self.followed.is_some_and(|t| t.over(self.info.total_pairs));
        if self.follows && over {
            return Ok(Vec::new());
        }
        self.find_workers()?;
        self.following = self.follows && self.follow();
        if self.following {
            return Ok(Vec::new());
        }
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

    /// Reads the lead's tally, when there is a lead other than this worker
    /// and it has one; false when this worker is to read the journals.
    fn follow(&mut self) -> bool {
        let Some(lead) = &self.lead else {
            return false;
        };
        let path = self.dir.join(lead).join("tally");
        let Some(tally) = read_tally(&path, self.info.total_pairs) else {
            return false;
        };
        self.followed = Some(match self.followed {
            Some(old) => Tally {
                finished: old.finished.max(tally.finished),
                decision: old.decision.or(tally.decision),
            },
            None => tally,
        });
        true
    }

    /// What the lead of the run has counted, as last read, while this
    /// worker follows it (`None` while it reads the journals: then it
    /// counts the run itself).
    pub fn followed(&self) -> Option<Tally> {
        self.followed.filter(|_| self.following)
    }

    /// Publishes `counted` as this worker's tally when it is the run's
    /// lead and the tally changed.
    ///
    /// # Errors
    /// A tally that cannot be written (the worker's own folder).
    pub fn publish(&mut self, counted: &Tally) -> Result<()> {
        if !self.led || self.lead.is_some() || self.published == Some(*counted) {
            return Ok(());
        }
        let path = self.dir.join(&self.me).join("tally");
        crate::util::write_atomic(&path, &counted.line())?;
        self.published = Some(*counted);
        Ok(())
    }

    /// The live worker of the lowest ID, when it is not this one.
    fn find_lead(&self) -> Option<String> {
        let me = self.me.as_str();
        self.tails
            .keys()
            .take_while(|id| id.as_str() < me)
            .find(|id| super::heartbeat::is_live(&self.dir.join(id).join("heartbeat")))
            .cloned()
    }

    /// Follows the workers that have appeared since the last look, and
    /// finds the run's lead.
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
        if self.led {
            self.lead = self.find_lead();
        }
        Ok(())
    }
}
/// The tally at `path` of a run of `total_pairs` pairs: `None` when there
/// is none, or it is no tally (a file too long for one is not read).
fn read_tally(path: &Path, total_pairs: u64) -> Option<Tally> {
    const MOST: u64 = 256;
    let (file, len) = crate::util::text::open_file_len(path).ok()?;
    if len > MOST {
        return None;
    }
    let mut bytes = Vec::new();
    crate::util::text::read_range(&file, 0, MOST as usize, &mut bytes).ok()?;
    Tally::parse(std::str::from_utf8(&bytes).ok()?, total_pairs)
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

    fn publish(&mut self, counted: &Tally) {
        // A tally that cannot be written leaves the followers reading an
        // older one, which is still true; the worker's journal, in the
        // same folder, reports the failure.
        let _ = Peers::publish(self, counted);
    }

    fn followed(&self) -> Option<Tally> {
        Peers::followed(self)
    }
}
