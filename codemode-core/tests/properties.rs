//! Invariants over arbitrary input: byte stability, first-wins dedup,
//! totality, and that both SDKs always parse (oxc for TypeScript,
//! rustpython-parser for Python) and declare exactly one method per tool.

use codemode_core::{
    Catalog, Fit, Language, ToolDef, fingerprint, render, render_report, run_code_tool,
};
use oxc_allocator::Allocator;
use oxc_ast::ast::{BindingPattern, PropertyKey, Statement, TSSignature, TSType};
use oxc_parser::Parser;
use oxc_span::SourceType;
use proptest::prelude::*;
use rustpython_parser::{Mode, ast};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use strategies::{tool, tools};

mod strategies;

/// The same value with every object's keys inserted in reverse order
/// (visible only if serde_json's `preserve_order` is ever enabled).
fn reverse_keys(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map.iter().rev() {
                out.insert(k.clone(), reverse_keys(v));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(reverse_keys).collect()),
        other => other.clone(),
    }
}

/// The distinct tool names, each spelled as the Python SDK declares it:
/// its method for a dashed name (see `python_method_aliases`).
fn python_names(tools: &[ToolDef]) -> BTreeSet<String> {
    let names = distinct_names(tools);
    let aliases = codemode_core::python_method_aliases(names.iter().map(String::as_str));
    names
        .iter()
        .map(|name| {
            aliases
                .iter()
                .find(|(_, tool)| tool == name)
                .map_or_else(|| name.clone(), |(method, _)| method.clone())
        })
        .collect()
}

fn distinct_names(tools: &[ToolDef]) -> BTreeSet<String> {
    tools.iter().map(|t| t.name.clone()).collect()
}

/// Parses the TypeScript SDK and returns the keys of `declare const tools`.
fn ts_methods(sdk: &str) -> Result<Vec<String>, String> {
    let allocator = Allocator::default();
    let ret = Parser::new(&allocator, sdk, SourceType::ts()).parse();
    if ret.panicked || !ret.diagnostics.is_empty() {
        return Err(format!("{:?}", ret.diagnostics));
    }
    for stmt in &ret.program.body {
        let Statement::VariableDeclaration(decl) = stmt else {
            continue;
        };
        for d in &decl.declarations {
            let BindingPattern::BindingIdentifier(id) = &d.id else {
                continue;
            };
            if id.name != "tools" {
                continue;
            }
            let Some(ann) = &d.type_annotation else {
                return Err("tools has no type".into());
            };
            let TSType::TSTypeLiteral(lit) = &ann.type_annotation else {
                return Err("tools is not a type literal".into());
            };
            let mut names = Vec::new();
            for member in &lit.members {
                let TSSignature::TSMethodSignature(m) = member else {
                    return Err("a member is not a method".into());
                };
                match &m.key {
                    PropertyKey::StringLiteral(s) => names.push(s.value.to_string()),
                    PropertyKey::StaticIdentifier(id) => names.push(id.name.to_string()),
                    _ => return Err("a method key is neither a name nor a string literal".into()),
                }
            }
            return Ok(names);
        }
    }
    Err("no `declare const tools`".into())
}

/// Parses the Python SDK and returns each tool it declares: the `async def`
/// methods of `Tools` plus the `__getitem__` overload of each tool reached
/// by subscript.
fn py_methods(sdk: &str) -> Result<Vec<String>, String> {
    let module = rustpython_parser::parse(sdk, Mode::Module, "<sdk>").map_err(|e| e.to_string())?;
    let ast::Mod::Module(module) = module else {
        return Err("not a module".into());
    };
    let mut names = Vec::new();
    let mut found = false;
    for stmt in &module.body {
        if let ast::Stmt::ClassDef(class) = stmt
            && class.name.as_str() == "Tools"
        {
            found = true;
            for item in &class.body {
                match item {
                    ast::Stmt::AsyncFunctionDef(f) => names.push(f.name.to_string()),
                    // A tool reached only by subscript: one `__getitem__`
                    // (an overload when there are several) per name.
                    ast::Stmt::FunctionDef(f) if f.name.as_str() == "__getitem__" => {
                        names.push(getitem_name(f).ok_or("malformed __getitem__")?);
                    }
                    _ => {}
                }
            }
        }
    }
    if !found {
        return Err("no class Tools".into());
    }
    names.sort();
    Ok(names)
}

