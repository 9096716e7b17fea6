//! The Python engine: pydantic's Monty, driven one suspension at a time.
//! This module and [`source`] are the only code that names Monty or the
//! ruff parser, so a move to a later Monty touches nothing else.
//!
//! The program runs as a module with `tools` (a host object: an attribute
//! call suspends the run and becomes a tool call) and `ToolCallError` bound.
//! A tool call resumes at once with a pending future, so calls started
//! together (under `asyncio.gather`) reach the host together; when every
//! task waits, the engine waits for replies and resumes with what arrived.
//!
//! Monty checks its own time and recursion limits; the rest is the host's:
//! the wall clock across tool waits, the call cap, the output cap and the
//! host budget. Every step runs under `catch_unwind`, and the interpreter
//! only sees a program that [`source::prepare`] has bounded.

mod source;

use super::{MAX_DEPTH, check_json, timeout_error};

pub(crate) mod memory;
use crate::outcome::{Limits, Location, LogLine, RunError, RunErrorKind, host_memory_error};
use crate::protocol::{EngineIo, EngineOutcome, Job, Recv, ToHost};
use codemode_core::{ERROR_CLASS, GLOBAL, INDEX_GLOBAL, ToolCallError};
use monty::{MontyRun, RunProgress};
use monty_types::{
    CompileOptions, DictPairs, ExcType, ExtFunctionResult, MontyClassInstance, MontyClassType,
    MontyException, MontyObject, MontyType, MontyUuid, NameLookupResult, PrintWriter,
    PrintWriterCallback, ResourceLimits, ResourceTracker,
};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The file name tracebacks give the program.
const FILE: &str = "program.py";
/// Ids of the host object that stands for `tools`, and of its class.
const TOOLS_ID: u128 = 0xC0DE_0001;
const TOOLS_CLASS_ID: u128 = 0xC0DE_0002;
/// Ids of the host object that stands for the index global (`catalog`),
/// and of its class.
const INDEX_ID: u128 = 0xC0DE_0004;
const INDEX_CLASS_ID: u128 = 0xC0DE_0005;
/// The index global's functions.
const INDEX_FUNCTIONS: [&str; 2] = ["describe", "search"];
/// The id of the class of failed calls; its instances count up from it.
const FAILED_CLASS_ID: u128 = 0xC0DE_0003 << 64;
/// The built-in exception a tool failure arrives as ([`source::FAILURE_TYPE`]).
const FAILURE: ExcType = ExcType::PermissionError;
/// How deep the program's own calls may recurse.
const MAX_RECURSION: usize = 200;

/// What the sandbox lacks, for errors about files, the environment and
/// the network.
const NO_OS: &str = "the sandbox has no files, environment, clock or network; reach the outside only through `tools`";

/// Runs one Python job to its end.
pub(crate) fn run(job: Job, io: Box<dyn EngineIo>, cancelled: Arc<AtomicBool>) -> EngineOutcome {
    let limits = job.limits.clone();
    let deadline = job.deadline();
    let mut engine = Engine {
        out: Printer {
            io,
            host_bytes: 0,
            max_host_bytes: limits.max_host_bytes,
            line: String::new(),
            bytes: 0,
            max: limits.max_output_bytes,
            over: false,
            host_over: false,
        },
        limits,
        deadline,
        cancelled,
        fatal: None,
        calls: 0,
        failed: 0,
        unraised: BTreeSet::new(),
        outstanding: BTreeSet::new(),
        failures: BTreeMap::new(),
        aliases: codemode_core::python_method_aliases(job.tools.iter().map(String::as_str))
            .into_iter()
            .map(|(method, tool)| (method, tool.to_owned()))
            .collect(),
    };
    let outcome = match catch_unwind(AssertUnwindSafe(|| engine.run(&job))) {
        Ok(outcome) => outcome,
        Err(_) => Err(RunError::new(
            RunErrorKind::Internal,
            "the Python interpreter failed on this program (the failure was contained); rewrite the construct the error points near, or report it",
        )),
    };
    engine.out.flush();
    match outcome {
        Ok(value) => EngineOutcome {
            value: Some(value),
            error: None,
        },
        Err(error) => EngineOutcome {
            value: None,
            error: Some(engine.fatal.take().unwrap_or(error)),
        },
    }
}

struct Engine {
    /// The way to the host, shared with `print`.
    out: Printer,
    limits: Limits,
    deadline: Instant,
    cancelled: Arc<AtomicBool>,
    /// Why the run must end, decided by the host side (limits, cancel).
    fatal: Option<RunError>,
    calls: usize,
    /// Failed calls so far (each gets an object of its own).
    failed: u64,
    /// The failed calls whose objects were not raised yet.
    unraised: BTreeSet<u64>,
    /// Tool calls sent and not yet answered.
    outstanding: BTreeSet<u32>,
    /// The message of each failure raised into the program, with its tool
    /// and kind (what `e.toolName` and `e.kind` read).
    failures: BTreeMap<String, (String, String)>,
    /// The methods the SDK declares for tools whose names cannot be
    /// methods (`get_sum` for `get-sum`), with their tools, by method.
    aliases: Vec<(String, String)>,
}

