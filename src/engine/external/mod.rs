//! External engines: programs that play over a text protocol on their
//! standard input and output, NBoard (Edax, Egaroucid, NTest, …) or GTP
//! (gtp-rhino, …). [`spec`] is the engine file's `External(...)` form,
//! [`player`] the [`ExternalPlayer`] the runner plays with; [`process`]
//! runs the program under deadlines, [`reaper`] ends it and what it
//! started, [`transcript`] records what was said,
//! [`record`] turns the runner's positions into the moves the protocols
//! speak, and [`nboard`] and [`gtp`] are the two dialects.

pub mod gtp;
pub mod nboard;
pub mod player;
pub mod process;
pub mod reaper;
pub mod record;
pub mod spec;
pub mod transcript;

pub use player::{ExternalPlayer, InRun};
pub use spec::{ExternalConfig, Protocol, RawExternal};

/// Here, above both: the engine file's form (`spec`) knows no dialect, and
/// each dialect builds on the form.
impl ExternalConfig {
    /// The warning a run gives at its start, naming the engine, when its
    /// protocol cannot carry its limit (`gtp-rhino: GTP has no depth
    /// command; it plays at its own settings`).
    pub fn limit_note(&self) -> Option<String> {
        let note = match self.protocol {
            Protocol::Nboard => nboard::limit_note(self.limit?),
            Protocol::Gtp => gtp::limit_note(self.limit?),
        }?;
        Some(format!("{}: {note}", self.name))
    }
}
