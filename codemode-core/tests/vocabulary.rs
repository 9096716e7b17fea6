//! One test per JSON Schema rule, on both printers, through the public API.

use codemode_core::{Language, ToolDef, json_schema_to_type, render, render_report};
use serde_json::{Value, json};

fn ts(schema: Value) -> String {
    json_schema_to_type(Language::TypeScript, &schema)
}

fn py(schema: Value) -> String {
    json_schema_to_type(Language::Python, &schema)
}

/// The TypeScript SDK of one tool with `schema` as its input.
fn ts_sdk(schema: Value) -> String {
    render(Language::TypeScript, &[ToolDef::new("t", schema)])
}

fn py_sdk(schema: Value) -> String {
    render(Language::Python, &[ToolDef::new("t", schema)])
}

/// The Python SDK of one tool that takes one dict (a tool reached by
/// subscript), so its arguments are the class `TArgs`.
fn py_class_sdk(schema: Value) -> String {
    render(Language::Python, &[ToolDef::new("t!", schema)])
}

fn reasons(schema: Value) -> Vec<(String, String)> {
    render_report(Language::TypeScript, &[ToolDef::new("t", schema)])
        .degradations
        .into_iter()
        .map(|d| (d.pointer, d.reason))
        .collect()
}

#[test]
fn scalar_types() {
    for (name, t, p) in [
        ("string", "string", "str"),
        ("integer", "number", "int"),
        ("number", "number", "float"),
        ("boolean", "boolean", "bool"),
        ("null", "null", "None"),
    ] {
        assert_eq!(ts(json!({"type": name})), t);
        assert_eq!(py(json!({"type": name})), p);
    }
}

#[test]
fn type_arrays_are_unions() {
    assert_eq!(ts(json!({"type": ["string", "null"]})), "string | null");
    assert_eq!(py(json!({"type": ["string", "null"]})), "str | None");
    assert_eq!(
        ts(json!({"type": ["integer", "string", "integer"]})),
        "number | string"
    );
}

#[test]
fn enum_and_const_are_literals() {
    assert_eq!(
        ts(json!({"enum": ["a", 1, true, null]})),
        r#""a" | 1 | true | null"#
    );
    assert_eq!(
        py(json!({"enum": ["a", 1, true, null]})),
        r#"Literal["a", 1, True] | None"#
    );
    assert_eq!(ts(json!({"const": "x\"y"})), r#""x\"y""#);
    assert_eq!(py(json!({"const": -3})), "Literal[-3]");
    // Python's Literal takes no floats: widen to float.
    assert_eq!(py(json!({"enum": [1.5, 2]})), "float | Literal[2]");
    assert_eq!(ts(json!({"enum": []})), "never");
    assert_eq!(py(json!({"enum": []})), "Never");
}

#[test]
fn enum_overrides_type() {
    assert_eq!(
        ts(json!({"type": "string", "enum": ["a", "b"]})),
        r#""a" | "b""#
    );
}

#[test]
fn any_of_and_one_of_are_unions() {
    let schema = json!({"anyOf": [{"type": "string"}, {"type": "integer"}]});
    assert_eq!(ts(schema.clone()), "string | number");
    assert_eq!(py(schema), "str | int");
    assert_eq!(
        ts(json!({"oneOf": [{"type": "string"}, {"type": "null"}]})),
        "string | null"
    );
    // A member that allows anything makes the union allow anything.
    assert_eq!(ts(json!({"anyOf": [{"type": "string"}, {}]})), "unknown");
}

#[test]
fn all_of_is_an_intersection_in_typescript() {
    let schema = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "integer"}}}
    ]});
    assert_eq!(ts(schema), "{ a: string } & { b?: number }");
    // A single-member allOf (as older schemars emits around a $ref) is the member.
    assert_eq!(ts(json!({"allOf": [{"type": "string"}]})), "string");
}

#[test]
fn all_of_over_unions_that_multiply_out_too_far_degrades() {
    let union_of = |i: usize, n: usize| {
        let members: Vec<_> = (0..n)
            .map(|j| json!({"type": "object", "properties": {format!("a{i}_{j}"): {"type": "string"}}}))
            .collect();
        json!({"anyOf": members})
    };
    // 10^3 alternatives are printed; 10^4 would be more than tsc takes in
    // its stride (it gives up past 100,000), and are degraded.
    for (parts, degraded) in [(3, false), (4, true)] {
        let all: Vec<_> = (0..parts).map(|i| union_of(i, 10)).collect();
        let tool = ToolDef::new("t", json!({"allOf": all}));
        let t = render_report(Language::TypeScript, &[tool]);
        assert_eq!(!t.degradations.is_empty(), degraded, "{}", t.text);
        assert_eq!(t.text.contains("t(args: unknown)"), degraded, "{}", t.text);
    }
    // Counted through references to the unions, too.
    let defs: serde_json::Map<String, Value> =
        (0..4).map(|i| (format!("U{i}"), union_of(i, 10))).collect();
    let refs: Vec<_> = (0..4)
        .map(|i| json!({"$ref": format!("#/$defs/U{i}")}))
        .collect();
    let tool = ToolDef::new("t", json!({"allOf": refs, "$defs": defs}));
    let t = render_report(Language::TypeScript, &[tool]);
    assert_eq!(t.degradations.len(), 1, "{}", t.text);
}

