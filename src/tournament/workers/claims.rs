//! Claims: how the workers of one run share its pairs without a server.
//! A worker plays pair `p` after creating `claims/p` atomically (a hard
//! link of a file holding its ID: `link(2)` fails when the name exists, on
//! local filesystems and NFS alike). A claim whose owner is gone for good
//! is taken over by creating the next generation, `claims/p.1`, `p.2`...:
//! the newest generation names the pair's owner.
//!
//! A claim file that names no worker (a folder or a dangling link in its
//! place, unreadable or non-UTF-8 bytes, text that is no worker ID: a
//! foreign or half-synced file) is [`Owner::Unreadable`], read so in one
//! place ([`read_claim`]): its pair is taken over as a gone worker's is,
//! by the next generation, and `arena report` notes it.
//!
//! The [`ClaimScheduler`] hands out the pairs in index order, claiming one
//! only when the pool has a free slot (so a worker is never further ahead
//! than its concurrency), after first finishing the pairs it had claimed
//! before a restart, and taking over the stale claims of workers that are
//! gone, lowest pair first.

use super::heartbeat;
pub use super::owners::{claim_owners, parse_claim_name, read_claim, scratch_name, Owner};
use crate::error::{Error, Result};
use crate::records::rounds::{Rounds, Slot};
use crate::tournament::schedule::{Finished, Next, Schedule, Scheduler};
use crate::tournament::tune::Trajectory;
use std::collections::{BTreeSet, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The error of a file that was there a moment ago.
fn lost() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::NotFound, "gone as soon as written")
}

/// How often a worker with nothing to claim looks again.
pub const POLL: Duration = Duration::from_secs(1);

/// How often a busy worker looks for stale claims below its next pair: a
/// quarter of the staleness limit, from 1 to 10 seconds.
fn takeover_every(stale_after: Duration) -> Duration {
    (stale_after / 4).clamp(Duration::from_secs(1), Duration::from_secs(10))
}

/// Claims made from one scratch file at most: each claim is one more
/// name of it, and some filesystems cap a file's names (ext4 at 65,000).
const NAMES_PER_SCRATCH: u64 = 10_000;

/// The claims folder of a run, as one worker sees it.
pub struct Claims {
    /// `DIR/claims`.
    dir: PathBuf,
    /// `DIR/workers`.
    workers: PathBuf,
    /// This worker's ID.
    me: String,
    /// The file holding this worker's ID that its claims are made from,
    /// once made (see [`Scratch`]).
    scratch: Option<Scratch>,
}

/// A worker's claims are hard links of one file of its own holding its
/// ID, `workers/ID/.claim.K`, kept for the run: a claim is then one
/// `link(2)`, and every claim made from it is the same file, which
/// `arena report` reads once ([`super::owners::claim_owners`]). After
/// [`NAMES_PER_SCRATCH`] claims the next `K` is used.
struct Scratch {
    path: PathBuf,
    /// The file's device and inode.
    id: (u64, u64),
    /// Its names so far (its own included).
    names: u64,
}

/// The file name of generation `gen` of pair `pair`'s claim.
fn claim_name(pair: u64, gen: u32) -> String {
    if gen == 0 {
        pair.to_string()
    } else {
        format!("{pair}.{gen}")
    }
}

impl Claims {
    /// The claims of the run in `dir`, for worker `me`.
    pub fn new(dir: &Path, me: &str) -> Claims {
        Claims {
            dir: dir.join("claims"),
            workers: dir.join("workers"),
            me: me.to_string(),
            scratch: None,
        }
    }

