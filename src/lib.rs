#![warn(missing_docs)]
//! codemode: Code Mode for LLM agents.
//!
//! A model writes a short program against a typed SDK instead of calling tools
//! one at a time; this crate renders that SDK from tool schemas, for
//! TypeScript/JavaScript and Python, and dispatches the program's calls to
//! Rust functions. The SDK is byte-stable for a tool set, always parses, and
//! keeps optional and nullable apart.
//!
//! # Tools from Rust
//!
//! ```
//! use codemode::{ErrorKind, Language, StaticToolset, Toolset, render};
//! use schemars::JsonSchema;
//! use serde::{Deserialize, Serialize};
//! use serde_json::json;
//!
//! /// What to convert to.
//! #[derive(Deserialize, JsonSchema)]
//! #[serde(rename_all = "snake_case")]
//! enum Unit {
//!     Celsius,
//!     Fahrenheit,
//! }
//!
//! #[derive(Serialize, JsonSchema)]
//! struct Reading {
//!     value: f64,
//!     unit: String,
//! }
//!
//! struct Thermometer;
//!
//! #[codemode::toolset]
//! impl Thermometer {
//!     /// Read the temperature.
//!     #[tool]
//!     fn read(
//!         &self,
//!         /// Celsius when left out.
//!         unit: Option<Unit>,
//!     ) -> Reading {
//!         match unit {
//!             Some(Unit::Fahrenheit) => Reading { value: 69.8, unit: "F".into() },
//!             _ => Reading { value: 21.0, unit: "C".into() },
//!         }
//!     }
//!
//!     /// Set the target temperature, in Celsius.
//!     #[tool(name = "set-target")]
//!     async fn set_target(&self, celsius: f64) -> Result<f64, String> {
//!         if (5.0..=30.0).contains(&celsius) { Ok(celsius) } else { Err(format!("{celsius} is out of range")) }
//!     }
//! }
//!
//! // The SDK the model reads:
//! let sdk = render(Language::TypeScript, &Thermometer::tool_defs());
//! assert!(sdk.contains(r#""set-target"(args: { celsius: number }): Promise<number>;"#));
//!
//! // The calls its program makes:
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let reading = Thermometer.call("read", json!({"unit": "fahrenheit"})).await.unwrap();
//! assert_eq!(reading, json!({"value": 69.8, "unit": "F"}));
//! let err = Thermometer.call("set-target", json!({"celsius": 99})).await.unwrap_err();
//! assert_eq!((err.kind, err.message.as_str()), (ErrorKind::ToolFailed, "99 is out of range"));
//! let err = Thermometer.call("set-target", json!({"celsius": "warm"})).await.unwrap_err();
//! assert_eq!(err.kind, ErrorKind::InvalidArguments);
//! # });
//! ```
//!
//! # Tools from schemas
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
//! assert!(ts.contains(r#"get_weather(args: {"#));
//! assert!(ts.contains(r#"units?: "metric" | "imperial";"#));
//!
//! let py = render_report(Language::Python, &tools);
//! assert!(py.text.contains("        city: str,  # City name.\n"));
//! assert!(py.text.contains("        units: Literal[\"metric\", \"imperial\"] = ...,\n"));
//! assert!(py.degradations.is_empty());
//! ```

// The public API, listed: what core exports for its sibling crates (the
// schema IR, fingerprints of pre-rendered texts, JSON helpers) stays there.
pub use codemode_core::{
    // Tools and their sets.
    BoxFuture,
    CallPolicy,
    // Rendering.
    Catalog,
    // The `run_code` tool and the last mile to a provider.
    DESCRIPTION_PARAMETER,
    Degradation,
    // What a check of a program finds (the check itself is feature `check`).
    Diagnostic,
    DiagnosticCode,
    DynToolset,
    // Calls and their failures.
    ERROR_CLASS,
    ErrorKind,
    // A tool set larger than its token budget: an index.
    Fit,
    Fitted,
    Flavor,
    GLOBAL,
    INDEX_GLOBAL,
    Language,
    // Tool lists from MCP servers.
    MAX_DESCRIBED,
    MAX_DESCRIBED_DOC,
    MAX_LISTED_NAMES,
    MAX_MATCHES,
    MAX_NESTING,
    ProviderCall,
    ProviderError,
    RUN_CODE,
    Rendered,
    RunCodeArgs,
    RunCodeTool,
    SUMMARY_CHARS,
    Severity,
    StaticToolset,
    Tool,
    ToolAnnotations,
    ToolCallError,
    ToolDef,
    ToolFormat,
    ToolListError,
    ToolMatch,
    ToolNameError,
    Toolset,
    ToolsetError,
    ToolsetObject,
    Toolsets,
    UnknownLanguage,
    UnknownToolFormat,
    check_tool_name,
    estimate_tokens,
    fingerprint,
    flavor,
    is_valid_prefix,
    json_schema_to_type,
    native_tool,
    native_tools,
    normalize,
    parse_tool_list,
    render,
    render_report,
    run_code_tool,
    server_prefix,
    set_render_threads,
    tool_list_from_value,
    tools_from_value_each,
    unknown_tool,
    unknown_tool_in,
};

/// The `schemars` (1.x) this crate's tools are described with: derive
/// `JsonSchema` through it to be sure the versions match.
pub use schemars;

