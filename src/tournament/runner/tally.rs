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

/// What a lead publishes: its tally, and the workers it found live (for
/// its followers' SPRT window, so that they read no heartbeat).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lead {
    /// What it counted.
    pub tally: Tally,
    /// The workers whose heartbeat it found live, itself included.
    pub live: u64,
}

/// The lead's file: one JSON line.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    finished: u64,
    live: u64,
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
}

impl Lead {
    /// Its line in the lead's file.
    pub fn line(&self) -> String {
        let t = &self.tally;
        let line = Line {
            finished: t.finished,
            live: self.live,
            verdict: t.decision.map(|(v, _)| v.name().to_string()),
            pairs: t.decision.map(|(_, p)| p),
        };
        serde_json::to_string(&line).expect("a tally serializes") + "\n"
    }

    /// Reads a lead's line for a run of `total_pairs` pairs: `None` for
    /// anything else (a file half written by another program, a verdict
    /// of "continue", figures past the run's pairs, no live worker),
    /// which a reader takes as no tally at all.
    pub fn parse(text: &str, total_pairs: u64) -> Option<Lead> {
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
        let tally = Tally {
            finished: line.finished,
            decision,
        };
        (line.finished <= total_pairs && line.live >= 1).then_some(Lead {
            tally,
            live: line.live,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lead(finished: u64, decision: Option<(Verdict, u64)>, live: u64) -> Lead {
        Lead {
            tally: Tally { finished, decision },
            live,
        }
    }

    #[test]
    fn a_leads_line_reads_back_as_written() {
        for l in [
            lead(0, None, 1),
            lead(70, Some((Verdict::H1, 57)), 64),
            lead(100, Some((Verdict::H0, 100)), 3),
        ] {
            assert_eq!(Lead::parse(&l.line(), 100), Some(l), "{}", l.line());
        }
        assert_eq!(
            lead(3, Some((Verdict::H0, 2)), 5).line(),
            "{\"finished\":3,\"live\":5,\"verdict\":\"H0\",\"pairs\":2}\n"
        );
    }

    /// A line that cannot be the run's lead's is none: a reader reads the
    /// journals instead of trusting it.
    #[test]
    fn a_line_that_cannot_be_the_runs_is_none() {
        for bad in [
            "",
            "{\"finished\":3,\"live\":1}",
            "{\"finished\":3}\n",
            "{\"finished\":3,\"live\":0}\n",
            "{\"finished\":101,\"live\":1}\n",
            "{\"finished\":3,\"live\":1,\"verdict\":\"H1\"}\n",
            "{\"finished\":3,\"live\":1,\"pairs\":2}\n",
            "{\"finished\":3,\"live\":1,\"verdict\":\"continue\",\"pairs\":2}\n",
            "{\"finished\":3,\"live\":1,\"verdict\":\"H1\",\"pairs\":4}\n",
            "{\"finished\":3,\"live\":1,\"verdict\":\"H1\",\"pairs\":0}\n",
            "{\"finished\":3,\"live\":1,\"more\":1}\n",
            "{\"finished\":-1,\"live\":1}\n",
            "{\"finished\":3,\"live\":1}\n{\"finished\":4,\"live\":1}\n",
        ] {
            assert_eq!(Lead::parse(bad, 100), None, "{bad:?}");
        }
        assert!(lead(100, None, 1).tally.over(100));
        assert!(lead(5, Some((Verdict::H0, 5)), 1).tally.over(100));
        assert!(!lead(99, None, 1).tally.over(100));
    }
}
