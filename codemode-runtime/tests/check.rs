//! The check before a run, through the runtime: its policies, and the
//! truth of what it says the sandboxes lack.

use codemode_core::sandbox::JAVASCRIPT_ABSENT;
use codemode_core::{DiagnosticCode, Language, Severity, ToolCallError, ToolDef, Toolset};
use codemode_runtime::{CheckPolicy, JsRuntime, Limits, RunErrorKind, RunOutcome, Runtime};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts its calls, so a test can tell whether a program ran.
#[derive(Default)]
struct Counted {
    calls: AtomicUsize,
}

impl Toolset for Counted {
    fn defs(&self) -> Vec<ToolDef> {
        vec![ToolDef::new(
            "note",
            json!({
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"],
                "additionalProperties": false
            }),
        )]
    }

    async fn call(&self, _name: &str, args: Value) -> Result<Value, ToolCallError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Ok(args)
    }
}

fn run_with(policy: CheckPolicy, language: Language, code: &str) -> (RunOutcome, usize) {
    let tools = Arc::new(Counted::default());
    let runtime = Runtime::from_arc(Arc::clone(&tools), Limits::default()).with_check(policy);
    let outcome = futures_executor::block_on(runtime.run(language, code));
    (outcome, tools.calls.load(Ordering::SeqCst))
}

const WRONG_JS: &str =
    "await tools.note({ text: 'first' });\nawait tools.note({ txt: 'second' });\nreturn 1;";

/// Brackets past the JavaScript limit: the check and the run refuse the
/// program at the same place with the same words.
#[test]
fn the_check_and_the_run_refuse_the_same_brackets() {
    let deep = codemode_core::program::JS_MAX_NESTING + 1;
    let code = format!(
        "const s = '((';\nreturn {}1{};",
        "[".repeat(deep),
        "]".repeat(deep)
    );
    refused_alike(Language::JavaScript, &code);
}

/// A program with its statements or expressions nested `n` times.
type Nested = fn(usize) -> String;

/// Statements and expressions nested without brackets: the deepest that
/// the check lets through runs (the engine compiles it), and one level
/// more is refused by the check and the run alike, at the same place.
#[test]
fn the_check_and_the_run_refuse_the_same_depth() {
    let catalog = codemode_core::Catalog::from_toolset(&Counted::default());
    let limit = codemode_core::program::JS_MAX_DEPTH;
    let nested: [(Language, Nested); 8] = [
        (Language::JavaScript, |n| {
            format!("{}return 1;", "if (1) ".repeat(n))
        }),
        (Language::JavaScript, |n| {
            format!("const f = {}1;\nreturn 2;", "() => ".repeat(n))
        }),
        (Language::JavaScript, |n| {
            format!("return {}1;", "- ".repeat(n))
        }),
        (Language::JavaScript, |n| {
            format!("return {}1;", "typeof ".repeat(n))
        }),
        (Language::JavaScript, |n| {
            format!("return {}1;", "1 ? 1 : ".repeat(n))
        }),
        (Language::JavaScript, |n| {
            format!("return {}1;", "await ".repeat(n))
        }),
        (Language::JavaScript, |n| {
            let labels: String = (0..n).map(|i| format!("l{i}: ")).collect();
            format!("{labels}return 1;")
        }),
        (Language::TypeScript, |n| {
            format!("const x: number = {}1;\nreturn x;", "- ".repeat(n))
        }),
    ];
    for (language, program) in nested {
        // The most levels the check lets through: levels per step differ.
        let accepted = |n: usize| catalog.check_program(language, &program(n)).is_empty();
        let (mut low, mut high) = (1, limit + 1);
        assert!(accepted(low) && !accepted(high), "{}", program(1));
        while high - low > 1 {
            let mid = (low + high) / 2;
            if accepted(mid) { low = mid } else { high = mid }
        }
        let (outcome, _) = run_with(CheckPolicy::Off, language, &program(low));
        assert!(
            outcome.error.is_none(),
            "{:?} for {}",
            outcome.error,
            &program(2)
        );
        refused_alike(language, &program(high));
    }
}

