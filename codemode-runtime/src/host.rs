//! The host side of a run: an engine (a thread or a worker process) sends
//! tool calls and console lines; this future dispatches the calls to the
//! toolset, enforces the deadline, the call timeout and the host memory
//! budget, and assembles the outcome. It never blocks its thread: all
//! JavaScript runs elsewhere.

use crate::engine::{self, MAX_DEPTH};
use crate::hooks::{ApprovalRequest, Hooks, RunEvent};
use crate::outcome::{
    CallRecord, Limits, LogLine, RunError, RunErrorKind, RunOutcome, host_memory_error,
};
use crate::protocol::{EngineIo, EngineOutcome, Job, Recv, Reply, ToHost};
use codemode_core::{
    BoxFuture, Catalog, ErrorKind, INDEX_GLOBAL, Language, MAX_MATCHES, ToolCallError, Toolset,
};
use futures_channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};
use futures_util::stream::FuturesUnordered;
use futures_util::{FutureExt, StreamExt};
use serde_json::Value;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, OnceLock};
use std::task::Poll;
use std::time::{Duration, Instant};

/// How long past the deadline the host waits for the engine to report its
/// own timeout before it gives up on the engine.
const GRACE: Duration = Duration::from_millis(100);

/// A running engine, as the host sees it.
pub(crate) struct Connection {
    pub(crate) events: UnboundedReceiver<ToHost>,
    pub(crate) replies: Sender<Reply>,
    /// Stops the engine: sets its cancel flag, or kills its process.
    pub(crate) cancel: Box<dyn Fn() + Send + Sync>,
}

/// Cancels the engine when the run ends or its future is dropped.
struct CancelOnDrop(Box<dyn Fn() + Send + Sync>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        (self.0)();
    }
}

/// An engine on a thread of this process.
///
/// A JavaScript run goes to a spare engine thread when one is waiting: a
/// thread that has already built a fresh engine ([`engine::Blank`]) and
/// waits for a run. After its run the thread sends the outcome first, then
/// drops the engine, and builds a fresh one to wait again (while fewer
/// than [`SPARES_KEPT`] wait; otherwise it ends). No engine serves two
/// runs. With no spare waiting, a new thread builds its engine within the
/// run.
pub(crate) fn spawn_thread(job: Job) -> Connection {
    let (events_tx, events) = unbounded();
    let (replies, replies_rx) = std::sync::mpsc::channel();
    let cancelled = Arc::new(AtomicBool::new(false));
    let start = Start {
        javascript: job.language != codemode_core::Language::Python,
        job,
        io: ThreadIo {
            events: events_tx.clone(),
            replies: replies_rx,
            cancelled: Arc::clone(&cancelled),
        },
        cancelled: Arc::clone(&cancelled),
        events: events_tx,
    };
    let connection = |events| Connection {
        events,
        replies,
        cancel: Box::new(move || cancelled.store(true, Ordering::SeqCst)),
    };
    let start = if start.javascript {
        match SPARES.hand(start) {
            None => return connection(events),
            Some(start) => start,
        }
    } else {
        start
    };
    let spawned = std::thread::Builder::new()
        .name("codemode-engine".to_owned())
        .stack_size(engine::ENGINE_STACK)
        .spawn(move || engine_thread(start));
    if let Err(e) = spawned {
        let (tx, rx) = unbounded();
        let _ = tx.unbounded_send(ToHost::Done(EngineOutcome {
            value: None,
            error: Some(RunError::new(
                RunErrorKind::Internal,
                format!("the host could not start an engine thread: {e}"),
            )),
        }));
        return connection(rx);
    }
    connection(events)
}

/// How many engine threads may wait, each with a fresh engine, for the
/// next JavaScript run. Each holds a QuickJS runtime (a few hundred KiB).
pub(crate) const SPARES_KEPT: usize = 2;

/// The spare engine threads waiting for a run.
static SPARES: crate::pool::Waiting<Start> = crate::pool::Waiting::new();

/// Everything an engine thread needs for one run.
struct Start {
    javascript: bool,
    job: Job,
    io: ThreadIo,
    cancelled: Arc<AtomicBool>,
    events: UnboundedSender<ToHost>,
}