#[test]
fn all_of_merges_objects_in_python() {
    let merged = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "integer"}}}
    ]});
    // As a tool's arguments, the merged keys are keyword parameters.
    let sdk = py_sdk(merged.clone());
    assert!(
        sdk.contains("async def t(self, *, a: str, b: int = ...) -> Any: ..."),
        "{sdk}"
    );
    // Other keys: typed as the members that type them agree, none past a
    // closed member.
    let open = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "object", "additionalProperties": {"type": "string"}}
    ]});
    let sdk = py_sdk(open);
    assert!(
        sdk.contains("async def t(self, *, a: str = ..., **extra: str) -> Any: ..."),
        "{sdk}"
    );
    // An allOf reached through a reference, inside another, merges too;
    // and an allOf inside a union is one more alternative.
    let nested = json!({
        "allOf": [{"$ref": "#/$defs/A"}, {"type": "object", "properties": {"d": {"type": "number"}}}],
        "$defs": {
            "A": {"allOf": [{"$ref": "#/$defs/C"}, {"type": "object", "properties": {"b": {"type": "integer"}}}]},
            "C": {"type": "object", "properties": {"c": {"type": "string"}}, "required": ["c"]}
        }
    });
    let sdk = py_sdk(nested);
    assert!(
        sdk.contains("async def t(self, *, b: int = ..., c: str, d: float = ...) -> Any: ..."),
        "{sdk}"
    );
    let alternatives = json!({"type": "object", "properties": {"p": {"allOf": [
        {"anyOf": [
            {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
            {"allOf": [
                {"type": "object", "properties": {"y": {"type": "string"}}, "required": ["y"]},
                {"type": "object", "properties": {"z": {"type": "string"}}, "required": ["z"]}
            ]}
        ]},
        {"type": "object", "properties": {"w": {"type": "integer"}}, "required": ["w"]}
    ]}}, "required": ["p"]});
    let sdk = py_sdk(alternatives);
    assert!(sdk.contains("p: TArgsP | TArgsP2"), "{sdk}");
    assert!(
        sdk.contains("    w: ReadOnly[int]\n    y: ReadOnly[str]\n    z: ReadOnly[str]\n"),
        "{sdk}"
    );
    // A key the members type differently: anything and T is T; two other
    // types are Any, and recorded.
    let conflict = ToolDef::new(
        "t",
        json!({"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}, "c": {}}},
            {"type": "object", "properties": {"a": {"type": "integer"}, "c": {"type": "boolean"}}}
        ]}),
    );
    let p = render_report(Language::Python, &[conflict]);
    assert!(
        p.text
            .contains("async def t(self, *, a: Any = ..., c: bool = ...) -> Any: ..."),
        "{}",
        p.text
    );
    let reasons: Vec<&str> = p.degradations.iter().map(|d| d.reason.as_str()).collect();
    assert_eq!(
        reasons,
        ["allOf members give the key \"a\" different types; it is typed Any"]
    );
    // A merged class takes no other keys, which a member allows: recorded.
    let typed_rest = ToolDef::new(
        "t",
        json!({"type": "object", "properties": {"p": {"allOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
            {"type": "object", "properties": {"b": {"type": "integer"}}}
        ]}}}),
    );
    let p = render_report(Language::Python, &[typed_rest]);
    assert!(
        p.degradations
            .iter()
            .any(|d| d.pointer == "/inputSchema/properties/p"
                && d.reason.starts_with("keys beside the listed properties")),
        "{:?}",
        p.degradations
    );
    // A member that only lists required keys makes them required.
    let required_only = json!({
        "allOf": [{"$ref": "#/$defs/Base"}, {"required": ["a"]}],
        "$defs": {"Base": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}}
    });
    assert!(
        py_sdk(required_only.clone())
            .contains("async def t(self, *, a: str, b: int = ...) -> Any: ..."),
        "{}",
        py_sdk(required_only)
    );
    // Anywhere else, one class.
    let sdk = py_sdk(json!({"type": "object", "properties": {"p": merged}, "required": ["p"]}));
    assert!(
        sdk.contains(
            "class TArgsP(TypedDict):\n    a: ReadOnly[str]\n    b: NotRequired[ReadOnly[int]]\n"
        ),
        "{sdk}"
    );
}

#[test]
fn all_of_of_non_objects_degrades_in_python_only() {
    let tool = ToolDef::new(
        "t",
        json!({"properties": {"x": {"allOf": [{"type": "string"}, {"minLength": 1, "type": "string", "format": "email"}, {"type": "integer"}]}}}),
    );
    let t = render_report(Language::TypeScript, std::slice::from_ref(&tool));
    assert!(t.text.contains("x?: string & number"), "{}", t.text);
    assert!(t.degradations.is_empty());
    let p = render_report(Language::Python, &[tool]);
    assert!(
        p.text
            .contains("async def t(self, *, x: Any = ...) -> Any: ..."),
        "{}",
        p.text
    );
    assert_eq!(p.degradations.len(), 1);
    assert_eq!(p.degradations[0].pointer, "/inputSchema/properties/x");
}

