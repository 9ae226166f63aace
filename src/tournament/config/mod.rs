//! Tournament configs (`configs/*.ron`): the raw form as written
//! ([`RawTournament`], `deny_unknown_fields`) and the checked form
//! ([`Tournament`]) with every engine loaded and the book read. Errors name
//! the file, line, column and field; semantic errors name the value.
//! Nothing is silently corrected.
//!
//! Paths of engines and the book are relative to the config file; `out` is
//! relative to the directory `arena` runs in (like any output path).

mod engines;
pub mod matchup;
mod normal;
pub mod options;
mod plan;
mod size;

use crate::book::{read_book, Book, BookError, Opening, OpeningOrder, Order};
use crate::engine::EngineSpec;
use crate::error::{Error, Result};
use crate::game::othello::Board;
use crate::game::GameKind;
use crate::records::changes::form_hash;
use crate::records::Format;
use crate::search::Limit;
use crate::tournament::tune::{Named, Tune};
/// FNV-1a, 64-bit: config fingerprints (it lives in `util`, where the
/// history database uses it too).
pub use crate::util::fnv1a;
use crate::util::text::read_text;
use crate::util::{Source, Sourced};
pub use engines::EngineRef;
use engines::{load_engines, Loaded};
use normal::normal_form;
use options::check_forced_limit;
pub use options::{Adjudicate, Overrides, Speed, TimeControl, MAX_ADJUDICATE_EMPTIES};
pub use plan::Plan;
use serde::{Deserialize, Serialize};
use size::{check_before_loading, check_rounds_flag, check_size};
use std::path::{Path, PathBuf};

/// The opening book of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBook {
    /// The book file, relative to the config file.
    pub file: PathBuf,
    /// `Sequential` or `Random` (a shuffle seeded by the tournament seed).
    pub order: Order,
    /// Index of the first opening in the order (0-based).
    #[serde(default)]
    pub start: usize,
}

fn one() -> usize {
    1
}

/// A tournament config as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Tournament")]
pub struct RawTournament {
    /// Display name.
    pub name: String,
    /// The engines.
    pub engines: Vec<EngineRef>,
    /// Which games.
    pub format: Format,
    /// The openings (absent: every pair starts from the start position).
    #[serde(default, deserialize_with = "present")]
    pub book: Option<RawBook>,
    /// Game threads (games played at once).
    #[serde(default = "one")]
    pub concurrency: usize,
    /// Seed of every random choice (book order, random movers).
    #[serde(default)]
    pub seed: u64,
    /// Output folder.
    pub out: PathBuf,
    /// Exit with code 3 when the SPRT accepts H0 (SPRT only).
    #[serde(default)]
    pub fail_on_h0: bool,
    /// The limit of every engine that states none of its own (an engine's
    /// own limit wins).
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    /// Ending games early with their exact result (off by default).
    #[serde(default)]
    pub adjudicate: Adjudicate,
    /// A limit every engine plays with instead of its own (the random
    /// mover aside): `Some(Depth(6))`, `Some(MoveTime(500))`,
    /// `Some(Clock(10000, 100))`.
    #[serde(default)]
    pub limit: Option<Limit>,
    /// Clocks and move times scaled by each machine's speed (off when
    /// absent): `speed: (reference_nps: 1500000)`.
    #[serde(default, deserialize_with = "present")]
    pub speed: Option<Speed>,
}

/// A checked tournament, ready to run.
#[derive(Clone, Debug)]
pub struct Tournament {
    /// Display name.
    pub name: String,
    /// The engines, loaded, with unique names.
    pub engines: Vec<EngineSpec>,
    /// The time control of engines without a limit of their own.
    pub time_control: Option<TimeControl>,
    /// Adjudication.
    pub adjudicate: Adjudicate,
    /// Which games: the format, checked (for a tune, `engines` are its θ+
    /// and θ−).
    pub plan: Plan,
    /// The book.
    pub book: Book,
    /// Its order.
    pub order: OpeningOrder,
    /// The raw book settings (`None`: no book).
    pub book_settings: Option<RawBook>,
    /// The game every engine plays.
    pub game: GameKind,
    /// Game threads.
    pub concurrency: usize,
    /// Seed.
    pub seed: u64,
    /// Output folder.
    pub out: PathBuf,
    /// Exit code 3 on H0.
    pub fail_on_h0: bool,
    /// Clocks and move times scaled by each machine's speed.
    pub speed: Option<Speed>,
    /// The files the run reads: the config, the engine files and what they
    /// read (weights, ProbCut models, programs), the book.
    pub inputs: Vec<PathBuf>,
    /// Hash of everything that decides the games (not concurrency, output
    /// folder or exit policy), as 16 hex digits.
    pub hash: String,
    /// The same hash with the run's length (rounds, or an SPRT's most
    /// pairs) left out: runs of one family differ only in length, and the
    /// games of the shorter are the first games of the longer, so
    /// `--resume` may extend a run to a longer one of its family.
    pub family: String,
    /// What `hash` is the hash of: the config in normal form, which the
    /// run's record keeps to name what another config changes.
    pub normal_form: serde_json::Value,
}

