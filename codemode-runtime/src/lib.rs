//! Runs a Code Mode program against a [`Toolset`], in an embedded QuickJS
//! sandbox with limits.
//!
//! The program is the body of an async function (top-level `await` and
//! `return` work). It sees exactly the names the SDK promises, [`GLOBAL`] and
//! [`ERROR_CLASS`], plus `console`; nothing reaches files, the network, the
//! environment or a clock except through a tool. Every run gets a fresh
//! context.
//!
//! ```
//! use codemode_core::{Language, Tool};
//! use codemode_runtime::{JsRuntime, Limits};
//!
//! # struct Tools;
//! # impl codemode_core::Toolset for Tools {
//! #     fn tool_defs() -> Vec<codemode_core::ToolDef> { vec![] }
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
//! # Limits
//!
//! Each limit ends the run with its own [`RunErrorKind`] and leaves the host
//! healthy: the wall-clock [`Limits::timeout`] (an interrupt handler stops
//! running JavaScript; a race stops waiting on tools), [`Limits::memory_bytes`]
//! (QuickJS's allocator limit), [`Limits::stack_bytes`] (QuickJS's stack
//! check), [`Limits::max_tool_calls`], and [`Limits::max_output_bytes`] (for
//! the console and, separately, the result). The stack limit must stay well
//! below the stack of the thread that polls [`JsRuntime::run`].

#![warn(missing_docs)]

mod strip;

use codemode_core::{ERROR_CLASS, ErrorKind, GLOBAL, Language, ToolCallError, Toolset};
use futures_util::FutureExt;
use futures_util::future::{Either, select};
use rquickjs::context::intrinsic;
use rquickjs::prelude::Func;
use rquickjs::promise::Promised;
use rquickjs::{AsyncContext, AsyncRuntime, CatchResultExt, CaughtError, Ctx, Object, Promise};
use serde::Serialize;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The bounds of one run. Fields are public; [`Limits::default`] suits a
/// model's short programs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time for the whole run, tool calls included.
    pub timeout: Duration,
    /// Memory the JavaScript heap may use.
    pub memory_bytes: usize,
    /// Stack the JavaScript engine may use (keep it well below the polling
    /// thread's own stack).
    pub stack_bytes: usize,
    /// Tool calls one run may make.
    pub max_tool_calls: usize,
    /// Bytes of console output, and (separately) of the JSON result.
    pub max_output_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(30),
            memory_bytes: 64 << 20,
            stack_bytes: 256 << 10,
            max_tool_calls: 1_000,
            max_output_bytes: 1 << 20,
        }
    }
}

/// What a run produced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunOutcome {
    /// The program's return value as JSON (`null` when it returned nothing,
    /// or failed).
    pub value: Value,
    /// Console output, in order, up to the output limit.
    pub logs: Vec<LogLine>,
    /// Every tool call the program made, in the order it made them.
    pub calls: Vec<CallRecord>,
    /// Why the run failed, if it did.
    pub error: Option<RunError>,
}

/// One line of console output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LogLine {
    /// `log`, `info`, `warn`, `error` or `debug`.
    pub level: String,
    /// The arguments, strings as they are and other values as JSON, joined by spaces.
    pub text: String,
}

/// One tool call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallRecord {
    /// The name the program called.
    pub name: String,
    /// The arguments it passed.
    pub args: Value,
    /// How long the call took, in milliseconds (`null` if it never finished).
    pub duration_ms: Option<f64>,
    /// Whether it succeeded.
    pub ok: bool,
    /// Its error, when it failed.
    pub error: Option<ToolCallError>,
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunError {
    /// The kind of failure.
    pub kind: RunErrorKind,
    /// What happened.
    pub message: String,
}

