//! Any engine a tournament can name: an in-process search (`Engine(...)`,
//! [`EngineConfig`]) or an external program (`External(...)`,
//! [`ExternalConfig`]). An engine file says which by its first word.

// Dispatch over our own enums is exhaustive: a new variant is a compile
// error wherever it matters, never a silent `_` arm.
#![deny(clippy::wildcard_enum_match_arm)]

use super::config::{EngineConfig, EngineKind, RawEngine};
use super::exhaustive::ExhaustivePlayer;
use super::external::{ExternalConfig, RawExternal};
use super::external::{ExternalPlayer, InRun};
use super::player::{build_player, Player, RandomPlayer};
use crate::error::Result;
use crate::game::othello::Board;
use crate::game::tictactoe::TicTacToe;
use crate::game::GameKind;
use crate::search::Limit;
use crate::util::text::read_text;
use crate::util::{Source, Sourced};
use std::path::Path;

/// An engine of a tournament.
#[derive(Clone, Debug)]
pub enum EngineSpec {
    /// An in-process search.
    Engine(Box<EngineConfig>),
    /// A program over NBoard or GTP.
    External(Box<ExternalConfig>),
}

/// The first word of a RON text, past blank space and comments.
pub(super) fn first_word(text: &str) -> &str {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |x| x.1);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |x| x.1);
        } else {
            break;
        }
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

impl EngineSpec {
    /// Reads an engine file; `time_control` stands in for the limit of an
    /// engine that states none.
    ///
    /// # Errors
    /// As [`EngineSpec::parse`], and I/O.
    pub fn load(path: &Path, time_control: Option<Limit>) -> Result<EngineSpec> {
        let text = read_text(path)?;
        EngineSpec::parse(&text, path, time_control)
    }

    /// Parses and checks engine text (`Engine(...)` or `External(...)`).
    ///
    /// # Errors
    /// [`crate::Error::Config`] naming the file, line and field.
    pub fn parse(text: &str, path: &Path, time_control: Option<Limit>) -> Result<EngineSpec> {
        if first_word(text) == "External" {
            let raw: RawExternal = crate::util::parse_ron(text, path)?;
            return EngineSpec::external(raw, Source::new(path, text), time_control);
        }
        let mut raw: RawEngine = crate::util::parse_ron(text, path)?;
        if let Some(limit) = time_control {
            raw.set_default_limit(limit);
        }
        EngineConfig::check(raw, text, path).map(|c| EngineSpec::Engine(Box::new(c)))
    }

    /// Checks an external engine written in `source`, giving it the time
    /// control when it has no limit of its own.
    ///
    /// # Errors
    /// [`crate::Error::Config`] naming the field.
    pub fn external(
        mut raw: RawExternal,
        source: Source<'_>,
        time_control: Option<Limit>,
    ) -> Result<EngineSpec> {
        if raw.limit.is_none() {
            raw.limit = time_control;
        }
        ExternalConfig::try_from(Sourced { raw, source }).map(|x| EngineSpec::External(Box::new(x)))
    }

    /// Display name.
    pub fn name(&self) -> &str {
        match self {
            EngineSpec::Engine(e) => &e.name,
            EngineSpec::External(e) => &e.name,
        }
    }

    /// Plays under another name (its settings, and so its fingerprint,
    /// unchanged): one engine file listed twice, a changed engine.
    pub fn rename(&mut self, name: String) {
        match self {
            EngineSpec::Engine(e) => e.name = name,
            EngineSpec::External(e) => e.name = name,
        }
    }

    /// The limit the runner enforces: a searching engine's, an external
    /// engine's own or the tournament's (`None` for the random mover and an
    /// external engine that plays by its own settings).
    pub fn limit(&self) -> Option<Limit> {
        match self {
            EngineSpec::Engine(e) => e.limit(),
            EngineSpec::External(e) => e.limit,
        }
    }

