//! How long offline work says how far it is: the library reports phases
//! and steps to a [`Progress`], and never draws anything or asks about a
//! terminal (`cli/` draws bars on one).

/// What long work (training) tells as it goes. Steps may come from
/// several threads at once. Every method does nothing by default.
pub trait Progress: Sync {
    /// A phase begins: `total` steps (`None`: of unknown length), each a
    /// `unit` (`games`, `positions`), `message` saying what it does.
    fn begin(&self, _total: Option<u64>, _unit: &str, _message: &str) {}

    /// One step of the phase is done.
    fn step(&self) {}

    /// The phase is over.
    fn end(&self) {}
}

/// Progress that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Progress for Quiet {}