impl Tournament {
    /// The same tournament with every engine's clock and move time
    /// multiplied by `factor` (depths and nodes as they are).
    #[must_use]
    pub fn scaled(&self, factor: f64) -> Tournament {
        let mut t = self.clone();
        for e in &mut t.engines {
            if let Some(l) = e.limit().filter(|l| l.is_timed()) {
                e.force_limit(l.scaled(factor));
            }
        }
        t
    }

    /// Reads and checks a config file.
    ///
    /// # Errors
    /// [`Error::Io`], or [`Error::Config`] naming the file, line, column and
    /// field (engine and book problems name their own file too).
    pub fn load(path: &Path) -> Result<Tournament> {
        let text = read_text(path)?;
        Tournament::parse(&text, path)
    }

    /// Parses and checks config text; `path` names it and is the base of
    /// relative engine and book paths.
    ///
    /// # Errors
    /// As [`Tournament::load`].
    pub fn parse(text: &str, path: &Path) -> Result<Tournament> {
        Tournament::parse_with(text, path, &Overrides::default())
    }

    /// As [`Tournament::load`], with the command line's `overrides` applied
    /// to the config before it is checked.
    ///
    /// # Errors
    /// As [`Tournament::load`]; [`Error::Usage`] for `--rounds` with an SPRT.
    pub fn load_with(path: &Path, overrides: &Overrides) -> Result<Tournament> {
        let text = read_text(path)?;
        Tournament::parse_with(&text, path, overrides)
    }

    /// As [`Tournament::parse`], with `overrides` applied first.
    ///
    /// # Errors
    /// As [`Tournament::load_with`].
    pub fn parse_with(text: &str, path: &Path, overrides: &Overrides) -> Result<Tournament> {
        let mut raw: RawTournament = crate::util::parse_ron(text, path)?;
        overrides.apply(&mut raw)?;
        if let Some(rounds) = overrides.rounds {
            let n = raw
                .engines
                .iter()
                .fold(0usize, |n, e| n.saturating_add(e.count()));
            check_rounds_flag(rounds, &raw.format, n)?;
        }
        Tournament::try_from(Sourced {
            raw,
            source: Source::new(path, text),
        })
    }

    /// What of this run `path` is, when it is one of its files (as
    /// [`Tournament::inputs`] lists them) or anything inside its output
    /// folder `out`: a file the run must not have written over by others.
    /// Paths are compared as the filesystem resolves them (links followed,
    /// `..` taken away), and files by identity, so a second name of one
    /// (a hard link) is caught too.
    pub fn owns(&self, path: &Path, out: &Path) -> Option<String> {
        let p = crate::util::fs::resolved(path);
        let folder = crate::util::fs::resolved(out);
        if p.starts_with(&folder) {
            return Some(format!(
                "inside the run's output folder {}",
                crate::error::path_text(out)
            ));
        }
        if let Some(inside) = crate::util::fs::linked_inside(path, out) {
            return Some(format!(
                "a second name (a hard link) of {}, inside the run's output folder",
                crate::error::path_text(&inside)
            ));
        }
        let input = self
            .inputs
            .iter()
            .find(|i| crate::util::fs::resolved(i) == p || crate::util::same_file(i, path))?;
        Some(if input == path {
            "a file the run reads".to_string()
        } else {
            format!("a file the run reads ({})", crate::error::path_text(input))
        })
    }

    /// Engine names, in config order.
    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name().to_string()).collect()
    }
}

