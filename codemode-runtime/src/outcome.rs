//! What a run produces, and the bounds it runs under. These types cross the
//! boundary between the host and a worker process, so they serialise both
//! ways.

use codemode_core::ToolCallError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// The bounds of one run. Fields are public; [`Limits::default`] suits a
/// model's short programs and cannot exhaust a machine: at most about
/// `memory_bytes + max_host_bytes` (128 MiB) per run.
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
    /// Memory the engine's heap may use.
    pub memory_bytes: usize,
    /// Stack the engine may use for the program's own recursion.
    pub stack_bytes: usize,
    /// Tool calls one run may make.
    pub max_tool_calls: usize,
    /// Bytes of console output kept (later output is dropped and counted in a
    /// marker line), and the largest result, in bytes of JSON.
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
    /// The program returned something that cannot be JSON (a BigInt, a
    /// cycle, nesting too deep, a lone surrogate).
    InvalidResult,
    /// The run was cancelled by the host (its future was dropped).
    Cancelled,
    /// This runtime does not run the language.
    UnsupportedLanguage,
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
            RunErrorKind::InvalidResult => "invalid_result",
            RunErrorKind::Cancelled => "cancelled",
            RunErrorKind::UnsupportedLanguage => "unsupported_language",
            RunErrorKind::Internal => "internal",
        }
    }
}

impl std::fmt::Display for RunErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl RunError {
    /// An error without a location.
    pub fn new(kind: RunErrorKind, message: impl Into<String>) -> Self {
        RunError {
            kind,
            message: message.into(),
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
