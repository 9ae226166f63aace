//! What a writer of a shared run has counted of the whole run, in the few
//! numbers the others need to schedule: the pairs finished from the first
//! one on, and the SPRT's decision. The run's lead publishes it (its
//! `workers/ID/tally`), and a worker that shows nothing of the run follows
//! it instead of reading every journal (`crate::tournament::workers::peers`).
//!
//! Every figure only grows as the run's journals grow (a journal is only
//! appended to, and a decision is final), so a tally read late is still
//! true: it only knows less.

use crate::stats::sprt::Verdict;

/// What a writer has counted of a shared run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Every pair below this one has both its games journalled.
    pub finished: u64,
    /// The SPRT's verdict and the pairs counted when it came, once
    /// decided.
    pub decision: Option<(Verdict, u64)>,
}

/// The tally's file: one JSON line.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    finished: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    verdict: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pairs: Option<u64>,
}

impl Tally {
    /// True when the run needs no more games: decided, or every one of its
    /// `total_pairs` finished.
    pub fn over(&self, total_pairs: u64) -> bool {
        self.decision.is_some() || self.finished >= total_pairs
    }

    /// The tally's line in its file.
    pub fn line(&self) -> String {
        let line = Line {
            finished: self.finished,
            verdict: self.decision.map(|(v, _)| v.name().to_string()),
            pairs: self.decision.map(|(_, p)| p),
        };
        serde_json::to_string(&line).expect("a tally serializes") + "\n"
    }

    /// Reads a tally's line of a run of `total_pairs` pairs: `None` for
    /// anything else (a file half written by another program, a verdict
    /// of "continue", figures past the run's pairs), which a reader takes
    /// as no tally at all.
    pub fn parse(text: &str, total_pairs: u64) -> Option<Tally> {
        let line: Line = serde_json::from_str(text.strip_suffix('\n')?).ok()?;
        let decision = match (line.verdict.as_deref(), line.pairs) {
            (None, None) => None,
            (Some(v), Some(p)) if p >= 1 && p <= line.finished => Some((
                match v {
                    "H0" => Verdict::H0,
                    "H1" => Verdict::H1,
                    _ => return None,
                },
                p,
            )),
            _ => return None,
        };
        (line.finished <= total_pairs).then_some(Tally {
            finished: line.finished,
            decision,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_reads_back_as_written() {
        for t in [
            Tally {
                finished: 0,
                decision: None,
            },
            Tally {
                finished: 70,
                decision: Some((Verdict::H1, 57)),
            },
            Tally {
                finished: 100,
                decision: Some((Verdict::H0, 100)),
            },
        ] {
            assert_eq!(Tally::parse(&t.line(), 100), Some(t), "{}", t.line());
        }
        assert_eq!(
            Tally {
                finished: 3,
                decision: Some((Verdict::H0, 2))
            }
            .line(),
            "{\"finished\":3,\"verdict\":\"H0\",\"pairs\":2}\n"
        );
    }

    /// A tally that cannot be the run's is no tally: a reader reads the
    /// journals instead of trusting it.
    #[test]
    fn a_tally_that_cannot_be_the_runs_is_none() {
        for bad in [
            "",
            "{\"finished\":3}",
            "{\"finished\":101}\n",
            "{\"finished\":3,\"verdict\":\"H1\"}\n",
            "{\"finished\":3,\"pairs\":2}\n",
            "{\"finished\":3,\"verdict\":\"continue\",\"pairs\":2}\n",
            "{\"finished\":3,\"verdict\":\"H1\",\"pairs\":4}\n",
            "{\"finished\":3,\"verdict\":\"H1\",\"pairs\":0}\n",
            "{\"finished\":3,\"more\":1}\n",
            "{\"finished\":-1}\n",
            "{\"finished\":3}\n{\"finished\":4}\n",
        ] {
            assert_eq!(Tally::parse(bad, 100), None, "{bad:?}");
        }
        assert!(Tally {
            finished: 100,
            decision: None
        }
        .over(100));
        assert!(!Tally {
            finished: 99,
            decision: None
        }
        .over(100));
    }
}
