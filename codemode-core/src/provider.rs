//! The last mile between a provider and a run: the tools offered next to
//! `run_code`, the `run_code` arguments as providers send them, and tool
//! results in each provider's shape.

use crate::run_code::{RUN_CODE, ToolFormat};
use crate::tool::{ToolDef, unique_sorted};
use crate::toolset::Toolset;
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};
use std::fmt;

/// A `run_code` call or a provider's tool call that cannot be read. Its
/// text is written for the model: it says what to send instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderError {
    message: String,
}

impl ProviderError {
    fn new(message: String) -> Self {
        ProviderError { message }
    }

    /// The message, as [`Display`](fmt::Display) prints it.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ProviderError {}

/// The tools of `toolset` the model may call directly (policy `direct` or
/// `both`), as native tool definitions in `format`, sorted by name. Offer
/// them next to the `run_code` tool.
///
/// ```
/// use codemode_core::{native_tools, CallPolicy, DynToolset, ToolDef, ToolFormat};
/// use serde_json::json;
///
/// let tools = DynToolset::new(
///     vec![
///         ToolDef::new("search", json!({"type": "object"})).with_policy(CallPolicy::Both),
///         ToolDef::new("delete", json!({"type": "object"})),
///     ],
///     |_, _| async { Ok(json!(null)) },
/// );
/// let native = native_tools(ToolFormat::Anthropic, &tools);
/// assert_eq!(native.len(), 1);
/// assert_eq!(native[0]["name"], "search");
/// assert_eq!(native[0]["input_schema"], json!({"type": "object"}));
/// ```
pub fn native_tools<T: Toolset + ?Sized>(format: ToolFormat, toolset: &T) -> Vec<Value> {
    let defs = toolset.defs();
    unique_sorted(&defs)
        .into_iter()
        .filter(|d| d.policy.direct())
        .map(|d| native_tool(format, d))
        .collect()
}

/// One tool as a native definition in `format`.
pub fn native_tool(format: ToolFormat, tool: &ToolDef) -> Value {
    let description = tool.description.clone().unwrap_or_default();
    match format {
        ToolFormat::Mcp => serde_json::to_value(tool).unwrap_or(Value::Null),
        ToolFormat::OpenAiChat => json!({
            "type": "function",
            "function": {"name": tool.name, "description": description, "parameters": tool.input_schema},
        }),
        ToolFormat::OpenAiResponses => json!({
            "type": "function",
            "name": tool.name,
            "description": description,
            "parameters": tool.input_schema,
            "strict": false,
        }),
        ToolFormat::Anthropic => json!({
            "name": tool.name,
            "description": description,
            "input_schema": tool.input_schema,
        }),
    }
}

/// The arguments of a `run_code` call. They deserialise from a JSON object,
/// or from a string that holds one (OpenAI sends `arguments` as a string).
///
/// ```
/// use codemode_core::RunCodeArgs;
///
/// let from_object: RunCodeArgs = serde_json::from_str(r#"{"code": "return 1;", "description": "one"}"#).unwrap();
/// let from_string: RunCodeArgs = serde_json::from_str(r#""{\"code\": \"return 1;\", \"description\": \"one\"}""#).unwrap();
/// assert_eq!(from_object, from_string);
/// let err = RunCodeArgs::from_value(&serde_json::json!({"description": "no code"})).unwrap_err();
/// assert!(err.message().contains("`code`"), "{err}");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunCodeArgs {
    /// The program.
    pub code: String,
    /// What the program does, in one line (empty when the model left it out).
    pub description: String,
}

