//! What a schema node says beside its type: its description, and the
//! constraints and annotations a doc comment carries (`@format`, `@minimum`,
//! `@default`, ...).

use super::ir::Doc;
use super::keywords::Dialect;
use crate::canonical::to_canonical;
use crate::json::Json;

/// Longest annotation value (such as a `default`) quoted in a doc comment.
const MAX_NOTE_CHARS: usize = 120;

/// The largest integer JSON carries exactly (`Number.MAX_SAFE_INTEGER`):
/// a bound of this size, which zod puts on every integer, says nothing. Nor
/// does the largest double, which a number past it is read as.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Where a documented node stands, which decides what its doc need not say.
#[derive(Clone, Copy)]
pub(crate) enum Place<'a> {
    /// The definition that asks to be named `name`.
    Definition { name: &'a str },
    /// The value of the property `name` of an object.
    Property { name: &'a str, required: bool },
}

/// Description, constraints and annotations of a schema node. What the
/// type or the place already says is left out:
/// - a title that only restates the property's name (`"Section Anchor"`
///   for `section_anchor`, as pydantic writes one on every field), or the
///   definition's (`"Item"` for `#/$defs/Item`, as pydantic writes one on
///   every model);
/// - `default: null` on an optional property (leaving it out means that);
/// - the number encodings `double`, `float` and `int64`, and a `minimum` or
///   `maximum` that an encoding beside it already says (`uint8` says 0 and
///   255);
/// - bounds of ±2^53-1, past which JSON carries no integer exactly anyway;
/// - any number equal to the largest double (a number past it, such as
///   `1e400`, is read as it), which bounds nothing.
///
/// Keywords `dialect` lacks say nothing (a `const` in draft 4, say).
pub(crate) fn doc_of(node: &Json<'_>, place: Place<'_>, dialect: Dialect) -> Doc {
    let Json::Object(map) = *node else {
        return Doc::default();
    };
    // One pass over the keys (a schema node has a few), not a lookup per
    // keyword that might be there.
    let (mut description, mut title) = (None, None);
    let (mut tuple, mut deprecated) = (false, false);
    let mut variants: Option<&[Json<'_>]> = None;
    let mut found: [Option<&Json<'_>>; NOTES.len()] = [None; NOTES.len()];
    for (key, value) in map.iter() {
        match key {
            "description" => description = value.as_str(),
            "title" => title = value.as_str(),
            // A tuple's type already says how many items it has.
            "prefixItems" if dialect.knows(key) => tuple = true,
            "items" if value.as_array().is_some() => tuple = true,
            "deprecated" => deprecated = value.is_true(),
            "oneOf" | "anyOf" => variants = value.as_array().or(variants),
            other => {
                if let Some(i) = NOTES.iter().position(|n| *n == other) {
                    found[i] = Some(value);
                }
            }
        }
    }
    let (Place::Property { name, .. } | Place::Definition { name }) = place;
    let title = title.filter(|t| !same_words(t, name));
    let mut text = description
        .or(title)
        .map(str::to_owned)
        .filter(|s| !s.trim().is_empty());
    if let Some(lines) = variants.and_then(|members| variant_docs(members, dialect)) {
        let text = text.get_or_insert_with(String::new);
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&lines);
    }
    let format = found[0].and_then(Json::as_str);
    let (low, high) = format.map_or((None, None), format_bounds);
    let optional = matches!(
        place,
        Place::Property {
            required: false,
            ..
        }
    );
    let mut notes = Vec::new();
    for (key, value) in NOTES.into_iter().zip(found) {
        match value {
            None => {}
            Some(Json::Bool(false)) if key != "default" => {}
            Some(_) if tuple && (key == "minItems" || key == "maxItems") => {}
            // Number encodings say nothing the type does not.
            Some(Json::String(s))
                if key == "format" && matches!(*s, "double" | "float" | "int64") => {}
            Some(Json::Null) if key == "default" && optional => {}
            Some(value)
                if key == "default"
                    && text.as_deref().is_some_and(|t| states_default(t, value)) => {}
            Some(Json::Number(n)) if key == "minimum" && n.number().as_f64() == low => {}
            Some(Json::Number(n)) if key == "maximum" && n.number().as_f64() == high => {}
            Some(Json::Number(n))
                if matches!(key, "minimum" | "maximum")
                    && n.number().as_f64().is_some_and(|v| v.abs() == SAFE_INTEGER) => {}
            // A number past the largest double is read as it: it bounds
            // nothing.
            Some(Json::Number(n)) if n.number().as_f64().is_some_and(|v| v.abs() == f64::MAX) => {}
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

/// The docs of a union's constant members, one line each (`"fast": Skips
/// the checks.`), when any has one: the union of their values is printed
/// as a union of literals, which has no place for them.
fn variant_docs(members: &[Json<'_>], dialect: Dialect) -> Option<String> {
    let mut lines = String::new();
    for member in members {
        let Json::Object(map) = member else { continue };
        let value = (map.get("const").filter(|_| dialect.knows("const"))).or_else(|| {
            match map.get("enum") {
                Some(Json::Array([one])) => Some(one),
                _ => None,
            }
        });
        let doc = map.get("description").or_else(|| map.get("title"));
        if let (Some(value), Some(Json::String(doc))) = (value, doc) {
            let doc = doc.split_whitespace().collect::<Vec<_>>().join(" ");
            if doc.is_empty() {
                continue;
            }
            if !lines.is_empty() {
                lines.push('\n');
            }
            lines.push_str(&to_canonical(value, Some(MAX_NOTE_CHARS)));
            lines.push_str(": ");
            lines.push_str(&doc);
        }
    }
    (!lines.is_empty()).then_some(lines)
}

/// The least and greatest values an integer encoding (`format`) allows.
fn format_bounds(format: &str) -> (Option<f64>, Option<f64>) {
    match format {
        "int8" => (Some(-128.0), Some(127.0)),
        "int16" => (Some(-32_768.0), Some(32_767.0)),
        "int32" => (Some(-2_147_483_648.0), Some(2_147_483_647.0)),
        "uint8" => (Some(0.0), Some(255.0)),
        "uint16" => (Some(0.0), Some(65_535.0)),
        "uint32" => (Some(0.0), Some(4_294_967_295.0)),
        "uint64" | "uint" => (Some(0.0), None),
        _ => (None, None),
    }
}

/// Whether `title` says no more than `name`: the same letters and digits,
/// ignoring case, spaces and punctuation (`"Section Anchor"`, `section_anchor`).
fn same_words(title: &str, name: &str) -> bool {
    let words = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<Vec<char>>()
    };
    words(title) == words(name)
}

/// How many mentions of "default" in one text [`states_default`] tries.
const DEFAULT_MENTIONS: usize = 16;

/// Whether `text` already gives `value` as the default: the word
/// "default" (or "defaults"), then only punctuation and the words "is",
/// "to", "value" and "of", then the value itself as a whole word (a
/// string's own text, a number or a boolean): `Defaults to "info".`,
/// `Default is css.`, `(default: 10)`.
fn states_default(text: &str, value: &Json<'_>) -> bool {
    // Most texts name no default: nothing to spell out or lower-case then.
    if !(text.as_bytes().windows(7)).any(|w| w.eq_ignore_ascii_case(b"default")) {
        return false;
    }
    let number;
    let value = match *value {
        Json::String(s) => s,
        Json::Bool(b) => {
            if b {
                "true"
            } else {
                "false"
            }
        }
        Json::Number(n) => {
            number = n.number().to_string();
            &number
        }
        _ => return false,
    };
    let value = value.trim();
    if value.is_empty() || !text.is_ascii() || !value.is_ascii() {
        return false;
    }
    // "default" in any case; the value as written. Only the first few
    // mentions are tried, each against the whole value: a text that says
    // "default" thousands of times would otherwise cost that many times
    // the value (the note is then kept, which says nothing wrong).
    let lower = text.to_ascii_lowercase();
    lower
        .match_indices("default")
        .take(DEFAULT_MENTIONS)
        .any(|(at, _)| {
            let after = at + "default".len();
            let mut rest = &text[after..];
            rest = rest.strip_prefix(['s', 'S']).unwrap_or(rest);
            loop {
                rest = rest.trim_start_matches([' ', ':', '=', '(', '"', '\'', '`']);
                let word = rest
                    .split(|c: char| !c.is_ascii_alphabetic())
                    .next()
                    .unwrap_or("");
                if ["is", "to", "value", "of"]
                    .iter()
                    .any(|filler| word.eq_ignore_ascii_case(filler))
                {
                    rest = &rest[word.len()..];
                } else {
                    break;
                }
            }
            // The whole value: `1` is not the start of `1.5`, nor `fast` of
            // `fast-path`.
            rest.strip_prefix(value).is_some_and(|after| {
                let mut next = after.chars();
                match next.next() {
                    None => true,
                    Some(c) if c.is_ascii_alphanumeric() => false,
                    Some('.' | '-' | '_' | '/' | ':') => {
                        !next.next().is_some_and(|c| c.is_ascii_alphanumeric())
                    }
                    Some(_) => true,
                }
            })
        })
}

/// The keywords a doc comment notes, in the order it notes them (`format`
/// first: the others look at it).
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::from_value;
    use bumpalo::Bump;
    use serde_json::{Value, json};

    fn doc(schema: Value, place: Place<'_>) -> Doc {
        let bump = Bump::new();
        doc_of(&from_value(&schema, &bump), place, Dialect::default())
    }

    fn notes(doc: &Doc) -> Vec<(&str, &str)> {
        doc.notes.iter().map(|(k, v)| (*k, v.as_str())).collect()
    }

    /// A definition with no name a title could restate.
    const ALONE: Place<'static> = Place::Definition { name: "" };

    const OPTIONAL: Place<'static> = Place::Property {
        name: "section_anchor",
        required: false,
    };

    /// Keywords the dialect lacks say nothing: no `const` member doc in
    /// draft 4, and `prefixItems` does not make a tuple (whose length the
    /// type would say) in draft 7.
    #[test]
    fn keywords_the_dialect_lacks_say_nothing_in_docs() {
        let bump = Bump::new();
        let members = json!({"oneOf": [{"const": "fast", "description": "Quick."},
                                       {"const": "slow", "description": "Careful."}]});
        let members = from_value(&members, &bump);
        let text = |dialect| doc_of(&members, ALONE, dialect).text;
        assert_eq!(text(Dialect::Draft4), None);
        assert_eq!(
            text(Dialect::Draft6).as_deref(),
            Some("\"fast\": Quick.\n\"slow\": Careful.")
        );
        let list = json!({"prefixItems": [{}], "minItems": 2});
        let list = from_value(&list, &bump);
        let bounds = |dialect| doc_of(&list, ALONE, dialect).notes.len();
        assert_eq!(
            (bounds(Dialect::Draft7), bounds(Dialect::Draft2020)),
            (1, 0)
        );
    }

    #[test]
    fn constant_members_keep_their_docs() {
        let schema = json!({"description": "How to run.", "oneOf": [
            {"const": "fast", "description": "Skips\n  the checks."},
            {"enum": ["slow"], "title": "Runs every check"},
            {"const": "other"},
            {"type": "object", "description": "not a constant"}
        ]});
        assert_eq!(
            doc(schema, ALONE).text.as_deref(),
            Some("How to run.\n\"fast\": Skips the checks.\n\"slow\": Runs every check")
        );
        let plain = json!({"anyOf": [{"const": 1}, {"const": 2}]});
        assert_eq!(doc(plain, ALONE).text, None);
    }

    #[test]
    fn a_title_that_restates_the_name_is_left_out() {
        let titled = json!({"type": "string", "title": "Section Anchor"});
        assert_eq!(doc(titled.clone(), OPTIONAL).text, None);
        // Elsewhere, or saying more, it stays.
        assert_eq!(doc(titled, ALONE).text.as_deref(), Some("Section Anchor"));
        let more = json!({"title": "Section anchor (optional)"});
        assert!(doc(more, OPTIONAL).text.is_some());
    }

    #[test]
    fn notes_the_type_or_place_already_say_are_left_out() {
        let schema = json!({"default": null, "minimum": -9007199254740991i64, "maximum": 9007199254740991i64});
        assert!(notes(&doc(schema.clone(), OPTIONAL)).is_empty());
        let huge = json!({"exclusiveMaximum": f64::MAX, "maxLength": f64::MAX, "minimum": -f64::MAX, "multipleOf": 2});
        assert_eq!(notes(&doc(huge, OPTIONAL)), [("multipleOf", "2")]);
        let required = Place::Property {
            name: "x",
            required: true,
        };
        assert_eq!(notes(&doc(schema, required)), [("default", "null")]);
        let schema = json!({"format": "uint8", "minimum": 0, "maximum": 100});
        assert_eq!(
            notes(&doc(schema, ALONE)),
            [("format", "uint8"), ("maximum", "100")]
        );
        let schema = json!({"format": "int32", "minimum": -2147483648i64, "maximum": 2147483647});
        assert_eq!(notes(&doc(schema, ALONE)), [("format", "int32")]);
        for format in ["double", "float", "int64"] {
            assert!(notes(&doc(json!({"format": format}), ALONE)).is_empty());
        }
    }

    #[test]
    fn a_definitions_title_that_restates_its_name_is_left_out() {
        let item = Place::Definition { name: "Item" };
        assert_eq!(doc(json!({"title": "Item"}), item).text, None);
        assert_eq!(
            doc(json!({"title": "Inventory item"}), item)
                .text
                .as_deref(),
            Some("Inventory item")
        );
        // A description is the doc, whatever the title.
        assert_eq!(
            doc(json!({"title": "Item", "description": "An item."}), item)
                .text
                .as_deref(),
            Some("An item.")
        );
    }

    #[test]
    fn a_default_the_description_gives_is_not_noted_again() {
        let stated = [
            json!({"description": "Level to show. Defaults to \"info\".", "default": "info"}),
            json!({"description": "Scale. Default is css.", "default": "css"}),
            json!({"description": "How many (default: 10).", "default": 10}),
            json!({"description": "Whether to wait; defaults to true", "default": true}),
        ];
        for schema in stated {
            assert!(notes(&doc(schema.clone(), ALONE)).is_empty(), "{schema}");
        }
        let kept = [
            // Given, but not as the default.
            json!({"description": "Show info lines. Defaults to all.", "default": "info"}),
            // Part of another word.
            json!({"description": "Defaults to 100.", "default": 10}),
            // No default mentioned.
            json!({"description": "Number of steps", "default": 5}),
            // Not right after it.
            json!({"description": "The default, unless the caller asks otherwise, is 5", "default": 5}),
            json!({"description": "Not the default. Set false to disable.", "default": false}),
            json!({"description": "Defaults: none. Max 5.", "default": 5}),
            // Only the start of what the description gives.
            json!({"description": "Defaults to 1.5 on slow links.", "default": 1}),
            json!({"description": "Mode (default: fast-path).", "default": "fast"}),
            // Another value, in another case.
            json!({"description": "Defaults to info.", "default": "INFO"}),
            json!({"description": "Defaults to the empty list", "default": []}),
        ];
        for schema in kept {
            assert_eq!(notes(&doc(schema.clone(), ALONE)).len(), 1, "{schema}");
        }
    }
}
