//! What a results folder records about its run (`tournament.json`): the
//! format, the book, the seed, the shard and the config in normal form.
//! Both the runner and the report read it.

use super::adjudge::AdjudicateInfo;
use super::tune::{default_a_ratio, default_alpha, default_gamma, one_pair, TuneParam};
use super::BuildInfo;
use crate::book::Order;
use crate::game::GameKind;
use crate::stats::{Model, Sprt};
use serde::{Deserialize, Serialize};

/// Which games a tournament plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Format {
    /// Every two engines meet `rounds` times; a meeting is one pair of games
    /// (one opening, colours swapped).
    RoundRobin {
        /// Meetings of each two engines.
        rounds: u64,
    },
    /// The first `challengers` engines each meet every other engine
    /// `rounds` times (two challengers meet once per round).
    Gauntlet {
        /// How many of the listed engines (from the first) are challengers.
        challengers: usize,
        /// Meetings of each challenger with each opponent.
        rounds: u64,
    },
    /// Two engines, pairs until the SPRT accepts a hypothesis or
    /// `max_pairs` pairs are played.
    Sprt {
        /// Elo of H0.
        elo0: f64,
        /// Elo of H1 (above elo0).
        elo1: f64,
        /// Type I error (accepting H1 when H0 holds).
        alpha: f64,
        /// Type II error.
        beta: f64,
        /// `Normalized` (fishtest's default) or `Logistic` Elo.
        model: Model,
        /// Most pairs to play.
        max_pairs: u64,
    },
    /// SPSA tuning of one engine's numbers (`params`): each iteration
    /// plays the engine with θ + c·Δ against itself with θ − c·Δ over
    /// `pairs_per_iteration` pairs, then steps θ (see
    /// [`crate::stats::spsa`]).
    Spsa {
        /// The tuned numbers.
        params: Vec<TuneParam>,
        /// The tune's length, N.
        iterations: u64,
        /// Pairs of games each iteration plays.
        #[serde(default = "one_pair")]
        pairs_per_iteration: u64,
        /// α, the step's decay.
        #[serde(default = "default_alpha")]
        alpha: f64,
        /// γ, the perturbation's decay.
        #[serde(default = "default_gamma")]
        gamma: f64,
        /// A as a fraction of N.
        #[serde(default = "default_a_ratio")]
        a_ratio: f64,
        /// Iterations played before an earlier one's result applies:
        /// iteration k plays θ after iterations 0..k-delay-1.
        #[serde(default)]
        delay: u64,
    },
    /// A knockout bracket (see [`super::knockout`]): seeded from the
    /// engines' order or `seeds`, byes to the top seeds, each match
    /// `pairs` game pairs, then up to `extra_pairs` more while tied.
    Knockout {
        /// Game pairs of each match.
        #[serde(default = "one_pair")]
        pairs: u64,
        /// Most pairs a match tied on points adds, one at a time.
        #[serde(default)]
        extra_pairs: u64,
        /// The engines by seed, best first (the rest follow in order).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seeds: Option<Vec<String>>,
    },
    /// A Swiss system (see [`super::swiss`]) of `rounds` rounds, each
    /// pairing `pairs` game pairs.
    Swiss {
        /// Rounds (at most the engines less one, the engines for an odd
        /// count).
        rounds: u64,
        /// Game pairs of each pairing.
        #[serde(default = "one_pair")]
        pairs: u64,
        /// The rules that order engines level on score.
        #[serde(default = "super::swiss::default_tiebreaks")]
        tiebreaks: Vec<super::swiss::TieBreak>,
    },
}

impl Format {
    /// The same format with another length: `rounds` of a round-robin or
    /// gauntlet, `max_pairs` of an SPRT. A tune's length is part of its
    /// schedule (its gains depend on it): it stays.
    #[must_use]
    pub fn with_length(mut self, length: u64) -> Format {
        match &mut self {
            Format::RoundRobin { rounds } | Format::Gauntlet { rounds, .. } => *rounds = length,
            Format::Sprt { max_pairs, .. } => *max_pairs = length,
            // A knockout's and a Swiss's games depend on what came before:
            // their length is not a setting `--resume` may extend.
            Format::Spsa { .. } | Format::Knockout { .. } | Format::Swiss { .. } => {}
        }
        self
    }

    /// True for the formats whose games depend on results (a knockout, a
    /// Swiss): no fixed schedule says in advance who plays a pair.
    pub fn by_results(&self) -> bool {
        matches!(self, Format::Knockout { .. } | Format::Swiss { .. })
    }

    /// True when who plays each pair, and with what, is known before any
    /// result (not a knockout, a Swiss or a tune): the workers of such a
    /// run need no result to schedule, and may follow a lead's tally.
    pub fn results_free(&self) -> bool {
        !self.by_results() && self.tune_schedule().is_none()
    }

