use super::*;
use serde_json::json;

/// A small tool set with every shape the check reads.
fn catalog() -> Catalog {
    Catalog::new(vec![
        ToolDef::new(
            "search",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer"},
                    "sort": {"enum": ["new", "top"]},
                    "filters": {"$ref": "#/$defs/Filters"}
                },
                "required": ["query"],
                "additionalProperties": false,
                "$defs": {
                    "Filters": {
                        "type": "object",
                        "properties": {
                            "tags": {"type": "array", "items": {"type": "string"}},
                            "after": {"type": ["string", "null"]}
                        },
                        "required": ["tags"],
                        "additionalProperties": false
                    }
                }
            }),
        ),
        ToolDef::new(
            "get-page",
            json!({"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}),
        ),
        ToolDef::new(
            "shape",
            json!({
                "type": "object",
                "properties": {
                    "s": {"oneOf": [
                        {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind", "r"], "additionalProperties": false},
                        {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"], "additionalProperties": false}
                    ]},
                    "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false, "minItems": 2},
                    "open": {"type": "object", "properties": {"a": {"type": "string"}}}
                }
            }),
        ),
        ToolDef::new("then", json!({"type": "object"})),
        ToolDef::new(
            "pat",
            json!({"type": "object", "patternProperties": {"^x-": {"type": "string"}}}),
        ),
        ToolDef::new(
            "notype",
            json!({"properties": {
                "v": {"properties": {"x": {"type": "number"}}},
                "w": {"items": {"type": "string"}},
                "z": {"additionalProperties": false}
            }}),
        ),
        ToolDef::new(
            "flag",
            json!({"type": "object", "properties": {"on": {"const": true}}}),
        ),
    ])
}

/// `(line, column, code)` of each diagnostic.
fn found(language: Language, code: &str) -> Vec<(u32, u32, &'static str)> {
    catalog()
        .check_program(language, code)
        .iter()
        .map(|d| (d.line, d.column, d.code.as_str()))
        .collect()
}

/// The codes of what `catalog`'s check finds in `code`.
fn codes_in(catalog: &Catalog, language: Language, code: &str) -> Vec<&'static str> {
    let found = catalog.check_program(language, code);
    found.iter().map(|d| d.code.as_str()).collect()
}

fn messages(language: Language, code: &str) -> Vec<String> {
    catalog()
        .check_program(language, code)
        .into_iter()
        .map(|d| d.message)
        .collect()
}

use Language::{JavaScript as Js, Python as Py, TypeScript as Ts};

#[test]
fn the_host_explains_a_name_no_tool_has() {
    let explain = |name: &str| {
        name.starts_with("web_")
            .then(|| "the web server is down".to_owned())
    };
    let found: Vec<String> = catalog()
        .check_program_explained(
            Js,
            "await tools.web_get({})\nawait tools.serch({})",
            &explain,
        )
        .into_iter()
        .map(|d| d.message)
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0].starts_with(
            r#"no tool is named "web_get"; the web server is down; the tools are tools.flag, "#
        ),
        "{found:?}"
    );
    assert_eq!(
        found[1],
        r#"no tool is named "serch"; did you mean tools.search?"#
    );
    // A call the program guards may be missing on purpose: unexplained, it
    // is not reported; explained, it is a warning.
    let guarded =
        "try { await tools.web_get({}) } catch (e) {}\ntry { await tools.serch({}) } catch (e) {}";
    let found: Vec<(u32, Severity, String)> = catalog()
        .check_program_explained(Js, guarded, &explain)
        .into_iter()
        .map(|d| (d.line, d.severity, d.message))
        .collect();
    assert_eq!(
        found,
        [(
            1,
            Severity::Warning,
            r#"no tool is named "web_get"; the web server is down"#.to_owned()
        )]
    );
}

