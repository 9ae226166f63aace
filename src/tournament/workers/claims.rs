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

pub use super::links::Claims;
pub use super::owners::{claim_owners, parse_claim_name, read_claim, scratch_name, Owner};
use crate::error::{Error, Result};
use crate::records::rounds::{Rounds, Slot};
use crate::tournament::runner::pool::QUEUED;
use crate::tournament::schedule::{Finished, Next, Schedule, Scheduler};
use crate::tournament::tune::Trajectory;
use std::collections::{BTreeSet, HashSet, VecDeque};
use std::time::{Duration, Instant};

/// The pairs a game thread's queue holds ([`QUEUED`] games).
const QUEUED_PAIRS: u64 = (QUEUED / 2) as u64;

/// How often a worker with nothing to claim looks again.
pub const POLL: Duration = Duration::from_secs(1);

/// How often a busy worker looks for stale claims below its next pair: a
/// quarter of the staleness limit, from 1 to 10 seconds.
fn takeover_every(stale_after: Duration) -> Duration {
    (stale_after / 4).clamp(Duration::from_secs(1), Duration::from_secs(10))
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
    /// Every pair below this one is finished, as the run's lead counted
    /// (for a worker that follows it and reads no other journal).
    finished: u64,
    /// Whether this worker follows the run's lead: it then takes over no
    /// claim, as it cannot tell a gone worker's finished pairs from its
    /// unfinished ones (the lead, which reads them, takes them over).
    following: bool,
    last_takeover: Instant,
    /// For a run that may decide (an SPRT), this worker's concurrency: no
    /// pair is claimed this many pairs or more past the lowest unfinished
    /// one: live workers times the concurrency, plus one so that a worker
    /// a little ahead of the others need not wait (alone, plus the pairs
    /// its queue holds), so few pairs are started past a decision; a
    /// worker that reaches the limit plays the lowest unfinished pair
    /// alongside its slow owner instead of waiting.
    window: Option<u64>,
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
    /// The live workers, and when they were counted.
    live: Option<(u64, Instant)>,
    /// The live workers as the run's lead counted them, when this worker
    /// leads or follows it: then it reads no heartbeat for them.
    told_live: Option<u64>,
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
            window: window.map(|c| c as u64),
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
            finished: 0,
            following: false,
            last_takeover: Instant::now(),
            claimed: 0,
            failure: None,
            unreadable: Vec::new(),
            tune,
            ahead: false,
            live: None,
            told_live: None,
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
            if !self.game_done(g) {
                self.queue.push_back(g);
            }
        }
    }

    /// Whether game `g` is known finished (read, or below the lead's
    /// finished pairs).
    fn game_done(&self, g: u64) -> bool {
        g / 2 < self.finished || self.done.contains(&g)
    }

    fn pair_done(&self, pair: u64) -> bool {
        self.game_done(2 * pair) && self.game_done(2 * pair + 1)
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

    /// Moves the frontier past the pairs known finished.
    fn advance_frontier(&mut self) {
        self.frontier = self.frontier.max(self.finished);
        while self.frontier < self.plan.total_pairs() && self.pair_done(self.frontier) {
            self.frontier += 1;
        }
    }

    /// True when every pair of the run is known finished (by any worker):
    /// the run is complete, though this worker, following the run's lead,
    /// counted only its own games.
    pub fn all_finished(&mut self) -> bool {
        self.advance_frontier();
        self.frontier >= self.plan.total_pairs()
    }

    /// The pairs past the frontier this worker may claim up to (none
    /// without a window).
    fn limit(&mut self) -> u64 {
        let Some(concurrency) = self.window else {
            return u64::MAX;
        };
        self.advance_frontier();
        let live = self.live();
        let mut pairs = live * concurrency + 1;
        if live == 1 {
            // Alone, the pairs of its queue too: waiting games are not
            // started, and a decision takes them back.
            pairs += concurrency * QUEUED_PAIRS;
        }
        self.frontier.saturating_add(pairs)
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
            // Finished already (its games read from the journals): no look.
            if self.pair_done(pair) {
                continue;
            }
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
            self.elsewhere.insert(pair);
        }
        Ok(false)
    }

    /// The queued game `g` as it is played now: with its engines (a
    /// knockout's or Swiss's) and values (a tune's); `Later` while what it
    /// needs is not read yet; `None` when it is not to be played (finished,
    /// or its pair not needed), taken off the queue.
    fn queued(&mut self, g: u64) -> Option<Next> {
        if self.game_done(g) {
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

    /// The workers whose heartbeat is live, this one included: as the
    /// run's lead counted them, or looked at once a second at most.
    fn live(&mut self) -> u64 {
        if let Some(told) = self.told_live {
            return told;
        }
        match self.live {
            Some((live, at)) if at.elapsed() < Duration::from_secs(1) => live,
            _ => {
                let live = self.claims.live_workers();
                self.live = Some((live, Instant::now()));
                live
            }
        }
    }

    /// True when another worker's heartbeat is live.
    fn not_alone(&mut self) -> bool {
        self.live() > 1
    }

    /// How long a worker held back (at the window's edge, or a tune's
    /// pair waiting for its θ) waits before it looks again: each look
    /// reads every other worker's journal, so 20 ms for each 8 live
    /// workers (the looks of all of them together then cost about the
    /// same however many they are), at most [`POLL`].
    fn held_wait(&mut self) -> Duration {
        let eights = u32::try_from(self.live().div_ceil(8)).unwrap_or(u32::MAX);
        (Duration::from_millis(20) * eights).min(POLL)
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
            let due = due || self.cursor >= self.plan.total_pairs();
            if due && !self.following && self.take_over()? {
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
                    return Ok(Next::Later(self.held_wait()));
                }
                let since = *self.blocked_since.get_or_insert_with(Instant::now);
                let pair_time =
                    self.started.elapsed() / u32::try_from(self.claimed.max(1)).unwrap_or(u32::MAX);
                if since.elapsed() >= pair_time.max(Duration::from_millis(200)) && self.help()? {
                    self.blocked_since = None;
                    continue;
                }
                return Ok(Next::Later(self.held_wait()));
            }
            let elsewhere = std::mem::take(&mut self.elsewhere);
            self.elsewhere = elsewhere
                .into_iter()
                .filter(|&p| !self.pair_done(p))
                .collect();
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
        let new = &finished.games[self.seen.min(finished.games.len())..];
        self.done.extend(new.iter().map(|g| g.game_id));
        if let Some(r) = &mut self.rounds {
            r.absorb(new);
        }
        if let Some(t) = &mut self.tune {
            t.absorb(finished.games, finished.writers);
            if let Some(why) = t.failure.take() {
                self.failure = Some(Error::Run(crate::error::Wording::text(why)));
            }
        }
        self.seen = finished.games.len();
        self.following = finished.finished_pairs.is_some();
        self.finished = self.finished.max(finished.finished_pairs.unwrap_or(0));
        self.told_live = finished.live_workers;
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