/// Here, where the raw config is: the overrides edit it.
impl Overrides {
    /// Applies the overrides to a raw config.
    ///
    /// # Errors
    /// [`Error::Usage`] for `--rounds` with an SPRT (which has `max_pairs`).
    pub fn apply(&self, raw: &mut RawTournament) -> Result<()> {
        if let Some(seed) = self.seed {
            raw.seed = seed;
        }
        let (given, a) = (self.adjudicate, &mut raw.adjudicate);
        a.solve_at_empties = given.solve_at_empties.or(a.solve_at_empties);
        a.resign = given.resign.or(a.resign);
        a.draw = given.draw.or(a.draw);
        if let Some(r) = self.rounds {
            match &mut raw.format {
                Format::RoundRobin { rounds } | Format::Gauntlet { rounds, .. } => *rounds = r,
                other => {
                    let why = match other {
                        Format::Sprt { .. } => "an SPRT plays pairs until it decides (max_pairs), not rounds",
                        Format::Spsa { .. } => "a tune plays its iterations (iterations, pairs_per_iteration), not rounds",
                        Format::Knockout { .. } => "a knockout plays its bracket's rounds (pairs a match in the config), not --rounds",
                        Format::Swiss { .. } => "a Swiss's rounds are its config's (format: Swiss(rounds: N)): each pairs by the results before it, so --rounds does not apply",
                        Format::RoundRobin { .. } | Format::Gauntlet { .. } => "",
                    };
                    return Err(Error::usage("rounds", why));
                }
            }
        }
        Ok(())
    }
}

/// The checks, in the order their errors are reported: the name, the
/// engines (each file loaded and checked), the format against the engines,
/// the run's size and policy, then the book.
impl TryFrom<Sourced<'_, RawTournament>> for Tournament {
    type Error = Error;

    fn try_from(s: Sourced<'_, RawTournament>) -> Result<Tournament> {
        let (raw, src) = (s.raw, s.source);
        let tc = check_basics(&src, &raw)?;
        let least = if is_tune(&raw.format) { 1 } else { 2 };
        check_before_loading(&src, &raw)?;
        let mut loaded = load_engines(&src, &raw.engines, (tc, raw.limit), least)?;
        let tune = tune_of(&src, &raw, &mut loaded)?;
        let Loaded {
            engines,
            fingerprints,
            mut inputs,
            ..
        } = loaded;
        let names: Vec<String> = engines.iter().map(|e| e.name().to_string()).collect();
        let plan = Plan::check(&src, &raw.format, &names, tune)?;
        check_size(&src, &raw.format, engines.len())?;
        check_policy(&src, &raw, plan.sprt().is_some())?;
        check_forced_limit(&src, raw.limit, &engines)?;
        check_speed(&src, raw.speed, &plan, &engines)?;
        if let Some((field, msg)) = raw.adjudicate.problem() {
            return Err(src.field(field, msg));
        }
        let game = check_one_game(&src, &engines)?;
        if game != GameKind::Othello && raw.adjudicate != Adjudicate::default() {
            return Err(src.field(
                "adjudicate",
                "adjudication is for Othello games; a tic-tac-toe game is always played out (leave adjudicate out)",
            ));
        }
        let (book, order, book_hash) = match (&raw.book, game) {
            (Some(b), GameKind::Othello) => load_book(&src, b, raw.seed)?,
            (Some(_), GameKind::TicTacToe) => {
                return Err(src.field(
                    "book",
                    "opening books are Othello's; a tic-tac-toe tournament starts every game from the empty board (leave book out)",
                ))
            }
            (None, _) => start_only(raw.seed),
        };
        inputs.push(src.path.to_path_buf());
        inputs.extend(raw.book.as_ref().map(|b| src.base().join(&b.file)));
        let form = normal_form(&raw, &fingerprints, &book_hash, game);
        let hash = form_hash(&form);
        let family = {
            let mut r = raw.clone();
            r.format = r.format.with_length(0);
            form_hash(&normal_form(&r, &fingerprints, &book_hash, game))
        };
        Ok(Tournament {
            name: raw.name,
            engines,
            time_control: raw.time_control,
            adjudicate: raw.adjudicate,
            plan,
            book,
            order,
            book_settings: raw.book,
            game,
            concurrency: raw.concurrency,
            seed: raw.seed,
            out: raw.out,
            fail_on_h0: raw.fail_on_h0,
            speed: raw.speed,
            inputs,
            hash,
            family,
            normal_form: form,
        })
    }
}

/// The name, the output folder and the limits of the config; the time
/// control's limit.
fn check_basics(src: &Source<'_>, raw: &RawTournament) -> Result<Option<Limit>> {
    if let Some(msg) = crate::util::ron::name_problem(&raw.name, "a tournament") {
        return Err(src.field("name", msg));
    }
    if raw.out.as_os_str().is_empty() {
        return Err(src.field(
            "out",
            "the results folder is empty text; name one, like out: \"results/NAME\"",
        ));
    }
    let tc = raw.time_control.map(TimeControl::limit);
    // Checked here, before engines that take them as their own limit
    // are loaded (their errors would name the engine's file).
    for (field, limit) in [("time_control", tc), ("limit", raw.limit)] {
        if let Some(msg) = limit.and_then(Limit::problem) {
            return Err(src.field(field, msg));
        }
    }
    Ok(tc)
}

