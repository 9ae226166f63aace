//! `arena book`: check, generate and import opening books.

use super::{print, print_json};
use crate::book::generate as generation;
use crate::book::{self, CheckReport, Duplicate, GenerateOptions, MAX_PLIES};
use crate::engine::EngineConfig;
use crate::error::Error;
use crate::game::othello::notation::move_list_string;
use crate::game::othello::{Board, Move};
use crate::lab::balanced::{Balance, BalanceError, MAX_BALANCE_DEPTH};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `arena book`.
#[derive(Debug, clap::Subcommand)]
pub enum BookArgs {
    /// Read a book, count its openings and report duplicates (exact and up to the 8 board symmetries)
    Check(CheckArgs),
    /// Write a book of every position reachable in exactly N plies (optionally balanced: scored near 0 by an engine)
    Generate(GenerateArgs),
    /// Convert a public list of move lists (XOT: one 16-character move list per line) into a book
    Import(ImportArgs),
}

/// Arguments of `arena book check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The book file
    pub file: PathBuf,
    /// Exit with an error when any opening is a duplicate (exact or by symmetry)
    #[arg(long)]
    pub strict: bool,
    /// Print one JSON object: {"file","openings","move_lists","position_strings","distinct_positions","distinct_by_symmetry","exact_duplicates","symmetry_duplicates"}
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `arena book generate`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("sampled").args(["limit", "candidates"]).multiple(true)))]
pub struct GenerateArgs {
    /// Plies from the start position, 1 to 10 (a pass would count as one; none occurs that early)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PLIES)))]
    pub plies: u32,
    /// Keep one opening per class of positions equal up to the 8 board symmetries (the first move list in lexicographic order)
    #[arg(long)]
    pub unique_by_symmetry: bool,
    /// Keep only openings an engine scores near 0: a search of each to --depth plies, kept when |score| <= --max-abs discs (needs --engine, --depth and --max-abs; searches on every core)
    #[arg(long, requires = "engine", requires = "depth", requires = "max_abs")]
    pub balanced: bool,
    /// With --balanced: the engine file that scores the openings (its search, evaluation, ordering and table; not the random mover)
    #[arg(long, requires = "balanced")]
    pub engine: Option<PathBuf>,
    /// With --balanced: the search depth in plies, 1 to 60 (each opening gets a fresh search)
    #[arg(long, requires = "balanced", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_BALANCE_DEPTH)))]
    pub depth: Option<u32>,
    /// With --balanced: keep an opening when its score for the side to move is within this many discs of 0 (0 or more; 0.5 is 50 centidiscs)
    #[arg(long, requires = "balanced", value_parser = parse_discs)]
    pub max_abs: Option<f64>,
    /// With --balanced: search only a seeded sample of this many of the enumerated openings (at least 1), chosen before searching; --limit then samples the kept ones
    #[arg(long, requires = "balanced", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub candidates: Option<usize>,
    /// Keep a seeded sample of this many openings (at least 1); with --balanced, of the kept ones
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub limit: Option<usize>,
    /// Seed of the samples of --limit and --candidates [default: 0]
    #[arg(long, requires = "sampled")]
    pub seed: Option<u64>,
    /// The book file to write
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON object: {"out","plies","unique_by_symmetry","balanced","engine","engine_file","depth","max_abs","candidates","enumerated","searched","kept","written","limit","seed","seconds"}
    #[arg(long)]
    pub json: bool,
}

/// Parses `--max-abs`: a finite number of discs, 0 or more.
fn parse_discs(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number of discs"))?;
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(format!(
            "{text:?}: give a finite number of discs, 0 or more"
        ))
    }
}

