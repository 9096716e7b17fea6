//! The tool model: what a renderer knows about one tool.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One tool as the SDK declares it, with MCP's field names on the wire
/// (`name`, `description`, `inputSchema`, `outputSchema`).
///
/// Extra MCP fields (`title`, `annotations`, `_meta`, ...) are ignored when
/// deserialising.
///
/// ```
/// use codemode_core::ToolDef;
/// use serde_json::json;
///
/// let tool: ToolDef = serde_json::from_value(json!({
///     "name": "get_weather",
///     "title": "Weather",
///     "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}
/// }))
/// .unwrap();
/// assert_eq!(tool.name, "get_weather");
/// assert!(tool.description.is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// The exact name the program addresses the tool by: `tools["name"](args)`.
    pub name: String,
    /// What the tool does; the model reads it as the method's documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the single argument object.
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
    /// JSON Schema of the result, when the tool declares one.
    #[serde(
        rename = "outputSchema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub output_schema: Option<Value>,
    /// MCP's hints about the tool's behaviour (`readOnlyHint`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Who may call the tool: a program, the model directly, or both. It is
    /// the host's decision, so it never travels on the wire.
    #[serde(skip)]
    pub policy: CallPolicy,
}

/// MCP's tool annotations: hints for clients, never guarantees.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A human-readable title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not change its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy or overwrite (meaningful when not read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it again with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool reaches an open world (the web, other people's systems).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// Who may call a tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallPolicy {
    /// Only a program, through the SDK (the default: Code Mode).
    #[default]
    Program,
    /// Only the model, as a native tool next to `run_code`; the SDK leaves it out.
    Direct,
    /// Both.
    Both,
}

impl CallPolicy {
    /// Whether a program may call the tool (and the SDK declares it).
    pub const fn from_program(self) -> bool {
        matches!(self, CallPolicy::Program | CallPolicy::Both)
    }

    /// Whether the model may call the tool directly.
    pub const fn direct(self) -> bool {
        matches!(self, CallPolicy::Direct | CallPolicy::Both)
    }
}

impl ToolDef {
    /// A tool with a name and an input schema, and no description or output schema.
    pub fn new(name: impl Into<String>, input_schema: Value) -> Self {
        ToolDef {
            name: name.into(),
            description: None,
            input_schema,
            output_schema: None,
            annotations: None,
            policy: CallPolicy::Program,
        }
    }

    /// Sets the MCP annotations.
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// Sets who may call the tool.
    pub fn with_policy(mut self, policy: CallPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Sets the description.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the output schema.
    pub fn with_output_schema(mut self, output_schema: Value) -> Self {
        self.output_schema = Some(output_schema);
        self
    }
}

/// The tool set a renderer works on: the tools a program may call (see
/// [`CallPolicy`]), duplicates removed by name (the first occurrence wins, as
/// in a runner's own lookup), then sorted by name.
///
/// Output built from the result depends only on the set of tools, never on
/// the order they arrived in.
///
/// ```
/// use codemode_core::{normalize, ToolDef};
/// use serde_json::json;
///
/// let tools = [
///     ToolDef::new("b", json!({})),
///     ToolDef::new("a", json!({})).with_description("first"),
///     ToolDef::new("a", json!({})).with_description("second"),
/// ];
/// let set = normalize(&tools);
/// let names: Vec<_> = set.iter().map(|t| t.name.as_str()).collect();
/// assert_eq!(names, ["a", "b"]);
/// assert_eq!(set[0].description.as_deref(), Some("first"));
/// ```
pub fn normalize(tools: &[ToolDef]) -> Vec<&ToolDef> {
    select(tools, name_of, |tool| tool.policy.from_program())
        .0
        .into_iter()
        .map(|i| &tools[i])
        .collect()
}

/// The first declaration of each name, sorted by name: the rule every tool
/// list in this crate follows.
pub(crate) fn unique_sorted(tools: &[ToolDef]) -> Vec<&ToolDef> {
    select(tools, name_of, |_| true)
        .0
        .into_iter()
        .map(|i| &tools[i])
        .collect()
}

/// A tool's name, for [`select`].
pub(crate) fn name_of(tool: &ToolDef) -> &str {
    &tool.name
}

/// The one selection rule: the indices of the first declaration of each
/// name, when `keep` takes it, in name order; and the names declared more
/// than once, sorted. A name whose first declaration `keep` refuses is left
/// out whole: a later declaration never stands in for it.
pub(crate) fn select<T>(
    tools: &[T],
    name: impl Fn(&T) -> &str,
    keep: impl Fn(&T) -> bool,
) -> (Vec<usize>, Vec<String>) {
    // One sort by name: a stable sort keeps the declarations of a name in
    // the order given, so each run of equal names starts with the first.
    let mut order: Vec<usize> = (0..tools.len()).collect();
    order.sort_by(|&a, &b| name(&tools[a]).cmp(name(&tools[b])));
    let mut kept = Vec::with_capacity(tools.len());
    let mut duplicates = Vec::new();
    for run in order.chunk_by(|&a, &b| name(&tools[a]) == name(&tools[b])) {
        let first = run[0];
        if keep(&tools[first]) {
            kept.push(first);
        }
        if run.len() > 1 {
            duplicates.push(name(&tools[first]).to_owned());
        }
    }
    (kept, duplicates)
}

#[cfg(test)]
mod tests {
    use super::select;

    #[test]
    fn the_first_declaration_of_each_name_is_kept_in_name_order() {
        let tools = ["b", "a", "c", "a", "b", "a", "d"];
        // `keep` refuses "c", so it is left out.
        let (kept, duplicates) = select(&tools, |t| t, |t| *t != "c");
        assert_eq!(kept, [1, 0, 6]);
        assert_eq!(duplicates, ["a", "b"]);
        // A refused first declaration leaves its name out, whatever follows.
        let indexed: Vec<(usize, &str)> = tools.iter().copied().enumerate().collect();
        let (kept, _) = select(&indexed, |t| t.1, |t| t.0 != 1);
        assert_eq!(kept, [0, 2, 6]);
        let (kept, duplicates) = select(&[] as &[&str], |t| t, |_| true);
        assert!(kept.is_empty() && duplicates.is_empty());
    }
}
