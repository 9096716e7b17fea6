//! Upstream tool lists pinned at build time, and the drift between a pin
//! and what the server lists now.

use codemode_core::{ToolDef, ToolListError, fingerprint, parse_tool_list};
use std::collections::BTreeMap;
use std::fmt;

/// What a pinned server's drift does at connect (or when its list changes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DriftPolicy {
    /// Log a warning and carry on: the SDK stays the pinned one, and calls
    /// go to the live server (the default).
    #[default]
    Warn,
    /// Refuse: at connect, [`McpToolsetBuilder::connect`](crate::McpToolsetBuilder::connect)
    /// fails with the drift; later, the server's calls fail with
    /// `unavailable` until its list matches again. A server that is still
    /// starting when `connect` returns (see
    /// [`McpToolsetBuilder::ready_within`](crate::McpToolsetBuilder::ready_within))
    /// and drifts is refused the later way: `connect` has already
    /// succeeded, so its calls fail with `unavailable` instead.
    Error,
}

/// A server's tool list fixed at build time: the `tools/list` snapshot
/// `codemode snapshot` wrote, and its fingerprint as `codemode-build`
/// compiled it.
///
/// ```
/// use codemode_mcp::Pin;
///
/// let snapshot = r#"{"tools": [{"name": "read", "inputSchema": {"type": "object"}}]}"#;
/// let pin = Pin::from_snapshot("files.json", snapshot).unwrap();
/// assert_eq!(pin.tools[0].name, "read");
/// // With the compiled fingerprint, a stale pair is caught:
/// assert!(Pin::new("files.json", snapshot, &pin.fingerprint).is_ok());
/// assert!(Pin::new("files.json", snapshot, "0000").is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Pin {
    /// The pinned tools, in the server's own names.
    pub tools: Vec<ToolDef>,
    /// Their fingerprint ([`codemode_core::fingerprint`]).
    pub fingerprint: String,
    /// The prefix the compiled SDK gives the server's tools, when known:
    /// connecting fails if the toolset would give them another.
    pub prefix: Option<String>,
}

impl Pin {
    /// A pin from a snapshot's text (named `source` in errors), its
    /// fingerprint computed here.
    pub fn from_snapshot(source: &str, snapshot: &str) -> Result<Pin, ToolListError> {
        let tools = parse_tool_list(source, snapshot)?;
        let fingerprint = fingerprint(&tools);
        Ok(Pin {
            tools,
            fingerprint,
            prefix: None,
        })
    }

    /// A pin from a snapshot and the fingerprint compiled with it. They
    /// must agree: a mismatch means the constants are stale.
    pub fn new(source: &str, snapshot: &str, compiled: &str) -> Result<Pin, ToolListError> {
        let pin = Pin::from_snapshot(source, snapshot)?;
        if pin.fingerprint != compiled {
            return Err(ToolListError {
                source: source.to_owned(),
                position: None,
                message: format!(
                    "the snapshot's fingerprint is {}, but {} was compiled with it: rebuild",
                    pin.fingerprint, compiled
                ),
            });
        }
        Ok(pin)
    }

    /// The same pin, with the prefix its SDK was compiled with
    /// (`codemode-build`'s `PREFIX` constant).
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }

    /// How `live` differs from this pin, if it does.
    pub fn drift(&self, server: &str, live: &[ToolDef]) -> Option<Drift> {
        let live_fingerprint = fingerprint(live);
        if live_fingerprint == self.fingerprint {
            return None;
        }
        let by_name = |tools: &[ToolDef]| -> BTreeMap<String, ToolDef> {
            tools.iter().map(|t| (t.name.clone(), t.clone())).collect()
        };
        let (pinned, live) = (by_name(&self.tools), by_name(live));
        Some(Drift {
            server: server.to_owned(),
            pinned: self.fingerprint.clone(),
            live: live_fingerprint,
            added: live
                .keys()
                .filter(|n| !pinned.contains_key(*n))
                .cloned()
                .collect(),
            removed: pinned
                .keys()
                .filter(|n| !live.contains_key(*n))
                .cloned()
                .collect(),
            changed: pinned
                .iter()
                .filter(|(n, t)| live.get(*n).is_some_and(|l| l != *t))
                .map(|(n, _)| n.clone())
                .collect(),
        })
    }
}

/// The text of a snapshot of `tools`: a `tools/list` result, sorted by
/// name, pretty-printed, ending in a newline. Equal lists give equal bytes,
/// and [`Pin::from_snapshot`] reads it back to the same fingerprint.
pub fn snapshot_text(tools: &[ToolDef]) -> String {
    let mut sorted: Vec<&ToolDef> = tools.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    sorted.dedup_by(|a, b| a.name == b.name);
    let json = serde_json::json!({ "tools": sorted });
    serde_json::to_string_pretty(&json).unwrap_or_default() + "\n"
}

/// How a pinned server's live tool list differs from its snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drift {
    /// The server.
    pub server: String,
    /// The pinned fingerprint.
    pub pinned: String,
    /// The live list's fingerprint.
    pub live: String,
    /// Tools the server lists that the snapshot does not.
    pub added: Vec<String>,
    /// Tools the snapshot has that the server no longer lists.
    pub removed: Vec<String>,
    /// Tools whose declaration changed.
    pub changed: Vec<String>,
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the tools of MCP server {:?} differ from its pinned snapshot (fingerprint {} pinned, {} live)",
            self.server,
            short(&self.pinned),
            short(&self.live)
        )?;
        for (what, names) in [
            ("added", &self.added),
            ("removed", &self.removed),
            ("changed", &self.changed),
        ] {
            if !names.is_empty() {
                write!(f, "; {what}: {}", names.join(", "))?;
            }
        }
        f.write_str("; update the snapshot with `codemode snapshot` and rebuild")
    }
}

fn short(fingerprint: &str) -> &str {
    fingerprint.get(..12).unwrap_or(fingerprint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_snapshot_reads_back_to_the_same_fingerprint() {
        let tools = vec![
            ToolDef::new(
                "b",
                json!({"type": "object", "properties": {"x": {"type": "string"}}}),
            )
            .with_description("B."),
            ToolDef::new("a", json!({"type": "object"})),
        ];
        let text = snapshot_text(&tools);
        let pin = Pin::from_snapshot("s.json", &text).unwrap();
        assert_eq!(pin.fingerprint, fingerprint(&tools));
        assert_eq!(snapshot_text(&pin.tools), text);
        assert!(text.find("\"a\"").unwrap() < text.find("\"b\"").unwrap());
    }

    #[test]
    fn drift_names_what_changed() {
        let tool =
            |n: &str, d: &str| ToolDef::new(n, json!({"type": "object"})).with_description(d);
        let pin = Pin {
            tools: vec![tool("a", "A."), tool("b", "B.")],
            fingerprint: fingerprint(&[tool("a", "A."), tool("b", "B.")]),
            prefix: None,
        };
        assert_eq!(pin.drift("s", &[tool("b", "B."), tool("a", "A.")]), None);
        let drift = pin
            .drift("s", &[tool("a", "A, changed."), tool("c", "C.")])
            .unwrap();
        assert_eq!(
            (drift.added, drift.removed, drift.changed),
            (
                vec!["c".to_owned()],
                vec!["b".to_owned()],
                vec!["a".to_owned()]
            )
        );
    }
}
