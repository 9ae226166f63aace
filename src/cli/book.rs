//! `arena book`: check, generate and import opening books.

use super::{print, print_json};
use crate::book::{self, CheckReport, Duplicate, MAX_PLIES};
use crate::error::Error;
use crate::lab::balanced::MAX_BALANCE_DEPTH;
use crate::lab::book_generate::{
    count, generate_book, plies_text, sampled, BalancedOptions, BookGenerateError,
    BookGenerateOptions, BookProgress, BookReport,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;

/// Arguments of `arena book`.
#[derive(Debug, clap::Subcommand)]
pub enum BookArgs {
    /// Read a book, count its openings and report duplicates (exact and up to the 8 board symmetries)
    #[command(after_help = super::help::PRINTS)]
    Check(CheckArgs),
    /// Write a book of every position reachable in exactly N plies (optionally balanced: scored near 0 by an engine)
    #[command(after_help = super::help::WRITES)]
    Generate(GenerateArgs),
    /// Convert a public list of move lists (XOT: one 16-character move list per line) into a book
    #[command(after_help = super::help::WRITES)]
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
    /// With --balanced: the engine file that scores the openings (its search, evaluation, ordering and table; not the random mover), or one with fields changed (FILE.ron:FIELD=VALUE[,FIELD=VALUE..])
    #[arg(long, requires = "balanced")]
    pub engine: Option<String>,
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
        crate::util::eprint_line(&format!("warning: {what} (--strict makes this an error)"));
    }
    Ok(ExitCode::SUCCESS)
}

/// The options of `arena book generate`, typed.
fn generate_options(args: &GenerateArgs) -> anyhow::Result<BookGenerateOptions> {
    let balanced = if args.balanced {
        let (Some(engine), Some(depth), Some(max_abs)) = (&args.engine, args.depth, args.max_abs)
        else {
            // clap makes --balanced require all three.
            return Err(Error::Usage {
                argument: "--balanced".into(),
                message: "needs --engine, --depth and --max-abs".into(),
            }
            .into());
        };
        Some(BalancedOptions {
            engine: super::in_process_engine(engine, "arena book generate", None)?,
            engine_arg: engine.clone(),
            depth,
            max_abs,
            candidates: args.candidates,
        })
    } else {
        None
    };
    let mut opts = BookGenerateOptions {
        plies: args.plies,
        unique_by_symmetry: args.unique_by_symmetry,
        balanced,
        limit: args.limit,
        seed: args.seed.unwrap_or(0),
        out: args.out.clone(),
        command: String::new(),
    };
    opts.command = generate_command(&opts);
    Ok(opts)
}

