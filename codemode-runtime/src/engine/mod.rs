//! The JavaScript engine side of a run: QuickJS on the calling thread,
//! driven step by step. It knows nothing of the toolset: tool calls leave
//! through an [`EngineIo`] and their results come back through it, so the
//! same code runs on a thread of the host and inside a worker process.

mod alloc;
pub(crate) mod prepare;
#[cfg(feature = "python")]
mod python;

/// Lets a worker process that runs a Python program measure its memory for
/// the interpreter's limit (see `python::memory`); nothing without Python.
pub(crate) fn measure_worker_memory(language: Language) {
    #[cfg(feature = "python")]
    if language == Language::Python {
        python::memory::measure_resident();
    }
    #[cfg(not(feature = "python"))]
    let _ = language;
}

use crate::outcome::{Limits, LogLine, RunError, RunErrorKind, host_memory_error, prefix};
use crate::protocol::{EngineIo, EngineOutcome, Job, Recv, ToHost};
use codemode_core::{ERROR_CLASS, GLOBAL, INDEX_GLOBAL, Language};
use rquickjs::context::intrinsic;
use rquickjs::function::Func;
use rquickjs::promise::PromiseState;
use rquickjs::{Context, Ctx, Function, Object, Promise, Runtime, Value, qjs};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Values nest at most this deep when they cross the boundary (inside
/// serde_json's own limit of 128).
pub(crate) const MAX_DEPTH: usize = 100;
/// Promise jobs one run may execute.
const MAX_JOBS: u64 = 20_000_000;
/// The stack of a thread that runs an engine: the parsers are recursive, and
/// QuickJS's own stack limit must sit well inside it.
pub(crate) const ENGINE_STACK: usize = 256 << 20;

/// Why the engine must stop, decided outside JavaScript.
struct Stop {
    deadline: Instant,
    /// The host cancelled the run.
    cancelled: Arc<AtomicBool>,
    /// An allocation was refused.
    oom: Arc<AtomicBool>,
    /// A host function ended the run (call limit, host memory, ...).
    fatal: RefCell<Option<RunError>>,
    fatal_flag: Arc<AtomicBool>,
    timeout: Duration,
}

impl Stop {
    /// The reason to stop now, if there is one.
    fn reason(&self) -> Option<RunError> {
        if let Some(error) = self.fatal.borrow().clone() {
            return Some(error);
        }
        if self.oom.load(Ordering::SeqCst) {
            return Some(RunError::new(
                RunErrorKind::OutOfMemory,
                "the program ran out of memory: it used more than the sandbox's heap allows",
            ));
        }
        if self.cancelled.load(Ordering::SeqCst) {
            return Some(RunError::new(
                RunErrorKind::Cancelled,
                "the host cancelled the run",
            ));
        }
        if Instant::now() >= self.deadline {
            return Some(timeout_error(self.timeout, None));
        }
        None
    }

    fn set_fatal(&self, error: RunError) {
        let mut slot = self.fatal.borrow_mut();
        if slot.is_none() {
            *slot = Some(error);
        }
        self.fatal_flag.store(true, Ordering::SeqCst);
    }
}

pub(crate) fn timeout_error(limit: Duration, detail: Option<&str>) -> RunError {
    let mut message = format!("the program did not finish within its time limit of {limit:?}");
    if let Some(detail) = detail {
        message.push_str("; ");
        message.push_str(detail);
    }
    RunError::new(RunErrorKind::Timeout, message)
}

/// What the host functions share with the loop.
struct Shared {
    io: RefCell<Box<dyn EngineIo>>,
    stop: Stop,
    limits: Limits,
    next_id: Cell<u64>,
    outstanding: Cell<usize>,
    calls: Cell<usize>,
    host_bytes: Cell<usize>,
    log_bytes: Cell<usize>,
}

impl Shared {
    /// Counts `bytes` against the host budget; false (and the run ends) when
    /// it would pass.
    fn charge(&self, bytes: usize) -> bool {
        let used = self.host_bytes.get().saturating_add(bytes);
        if used > self.limits.max_host_bytes {
            self.stop
                .set_fatal(host_memory_error(self.limits.max_host_bytes));
            return false;
        }
        self.host_bytes.set(used);
        true
    }

    fn send(&self, message: ToHost) {
        if !self.io.borrow_mut().send(message) {
            self.stop.cancelled.store(true, Ordering::SeqCst);
        }
    }
}

/// Runs one job to its end, in the engine of its language. The caller
/// sends the outcome. A JavaScript job uses the engine in `blank` (one made
/// ahead of the run, never used before), or builds one there; the caller
/// drops it, after sending the outcome.
pub(crate) fn run(
    job: Job,
    io: Box<dyn EngineIo>,
    cancelled: Arc<AtomicBool>,
    blank: &mut Option<Blank>,
) -> EngineOutcome {
    match job.language {
        #[cfg(feature = "python")]
        Language::Python => python::run(job, io, cancelled),
        #[cfg(not(feature = "python"))]
        Language::Python => failed(RunError::new(
            RunErrorKind::UnsupportedLanguage,
            "this build has no Python engine (enable the `python` feature of codemode)",
        )),
        Language::JavaScript | Language::TypeScript => {
            let engine = match blank {
                Some(engine) => engine,
                None => match Blank::new() {
                    Ok(engine) => blank.insert(engine),
                    Err(e) => {
                        return failed(RunError::new(
                            RunErrorKind::Internal,
                            format!("the engine could not start: {e}"),
                        ));
                    }
                },
            };
            javascript(job, io, cancelled, engine)
        }
    }
}

/// A QuickJS engine made ahead of its run: a runtime, a context and the
/// prelude installed with its host functions, with no run bound, no
/// limits and no program yet. Building one is most of a run's start, so the host makes
/// them before runs are asked for. Each serves exactly one run and is then
/// dropped, so nothing a program does can reach a later run.
pub(crate) struct Blank {
    // Fields drop in this order: the saved handles need the runtime.
    /// What the prelude's install returned: `deliver`, `finish`,
    /// `isStackOverflow` and `configure`.
    handles: rquickjs::Persistent<Object<'static>>,
    context: Context,
    runtime: Runtime,
    slot: Slot,
    limit: Arc<AtomicUsize>,
    oom: Arc<AtomicBool>,
}

/// The run a blank engine serves: empty until its run arrives.
type Slot = Rc<RefCell<Option<Rc<Shared>>>>;

impl Blank {
    /// Builds the runtime and context and installs the prelude. The error
    /// says what failed, for an `internal` outcome.
    pub(crate) fn new() -> Result<Blank, String> {
        let limit = Arc::new(AtomicUsize::new(usize::MAX));
        let oom = Arc::new(AtomicBool::new(false));
        let runtime =
            Runtime::new_with_alloc(alloc::Counting::new(Arc::clone(&limit), Arc::clone(&oom)))
                .map_err(|e| e.to_string())?;
        runtime.set_dump_flags(0);
        let context = Context::custom::<Intrinsics>(&runtime).map_err(|e| e.to_string())?;
        let slot = Slot::default();
        let handles = context.with(|ctx| {
            let installed = (|| -> rquickjs::Result<Object> {
                let install: Function = prelude_module(&ctx)?.get("default")?;
                install.call((host_object(&ctx, &slot)?,))
            })();
            match installed {
                Ok(handles) => Ok(rquickjs::Persistent::save(&ctx, handles)),
                Err(rquickjs::Error::Exception) => {
                    let thrown = ctx.catch();
                    Err(match thrown.as_exception() {
                        Some(e) => format!(
                            "the sandbox's prelude threw: {}",
                            e.message().unwrap_or_default()
                        ),
                        None => "the sandbox's prelude threw".to_owned(),
                    })
                }
                Err(e) => Err(e.to_string()),
            }
        })?;
        Ok(Blank {
            handles,
            context,
            runtime,
            slot,
            limit,
            oom,
        })
    }
}

/// Runs a JavaScript or TypeScript job.
fn javascript(
    job: Job,
    io: Box<dyn EngineIo>,
    cancelled: Arc<AtomicBool>,
    blank: &Blank,
) -> EngineOutcome {
    let limits = job.limits.clone();
    let deadline = job.deadline();
    let stop = Stop {
        deadline,
        cancelled,
        oom: Arc::clone(&blank.oom),
        fatal: RefCell::new(None),
        fatal_flag: Arc::new(AtomicBool::new(false)),
        timeout: limits.timeout,
    };
    let prepared =
        prepare::check_size(&job.code, limits.max_source_bytes).and_then(|()| match job.language {
            Language::JavaScript => prepare::javascript(&job.code),
            Language::TypeScript => prepare::typescript(&job.code),
            Language::Python => Err(RunError::new(
                RunErrorKind::UnsupportedLanguage,
                "the JavaScript engine does not run Python",
            )),
        });
    let prepared = match prepared {
        Ok(p) => p,
        Err(error) => return failed(error),
    };
    if let Some(error) = stop.reason() {
        return failed(error);
    }
    let shared = Rc::new(Shared {
        io: RefCell::new(io),
        stop,
        limits,
        next_id: Cell::new(0),
        outstanding: Cell::new(0),
        calls: Cell::new(0),
        host_bytes: Cell::new(0),
        log_bytes: Cell::new(0),
    });
    match quickjs(&job, &prepared, &shared, blank) {
        Ok(outcome) => outcome,
        Err(e) => failed(shared.stop.reason().unwrap_or_else(|| {
            RunError::new(RunErrorKind::Internal, format!("the engine failed: {e}"))
        })),
    }
}

fn failed(error: RunError) -> EngineOutcome {
    EngineOutcome {
        value: None,
        error: Some(error),
    }
}

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

fn quickjs(
    job: &Job,
    prepared: &prepare::Prepared,
    shared: &Rc<Shared>,
    blank: &Blank,
) -> rquickjs::Result<EngineOutcome> {
    let limits = &shared.limits;
    blank.limit.store(limits.memory_bytes, Ordering::Relaxed);
    let runtime = &blank.runtime;
    runtime.set_max_stack_size(limits.stack_bytes);
    let deadline = shared.stop.deadline;
    let flags = [
        Arc::clone(&shared.stop.cancelled),
        Arc::clone(&shared.stop.oom),
        Arc::clone(&shared.stop.fatal_flag),
    ];
    runtime.set_interrupt_handler(Some(Box::new(move || {
        flags.iter().any(|f| f.load(Ordering::Relaxed)) || Instant::now() >= deadline
    })));
    blank.slot.replace(Some(Rc::clone(shared)));
    blank.context.with(|ctx| {
        let handles = blank.handles.clone().restore(&ctx)?;
        let configure: Function = handles.get("configure")?;
        configure.call::<_, ()>((
            serde_json::to_string(&job.tools).unwrap_or_else(|_| "[]".to_owned()),
            (limits.memory_bytes / 16).max(1024) as f64,
        ))?;
        let prelude = Prelude {
            deliver: handles.get("deliver")?,
            finish: handles.get("finish")?,
            is_stack_overflow: handles.get("isStackOverflow")?,
        };
        drive(&ctx, prepared, shared, prelude)
    })
}

/// The handles the engine keeps into the prelude.
struct Prelude<'js> {
    deliver: Function<'js>,
    finish: Function<'js>,
    is_stack_overflow: Function<'js>,
}

