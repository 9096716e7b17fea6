//! What a run produces, and the bounds it runs under. These types cross the
//! boundary between the host and a worker process, so they serialise both
//! ways.

use codemode_core::{Diagnostic, Severity, ToolCallError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// The bounds of one run. Fields are public; [`Limits::default`] suits a
/// model's short programs and cannot exhaust a machine. An in-process
/// JavaScript run holds at most about `memory_bytes + max_host_bytes`
/// (128 MiB). In a Python worker, the memory the program makes resident
/// counts against `memory_bytes` as it grows (read every 2 ms, and judged
/// at the interpreter's periodic checks; what the worker spends turning
/// tool calls' arguments and answers to and from JSON is left out, as
/// `max_host_bytes` bounds it), so a program ends
/// `out_of_memory` a few megabytes past it; the worker's address space is
/// bounded besides, to `memory_bytes + 2 * max_host_bytes` and a fixed 512
/// MiB (the interpreter's and allocator's own reservations) past what it
/// mapped at start, for allocations made between two checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Wall-clock time for the whole run, from the moment `run` is called:
    /// parsing, type stripping, running and waiting on tools all count.
    #[serde(with = "millis")]
    pub timeout: Duration,
    /// Wall-clock time for one tool call. A call that takes longer fails with
    /// a `ToolCallError` of kind `timeout`, which the program can catch.
    #[serde(with = "millis")]
    pub call_timeout: Duration,
    /// Memory the engine's heap may use. QuickJS counts every allocation.
    /// Python's interpreter refuses any one value larger than this; its heap
    /// as a whole is bounded only in a worker process, by the memory the
    /// program makes resident there (see above).
    pub memory_bytes: usize,
    /// Stack the JavaScript engine may use for the program's own recursion.
    /// Python programs recurse at most 200 calls deep instead.
    pub stack_bytes: usize,
    /// Tool calls one run may make.
    pub max_tool_calls: usize,
    /// Bytes of console output (the line that passes it is cut, with a
    /// marker giving its size, and the run ends with `output_limit`), and
    /// the largest result, in bytes of JSON.
    pub max_output_bytes: usize,
    /// Host memory one run may hold: tool arguments and results, console
    /// output and the call records together. A call that would pass it is
    /// refused before its arguments are copied out of the engine.
    pub max_host_bytes: usize,
    /// The largest program, in bytes of source text.
    pub max_source_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(30),
            call_timeout: Duration::from_secs(30),
            memory_bytes: 64 << 20,
            stack_bytes: 1 << 20,
            max_tool_calls: 1_000,
            max_output_bytes: 1 << 20,
            max_host_bytes: 64 << 20,
            max_source_bytes: 256 << 10,
        }
    }
}

mod millis {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
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
    /// What the check of the program found before it ran (see
    /// [`CheckPolicy`]), sorted by place.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

/// What a runtime does with a check of each program against its SDK,
/// made before the program runs (microseconds; see
/// `codemode::check_program`).
///
/// The default is [`Warn`](CheckPolicy::Warn): the check never changes what
/// a program does, so a mistake in the check cannot stop a correct program,
/// and what the program did keeps its meaning (a call to a missing tool
/// still fails as a `ToolCallError` the program can catch). The model still
/// reads every problem at once, with the outcome, instead of one failure
/// per run. A host whose tools have effects that a half-run program must
/// not cause chooses [`Deny`](CheckPolicy::Deny).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckPolicy {
    /// No check.
    Off,
    /// The program runs; what the check found travels with the outcome.
    #[default]
    Warn,
    /// A program with an error the check is certain of does not run: the
    /// outcome fails with [`RunErrorKind::CheckFailed`] and carries the
    /// diagnostics. Warnings alone do not stop it.
    Deny,
}

/// One line of console output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunError {
    /// The kind of failure.
    pub kind: RunErrorKind,
    /// What happened, written for the model that wrote the program.
    pub message: String,
    /// Where in the program, when the failure has a place: 1-based line and
    /// column in the program as it was written (TypeScript included).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub location: Option<Location>,
}

/// A place in the program as the model wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
}

