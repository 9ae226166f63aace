//! A run's one plan: what it plays ([`Plan`]), built once from the config's
//! `format` with each of its settings checked there, and asked by the
//! runner for everything that depends on the format (its scheduler, the
//! record's form, its length, its SPRT or tune).

use crate::error::Result;
use crate::records::swiss::TieBreak;
use crate::records::Format;
use crate::stats::{Sprt, SprtError};
use crate::tournament::tune::Tune;
use crate::util::Source;
use std::sync::Arc;

/// What a checked run plays (the records' [`Format`] says what each
/// format means; here every setting has passed its check).
#[derive(Clone, Debug)]
pub enum Plan {
    /// A round robin.
    RoundRobin {
        /// Its rounds, 1 or more.
        rounds: u64,
    },
    /// A gauntlet.
    Gauntlet {
        /// Its challengers, 1 to the engines less one.
        challengers: usize,
        /// Its rounds, 1 or more.
        rounds: u64,
    },
    /// Engines 0 and 1, pair after pair until the SPRT decides.
    Sprt {
        /// The test.
        sprt: Sprt,
        /// Most pairs (at least 1).
        max_pairs: u64,
    },
    /// A tune of one engine (the run's engines are its θ+ and θ−).
    Tune(Arc<Tune>),
    /// A knockout bracket (records::knockout).
    Knockout {
        /// Game pairs of a match (at least 1).
        pairs: u64,
        /// Most pairs a tied match adds.
        extra_pairs: u64,
        /// The engines by seed, as the config names them (each an
        /// engine's, none twice).
        seeds: Option<Vec<String>>,
    },
    /// A Swiss system (records::swiss).
    Swiss {
        /// Rounds: 1 to the engines less one (the engines, for an odd
        /// count).
        rounds: u64,
        /// Game pairs of a pairing (at least 1).
        pairs: u64,
        /// Its tie-breaks (none twice).
        tiebreaks: Vec<TieBreak>,
    },
}

impl Plan {
    /// The plan of `format` for the engines named `names`, each setting
    /// checked; a tune is checked with its engine ([`Tune::check`]) and
    /// comes in as `tune`.
    ///
    /// # Errors
    /// [`crate::error::Error::Config`] naming the field.
    pub(super) fn check(
        src: &Source<'_>,
        format: &Format,
        names: &[String],
        tune: Option<Arc<Tune>>,
    ) -> Result<Plan> {
        let n = names.len();
        let rounds_at_least_one = |rounds: u64| {
            if rounds == 0 {
                Err(src.field("rounds", "must be at least 1"))
            } else {
                Ok(rounds)
            }
        };
        Ok(match (format, tune) {
            (_, Some(tune)) => Plan::Tune(tune),
            (&Format::RoundRobin { rounds }, None) => Plan::RoundRobin {
                rounds: rounds_at_least_one(rounds)?,
            },
            (
                &Format::Gauntlet {
                    challengers,
                    rounds,
                },
                None,
            ) => {
                if challengers == 0 || challengers >= n {
                    return Err(src.field(
                        "challengers",
                        format!("{challengers} challengers among {n} engines: there must be at least 1 and fewer than {n}"),
                    ));
                }
                Plan::Gauntlet {
                    challengers,
                    rounds: rounds_at_least_one(rounds)?,
                }
            }
            (f @ Format::Sprt { .. }, None) => check_sprt(src, f, n)?,
            (f @ Format::Knockout { .. }, None) => check_knockout(src, f, names)?,
            (f @ Format::Swiss { .. }, None) => check_swiss(src, f, n)?,
            (Format::Spsa { .. }, None) => {
                return Err(crate::error::Error::Internal(
                    "a Spsa format without its tune".into(),
                ))
            }
        })
    }

    /// The format as the run's record (tournament.json) writes it.
    pub fn format(&self) -> Format {
        match self {
            &Plan::RoundRobin { rounds } => Format::RoundRobin { rounds },
            &Plan::Gauntlet {
                challengers,
                rounds,
            } => Format::Gauntlet {
                challengers,
                rounds,
            },
            Plan::Sprt { sprt, max_pairs } => Format::Sprt {
                elo0: sprt.elo0(),
                elo1: sprt.elo1(),
                alpha: sprt.alpha(),
                beta: sprt.beta(),
                model: sprt.model(),
                max_pairs: *max_pairs,
            },
            Plan::Tune(tune) => tune.format.clone(),
            Plan::Knockout {
                pairs,
                extra_pairs,
                seeds,
            } => Format::Knockout {
                pairs: *pairs,
                extra_pairs: *extra_pairs,
                seeds: seeds.clone(),
            },
            Plan::Swiss {
                rounds,
                pairs,
                tiebreaks,
            } => Format::Swiss {
                rounds: *rounds,
                pairs: *pairs,
                tiebreaks: tiebreaks.clone(),
            },
        }
    }

