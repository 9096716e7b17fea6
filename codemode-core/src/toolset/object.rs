//! The object-safe form of [`Toolset`], for `Box<dyn ...>` and `Arc<dyn ...>`.

use super::Toolset;
use crate::error::ToolCallError;
use crate::tool::ToolDef;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;

/// A boxed, `Send` future, as [`ToolsetObject::call_boxed`] returns it.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// [`Toolset`] in a form that can be a trait object. Every `Toolset` that is
/// `Send + Sync` is one, and `dyn ToolsetObject` is a `Toolset` again.
///
/// ```
/// use codemode_core::{DynToolset, ToolDef, Toolset, ToolsetObject};
/// use serde_json::json;
///
/// let boxed: Box<dyn ToolsetObject> = Box::new(DynToolset::new(
///     vec![ToolDef::new("ping", json!({"type": "object"}))],
///     |_name, _args| async { Ok(json!("pong")) },
/// ));
/// let out = futures_executor::block_on(boxed.call("ping", json!({})));
/// assert_eq!(out.unwrap(), "pong");
/// ```
pub trait ToolsetObject: Send + Sync {
    /// [`Toolset::defs`].
    fn defs_dyn(&self) -> Vec<ToolDef>;
    /// [`Toolset::call`], boxed.
    fn call_boxed<'a>(
        &'a self,
        name: &'a str,
        args: Value,
    ) -> BoxFuture<'a, Result<Value, ToolCallError>>;
    /// [`Toolset::is_blocking`].
    fn is_blocking_dyn(&self, name: &str) -> bool;
    /// [`Toolset::missing`].
    fn missing_dyn(&self, name: &str) -> Option<String>;
}

impl<T: Toolset + Send + Sync> ToolsetObject for T {
    fn defs_dyn(&self) -> Vec<ToolDef> {
        Toolset::defs(self)
    }

    fn call_boxed<'a>(
        &'a self,
        name: &'a str,
        args: Value,
    ) -> BoxFuture<'a, Result<Value, ToolCallError>> {
        Box::pin(Toolset::call(self, name, args))
    }

    fn is_blocking_dyn(&self, name: &str) -> bool {
        Toolset::is_blocking(self, name)
    }

    fn missing_dyn(&self, name: &str) -> Option<String> {
        Toolset::missing(self, name)
    }
}

impl Toolset for dyn ToolsetObject {
    fn defs(&self) -> Vec<ToolDef> {
        self.defs_dyn()
    }

    fn call(
        &self,
        name: &str,
        args: Value,
    ) -> impl Future<Output = Result<Value, ToolCallError>> + Send {
        let name = name.to_owned();
        async move { self.call_boxed(&name, args).await }
    }

    fn is_blocking(&self, name: &str) -> bool {
        self.is_blocking_dyn(name)
    }

    fn missing(&self, name: &str) -> Option<String> {
        self.missing_dyn(name)
    }
}