#[test]
fn properties_and_required() {
    let schema = json!({
        "type": "object",
        "properties": {"b": {"type": "string"}, "a": {"type": "integer"}},
        "required": ["b", "ghost"]
    });
    // Sorted keys; optional is `?`; a required key with no schema is unknown.
    assert_eq!(ts(schema), "{ a?: number; b: string; ghost: unknown }");
}

#[test]
fn optional_and_nullable_stay_apart() {
    let sdk = ts_sdk(json!({
        "type": "object",
        "properties": {
            "opt": {"type": "string"},
            "nul": {"type": ["string", "null"]},
            "both": {"anyOf": [{"type": "string"}, {"type": "null"}]}
        },
        "required": ["nul"]
    }));
    assert!(
        sdk.contains("both?: string | null; nul: string | null; opt?: string"),
        "{sdk}"
    );
    let schema = json!({
        "type": "object",
        "properties": {"opt": {"type": "string"}, "nul": {"type": ["string", "null"]}},
        "required": ["nul"]
    });
    let sdk = py_sdk(schema.clone());
    assert!(
        sdk.contains("(self, *, nul: str | None, opt: str = ...)"),
        "{sdk}"
    );
    let sdk = py_class_sdk(schema);
    assert!(
        sdk.contains("    nul: ReadOnly[str | None]\n    opt: NotRequired[ReadOnly[str]]\n"),
        "{sdk}"
    );
}

#[test]
fn additional_properties() {
    assert_eq!(ts(json!({"type": "object"})), "{ [key: string]: unknown }");
    assert_eq!(
        ts(json!({"type": "object", "additionalProperties": {"type": "integer"}})),
        "{ [key: string]: number }"
    );
    assert_eq!(
        ts(json!({"type": "object", "additionalProperties": false})),
        "{ [key: string]: never }"
    );
    assert_eq!(
        py(json!({"type": "object", "additionalProperties": {"type": "integer"}})),
        "dict[str, int]"
    );
    assert_eq!(py(json!({"type": "object"})), "dict[str, Any]");
    // Listed properties beside an index signature: the signature admits them.
    assert_eq!(
        ts(
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": {"type": "integer"}})
        ),
        "{ a: string; [key: string]: number | string }"
    );
    assert_eq!(
        ts(json!({"properties": {"a": {"type": "string"}}, "additionalProperties": true})),
        "{ a?: string; [key: string]: unknown }"
    );
}

