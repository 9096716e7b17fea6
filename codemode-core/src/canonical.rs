//! Canonical JSON text: keys sorted, no spaces, written without recursion.
//!
//! Used for identities of shared definitions and for values quoted in doc
//! comments (`default`, `const`). It works on arbitrarily deep values because
//! it keeps its own stack instead of using the call stack.

use crate::json::Json;
use std::fmt::Write as _;

/// Writes `value` as canonical JSON. When `limit` is given and the text would
/// be longer, it is cut at a character boundary and ends with `…`.
pub(crate) fn to_canonical(value: &Json<'_>, limit: Option<usize>) -> String {
    enum Step<'s, 'a> {
        Value(&'s Json<'a>),
        Text(&'static str),
        Key(&'a str),
    }
    let mut out = String::new();
    let mut stack = vec![Step::Value(value)];
    while let Some(step) = stack.pop() {
        if let Some(max) = limit
            && out.len() > max
        {
            out.truncate(out.floor_char_boundary(max));
            out.push('…');
            return out;
        }
        match step {
            Step::Text(t) => out.push_str(t),
            Step::Key(k) => {
                push_json_string(&mut out, k);
                out.push(':');
            }
            Step::Value(v) => match *v {
                Json::Null => out.push_str("null"),
                Json::Bool(b) => out.push_str(if b { "true" } else { "false" }),
                Json::Number(n) => {
                    let _ = write!(out, "{}", n.number());
                }
                Json::String(s) => push_json_string(&mut out, s),
                Json::Array(items) => {
                    out.push('[');
                    stack.push(Step::Text("]"));
                    for (i, item) in items.iter().enumerate().rev() {
                        stack.push(Step::Value(item));
                        if i > 0 {
                            stack.push(Step::Text(","));
                        }
                    }
                }
                Json::Object(fields) => {
                    out.push('{');
                    stack.push(Step::Text("}"));
                    // Entries are kept sorted by key.
                    for (i, (k, v)) in fields.iter().enumerate().rev() {
                        stack.push(Step::Value(v));
                        stack.push(Step::Key(k));
                        if i > 0 {
                            stack.push(Step::Text(","));
                        }
                    }
                }
            },
        }
    }
    out
}

/// Appends `s` as a JSON string literal that is also a valid JavaScript,
/// TypeScript and Python string literal: quotes, backslashes, control
/// characters and U+2028/U+2029 are escaped.
pub(crate) fn push_json_string(out: &mut String, s: &str) {
    push_quoted(out, s, Escape::Canonical);
}

/// `s` as a string literal for TypeScript (and JSON) source text: as
/// [`push_json_string`] writes it, and with every character that prints as
/// nothing or as a plain space escaped as well (`"a\u200cb"`, not a name
/// that looks like `"ab"`), so a reader sees which string it is. A
/// character past U+FFFF is escaped as its UTF-16 pair, which JavaScript
/// and JSON read as the one character.
pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_quoted(&mut out, s, Escape::Utf16);
    out
}

/// `s` as a Python string literal, escaped as [`json_string`] escapes it
/// but for characters past U+FFFF, which are written as themselves even
/// where they print as nothing (tag characters, some variation selectors).
/// A UTF-16 pair would be two lone surrogates in Python, and pyright reads
/// a `\U000xxxxx` escape past U+FFFF as its low 16 bits only (1.1.414:
/// `"\U000e0001"` is `"\u0001"` to it), so that neither a literal type
/// nor a key with such an escape would admit the string it spells.
pub(crate) fn python_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_quoted(&mut out, s, Escape::Python);
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Escape {
    /// Only what a JSON string must escape, and the line separators.
    Canonical,
    /// Also unseen characters, past U+FFFF as a UTF-16 pair.
    Utf16,
    /// Also unseen characters up to U+FFFF; past it, written as they are.
    Python,
}

fn push_quoted(out: &mut String, s: &str, escape: Escape) {
    use std::fmt::Write as _;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if escape != Escape::Canonical && unseen(c) => match (escape, c as u32) {
                (_, n @ ..=0xffff) => {
                    let _ = write!(out, "\\u{n:04x}");
                }
                (Escape::Python, _) => out.push(c),
                _ => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        let _ = write!(out, "\\u{unit:04x}");
                    }
                }
            },
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Whether `c` prints as nothing or as a plain space, or only changes how
/// the character before it looks: C1 controls, spaces other than U+0020,
/// format characters (soft hyphen, zero-width and joining characters,
/// direction marks and overrides, word joiners, the byte order mark, tag
/// characters), fillers, and variation selectors.
pub(crate) fn unseen(c: char) -> bool {
    matches!(
        c,
        '\u{80}'..='\u{a0}'
            | '\u{ad}'
            | '\u{34f}'
            | '\u{61c}'
            | '\u{115f}'..='\u{1160}'
            | '\u{1680}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{2000}'..='\u{200f}'
            | '\u{202a}'..='\u{202f}'
            | '\u{205f}'..='\u{206f}'
            | '\u{3000}'
            | '\u{3164}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff0}'..='\u{fffb}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::from_value;
    use bumpalo::Bump;
    use serde_json::{Value, json};

    fn canonical(value: &Value, limit: Option<usize>) -> String {
        to_canonical(&from_value(value, &Bump::new()), limit)
    }

    #[test]
    fn sorts_keys_at_every_level() {
        let v = json!({"b": [1, {"z": null, "a": true}], "a": "x"});
        assert_eq!(
            canonical(&v, None),
            r#"{"a":"x","b":[1,{"a":true,"z":null}]}"#
        );
    }

    #[test]
    fn matches_serde_json_for_sorted_input() {
        let v = json!({"a": [1.5, -2, "q\"\\\n"], "b": {}, "c": []});
        assert_eq!(canonical(&v, None), serde_json::to_string(&v).unwrap());
    }

    #[test]
    fn limit_cuts_and_marks() {
        let v = json!(["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"]);
        let text = canonical(&v, Some(8));
        assert!(
            text.ends_with('…') && text.len() <= 8 + '…'.len_utf8() + 12,
            "{text}"
        );
    }

    #[test]
    fn deep_values_do_not_recurse() {
        let mut v = json!(1);
        for _ in 0..50_000 {
            v = Value::Array(vec![v]);
        }
        let text = canonical(&v, None);
        assert_eq!(text.len(), 100_001);
        // Drop iteratively too, so the test thread's stack is not the limit.
        let mut cur = v;
        while let Value::Array(mut items) = cur {
            cur = items.pop().unwrap_or(Value::Null);
        }
    }

    #[test]
    fn characters_past_the_basic_plane_are_written_as_each_language_reads_them() {
        // A tag character and a variation selector from the supplement:
        // escaped as a UTF-16 pair for TypeScript, written as they are for
        // Python, where pyright misreads a `\U` escape past U+FFFF.
        let s = "a\u{e0041}\u{e0100}";
        assert_eq!(json_string(s), r#""a\udb40\udc41\udb40\udd00""#);
        assert_eq!(python_string(s), "\"a\u{e0041}\u{e0100}\"");
        // Those up to U+FFFF are still escaped in both.
        assert_eq!(python_string("a\u{200c}b"), r#""a\u200cb""#);
        // Both read back as the same string.
        let back: String = serde_json::from_str(&json_string(s)).unwrap();
        assert_eq!(back, s);
        assert_eq!(python_string("é名😀"), "\"é名😀\"");
    }

    #[test]
    fn source_literals_show_characters_that_print_as_nothing() {
        assert_eq!(
            json_string("a\u{200c}b\u{a0}c\u{202e}d\u{85}é名"),
            r#""a\u200cb\u00a0c\u202ed\u0085é名""#
        );
        // The canonical form keeps them as they are.
        let mut canonical = String::new();
        push_json_string(&mut canonical, "a\u{200c}b");
        assert_eq!(canonical, "\"a\u{200c}b\"");
    }

    #[test]
    fn escapes_line_separators_and_controls() {
        assert_eq!(
            json_string("a\u{2028}b\u{2029}\u{1}"),
            r#""a\u2028b\u2029\u0001""#
        );
    }
}