/// Quotes a command-line word for a POSIX shell when it needs it.
pub fn shell_word(word: &str) -> String {
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
pub fn generate_command(opts: &BookGenerateOptions) -> String {
    let mut words = vec![
        "arena".to_string(),
        "book".into(),
        "generate".into(),
        "--plies".into(),
        opts.plies.to_string(),
    ];
    if opts.unique_by_symmetry {
        words.push("--unique-by-symmetry".into());
    }
    if let Some(b) = &opts.balanced {
        words.push("--balanced".into());
        words.extend(["--engine".into(), shell_word(&b.engine_arg)]);
        words.extend(["--depth".into(), b.depth.to_string()]);
        words.extend(["--max-abs".into(), b.max_abs.to_string()]);
        if let Some(m) = b.candidates {
            words.extend(["--candidates".into(), m.to_string()]);
        }
    }
    if let Some(k) = opts.limit {
        words.extend(["--limit".into(), k.to_string()]);
    }
    if sampled(opts) {
        words.extend(["--seed".into(), opts.seed.to_string()]);
    }
    words.extend(["--out".into(), shell_word(&opts.out.display().to_string())]);
    words.join(" ")
}

/// A progress bar of the searches of a balanced book, on stderr when it is
/// a terminal, made when the searches begin.
fn search_bar(bar: &OnceLock<ProgressBar>, event: BookProgress) {
    match event {
        BookProgress::Searching { openings } => {
            let target = if std::io::stderr().is_terminal() {
                ProgressDrawTarget::stderr()
            } else {
                ProgressDrawTarget::hidden()
            };
            let b = ProgressBar::with_draw_target(Some(openings), target);
            b.set_style(
                ProgressStyle::with_template(
                    "{bar:30.cyan/blue} {pos}/{len} openings searched  {elapsed_precise} ETA {eta_precise}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            let _ = bar.set(b);
        }
        BookProgress::Searched => {
            if let Some(b) = bar.get() {
                b.inc(1);
            }
        }
        BookProgress::Finished => {
            if let Some(b) = bar.get() {
                b.finish_and_clear();
            }
        }
    }
}

/// The line `arena book generate` prints without `--json`.
fn generate_text(r: &BookReport) -> String {
    let searched = match (&r.engine, r.depth, r.searched) {
        (Some(engine), Some(depth), Some(searched)) => format!(
            "; {searched} searched with engine {engine} at depth {depth}, {} within {} discs",
            r.kept,
            r.max_abs.unwrap_or(0.0)
        ),
        _ => String::new(),
    };
    format!(
        "wrote {} to {} ({} enumerated at {}{}{searched}) in {:.2} s",
        count(r.written, "opening"),
        r.out,
        r.enumerated,
        plies_text(r.plies),
        if r.unique_by_symmetry {
            ", unique up to symmetry"
        } else {
            ""
        },
        r.seconds
    )
}

fn generate(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let opts = generate_options(args)?;
    let bar = OnceLock::new();
    let r = generate_book(&opts, &|event| search_bar(&bar, event)).map_err(|e| match e {
        // Its own error first, so that the option it names prints as a flag.
        BookGenerateError::Arena(e) => anyhow::Error::from(e),
        other => other.into(),
    })?;
    if args.json {
        print_json(&r)?;
    } else {
        print(&generate_text(&r))?;
    }
    if let Some(m) = r.candidates.filter(|&m| m >= r.enumerated) {
        crate::util::eprint_line(&format!(
            "note: --candidates {m} is not fewer than the {} openings there are: searched all of them",
            r.enumerated
        ));
    }
    if let Some(k) = r.limit.filter(|&k| k > r.kept) {
        crate::util::eprint_line(&format!(
            "note: --limit {k} is more than the {} openings {}: wrote all of them",
            r.kept,
            if r.balanced { "kept" } else { "there are" }
        ));
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
        crate::util::eprint_line(&format!(
            "warning: {} (exact or by symmetry); `arena book check {}` lists them",
            count(r.duplicates(), "duplicate opening"),
            shell_word(&args.out.display().to_string())
        ));
    }
    Ok(ExitCode::SUCCESS)
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
            command: String::new(),
        }
    }

    #[test]
    fn the_header_command_names_what_changes_the_book() {
        assert_eq!(
            generate_command(&options(None, None)),
            "arena book generate --plies 4 --unique-by-symmetry --out 'my book.txt'"
        );
        assert_eq!(
            generate_command(&options(None, Some(3))),
            "arena book generate --plies 4 --unique-by-symmetry --limit 3 --seed 5 --out 'my book.txt'"
        );
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/engines/alphabeta-d6.ron");
        let balanced = BalancedOptions {
            engine: crate::engine::EngineConfig::load(Path::new(file)).unwrap(),
            engine_arg: "engines/e.ron:tt_mib=2,limit=Depth(3)".into(),
            depth: 2,
            max_abs: 0.5,
            candidates: Some(10),
        };
        assert_eq!(
            generate_command(&options(Some(balanced), None)),
            "arena book generate --plies 4 --unique-by-symmetry --balanced --engine 'engines/e.ron:tt_mib=2,limit=Depth(3)' \
             --depth 2 --max-abs 0.5 --candidates 10 --seed 5 --out 'my book.txt'"
        );
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }
}