fn drive<'js>(
    ctx: &Ctx<'js>,
    prepared: &prepare::Prepared,
    shared: &Rc<Shared>,
    prelude: Prelude<'js>,
) -> rquickjs::Result<EngineOutcome> {
    let promise: Promise = match compile_and_start(ctx, &prepared.source) {
        Ok(p) => p,
        Err(Stage::Compile(exception)) => {
            // The engine refused to compile it: a syntax error, whatever the
            // exception says of itself.
            if let Some(error) = shared.stop.reason() {
                return Ok(failed(error));
            }
            let (text, location) = describe(&exception, prepared);
            let deep = prelude
                .is_stack_overflow
                .call::<_, bool>((exception,))
                .unwrap_or(false);
            return Ok(failed(if deep {
                RunError::new(
                    RunErrorKind::StackOverflow,
                    "the program nests too deeply for the engine to compile it; split the deepest expression into steps",
                )
            } else {
                RunError::new(RunErrorKind::SyntaxError, text).at(location)
            }));
        }
        Err(Stage::Run(exception)) => {
            return Ok(failed(thrown(ctx, shared, &prelude, prepared, exception)));
        }
    };
    let mut jobs = 0u64;
    loop {
        // Run the queued promise jobs one at a time, checking between them.
        loop {
            if let Some(error) = shared.stop.reason() {
                return Ok(failed(error));
            }
            if promise.state() != PromiseState::Pending {
                // The program has returned; work it left queued is dropped.
                break;
            }
            match execute_job(ctx) {
                JobResult::None => break,
                JobResult::Ran => {}
                JobResult::Threw(exception) => {
                    return Ok(failed(thrown(ctx, shared, &prelude, prepared, exception)));
                }
            }
            jobs += 1;
            if jobs > MAX_JOBS {
                return Ok(failed(timeout_error(
                    shared.limits.timeout,
                    Some(&format!(
                        "the program queued more than {MAX_JOBS} promise jobs"
                    )),
                )));
            }
        }
        match promise.state() {
            PromiseState::Resolved => {
                let value: Value = promise
                    .result()
                    .unwrap_or(Ok(Value::new_undefined(ctx.clone())))?;
                return Ok(finish(ctx, shared, &prelude, value));
            }
            PromiseState::Rejected => {
                let reason = match promise.result::<Value>() {
                    Some(Err(rquickjs::Error::Exception)) => ctx.catch(),
                    Some(Ok(v)) => v,
                    _ => Value::new_undefined(ctx.clone()),
                };
                return Ok(failed(thrown(ctx, shared, &prelude, prepared, reason)));
            }
            PromiseState::Pending => {}
        }
        if shared.outstanding.get() == 0 {
            return Ok(failed(timeout_error(
                shared.limits.timeout,
                Some(
                    "the program waits on a promise that nothing can settle (no tool call is running, and the sandbox has no timers)",
                ),
            )));
        }
        let received = shared.io.borrow_mut().recv(shared.stop.deadline);
        match received {
            Recv::Reply(reply) => {
                shared
                    .outstanding
                    .set(shared.outstanding.get().saturating_sub(1));
                if !shared.charge(check_json(&reply.envelope).unwrap_or(reply.envelope.len())) {
                    continue;
                }
                match prelude.deliver.call::<_, ()>((reply.id, reply.envelope)) {
                    Ok(()) => {}
                    Err(rquickjs::Error::Exception) => {
                        let exception = ctx.catch();
                        return Ok(failed(thrown(ctx, shared, &prelude, prepared, exception)));
                    }
                    Err(e) => return Err(e),
                }
            }
            Recv::TimedOut => {
                let running = shared.outstanding.get();
                return Ok(failed(timeout_error(
                    shared.limits.timeout,
                    Some(&format!("{running} tool call(s) were still running")),
                )));
            }
            Recv::Closed => {
                shared.stop.cancelled.store(true, Ordering::SeqCst);
            }
        }
    }
}