/// The kinds of run failure. Each limit has its own kind, decided by the
/// host from its own state, never from what the program printed or threw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunErrorKind {
    /// The program did not finish within [`Limits::timeout`], or waits on a
    /// promise that nothing can settle any more.
    Timeout,
    /// The engine's heap reached [`Limits::memory_bytes`].
    OutOfMemory,
    /// The program's recursion reached [`Limits::stack_bytes`].
    StackOverflow,
    /// The program tried more than [`Limits::max_tool_calls`] calls.
    CallLimit,
    /// The result exceeded [`Limits::max_output_bytes`].
    OutputLimit,
    /// Tool arguments, results, output and records passed
    /// [`Limits::max_host_bytes`].
    HostMemoryLimit,
    /// The program threw (or rejected with) an exception it did not catch.
    Thrown,
    /// The program does not parse, or uses syntax the sandbox does not run.
    SyntaxError,
    /// The program's text is longer than [`Limits::max_source_bytes`]; it
    /// was not parsed.
    SourceLimit,
    /// The program returned something that cannot be JSON (a BigInt, a
    /// cycle, nesting too deep, a lone surrogate).
    InvalidResult,
    /// The run was cancelled by the host (its future was dropped).
    Cancelled,
    /// This runtime does not run the language.
    UnsupportedLanguage,
    /// The program was not run: the check before it found errors
    /// ([`CheckPolicy::Deny`]), listed in [`RunOutcome::diagnostics`].
    CheckFailed,
    /// The engine itself failed (please report it).
    Internal,
}

impl RunErrorKind {
    /// The wire name (`timeout`, `out_of_memory`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            RunErrorKind::Timeout => "timeout",
            RunErrorKind::OutOfMemory => "out_of_memory",
            RunErrorKind::StackOverflow => "stack_overflow",
            RunErrorKind::CallLimit => "call_limit",
            RunErrorKind::OutputLimit => "output_limit",
            RunErrorKind::HostMemoryLimit => "host_memory_limit",
            RunErrorKind::Thrown => "thrown",
            RunErrorKind::SyntaxError => "syntax_error",
            RunErrorKind::SourceLimit => "source_limit",
            RunErrorKind::InvalidResult => "invalid_result",
            RunErrorKind::Cancelled => "cancelled",
            RunErrorKind::UnsupportedLanguage => "unsupported_language",
            RunErrorKind::CheckFailed => "check_failed",
            RunErrorKind::Internal => "internal",
        }
    }
}

impl std::fmt::Display for RunErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The longest message a [`RunError`] keeps, in bytes.
pub(crate) const MAX_ERROR_MESSAGE_BYTES: usize = 16 * 1024;

impl RunError {
    /// An error without a location. A message past 16 KiB is cut there
    /// (a program chooses what it throws), and says its length.
    pub fn new(kind: RunErrorKind, message: impl Into<String>) -> Self {
        let mut message: String = message.into();
        if message.len() > MAX_ERROR_MESSAGE_BYTES {
            let total = message.len();
            let end = prefix(&message, MAX_ERROR_MESSAGE_BYTES).len();
            message.truncate(end);
            message.push_str(&format!("… [cut: {total} bytes in all]"));
        }
        RunError {
            kind,
            message,
            location: None,
        }
    }

    /// The same error, placed in the program.
    pub fn at(mut self, location: Option<Location>) -> Self {
        self.location = location;
        self
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)?;
        if let Some(at) = self.location {
            write!(f, " (line {}, column {})", at.line, at.column)?;
        }
        Ok(())
    }
}

impl std::error::Error for RunError {}

/// The error for passing [`Limits::max_host_bytes`].
pub(crate) fn host_memory_error(max_host_bytes: usize) -> RunError {
    RunError::new(
        RunErrorKind::HostMemoryLimit,
        format!(
            "the run's tool arguments, results and output passed the host's limit of {max_host_bytes} bytes; pass less data between the program and its tools"
        ),
    )
}

impl RunOutcome {
    /// The outcome of a run that failed before anything ran.
    pub(crate) fn failed(error: RunError) -> Self {
        RunOutcome {
            value: Value::Null,
            logs: Vec::new(),
            calls: Vec::new(),
            error: Some(error),
            diagnostics: Vec::new(),
        }
    }

    /// The outcome of a program that does not run because the check found
    /// errors in it; `None` when it found none (warnings do not count).
    pub(crate) fn refused(diagnostics: &[Diagnostic]) -> Option<Self> {
        let errors = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count();
        let first = diagnostics.iter().find(|d| d.severity == Severity::Error)?;
        let problems = if errors == 1 {
            "an error".to_owned()
        } else {
            format!("{errors} errors")
        };
        let error = RunError::new(
            RunErrorKind::CheckFailed,
            format!(
                "the program was not run: a check against the tools found {problems}, listed below; fix every one and run it again"
            ),
        )
        .at(Some(Location {
            line: first.line,
            column: first.column,
        }));
        Some(RunOutcome {
            diagnostics: diagnostics.to_vec(),
            ..RunOutcome::failed(error)
        })
    }

