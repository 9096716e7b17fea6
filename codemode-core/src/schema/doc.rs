//! What a schema node says beside its type: its description, and the
//! constraints and annotations a doc comment carries (`@format`, `@minimum`,
//! `@default`, ...).

use super::ir::Doc;
use crate::canonical::to_canonical;
use serde_json::Value;

/// Longest annotation value (such as a `default`) quoted in a doc comment.
const MAX_NOTE_CHARS: usize = 120;

/// Description, constraints and annotations of a schema node.
pub(crate) fn doc_of(node: &Value) -> Doc {
    let Value::Object(map) = node else {
        return Doc::default();
    };
    let text = ["description", "title"]
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))
        .map(str::to_owned)
        .filter(|s| !s.trim().is_empty());
    let mut notes = Vec::new();
    // A tuple's type already says how many items it has.
    let tuple = map.contains_key("prefixItems") || map.get("items").is_some_and(Value::is_array);
    const NOTES: [&str; 13] = [
        "format",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "exclusiveMinimum",
        "maximum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "default",
    ];
    for key in NOTES {
        match map.get(key) {
            None | Some(Value::Bool(false)) => {}
            Some(_) if tuple && (key == "minItems" || key == "maxItems") => {}
            // Number encodings say nothing the type does not.
            Some(Value::String(s)) if key == "format" && (s == "double" || s == "float") => {}
            Some(Value::Bool(true)) if key == "uniqueItems" => notes.push((key, String::new())),
            Some(Value::String(s)) if key == "format" || key == "pattern" => {
                notes.push((key, s.clone()))
            }
            Some(value) => notes.push((key, to_canonical(value, Some(MAX_NOTE_CHARS)))),
        }
    }
    if map.get("deprecated") == Some(&Value::Bool(true)) {
        notes.push(("deprecated", String::new()));
    }
    Doc { text, notes }
}
