//! Tools the host can run: the traits the program's calls are dispatched through.

use crate::error::{ErrorKind, ToolCallError};
use crate::tool::ToolDef;
use serde_json::Value;
use std::future::Future;

mod compose;
mod dynamic;
mod object;

pub use compose::{ToolsetError, Toolsets};
pub use dynamic::DynToolset;
pub use object::{BoxFuture, ToolsetObject};

/// A set of tools a program can call: their declarations and their dispatch.
///
/// `#[codemode::toolset]` implements it for an `impl` block whose methods are
/// marked `#[tool]`, and `codemode::tools!` for a group of `#[codemode::tool]`
/// functions; both also implement [`StaticToolset`], whose
/// [`StaticToolset::tool_defs`] takes no `self`, so a build script can render
/// the SDK without constructing the toolset. Tools known only at run time
/// come from [`DynToolset`]; [`Toolsets`] combines several.
///
/// The future [`Toolset::call`] returns is `Send`, so calls can run on any
/// executor thread; for a toolset with `&self` methods that means the type
/// must be `Sync`. `Arc<T>` and `Box<T>` are toolsets when `T` is, and so is
/// `dyn` [`ToolsetObject`] (the object-safe form).
pub trait Toolset {
    /// The declarations of every tool, sorted by name, as they are now.
    fn defs(&self) -> Vec<ToolDef>;

    /// Runs the tool called `name` with `args` (a JSON object; `null` counts
    /// as `{}`) and returns its JSON result.
    ///
    /// Every failure is a [`ToolCallError`] naming the tool: an unknown name
    /// (listing the known ones), arguments that do not fit (with the JSON path
    /// of the bad field), an error from the tool, a panic in the tool, or a
    /// result that cannot be serialised.
    fn call(
        &self,
        name: &str,
        args: Value,
    ) -> impl Future<Output = Result<Value, ToolCallError>> + Send;

    /// Whether the tool called `name` blocks its thread while it runs (a
    /// plain, non-async function). A runtime runs such calls on a thread of
    /// their own, so they overlap under `Promise.all` and never stall the
    /// executor. `#[tool]` on a non-async function answers `true`.
    fn is_blocking(&self, name: &str) -> bool {
        let _ = name;
        false
    }

    /// Why no tool is called `name`, when the toolset knows more than that
    /// it has none: the source that would provide it is down, say. The
    /// runtime appends it to the unknown-tool error a program gets, after
    /// a `; `. `None` (the default) adds nothing.
    fn missing(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }
}

/// The error for a call to `name`, which no tool of `toolset` has: the
/// known names, as [`unknown_tool`] lists them, and what
/// [`Toolset::missing`] says of it.
pub fn unknown_tool_in<T: Toolset + ?Sized>(
    toolset: &T,
    name: &str,
    known: &[&str],
) -> ToolCallError {
    let mut error = unknown_tool(name, known);
    if let Some(why) = toolset.missing(name) {
        error.message.push_str("; ");
        error.message.push_str(&why);
    }
    error
}

/// A toolset whose tools are fixed at compile time, so their declarations
/// are known without an instance (what a build script needs).
pub trait StaticToolset: Toolset {
    /// The declarations of every tool, sorted by name.
    fn tool_defs() -> Vec<ToolDef>;
}

/// `Arc<T>` and `Box<T>` are the toolset they point to.
macro_rules! forward_toolset {
    ($($pointer:ident)::+) => {
        impl<T: Toolset + ?Sized + Sync> Toolset for $($pointer)::+<T> {
            fn defs(&self) -> Vec<ToolDef> {
                (**self).defs()
            }

            fn call(
                &self,
                name: &str,
                args: Value,
            ) -> impl Future<Output = Result<Value, ToolCallError>> + Send {
                (**self).call(name, args)
            }

            fn is_blocking(&self, name: &str) -> bool {
                (**self).is_blocking(name)
            }

            fn missing(&self, name: &str) -> Option<String> {
                (**self).missing(name)
            }
        }
    };
}

forward_toolset!(std::sync::Arc);
forward_toolset!(Box);

/// One tool made from a free function by `#[codemode::tool]`.
///
/// The macro implements it on a marker type that has the function's name (in
/// the type namespace), so `codemode::tools!` can gather functions by name.
pub trait Tool {
    /// The name the program calls the tool by.
    const NAME: &'static str;

    /// The tool's declaration.
    fn def() -> ToolDef;

    /// Whether the tool blocks its thread while it runs (see
    /// [`Toolset::is_blocking`]).
    const BLOCKING: bool = false;

    /// Runs the tool; failures as in [`Toolset::call`].
    fn call(args: Value) -> impl Future<Output = Result<Value, ToolCallError>> + Send;
}

/// Most names the error for an unknown tool lists: past this, it lists the
/// closest ones and says how to find the rest.
pub const MAX_LISTED_NAMES: usize = 30;

/// The error for a call to a name no tool has, listing the known names (or,
/// when there are more than [`MAX_LISTED_NAMES`], the closest ones).
///
/// ```
/// use codemode_core::{ErrorKind, unknown_tool};
///
/// let err = unknown_tool("serch", &["search", "fetch"]);
/// assert_eq!(err.kind, ErrorKind::UnknownTool);
/// assert_eq!(err.message, r#"no tool is named "serch"; the tools are: "fetch", "search""#);
/// let many: Vec<String> = (0..100).map(|i| format!("files_op{i:02}")).collect();
/// let many: Vec<&str> = many.iter().map(String::as_str).collect();
/// let err = unknown_tool("files_op42x", &many);
/// assert!(err.message.starts_with(r#"no tool is named "files_op42x"; of 100 tools the closest are: "files_op42", "#));
/// ```
pub fn unknown_tool(name: &str, known: &[&str]) -> ToolCallError {
    let mut known: Vec<&str> = known.to_vec();
    known.sort_unstable();
    let quoted = |names: &[&str]| -> String {
        names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let message = if known.is_empty() {
        format!("no tool is named {name:?}; there are no tools")
    } else if known.len() <= MAX_LISTED_NAMES {
        format!(
            "no tool is named {name:?}; the tools are: {}",
            quoted(&known)
        )
    } else {
        // Closest first: the longest common start, then the fewest
        // characters apart in length; ties in name order.
        let common = |n: &str| {
            n.chars()
                .zip(name.chars())
                .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
                .count()
        };
        let mut ranked = known.clone();
        ranked.sort_by_key(|n| (std::cmp::Reverse(common(n)), n.len().abs_diff(name.len())));
        ranked.truncate(5);
        format!(
            "no tool is named {name:?}; of {} tools the closest are: {} (`{}.search(\"words\")` finds tools by what they do)",
            known.len(),
            quoted(&ranked),
            crate::INDEX_GLOBAL
        )
    };
    ToolCallError::new(name, ErrorKind::UnknownTool, message)
}
