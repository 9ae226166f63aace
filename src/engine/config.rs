//! Engine files (`engines/*.ron`): the raw, deserialized form
//! ([`RawEngine`], `deny_unknown_fields`) and the checked form
//! ([`EngineConfig`]) that players are built from. Every problem is an
//! error naming the file, line and field; nothing is silently corrected.

use crate::error::{Error, Result};
use crate::eval::{EvalSpec, OthelloEval};
use crate::game::GameKind;
use crate::search::deepening::SearchSettings;
use crate::search::probcut::ProbCut;
use crate::search::{Limit, OrderBy, TranspositionTable, Variant};
use crate::util::text::read_text;
use crate::util::{Source, Sourced};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How an engine picks its move: the random mover, or one of the search
/// variants. Engine files spell it flat (`search: Random`, `search: Pvs`,
/// `search: AlphaBeta(fail: Soft)`): `Random` here, every other name is
/// [`Variant`]'s own serde form, so the variants are listed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// A uniformly random legal move (seeded).
    Random,
    /// A search.
    Search(Variant),
}

impl Serialize for SearchKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            SearchKind::Random => s.serialize_unit_variant("SearchKind", 0, "Random"),
            SearchKind::Search(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for SearchKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_enum("SearchKind", SEARCH_NAMES, kind::KindVisitor)
    }
}

/// Every name `search:` accepts (for error messages).
const SEARCH_NAMES: &[&str] = &["Random", "Minimax", "Negamax", "AlphaBeta", "Pvs", "MtdF"];

/// Deserializing [`SearchKind`]: read the variant's name; `Random` is ours,
/// any other name is handed back, with the rest of the input, to
/// [`Variant`]'s derived deserializer.
mod kind {
    use super::{SearchKind, Variant, SEARCH_NAMES};
    use serde::de::{self, Deserialize, EnumAccess, IntoDeserializer, VariantAccess, Visitor};
    use std::fmt;

    pub(super) struct KindVisitor;

    impl<'de> Visitor<'de> for KindVisitor {
        type Value = SearchKind;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "one of {}", SEARCH_NAMES.join(", "))
        }

        fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<SearchKind, A::Error> {
            let (Name(name), rest): (Name, A::Variant) = data.variant()?;
            if !SEARCH_NAMES.contains(&name.as_str()) {
                return Err(de::Error::unknown_variant(&name, SEARCH_NAMES));
            }
            if name == "Random" {
                rest.unit_variant()?;
                return Ok(SearchKind::Random);
            }
            Variant::deserialize(Replay { name, rest }).map(SearchKind::Search)
        }
    }

    /// A variant's name, read as an identifier (as RON spells it).
    struct Name(String);

    impl<'de> Deserialize<'de> for Name {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
            struct NameVisitor;
            impl Visitor<'_> for NameVisitor {
                type Value = Name;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a search name")
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<Name, E> {
                    Ok(Name(v.to_string()))
                }
            }
            d.deserialize_identifier(NameVisitor)
        }
    }

    /// A deserializer that replays an enum whose name was already read.
    struct Replay<A> {
        name: String,
        rest: A,
    }

    impl<'de, A: VariantAccess<'de>> de::Deserializer<'de> for Replay<A> {
        type Error = A::Error;

        fn deserialize_any<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, A::Error> {
            visitor.visit_enum(self)
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map struct enum identifier ignored_any
        }
    }

    impl<'de, A: VariantAccess<'de>> EnumAccess<'de> for Replay<A> {
        type Error = A::Error;
        type Variant = A;

        fn variant_seed<S: de::DeserializeSeed<'de>>(
            self,
            seed: S,
        ) -> Result<(S::Value, A), A::Error> {
            let name: de::value::StringDeserializer<A::Error> = self.name.into_deserializer();
            Ok((seed.deserialize(name)?, self.rest))
        }
    }
}

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
    /// Which of `limit` and `eval` the file stated (not serialized).
    #[serde(skip)]
    pub stated: Stated,
}

