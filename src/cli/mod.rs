//! The command-line interface: argument types (clap derive) and one function
//! per subcommand, each turning arguments into library calls and printing
//! text or, with `--json`, exactly one JSON object.

pub mod adjudication;
pub mod bench;
pub mod book;
pub mod ending;
pub mod eval;
pub mod events;
pub mod help;
pub mod history;
pub mod matchup;
pub mod observe;
pub mod perft;
pub mod probcut;
pub mod progress;
pub mod run;
pub mod search;
pub mod serve;
pub mod solve;
pub mod stats;
pub mod train;
pub mod tree;
pub mod watch;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Engine tournaments, self-play and search study for two-player board games.
#[derive(Debug, Parser)]
#[command(name = "arena", version = crate::records::build::VERSION_LINE, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a tournament from a config: games on game threads, journal, results, SPRT verdict
    #[command(after_help = help::RUN)]
    Run(run::RunArgs),
    /// A quick match of two engine files, without a config (cutechess-cli style)
    #[command(after_help = help::MATCH)]
    Match(matchup::MatchArgs),
    /// Recompute results.json, summary.md, games.ggf and report.html of a results folder from its journal
    #[command(after_help = help::REPORT)]
    Report(run::ReportArgs),
    /// Combine the results folders of shards into one
    #[command(after_help = help::MERGE)]
    Merge(run::MergeArgs),
    /// A live view of a run that workers play (`run --worker`): the counted games, the workers, the pairs left
    #[command(after_help = help::STATUS)]
    Status(run::StatusArgs),
    /// Count the leaves of the game tree to a depth (checks and times move generation)
    #[command(after_help = help::PRINTS)]
    Perft(perft::PerftArgs),
    /// Search one position with an engine file or an engine described by flags
    #[command(after_help = help::PRINTS)]
    Search(search::SearchArgs),
    /// Search fixed positions at a fixed depth: total nodes (a signature) and nodes per second
    #[command(after_help = help::PRINTS)]
    Bench(bench::BenchArgs),
    /// Solve the positions of an OBF file exactly and check them
    #[command(after_help = help::SOLVE)]
    Solve(solve::SolveArgs),
    /// An engine's static evaluation of a position, term by term
    #[command(after_help = help::WRITES)]
    Eval(eval::EvalArgs),
    /// Search an explicit game tree to its leaves: root value and nodes visited
    #[command(after_help = help::PRINTS)]
    Tree(tree::TreeArgs),
    /// Elo, error bars, LOS and SPRT from match results
    #[command(after_help = help::PRINTS)]
    Stats(stats::StatsArgs),
    /// Serve an engine over the NBoard protocol or GTP on standard input and output
    #[command(after_help = help::SERVE)]
    Serve(serve::ServeArgs),
    /// Train the pattern evaluation from a training file: self-play, labels from the end backwards, fits
    #[command(after_help = help::WRITES)]
    Train(train::TrainArgs),
    /// Opening books: check, generate, import
    #[command(subcommand)]
    #[command(after_help = help::WRITES)]
    Book(book::BookArgs),
    /// ProbCut: fit an engine's parameters, check what they save and cost
    #[command(subcommand)]
    #[command(after_help = help::WRITES)]
    Probcut(probcut::ProbCutArgs),
    /// A live, read-only web page of every run under a folder: counts, LLR, workers, plots
    #[command(after_help = help::WATCH)]
    Watch(watch::WatchArgs),
    /// Runs across nights: store results in a database, list them, plot them over time
    #[command(subcommand)]
    #[command(after_help = help::WRITES)]
    History(history::HistoryArgs),
    /// Panics on purpose: tests that a panic prints one line and exits 101
    #[command(name = "internal-panic-check", hide = true)]
    InternalPanicCheck,
}

/// The command line of this process, parsed. A usage error clap finds is
/// printed as one line (`error: ...`, its tip and a pointer to `--help`
/// on the same line) and gives exit code 2; `--help` and `--version` print
/// as clap prints them.
///
/// # Errors
/// The exit code to end with when there is nothing to run.
pub fn parse_args() -> Result<Cli, ExitCode> {
    use clap::error::ErrorKind;
    match Cli::try_parse() {
        Ok(cli) => Ok(cli),
        Err(e) => match e.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                let _ = e.print();
                Err(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)))
            }
            _ => {
                crate::util::eprint_line(&one_line(&e.render().to_string()));
                Err(ExitCode::from(2))
            }
        },
    }
}

/// A clap error's text on one line: its lines joined (a list after a
/// colon by spaces, others by "; "), the usage lines left out, and the
/// pointer to `--help` kept at the end.
fn one_line(text: &str) -> String {
    let mut line = String::new();
    let mut help = None;
    for part in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if part.starts_with("Usage:") {
            continue;
        }
        if part.starts_with("For more information") {
            help = Some(part.trim_end_matches('.').to_string());
            continue;
        }
        if !line.is_empty() {
            line.push_str(if line.ends_with(':') { " " } else { "; " });
        }
        line.push_str(part);
    }
    if let Some(h) = help {
        let first = h.chars().next().map(|c| c.to_lowercase().to_string());
        line.push_str(&format!(" ({}{})", first.unwrap_or_default(), &h[1..]));
    }
    line
}

/// A clap value parser for one of an enum's named values: `all` lists
/// them, `name` spells each on the command line, `summary` describes it in
/// `--help`. The enum itself stays the one type of its concept (no mirror
/// enum for the command line).
pub fn named<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    summary: fn(T) -> &'static str,
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(
        all.iter()
            .map(move |&v| PossibleValue::new(name(v)).help(summary(v))),
    )
    .try_map(move |s: String| {
        all.iter()
            .copied()
            .find(|&v| name(v) == s)
            .ok_or_else(|| format!("unknown value {s:?}"))
    })
}