/// The name in `def __getitem__(self, name: Literal["NAME"]) -> ...`.
fn getitem_name(f: &ast::StmtFunctionDef) -> Option<String> {
    let annotation = f.args.args.get(1)?.def.annotation.as_deref()?;
    let ast::Expr::Subscript(sub) = annotation else {
        return None;
    };
    match sub.slice.as_ref() {
        ast::Expr::Constant(c) => match &c.value {
            ast::Constant::Str(name) => Some(name.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// The deepest bracket nesting on any line, outside strings and comments.
fn max_open_brackets(sdk: &str) -> usize {
    let mut max = 0;
    for line in sdk.lines() {
        let (mut depth, mut quote, mut escaped) = (0usize, None, false);
        for c in line.chars() {
            match quote {
                Some(q) => {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == q {
                        quote = None;
                    }
                }
                None => match c {
                    '#' => break,
                    '"' | '\'' => quote = Some(c),
                    '(' | '[' | '{' => {
                        depth += 1;
                        max = max.max(depth);
                    }
                    ')' | ']' | '}' => depth = depth.saturating_sub(1),
                    _ => {}
                },
            }
        }
    }
    max
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn output_is_independent_of_order(tools in tools(), seed in any::<u64>()) {
        let mut shuffled: Vec<ToolDef> = tools.clone();
        // Deterministic shuffle from the seed, over tools with distinct names
        // (for duplicates, order decides which one wins).
        let mut seen = BTreeSet::new();
        shuffled.retain(|t| seen.insert(t.name.clone()));
        let unique = shuffled.clone();
        let n = shuffled.len();
        let mut state = seed;
        for i in (1..n).rev() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (state >> 33) as usize % (i + 1));
        }
        for t in &mut shuffled {
            t.input_schema = reverse_keys(&t.input_schema);
            t.output_schema = t.output_schema.as_ref().map(reverse_keys);
        }
        for lang in Language::ALL {
            prop_assert_eq!(render(lang, &unique), render(lang, &shuffled));
        }
    }

    #[test]
    fn first_duplicate_wins(tools in tools(), extra in tool()) {
        prop_assume!(!tools.is_empty());
        let mut dup = extra.clone();
        dup.name = tools[0].name.clone();
        let mut with_dup = tools.clone();
        with_dup.push(dup);
        for lang in Language::ALL {
            prop_assert_eq!(render(lang, &tools), render(lang, &with_dup));
        }
    }

    #[test]
    fn a_catalog_gives_what_the_free_functions_give(tools in tools()) {
        let catalog = Catalog::new(tools.clone());
        for lang in Language::ALL {
            prop_assert_eq!(catalog.rendered(lang), &render_report(lang, &tools));
            prop_assert_eq!(catalog.run_code_tool(lang), run_code_tool(lang, &tools));
        }
        prop_assert_eq!(catalog.fingerprint(), fingerprint(&tools));
        let names: BTreeSet<String> = catalog.tool_names().map(str::to_owned).collect();
        prop_assert_eq!(names, distinct_names(&tools));
        // A name is a duplicate exactly when it is given more than once.
        let mut seen = BTreeSet::new();
        let repeated: BTreeSet<String> =
            tools.iter().filter(|t| !seen.insert(t.name.clone())).map(|t| t.name.clone()).collect();
        prop_assert_eq!(catalog.duplicates().iter().cloned().collect::<BTreeSet<_>>(), repeated);
    }

    #[test]
    fn a_catalog_read_from_text_is_the_catalog_of_the_parsed_list(tools in tools()) {
        let text = serde_json::json!({"tools": tools}).to_string();
        let read = Catalog::parse("list.json", &text).unwrap();
        let built = Catalog::new(codemode_core::parse_tool_list("list.json", &text).unwrap());
        for lang in Language::ALL {
            prop_assert_eq!(read.rendered(lang), built.rendered(lang));
        }
        prop_assert_eq!(read.duplicates(), built.duplicates());
        prop_assert_eq!(read.tool_names().collect::<Vec<_>>(), built.tool_names().collect::<Vec<_>>());
        prop_assert_eq!(read.tools().collect::<Vec<_>>(), built.tools().collect::<Vec<_>>());
        // Read back, each schema is what serde_json reads from the text.
        let value: Value = serde_json::from_str(&text).unwrap();
        for (i, tool) in codemode_core::parse_tool_list("list.json", &text).unwrap().iter().enumerate() {
            let given = &value["tools"][i];
            prop_assert_eq!(&tool.input_schema, &given["inputSchema"]);
            prop_assert_eq!(tool.output_schema.as_ref(), given.get("outputSchema").filter(|v| !v.is_null()));
            prop_assert_eq!(&tool.name, &tools[i].name);
            prop_assert_eq!(&tool.description, &tools[i].description);
            prop_assert_eq!(&tool.annotations, &tools[i].annotations);
        }
    }

    #[test]
    fn javascript_is_typescript(tools in tools()) {
        prop_assert_eq!(render(Language::JavaScript, &tools), render(Language::TypeScript, &tools));
    }

    #[test]
    fn typescript_always_parses_with_one_method_per_tool(tools in tools()) {
        let sdk = render(Language::TypeScript, &tools);
        let methods = ts_methods(&sdk).map_err(|e| TestCaseError::fail(format!("{e}\n{sdk}")))?;
        let declared: BTreeSet<String> = methods.iter().cloned().collect();
        prop_assert_eq!(methods.len(), declared.len(), "a tool is declared twice:\n{}", sdk);
        prop_assert_eq!(declared, distinct_names(&tools));
    }

    #[test]
    fn python_always_parses_with_one_method_per_tool(tools in tools()) {
        let sdk = render(Language::Python, &tools);
        let methods = py_methods(&sdk).map_err(|e| TestCaseError::fail(format!("{e}\n{sdk}")))?;
        let declared: BTreeSet<String> = methods.iter().cloned().collect();
        prop_assert_eq!(methods.len(), declared.len(), "a tool is declared twice:\n{}", sdk);
        prop_assert_eq!(declared, python_names(&tools));
        prop_assert!(max_open_brackets(&sdk) < 200);
    }

    /// Every level of the index parses, declares the same globals whatever
    /// the names, and every tool's declaration that `describe` gives parses.
    #[test]
    fn the_index_and_each_declaration_always_parse(tools in tools()) {
        let catalog = Catalog::new(tools.clone());
        for fit in [Fit::Summaries, Fit::Names, Fit::Groups] {
            let ts = catalog.index(Language::TypeScript, fit);
            let allocator = Allocator::default();
            let ret = Parser::new(&allocator, &ts, SourceType::ts()).parse();
            prop_assert!(!ret.panicked && ret.diagnostics.is_empty(), "{:?}\n{}", ret.diagnostics, ts);
            // Names and summaries are comments: three declarations, nothing else.
            prop_assert_eq!(ret.program.body.len(), 3, "{}", ts);
            let py = catalog.index(Language::Python, fit);
            let module = rustpython_parser::parse(&py, Mode::Module, "<index>")
                .map_err(|e| TestCaseError::fail(format!("{e}\n{py}")))?;
            let ast::Mod::Module(module) = module else { unreachable!() };
            prop_assert_eq!(module.body.len(), 8, "{}", py);
        }
        let names: Vec<&str> = catalog.tool_names().collect();
        for name in &names {
            let ts = catalog.describe(Language::TypeScript, &[name]);
            prop_assert!(ts_methods(&ts).is_ok(), "{}", ts);
            let py = catalog.describe(Language::Python, &[name]);
            prop_assert!(rustpython_parser::parse(&py, Mode::Module, "<d>").is_ok(), "{}", py);
        }
    }
}

#[test]
fn the_bracket_counter_counts() {
    assert_eq!(max_open_brackets("x: list[dict[str, int]]  # [[["), 2);
    assert_eq!(max_open_brackets("x = '[[[' + f(a[1])"), 2);
}

#[test]
fn the_method_readers_read() {
    let sdk = render(
        Language::TypeScript,
        &[ToolDef::new("a-b", serde_json::json!({}))],
    );
    assert_eq!(ts_methods(&sdk).unwrap(), ["a-b"]);
    assert!(ts_methods("declare const tools: {").is_err());
    let sdk = render(
        Language::Python,
        &[
            ToolDef::new("a-b", serde_json::json!({})),
            ToolDef::new("c", serde_json::json!({})),
        ],
    );
    // `a-b` is declared as the method `a_b`.
    assert_eq!(py_methods(&sdk).unwrap(), ["a_b", "c"]);
    assert!(py_methods("class Tools(Protocol):\n").is_err());
}

/// Every golden SDK in the repository parses, and declares one method (or
/// `tools[...]` comment) per distinct tool of its input.
#[test]
fn every_golden_parses() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden");
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for json in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
    {
        let tools: Vec<ToolDef> =
            serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
        let names = distinct_names(&tools);
        let ts = std::fs::read_to_string(json.with_extension("ts")).unwrap();
        let ts_names: BTreeSet<String> = ts_methods(&ts)
            .unwrap_or_else(|e| panic!("{}: {e}", json.display()))
            .into_iter()
            .collect();
        assert_eq!(ts_names, names, "{}", json.display());
        let py = std::fs::read_to_string(json.with_extension("py")).unwrap();
        let py_names: BTreeSet<String> = py_methods(&py)
            .unwrap_or_else(|e| panic!("{}: {e}", json.display()))
            .into_iter()
            .collect();
        assert_eq!(py_names, python_names(&tools), "{}", json.display());
        assert!(max_open_brackets(&py) < 200);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} golden sets found");
}