#[test]
fn unknown_tools_are_found_with_a_suggestion() {
    assert_eq!(
        found(Js, "await tools.serch({query: 'x'})"),
        [(1, 13, "unknown-tool")]
    );
    assert_eq!(
        messages(Js, "await tools.serch({query: 'x'})"),
        [r#"no tool is named "serch"; did you mean tools.search?"#]
    );
    assert_eq!(
        messages(Js, "await tools['get_page']({id: 1})"),
        [r#"no tool is named "get_page"; did you mean tools["get-page"]?"#]
    );
    assert_eq!(
        found(Js, "await tools('nope', {})"),
        [(1, 13, "unknown-tool")]
    );
    // In Python, `get_page` is the method the SDK declares for `get-page`,
    // and its arguments are checked as that tool's.
    assert!(found(Py, "await tools.get_page(id=1)").is_empty());
    assert_eq!(
        messages(Py, "await tools.get_page(id='one')"),
        ["tools.get_page(): `id` must be an int, not a string"]
    );
    assert_eq!(
        messages(Py, "await tools.get_pages(id=1)"),
        [r#"no tool is named "get_pages"; did you mean tools.get_page?"#]
    );
    assert_eq!(
        found(Py, "x = 1\nawait tools[\"nope\"]()"),
        [(2, 13, "unknown-tool")]
    );
    // `tools.then` is never a tool; `tools("then", args)` is.
    assert_eq!(found(Js, "await tools.then({})"), [(1, 13, "unknown-tool")]);
    assert!(found(Js, "await tools('then', {})").is_empty());
    assert!(found(Py, "await tools.then({})").is_empty());
    // Optional calls of a missing tool give undefined, not an error.
    assert!(found(Js, "await tools.nope?.({})").is_empty());
    // Destructuring calls nothing: a missing tool is just undefined.
    assert!(found(Js, "const { serch, search } = tools;").is_empty());
}

#[test]
fn literal_arguments_are_checked_against_the_schema() {
    let code = "const r = await tools.search({\n  qurey: 'x',\n  limit: 2.5,\n  sort: 'old',\n  filters: { tags: ['a', 3], after: 7 },\n});";
    assert_eq!(
        found(Js, code),
        [
            (1, 30, "missing-key"),
            (2, 3, "unknown-key"),
            (3, 10, "wrong-type"),
            (4, 9, "invalid-value"),
            (5, 26, "wrong-type"),
            (5, 37, "wrong-type"),
        ]
    );
    let text = messages(Js, code);
    assert_eq!(
        text[1],
        r#"tools.search(): takes no key "qurey"; did you mean "query"?"#
    );
    assert_eq!(
        text[3],
        r#"tools.search(): `sort` must be one of "new", "top""#
    );
    assert_eq!(
        text[4],
        "tools.search(): `filters.tags[1]` must be a string, not a number"
    );
    assert_eq!(
        text[5],
        "tools.search(): `filters.after` must be a string or null, not a number"
    );
    let py = "r = await tools.search({'query': 1, 'filters': {'tags': []}, 'limit': 3.0})";
    assert_eq!(found(Py, py), [(1, 34, "wrong-type")]);
    assert_eq!(
        messages(Py, "await tools.search(query='q', limit='9')"),
        ["tools.search(): `limit` must be an int, not a string"]
    );
    assert_eq!(found(Py, "await tools.search()"), [(1, 13, "missing-key")]);
    // `bool` is a subclass of `int`, so mypy and pyright take `True` for an
    // `int` parameter; the schema does not, and the check says so.
    assert_eq!(
        messages(Py, "await tools.search(query='q', limit=True)"),
        ["tools.search(): `limit` must be an int, not a boolean"]
    );
}

#[test]
fn unions_tuples_and_open_objects() {
    let code = "await tools.shape({ s: { kind: 'circle', side: 2 }, point: [1], open: { b: 1 } })";
    let got = found(Js, code);
    assert_eq!(
        got,
        [
            (1, 24, "missing-key"),
            (1, 42, "unknown-key"),
            (1, 60, "invalid-value")
        ]
    );
    assert!(
        found(
            Js,
            "await tools.shape({ s: { kind: 'square', side: 2 }, point: [1, 2] })"
        )
        .is_empty()
    );
    // A tag no member has is the one problem named, with the tags there are.
    assert_eq!(
        found(Js, "await tools.shape({ s: { kind: 'oval' } })"),
        [(1, 32, "invalid-value")]
    );
    assert_eq!(
        messages(Js, "await tools.shape({ s: { kind: 'oval' } })"),
        [r#"tools.shape(): `s.kind` must be one of "circle", "square""#]
    );
    assert_eq!(
        found(Js, "await tools.shape({ s: 3 })"),
        [(1, 24, "wrong-type")]
    );
}

#[test]
fn what_cannot_be_seen_is_not_an_error() {
    for code in [
        "const q = 'x'; await tools.search({ query: q, limit: n });",
        "await tools.search({ ...base, limit: 1 });",
        "await tools.search(args);",
        "await tools.search({ [key]: 'x', query: 'y' });",
        "await tools.search({ query: `a${b}` });",
        "await tools.search({ query: 'x', filters: { tags: [...more] } });",
        "const t = tools; await t.search({ query: 'x' });",
        "function f(tools) { return tools.nope(); }",
        "await Promise.all(['a', 'b'].map((q) => tools.search({ query: q })));",
        "const r = await tools.search({ query: 'x', limit: undefined });",
        "if (typeof fetch !== 'undefined') { return 1 }",
        "const fetch = (u) => tools.search({ query: u }); await fetch('x');",
        "tools.search({ query: 'x' }).then((r) => console.log(r)); return 1;",
        "return tools.search({ query: 'x' });",
        "const p = tools.search({ query: 'x' }); return await p;",
    ] {
        assert_eq!(found(Js, code), [], "{code}");
    }
    for code in [
        "q = 'x'\nawait tools.search({'query': q, **extra})",
        "await tools.search(args)",
        "await tools.search(**args)",
        "t = tools\nawait t.search(query='x')",
        "def f(tools):\n    return tools.nope()",
        "import asyncio\nr = await asyncio.gather(*[tools.search({'query': q}) for q in ['a']])",
        "open = lambda p: p\nopen('x')",
        "import json, collections\nfrom typing import Any",
    ] {
        assert_eq!(found(Py, code), [], "{code}");
    }
}

#[test]
fn dropped_calls_are_found() {
    assert_eq!(
        catalog().check_program(Js, "tools.search({ query: 'x' });\nreturn 1;")[0].severity,
        Severity::Warning
    );
    assert_eq!(
        found(Js, "tools.search({ query: 'x' });"),
        [(1, 1, "not-awaited")]
    );
    assert_eq!(
        found(Py, "x = 1\ntools.search({'query': 'x'})\nx"),
        [(2, 1, "not-awaited")]
    );
}

/// The runtime refuses a program with a BigInt literal before it runs, so
/// the check does, wherever the literal is.
#[test]
fn a_bigint_literal_is_an_error_even_where_it_may_not_run() {
    for (code, at) in [
        ("return 2n ** 64n;", (1, 8)),
        (
            "function f() { return 1n; }
return 1;",
            (1, 23),
        ),
        ("try { const x = 0x10n; } catch {}", (1, 17)),
    ] {
        let found = catalog().check_program(Js, code);
        let first = found.first().expect(code);
        assert_eq!(
            (first.code, first.severity, first.line, first.column),
            (DiagnosticCode::Unavailable, Severity::Error, at.0, at.1),
            "{code}"
        );
        assert!(first.message.contains("no BigInt"), "{}", first.message);
    }
}

#[test]
fn a_missing_global_in_code_that_may_not_run_is_a_warning() {
    let severities = |language: Language, code: &str| -> Vec<(u32, u32, Severity)> {
        catalog()
            .check_program(language, code)
            .iter()
            .map(|d| {
                assert_eq!(d.code, DiagnosticCode::Unavailable, "{code}");
                (d.line, d.column, d.severity)
            })
            .collect()
    };
    let (e, w) = (Severity::Error, Severity::Warning);
    // A helper never called, a branch not taken, a default, a short circuit.
    let js = [
        (
            "const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\nreturn 1;",
            (1, 42),
        ),
        ("function get(u) { return fetch(u); }\nreturn 1;", (1, 26)),
        ("if (false) { await fetch('x'); }", (1, 20)),
        ("const x = null ?? fetch;", (1, 19)),
        ("const { a = process } = {};", (1, 13)),
        (
            "try { await tools.search({ query: 'q' }); } catch { setTimeout(() => 1, 1); }",
            (1, 53),
        ),
        ("for (const u of []) await fetch(u);", (1, 27)),
        ("class A { m() { return require('x'); } }", (1, 24)),
    ];
    for (code, (line, column)) in js {
        assert_eq!(severities(Js, code), [(line, column, w)], "{code}");
    }
    assert_eq!(
        severities(Js, "const r = await fetch('x');\nreturn r;"),
        [(1, 17, e)]
    );
    // After a statement that may leave, the rest may not run.
    for (code, at) in [
        ("const r = 1;\nif (r) return r;\nawait fetch('x');", (3, 7)),
        ("return 1;\nsetTimeout(() => 1, 1);", (2, 1)),
        ("throw new Error('stop');\nfetch('x');", (2, 1)),
        ("done: { if (1) break done; await fetch('x'); }", (1, 34)),
    ] {
        assert_eq!(severities(Js, code), [(at.0, at.1, w)], "{code}");
    }
    // What always runs stays certain: the first operand, a test, an
    // iterable, and code after a function that returns.
    for (code, at) in [
        ("const t = process.env.TOKEN || 'anon';", (1, 11)),
        ("const t = fetch ? 1 : 2;", (1, 11)),
        ("if (process.env.X) {}", (1, 5)),
        ("for (const x of await fetch('x')) {}", (1, 23)),
        (
            "const xs = [1].map((x) => { return x; });\nawait fetch('y');",
            (2, 7),
        ),
        ("function f() { return 1; }\nawait fetch('y');", (2, 7)),
    ] {
        assert_eq!(severities(Js, code), [(at.0, at.1, e)], "{code}");
    }
    let py = [
        ("def read(p):\n    return open(p).read()\nreturn 1", (2, 12)),
        ("if False:\n    open('f')", (2, 5)),
        ("x = None or open('f')", (1, 13)),
        ("xs = [open(p) for p in []]", (1, 7)),
        ("try:\n    pass\nexcept Exception:\n    input()", (4, 5)),
    ];
    for (code, (line, column)) in py {
        assert_eq!(severities(Py, code), [(line, column, w)], "{code}");
    }
    assert_eq!(severities(Py, "data = open('f').read()"), [(1, 8, e)]);
    for (code, at) in [
        ("x = 1\nif x:\n    return 1\nopen('f')", (4, 1)),
        ("return 1\nopen('f')", (2, 1)),
        ("r = 1\nassert r, input('why?')", (2, 11)),
        ("n = 1\nok = 0 > n > len(open('f').read())", (2, 18)),
        (
            "def f():\n    return 1\nx = [f() for _ in []]\nif x:\n    raise ValueError()\nopen('f')",
            (6, 1),
        ),
    ] {
        assert_eq!(severities(Py, code), [(at.0, at.1, w)], "{code}");
    }
    for (code, at) in [
        ("for line in open('f'):\n    pass", (1, 13)),
        ("x = open('f') or 1", (1, 5)),
        ("x = 1 if open('f') else 2", (1, 10)),
        ("def f():\n    return 1\nopen('f')", (3, 1)),
    ] {
        assert_eq!(severities(Py, code), [(at.0, at.1, e)], "{code}");
    }
}

#[test]
fn a_dashed_tool_written_as_a_member_is_named() {
    for (language, code, at) in [
        (Js, "return await tools.get-page({ id: 1 });", (1, 20)),
        (
            Ts,
            "const p = tools.get-page({ id: 1 });\nreturn p;",
            (1, 17),
        ),
        (Py, "return await tools.get-page({'id': 1})", (1, 20)),
    ] {
        let found = catalog().check_program(language, code);
        assert_eq!(found.len(), 1, "{code}: {found:?}");
        assert_eq!((found[0].line, found[0].column), at, "{code}");
        assert_eq!(found[0].code, DiagnosticCode::UnknownTool);
        let spelled = match language {
            Py => "tools.get_page(...)",
            _ => "tools[\"get-page\"](args)",
        };
        assert!(found[0].message.contains(spelled), "{}", found[0].message);
    }
    // A real subtraction is no call of a tool.
    assert!(
        found(
            Js,
            "const page = () => 1;\nconst n = 3 - page();\nreturn n;"
        )
        .is_empty()
    );
}

#[test]
fn erased_typescript_declarations_are_not_judged() {
    for code in [
        "interface Conn extends WebSocket { id: string }\nreturn await tools.search({ query: 'q' });",
        "declare class S extends WebSocket {}\nreturn 1;",
        "declare namespace N { const f: typeof fetch; }\nreturn 1;",
        "type Fetch = typeof fetch;\nreturn 1;",
    ] {
        assert!(found(Ts, code).is_empty(), "{code}: {:?}", found(Ts, code));
    }
    // A class that exists at run time still extends what it names.
    assert_eq!(
        found(Ts, "class S extends WebSocket {}\nreturn 1;"),
        [(1, 17, "unavailable")]
    );
}

#[test]
fn missing_globals_and_modules_are_found() {
    assert_eq!(
        found(
            Js,
            "const r = await fetch('https://x');\nsetTimeout(() => 1, 5);"
        ),
        [(1, 17, "unavailable"), (2, 1, "unavailable")]
    );
    assert_eq!(found(Js, "import x from 'y';"), [(1, 1, "unavailable")]);
    assert_eq!(
        found(Ts, "import x from 'y';\nconst a: number = 1;"),
        [(1, 1, "unavailable")]
    );
    assert!(found(Ts, "import type { X } from 'y';\nconst a: number = 1;").is_empty());
    assert_eq!(
        found(Js, "const m = await import('fs');"),
        [(1, 17, "unavailable")]
    );
    assert_eq!(
        found(
            Py,
            "import requests\nfrom os import path\nfrom .x import y\nwith open('f') as f:\n    pass"
        ),
        [
            (1, 8, "unavailable"),
            (3, 1, "unavailable"),
            (4, 6, "unavailable")
        ]
    );
}

#[test]
fn syntax_errors_are_located_in_the_program_as_written() {
    assert_eq!(
        found(Js, "const a = 1;\nconst b = ;"),
        [(2, 11, "syntax-error")]
    );
    assert_eq!(
        found(Ts, "const a: number = 1;\nconst b: = 2;"),
        [(2, 10, "syntax-error")]
    );
    assert_eq!(found(Py, "x = (1,\ny = 2"), [(2, 3, "syntax-error")]);
    assert_eq!(
        found(Js, "return 1 })(); (async () => {"),
        [(1, 1, "syntax-error")]
    );
    // A line separator is one character of the program.
    assert_eq!(
        found(Js, "const s = '\u{2028}'; await tools.serch({})"),
        [(1, 28, "unknown-tool")]
    );
    let deep = format!("return {}1{};", "(".repeat(500), ")".repeat(500));
    assert_eq!(found(Js, &deep), [(1, 408, "syntax-error")]);
    // Brackets in a Python string are text.
    let text = format!("x = '{}'", "(".repeat(500));
    assert!(found(Py, &text).is_empty());
}

#[test]
fn typescript_is_checked_before_its_types_are_stripped() {
    let code = "interface Q { query: string }\nconst q: Q = { query: 'x' };\nconst r = await tools.search({ query: 1 as number, limit: 'x' as any });";
    assert_eq!(
        found(Ts, code),
        [(3, 39, "wrong-type"), (3, 59, "wrong-type")]
    );
}

#[test]
fn suggestions_are_close_or_absent() {
    let work = || std::cell::Cell::new(SUGGEST_WORK);
    assert_eq!(
        suggest("serch", &["fetch", "search"], &work()),
        Some("search")
    );
    assert_eq!(
        suggest("get_page", &["get-page"], &work()),
        Some("get-page")
    );
    assert_eq!(suggest("x", &["search"], &work()), None);
    // A name of one or two letters is not a misspelling of every other.
    assert_eq!(suggest("b", &["a", "c"], &work()), None);
    assert_eq!(suggest("id", &["ab"], &work()), None);
    assert_eq!(suggest("ib", &["id"], &work()), Some("id"));
    assert_eq!(suggest("B", &["b"], &work()), Some("b"));
    // None once the program's work for suggestions is spent.
    let spent = std::cell::Cell::new(5);
    assert_eq!(suggest("serch", &["fetch", "search"], &spent), None);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("qurey", "query"), 1);
    assert_eq!(edit_distance("", "ab"), 2);
    // With nothing close, a small tool set is listed as the program calls it.
    let names = messages(Js, "return await tools.zzzzzz({});");
    assert_eq!(names.len(), 1);
    assert!(
        names[0].ends_with(
            "; the tools are tools.flag, tools[\"get-page\"], tools.notype, tools.pat, tools.search, tools.shape, tools(\"then\", args)"
        ),
        "{}",
        names[0]
    );
}

#[test]
fn undefined_arguments_are_sent_as_an_empty_object() {
    assert_eq!(
        found(Js, "return await tools.search(undefined);"),
        [(1, 27, "missing-key")]
    );
}

#[test]
fn the_token_bound_is_never_below_the_tokens() {
    for (code, at_least) in [
        ("!!!!x", 5),
        ("not not x", 3),
        ("a = b", 3),
        ("x => y", 4),
        // await tools . search ( { query : 'q' } ) ;
        ("await tools.search({ query: 'q' });", 12),
        ("é = 1", 3),
        ("", 0),
    ] {
        assert!(
            token_bound(code) >= at_least,
            "{code}: {}",
            token_bound(code)
        );
    }
    // Blanks, words and strings are cheap: a long word is one token.
    assert_eq!(token_bound("   abcdef_$1   "), 1);
}

#[test]
fn deep_chains_that_brackets_do_not_show_are_parsed_on_a_stack_of_their_own() {
    let cat = catalog();
    // Run on a small thread stack, as a test thread or a server task has.
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            for code in [
                format!("return {}1;", "!".repeat(200_000)),
                format!("return {}1;", "a = ".repeat(50_000)),
                format!("return {}1;", "x => ".repeat(50_000)),
                format!("return {}1;", "await ".repeat(50_000)),
                format!("return {}1;", "a ? b : ".repeat(50_000)),
                format!("return {}1;", "typeof ".repeat(100_000)),
                format!("return {}1;", "void ".repeat(100_000)),
                format!("return {}1;", "delete ".repeat(100_000)),
                format!("return {}X;", "new ".repeat(100_000)),
                format!("return {}1;", "- ".repeat(100_000)),
                format!(
                    "const f = function* () {{ {}1; }};",
                    "yield ".repeat(100_000)
                ),
            ] {
                for language in [Js, Ts] {
                    let _ = cat.check_program(language, &code);
                }
            }
            for code in [
                format!("x = {}1", "not ".repeat(100_000)),
                format!("x = {}1", "- ".repeat(100_000)),
                format!("x = {}1", "lambda: ".repeat(50_000)),
                format!("x = {}", "a if b else ".repeat(50_000)),
                format!("x = {}1", "await ".repeat(100_000)),
                format!("x = {}1", "~".repeat(200_000)),
                format!("x = {}1", "a ** ".repeat(100_000)),
            ] {
                let _ = cat.check_program(Py, &code);
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Correct programs an outside review found reported, each for a reason
/// the check now honours.
#[test]
fn what_a_program_guards_or_json_drops_is_not_an_error() {
    for code in [
        // A key before a spread may be replaced by it.
        "return await tools.search({ query: 'q', sort: 'bogus', ...{ sort: 'new' } });",
        "const base = { extra: undefined }; return await tools.search({ query: 'q', extra: 1, ...base });",
        // A spread shifts the positions after it.
        "const head = [1]; return await tools.shape({ point: [...head, 5] });",
        // Keys JSON leaves out, and objects that say what their JSON is.
        "await tools.search({ query: 'a', bogus: undefined, cb() {}, f: () => 1 });",
        "await tools.search({ bogus: 1, toJSON() { return { query: 'b' }; } });",
        // Patterns leave other keys free; without `type`, other kinds pass.
        "await tools.pat({ foo: 1 });",
        "await tools.notype({ v: 'str', w: 5, z: 3 });",
        // Globals a program tests for, puts in place, or tries.
        "if (typeof fetch !== 'undefined') { return await fetch('http://x'); } return 1;",
        "const env = typeof process !== 'undefined' ? process.env : {};",
        "try { require('fs'); } catch (e) {}",
        "globalThis.fetch = async (u) => ({ ok: true }); return await fetch('x');",
        "({ fetch } = { fetch: async () => 1 }); return await fetch();",
        // Tools a program tests for before calling.
        "if ('nope' in tools) { return await tools.nope({}); } return null;",
        "if (tools.nope) { return await tools.nope({}); }",
        "return typeof tools.nope === 'function' ? await tools.nope({}) : null;",
        "const { nope = async () => 1 } = tools; return await nope();",
        "return await tools.then?.({});",
        // A rebound alias, and a `with` block.
        "let t = tools;\n({ t } = { t: { foo: async () => 1 } });\nreturn await t.foo();",
        "with ({ tools: { nope: async () => 1 } }) { await tools.nope(); }",
    ] {
        assert_eq!(found(Js, code), [], "{code}");
    }
    for code in [
        "let ws: WebSocket | null = null; return ws;",
        "function f(b: Buffer): number { return 1; }",
        "type F = typeof fetch;",
        "interface Opts { timer?: ReturnType<typeof setTimeout> }",
    ] {
        assert_eq!(found(Ts, code), [], "{code}");
    }
    for code in [
        "await tools.search({'query': 'q', 'sort': 'bogus', **{'sort': 'new'}})",
        "head = [1]\nawait tools.shape({'point': [*head, 5]})",
        "from __future__ import annotations\nx = 1",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import requests\nx = 1",
        "try:\n    import numpy\nexcept ImportError:\n    numpy = None",
        "def f():\n    import requests\n    return requests",
        "try:\n    data = open('x').read()\nexcept OSError:\n    data = ''",
        "if hasattr(tools, 'nope'):\n    r = await tools.nope()",
    ] {
        assert_eq!(found(Py, code), [], "{code}");
    }
    // What stays certain is still found: a tuple's items before a spread,
    // a boolean `const`, a submodule the sandbox lacks.
    assert_eq!(
        found(Js, "await tools.shape({ point: ['a', ...rest] })"),
        [(1, 29, "wrong-type")]
    );
    assert_eq!(
        found(Js, "await tools.flag({ on: false })"),
        [(1, 24, "invalid-value")]
    );
    assert_eq!(found(Py, "import collections.abc"), [(1, 8, "unavailable")]);
    assert_eq!(
        found(Js, "await tools.notype({ v: { x: 'no' } })"),
        [(1, 30, "wrong-type")]
    );
}

#[test]
fn a_lone_carriage_return_ends_a_line() {
    assert_eq!(
        found(Py, "x = 1\rawait tools.nope()"),
        [(2, 13, "unknown-tool")]
    );
    assert_eq!(
        found(Js, "let x = 1;\r\nawait tools.nope();"),
        [(2, 13, "unknown-tool")]
    );
}

/// The second outside review's cases: tests of the tool set a walk cannot
/// read, values JSON leaves out, globals put in place by other means.
#[test]
fn programs_that_list_tools_or_drop_values_are_not_judged_on_them() {
    for code in [
        "return Reflect.has(tools, 'maybe') ? await tools.maybe({}) : null;",
        "const names = Object.keys(tools); return names.includes('maybe') ? await tools.maybe({}) : null;",
        "try { return await tools.maybe_tool({}); } catch (e) { return null; }",
        "await tools.search({ query: 'a', set zz(v) {}, k: class {}, s: Symbol('q'), u: void 0 });",
        "const c = Math.random() > 2; await tools.search({ query: 'a', zz: c ? 1 : undefined });",
        "globalThis['fetch'] = (u) => u; return fetch('x');",
        "Object.assign(globalThis, { fetch: (u) => u }); return fetch('x');",
        "await tools.search({ query: 'a', filters: { tags: [], after: 1e400 } });",
    ] {
        assert_eq!(found(Js, code), [], "{code}");
    }
    for code in [
        "if 'maybe_tool' in dir(tools):\n    r = await tools.maybe_tool()",
        "try:\n    r = await tools.maybe_tool()\nexcept ToolCallError:\n    r = None",
    ] {
        assert_eq!(found(Py, code), [], "{code}");
    }
    // A JSON `null` from an overflowing number is still judged as null.
    assert_eq!(
        found(Js, "await tools.search({ query: 1e400 })"),
        [(1, 29, "wrong-type")]
    );
    // A tool whose name holds a dot, reached as two members, is named.
    let dotted = Catalog::new(vec![ToolDef::new("kv.set", json!({"type": "object"}))]);
    for (language, code) in [
        (Js, "await tools.kv.set({})"),
        (Py, "await tools.kv.set({})"),
    ] {
        let found = dotted.check_program(language, code);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            (found[0].column, found[0].code),
            (13, DiagnosticCode::UnknownTool)
        );
        let spelled = match language {
            Py => "tools.kv_set(...)",
            _ => r#"tools["kv.set"](args)"#,
        };
        assert!(found[0].message.contains(spelled), "{}", found[0].message);
    }
    // A byte-order mark takes no column.
    assert_eq!(
        found(Js, "\u{feff}await tools.nope()"),
        [(1, 13, "unknown-tool")]
    );
}

#[test]
fn refs_under_a_nested_id_are_not_judged() {
    let schema = json!({
        "type": "object",
        "$defs": {
            "B": {"type": "integer"},
            "A": {"$id": "https://example.com/a.json", "type": "object",
                  "$defs": {"B": {"type": "string"}},
                  "properties": {"b": {"$ref": "#/$defs/B"}}}
        },
        "properties": {"a": {"$ref": "#/$defs/A"}, "id": {"type": "string"}}
    });
    let catalog = Catalog::new(vec![ToolDef::new("t", schema)]);
    assert!(
        catalog
            .check_program(Js, "await tools.t({ a: { b: 'str' } })")
            .is_empty()
    );
    // A property named `id` is no base.
    let plain = Catalog::new(vec![ToolDef::new(
        "u",
        json!({"type": "object", "properties": {"id": {"type": "string"}}}),
    )]);
    assert_eq!(plain.check_program(Js, "await tools.u({ id: 1 })").len(), 1);
}

#[test]
fn a_check_keeps_nothing_of_the_one_before() {
    // Each language in turn, on one thread (which keeps its emptied syntax
    // arena between checks): a broken program, a wrong one, a large one,
    // then a clean one, whose result must equal a check on a fresh thread.
    // The large one (under the size limit) grows an arena past what a
    // thread keeps.
    let big = format!(
        "const xs = [{}];\nreturn xs;",
        vec!["{ a: [1, 2, 3], b: 'text' }"; 30_000].join(", ")
    );
    assert!(big.len() < MAX_CHECKED_BYTES);
    for language in [Language::JavaScript, Language::TypeScript] {
        let steps = [
            "const = ;",
            "await tools.search({ query: 1, nope: true });",
            big.as_str(),
            "const hits = await tools.search({ query: \"q\", limit: 2 });\nreturn hits;",
        ];
        let on_this_thread: Vec<_> = steps.iter().map(|code| found(language, code)).collect();
        for (code, here) in steps.iter().zip(&on_this_thread) {
            let code = code.to_string();
            let fresh = std::thread::spawn(move || found(language, &code))
                .join()
                .expect("a check on a fresh thread");
            assert_eq!(here, &fresh, "{language}");
        }
        assert!(on_this_thread[3].is_empty(), "{:?}", on_this_thread[3]);
        assert!(!on_this_thread[0].is_empty() && !on_this_thread[1].is_empty());
    }
}

#[test]
fn nullable_beside_a_ref_admits_null() {
    let catalog = Catalog::new(vec![ToolDef::new(
        "update",
        json!({
            "type": "object",
            "properties": {"parent": {"$ref": "#/$defs/Ref", "nullable": true}},
            "required": ["parent"],
            "$defs": {"Ref": {"type": "object", "properties": {"id": {"type": "string"}}}}
        }),
    )]);
    for (language, code) in [
        (Js, "return await tools.update({ parent: null });"),
        (Py, "return await tools.update({'parent': None})"),
    ] {
        assert!(catalog.check_program(language, code).is_empty(), "{code}");
    }
    let wrong = catalog.check_program(Js, "return await tools.update({ parent: 1 });");
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(
        catalog.render(Js).contains("parent: Ref | null"),
        "{}",
        catalog.render(Js)
    );
}

#[test]
fn numeric_keys_and_infinite_numbers_read_as_javascript_sends_them() {
    let catalog = Catalog::new(vec![ToolDef::new(
        "nums",
        json!({
            "type": "object",
            "properties": {
                "1e+21": {"type": "string"},
                "1e-7": {"type": "string"},
                "10": {"type": "string"},
                "id": {"type": ["string", "null"]}
            },
            "additionalProperties": false
        }),
    )]);
    for code in [
        "return await tools.nums({ 1e21: 'a', 1e-7: 'b', 10: 'c', 1e1: 'd' });",
        "return await tools.nums({ id: -1e999 });",
        "return await tools.nums({ id: +1e999 });",
    ] {
        let found = catalog.check_program(Js, code);
        assert!(found.is_empty(), "{code}: {found:?}");
    }
    let found = catalog.check_program(Js, "return await tools.nums({ 1e22: 'a' });");
    assert_eq!(found.len(), 1);
    assert!(
        found[0].message.contains("\"1e+22\""),
        "{}",
        found[0].message
    );
    // Where null is no answer, the message says why the number is one.
    let found = catalog.check_program(Js, "return await tools.nums({ 10: 1e999 });");
    assert_eq!(
        found.iter().map(|d| d.message.as_str()).collect::<Vec<_>>(),
        [
            "tools.nums(): `[\"10\"]` must be a string, not a number too large for a double (JSON sends it as null)"
        ]
    );
}

#[test]
fn a_private_name_is_suggested_as_the_python_sdk_declares_it() {
    let catalog = Catalog::new(vec![ToolDef::new("_hidden", json!({"type": "object"}))]);
    let said = |language, code| {
        catalog
            .check_program(language, code)
            .into_iter()
            .map(|d| d.message)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        said(Py, "return await tools._hiden({})"),
        [r#"no tool is named "_hiden"; did you mean tools["_hidden"]?"#]
    );
    assert_eq!(
        said(Js, "return await tools._hiden({})"),
        [r#"no tool is named "_hiden"; did you mean tools._hidden?"#]
    );
}

#[test]
fn keywords_beside_a_reference_are_checked_where_the_dialect_reads_them() {
    let place =
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let schema = |dialect: Option<&str>| {
        let mut schema = json!({
            "type": "object",
            "properties": {"to": {"$ref": "#/$defs/Place", "properties": {"note": {"type": "string"}}, "required": ["note"]}},
            "required": ["to"],
            "$defs": {"Place": place.clone()}
        });
        if let Some(dialect) = dialect {
            schema["$schema"] = json!(dialect);
        }
        schema
    };
    let code = "await tools.route({ to: { name: 'x' } });";
    let found = |schema| {
        Catalog::new(vec![ToolDef::new("route", schema)])
            .check_program(Js, code)
            .into_iter()
            .map(|d| d.message)
            .collect::<Vec<_>>()
    };
    // Draft 2020-12 (MCP's default): the reference and the keywords beside it.
    assert_eq!(
        found(schema(None)),
        [r#"tools.route(): the object `to` lacks the required key "note" (a string)"#]
    );
    assert_eq!(
        found(schema(Some("https://json-schema.org/draft/2020-12/schema"))).len(),
        1
    );
    // Draft-07: only the reference.
    assert_eq!(
        found(schema(Some("http://json-schema.org/draft-07/schema#"))),
        Vec::<String>::new()
    );
}

#[test]
fn keys_of_branches_and_enums_beside_a_type_are_judged_as_json_schema_judges_them() {
    let catalog = Catalog::new(vec![ToolDef::new(
        "ship",
        json!({"type": "object", "properties": {"mode": {"type": "string", "enum": ["x", "y", 1]}},
            "if": {"properties": {"mode": {"const": "x"}}},
            "then": {"properties": {"xval": {"type": "integer"}}}}),
    )]);
    let codes = |code: &str| -> Vec<&'static str> {
        (catalog.check_program(Js, code).iter())
            .map(|d| d.code.as_str())
            .collect()
    };
    // Outside its branch `xval` may hold anything: not an error.
    assert!(codes("return await tools.ship({ mode: 'y', xval: 'text' });").is_empty());
    // 1 is in the enum but is no string.
    assert_eq!(
        codes("return await tools.ship({ mode: 1 });"),
        ["wrong-type"]
    );
}

#[test]
fn long_enums_are_judged_by_value_and_within_a_bound() {
    let values: Vec<String> = (0..100_000).map(|i| format!("v{i}")).collect();
    let catalog = Catalog::new([ToolDef::new(
        "pick",
        json!({"type": "object", "properties": {"x": {"enum": values}}, "required": ["x"]}),
    )]);
    let check = |code: &str| -> Vec<String> {
        let found = catalog.check_program(Js, code);
        found.into_iter().map(|d| d.message).collect()
    };
    let twelve = (0..12)
        .map(|i| format!("\"v{i}\""))
        .collect::<Vec<_>>()
        .join(", ");
    assert_eq!(
        check("await tools.pick({x: 'v99999'});\nawait tools.pick({x: 'nope'});"),
        [format!("tools.pick(): `x` must be one of {twelve}, …")]
    );
    // Of another kind: the first eight values, as words.
    let eight = (0..8)
        .map(|i| format!("\"v{i}\""))
        .collect::<Vec<_>>()
        .join(", ");
    assert_eq!(
        check("await tools.pick({x: 5});"),
        [format!(
            "tools.pick(): `x` must be {eight} or …, not a number"
        )]
    );
    // Each call weighs the value against 100,000 members: past the
    // program's bound (a little over a million), values are taken as they
    // are, so the eleventh call on is not judged.
    let calls: String = (0..20)
        .map(|_| "await tools.pick({x: 'nope'});\n")
        .collect();
    assert_eq!(check(&calls).len(), 10);
}

#[test]
fn a_call_with_no_tools_at_all_says_so() {
    let empty = Catalog::new(Vec::<ToolDef>::new());
    let found = empty.check_program(Js, "await tools.echo({});");
    let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, [r#"no tool is named "echo"; there are no tools"#]);
}

#[test]
fn places_found_in_one_pass_are_those_found_one_at_a_time() {
    let code = "\u{feff}a = 1\r\nb = 'é'\rc = \"ü\"\n\nd(é, 2)\r\n";
    let offsets: Vec<usize> = (0..=code.len() + 2).rev().collect();
    let one_pass = line_columns(code, &offsets);
    for (&offset, &place) in offsets.iter().zip(&one_pass) {
        assert_eq!(
            place,
            line_column(code, offset.min(code.len())),
            "at {offset}"
        );
    }
}

#[test]
fn a_program_with_many_problems_reports_the_first_few_and_says_so() {
    let code = "await tools.search({});\n".repeat(500);
    let found = catalog().check_program(Js, &code);
    assert_eq!(found.len(), MAX_FINDINGS);
    let last = &found.last().unwrap().message;
    assert!(last.ends_with("fix these and check again)"), "{last}");
    // Exactly as many as the limit: nothing left out, nothing said.
    let code = "await tools.search({});\n".repeat(MAX_FINDINGS);
    let found = catalog().check_program(Js, &code);
    assert_eq!(found.len(), MAX_FINDINGS);
    assert!(!found.last().unwrap().message.contains("check stops"));
}

/// Warnings (code that may never run) do not count toward the limit: an
/// error after many of them is still reported, and so the run is denied.
#[test]
fn warnings_never_crowd_out_an_error() {
    let mut code: String = (0..80)
        .map(|i| format!("def f{i}():\n    open('x')\n"))
        .collect();
    code.push_str("await tools.search(query=1)\n");
    let found = catalog().check_program(Py, &code);
    let errors: Vec<&Diagnostic> = (found.iter())
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{found:?}");
    assert_eq!(errors[0].code, DiagnosticCode::WrongType);
    assert_eq!(found.len(), MAX_FINDINGS);
    assert!(
        found
            .last()
            .unwrap()
            .message
            .ends_with("fix these and check again)")
    );
}

/// The same problem found by both parts of an intersection counts once.
#[test]
fn a_problem_both_parts_of_an_intersection_find_counts_once() {
    let catalog = Catalog::new([ToolDef::new(
        "s",
        json!({"allOf": [{"$ref": "#/$defs/Base"}, {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}],
               "$defs": {"Base": {"type": "object", "properties": {"q": {"type": "string"}}}}}),
    )]);
    let code = "await tools.s(q=1)\n".repeat(40);
    let found = catalog.check_program(Py, &code);
    assert_eq!(found.len(), 40, "{found:?}");
    assert!(!found.last().unwrap().message.contains("check stops"));
}

/// A plain `__proto__:` sets the prototype: a primitive sets nothing, so
/// the object holds its other keys only; an object might pass on a
/// `toJSON`, so the keys are then unknown.
#[test]
fn a_plain_proto_key_is_no_key() {
    let catalog = Catalog::new(vec![ToolDef::new(
        "tag",
        json!({"type": "object", "properties": {"__proto__": {"type": "string"}, "id": {"type": "integer"}},
               "required": ["__proto__"]}),
    )]);
    let messages = |code: &str| -> Vec<String> {
        catalog
            .check_program(Js, code)
            .into_iter()
            .map(|d| d.message)
            .collect()
    };
    assert_eq!(
        messages("await tools.tag({ __proto__: 'x', id: 1 });"),
        [
            r#"tools.tag(): the arguments lack the required key "__proto__" (a string); write it as ["__proto__"]: ..., since a plain __proto__: sets the prototype"#
        ]
    );
    for code in [
        "await tools.tag({ ['__proto__']: 'x' });",
        "await tools.tag({ __proto__: { toJSON() { return { ['__proto__']: 'x' }; } } });",
    ] {
        assert_eq!(messages(code), Vec::<String>::new(), "{code}");
    }
    // Without the key in the schema: the other keys are still checked.
    assert_eq!(
        found(Js, "await tools.search({ __proto__: null });"),
        [(1, 20, "missing-key")]
    );
}

/// JSON sends `undefined` in an array as `null`, which a number refuses.
#[test]
fn undefined_in_an_array_is_sent_as_null() {
    assert_eq!(
        messages(Js, "await tools.shape({ point: [undefined, 2] })"),
        [
            "tools.shape(): `point[0]` must be a number, not undefined (JSON sends it as null in an array)"
        ]
    );
    assert_eq!(
        messages(Js, "await tools.shape({ point: [, 2] })"),
        ["tools.shape(): `point[0]` must be a number, not an empty slot (JSON sends it as null)"]
    );
    assert_eq!(
        found(Js, "await tools.shape({ point: [1, 2], s: undefined })"),
        []
    );
}

/// Both parts of `T = allOf[A, B]` reach `T` again for the same value, so
/// without remembering what was checked every level doubled the work: a
/// value 20 levels deep took a million steps, spent the program's work,
/// and left a later call unjudged. Each value meets each named type once.
#[test]
fn intersections_reaching_one_type_check_each_value_once() {
    let catalog = Catalog::new([ToolDef::new(
        "a",
        json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/T"}}, "$defs": {
            "T": {"allOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]},
            "A": {"type": "object", "properties": {"x": {"$ref": "#/$defs/T"}, "a": {"type": "string"}}},
            "B": {"type": "object", "properties": {"x": {"$ref": "#/$defs/T"}, "b": {"type": "integer"}}}
        }}),
    )]);
    let mut deep = "{\"a\": 1}".to_owned();
    for _ in 0..20 {
        deep = format!("{{\"x\": {deep}}}");
    }
    let code = format!("await tools.a(v={deep})\nawait tools.a(v={{\"b\": \"s\"}})\n");
    let found: Vec<(u32, String)> = catalog
        .check_program(Py, &code)
        .into_iter()
        .map(|d| (d.line, d.message))
        .collect();
    let path = format!("v{}[\"a\"]", "[\"x\"]".repeat(20));
    assert_eq!(
        found,
        [
            (
                1,
                format!("tools.a(): `{path}` must be a string, not an int")
            ),
            (
                2,
                "tools.a(): `v[\"b\"]` must be an int, not a string".to_owned()
            ),
        ]
    );
}

/// Many names given `tools` are looked up in a set: each of the program's
/// names is asked about, and a list took time in their product.
#[test]
fn many_aliases_of_tools_are_still_aliases() {
    let mut code: String = (0..2_000).map(|i| format!("t{i} = tools\n")).collect();
    code.push_str("await t1999.serch(query='x')\n");
    assert_eq!(found(Py, &code), [(2001, 13, "unknown-tool")]);
}

/// A message quotes the program's text; what prints as nothing (or turns
/// the text around) is written out.
#[test]
fn messages_show_hidden_characters() {
    for (language, code) in [
        (Py, "x = 1 \u{1b}\n"),
        (Js, "let x = 1 \u{1b};"),
        (Py, "await tools.serch\u{202e}x(query='a')"),
    ] {
        let found = messages(language, code);
        assert!(!found.is_empty(), "{code:?}");
        for message in found {
            assert!(!message.contains(['\u{1b}', '\u{202e}']), "{message:?}");
            assert!(
                message.contains("\\u{1b}") || message.contains("\\u{202e}"),
                "{message:?}"
            );
        }
    }
}

/// Python messages name what the program wrote: `1.0` is a float, `(1,)`
/// a tuple.
#[test]
fn python_messages_name_floats_and_tuples_as_written() {
    assert_eq!(
        messages(Py, "await tools.search(query=1.0)"),
        ["tools.search(): `query` must be a string, not a float"]
    );
    assert_eq!(
        messages(Py, "await tools.search(query=-2)"),
        ["tools.search(): `query` must be a string, not an int"]
    );
    assert_eq!(
        messages(Py, "await tools.search(query=('a',))"),
        ["tools.search(): `query` must be a string, not a tuple"]
    );
}

/// Python reads `tools.ﬁle` as `tools.file`: a tool named with the
/// ligature is pointed to by its subscript.
#[test]
fn a_name_python_folds_points_to_its_subscript() {
    let catalog = Catalog::new([ToolDef::new("\u{fb01}le", json!({}))]);
    let found: Vec<String> = (catalog
        .check_program(Py, "await tools.\u{fb01}le()")
        .into_iter())
    .map(|d| d.message)
    .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("tools[\"\u{fb01}le\"]"), "{found:?}");
}

/// Python reads every line ending as `\n`, in strings too: a
/// triple-quoted string written across a `\r\n` holds `"a\nb"`. Places
/// are still those of the text as written.
#[test]
fn python_reads_line_endings_as_newlines() {
    let catalog = Catalog::new([ToolDef::new(
        "c",
        json!({"type": "object", "properties": {"v": {"const": "a\nb"}}}),
    )]);
    let code = "x = 1\r\nawait tools.c(v=\"\"\"a\r\nb\"\"\")\r\nawait tools.c(v=\"\"\"a\rb\"\"\")\r\nawait tools.c(v=2)\r\n";
    let found: Vec<(u32, u32, String)> = (catalog.check_program(Py, code).into_iter())
        .map(|d| (d.line, d.column, d.message))
        .collect();
    assert_eq!(
        found,
        [(
            6,
            17,
            "tools.c(): `v` must be \"a\\nb\", not an int".to_owned()
        )]
    );
}

/// A loop that never ends (`while True:` or `for (;;)` with no `break`)
/// leaves what follows unreached: a missing name there is a warning, not
/// an error (it was an error). With a `break`, what follows runs only if
/// the loop takes it, which the walk already counted as a way out.
#[test]
fn what_follows_an_endless_loop_may_never_run() {
    let severities = |language, code: &str| -> Vec<Severity> {
        (catalog().check_program(language, code).into_iter())
            .filter(|d| d.code == DiagnosticCode::Unavailable)
            .map(|d| d.severity)
            .collect()
    };
    assert_eq!(
        severities(Py, "while True:\n    x = 1\nopen('f')\n"),
        [Severity::Warning]
    );
    assert_eq!(
        severities(Py, "while True:\n    if x:\n        break\nopen('f')\n"),
        [Severity::Warning]
    );
    assert_eq!(
        severities(Js, "for (;;) { x++; }\nfetch('u');"),
        [Severity::Warning]
    );
    assert_eq!(
        severities(Js, "while (true) { x++; }\nfetch('u');"),
        [Severity::Warning]
    );
    assert_eq!(
        severities(Js, "while (true) { if (x) break; }\nfetch('u');"),
        [Severity::Warning]
    );
    assert_eq!(
        severities(
            Js,
            "while (true) { const f = () => { for (;;) break; }; }\nfetch('u');"
        ),
        [Severity::Warning]
    );
}

/// What a value is found to break does not depend on the order of an
/// intersection's parts: a visit that stopped at the depth limit further
/// down does not keep a nearer one from checking.
#[test]
fn intersections_find_the_same_in_either_order() {
    let schema = |first: &str, second: &str| {
        json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/T"}}, "$defs": {
            "T": {"allOf": [{"$ref": format!("#/$defs/{first}")}, {"$ref": format!("#/$defs/{second}")}]},
            "A": {"type": "object", "properties": {"x": {"$ref": "#/$defs/T"}, "a": {"type": "string"}}},
            "B": {"allOf": [{"$ref": "#/$defs/C"}, {"type": "object", "properties": {"z": {"type": "integer"}}}]},
            "C": {"type": "object", "properties": {"x": {"$ref": "#/$defs/T"}, "b": {"type": "integer"}}}
        }})
    };
    let mut deep = "{\"a\": 1}".to_owned();
    for _ in 0..15 {
        deep = format!("{{\"x\": {deep}}}");
    }
    let code = format!("await tools.a(v={deep})");
    for (first, second) in [("A", "B"), ("B", "A")] {
        let catalog = Catalog::new([ToolDef::new("a", schema(first, second))]);
        let found = catalog.check_program(Py, &code);
        assert_eq!(found.len(), 1, "allOf[{first}, {second}]: {found:?}");
    }
}

/// A long literal takes work in proportion to its length, which the
/// program's budget grows with: a call after it is still checked.
#[test]
fn a_long_literal_leaves_work_for_the_next_call() {
    let catalog = Catalog::new([ToolDef::new(
        "a",
        json!({"type": "object", "properties": {"w": {"type": "string"},
               "items": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}}}}),
    )]);
    let items = vec!["{}"; 250_000].join(", ");
    let code = format!("await tools.a(items=[{items}])\nawait tools.a(w=5)\n");
    let found: Vec<u32> = (catalog.check_program(Py, &code).into_iter())
        .map(|d| d.line)
        .collect();
    assert_eq!(found, [2]);
}

