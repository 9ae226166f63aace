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
use crate::tournament::runner::tally::{Lead, Tally};
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
    /// The last word read of a lead, and whose it was.
    followed: Option<Lead>,
    source: Option<String>,
    /// When the lead last changed.
    lead_since: std::time::Instant,
    /// Whether the last look read the lead's tally (not the journals).
    following: bool,
    /// What this worker last published as the lead.
    published: Option<Lead>,
    /// The live workers, this one included, as counted at the last
    /// listing when this worker leads.
    live: Option<u64>,
}

/// Least time between two listings of the workers folder: a worker that
/// joins is followed within it (each listing costs a look at every
/// worker's entry, and a poll comes once per game or more).
const LIST_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// How long a new lead may go without a tally (catching up with the
/// journals) before the workers that follow it read the journals
/// themselves: an arena build that publishes none never leads them.
const NEW_LEAD_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

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
        let led = info.format.results_free();
        Peers {
            led,
            follows: follows && led,
            lead: None,
            followed: None,
            source: None,
            lead_since: std::time::Instant::now(),
            following: false,
            published: None,
            live: None,
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
        let over = self
            .followed()
            .is_some_and(|t| t.over(self.info.total_pairs));
        if over {
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

    /// Reads the lead's tally, when there is a lead other than this
    /// worker; false when this worker is to read the journals. A new lead
    /// that has no tally yet (catching up with the journals) is given
    /// [`NEW_LEAD_GRACE`], while the last lead's word, which is still true
    /// (its last tally, written before it ended), is followed.
    fn follow(&mut self) -> bool {
        let Some(lead) = self.lead.clone() else {
            return false;
        };
        if self.take_word(&lead) {
            return true;
        }
        if self.lead_since.elapsed() >= NEW_LEAD_GRACE {
            return false;
        }
        if let Some(last) = self.source.clone() {
            self.take_word(&last);
        }
        self.followed.is_some()
    }

    /// Takes worker `id`'s tally, when it has one: false when not.
    fn take_word(&mut self, id: &str) -> bool {
        let path = self.dir.join(id).join("tally");
        let Some(read) = read_lead(&path, self.info.total_pairs) else {
            return false;
        };
        self.source = Some(id.to_string());
        self.followed = Some(match self.followed {
            Some(old) => Lead {
                tally: Tally {
                    finished: old.tally.finished.max(read.tally.finished),
                    decision: old.tally.decision.or(read.tally.decision),
                },
                live: read.live,
            },
            None => read,
        });
        true
    }

    /// What the lead of the run has counted, as last read, while this
    /// worker follows it (`None` while it reads the journals: then it
    /// counts the run itself).
    pub fn followed(&self) -> Option<Tally> {
        self.followed.filter(|_| self.following).map(|l| l.tally)
    }

    /// The live workers, this one included: as the lead counted them
    /// while this worker follows it, as this worker counted them while it
    /// leads (`None` otherwise: the worker counts them itself).
    pub fn live_workers(&self) -> Option<u64> {
        match (self.following, self.lead.is_none()) {
            // The lead and this worker are live, whatever the lead last
            // counted.
            (true, _) => self.followed.map(|l| l.live.max(2)),
            (false, true) => self.live,
            (false, false) => None,
        }
    }

    /// Publishes `counted` as this worker's tally when it is the run's
    /// lead and the tally changed.
    ///
    /// # Errors
    /// A tally that cannot be written (the worker's own folder).
    pub fn publish(&mut self, counted: &Tally) -> Result<()> {
        let Some(live) = self.live.filter(|_| self.led && self.lead.is_none()) else {
            return Ok(());
        };
        let word = Lead {
            tally: *counted,
            live,
        };
        if self.published == Some(word) {
            return Ok(());
        }
        let path = self.dir.join(&self.me).join("tally");
        crate::util::write_atomic(&path, &word.line())?;
        self.published = Some(word);
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
            let lead = self.find_lead();
            if lead != self.lead {
                self.lead = lead;
                self.lead_since = std::time::Instant::now();
            }
            // The lead counts the live workers for those that follow it:
            // those of lower IDs were just found gone.
            let me = self.me.as_str();
            let above = || {
                let ids = self.tails.keys().skip_while(|id| id.as_str() < me);
                1 + super::heartbeat::live_among(&self.dir, ids)
            };
            self.live = self.lead.is_none().then(above);
        }
        Ok(())
    }
}
/// The lead's word at `path` for a run of `total_pairs` pairs: `None` when
/// there is none, or it is no such word (a file too long for one is not
/// read).
fn read_lead(path: &Path, total_pairs: u64) -> Option<Lead> {
    const MOST: u64 = 256;
    let (file, len) = crate::util::text::open_file_len(path).ok()?;
    if len > MOST {
        return None;
    }
    let mut bytes = Vec::new();
    crate::util::text::read_range(&file, 0, MOST as usize, &mut bytes).ok()?;
    Lead::parse(std::str::from_utf8(&bytes).ok()?, total_pairs)
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

    fn live_workers(&self) -> Option<u64> {
        Peers::live_workers(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Format;
    use crate::stats::sprt::Verdict;

    /// Worker `id`'s heartbeat in `dir`: live, or ended.
    fn beat(dir: &Path, id: &str, live: bool) {
        let line = if live { "h 1 7\n" } else { "h 1 ended\n" };
        std::fs::create_dir_all(dir.join("workers").join(id)).unwrap();
        std::fs::write(dir.join("workers").join(id).join("heartbeat"), line).unwrap();
    }

    fn word(dir: &Path, id: &str, finished: u64) {
        let lead = Lead {
            tally: Tally {
                finished,
                decision: None,
            },
            live: 3,
        };
        std::fs::write(dir.join("workers").join(id).join("tally"), lead.line()).unwrap();
    }

    /// A quiet worker follows the live worker of the lowest ID; when that
    /// one ends and the next has no tally yet, it keeps to the last one's
    /// word (still true) for a while, then reads the journals; alone, it
    /// leads and publishes.
    #[test]
    fn a_follower_keeps_the_last_leads_word_until_the_new_lead_has_one() {
        let dir = std::env::temp_dir().join(format!("arena-peers-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let info = TournamentInfo::example(&["x", "y"], Format::RoundRobin { rounds: 10 }, 10);
        let plan = crate::tournament::folder::plan(&info, &dir).unwrap();
        beat(&dir, "a", true);
        word(&dir, "a", 3);
        beat(&dir, "c", true);
        let mut c = Peers::new(&dir, "c", &info, plan, true);
        let look = |c: &mut Peers| {
            c.listed = None;
            c.poll().unwrap().len()
        };
        assert_eq!(look(&mut c), 0);
        assert_eq!(c.followed().map(|t| t.finished), Some(3));
        assert_eq!(c.live_workers(), Some(3));
        // "a" ends with its last word; "b" leads, with no tally yet.
        word(&dir, "a", 5);
        beat(&dir, "a", false);
        beat(&dir, "b", true);
        assert_eq!(look(&mut c), 0);
        assert_eq!(c.lead.as_deref(), Some("b"));
        assert_eq!(c.followed().map(|t| t.finished), Some(5));
        // Past the grace, it reads the journals and counts the run itself.
        c.lead_since = std::time::Instant::now() - NEW_LEAD_GRACE;
        assert_eq!(look(&mut c), 0);
        assert_eq!((c.followed(), c.live_workers()), (None, None));
        // The new lead's word is followed as soon as it has one.
        word(&dir, "b", 7);
        assert_eq!(look(&mut c), 0);
        assert_eq!(c.followed().map(|t| t.finished), Some(7));
        // Alone, it leads: it counts the live workers and publishes.
        beat(&dir, "b", false);
        assert_eq!(look(&mut c), 0);
        assert_eq!((c.followed(), c.live_workers()), (None, Some(1)));
        let counted = Tally {
            finished: 8,
            decision: Some((Verdict::H1, 8)),
        };
        c.publish(&counted).unwrap();
        let mine = std::fs::read_to_string(dir.join("workers/c/tally")).unwrap();
        assert_eq!(
            Lead::parse(&mine, 10),
            Some(Lead {
                tally: counted,
                live: 1
            })
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