    /// A scratch file to claim from: the one in use while it may take
    /// another name; else the first `.claim.K` of this worker that holds
    /// its ID and has names to spare, or a new one (written whole under
    /// another name, then renamed, so a kill leaves none half-written).
    fn scratch(&mut self) -> Result<&Scratch> {
        if self
            .scratch
            .as_ref()
            .is_some_and(|s| s.names < NAMES_PER_SCRATCH)
        {
            return Ok(self.scratch.as_ref().expect("checked"));
        }
        let own = self.workers.join(&self.me);
        let line = format!("{}\n", self.me);
        for k in 0.. {
            let path = own.join(scratch_name(k));
            if let Some((id, names)) = crate::util::sys::file_links(&path) {
                let ours = std::fs::read(&path).is_ok_and(|b| b == line.as_bytes());
                if ours && names < NAMES_PER_SCRATCH {
                    self.scratch = Some(Scratch { path, id, names });
                    break;
                }
                if !ours && names == 1 {
                    // Written by hand, or cut short before any claim was
                    // made from it: made again.
                    std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
                } else {
                    continue;
                }
            }
            let new = own.join(format!("{}.new", scratch_name(k)));
            std::fs::write(&new, &line).map_err(|e| Error::io(&new, e))?;
            std::fs::rename(&new, &path).map_err(|e| Error::io(&path, e))?;
            let (id, names) =
                crate::util::sys::file_links(&path).ok_or_else(|| Error::io(&path, lost()))?;
            self.scratch = Some(Scratch { path, id, names });
            break;
        }
        Ok(self.scratch.as_ref().expect("set above"))
    }

    /// Claims generation `gen` of pair `pair`: true when this worker got
    /// it, false when another worker had it first.
    ///
    /// # Errors
    /// I/O (a read-only folder, a full disk).
    pub fn claim(&mut self, pair: u64, gen: u32) -> Result<bool> {
        let path = self.dir.join(claim_name(pair, gen));
        let scratch = self.scratch()?;
        let ours = match std::fs::hard_link(&scratch.path, &path) {
            Ok(()) => true,
            // Over NFS a retried link can report EEXIST for the link it
            // made: the name is then this worker's scratch file.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                crate::util::sys::file_id_here(&path) == Some(scratch.id)
            }
            Err(e) => return Err(Error::io(&path, e)),
        };
        if ours {
            self.scratch.as_mut().expect("made above").names += 1;
        }
        Ok(ours)
    }

    /// The newest generation of pair `pair`'s claim and its owner (`None`
    /// when nobody claimed it).
    pub fn owner(&self, pair: u64) -> Option<(u32, Owner)> {
        let mut found = None;
        for gen in 0.. {
            match read_claim(&self.dir, &claim_name(pair, gen)) {
                Some(owner) => found = Some((gen, owner)),
                None => return found,
            }
        }
        found
    }

    /// The workers whose heartbeat is live (this one included): a beat
    /// within [`heartbeat::LIVE`] that does not say it ended.
    fn live_workers(&self) -> u64 {
        let Ok(entries) = std::fs::read_dir(&self.workers) else {
            return 1;
        };
        let live = entries
            .filter_map(|e| e.ok())
            .filter(|e| {
                heartbeat::Beat::read(&e.path().join("heartbeat"))
                    .is_some_and(|(b, t)| b.count.is_some() && heartbeat::age(t) <= heartbeat::LIVE)
            })
            .count() as u64;
        live.max(1)
    }

    /// True when the owner `owner` of a claim is gone for good (a claim
    /// that names no worker has none).
    fn owner_is_stale(&self, owner: &Owner, stale_after: Duration) -> bool {
        match owner {
            Owner::Unreadable(_) => true,
            Owner::Worker(id) => {
                *id != self.me
                    && heartbeat::is_stale(&self.workers.join(id).join("heartbeat"), stale_after)
            }
        }
    }
}

/// How far past the lowest unfinished pair a worker may claim.
struct Window {
    /// This worker's concurrency.
    concurrency: u64,
    /// Pairs, as last worked out.
    pairs: u64,
    /// When it was.
    at: Instant,
}