/// Where an exception came from.
enum Stage<'js> {
    Compile(Value<'js>),
    Run(Value<'js>),
}

/// Compiles the program, then starts it: the wrapper's promise.
fn compile_and_start<'js>(ctx: &Ctx<'js>, source: &str) -> Result<Promise<'js>, Stage<'js>> {
    let mut text = source.as_bytes().to_vec();
    text.push(0); // QuickJS reads a NUL-terminated buffer.
    let raw = ctx.as_raw().as_ptr();
    // SAFETY: `text` is NUL-terminated and outlives the call; the filename is
    // a static C string; the returned values are owned and wrapped at once.
    unsafe {
        let function = qjs::JS_Eval(
            raw,
            text.as_ptr().cast(),
            (text.len() - 1) as qjs::size_t,
            c"program".as_ptr(),
            (qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_COMPILE_ONLY) as i32,
        );
        if qjs::JS_IsException(function) {
            return Err(Stage::Compile(ctx.catch()));
        }
        let started = qjs::JS_EvalFunction(raw, function);
        if qjs::JS_IsException(started) {
            return Err(Stage::Run(ctx.catch()));
        }
        let value = Value::from_raw(ctx.clone(), started);
        match value.into_promise() {
            Some(promise) => Ok(promise),
            None => Err(Stage::Run(Value::new_undefined(ctx.clone()))),
        }
    }
}

