//! Runs a Code Mode program against a [`Toolset`], in an embedded sandbox
//! with limits, safely inside an async server: JavaScript and TypeScript in
//! QuickJS ([`JsRuntime`]), Python in pydantic's Monty ([`PyRuntime`], with
//! the `python` feature), or either by language ([`Runtime`]).
//!
//! A JavaScript program is the body of one async function (top-level `await`
//! and `return` work; no text in it can close that function). A Python
//! program is a module with top-level `await`, whose `return` or last
//! expression is the result. Either sees exactly the names the SDK
//! promises, [`GLOBAL`] and [`ERROR_CLASS`], plus `console` or `print`;
//! nothing reaches files, the network, the environment, timers or a clock
//! except through a tool. Every run gets a fresh engine.
//!
//! ```
//! use codemode_core::{Language, ToolDef};
//! use codemode_runtime::{JsRuntime, Limits};
//!
//! # struct Tools;
//! # impl codemode_core::Toolset for Tools {
//! #     fn defs(&self) -> Vec<ToolDef> { vec![ToolDef::new("one", serde_json::json!({})), ToolDef::new("two", serde_json::json!({}))] }
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
//! [`Runtime::run`] (and so `JsRuntime` and `PyRuntime`) returns a `Send` future that never blocks the thread
//! polling it: the engine runs on a thread of its own (or in a worker
//! process), the check before the run on a kept thread, and the future only
//! waits on channels and timers. So it is
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
//!   `#[tool]` on a non-async function runs it on a blocking thread for you
//!   (kept threads, at most 256 in the process; past that, calls wait in
//!   order for the next free one).
//!
//! # Isolation
//!
//! Each engine has its own default: in-process for JavaScript, a worker
//! process for Python (see [`PyRuntime`] for why).
//!
//! [`Isolation::InProcess`] (the default for JavaScript) runs QuickJS on a
//! dedicated thread of the host with a 256 MiB stack. Its heap is bounded by
//! a counting allocator, its time by an interrupt handler plus guards on the
//! native builtins that loop without polling (and it has no BigInt, whose
//! native arithmetic on large values takes seconds a step without polling:
//! literals are refused before a run, and the constructors, BigInt typed
//! arrays and code from strings are taken away), and every stage is
//! depth-bounded and panic-contained. It starts in well under a millisecond.
//!
//! Building a QuickJS context and installing the sandbox's guards is most of
//! a run's start, so the host does it ahead: after a run, its engine thread
//! sends the outcome, drops the engine, builds a fresh one and waits for the
//! next JavaScript run (at most two such threads wait per process, shared by
//! every runtime). A waiting engine has no tools, limits or program yet;
//! the run that takes it binds its own, and no engine ever serves a second
//! run, so nothing a program does reaches a later one. A run that finds no
//! engine waiting (the first run, or runs back to back) builds its own.
//! What it cannot do is take back a thread stuck in native code: the run
//! still ends on time, but the thread finishes its operation in the
//! background.
//!
//! [`Isolation::Worker`] runs the engine in a child process under OS limits
//! (address space, CPU time, no new processes, no files), killed at the
//! deadline. It costs a process start per run and holds against anything,
//! including a crash inside the engine. [`WorkerCommand::this_process`]
//! re-executes the host's own binary, which becomes a worker before its
//! `main` runs.
//!
//! # Limits
//!
//! Each limit ends the run with its own [`RunErrorKind`], decided from the
//! host's own state: [`Limits::timeout`], [`Limits::memory_bytes`],
//! [`Limits::stack_bytes`], [`Limits::max_tool_calls`],
//! [`Limits::max_output_bytes`] (console output past it is cut with a
//! marker line that gives the size, and ends the run; so does a larger
//! result), [`Limits::max_host_bytes`] and
//! [`Limits::max_source_bytes`].

#![warn(missing_docs)]