#[test]
fn arrays_and_precedence() {
    assert_eq!(ts(json!({"type": "array"})), "unknown[]");
    assert_eq!(py(json!({"type": "array"})), "list[Any]");
    assert_eq!(
        ts(json!({"type": "array", "items": {"type": ["string", "null"]}})),
        "(string | null)[]"
    );
    assert_eq!(
        py(json!({"type": "array", "items": {"type": ["string", "null"]}})),
        "list[str | None]"
    );
    assert_eq!(
        ts(json!({"items": {"items": {"type": "integer"}}})),
        "number[][]"
    );
    assert_eq!(
        ts(json!({"type": "array", "items": {"enum": [-1, 2]}})),
        "(-1 | 2)[]"
    );
    assert_eq!(
        ts(json!({"type": "array", "items": {"const": -1}})),
        "(-1)[]"
    );
    assert_eq!(
        ts(json!({"items": {"allOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]}})),
        "({ a?: unknown } & { b?: unknown })[]"
    );
}

#[test]
fn tuples() {
    let fixed = json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "minItems": 2, "maxItems": 2});
    assert_eq!(ts(fixed.clone()), "[string, number]");
    assert_eq!(py(fixed), "tuple[str, int]");
    let draft7 = json!({"type": "array", "items": [{"type": "string"}, {"type": "boolean"}], "minItems": 1, "additionalItems": false});
    assert_eq!(ts(draft7.clone()), "[string] | [string, boolean]");
    assert_eq!(py(draft7), "tuple[str] | tuple[str, bool]");
    let open =
        json!({"prefixItems": [{"type": "string"}], "minItems": 1, "items": {"type": "number"}});
    assert_eq!(ts(open.clone()), "[string, ...number[]]");
    assert_eq!(py(open), "tuple[str | float, ...]");
    assert_eq!(ts(json!({"prefixItems": [], "items": false})), "[]");
    assert_eq!(py(json!({"prefixItems": [], "items": false})), "tuple[()]");
    assert_eq!(
        ts(json!({"prefixItems": [{"type": ["string", "null"]}]})),
        "[(string | null)?, ...unknown[]]"
    );
    // Past four optional elements, or where the elements a union of
    // lengths would repeat are heavy, TypeScript keeps `?` (and Python
    // widens past four).
    let five = json!({"prefixItems": vec![json!({"type": "string"}); 5], "items": false});
    assert_eq!(
        ts(five.clone()),
        "[string?, string?, string?, string?, string?]"
    );
    assert_eq!(py(five), "tuple[str, ...]");
    let props: serde_json::Map<String, Value> = (0..70)
        .map(|i| (format!("k{i}"), json!({"type": "string"})))
        .collect();
    let heavy = json!({"type": "object", "properties": props});
    let pair = json!({"prefixItems": [heavy, {"type": "number"}], "minItems": 1, "items": false});
    assert!(
        ts(pair.clone()).ends_with("}, number?]"),
        "{}",
        ts(pair.clone())
    );
    // Python names every object, so a large one repeats only its name.
    assert_eq!(
        py(pair),
        "tuple[dict[str, Any]] | tuple[dict[str, Any], float]"
    );
}

#[test]
fn boolean_schemas() {
    assert_eq!(ts(json!(true)), "unknown");
    assert_eq!(ts(json!(false)), "never");
    assert_eq!(py(json!(true)), "Any");
    assert_eq!(py(json!(false)), "Never");
    assert_eq!(ts(json!({"properties": {"a": false}})), "{ a?: never }");
}

#[test]
fn openapi_nullable() {
    assert_eq!(
        ts(json!({"type": "string", "nullable": true})),
        "string | null"
    );
}

#[test]
fn refs_resolve_to_shared_named_types() {
    let tools = [
        ToolDef::new(
            "a",
            json!({"properties": {"p": {"$ref": "#/$defs/Point"}}, "$defs": {"Point": {"properties": {"x": {"type": "number"}}}}}),
        ),
        ToolDef::new(
            "b",
            json!({"properties": {"q": {"$ref": "#/definitions/Point"}}, "definitions": {"Point": {"properties": {"x": {"type": "number"}}}}}),
        ),
        ToolDef::new(
            "c",
            json!({"properties": {"r": {"$ref": "#/$defs/Point"}}, "$defs": {"Point": {"properties": {"x": {"type": "string"}}}}}),
        ),
    ];
    let sdk = render(Language::TypeScript, &tools);
    // Draft-7 `definitions` resolve like `$defs`. Definitions at different
    // pointers, or with different contents, are different named types,
    // numbered in an order that depends only on their contents.
    assert!(sdk.contains("type Point = { x?: number };"), "{sdk}");
    assert!(sdk.contains("type Point2 = { x?: string };"), "{sdk}");
    assert!(sdk.contains("type Point3 = { x?: number };"), "{sdk}");
    assert!(sdk.contains("  b(args?: { q?: Point3 })"), "{sdk}");
}

#[test]
fn definitions_never_shadow_library_or_sdk_names() {
    let defs = json!({"Node": {"type": "string"}, "Promise": {"type": "integer"}, "ToolCallError": {"type": "boolean"}, "list": {"type": "null"}});
    let props = json!({"a": {"$ref": "#/$defs/Node"}, "b": {"$ref": "#/$defs/Promise"}, "c": {"$ref": "#/$defs/ToolCallError"}, "d": {"$ref": "#/$defs/list"}});
    let sdk = ts_sdk(json!({"properties": props, "$defs": defs}));
    for renamed in [
        "type NodeType = string;",
        "type PromiseType = number;",
        "type ToolCallErrorType = boolean;",
        "type List = null;",
    ] {
        assert!(sdk.contains(renamed), "{renamed}\n{sdk}");
    }
    let sdk = py_sdk(json!({"properties": props, "$defs": defs}));
    for kept in [
        "Node: TypeAlias = 'str'",
        "Promise: TypeAlias = 'int'",
        "ToolCallErrorType: TypeAlias = 'bool'",
        "ListType: TypeAlias = 'None'",
    ] {
        assert!(sdk.contains(kept), "{kept}\n{sdk}");
    }
}

#[test]
fn identical_definitions_are_shared_across_tools() {
    let def = json!({"Point": {"type": "object", "properties": {"x": {"type": "number"}}}});
    let tools = [
        ToolDef::new(
            "a",
            json!({"properties": {"p": {"$ref": "#/$defs/Point"}}, "$defs": def}),
        ),
        ToolDef::new(
            "b",
            json!({"properties": {"q": {"$ref": "#/$defs/Point"}}, "$defs": def}),
        ),
    ];
    let sdk = render(Language::TypeScript, &tools);
    assert_eq!(sdk.matches("type Point").count(), 1, "{sdk}");
    assert!(!sdk.contains("Point2"));
}

#[test]
fn recursion_is_exact() {
    let schema = json!({
        "$defs": {"Link": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Link"}, {"type": "null"}]}, "v": {"type": "integer"}}, "required": ["v"]}},
        "properties": {"head": {"$ref": "#/$defs/Link"}}
    });
    let sdk = ts_sdk(schema.clone());
    assert!(
        sdk.contains("type Link = { next?: Link | null; v: number };"),
        "{sdk}"
    );
    let sdk = py_sdk(schema);
    assert!(
        sdk.contains("class Link(TypedDict):\n    next: NotRequired[ReadOnly[Link | None]]\n"),
        "{sdk}"
    );
}

#[test]
fn root_and_escaped_pointers() {
    let sdk = ts_sdk(json!({"properties": {"child": {"$ref": "#"}}}));
    assert!(sdk.contains("type TArgs = { child?: TArgs };"), "{sdk}");
    // The root's own name is used for the argument, not a second spelling.
    assert!(sdk.contains("  t(args?: TArgs)"), "{sdk}");
    let schema = json!({"properties": {"a": {"$ref": "#/$defs/a~1b~0c"}, "b": {"$ref": "#/$defs/sp%20ace"}}, "$defs": {"a/b~c": {"type": "string"}, "sp ace": {"type": "integer"}}});
    let sdk = ts_sdk(schema);
    assert!(
        sdk.contains("type ABC = string;") && sdk.contains("type SpAce = number;"),
        "{sdk}"
    );
}

#[test]
fn unresolvable_refs_fall_to_the_escape_hatch() {
    let schema = json!({"properties": {"a": {"$ref": "#/$defs/Missing"}, "b": {"$ref": "https://example.com/s.json"}, "c": {"$ref": 5}, "d": {"type": "string"}}});
    assert_eq!(
        ts(schema.clone()),
        "{ a?: unknown; b?: unknown; c?: unknown; d?: string }"
    );
    let got = reasons(schema);
    let pointers: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/inputSchema/properties/a",
            "/inputSchema/properties/b",
            "/inputSchema/properties/c"
        ]
    );
}

#[test]
fn alias_cycles_are_broken() {
    let schema = json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "string"}]}, "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}, "Self": {"$ref": "#/$defs/Self"}}});
    let sdk = ts_sdk(schema.clone());
    assert!(
        sdk.contains("type A = B | string;") && sdk.contains("type B = unknown;"),
        "{sdk}"
    );
    assert_eq!(reasons(schema).len(), 1);
}