fn one_thread() -> u32 {
    1
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

mod written;

/// A checked engine: its settings, with the evaluation loaded.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Display name.
    pub name: String,
    /// The raw settings (for hashing and display).
    pub raw: RawEngine,
    /// The search settings (`None` for the random mover).
    pub search: Option<SearchSettings>,
    /// The evaluation, loaded.
    pub eval: OthelloEval,
    /// ProbCut parameters, loaded.
    pub probcut: Option<ProbCut>,
}

impl EngineConfig {
    /// This engine, when it plays Othello; an error at its file's `game`
    /// field when it plays another game (`command` names what needs
    /// Othello, e.g. "arena search").
    ///
    /// # Errors
    /// [`Error::Config`] naming `path`, the line of `game` and the game.
    pub fn othello(self, path: &Path, command: &str) -> Result<EngineConfig> {
        if self.raw.game == GameKind::Othello {
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
                self.raw.game.name()
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

    /// Allocates the tables `copies` players of this engine hold at once
    /// (each its search's table and, when it solves endgames, its
    /// solver's), then frees them: a check, before any work starts, that
    /// the machine gives them. The tables are zeroed lazily (no page is
    /// touched), so this costs a moment's address space and no time.
    ///
    /// # Errors
    /// [`Error::Alloc`] naming `tt_mib` and the size refused.
    pub fn check_tables(&self, copies: usize) -> Result<()> {
        let mib = self.raw.tt_mib;
        let mut sizes = Vec::new();
        if self.search.is_some() && mib > 0 {
            sizes.push(mib);
        }
        if self.search.is_some() && self.raw.endgame_exact_at > 0 {
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

/// The checks, in the order their errors are reported: the settings first,
/// then the files they name (weights, ProbCut) are loaded.
impl TryFrom<Sourced<'_, RawEngine>> for EngineConfig {
    type Error = Error;

    fn try_from(s: Sourced<'_, RawEngine>) -> Result<EngineConfig> {
        let (raw, src) = (s.raw, s.source);
        check_name(&src, &raw)?;
        check_game(&src, &raw)?;
        let variant = match raw.search {
            SearchKind::Random => None,
            SearchKind::Search(v) => Some(v),
        };
        if let Some(v) = variant {
            check_stated(&src, &raw)?;
            check_limit(&src, &raw)?;
            check_tables(&src, &raw, v)?;
            check_ordering(&src, &raw)?;
            check_aspiration(&src, &raw, v)?;
        }
        check_threads(&src, &raw)?;
        check_sizes(&src, &raw)?;
        let eval = load_eval(&src, &raw)?;
        let probcut = load_probcut(&src, &raw)?;
        Ok(EngineConfig {
            name: raw.name.clone(),
            probcut,
            search: variant.map(|variant| SearchSettings {
                variant,
                deepening: raw.deepening,
                aspiration: raw.aspiration,
                limit: raw.limit,
            }),
            eval,
            raw,
        })
    }
}

/// More than one thread: an Othello search with deepening and a table
/// for the threads to share (the exact solver's threads share its own).
fn check_threads(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    let problem = if raw.threads == 0 || raw.threads > MAX_THREADS {
        Some(format!("{} threads: give 1 to {MAX_THREADS}", raw.threads))
    } else if raw.threads == 1 {
        None
    } else if raw.search == SearchKind::Random {
        Some("the random mover does not search; use 1".to_string())
    } else if raw.game != GameKind::Othello {
        Some("only Othello searches run on several threads; use 1".to_string())
    } else if !raw.deepening || raw.tt_mib == 0 {
        Some(format!(
            "{} threads share one transposition table between iterative deepening searches: \
             needs deepening: true and tt_mib > 0",
            raw.threads
        ))
    } else {
        None
    };
    match problem {
        Some(msg) => Err(src.field("threads", msg)),
        None => Ok(()),
    }
}

fn check_name(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    if let Some(msg) = crate::util::ron::name_problem(&raw.name, "an engine") {
        return Err(src.field("name", msg));
    }
    Ok(())
}

/// A tic-tac-toe engine searches to the end of the game: it has no
/// evaluation, no endgame solver and no ProbCut.
fn check_game(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    match raw.game {
        GameKind::Othello => Ok(()),
        GameKind::TicTacToe => {
            let wrong = if raw.stated.eval && raw.eval != EvalSpec::Discs {
                Some((
                    "eval",
                    "tic-tac-toe searches use no evaluation; leave eval out",
                ))
            } else if raw.endgame_exact_at > 0 {
                Some(("endgame_exact_at", "the endgame solver is Othello's; use 0"))
            } else if raw.probcut.is_some() {
                Some(("probcut", "ProbCut models are Othello's; use None"))
            } else {
                None
            };
            match wrong {
                Some((field, msg)) => Err(src.field(field, msg)),
                None => Ok(()),
            }
        }
    }
}

/// A searching engine states its limit and its evaluation: nothing is
/// assumed. The error is placed at the engine's name (in a tournament
/// config, the inline engine it belongs to).
fn check_stated(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    let missing = match raw.stated {
        Stated { limit: false, .. } => {
            Some(("limit", "how long it searches (e.g. limit: Depth(6))"))
        }
        Stated { eval: false, .. } if raw.game == GameKind::Othello => {
            Some(("eval", "its evaluation (e.g. eval: Discs)"))
        }
        Stated { .. } => None,
    };
    let Some((field, what)) = missing else {
        return Ok(());
    };
    let quoted = format!("{:?}", raw.name);
    let (line, column) = src.value_place("name");
    let message = format!(
        "{field}: missing; engine {quoted} searches, so it must state {what}; nothing is assumed"
    );
    Err(Error::config_at(src.path, line, column, message))
}

/// A searching engine's limit: something to search, within the caps
/// (depth 60, 10^12 nodes, 24 hours), and deepening for every limit but a
/// fixed depth.
fn check_limit(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    if let Some(msg) = raw.limit.problem() {
        return Err(src.field("limit", msg));
    }
    if !raw.deepening && !matches!(raw.limit, Limit::Depth(_)) {
        return Err(src.field(
            "limit",
            format!(
                "{:?} needs iterative deepening (deepening: true); without it only Depth(n) is possible",
                raw.limit
            ),
        ));
    }
    Ok(())
}

/// What needs a pruning search or a table: the table itself, ordering,
/// ProbCut, MTD(f)'s memory.
fn check_tables(src: &Source<'_>, raw: &RawEngine, v: Variant) -> Result<()> {
    if !v.prunes() {
        if raw.tt_mib > 0 {
            return Err(src.field(
                "tt_mib",
                format!(
                    "{} does not use a transposition table; set tt_mib: 0",
                    v.name()
                ),
            ));
        }
        if !raw.ordering.is_empty() {
            return Err(src.field(
                "ordering",
                format!(
                    "{} searches every move, so ordering has no effect; use []",
                    v.name()
                ),
            ));
        }
    }
    if v == Variant::MtdF && raw.tt_mib == 0 {
        return Err(src.field("tt_mib", "MtdF needs a transposition table (tt_mib > 0)"));
    }
    if raw.ordering.contains(&OrderBy::HashMove) && raw.tt_mib == 0 {
        return Err(src.field(
            "ordering",
            "HashMove needs a transposition table (tt_mib > 0)",
        ));
    }
    Ok(())
}

/// Each ordering at most once; ProbCut only in a pruning search.
fn check_ordering(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    for (i, o) in raw.ordering.iter().enumerate() {
        if raw.ordering[..i].contains(o) {
            return Err(src.field("ordering", format!("{o:?} is listed twice")));
        }
    }
    match raw.search {
        SearchKind::Search(v) if raw.probcut.is_some() && !v.prunes() => Err(src.field(
            "probcut",
            format!(
                "ProbCut needs a pruning search (AlphaBeta, Pvs or MtdF), not {}",
                v.name()
            ),
        )),
        SearchKind::Search(_) | SearchKind::Random => Ok(()),
    }
}

fn check_aspiration(src: &Source<'_>, raw: &RawEngine, v: Variant) -> Result<()> {
    let Some(a) = raw.aspiration else {
        return Ok(());
    };
    if a <= 0 || a > 6400 {
        return Err(src.field(
            "aspiration",
            format!("the window must be 1 to 6400 centidiscs (64 discs), got {a}"),
        ));
    }
    if !raw.deepening || !matches!(v, Variant::AlphaBeta { .. } | Variant::Pvs) {
        return Err(src.field(
            "aspiration",
            "aspiration windows need deepening: true and AlphaBeta or Pvs",
        ));
    }
    Ok(())
}

/// The table and the solver within what a machine can give, and nothing
/// the random mover cannot use.
fn check_sizes(src: &Source<'_>, raw: &RawEngine) -> Result<()> {
    if raw.tt_mib > MAX_TT_MIB {
        return Err(src.field(
            "tt_mib",
            format!(
                "{} MiB is more than the {MAX_TT_MIB} MiB allowed",
                raw.tt_mib
            ),
        ));
    }
    if raw.endgame_exact_at > 30 {
        return Err(src.field(
            "endgame_exact_at",
            format!(
                "{} empties: solving more than 30 empties exactly takes hours; use 30 or fewer",
                raw.endgame_exact_at
            ),
        ));
    }
    if raw.endgame_exact_at > 0 && raw.search == SearchKind::Random {
        return Err(src.field(
            "endgame_exact_at",
            "the random mover does not solve endgames; use 0",
        ));
    }
    Ok(())
}

/// The evaluation, its weights read relative to the engine file.
fn load_eval(src: &Source<'_>, raw: &RawEngine) -> Result<OthelloEval> {
    OthelloEval::load(&raw.eval, src.base()).map_err(|e| match e {
        Error::Io { path: p, source } => src.field(
            "eval",
            format!("weights file {} cannot be read: {source}", p.display()),
        ),
        other => other,
    })
}

/// The ProbCut model, read relative to the engine file.
fn load_probcut(src: &Source<'_>, raw: &RawEngine) -> Result<Option<ProbCut>> {
    let Some(p) = &raw.probcut else {
        return Ok(None);
    };
    if raw.search == SearchKind::Random {
        return Err(src.field("probcut", "the random mover does not search; use None"));
    }
    ProbCut::load(&src.base().join(p))
        .map(Some)
        .map_err(|e| match e {
            Error::Io { path: p, source } => src.field(
                "probcut",
                format!("ProbCut file {} cannot be read: {source}", p.display()),
            ),
            other => other,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search_of(text: &str) -> std::result::Result<SearchKind, String> {
        let text = format!("Engine(name: \"x\", search: {text})");
        crate::util::parse_ron::<RawEngine>(&text, Path::new("x.ron"))
            .map(|r| r.search)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn search_is_random_or_a_variant_spelled_flat() {
        assert_eq!(search_of("Random"), Ok(SearchKind::Random));
        for v in Variant::ALL {
            let text = ron::to_string(&v).unwrap();
            assert_eq!(search_of(&text), Ok(SearchKind::Search(v)), "{text}");
            // The JSON form (config hashes) is the variant's own.
            assert_eq!(
                serde_json::to_string(&SearchKind::Search(v)).unwrap(),
                serde_json::to_string(&v).unwrap()
            );
        }
        assert_eq!(
            serde_json::to_string(&SearchKind::Random).unwrap(),
            "\"Random\""
        );
        let e = search_of("Alphabeta").unwrap_err();
        assert!(
            e.contains("Alphabeta") && e.contains("Random") && e.contains("MtdF"),
            "{e}"
        );
        let e = search_of("AlphaBeta(fail: Medium)").unwrap_err();
        assert!(e.contains("Medium"), "{e}");
    }
}