/// The way to the host, and `print`: each whole line goes to the host as it
/// is printed, within the output limit and the host budget.
struct Printer {
    io: Box<dyn EngineIo>,
    host_bytes: usize,
    max_host_bytes: usize,
    /// The line being printed.
    line: String,
    /// Bytes printed so far.
    bytes: usize,
    max: usize,
    /// The output limit was passed.
    over: bool,
    /// The host budget was passed.
    host_over: bool,
}

impl PrintWriterCallback for Printer {
    fn stdout_write(&mut self, output: Cow<'_, str>) -> Result<(), MontyException> {
        self.push(&output)
    }

    fn stdout_push(&mut self, end: char) -> Result<(), MontyException> {
        let mut buf = [0u8; 4];
        self.push(end.encode_utf8(&mut buf))
    }
}

impl Printer {
    /// Counts `bytes` against the host budget; false when it would pass.
    fn charge(&mut self, bytes: usize) -> bool {
        let used = self.host_bytes.saturating_add(bytes);
        if used > self.max_host_bytes {
            self.host_over = true;
            return false;
        }
        self.host_bytes = used;
        true
    }

    /// Sends one line to the host.
    fn send_line(&mut self, text: String) {
        if !self.charge(text.len() + 1) {
            return;
        }
        let _ = self.io.send(ToHost::Log(LogLine {
            level: "log".to_owned(),
            text,
        }));
    }

    /// Sends what is left of the last line.
    fn flush(&mut self) {
        if !self.line.is_empty() {
            let text = std::mem::take(&mut self.line);
            self.send_line(text);
        }
    }

    fn push(&mut self, text: &str) -> Result<(), MontyException> {
        if self.over || self.host_over {
            return Err(output_exception(self.max));
        }
        for piece in text.split_inclusive('\n') {
            let used = self.bytes + piece.len();
            if used > self.max {
                self.line.push_str(crate::outcome::prefix(
                    piece,
                    self.max.saturating_sub(self.bytes),
                ));
                self.line.push_str(&format!(
                    "… [print output truncated: the limit for all output is {} bytes]",
                    self.max
                ));
                let line = std::mem::take(&mut self.line);
                self.send_line(line);
                self.bytes = self.max;
                self.over = true;
                return Err(output_exception(self.max));
            }
            self.bytes = used;
            match piece.strip_suffix('\n') {
                Some(rest) => {
                    self.line.push_str(rest);
                    let line = std::mem::take(&mut self.line);
                    self.send_line(line);
                    if self.host_over {
                        return Err(output_exception(self.max));
                    }
                }
                None => self.line.push_str(piece),
            }
        }
        Ok(())
    }
}

fn output_exception(max: usize) -> MontyException {
    MontyException::new(
        ExcType::MemoryError,
        Some(format!("print output passed the limit of {max} bytes")),
    )
}

/// What a run of the interpreter gave back.
type Step = Result<RunProgress, MontyException>;