/// The scheduler of one worker: pairs handed out through [`Claims`].
pub struct ClaimScheduler {
    plan: Schedule,
    claims: Claims,
    stale_after: Duration,
    /// Games to play next (the other game of a pair just claimed, the
    /// games of a pair taken over).
    queue: VecDeque<u64>,
    /// Pairs this worker had claimed before a restart, unfinished.
    mine: BTreeSet<u64>,
    /// The lowest pair not known to be claimed.
    cursor: u64,
    /// Pairs another worker held when this one tried them, not known finished.
    elsewhere: BTreeSet<u64>,
    /// Games known finished (by any worker), and how many of the run's
    /// finished games have been read into it.
    done: HashSet<u64>,
    seen: usize,
    last_takeover: Instant,
    /// For a run that may decide (an SPRT): no pair is claimed this many
    /// pairs or more past the lowest unfinished one (live workers times
    /// this worker's concurrency, plus one so that a worker a little ahead
    /// of the others need not wait; renewed every second), so few pairs are
    /// played past a decision; a worker that reaches the limit plays the
    /// lowest unfinished pair alongside its slow owner instead of waiting.
    window: Option<Window>,
    /// The lowest pair not known finished.
    frontier: u64,
    /// Since when the window has kept this worker from claiming.
    blocked_since: Option<Instant>,
    /// When this worker started.
    started: Instant,
    /// The pairs this worker claimed (first generation or taken over).
    pub claimed: u64,
    /// A claim that could not be written: the run stops.
    pub failure: Option<Error>,
    /// The claims that named no worker which this worker took over (each
    /// file and why).
    pub unreadable: Vec<String>,
    /// For a tune, θ from the run's games: a pair is claimed only once
    /// the iterations its θ needs are in the journals, and its games carry
    /// the values they play.
    tune: Option<Trajectory>,
    /// The game asked for would wait in this worker's queue
    /// ([`Finished::ahead`]).
    ahead: bool,
    /// Whether another worker was live, and when that was looked at.
    others: Option<(bool, Instant)>,
    /// For a knockout or a Swiss, the replay of the run's games: a pair is
    /// claimed once the results that pair it are in the journals, and one
    /// not needed (a bye, a tie-break pair) is passed over.
    rounds: Option<Rounds>,
}

impl ClaimScheduler {
    /// The scheduler of worker `claims`' owner over `plan`, finishing its
    /// own unfinished claims (`mine`) first.
    ///
    /// `window`: for a run that may decide, this worker's concurrency,
    /// which with the live workers bounds how far past the lowest
    /// unfinished pair it claims. `tune`: a tune's θ, which gates the
    /// claims.
    pub fn new(
        plan: Schedule,
        claims: Claims,
        mine: BTreeSet<u64>,
        stale_after: Duration,
        window: Option<usize>,
        tune: Option<Trajectory>,
    ) -> Self {
        ClaimScheduler {
            window: window.map(|c| Window {
                concurrency: c as u64,
                pairs: 0,
                at: Instant::now() - Duration::from_secs(60),
            }),
            frontier: 0,
            blocked_since: None,
            started: Instant::now(),
            plan,
            claims,
            stale_after,
            queue: VecDeque::new(),
            mine,
            cursor: 0,
            elsewhere: BTreeSet::new(),
            done: HashSet::new(),
            seen: 0,
            last_takeover: Instant::now(),
            claimed: 0,
            failure: None,
            unreadable: Vec::new(),
            tune,
            ahead: false,
            others: None,
            rounds: None,
        }
    }

    /// The same scheduler for a knockout or a Swiss (`rounds`: its
    /// replay), whose pairs' engines depend on results.
    #[must_use]
    pub fn with_rounds(mut self, rounds: Option<Rounds>) -> Self {
        self.rounds = rounds;
        self
    }

    /// What a knockout's or Swiss's pair is now (`None` for other formats).
    fn slot(&mut self, pair: u64) -> Option<Slot> {
        self.rounds.as_mut().map(|r| r.slot(pair))
    }

    /// Takes a pair no game of which is played (not needed) as finished.
    fn pass_over(&mut self, pair: u64) {
        self.done.insert(2 * pair);
        self.done.insert(2 * pair + 1);
    }

    /// True while pair `pair` of a tune waits for the results its θ needs.
    fn gated(&mut self, pair: u64) -> bool {
        self.tune
            .as_mut()
            .is_some_and(|t| t.sides_of(pair).is_none())
            || self.slot(pair) == Some(Slot::Wait)
    }

    /// Queues the games of `pair` not finished yet.
    fn queue_pair(&mut self, pair: u64) {
        for g in [2 * pair, 2 * pair + 1] {
            if !self.done.contains(&g) {
                self.queue.push_back(g);
            }
        }
    }