/// Runs a parsed command line and returns the process exit code. An error
/// about an option names its flag ([`with_flags`]). A bad command-line
/// value found after parsing ([`crate::Error::Usage`], a bad `--position`)
/// is printed here as one `error: ...` line and exits with 2, like clap's
/// own usage errors; every other error is returned.
///
/// # Errors
/// Any other error of the command, to be printed by the caller with `{:#}`
/// (exit code 1).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    if let Some(value) = crate::game::cpu::bad_switch() {
        crate::util::eprint_line(&format!(
            "error: ARENA_SIMD must be off or auto, not {value:?}"
        ));
        return Ok(ExitCode::from(2));
    }
    match run_command(cli).map_err(with_flags) {
        Err(err) if is_usage(&err) => {
            crate::util::eprint_line(&format!("error: {err:#}"));
            Ok(ExitCode::from(2))
        }
        other => other,
    }
}

/// True when `err` is a bad command-line value: exit code 2.
pub fn is_usage(err: &anyhow::Error) -> bool {
    matches!(
        err.downcast_ref::<crate::Error>(),
        Some(
            crate::Error::Usage { .. }
                | crate::Error::Position { .. }
                | crate::Error::TicTacToe { .. }
        )
    )
}

/// The in-process Othello engine an `--engine` argument names: an engine
/// file, or one with fields changed (`FILE.ron:FIELD=VALUE`, as `arena
/// match` takes it), read from the current folder; `command` (`arena
/// eval`) is named when it is an external engine or plays another game.
/// `limit` replaces the engine's own (`arena search --depth`), which the
/// file then need not state.
///
/// # Errors
/// The file's or the change's errors; an external engine (a usage error:
/// exit code 2).
pub(crate) fn in_process_engine(
    text: &str,
    command: &str,
    limit: Option<crate::search::Limit>,
) -> crate::Result<crate::engine::EngineConfig> {
    let here = std::path::Path::new("");
    let arg = crate::engine::EngineArg::parse(text, here)?;
    let (spec, _) = arg.load(here, limit)?;
    let crate::engine::EngineSpec::Engine(mut config) = spec else {
        return Err(usage(
            "--engine",
            format!("{text} is an external engine; {command} needs an in-process engine"),
        ));
    };
    if let Some(l) = limit {
        config.set_limit(l);
    }
    config.othello(arg.path().unwrap_or(here), command)
}

/// A usage error (exit code 2) about `argument`, printed as it is.
pub fn usage(argument: &str, message: impl Into<String>) -> crate::Error {
    crate::Error::Usage {
        argument: argument.into(),
        message: message.into(),
    }
}

/// The flag of the option whose setting is `name`: `pairs` is `--pairs`,
/// `max_abs` is `--max-abs`.
pub fn flag(name: &str) -> String {
    format!("--{}", name.replace('_', "-"))
}

/// Colour for standard output: on when it is a terminal and `NO_COLOR` is
/// unset or empty (the library is told, and never asks about a terminal).
pub fn paint() -> crate::report::colour::Paint {
    use std::io::IsTerminal;
    crate::report::colour::Paint::when(
        std::io::stdout().is_terminal(),
        std::env::var_os("NO_COLOR"),
    )
}

/// `err` with the option it is about, as the library names it, written as
/// its flag: the library knows settings, the command line has flags.
pub fn with_flags(mut err: anyhow::Error) -> anyhow::Error {
    use crate::lab::book_generate::BookGenerateError;
    use crate::report::history::HistoryError;
    if let Some(crate::Error::Usage { argument, .. } | crate::Error::Argument { argument, .. }) =
        err.downcast_mut::<crate::Error>()
    {
        as_flag(argument);
    }
    if let Some(crate::Error::Run(wording)) = err.downcast_mut::<crate::Error>() {
        wording.0.iter_mut().for_each(as_flag);
    }
    if let Some(BookGenerateError::NothingKept { setting, .. }) =
        err.downcast_mut::<BookGenerateError>()
    {
        as_flag(setting);
    }
    if let Some(HistoryError::Foreign { setting, .. }) = err.downcast_mut::<HistoryError>() {
        as_flag(setting);
    }
    err
}

/// An option named by its setting, written as its flag instead.
fn as_flag(argument: &mut crate::error::Argument) {
    use crate::error::Argument;
    if let Argument::Option(name) = argument {
        *argument = Argument::Text(flag(name));
    }
}

fn run_command(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Match(args) => matchup::run(&args),
        Command::Report(args) => run::report(&args),
        Command::Merge(args) => run::merge(&args),
        Command::Status(args) => run::status(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Tree(args) => tree::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Train(args) => train::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Probcut(args) => probcut::run(&args),
        Command::History(args) => history::run(&args),
        Command::Watch(args) => watch::run(&args),
        Command::InternalPanicCheck => panic!("a deliberate panic\nwith a second line"),
    }
}

/// The Othello position given as `--position` (a position string or a
/// move list), or the start position without one.
///
/// # Errors
/// [`crate::Error::Position`] naming the argument.
pub fn othello_position(arg: Option<&str>) -> crate::Result<crate::Board> {
    match arg {
        Some(p) => {
            crate::game::othello::parse_position(p).map_err(|source| crate::Error::Position {
                argument: "--position".into(),
                source,
            })
        }
        None => Ok(crate::Board::start()),
    }
}

/// Prints `text` on stdout followed by a newline. A closed pipe (`arena … |
/// head`) is not an error.
///
/// # Errors
/// Other write errors.
pub fn print(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Prints one JSON object on stdout.
///
/// # Errors
/// Serialization or write errors.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    print(&serde_json::to_string(value)?)
}