/// Makes a free function a tool: its doc comment becomes the description,
/// its parameters the argument object, its return type the output.
///
/// ```
/// /// Add two integers.
/// #[codemode::tool]
/// fn add(
///     /// The first number.
///     a: i64,
///     /// The second number; 0 when left out.
///     b: Option<i64>,
/// ) -> i64 {
///     a + b.unwrap_or(0)
/// }
///
/// use codemode::Tool;
/// assert_eq!(<add as Tool>::NAME, "add");
/// assert_eq!(add(2, None), 2); // still an ordinary function
/// ```
///
/// - `#[tool(name = "...")]` sets the name (the function's by default).
/// - Parameters may be documented with `///`; `Option<T>` parameters may be
///   left out. One parameter marked `#[args]` can instead be the whole
///   argument object.
/// - The return type is `T`, `Result<T, E>` or `()`. An `E` that converts into
///   [`ToolCallError`] keeps its kind; any other `E: Display` fails the call
///   with its message.
/// - Gather tools into a [`Toolset`] with [`tools!`].
pub use codemode_macros::tool;

/// Implements [`Toolset`] for a type from the methods of an `impl` block that
/// are marked `#[tool]` (they take `&self`, or no receiver).
///
/// ```
/// use codemode::StaticToolset;
///
/// struct Notes {
///     notes: std::sync::Mutex<Vec<String>>,
/// }
///
/// #[codemode::toolset]
/// impl Notes {
///     /// Store a note and return how many there are.
///     #[tool]
///     fn add_note(&self, text: String) -> usize {
///         let mut notes = self.notes.lock().unwrap();
///         notes.push(text);
///         notes.len()
///     }
///
///     /// Every note, oldest first.
///     #[tool(name = "list-notes")]
///     async fn list(&self) -> Vec<String> {
///         self.notes.lock().unwrap().clone()
///     }
/// }
///
/// let names: Vec<_> = Notes::tool_defs().into_iter().map(|t| t.name).collect();
/// assert_eq!(names, ["add_note", "list-notes"]);
/// ```
pub use codemode_macros::toolset;

/// Checks a program against the SDK of a tool set before it runs (feature
/// `check`, on with `runtime`): see [`Catalog::check_program`] to check many
/// programs against one tool set.
///
/// ```
/// use codemode::{DiagnosticCode, Language, ToolDef, check_program};
/// use serde_json::json;
///
/// let tools = vec![ToolDef::new(
///     "get_weather",
///     json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
/// )];
/// let found = check_program(Language::Python, &tools, "w = await tools.get_wether(city='Oslo')");
/// assert_eq!((found[0].line, found[0].column, found[0].code), (1, 17, DiagnosticCode::UnknownTool));
/// assert!(found[0].message.ends_with("did you mean tools.get_weather?"));
/// ```
#[cfg(feature = "check")]
pub use codemode_core::check_program;

/// Runs a model's program against a [`Toolset`] in an embedded, bounded
/// sandbox: JavaScript and TypeScript in QuickJS (feature `runtime`, off
/// by default so that tools-only crates stay lean), Python in Monty (feature `python`: `PyRuntime`, and
/// `Runtime` for any language). Each program is checked against the SDK
/// first ([`runtime::CheckPolicy`]).
#[cfg(feature = "runtime")]
pub mod runtime {
    pub use codemode_runtime::*;
}

/// The MCP bridge (feature `mcp`): the tools of MCP servers as a toolset
/// ([`mcp::McpToolset`]), and any toolset served as a Code Mode MCP server
/// ([`mcp::serve`]).
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use codemode::mcp::{McpConfig, McpToolset, Transport, serve};
///
/// let config = McpConfig::load("mcp.json")?;
/// let upstream = McpToolset::connect(&config).await?;
/// serve(upstream, Transport::Stdio).await?;
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "mcp")]
pub mod mcp {
    pub use codemode_mcp::*;
}

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

/// Includes the SDK constants that `codemode_build::Sdk::emit` wrote into
/// `OUT_DIR` (in the style of tonic's `include_proto!`).
///
/// ```text
/// mod sdk {
///     codemode::include_sdk!();
/// }
/// // sdk::TYPESCRIPT, sdk::JAVASCRIPT, sdk::PYTHON, sdk::TOOL_NAMES, sdk::FINGERPRINT
/// ```
#[macro_export]
macro_rules! include_sdk {
    () => {
        include!(concat!(env!("OUT_DIR"), "/codemode/sdk.rs"));
    };
}

/// Gathers `#[codemode::tool]` functions into a [`Toolset`] type.
///
/// ```
/// /// Say hello.
/// #[codemode::tool]
/// fn greet(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// /// Say goodbye.
/// #[codemode::tool(name = "farewell")]
/// async fn bye(name: String) -> String {
///     format!("Goodbye, {name}.")
/// }
///
/// codemode::tools! {
///     /// The greeting tools.
///     pub struct Greetings { greet, bye }
/// }
///
/// use codemode::StaticToolset;
/// let names: Vec<_> = Greetings::tool_defs().into_iter().map(|t| t.name).collect();
/// assert_eq!(names, ["farewell", "greet"]);
/// ```
///
/// Two tools with the same name are a compile-time error.
#[macro_export]
macro_rules! tools {
    ($($input:tt)*) => {
        $crate::__private::tools_impl! { $crate; $($input)* }
    };
}

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