enum JobResult<'js> {
    None,
    Ran,
    Threw(Value<'js>),
}

fn execute_job<'js>(ctx: &Ctx<'js>) -> JobResult<'js> {
    let mut job_ctx = std::mem::MaybeUninit::<*mut qjs::JSContext>::uninit();
    // SAFETY: the runtime is alive and locked by the `with` we are inside;
    // QuickJS writes the context of the job it ran into `job_ctx`.
    let result = unsafe {
        let rt = qjs::JS_GetRuntime(ctx.as_raw().as_ptr());
        qjs::JS_ExecutePendingJob(rt, job_ctx.as_mut_ptr())
    };
    match result {
        0 => JobResult::None,
        r if r > 0 => JobResult::Ran,
        // One context per runtime, so the exception is on `ctx`.
        _ => JobResult::Threw(ctx.catch()),
    }
}

/// The outcome of a program that returned `value`.
fn finish<'js>(
    ctx: &Ctx<'js>,
    shared: &Shared,
    prelude: &Prelude<'js>,
    value: Value<'js>,
) -> EngineOutcome {
    if let Some(error) = shared.stop.reason() {
        return failed(error);
    }
    let converted: rquickjs::Result<Value> = prelude.finish.call((value,));
    // The program has finished: an allocation refused now was one of the
    // result's JSON, which is far past any output limit.
    let stopped = || {
        if shared.stop.oom.load(Ordering::SeqCst) {
            return Some(RunError::new(
                RunErrorKind::OutputLimit,
                format!(
                    "the result is too large to turn into JSON in the sandbox's heap, far over \
                     the limit of {} bytes; return less (a summary, or the first items)",
                    shared.limits.max_output_bytes
                ),
            ));
        }
        shared.stop.reason()
    };
    let converted = match converted {
        Ok(v) => v,
        Err(_) => {
            let _ = ctx.catch();
            return failed(stopped().unwrap_or_else(|| {
                RunError::new(
                    RunErrorKind::InvalidResult,
                    "the returned value could not be turned into JSON",
                )
            }));
        }
    };
    if let Some(object) = converted.as_object() {
        if let Some(error) = stopped() {
            return failed(error);
        }
        let problem: String = object.get("problem").unwrap_or_default();
        return failed(RunError::new(
            RunErrorKind::InvalidResult,
            format!("the returned value is not JSON: {problem}"),
        ));
    }
    let Some(text) = converted.as_string() else {
        return EngineOutcome::default();
    };
    let json = match text.to_string() {
        Ok(json) => json,
        Err(_) => {
            return failed(stopped().unwrap_or_else(|| {
                RunError::new(
                    RunErrorKind::InvalidResult,
                    "the returned value could not be read",
                )
            }));
        }
    };
    // Text cut inside an emoji has a lone surrogate, which `JSON.stringify`
    // writes as an escape and Rust strings cannot hold: it becomes U+FFFD,
    // as in `console.log`, Python's results and servers' answers.
    let (json, checked) = match check_json(&json) {
        Err(problem) if problem == LONE_SURROGATE => {
            match codemode_core::wire::mend_line(json.as_bytes()) {
                Some(mended) => {
                    let checked = check_json(&mended);
                    (mended, checked)
                }
                None => (json, Err(problem)),
            }
        }
        checked => (json, checked),
    };
    let cost = match checked {
        Ok(cost) => cost,
        Err(problem) => {
            return failed(RunError::new(
                RunErrorKind::InvalidResult,
                format!("the returned value is not JSON the host accepts: it has {problem}"),
            ));
        }
    };
    let max = shared.limits.max_output_bytes;
    if json.len() <= max && !shared.charge(cost) {
        return failed(shared.stop.reason().unwrap_or_else(|| {
            RunError::new(
                RunErrorKind::HostMemoryLimit,
                "the result passed the host's memory limit",
            )
        }));
    }
    if json.len() > max {
        let cut = prefix(&json, max.min(1024)).len();
        return failed(RunError::new(
            RunErrorKind::OutputLimit,
            format!(
                "the result is {} bytes of JSON, over the limit of {max}; return less (a summary, or the first items). It began: {}… [truncated, {} more bytes]",
                json.len(),
                &json[..cut],
                json.len() - cut
            ),
        ));
    }
    EngineOutcome {
        value: Some(json),
        error: None,
    }
}

