//! `arena stats`: Elo, LOS and SPRT from match counts (`wdl`, `penta`), and
//! multi-engine ratings from a results file (`ratings`).

use super::{print, print_json};
use crate::stats::format::{
    elo_line, games_line, llr_line, los_line, pairs_line, ptnml_line, ratings_table,
};
use crate::stats::summary::{RatingsSummary, Summary};
use crate::stats::{
    ratings, Anchor, Crosstable, Model, Ptnml, RatingsError, Sprt, SprtError, SprtState, Verdict,
    Wdl,
};
use crate::util::text::read_text;
use crate::Error;
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `arena stats`.
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// What to compute.
    #[command(subcommand)]
    pub command: StatsCommand,
}

/// The `arena stats` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum StatsCommand {
    /// Elo, LOS and SPRT from win/draw/loss counts (each game a sample)
    #[command(after_help = super::help::PRINTS)]
    Wdl(WdlArgs),
    /// Elo, LOS and SPRT from pentanomial counts of game pairs (each pair a sample)
    #[command(after_help = super::help::PRINTS)]
    Penta(PentaArgs),
    /// Maximum-likelihood ratings of several engines from a file of `A B result` lines
    #[command(after_help = super::help::PRINTS)]
    Ratings(RatingsArgs),
}

/// The SPRT options shared by `wdl` and `penta`.
#[derive(Debug, clap::Args)]
pub struct SprtArgs {
    /// Elo of the null hypothesis H0 (in the units of --model)
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub elo0: f64,
    /// Elo of the alternative hypothesis H1 (in the units of --model)
    #[arg(long, default_value_t = 5.0, allow_hyphen_values = true)]
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// How elo0 and elo1 are expressed
    #[arg(long, value_enum, default_value = "normalized")]
    pub model: ModelArg,
}

/// The Elo model of the SPRT bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelArg {
    /// Normalized Elo (fishtest's default): bounds fix the t-value
    Normalized,
    /// Logistic Elo: bounds fix the expected score
    Logistic,
}

impl From<ModelArg> for Model {
    fn from(m: ModelArg) -> Model {
        match m {
            ModelArg::Normalized => Model::Normalized,
            ModelArg::Logistic => Model::Logistic,
        }
    }
}

impl SprtArgs {
    /// The checked test.
    ///
    /// # Errors
    /// [`Error::Usage`] naming the bad option.
    pub fn build(&self) -> Result<Sprt, Error> {
        Sprt::new(
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.model.into(),
        )
        .map_err(|e| {
            let argument = match &e {
                SprtError::EloBounds { .. } => "--elo0/--elo1".to_string(),
                SprtError::LogisticRange { field, .. } | SprtError::Probability { field, .. } => {
                    format!("--{field}")
                }
                SprtError::ErrorSum { .. } => "--alpha/--beta".to_string(),
            };
            Error::Usage {
                argument: argument.into(),
                message: e.to_string(),
            }
        })
    }
}

