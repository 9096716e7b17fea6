#![warn(missing_docs)]
//! The engine of codemode: the tool model, the one schema walk, and the SDK
//! printers for TypeScript/JavaScript and Python.
//!
//! Most users depend on the `codemode` facade crate, which re-exports its
//! public API. The pipeline, which a [`Catalog`] runs once per tool set:
//!
//! 1. [`normalize`] the tools: dedup by name (first wins), sort by name;
//! 2. lower each schema once into a language-neutral type IR (crate-private),
//!    recording a [`Degradation`] for every node that gets the escape hatch;
//! 3. print the IR in the target [`Language`].
//!
//! ```
//! use codemode_core::{render, Language, ToolDef};
//! use serde_json::json;
//!
//! let tools = vec![ToolDef::new("search", json!({"type": "object"}))];
//! assert_eq!(render(Language::JavaScript, &tools), render(Language::TypeScript, &tools));
//! ```

mod canonical;
mod catalog;
#[cfg(feature = "check")]
mod check;
mod diagnostic;
mod error;
mod ident;
mod index;
mod json;
mod language;
mod parallel;
mod prefetch;
mod print;
mod provider;
mod render;
mod run_code;
pub mod sandbox;
mod schema;
mod tool;
mod tool_list;
mod toolset;

pub use catalog::Catalog;
#[cfg(feature = "check")]
pub use check::check_program;
pub use diagnostic::{Diagnostic, DiagnosticCode, Severity};

/// How a program's text is read, shared with the runtimes so that the check
/// and the engine agree on it (for sibling crates; not a stable API).
#[cfg(feature = "check")]
#[doc(hidden)]
pub mod program {
    pub use crate::check::js::{
        JS_MAX_DEPTH, JS_MAX_NESTING, WRAPPER_END, WRAPPER_START, is_module_item, js_depth_past,
        wrapped_body,
    };
    pub use crate::check::python::{
        PYTHON_MAX_BRACKETS, PYTHON_MAX_DEF_NESTING, PYTHON_MAX_NESTING,
        functions_too_deep_message, python_brackets_past, universal_newlines,
    };
    pub use crate::check::{brackets_too_deep_message, line_column, nested_past, too_deep_message};
}
pub use error::{ErrorKind, ToolCallError};
/// JSON text as MCP servers send it, shared with the MCP client (for sibling
/// crates; not a stable API).
#[doc(hidden)]
pub mod wire {
    pub use crate::tool_list::{mend_line, nesting_past};
}
pub use ident::{
    ALIAS_SEPARATORS, ToolNameError, check_tool_name, is_valid_prefix, python_method_aliases,
    server_prefix,
};
pub use index::{
    Fit, Fitted, MAX_DESCRIBED, MAX_DESCRIBED_DOC, MAX_MATCHES, SUMMARY_CHARS, ToolMatch,
    estimate_tokens,
};
pub use language::{ERROR_CLASS, GLOBAL, INDEX_GLOBAL, Language, UnknownLanguage};
pub use parallel::set_render_threads;
pub use provider::{ProviderCall, ProviderError, RunCodeArgs, native_tool, native_tools};
pub use render::{
    Rendered, fingerprint, fingerprint_texts, json_schema_to_type, render, render_report,
};
pub use run_code::{
    DESCRIPTION_PARAMETER, Flavor, RUN_CODE, RunCodeTool, ToolFormat, UnknownToolFormat, flavor,
    run_code_tool,
};
pub use schema::Degradation;
pub use tool::{CallPolicy, ToolAnnotations, ToolDef, normalize};
pub use tool_list::{
    MAX_NESTING, ToolListError, json_kind, parse_tool_list, tool_list_from_value,
    tools_from_value_each,
};
pub use toolset::{
    BoxFuture, DynToolset, MAX_LISTED_NAMES, StaticToolset, Tool, Toolset, ToolsetError,
    ToolsetObject, Toolsets, unknown_tool, unknown_tool_in,
};
