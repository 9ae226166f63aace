//! Engine files (`engines/*.ron`): the raw, deserialized form
//! ([`RawEngine`], `deny_unknown_fields`) and the checked form
//! ([`EngineConfig`]) that players are built from, converted once
//! ([`checks`]). A checked engine says by its shape what it is
//! ([`EngineKind`]: the random mover or a search with everything it
//! needs); the raw form stays inside, for the config hash alone.

use crate::error::{Error, Result};
use crate::eval::{EvalSpec, OthelloEval};
use crate::game::GameKind;
use crate::search::deepening::SearchSettings;
use crate::search::limits::TimeUse;
use crate::search::probcut::ProbCut;
use crate::search::{Limit, OrderBy, TranspositionTable};
use crate::util::text::read_text;
use crate::util::{fnv1a, Source, Sourced};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

mod checks;
mod kind;
pub mod options;
mod written;

pub use kind::SearchKind;
pub use options::{EngineOptions, EvalChoice, OptionsError};

/// Largest transposition table an engine may ask for, in MiB.
pub const MAX_TT_MIB: usize = 16384;

/// An engine file as written (see the shipped `engines/*.ron` for every
/// field explained). Read through [`written::Written`], which tells a
/// stated `limit` or `eval` from a missing one ([`RawEngine::stated`]);
/// serialized (config hashes) exactly as before that distinction existed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Engine", from = "written::Written")]
pub struct RawEngine {
    /// Display name.
    pub name: String,
    /// The game.
    pub game: GameKind,
    /// The search algorithm.
    pub search: SearchKind,
    /// Iterative deepening.
    pub deepening: bool,
    /// Aspiration window half-width in centidiscs (alpha-beta and PVS with
    /// deepening).
    pub aspiration: Option<i32>,
    /// How long to search: a searching engine must state it. When not
    /// stated (the random mover) it holds `Depth(1)`, unused, the value
    /// earlier versions filled in, so config hashes stay the same.
    pub limit: Limit,
    /// Move ordering, highest priority first.
    pub ordering: Vec<OrderBy>,
    /// Transposition table size in MiB (0: none).
    pub tt_mib: usize,
    /// The evaluation: a searching engine must state it. When not stated
    /// it holds `Discs`, unused, as `limit` holds `Depth(1)`.
    pub eval: EvalSpec,
    /// Solve exactly when this many or fewer squares are empty (0: never;
    /// at most 30).
    pub endgame_exact_at: u32,
    /// ProbCut parameters file, relative to the engine file (alpha-beta,
    /// PVS and MTD(f) only).
    pub probcut: Option<PathBuf>,
    /// Seed of every random choice.
    pub seed: u64,
    /// Threads of each search and endgame solve (1 to 256; written only
    /// when more than 1, so one-thread engines hash as before).
    #[serde(default = "one_thread", skip_serializing_if = "is_one_thread")]
    pub threads: u32,
    /// How a clock is spent (written only when not the defaults, so
    /// engines that leave it out hash as before).
    #[serde(default, skip_serializing_if = "TimeUse::is_default")]
    pub time: TimeUse,
    /// ProbCut's confidence, instead of the ProbCut file's (written only
    /// when stated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probcut_confidence: Option<f64>,
    /// Above `endgame_exact_at` and up to this many empties the solver
    /// runs its selective passes before the exact one, and a timed move
    /// that runs out plays the last pass that finished (0: never; written
    /// only when not 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub endgame_selective_at: u32,
    /// The selective passes' cut model, relative to the engine file: a
    /// ProbCut file of `deep: 60` pairs from `arena probcut fit-endgame`
    /// with the engine's evaluation (written only when stated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endcut: Option<PathBuf>,
    /// The share of a move time (`MoveTime`) the solver may take before
    /// the search takes over (written only when not 0.5).
    #[serde(default = "half", skip_serializing_if = "is_half")]
    pub endgame_share: f64,
    /// Which of `limit` and `eval` the file stated (not serialized).
    #[serde(skip)]
    pub stated: Stated,
}

fn one_thread() -> u32 {
    1
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn half() -> f64 {
    0.5
}

fn is_half(x: &f64) -> bool {
    *x == 0.5
}

fn is_one_thread(n: &u32) -> bool {
    *n == 1
}

/// Most threads an engine may search with.
pub const MAX_THREADS: u32 = 256;

/// Which of the fields a searching engine must state were stated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stated {
    /// `limit` was given.
    pub limit: bool,
    /// `eval` was given.
    pub eval: bool,
}

impl RawEngine {
    /// Gives a searching engine that states no limit of its own `limit`
    /// (a tournament's time control); a stated limit wins.
    pub fn set_default_limit(&mut self, limit: Limit) {
        if !self.stated.limit && self.search != SearchKind::Random {
            self.set_limit(limit);
        }
    }

    /// Sets the limit from elsewhere (a command line), as if the file had
    /// stated it; every limit but a fixed depth turns deepening on.
    pub fn set_limit(&mut self, limit: Limit) {
        self.limit = limit;
        self.stated.limit = true;
        if !matches!(limit, Limit::Depth(_)) {
            self.deepening = true;
        }
    }
}