    /// A player of this engine (an external one's process starts with its
    /// first game).
    pub fn player(&self) -> Box<dyn Player<Board>> {
        self.player_in(None)
    }

    /// A player of this engine; an external one's transcript and processes
    /// where `run` says (see [`InRun`]).
    pub fn player_in(&self, run: Option<InRun<'_>>) -> Box<dyn Player<Board>> {
        match self {
            EngineSpec::Engine(e) => build_player(e),
            EngineSpec::External(e) => Box::new(ExternalPlayer::new(e, run)),
        }
    }

    /// Makes this engine play with `limit` instead of its own (`arena match
    /// --depth`, a tournament's `limit`); the random mover has none.
    pub fn force_limit(&mut self, limit: Limit) {
        match self {
            EngineSpec::Engine(e) => {
                e.set_limit(limit);
            }
            EngineSpec::External(e) => e.set_limit(limit),
        }
    }

    /// The game it plays (external engines speak Othello protocols).
    pub fn game(&self) -> GameKind {
        match self {
            EngineSpec::Engine(e) => e.game,
            EngineSpec::External(_) => GameKind::Othello,
        }
    }

    /// A tic-tac-toe player of this engine (`None` for an engine of
    /// another game).
    pub fn tictactoe_player(&self) -> Option<Box<dyn Player<TicTacToe>>> {
        let e = self
            .in_process()
            .filter(|e| e.game == GameKind::TicTacToe)?;
        Some(match &e.kind {
            EngineKind::Random { seed, .. } => Box::new(RandomPlayer::new(&e.name, *seed)),
            EngineKind::Search(s) => Box::new(ExhaustivePlayer::<TicTacToe>::new(&e.name, s)),
        })
    }

    /// What decides the engine's play, for the config hash (weights and
    /// ProbCut files read relative to `base`).
    pub fn fingerprint(&self, base: &Path) -> serde_json::Value {
        match self {
            EngineSpec::Engine(e) => e.fingerprint(base),
            EngineSpec::External(e) => e.fingerprint(),
        }
    }

    /// The files the engine reads as it plays (weights and ProbCut files
    /// relative to `base`; an external engine's program), besides its own
    /// engine file.
    pub fn inputs(&self, base: &Path) -> Vec<std::path::PathBuf> {
        match self {
            EngineSpec::Engine(e) => e.inputs(base),
            EngineSpec::External(x) => x.program_file().into_iter().collect(),
        }
    }

    /// The in-process engine, if it is one.
    pub fn in_process(&self) -> Option<&EngineConfig> {
        match self {
            EngineSpec::Engine(e) => Some(e),
            EngineSpec::External(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_word_skips_comments() {
        assert_eq!(
            first_word("// x\n/* y */ External(name: \"a\")"),
            "External"
        );
        assert_eq!(first_word("  Engine("), "Engine");
        assert_eq!(first_word(""), "");
    }

    #[test]
    fn a_time_control_fills_only_a_missing_limit() {
        let p = Path::new("e.ron");
        let clock = Some(Limit::Clock(1000, 10));
        let no_limit = "Engine(name: \"a\", search: Pvs, eval: Discs)";
        let e = EngineSpec::parse(no_limit, p, clock).unwrap();
        assert_eq!(e.limit(), clock);
        assert!(EngineSpec::parse(no_limit, p, None).is_err());
        let own = "Engine(name: \"a\", search: Pvs, limit: Depth(3), eval: Discs)";
        assert_eq!(
            EngineSpec::parse(own, p, clock).unwrap().limit(),
            Some(Limit::Depth(3))
        );
        let ext = "External(name: \"x\", command: \"x\", protocol: Gtp)";
        let e = EngineSpec::parse(ext, p, clock).unwrap();
        assert_eq!(e.name(), "x");
        assert_eq!(e.limit(), clock);
        assert_eq!(EngineSpec::parse(ext, p, None).unwrap().limit(), None);
    }
}