/// The body of an engine thread: the run it was started for, then, for
/// JavaScript, spare duty while fewer than [`SPARES_KEPT`] threads wait.
fn engine_thread(first: Start) {
    let mut blank: Option<engine::Blank> = None;
    let mut next = Some(first);
    while let Some(start) = next.take() {
        let Start {
            javascript,
            job,
            io,
            cancelled,
            events,
        } = start;
        // With no engine built ahead, the run builds one into `blank`.
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
            engine::run(job, Box::new(io), cancelled, &mut blank)
        }))
        .unwrap_or_else(|_| EngineOutcome {
            value: None,
            error: Some(RunError::new(
                RunErrorKind::Internal,
                "the engine stopped unexpectedly (a panic inside it was contained)",
            )),
        });
        let _ = events.unbounded_send(ToHost::Done(outcome));
        // The engine is torn down after the outcome has left, and never
        // serves another run.
        drop(blank.take());
        if !javascript || SPARES.len() >= SPARES_KEPT {
            return;
        }
        let Ok(Ok(fresh)) = std::panic::catch_unwind(engine::Blank::new) else {
            return;
        };
        blank = Some(fresh);
        next = SPARES.wait(SPARES_KEPT);
    }
}

struct ThreadIo {
    events: UnboundedSender<ToHost>,
    replies: Receiver<Reply>,
    cancelled: Arc<AtomicBool>,
}

impl EngineIo for ThreadIo {
    fn send(&mut self, message: ToHost) -> bool {
        self.events.unbounded_send(message).is_ok()
    }

    fn recv(&mut self, deadline: Instant) -> Recv {
        recv_until(&self.replies, deadline, &self.cancelled)
    }
}

/// Waits on `replies` until `deadline`, noticing cancellation within a few
/// milliseconds.
pub(crate) fn recv_until(
    replies: &Receiver<Reply>,
    deadline: Instant,
    cancelled: &AtomicBool,
) -> Recv {
    loop {
        if cancelled.load(Ordering::SeqCst) {
            return Recv::Closed;
        }
        let now = Instant::now();
        if now >= deadline {
            return Recv::TimedOut;
        }
        let wait = (deadline - now).min(Duration::from_millis(20));
        match replies.recv_timeout(wait) {
            Ok(reply) => return Recv::Reply(reply),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Recv::Closed,
        }
    }
}

type CallResult = Result<Value, ToolCallError>;
type CallFuture =
    Pin<Box<dyn Future<Output = (u64, usize, Result<Value, ToolCallError>, f64)> + Send>>;

/// Drives one run to its outcome.
/// What a run carries besides its toolset and limits.
pub(crate) struct RunContext {
    /// The names a program may call, sorted.
    pub(crate) names: Arc<Vec<String>>,
    /// The program's language, which the index's declarations are in.
    pub(crate) language: Language,
    /// The catalog the index functions answer from, made when first needed.
    pub(crate) catalog: Arc<OnceLock<Arc<Catalog>>>,
    pub(crate) hooks: Hooks,
    /// The program's description, for the approval hook.
    pub(crate) description: String,
}