/// What QuickJS compiles in a loop is no level, however long: operators
/// chained to the left, calls and members chained on a value, and
/// TypeScript's wrappers. Such programs run, and the check finds nothing.
#[test]
fn chains_the_engine_reads_in_a_loop_are_no_depth() {
    let catalog = codemode_core::Catalog::from_toolset(&Counted::default());
    let n = 3 * codemode_core::program::JS_MAX_DEPTH;
    let programs = [
        (
            Language::JavaScript,
            format!("return 0{};", " + 1".repeat(n)),
            json!(n),
        ),
        (
            Language::JavaScript,
            format!("return false{} || 1;", " || false".repeat(n)),
            json!(1),
        ),
        (
            Language::JavaScript,
            format!("return ' x '{}.length;", ".trim()".repeat(n)),
            json!(1),
        ),
        (
            Language::TypeScript,
            format!("const x = 1{};\nreturn x;", " as number".repeat(n)),
            json!(1),
        ),
    ];
    for (language, code, want) in programs {
        assert_eq!(
            catalog.check_program(language, &code),
            [],
            "{}",
            &code[..60.min(code.len())]
        );
        let (outcome, _) = run_with(CheckPolicy::Off, language, &code);
        assert!(outcome.error.is_none(), "{:?}", outcome.error);
        assert_eq!(outcome.value, want);
    }
}

/// Asserts that the run refuses `code`, and that the check finds exactly
/// one thing in it, with the run's words at the run's place.
fn refused_alike(language: Language, code: &str) {
    let (outcome, _) = run_with(CheckPolicy::Off, language, code);
    let error = outcome.error.expect("refused");
    let catalog = codemode_core::Catalog::from_toolset(&Counted::default());
    let found = catalog.check_program(language, code);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].message, error.message);
    assert_eq!(
        error.location.map(|l| (l.line, l.column)),
        Some((found[0].line, found[0].column))
    );
}

#[test]
fn deny_stops_a_program_with_errors_before_any_call() {
    let (outcome, calls) = run_with(CheckPolicy::Deny, Language::JavaScript, WRONG_JS);
    assert_eq!(calls, 0, "the first, correct call must not have run");
    let error = outcome.error.as_ref().expect("refused");
    assert_eq!(error.kind, RunErrorKind::CheckFailed);
    assert_eq!(error.location.map(|l| (l.line, l.column)), Some((2, 18)));
    let codes: Vec<_> = outcome
        .diagnostics
        .iter()
        .map(|d| (d.line, d.code))
        .collect();
    assert_eq!(
        codes,
        [
            (2, DiagnosticCode::MissingKey),
            (2, DiagnosticCode::UnknownKey)
        ]
    );
    let text = outcome.to_model_text(4000);
    assert!(
        text.starts_with("error (check_failed) at line 2, column 18: the program was not run"),
        "{text}"
    );
    assert!(
        text.contains("line 2, column 20: error [unknown-key]: tools.note(): takes no key \"txt\"; did you mean \"text\"?"),
        "{text}"
    );
    // A correct program runs under deny.
    let (outcome, calls) = run_with(
        CheckPolicy::Deny,
        Language::JavaScript,
        "return (await tools.note({ text: 'x' })).text;",
    );
    assert_eq!((outcome.value, calls), (json!("x"), 1));
    assert!(outcome.diagnostics.is_empty());
}

#[test]
fn a_thread_with_little_stack_gets_the_same_check() {
    // A long program and a deep chain, run from a thread with 256 KiB of
    // stack: the check (on a stack of its own) finds what a check on a
    // large stack finds, and nothing overflows.
    let long = format!(
        "{}await tools.note({{ txt: 'x' }});\nreturn 1;",
        "const a = [1, 2, 3].map((n) => n * 2);\n".repeat(200)
    );
    let deep = format!(
        "await tools.note({{ txt: 'x' }});\nreturn {}true;",
        "!".repeat(100_000)
    );
    for (language, code) in [
        (Language::JavaScript, long.clone()),
        (Language::TypeScript, long),
        (Language::JavaScript, deep),
    ] {
        let expected = codemode_core::check_program(language, &Counted::default().defs(), &code);
        let (outcome, calls) = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || run_with(CheckPolicy::Deny, language, &code))
            .expect("a small thread")
            .join()
            .expect("no overflow");
        assert_eq!(outcome.diagnostics, expected, "{language}");
        assert!(!expected.is_empty(), "{language}: the programs are wrong");
        if expected.iter().any(|d| d.severity == Severity::Error) {
            assert_eq!(calls, 0);
            assert_eq!(
                outcome.error.map(|e| e.kind),
                Some(RunErrorKind::CheckFailed)
            );
        }
    }
}

#[test]
fn warn_runs_the_program_and_reports_what_it_found() {
    let (outcome, calls) = run_with(CheckPolicy::Warn, Language::JavaScript, WRONG_JS);
    assert_eq!(calls, 2, "both calls ran");
    assert_eq!(outcome.diagnostics.len(), 2);
    assert!(outcome.to_model_text(4000).contains("check:\n"));
    assert_eq!(
        Runtime::new(Counted::default(), Limits::default()).check_policy(),
        CheckPolicy::Warn
    );
    let (outcome, _) = run_with(CheckPolicy::Off, Language::JavaScript, WRONG_JS);
    assert!(outcome.diagnostics.is_empty());
    // A syntax error the engine reports is not listed twice.
    let (outcome, _) = run_with(CheckPolicy::Warn, Language::JavaScript, "const a = ;");
    assert_eq!(outcome.diagnostics.len(), 1);
    assert_eq!(
        outcome.error.as_ref().map(|e| e.kind),
        Some(RunErrorKind::SyntaxError)
    );
    assert!(!outcome.to_model_text(4000).contains("check:"));
}

