//! Reading a tool list: an array of MCP tools, or a `tools/list` result.

use crate::tool::ToolDef;
use serde_json::Value;
use std::fmt;

/// Deepest JSON nesting accepted; deeper input is refused with its position
/// rather than risking the parser's stack.
pub const MAX_NESTING: usize = 100_000;

/// Why an input could not be read as a tool list. Its `Display` names the
/// source and the place.
#[derive(Debug, PartialEq)]
pub struct ToolListError {
    /// The file name, or `<stdin>`.
    pub source: String,
    /// Line and column (1-based), for errors in the JSON text itself.
    pub position: Option<(usize, usize)>,
    /// What is wrong, naming the tool by index where it is one tool.
    pub message: String,
}

impl fmt::Display for ToolListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.source, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

/// Parses `text` (named `source` in errors) into tool definitions: a JSON
/// array of MCP tools, or the result of MCP `tools/list` (an object with a
/// `tools` array; other keys are ignored). Only `name` and `inputSchema`
/// are required; a bad tool is named by its index.
///
/// Nesting past [`MAX_NESTING`] is refused with its place; input nested
/// deeply, though within that cap, needs a deep stack to parse.
///
/// ```
/// use codemode_core::parse_tool_list;
///
/// let tools = parse_tool_list("list.json", r#"{"tools": [{"name": "ping", "inputSchema": {}}], "nextCursor": null}"#).unwrap();
/// assert_eq!(tools[0].name, "ping");
/// let err = parse_tool_list("list.json", r#"[{"name": 7}]"#).unwrap_err();
/// assert_eq!(err.to_string(), "list.json: tool #0: `name` must be a string, found a number");
/// ```
pub fn parse_tool_list(source: &str, text: &str) -> Result<Vec<ToolDef>, ToolListError> {
    let fail = |message: String| ToolListError {
        source: source.to_owned(),
        position: None,
        message,
    };
    let fail_at = |position: (usize, usize), message: String| ToolListError {
        position: Some(position),
        ..fail(message)
    };
    if let Some(position) = too_deep(text) {
        return Err(fail_at(
            position,
            format!("JSON nested deeper than {MAX_NESTING} levels"),
        ));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value: Value = serde::Deserialize::deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| {
            fail_at(
                (e.line(), e.column()),
                format!("invalid JSON: {}", strip_position(&e.to_string())),
            )
        })?;
    tool_list_from_value(value).map_err(fail)
}

/// Reads an already parsed JSON value as a tool list (see
/// [`parse_tool_list`]); the error names the bad tool by index.
pub fn tool_list_from_value(value: Value) -> Result<Vec<ToolDef>, String> {
    let tools = match value {
        Value::Array(tools) => tools,
        Value::Object(mut map) => match map.remove("tools") {
            Some(Value::Array(tools)) => tools,
            Some(other) => {
                return Err(format!(
                    "`tools` must be an array of tools, found {}",
                    json_kind(&other)
                ));
            }
            None => return Err("expected an array of tools or an object with a `tools` array; this object has no `tools` key".to_owned()),
        },
        other => {
            return Err(format!(
                "expected an array of tools or an object with a `tools` array, found {}",
                json_kind(&other)
            ));
        }
    };
    tools
        .into_iter()
        .enumerate()
        .map(|(index, tool)| tool_def(index, tool))
        .collect()
}

fn tool_def(index: usize, tool: Value) -> Result<ToolDef, String> {
    let Value::Object(mut map) = tool else {
        return Err(format!(
            "tool #{index}: expected an object, found {}",
            json_kind(&tool)
        ));
    };
    let name = match map.remove("name") {
        Some(Value::String(name)) => name,
        Some(other) => {
            return Err(format!(
                "tool #{index}: `name` must be a string, found {}",
                json_kind(&other)
            ));
        }
        None => return Err(format!("tool #{index}: `name` is missing")),
    };
    let at = format!(
        "tool #{index} ({})",
        serde_json::Value::String(name.clone())
    );
    let description = match map.remove("description") {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text),
        Some(other) => {
            return Err(format!(
                "{at}: `description` must be a string, found {}",
                json_kind(&other)
            ));
        }
    };
    let input_schema = match map.remove("inputSchema") {
        Some(schema) => schema,
        None => return Err(format!("{at}: `inputSchema` is missing")),
    };
    let output_schema = match map.remove("outputSchema") {
        None | Some(Value::Null) => None,
        Some(schema) => Some(schema),
    };
    let annotations = map
        .remove("annotations")
        .and_then(|a| serde_json::from_value(a).ok());
    let mut tool = ToolDef::new(name, input_schema);
    tool.description = description;
    tool.output_schema = output_schema;
    tool.annotations = annotations;
    Ok(tool)
}

