//! Tools known only at run time: declarations plus one async handler.

use super::object::BoxFuture;
use super::{Toolset, unknown_tool};
use crate::error::ToolCallError;
use crate::tool::{ToolDef, normalize, unique_sorted};
use serde_json::Value;
use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;

type Handler =
    dyn Fn(String, Value) -> BoxFuture<'static, Result<Value, ToolCallError>> + Send + Sync;

/// A toolset built at run time from declarations and a handler: plugins, an
/// MCP server's tools, per-user sets. Its SDK renders through the same code
/// as a compiled toolset's, so it is just as byte-stable.
///
/// Declarations are normalised as everywhere (the first of a duplicate name
/// wins, sorted by name); a call to a name they do not declare fails with
/// `unknown_tool` before the handler runs.
///
/// ```
/// use codemode_core::{DynToolset, ErrorKind, Language, ToolDef, Toolset, render};
/// use serde_json::json;
///
/// let tools = DynToolset::new(
///     vec![ToolDef::new("add", json!({
///         "type": "object",
///         "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
///         "required": ["a", "b"]
///     }))],
///     |name, args| async move {
///         match name.as_str() {
///             "add" => Ok(json!(args["a"].as_f64().unwrap_or(0.0) + args["b"].as_f64().unwrap_or(0.0))),
///             _ => unreachable!("only declared names reach the handler"),
///         }
///     },
/// );
/// assert!(render(Language::TypeScript, &tools.defs()).contains(r#"add(args: { a: number; b: number })"#));
/// let sum = futures_executor::block_on(tools.call("add", json!({"a": 1, "b": 2})));
/// assert_eq!(sum.unwrap(), json!(3.0));
/// let err = futures_executor::block_on(tools.call("sub", json!({}))).unwrap_err();
/// assert_eq!(err.kind, ErrorKind::UnknownTool);
/// ```
#[derive(Clone)]
pub struct DynToolset {
    defs: Arc<Vec<ToolDef>>,
    names: Arc<BTreeSet<String>>,
    handler: Arc<Handler>,
}

impl DynToolset {
    /// A toolset declaring `defs`, whose calls `handler` answers with the
    /// tool's name and its arguments.
    pub fn new<F, Fut>(defs: Vec<ToolDef>, handler: F) -> Self
    where
        F: Fn(String, Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ToolCallError>> + Send + 'static,
    {
        let kept: Vec<ToolDef> = unique_sorted(&defs).into_iter().cloned().collect();
        let names = kept.iter().map(|d| d.name.clone()).collect();
        DynToolset {
            defs: Arc::new(kept),
            names: Arc::new(names),
            handler: Arc::new(move |name, args| Box::pin(handler(name, args))),
        }
    }

    /// The names a program may call, sorted.
    pub fn program_names(&self) -> Vec<&str> {
        normalize(&self.defs)
            .into_iter()
            .map(|d| d.name.as_str())
            .collect()
    }
}

impl std::fmt::Debug for DynToolset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynToolset")
            .field("tools", &self.names)
            .finish_non_exhaustive()
    }
}

impl Toolset for DynToolset {
    fn defs(&self) -> Vec<ToolDef> {
        self.defs.as_ref().clone()
    }

    fn call(
        &self,
        name: &str,
        args: Value,
    ) -> impl Future<Output = Result<Value, ToolCallError>> + Send {
        let known = self.names.contains(name);
        let future = known.then(|| (self.handler)(name.to_owned(), args));
        let names = Arc::clone(&self.names);
        let name = name.to_owned();
        async move {
            match future {
                Some(future) => future.await,
                None => {
                    let list: Vec<&str> = names.iter().map(String::as_str).collect();
                    Err(unknown_tool(&name, &list))
                }
            }
        }
    }
}