#[test]
fn a_warning_alone_does_not_stop_a_program() {
    let code = "tools.note({ text: 'later' });\nreturn 1;";
    let (outcome, _) = run_with(CheckPolicy::Deny, Language::JavaScript, code);
    assert_eq!(outcome.value, json!(1));
    assert_eq!(outcome.diagnostics[0].severity, Severity::Warning);
    assert_eq!(outcome.diagnostics[0].code, DiagnosticCode::NotAwaited);
}

#[test]
fn the_javascript_sandbox_lacks_every_global_the_check_names() {
    let runtime =
        JsRuntime::new(Counted::default(), Limits::default()).with_check(CheckPolicy::Off);
    let names: Vec<&str> = JAVASCRIPT_ABSENT.iter().map(|a| a.name).collect();
    let code = format!(
        "return {}.filter((n) => typeof globalThis[n] !== 'undefined');",
        serde_json::to_string(&names).unwrap()
    );
    let outcome = futures_executor::block_on(runtime.run(Language::JavaScript, &code));
    assert_eq!(outcome.value, json!([]), "{:?}", outcome.error);
    // And a use of each is reported.
    let catalog = codemode_core::Catalog::from_toolset(&Counted::default());
    for name in names {
        let found = catalog.check_program(Language::JavaScript, &format!("return {name};"));
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        assert_eq!(found[0].code, DiagnosticCode::Unavailable);
    }
}

#[test]
fn calls_a_program_never_waits_for_still_run_to_their_end() {
    // The program is done at once; the calls it started must run anyway,
    // every time, not only when the host reads them before the end.
    for _ in 0..20 {
        let code = "tools.note({ text: 'a' }); tools.note({ text: 'b' }); return 1;";
        let (outcome, calls) = run_with(CheckPolicy::Off, Language::JavaScript, code);
        assert_eq!((outcome.value, calls), (json!(1), 2), "{:?}", outcome.error);
        assert!(outcome.calls.iter().all(|c| c.ok), "{:?}", outcome.calls);
    }
}

#[cfg(feature = "python")]
mod python {
    use super::*;
    use codemode_core::sandbox::{PYTHON_ABSENT, PYTHON_MODULES};

    fn run_py(code: &str) -> (RunOutcome, usize) {
        run_with(CheckPolicy::Off, Language::Python, code)
    }

    /// Past a nesting limit, the check and the run refuse a program at
    /// the same place with the same words: brackets (parentheses too,
    /// which make no nesting in the syntax tree; not those in strings or
    /// comments), and functions within functions.
    #[test]
    fn the_check_and_the_run_refuse_the_same_nesting() {
        let catalog = codemode_core::Catalog::from_toolset(&Counted::default());
        let brackets = codemode_core::program::PYTHON_MAX_BRACKETS + 1;
        let mut defs = String::new();
        for level in 0..=codemode_core::program::PYTHON_MAX_DEF_NESTING {
            defs.push_str(&format!("{}def f{level}():\n", "    ".repeat(level)));
        }
        defs.push_str(&format!(
            "{}return 1\n",
            "    ".repeat(codemode_core::program::PYTHON_MAX_DEF_NESTING + 1)
        ));
        let programs = [
            format!("x = {}1{}", "(".repeat(brackets), ")".repeat(brackets)),
            format!(
                "s = '((('\nx = {}{}",
                "[".repeat(brackets),
                "]".repeat(brackets)
            ),
            defs,
            // Past the parser's own bound, without a bracket: unary
            // operators, `not`, conditional expressions.
            format!("x = {}1", "-".repeat(250)),
            format!("x = {}True", "not ".repeat(250)),
            format!("x = {}1", "1 if 1 else ".repeat(250)),
        ];
        for code in programs {
            refused_alike(Language::Python, &code);
        }
        let quoted = format!(
            "x = '{}'  # {}\n",
            "(".repeat(brackets),
            "[".repeat(brackets)
        );
        assert!(run_py(&quoted).0.error.is_none());
        assert_eq!(catalog.check_program(Language::Python, &quoted), []);
    }

    #[test]
    fn every_builtin_the_check_names_fails_when_called() {
        for absent in PYTHON_ABSENT {
            let code = format!("{}('x')", absent.name);
            let (outcome, _) = run_py(&code);
            assert!(outcome.error.is_some(), "{} runs", absent.name);
            let catalog = codemode_core::Catalog::from_toolset(&Counted::default());
            let found = catalog.check_program(Language::Python, &code);
            assert_eq!(found.len(), 1, "{}", absent.name);
        }
    }

