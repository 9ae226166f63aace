//! `arena history add|show|report`: results folders read with the runner's
//! own readers (`tournament.json`, the journal, `analyse`), stored in the
//! history database, listed as a table or JSON, and plotted over time as
//! one HTML page.

use super::{print, print_json, usage};
use crate::records::journal;
use crate::report::analyse;
use crate::report::history::page::{count, elo_text, history_html, verdict_words};
use crate::report::history::{file_date, Added, History, NewRun, StoredRun, SCHEMA_VERSION};
use crate::Error;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `arena history`.
#[derive(Debug, clap::Subcommand)]
pub enum HistoryArgs {
    /// Store the results of runs in the database (a run stored already is left as it is)
    #[command(after_help = super::help::WRITES)]
    Add(AddArgs),
    /// List the stored runs, oldest first
    #[command(after_help = super::help::PRINTS)]
    Show(ShowArgs),
    /// Write an HTML page of each test's Elo and verdicts over time
    #[command(after_help = super::help::WRITES)]
    Report(ReportArgs),
}

/// Arguments of `arena history add`.
#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// Results folders (each with tournament.json and journal.jsonl)
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The database (SQLite); created when missing
    #[arg(long)]
    pub db: PathBuf,
    /// A label to store with the runs, KEY=VALUE (repeat for more); `commit`
    /// defaults to $GITHUB_SHA when that is set
    #[arg(long = "label", value_name = "KEY=VALUE")]
    pub labels: Vec<String>,
}

/// Arguments of `arena history show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The database
    #[arg(long)]
    pub db: PathBuf,
    /// Print one JSON object instead of the table
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `arena history report`.
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The database
    #[arg(long)]
    pub db: PathBuf,
    /// The HTML file to write
    #[arg(long, default_value = "history.html")]
    pub out: PathBuf,
}

/// Runs `arena history`.
///
/// # Errors
/// A bad label (exit 2), a folder that is not a results folder, a bad
/// database, I/O.
pub fn run(args: &HistoryArgs) -> anyhow::Result<ExitCode> {
    match args {
        HistoryArgs::Add(a) => add(a),
        HistoryArgs::Show(a) => show(a),
        HistoryArgs::Report(a) => report(a),
    }
}

/// The labels of `--label KEY=VALUE` arguments, with `commit` from
/// `GITHUB_SHA` (when set and not empty) unless given.
///
/// # Errors
/// A usage error naming `--label` for a label without `=` or with a key
/// that is empty or not made of letters, digits, `_`, `-` and `.`.
pub fn labels(
    args: &[String],
    github_sha: Option<String>,
) -> crate::Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for a in args {
        let (key, value) = a.split_once('=').ok_or_else(|| {
            usage(
                "--label",
                format!("{:?}: expected KEY=VALUE, like commit=3f2a9c1", excerpt(a)),
            )
        })?;
        let good = |c: char| c.is_ascii_alphanumeric() || "_-.".contains(c);
        if key.is_empty() || !key.chars().all(good) {
            return Err(usage(
                "--label",
                format!(
                    "{:?}: the key must be letters, digits, '_', '-' or '.', like commit=3f2a9c1",
                    excerpt(a)
                ),
            ));
        }
        out.insert(key.to_string(), value.to_string());
    }
    if let Some(sha) = github_sha.filter(|s| !s.is_empty()) {
        out.entry("commit".to_string()).or_insert(sha);
    }
    Ok(out)
}

fn excerpt(text: &str) -> String {
    crate::util::text::excerpt(text, 40)
}

