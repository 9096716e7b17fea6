#![warn(missing_docs)]
//! codemode: Code Mode for LLM agents.
//!
//! A model writes a short program against a typed SDK instead of calling tools
//! one at a time; this crate renders that SDK from tool schemas, for
//! TypeScript/JavaScript and Python. The SDK is byte-stable for a tool set,
//! always parses, and keeps optional and nullable apart.
//!
//! ```
//! use codemode::{render, render_report, Language, ToolDef};
//! use serde_json::json;
//!
//! let tools = vec![
//!     ToolDef::new(
//!         "get_weather",
//!         json!({
//!             "type": "object",
//!             "properties": {
//!                 "city": {"type": "string", "description": "City name."},
//!                 "units": {"enum": ["metric", "imperial"]}
//!             },
//!             "required": ["city"]
//!         }),
//!     )
//!     .with_description("Current weather for a city."),
//! ];
//! let ts = render(Language::TypeScript, &tools);
//! assert!(ts.contains(r#""get_weather"(args: {"#));
//! assert!(ts.contains(r#"units?: "metric" | "imperial";"#));
//!
//! let py = render_report(Language::Python, &tools);
//! assert!(py.text.contains("async def get_weather(self, args: GetWeatherArgs) -> Any:"));
//! assert!(py.degradations.is_empty());
//! ```

pub use codemode_core::*;

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
