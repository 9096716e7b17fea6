//! No tool list makes rendering superlinear: hosts render lists from servers
//! they do not control. Each generated worst case is rendered at two sizes,
//! and the bytes allocated (a deterministic stand-in for time and memory)
//! must grow with the input, not with its square.
//!
//! This file holds one test on purpose: the allocation counter is global,
//! and tests running beside it would add to it.

use codemode_core::{Language, ToolDef, render};
use serde_json::{Map, Value, json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the
// wrapper only counts the bytes asked for.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATED.fetch_add(new_size.saturating_sub(layout.size()), Ordering::Relaxed);
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn tool(name: &str, schema: Value) -> ToolDef {
    ToolDef::new(name, schema)
}

fn defs(entries: impl IntoIterator<Item = (String, Value)>) -> Value {
    Value::Object(entries.into_iter().collect::<Map<_, _>>())
}

/// Each worst case at size `n`.
fn cases(n: usize) -> Vec<(&'static str, Vec<ToolDef>)> {
    let chain = |wrap: fn(Value) -> Value| {
        let mut d: Vec<(String, Value)> = (0..n)
            .map(|i| {
                let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
                (format!("d{i}"), wrap(next))
            })
            .collect();
        d.push((format!("d{n}"), json!({"type": "string"})));
        vec![tool(
            "t",
            json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs(d)}),
        )]
    };
    let big = defs((0..n).map(|j| (format!("p{j}"), json!({"type": "string"}))));
    let shared_props = defs((0..n).map(|i| {
        let part = json!({"type": "object", "properties": {format!("z{i}"): {"type": "integer"}}});
        (
            format!("q{i}"),
            json!({"allOf": [{"$ref": "#/$defs/Big"}, part]}),
        )
    }));
    // Objects whose `anyOf` admits any value beside a reference to `Big`:
    // each lists Big's keys as its own.
    let open_unions = defs((0..n).map(|i| {
        let open = json!({"type": "object", "anyOf": [true, {"$ref": "#/$defs/Big"}]});
        (format!("o{i}"), open)
    }));
    // One such union with a reference to each of `n` objects.
    let mut many_refs = vec![json!({})];
    many_refs.extend((0..n).map(|i| json!({"$ref": format!("#/$defs/D{i}")})));
    let one_key_defs = defs((0..n).map(|i| {
        let one = json!({"type": "object", "properties": {format!("k{i}"): {"type": "string"}}});
        (format!("D{i}"), one)
    }));
    // Many such unions naming `A`, whose own reference is as long as the
    // input allows (each unit of it an escaped letter).
    let long_name = "a".repeat(16 * n);
    let long_defs = json!({
        "A": {"$ref": format!("#/$defs/{}", "%61".repeat(16 * n))},
        long_name: {"type": "object", "properties": {"k": {"type": "string"}}}
    });
    let behind_long = defs((0..n).map(|i| {
        let open = json!({"type": "object", "anyOf": [{}, {"$ref": "#/$defs/A"}]});
        (format!("o{i}"), open)
    }));
    let members: Vec<Value> = (0..n)
        .map(|i| json!({"type": "object", "properties": {format!("k{i}"): {"type": "string"}}}))
        .collect();
    // One tool whose `n` properties each join the definitions `a` and `b`
    // of `defined` in an `allOf`.
    let joined_places = |a: &str, b: &str, defined: Value| {
        let both =
            json!({"allOf": [{"$ref": format!("#/$defs/{a}")}, {"$ref": format!("#/$defs/{b}")}]});
        let places = defs((0..n).map(|i| (format!("p{i}"), both.clone())));
        vec![tool(
            "t",
            json!({"type": "object", "properties": places, "$defs": defined}),
        )]
    };
    // Places that each join a named object of literal values and a named
    // object listing keys (all `n` of them, or a few): the TypeScript SDK
    // lends the literals to those keys at each place.
    let lent_places = |keys: usize| {
        let listed = defs((0..keys).map(|j| (format!("k{j}"), json!({"type": "string"}))));
        joined_places(
            "S",
            "L",
            json!({
                "S": {"type": "object", "additionalProperties": {"enum": ["on", "off"]}},
                "L": {"type": "object", "properties": listed}}),
        )
    };
    // Places that each join a named intersection, of an object of literal
    // values that lists `n` keys of its own and another object, with an
    // object listing one key: each place would read the lender's keys again.
    let own = defs((0..n).map(|j| (format!("k{j}"), json!({"type": "boolean"}))));
    let own_keys = joined_places(
        "Lights",
        "Labelled",
        json!({
            "S": {"type": "object", "properties": own, "additionalProperties": {"enum": ["on", "off"]}},
            "Zoned": {"type": "object", "properties": {"zone": {"type": "string"}}},
            "Lights": {"allOf": [{"$ref": "#/$defs/S"}, {"$ref": "#/$defs/Zoned"}]},
            "Labelled": {"type": "object", "properties": {"label": {"type": "string"}}}}),
    );
    // Places that each join a named object of literal values and a named
    // union of two objects that list `n` keys each (the same keys, and
    // others): each place would read the choices' keys again.
    let many = |prefix: &str| {
        let listed = defs((0..n).map(|j| (format!("{prefix}{j}"), json!({"type": "string"}))));
        json!({"type": "object", "properties": listed})
    };
    let union_keys = joined_places(
        "S",
        "U",
        json!({
            "S": {"type": "object", "additionalProperties": {"enum": ["on", "off"]}},
            "U": {"anyOf": [many("k"), many("k"), many("q")]}}),
    );
    // Four optional items a level, as deep as `n` leaves allow: a union of
    // lengths spells each item but the last again for every longer length.
    let mut nested_tuples = json!({"type": "string"});
    for _ in 0..n.ilog(4) {
        let item = nested_tuples;
        nested_tuples =
            json!({"type": "array", "prefixItems": [item, item, item, item], "items": false});
    }
    let same_named: Vec<ToolDef> = (0..n)
        .map(|i| {
            let item =
                json!({"type": "object", "properties": {format!("v{i}"): {"type": "string"}}});
            tool(
                &format!("t{i}"),
                json!({"properties": {"x": {"$ref": "#/$defs/Item"}}, "$defs": {"Item": item}}),
            )
        })
        .collect();
    // Levels of definitions, each an allOf of references to several of the
    // next level's: merging them naively multiplies the work by the
    // fan-out at every level.
    let (fan, levels, width) = (20, 4, n / 20);
    let layered = defs((0..levels).flat_map(|k| {
        (0..width).map(move |i| {
            let body = if k + 1 == levels {
                json!({"type": "object", "properties": {format!("p{i}"): {"type": "string"}}})
            } else {
                let refs: Vec<Value> = (0..fan)
                    .map(|j| json!({"$ref": format!("#/$defs/D{}_{}", k + 1, (i + j) % width)}))
                    .collect();
                json!({"allOf": refs})
            };
            (format!("D{k}_{i}"), body)
        })
    }));
    let layered_uses: Vec<Value> = (0..width)
        .map(|i| json!({"$ref": format!("#/$defs/D0_{i}")}))
        .collect();
    // Definitions that each merge themselves with more keys: merged
    // naively, each class holds the next without end.
    let self_merging = defs((0..n).map(|i| {
        let more = json!({"properties": {format!("e{i}"): {"type": "boolean"}}});
        let inner = json!({"allOf": [{"$ref": format!("#/$defs/R{i}")}, more]});
        (
            format!("R{i}"),
            json!({"type": "object", "properties": {"inner": inner}}),
        )
    }));
    let self_merging_uses =
        defs((0..n).map(|i| (format!("r{i}"), json!({"$ref": format!("#/$defs/R{i}")}))));
    // Each definition an allOf of references to the next eight and a
    // keyword without type: judging each member afresh read the whole
    // rest of the graph.
    let dag = defs((0..n).map(|i| {
        let mut members: Vec<Value> = (i + 1..(i + 9).min(n))
            .map(|j| json!({"$ref": format!("#/$defs/G{j}")}))
            .collect();
        members.push(json!({"required": ["k"]}));
        (format!("G{i}"), json!({"allOf": members}))
    }));
    // Scalars that meet: every member an enum of the same 64 numbers, as
    // integers and as doubles.
    let numbers: Vec<Value> = (0..64).map(|i| json!(i)).collect();
    let doubles: Vec<Value> = (0..64).map(|i| json!(f64::from(i))).collect();
    let scalar_all_of: Vec<Value> = (0..n)
        .map(|i| json!({"enum": if i % 2 == 0 { &numbers } else { &doubles }}))
        .collect();
    // Arrays that merge, beside a reference to a union of strings and
    // arrays whose items are an object each.
    let mut array_all_of = vec![json!({"$ref": "#/$defs/U"})];
    array_all_of.extend((0..n).map(|i| {
        json!({"items": {"type": "object", "properties": {format!("k{i}"): {"type": "integer"}}}})
    }));
    // Each definition a union of null and a reference to the one before
    // with keywords beside it, twice (once in a property): writing out the
    // referenced unions doubled the copies at every level.
    let mut doubling = vec![(
        "U0".to_owned(),
        json!({"anyOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"type": "integer"}}}]}),
    )];
    doubling.extend((1..n).map(|i| {
        let before = json!({"$ref": format!("#/$defs/U{}", i - 1), "required": ["a"]});
        let mut member = before.clone();
        member["properties"] = json!({"b": before});
        (
            format!("U{i}"),
            json!({"anyOf": [{"type": "null"}, member]}),
        )
    }));
    let doubling = defs(doubling);
    // Python: argument classes that each hold the next and a list of
    // numbers (read-only, up the whole chain), and a list of aliases that
    // may end in a string, each a union with such a class (every one of
    // them kept exact again).
    let numbers_list = json!({"type": "array", "items": {"type": "number"}});
    let read_only_chain = defs((0..n).map(|i| {
        let next = json!({"$ref": format!("#/$defs/C{}", (i + 1) % n)});
        (
            format!("C{i}"),
            json!({"type": "object", "properties": {"next": next, "xs": numbers_list}}),
        )
    }));
    let mut string_aliases: Vec<(String, Value)> = (0..n)
        .map(|i| {
            let members = [
                json!({"$ref": format!("#/$defs/A{}", i + 1)}),
                json!({"type": "object", "properties": {"xs": numbers_list, "o": {"$ref": format!("#/$defs/O{i}")}}}),
            ];
            (format!("A{i}"), json!({"anyOf": members}))
        })
        .collect();
    string_aliases.push((format!("A{n}"), json!({"type": "string"})));
    string_aliases.extend((0..n).map(|i| {
        (
            format!("O{i}"),
            json!({"type": "object", "properties": {"ys": numbers_list}}),
        )
    }));
    let string_aliases = defs(string_aliases);
    // Long text copied into many places: keys, names and pointers must
    // not be repeated for every node below them.
    let long = "k".repeat(20 * n);
    let enum_values: Vec<String> = (0..n).map(|j| format!("c{j}")).collect();
    let required_keys: Vec<String> = (0..n).map(|i| format!("r{i}")).collect();
    let long_key_union = json!({"anyOf": [
        {"type": "object", "properties": {long.clone(): {"type": "string"}}},
        {"type": "string"}
    ]});
    let referenced_with_keywords = defs((0..n).map(|i| {
        (
            format!("p{i}"),
            json!({"$ref": "#/$defs/U", "required": ["y"]}),
        )
    }));
    let pair = |i: usize| json!({"type": "object", "properties": {"a": {"type": "string"}, format!("b{i}"): {"type": "integer"}}});
    let nested_pairs = defs((0..n).map(|i| (format!("p{i}"), pair(i))));
    let shape = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}});
    let mut named_after_a_long_key = vec![tool(
        "a",
        json!({"type": "object", "properties": {long.clone(): shape}}),
    )];
    named_after_a_long_key.extend((0..n).map(|i| {
        tool(
            &format!("t{i}"),
            json!({"type": "object", "properties": {"x": shape, format!("y{i}"): {"type": "string"}}}),
        )
    }));
    let long_doc = json!({"type": "object", "properties": {
        "k": {"type": "string", "description": "word ".repeat(5 * n)},
        "z": {"type": "integer"}
    }});
    let merged_long_doc = defs((0..n).map(|i| {
        let own = json!({"type": "object", "properties": {format!("y{i}"): {"type": "integer"}}});
        (
            format!("p{i}"),
            json!({"allOf": [{"$ref": "#/$defs/X"}, own]}),
        )
    }));
    let floats_under_a_long_key =
        defs((0..n).map(|i| (format!("c{i}"), json!({"const": i as f64 + 0.5}))));
    let branches = defs((0..n).map(|i| {
        (
            format!("d{i}"),
            json!({"properties": {"x": {"const": format!("v{i}")}}}),
        )
    }));
    // Ten objects nested in one another, each with a type for other keys
    // beside its one key, around a long description: an index signature
    // that spells the nested type again doubles the text at every level.
    let mut nested_open = json!({"type": "object", "properties": {"leaf": {"type": "string", "description": "word ".repeat(4 * n)}}});
    for level in 0..10 {
        nested_open = json!({"type": "object", "properties": {format!("a{level}"): nested_open}, "additionalProperties": {"type": "integer"}});
    }
    // References under a key of slashes (escaped as `~1` in a pointer).
    let slashes = "/".repeat(10 * n);
    let refs_under_slashes = defs((0..n).map(|i| (format!("p{i}"), json!({"$ref": "#/$defs/A"}))));
    let mut wide_all_of = vec![json!({"type": ["object", "null"]})];
    wide_all_of.extend((0..n).map(|i| json!({"required": [format!("k{i}")]})));
    vec![
        (
            "definitions that merge themselves",
            vec![tool(
                "t",
                json!({"type": "object", "properties": self_merging_uses, "$defs": self_merging}),
            )],
        ),
        (
            "allOf through layers of references",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"x": {"anyOf": layered_uses}}, "$defs": layered}),
            )],
        ),
        (
            "a chain of objects, each holding the next",
            chain(|next| json!({"type": "object", "properties": {"next": next}})),
        ),
        ("a chain of bare $ref aliases", chain(|next| next)),
        (
            "one large definition merged by allOf into many places",
            vec![tool(
                "t",
                json!({"type": "object", "properties": shared_props, "$defs": {"Big": {"type": "object", "properties": big}}}),
            )],
        ),
        (
            "anyOf of many objects",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"x": {"anyOf": members}}}),
            )],
        ),
        ("many tools whose definitions share one name", same_named),
        (
            "allOf references through a graph of keywords without type",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"x": {"type": ["string", "object"], "$ref": "#/$defs/G0"}}, "$defs": dag}),
            )],
        ),
        (
            "references to unions beside keywords, twice a level",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"v": {"$ref": format!("#/$defs/U{}", n - 1)}}, "$defs": doubling}),
            )],
        ),
        (
            "allOf of many enums of scalars",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"x": {"allOf": scalar_all_of}}}),
            )],
        ),
        (
            "allOf of many arrays beside a reference to a union",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"x": {"allOf": array_all_of}}, "$defs": {"U": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "object"}}]}}}),
            )],
        ),
        (
            "argument classes holding read-only classes, in a cycle",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"c": {"$ref": "#/$defs/C0"}}, "$defs": read_only_chain}),
            )],
        ),
        (
            "a list of aliases that may be strings, holding read-only classes",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"x": {"type": "array", "items": {"$ref": "#/$defs/A0"}}}, "$defs": string_aliases}),
            )],
        ),
        (
            "allOf of many keywords without type beside a nullable object",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"x": {"allOf": wide_all_of}}}),
            )],
        ),
        (
            "required keys without properties beside a long enum for other keys",
            vec![tool(
                "t",
                json!({"type": "object", "additionalProperties": {"enum": enum_values}, "required": required_keys}),
            )],
        ),
        (
            "a union with a long key behind references with keywords",
            vec![tool(
                "t",
                json!({"type": "object", "properties": referenced_with_keywords, "$defs": {"U": long_key_union}}),
            )],
        ),
        (
            "a long tool name over many nested objects",
            vec![tool(
                &format!("t{long}"),
                json!({"type": "object", "properties": nested_pairs}),
            )],
        ),
        (
            "a shared shape first met under a long key",
            named_after_a_long_key,
        ),
        (
            "allOf merging a definition with a long description into many places",
            vec![tool(
                "t",
                json!({"type": "object", "properties": merged_long_doc, "$defs": {"X": long_doc}}),
            )],
        ),
        (
            "recorded literals under a long key",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {long.clone(): {"type": "object", "properties": floats_under_a_long_key}}}),
            )],
        ),
        (
            "objects with types for other keys nested around a long text",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"x": nested_open}}),
            )],
        ),
        (
            "references under a long key of slashes",
            vec![tool(
                "t",
                json!({"type": "object", "$defs": {"A": {"type": "string"}}, "properties": {slashes: {"type": "object", "properties": refs_under_slashes}}}),
            )],
        ),
        (
            "one key in many conditional branches",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "dependentSchemas": branches}),
            )],
        ),
        (
            "one large definition named by many unions open to any value",
            vec![tool(
                "t",
                json!({"type": "object", "properties": open_unions, "$defs": {"Big": {"type": "object", "properties": big}}}),
            )],
        ),
        (
            "one union open to any value naming many objects",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"o": {"type": "object", "anyOf": many_refs}}, "$defs": one_key_defs}),
            )],
        ),
        (
            "many unions open to any value behind a long reference",
            vec![tool(
                "t",
                json!({"type": "object", "properties": behind_long, "$defs": long_defs}),
            )],
        ),
        (
            // Each member is a degradation; past a hundred the report keeps
            // the first by place, so they are not all held.
            "enum members that cannot be literals",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"e": {"enum": vec![json!({}); n]}}}),
            )],
        ),
        (
            "places that join a lender of literals and a name of all the keys",
            lent_places(n),
        ),
        (
            "places that join a lender of literals and a name of a few keys",
            lent_places(8),
        ),
        (
            "places that join a named intersection of a lender of many keys",
            own_keys,
        ),
        (
            "places that join a lender of literals and a named union of many keys",
            union_keys,
        ),
        (
            "tuples of optional items nested in each other",
            vec![tool(
                "t",
                json!({"type": "object", "properties": {"x": nested_tuples}}),
            )],
        ),
    ]
}

