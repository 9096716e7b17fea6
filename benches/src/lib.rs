//! Shared inputs for the benchmarks: a deterministic corpus of realistic
//! MCP-style tools, and schemas at the extremes (deep, wide, long unions).

use codemode::ToolDef;
use serde_json::{Value, json};

const SERVICES: &[&str] = &[
    "github", "jira", "slack", "drive", "calendar", "crm", "billing", "search", "files", "db",
];
const VERBS: &[&str] = &[
    "list", "get", "create", "update", "delete", "search", "archive", "assign", "export", "sync",
];
const NOUNS: &[&str] = &[
    "issue", "comment", "user", "file", "event", "invoice", "record", "channel", "label", "report",
];

/// A small deterministic generator (an LCG), so every run and machine gets
/// the same corpus without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a>(&mut self, items: &'a [&'a str]) -> &'a str {
        items[self.next() as usize % items.len()]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

fn property(rng: &mut Rng, noun: &str) -> Value {
    match rng.next() % 9 {
        0 => json!({"type": "string", "description": format!("Identifier of the {noun}.")}),
        1 => {
            json!({"type": "integer", "minimum": 1, "maximum": 100, "default": 20, "description": "Page size."})
        }
        2 => {
            json!({"type": "string", "enum": ["open", "closed", "all"], "description": "Filter by state."})
        }
        3 => {
            json!({"type": "array", "items": {"type": "string"}, "description": "Labels to match."})
        }
        4 => {
            json!({"type": ["string", "null"], "format": "date-time", "description": "Only items changed after this time."})
        }
        5 => json!({"type": "boolean", "description": "Include archived items."}),
        6 => {
            json!({"type": "object", "description": "Sort order.", "properties": {"field": {"type": "string", "enum": ["created", "updated", "name"]}, "direction": {"type": "string", "enum": ["asc", "desc"]}}, "required": ["field"], "additionalProperties": false})
        }
        7 => {
            json!({"type": "string", "format": "uri", "description": format!("Link to the {noun}.")})
        }
        _ => {
            json!({"type": "object", "additionalProperties": {"type": "string"}, "description": "Extra key-value metadata."})
        }
    }
}