/// What [`check_json`] says of an escaped lone surrogate.
const LONE_SURROGATE: &str = "a string with a lone surrogate";

/// Checks JSON text the engine produced for what the host cannot take:
/// nesting deeper than [`MAX_DEPTH`] and lone surrogates (which
/// `JSON.stringify` writes as escapes). Linear, without recursion. On
/// success it gives the host memory the value will take once parsed: the
/// text, plus a `serde_json::Value` node's worth for each value in it.
pub(crate) fn check_json(text: &str) -> Result<usize, String> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut nodes = 0usize;
    let mut in_string = false;
    let mut i = 0;
    let hex = |at: usize| -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'"' => in_string = false,
                b'\\' => {
                    if bytes.get(i + 1) == Some(&b'u') {
                        let unit = hex(i + 2).unwrap_or(0);
                        if (0xD800..0xDC00).contains(&unit) {
                            let low = (bytes.get(i + 6..i + 8) == Some(&b"\\u"[..]))
                                .then(|| hex(i + 8))
                                .flatten();
                            if !low.is_some_and(|l| (0xDC00..0xE000).contains(&l)) {
                                return Err(LONE_SURROGATE.to_owned());
                            }
                            i += 12;
                            continue;
                        }
                        if (0xDC00..0xE000).contains(&unit) {
                            return Err(LONE_SURROGATE.to_owned());
                        }
                        i += 6;
                        continue;
                    }
                    i += 2;
                    continue;
                }
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'[' | b'{' => {
                    depth += 1;
                    nodes += 1;
                    if depth > MAX_DEPTH {
                        return Err(format!("nesting deeper than {MAX_DEPTH} levels"));
                    }
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                b',' | b':' => nodes += 1,
                _ => {}
            }
        }
        i += 1;
    }
    Ok(text.len() + (nodes + 1) * VALUE_NODE_BYTES)
}