    /// The SPRT the run decides by, if it is one.
    pub fn sprt(&self) -> Option<&Sprt> {
        match self {
            Plan::Sprt { sprt, .. } => Some(sprt),
            Plan::RoundRobin { .. }
            | Plan::Gauntlet { .. }
            | Plan::Tune(_)
            | Plan::Knockout { .. }
            | Plan::Swiss { .. } => None,
        }
    }

    /// The tune, if the run is one.
    pub fn tune(&self) -> Option<&Arc<Tune>> {
        match self {
            Plan::Tune(tune) => Some(tune),
            Plan::RoundRobin { .. }
            | Plan::Gauntlet { .. }
            | Plan::Sprt { .. }
            | Plan::Knockout { .. }
            | Plan::Swiss { .. } => None,
        }
    }
}

/// An SPRT's settings against `n` engines.
fn check_sprt(src: &Source<'_>, format: &Format, n: usize) -> Result<Plan> {
    let &Format::Sprt {
        elo0,
        elo1,
        alpha,
        beta,
        model,
        max_pairs,
    } = format
    else {
        return Err(crate::error::Error::Internal(
            "an SPRT's check of another format".into(),
        ));
    };
    if n != 2 {
        return Err(src.field(
            "engines",
            format!("an SPRT compares exactly 2 engines, got {n}"),
        ));
    }
    if max_pairs == 0 {
        return Err(src.field("max_pairs", "must be at least 1"));
    }
    if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
        return Err(src.field("elo0", format!("elo0 ({elo0}) must be below elo1 ({elo1})")));
    }
    let sprt = Sprt::new(elo0, elo1, alpha, beta, model)
        .map_err(|e| src.field(sprt_field(&e), e.to_string()))?;
    Ok(Plan::Sprt { sprt, max_pairs })
}

/// A knockout's settings against the engines `names`.
fn check_knockout(src: &Source<'_>, format: &Format, names: &[String]) -> Result<Plan> {
    let Format::Knockout {
        pairs,
        extra_pairs,
        seeds,
    } = format
    else {
        return Err(crate::error::Error::Internal(
            "a knockout's check of another format".into(),
        ));
    };
    if *pairs == 0 {
        return Err(src.field("pairs", "must be at least 1"));
    }
    for (i, s) in seeds.iter().flatten().enumerate() {
        if !names.contains(s) {
            return Err(src.field(
                "seeds",
                format!("{s:?} is not one of the engines ({})", names.join(", ")),
            ));
        }
        if seeds.iter().flatten().take(i).any(|x| x == s) {
            return Err(src.field("seeds", format!("{s:?} is seeded twice")));
        }
    }
    Ok(Plan::Knockout {
        pairs: *pairs,
        extra_pairs: *extra_pairs,
        seeds: seeds.clone(),
    })
}

/// A Swiss's settings against `n` engines.
fn check_swiss(src: &Source<'_>, format: &Format, n: usize) -> Result<Plan> {
    let Format::Swiss {
        rounds,
        pairs,
        tiebreaks,
    } = format
    else {
        return Err(crate::error::Error::Internal(
            "a Swiss's check of another format".into(),
        ));
    };
    // Every engine meets every other at most once: n - 1 rounds, and one
    // more with a bye each for an odd count.
    let most = if n.is_multiple_of(2) {
        n.saturating_sub(1)
    } else {
        n
    } as u64;
    if *rounds == 0 || *rounds > most {
        return Err(src.field(
            "rounds",
            format!(
                "{rounds} rounds of {n} engines: must be 1 to {most} (no two engines meet twice)"
            ),
        ));
    }
    if *pairs == 0 {
        return Err(src.field("pairs", "must be at least 1"));
    }
    for (i, t) in tiebreaks.iter().enumerate() {
        if tiebreaks[..i].contains(t) {
            return Err(src.field("tiebreaks", format!("{t:?} is listed twice")));
        }
    }
    Ok(Plan::Swiss {
        rounds: *rounds,
        pairs: *pairs,
        tiebreaks: tiebreaks.clone(),
    })
}

/// The config field an SPRT error is about.
fn sprt_field(e: &SprtError) -> &'static str {
    match *e {
        SprtError::Probability { field, .. } | SprtError::LogisticRange { field, .. } => field,
        SprtError::ErrorSum { .. } => "alpha",
        SprtError::EloBounds { .. } => "elo0",
    }
}