/// The kinds of run failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RunErrorKind {
    /// The program did not finish within [`Limits::timeout`] (this includes a
    /// promise that can never settle).
    Timeout,
    /// The JavaScript heap reached [`Limits::memory_bytes`].
    OutOfMemory,
    /// The JavaScript stack reached [`Limits::stack_bytes`].
    StackOverflow,
    /// The program tried more than [`Limits::max_tool_calls`] calls.
    CallLimit,
    /// Console output or the result exceeded [`Limits::max_output_bytes`].
    OutputLimit,
    /// The program threw (or rejected with) an exception it did not catch.
    Thrown,
    /// The program does not parse.
    SyntaxError,
    /// The program returned something that is not JSON (a BigInt, a cycle).
    InvalidResult,
    /// This runtime runs JavaScript and TypeScript only.
    UnsupportedLanguage,
    /// The engine itself failed (please report it).
    Internal,
}

impl RunError {
    fn new(kind: RunErrorKind, message: impl Into<String>) -> Self {
        RunError {
            kind,
            message: message.into(),
        }
    }
}

/// Runs programs against one toolset.
pub struct JsRuntime<T> {
    toolset: Arc<T>,
    limits: Limits,
    /// The tool names as a JSON array, for the prelude; computed once, since
    /// `tool_defs()` renders every schema.
    names_json: String,
}

impl<T: Toolset + Send + Sync + 'static> JsRuntime<T> {
    /// A runtime for `toolset` with `limits`.
    pub fn new(toolset: T, limits: Limits) -> Self {
        let names: Vec<String> = T::tool_defs().into_iter().map(|t| t.name).collect();
        JsRuntime {
            toolset: Arc::new(toolset),
            limits,
            names_json: serde_json::to_string(&names).unwrap_or_else(|_| "[]".to_owned()),
        }
    }

    /// The limits every run gets.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Runs `code`, the body of an async function, in a fresh context.
    pub async fn run(&self, language: Language, code: &str) -> RunOutcome {
        let state = Arc::new(RunState::default());
        let error = match self.prepare(language, code) {
            Ok(source) => self.execute(&source, &state).await.err(),
            Err(e) => Some(e),
        };
        let mut value = state.value.lock().map(|v| v.clone()).unwrap_or(Value::Null);
        let error = error.or_else(|| state.abort_reason());
        if error.is_some() {
            value = Value::Null;
        }
        RunOutcome {
            value,
            logs: take(&state.logs),
            calls: take(&state.calls),
            error,
        }
    }

    /// The JavaScript to evaluate: the program wrapped as an async function's
    /// body (on the same line, so line numbers match), types stripped for
    /// TypeScript.
    fn prepare(&self, language: Language, code: &str) -> Result<String, RunError> {
        let wrapped = format!("(async () => {{{code}\n}})()");
        match language {
            Language::JavaScript => Ok(wrapped),
            Language::TypeScript => strip::strip_types(&wrapped)
                .map_err(|e| RunError::new(RunErrorKind::SyntaxError, e)),
            Language::Python => Err(RunError::new(
                RunErrorKind::UnsupportedLanguage,
                "this runtime runs JavaScript and TypeScript programs; Python needs a Python runtime",
            )),
        }
    }

    async fn execute(&self, source: &str, state: &Arc<RunState>) -> Result<(), RunError> {
        let limits = &self.limits;
        let deadline = Instant::now() + limits.timeout;
        let internal = |e: rquickjs::Error| RunError::new(RunErrorKind::Internal, e.to_string());
        let runtime = AsyncRuntime::new().map_err(internal)?;
        runtime.set_memory_limit(limits.memory_bytes).await;
        runtime.set_max_stack_size(limits.stack_bytes).await;
        let interrupt_state = Arc::clone(state);
        runtime
            .set_interrupt_handler(Some(Box::new(move || {
                interrupt_state.aborted.load(Ordering::SeqCst) || Instant::now() >= deadline
            })))
            .await;
        // No Date and no Performance: the program has no clock but its tools.
        type Intrinsics = (
            intrinsic::Eval,
            intrinsic::RegExpCompiler,
            intrinsic::RegExp,
            intrinsic::Json,
            intrinsic::Proxy,
            intrinsic::MapSet,
            intrinsic::TypedArrays,
            intrinsic::Promise,
            intrinsic::WeakRef,
        );
        let context = AsyncContext::custom::<Intrinsics>(&runtime)
            .await
            .map_err(internal)?;
        let toolset = Arc::clone(&self.toolset);
        let state_in = Arc::clone(state);
        let limits_in = limits.clone();
        let names_json = self.names_json.clone();
        let source = source.to_owned();
        let result = context
            .async_with(async move |ctx| {
                run_in_context(
                    ctx,
                    &source,
                    &names_json,
                    toolset,
                    state_in,
                    limits_in,
                    deadline,
                )
                .await
            })
            .await;
        // Let the engine finish any work it still holds before it is dropped.
        runtime.run_gc().await;
        result
    }
}

