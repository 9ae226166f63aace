//! What stops a run from outside: Ctrl-C and SIGTERM, forwarded by the
//! command line as [`StopRequest`]s, and the grace the games in flight get
//! after a SIGTERM.

use crossbeam_channel::Receiver;
use std::time::Duration;

/// A request to stop a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopRequest {
    /// Ctrl-C: stop scheduling and let the games in flight finish.
    Interrupt,
    /// SIGTERM (how batch systems stop a job, killing it soon after):
    /// stop scheduling and give the games in flight [`Stops::grace`].
    Terminate,
}

/// What stops a run: the requests (a second one abandons the games in
/// flight), and how long the games in flight may go on after a
/// [`StopRequest::Terminate`] before they are abandoned.
#[derive(Clone, Debug)]
pub struct Stops {
    /// The requests, as they come.
    pub requests: Receiver<StopRequest>,
    /// The games in flight's time after a `Terminate`.
    pub grace: Duration,
}

/// The default [`Stops::grace`]: well inside the 30 s batch systems give.
pub const DEFAULT_STOP_GRACE: Duration = Duration::from_secs(10);
