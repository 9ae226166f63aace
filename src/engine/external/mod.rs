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

pub use player::ExternalPlayer;
pub use spec::{ExternalConfig, Protocol, RawExternal};
