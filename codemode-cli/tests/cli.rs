//! The `codemode` binary, end to end.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn codemode(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // The command may exit (bad usage) before it reads its input: a closed
    // pipe here is not the test's concern.
    let _ = input.write_all(stdin.unwrap_or("").as_bytes());
    drop(input);
    child.wait_with_output().unwrap()
}

fn example() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/mcp/workspace-tools.json")
        .display()
        .to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn renders_the_same_text_as_the_library() {
    let file = example();
    let tools: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let tools: Vec<codemode::ToolDef> = serde_json::from_value(tools["tools"].clone()).unwrap();
    for lang in ["typescript", "javascript", "python"] {
        let out = codemode(&["render", "--language", lang, &file], None);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            codemode::render(lang.parse().unwrap(), &tools)
        );
    }
}

#[test]
fn reads_standard_input() {
    let out = codemode(
        &["render", "-l", "ts", "-"],
        Some(r#"[{"name":"a","inputSchema":{}}]"#),
    );
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("  a(args: unknown)"));
    let no_file = codemode(&["render", "-l", "ts"], Some(r#"{"tools":[]}"#));
    assert!(no_file.status.success());
}

#[test]
fn an_empty_list_gives_a_valid_sdk() {
    let out = codemode(&["render", "-l", "py"], Some("[]"));
    assert!(out.status.success());
    let sdk = text(&out.stdout);
    assert!(sdk.contains("class Tools(Protocol):\n    pass\n"), "{sdk}");
}

#[test]
fn report_lists_degradations_on_stderr() {
    let input = r#"[{"name":"odd","inputSchema":{"properties":{"x":{"type":"quaternion"}}}}]"#;
    let out = codemode(&["render", "-l", "ts", "--report"], Some(input));
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(
            r#"degraded: tool "odd" at /inputSchema/properties/x: unknown type "quaternion""#
        ),
        "{err}"
    );
    assert!(err.contains("1 degradation(s)"));
    assert!(text(&out.stdout).contains("x?: unknown"));
}

#[test]
fn bad_input_exits_2_and_points_at_the_place() {
    for (input, message) in [
        (
            "[\n {\"name\": }",
            "<stdin>:2:11: invalid JSON: expected value",
        ),
        (
            r#"[{"name":"a","inputSchema":{}},{"inputSchema":{}}]"#,
            "<stdin>: tool #1: `name` is missing",
        ),
        (
            r#"{"tools": 3}"#,
            "<stdin>: `tools` must be an array of tools, found a number",
        ),
        (
            "\"tools\"",
            "<stdin>: expected an array of tools or an object with a `tools` array, found a string",
        ),
    ] {
        let out = codemode(&["render", "-l", "ts"], Some(input));
        assert_eq!(out.status.code(), Some(2), "{input}");
        assert_eq!(
            text(&out.stderr).trim_end(),
            format!("error: {message}"),
            "{input}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_missing_file_is_named() {
    let out = codemode(&["render", "-l", "ts", "/nonexistent/tools.json"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: /nonexistent/tools.json: cannot read:"));
}

#[test]
fn an_unknown_language_lists_the_known_ones() {
    let out = codemode(&["render", "-l", "ruby"], Some("[]"));
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("javascript, typescript, python"), "{err}");
}

#[test]
fn very_deep_schemas_render() {
    let depth = 20_000;
    let input = format!(
        r#"[{{"name":"deep","inputSchema":{}{{}}{}}}]"#,
        r#"{"items":"#.repeat(depth),
        "}".repeat(depth)
    );
    let out = codemode(&["render", "-l", "py", "--report"], Some(&input));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("arrays nested more than"));
}

#[test]
fn lists_just_shallow_enough_for_the_main_thread_render() {
    // 512 brackets in all, as deep as they go: the most the CLI reads on
    // its main thread, with the stack that thread has (one more goes to a
    // thread with a deep stack).
    for (depth, language) in [(509, "ts"), (509, "py"), (510, "ts")] {
        let input = format!(
            r#"[{{"name":"deep","inputSchema":{}{{}}{}}}]"#,
            r#"{"items":"#.repeat(depth),
            "}".repeat(depth)
        );
        let brackets = input.bytes().filter(|b| matches!(b, b'[' | b'{')).count();
        assert_eq!(brackets, depth + 3);
        let out = codemode(&["render", "-l", language, "--report"], Some(&input));
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains("arrays nested more than"));
    }
}

/// Under a stack limit too small for the main thread to read a shallow
/// list at its worst (bad JSON at its deepest), the CLI reads it on a
/// thread of its own and reports the error, rather than overflowing.
///
/// 640 KiB: a debug build with the `mcp` feature needs over 256 KiB just
/// to parse its arguments, and reading this list on the main thread
/// overflowed every limit up to 768 KiB.
#[cfg(unix)]
#[test]
fn a_small_stack_limit_moves_even_shallow_lists_off_the_main_thread() {
    let depth = 509;
    let input = format!(
        r#"[{{"name":"deep","inputSchema":{}{{"x": tru}}{}}}]"#,
        r#"{"items":"#.repeat(depth),
        "}".repeat(depth)
    );
    let out = std::process::Command::new("sh")
        .args(["-c", r#"ulimit -s 640 && exec "$0" render -l py"#])
        .arg(env!("CARGO_BIN_EXE_codemode"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("invalid JSON"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn run_code_tool_in_every_format() {
    let file = example();
    for (format, name_at) in [
        ("mcp", "/name"),
        ("openai-chat", "/function/name"),
        ("openai-responses", "/name"),
        ("anthropic", "/name"),
    ] {
        let out = codemode(
            &["run-code-tool", "-l", "py", "--format", format, &file],
            None,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            value.pointer(name_at).and_then(|v| v.as_str()),
            Some("run_code"),
            "{format}"
        );
    }
    let out = codemode(
        &["run-code-tool", "-l", "ts", "--format", "gemini"],
        Some("[]"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("openai-responses"));
}

#[test]
fn report_warns_about_duplicate_names() {
    let input = r#"[{"name":"a","description":"first","inputSchema":{}},{"name":"a","description":"second","inputSchema":{}}]"#;
    let out = codemode(&["render", "-l", "py", "--report"], Some(input));
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(
            r#"warning: tool "a" is declared more than once; the SDK keeps its first declaration"#
        ),
        "{err}"
    );
    let sdk = text(&out.stdout);
    assert!(sdk.contains("first") && !sdk.contains("second"), "{sdk}");
}

#[test]
fn token_report_survives_hostile_descriptions() {
    let spaces = " ".repeat(1 << 20);
    let input = format!(r#"[{{"name":"a","description":"{spaces}","inputSchema":{{}}}}]"#);
    let out = codemode(&["report", "--tokens", "--json"], Some(&input));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let totals: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert!(totals["native_tokens"].as_u64().unwrap() > 0);
}

#[cfg(not(feature = "mcp"))]
#[test]
fn serve_without_the_mcp_feature_says_how_to_get_it() {
    let out = codemode(&["serve", "--config", "mcp.json"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--features mcp"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn each_subcommand_has_its_own_help() {
    let out = codemode(&["--help"], None);
    let help = String::from_utf8(out.stdout).unwrap();
    let line = |name: &str| {
        help.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(line("report").contains("Report on a tool list"), "{help}");
    assert!(
        line("run-code-tool").contains("`run_code` tool definition"),
        "{help}"
    );
}

/// `check` prints each finding with its place, exits 1 on an error, 0 on
/// nothing (or warnings alone), and 2 on bad input; a build without the
/// `check` feature says which feature it needs.
#[test]
fn check_reports_findings_with_their_places_and_exit_codes() {
    let tools = example();
    let out = codemode(
        &["check", "-l", "js", "--tools", &tools],
        Some("await tools.read_file({ path: 1 });\ntools.list_directory();"),
    );
    if cfg!(feature = "check") {
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            "<stdin>:1:31: error [wrong-type]: tools.read_file(): `path` must be a string, not a number\n\
             <stdin>:2:1: warning [not-awaited]: the result of tools.list_directory() is never awaited: the call runs, but its value and any error are lost; write `await` before it (or collect it in `Promise.all`)\n"
        );
        let warned = codemode(
            &["check", "-l", "py", "--tools", &tools],
            Some("tools.list_directory()"),
        );
        assert_eq!(warned.status.code(), Some(0));
        let json = codemode(
            &["check", "-l", "ts", "--json", "--tools", &tools],
            Some("const a: = 1;"),
        );
        let found: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(found[0]["code"], "syntax-error");
        let missing = codemode(&["check", "-l", "js", "--tools", "no-such.json"], Some(""));
        assert_eq!(missing.status.code(), Some(2));
        assert!(text(&missing.stderr).contains("no-such.json"));
    } else {
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("--features check"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// A list of `n` tools with a description in Dhivehi, whose letters take
/// about two o200k tokens each (more than the core's estimate counts).
fn thaana(n: usize) -> String {
    let description = "ބޭނުންކުރާ މީހާގެ މަޢުލޫމާތު ޑޭޓާބޭހުން ހޯދައި ލިސްޓެއްގެ ގޮތުގައި ފޮނުވައިދެއެވެ";
    let tools: Vec<serde_json::Value> = (0..n)
        .map(|i| serde_json::json!({"name": format!("tool_{i}"), "description": description, "inputSchema": {"type": "object"}}))
        .collect();
    serde_json::json!({ "tools": tools }).to_string()
}

#[test]
fn a_budget_is_kept_in_o200k_tokens_and_said_when_it_cannot_be() {
    let within = |args: &[&str], list: &str| -> serde_json::Value {
        let out = codemode(args, Some(list));
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        report["within_budget"].clone()
    };
    // The core's estimate put this list's full SDK within 1,400 tokens; it
    // takes more than 2,000 in o200k.
    let report = within(
        &["report", "--tokens", "--json", "--budget", "1400", "-"],
        &thaana(10),
    );
    for language in ["typescript", "python"] {
        assert_eq!(report[language]["within"], true, "{report}");
        assert!(report[language]["run_code_tokens"].as_u64().unwrap() <= 1400);
        assert_ne!(report[language]["fit"], "Full");
    }
    // Nothing fits in 10 tokens: the bare groups are printed, with a
    // warning, and the report says the budget is not kept.
    let one = r#"{"tools": [{"name": "only_tool", "description": "Does something.", "inputSchema": {"type": "object"}}]}"#;
    let report = within(
        &["report", "--tokens", "--json", "--budget", "10", "-"],
        one,
    );
    assert_eq!(report["typescript"]["fit"], "Groups", "{report}");
    assert_eq!(report["typescript"]["within"], false);
    let out = codemode(&["render", "-l", "ts", "--budget", "10", "-"], Some(one));
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("warning: the run_code description takes "),
        "{stderr}"
    );
    assert!(
        stderr.contains("past the budget of 10, even with the smallest SDK (Groups)"),
        "{stderr}"
    );
}