/// TypeScript defers an array or tuple type in an alias's body only where
/// it may name an alias; below a tuple's `?` or `...` it never does (a
/// tuple printed as one tuple per length has no `?`). So a
/// definition that reaches itself there, through a union or intersection,
/// is a circular alias (TS2456), and that reference is cut. The checker's
/// own verdict on these shapes is in `tests/golden/refs.ts`. Only a tool
/// reads `B` here, so its arrays and tuples are `readonly`, which defers
/// the same way.
#[test]
fn references_typescript_resolves_first_break_alias_cycles() {
    let tuple_of = |items: Value| json!({"type": "array", "prefixItems": [items], "items": false});
    let one = |def: Value| json!({"properties": {"a": {"$ref": "#/$defs/B"}}, "$defs": {"B": def}});
    let step = json!({"type": "array", "items": {"$ref": "#/$defs/B"}});
    let cases = [
        // An optional element that is an array of the definition, in a
        // tuple written as one tuple per length (so with no `?`): kept.
        (
            json!({"anyOf": [tuple_of(step.clone()), {"type": "string"}]}),
            "type B = readonly [] | readonly [readonly B[]] | string;",
            0,
        ),
        // The same in a tuple with too many optional elements for that,
        // which keeps its `?`: cut.
        (
            json!({"anyOf": [{"type": "array", "prefixItems": [step.clone(), {"type": "string"}, {"type": "string"}, {"type": "string"}, {"type": "string"}], "items": false}, {"type": "string"}]}),
            "type B = readonly [(readonly unknown[])?, string?, string?, string?, string?] | string;",
            1,
        ),
        // A rest element of arrays of it: cut.
        (
            json!({"anyOf": [{"type": "array", "prefixItems": [{"type": "integer"}], "items": step.clone()}, {"type": "null"}]}),
            "type B = readonly [number?, ...(readonly unknown[])[]] | null;",
            1,
        ),
        // The reference itself as an optional element: deferred, kept.
        (
            json!({"anyOf": [tuple_of(json!({"$ref": "#/$defs/B"})), {"type": "string"}]}),
            "type B = readonly [] | readonly [B] | string;",
            0,
        ),
        // A required element, or arrays of arrays outside tuples: kept.
        (
            json!({"anyOf": [{"type": "array", "prefixItems": [step.clone()], "minItems": 1, "items": false}, {"type": "string"}]}),
            "type B = readonly [readonly B[]] | string;",
            0,
        ),
        (
            json!({"anyOf": [{"type": "array", "items": step.clone()}, {"type": "string"}]}),
            "type B = readonly (readonly B[])[] | string;",
            0,
        ),
        // The alias's body itself is a tuple: deferred, kept.
        (
            json!({"type": "array", "prefixItems": [{"type": "integer"}], "items": step.clone()}),
            "type B = readonly [number?, ...(readonly B[])[]];",
            0,
        ),
        // Cutting the reference beside the tuple leaves the tuple as the
        // body, deferred: the one inside it stays.
        (
            json!({"allOf": [tuple_of(tuple_of(json!({"$ref": "#/$defs/B"}))), {"$ref": "#/$defs/B"}]}),
            "type B = readonly [] | readonly [readonly [] | readonly [B]];",
            1,
        ),
    ];
    for (def, want, cut) in cases {
        let sdk = ts_sdk(one(def.clone()));
        assert!(sdk.contains(want), "{def}: want {want}\n{sdk}");
        let got = reasons(one(def.clone()));
        assert_eq!(got.len(), cut, "{def}: {got:?}");
        if cut == 1 {
            assert!(got[0].1.contains("refers to itself"), "{got:?}");
        }
    }
}

