//! `arena book`: check, generate and import opening books.

use super::{print, print_json};
use crate::book::{self, CheckReport, Duplicate, GenerateOptions, MAX_PLIES};
use crate::game::othello::notation::move_list_string;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `arena book`.
#[derive(Debug, clap::Subcommand)]
pub enum BookArgs {
    /// Read a book, count its openings and report duplicates (exact and up to the 8 board symmetries)
    Check(CheckArgs),
    /// Write a book of every position reachable in exactly N plies
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
pub struct GenerateArgs {
    /// Plies from the start position, 1 to 10 (a pass would count as one; none occurs that early)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_PLIES)))]
    pub plies: u32,
    /// Keep one opening per class of positions equal up to the 8 board symmetries (the first move list in lexicographic order)
    #[arg(long)]
    pub unique_by_symmetry: bool,
    /// Keep a seeded sample of this many openings (at least 1)
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub limit: Option<usize>,
    /// Seed of the sample [default: 0]
    #[arg(long, requires = "limit")]
    pub seed: Option<u64>,
    /// The book file to write
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON object: {"out","plies","unique_by_symmetry","enumerated","kept","written","limit","seed","seconds"}
    #[arg(long)]
    pub json: bool,
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
    if let Some(k) = args.limit {
        words.extend([
            "--limit".into(),
            k.to_string(),
            "--seed".into(),
            args.seed.unwrap_or(0).to_string(),
        ]);
    }
    words.extend(["--out".into(), shell_word(&args.out.display().to_string())]);
    words.join(" ")
}

#[derive(serde::Serialize)]
struct GenerateReport {
    out: String,
    plies: u32,
    unique_by_symmetry: bool,
    enumerated: usize,
    kept: usize,
    written: usize,
    limit: Option<usize>,
    seed: Option<u64>,
    seconds: f64,
}

fn generate(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let t0 = Instant::now();
    let opts = GenerateOptions {
        plies: args.plies,
        unique_by_symmetry: args.unique_by_symmetry,
        limit: args.limit,
        seed: args.seed.unwrap_or(0),
        threads: 0,
    };
    // `--balanced` goes here: call `book::enumerate`, then
    // `book::filter_openings` with a filter that searches each opening
    // (ticking a progress bar of the enumerated count), then `book::sample`;
    // and add its options to `generate_command` and the header.
    let g = book::generate(&opts, None)?;
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
    if let Some(k) = args.limit {
        header.push(format!(
            "A sample of {} of them chosen with seed {}.",
            g.openings.len().min(k),
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
    if args.json {
        print_json(&GenerateReport {
            out: args.out.display().to_string(),
            plies: args.plies,
            unique_by_symmetry: args.unique_by_symmetry,
            enumerated: g.enumerated,
            kept: g.kept,
            written: g.openings.len(),
            limit: args.limit,
            seed: args.limit.map(|_| opts.seed),
            seconds,
        })?;
    } else {
        print(&format!(
            "wrote {} to {} ({} enumerated at {}{}) in {seconds:.2} s",
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
    if let Some(k) = short {
        eprintln!(
            "note: --limit {k} is more than the {} openings there are: wrote all of them",
            g.kept
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