impl Engine {
    fn run(&mut self, job: &Job) -> Result<String, RunError> {
        super::prepare::check_length(&job.code, self.limits.max_source_bytes)?;
        let program = source::prepare(&job.code)?;
        self.check()?;
        let compiled = MontyRun::new(
            program.source.clone(),
            FILE,
            vec![
                GLOBAL.to_owned(),
                INDEX_GLOBAL.to_owned(),
                source::FIELD_HOST.to_owned(),
                source::TOOL_HOST.to_owned(),
                source::RAISE_HOST.to_owned(),
                source::FAILED_CLASS.to_owned(),
                source::UNRAISED_HOST.to_owned(),
            ],
            CompileOptions::default(),
        )
        .map_err(|e| self.compile_error(&e, &program))?;
        self.check()?;
        let limits = ResourceLimits {
            max_duration: Some(self.remaining()),
            max_memory: Some(self.limits.memory_bytes),
            max_recursion_depth: MAX_RECURSION,
            ..ResourceLimits::default()
        };
        let inputs = vec![
            tools_object(),
            index_object(),
            MontyObject::Function {
                name: source::FIELD_HOST.to_owned(),
                docstring: None,
            },
            MontyObject::Function {
                name: source::TOOL_HOST.to_owned(),
                docstring: None,
            },
            MontyObject::Function {
                name: source::RAISE_HOST.to_owned(),
                docstring: None,
            },
            MontyObject::Type(MontyType::Instance(Box::new(failed_class()))),
            MontyObject::Function {
                name: source::UNRAISED_HOST.to_owned(),
                docstring: None,
            },
        ];
        memory::arm();
        let mut step = self.resume(|p| compiled.start(inputs, ResourceTracker::new(limits), p));
        loop {
            let progress = match step {
                Ok(progress) => progress,
                Err(exception) => return Err(self.thrown(&exception, &program)),
            };
            step = match progress {
                RunProgress::Complete(value) => {
                    self.check()?;
                    return self.result(value);
                }
                RunProgress::FunctionCall(call) => self.function_call(call),
                RunProgress::ResolveFutures(waiting) => {
                    let pending: Vec<u32> = waiting.pending_call_ids().to_vec();
                    match self.wait(&pending) {
                        Ok(results) => self.resume(|p| waiting.resume(results, p)),
                        Err(error) => {
                            let exception = abort_exception(&error);
                            self.fatal.get_or_insert(error);
                            self.resume(|p| waiting.abort(exception, p))
                        }
                    }
                }
                RunProgress::NameLookup(lookup) => {
                    // `tools.x` as a value, `getattr` and `hasattr`: the
                    // tools there are, and no others.
                    let answer = match lookup.object_id() {
                        Some(id)
                            if id == MontyUuid::from_u128(TOOLS_ID)
                                && job.tools.binary_search(&lookup.name).is_ok() =>
                        {
                            NameLookupResult::Value(tool_function(&lookup.name))
                        }
                        Some(id) if id == MontyUuid::from_u128(TOOLS_ID) => {
                            match self.alias_of(&lookup.name) {
                                Some(tool) => NameLookupResult::Value(tool_function(tool)),
                                None => NameLookupResult::Undefined,
                            }
                        }
                        Some(id)
                            if id == MontyUuid::from_u128(INDEX_ID)
                                && INDEX_FUNCTIONS.contains(&lookup.name.as_str()) =>
                        {
                            NameLookupResult::Value(MontyObject::Function {
                                name: format!("{INDEX_GLOBAL}.{}", lookup.name),
                                docstring: None,
                            })
                        }
                        _ => NameLookupResult::Undefined,
                    };
                    self.resume(|p| lookup.resume(answer, p))
                }
                RunProgress::OsCall(os) => {
                    let error = MontyException::new(
                        ExcType::OSError,
                        Some(format!("{}(): {NO_OS}", os.function_call.name())),
                    );
                    self.resume(|p| os.resume(error, p))
                }
            };
        }
    }