/// A checked engine: its name, its game and what it is, with every file
/// it names loaded.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Display name.
    pub name: String,
    /// The game it plays.
    pub game: GameKind,
    /// The random mover or a search.
    pub kind: EngineKind,
    /// The engine as written, limits set from elsewhere included: what the
    /// config hash fingerprints, and nothing else reads.
    written: RawEngine,
}

/// What a checked engine is.
#[derive(Clone, Debug)]
pub enum EngineKind {
    /// A uniformly random legal move.
    Random {
        /// Mixed with each game's seed.
        seed: u64,
        /// The evaluation its file names (Discs when it names none):
        /// `arena eval` shows it; the random mover never uses it.
        eval: OthelloEval,
    },
    /// A search.
    Search(SearchEngine),
}

/// A searching engine: everything its players are built from.
#[derive(Clone, Debug)]
pub struct SearchEngine {
    /// Variant, deepening, aspiration and limit.
    pub settings: SearchSettings,
    /// The evaluation, loaded (Discs, unused, in games without one).
    pub eval: OthelloEval,
    /// ProbCut parameters, loaded.
    pub probcut: Option<ProbCut>,
    /// Transposition table size in MiB (0: none).
    pub tt_mib: usize,
    /// Move ordering, highest priority first.
    pub ordering: Vec<OrderBy>,
    /// Solve exactly at this many empties or fewer (0: never).
    pub endgame_exact_at: u32,
    /// Up to this many empties (above `endgame_exact_at`) the solver runs
    /// its selective passes first, with `endcut` (0: never).
    pub endgame_selective_at: u32,
    /// The selective passes' cut model, loaded (for solves of more than
    /// `endgame_exact_at` empties).
    pub endcut: Option<Box<crate::endgame::EndCut>>,
    /// The share of a move time the solver may take.
    pub endgame_share: f64,
    /// Threads of each search and endgame solve.
    pub threads: u32,
}

impl SearchEngine {
    /// Whether its moves are timed (a move time or a clock): its tables'
    /// pages are then backed when its player is built, and kept from game
    /// to game.
    pub fn timed(&self) -> bool {
        matches!(self.settings.limit, Limit::MoveTime(_) | Limit::Clock(..))
    }

    /// The most empties at which the solver runs (0: it never does).
    pub fn solves_at(&self) -> u32 {
        self.endgame_exact_at.max(self.endgame_selective_at)
    }

    /// The bytes of the tables one player of this engine holds: its
    /// search's table and, when it solves endgames, its solver's two (the
    /// main one and the one for the last few empties). Each is fresh or
    /// emptied every game, so a player never holds more.
    pub fn table_bytes(&self) -> u64 {
        let bytes = |mib: usize| TranspositionTable::bytes(mib) as u64;
        let mib = self.tt_mib;
        let search = if mib > 0 { bytes(mib) } else { 0 };
        let solver = if self.endgame_exact_at > 0 {
            let main = mib.max(1);
            bytes(main) + bytes(crate::endgame::NEAR_MIB.min(main))
        } else {
            0
        };
        search + solver
    }

    /// Allocates the tables `copies` players of this engine hold at once
    /// (each its search's table and, when it solves endgames, its
    /// solver's), then frees them: a check, before any work starts, that
    /// the machine gives them. The tables are zeroed lazily (no page is
    /// touched), so this costs a moment's address space and no time.
    ///
    /// # Errors
    /// [`Error::Alloc`] naming `tt_mib` and the size refused.
    pub fn check_tables(&self, copies: usize) -> Result<()> {
        let mib = self.tt_mib;
        let mut sizes = Vec::new();
        if mib > 0 {
            sizes.push(mib);
        }
        if self.endgame_exact_at > 0 {
            sizes.push(mib.max(1));
        }
        let mut held = Vec::with_capacity(sizes.len() * copies);
        for _ in 0..copies {
            for &size in &sizes {
                let table = TranspositionTable::try_new(size)
                    .map_err(|e| Error::alloc(format!("tt_mib {mib}"), e))?;
                held.push(table);
            }
        }
        Ok(())
    }
}

impl EngineConfig {
    /// The search, unless this is the random mover.
    pub fn searching(&self) -> Option<&SearchEngine> {
        match &self.kind {
            EngineKind::Search(s) => Some(s),
            EngineKind::Random { .. } => None,
        }
    }

    /// The search, to change (a ProbCut confidence), unless this is the
    /// random mover.
    pub fn searching_mut(&mut self) -> Option<&mut SearchEngine> {
        match &mut self.kind {
            EngineKind::Search(s) => Some(s),
            EngineKind::Random { .. } => None,
        }
    }

    /// The evaluation the engine file names.
    pub fn eval(&self) -> &OthelloEval {
        match &self.kind {
            EngineKind::Search(s) => &s.eval,
            EngineKind::Random { eval, .. } => eval,
        }
    }

    /// How long it searches (`None` for the random mover).
    pub fn limit(&self) -> Option<Limit> {
        self.searching().map(|s| s.settings.limit)
    }