/// Arguments of `arena book import`.
#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    /// The list to import: one move list per line
    pub file: PathBuf,
    /// The book file to write
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON object: {"file","out","openings","distinct_positions","distinct_by_symmetry","duplicates"}
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena book`.
///
/// # Errors
/// A book that cannot be read (every bad line listed) or written; with
/// `check --strict`, any duplicate.
pub fn run(args: &BookArgs) -> anyhow::Result<ExitCode> {
    match args {
        BookArgs::Check(a) => check(a),
        BookArgs::Generate(a) => generate(a),
        BookArgs::Import(a) => import(a),
    }
}

/// How many duplicates the text report lists per kind.
const SHOWN_DUPLICATES: usize = 20;

fn duplicate_lines(out: &mut Vec<String>, title: &str, dups: &[Duplicate]) {
    out.push(format!("{title}: {}", dups.len()));
    for d in dups.iter().take(SHOWN_DUPLICATES) {
        let how = d.symmetry.map_or(String::new(), |s| format!(" ({s})"));
        out.push(format!(
            "  line {} {:?} repeats line {} {:?}{how}",
            d.line, d.text, d.duplicate_of_line, d.duplicate_of_text
        ));
    }
    if dups.len() > SHOWN_DUPLICATES {
        out.push(format!(
            "  and {} more (--json lists all)",
            dups.len() - SHOWN_DUPLICATES
        ));
    }
}

/// `n` and a noun, plural unless `n == 1` (`1 opening`, `2 openings`).
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// `1 ply`, `4 plies`.
fn plies_text(n: u32) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

fn report_text(r: &CheckReport) -> String {
    let mut out = vec![
        format!(
            "{}: {} ({}, {})",
            r.file,
            count(r.openings, "opening"),
            count(r.move_lists, "move list"),
            count(r.position_strings, "position string")
        ),
        format!(
            "distinct positions: {}; up to symmetry: {}",
            r.distinct_positions, r.distinct_by_symmetry
        ),
    ];
    if r.duplicates() == 0 {
        out.push("duplicates: none".into());
    } else {
        duplicate_lines(&mut out, "exact duplicates", &r.exact_duplicates);
        duplicate_lines(&mut out, "duplicates by symmetry", &r.symmetry_duplicates);
    }
    out.join("\n")
}

fn check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let b = book::read_book(&args.file)?;
    let r = book::check(&b);
    if args.json {
        print_json(&r)?;
    } else {
        print(&report_text(&r))?;
    }
    let n = r.duplicates();
    if n > 0 {
        let what = format!("{}: {}", r.file, count(n, "duplicate opening"));
        if args.strict {
            anyhow::bail!("{what} (--strict)");
        }
        eprintln!("warning: {what} (--strict makes this an error)");
    }
    Ok(ExitCode::SUCCESS)
}

/// Quotes a command-line word for a POSIX shell when it needs it.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The command that regenerates a book, as recorded in its header: every
/// option that changes the output, in a fixed order.
pub fn generate_command(args: &GenerateArgs) -> String {
    let mut words = vec![
        "arena".to_string(),
        "book".into(),
        "generate".into(),
        "--plies".into(),
        args.plies.to_string(),
    ];
    if args.unique_by_symmetry {
        words.push("--unique-by-symmetry".into());
    }
    if args.balanced {
        words.push("--balanced".into());
        if let Some(engine) = &args.engine {
            words.extend(["--engine".into(), shell_word(&engine.display().to_string())]);
        }
        if let Some(d) = args.depth {
            words.extend(["--depth".into(), d.to_string()]);
        }
        if let Some(s) = args.max_abs {
            words.extend(["--max-abs".into(), s.to_string()]);
        }
        if let Some(m) = args.candidates {
            words.extend(["--candidates".into(), m.to_string()]);
        }
    }
    if let Some(k) = args.limit {
        words.extend(["--limit".into(), k.to_string()]);
    }
    if args.limit.is_some() || (args.balanced && args.candidates.is_some()) {
        words.extend(["--seed".into(), args.seed.unwrap_or(0).to_string()]);
    }
    words.extend(["--out".into(), shell_word(&args.out.display().to_string())]);
    words.join(" ")
}

#[derive(serde::Serialize)]
struct GenerateReport {
    out: String,
    plies: u32,
    unique_by_symmetry: bool,
    balanced: bool,
    /// The balancing engine's name.
    engine: Option<String>,
    /// The balancing engine's file, as given.
    engine_file: Option<String>,
    depth: Option<u32>,
    max_abs: Option<f64>,
    /// `--candidates` as given.
    candidates: Option<usize>,
    enumerated: usize,
    /// Openings searched (balanced books only).
    searched: Option<usize>,
    kept: usize,
    written: usize,
    limit: Option<usize>,
    seed: Option<u64>,
    seconds: f64,
}

/// The filter of `--balanced`, its engine loaded; `None` without it.
fn balance(args: &GenerateArgs) -> anyhow::Result<Option<Balance>> {
    if !args.balanced {
        return Ok(None);
    }
    let (Some(path), Some(depth), Some(max_abs)) = (&args.engine, args.depth, args.max_abs) else {
        // clap makes --balanced require all three.
        return Err(Error::Argument {
            argument: "--balanced".into(),
            message: "needs --engine, --depth and --max-abs".into(),
        }
        .into());
    };
    let config = EngineConfig::load(path)?;
    let balance = Balance::new(&config, depth, max_abs).map_err(|e| -> anyhow::Error {
        match e {
            BalanceError::NotSearching { .. } => Error::Argument {
                argument: "--engine".into(),
                message: format!("{}: {e}", path.display()),
            }
            .into(),
            other => other.into(),
        }
    })?;
    Ok(Some(balance))
}

/// The steps of a balanced book: enumerate and sample the candidates, search
/// them on every core under a progress bar (on stderr when it is a
/// terminal), then sample the kept ones.
fn generate_balanced(opts: &GenerateOptions, balance: &Balance) -> anyhow::Result<book::Generated> {
    let (enumerated, candidates) = generation::candidates(opts)?;
    let searched = candidates.len();
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(searched as u64), target);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30.cyan/blue} {pos}/{len} openings searched  {elapsed_precise} ETA {eta_precise}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let progress = &bar;
    let kept = generation::filter_openings(
        candidates,
        move || {
            move |board: &Board, _: &[Move]| {
                let keep = balance.keeps(board);
                progress.inc(1);
                keep
            }
        },
        opts.threads,
    );
    bar.finish_and_clear();
    Ok(generation::limit_kept(opts, enumerated, searched, kept))
}

fn generate(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let t0 = Instant::now();
    let balance = balance(args)?;
    let opts = GenerateOptions {
        plies: args.plies,
        unique_by_symmetry: args.unique_by_symmetry,
        limit: args.limit,
        candidates: args.candidates,
        seed: args.seed.unwrap_or(0),
        threads: 0,
    };
    let g = match &balance {
        None => book::generate(&opts, None)?,
        Some(b) => generate_balanced(&opts, b)?,
    };
    let max_abs = args.max_abs.unwrap_or(0.0);
    if let Some(b) = &balance {
        if g.kept == 0 {
            anyhow::bail!(
                "none of the {} searched scores within {max_abs} discs of 0 with engine {} at depth {}: \
                 nothing written to {}; raise --max-abs",
                count(g.candidates, "opening"),
                b.engine_name(),
                b.depth(),
                args.out.display()
            );
        }
    }
    let what = if args.unique_by_symmetry {
        "one per class of positions equal up to the 8 board symmetries (the first move list in lexicographic order)"
    } else {
        "each with the first move list in lexicographic order reaching it"
    };
    let mut header = vec![
        generate_command(args),
        format!(
            "Every position reachable from the start in exactly {}, {what}: {}.",
            plies_text(args.plies),
            count(g.enumerated, "opening")
        ),
    ];
    if let Some(b) = &balance {
        let sampled = if g.candidates < g.enumerated {
            format!(" (a sample chosen with seed {})", opts.seed)
        } else {
            String::new()
        };
        header.push(format!(
            "Balanced: searched {} of them{sampled} with engine {} at depth {}; kept {} whose score \
             for the side to move is within {max_abs} discs of 0 (|score| <= {} centidiscs).",
            g.candidates,
            b.engine_name(),
            b.depth(),
            g.kept,
            b.max_abs_centidiscs()
        ));
    }
    if let Some(k) = args.limit {
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
    book::write_book(
        &args.out,
        &header,
        g.openings.iter().map(|o| move_list_string(&o.moves)),
    )?;
    let seconds = t0.elapsed().as_secs_f64();
    let short = args.limit.filter(|&k| k > g.kept);
    let sampled = args.limit.is_some() || (balance.is_some() && args.candidates.is_some());
    if args.json {
        print_json(&GenerateReport {
            out: args.out.display().to_string(),
            plies: args.plies,
            unique_by_symmetry: args.unique_by_symmetry,
            balanced: balance.is_some(),
            engine: balance.as_ref().map(|b| b.engine_name().to_string()),
            engine_file: balance
                .as_ref()
                .and(args.engine.as_ref())
                .map(|p| p.display().to_string()),
            depth: balance.as_ref().map(Balance::depth),
            max_abs: balance.as_ref().and(args.max_abs),
            candidates: balance.as_ref().and(args.candidates),
            enumerated: g.enumerated,
            searched: balance.as_ref().map(|_| g.candidates),
            kept: g.kept,
            written: g.openings.len(),
            limit: args.limit,
            seed: sampled.then_some(opts.seed),
            seconds,
        })?;
    } else {
        let searched = match &balance {
            Some(b) => format!(
                "; {} searched with engine {} at depth {}, {} within {max_abs} discs",
                g.candidates,
                b.engine_name(),
                b.depth(),
                g.kept
            ),
            None => String::new(),
        };
        print(&format!(
            "wrote {} to {} ({} enumerated at {}{}{searched}) in {seconds:.2} s",
            count(g.openings.len(), "opening"),
            args.out.display(),
            g.enumerated,
            plies_text(args.plies),
            if args.unique_by_symmetry {
                ", unique up to symmetry"
            } else {
                ""
            },
        ))?;
    }
    if let Some(m) = args
        .candidates
        .filter(|&m| balance.is_some() && m >= g.enumerated)
    {
        eprintln!(
            "note: --candidates {m} is not fewer than the {} openings there are: searched all of them",
            g.enumerated
        );
    }
    if let Some(k) = short {
        eprintln!(
            "note: --limit {k} is more than the {} openings {}: wrote all of them",
            g.kept,
            if balance.is_some() {
                "kept"
            } else {
                "there are"
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct ImportReport {
    file: String,
    out: String,
    openings: usize,
    distinct_positions: usize,
    distinct_by_symmetry: usize,
    duplicates: usize,
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn import(args: &ImportArgs) -> anyhow::Result<ExitCode> {
    let b = book::import_move_lists(&args.file)?;
    let r = book::check(&b);
    let command = [
        "arena",
        "book",
        "import",
        &shell_word(&args.file.display().to_string()),
        "--out",
    ]
    .join(" ")
        + " "
        + &shell_word(&args.out.display().to_string());
    let header = vec![
        command,
        format!(
            "Imported from {}: {} openings (move lists from the start position), all legal; \
             {} distinct positions, {} up to symmetry.",
            file_name(&args.file),
            b.len(),
            r.distinct_positions,
            r.distinct_by_symmetry
        ),
    ];
    book::write_book(
        &args.out,
        &header,
        b.openings.iter().filter_map(book::Opening::move_list),
    )?;
    if args.json {
        print_json(&ImportReport {
            file: args.file.display().to_string(),
            out: args.out.display().to_string(),
            openings: b.len(),
            distinct_positions: r.distinct_positions,
            distinct_by_symmetry: r.distinct_by_symmetry,
            duplicates: r.duplicates(),
        })?;
    } else {
        print(&format!(
            "imported {} openings from {} to {} ({} distinct positions, {} up to symmetry)",
            b.len(),
            args.file.display(),
            args.out.display(),
            r.distinct_positions,
            r.distinct_by_symmetry
        ))?;
    }
    if r.duplicates() > 0 {
        eprintln!(
            "warning: {} (exact or by symmetry); `arena book check {}` lists them",
            count(r.duplicates(), "duplicate opening"),
            shell_word(&args.out.display().to_string())
        );
    }
    Ok(ExitCode::SUCCESS)
}
