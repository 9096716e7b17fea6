//! The narrow boundary between the host and an engine: a job goes in, tool
//! calls and console lines come out, results go back in, and one outcome
//! comes out. The same messages travel over a channel (an engine thread in
//! the host process) or as JSON lines over pipes (a worker process).

use crate::outcome::{Limits, LogLine, RunError};
use codemode_core::Language;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What an engine is asked to run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Job {
    pub(crate) language: Language,
    pub(crate) code: String,
    /// The tool names the program may call, sorted.
    pub(crate) tools: Vec<String>,
    pub(crate) limits: Limits,
    /// When the run must end, in microseconds since the Unix epoch: the
    /// host and a worker share the system clock, so the time a worker takes
    /// to start counts against the run too.
    pub(crate) deadline_us: u64,
}

impl Job {
    /// The run's deadline on this process's monotonic clock.
    pub(crate) fn deadline(&self) -> Instant {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let left = std::time::Duration::from_micros(self.deadline_us).saturating_sub(now);
        Instant::now() + left.min(self.limits.timeout)
    }
}

/// A message from the engine to the host.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub(crate) enum ToHost {
    /// The program called a tool; `args` is JSON text the engine checked.
    Call { id: u64, name: String, args: String },
    /// A console line (already within the output limit).
    Log(LogLine),
    /// The run is over.
    Done(EngineOutcome),
}

/// The end of a run, as the engine saw it.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct EngineOutcome {
    /// The program's result as JSON text, when it returned one.
    pub(crate) value: Option<String>,
    pub(crate) error: Option<RunError>,
}

/// A message from the host to the engine: a tool call's result, as the JSON
/// envelope the prelude reads (`{"ok":true,"value":..}` or
/// `{"ok":false,"error":{..}}`).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    pub(crate) id: u64,
    pub(crate) envelope: String,
}

/// What waiting for a reply gave.
pub(crate) enum Recv {
    Reply(Reply),
    /// Nothing arrived before the deadline.
    TimedOut,
    /// The host is gone, or asked the run to stop.
    Closed,
}

/// How an engine talks to its host.
pub(crate) trait EngineIo {
    /// Sends a message; false when the host is gone.
    fn send(&mut self, message: ToHost) -> bool;
    /// Waits for a reply until `deadline`.
    fn recv(&mut self, deadline: Instant) -> Recv;
}
