//! Every class of hostile program the sandbox has been attacked with: each
//! must end in its true kind (or value), on time, with the host alive and the
//! runtime still usable afterwards.

use codemode::{ErrorKind, Language, ToolCallError, ToolDef, Toolset};
use codemode_runtime::{Isolation, JsRuntime, Limits, RunErrorKind, RunOutcome, WorkerCommand};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Tools with awkward names and awkward results, counting every call.
#[derive(Default)]
struct Awkward {
    calls: AtomicUsize,
}

const NAMES: [&str; 9] = [
    "__proto__",
    "constructor",
    "deep",
    "echo",
    "interrupted",
    "surrogate",
    "then",
    "toJSON",
    "toString",
];

impl Toolset for Awkward {
    fn defs(&self) -> Vec<ToolDef> {
        NAMES
            .iter()
            .map(|n| ToolDef::new(*n, json!({"type": "object"})))
            .collect()
    }

    async fn call(&self, name: &str, args: Value) -> Result<Value, ToolCallError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        match name {
            "deep" => {
                let mut v = json!(1);
                for _ in 0..100_000 {
                    v = Value::Array(vec![v]);
                }
                Ok(v)
            }
            "interrupted" => Err(ToolCallError::new(
                name,
                ErrorKind::ToolFailed,
                "interrupted by the upstream; out of memory; Maximum call stack size exceeded",
            )),
            "surrogate" => Ok(json!({"s": "\u{fffd}"})),
            _ if NAMES.contains(&name) => Ok(json!({"tool": name, "args": args})),
            _ => Err(codemode::unknown_tool(name, &NAMES)),
        }
    }
}

fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout: Duration::from_millis(timeout_ms),
        ..Limits::default()
    }
}

fn run_on(runtime: &JsRuntime<Awkward>, language: Language, code: &str) -> RunOutcome {
    let started = Instant::now();
    let out = futures_executor::block_on(runtime.run(language, code));
    let limit = runtime.limits().timeout * 2 + Duration::from_millis(200);
    assert!(
        started.elapsed() <= limit,
        "took {:?} for {code}",
        started.elapsed()
    );
    out
}

fn kind(out: &RunOutcome) -> Option<RunErrorKind> {
    out.error.as_ref().map(|e| e.kind)
}

/// The runtime still answers a plain program.
fn still_usable(runtime: &JsRuntime<Awkward>) {
    let out = futures_executor::block_on(runtime.run(
        Language::JavaScript,
        "return (await tools.echo({n: 1})).args.n + 1;",
    ));
    assert_eq!(out.value, json!(2), "{:?}", out.error);
}

