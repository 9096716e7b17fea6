//! The error a failed tool call produces, as the SDK text promises it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a tool call failed.
///
/// Serialises as the snake_case strings the SDK declares for `ToolCallError.kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No tool has the name the program called.
    UnknownTool,
    /// The arguments did not match the tool's input schema.
    InvalidArguments,
    /// The tool ran and reported an error.
    ToolFailed,
    /// The tool panicked; the host caught it and carried on.
    ToolPanicked,
    /// The tool did not answer within the run's per-call time limit.
    Timeout,
    /// The tool's result cannot be handed to the program (for example, it
    /// nests too deeply).
    InvalidResult,
    /// The host's approval hook refused the call; the message says why.
    Denied,
    /// The tool lives in another process (an MCP server) that is not running
    /// or cannot be reached: it failed to start, exited, or closed the
    /// connection. Other tools keep working.
    Unavailable,
    /// The tool's server answered with a protocol error instead of a result
    /// (a JSON-RPC error, such as an unknown tool or a rejected request).
    ServerError,
}

impl ErrorKind {
    /// Every kind, in the order the SDK lists them.
    pub const ALL: [ErrorKind; 9] = [
        ErrorKind::UnknownTool,
        ErrorKind::InvalidArguments,
        ErrorKind::ToolFailed,
        ErrorKind::ToolPanicked,
        ErrorKind::Timeout,
        ErrorKind::InvalidResult,
        ErrorKind::Denied,
        ErrorKind::Unavailable,
        ErrorKind::ServerError,
    ];

    /// The wire name, as the SDK text spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::InvalidArguments => "invalid_arguments",
            ErrorKind::ToolFailed => "tool_failed",
            ErrorKind::ToolPanicked => "tool_panicked",
            ErrorKind::Timeout => "timeout",
            ErrorKind::InvalidResult => "invalid_result",
            ErrorKind::Denied => "denied",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::ServerError => "server_error",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed tool call: which tool, why, and a message for the program.
///
/// It serialises as `{"toolName", "kind", "message"}`, the fields the SDK's
/// `ToolCallError` class carries.
///
/// ```
/// use codemode_core::{ErrorKind, ToolCallError};
///
/// let err = ToolCallError::new("search", ErrorKind::ToolFailed, "index offline");
/// let json = serde_json::to_value(&err).unwrap();
/// assert_eq!(json["toolName"], "search");
/// assert_eq!(json["kind"], "tool_failed");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCallError {
    /// The name the program called.
    #[serde(rename = "toolName")]
    pub tool_name: String,
    /// Why the call failed.
    pub kind: ErrorKind,
    /// A human-readable explanation, shown to the program.
    pub message: String,
}

impl ToolCallError {
    /// A new error.
    pub fn new(tool_name: impl Into<String>, kind: ErrorKind, message: impl Into<String>) -> Self {
        ToolCallError {
            tool_name: tool_name.into(),
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for ToolCallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tool {:?} failed ({}): {}",
            self.tool_name, self.kind, self.message
        )
    }
}

impl std::error::Error for ToolCallError {}