    /// Runs one step of the interpreter with the printer attached, contained.
    fn resume(&mut self, step: impl FnOnce(PrintWriter<'_>) -> Step) -> Step {
        step(PrintWriter::Callback(&mut self.out))
    }

    /// The tool a method the SDK declares in place of its name stands for.
    fn alias_of(&self, method: &str) -> Option<&str> {
        let i = self
            .aliases
            .binary_search_by(|(m, _)| m.as_str().cmp(method))
            .ok()?;
        Some(&self.aliases[i].1)
    }

    /// A call the program made: a tool, the failure-field helper, or a name
    /// that is not defined.
    fn function_call(&mut self, call: monty::FunctionCall) -> Step {
        if let Some(name) = method_of(&call, TOOLS_ID, GLOBAL) {
            let name = match self.alias_of(&name) {
                Some(tool) => tool.to_owned(),
                None => name,
            };
            return self.tool_call(call, name);
        }
        if let Some(function) = method_of(&call, INDEX_ID, INDEX_GLOBAL) {
            return self.index_call(call, &function);
        }
        if call.object_id.is_none() && call.function_name == source::TOOL_HOST {
            let answer = match call.args.as_slice() {
                [MontyObject::String(name)] => ExtFunctionResult::Return(tool_function(name)),
                _ => ExtFunctionResult::Error(MontyException::new(
                    ExcType::TypeError,
                    Some(format!("a tool is named by a str: {GLOBAL}[\"name\"]")),
                )),
            };
            return self.resume(|p| call.resume(answer, p));
        }
        if call.object_id.is_none() && call.function_name == source::UNRAISED_HOST {
            let answer = MontyObject::Bool(!self.unraised.is_empty());
            return self.resume(|p| call.resume(answer, p));
        }
        if call.object_id.is_none() && call.function_name == source::RAISE_HOST {
            let answer = match call.args.as_slice() {
                [MontyObject::ClassInstance(failed)]
                    if failed.class_type.id == MontyUuid::from_u128(FAILED_CLASS_ID) =>
                {
                    self.raise_failed(failed)
                }
                _ => ExtFunctionResult::Return(MontyObject::None),
            };
            return self.resume(|p| call.resume(answer, p));
        }
        if call.object_id.is_none() && call.function_name == source::FIELD_HOST {
            let answer = self.failure_field(&call.args);
            return self.resume(|p| call.resume(answer, p));
        }
        let missing = ExtFunctionResult::NotFound(call.function_name.clone());
        self.resume(|p| call.resume(missing, p))
    }

    fn tool_call(&mut self, call: monty::FunctionCall, name: String) -> Step {
        // Turning the arguments into JSON is the host's work (see `wait`);
        // it ends before the program runs on, in `send_call`.
        let host = memory::HostWork::starts();
        let args = match call_arguments(&name, &call.args, &call.kwargs) {
            Ok(args) => args,
            Err(exception) => {
                drop(host);
                return self.resume(|p| call.resume(exception, p));
            }
        };
        self.send_call(call, name, args, host)
    }

    /// `catalog.describe(names)` or `catalog.search(query, limit)`: sent to
    /// the host, which answers from the tool set, on a channel name no tool
    /// can have (it starts with a NUL). It counts as a call.
    fn index_call(&mut self, call: monty::FunctionCall, function: &str) -> Step {
        let params: &[&str] = match function {
            "describe" => &["names"],
            "search" => &["query", "limit"],
            _ => &[],
        };
        let mut args = serde_json::Map::new();
        let given = call
            .args
            .iter()
            .enumerate()
            .map(|(i, value)| (params.get(i).copied(), value))
            .chain(call.kwargs.iter().map(|(key, value)| {
                let key = match key {
                    MontyObject::String(key) => params.iter().copied().find(|p| p == key),
                    _ => None,
                };
                (key, value)
            }));
        for (param, value) in given {
            let Some(param) = param else {
                let usage = match function {
                    "describe" => "describe(names)",
                    "search" => "search(query, limit=10)",
                    _ => "describe(names) and search(query, limit)",
                };
                let exception = self.invalid_arguments(
                    function,
                    format!("{INDEX_GLOBAL} has {usage}: check the arguments"),
                );
                return self.resume(|p| call.resume(exception, p));
            };
            match to_json(value, MAX_DEPTH) {
                Ok(json) => {
                    args.insert(param.to_owned(), json);
                }
                Err(problem) => {
                    let exception = self.invalid_arguments(
                        function,
                        format!("{INDEX_GLOBAL}.{function}(): {problem}"),
                    );
                    return self.resume(|p| call.resume(exception, p));
                }
            }
        }
        let host = memory::HostWork::starts();
        self.send_call(call, format!("\0{function}"), Value::Object(args), host)
    }

    /// The failure a call of `catalog.{function}` with arguments it cannot
    /// take raises: the same `invalid_arguments` as the host's answer to
    /// arguments of the wrong type, so one `except` catches both.
    fn invalid_arguments(&mut self, function: &str, message: String) -> MontyException {
        let kind = codemode_core::ErrorKind::InvalidArguments
            .as_str()
            .to_owned();
        (self.failures).insert(
            message.clone(),
            (format!("{INDEX_GLOBAL}.{function}"), kind),
        );
        MontyException::new(FAILURE, Some(message))
    }

    /// Sends a call with JSON `args` to the host and leaves it pending;
    /// `host` ends before the program runs on.
    fn send_call(
        &mut self,
        mut call: monty::FunctionCall,
        name: String,
        args: Value,
        host: memory::HostWork,
    ) -> Step {
        // The interpreter counts only its own running time; from here on it
        // may run for what is left of the wall clock.
        let tracker = call.tracker_mut();
        tracker.set_max_duration(tracker.elapsed() + self.remaining());
        if let Err(error) = self.check() {
            let exception = abort_exception(&error);
            self.fatal.get_or_insert(error);
            drop(host);
            return self.resume(|p| call.abort(exception, p));
        }
        if self.calls >= self.limits.max_tool_calls {
            let error = RunError::new(
                RunErrorKind::CallLimit,
                format!(
                    "the program made more than {} tool calls; batch the work into fewer calls",
                    self.limits.max_tool_calls
                ),
            );
            let exception = abort_exception(&error);
            self.fatal = Some(error);
            drop(host);
            return self.resume(|p| call.abort(exception, p));
        }
        let text = args.to_string();
        let cost = check_json(&text).unwrap_or(text.len());
        if !self.charge(2 * cost + name.len()) {
            let exception = abort_exception(
                self.fatal
                    .as_ref()
                    .unwrap_or(&host_memory_error(self.limits.max_host_bytes)),
            );
            drop(host);
            return self.resume(|p| call.abort(exception, p));
        }
        self.calls += 1;
        self.outstanding.insert(call.call_id);
        let sent = self.out.io.send(ToHost::Call {
            id: u64::from(call.call_id),
            name,
            args: text,
        });
        if !sent {
            self.cancelled.store(true, Ordering::SeqCst);
        }
        drop(args);
        drop(host);
        self.resume(|p| call.resume_pending(p))
    }

    /// `e.toolName` / `e.kind` of an exception.
    fn failure_field(&self, args: &[MontyObject]) -> ExtFunctionResult {
        let (Some(object), Some(MontyObject::String(field))) = (args.first(), args.get(1)) else {
            return ExtFunctionResult::Error(MontyException::new(
                ExcType::TypeError,
                Some("expected an exception and an attribute name".to_owned()),
            ));
        };
        if let MontyObject::Exception {
            exc_type,
            arg: Some(message),
        } = object
            && *exc_type == FAILURE
            && let Some((tool, kind)) = self.failures.get(message)
        {
            let value = if field == "toolName" { tool } else { kind };
            return ExtFunctionResult::Return(MontyObject::String(value.clone()));
        }
        let type_name = match object {
            MontyObject::Exception { exc_type, .. } => exc_type.to_string(),
            other => other.type_name().to_owned(),
        };
        ExtFunctionResult::Error(MontyException::new(
            ExcType::AttributeError,
            Some(format!(
                "'{type_name}' object has no attribute '{field}' (only a {ERROR_CLASS} raised by a tool call has `toolName` and `kind`)"
            )),
        ))
    }

    /// Waits until at least one of `pending` is answered, then takes every
    /// answer already there.
    fn wait(&mut self, pending: &[u32]) -> Result<Vec<(u32, ExtFunctionResult)>, RunError> {
        // Reading and converting the answers takes memory that
        // `max_host_bytes` bounds, not the program's limit.
        let _host = memory::HostWork::starts();
        self.check()?;
        let waiting: BTreeSet<u32> = pending
            .iter()
            .copied()
            .filter(|id| self.outstanding.contains(id))
            .collect();
        if waiting.is_empty() {
            return Err(timeout_error(
                self.limits.timeout,
                Some(
                    "the program waits on something that nothing can finish (no tool call is running)",
                ),
            ));
        }
        let mut results = Vec::new();
        let mut deadline = self.deadline;
        loop {
            match self.out.io.recv(deadline) {
                Recv::Reply(reply) => {
                    let Ok(id) = u32::try_from(reply.id) else {
                        continue;
                    };
                    if !self.outstanding.remove(&id) {
                        continue;
                    }
                    if !self.charge(check_json(&reply.envelope).unwrap_or(reply.envelope.len())) {
                        return Err(self
                            .fatal
                            .clone()
                            .unwrap_or_else(|| host_memory_error(self.limits.max_host_bytes)));
                    }
                    if waiting.contains(&id) {
                        results.push((id, self.reply(&reply.envelope)));
                        // Take what else has arrived, without waiting.
                        deadline = Instant::now();
                    }
                }
                Recv::TimedOut if !results.is_empty() => return Ok(results),
                Recv::TimedOut => {
                    self.check()?;
                    return Err(timeout_error(
                        self.limits.timeout,
                        Some(&format!(
                            "{} tool call(s) were still running",
                            self.outstanding.len()
                        )),
                    ));
                }
                Recv::Closed => {
                    self.cancelled.store(true, Ordering::SeqCst);
                    self.check()?;
                }
            }
        }
    }

    /// Raises the failure a failed call's object stands for. Its message is
    /// the tool's, so `e.toolName` and `e.kind` are found by the message:
    /// the failure raised last with it.
    fn raise_failed(&mut self, failed: &MontyClassInstance) -> ExtFunctionResult {
        let field = |name: &str| {
            (&failed.attrs).into_iter().find_map(|(k, v)| match (k, v) {
                (MontyObject::String(k), MontyObject::String(v)) if k == name => Some(v.clone()),
                _ => None,
            })
        };
        let message = field("message").unwrap_or_default();
        if let (Some(tool), Some(kind)) = (field("tool"), field("kind")) {
            self.failures.insert(message.clone(), (tool, kind));
        }
        let id = u128::from_be_bytes(*failed.instance_id.as_bytes()).wrapping_sub(FAILED_CLASS_ID);
        if let Ok(id) = u64::try_from(id) {
            self.unraised.remove(&id);
        }
        ExtFunctionResult::Error(MontyException::new(FAILURE, Some(message)))
    }

    /// A tool's reply as the program sees it: the value, or a failure.
    fn reply(&mut self, envelope: &str) -> ExtFunctionResult {
        #[derive(serde::Deserialize)]
        struct Envelope {
            #[serde(default)]
            value: Value,
            error: Option<ToolCallError>,
        }
        let parsed: Envelope = match serde_json::from_str(envelope) {
            Ok(parsed) => parsed,
            Err(e) => {
                return ExtFunctionResult::Error(MontyException::new(
                    ExcType::RuntimeError,
                    Some(format!(
                        "the host sent a reply the sandbox cannot read: {e}"
                    )),
                ));
            }
        };
        if let Some(error) = parsed.error {
            // Resolved with an object that stands for the failure: the
            // check around the `await` raises it there (see `source`).
            self.failed += 1;
            self.unraised.insert(self.failed);
            let text = |s: String| MontyObject::String(s);
            return ExtFunctionResult::Return(MontyObject::ClassInstance(Box::new(
                MontyClassInstance {
                    class_type: failed_class(),
                    instance_id: MontyUuid::from_u128(FAILED_CLASS_ID + u128::from(self.failed)),
                    attrs: DictPairs::from(vec![
                        (text("message".to_owned()), text(error.message)),
                        (text("tool".to_owned()), text(error.tool_name)),
                        (text("kind".to_owned()), text(error.kind.to_string())),
                    ]),
                },
            )));
        }
        ExtFunctionResult::Return(to_python(parsed.value))
    }

    /// The program's value as JSON text, within the limits.
    fn result(&mut self, value: MontyObject) -> Result<String, RunError> {
        let json = to_json(&value, MAX_DEPTH).map_err(|problem| {
            RunError::new(
                RunErrorKind::InvalidResult,
                format!("the returned value is not JSON: {problem}"),
            )
        })?;
        let text = json.to_string();
        let max = self.limits.max_output_bytes;
        if text.len() > max {
            return Err(RunError::new(
                RunErrorKind::OutputLimit,
                format!(
                    "the result is {} bytes of JSON, over the limit of {max}; return less (a summary, or the first items). It began: {}",
                    text.len(),
                    crate::outcome::cut(&text, max.min(1024))
                ),
            ));
        }
        let cost = check_json(&text).unwrap_or(text.len());
        if !self.charge(cost) {
            return Err(host_memory_error(self.limits.max_host_bytes));
        }
        Ok(text)
    }

    /// Counts `bytes` against the host budget; false (and the run ends)
    /// when it would pass.
    fn charge(&mut self, bytes: usize) -> bool {
        if self.out.charge(bytes) {
            return true;
        }
        self.fatal
            .get_or_insert_with(|| host_memory_error(self.limits.max_host_bytes));
        false
    }

    fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// The reason to stop now, if there is one.
    fn check(&mut self) -> Result<(), RunError> {
        if let Some(error) = self.stopped() {
            return Err(error);
        }
        if Instant::now() >= self.deadline {
            return Err(timeout_error(self.limits.timeout, None));
        }
        Ok(())
    }

    /// A reason to stop that the host decided (a limit, the cancel), apart
    /// from the clock.
    fn stopped(&mut self) -> Option<RunError> {
        if let Some(error) = &self.fatal {
            return Some(error.clone());
        }
        if self.out.host_over {
            let error = host_memory_error(self.limits.max_host_bytes);
            self.fatal = Some(error.clone());
            return Some(error);
        }
        if self.out.over {
            let error = RunError::new(
                RunErrorKind::OutputLimit,
                format!(
                    "print output passed the limit of {} bytes; print less (a summary, or return the data instead)",
                    self.limits.max_output_bytes
                ),
            );
            self.fatal = Some(error.clone());
            return Some(error);
        }
        if self.cancelled.load(Ordering::SeqCst) {
            return Some(RunError::new(
                RunErrorKind::Cancelled,
                "the host cancelled the run",
            ));
        }
        None
    }

    /// The run error for a program the interpreter would not compile.
    fn compile_error(&self, exception: &MontyException, program: &source::Rewritten) -> RunError {
        let location = self.place(exception, program);
        let message = exception.message().unwrap_or_default();
        let text = match exception.exc_type() {
            ExcType::NotImplementedError => {
                // Monty says "The monty syntax parser does not yet support X".
                let what = message
                    .split_once("does not yet support ")
                    .map_or(message, |(_, what)| what);
                format!(
                    "the sandbox's Python does not support {what}; write it with plain functions, dicts and lists"
                )
            }
            // The bytecode's own bounds (a jump's offset, the stack a
            // function needs, its length), which name no part of the program.
            _ if message.starts_with("function too large")
                || message.starts_with("function bytecode too large") =>
            {
                "the program is too large for the sandbox's Python to compile: one expression, literal or function is too long; split it into several statements, and build long lists in a loop".to_owned()
            }
            _ => exception.summary(),
        };
        RunError::new(RunErrorKind::SyntaxError, text).at(location)
    }

    /// The run error for an exception that ended the program.
    fn thrown(&mut self, exception: &MontyException, program: &source::Rewritten) -> RunError {
        if let Some(error) = self.stopped() {
            return error;
        }
        let location = self.place(exception, program);
        let message = exception.message().unwrap_or_default();
        match exception.exc_type() {
            ExcType::TimeoutError if is_time_limit(exception) => {
                return timeout_error(self.limits.timeout, None);
            }
            ExcType::MemoryError if message.starts_with("memory limit exceeded") => {
                return RunError::new(
                    RunErrorKind::OutOfMemory,
                    format!(
                        "the program ran out of memory: it used more than the sandbox allows ({message})"
                    ),
                )
                .at(location);
            }
            ExcType::RecursionError => {
                return RunError::new(
                    RunErrorKind::StackOverflow,
                    format!(
                        "the program recursed more than {MAX_RECURSION} calls deep; use a loop instead"
                    ),
                )
                .at(location);
            }
            _ => {}
        }
        if Instant::now() >= self.deadline {
            return timeout_error(self.limits.timeout, None);
        }
        let mut text = exception.summary();
        if exception.exc_type() == FAILURE {
            // `ToolCallError` is this type, and the interpreter never raises it.
            text = match self.failures.get(message) {
                Some((tool, kind)) => {
                    format!("{ERROR_CLASS}: {message} (from tool {tool:?}, kind {kind})")
                }
                None => format!("{ERROR_CLASS}: {message}"),
            };
        } else if exception.exc_type() == ExcType::NameError {
            text.push_str(&format!(
                " (besides Python's built-ins the sandbox binds only `{GLOBAL}` and `{ERROR_CLASS}`; it has no files, network, clock, `eval` or `exec`, so reach the outside through `{GLOBAL}`)"
            ));
        } else if matches!(
            exception.exc_type(),
            ExcType::ModuleNotFoundError | ExcType::ImportError
        ) {
            text.push_str(
                " (the sandbox's Python has only asyncio, json, math, re, datetime, collections, itertools, functools, dataclasses and typing; reach the outside through `tools`)",
            );
        }
        RunError::new(RunErrorKind::Thrown, text).at(location)
    }

    /// The innermost frame in the program, in the program's own lines.
    fn place(&self, exception: &MontyException, program: &source::Rewritten) -> Option<Location> {
        exception
            .traceback()
            .iter()
            .rev()
            .filter(|frame| frame.filename == FILE)
            .find_map(|frame| program.locate(frame.start.line, frame.start.column))
    }
}

fn is_time_limit(exception: &MontyException) -> bool {
    exception.exc_type() == ExcType::TimeoutError
        && exception
            .message()
            .is_some_and(|m| m.starts_with("time limit exceeded"))
}

/// The exception that ends the run at a suspension (the program cannot
/// catch it); the run's outcome is the host's own error, not this.
fn abort_exception(error: &RunError) -> MontyException {
    MontyException::new(ExcType::RuntimeError, Some(error.message.clone()))
}

/// The function value that calls the tool `name`.
fn tool_function(name: &str) -> MontyObject {
    MontyObject::Function {
        name: format!("{GLOBAL}.{name}"),
        docstring: None,
    }
}

/// The host class whose instances stand for failed calls.
fn failed_class() -> MontyClassType {
    MontyClassType {
        name: "ToolFailure".to_owned(),
        id: MontyUuid::from_u128(FAILED_CLASS_ID),
        host_defined: true,
        is_dataclass: false,
        attrs: DictPairs::default(),
    }
}

/// The method of the host object `id` (bound as `global`) that `call`
/// reaches: called on the object, or fetched from it first as a value
/// (a function named `global.method`; no identifier holds a dot).
fn method_of(call: &monty::FunctionCall, id: u128, global: &str) -> Option<String> {
    match call.object_id {
        Some(object) => (object == MontyUuid::from_u128(id)).then(|| call.function_name.clone()),
        None => call
            .function_name
            .strip_prefix(global)
            .and_then(|rest| rest.strip_prefix('.'))
            .map(str::to_owned),
    }
}

/// The host object that stands for the index global (`catalog`).
fn index_object() -> MontyObject {
    MontyObject::ClassInstance(Box::new(MontyClassInstance {
        class_type: MontyClassType {
            name: "Catalog".to_owned(),
            id: MontyUuid::from_u128(INDEX_CLASS_ID),
            host_defined: true,
            is_dataclass: false,
            attrs: DictPairs::default(),
        },
        instance_id: MontyUuid::from_u128(INDEX_ID),
        attrs: DictPairs::default(),
    }))
}

/// The host object that stands for `tools`.
fn tools_object() -> MontyObject {
    MontyObject::ClassInstance(Box::new(MontyClassInstance {
        class_type: MontyClassType {
            name: "Tools".to_owned(),
            id: MontyUuid::from_u128(TOOLS_CLASS_ID),
            host_defined: true,
            is_dataclass: false,
            attrs: DictPairs::default(),
        },
        instance_id: MontyUuid::from_u128(TOOLS_ID),
        attrs: DictPairs::default(),
    }))
}

/// A call's arguments as one JSON value: the one positional argument, the
/// keyword arguments as an object, or `{}` for none.
fn call_arguments(
    name: &str,
    args: &[MontyObject],
    kwargs: &[(MontyObject, MontyObject)],
) -> Result<Value, MontyException> {
    let type_error = |message: String| MontyException::new(ExcType::TypeError, Some(message));
    let value = match (args, kwargs.is_empty()) {
        ([], true) => return Ok(Value::Object(serde_json::Map::new())),
        ([one], true) => to_json(one, MAX_DEPTH),
        ([], false) => {
            let pairs: Vec<(MontyObject, MontyObject)> = kwargs.to_vec();
            to_json(&MontyObject::Dict(DictPairs::from(pairs)), MAX_DEPTH)
        }
        _ => {
            return Err(type_error(format!(
                "tools.{name}() takes one dict of arguments (or keyword arguments), not {} positional and {} keyword arguments",
                args.len(),
                kwargs.len()
            )));
        }
    };
    value.map_err(|problem| {
        type_error(format!(
            "the arguments of tools.{name}() must be JSON values (dict, list, str, int, float, bool, None): {problem}"
        ))
    })
}

/// A Python value as JSON, or what stops it being JSON (with its path).
fn to_json(value: &MontyObject, depth: usize) -> Result<Value, String> {
    fn walk(value: &MontyObject, path: &mut String, depth: usize) -> Result<Value, String> {
        if depth == 0 {
            return Err(format!("at {path}: nesting deeper than {MAX_DEPTH} levels"));
        }
        Ok(match value {
            MontyObject::None => Value::Null,
            MontyObject::Bool(b) => Value::Bool(*b),
            MontyObject::Int(i) => Value::from(*i),
            MontyObject::BigInt(big) => match u64::try_from(big) {
                Ok(u) => Value::from(u),
                Err(_) => {
                    // Its bit length, not its digits: printing a huge int
                    // costs time quadratic in its size.
                    return Err(format!(
                        "at {path}: an integer of {} bits (JSON numbers here fit in 64 bits; pass a str)",
                        big.bits()
                    ));
                }
            },
            MontyObject::Float(f) => match json_float(*f) {
                Some(n) => n,
                None => {
                    return Err(format!(
                        "at {path}: the float {f} (JSON has no NaN or infinity)"
                    ));
                }
            },
            MontyObject::String(s) => Value::String(s.clone()),
            MontyObject::List(items) | MontyObject::Tuple(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    out.push(walk(item, path, depth - 1)?);
                    path.truncate(len);
                }
                Value::Array(out)
            }
            MontyObject::Dict(pairs) => {
                let mut out = serde_json::Map::new();
                for (key, item) in pairs {
                    let key = match key {
                        MontyObject::String(s) => s.clone(),
                        other => {
                            return Err(format!(
                                "at {path}: a dict key of type {} (JSON keys are strings)",
                                other.type_name()
                            ));
                        }
                    };
                    let len = path.len();
                    path.push_str(&format!("[{key:?}]"));
                    let item = walk(item, path, depth - 1)?;
                    path.truncate(len);
                    out.insert(key, item);
                }
                Value::Object(out)
            }
            // What the engine shows only by its repr: a call or `gather`
            // never awaited is the usual one.
            MontyObject::Repr(shown)
                if shown.starts_with("<coroutine") || shown.starts_with("<gather(") =>
            {
                return Err(format!(
                    "at {path}: a call that was never awaited; write `await` before it"
                ));
            }
            MontyObject::Repr(shown) => {
                return Err(format!(
                    "at {path}: {shown} (use dict, list, str, int, float, bool or None)"
                ));
            }
            other => {
                return Err(format!(
                    "at {path}: a value of type {} (use dict, list, str, int, float, bool or None)",
                    other.type_name()
                ));
            }
        })
    }
    walk(value, &mut "$".to_owned(), depth + 1)
}