/// `n` tools as an MCP server would list them: three to eight properties of
/// varied types each, some nested objects and shared `$defs`, and an output
/// schema on about half.
pub fn corpus(n: usize) -> Vec<ToolDef> {
    let mut rng = Rng(0x5eed);
    (0..n)
        .map(|i| {
            let (service, verb, noun) = (rng.pick(SERVICES), rng.pick(VERBS), rng.pick(NOUNS));
            let name = format!("{service}_{verb}_{noun}_{i}");
            let mut properties = serde_json::Map::new();
            let mut required = Vec::new();
            let count = 3 + rng.next() % 6;
            for p in 0..count {
                let key = format!("{}_{p}", rng.pick(&["id", "query", "state", "labels", "since", "archived", "sort", "url", "meta"]));
                if rng.chance(40) {
                    required.push(Value::from(key.clone()));
                }
                properties.insert(key, property(&mut rng, noun));
            }
            let mut input = json!({"type": "object", "properties": properties, "required": required});
            if rng.chance(25) {
                input["properties"]["owner"] = json!({"$ref": "#/$defs/Person"});
                input["$defs"] = json!({"Person": {"type": "object", "properties": {"login": {"type": "string"}, "email": {"type": ["string", "null"], "format": "email"}}, "required": ["login"]}});
            }
            let mut tool = ToolDef::new(name, input).with_description(format!("{} a {noun} in {service}. Returns the matching {noun} records.", capitalise(verb)));
            if rng.chance(50) {
                tool = tool.with_output_schema(json!({
                    "type": "object",
                    "properties": {"items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}, "title": {"type": "string"}, "updated": {"type": "string", "format": "date-time"}}, "required": ["id", "title"]}}, "next_cursor": {"type": ["string", "null"]}},
                    "required": ["items"]
                }));
            }
            tool
        })
        .collect()
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// One tool whose argument nests objects `depth` levels deep.
pub fn deep(depth: usize) -> Vec<ToolDef> {
    let mut schema = json!({"type": "string"});
    for i in 0..depth {
        let mut props = serde_json::Map::new();
        props.insert(format!("level_{i}"), schema);
        schema = json!({"type": "object", "properties": props});
    }
    vec![ToolDef::new("deep", schema).with_description("Deeply nested.")]
}

/// One tool with `width` properties.
pub fn wide(width: usize) -> Vec<ToolDef> {
    let properties: serde_json::Map<String, Value> = (0..width)
        .map(|i| {
            (
                format!("field_{i:05}"),
                json!({"type": ["integer", "null"], "description": format!("Field number {i}.")}),
            )
        })
        .collect();
    vec![
        ToolDef::new("wide", json!({"type": "object", "properties": properties}))
            .with_description("Very wide."),
    ]
}

/// One tool whose argument is a union of `members` literal-tagged objects.
pub fn long_union(members: usize) -> Vec<ToolDef> {
    let any_of: Vec<Value> = (0..members)
        .map(|i| json!({"type": "object", "properties": {"kind": {"const": format!("k{i}")}, "value": {"type": "number"}}, "required": ["kind"]}))
        .collect();
    vec![
        ToolDef::new(
            "union",
            json!({"type": "object", "properties": {"event": {"anyOf": any_of}}}),
        )
        .with_description("A long union."),
    ]
}

/// One tool whose argument is an `allOf` of an object-or-null type and
/// `members` schemas that only make a key required (keywords without
/// `type`), each of which the SDK must weigh against the rest.
pub fn wide_all_of(members: usize) -> Vec<ToolDef> {
    let mut all_of = vec![json!({"type": ["object", "null"]})];
    all_of.extend((0..members).map(|i| json!({"required": [format!("key_{i}")]})));
    vec![
        ToolDef::new(
            "all_of",
            json!({"type": "object", "properties": {"value": {"allOf": all_of}}}),
        )
        .with_description("A wide allOf."),
    ]
}

/// One tool whose argument lists a key and has `members` `allOf` members
/// that each name, by `$ref`, one schema of conditions beside `members`
/// keywords the SDK does not read: whether each member's schema holds only
/// conditions must be read once, not once per member.
pub fn conditions_behind_one_ref(members: usize) -> Vec<ToolDef> {
    let mut conditions: serde_json::Map<String, Value> = (0..members)
        .map(|i| (format!("x-note-{i}"), Value::from(i)))
        .collect();
    conditions.insert("if".into(), json!({"required": ["a"]}));
    conditions.insert(
        "then".into(),
        json!({"properties": {"b": {"type": "number"}}}),
    );
    let all_of = vec![json!({"$ref": "#/$defs/C"}); members];
    vec![
        ToolDef::new(
            "conditions",
            json!({"type": "object", "properties": {"a": {"type": "string"}},
                "allOf": all_of, "$defs": {"C": conditions}}),
        )
        .with_description("Conditions behind one reference, named many times."),
    ]
}

/// One tool whose argument is an object with an `anyOf` open to any value
/// without the keys it lists (`{"not": {"required": [...]}}`) beside
/// `members` objects of `keys` keys each: every key the members list must
/// be weighed against every member, by counting, not by searching.
pub fn open_union(members: usize, keys: usize) -> Vec<ToolDef> {
    let names: Vec<String> = (0..members * keys).map(|i| format!("key_{i}")).collect();
    let mut any_of = vec![json!({"not": {"required": names}})];
    any_of.extend(names.chunks(keys.max(1)).map(|chunk| {
        let props: serde_json::Map<String, Value> = (chunk.iter())
            .map(|name| (name.clone(), json!({"type": "string"})))
            .collect();
        json!({"type": "object", "properties": props})
    }));
    vec![
        ToolDef::new(
            "open_union",
            json!({"type": "object", "properties": {"value": {"type": "object", "anyOf": any_of}}}),
        )
        .with_description("An open union of many objects."),
    ]
}

/// One tool whose argument is an object with an `anyOf` open to any value
/// without the key `a` beside `members` objects that each type `a` as a
/// constant of its own: the key's type joins all of them, once.
pub fn open_union_one_key(members: usize) -> Vec<ToolDef> {
    let mut any_of = vec![json!({"not": {"required": ["a"]}})];
    any_of.extend(
        (0..members).map(|i| json!({"properties": {"a": {"const": i}}, "required": ["a"]})),
    );
    vec![
        ToolDef::new(
            "open_union_one_key",
            json!({"type": "object", "properties": {"value": {"type": "object", "anyOf": any_of}}}),
        )
        .with_description("An open union whose members type one key."),
    ]
}

/// One tool whose argument is an enum of `values` distinct strings and as
/// many copies of the last: each copy must be found a duplicate cheaply.
pub fn repeated_enum(values: usize) -> Vec<ToolDef> {
    let mut members: Vec<Value> = (0..values).map(|i| json!(format!("v{i}"))).collect();
    members.extend(std::iter::repeat_n(
        json!(format!("v{}", values - 1)),
        values,
    ));
    vec![
        ToolDef::new(
            "repeated",
            json!({"type": "object", "properties": {"x": {"enum": members}}}),
        )
        .with_description("An enum that repeats one value."),
    ]
}

/// One tool with `definitions` definitions, one per property, each a
/// float literal that Python widens and records: deciding which records
/// to keep must not try every record against every definition.
pub fn float_definitions(definitions: usize) -> Vec<ToolDef> {
    let defs: serde_json::Map<String, Value> = (0..definitions)
        .map(|i| (format!("D{i}"), json!({"enum": [i as f64 + 0.5]})))
        .collect();
    let properties: serde_json::Map<String, Value> = (0..definitions)
        .map(|i| (format!("p{i}"), json!({"$ref": format!("#/$defs/D{i}")})))
        .collect();
    vec![
        ToolDef::new(
            "floats",
            json!({"type": "object", "properties": properties, "$defs": defs}),
        )
        .with_description("A definition per property."),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use codemode::{Language, render_report};

    #[test]
    fn the_corpus_is_deterministic_and_renders_cleanly() {
        assert_eq!(corpus(50), corpus(50));
        let names: std::collections::BTreeSet<_> =
            corpus(1000).into_iter().map(|t| t.name).collect();
        assert_eq!(names.len(), 1000);
        for lang in Language::ALL {
            assert!(render_report(lang, &corpus(200)).degradations.is_empty());
        }
    }
}

/// The tools the dispatch and runtime benchmarks call.
pub mod lookup {
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    /// What `lookup` returns.
    #[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
    pub struct Record {
        /// The id asked for.
        pub id: String,
        /// Matching titles.
        pub titles: Vec<String>,
        /// How many there were.
        pub total: u32,
    }

    /// The same function the macro wraps, for the direct baseline.
    pub fn lookup_direct(id: String, limit: Option<u32>) -> Record {
        let total = limit.unwrap_or(3);
        Record {
            titles: (0..total).map(|i| format!("{id}-{i}")).collect(),
            id,
            total,
        }
    }

    /// The arguments, as the baseline reads them by hand.
    #[derive(Debug, Deserialize)]
    pub struct LookupArgs {
        /// Which record.
        pub id: String,
        /// How many titles.
        pub limit: Option<u32>,
    }

    /// Tools for the benchmarks.
    pub struct BenchTools;

    #[codemode::toolset]
    impl BenchTools {
        /// Look a record up.
        #[tool]
        fn lookup(&self, id: String, limit: Option<u32>) -> Record {
            lookup_direct(id, limit)
        }

        /// Do nothing, for round-trip timing.
        #[tool]
        fn noop(&self) {}
    }
}

/// A correct program of about `lines` lines in `language` against `tools`
/// (from [`corpus`]): calls with literal arguments that satisfy each
/// tool's schema, concurrent calls, a helper, a loop and a `try`, as a model
/// writes them. For the check's benchmark; the check must find nothing in it.
pub fn program(tools: &[ToolDef], language: codemode::Language, lines: usize) -> String {
    let python = language == codemode::Language::Python;
    let mut out = String::new();
    if python {
        push_line(&mut out, "import asyncio".into());
        push_line(&mut out, "results = []".into());
        push_line(&mut out, "def titles(page):".into());
        push_line(
            &mut out,
            "    return [item['title'] for item in page.get('items', [])]".into(),
        );
    } else {
        push_line(&mut out, "const results = [];".into());
        push_line(
            &mut out,
            "const titles = (page) => (page?.items ?? []).map((item) => item.title);".into(),
        );
    }
    let mut i = 0;
    while out.lines().count() + 4 < lines {
        let tool = &tools[i % tools.len()];
        let args = literal(&tool.input_schema, python);
        let call = format!("tools.{}({args})", tool.name);
        match i % 4 {
            0 if python => push_line(&mut out, format!("results.append(await {call})")),
            0 => push_line(&mut out, format!("results.push(await {call});")),
            1 => {
                let other = &tools[(i + 1) % tools.len()];
                let args = literal(&other.input_schema, python);
                let second = format!("tools.{}({args})", other.name);
                let (gather, extend) = if python {
                    (
                        format!("pair = await asyncio.gather({call}, {second})"),
                        "results.extend(pair)".to_owned(),
                    )
                } else {
                    (
                        format!("const pair{i} = await Promise.all([{call}, {second}]);"),
                        format!("results.push(...pair{i});"),
                    )
                };
                push_line(&mut out, gather);
                push_line(&mut out, extend);
            }
            2 if python => {
                push_line(&mut out, "try:".into());
                push_line(
                    &mut out,
                    format!("    results.append(titles(await {call}))"),
                );
                push_line(&mut out, "except ToolCallError as e:".into());
                push_line(&mut out, "    print(e.kind)".into());
            }
            2 => {
                push_line(&mut out, "try {".into());
                push_line(&mut out, format!("  results.push(titles(await {call}));"));
                push_line(&mut out, "} catch (e) { console.log(e.kind); }".into());
            }
            _ if python => {
                push_line(&mut out, "for n in range(2):".into());
                push_line(&mut out, format!("    results.append(await {call})"));
            }
            _ => {
                push_line(&mut out, "for (let n = 0; n < 2; n++) {".into());
                push_line(&mut out, format!("  results.push(await {call});"));
                push_line(&mut out, "}".into());
            }
        }
        i += 1;
    }
    let comment = if python { "# done" } else { "// done" };
    while out.lines().count() + 1 < lines {
        out.push_str(comment);
        out.push('\n');
    }
    if python {
        out.push_str("len(results)\n");
    } else {
        out.push_str("return results.length;\n");
    }
    out
}

fn push_line(out: &mut String, text: String) {
    out.push_str(&text);
    out.push('\n');
}

/// An argument literal that satisfies `schema` (as [`corpus`] writes them):
/// every required key, and one optional key when there is one.
fn literal(schema: &Value, python: bool) -> String {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut parts = Vec::new();
    if let Some(properties) = schema["properties"].as_object() {
        let optional = properties.keys().find(|k| !required.contains(&k.as_str()));
        for (key, property) in properties {
            if required.contains(&key.as_str()) || Some(key) == optional {
                let key = if python {
                    format!("{key:?}")
                } else {
                    key.clone()
                };
                parts.push(format!("{key}: {}", value_for(property, python)));
            }
        }
    }
    format!("{{{}}}", parts.join(", "))
}

fn value_for(schema: &Value, python: bool) -> String {
    if schema.get("$ref").is_some() {
        return if python {
            r#"{"login": "kim"}"#.into()
        } else {
            r#"{ login: "kim" }"#.into()
        };
    }
    let ty = match &schema["type"] {
        Value::String(t) => t.as_str(),
        Value::Array(types) => types.first().and_then(Value::as_str).unwrap_or("string"),
        _ => "string",
    };
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.to_string();
    }
    if ty == "object" && schema.get("properties").is_some() {
        return literal(schema, python);
    }
    match (ty, python) {
        ("integer", _) | ("number", _) => "1".into(),
        ("boolean", true) => "True".into(),
        ("boolean", false) => "true".into(),
        ("array", _) => r#"["a", "b"]"#.into(),
        ("object", true) => r#"{"k": "v"}"#.into(),
        ("object", false) => r#"{ k: "v" }"#.into(),
        _ => r#""text""#.into(),
    }
}

/// The `FILE ROUNDS` arguments that the timing programs (`time-render`,
/// `time-catalog`) take, with the file's text; on a missing or bad
/// argument, the usage line, and on a file that cannot be read, the error,
/// to print before exiting with 2.
pub fn file_and_rounds(args: &[String], usage: &str) -> Result<(String, usize, String), String> {
    let (Some(file), Some(Ok(rounds))) = (args.get(1), args.get(2).map(|r| r.parse::<usize>()))
    else {
        return Err(format!("usage: {usage}"));
    };
    let text = std::fs::read_to_string(file).map_err(|e| format!("error: {file}: {e}"))?;
    Ok((file.clone(), rounds, text))
}