/// Arguments of `arena stats wdl`.
#[derive(Debug, clap::Args)]
pub struct WdlArgs {
    /// Games won
    #[arg(value_name = "W")]
    pub wins: u64,
    /// Games drawn
    #[arg(value_name = "D")]
    pub draws: u64,
    /// Games lost
    #[arg(value_name = "L")]
    pub losses: u64,
    /// The SPRT.
    #[command(flatten)]
    pub sprt: SprtArgs,
    /// Print one JSON object (games, score, elo, elo_error, los, draw_ratio, nelo, nelo_error, llr, ...)
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `arena stats penta`.
#[derive(Debug, clap::Args)]
pub struct PentaArgs {
    /// Pairs scoring 0 of 2 points (LL)
    #[arg(value_name = "P0")]
    pub p0: u64,
    /// Pairs scoring 1/2 (LD)
    #[arg(value_name = "P1")]
    pub p1: u64,
    /// Pairs scoring 1 (WL + DD)
    #[arg(value_name = "P2")]
    pub p2: u64,
    /// Pairs scoring 3/2 (WD)
    #[arg(value_name = "P3")]
    pub p3: u64,
    /// Pairs scoring 2 (WW)
    #[arg(value_name = "P4")]
    pub p4: u64,
    /// The SPRT.
    #[command(flatten)]
    pub sprt: SprtArgs,
    /// Print one JSON object (the keys of `wdl --json` plus pairs, ptnml, pairs_ratio)
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `arena stats ratings`.
#[derive(Debug, clap::Args)]
pub struct RatingsArgs {
    /// Results file: one game per line, `A B result` (1, 0.5 or 0 for A); `#` starts a comment
    pub file: PathBuf,
    /// Rate this engine 0 (default: the average rating is 0)
    #[arg(long, value_name = "NAME")]
    pub anchor: Option<String>,
    /// Print one JSON object (engines, anchor, method, prior, games, los)
    #[arg(long)]
    pub json: bool,
}

/// Runs `arena stats`.
///
/// # Errors
/// Bad SPRT options; for `ratings`, an unreadable or malformed file (named,
/// with the line) or results that cannot be rated.
pub fn run(args: &StatsArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        StatsCommand::Wdl(a) => run_wdl(a)?,
        StatsCommand::Penta(a) => run_penta(a)?,
        StatsCommand::Ratings(a) => run_ratings(a)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The verdict line and one line per `null` value.
fn tail(state: &SprtState, summary: &Summary) -> Vec<String> {
    let verdict = match state.verdict {
        Verdict::H0 => "H0 accepted",
        Verdict::H1 => "H1 accepted",
        Verdict::Continue => "continue",
    };
    let mut lines = vec![format!(
        "SPRT ({} Elo, alpha {}, beta {}): {verdict}",
        state.sprt.model().name(),
        state.sprt.alpha(),
        state.sprt.beta()
    )];
    for (field, reason) in &summary.notes {
        lines.push(format!("Note: {field}: {reason}"));
    }
    lines
}

/// Largest number of games accepted: counts stay exact as `f64`, and sums
/// cannot overflow.
const MAX_GAMES: u128 = 1 << 53;

/// Checks that `counts` samples of `games_per_sample` games each total at
/// most [`MAX_GAMES`].
fn check_total(argument: &str, counts: &[u64], games_per_sample: u128) -> Result<(), Error> {
    let total: u128 = counts.iter().map(|&c| u128::from(c)).sum::<u128>() * games_per_sample;
    if total > MAX_GAMES {
        return Err(Error::Usage {
            argument: argument.into(),
            message: format!("{total} games: at most 2^53 are supported"),
        });
    }
    Ok(())
}

fn run_wdl(args: &WdlArgs) -> anyhow::Result<()> {
    check_total("W D L", &[args.wins, args.draws, args.losses], 1)?;
    let sprt = args.sprt.build()?;
    let wdl = Wdl::new(args.wins, args.draws, args.losses);
    let state = sprt.evaluate_wdl(&wdl);
    let summary = Summary::from_wdl(&wdl, Some(&state));
    if args.json {
        return print_json(&summary);
    }
    let estimate = wdl.estimate();
    let mut lines = vec![
        elo_line(&estimate),
        los_line(estimate.los, wdl.draw_ratio(), None),
        games_line(&wdl),
        llr_line(&state),
    ];
    lines.extend(tail(&state, &summary));
    print(&lines.join("\n"))
}

fn run_penta(args: &PentaArgs) -> anyhow::Result<()> {
    check_total("P0..P4", &[args.p0, args.p1, args.p2, args.p3, args.p4], 2)?;
    let sprt = args.sprt.build()?;
    let ptnml = Ptnml([args.p0, args.p1, args.p2, args.p3, args.p4]);
    let state = sprt.evaluate_ptnml(&ptnml);
    let summary = Summary::from_ptnml(&ptnml, Some(&state));
    if args.json {
        return print_json(&summary);
    }
    let estimate = ptnml.estimate();
    let mut lines = vec![
        elo_line(&estimate),
        los_line(estimate.los, ptnml.draw_ratio(), Some(ptnml.pairs_ratio())),
        pairs_line(&ptnml),
        ptnml_line(&ptnml, None),
        llr_line(&state),
    ];
    lines.extend(tail(&state, &summary));
    print(&lines.join("\n"))
}

fn run_ratings(args: &RatingsArgs) -> anyhow::Result<()> {
    let path = &args.file;
    let text = read_text(path)?;
    let table = Crosstable::parse(&text).with_context(|| path.display().to_string())?;
    let anchor = match &args.anchor {
        Some(name) => Anchor::Engine(name.clone()),
        None => Anchor::Average,
    };
    let rated = match ratings(&table, &anchor) {
        Err(RatingsError::UnknownAnchor(name)) => {
            return Err(super::usage(
                "--anchor",
                format!("no engine named `{name}` in {}", path.display()),
            )
            .into())
        }
        other => other.with_context(|| path.display().to_string())?,
    };
    if args.json {
        print_json(&RatingsSummary::new(&rated))
    } else {
        print(&ratings_table(&rated))
    }
}
