//! Proptest strategies for hostile tool sets, shared by the property tests
//! and the `hostile_corpus` example (which feeds the real checkers).

use codemode_core::ToolDef;
use proptest::prelude::*;
use serde_json::Value;

const KEYS: &[&str] = &[
    "type",
    "properties",
    "items",
    "prefixItems",
    "required",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "additionalProperties",
    "description",
    "default",
    "format",
    "minItems",
    "maxItems",
    "nullable",
    "patternProperties",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "not",
    "unevaluatedProperties",
    "title",
    "deprecated",
    "",
    "*/",
    "\"",
    "\\",
    "a b",
    "__proto__",
    "constructor",
    "class",
    "é",
    "\u{2028}",
    "\n",
    "0",
    "ﬁ",
    "__x",
    "str",
    "list",
    "kind",
    "a",
    "x-y",
    "toString",
    "valueOf",
    "hasOwnProperty",
];

const STRINGS: &[&str] = &[
    "object",
    "array",
    "string",
    "integer",
    "number",
    "boolean",
    "null",
    "#",
    "#/$defs/a",
    "#/definitions/b",
    "#/properties/x",
    "#/$defs/%20",
    "http://x/y",
    "a",
    "b",
    "x",
    "*/",
    "\"\"\"",
    "trailing \\",
    "ctrl \u{1}\u{7f}",
    "line\r\nbreak",
    "\u{2028}sep",
    "# c",
    "'",
    "{}",
    "Promise",
    "Tools",
    "type: ignore",
    "x # type: ignore[misc]",
    "mypy: ignore-errors",
    "pyright: basic",
    "@ts-expect-error",
    "/* @ts-ignore */",
];

const NAMES: &[&str] = &[
    "a",
    "b",
    "get-x",
    "kv.set",
    "class",
    "__init__",
    "ns/tool",
    "é",
    "ﬁle",
    "with space",
    "\"quote",
    "back\\slash",
    "line\nbreak",
    "\u{2028}",
    "",
    "tools",
    "ToolCallError",
    "_private",
    "x",
    "Tools",
    "__getitem__",
    "Any",
    "str",
    "overload",
    "AArgs",
    "b # type: ignore",
];

pub fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (i64::MAX as u64 + 1..=u64::MAX).prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        prop::sample::select(STRINGS).prop_map(Value::from),
    ];
    leaf.prop_recursive(8, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                )
            }),
        ]
    })
}

pub fn tool() -> impl Strategy<Value = ToolDef> {
    (
        prop::sample::select(NAMES),
        prop::option::of(prop::sample::select(STRINGS)),
        json_value(),
        prop::option::of(json_value()),
    )
        .prop_map(|(name, description, input, output)| {
            let mut tool = ToolDef::new(name, input);
            tool.description = description.map(str::to_owned);
            tool.output_schema = output;
            tool
        })
}

pub fn tools() -> impl Strategy<Value = Vec<ToolDef>> {
    prop::collection::vec(tool(), 0..8)
}
