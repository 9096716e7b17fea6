//! What a schema node says beside its type: its description, and the
//! constraints and annotations a doc comment carries (`@format`, `@minimum`,
//! `@default`, ...).

use super::ir::Doc;
use crate::canonical::to_canonical;
use crate::json::Json;

/// Longest annotation value (such as a `default`) quoted in a doc comment.
const MAX_NOTE_CHARS: usize = 120;

/// Description, constraints and annotations of a schema node.
pub(crate) fn doc_of(node: &Json<'_>) -> Doc {
    let Json::Object(map) = *node else {
        return Doc::default();
    };
    // One pass over the keys (a schema node has a few), not a lookup per
    // keyword that might be there.
    let (mut description, mut title) = (None, None);
    let (mut tuple, mut deprecated) = (false, false);
    let mut found: [Option<&Json<'_>>; NOTES.len()] = [None; NOTES.len()];
    for (key, value) in map.iter() {
        match key {
            "description" => description = value.as_str(),
            "title" => title = value.as_str(),
            // A tuple's type already says how many items it has.
            "prefixItems" => tuple = true,
            "items" if value.as_array().is_some() => tuple = true,
            "deprecated" => deprecated = value.is_true(),
            other => {
                if let Some(i) = NOTES.iter().position(|n| *n == other) {
                    found[i] = Some(value);
                }
            }
        }
    }
    let text = description
        .or(title)
        .map(str::to_owned)
        .filter(|s| !s.trim().is_empty());
    let mut notes = Vec::new();
    for (key, value) in NOTES.into_iter().zip(found) {
        match value {
            None | Some(Json::Bool(false)) => {}
            Some(_) if tuple && (key == "minItems" || key == "maxItems") => {}
            // Number encodings say nothing the type does not.
            Some(Json::String(s)) if key == "format" && (*s == "double" || *s == "float") => {}
            Some(Json::Bool(true)) if key == "uniqueItems" => notes.push((key, String::new())),
            Some(Json::String(s)) if key == "format" || key == "pattern" => {
                notes.push((key, (*s).to_owned()))
            }
            Some(value) => notes.push((key, to_canonical(value, Some(MAX_NOTE_CHARS)))),
        }
    }
    if deprecated {
        notes.push(("deprecated", String::new()));
    }
    Doc { text, notes }
}

/// The keywords a doc comment notes, in the order it notes them.
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