/// Sharing names a heavy object, which makes a tuple light enough to print
/// as one tuple per length: the cycle cut judges the tuple as printed,
/// after sharing. Here the tuple is an element of the alias's body, so as
/// one tuple with `?` TypeScript would defer it, but as a union of tuples
/// it resolves the optional `B[]` first (TS2456 unless cut).
#[test]
fn alias_cycles_are_judged_after_sharing() {
    let heavy: serde_json::Map<String, Value> = (0..64)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let heavy = json!({"type": "object", "properties": heavy});
    let inner = json!({"type": "array", "items": false, "prefixItems": [
        {"type": "array", "items": {"$ref": "#/$defs/B"}},
        {"type": "array", "items": heavy},
        {"type": "string"}, {"type": "string"}, {"type": "string"}
    ]});
    let schema = json!({
        "properties": {"b": {"$ref": "#/$defs/B"}, "o": heavy},
        "$defs": {"B": {"type": "array", "minItems": 1, "items": false, "prefixItems": [inner, {"type": "string"}]}}
    });
    let sdk = ts_sdk(schema.clone());
    assert!(
        sdk.contains("type B = readonly [readonly [(readonly unknown[])?, ")
            && !sdk.contains("readonly B[]"),
        "{sdk}"
    );
    let got = reasons(schema);
    assert!(
        got.len() == 1 && got[0].1.contains("refers to itself"),
        "{got:?}"
    );
}

/// `{"type": "object"}` beside a member with `additionalProperties: false`
/// (in place or named) adds no key: the member forbids the others. Beside
/// an open member it stays, as what lets other keys through.
#[test]
fn any_object_beside_a_closed_member_adds_nothing() {
    let closed = json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
    let open = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let schema = json!({
        "type": "object",
        "properties": {
            "inline": {"allOf": [{"type": "object"}, closed]},
            "named": {"type": "object", "allOf": [{"$ref": "#/$defs/Closed"}]},
            "open": {"allOf": [{"type": "object"}, open]}
        },
        "$defs": {"Closed": closed}
    });
    let sdk = ts_sdk(schema.clone());
    for want in [
        "inline?: { a?: string }",
        "named?: Closed",
        "open?: { [key: string]: unknown } & { a?: string }",
    ] {
        assert!(sdk.contains(want), "{want} in\n{sdk}");
    }
    assert_eq!(reasons(schema), []);
}

#[test]
fn malformed_nodes_degrade_alone() {
    for (bad, pointer) in [
        (
            json!({"type": "object", "properties": 5}),
            "/inputSchema/properties/x",
        ),
        (json!({"items": "x"}), "/inputSchema/properties/x/items"),
        (
            json!({"type": "object", "required": 5}),
            "/inputSchema/properties/x",
        ),
        (json!({"enum": {}}), "/inputSchema/properties/x"),
        (json!(7), "/inputSchema/properties/x"),
        (json!({"type": "quaternion"}), "/inputSchema/properties/x"),
        (json!({"anyOf": []}), "/inputSchema/properties/x"),
        (json!({"type": 3}), "/inputSchema/properties/x"),
        (
            json!({"additionalProperties": "no"}),
            "/inputSchema/properties/x",
        ),
        // Read although its keys' type is `unknown` either way.
        (
            json!({"type": "object", "patternProperties": {"^a": 5}}),
            "/inputSchema/properties/x/patternProperties/^a",
        ),
    ] {
        let schema = json!({"type": "object", "properties": {"x": bad, "y": {"type": "integer"}}});
        let sdk = ts_sdk(schema.clone());
        assert!(
            sdk.contains("y?: number"),
            "{bad}: sibling lost its type: {sdk}"
        );
        let got = reasons(schema);
        assert_eq!(got.len(), 1, "{bad}: {got:?}");
        assert_eq!(got[0].0, pointer, "{bad}");
    }
}

#[test]
fn nesting_past_the_cap_degrades() {
    let mut schema = json!({"type": "string"});
    for _ in 0..20 {
        schema = json!({"type": "object", "properties": {"n": schema}, "required": ["n"]});
    }
    let out = render_report(Language::TypeScript, &[ToolDef::new("t", schema)]);
    assert_eq!(out.text.matches("n: {").count(), 12, "{}", out.text);
    assert_eq!(out.degradations.len(), 1);
    assert!(out.degradations[0].reason.contains("deeper than 12"));
}