/// Cases whose Python stub is bounded by the render's budget for `allOf`
/// merges rather than by the input: each place merges the same named
/// object of `n` keys again, until the budget (a constant, 2^18 weight
/// units) is spent, so the bytes allocated hardly grow with the input but
/// are many for a small one. For these, Python is held to the growth and to
/// [`MERGE_BUDGET_BYTES`] in all, not to a number per input byte.
const PYTHON_AT_ITS_MERGE_BUDGET: &[&str] =
    &["places that join a lender of literals and a name of all the keys"];

/// What spending the whole merge budget may allocate (190 MB measured at
/// stop 58, for 2^18 units).
const MERGE_BUDGET_BYTES: usize = 256 << 20;

fn allocated_by(language: Language, tools: &[ToolDef]) -> usize {
    let before = ALLOCATED.load(Ordering::Relaxed);
    let text = render(language, tools);
    let after = ALLOCATED.load(Ordering::Relaxed);
    assert!(!text.is_empty());
    after - before
}

#[test]
fn rendering_grows_linearly_with_hostile_inputs() {
    const SMALL: usize = 400;
    const FACTOR: usize = 4;
    const MAX_PER_INPUT_BYTE: f64 = 1000.0;
    let small = cases(SMALL);
    let large = cases(SMALL * FACTOR);
    let mut failures = Vec::new();
    for ((name, small), (_, large)) in small.iter().zip(&large) {
        for language in [Language::TypeScript, Language::Python] {
            let a = allocated_by(language, small);
            let b = allocated_by(language, large);
            let ratio = b as f64 / a as f64;
            let input: usize = large.iter().map(|t| t.input_schema.to_string().len()).sum();
            let per_byte = b as f64 / input as f64;
            eprintln!(
                "{name} ({language:?}): {a} -> {b} bytes, {ratio:.2}x; {per_byte:.0} per input byte"
            );
            // Linear, and with a small constant: no input multiplies the
            // work by a fixed but large factor either.
            let at_budget =
                language == Language::Python && PYTHON_AT_ITS_MERGE_BUDGET.contains(name);
            if at_budget && b > MERGE_BUDGET_BYTES {
                failures.push(format!("{name} ({language:?}): {b} bytes allocated in all"));
            } else if !at_budget && per_byte > MAX_PER_INPUT_BYTE {
                failures.push(format!(
                    "{name} ({language:?}): {per_byte:.0} bytes allocated per input byte"
                ));
            }
            // Linear growth is about FACTOR; quadratic would be FACTOR².
            if ratio > FACTOR as f64 * 1.75 {
                failures.push(format!(
                    "{name} ({language:?}): {ratio:.2}x for {FACTOR}x the input"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "superlinear: {failures:#?}");
}