impl RunCodeArgs {
    /// Reads the arguments from a provider's JSON (an object, or a string
    /// holding one), with an error the model can act on.
    pub fn from_value(value: &Value) -> Result<Self, ProviderError> {
        let parsed;
        let object = match value {
            Value::String(text) => {
                parsed = serde_json::from_str::<Value>(text).map_err(|e| {
                    ProviderError::new(format!("the arguments of `{RUN_CODE}` are not valid JSON ({e}); send an object with `code` and `description`"))
                })?;
                &parsed
            }
            other => other,
        };
        let Some(map) = object.as_object() else {
            return Err(ProviderError::new(format!(
                "the arguments of `{RUN_CODE}` must be an object with `code` and `description`"
            )));
        };
        let code = match map.get("code") {
            Some(Value::String(code)) => code.clone(),
            Some(_) => {
                return Err(ProviderError::new(format!(
                    "`code` in the arguments of `{RUN_CODE}` must be a string: the program's source text"
                )));
            }
            None => {
                return Err(ProviderError::new(format!(
                    "the arguments of `{RUN_CODE}` lack `code`: the program to run"
                )));
            }
        };
        let description = match map.get("description") {
            Some(Value::String(d)) => d.clone(),
            _ => String::new(),
        };
        Ok(RunCodeArgs { code, description })
    }
}

impl<'de> Deserialize<'de> for RunCodeArgs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        RunCodeArgs::from_value(&value).map_err(serde::de::Error::custom)
    }
}

/// A tool call as a provider sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderCall {
    /// The provider's shape.
    pub format: ToolFormat,
    /// The id the result must carry (`tool_call_id`, `call_id`, `tool_use_id`;
    /// empty for MCP, whose id is the JSON-RPC request's).
    pub id: String,
    /// The tool the model called.
    pub name: String,
    /// Its arguments, as sent (a string for OpenAI, an object otherwise).
    pub arguments: Value,
}

impl ProviderCall {
    /// Reads a tool call in `format`: an OpenAI Chat `tool_calls[]` entry,
    /// an OpenAI Responses `function_call` item, an Anthropic `tool_use`
    /// block, or MCP `tools/call` params.
    pub fn parse(format: ToolFormat, call: &Value) -> Result<Self, ProviderError> {
        let text = |v: Option<&Value>, what: &str| -> Result<String, ProviderError> {
            v.and_then(Value::as_str).map(str::to_owned).ok_or_else(|| {
                ProviderError::new(format!("the {} tool call has no `{what}`", format.as_str()))
            })
        };
        let (id, name, arguments) = match format {
            ToolFormat::OpenAiChat => (
                text(call.get("id"), "id")?,
                text(call.pointer("/function/name"), "function.name")?,
                call.pointer("/function/arguments")
                    .cloned()
                    .unwrap_or(Value::Null),
            ),
            ToolFormat::OpenAiResponses => (
                text(call.get("call_id"), "call_id")?,
                text(call.get("name"), "name")?,
                call.get("arguments").cloned().unwrap_or(Value::Null),
            ),
            ToolFormat::Anthropic => (
                text(call.get("id"), "id")?,
                text(call.get("name"), "name")?,
                call.get("input").cloned().unwrap_or(Value::Null),
            ),
            ToolFormat::Mcp => (
                String::new(),
                text(call.get("name"), "name")?,
                call.get("arguments").cloned().unwrap_or(Value::Null),
            ),
        };
        Ok(ProviderCall {
            format,
            id,
            name,
            arguments,
        })
    }

    /// The tool result that answers this call, in the provider's shape:
    /// an OpenAI Chat `tool` message, an OpenAI Responses
    /// `function_call_output` item, an Anthropic `tool_result` block (with
    /// `is_error`), or an MCP `CallToolResult` (with `structuredContent` when
    /// there is a value, and `isError`).
    pub fn result(&self, text: &str, value: Option<&Value>, is_error: bool) -> Value {
        match self.format {
            ToolFormat::OpenAiChat => {
                json!({"role": "tool", "tool_call_id": self.id, "content": text})
            }
            ToolFormat::OpenAiResponses => {
                json!({"type": "function_call_output", "call_id": self.id, "output": text})
            }
            ToolFormat::Anthropic => json!({
                "type": "tool_result",
                "tool_use_id": self.id,
                "content": text,
                "is_error": is_error,
            }),
            ToolFormat::Mcp => {
                let mut result = json!({
                    "content": [{"type": "text", "text": text}],
                    "isError": is_error,
                });
                if let Some(value) = value.filter(|v| !v.is_null()) {
                    // MCP's structured content is an object.
                    let structured = match value {
                        Value::Object(_) => value.clone(),
                        other => json!({"result": other}),
                    };
                    result["structuredContent"] = structured;
                }
                result
            }
        }
    }
}