/// What a run accumulates; shared with the host functions.
#[derive(Default)]
struct RunState {
    logs: Mutex<Vec<LogLine>>,
    log_bytes: Mutex<usize>,
    calls: Mutex<Vec<CallRecord>>,
    value: Mutex<Value>,
    aborted: AtomicBool,
    abort: Mutex<Option<RunError>>,
    /// Woken when the run is aborted.
    abort_waker: Mutex<Option<std::task::Waker>>,
}

impl RunState {
    /// Stops the run: the interrupt handler ends running JavaScript, and the
    /// host stops waiting.
    fn abort(&self, error: RunError) {
        if let Ok(mut slot) = self.abort.lock()
            && slot.is_none()
        {
            *slot = Some(error);
        }
        self.aborted.store(true, Ordering::SeqCst);
        if let Some(waker) = self.abort_waker.lock().ok().and_then(|mut w| w.take()) {
            waker.wake();
        }
    }

    fn abort_reason(&self) -> Option<RunError> {
        self.abort.lock().ok().and_then(|slot| slot.clone())
    }
}

fn take<V>(slot: &Mutex<Vec<V>>) -> Vec<V> {
    slot.lock()
        .map(|mut v| std::mem::take(&mut *v))
        .unwrap_or_default()
}

async fn run_in_context<'js, T: Toolset + Send + Sync + 'static>(
    ctx: Ctx<'js>,
    source: &str,
    names_json: &str,
    toolset: Arc<T>,
    state: Arc<RunState>,
    limits: Limits,
    deadline: Instant,
) -> Result<(), RunError> {
    install(&ctx, names_json, toolset, Arc::clone(&state), &limits)
        .map_err(|e| RunError::new(RunErrorKind::Internal, e.to_string()))?;
    let promise: Promise = match ctx.eval::<Promise, _>(source).catch(&ctx) {
        Ok(promise) => promise,
        Err(caught) => return Err(classify(&state, caught, deadline)),
    };
    let remaining = deadline.saturating_duration_since(Instant::now());
    let settled = promise.into_future::<rquickjs::Value>();
    let aborted = AbortWatch(Arc::clone(&state));
    let timer = futures_timer::Delay::new(remaining);
    let watch = select(Box::pin(aborted), timer);
    match select(Box::pin(settled), watch).await {
        Either::Left((Ok(value), _)) => finish(&ctx, &state, value, &limits),
        Either::Left((Err(e), _)) => {
            let caught = match e {
                rquickjs::Error::Exception => CaughtError::from_error(&ctx, e),
                other => CaughtError::Error(other),
            };
            Err(classify(&state, caught, deadline))
        }
        Either::Right((Either::Left(_), _)) => Err(state
            .abort_reason()
            .unwrap_or_else(|| RunError::new(RunErrorKind::Internal, "aborted"))),
        Either::Right((Either::Right(_), _)) => Err(timeout(&state, &limits)),
    }
}

/// Resolves when the run has been aborted (a limit was hit in a host call).
struct AbortWatch(Arc<RunState>);