    fn pair_done(&self, pair: u64) -> bool {
        self.done.contains(&(2 * pair)) && self.done.contains(&(2 * pair + 1))
    }

    /// Takes over the lowest stale claim below the cursor, if any.
    fn take_over(&mut self) -> Result<bool> {
        self.last_takeover = Instant::now();
        let pending: Vec<u64> = self.elsewhere.iter().copied().collect();
        for pair in pending {
            if self.pair_done(pair) {
                self.elsewhere.remove(&pair);
                continue;
            }
            let Some((gen, owner)) = self.claims.owner(pair) else {
                continue;
            };
            if !self.claims.owner_is_stale(&owner, self.stale_after) {
                continue;
            }
            if self.claims.claim(pair, gen + 1)? {
                self.elsewhere.remove(&pair);
                self.claimed += 1;
                self.queue_pair(pair);
                if let Owner::Unreadable(why) = owner {
                    self.unreadable.push(why);
                }
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The pairs past the frontier this worker may claim up to (none
    /// without a window).
    fn limit(&mut self) -> u64 {
        if self.window.is_none() {
            return u64::MAX;
        }
        while self.frontier < self.plan.total_pairs() && self.pair_done(self.frontier) {
            self.frontier += 1;
        }
        let live = self
            .window
            .as_ref()
            .is_some_and(|w| w.at.elapsed() >= Duration::from_secs(1))
            .then(|| self.claims.live_workers());
        let w = self.window.as_mut().expect("checked");
        if let Some(live) = live {
            w.pairs = live * w.concurrency + 1;
            w.at = Instant::now();
        }
        self.frontier.saturating_add(w.pairs)
    }

    /// At the window's edge: plays the lowest unfinished pair another
    /// worker holds alongside it (its games are the same whoever plays
    /// them; the first journalled counts), so a slow worker holds nobody
    /// back. False when there is none (the frontier is this worker's).
    fn help(&mut self) -> Result<bool> {
        let limit = self.limit();
        let Some(&pair) = self.elsewhere.range(..limit).find(|&&p| !self.pair_done(p)) else {
            return Ok(false);
        };
        let Some((gen, owner)) = self.claims.owner(pair) else {
            return Ok(false);
        };
        self.elsewhere.remove(&pair);
        if owner.is(&self.claims.me) {
            return Ok(false);
        }
        if self.claims.claim(pair, gen + 1)? {
            self.claimed += 1;
            self.queue_pair(pair);
            if let Owner::Unreadable(why) = owner {
                self.unreadable.push(why);
            }
        }
        Ok(true)
    }

    /// Claims the next free pair at or past the cursor, if any is left
    /// (and within the window).
    fn claim_next(&mut self) -> Result<bool> {
        let total = self.plan.total_pairs().min(self.limit());
        while self.cursor < total {
            let pair = self.cursor;
            if self.gated(pair) {
                return Ok(false);
            }
            self.cursor += 1;
            if self.slot(pair) == Some(Slot::Skip) {
                self.pass_over(pair);
                continue;
            }
            if self.claims.claim(pair, 0)? {
                self.claimed += 1;
                self.blocked_since = None;
                self.queue_pair(pair);
                return Ok(true);
            }
            if !self.pair_done(pair) {
                self.elsewhere.insert(pair);
            }
        }
        Ok(false)
    }

    /// The queued game `g` as it is played now: with its engines (a
    /// knockout's or Swiss's) and values (a tune's); `Later` while what it
    /// needs is not read yet; `None` when it is not to be played (finished,
    /// or its pair not needed), taken off the queue.
    fn queued(&mut self, g: u64) -> Option<Next> {
        if self.done.contains(&g) {
            self.queue.pop_front();
            return None;
        }
        let mut p = self.plan.pairing(g);
        match self.slot(g / 2) {
            None => {}
            Some(Slot::Play {
                first,
                second,
                round,
            }) => {
                (p.black, p.white) = if g.is_multiple_of(2) {
                    (first, second)
                } else {
                    (second, first)
                };
                p.round = round;
            }
            Some(Slot::Skip) => {
                self.queue.pop_front();
                self.pass_over(g / 2);
                return None;
            }
            // A pair of its own from before a restart, or taken
            // over, whose engines this worker has not read yet.
            Some(Slot::Wait) => return Some(Next::Later(POLL)),
        }
        if let Some(t) = &mut self.tune {
            match t.sides_of(g / 2) {
                Some(sides) => p.tune = Some(sides),
                // Its own claim from before a restart, or a pair
                // taken over, whose θ this worker has not read yet.
                None => return Some(Next::Later(POLL)),
            }
        }
        self.queue.pop_front();
        Some(Next::Play(p))
    }

    /// True when another worker's heartbeat is live (looked at once a
    /// second at most).
    fn not_alone(&mut self) -> bool {
        match self.others {
            Some((others, at)) if at.elapsed() < Duration::from_secs(1) => others,
            _ => {
                let others = self.claims.live_workers() > 1;
                self.others = Some((others, Instant::now()));
                others
            }
        }
    }

    /// The next game: queued, then own old claims, then stale claims (when
    /// due), then a new claim; `Later` while other workers still play; or
    /// `Done`. A game that would wait for a game thread is not claimed
    /// while another worker is live, which could play it now (`Wait`).
    fn pick(&mut self) -> Result<Next> {
        loop {
            if let Some(&g) = self.queue.front() {
                match self.queued(g) {
                    Some(next) => return Ok(next),
                    None => continue,
                }
            }
            if let Some(pair) = self.mine.pop_first() {
                self.queue_pair(pair);
                continue;
            }
            if self.ahead && self.not_alone() {
                return Ok(Next::Wait);
            }
            let due = self.last_takeover.elapsed() >= takeover_every(self.stale_after);
            if (due || self.cursor >= self.plan.total_pairs()) && self.take_over()? {
                continue;
            }
            if self.claim_next()? {
                continue;
            }
            if self.cursor < self.plan.total_pairs() {
                // At the window's edge: wait for the frontier to move, and
                // after as long as a pair of this worker takes, help.
                if self.tune.is_some() {
                    // A tune waits for the iterations its θ needs: their
                    // owners play them (a gone one's are taken over).
                    return Ok(Next::Later(Duration::from_millis(20)));
                }
                let since = *self.blocked_since.get_or_insert_with(Instant::now);
                let pair_time =
                    self.started.elapsed() / u32::try_from(self.claimed.max(1)).unwrap_or(u32::MAX);
                if since.elapsed() >= pair_time.max(Duration::from_millis(200)) && self.help()? {
                    self.blocked_since = None;
                    continue;
                }
                return Ok(Next::Later(Duration::from_millis(20)));
            }
            self.elsewhere
                .retain(|&p| !(self.done.contains(&(2 * p)) && self.done.contains(&(2 * p + 1))));
            return Ok(if self.elsewhere.is_empty() {
                Next::Done
            } else {
                Next::Later(POLL)
            });
        }
    }
}

impl Scheduler for ClaimScheduler {
    fn total(&self) -> u64 {
        2 * self.plan.total_pairs()
    }

    fn next(&mut self, finished: &Finished<'_>) -> Next {
        for g in &finished.games[self.seen.min(finished.games.len())..] {
            self.done.insert(g.game_id);
        }
        if let Some(r) = &mut self.rounds {
            r.absorb(&finished.games[self.seen.min(finished.games.len())..]);
        }
        if let Some(t) = &mut self.tune {
            t.absorb(finished.games, finished.writers);
            if let Some(why) = t.failure.take() {
                self.failure = Some(Error::Run(crate::error::Wording::text(why)));
            }
        }
        self.seen = finished.games.len();
        self.ahead = finished.ahead;
        if finished.sprt_decided || self.failure.is_some() {
            return Next::Done;
        }
        match self.pick() {
            Ok(next) => next,
            Err(e) => {
                self.failure = Some(e);
                Next::Done
            }
        }
    }
}

#[cfg(test)]
#[path = "claims_tests.rs"]
mod tests;
