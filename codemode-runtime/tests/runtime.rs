//! The sandbox through its public API: results, bindings, errors, limits.

use codemode::Language;
use codemode_runtime::{JsRuntime, Limits, RunErrorKind, RunOutcome};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Lab {
    arrived: AtomicUsize,
}

#[codemode::toolset]
impl Lab {
    /// Add two numbers.
    #[tool]
    fn add(&self, a: f64, b: f64) -> f64 {
        a + b
    }

    /// Fail on purpose.
    #[tool]
    fn fail(&self, why: String) -> Result<(), String> {
        Err(why)
    }

    /// Panic on purpose.
    #[tool]
    fn explode(&self) -> u8 {
        panic!("kaboom")
    }

    /// Wait until `count` calls have arrived: only finishes when calls run
    /// at the same time.
    #[tool]
    async fn meet(&self, count: usize) -> usize {
        let n = self.arrived.fetch_add(1, Ordering::SeqCst) + 1;
        while self.arrived.load(Ordering::SeqCst) < count {
            futures_timer::Delay::new(Duration::from_millis(2)).await;
        }
        n
    }

    /// Never returns.
    #[tool]
    async fn hang(&self) {
        futures_timer::Delay::new(Duration::from_secs(3600)).await;
    }

    /// Sleep on the calling thread.
    #[tool]
    fn nap(&self, ms: u64) -> u64 {
        std::thread::sleep(Duration::from_millis(ms));
        ms
    }

    /// Count the keys of an object.
    #[tool]
    fn keys(&self, object: Option<serde_json::Map<String, Value>>) -> usize {
        object.map_or(0, |o| o.len())
    }
}

fn run_with(limits: Limits, language: Language, code: &str) -> RunOutcome {
    let runtime = JsRuntime::new(Lab::default(), limits);
    futures_executor::block_on(runtime.run(language, code))
}

fn run(code: &str) -> RunOutcome {
    run_with(Limits::default(), Language::JavaScript, code)
}

fn kind(outcome: &RunOutcome) -> Option<RunErrorKind> {
    outcome.error.as_ref().map(|e| e.kind)
}

fn short(timeout_ms: u64) -> Limits {
    Limits {
        timeout: Duration::from_millis(timeout_ms),
        ..Limits::default()
    }
}