pub(crate) async fn drive<T: Toolset + Send + Sync + 'static + ?Sized>(
    toolset: Arc<T>,
    context: RunContext,
    limits: &Limits,
    started: Instant,
    connection: Connection,
) -> RunOutcome {
    let Connection {
        mut events,
        replies,
        cancel,
    } = connection;
    let _cancel = CancelOnDrop(cancel);
    let RunContext {
        names,
        language,
        catalog,
        hooks,
        description,
    } = context;
    let mut index_calls = 0usize;
    let deadline = started + limits.timeout;
    let mut timer =
        futures_timer::Delay::new(deadline.saturating_duration_since(Instant::now()) + GRACE);
    let mut calls: FuturesUnordered<CallFuture> = FuturesUnordered::new();
    let mut records: Vec<CallRecord> = Vec::new();
    let mut logs: Vec<LogLine> = Vec::new();
    let mut host_bytes = 0usize;

    enum Event {
        Engine(Option<ToHost>),
        Call((u64, usize, Result<Value, ToolCallError>, f64)),
        Deadline,
    }

    let (value, error) = loop {
        let event = std::future::poll_fn(|cx| {
            if let Poll::Ready(message) = events.poll_next_unpin(cx) {
                return Poll::Ready(Event::Engine(message));
            }
            if !calls.is_empty()
                && let Poll::Ready(Some(done)) = calls.poll_next_unpin(cx)
            {
                return Poll::Ready(Event::Call(done));
            }
            if timer.poll_unpin(cx).is_ready() {
                return Poll::Ready(Event::Deadline);
            }
            Poll::Pending
        })
        .await;
        match event {
            Event::Engine(Some(ToHost::Call { id, name, args })) => {
                host_bytes += 2 * engine::check_json(&args).unwrap_or(args.len()) + name.len();
                let args: Value = match serde_json::from_str(&args) {
                    Ok(v) => v,
                    Err(_) => Value::Null,
                };
                // The index's functions: answered here, from the tool set,
                // without calling any tool. Their channel names start with
                // a NUL, which no tool name holds.
                if let Some(function) = name.strip_prefix('\0') {
                    index_calls += 1;
                    if index_calls > limits.max_tool_calls {
                        break (
                            None,
                            Some(RunError::new(
                                RunErrorKind::CallLimit,
                                format!(
                                    "the program called {INDEX_GLOBAL}'s functions more than {} times",
                                    limits.max_tool_calls
                                ),
                            )),
                        );
                    }
                    let catalog = prepared_catalog(&catalog, &*toolset);
                    let answer = index_call(catalog, language, function, &args);
                    let _ = replies.send(Reply {
                        id,
                        envelope: envelope(&answer),
                    });
                    continue;
                }
                let index = records.len();
                records.push(CallRecord {
                    name: name.clone(),
                    args: args.clone(),
                    duration_ms: None,
                    ok: false,
                    error: None,
                });
                if records.len() > limits.max_tool_calls {
                    break (
                        None,
                        Some(RunError::new(
                            RunErrorKind::CallLimit,
                            format!(
                                "the program made more than {} tool calls",
                                limits.max_tool_calls
                            ),
                        )),
                    );
                }
                if names.binary_search(&name).is_err() {
                    // Not a tool a program may call (`tools(name, args)`
                    // reaches any name): refused before the toolset sees it.
                    let list: Vec<&str> = names.iter().map(String::as_str).collect();
                    let error = codemode_core::unknown_tool_in(&*toolset, &name, &list);
                    if let Some(record) = records.get_mut(index) {
                        record.duration_ms = Some(0.0);
                        record.error = Some(error.clone());
                    }
                    let _ = replies.send(Reply {
                        id,
                        envelope: envelope(&Err(error)),
                    });
                    continue;
                }
                // The run's own deadline bounds a call anyway; a timer of its
                // own is only needed when the call limit is the tighter one.
                let left = deadline.saturating_duration_since(Instant::now());
                let call_timeout = (limits.call_timeout < left).then_some(limits.call_timeout);
                let approval = hooks.approval.clone().map(|approve| {
                    let request = ApprovalRequest {
                        tool: name.clone(),
                        args: args.clone(),
                        description: description.clone(),
                    };
                    // A hook that panics denies the call (in `call_one`).
                    let asked = std::panic::catch_unwind(AssertUnwindSafe(|| approve(request)));
                    asked.unwrap_or_else(|_| {
                        Box::pin(async { Err("the approval hook failed".to_owned()) })
                    })
                });
                if hooks.observer.is_some() {
                    hooks.emit(RunEvent::CallStarted {
                        index,
                        name: name.clone(),
                        args: args.clone(),
                    });
                }
                calls.push(call_one(
                    Arc::clone(&toolset),
                    id,
                    index,
                    name,
                    args,
                    call_timeout,
                    approval,
                ));
            }
            Event::Engine(Some(ToHost::Log(line))) => {
                host_bytes += line.text.len();
                if hooks.observer.is_some() {
                    hooks.emit(RunEvent::Log(line.clone()));
                }
                logs.push(line);
            }
            Event::Engine(Some(ToHost::Done(outcome))) => {
                let value = outcome
                    .value
                    .and_then(|json| serde_json::from_str(&json).ok());
                // Calls the program started and never waited for still run
                // to their end (or the deadline's): whether such a call
                // happens must not depend on how soon the program finished.
                while !calls.is_empty() {
                    let finished = std::future::poll_fn(|cx| {
                        if let Poll::Ready(Some(done)) = calls.poll_next_unpin(cx) {
                            return Poll::Ready(Some(done));
                        }
                        if timer.poll_unpin(cx).is_ready() {
                            return Poll::Ready(None);
                        }
                        Poll::Pending
                    })
                    .await;
                    let Some((_, index, result, elapsed)) = finished else {
                        break;
                    };
                    finish_record(&mut records, &hooks, index, &result, elapsed);
                }
                break (value, outcome.error);
            }
            Event::Engine(None) => {
                break (
                    None,
                    Some(RunError::new(
                        RunErrorKind::Internal,
                        "the engine stopped without reporting an outcome",
                    )),
                );
            }
            Event::Call((id, index, result, elapsed)) => {
                // Written only as far as the budget allows: a huge result stops
                // early instead of being serialised whole.
                let room = limits.max_host_bytes.saturating_sub(host_bytes);
                let Some(envelope) = envelope_within(&result, room) else {
                    break (None, Some(host_memory_error(limits.max_host_bytes)));
                };
                host_bytes += engine::check_json(&envelope).unwrap_or(envelope.len());
                finish_record(&mut records, &hooks, index, &result, elapsed);
                if let Ok(value) = result {
                    drop_deep(value);
                }
                if host_bytes > limits.max_host_bytes {
                    break (None, Some(host_memory_error(limits.max_host_bytes)));
                }
                let _ = replies.send(Reply { id, envelope });
            }
            Event::Deadline => {
                let running = records.iter().filter(|r| r.duration_ms.is_none()).count();
                let detail =
                    (running > 0).then(|| format!("{running} tool call(s) were still running"));
                break (
                    None,
                    Some(engine::timeout_error(limits.timeout, detail.as_deref())),
                );
            }
        }
    };
    hooks.emit(RunEvent::Finished {
        error: error.as_ref().map(|e| e.kind),
    });
    RunOutcome {
        value: if error.is_some() {
            Value::Null
        } else {
            value.unwrap_or(Value::Null)
        },
        logs,
        calls: records,
        error,
        diagnostics: Vec::new(),
    }
}