/// What one value costs the host once parsed (a `serde_json::Value` and its
/// share of a map or vector).
const VALUE_NODE_BYTES: usize = 48;

/// The run error for an exception that ended the program.
fn thrown<'js>(
    ctx: &Ctx<'js>,
    shared: &Shared,
    prelude: &Prelude<'js>,
    prepared: &prepare::Prepared,
    exception: Value<'js>,
) -> RunError {
    if let Some(error) = shared.stop.reason() {
        return error;
    }
    let stack_overflow = prelude
        .is_stack_overflow
        .call::<_, bool>((exception.clone(),))
        .unwrap_or_else(|_| {
            let _ = ctx.catch();
            false
        });
    let (text, location) = describe(&exception, prepared);
    // Reading the exception runs the program's getters, which may hit a limit.
    if let Some(error) = shared.stop.reason() {
        return error;
    }
    if stack_overflow {
        return RunError::new(
            RunErrorKind::StackOverflow,
            "the program recursed too deeply and exhausted the sandbox's stack",
        )
        .at(location);
    }
    RunError::new(RunErrorKind::Thrown, text).at(location)
}

/// `Name: message` of an exception (with the tool's name and kind for a
/// `ToolCallError`), or the thrown value as text; and the place of the first
/// stack frame in the program.
fn describe<'js>(
    exception: &Value<'js>,
    prepared: &prepare::Prepared,
) -> (String, Option<crate::outcome::Location>) {
    // Anything but an Error (a string, a number, a plain object or an
    // array) is shown as the value it is: its `name` and `message`, if
    // any, are the program's own data.
    let Some(object) = exception.as_object().filter(|_| exception.is_error()) else {
        // A thrown string is read as it is: quoting it in the engine would
        // take the program's heap, which a long one may not have left.
        if let Some(Ok(text)) = exception.as_string().map(rquickjs::String::to_string) {
            let kept = prefix(&text, crate::outcome::MAX_ERROR_MESSAGE_BYTES / 4);
            let shown = serde_json::to_string(kept).unwrap_or_default();
            let cut = if kept.len() < text.len() {
                format!(" (its first {} of {} bytes)", kept.len(), text.len())
            } else {
                String::new()
            };
            return (
                format!("the program threw the string {shown}{cut}, which is not an Error"),
                None,
            );
        }
        let shown = exception
            .ctx()
            .json_stringify(exception.clone())
            .ok()
            .flatten()
            .and_then(|s| s.to_string().ok())
            .map(|json| {
                let kept = prefix(&json, crate::outcome::MAX_ERROR_MESSAGE_BYTES / 4);
                if kept.len() < json.len() {
                    format!(
                        "{kept}… (the first {} of {} bytes of its JSON)",
                        kept.len(),
                        json.len()
                    )
                } else {
                    json
                }
            })
            .unwrap_or_else(|| format!("a value of type {}", exception.type_name()));
        return (
            format!("the program threw {shown}, which is not an Error"),
            None,
        );
    };
    let get = |key: &str| -> Option<String> { object.get::<_, Option<String>>(key).ok().flatten() };
    let name = get("name").unwrap_or_else(|| "Error".to_owned());
    let message = get("message").unwrap_or_default();
    let mut text = if message.is_empty() {
        name.clone()
    } else {
        format!("{name}: {message}")
    };
    if let Some(tool) = get("toolName") {
        let kind = get("kind").unwrap_or_default();
        text.push_str(&format!(" (from tool {tool:?}, kind {kind})"));
    }
    if name == "TypeError" && message.contains("not a function") {
        text.push_str(&format!(
            " (a name that is not a tool reads as undefined on `{GLOBAL}`; check the tool's exact name in the SDK)"
        ));
    }
    let location = get("stack").and_then(|stack| first_frame(&stack, prepared));
    (text, location)
}