    /// A tune's schedule (`None` for the other formats).
    pub fn tune_schedule(&self) -> Option<crate::stats::spsa::Schedule> {
        match *self {
            Format::Spsa {
                iterations,
                alpha,
                gamma,
                a_ratio,
                delay,
                ..
            } => Some(crate::stats::spsa::Schedule {
                iterations,
                alpha,
                gamma,
                a_ratio,
                delay,
            }),
            Format::RoundRobin { .. }
            | Format::Gauntlet { .. }
            | Format::Sprt { .. }
            | Format::Knockout { .. }
            | Format::Swiss { .. } => None,
        }
    }

    /// A tune's SPSA, seeded `seed`, with `integer` saying which of its
    /// parameters are played rounded (`None` for the other formats).
    pub fn spsa(&self, seed: u64, integer: &[bool]) -> Option<crate::stats::spsa::Spsa> {
        match self {
            Format::Spsa { params, .. } => Some(super::tune::spsa_of(
                params,
                self.tune_schedule()?,
                seed,
                integer,
            )),
            Format::RoundRobin { .. }
            | Format::Gauntlet { .. }
            | Format::Sprt { .. }
            | Format::Knockout { .. }
            | Format::Swiss { .. } => None,
        }
    }
}

/// A slice of a tournament for one machine: `index` of `count` (1-based
/// index, as `--shard K/N` spells it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// K, 1..=N.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Default for Shard {
    /// The whole run.
    fn default() -> Shard {
        Shard::ALL
    }
}

impl Shard {
    /// The whole tournament.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// True when pair `p` belongs to this shard.
    pub fn owns(self, pair: u64) -> bool {
        pair % self.count == self.index - 1
    }

    /// Parses `K/N`.
    ///
    /// # Errors
    /// A message naming what is wrong.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("{text:?}: expected K/N, like 2/4"))?;
        let k: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("{text:?}: K is not a number"))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("{text:?}: N is not a number"))?;
        if n == 0 || k == 0 || k > n {
            return Err(format!("{text:?}: need 1 <= K <= N"));
        }
        Ok(Shard { index: k, count: n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How a run scaled its clocks and move times to the machine's speed
/// (a config's `speed`): the factor, the nodes a second `arena bench`'s
/// positions measured here (`None` when the factor was forced), and the
/// config's reference figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedInfo {
    /// Times are multiplied by this: reference / measured.
    pub factor: f64,
    /// Nodes a second measured here (median of 3 runs, one thread).
    pub nps: Option<f64>,
    /// The config's reference nodes a second.
    pub reference_nps: u64,
}

impl SpeedInfo {
    /// The note a report gives of it, `who` being "this machine" or a
    /// worker.
    pub fn note(&self, who: &str) -> String {
        let how = match self.nps {
            Some(nps) => format!(
                "{:.0} nodes a second measured against the config's reference {}",
                nps, self.reference_nps
            ),
            None => "forced by --speed-factor or ARENA_SPEED_FACTOR".to_string(),
        };
        format!(
            "clocks and move times scaled by {:.3} on {who} ({how}): a timed run, not reproducible game for game",
            self.factor
        )
    }
}

/// What a results folder says about its tournament (`tournament.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentInfo {
    /// Hash of the normalized config: runs with equal hashes play the same games.
    pub config_hash: String,
    /// Display name.
    pub name: String,
    /// Engine names, in config order.
    pub engines: Vec<String>,
    /// Which games.
    pub format: Format,
    /// Pairs of the whole tournament (all shards).
    pub total_pairs: u64,
    /// The book.
    pub book: BookInfo,
    /// Seed.
    pub seed: u64,
    /// Exit code 3 on H0.
    pub fail_on_h0: bool,
    /// `K/N` for a shard, `merged` for merged shards.
    pub shard: String,
    /// What a merge made with `--allow-partial` lacks (missing or unfinished
    /// shards); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<String>,
    /// The game (absent: Othello).
    #[serde(default = "othello", skip_serializing_if = "is_othello")]
    pub game: GameKind,
    /// True when the games came from a scheduler of the caller's
    /// (`tournament::run_with`), not the format's fixed schedule: its
    /// games are then checked against the run's engines, not against the
    /// fixed schedule's slots (absent: false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub custom_schedule: bool,
    /// True for a run that workers play together in one folder
    /// (`--worker ID`): its games are in `workers/ID/journal.jsonl`, one
    /// journal per worker, and `arena report` combines them (absent: false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub workers: bool,
    /// How the run adjudicates, against which its adjudicated games are
    /// checked (absent in folders written before it was recorded: not
    /// checked then).
    #[serde(default)]
    pub adjudicate: Option<AdjudicateInfo>,
    /// The build of arena and of the external engines that played the run
    /// (absent in folders written before it was recorded, and in a merge of
    /// shards of mixed builds). Not part of the config hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<BuildInfo>,
    /// For a merge of shards of different builds (`--allow-mixed-builds`):
    /// which folders differed and how; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mixed_builds: Option<String>,
    /// For a run resumed by another build (`--resume
    /// --allow-mixed-builds`): how each such build differed from the one
    /// before it, joined by "; "; absent otherwise. `build` is then the
    /// last one's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed_builds: Option<String>,
    /// The config's hash without the run's length (rounds or an SPRT's
    /// most pairs): `--resume` extends a run to a longer one of the same
    /// family (absent in folders written before it was recorded: those
    /// are not extended).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// The one clock every engine played on, as GGS writes it (`05:00`,
    /// `00:10/00:00.1`): games.ggf's `TI`. Absent when the engines play
    /// to a depth, a time per move or clocks of their own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// The checked config in normal form: the JSON whose FNV-1a is
    /// `config_hash` (the name, each engine's settings as written and the
    /// hashes of the files it reads, the format, the book's hash, order and
    /// start, the seed, and the time control, adjudication and game when
    /// set). A run of another config is refused naming the fields that
    /// differ from it ([`super::changes`]); absent in folders written
    /// before it was recorded, whose refusals name the two hashes only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<serde_json::Value>,
    /// How a run on one machine scaled its times to the machine's speed
    /// (a worker records its own in its worker.json).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<SpeedInfo>,
}

