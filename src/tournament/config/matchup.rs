//! `arena match`: a two-engine match without a config file, as
//! cutechess-cli and fastchess run one from the command line. The match is
//! written as the config a user would write (so it is checked, hashed,
//! journaled and resumed exactly like one) and loaded from that text.

use super::{Adjudicate, Tournament};
use crate::engine::EngineArg;
use crate::error::{Argument, Error, Result};
use crate::search::Limit;
use std::path::{Path, PathBuf};

/// What `arena match` was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOptions {
    /// Pairs of games (each opening both ways round).
    pub pairs: u64,
    /// The limit both engines play with, instead of their own.
    pub limit: Option<Limit>,
    /// The opening book.
    pub book: PathBuf,
    /// Games at once.
    pub concurrency: usize,
    /// Seed of the book order and every random choice.
    pub seed: u64,
    /// Output folder (default `results/match-A-vs-B-HASH`, see
    /// [`match_tournament`]).
    pub out: Option<PathBuf>,
    /// The run's name (default `match`).
    pub event: Option<String>,
    /// An SPRT of the first engine (the candidate) against the second, up
    /// to `pairs` pairs, instead of a fixed number of pairs.
    pub sprt: Option<SprtOptions>,
    /// How games may end early (`--resign`, `--draw`, `--adjudicate-solve`).
    pub adjudicate: Adjudicate,
    /// Clocks and move times scaled by this machine's speed against this
    /// reference (`--reference-nps`; the config's `speed`).
    pub reference_nps: Option<u64>,
}

/// `arena match --sprt`: the hypotheses and error rates, as fastchess and
/// cutechess-cli take them (`elo0=0 elo1=5 alpha=0.05 beta=0.05`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtOptions {
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
    /// `Normalized` (fishtest's) or `Logistic`.
    pub model: &'static str,
    /// Exit 3 when H0 is accepted.
    pub fail_on_h0: bool,
}

impl Eq for SprtOptions {}

/// `path` made absolute (so the generated config needs no base folder).
fn absolute(path: &Path) -> Result<PathBuf> {
    std::path::absolute(path).map_err(|e| Error::io(path, e))
}

/// The output folder before the config's hash is added:
/// `results/match-A-vs-B`, each engine by [`EngineArg::stem`].
fn default_out(a: &EngineArg, b: &EngineArg) -> PathBuf {
    PathBuf::from("results").join(format!("match-{}-vs-{}", a.stem(), b.stem()))
}

/// An engine argument read from the current folder.
fn engine_arg(text: &str) -> Result<EngineArg> {
    EngineArg::parse(text, Path::new(""))
}

/// An engine of the generated config: a plain engine file by its absolute
/// path, any other argument (a changed file, a program) as written, read
/// from the current folder (the generated config's).
fn engine_ref(text: &str) -> Result<String> {
    Ok(match engine_arg(text)?.file() {
        Some(f) => format!("Path({:?})", absolute(f)?.display().to_string()),
        None => format!("Arg({text:?})"),
    })
}

/// The config text of a match between engines `a` and `b`, each an
/// engine argument ([`EngineArg`]: a file, a file with fields changed, a
/// program). The book is written as given: the generated config reads it
/// from the current folder, and the run's record names it so, the same in
/// every checkout (the hash is of its bytes).
///
/// # Errors
/// A path that cannot be made absolute; a malformed engine argument.
pub fn match_config(a: &str, b: &str, o: &MatchOptions) -> Result<String> {
    let out = match &o.out {
        Some(out) => out.clone(),
        None => default_out(&engine_arg(a)?, &engine_arg(b)?),
    };
    let limit = match o.limit {
        Some(l) => format!("Some({})", ron::to_string(&l).expect("limits serialize")),
        None => "None".into(),
    };
    // An SPRT's candidate is a config's second engine: the first file.
    let (first, second, format, fail_on_h0) = match &o.sprt {
        None => (a, b, format!("RoundRobin(rounds: {})", o.pairs), ""),
        Some(s) => (
            b,
            a,
            format!(
                "Sprt(elo0: {:?}, elo1: {:?}, alpha: {:?}, beta: {:?}, model: {}, max_pairs: {})",
                s.elo0, s.elo1, s.alpha, s.beta, s.model, o.pairs
            ),
            if s.fail_on_h0 {
                "    fail_on_h0: true,\n"
            } else {
                ""
            },
        ),
    };
    let mut adjudicate = adjudicate_line(&o.adjudicate);
    if let Some(n) = o.reference_nps {
        adjudicate.push_str(&format!("    speed: (reference_nps: {n}),\n"));
    }
    Ok(format!(
        "// arena match {} {}\nTournament(\n    name: {:?},\n    engines: [{}, {}],\n    format: {format},\n    book: (file: {:?}, order: Random, start: 0),\n    concurrency: {},\n    seed: {},\n    out: {:?},\n    limit: {limit},\n{fail_on_h0}{adjudicate})\n",
        a.escape_debug(),
        b.escape_debug(),
        o.event.as_deref().unwrap_or("match"),
        engine_ref(first)?,
        engine_ref(second)?,
        o.book.display().to_string(),
        o.concurrency,
        o.seed,
        out.display().to_string(),
    ))
}

