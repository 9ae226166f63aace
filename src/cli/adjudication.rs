//! `--resign`, `--draw` and `--adjudicate-solve` of `arena match` and
//! `arena run`, written as cutechess-cli takes them: `--resign movecount=3
//! score=20`, `--draw movenumber=20 movecount=4 score=1` (scores in discs).

use crate::records::adjudge::{Draw, Resign};
use crate::tournament::config::{Adjudicate, MAX_ADJUDICATE_EMPTIES};
use crate::Error;

/// The adjudication flags.
#[derive(Debug, Default, clap::Args)]
pub struct AdjudicationArgs {
    /// End a game when both engines' reported scores say one side is S discs
    /// or more down for N moves each in a row (that side loses):
    /// movecount=N score=S, as cutechess-cli's -resign
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..=3, value_delimiter = ' ')]
    pub resign: Option<Vec<String>>,
    /// End a game as a draw when, from full move M on, both engines' reported
    /// scores are within S discs of 0 for N moves each in a row:
    /// movenumber=M movecount=N score=S, as cutechess-cli's -draw
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..=3, value_delimiter = ' ')]
    pub draw: Option<Vec<String>>,
    /// End a game that reaches EMPTIES empty squares (1 to 30) with the
    /// solver's exact result
    #[arg(long, value_name = "EMPTIES", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ADJUDICATE_EMPTIES)))]
    pub adjudicate_solve: Option<u32>,
}

impl AdjudicationArgs {
    /// The adjudication the flags ask for (the default when none is given).
    ///
    /// # Errors
    /// [`Error::Usage`] naming the flag: an unknown or missing key, a value
    /// that is not a whole number or out of range.
    pub fn settings(&self) -> crate::Result<Adjudicate> {
        let resign = self.resign.as_deref().map(parse_resign).transpose();
        let resign = resign.map_err(|m| Error::usage("resign", m))?;
        let draw = self.draw.as_deref().map(parse_draw).transpose();
        let draw = draw.map_err(|m| Error::usage("draw", m))?;
        Ok(Adjudicate {
            solve_at_empties: self.adjudicate_solve,
            resign,
            draw,
        })
    }
}

/// `KEY=VALUE` words as whole numbers for `keys` (each at most once, each
/// required).
fn numbers<const N: usize>(words: &[String], keys: [&str; N]) -> Result<[u32; N], String> {
    let mut values = [None; N];
    let example = keys.map(|k| format!("{k}=N")).join(" ");
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("{word:?}: give KEY=VALUE, e.g. {example}"))?;
        let Some(i) = keys.iter().position(|k| *k == key) else {
            return Err(format!("{key:?} is not one of {}", keys.join(", ")));
        };
        if values[i].is_some() {
            return Err(format!("{key}= is given twice"));
        }
        let n = value
            .parse::<u32>()
            .map_err(|_| format!("{key}={value:?}: not a whole number"))?;
        values[i] = Some(n);
    }
    let mut out = [0; N];
    for (i, v) in values.into_iter().enumerate() {
        out[i] = v.ok_or_else(|| format!("{}= is missing: give {example}", keys[i]))?;
    }
    Ok(out)
}

/// `movecount=N score=S` (`twosided=true` accepted, as arena's resign
/// always asks both engines).
fn parse_resign(words: &[String]) -> Result<Resign, String> {
    let mut rest = Vec::new();
    for w in words {
        match w.as_str() {
            "twosided=true" => {}
            _ if w.starts_with("twosided=") => {
                return Err(format!(
                    "{w:?}: arena's resignation always needs both engines' scores (twosided=true)"
                ))
            }
            _ => rest.push(w.clone()),
        }
    }
    let [move_count, score] = numbers(&rest, ["movecount", "score"])?;
    let r = Resign { move_count, score };
    match r.problem() {
        Some(p) => Err(p),
        None => Ok(r),
    }
}

/// `movenumber=M movecount=N score=S`.
fn parse_draw(words: &[String]) -> Result<Draw, String> {
    let [move_number, move_count, score] = numbers(words, ["movenumber", "movecount", "score"])?;
    let d = Draw {
        move_number,
        move_count,
        score,
    };
    match d.problem() {
        Some(p) => Err(p),
        None => Ok(d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(t: &str) -> Vec<String> {
        t.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn resign_and_draw_read_as_cutechess_writes_them() {
        let r = parse_resign(&words("movecount=3 score=20")).unwrap();
        assert_eq!((r.move_count, r.score), (3, 20));
        let r = parse_resign(&words("score=5 twosided=true movecount=1")).unwrap();
        assert_eq!((r.move_count, r.score), (1, 5));
        let d = parse_draw(&words("movenumber=20 movecount=4 score=0")).unwrap();
        assert_eq!((d.move_number, d.move_count, d.score), (20, 4, 0));
        for bad in [
            "movecount=3",
            "movecount=3 score=x",
            "movecount=3 score=-2",
            "movecount=3 score=2.5",
            "movecount=3 score=0",
            "movecount=0 score=3",
            "movecount=3 score=65",
            "movecount=3 score=2 depth=4",
            "movecount=3 movecount=4 score=2",
            "movecount=3 score=2 twosided=false",
            "movecount3 score=2",
        ] {
            assert!(parse_resign(&words(bad)).is_err(), "{bad}");
        }
        for bad in [
            "movecount=4 score=1",
            "movenumber=30 movecount=4 score=1",
            "movenumber=20 movecount=4 score=65",
            "movenumber=20 movecount=x score=1",
        ] {
            assert!(parse_draw(&words(bad)).is_err(), "{bad}");
        }
    }
}
