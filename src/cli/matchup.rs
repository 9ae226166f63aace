//! `arena match A.ron B.ron`: a quick two-engine match without a config
//! file (cutechess-cli style), played and reported exactly like `arena run`.

use super::run::{code, reaping, FolderArgs};
use crate::search::Limit;
use crate::tournament;
use crate::tournament::config::matchup::{match_tournament, MatchOptions, SprtOptions};
use crate::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The book `arena match` plays when none is named.
const DEFAULT_BOOK: &str = "openings/balanced-8ply.txt";

/// The same book, compiled in: played when the current folder has none
/// (so `arena match` runs from any folder).
const BUILTIN_BOOK: &str = include_str!("../../openings/balanced-8ply.txt");

/// The built-in book written out (the run reads and hashes its book from
/// a file): a file in the temporary folder named by its bytes' hash,
/// rewritten when missing or changed; with the note that says it is used.
fn builtin_book() -> crate::Result<(PathBuf, String)> {
    let hash = crate::util::fnv1a(BUILTIN_BOOK.as_bytes());
    let path = std::env::temp_dir().join(format!("arena-builtin-book-{hash:016x}.txt"));
    if std::fs::read(&path).ok().as_deref() != Some(BUILTIN_BOOK.as_bytes()) {
        crate::util::write_atomic(&path, BUILTIN_BOOK)?;
    }
    let n = crate::book::parse_book(BUILTIN_BOOK, &path).map_or(0, |b| b.len());
    let note = format!("note: no {DEFAULT_BOOK} here; playing the built-in book ({n} openings)");
    Ok((path, note))
}

/// Arguments of `arena match`.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// The first engine (its statistics are shown): an engine file;
    /// FILE.ron:FIELD=VALUE[,FIELD=VALUE]... (the file with fields changed,
    /// e.g. engines/strong.ron:eval.weights=new.bin); or a program,
    /// "cmd=PROGRAM [arg=ARG]... proto=gtp|nboard [name=NAME] [dir=DIR]"
    #[arg(value_name = "FIRST")]
    pub first: String,
    /// The second engine, as FIRST
    #[arg(value_name = "SECOND")]
    pub second: String,
    /// Games, an even number (each opening is played both ways round)
    #[arg(long, conflicts_with = "pairs", value_parser = clap::value_parser!(u64).range(2..=20_000_000))]
    pub games: Option<u64>,
    /// Pairs of games (default 50)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub pairs: Option<u64>,
    /// Both engines on a clock, seconds for the game plus seconds per move: 10+0.1
    #[arg(long, value_name = "BASE+INC", value_parser = parse_tc, conflicts_with_all = ["movetime", "depth", "nodes"])]
    pub tc: Option<Limit>,
    /// Both engines with this many milliseconds per move
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400_000), conflicts_with_all = ["depth", "nodes"])]
    pub movetime: Option<u64>,
    /// Both engines searching to this depth
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60), conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Both engines deepening until this many nodes a move, 1 to 10^12
    /// (arena's own engines: NBoard and GTP cannot carry a node limit)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=crate::search::limits::MAX_NODES))]
    pub nodes: Option<u64>,
    /// The opening book (default openings/balanced-8ply.txt in this folder,
    /// else the same book built in)
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Games at once (default: the number of cores), 1 to 256
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub concurrency: Option<usize>,
    /// Seed of the book order and every random choice (0, as in configs)
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output folder (default results/match-A-vs-B-HASH, HASH from the
    /// settings that decide the games)
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The run's name, shown in its results (default match)
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    /// An SPRT of the first engine against the second, stopped when it
    /// decides: elo0=E elo1=E [alpha=0.05] [beta=0.05] [model=normalized|logistic];
    /// --pairs (or --max-pairs) is then the most pairs, default 5000
    #[arg(long, value_name = "KEY=VALUE", num_args = 2..=5, value_delimiter = ' ')]
    pub sprt: Option<Vec<String>>,
    /// With --sprt: the most pairs to play (as --pairs)
    #[arg(long, value_name = "N", requires = "sprt", conflicts_with_all = ["pairs", "games"], value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub max_pairs: Option<u64>,
    /// With --sprt: exit 3 when H0 is accepted (a CI step goes red)
    #[arg(long, requires = "sprt")]
    pub fail_on_h0: bool,
    /// Scale --tc and --movetime by this machine's speed: N nodes a second
    /// (arena bench's positions) is the machine they are meant for
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub reference_nps: Option<u64>,
    /// With --reference-nps: multiply clocks and move times by F (0.01 to
    /// 100) instead of measuring this machine (also ARENA_SPEED_FACTOR)
    #[arg(long, value_name = "F", requires = "reference_nps", value_parser = super::run::parse_speed_factor)]
    pub speed_factor: Option<f64>,
    /// Resume, overwrite, quiet, events.
    #[command(flatten)]
    pub folder: FolderArgs,
    /// Adjudication: --resign, --draw, --adjudicate-solve.
    #[command(flatten)]
    pub adjudication: super::adjudication::AdjudicationArgs,
}

/// `10+0.1` (seconds, as cutechess-cli writes it) as a clock limit.
pub(super) fn parse_tc(text: &str) -> Result<Limit, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |s: &str| -> Result<u64, String> {
        let x: f64 = s
            .trim()
            .parse()
            .map_err(|_| format!("{s:?} is not a number of seconds"))?;
        if !(0.0..=86_400.0).contains(&x) {
            return Err(format!("{x} s is not 0 to 86400 seconds"));
        }
        Ok((x * 1000.0).round() as u64)
    };
    let (base, inc) = (seconds(base)?, seconds(inc)?);
    if base + inc == 0 {
        return Err("the clock needs time: give BASE+INC in seconds, e.g. 10+0.1".into());
    }
    Ok(Limit::Clock(base, inc))
}