fn is_tune(format: &Format) -> bool {
    matches!(format, Format::Spsa { .. })
}

/// A tune's checks on its one engine, whose place in `loaded` its two
/// sides (θ+ and θ− at the start) then take; `None` for other formats.
fn tune_of(
    src: &Source<'_>,
    raw: &RawTournament,
    loaded: &mut Loaded,
) -> Result<Option<std::sync::Arc<Tune>>> {
    if !is_tune(&raw.format) {
        return Ok(None);
    }
    let named = match &raw.engines[..] {
        [EngineRef::Path(p)] => Named::File(src.base().join(p)),
        [EngineRef::Arg(text)] => Named::Arg(text.clone()),
        _ => Named::Inline,
    };
    let at = (loaded.folders[0].as_path(), named);
    let (tune, sides) = Tune::check(src, &raw.format, &loaded.engines, at, raw.seed)?;
    loaded.engines = sides;
    Ok(Some(std::sync::Arc::new(tune)))
}

/// A `speed` setting: a reference above 0, engines that play by time, and
/// not a tune (whose sides are built anew each iteration).
fn check_speed(
    src: &Source<'_>,
    speed: Option<Speed>,
    plan: &Plan,
    engines: &[EngineSpec],
) -> Result<()> {
    let Some(s) = speed else { return Ok(()) };
    if s.reference_nps == 0 {
        return Err(src.field("reference_nps", "must be at least 1"));
    }
    if plan.tune().is_some() {
        return Err(src.field(
            "speed",
            "a tune's clocks are not scaled by the machine's speed yet; leave speed out",
        ));
    }
    if !engines
        .iter()
        .filter_map(EngineSpec::limit)
        .any(Limit::is_timed)
    {
        return Err(src.field(
            "speed",
            "scales clocks and move times, and no engine plays by one (depths and nodes do not depend on the machine); leave speed out",
        ));
    }
    Ok(())
}

/// The exit policy and the game-thread count.
fn check_policy(src: &Source<'_>, raw: &RawTournament, is_sprt: bool) -> Result<()> {
    if raw.fail_on_h0 && !is_sprt {
        return Err(src.field("fail_on_h0", "only an Sprt format can accept H0; use false"));
    }
    if !(1..=options::MAX_CONCURRENCY).contains(&raw.concurrency) {
        return Err(src.field(
            "concurrency",
            format!("must be 1 to 256, got {}", raw.concurrency),
        ));
    }
    Ok(())
}

/// A field written as its plain value (`book: (file: …)`), held as present.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> std::result::Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// The game every engine plays; engines of two games cannot meet.
fn check_one_game(src: &Source<'_>, engines: &[EngineSpec]) -> Result<GameKind> {
    let game = engines[0].game();
    match engines.iter().find(|e| e.game() != game) {
        Some(other) => Err(src.field(
            "engines",
            format!(
                "{:?} plays {} but {:?} plays {}: engines of one tournament play one game",
                engines[0].name(),
                game.name(),
                other.name(),
                other.game().name()
            ),
        )),
        None => Ok(game),
    }
}

/// No book: one "opening", the start position, for every pair.
fn start_only(seed: u64) -> (Book, OpeningOrder, String) {
    let book = Book {
        path: PathBuf::new(),
        openings: vec![Opening {
            line: 0,
            text: "start".into(),
            board: Board::start(),
            moves: Some(Vec::new()),
        }],
    };
    let order = OpeningOrder::new(1, Order::Sequential, seed, 0).expect("one opening, start 0");
    (book, order, String::new())
}

/// The book (relative to the config), its order from the seed, and the
/// hash of its bytes.
fn load_book(src: &Source<'_>, raw: &RawBook, seed: u64) -> Result<(Book, OpeningOrder, String)> {
    let book_path = src.base().join(&raw.file);
    let book = read_book(&book_path).map_err(|e| match e {
        BookError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => src.field(
            "file",
            format!("book {} not found", crate::error::path_text(&book_path)),
        ),
        BookError::Empty { .. } => src.field(
            "file",
            format!(
                "book {} has no openings",
                crate::error::path_text(&book_path)
            ),
        ),
        other => src.field("file", other.brief()),
    })?;
    let order = OpeningOrder::new(book.len(), raw.order, seed, raw.start)
        .map_err(|e| src.field("start", e.to_string()))?;
    let book_text =
        crate::util::text::read_bytes(&book_path).map_err(|e| Error::io(&book_path, e))?;
    Ok((book, order, format!("{:016x}", fnv1a(&book_text))))
}