impl std::future::Future for AbortWatch {
    type Output = ();
    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        if let Ok(mut slot) = self.0.abort_waker.lock() {
            *slot = Some(cx.waker().clone());
        }
        // Checked after registering, so an abort in between is not missed.
        if self.0.aborted.load(Ordering::SeqCst) {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    }
}

fn timeout(state: &RunState, limits: &Limits) -> RunError {
    let pending = state
        .calls
        .lock()
        .map(|c| c.iter().filter(|c| c.duration_ms.is_none()).count())
        .unwrap_or(0);
    let detail = if pending > 0 {
        format!("; {pending} tool call(s) were still running")
    } else {
        "; the program may be waiting on a promise that never settles".to_owned()
    };
    RunError::new(
        RunErrorKind::Timeout,
        format!(
            "the program did not finish within {:?}{detail}",
            limits.timeout
        ),
    )
}

/// Stores the program's return value as JSON, within the output limit.
fn finish<'js>(
    ctx: &Ctx<'js>,
    state: &RunState,
    value: rquickjs::Value<'js>,
    limits: &Limits,
) -> Result<(), RunError> {
    if let Some(error) = state.abort_reason() {
        return Err(error);
    }
    let json = match ctx.json_stringify(value).catch(ctx) {
        Ok(Some(text)) => text
            .to_string()
            .map_err(|e| RunError::new(RunErrorKind::Internal, e.to_string()))?,
        Ok(None) => return Ok(()),
        Err(caught) => {
            return Err(RunError::new(
                RunErrorKind::InvalidResult,
                format!("the returned value is not JSON: {}", describe(&caught)),
            ));
        }
    };
    if json.len() > limits.max_output_bytes {
        return Err(RunError::new(
            RunErrorKind::OutputLimit,
            format!(
                "the result is {} bytes; the limit is {}",
                json.len(),
                limits.max_output_bytes
            ),
        ));
    }
    let value: Value = serde_json::from_str(&json)
        .map_err(|e| RunError::new(RunErrorKind::Internal, e.to_string()))?;
    if let Ok(mut slot) = state.value.lock() {
        *slot = value;
    }
    Ok(())
}

/// Sorts an exception into a run error kind.
fn classify(state: &RunState, caught: CaughtError<'_>, deadline: Instant) -> RunError {
    if let Some(error) = state.abort_reason() {
        return error;
    }
    let text = describe(&caught);
    let lower = text.to_lowercase();
    let kind = if lower.contains("interrupted") || Instant::now() >= deadline {
        return RunError::new(
            RunErrorKind::Timeout,
            "the program did not finish within its time limit",
        );
    } else if lower.contains("out of memory") {
        RunErrorKind::OutOfMemory
    } else if lower.contains("stack overflow") || lower.contains("call stack size exceeded") {
        RunErrorKind::StackOverflow
    } else if text.starts_with("SyntaxError") {
        RunErrorKind::SyntaxError
    } else {
        RunErrorKind::Thrown
    };
    RunError::new(kind, text)
}

/// `Name: message` of an exception, or the thrown value as text.
fn describe(caught: &CaughtError<'_>) -> String {
    match caught {
        CaughtError::Exception(e) => {
            let name = e
                .as_object()
                .get::<_, Option<String>>("name")
                .ok()
                .flatten()
                .unwrap_or_else(|| "Error".to_owned());
            let message = e.message().unwrap_or_default();
            let mut text = format!("{name}: {message}");
            if let Ok(Some(tool)) = e.as_object().get::<_, Option<String>>("toolName") {
                let kind = e
                    .as_object()
                    .get::<_, Option<String>>("kind")
                    .ok()
                    .flatten()
                    .unwrap_or_default();
                text.push_str(&format!(" (tool {tool:?}, {kind})"));
            }
            text
        }
        CaughtError::Value(v) => {
            let shown = v
                .ctx()
                .json_stringify(v.clone())
                .ok()
                .flatten()
                .and_then(|s| s.to_string().ok());
            format!(
                "uncaught value: {}",
                shown.unwrap_or_else(|| format!("{:?}", v.type_of()))
            )
        }
        CaughtError::Error(e) => e.to_string(),
    }
}