/// A float as JavaScript would send it in JSON: an integral value that fits
/// a 64-bit integer as that integer, so that `n / 2` reaches a tool taking
/// an integer as it would from a JavaScript program; any other finite value
/// as a float. `None` for NaN and the infinities.
fn json_float(f: f64) -> Option<Value> {
    // 2^63 and 2^64, which doubles hold exactly.
    const I64_END: f64 = 9_223_372_036_854_775_808.0;
    const U64_END: f64 = 18_446_744_073_709_551_616.0;
    if f.fract() == 0.0 {
        // Integral and within range, so each cast is exact.
        if (-I64_END..I64_END).contains(&f) {
            return Some(Value::from(f as i64));
        }
        if (0.0..U64_END).contains(&f) {
            return Some(Value::from(f as u64));
        }
    }
    serde_json::Number::from_f64(f).map(Value::Number)
}

/// A JSON value as the Python value the program sees.
fn to_python(value: Value) -> MontyObject {
    match value {
        Value::Null => MontyObject::None,
        Value::Bool(b) => MontyObject::Bool(b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                MontyObject::Int(i)
            } else if let Some(u) = n.as_u64() {
                MontyObject::BigInt(u.into())
            } else {
                MontyObject::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => MontyObject::String(s),
        Value::Array(items) => MontyObject::List(items.into_iter().map(to_python).collect()),
        Value::Object(map) => MontyObject::Dict(
            map.into_iter()
                .map(|(k, v)| (MontyObject::String(k), to_python(v)))
                .collect(),
        ),
    }
}