    /// Makes a searching engine play by `limit` from now on, as if its
    /// file had stated it (every limit but a fixed depth turns deepening
    /// on); false for the random mover, which has none.
    pub fn set_limit(&mut self, limit: Limit) -> bool {
        let EngineKind::Search(search) = &mut self.kind else {
            return false;
        };
        self.written.set_limit(limit);
        search.settings.limit = limit;
        search.settings.deepening = self.written.deepening;
        true
    }

    /// The engine as its file wrote it (a limit set from elsewhere
    /// included): what [`EngineConfig::fingerprint`] hashes.
    pub fn written(&self) -> &RawEngine {
        &self.written
    }

    /// What decides the engine's play, for the config hash: its settings as
    /// written and the content of its weights, ProbCut and cut model files
    /// (read relative to `base`; `probcut_fnv1a` and `endcut_fnv1a` only
    /// when it has one, so engines without hash as before).
    pub fn fingerprint(&self, base: &Path) -> serde_json::Value {
        let hash_of = |p: &Path| {
            crate::util::text::read_bytes(&base.join(p))
                .ok()
                .map(|b| format!("{:016x}", fnv1a(&b)))
        };
        let weights = self.written.eval.weights().and_then(&hash_of);
        let probcut = self.written.probcut.as_deref().and_then(&hash_of);
        let mut fingerprint =
            serde_json::json!({ "engine": self.written, "weights_fnv1a": weights });
        if let Some(p) = probcut {
            fingerprint["probcut_fnv1a"] = serde_json::Value::String(p);
        }
        if let Some(c) = self.written.endcut.as_deref().and_then(&hash_of) {
            fingerprint["endcut_fnv1a"] = serde_json::Value::String(c);
        }
        fingerprint
    }

    /// The files the engine reads (weights, ProbCut and cut model files,
    /// relative to `base`).
    pub fn inputs(&self, base: &Path) -> Vec<PathBuf> {
        let w = &self.written;
        let files = [w.eval.weights(), w.probcut.as_deref(), w.endcut.as_deref()];
        files.into_iter().flatten().map(|p| base.join(p)).collect()
    }

    /// Puts back an evaluation the checks did not load (`spec` as written,
    /// `eval` loaded from elsewhere: the bench's built-in weights, a
    /// command line's weights file).
    pub(crate) fn with_eval(mut self, spec: EvalSpec, loaded: OthelloEval) -> EngineConfig {
        self.written.eval = spec;
        match &mut self.kind {
            EngineKind::Search(s) => s.eval = loaded,
            EngineKind::Random { eval, .. } => *eval = loaded,
        }
        self
    }

    /// This engine, when it plays Othello; an error at its file's `game`
    /// field when it plays another game (`command` names what needs
    /// Othello, e.g. "arena search").
    ///
    /// # Errors
    /// [`Error::Config`] naming `path`, the line of `game` and the game.
    pub fn othello(self, path: &Path, command: &str) -> Result<EngineConfig> {
        if self.game == GameKind::Othello {
            return Ok(self);
        }
        let text = read_text(path).unwrap_or_default();
        Err(crate::util::ron_scan::config_field(
            path,
            &text,
            "game",
            format!(
                "engine {:?} plays {}; {command} needs an Othello engine",
                self.name,
                self.game.name()
            ),
        ))
    }

    /// Reads and checks an engine file.
    ///
    /// # Errors
    /// [`Error::Io`] or [`Error::Config`] naming the file, line and field.
    pub fn load(path: &Path) -> Result<EngineConfig> {
        let text = read_text(path)?;
        EngineConfig::parse(&text, path)
    }

    /// Parses and checks engine text; `path` names it in errors and is the
    /// base of relative weight paths.
    ///
    /// # Errors
    /// [`Error::Config`] naming the file, line and field.
    pub fn parse(text: &str, path: &Path) -> Result<EngineConfig> {
        let raw: RawEngine = crate::util::parse_ron(text, path)?;
        EngineConfig::check(raw, text, path)
    }

    /// The bytes of the tables one player of this engine holds
    /// ([`SearchEngine::table_bytes`]; the random mover holds none).
    pub fn table_bytes(&self) -> u64 {
        self.searching().map_or(0, SearchEngine::table_bytes)
    }

    /// Allocates the tables `copies` players of this engine hold at once
    /// ([`SearchEngine::check_tables`]; the random mover holds none).
    ///
    /// # Errors
    /// [`Error::Alloc`] naming `tt_mib` and the size refused.
    pub fn check_tables(&self, copies: usize) -> Result<()> {
        match &self.kind {
            EngineKind::Search(s) => s.check_tables(copies),
            EngineKind::Random { .. } => Ok(()),
        }
    }

    /// Checks a raw engine (`text` is its source, for error positions).
    ///
    /// # Errors
    /// [`Error::Config`] naming the field and the value.
    pub fn check(raw: RawEngine, text: &str, path: &Path) -> Result<EngineConfig> {
        EngineConfig::try_from(Sourced {
            raw,
            source: Source::new(path, text),
        })
    }
}
