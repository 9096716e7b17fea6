//! The check of programs before they run, over corpora: correct programs
//! (the corpus in `tests/check/ok` and every `ok` usage probe of the
//! interop suite) give no diagnostics; wrong ones (`tests/check/wrong`) give
//! exactly the diagnostics each one lists; and no text makes it panic.
#![cfg(feature = "check")]

use codemode_core::{Catalog, Language, parse_tool_list};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

#[path = "../../tests/support/interop.rs"]
mod interop;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn catalog_of(path: &Path) -> Catalog {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Catalog::new(parse_tool_list(&path.display().to_string(), &text).expect("a tool list"))
}

fn workspace() -> Catalog {
    catalog_of(&root().join("examples/mcp/workspace-tools.json"))
}

fn language_of(path: &Path) -> Language {
    match path.extension().and_then(|e| e.to_str()) {
        Some("js") => Language::JavaScript,
        Some("ts") => Language::TypeScript,
        Some("py") => Language::Python,
        other => panic!("{}: no language for {other:?}", path.display()),
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e != "md"))
        .collect();
    files.sort();
    files
}

/// Every diagnostic, as text a failure can show.
fn shown(catalog: &Catalog, path: &Path) -> Vec<String> {
    let code = std::fs::read_to_string(path).expect("a program");
    catalog
        .check_program(language_of(path), &code)
        .iter()
        .map(|d| d.to_string())
        .collect()
}

#[test]
fn correct_programs_give_no_diagnostics() {
    let catalog = workspace();
    let corpus = files(&root().join("codemode-core/tests/check/ok"));
    assert!(corpus.len() >= 3);
    for path in &corpus {
        assert_eq!(
            shown(&catalog, path),
            Vec::<String>::new(),
            "{}",
            path.display()
        );
    }
}

/// The interop suite's `ok` probes, each against the tool set it is named
/// for: `<set>.<case>.ok.<ts|py>`, the set a JSON file under `tests/golden`
/// or `examples/mcp`, or `server-NAME` for a real server's list as the
/// interop suite installs it (an index probe, `<set>_index_<budget>`, uses
/// its set).
#[test]
fn the_interop_suites_correct_probes_give_no_diagnostics() {
    let probes = root().join("tests/interop/probes");
    let mut checked = 0;
    for path in files(&probes) {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        if !name.contains(".ok.") {
            continue;
        }
        let set = name.split('.').next().unwrap_or("");
        let set = set.split("_index_").next().unwrap_or(set);
        let list = match set.strip_prefix("server-") {
            Some(server) => Some(interop::cache().join(format!("servers/{server}.json"))),
            None => [
                root().join(format!("tests/golden/{set}.json")),
                root().join(format!("examples/mcp/{set}.json")),
            ]
            .into_iter()
            .find(|p| p.exists()),
        };
        // The agent's tools are declared in Rust; its probes are checked by
        // the agent example's own tests.
        let Some(list) = list else {
            assert_eq!(set, "agent", "{name}: no tool list for the set {set:?}");
            continue;
        };
        let catalog = catalog_of(&list);
        assert_eq!(shown(&catalog, &path), Vec::<String>::new(), "{name}");
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} probes were checked");
}

/// `// expect: 3:14 unknown-tool` (or `# expect: ...`).
fn expected(code: &str) -> Vec<(u32, u32, String)> {
    let mut expected: Vec<(u32, u32, String)> = code
        .lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("// expect: ")
                .or_else(|| line.strip_prefix("# expect: "))?;
            let (place, code) = rest.split_once(' ')?;
            let (line, column) = place.split_once(':')?;
            Some((
                line.parse().ok()?,
                column.parse().ok()?,
                code.trim().to_owned(),
            ))
        })
        .collect();
    expected.sort();
    expected
}

#[test]
fn wrong_programs_give_exactly_the_diagnostics_they_list() {
    let catalog = workspace();
    let corpus = files(&root().join("codemode-core/tests/check/wrong"));
    assert!(corpus.len() >= 3);
    for path in &corpus {
        let code = std::fs::read_to_string(path).expect("a program");
        let want = expected(&code);
        assert!(!want.is_empty(), "{}: lists no diagnostic", path.display());
        let found = catalog.check_program(language_of(path), &code);
        let mut got: Vec<(u32, u32, String)> = found
            .iter()
            .map(|d| (d.line, d.column, d.code.as_str().to_owned()))
            .collect();
        got.sort();
        assert_eq!(
            got,
            want,
            "{}:\n{}",
            path.display(),
            found.iter().map(|d| format!("  {d}\n")).collect::<String>()
        );
        // Every message names the place's problem in words, not types.
        for d in &found {
            assert!(!d.message.contains("Ty::") && !d.message.is_empty(), "{d}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// No text makes the check panic, in any language: arbitrary text, and
    /// programs spliced from the corpus's own pieces.
    #[test]
    fn the_check_never_panics(text in "\\PC{0,200}", cut in 0usize..2000, splice in "[(){}\\[\\]'\"`$\\\\\n ]{0,8}") {
        let catalog = workspace();
        let mut pieces = String::new();
        for path in files(&root().join("codemode-core/tests/check/ok")) {
            pieces.push_str(&std::fs::read_to_string(path).expect("a program"));
        }
        let at = pieces.floor_char_boundary(cut);
        let spliced = format!("{}{splice}{}", &pieces[..at], &text);
        for language in Language::ALL {
            for code in [&text, &spliced] {
                for d in catalog.check_program(language, code) {
                    prop_assert!(d.line >= 1 && d.column >= 1);
                    prop_assert!(d.line as usize <= code.split('\n').count());
                }
            }
        }
    }
}