    #[test]
    fn python_modules_are_importable_exactly_when_the_check_says() {
        let catalog = codemode_core::Catalog::from_toolset(&Counted::default());
        let others = [
            "__future__",
            "abc",
            "copy",
            "decimal",
            "enum",
            "fractions",
            "hashlib",
            "heapq",
            "http",
            "operator",
            "random",
            "requests",
            "socket",
            "statistics",
            "string",
            "subprocess",
            "textwrap",
            "time",
            "types",
            "typing_extensions",
            "urllib",
            "uuid",
        ];
        for module in PYTHON_MODULES.iter().chain(others.iter()) {
            let code = format!("import {module}\n1");
            let (outcome, _) = run_py(&code);
            let runs = outcome.error.is_none();
            let flagged = !catalog.check_program(Language::Python, &code).is_empty();
            assert_eq!(
                runs, !flagged,
                "import {module}: runs {runs}, flagged {flagged}: {:?}",
                outcome.error
            );
        }
    }

    #[test]
    fn future_annotations_run_and_are_not_reported() {
        let code = "from __future__ import annotations\nx: int = 1\nx";
        let (outcome, _) = run_py(code);
        assert_eq!(outcome.value, json!(1), "{:?}", outcome.error);
        let catalog = codemode_core::Catalog::from_toolset(&Counted::default());
        assert!(catalog.check_program(Language::Python, code).is_empty());
    }

    #[test]
    fn a_correct_python_program_runs_under_deny() {
        let (outcome, calls) = run_with(
            CheckPolicy::Deny,
            Language::Python,
            "return (await tools.note(text='x'))['text']",
        );
        assert_eq!((outcome.value, calls), (json!("x"), 1));
        assert!(outcome.diagnostics.is_empty());
    }

    #[test]
    fn a_python_tool_call_that_is_not_awaited_is_a_warning() {
        let code = "tools.note({'text': 'x'})\n1";
        let (outcome, calls) = run_with(CheckPolicy::Deny, Language::Python, code);
        // The sandbox starts the call; its result is what is lost.
        assert_eq!((calls, outcome.error), (1, None));
        assert_eq!(outcome.diagnostics[0].code, DiagnosticCode::NotAwaited);
        assert_eq!(outcome.diagnostics[0].severity, Severity::Warning);
    }
}

/// A toolset whose tool list, from its second reading on (the first is the
/// runtime's, when it is made), is given only once `open` is set: until
/// then, reading it waits (up to ten seconds, then says it waited in vain).
struct Gated {
    open: std::sync::Mutex<bool>,
    opened: std::sync::Condvar,
    reads: AtomicUsize,
    waited_in_vain: std::sync::atomic::AtomicBool,
}

impl Toolset for Gated {
    fn defs(&self) -> Vec<ToolDef> {
        if self.reads.fetch_add(1, Ordering::SeqCst) > 0 {
            let open = self.open.lock().unwrap();
            let (open, waited) = self
                .opened
                .wait_timeout_while(open, std::time::Duration::from_secs(10), |open| !*open)
                .unwrap();
            drop(open);
            if waited.timed_out() {
                self.waited_in_vain.store(true, Ordering::SeqCst);
            }
        }
        Counted::default().defs()
    }

    async fn call(&self, _name: &str, args: Value) -> Result<Value, ToolCallError> {
        Ok(args)
    }
}

#[test]
fn the_check_leaves_the_thread_polling_the_run_free() {
    // One thread polls everything: the run, whose check reads the tool
    // list, and the task that lets that reading go on. Were the check made
    // on the polling thread, the task could not run until it gave up.
    let tools = Arc::new(Gated {
        open: std::sync::Mutex::new(false),
        opened: std::sync::Condvar::new(),
        reads: AtomicUsize::new(0),
        waited_in_vain: Default::default(),
    });
    let runtime =
        Runtime::from_arc(Arc::clone(&tools), Limits::default()).with_check(CheckPolicy::Warn);
    let opener = {
        let tools = Arc::clone(&tools);
        async move {
            futures_timer::Delay::new(std::time::Duration::from_millis(50)).await;
            *tools.open.lock().unwrap() = true;
            tools.opened.notify_all();
        }
    };
    let (outcome, ()) = futures_executor::block_on(futures_util::future::join(
        runtime.run(
            Language::JavaScript,
            "return await tools.note({text: 'x'});",
        ),
        opener,
    ));
    assert_eq!(outcome.value, json!({"text": "x"}), "{:?}", outcome.error);
    assert!(!tools.waited_in_vain.load(Ordering::SeqCst));
}
