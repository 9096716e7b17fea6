//! Runs a Code Mode program against a [`Toolset`], in an embedded QuickJS
//! sandbox with limits, safely inside an async server.
//!
//! The program is the body of one async function (top-level `await` and
//! `return` work; no text in it can close that function). It sees exactly
//! the names the SDK promises, [`GLOBAL`] and [`ERROR_CLASS`], plus
//! `console`; nothing reaches files, the network, the environment, timers or
//! a clock except through a tool. Every run gets a fresh engine.
//!
//! ```
//! use codemode_core::{Language, ToolDef};
//! use codemode_runtime::{JsRuntime, Limits};
//!
//! # struct Tools;
//! # impl codemode_core::Toolset for Tools {
//! #     fn tool_defs() -> Vec<ToolDef> { vec![ToolDef::new("one", serde_json::json!({})), ToolDef::new("two", serde_json::json!({}))] }
//! #     async fn call(&self, name: &str, args: serde_json::Value) -> Result<serde_json::Value, codemode_core::ToolCallError> {
//! #         Ok(serde_json::json!({"echo": name, "args": args}))
//! #     }
//! # }
//! let runtime = JsRuntime::new(Tools, Limits::default());
//! let outcome = futures_executor::block_on(runtime.run(
//!     Language::JavaScript,
//!     r#"const [a, b] = await Promise.all([tools.one({x: 1}), tools["two"]()]);
//!        console.log("got", a.echo);
//!        return [a.args.x, b.echo];"#,
//! ));
//! assert_eq!(outcome.value, serde_json::json!([1, "two"]));
//! assert_eq!(outcome.logs[0].text, "got one");
//! assert_eq!(outcome.calls.len(), 2);
//! assert!(outcome.error.is_none());
//! ```
//!
//! # The async contract
//!
//! [`JsRuntime::run`] returns a `Send` future that never blocks the thread
//! polling it: the engine runs on a thread of its own (or in a worker
//! process), and the future only waits on channels and timers. So it is
//! correct on a tokio multi-thread runtime, a tokio current-thread runtime
//! and `futures::executor::block_on` alike, and many runs can share one
//! executor.
//!
//! - **Timeout.** [`Limits::timeout`] counts from the call to `run`:
//!   parsing, type stripping, running and waiting on tools. The engine stops
//!   itself at the deadline; if it cannot (it is inside one long native
//!   operation), the future still returns `timeout` at most 100 ms later and
//!   leaves the engine to stop on its own (in-process) or kills it (worker).
//! - **Cancellation.** Dropping the future stops the engine: the engine
//!   thread sees the cancel flag at its next interrupt check, a worker
//!   process is killed.
//! - **Tool calls** are polled by the future itself, concurrently
//!   (`Promise.all` overlaps them), each bounded by [`Limits::call_timeout`].
//!   A timed-out run returns without waiting for them. A tool that blocks
//!   its thread blocks the executor as any blocking code would: make
//!   blocking tools async (for example with `tokio::task::spawn_blocking`);
//!   `#[tool]` on a non-async function runs it on a blocking thread for you.
//!
//! # Isolation
//!
//! [`Isolation::InProcess`] (the default for JavaScript) runs QuickJS on a
//! dedicated thread of the host with a 256 MiB stack. Its heap is bounded by
//! a counting allocator, its time by an interrupt handler plus guards on the
//! native builtins that loop without polling, and every stage is
//! depth-bounded and panic-contained. It starts in well under a millisecond.
//! What it cannot do is take back a thread stuck in native code: the run
//! still ends on time, but the thread finishes its operation in the
//! background.
//!
//! [`Isolation::Worker`] runs the engine in a child process under OS limits
//! (address space, CPU time, no new processes, no files), killed at the
//! deadline. It costs a process start per run and holds against anything,
//! including a crash inside the engine. Start it with
//! [`WorkerCommand::current_exe`] from a binary whose `main` calls
//! [`run_worker_if_requested`] first.
//!
//! # Limits
//!
//! Each limit ends the run with its own [`RunErrorKind`], decided from the
//! host's own state: [`Limits::timeout`], [`Limits::memory_bytes`],
//! [`Limits::stack_bytes`], [`Limits::max_tool_calls`],
//! [`Limits::max_output_bytes`] (the result; console output past it is
//! dropped with a marker line), [`Limits::max_host_bytes`] and
//! [`Limits::max_source_bytes`].

#![warn(missing_docs)]

mod engine;
mod host;
mod outcome;
mod protocol;
mod worker;

pub use outcome::{CallRecord, Limits, Location, LogLine, RunError, RunErrorKind, RunOutcome};
pub use worker::{WORKER_ARG, WorkerCommand, run_worker_if_requested};

#[doc(no_inline)]
pub use codemode_core::{ERROR_CLASS, GLOBAL};
use codemode_core::{Language, Toolset};
use protocol::Job;
use std::sync::Arc;
use std::time::Instant;

/// Where the engine runs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Isolation {
    /// On a dedicated thread of this process (the default for JavaScript:
    /// fast to start, with heap, time and stack bounded inside the engine).
    #[default]
    InProcess,
    /// In a child process under OS limits, killed at the deadline.
    Worker(WorkerCommand),
}

/// Runs programs against one toolset.
pub struct JsRuntime<T: ?Sized> {
    toolset: Arc<T>,
    limits: Limits,
    isolation: Isolation,
    /// The tool names, computed once: `tool_defs()` renders every schema.
    names: Arc<Vec<String>>,
}

impl<T: Toolset + Send + Sync + 'static> JsRuntime<T> {
    /// A runtime for `toolset` with `limits`, running in-process.
    pub fn new(toolset: T, limits: Limits) -> Self {
        Self::from_arc(Arc::new(toolset), limits)
    }

    /// A runtime for a toolset the host shares.
    pub fn from_arc(toolset: Arc<T>, limits: Limits) -> Self {
        let mut names: Vec<String> = T::tool_defs().into_iter().map(|t| t.name).collect();
        names.sort();
        names.dedup();
        JsRuntime {
            toolset,
            limits,
            isolation: Isolation::default(),
            names: Arc::new(names),
        }
    }
}

impl<T: Toolset + Send + Sync + 'static + ?Sized> JsRuntime<T> {
    /// The same runtime, with its engines placed as `isolation` says.
    pub fn with_isolation(mut self, isolation: Isolation) -> Self {
        self.isolation = isolation;
        self
    }

    /// The limits every run gets.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Where the engines run.
    pub fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    /// Runs `code`, the body of an async function, in a fresh engine.
    pub async fn run(&self, language: Language, code: &str) -> RunOutcome {
        let started = Instant::now();
        let job = Job {
            language,
            code: code.to_owned(),
            tools: self.names.as_ref().clone(),
            limits: self.limits.clone(),
            spent_ms: 0,
        };
        let connection = match &self.isolation {
            Isolation::InProcess => host::spawn_thread(job),
            Isolation::Worker(command) => worker::spawn(command, job),
        };
        host::drive(Arc::clone(&self.toolset), &self.limits, started, connection).await
    }
}