/// What a JSON value is, for error messages: `null`, `a boolean`, `a
/// number`, `a string`, `an array` or `an object`.
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json appends " at line L column C"; the position is already in front.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message,
    }
}

/// The line and column where nesting first exceeds [`MAX_NESTING`].
fn too_deep(text: &str) -> Option<(usize, usize)> {
    // Bytes, not characters: every byte that matters here is ASCII, and a
    // multi-byte character's bytes are never ASCII. The line and column are
    // only worked out for the place that fails.
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Skip the string: to the next quote that is not escaped.
                i += 1;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 2,
                        b'"' => break,
                        _ => i += 1,
                    }
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(line_column(text, i));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The 1-based line and column (in characters) of byte `at`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |n| n + 1);
    (line, before[start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_tool_list("in.json", text).unwrap_err().to_string()
    }

    #[test]
    fn accepts_an_array_or_a_list_result() {
        let one = r#"[{"name":"a","inputSchema":{}}]"#;
        let two =
            r#"{"tools":[{"name":"a","title":"A","_meta":{},"inputSchema":{}}],"nextCursor":"x"}"#;
        assert_eq!(
            parse_tool_list("-", one).unwrap(),
            parse_tool_list("-", two).unwrap()
        );
    }

    #[test]
    fn annotations_are_carried() {
        let text = r#"[{"name":"a","annotations":{"readOnlyHint":true,"x":1},"inputSchema":{}}]"#;
        let tools = parse_tool_list("-", text).unwrap();
        let hints = tools[0].annotations.as_ref().expect("annotations");
        assert_eq!(hints.read_only_hint, Some(true));
    }

    #[test]
    fn invalid_json_names_line_and_column() {
        assert_eq!(
            err("[\n  {\"name\": }\n]"),
            "in.json:2:12: invalid JSON: expected value"
        );
    }

    #[test]
    fn bad_tools_name_their_index() {
        assert_eq!(
            err(r#"[{"name":"a","inputSchema":{}}, {"name": 3}]"#),
            "in.json: tool #1: `name` must be a string, found a number"
        );
        assert_eq!(
            err(r#"[5]"#),
            "in.json: tool #0: expected an object, found a number"
        );
        assert_eq!(
            err(r#"[{"name":"x"}]"#),
            r#"in.json: tool #0 ("x"): `inputSchema` is missing"#
        );
        assert_eq!(
            err(r#"[{"name":"x","inputSchema":{},"description":1}]"#),
            r#"in.json: tool #0 ("x"): `description` must be a string, found a number"#
        );
    }

    #[test]
    fn wrong_top_level_shapes() {
        assert!(err("3").contains("found a number"));
        assert!(err(r#"{"tools": {}}"#).contains("`tools` must be an array"));
        assert!(err(r#"{"result": []}"#).contains("no `tools` key"));
    }

    #[test]
    fn deep_input_within_the_cap_parses() {
        let depth = 5_000;
        let schema = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let text = format!(r#"[{{"name":"deep","inputSchema":{schema}}}]"#);
        // The parser needs a large stack at this depth; the binary gives it one.
        let tools = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || parse_tool_list("-", &text).map(|t| t.len()))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(tools, Ok(1));
    }

    #[test]
    fn brackets_in_strings_do_not_count_and_the_place_is_in_characters() {
        // Brackets inside strings (escaped quotes too) are not nesting; the
        // column counts characters, not bytes.
        let text = format!(
            "[{{\"é\": \"[[\\\"[{{\",\n \"b\": {}",
            "[".repeat(MAX_NESTING)
        );
        // Two levels open on line 1; line 2 has 6 characters before its brackets.
        assert_eq!(too_deep(&text), Some((2, 6 + MAX_NESTING - 1)));
    }

    #[test]
    fn nesting_past_the_cap_is_refused_with_its_place() {
        let text = "[".repeat(MAX_NESTING + 1);
        assert_eq!(
            err(&text),
            format!(
                "in.json:1:{}: JSON nested deeper than {MAX_NESTING} levels",
                MAX_NESTING + 1
            )
        );
    }
}