/// Writes how call `index` ended into its record, and tells the observer.
fn finish_record(
    records: &mut [CallRecord],
    hooks: &Hooks,
    index: usize,
    result: &Result<Value, ToolCallError>,
    elapsed: f64,
) {
    if let Some(record) = records.get_mut(index) {
        record.duration_ms = Some(elapsed);
        record.ok = result.is_ok();
        record.error = result.as_ref().err().cloned();
        hooks.emit(RunEvent::CallFinished {
            index,
            name: record.name.clone(),
            duration_ms: elapsed,
            error: record.error.clone(),
        });
    }
}

/// One tool call, with panics contained and the per-call timeout applied.
fn call_one<T: Toolset + Send + Sync + 'static + ?Sized>(
    toolset: Arc<T>,
    id: u64,
    index: usize,
    name: String,
    args: Value,
    call_timeout: Option<Duration>,
    approval: Option<BoxFuture<'static, Result<(), String>>>,
) -> CallFuture {
    #[cfg(feature = "tracing")]
    let span_name = name.clone();
    let call = async move {
        let started = Instant::now();
        if let Some(approval) = approval {
            let verdict = AssertUnwindSafe(approval).catch_unwind().await;
            let refusal = match verdict {
                Ok(Ok(())) => None,
                Ok(Err(reason)) => Some(format!("the host denied this call: {reason}")),
                Err(_) => {
                    Some("the host's approval check failed, so the call was not made".to_owned())
                }
            };
            if let Some(message) = refusal {
                let error = ToolCallError::new(&name, ErrorKind::Denied, message);
                return (
                    id,
                    index,
                    Err(error),
                    started.elapsed().as_secs_f64() * 1000.0,
                );
            }
        }
        let call: Pin<Box<dyn Future<Output = Option<CallResult>> + Send>> =
            if toolset.is_blocking(&name) {
                Box::pin(on_own_thread(Arc::clone(&toolset), name.clone(), args))
            } else {
                let toolset = Arc::clone(&toolset);
                let name = name.clone();
                // The toolset's `call` may panic before its future exists
                // (a handler that runs code first): that is inside too.
                Box::pin(async move {
                    AssertUnwindSafe(async move { toolset.call(&name, args).await })
                        .catch_unwind()
                        .await
                        .ok()
                })
            };
        let answered = match call_timeout {
            None => Some(call.await),
            Some(limit) => {
                let timer = futures_timer::Delay::new(limit);
                match futures_util::future::select(call, timer).await {
                    futures_util::future::Either::Left((result, _)) => Some(result),
                    futures_util::future::Either::Right(_) => None,
                }
            }
        };
        let result = match answered {
            Some(Some(result)) => result,
            Some(None) => Err(ToolCallError::new(
                &name,
                ErrorKind::ToolPanicked,
                "the tool panicked",
            )),
            None => Err(ToolCallError::new(
                &name,
                ErrorKind::Timeout,
                format!(
                    "the tool did not answer within {:?}",
                    call_timeout.unwrap_or_default()
                ),
            )),
        };
        let result = result.and_then(|value| match too_deep(&value) {
            Some(path) => {
                drop_deep(value);
                Err(ToolCallError::new(
                    &name,
                    ErrorKind::InvalidResult,
                    format!("the tool's result nests deeper than {MAX_DEPTH} levels (at {path}), which the sandbox cannot take"),
                ))
            }
            None => Ok(value),
        });
        (id, index, result, started.elapsed().as_secs_f64() * 1000.0)
    };
    #[cfg(feature = "tracing")]
    let call = tracing::Instrument::instrument(
        call,
        tracing::debug_span!("codemode.call", tool = %span_name),
    );
    Box::pin(call)
}

