//! External engines: programs that play over a text protocol on their
//! standard input and output, NBoard (Edax, Egaroucid, NTest, …) or GTP
//! (gtp-rhino, …). [`spec`] is the engine file's `External(...)` form.

pub mod player;
pub mod spec;

pub use player::ExternalPlayer;
pub use spec::{ExternalConfig, Protocol, RawExternal};
