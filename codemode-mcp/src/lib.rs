#![warn(missing_docs)]
//! The MCP bridge of codemode, on [rmcp](https://docs.rs/rmcp).
//!
//! - [`McpToolset`]: the tools of one or more MCP servers (a child process
//!   over stdio, or a URL over streamable HTTP) as a codemode toolset, so a
//!   program's `tools[...]` calls reach them.
//! - [`serve`] and [`CodeModeServer`]: any toolset served as a Code Mode MCP
//!   server, whose `run_code` tool carries the SDK.
//! - [`Pin`]: an upstream tool list fixed at build time (by `codemode-build`
//!   from a `codemode snapshot`), checked for [`Drift`] at connect.
//!
//! # How upstream results become JSON
//!
//! A `tools/call` result with `isError: true` is a `ToolCallError` of kind
//! `tool_failed` carrying the server's text. Otherwise the program gets
//! `structuredContent` when the server sent it. Without it, the content
//! blocks decide: one block is its value, several are an array of their
//! values, none is `null`. A text block's value is its text parsed as JSON
//! when it parses, else the text as a string. Any other block (image, audio,
//! embedded resource, resource link) is its MCP JSON object as sent, `type`
//! included: `{"type": "image", "data": "<base64>", "mimeType": "image/png"}`.
//!
//! A JSON-RPC error answer is kind `server_error`, a server that is not
//! running (it failed to start, exited or closed the connection) is
//! `unavailable`, and no answer within the call timeout is `timeout`.
//!
//! # What is left out
//!
//! Upstream servers are used for their tools only: their resources,
//! prompts, sampling and elicitation requests are not bridged (a program
//! has no way to answer an elicitation, and sampling would need a model on
//! this side).
//!
//! # Servers that go down
//!
//! A server that exits, or fails after it was connected, is started again
//! by the next call to one of its tools. One that fails its first start
//! has no tools a call could name, so it is tried again in the background;
//! its tools join the SDK when it starts, and meanwhile a call to a name
//! with its prefix is told that the server is down, and why. Attempts that
//! fail wait 1, 2, 4 … 60 s before the next.

mod client;
mod config;
mod http;
mod output;
mod pin;
mod result;
mod serve;
mod sessions;
mod stdio;

pub use client::{
    Collisions, DEFAULT_CALL_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, McpError, McpToolset,
    McpToolsetBuilder, ServerState, ServerStatus,
};
pub use config::{ConfigError, McpConfig, ServerConfig, ServerTransport};
pub use pin::{Drift, DriftPolicy, Pin, snapshot_text};
pub use serve::{CodeModeServer, DEFAULT_MAX_RUNS, HttpServer, ServeError, Transport, serve};
pub use sessions::DEFAULT_MAX_SESSIONS;

/// rustls needs one process-wide crypto provider for HTTPS; install ring's
/// unless the host installed one.
fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