/// Runs a blocking tool's call on a thread of its own (a kept one when one
/// waits, see [`crate::pool`]), so it neither stalls the executor nor
/// serialises with other calls. `None` when it panicked. A run that ends
/// first stops waiting; the thread finishes on its own.
async fn on_own_thread<T: Toolset + Send + Sync + 'static + ?Sized>(
    toolset: Arc<T>,
    name: String,
    args: Value,
) -> Option<Result<Value, ToolCallError>> {
    let tool = name.clone();
    // A call that waited in the pool's queue past its run's end (or its own
    // time limit) is not made: nobody waits for it any more, and a tool
    // with effects must not act after the run was told it ended.
    match crate::pool::call(move || futures_executor::block_on(toolset.call(&name, args))).await {
        Some(result) => result.ok(),
        None => Some(Err(ToolCallError::new(
            tool,
            ErrorKind::Unavailable,
            "the host could not start a thread to run this call; try again with fewer calls at once",
        ))),
    }
}

/// The envelope, or `None` when it would pass `room` bytes.
fn envelope_within(result: &Result<Value, ToolCallError>, room: usize) -> Option<String> {
    struct Bounded {
        out: Vec<u8>,
        room: usize,
    }
    impl std::io::Write for Bounded {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            if self.out.len() + bytes.len() > self.room {
                return Err(std::io::Error::other("over the host budget"));
            }
            self.out.extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let Result::Ok(value) = result else {
        return Some(envelope(result));
    };
    let mut sink = Bounded {
        out: Vec::new(),
        room,
    };
    serde_json::to_writer(&mut sink, &Ok { ok: true, value }).ok()?;
    String::from_utf8(sink.out).ok()
}

#[derive(serde::Serialize)]
struct Ok<'a> {
    ok: bool,
    value: &'a Value,
}

#[derive(serde::Serialize)]
struct Err<'a> {
    ok: bool,
    error: &'a ToolCallError,
}

/// The check of `code` before its run, on a kept thread (see
/// [`crate::pool`]): parsing and type-checking the program, and preparing
/// the catalog on first use, take time in proportion to the program and the
/// tool list, which would otherwise hold the thread polling the run. A
/// check that cannot run (no thread, or a panic) finds nothing.
pub(crate) async fn check_off_thread<T: Toolset + Send + Sync + 'static + ?Sized>(
    cell: Arc<OnceLock<Arc<Catalog>>>,
    toolset: Arc<T>,
    language: Language,
    code: String,
) -> Vec<codemode_core::Diagnostic> {
    crate::pool::call(move || {
        prepared_catalog(&cell, &*toolset)
            .check_program_explained(language, &code, &|name| toolset.missing(name))
    })
    .await
    .and_then(Result::ok)
    .unwrap_or_default()
}

/// The catalog of `toolset`'s tools in `cell`, prepared on first use: the
/// index functions and the check before a run read the same one.
pub(crate) fn prepared_catalog<'c, T: Toolset + ?Sized>(
    cell: &'c OnceLock<Arc<Catalog>>,
    toolset: &T,
) -> &'c Catalog {
    cell.get_or_init(|| Arc::new(Catalog::from_toolset(toolset)))
}