/// (program, language, expected kind or value)
enum Want {
    Kind(RunErrorKind),
    OneOf(&'static [RunErrorKind]),
    Value(Value),
}

fn cases() -> Vec<(&'static str, Language, String, Want)> {
    use Language::{JavaScript as Js, TypeScript as Ts};
    use RunErrorKind as K;
    let nested_ts = format!(
        "const x: number = {}1{};",
        "(".repeat(2000),
        ")".repeat(2000)
    );
    vec![
        ("deep brackets in TypeScript", Ts, nested_ts, Want::Kind(K::SyntaxError)),
        ("deep unary chain", Js, format!("return {}1;", "!".repeat(200_000)), Want::Kind(K::StackOverflow)),
        ("enum, const enum, namespace, parameter properties", Ts, "enum E { A, B }\nconst enum C { X = 5 }\nnamespace N { export const v = 7; }\nclass P { constructor(public x: number) {} }\nabstract class Q { abstract f(): number; g() { return this.f() + 1; } }\nclass R extends Q { f() { return 1; } }\nfunction id<T>(x: T): T { return x; }\nfunction o(x: string): string; function o(x: number): number; function o(x: any) { return x; }\nimport type { Foo } from './foo';\nconst t = [1, 2] as const;\nconst s = { a: 1 } satisfies { a: number };\nreturn [E.B, C.X, N.v, new P(3).x, new R().g(), id(4), o(5), t[1], s.a];".into(), Want::Value(json!([1, 5, 7, 3, 2, 4, 5, 2, 1]))),
        ("a module import", Ts, "import fs from 'fs';\nreturn 1;".into(), Want::Kind(K::SyntaxError)),
        ("a deeply nested tool result", Js, "try { await tools.deep(); } catch (e) { return [e.kind, e.toolName]; }".into(), Want::Value(json!(["invalid_result", "deep"]))),
        ("a microtask fork bomb", Js, "queueMicrotask(function f(){queueMicrotask(f);queueMicrotask(f)}); await null; for(;;) await null;".into(), Want::OneOf(&[K::Timeout, K::OutOfMemory])),
        ("join over a huge array-like", Js, "return Array.prototype.join.call({length: 2**53-1}, '');".into(), Want::Kind(K::Thrown)),
        ("reverse over a huge array-like", Js, "return Array.prototype.reverse.call({length: 2**53-1});".into(), Want::Kind(K::Thrown)),
        ("copyWithin over a huge array-like", Js, "return Array.prototype.copyWithin.call({length: 2**53-1}, 0, 1);".into(), Want::Kind(K::Thrown)),
        ("sort over a huge array-like", Js, "return Array.prototype.sort.call({length: 2**53-1});".into(), Want::Kind(K::Thrown)),
        ("flat over a huge array", Js, "return Array(2**32-1).flat();".into(), Want::Kind(K::Thrown)),
        ("splice over a huge array-like", Js, "return Array.prototype.splice.call({length: 2**53-1}, 0, 1);".into(), Want::Kind(K::Thrown)),
        ("join of a sparse 2^32-1 array", Js, "return Array(2**32-1).join('');".into(), Want::Kind(K::Thrown)),
        ("guards cannot be caught around", Js, "for (;;) { try { Array.prototype.join.call({length: 2**53-1}); } catch (e) {} }".into(), Want::Kind(K::Timeout)),
        ("heavy native calls in a loop", Js, "const u8 = new Uint8Array(40 << 20); for (;;) u8.reverse();".into(), Want::Kind(K::Timeout)),
        ("a tool error that mentions interrupts", Js, "await tools.interrupted();".into(), Want::Kind(K::Thrown)),
        ("a JSON.parse failure at run time", Js, "return JSON.parse('{');".into(), Want::Kind(K::Thrown)),
        ("arguments nested too deep", Js, "let a = {}; for (let i = 0; i < 200; i++) a = {a}; try { await tools.echo(a); } catch (e) { return [e.kind, /nesting deeper than 100 levels at \\$(\\.a)+/.test(e.message)]; }".into(), Want::Value(json!(["invalid_arguments", true]))),
        ("arguments with a lone surrogate", Js, "try { await tools.echo({s: '\\ud800'}); } catch (e) { return [e.kind, e.message.includes('$.s')]; }".into(), Want::Value(json!(["invalid_arguments", true]))),
        ("a result nested too deep", Js, "let a = {}; for (let i = 0; i < 200; i++) a = {a}; return a;".into(), Want::Kind(K::InvalidResult)),
        ("a result with a lone surrogate", Js, "const t = 'ok \u{1F600}'; return {s: '\\udc00', cut: t.slice(0, 4), key: {['\\ud800']: 1}};".into(), Want::Value(json!({"s": "\u{FFFD}", "cut": "ok \u{FFFD}", "key": {"\u{FFFD}": 1}}))),
        ("console.log of a lone surrogate", Js, "console.log('\\ud800', {s: '\\ud800'}); return 1;".into(), Want::Value(json!(1))),
        ("a BigInt literal (refused before it runs)", Js, "return 1n;".into(), Want::Kind(K::SyntaxError)),
        ("a sort of huge BigInts", Js, "const a = (1n << 1048000n) - 1n; return Array(64).fill(a).sort();".into(), Want::Kind(K::SyntaxError)),
        ("BigInt reached by name", Js, "const B = globalThis['Big' + 'Int']; const D = DataView.prototype; return [typeof B, typeof globalThis['BigInt6' + '4Array'], typeof D['getBig' + 'Int64']];".into(), Want::Value(json!(["undefined", "undefined", "undefined"]))),
        ("BigInt through the Function constructor", Js, "try { return (function () {}).constructor('return 2n ** 64n')(); } catch (e) { return [e.name, e.message]; }".into(), Want::Value(json!(["TypeError", "the sandbox runs no code from strings; write the code out"]))),
        ("BigInt through an async function's constructor", Js, "try { return await (async function () {}).constructor('return 1n')(); } catch (e) { return [e.name, (() => {}) instanceof Function]; }".into(), Want::Value(json!(["TypeError", true]))),
        ("BigInt through eval reached by name", Js, "const f = globalThis['ev' + 'al']; return typeof f;".into(), Want::Value(json!("undefined"))),
        ("a cyclic result", Js, "const a = {}; a.a = a; return a;".into(), Want::Kind(K::InvalidResult)),
        ("closing the wrapper", Js, "return 1 }), globalThis.x = 1, (async () => {".into(), Want::Kind(K::SyntaxError)),
        ("a huge source", Js, format!("return 1;{}", " ".repeat(300 << 10)), Want::Kind(K::SourceLimit)),
        ("a forged stack overflow", Js, "throw new RangeError('Maximum call stack size exceeded');".into(), Want::Kind(K::Thrown)),
        ("a real stack overflow", Js, "function f() { return f() + 1; } return f();".into(), Want::Kind(K::StackOverflow)),
        ("a memory bomb", Js, "const a = []; for (;;) a.push('x'.repeat(100000) + a.length);".into(), Want::Kind(K::OutOfMemory)),
        ("catching out of memory does not help", Js, "const a = []; for (;;) { try { a.push(new Array(1e6).fill(1)); } catch (e) {} }".into(), Want::Kind(K::OutOfMemory)),
        ("a promise that never settles", Js, "await new Promise(() => {});".into(), Want::Kind(K::Timeout)),
        ("an infinite loop that catches everything", Js, "for (;;) { try { for (;;) {} } catch (e) {} }".into(), Want::Kind(K::Timeout)),
        ("a flood of huge unknown tool names", Js, "const n = 'x'.repeat(8 << 20); for (let i = 0; i < 200; i++) { try { await tools(n, {}); } catch (e) {} } return 1;".into(), Want::Value(json!(1))),
        ("a quadratic string search", Js, "return 'a'.repeat(2e7).indexOf('a'.repeat(1e7) + 'b');".into(), Want::Kind(K::Thrown)),
        ("a forged error object as a stack overflow", Js, "throw Object.create(RangeError.prototype, {message: {value: 'Maximum call stack size exceeded'}});".into(), Want::Kind(K::Thrown)),
        ("a background loop after the program returned", Js, "(async () => { for (;;) await null; })(); return 1;".into(), Want::Value(json!(1))),
        ("a function as the result", Js, "return () => 1;".into(), Want::Kind(K::InvalidResult)),
        ("a forged stack overflow through setPrototypeOf", Js, "throw Object.setPrototypeOf(new Error('Maximum call stack size exceeded'), RangeError.prototype);".into(), Want::Kind(K::Thrown)),
        ("a forged stack overflow through Reflect.construct", Js, "throw Reflect.construct(Error, ['Maximum call stack size exceeded'], RangeError);".into(), Want::Kind(K::Thrown)),
        ("a thrown object that calls itself a SyntaxError", Js, "throw {name: 'SyntaxError', message: 'Unexpected token'};".into(), Want::Kind(K::Thrown)),
        ("a redeclaration QuickJS refuses at compile time", Js, "let a = 1; let a = 2; return a;".into(), Want::Kind(K::SyntaxError)),
        ("a stack that points at line 0", Ts, "const e: any = new Error('x'); e.stack = '    at program:0:0'; throw e;".into(), Want::Kind(K::Thrown)),
        ("a line separator that ends a comment", Js, "let x = 1; x // c\u{2028}--> 0 }); globalThis.escaped = 'out'; (async () => {\nreturn globalThis.escaped;".into(), Want::Value(Value::Null)),
        ("a length getter that changes between reads", Js, "let n = 0; return Array.prototype.join.call({get length() { return n++ ? 2**53 - 1 : 0; }}, '');".into(), Want::Kind(K::Thrown)),
        ("a length that is an object", Js, "return Array.prototype.join.call({length: {valueOf() { return 2**53 - 1; }}}, '');".into(), Want::Kind(K::Thrown)),
        ("a search pattern coerced late", Js, "return 'a'.repeat(2e7).indexOf({toString() { return 'a'.repeat(1e6) + 'b'; }});".into(), Want::Kind(K::Thrown)),
        ("a stack getter that throws, around a tool call", Js, "Object.defineProperty(Error.prototype, 'stack', {get() { throw new Error('no'); }, configurable: true}); let r; try { await tools.interrupted({}); } catch (e) { r = e.kind; } return [r, (await tools.echo({a: 1})).tool];".into(), Want::Value(json!(["tool_failed", "echo"]))),
        ("a stack formatter that reaches the prelude", Js, "Error.prepareStackTrace = () => 'x'; return [typeof Error.prepareStackTrace, new Error('e').stack === 'x'];".into(), Want::Value(json!(["undefined", false]))),
        ("TypeScript decorators (unsupported: a clean syntax error)", Ts, "function d(t: any, c?: any) { return t; }\n@d class A { @d m() { return 1; } }\nreturn new A().m();".into(), Want::Kind(K::SyntaxError)),
        ("ReDoS", Js, "return /(a+)+$/.test('a'.repeat(40) + 'b');".into(), Want::Kind(K::Timeout)),
        ("a dynamic import of the sandbox's own prelude", Js, "const m = await import('prelude'); return typeof m.default;".into(), Want::Kind(K::SyntaxError)),
        ("a thrown string of 30 MB", Js, "throw 'x'.repeat(3e7);".into(), Want::Kind(K::Thrown)),
        ("a result too large for the heap to turn into JSON", Js, "return 'x'.repeat(1 << 25);".into(), Want::Kind(K::OutputLimit)),
    ]
}

/// Runs every case, checking each outcome and that the runtime still
/// answers afterwards. A case that must time out runs on `quick` (a short
/// limit); the others on `roomy`, whose limit leaves room for a debug build
/// on a busy machine to end them in their own kind before a timeout does.
fn check_every_case(quick: &JsRuntime<Awkward>, roomy: &JsRuntime<Awkward>) {
    for (what, language, code, want) in cases() {
        let runtime = match want {
            Want::Kind(RunErrorKind::Timeout) => quick,
            Want::OneOf(kinds) if kinds.contains(&RunErrorKind::Timeout) => quick,
            _ => roomy,
        };
        let out = run_on(runtime, language, &code);
        match want {
            Want::Kind(k) => assert_eq!(kind(&out), Some(k), "{what}: {:?}", out.error),
            Want::OneOf(ks) => assert!(
                ks.contains(&kind(&out).unwrap_or(RunErrorKind::Internal)),
                "{what}: {:?}",
                out.error
            ),
            Want::Value(v) => assert_eq!((&out.value, &out.error), (&v, &None), "{what}"),
        }
        still_usable(runtime);
    }
}

#[test]
fn every_hostile_class_ends_in_its_kind() {
    check_every_case(
        &JsRuntime::new(Awkward::default(), limits(1000)),
        &JsRuntime::new(Awkward::default(), limits(10_000)),
    );
}

#[test]
fn the_worker_process_ends_each_class_in_its_kind_too() {
    let worker = WorkerCommand::new(env!("CARGO_BIN_EXE_codemode-worker"));
    let runtime = |ms| {
        JsRuntime::new(Awkward::default(), limits(ms))
            .with_isolation(Isolation::Worker(worker.clone()))
    };
    check_every_case(&runtime(1000), &runtime(10_000));
}

/// A program chooses what it throws: the message the host keeps is cut to
/// 16 KiB, and says how long it was.
#[test]
fn a_huge_error_message_is_cut() {
    let runtime = JsRuntime::new(Awkward::default(), limits(10_000));
    for (code, says) in [
        (
            "throw new Error('y'.repeat(3e7));",
            "[cut: 30000007 bytes in all]",
        ),
        (
            "throw 'x'.repeat(3e7);",
            "(its first 4096 of 30000000 bytes)",
        ),
    ] {
        let out = run_on(&runtime, Language::JavaScript, code);
        let error = out.error.expect(code);
        assert_eq!(error.kind, RunErrorKind::Thrown, "{code}");
        assert!(
            error.message.len() <= 16 * 1024 + 64,
            "{code}: {}",
            error.message.len()
        );
        assert!(
            error.message.contains(says),
            "{code}: ...{}",
            &error.message[error.message.len() - 80..]
        );
    }
}

#[test]
fn host_memory_is_bounded_before_arguments_are_copied() {
    let runtime = JsRuntime::new(Awkward::default(), limits(20_000));
    let out = run_on(
        &runtime,
        Language::JavaScript,
        "const big = 'x'.repeat(8 << 20); await Promise.all(Array.from({length: 400}, () => tools.echo({big})));",
    );
    assert_eq!(
        kind(&out),
        Some(RunErrorKind::HostMemoryLimit),
        "{:?}",
        out.error
    );
    assert!(
        runtime.limits().max_host_bytes / (8 << 20) + 1 >= out.calls.len(),
        "{} calls",
        out.calls.len()
    );
}

#[test]
fn tools_answers_only_tool_names_and_is_never_a_thenable() {
    let toolset = std::sync::Arc::new(Awkward::default());
    let runtime = JsRuntime::from_arc(std::sync::Arc::clone(&toolset), Limits::default());
    let out = futures_executor::block_on(runtime.run(Language::JavaScript, r#"
        const shown = [String(tools), `${tools}`, JSON.stringify(tools), Object.prototype.toString.call(tools)];
        console.log(tools);
        const awaited = (await tools) === tools;
        const missing = [tools.nope, tools.then, "nope" in tools];
        return {shown, awaited, missing: missing.map(String), same: tools};
    "#));
    assert_eq!(out.error, None);
    assert_eq!(
        toolset.calls.load(Ordering::SeqCst),
        0,
        "no tool was called"
    );
    assert_eq!(out.value["awaited"], json!(true));
    assert_eq!(
        out.value["missing"],
        json!(["undefined", "undefined", "false"])
    );
    assert_eq!(
        out.value["same"],
        Value::Null,
        "a function-like `tools` is not JSON"
    );
    let out = futures_executor::block_on(runtime.run(
        Language::JavaScript,
        r#"
        const names = ["toString", "toJSON", "constructor", "__proto__"];
        const got = [];
        for (const n of names) got.push((await tools[n]({})).tool);
        got.push((await tools("then", {})).tool);
        return got;
    "#,
    ));
    assert_eq!(
        out.value,
        json!(["toString", "toJSON", "constructor", "__proto__", "then"]),
        "{:?}",
        out.error
    );
}

#[test]
fn errors_are_located_in_the_program_as_written() {
    let runtime = JsRuntime::new(Awkward::default(), Limits::default());
    let js = futures_executor::block_on(runtime.run(
        Language::JavaScript,
        "const a = 1;\nconst b = null;\n  b.x;",
    ));
    let at = js.error.unwrap().location.expect("a location");
    assert_eq!((at.line, at.column), (3, 3));
    let ts = futures_executor::block_on(runtime.run(
        Language::TypeScript,
        "interface A { x: number }\nconst b: A | null = null;\nconst y: number = 2;\n  b!.x;",
    ));
    let error = ts.error.unwrap();
    assert_eq!(error.location.map(|l| l.line), Some(4), "{error:?}");
    let first = futures_executor::block_on(runtime.run(Language::JavaScript, "return 1 +;"));
    let error = first.error.unwrap();
    assert_eq!(
        (error.kind, error.location.map(|l| (l.line, l.column))),
        (RunErrorKind::SyntaxError, Some((1, 11)))
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_current_thread_runtime_keeps_running_beside_busy_programs() {
    let runtime = std::sync::Arc::new(JsRuntime::new(Awkward::default(), limits(2_000)));
    let mut tasks = Vec::new();
    for i in 0..8 {
        let runtime = std::sync::Arc::clone(&runtime);
        let code = if i % 4 == 0 {
            "for (;;) {}".to_owned()
        } else {
            format!("return (await tools.echo({{i: {i}}})).args.i;")
        };
        tasks.push(tokio::spawn(async move {
            runtime.run(Language::JavaScript, &code).await
        }));
    }
    for (i, task) in tasks.into_iter().enumerate() {
        let out = task.await.unwrap();
        if i % 4 == 0 {
            assert_eq!(kind(&out), Some(RunErrorKind::Timeout));
        } else {
            assert_eq!(out.value, json!(i), "{:?}", out.error);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outer_timeout_cancels_a_run_promptly() {
    let runtime = JsRuntime::new(Awkward::default(), limits(30_000));
    let started = Instant::now();
    let cut = tokio::time::timeout(
        Duration::from_millis(100),
        runtime.run(Language::JavaScript, "for (;;) {}"),
    )
    .await;
    assert!(cut.is_err());
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "{:?}",
        started.elapsed()
    );
    // The engine saw the cancellation: the next run is not slowed by it.
    let out = runtime.run(Language::JavaScript, "return 1;").await;
    assert_eq!(out.value, json!(1));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, .. Default::default() })]
    /// Programs stitched from a small grammar of JavaScript pieces, hostile
    /// ones included: every run ends, on time, in some outcome.
    #[test]
    fn stitched_programs_always_end(pieces in proptest::collection::vec(0usize..PIECES.len(), 1..8), ts in proptest::bool::ANY) {
        let code: String = pieces.iter().map(|&i| PIECES[i]).collect::<Vec<_>>().join("\n");
        let runtime = JsRuntime::new(Awkward::default(), limits(300));
        let language = if ts { Language::TypeScript } else { Language::JavaScript };
        let out = run_on(&runtime, language, &code);
        proptest::prop_assert!(out.error.is_none() || !out.error.as_ref().unwrap().message.is_empty());
    }
}

const PIECES: &[&str] = &[
    "let a = 1;",
    "a = a + 1;",
    "const r = await tools.echo({a});",
    "try { await tools.nope(); } catch (e) { console.log(e.message); }",
    "for (let i = 0; i < 1000; i++) { a += i; }",
    "while (true) {}",
    "console.log(tools, a);",
    "return a;",
    "})(); (async () => {",
    "queueMicrotask(() => { a++; });",
    "await Promise.all([tools.echo({}), tools('then', {})]);",
    "JSON.parse('{');",
    "const big = 'x'.repeat(1 << 20);",
    "function f(n) { return n ? f(n - 1) : 0 } f(1e6);",
    "Array.prototype.join.call({length: 2**40});",
    "throw new Error('boom');",
    "enum E { A }",
    "let t: number = 1;",
    "{[(",
    "return tools;",
];

/// A blocking tool that sleeps, counting the calls it starts.
#[derive(Default)]
struct Sleepy {
    started: std::sync::Arc<AtomicUsize>,
}

impl Toolset for Sleepy {
    fn defs(&self) -> Vec<ToolDef> {
        vec![ToolDef::new("nap", json!({"type": "object"}))]
    }

    fn is_blocking(&self, _name: &str) -> bool {
        true
    }

    async fn call(&self, _name: &str, args: Value) -> Result<Value, ToolCallError> {
        self.started.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(args["ms"].as_u64().unwrap_or(0)));
        Ok(json!(null))
    }
}

/// More blocking calls than the process runs at once: those still queued
/// when their run times out are never made (a tool with effects must not
/// act after the host was told the run ended), and they do not hold up a
/// later run's calls.
#[test]
fn queued_blocking_calls_of_an_ended_run_are_not_made() {
    let tool = Sleepy::default();
    let started = std::sync::Arc::clone(&tool.started);
    let runtime = JsRuntime::new(tool, limits(200));
    let out = futures_executor::block_on(runtime.run(
        Language::JavaScript,
        "await Promise.all(Array.from({length: 900}, () => tools.nap({ms: 1000})));",
    ));
    assert_eq!(kind(&out), Some(RunErrorKind::Timeout), "{:?}", out.error);
    // Only the calls that had a thread before the timeout are made. Each
    // nap outlasts the 200 ms limit by 800 ms, so a timeout noticed late on
    // a busy machine still comes before any thread is free for a queued
    // call; then wait until well after the first round has ended, when a
    // queued call would have started.
    std::thread::sleep(Duration::from_millis(2_000));
    let made = started.load(Ordering::SeqCst);
    assert!(
        made <= 256,
        "{made} of 900 calls were made, most after the run ended"
    );
    let later = futures_executor::block_on(
        runtime.run(Language::JavaScript, "await tools.nap({ms: 10}); return 1;"),
    );
    assert_eq!(later.value, json!(1), "{:?}", later.error);
}