#[test]
fn very_deep_input_is_fine() {
    // Built by hand: `json!` would copy the value recursively.
    let object =
        |key: &str, value: Value| Value::Object([(key.to_owned(), value)].into_iter().collect());
    let mut schema = json!({"type": "string"});
    for i in 0..10_000 {
        schema = if i % 2 == 0 {
            object("items", schema)
        } else {
            object(
                "anyOf",
                Value::Array(vec![schema, json!({"$ref": "#/$defs/x"})]),
            )
        };
    }
    let mut root = object("properties", object("d", schema));
    root["$defs"] = json!({"x": {"type": "integer"}});
    let tool = ToolDef::new("deep", root);
    for lang in Language::ALL {
        let out = render_report(lang, std::slice::from_ref(&tool));
        assert!(!out.degradations.is_empty());
    }
    // Free the value without deep recursion.
    let mut cur = tool.input_schema;
    loop {
        cur = match cur {
            Value::Object(mut m) => match ["properties", "d", "items", "anyOf"]
                .iter()
                .find_map(|k| m.remove(*k))
            {
                Some(next) => next,
                None => break,
            },
            Value::Array(mut a) if !a.is_empty() => a.swap_remove(0),
            _ => break,
        };
    }
}

#[test]
fn docs_carry_constraints() {
    let sdk = ts_sdk(
        json!({"properties": {"n": {"type": "integer", "description": "Count.", "minimum": 1, "maximum": 9, "default": 3, "deprecated": true}, "e": {"type": "string", "format": "email", "pattern": "^.+@.+$"}}}),
    );
    assert!(
        sdk.contains("e?: string; // @format email @pattern ^.+@.+$"),
        "{sdk}"
    );
    assert!(
        sdk.contains("n?: number; // Count. @minimum 1 @maximum 9 @default 3 @deprecated"),
        "{sdk}"
    );
}

#[test]
fn arguments_may_be_left_out_when_nothing_is_required() {
    assert!(
        ts_sdk(json!({"properties": {"a": {"type": "string"}}}))
            .contains("  t(args?: { a?: string })")
    );
    assert!(
        ts_sdk(json!({"properties": {"a": {"type": "string"}}, "required": ["a"]}))
            .contains("  t(args: { a: string })")
    );
    assert!(
        py_sdk(json!({"properties": {"a": {"type": "string"}}}))
            .contains("async def t(self, *, a: str = ...) -> Any:")
    );
    assert!(
        py_sdk(json!({"properties": {"a-b": {"type": "string"}}}))
            .contains("async def t(self, args: TArgs = ...) -> Any:")
    );
}

#[test]
fn output_schema_types_the_promise() {
    let tool = ToolDef::new("t", json!({}))
        .with_output_schema(json!({"type": "array", "items": {"type": "string"}}));
    assert!(
        render(Language::TypeScript, std::slice::from_ref(&tool))
            .contains("  t(args: unknown): Promise<string[]>;")
    );
    assert!(
        render(Language::Python, &[tool]).contains("async def t(self, args: Any) -> list[str]:")
    );
    assert!(ts_sdk(json!({})).contains("): Promise<unknown>;"));
}

#[test]
fn standalone_expressions_inline_definitions() {
    let schema = json!({"$defs": {"L": {"type": "array", "items": {"$ref": "#/$defs/L"}}}, "$ref": "#/$defs/L"});
    // L is expanded once; its reference to itself is the escape hatch.
    assert_eq!(ts(schema.clone()), "unknown[]");
    assert_eq!(py(schema), "list[Any]");
}

