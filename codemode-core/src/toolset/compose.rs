//! Several toolsets as one: each as it is or under a prefix, optionally
//! filtered to the names a user may call.

use super::object::ToolsetObject;
use super::{Toolset, unknown_tool_in};
use crate::error::ToolCallError;
use crate::tool::ToolDef;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::future::Future;
use std::sync::Arc;

/// A toolset made of toolsets.
///
/// Each member is added as it is ([`Toolsets::with`]) or with a prefix on
/// every name ([`Toolsets::with_prefix`]: `gh_` + `search` is `gh_search`).
/// A name two members would share is an error that names the tool, never a
/// silent shadow. [`Toolsets::allow`] keeps only the names a user may call,
/// and the SDK then shows exactly those.
///
/// ```
/// use codemode_core::{DynToolset, ToolDef, Toolset, Toolsets};
/// use serde_json::json;
///
/// let echo = |names: &[&str]| {
///     let defs = names.iter().map(|n| ToolDef::new(*n, json!({"type": "object"}))).collect();
///     DynToolset::new(defs, |name, _| async move { Ok(json!(name)) })
/// };
/// let tools = Toolsets::new()
///     .with(echo(&["search", "fetch"])).unwrap()
///     .with_prefix("gh_", echo(&["search", "issue"])).unwrap()
///     .allow(["search", "gh_search"]).unwrap();
/// let names: Vec<String> = tools.defs().into_iter().map(|d| d.name).collect();
/// assert_eq!(names, ["gh_search", "search"]);
/// let out = futures_executor::block_on(tools.call("gh_search", json!({}))).unwrap();
/// assert_eq!(out, "search");
/// assert!(Toolsets::new().with(echo(&["a"])).unwrap().with(echo(&["a"])).is_err());
/// ```
#[derive(Clone, Default)]
pub struct Toolsets {
    members: Vec<Member>,
    routes: BTreeMap<String, Route>,
    allowed: Option<BTreeSet<String>>,
}

#[derive(Clone)]
struct Member {
    toolset: Arc<dyn ToolsetObject>,
    prefix: String,
}

#[derive(Clone)]
struct Route {
    member: usize,
    inner: String,
    def: ToolDef,
}

/// Why a [`Toolsets`] could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolsetError {
    /// Two members would both provide `name`.
    DuplicateName {
        /// The name as the program would call it.
        name: String,
        /// The member that provides it first (its position and prefix).
        first: String,
        /// The member that provides it again.
        second: String,
    },
    /// A prefix that cannot start a tool name.
    InvalidPrefix {
        /// The prefix as given.
        prefix: String,
    },
    /// [`Toolsets::allow`] named tools that no member provides.
    NotInSet {
        /// The names that are missing.
        names: Vec<String>,
        /// The names that exist.
        known: Vec<String>,
    },
}

impl fmt::Display for ToolsetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolsetError::DuplicateName {
                name,
                first,
                second,
            } => write!(
                f,
                "two toolsets provide a tool named {name:?}: {first} and {second}; add one of them under a prefix"
            ),
            ToolsetError::InvalidPrefix { prefix } => write!(
                f,
                "the prefix {prefix:?} cannot start a tool name: use 1 to 64 ASCII letters, digits, `_`, `-` or `.`"
            ),
            ToolsetError::NotInSet { names, known } => write!(
                f,
                "the filter names tools that no toolset provides: {}; the tools are: {}",
                quoted(names),
                quoted(known)
            ),
        }
    }
}

impl std::error::Error for ToolsetError {}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Toolsets {
    /// No toolsets yet.
    pub fn new() -> Self {
        Toolsets::default()
    }