    /// What goes back to the model, in at most `budget_bytes` bytes:
    /// the error first (kind, place and message; never dropped), then the
    /// value as compact JSON, then the console lines. Past the budget, the
    /// value and the console are cut with markers that give the sizes left
    /// out. The same outcome always gives the same text.
    ///
    /// ```
    /// use codemode_runtime::{RunOutcome, RunError, RunErrorKind, Location};
    ///
    /// let outcome = RunOutcome {
    ///     value: serde_json::json!({"items": vec![1; 100]}),
    ///     logs: vec![],
    ///     calls: vec![],
    ///     error: None,
    ///     diagnostics: vec![],
    /// };
    /// let text = outcome.to_model_text(60);
    /// assert!(text.len() <= 60, "{text}");
    /// assert!(text.contains("bytes left out]"), "{text}");
    /// ```
    pub fn to_model_text(&self, budget_bytes: usize) -> String {
        let mut head = String::new();
        if let Some(error) = &self.error {
            head.push_str(&format!("error ({})", error.kind));
            if let Some(at) = error.location {
                head.push_str(&format!(" at line {}, column {}", at.line, at.column));
            }
            head.push_str(": ");
            head.push_str(&error.message);
            head.push('\n');
        }
        // The check's findings: a syntax error the engine reported too is
        // not said twice.
        let engine_syntax = self
            .error
            .as_ref()
            .is_some_and(|e| e.kind == RunErrorKind::SyntaxError);
        let mut listed = self
            .diagnostics
            .iter()
            .filter(|d| !(engine_syntax && d.code == codemode_core::DiagnosticCode::SyntaxError))
            .peekable();
        if listed.peek().is_some() {
            head.push_str("check:\n");
            for diagnostic in listed {
                head.push_str(&format!("{diagnostic}\n"));
            }
        }
        if head.len() >= budget_bytes {
            return cut(&head, budget_bytes);
        }
        let value = match (&self.value, &self.error) {
            (Value::Null, Some(_)) => String::new(),
            (value, _) => format!(
                "result: {}\n",
                serde_json::to_string(value).unwrap_or_default()
            ),
        };
        let mut console = String::new();
        if !self.logs.is_empty() {
            console.push_str("console:\n");
            for line in &self.logs {
                if line.level != "log" {
                    console.push_str(&format!("[{}] ", line.level));
                }
                console.push_str(&line.text);
                console.push('\n');
            }
        }
        let left = budget_bytes - head.len();
        if value.len() + console.len() <= left {
            return format!("{head}{value}{console}");
        }
        // The value gets the room the console does not need, and at least half.
        let value_room = left
            .saturating_sub(console.len())
            .max(left / 2)
            .min(value.len());
        let value_part = cut(&value, value_room);
        let console_part = cut(&console, left - value_part.len());
        format!("{head}{value_part}{console_part}")
    }
}

/// `text` in at most `room` bytes: whole, or a prefix and a marker giving
/// the bytes left out (or as much of the marker as fits). Every text this
/// crate hands a model is cut this way.
///
/// ```
/// assert_eq!(codemode_runtime::cut("hello", 10), "hello");
/// let cut = codemode_runtime::cut(&"x".repeat(100), 40);
/// assert!(cut.len() <= 40 && cut.ends_with("bytes left out]\n"));
/// ```
pub fn cut(text: &str, room: usize) -> String {
    if text.len() <= room {
        return text.to_owned();
    }
    let marker = |left: usize| format!("… [{left} bytes left out]\n");
    // The marker is longest when everything is left out.
    let longest = marker(text.len());
    if longest.len() > room {
        return prefix(&longest, room).to_owned();
    }
    let kept = prefix(text, room - longest.len());
    format!("{kept}{}", marker(text.len() - kept.len()))
}

/// At most the first `bytes` bytes of `text`, cut at a character boundary.
pub(crate) fn prefix(text: &str, bytes: usize) -> &str {
    &text[..text.floor_char_boundary(bytes)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(value: Value, logs: usize, error: Option<RunError>) -> RunOutcome {
        RunOutcome {
            value,
            logs: (0..logs)
                .map(|i| LogLine {
                    level: if i % 2 == 0 { "log" } else { "warn" }.into(),
                    text: format!("line {i}"),
                })
                .collect(),
            calls: vec![],
            error,
            diagnostics: vec![],
        }
    }

    #[test]
    fn model_text_stays_within_budget_and_keeps_the_error() {
        let error = RunError::new(RunErrorKind::Thrown, "TypeError: x is not a function")
            .at(Some(Location { line: 3, column: 7 }));
        let full = outcome(
            serde_json::json!({"a": "x".repeat(500)}),
            50,
            Some(error.clone()),
        );
        for budget in [0, 1, 10, 40, 80, 200, 700, 5000] {
            let text = full.to_model_text(budget);
            assert!(text.len() <= budget, "{budget}: {}", text.len());
            if budget >= 80 {
                assert!(
                    text.starts_with("error (thrown) at line 3, column 7: TypeError"),
                    "{text}"
                );
            }
        }
        let small = outcome(serde_json::json!([1, 2]), 2, None);
        assert_eq!(
            small.to_model_text(1000),
            "result: [1,2]\nconsole:\nline 0\n[warn] line 1\n"
        );
        assert_eq!(full.to_model_text(300), full.to_model_text(300));
    }
}
