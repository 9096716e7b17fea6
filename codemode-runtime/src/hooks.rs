//! What a host can attach to a run: an approval hook before each call, and
//! an observer of the run's progress.

use crate::outcome::{LogLine, RunErrorKind};
use codemode_core::{BoxFuture, ToolCallError};
use serde_json::Value;
use std::sync::Arc;

/// A call waiting for approval.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    /// The tool the program calls.
    pub tool: String,
    /// Its arguments.
    pub args: Value,
    /// The program's own one-line description (`run_code`'s `description`).
    pub description: String,
}

/// Something that happened during a run, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEvent {
    /// The program made a call (before the approval hook and the tool run).
    CallStarted {
        /// Its position among the run's calls.
        index: usize,
        /// The tool.
        name: String,
        /// Its arguments.
        args: Value,
    },
    /// A call ended.
    CallFinished {
        /// Its position among the run's calls.
        index: usize,
        /// The tool.
        name: String,
        /// How long it took, in milliseconds.
        duration_ms: f64,
        /// Its error, when it failed.
        error: Option<ToolCallError>,
    },
    /// A console line.
    Log(LogLine),
    /// The run ended, failed with this kind or not.
    Finished {
        /// The kind of failure, if any.
        error: Option<RunErrorKind>,
    },
}

pub(crate) type ApprovalFn =
    dyn Fn(ApprovalRequest) -> BoxFuture<'static, Result<(), String>> + Send + Sync;
pub(crate) type ObserverFn = dyn Fn(&RunEvent) + Send + Sync;

/// The hooks of a runtime.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub(crate) approval: Option<Arc<ApprovalFn>>,
    pub(crate) observer: Option<Arc<ObserverFn>>,
}

impl Hooks {
    pub(crate) fn emit(&self, event: RunEvent) {
        #[cfg(feature = "tracing")]
        trace(&event);
        if let Some(observer) = &self.observer {
            // An observer that panics loses its event, not the run.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| observer(&event)));
        }
    }
}

#[cfg(feature = "tracing")]
fn trace(event: &RunEvent) {
    match event {
        RunEvent::CallStarted { index, name, .. } => {
            tracing::debug!(index, tool = %name, "codemode call started")
        }
        RunEvent::CallFinished {
            index,
            name,
            duration_ms,
            error,
        } => {
            tracing::debug!(index, tool = %name, duration_ms, failed = error.is_some(), "codemode call finished")
        }
        RunEvent::Log(line) => {
            tracing::trace!(level = %line.level, text = %line.text, "codemode console")
        }
        RunEvent::Finished { error } => tracing::debug!(error = ?error, "codemode run finished"),
    }
}