/// The first frame of a QuickJS stack that lies in the program.
fn first_frame(stack: &str, prepared: &prepare::Prepared) -> Option<crate::outcome::Location> {
    stack.lines().find_map(|line| {
        let at = line.find("program:")?;
        let rest = &line[at + "program:".len()..];
        let mut parts = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty());
        let l: u32 = parts.next()?.parse().ok()?;
        let c: u32 = parts.next()?.parse().ok()?;
        prepared.locate(l, c)
    })
}

/// Throws an exception the program cannot catch, after recording why the
/// run must end.
fn fatal<'js>(ctx: &Ctx<'js>, shared: &Shared, error: RunError) -> rquickjs::Error {
    shared.stop.set_fatal(error);
    uncatchable(ctx)
}

fn uncatchable<'js>(ctx: &Ctx<'js>) -> rquickjs::Error {
    match rquickjs::Exception::from_message(ctx.clone(), "the run was stopped") {
        Ok(exception) => {
            let value = exception.into_value();
            // SAFETY: `value` is a live object of this context.
            unsafe { qjs::JS_SetUncatchableError(ctx.as_raw().as_ptr(), value.as_raw()) };
            ctx.throw(value)
        }
        Err(e) => e,
    }
}

/// The prelude's bytecode, compiled once per process (parsing it costs more
/// than the rest of a run's start).
static PRELUDE: std::sync::OnceLock<Result<Vec<u8>, String>> = std::sync::OnceLock::new();

fn prelude_source() -> String {
    // The index global first: its placeholder holds the tools one's.
    include_str!("../prelude.js")
        .replace("INDEX_GLOBAL", INDEX_GLOBAL)
        .replace("ERROR_CLASS", ERROR_CLASS)
        .replace("GLOBAL", GLOBAL)
}

/// The evaluated prelude module of this context.
fn prelude_module<'js>(
    ctx: &Ctx<'js>,
) -> rquickjs::Result<rquickjs::Module<'js, rquickjs::module::Evaluated>> {
    let bytecode = PRELUDE.get_or_init(|| {
        let compile = || -> rquickjs::Result<Vec<u8>> {
            let runtime = Runtime::new()?;
            let context = Context::custom::<Intrinsics>(&runtime)?;
            context.with(|ctx| {
                rquickjs::Module::declare(ctx, "prelude", prelude_source())?
                    .write(rquickjs::module::WriteOptions::default())
            })
        };
        compile().map_err(|e| e.to_string())
    });
    let module = match bytecode {
        // SAFETY: the bytes were written by this process's QuickJS, from the
        // prelude above.
        Ok(bytes) => unsafe { rquickjs::Module::load(ctx.clone(), bytes)? },
        Err(_) => rquickjs::Module::declare(ctx.clone(), "prelude", prelude_source())?,
    };
    let (module, promise) = module.eval()?;
    // The module has no top-level await: its promise settles in a job or two.
    while promise.state() == PromiseState::Pending {
        if let JobResult::None = execute_job(ctx) {
            break;
        }
    }
    promise.finish::<()>()?;
    Ok(module)
}

