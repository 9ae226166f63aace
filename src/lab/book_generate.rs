//! `arena book generate` as one library call: load the balancing engine
//! (for a balanced book), enumerate and sample the openings, search the
//! candidates on every core, sample the kept ones and write the book, its
//! header recording the command that regenerates it. The caller prints the
//! returned [`BookReport`] and may follow the searches through a progress
//! callback.

use super::balanced::{Balance, BalanceError};
use crate::book::generate::{candidates, filter_openings, limit_kept};
use crate::book::{self, BookError, GenerateError, GenerateOptions, Generated};
use crate::engine::EngineConfig;
use crate::error::Argument;
use crate::game::othello::notation::move_list_string;
use crate::game::othello::{Board, Move};
use crate::Error;
use std::path::PathBuf;
use std::time::Instant;

/// What `arena book generate` was asked: its arguments, typed.
#[derive(Clone, Debug)]
pub struct BookGenerateOptions {
    /// Plies from the start position.
    pub plies: u32,
    /// One opening per class of positions equal up to the board symmetries.
    pub unique_by_symmetry: bool,
    /// Keep only openings an engine scores near 0 (`None`: keep all).
    pub balanced: Option<BalancedOptions>,
    /// Keep a seeded sample of this many openings (of the kept ones).
    pub limit: Option<usize>,
    /// Seed of the samples of `limit` and `candidates`.
    pub seed: u64,
    /// The book file to write.
    pub out: PathBuf,
    /// The command that regenerates the book, as the caller words it (the
    /// binary's `arena book generate --plies 4 …`): the header's first line.
    pub command: String,
}

/// How a balanced book scores its openings.
#[derive(Clone, Debug)]
pub struct BalancedOptions {
    /// The engine that scores the openings, read and checked by the caller.
    pub engine: EngineConfig,
    /// The engine as the caller named it (an engine file, or one with
    /// fields changed), for errors, the header and the report.
    pub engine_arg: String,
    /// The search depth in plies.
    pub depth: u32,
    /// Keep an opening when its score is within this many discs of 0.
    pub max_abs: f64,
    /// Search only a seeded sample of this many enumerated openings.
    pub candidates: Option<usize>,
}

/// What a balanced book's generation tells its caller as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookProgress {
    /// The searches begin: this many openings will be searched.
    Searching {
        /// Openings to search.
        openings: u64,
    },
    /// One more opening searched (from any thread).
    Searched,
    /// Every opening searched.
    Finished,
}

/// What `arena book generate` did: the fields of its `--json` object.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BookReport {
    /// The book file written.
    pub out: String,
    /// Plies from the start position.
    pub plies: u32,
    /// One opening per symmetry class.
    pub unique_by_symmetry: bool,
    /// Whether the book is balanced.
    pub balanced: bool,
    /// The balancing engine's name.
    pub engine: Option<String>,
    /// The balancing engine's file (or file with fields changed), as given.
    pub engine_file: Option<String>,
    /// The depth of the balancing searches.
    pub depth: Option<u32>,
    /// The bound on the score, in discs.
    pub max_abs: Option<f64>,
    /// `--candidates` as given.
    pub candidates: Option<usize>,
    /// Openings enumerated.
    pub enumerated: usize,
    /// Openings searched (balanced books only).
    pub searched: Option<usize>,
    /// Openings kept.
    pub kept: usize,
    /// Openings written.
    pub written: usize,
    /// `--limit` as given.
    pub limit: Option<usize>,
    /// The seed, when something was sampled.
    pub seed: Option<u64>,
    /// Seconds in all.
    pub seconds: f64,
}