/// `arena history add`: every folder is read and checked first, then all
/// are added in one transaction (all or none).
fn add(args: &AddArgs) -> anyhow::Result<ExitCode> {
    let labels = labels(&args.labels, std::env::var("GITHUB_SHA").ok())?;
    let runs = args
        .dirs
        .iter()
        .map(|d| read_run(d, &labels))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut db = History::open(&args.db, true)?;
    let added = db.add(&runs)?;
    for ((dir, new), what) in args.dirs.iter().zip(&runs).zip(added) {
        let r = &new.run;
        let dir = dir.display();
        print(&match what {
            Added::New(id) => format!(
                "added run {id}: {dir} ({}, config {}, shard {}, {} games, {})",
                r.name, r.config_hash, r.shard, r.games_played, r.status
            ),
            Added::Same(id) => format!("already stored as run {id}: {dir} (nothing changed)"),
            Added::Continued { id, from } => format!(
                "updated run {id}: {dir} continues it ({from} -> {} games, {})",
                r.game_lines, r.status
            ),
        })?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A results folder as a run to add.
fn read_run(dir: &Path, labels: &BTreeMap<String, String>) -> anyhow::Result<NewRun> {
    let not_results = |what: &str| Error::Argument {
        argument: dir.display().to_string().into(),
        message: format!("not a results folder of arena ({what})"),
    };
    if !dir.is_dir() {
        return Err(not_results("not a folder").into());
    }
    for file in ["tournament.json", "journal.jsonl"] {
        if !dir.join(file).is_file() {
            return Err(not_results(&format!("no {file}")).into());
        }
    }
    let info = crate::tournament::read_info(dir)?;
    let path = dir.join("journal.jsonl");
    let contents = journal::read(&path)?;
    crate::tournament::folder::check_journal(&contents, &info)?;
    if contents.games.is_empty() {
        return Err(Error::Argument {
            argument: dir.display().to_string().into(),
            message: "no game has finished yet: nothing to store".into(),
        }
        .into());
    }
    let results = analyse(&info, &contents.games);
    let date = file_date(&path)?;
    Ok(NewRun::new(
        &info,
        &contents.games,
        &results,
        date,
        labels.clone(),
    ))
}

/// `arena history show`.
fn show(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let db = History::open(&args.db, false)?;
    let runs = db.runs()?;
    if args.json {
        print_json(&ShowJson {
            database: args.db.display().to_string(),
            schema_version: SCHEMA_VERSION,
            runs: &runs,
        })?;
    } else {
        print(&table(&runs))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// What `arena history show --json` prints.
#[derive(serde::Serialize)]
struct ShowJson<'a> {
    /// The database, as given.
    database: String,
    /// Its schema version (after migrating it).
    schema_version: i64,
    /// The runs, oldest first.
    runs: &'a [StoredRun],
}

/// The runs as an aligned text table.
fn table(runs: &[StoredRun]) -> String {
    let header = [
        "id",
        "date (UTC)",
        "name",
        "shard",
        "games",
        "W-D-L",
        "Elo",
        "LLR",
        "verdict",
        "labels",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    for r in runs {
        let s = &r.run;
        let wdl = match (s.wins, s.draws, s.losses) {
            (Some(w), Some(d), Some(l)) => format!("{w}-{d}-{l}"),
            _ => format!("{} engines", s.engines.len()),
        };
        let elo = elo_text(s.elo, s.elo_error, "+/-");
        let labels: Vec<String> = s.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        rows.push(vec![
            r.id.to_string(),
            s.date.replace('T', " ").replace('Z', ""),
            s.name.clone(),
            s.shard.clone(),
            format!("{}/{}", s.games, s.games_scheduled),
            wdl,
            elo,
            s.llr.map_or("—".into(), |l| format!("{l:.2}")),
            verdict_words(s.verdict.as_deref(), &s.status).1,
            labels.join(" "),
        ]);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let lines: Vec<String> = rows
        .iter()
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .zip(&widths)
                .map(|(cell, &w)| format!("{cell:<w$}"))
                .collect();
            cells.join("  ").trim_end().to_string()
        })
        .collect();
    if runs.is_empty() {
        return "no runs stored yet (add some with arena history add)".into();
    }
    lines.join("\n")
}

/// `arena history report`.
fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    let db = History::open(&args.db, false)?;
    let runs = db.runs()?;
    let html = history_html(&runs, &args.db.display().to_string())?;
    crate::util::write_atomic(&args.out, &html)?;
    let tests: std::collections::BTreeSet<&str> =
        runs.iter().map(|r| r.run.name.as_str()).collect();
    print(&format!(
        "wrote {}: {} of {}",
        args.out.display(),
        count(runs.len() as u64, "run"),
        count(tests.len() as u64, "test")
    ))?;
    Ok(ExitCode::SUCCESS)
}