/// The host functions the prelude is installed with. A blank engine is
/// installed before its run exists, so they reach the run through `slot`,
/// which is filled when the run arrives.
fn host_object<'js>(ctx: &Ctx<'js>, slot: &Slot) -> rquickjs::Result<Object<'js>> {
    let host = Object::new(ctx.clone())?;
    host.set("maxDepth", MAX_DEPTH as u32)?;

    let slot_ = Rc::clone(slot);
    host.set(
        "call",
        Func::from(move |ctx: Ctx<'js>, name: String, json: rquickjs::String<'js>, units: f64| -> rquickjs::Result<Value<'js>> {
            let s = bound(&ctx, &slot_)?;
            if s.calls.get() >= s.limits.max_tool_calls {
                return Err(fatal(&ctx, &s, RunError::new(
                    RunErrorKind::CallLimit,
                    format!("the program made more than {} tool calls; batch the work into fewer calls", s.limits.max_tool_calls),
                )));
            }
            // Refused before the arguments are copied out of the engine.
            if !s.charge(units as usize) {
                return Err(uncatchable(&ctx));
            }
            let args = json.to_string()?;
            let cost = match check_json(&args) {
                Ok(cost) => cost,
                Err(problem) => return Ok(rquickjs::String::from_str(ctx, &problem)?.into_value()),
            };
            // The host holds the arguments twice (the call and its record).
            if !s.charge((2 * cost + name.len()).saturating_sub(units as usize)) {
                return Err(uncatchable(&ctx));
            }
            let id = s.next_id.get();
            s.next_id.set(id + 1);
            s.calls.set(s.calls.get() + 1);
            s.outstanding.set(s.outstanding.get() + 1);
            s.send(ToHost::Call { id, name, args });
            Ok(Value::new_number(ctx, id as f64))
        }),
    )?;

    let slot_ = Rc::clone(slot);
    host.set(
        "log",
        Func::from(move |ctx: Ctx<'js>, level: String, text: String| -> rquickjs::Result<()> {
            let s = bound(&ctx, &slot_)?;
            let bytes = text.len() + 1;
            let used = s.log_bytes.get() + bytes;
            let max = s.limits.max_output_bytes;
            if used > max {
                // Keep what fits of this line, mark the cut, and end the run.
                let mut kept = prefix(&text, max.saturating_sub(s.log_bytes.get() + 1)).to_owned();
                kept.push_str(&format!(
                    "… [console output truncated: this line had {} bytes; the limit for all output is {max} bytes]",
                    text.len()
                ));
                s.log_bytes.set(max);
                s.send(ToHost::Log(LogLine { level, text: kept }));
                return Err(fatal(&ctx, &s, RunError::new(
                    RunErrorKind::OutputLimit,
                    format!("console output passed the limit of {max} bytes; print less (a summary, or return the data instead)"),
                )));
            }
            if !s.charge(bytes) {
                return Err(uncatchable(&ctx));
            }
            s.log_bytes.set(used);
            s.send(ToHost::Log(LogLine { level, text }));
            Ok(())
        }),
    )?;

    let slot_ = Rc::clone(slot);
    host.set(
        "tick",
        Func::from(move |ctx: Ctx<'js>| -> rquickjs::Result<()> {
            // The prelude's own install ticks before a run is bound: then
            // there is nothing to stop.
            let Some(s) = slot_.borrow().clone() else {
                return Ok(());
            };
            match s.stop.reason() {
                Some(error) => Err(fatal(&ctx, &s, error)),
                None => Ok(()),
            }
        }),
    )?;

    Ok(host)
}

/// The run a host function serves.
fn bound<'js>(ctx: &Ctx<'js>, slot: &Slot) -> rquickjs::Result<Rc<Shared>> {
    slot.borrow().clone().ok_or_else(|| {
        rquickjs::Exception::throw_internal(ctx, "the sandbox has no run bound to it")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_the_host_cannot_take_is_found() {
        assert!(check_json(r#"{"a":[1,"x\"[["],"b":"\ud83d\ude00"}"#).is_ok());
        // Small values cost the host far more than their text.
        let ints = format!("[{}0]", "0,".repeat(999));
        assert!(check_json(&ints).unwrap() >= 1000 * VALUE_NODE_BYTES);
        assert!(check_json(r#"{"s":"\ud800"}"#).is_err());
        assert!(check_json(r#"{"s":"\udc00x"}"#).is_err());
        assert!(check_json(r#"{"s":"\ud800\u0041"}"#).is_err());
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(check_json(&deep).is_ok());
        // What passes the check, the host's parser takes.
        assert!(serde_json::from_str::<serde_json::Value>(&deep).is_ok());
        let deeper = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(check_json(&deeper).is_err());
    }
}