/// Why a book could not be generated.
#[derive(Debug, thiserror::Error)]
pub enum BookGenerateError {
    /// A bad argument or engine file.
    #[error(transparent)]
    Arena(#[from] Error),
    /// A bad balancing request.
    #[error(transparent)]
    Balance(#[from] BalanceError),
    /// A bad generation request.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// The book could not be written.
    #[error(transparent)]
    Book(#[from] BookError),
    /// A balanced book kept no opening: nothing was written.
    #[error(
        "none of the {} searched scores within {max_abs} discs of 0 with engine {engine} at depth {depth}: \
         nothing written to {out}; raise {setting}",
        count(*.searched, "opening")
    )]
    NothingKept {
        /// Openings searched.
        searched: usize,
        /// The bound, in discs.
        max_abs: f64,
        /// The engine's name.
        engine: String,
        /// The depth of the searches.
        depth: u32,
        /// The book file not written.
        out: String,
        /// The option to raise: `max_abs`, by its setting's name (the
        /// binary prints its flag).
        setting: Argument,
    },
}

/// `n` and a noun, plural unless `n == 1` (`1 opening`, `2 openings`).
pub fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// `1 ply`, `4 plies`.
pub fn plies_text(n: u32) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

/// Whether the seed chooses anything: a limit, or a balanced book's
/// candidates.
pub fn sampled(opts: &BookGenerateOptions) -> bool {
    opts.limit.is_some()
        || opts
            .balanced
            .as_ref()
            .is_some_and(|b| b.candidates.is_some())
}

/// The filter of a balanced book.
fn balance(b: &BalancedOptions) -> Result<Balance, BookGenerateError> {
    Balance::new(&b.engine, b.depth, b.max_abs).map_err(|e| match e {
        BalanceError::NotSearching { .. } => {
            Error::argument("engine", format!("{}: {e}", b.engine_arg)).into()
        }
        e @ (BalanceError::Depth { .. } | BalanceError::MaxAbs { .. }) => e.into(),
    })
}

/// The steps of a balanced book: enumerate and sample the candidates,
/// search them on every core (telling `progress`), then sample the kept
/// ones.
fn generate_balanced(
    opts: &GenerateOptions,
    balance: &Balance,
    progress: &(dyn Fn(BookProgress) + Sync),
) -> Result<Generated, GenerateError> {
    let (enumerated, candidates) = candidates(opts)?;
    let searched = candidates.len();
    progress(BookProgress::Searching {
        openings: searched as u64,
    });
    let kept = filter_openings(
        candidates,
        move || {
            move |board: &Board, _: &[Move]| {
                let keep = balance.keeps(board);
                progress(BookProgress::Searched);
                keep
            }
        },
        opts.threads,
    );
    progress(BookProgress::Finished);
    Ok(limit_kept(opts, enumerated, searched, kept))
}

/// The header lines of the book: the command, what was enumerated, how it
/// was balanced and sampled.
fn header(opts: &BookGenerateOptions, g: &Generated, balance: Option<&Balance>) -> Vec<String> {
    let what = if opts.unique_by_symmetry {
        "one per class of positions equal up to the 8 board symmetries (the first move list in lexicographic order)"
    } else {
        "each with the first move list in lexicographic order reaching it"
    };
    let mut header = vec![
        opts.command.clone(),
        format!(
            "Every position reachable from the start in exactly {}, {what}: {}.",
            plies_text(opts.plies),
            count(g.enumerated, "opening")
        ),
    ];
    if let (Some(b), Some(asked)) = (balance, &opts.balanced) {
        let sampled = if g.candidates < g.enumerated {
            format!(" (a sample chosen with seed {})", opts.seed)
        } else {
            String::new()
        };
        header.push(format!(
            "Balanced: searched {} of them{sampled} with engine {} at depth {}; kept {} whose score \
             for the side to move is within {} discs of 0 (|score| <= {} centidiscs).",
            g.candidates,
            b.engine_name(),
            b.depth(),
            g.kept,
            asked.max_abs,
            b.max_abs_centidiscs()
        ));
    }
    if let Some(k) = opts.limit {
        header.push(format!(
            "A sample of {} of {} chosen with seed {}.",
            g.openings.len().min(k),
            if balance.is_some() {
                "the kept ones"
            } else {
                "them"
            },
            opts.seed
        ));
    }
    header.push("Regenerate with the command above; check with `arena book check FILE`.".into());
    header
}

/// Runs `arena book generate`: generates the book (a balanced one telling
/// `progress` as it searches) and writes it to `opts.out`.
///
/// # Errors
/// A bad balancing request ([`Error::Argument`] naming
/// `--engine` for an engine that does not search), bad plies, a balanced
/// book that keeps nothing ([`BookGenerateError::NothingKept`]), I/O.
pub fn generate_book(
    opts: &BookGenerateOptions,
    progress: &(dyn Fn(BookProgress) + Sync),
) -> Result<BookReport, BookGenerateError> {
    let t0 = Instant::now();
    let balance = opts.balanced.as_ref().map(balance).transpose()?;
    let generate = GenerateOptions {
        plies: opts.plies,
        unique_by_symmetry: opts.unique_by_symmetry,
        limit: opts.limit,
        candidates: opts.balanced.as_ref().and_then(|b| b.candidates),
        seed: opts.seed,
        threads: 0,
    };
    let g = match &balance {
        None => book::generate(&generate, None)?,
        Some(b) => generate_balanced(&generate, b, progress)?,
    };
    if let (Some(b), Some(asked)) = (&balance, &opts.balanced) {
        if g.kept == 0 {
            return Err(BookGenerateError::NothingKept {
                searched: g.candidates,
                max_abs: asked.max_abs,
                engine: b.engine_name().to_string(),
                depth: b.depth(),
                out: opts.out.display().to_string(),
                setting: Argument::Option("max_abs".into()),
            });
        }
    }
    let header = header(opts, &g, balance.as_ref());
    book::write_book(
        &opts.out,
        &header,
        g.openings.iter().map(|o| move_list_string(&o.moves)),
    )?;
    Ok(BookReport {
        out: opts.out.display().to_string(),
        plies: opts.plies,
        unique_by_symmetry: opts.unique_by_symmetry,
        balanced: balance.is_some(),
        engine: balance.as_ref().map(|b| b.engine_name().to_string()),
        engine_file: opts.balanced.as_ref().map(|b| b.engine_arg.clone()),
        depth: balance.as_ref().map(Balance::depth),
        max_abs: opts.balanced.as_ref().map(|b| b.max_abs),
        candidates: opts.balanced.as_ref().and_then(|b| b.candidates),
        enumerated: g.enumerated,
        searched: balance.as_ref().map(|_| g.candidates),
        kept: g.kept,
        written: g.openings.len(),
        limit: opts.limit,
        seed: sampled(opts).then_some(opts.seed),
        seconds: t0.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(balanced: Option<BalancedOptions>, limit: Option<usize>) -> BookGenerateOptions {
        BookGenerateOptions {
            plies: 4,
            unique_by_symmetry: true,
            balanced,
            limit,
            seed: 5,
            out: PathBuf::from("my book.txt"),
            command: "arena book generate as the caller words it".into(),
        }
    }

    #[test]
    fn counts_and_plies_are_worded_in_the_singular_or_plural() {
        assert_eq!(
            (count(1, "opening"), count(2, "opening")),
            ("1 opening".into(), "2 openings".into())
        );
        assert_eq!(
            (plies_text(1), plies_text(4)),
            ("1 ply".into(), "4 plies".into())
        );
    }

    #[test]
    fn a_balanced_book_that_keeps_nothing_says_what_to_change() {
        let e = BookGenerateError::NothingKept {
            searched: 1,
            max_abs: 0.0,
            engine: "e".into(),
            depth: 3,
            out: "b.txt".into(),
            setting: Argument::Option("max_abs".into()),
        };
        // The library names the setting; the binary prints its flag
        // (tests/flags.rs pins that line).
        assert_eq!(
            e.to_string(),
            "none of the 1 opening searched scores within 0 discs of 0 with engine e at depth 3: \
             nothing written to b.txt; raise max_abs"
        );
    }

    #[test]
    fn an_unbalanced_book_is_written_with_its_header() {
        let dir = std::env::temp_dir().join(format!("arena-lab-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut opts = options(None, None);
        opts.plies = 1;
        opts.out = dir.join("b.txt");
        let r = generate_book(&opts, &|_| panic!("no searches for an unbalanced book")).unwrap();
        assert_eq!((r.enumerated, r.kept, r.written, r.seed), (1, 1, 1, None));
        let text = std::fs::read_to_string(&opts.out).unwrap();
        // The caller's command is the header's first line (the binary's
        // own is pinned by tests/book_generate.rs).
        assert!(text.starts_with("# arena book generate as the caller words it\n"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