#[test]
fn returns_logs_and_records_calls() {
    let out = run(r#"
        const x = await tools.add({a: 1, b: 2});
        console.log("x is", x, {ok: true});
        console.warn("careful");
        return {x, list: [1, "two", null]};
    "#);
    assert_eq!(out.error, None);
    assert_eq!(out.value, json!({"x": 3, "list": [1, "two", null]}));
    assert_eq!(out.logs[0].text, r#"x is 3 {"ok":true}"#);
    assert_eq!(
        (out.logs[1].level.as_str(), out.logs[1].text.as_str()),
        ("warn", "careful")
    );
    assert_eq!(out.calls.len(), 1);
    assert_eq!(
        (
            out.calls[0].name.as_str(),
            &out.calls[0].args,
            out.calls[0].ok
        ),
        ("add", &json!({"a": 1, "b": 2}), true)
    );
    assert!(out.calls[0].duration_ms.is_some());
    let serialised = serde_json::to_value(&out).unwrap();
    assert!(serialised["calls"][0]["duration_ms"].is_number());
}

#[test]
fn nothing_returned_is_null() {
    let out = run("await tools.add({a: 1, b: 1});");
    assert_eq!((out.value, out.error), (Value::Null, None));
}

#[test]
fn promise_all_runs_calls_concurrently() {
    // Each call waits for the other to arrive: run one after the other, they
    // would wait forever.
    let out = run_with(
        short(10_000),
        Language::JavaScript,
        "return await Promise.all([tools.meet({count: 2}), tools.meet({count: 2})]);",
    );
    assert_eq!(out.error, None);
    let mut got: Vec<u64> = out
        .value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    got.sort();
    assert_eq!(got, [1, 2]);
}

#[test]
fn exact_names_and_no_leaks() {
    let out = run(r#"
        return {
            names: Object.getOwnPropertyNames(globalThis).filter(n => /codemode|host/i.test(n)),
            tools: typeof tools, error: typeof ToolCallError,
            date: typeof Date, perf: typeof performance, require: typeof require,
            dashed: typeof tools["add"], keys: Object.keys(tools).sort(),
            thenable: typeof tools.then,
        };
    "#);
    assert_eq!(out.error, None, "{:?}", out.error);
    assert_eq!(out.value["names"], json!([]));
    // Callable, so `tools(name, args)` reaches a tool whatever its name.
    assert_eq!(out.value["tools"], "function");
    assert_eq!(out.value["error"], "function");
    assert_eq!(
        (
            out.value["date"].as_str(),
            out.value["perf"].as_str(),
            out.value["require"].as_str()
        ),
        (Some("undefined"), Some("undefined"), Some("undefined"))
    );
    assert_eq!(
        out.value["keys"],
        json!(["add", "explode", "fail", "hang", "keys", "meet", "nap"])
    );
    assert_eq!(out.value["thenable"], "undefined");
}

#[test]
fn each_run_gets_a_fresh_context() {
    let runtime = JsRuntime::new(Lab::default(), Limits::default());
    let first = futures_executor::block_on(runtime.run(
        Language::JavaScript,
        "globalThis.leak = 42; Array.prototype.evil = 1; return 1;",
    ));
    assert_eq!(first.value, json!(1));
    let second = futures_executor::block_on(runtime.run(
        Language::JavaScript,
        "return [typeof leak, [].evil === undefined];",
    ));
    assert_eq!(second.value, json!(["undefined", true]));
}

#[test]
fn unknown_tools_reject_with_tool_call_error() {
    let out = run(r#"
        if (tools["no-such-tool"] !== undefined) return "answered";
        try { await tools("no-such-tool", {}); }
        catch (e) { return [e instanceof ToolCallError, e instanceof Error, e.toolName, e.kind, e.message]; }
    "#);
    assert_eq!(out.error, None);
    assert_eq!(
        out.value.as_array().unwrap()[0..4],
        [
            json!(true),
            json!(true),
            json!("no-such-tool"),
            json!("unknown_tool")
        ]
    );
    assert!(
        out.value[4]
            .as_str()
            .unwrap()
            .contains(r#""add", "explode""#),
        "{}",
        out.value[4]
    );
}

#[test]
fn tool_errors_map_to_their_kinds() {
    let out = run(r#"
        const kinds = [];
        for (const p of [tools.add({a: "x", b: 1}), tools.fail({why: "nope"}), tools.explode(), tools.add({a: 1})]) {
            try { await p; kinds.push("ok"); } catch (e) { kinds.push(e.kind + ": " + e.message); }
        }
        return kinds;
    "#);
    assert_eq!(out.error, None);
    let kinds: Vec<&str> = out
        .value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        kinds[0].starts_with("invalid_arguments: invalid arguments at `a`"),
        "{}",
        kinds[0]
    );
    assert_eq!(kinds[1], "tool_failed: nope");
    assert_eq!(kinds[2], "tool_panicked: the tool panicked: kaboom");
    assert_eq!(
        kinds[3],
        "invalid_arguments: invalid arguments: missing field `b`"
    );
    assert_eq!(out.calls.iter().filter(|c| !c.ok).count(), 4);
    assert_eq!(out.calls[1].error.as_ref().unwrap().message, "nope");
}

#[test]
fn missing_arguments_are_an_empty_object() {
    assert_eq!(run("return await tools.keys();").value, json!(0));
    assert_eq!(
        run("return await tools.keys({object: {a: 1, b: 2}});").value,
        json!(2)
    );
}

#[test]
fn an_uncaught_error_is_thrown() {
    let out = run("throw new Error('plain failure');");
    assert_eq!(kind(&out), Some(RunErrorKind::Thrown));
    assert_eq!(out.error.unwrap().message, "Error: plain failure");
    // Reported where the program made the call (at the tool's name), as in
    // Python.
    let out = run("const x = 1;\n  await tools.fail({why: 'bad'});");
    assert_eq!(kind(&out), Some(RunErrorKind::Thrown));
    let error = out.error.unwrap();
    assert!(
        error
            .message
            .contains(r#"ToolCallError: bad (from tool "fail", kind tool_failed)"#)
    );
    let at = error.location.expect("the call's place");
    assert_eq!((at.line, at.column), (2, 15), "{error:?}");
    assert_eq!(kind(&run("throw 'a string';")), Some(RunErrorKind::Thrown));
    // What is not an Error is shown as the value it is, whatever keys it
    // has; an Error's subclass stays an Error.
    for (code, message) in [
        (
            "throw {status: 404, message: 'not found'};",
            r#"the program threw {"status":404,"message":"not found"}, which is not an Error"#,
        ),
        (
            "throw [1, 2];",
            "the program threw [1,2], which is not an Error",
        ),
        (
            "await Promise.reject({code: 1});",
            r#"the program threw {"code":1}, which is not an Error"#,
        ),
        ("throw 42;", "the program threw 42, which is not an Error"),
        (
            "class Late extends Error { constructor() { super('late'); this.name = 'Late'; } }\nthrow new Late();",
            "Late: late",
        ),
    ] {
        let out = run(code);
        assert_eq!(kind(&out), Some(RunErrorKind::Thrown), "{code}");
        assert_eq!(out.error.unwrap().message, message, "{code}");
    }
    let long = run("throw {text: 'x'.repeat(100000)};")
        .error
        .unwrap()
        .message;
    assert!(
        long.len() < 10_000 && long.contains("bytes of its JSON"),
        "{long}"
    );
}

#[test]
fn syntax_errors() {
    let out = run("return {;");
    assert_eq!(
        kind(&out),
        Some(RunErrorKind::SyntaxError),
        "{:?}",
        out.error
    );
    let out = run_with(Limits::default(), Language::TypeScript, "const x: = 1;");
    assert_eq!(kind(&out), Some(RunErrorKind::SyntaxError));
}

#[test]
fn typescript_is_stripped_and_run() {
    let out = run_with(
        Limits::default(),
        Language::TypeScript,
        r#"
        interface Sum { total: number }
        const add = async (a: number, b: number): Promise<number> => (await tools.add({ a, b })) as number;
        const s: Sum = { total: await add(2, 3) };
        return s.total satisfies number;
    "#,
    );
    assert_eq!((out.value, out.error), (json!(5), None));
}

#[test]
fn python_is_not_run_here() {
    let out = run_with(Limits::default(), Language::Python, "return 1");
    assert_eq!(kind(&out), Some(RunErrorKind::UnsupportedLanguage));
}

#[test]
fn non_json_results_are_reported() {
    let out = run("const a = {}; a.self = a; return a;");
    assert_eq!(kind(&out), Some(RunErrorKind::InvalidResult));
}

#[test]
fn an_infinite_loop_ends_near_the_deadline() {
    let started = Instant::now();
    let out = run_with(short(300), Language::JavaScript, "while (true) {}");
    assert_eq!(kind(&out), Some(RunErrorKind::Timeout), "{:?}", out.error);
    // Generous: the point is that it ends, not how fast the machine is.
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn a_loop_that_catches_everything_still_ends() {
    let out = run_with(
        short(300),
        Language::JavaScript,
        "while (true) { try { for(;;){} } catch (e) {} }",
    );
    assert_eq!(kind(&out), Some(RunErrorKind::Timeout));
}

#[test]
fn a_promise_that_never_settles_ends_by_the_deadline() {
    let started = Instant::now();
    let out = run_with(
        short(300),
        Language::JavaScript,
        "await new Promise(() => {}); return 1;",
    );
    assert_eq!(kind(&out), Some(RunErrorKind::Timeout));
    assert!(started.elapsed() < Duration::from_secs(10));
    let out = run_with(short(300), Language::JavaScript, "await tools.hang();");
    assert_eq!(kind(&out), Some(RunErrorKind::Timeout));
    assert!(
        out.error
            .unwrap()
            .message
            .contains("1 tool call(s) were still running")
    );
}

#[test]
fn an_allocation_bomb_runs_out_of_memory() {
    let limits = Limits {
        memory_bytes: 16 << 20,
        ..Limits::default()
    };
    let out = run_with(
        limits,
        Language::JavaScript,
        "const a = []; while (true) a.push(new Array(100000).fill(7));",
    );
    assert_eq!(
        kind(&out),
        Some(RunErrorKind::OutOfMemory),
        "{:?}",
        out.error
    );
    // The host is fine, and so is the next run.
    assert_eq!(run("return 2;").value, json!(2));
}

#[test]
fn deep_recursion_overflows_the_stack() {
    let out = run("function f(n) { return f(n + 1) + 1; } return f(0);");
    assert_eq!(
        kind(&out),
        Some(RunErrorKind::StackOverflow),
        "{:?}",
        out.error
    );
}

#[test]
fn ten_thousand_calls_hit_the_call_limit() {
    let out = run("for (let i = 0; i < 10000; i++) await tools.add({a: i, b: 1}); return 'done';");
    assert_eq!(kind(&out), Some(RunErrorKind::CallLimit), "{:?}", out.error);
    assert_eq!(out.value, Value::Null);
    assert_eq!(out.calls.len(), Limits::default().max_tool_calls);
    let out =
        run("await Promise.all(Array.from({length: 10000}, (_, i) => tools.add({a: i, b: 1})));");
    assert_eq!(kind(&out), Some(RunErrorKind::CallLimit));
}

#[test]
fn output_limits() {
    let limits = Limits {
        max_output_bytes: 1000,
        ..Limits::default()
    };
    let out = run_with(
        limits.clone(),
        Language::JavaScript,
        "for (;;) console.log('spam spam spam');",
    );
    assert_eq!(
        kind(&out),
        Some(RunErrorKind::OutputLimit),
        "{:?}",
        out.error
    );
    let last = &out.logs.last().unwrap().text;
    assert!(last.contains("[console output truncated"), "{last}");
    let kept: usize = out.logs.iter().map(|l| l.text.len() + 1).sum();
    assert!(kept <= 1000 + last.len() + 1, "{kept}");
    let out = run_with(limits, Language::JavaScript, "return 'x'.repeat(5000);");
    assert_eq!(kind(&out), Some(RunErrorKind::OutputLimit));
}

#[test]
fn unserialisable_arguments_reject() {
    let out = run(
        "try { await tools.add({a: () => 1, b: 2}); } catch (e) { return [e.kind, e instanceof ToolCallError]; }",
    );
    assert_eq!(out.value, json!(["invalid_arguments", true]));
}

#[test]
fn runs_are_send_so_any_executor_can_poll_them() {
    fn assert_send<F: Send>(_: &F) {}
    let runtime = std::sync::Arc::new(JsRuntime::new(Lab::default(), Limits::default()));
    assert_send(&runtime.run(Language::JavaScript, "return 1;"));
    // And one polled on another thread.
    let shared = std::sync::Arc::clone(&runtime);
    let out = std::thread::spawn(move || {
        futures_executor::block_on(shared.run(Language::JavaScript, "return 1;"))
    })
    .join()
    .unwrap();
    assert_eq!(out.value, json!(1));
}

#[test]
fn blocking_tools_overlap_and_do_not_hold_a_timed_out_run() {
    let started = Instant::now();
    let out = run("return await Promise.all([tools.nap({ms: 300}), tools.nap({ms: 300})]);");
    assert_eq!(out.value, json!([300, 300]), "{:?}", out.error);
    assert!(
        started.elapsed() < Duration::from_millis(550),
        "{:?}",
        started.elapsed()
    );
    let started = Instant::now();
    let out = run_with(
        short(200),
        Language::JavaScript,
        "return await tools.nap({ms: 3000});",
    );
    assert_eq!(kind(&out), Some(RunErrorKind::Timeout));
    assert!(
        started.elapsed() < Duration::from_millis(1000),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn argument_errors_name_no_internal_types() {
    let out = run(r#"try { await tools.add("x"); } catch (e) { return [e.kind, e.message]; }"#);
    assert_eq!(out.value[0], "invalid_arguments");
    let message = out.value[1].as_str().unwrap();
    assert!(
        !message.contains("Codemode") && message.contains("an object of the tool's arguments"),
        "{message}"
    );
}

/// Engine threads are kept between runs; the engines are not. Whatever one
/// program does to its world, the next (on the same runtime, and most
/// likely the same thread) starts from a clean one.
#[test]
fn nothing_leaks_from_one_run_into_the_next() {
    let runtime = JsRuntime::new(Lab::default(), Limits::default());
    let run = |code: &str| futures_executor::block_on(runtime.run(Language::JavaScript, code));
    for round in 0..3 {
        if round > 0 {
            // Let the engine threads build their next engines, so the runs
            // below take engines built ahead as well as engines built in
            // the run.
            std::thread::sleep(Duration::from_millis(50));
        }
        let dirty = run(r#"
            globalThis.leaked = "global";
            var declared = "var";
            Object.prototype.polluted = "prototype";
            Array.prototype.push = () => "hijacked";
            JSON.stringify = () => "hijacked";
            tools.add = async () => "hijacked";
            console.log = () => {};
            return typeof leaked;
        "#);
        assert_eq!(dirty.value, json!("string"), "{:?}", dirty.error);
        let clean = run(r#"
            const list = [];
            list.push(1);
            return {
                leaked: typeof leaked,
                declared: typeof declared,
                polluted: ({}).polluted === undefined,
                push: list.length,
                json: JSON.stringify({a: 1}),
                add: await tools.add({a: 1, b: 2}),
            };
        "#);
        assert_eq!(
            clean.value,
            json!({"leaked": "undefined", "declared": "undefined", "polluted": true, "push": 1, "json": "{\"a\":1}", "add": 3}),
            "round {round}: {:?}",
            clean.error
        );
    }
}

/// A second tool set, so runs of two runtimes can be told apart.
struct Shelf;

#[codemode::toolset]
impl Shelf {
    /// Name a shelf.
    #[tool]
    fn label(&self, n: u32) -> String {
        format!("shelf {n}")
    }
}

/// Engines are built ahead of their runs, before the run's tools and limits
/// are known, and shared by every runtime of the process. Each run must
/// still see exactly its own tool names and its own memory limit, whether it
/// gets a waiting engine (after a pause) or builds one (back to back).
#[test]
fn engines_built_ahead_take_each_runs_own_tools_and_limits() {
    let lab = JsRuntime::new(Lab::default(), Limits::default());
    let small = Limits {
        memory_bytes: 16 << 20,
        ..Limits::default()
    };
    let shelf = JsRuntime::new(Shelf, small);
    let names = "return Object.keys(tools).sort().join(',');";
    // About 40 MB of live strings: over the small limit, under the default.
    let big = "const a = []; for (let i = 0; i < 40; i++) a.push('x'.repeat(1 << 20) + i); return a.length;";
    for round in 0..6 {
        if round % 2 == 0 {
            // Time for the engine threads to build their next engines.
            std::thread::sleep(Duration::from_millis(50));
        }
        let got = futures_executor::block_on(lab.run(Language::JavaScript, names));
        assert_eq!(
            got.value,
            json!("add,explode,fail,hang,keys,meet,nap"),
            "round {round}: {:?}",
            got.error
        );
        let got = futures_executor::block_on(shelf.run(Language::JavaScript, names));
        assert_eq!(got.value, json!("label"), "round {round}: {:?}", got.error);
        let got = futures_executor::block_on(shelf.run(Language::JavaScript, big));
        assert_eq!(
            kind(&got),
            Some(RunErrorKind::OutOfMemory),
            "round {round}: {:?}",
            got.error
        );
        let got = futures_executor::block_on(lab.run(Language::JavaScript, big));
        assert_eq!(got.value, json!(40), "round {round}: {:?}", got.error);
        let got = futures_executor::block_on(
            shelf.run(Language::JavaScript, "return await tools.label({n: 3});"),
        );
        assert_eq!(
            got.value,
            json!("shelf 3"),
            "round {round}: {:?}",
            got.error
        );
    }
}

#[test]
fn the_index_functions_answer_from_the_tool_set_without_calling_a_tool() {
    let runtime = JsRuntime::new(Lab::default(), Limits::default());
    let out = futures_executor::block_on(runtime.run(
        Language::TypeScript,
        r#"const found = await catalog.search("add numbers", 3);
           const text = await catalog.describe(["add", "nope"]);
           return { found, text, sum: await tools.add({ a: 1, b: 2 }) };"#,
    ));
    assert!(out.error.is_none(), "{:?}", out.error);
    let value = out.value.clone();
    assert_eq!(
        value["found"][0],
        json!({"name": "add", "summary": "Add two numbers."})
    );
    let text = value["text"].as_str().unwrap();
    assert!(
        text.contains("add(args: { a: number; b: number }): Promise<number>;"),
        "{text}"
    );
    assert!(text.starts_with("// no tool is named \"nope\""), "{text}");
    assert_eq!(value["sum"], json!(3));
    // Only the tool call is a call.
    assert_eq!(out.calls.len(), 1);
    let bad = futures_executor::block_on(runtime.run(
        Language::JavaScript,
        "try { await catalog.describe(42); } catch (e) { return [e.toolName, e.kind, e.message]; }",
    ));
    assert_eq!(
        bad.value,
        json!([
            "catalog.describe",
            "invalid_arguments",
            "catalog.describe(names) takes a list of tool names, e.g. [\"a\", \"b\"]"
        ])
    );
}