/// The config's `adjudicate` line (nothing when none is asked for, so the
/// config and its hash are as before).
fn adjudicate_line(a: &Adjudicate) -> String {
    if *a == Adjudicate::default() {
        return String::new();
    }
    let text = ron::to_string(a).expect("adjudication serializes");
    format!("    adjudicate: {text},\n")
}

/// The tournament of a match: its config (see [`match_config`]) loaded as
/// if it were a file named `arena-match.ron` in the current folder. Without
/// `out`, the folder is `results/match-A-vs-B-` and the first 8 digits of
/// the config's hash without its length (the family hash), so runs with
/// other settings get folders of their own, and a longer match of the same
/// settings finds the shorter one's folder, which `--resume` extends.
///
/// # Errors
/// Bad engine files (naming their own file, line and field), a bad book.
pub fn match_tournament(a: &str, b: &str, o: &MatchOptions) -> Result<Tournament> {
    let text = match_config(a, b, o)?;
    let generated = Path::new("arena-match.ron");
    let mut t = Tournament::parse(&text, generated)
        .map_err(|e| usage_error(e, (a, b), o.limit, generated))?;
    // No such file: the config is the command line's.
    t.inputs.retain(|p| p != generated);
    if o.out.is_none() {
        let mut name = default_out(&engine_arg(a)?, &engine_arg(b)?).into_os_string();
        name.push(format!("-{}", &t.family[..8]));
        t.out = PathBuf::from(name);
    }
    Ok(t)
}

/// The setting of `arena match` that forces `limit` on both engines.
fn limit_setting(limit: Limit) -> &'static str {
    match limit {
        Limit::Depth(_) => "depth",
        Limit::Nodes(_) => "nodes",
        Limit::MoveTime(_) => "movetime",
        Limit::Clock(..) => "tc",
    }
}

/// The argument of `args` an engine error of the generated config is
/// about (`engines: engine K: ARG: MESSAGE`), with its message.
fn of_argument<'m>(message: &'m str, args: [&str; 2]) -> Option<(String, &'m str)> {
    let rest = message.strip_prefix("engines: engine ")?;
    let (_, rest) = rest.split_once(": ")?;
    args.iter().find_map(|arg| {
        let m = rest.strip_prefix(arg)?.strip_prefix(": ")?;
        Some((arg.to_string(), m))
    })
}