/// `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized`, as
/// fastchess and cutechess-cli write it: elo0 and elo1 required, alpha and
/// beta 0.05 and the normalized model by default.
fn parse_sprt(words: &[String], fail_on_h0: bool) -> Result<SprtOptions, String> {
    let mut s = SprtOptions {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: "Normalized",
        fail_on_h0,
    };
    let mut given: Vec<&str> = Vec::new();
    for word in words {
        let (key, value) = word.split_once('=').ok_or_else(|| {
            format!("{word:?}: give KEY=VALUE, e.g. elo0=0 elo1=5 alpha=0.05 beta=0.05")
        })?;
        if given.contains(&key) {
            return Err(format!("{key}= is given twice: give each key once"));
        }
        given.push(key);
        let number = || {
            value
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("{key}={value:?}: not a number"))
        };
        match key {
            "elo0" => s.elo0 = number()?,
            "elo1" => s.elo1 = number()?,
            "alpha" => s.alpha = number()?,
            "beta" => s.beta = number()?,
            "model" => {
                s.model = match value {
                    "normalized" => "Normalized",
                    "logistic" => "Logistic",
                    _ => return Err(format!("model={value:?}: normalized or logistic")),
                }
            }
            _ => {
                return Err(format!(
                    "{key:?} is not one of elo0, elo1, alpha, beta, model"
                ))
            }
        }
    }
    if s.elo0.is_nan() || s.elo1.is_nan() {
        return Err("give both elo0= and elo1=, e.g. --sprt elo0=0 elo1=5".into());
    }
    Ok(s)
}

/// The match's options from the arguments.
///
/// # Errors
/// [`Error::Usage`] for an odd `--games` or a missing book.
fn options(args: &MatchArgs) -> crate::Result<(MatchOptions, Option<String>)> {
    let pairs = match (args.games, args.pairs) {
        (Some(g), _) if g % 2 == 1 => {
            return Err(Error::Usage {
                argument: "--games".into(),
                message: format!(
                    "{g}: games come in pairs (each opening both ways round); give an even number"
                ),
            })
        }
        (Some(g), _) => g / 2,
        (None, Some(p)) => p,
        (None, None) if args.sprt.is_some() => args.max_pairs.unwrap_or(5000),
        (None, None) => 50,
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(|words| parse_sprt(words, args.fail_on_h0))
        .transpose()
        .map_err(|message| Error::Usage {
            argument: "--sprt".into(),
            message,
        })?;
    let (book, note) = match &args.book {
        Some(b) => (b.clone(), None),
        None if Path::new(DEFAULT_BOOK).is_file() => (PathBuf::from(DEFAULT_BOOK), None),
        None => builtin_book().map(|(b, note)| (b, Some(note)))?,
    };
    if !book.is_file() {
        return Err(Error::Usage {
            argument: "--book".into(),
            message: format!("{} is not a file; name an opening book", book.display()),
        });
    }
    let limit = args
        .tc
        .or(args.movetime.map(Limit::MoveTime))
        .or(args.depth.map(Limit::Depth))
        .or(args.nodes.map(Limit::Nodes));
    let options = MatchOptions {
        pairs,
        limit,
        book,
        concurrency: args.concurrency.unwrap_or_else(crate::util::par::cores),
        seed: args.seed,
        out: args.out.clone(),
        event: args.event.clone(),
        sprt,
        adjudicate: args.adjudication.settings()?,
        reference_nps: args.reference_nps,
    };
    Ok((options, note))
}

/// Runs `arena match`.
///
/// # Errors
/// Bad engine files or book, bad values, the output folder's state, I/O.
pub fn run(args: &MatchArgs) -> anyhow::Result<ExitCode> {
    let (options, note) = options(args)?;
    let t = match_tournament(&args.first, &args.second, &options)?;
    // Said once the match is sound, so a refused one stays one line.
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let mut observer = args.folder.observer(&t, &t.out, false)?;
    let options = tournament::RunOptions {
        speed_factor: super::run::speed_factor(args.speed_factor)?,
        ..args.folder.run_options(None)?
    };
    let outcome = reaping(|| tournament::run(&t, &options, &mut observer))?;
    Ok(code(outcome.exit_code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprt_options_read_as_fastchess_writes_them() {
        let words = |t: &str| t.split(' ').map(str::to_string).collect::<Vec<_>>();
        let s = parse_sprt(&words("elo0=0 elo1=5"), false).unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.alpha, s.beta, s.model),
            (0.0, 5.0, 0.05, 0.05, "Normalized")
        );
        let s = parse_sprt(
            &words("elo1=10 elo0=-2 alpha=0.1 beta=0.2 model=logistic"),
            true,
        )
        .unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.alpha, s.beta, s.model, s.fail_on_h0),
            (-2.0, 10.0, 0.1, 0.2, "Logistic", true)
        );
        for bad in [
            "elo0=0",
            "elo0=x elo1=5",
            "elo0=0 elo1=5 gamma=1",
            "elo0=0 elo1",
            "elo0=0 elo1=5 model=x",
            "elo0=0 elo0=1 elo1=5",
        ] {
            assert!(parse_sprt(&words(bad), false).is_err(), "{bad}");
        }
    }

    #[test]
    fn time_controls_read_as_cutechess_writes_them() {
        assert_eq!(parse_tc("10+0.1"), Ok(Limit::Clock(10_000, 100)));
        assert_eq!(parse_tc("0.5"), Ok(Limit::Clock(500, 0)));
        for bad in ["x", "10+y", "-1+0", "0+0", "100000+0"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }
}