/// One call with exactly as many problems as the limit: all reported, and
/// no note that some were left out; one more, and the note.
#[test]
fn one_call_at_the_limit_says_nothing_was_left_out() {
    let catalog = Catalog::new([ToolDef::new(
        "c",
        json!({"type": "object", "properties": {"k": {"type": "string"}}, "additionalProperties": false}),
    )]);
    for (keys, noted) in [(MAX_FINDINGS, false), (MAX_FINDINGS + 1, true)] {
        let args: Vec<String> = (0..keys).map(|i| format!("z{i}=1")).collect();
        let found = catalog.check_program(Py, &format!("await tools.c({})", args.join(", ")));
        assert_eq!(found.len(), MAX_FINDINGS, "{keys}");
        let last = &found.last().unwrap().message;
        assert_eq!(last.contains("check stops"), noted, "{keys}: {last}");
    }
}

/// Keys a pattern matches are evaluated by it, so `unevaluatedProperties`
/// does not reach them; the check cannot tell which keys those are, and
/// judges no key the object does not list.
#[test]
fn keys_a_pattern_may_match_are_not_judged_by_unevaluated_properties() {
    let catalog = Catalog::new(vec![ToolDef::new(
        "t",
        json!({"type": "object", "properties": {"n": {"type": "integer"}},
               "patternProperties": {"^x-": {"type": "string"}},
               "unevaluatedProperties": {"type": "integer"}}),
    )]);
    let codes = |language, code| codes_in(&catalog, language, code);
    assert!(codes(Js, r#"await tools.t({ "x-trace": "abc", n: 1 })"#).is_empty());
    assert!(codes(Py, r#"await tools.t({"x-trace": "abc", "n": 1})"#).is_empty());
    // A key it lists is still judged.
    assert_eq!(codes(Js, r#"await tools.t({ n: "one" })"#), ["wrong-type"]);
}

/// A binding named `undefined` may hold any value, so an argument written
/// `undefined` is not read as absent where the program has one.
#[test]
fn an_undefined_of_the_programs_own_is_not_absent() {
    let shadowed = "function search(undefined) {\n  return tools.search({ query: undefined });\n}\nreturn await search('x');";
    assert_eq!(found(Js, shadowed), []);
    let global = "function search(u) {\n  return tools.search({ query: undefined });\n}\nreturn await search('x');";
    assert_eq!(found(Js, global), [(2, 23, "missing-key")]);
}

/// A keyword the schema's dialect lacks judges nothing: `const` is no
/// keyword of draft 4, nor `prefixItems` of draft 7.
#[test]
fn keywords_the_dialect_lacks_judge_nothing() {
    let catalog = Catalog::new(vec![
        ToolDef::new(
            "four",
            json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
                   "properties": {"mode": {"const": "fast"}}}),
        ),
        ToolDef::new(
            "seven",
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                   "properties": {"xs": {"type": "array", "prefixItems": [{"type": "string"}],
                                         "items": {"type": "integer"}}}}),
        ),
    ]);
    let codes = |code| codes_in(&catalog, Js, code);
    assert!(codes("await tools.four({ mode: 'slow' })").is_empty());
    assert!(codes("await tools.seven({ xs: [1, 2] })").is_empty());
    // What the dialect has still judges.
    assert_eq!(codes("await tools.seven({ xs: ['a'] })"), ["wrong-type"]);
}

/// A member whose tag the value carries explains a failure best, but the
/// union still admits the value when another member does.
#[test]
fn a_tagged_member_does_not_hide_a_member_that_admits_the_value() {
    let catalog = Catalog::new(vec![ToolDef::new(
        "t",
        json!({"anyOf": [{"properties": {"b": {"const": "x"}}, "required": ["a"]},
                         {"properties": {}}]}),
    )]);
    assert!(codes_in(&catalog, Js, "await tools.t({ b: 'x' })").is_empty());
    let tagged = Catalog::new(vec![ToolDef::new(
        "t",
        json!({"oneOf": [
            {"type": "object", "properties": {"k": {"const": "x"}, "n": {"type": "integer"}}, "required": ["k", "n"]},
            {"type": "object", "properties": {"k": {"const": "y"}, "s": {"type": "string"}}, "required": ["k", "s"]}]}),
    )]);
    let found = tagged.check_program(Js, "await tools.t({ k: 'x', s: 'a' })");
    let messages: Vec<&str> = found.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [r#"tools.t(): the arguments lack the required key "n" (an integer)"#]
    );
}

/// A setter replaces an earlier value of its key (the key then reads as
/// `undefined`, which JSON leaves out), and joins an earlier getter.
#[test]
fn a_setter_replaces_a_value_and_joins_a_getter() {
    for (code, expected) in [
        (
            "await tools.search({ query: 1, set query(v) {} });",
            &["missing-key"][..],
        ),
        (
            "await tools.search({ query: 'a', limit: 'x', set limit(v) {} });",
            &[],
        ),
        (
            "await tools.search({ query: 'a', get limit() { return 1; }, sort: 'new', set limit(v) {} });",
            &[],
        ),
    ] {
        let codes: Vec<&str> = found(Js, code).into_iter().map(|(_, _, c)| c).collect();
        assert_eq!(codes, expected, "{code}");
    }
    // A value after the accessor replaces it.
    assert_eq!(
        found(
            Js,
            "await tools.search({ query: 'a', get limit() { return 1; }, set limit(v) {}, limit: 'x' });"
        ),
        [(1, 85, "wrong-type")]
    );
}