mod answer;
mod engine;
mod hooks;
mod host;
mod outcome;
mod pool;
mod protocol;
mod worker;

pub use answer::Answer;
pub use hooks::{ApprovalRequest, RunEvent};
pub use outcome::{
    CallRecord, CheckPolicy, Limits, Location, LogLine, RunError, RunErrorKind, RunOutcome, cut,
};
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
    /// In a child process under OS limits, killed at the deadline (the
    /// default for Python).
    Worker(WorkerCommand),
}

/// The engines, for per-engine settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Engine {
    /// QuickJS, for JavaScript and TypeScript.
    JavaScript,
    /// Monty, for Python.
    Python,
}

impl Engine {
    fn of(language: Language) -> Engine {
        match language {
            Language::JavaScript | Language::TypeScript => Engine::JavaScript,
            Language::Python => Engine::Python,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Runs programs in any [`Language`] against one toolset, each in the
/// engine of its language: JavaScript and TypeScript in QuickJS
/// (in-process by default), Python in Monty (in a worker process by
/// default; needs the `python` feature). For a host that lets the model
/// choose the language; [`JsRuntime`] and [`PyRuntime`] take one engine
/// each.
///
/// ```
/// # use codemode_core::{Language, ToolDef};
/// # struct Tools;
/// # impl codemode_core::Toolset for Tools {
/// #     fn defs(&self) -> Vec<ToolDef> { vec![ToolDef::new("one", serde_json::json!({}))] }
/// #     async fn call(&self, name: &str, args: serde_json::Value) -> Result<serde_json::Value, codemode_core::ToolCallError> {
/// #         Ok(serde_json::json!({"echo": name}))
/// #     }
/// # }
/// use codemode_runtime::{Limits, Runtime};
///
/// let runtime = Runtime::new(Tools, Limits::default());
/// let js = futures_executor::block_on(runtime.run(
///     Language::JavaScript,
///     "return (await tools.one({})).echo;",
/// ));
/// assert_eq!(js.value, serde_json::json!("one"));
/// ```
pub struct Runtime<T: ?Sized> {
    toolset: Arc<T>,
    limits: Limits,
    /// Where each engine runs, by [`Engine::index`].
    isolation: [Isolation; 2],
    /// The one engine this runtime is for, if it is for one.
    only: Option<Engine>,
    /// The tool names, computed once: `defs()` renders every schema.
    names: Arc<Vec<String>>,
    /// The prepared catalog the index functions (`catalog.describe`,
    /// `catalog.search`) answer from, made on their first call.
    catalog: Arc<std::sync::OnceLock<Arc<codemode_core::Catalog>>>,
    /// What a check of each program before it runs may do.
    check: CheckPolicy,
    hooks: hooks::Hooks,
}

impl<T: Toolset + Send + Sync + 'static> Runtime<T> {
    /// A runtime for `toolset` with `limits`, for every language.
    pub fn new(toolset: T, limits: Limits) -> Self {
        Self::from_arc(Arc::new(toolset), limits)
    }
}

impl<T: Toolset + Send + Sync + 'static + ?Sized> Runtime<T> {
    /// A runtime for a toolset the host shares (also `Arc<dyn ToolsetObject>`).
    /// The tools a program may call are read once, here (see
    /// [`Runtime::refresh`]).
    pub fn from_arc(toolset: Arc<T>, limits: Limits) -> Self {
        let names = program_names(&*toolset);
        Runtime {
            toolset,
            limits,
            isolation: [
                Isolation::InProcess,
                Isolation::Worker(WorkerCommand::this_process()),
            ],
            only: None,
            names: Arc::new(names),
            catalog: Arc::default(),
            check: CheckPolicy::default(),
            hooks: hooks::Hooks::default(),
        }
    }

    fn only(mut self, engine: Engine) -> Self {
        self.only = Some(engine);
        self
    }

    /// Reads the toolset's declarations again, after its tools changed.
    pub fn refresh(&mut self) {
        self.names = Arc::new(program_names(&*self.toolset));
        self.catalog = Arc::default();
    }

    /// The same runtime, with every engine placed as `isolation` says.
    pub fn with_isolation(mut self, isolation: Isolation) -> Self {
        self.isolation = [isolation.clone(), isolation];
        self
    }

    /// The same runtime, with the engine of `language` placed as
    /// `isolation` says (JavaScript and TypeScript share one engine).
    pub fn with_isolation_for(mut self, language: Language, isolation: Isolation) -> Self {
        self.isolation[Engine::of(language).index()] = isolation;
        self
    }

    /// The same runtime, checking each program against the SDK before it
    /// runs as `policy` says (the default is [`CheckPolicy::Warn`]).
    pub fn with_check(mut self, policy: CheckPolicy) -> Self {
        self.check = policy;
        self
    }

    /// The same runtime, with the catalog of its toolset's tools prepared by
    /// the host (one it keeps for `tools/list` or the SDK, say): the check
    /// and the index functions read it instead of preparing their own on
    /// first use. It must declare the toolset's current tools.
    pub fn with_catalog(mut self, catalog: Arc<codemode_core::Catalog>) -> Self {
        self.catalog = Arc::new(std::sync::OnceLock::from(catalog));
        self
    }

    /// What the check of each program may do.
    pub fn check_policy(&self) -> CheckPolicy {
        self.check
    }

    /// The toolset programs call.
    pub fn toolset(&self) -> &T {
        &self.toolset
    }

    /// The limits every run gets.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Where the engine of `language` runs.
    pub fn isolation_for(&self, language: Language) -> &Isolation {
        &self.isolation[Engine::of(language).index()]
    }

    /// The same runtime, asking `approve` before every tool call. It gets the
    /// tool, the arguments and the program's description; an `Err(reason)`
    /// denies the call, which the program sees as a `ToolCallError` of kind
    /// `denied` carrying the reason.
    pub fn with_approval<F, Fut>(mut self, approve: F) -> Self
    where
        F: Fn(ApprovalRequest) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Result<(), String>> + Send + 'static,
    {
        self.hooks.approval = Some(Arc::new(move |request| Box::pin(approve(request))));
        self
    }

    /// The same runtime, telling `observe` about each call, console line and
    /// the run's end as they happen (for a progress display). With the
    /// `tracing` feature the same events are also `tracing` events, inside a
    /// span per run.
    pub fn with_observer<F>(mut self, observe: F) -> Self
    where
        F: Fn(&RunEvent) + Send + Sync + 'static,
    {
        self.hooks.observer = Some(Arc::new(observe));
        self
    }

    /// Runs `code` in a fresh engine. In JavaScript and TypeScript it is the
    /// body of an async function; in Python, a module with top-level
    /// `await`, whose last expression (or `return`) is the result.
    pub async fn run(&self, language: Language, code: &str) -> RunOutcome {
        self.run_described(language, code, "").await
    }

    /// Runs `code` with the program's one-line `description` (what the
    /// approval hook sees).
    pub async fn run_described(
        &self,
        language: Language,
        code: &str,
        description: &str,
    ) -> RunOutcome {
        let started = Instant::now();
        let engine = Engine::of(language);
        if let Some(only) = self.only
            && only != engine
        {
            let (runs, other) = match only {
                Engine::JavaScript => ("JavaScript and TypeScript", "PyRuntime"),
                Engine::Python => ("Python", "JsRuntime"),
            };
            return RunOutcome::failed(RunError::new(
                RunErrorKind::UnsupportedLanguage,
                format!(
                    "this runtime runs {runs}, not {}; the host needs {other} or Runtime for it",
                    language.as_str()
                ),
            ));
        }
        let diagnostics = match self.check {
            CheckPolicy::Off => Vec::new(),
            // A program the sandbox refuses for its size is not parsed here
            // either.
            _ if code.len() > self.limits.max_source_bytes => Vec::new(),
            _ => {
                host::check_off_thread(
                    Arc::clone(&self.catalog),
                    Arc::clone(&self.toolset),
                    language,
                    code.to_owned(),
                )
                .await
            }
        };
        if self.check == CheckPolicy::Deny
            && let Some(outcome) = RunOutcome::refused(&diagnostics)
        {
            return outcome;
        }
        let job = Job {
            language,
            code: code.to_owned(),
            tools: self.names.as_ref().clone(),
            limits: self.limits.clone(),
            deadline_us: deadline_us(self.limits.timeout.saturating_sub(started.elapsed())),
        };
        let connection = match &self.isolation[engine.index()] {
            Isolation::InProcess => host::spawn_thread(job),
            Isolation::Worker(command) => worker::spawn(command, job),
        };
        let drive = host::drive(
            Arc::clone(&self.toolset),
            host::RunContext {
                names: Arc::clone(&self.names),
                language,
                catalog: Arc::clone(&self.catalog),
                hooks: self.hooks.clone(),
                description: description.to_owned(),
            },
            &self.limits,
            started,
            connection,
        );
        #[cfg(feature = "tracing")]
        let drive = tracing::Instrument::instrument(
            drive,
            tracing::info_span!("codemode.run", language = language.as_str(), description),
        );
        let mut outcome = drive.await;
        outcome.diagnostics = diagnostics;
        outcome
    }
}

/// Declares a runtime for one engine: a [`Runtime`] that refuses the other
/// languages, with the same methods.
macro_rules! one_engine_runtime {
    ($(#[$doc:meta])* $name:ident, $engine:expr) => {
        $(#[$doc])*
        pub struct $name<T: ?Sized>(Runtime<T>);

        impl<T: Toolset + Send + Sync + 'static> $name<T> {
            /// A runtime for `toolset` with `limits`.
            pub fn new(toolset: T, limits: Limits) -> Self {
                Self::from_arc(Arc::new(toolset), limits)
            }
        }

        impl<T: Toolset + Send + Sync + 'static + ?Sized> $name<T> {
            /// A runtime for a toolset the host shares (also
            /// `Arc<dyn ToolsetObject>`). The tools a program may call are
            /// read once, here (see [`Runtime::refresh`]).
            pub fn from_arc(toolset: Arc<T>, limits: Limits) -> Self {
                $name(Runtime::from_arc(toolset, limits).only($engine))
            }

            /// The same runtime, with its engine placed as `isolation` says.
            pub fn with_isolation(self, isolation: Isolation) -> Self {
                $name(self.0.with_isolation(isolation))
            }

            /// The same runtime, checking each program before it runs as
            /// `policy` says (see [`Runtime::with_check`]).
            pub fn with_check(self, policy: CheckPolicy) -> Self {
                $name(self.0.with_check(policy))
            }

            /// The same runtime, with a catalog the host prepared (see
            /// [`Runtime::with_catalog`]).
            pub fn with_catalog(self, catalog: Arc<codemode_core::Catalog>) -> Self {
                $name(self.0.with_catalog(catalog))
            }

            /// Where the engine runs.
            pub fn isolation(&self) -> &Isolation {
                &self.0.isolation[$engine.index()]
            }

            /// The same runtime, asking `approve` before every tool call
            /// (see [`Runtime::with_approval`]).
            pub fn with_approval<F, Fut>(self, approve: F) -> Self
            where
                F: Fn(ApprovalRequest) -> Fut + Send + Sync + 'static,
                Fut: std::future::Future<Output = Result<(), String>> + Send + 'static,
            {
                $name(self.0.with_approval(approve))
            }

            /// The same runtime, telling `observe` about each event of a run
            /// (see [`Runtime::with_observer`]).
            pub fn with_observer<F>(self, observe: F) -> Self
            where
                F: Fn(&RunEvent) + Send + Sync + 'static,
            {
                $name(self.0.with_observer(observe))
            }
        }

        impl<T: ?Sized> std::ops::Deref for $name<T> {
            type Target = Runtime<T>;
            fn deref(&self) -> &Runtime<T> {
                &self.0
            }
        }

        impl<T: ?Sized> std::ops::DerefMut for $name<T> {
            fn deref_mut(&mut self) -> &mut Runtime<T> {
                &mut self.0
            }
        }
    };
}

one_engine_runtime!(
    /// Runs JavaScript and TypeScript programs against one toolset, in
    /// QuickJS (in-process by default). A Python program gets
    /// `unsupported_language`. Its methods are those of [`Runtime`].
    JsRuntime,
    Engine::JavaScript
);

one_engine_runtime!(
    /// Runs Python programs against one toolset, in pydantic's Monty (needs
    /// the `python` feature). Its methods are those of [`Runtime`].
    ///
    /// The default is [`Isolation::Worker`] with this process's own
    /// executable ([`WorkerCommand::this_process`]): Monty cannot bound its
    /// heap inside a process it shares, and an abort inside it would take the
    /// process with it. In a worker, a memory bomb ends as `out_of_memory`
    /// under the address-space limit and a crash as a clean error.
    /// [`Isolation::InProcess`] is an explicit choice for trusted programs:
    /// time, recursion, calls and output stay bounded, but the heap does not
    /// (only single huge allocations are refused), and a crash inside the
    /// interpreter is contained only when it unwinds.
    ///
    /// A program is a module with top-level `await`: its `return` or its
    /// last expression is the result. `tools.name(key=value)`,
    /// `tools.name(args)` with one dict, or `tools["name"](args)` calls a
    /// tool; `asyncio.gather` runs calls
    /// together; a failure raises `ToolCallError` where the call is awaited
    /// (a coroutine inside `gather` catches its own), and its `toolName` and
    /// `kind` name the tool and the kind.
    ///
    /// ```
    /// # use codemode_core::{Language, ToolDef};
    /// # struct Tools;
    /// # impl codemode_core::Toolset for Tools {
    /// #     fn defs(&self) -> Vec<ToolDef> { vec![ToolDef::new("kv.get", serde_json::json!({}))] }
    /// #     async fn call(&self, name: &str, args: serde_json::Value) -> Result<serde_json::Value, codemode_core::ToolCallError> {
    /// #         Ok(serde_json::json!({"key": args["key"]}))
    /// #     }
    /// # }
    /// use codemode_runtime::{Isolation, Limits, PyRuntime};
    ///
    /// let runtime = PyRuntime::new(Tools, Limits::default()).with_isolation(Isolation::InProcess);
    /// let outcome = futures_executor::block_on(runtime.run(
    ///     Language::Python,
    ///     "import asyncio\n\
    ///      a, b = await asyncio.gather(tools[\"kv.get\"]({\"key\": 1}), tools[\"kv.get\"]({\"key\": 2}))\n\
    ///      print(\"got\", a)\n\
    ///      [a[\"key\"], b[\"key\"]]",
    /// ));
    /// # #[cfg(feature = "python")] {
    /// assert_eq!(outcome.value, serde_json::json!([1, 2]));
    /// assert_eq!(outcome.logs[0].text, "got {'key': 1}");
    /// # }
    /// ```
    PyRuntime,
    Engine::Python
);

/// The time `left` from now, in microseconds since the Unix epoch.
fn deadline_us(left: std::time::Duration) -> u64 {
    let at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        + left;
    u64::try_from(at.as_micros()).unwrap_or(u64::MAX)
}

/// The names a program may call: declared, callable from a program, the
/// first of a duplicate, sorted.
fn program_names<T: Toolset + ?Sized>(toolset: &T) -> Vec<String> {
    let defs = toolset.defs();
    codemode_core::normalize(&defs)
        .into_iter()
        .map(|d| d.name.clone())
        .collect()
}