/// What `catalog.describe(names)` and `catalog.search(query, limit)` answer.
fn index_call(
    catalog: &Catalog,
    language: Language,
    function: &str,
    args: &Value,
) -> Result<Value, ToolCallError> {
    let invalid = |usage: &str| {
        ToolCallError::new(
            format!("{INDEX_GLOBAL}.{function}"),
            ErrorKind::InvalidArguments,
            format!("{INDEX_GLOBAL}.{usage}"),
        )
    };
    match function {
        "describe" => {
            let names = match args.get("names").unwrap_or(args) {
                Value::Array(items) => items
                    .iter()
                    .map(Value::as_str)
                    .collect::<Option<Vec<&str>>>(),
                Value::String(one) => Some(vec![one.as_str()]),
                _ => None,
            };
            match names {
                Some(names) => Ok(Value::String(catalog.describe(language, &names))),
                None => Err(invalid(
                    "describe(names) takes a list of tool names, e.g. [\"a\", \"b\"]",
                )),
            }
        }
        "search" => {
            let query = args.get("query").and_then(Value::as_str);
            let limit = match args.get("limit") {
                None | Some(Value::Null) => Some(10),
                Some(n) => n
                    .as_u64()
                    .map(|n| usize::try_from(n).unwrap_or(MAX_MATCHES)),
            };
            match (query, limit) {
                (Some(query), Some(limit)) => {
                    Ok(serde_json::to_value(catalog.search(query, limit))
                        .unwrap_or(Value::Array(Vec::new())))
                }
                _ => Err(invalid(&format!(
                    "search(query, limit) takes words as a string and, if given, a count of at most {MAX_MATCHES}"
                ))),
            }
        }
        _ => Err(invalid("has only describe(names) and search(query, limit)")),
    }
}

/// The JSON envelope the prelude reads.
fn envelope(result: &Result<Value, ToolCallError>) -> String {
    let text = match result {
        Result::Ok(value) => serde_json::to_string(&Ok { ok: true, value }),
        Result::Err(error) => serde_json::to_string(&Err { ok: false, error }),
    };
    text.unwrap_or_else(|e| {
        format!(
            r#"{{"ok":false,"error":{{"toolName":"","kind":"invalid_result","message":{}}}}}"#,
            serde_json::to_string(&e.to_string()).unwrap_or_default()
        )
    })
}

/// The JSON path of the first place where `value` nests deeper than
/// [`MAX_DEPTH`], found without recursion.
pub(crate) fn too_deep(value: &Value) -> Option<String> {
    /// How a container was reached from its parent (an index into `seen`).
    enum Step<'a> {
        Root,
        Index(usize, usize),
        Key(usize, &'a str),
    }
    // Containers only; the path is spelled out only when one is too deep.
    let mut seen: Vec<Step> = vec![Step::Root];
    let mut stack: Vec<(&Value, usize, usize)> = vec![(value, 0, 0)];
    while let Some((v, depth, at)) = stack.pop() {
        let is_container = |c: &Value| matches!(c, Value::Array(_) | Value::Object(_));
        match v {
            Value::Array(_) | Value::Object(_) if depth >= MAX_DEPTH => {
                let mut parts = Vec::new();
                let mut here = at;
                loop {
                    match seen[here] {
                        Step::Root => break,
                        Step::Index(parent, i) => {
                            parts.push(format!("[{i}]"));
                            here = parent;
                        }
                        Step::Key(parent, k) => {
                            parts.push(format!(".{k}"));
                            here = parent;
                        }
                    }
                }
                parts.reverse();
                return Some(format!("${}", parts.concat()));
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate().filter(|(_, c)| is_container(c)) {
                    seen.push(Step::Index(at, i));
                    stack.push((child, depth + 1, seen.len() - 1));
                }
            }
            Value::Object(map) => {
                for (k, child) in map.iter().filter(|(_, c)| is_container(c)) {
                    seen.push(Step::Key(at, k));
                    stack.push((child, depth + 1, seen.len() - 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// Drops a value without recursion, so a deeply nested one cannot overflow
/// the host's stack.
pub(crate) fn drop_deep(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> Value {
        let mut v = Value::Null;
        for _ in 0..depth {
            v = Value::Array(vec![v]);
        }
        v
    }

    #[test]
    fn a_result_is_serialised_only_within_the_budget() {
        let big = Ok(Value::String("x".repeat(10_000)));
        assert!(envelope_within(&big, 1_000).is_none());
        assert_eq!(
            envelope_within(&Ok(Value::Bool(true)), 1_000).as_deref(),
            Some(r#"{"ok":true,"value":true}"#)
        );
    }

    #[test]
    fn depth_is_measured_without_recursion() {
        assert_eq!(too_deep(&nested(MAX_DEPTH)), None);
        assert_eq!(
            too_deep(&nested(MAX_DEPTH + 1)).map(|p| p.matches("[0]").count()),
            Some(MAX_DEPTH)
        );
        let keyed = serde_json::json!({"a": [1, {"b": nested(MAX_DEPTH)}]});
        assert_eq!(
            too_deep(&keyed).map(|p| p.chars().take(10).collect::<String>()),
            Some("$.a[1].b[0".to_owned())
        );
        drop_deep(nested(1_000_000));
    }
}