/// The game a record names when it names none: Othello.
pub(super) fn othello() -> GameKind {
    GameKind::Othello
}

/// True for Othello, which records do not name (as before tic-tac-toe).
pub fn is_othello(game: &GameKind) -> bool {
    *game == GameKind::Othello
}

/// The book of a tournament, as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BookInfo {
    /// The file, as given in the config.
    pub file: String,
    /// Openings in it.
    pub openings: usize,
    /// Order.
    pub order: Order,
    /// Start index.
    pub start: usize,
}

impl BookInfo {
    /// A tournament without a book: every pair starts from the start
    /// position (the file is empty).
    pub fn none() -> BookInfo {
        BookInfo {
            file: String::new(),
            openings: 1,
            order: Order::Sequential,
            start: 0,
        }
    }
}

impl TournamentInfo {
    /// What results should say about the openings: no book, or a book the
    /// run uses up and starts again.
    pub fn book_note(&self) -> Option<String> {
        match (self.book.file.is_empty(), self.game) {
            (true, GameKind::Othello) => Some(
                "no book: every pair starts from the start position, so engines that play deterministically repeat their games".into(),
            ),
            (true, GameKind::TicTacToe) => None,
            (false, _) => crate::book::wrap_notice(self.book.openings, self.total_pairs),
        }
    }

    /// True when these results may decide an SPRT: a whole run, or a merge
    /// of every shard. A shard, or a partial merge, never decides.
    pub fn decides(&self) -> bool {
        self.shard().count == 1 && self.partial.is_none()
    }

    /// The SPRT of an `Sprt` format.
    pub fn sprt(&self) -> Option<Sprt> {
        match self.format {
            Format::Sprt {
                elo0,
                elo1,
                alpha,
                beta,
                model,
                ..
            } => Sprt::new(elo0, elo1, alpha, beta, model).ok(),
            Format::RoundRobin { .. }
            | Format::Gauntlet { .. }
            | Format::Spsa { .. }
            | Format::Knockout { .. }
            | Format::Swiss { .. } => None,
        }
    }

    /// The pairs this run plays, as a predicate.
    pub fn shard(&self) -> Shard {
        Shard::parse(&self.shard).unwrap_or(Shard::ALL)
    }

    /// For a head-to-head, the engine whose point of view the statistics
    /// take and its opponent: in an SPRT the second engine (the candidate)
    /// against the first (the baseline); otherwise the first against the
    /// second.
    pub fn perspective(&self) -> Option<(usize, usize)> {
        match (self.engines.len(), &self.format) {
            (2, Format::Sprt { .. }) => Some((1, 0)),
            (2, _) => Some((0, 1)),
            _ => None,
        }
    }
}

/// Records made by hand for unit tests.
#[cfg(test)]
impl TournamentInfo {
    /// A run named "t" (config hash "0") of `engines` playing `format` in
    /// `total_pairs` pairs over a sequential book "b" of 10 openings, seed
    /// 0, one machine, nothing else set.
    pub(crate) fn example(engines: &[&str], format: Format, total_pairs: u64) -> TournamentInfo {
        TournamentInfo {
            config_hash: "0".into(),
            name: "t".into(),
            engines: engines.iter().map(|e| e.to_string()).collect(),
            format,
            total_pairs,
            book: BookInfo {
                file: "b".into(),
                openings: 10,
                order: Order::Sequential,
                start: 0,
            },
            seed: 0,
            fail_on_h0: false,
            shard: "1/1".into(),
            partial: None,
            game: GameKind::Othello,
            custom_schedule: false,
            workers: false,
            adjudicate: None,
            build: None,
            mixed_builds: None,
            resumed_builds: None,
            family: None,
            time_control: None,
            config: None,
            speed: None,
        }
    }
}