    /// Adds `toolset` with its names as they are.
    pub fn with<T: Toolset + Send + Sync + 'static>(
        self,
        toolset: T,
    ) -> Result<Self, ToolsetError> {
        self.add(String::new(), Arc::new(toolset))
    }

    /// Adds `toolset` with `prefix` before each of its names.
    pub fn with_prefix<T: Toolset + Send + Sync + 'static>(
        self,
        prefix: &str,
        toolset: T,
    ) -> Result<Self, ToolsetError> {
        check_prefix(prefix)?;
        self.add(prefix.to_owned(), Arc::new(toolset))
    }

    /// Adds a shared toolset object, under `prefix` (empty for none).
    pub fn with_shared(
        self,
        prefix: &str,
        toolset: Arc<dyn ToolsetObject>,
    ) -> Result<Self, ToolsetError> {
        if !prefix.is_empty() {
            check_prefix(prefix)?;
        }
        self.add(prefix.to_owned(), toolset)
    }

    fn add(
        mut self,
        prefix: String,
        toolset: Arc<dyn ToolsetObject>,
    ) -> Result<Self, ToolsetError> {
        self.members.push(Member { toolset, prefix });
        self.refresh()?;
        Ok(self)
    }

    /// Keeps only `names` (as the program calls them). Naming a tool that no
    /// member provides is an error. A second filter narrows the first: a
    /// name must pass both.
    pub fn allow<I, S>(mut self, names: I) -> Result<Self, ToolsetError>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let names: BTreeSet<String> = names.into_iter().map(Into::into).collect();
        let missing: Vec<String> = names
            .iter()
            .filter(|n| !self.routes.contains_key(*n))
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Err(ToolsetError::NotInSet {
                names: missing,
                known: self.routes.keys().cloned().collect(),
            });
        }
        self.allowed = Some(match self.allowed.take() {
            Some(earlier) => earlier.intersection(&names).cloned().collect(),
            None => names,
        });
        Ok(self)
    }

    /// Reads every member's declarations again (after a member's tool list
    /// changed), keeping the filter.
    pub fn refresh(&mut self) -> Result<(), ToolsetError> {
        let mut routes: BTreeMap<String, Route> = BTreeMap::new();
        for (index, member) in self.members.iter().enumerate() {
            let mut seen = BTreeSet::new();
            for mut def in member.toolset.defs_dyn() {
                if !seen.insert(def.name.clone()) {
                    continue;
                }
                let inner = def.name.clone();
                def.name = format!("{}{inner}", member.prefix);
                if let Some(other) = routes.get(&def.name) {
                    return Err(ToolsetError::DuplicateName {
                        name: def.name,
                        first: self.describe(other.member),
                        second: self.describe(index),
                    });
                }
                routes.insert(
                    def.name.clone(),
                    Route {
                        member: index,
                        inner,
                        def,
                    },
                );
            }
        }
        self.routes = routes;
        Ok(())
    }

    fn describe(&self, index: usize) -> String {
        match self.members[index].prefix.as_str() {
            "" => format!("toolset #{} (no prefix)", index + 1),
            prefix => format!("toolset #{} (prefix {prefix:?})", index + 1),
        }
    }

    fn route(&self, name: &str) -> Option<&Route> {
        let route = self.routes.get(name)?;
        match &self.allowed {
            Some(allowed) if !allowed.contains(name) => None,
            _ => Some(route),
        }
    }

    fn visible(&self) -> Vec<&str> {
        self.routes
            .keys()
            .map(String::as_str)
            .filter(|n| self.route(n).is_some())
            .collect()
    }
}

/// A prefix is 1 to 64 ASCII letters, digits, `_`, `-` or `.`.
fn check_prefix(prefix: &str) -> Result<(), ToolsetError> {
    if !prefix.is_empty() && crate::is_valid_prefix(prefix) {
        Ok(())
    } else {
        Err(ToolsetError::InvalidPrefix {
            prefix: prefix.to_owned(),
        })
    }
}

impl fmt::Debug for Toolsets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolsets")
            .field("tools", &self.visible())
            .finish_non_exhaustive()
    }
}

impl Toolset for Toolsets {
    fn defs(&self) -> Vec<ToolDef> {
        self.routes
            .iter()
            .filter(|(name, _)| self.route(name).is_some())
            .map(|(_, route)| route.def.clone())
            .collect()
    }

    fn call(
        &self,
        name: &str,
        args: Value,
    ) -> impl Future<Output = Result<Value, ToolCallError>> + Send {
        let target = match self.route(name) {
            Some(route) => Ok((
                Arc::clone(&self.members[route.member].toolset),
                route.inner.clone(),
            )),
            None => Err(unknown_tool_in(self, name, &self.visible())),
        };
        let name = name.to_owned();
        async move {
            let (toolset, inner) = target?;
            toolset.call_boxed(&inner, args).await.map_err(|mut e| {
                // The program knows the tool by its full name.
                if e.tool_name == inner {
                    e.tool_name = name.clone();
                }
                e
            })
        }
    }

    fn is_blocking(&self, name: &str) -> bool {
        self.route(name).is_some_and(|route| {
            self.members[route.member]
                .toolset
                .is_blocking_dyn(&route.inner)
        })
    }

    /// What the member whose prefix starts `name` (the longest, when
    /// several do) says of the rest of it.
    fn missing(&self, name: &str) -> Option<String> {
        self.members
            .iter()
            .filter(|member| name.starts_with(&member.prefix))
            .max_by_key(|member| member.prefix.len())
            .and_then(|member| member.toolset.missing_dyn(&name[member.prefix.len()..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DynToolset;
    use serde_json::json;

    /// No tools of its own; explains every name it is asked about.
    struct Down;

    impl Toolset for Down {
        fn defs(&self) -> Vec<ToolDef> {
            Vec::new()
        }

        async fn call(&self, name: &str, _: Value) -> Result<Value, ToolCallError> {
            Err(crate::unknown_tool(name, &[]))
        }

        fn missing(&self, name: &str) -> Option<String> {
            Some(format!("the source of {name:?} is down"))
        }
    }

    #[test]
    fn a_member_explains_the_names_under_its_prefix() {
        let up = DynToolset::new(
            vec![ToolDef::new("search", json!({"type": "object"}))],
            |name, _| async move { Ok(json!(name)) },
        );
        let tools = Toolsets::new()
            .with_prefix("web_", up)
            .unwrap()
            .with_prefix("web_mail_", Down)
            .unwrap();
        // The longest prefix that starts the name answers, without it.
        assert_eq!(
            tools.missing("web_mail_send").as_deref(),
            Some(r#"the source of "send" is down"#)
        );
        assert_eq!(tools.missing("web_serch"), None);
        let err = futures_executor::block_on(tools.call("web_mail_send", json!({}))).unwrap_err();
        assert!(
            err.message.starts_with(r#"no tool is named "web_mail_send"; the tools are: "web_search"; the source of "send" is down"#),
            "{err}"
        );
    }
}