/// An error of the generated config said of the arguments that made it
/// (engines `a` and `b`, playing with `limit`).
fn usage_error(e: Error, (a, b): (&str, &str), limit: Option<Limit>, generated: &Path) -> Error {
    match e {
        // The generated file is not the user's: what is wrong with it is
        // said of the arguments that made it.
        Error::Config { path, message, .. } if path == generated => {
            // A limit the engines cannot be told (a node limit for a
            // program), said of the engine or of the config: the flag that
            // set it.
            let limit_problem = message
                .strip_prefix("limit: ")
                .or_else(|| message.split_once(": limit: ").map(|(_, m)| m));
            let (argument, message): (Argument, String) = if let (Some(m), Some(l)) =
                (limit_problem, limit)
            {
                (Argument::Option(limit_setting(l).into()), m.to_string())
            } else if let Some((arg, m)) = of_argument(&message, [a, b]) {
                // An engine argument's own error, placed in the config as
                // every `Arg` is: said of the argument again.
                (arg.into(), m.to_string())
            } else if let Some(m) = message.strip_prefix("engines: ") {
                ("FIRST and SECOND".into(), format!("{a} and {b}: {m}"))
            } else if message.contains("leave book out") {
                (
                    "FIRST and SECOND".into(),
                    "arena match plays Othello engines; a tic-tac-toe match needs a config (configs/tictactoe.ron)".into(),
                )
            } else if let Some(m) = message.strip_prefix("name: ") {
                (Argument::Option("event".into()), m.to_string())
            } else if message.starts_with("book") || message.starts_with("file") {
                (Argument::Option("book".into()), message)
            } else {
                ("arena match".into(), message)
            };
            Error::Usage { argument, message }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_is_the_config_a_user_would_write() {
        let o = MatchOptions {
            pairs: 5,
            limit: Some(Limit::Clock(10_000, 100)),
            book: PathBuf::from("/b/book.txt"),
            concurrency: 2,
            seed: 3,
            out: None,
            event: Some("ev".into()),
            sprt: None,
            adjudicate: Adjudicate::default(),
            reference_nps: None,
        };
        let text = match_config("/e/a.ron", "/e/b.ron", &o).unwrap();
        for part in [
            "name: \"ev\"",
            "engines: [Path(\"/e/a.ron\"), Path(\"/e/b.ron\")]",
            "format: RoundRobin(rounds: 5)",
            "book: (file: \"/b/book.txt\", order: Random, start: 0)",
            "out: \"results/match-a-vs-b\"",
            "limit: Some(Clock(10000,100))",
        ] {
            assert!(text.contains(part), "{part} in {text}");
        }
    }

    #[test]
    fn a_node_limit_is_forced_on_both_engines_and_refused_for_a_program() {
        let options = MatchOptions {
            pairs: 1,
            limit: Some(Limit::Nodes(3000)),
            book: PathBuf::from("openings/all-4ply.txt"),
            concurrency: 1,
            seed: 1,
            out: None,
            event: None,
            sprt: None,
            adjudicate: Adjudicate::default(),
            reference_nps: None,
        };
        let text = match_config("/e/a.ron", "/e/b.ron", &options).unwrap();
        assert!(text.contains("limit: Some(Nodes(3000))"), "{text}");
        let t =
            match_tournament("engines/random.ron", "engines/alphabeta-d6.ron", &options).unwrap();
        let limits: Vec<_> = t.engines.iter().map(|e| e.limit()).collect();
        assert!(limits.contains(&Some(Limit::Nodes(3000))), "{limits:?}");
        let program = "cmd=/bin/sh proto=nboard";
        match match_tournament(program, "engines/alphabeta-d6.ron", &options).err() {
            Some(Error::Usage { argument, message }) => {
                assert_eq!(argument, Argument::Option("nodes".into()));
                assert!(message.contains("Nodes(n) cannot be sent"), "{message}");
            }
            other => panic!("not refused for --nodes: {other:?}"),
        }
    }

    #[test]
    fn a_match_records_its_book_as_given_and_hashes_it_by_its_bytes() {
        let options = |book: PathBuf| MatchOptions {
            pairs: 2,
            limit: Some(Limit::Depth(1)),
            book,
            concurrency: 1,
            seed: 1,
            out: None,
            event: None,
            sprt: None,
            adjudicate: Adjudicate::default(),
            reference_nps: None,
        };
        let given = PathBuf::from("openings/all-4ply.txt");
        let t = |book: PathBuf| {
            match_tournament("engines/random.ron", "engines/random.ron", &options(book)).unwrap()
        };
        let relative = t(given.clone());
        let absolute = t(std::path::absolute(&given).unwrap());
        assert_eq!(relative.book_settings.unwrap().file, given);
        assert_eq!(relative.hash, absolute.hash);
        assert_eq!(relative.out, absolute.out);
    }
}