#[test]
fn python_marks_the_rarer_of_required_and_optional() {
    let mostly_optional = py_class_sdk(
        json!({"properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}, "required": ["a"]}),
    );
    assert!(
        mostly_optional.contains(
            "class TArgs(TypedDict, total=False):\n    a: Required[ReadOnly[str]]\n    b: ReadOnly[str]\n    c: ReadOnly[str]\n"
        ),
        "{mostly_optional}"
    );
    let mostly_required = py_class_sdk(
        json!({"properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}}, "required": ["a", "b"]}),
    );
    assert!(
        mostly_required
            .contains("class TArgs(TypedDict):\n    a: ReadOnly[str]\n    b: ReadOnly[str]\n    c: NotRequired[ReadOnly[str]]\n"),
        "{mostly_required}"
    );
    let functional =
        py_class_sdk(json!({"properties": {"class": {"type": "string"}, "b": {"type": "string"}}}));
    assert!(functional.contains("}, total=False)\n"), "{functional}");
}

#[test]
fn one_line_docs_trail_and_longer_ones_lead() {
    let schema = json!({"properties": {"a": {"type": "string", "description": "One line."}, "b": {"type": "string", "description": "Two\nlines."}}});
    let ts = ts_sdk(schema.clone());
    assert!(ts.contains("a?: string; // One line.\n"), "{ts}");
    assert!(
        ts.contains("    /**\nTwo\nlines.\n     */\n    b?: string;\n"),
        "{ts}"
    );
    let py = py_sdk(schema.clone());
    assert!(
        py.contains("        a: str = ...,  # One line.\n        # Two\n        # lines.\n        b: str = ...,\n"),
        "{py}"
    );
    let py = py_class_sdk(schema);
    assert!(
        py.contains(
            "    a: ReadOnly[str]  # One line.\n    # Two\n    # lines.\n    b: ReadOnly[str]\n"
        ),
        "{py}"
    );
}

#[test]
fn a_ref_under_a_nested_id_is_not_read_from_the_root() {
    // The inner `#/$defs/A` means the inner resource's A (an integer), not
    // the root's (a string): the SDK must not claim the root's.
    let schema = json!({
        "type": "object",
        "$defs": {"A": {"type": "string"}},
        "properties": {
            "x": {
                "$id": "https://example.com/inner",
                "$defs": {"A": {"type": "integer"}},
                "type": "object",
                "properties": {"y": {"$ref": "#/$defs/A"}}
            },
            "z": {"$ref": "#/$defs/A"},
            "w": {"items": [{"id": "draft-4-base", "$ref": "#/$defs/A"}]}
        }
    });
    let sdk = ts_sdk(schema.clone());
    assert!(sdk.contains("x?: { y?: unknown }"), "{sdk}");
    assert!(sdk.contains("z?: A"), "{sdk}");
    let got = reasons(schema);
    let pointers: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/inputSchema/properties/w/items/0",
            "/inputSchema/properties/x/properties/y"
        ],
        "{got:?}"
    );
    assert!(got[1].1.contains("its own $id"), "{got:?}");
}

/// A map of schemas (`properties`, `$defs`) is not a schema: an entry of it
/// named `id` (here written in shorthand, as text, which is malformed) does
/// not make the map name a base, so a `$ref` below it still resolves.
#[test]
fn an_entry_named_id_does_not_make_a_map_a_base() {
    for map in ["properties", "$defs"] {
        let mut schema = json!({
            "type": "object",
            "$defs": {"Q": {"type": "string"}},
            "properties": {"q": {"$ref": "#/$defs/Q"}}
        });
        schema[map]["id"] = json!("string");
        // A long pointer is judged by the walk over the whole schema, a short
        // one by the walk down the pointer: both read maps alike.
        let long = "k".repeat(300);
        schema["properties"][long.as_str()] = json!({"$ref": "#/$defs/Q"});
        let sdk = ts_sdk(schema.clone());
        assert!(
            sdk.contains("q?: Q") && sdk.contains(&format!("{long}?: Q")),
            "{sdk}"
        );
        let got = reasons(schema);
        assert!(got.iter().all(|(_, why)| !why.contains("$id")), "{got:?}");
        // The malformed entry is reported, with what was likely meant.
        if map == "properties" {
            let hint = "not a string (write {\"type\": \"string\"} for a schema of that type)";
            assert!(
                got.iter()
                    .any(|(at, why)| at.ends_with("/id") && why.ends_with(hint)),
                "{got:?}"
            );
        }
    }
}

/// A map that a reference reads as a schema is one for what it holds: a
/// base above it, or its own `$id`, governs a `$ref` in it, whether the
/// pointer to it is short (walked down) or long (the whole schema walked).
#[test]
fn a_base_governs_a_reference_in_a_map_read_as_a_schema() {
    for name in ["B".to_owned(), "B".repeat(300)] {
        let above = json!({"$id": "urn:b", "properties": {"$ref": "#/$defs/A"}});
        let own = json!({"$id": "urn:c", "$ref": "#/$defs/A"});
        let mut schema = json!({
            "type": "object",
            "$defs": {"A": {"type": "string"}},
            "properties": {
                "p": {"$ref": format!("#/$defs/{name}/properties")},
                "q": {"$ref": format!("#/$defs/{name}/$defs")}
            }
        });
        schema["$defs"][name.as_str()] = above;
        schema["$defs"][name.as_str()]["$defs"] = own;
        let got = reasons(schema);
        let mut refused: Vec<&str> = (got.iter())
            .filter(|(_, why)| why.contains("its own $id"))
            .map(|(at, _)| at.rsplit('/').next().unwrap_or_default())
            .collect();
        refused.sort_unstable();
        assert_eq!(refused, ["$defs", "properties"], "{got:?}");
    }
}

#[test]
fn the_order_of_required_does_not_split_a_definition() {
    let def = |required: Value| {
        json!({
            "type": "object",
            "properties": {"p": {"$ref": "#/$defs/P"}},
            "$defs": {"P": {"type": "object", "properties": {
                "x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}
            }, "required": required}}
        })
    };
    let tools = [
        ToolDef::new("a", def(json!(["x", "y"]))),
        ToolDef::new("b", def(json!(["y", "x"]))),
    ];
    for language in [Language::TypeScript, Language::Python] {
        let sdk = render(language, &tools);
        assert!(!sdk.contains("P2"), "{sdk}");
    }
}

#[test]
fn python_records_point_at_the_property_they_are_about() {
    let tool = ToolDef::new(
        "n",
        json!({"type": "object", "properties": {
            "outer": {"type": "object", "properties": {
                "inner": {"const": -9223372036854775808i64},
                "m": {"allOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}},
                    {"type": "object", "properties": {"a": {"type": "integer"}}}
                ]}
            }},
            "x": {"const": -9223372036854775808i64},
            "y": {"const": -9223372036854775808i64}
        }}),
    );
    let p = render_report(Language::Python, &[tool]);
    let pointers: Vec<&str> = p.degradations.iter().map(|d| d.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/inputSchema/properties/outer/properties/inner",
            "/inputSchema/properties/outer/properties/m",
            "/inputSchema/properties/x",
            "/inputSchema/properties/y",
        ]
    );
}
