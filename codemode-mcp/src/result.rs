//! An upstream `tools/call` result, as the JSON value a program receives.
//!
//! - `isError: true` is a failure carrying the server's text.
//! - `structuredContent`, when present, is the value.
//! - Otherwise the content blocks are: one block is its value, several are
//!   an array of their values, none is `null`. A text block's value is its
//!   text parsed as JSON when it parses, else the text as a string. Any
//!   other block (image, audio, embedded resource, resource link) is its
//!   MCP JSON object as the server sent it, `type` included, such as
//!   `{"type": "image", "data": "<base64>", "mimeType": "image/png"}`.

use serde_json::Value;

/// The value of a `tools/call` result given as JSON, or the failure message
/// of an `isError` result.
pub(crate) fn call_value(result: Value) -> Result<Value, String> {
    let Value::Object(mut result) = result else {
        return Ok(Value::Null);
    };
    let blocks = match result.remove("content") {
        Some(Value::Array(blocks)) => blocks,
        _ => Vec::new(),
    };
    if result.get("isError") == Some(&Value::Bool(true)) {
        let text: Vec<String> = blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .map(str::to_owned)
            .collect();
        let message = if text.is_empty() {
            match result.remove("structuredContent") {
                Some(value) if !value.is_null() => value.to_string(),
                _ => "the tool reported an error without a message".to_owned(),
            }
        } else {
            text.join("\n")
        };
        return Err(message);
    }
    if let Some(value) = result.remove("structuredContent") {
        return Ok(value);
    }
    let mut values: Vec<Value> = blocks.into_iter().map(block_value).collect();
    Ok(match values.len() {
        0 => Value::Null,
        1 => values.pop().unwrap_or(Value::Null),
        _ => Value::Array(values),
    })
}

fn block_value(block: Value) -> Value {
    match block.get("type").and_then(Value::as_str) {
        Some("text") => {
            let text = block.get("text").and_then(Value::as_str).unwrap_or("");
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
        }
        _ => block,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_documented_shapes() {
        let text = |t: &str| json!({"type": "text", "text": t});
        assert_eq!(
            call_value(json!({"content": [text("hello")]})),
            Ok(json!("hello"))
        );
        assert_eq!(
            call_value(json!({"content": [text("{\"a\": [1]}")]})),
            Ok(json!({"a": [1]}))
        );
        assert_eq!(call_value(json!({"content": [text("42")]})), Ok(json!(42)));
        assert_eq!(
            call_value(json!({"content": [text("a"), text("[true]")]})),
            Ok(json!(["a", [true]]))
        );
        assert_eq!(call_value(json!({"content": []})), Ok(Value::Null));
        assert_eq!(
            call_value(json!({"content": [text("ignored")], "structuredContent": {"n": 1}})),
            Ok(json!({"n": 1}))
        );
        let image = json!({"type": "image", "data": "AAAA", "mimeType": "image/png"});
        assert_eq!(
            call_value(json!({"content": [image.clone()]})),
            Ok(image.clone())
        );
        assert_eq!(
            call_value(json!({"content": [text("caption"), image.clone()]})),
            Ok(json!(["caption", image]))
        );
    }

    #[test]
    fn errors_carry_the_servers_text() {
        let failed = json!({"isError": true, "content": [{"type": "text", "text": "no such file"}, {"type": "text", "text": "at /x"}]});
        assert_eq!(call_value(failed), Err("no such file\nat /x".to_owned()));
        assert_eq!(
            call_value(json!({"isError": true})),
            Err("the tool reported an error without a message".to_owned())
        );
        assert_eq!(
            call_value(json!({"isError": true, "structuredContent": {"code": 7}})),
            Err("{\"code\":7}".to_owned())
        );
    }
}
