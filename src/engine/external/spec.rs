//! The engine file of an external engine: `External(...)` as written
//! ([`RawExternal`], `deny_unknown_fields`) and checked
//! ([`ExternalConfig`]): a command to start, its protocol, its own limit if
//! it has one, and the deadlines of its replies.

use crate::error::{Error, Result};
use crate::search::Limit;
use crate::util::{Source, Sourced};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The text protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Protocol {
    /// Chris Welty's NBoard protocol (`nboard 2`, `set game`, `go`,
    /// `=== move`).
    Nboard,
    /// The Go Text Protocol as Othello engines speak it (`boardsize 8`,
    /// `play black e6`, `genmove white`).
    Gtp,
}

impl Protocol {
    /// Every protocol, in the order `--protocol` lists them.
    pub const ALL: [Protocol; 2] = [Protocol::Nboard, Protocol::Gtp];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Nboard => "nboard",
            Protocol::Gtp => "gtp",
        }
    }

    /// One line for `--help`.
    pub fn summary(self) -> &'static str {
        match self {
            Protocol::Nboard => "NBoard protocol (Edax, Egaroucid, NTest)",
            Protocol::Gtp => "Go Text Protocol, Othello dialect (gtp-rhino)",
        }
    }
}

fn ready_timeout() -> u64 {
    5000
}

fn reply_timeout() -> u64 {
    60_000
}

/// An external engine file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "External")]
pub struct RawExternal {
    /// Display name (unique in a tournament).
    pub name: String,
    /// The program: a path (relative to the engine file when it contains a
    /// `/`) or a name looked up in `PATH`.
    pub command: String,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// The folder it runs in (relative to the engine file; default: the
    /// folder `arena` runs in).
    #[serde(default)]
    pub working_dir: Option<PathBuf>,
    /// Lines sent once after the handshake (engine options).
    #[serde(default)]
    pub init: Vec<String>,
    /// Most milliseconds the process may take to start and answer the
    /// handshake.
    #[serde(default = "ready_timeout")]
    pub ready_timeout_ms: u64,
    /// Most milliseconds any reply may take when no clock applies (a
    /// depth-limited game): past it the engine is hung and loses.
    #[serde(default = "reply_timeout")]
    pub reply_timeout_ms: u64,
    /// The engine's own limit; without one it takes the tournament's time
    /// control. `Depth(n)` is sent as NBoard's `set depth n`.
    #[serde(default)]
    pub limit: Option<Limit>,
}

impl RawExternal {
    /// An engine that starts `command` (with no arguments) and speaks
    /// `protocol`, every other setting at its default.
    pub fn new(name: &str, command: &str, protocol: Protocol) -> RawExternal {
        RawExternal {
            name: name.to_string(),
            command: command.to_string(),
            args: Vec::new(),
            protocol,
            working_dir: None,
            init: Vec::new(),
            ready_timeout_ms: ready_timeout(),
            reply_timeout_ms: reply_timeout(),
            limit: None,
        }
    }
}

/// A checked external engine.
#[derive(Clone, Debug, PartialEq)]
pub struct ExternalConfig {
    /// Display name.
    pub name: String,
    /// The program, resolved against the engine file's folder when it is a
    /// path.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// The working folder, resolved.
    pub working_dir: Option<PathBuf>,
    /// Lines sent once after the handshake.
    pub init: Vec<String>,
    /// Most milliseconds to start and answer the handshake.
    pub ready_timeout_ms: u64,
    /// Most milliseconds any reply may take when no clock applies.
    pub reply_timeout_ms: u64,
    /// The limit it plays by: its own or the tournament's (`None`: its own
    /// settings).
    pub limit: Option<Limit>,
    /// The settings as written (a limit set from elsewhere included): what
    /// the config hash fingerprints, and nothing else reads.
    written: RawExternal,
}

/// Most milliseconds a deadline may be (24 hours).
const MAX_MS: u64 = 86_400_000;

impl TryFrom<Sourced<'_, RawExternal>> for ExternalConfig {
    type Error = Error;

    fn try_from(s: Sourced<'_, RawExternal>) -> Result<ExternalConfig> {
        let (raw, src) = (s.raw, s.source);
        if let Some(msg) = crate::util::ron::name_problem(&raw.name, "an engine") {
            return Err(src.field("name", msg));
        }
        if raw.command.trim().is_empty() {
            return Err(src.field("command", "the program to start is empty"));
        }
        for (field, ms) in [
            ("ready_timeout_ms", raw.ready_timeout_ms),
            ("reply_timeout_ms", raw.reply_timeout_ms),
        ] {
            if ms == 0 || ms > MAX_MS {
                return Err(src.field(field, format!("{ms} ms: must be 1 to {MAX_MS} (24 hours)")));
            }
        }
        check_limit(&src, &raw)?;
        let program = if raw.command.contains('/') {
            src.base().join(&raw.command)
        } else {
            PathBuf::from(&raw.command)
        };
        // Whether it exists is checked with the program, when a run starts:
        // a file loads on any machine.
        let working_dir = raw.working_dir.as_ref().map(|d| src.base().join(d));
        Ok(ExternalConfig {
            name: raw.name.clone(),
            program,
            args: raw.args.clone(),
            protocol: raw.protocol,
            working_dir,
            init: raw.init.clone(),
            ready_timeout_ms: raw.ready_timeout_ms,
            reply_timeout_ms: raw.reply_timeout_ms,
            limit: raw.limit,
            written: raw,
        })
    }
}

/// An external engine's own limit: something to play by, within the caps
/// our own engines have (depth 60, 24 hours), and one the protocols can send.
fn check_limit(src: &Source<'_>, raw: &RawExternal) -> Result<()> {
    let bad = match raw.limit {
        None => None,
        Some(Limit::Nodes(_)) => Some(
            "Nodes(n) cannot be sent over NBoard or GTP; use Depth(n), MoveTime(ms) or Clock(base, inc)"
                .to_string(),
        ),
        Some(limit @ (Limit::Depth(_) | Limit::MoveTime(_) | Limit::Clock(..))) => limit.problem(),
    };
    match bad {
        Some(msg) => Err(src.field("limit", msg)),
        None => Ok(()),
    }
}

impl ExternalConfig {
    /// Plays by `limit` from now on, as if its file had stated it.
    pub fn set_limit(&mut self, limit: Limit) {
        self.limit = Some(limit);
        self.written.limit = Some(limit);
    }

    /// What decides its play, for the config hash: its settings as written.
    pub fn fingerprint(&self) -> serde_json::Value {
        serde_json::json!({ "external": self.written })
    }

    /// The program file a run starts: a path made absolute against the
    /// folder arena runs in (as the process is started), or for a bare name
    /// the first executable file of that name in `PATH`, as `exec` finds
    /// it; `None` when `PATH` holds none.
    pub fn program_file(&self) -> Option<PathBuf> {
        if self.program.components().count() > 1 {
            return std::path::absolute(&self.program).ok();
        }
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path).find_map(|dir| {
            // An empty entry is the current folder, as exec reads it.
            let dir = if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir
            };
            let file = dir.join(&self.program);
            crate::util::sys::is_executable(&file).then_some(file)
        })
    }

    /// Parses and checks `External(...)` text; `path` names it and is the
    /// base of relative paths.
    ///
    /// # Errors
    /// [`Error::Config`] naming the file, line and field.
    pub fn parse(text: &str, path: &std::path::Path) -> Result<ExternalConfig> {
        let raw: RawExternal = crate::util::parse_ron(text, path)?;
        ExternalConfig::try_from(Sourced {
            raw,
            source: Source::new(path, text),
        })
    }
}