/// Installs the host functions and runs the prelude, which binds exactly
/// `tools`, `ToolCallError` and `console` and hides the host functions.
fn install<'js, T: Toolset + Send + Sync + 'static>(
    ctx: &Ctx<'js>,
    names_json: &str,
    toolset: Arc<T>,
    state: Arc<RunState>,
    limits: &Limits,
) -> rquickjs::Result<()> {
    let host = Object::new(ctx.clone())?;
    host.set("names", names_json)?;
    let max_calls = limits.max_tool_calls;
    let call_state = Arc::clone(&state);
    host.set(
        "call",
        Func::from(move |name: String, args: String| {
            let toolset = Arc::clone(&toolset);
            let state = Arc::clone(&call_state);
            Promised(call_tool(toolset, state, name, args, max_calls))
        }),
    )?;
    let max_output = limits.max_output_bytes;
    let log_state = Arc::clone(&state);
    host.set(
        "log",
        Func::from(move |level: String, text: String| {
            let mut used = log_state
                .log_bytes
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            *used += text.len() + 1;
            if *used > max_output {
                log_state.abort(RunError::new(
                    RunErrorKind::OutputLimit,
                    format!("console output passed the limit of {max_output} bytes"),
                ));
                return;
            }
            if let Ok(mut logs) = log_state.logs.lock() {
                logs.push(LogLine { level, text });
            }
        }),
    )?;
    ctx.globals().set("__codemode_host", host)?;
    let prelude = include_str!("prelude.js")
        .replace("ERROR_CLASS", ERROR_CLASS)
        .replace("GLOBAL", GLOBAL);
    ctx.eval::<(), _>(prelude)
}

/// One tool call: checks the call limit, runs the tool, records it, and
/// answers the prelude with a JSON envelope.
async fn call_tool<T: Toolset + Send + Sync + 'static>(
    toolset: Arc<T>,
    state: Arc<RunState>,
    name: String,
    args: String,
    max_calls: usize,
) -> String {
    let args: Value = serde_json::from_str(&args).unwrap_or(Value::Null);
    let index = {
        let mut calls = state.calls.lock().unwrap_or_else(|e| e.into_inner());
        if calls.len() >= max_calls {
            drop(calls);
            state.abort(RunError::new(
                RunErrorKind::CallLimit,
                format!("the program made more than {max_calls} tool calls"),
            ));
            return envelope_err(&ToolCallError::new(
                &name,
                ErrorKind::ToolFailed,
                "the run's tool call limit was reached",
            ));
        }
        calls.push(CallRecord {
            name: name.clone(),
            args: args.clone(),
            duration_ms: None,
            ok: false,
            error: None,
        });
        calls.len() - 1
    };
    let started = Instant::now();
    // A panic that escapes the toolset's own handling must not take the host down.
    let result = std::panic::AssertUnwindSafe(toolset.call(&name, args))
        .catch_unwind()
        .await
        .unwrap_or_else(|_| {
            Err(ToolCallError::new(
                &name,
                ErrorKind::ToolPanicked,
                "the tool panicked",
            ))
        });
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    if let Ok(mut calls) = state.calls.lock()
        && let Some(record) = calls.get_mut(index)
    {
        record.duration_ms = Some(elapsed);
        record.ok = result.is_ok();
        record.error = result.as_ref().err().cloned();
    }
    match result {
        Ok(value) => serde_json::json!({"ok": true, "value": value}).to_string(),
        Err(error) => envelope_err(&error),
    }
}

fn envelope_err(error: &ToolCallError) -> String {
    serde_json::json!({"ok": false, "error": error}).to_string()
}
