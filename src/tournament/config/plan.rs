//! A run's one plan: what it plays ([`Plan`]), built once from the config's
//! `format` with each of its settings checked there, and asked by the
//! runner for everything that depends on the format (its scheduler, the
//! record's form, its length, its SPRT or tune).

use crate::error::Result;
use crate::records::Format;
use crate::stats::{Sprt, SprtError};
use crate::tournament::tune::Tune;
use crate::util::Source;
use std::sync::Arc;

/// What a checked run plays.
#[derive(Clone, Debug)]
pub enum Plan {
    /// Every two engines meet `rounds` times.
    RoundRobin {
        /// Meetings of each two engines (at least 1).
        rounds: u64,
    },
    /// The first `challengers` engines meet every other engine `rounds`
    /// times.
    Gauntlet {
        /// Challengers: at least 1, fewer than the engines.
        challengers: usize,
        /// Meetings of each challenger with each opponent (at least 1).
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
}

impl Plan {
    /// The plan of `format` for `n` engines, each setting checked; a tune
    /// is checked with its engine ([`Tune::check`]) and comes in as `tune`.
    ///
    /// # Errors
    /// [`crate::error::Error::Config`] naming the field.
    pub(super) fn check(
        src: &Source<'_>,
        format: &Format,
        n: usize,
        tune: Option<Arc<Tune>>,
    ) -> Result<Plan> {
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
        }
    }

    /// The SPRT the run decides by, if it is one.
    pub fn sprt(&self) -> Option<&Sprt> {
        match self {
            Plan::Sprt { sprt, .. } => Some(sprt),
            Plan::RoundRobin { .. } | Plan::Gauntlet { .. } | Plan::Tune(_) => None,
        }
    }

    /// The tune, if the run is one.
    pub fn tune(&self) -> Option<&Arc<Tune>> {
        match self {
            Plan::Tune(tune) => Some(tune),
            Plan::RoundRobin { .. } | Plan::Gauntlet { .. } | Plan::Sprt { .. } => None,
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

/// The config field an SPRT error is about.
fn sprt_field(e: &SprtError) -> &'static str {
    match *e {
        SprtError::Probability { field, .. } | SprtError::LogisticRange { field, .. } => field,
        SprtError::ErrorSum { .. } => "alpha",
        SprtError::EloBounds { .. } => "elo0",
    }
}
