//! Playing a run's games: one [`driver`] for a run on one machine
//! ([`alone`]) and for a worker of a shared run (`super::workers`), a
//! [`pool`] of game threads ([`game_thread`], each playing whole games with
//! [`play`] and [`adjudicate`]) fed over crossbeam channels, and the main
//! thread's [`collector`], which owns the journal, the statistics and the
//! SPRT decision and tells the caller's [`observer`] what happens.

pub mod adjudicate;
pub(crate) mod alone;
mod blocks;
pub mod collector;
pub(crate) mod driver;
pub mod game_thread;
pub mod observer;
pub mod play;
pub mod pool;
pub mod prepare;
mod starts;
pub mod stops;
pub mod tally;
