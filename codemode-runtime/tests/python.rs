//! The Python engine, through `PyRuntime` and `Runtime`, in both isolation
//! modes: the promises of the Python instructions, the constructs they say
//! the sandbox lacks, and hostile programs.
#![cfg(feature = "python")]

use codemode_core::{ErrorKind, Language, ToolCallError, ToolDef, Toolset, flavor};
use codemode_runtime::{
    Isolation, JsRuntime, Limits, PyRuntime, RunErrorKind as K, RunOutcome, Runtime, WorkerCommand,
};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Tools {
    /// Calls of `meet` in flight.
    meeting: AtomicUsize,
}

impl Toolset for Tools {
    fn defs(&self) -> Vec<ToolDef> {
        ["also_fail", "echo", "fail", "kv.set", "meet"]
            .into_iter()
            .map(|n| ToolDef::new(n, json!({})))
            .collect()
    }

    async fn call(&self, name: &str, args: Value) -> Result<Value, ToolCallError> {
        match name {
            "echo" => Ok(args),
            "kv.set" => Ok(json!({"stored": args})),
            // Returns only once two calls are in flight together: it
            // succeeds under `asyncio.gather`, and fails when calls are made
            // one after another.
            "meet" => {
                self.meeting.fetch_add(1, Ordering::SeqCst);
                let started = Instant::now();
                while self.meeting.load(Ordering::SeqCst) < 2 {
                    if started.elapsed() > Duration::from_secs(2) {
                        self.meeting.fetch_sub(1, Ordering::SeqCst);
                        return Err(ToolCallError::new(name, ErrorKind::ToolFailed, "alone"));
                    }
                    futures_timer::Delay::new(Duration::from_millis(2)).await;
                }
                Ok(json!("met"))
            }
            _ => Err(ToolCallError::new(name, ErrorKind::ToolFailed, "it broke")),
        }
    }
}

/// Both isolation modes: in-process, and Python's default (a worker).
fn modes() -> Vec<Isolation> {
    let default = PyRuntime::new(Tools::default(), Limits::default())
        .isolation()
        .clone();
    assert!(matches!(default, Isolation::Worker(_)));
    vec![Isolation::InProcess, default]
}

fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout: Duration::from_millis(timeout_ms),
        ..Limits::default()
    }
}

fn run(isolation: &Isolation, limits: Limits, code: &str) -> RunOutcome {
    let runtime = PyRuntime::new(Tools::default(), limits).with_isolation(isolation.clone());
    futures_executor::block_on(runtime.run(Language::Python, code))
}

fn value(isolation: &Isolation, code: &str) -> Value {
    let out = run(isolation, Limits::default(), code);
    assert!(out.error.is_none(), "{code}\n{:?}", out.error);
    out.value
}

#[test]
fn every_promise_of_the_instructions_holds() {
    let cases: Vec<(&str, &str, Value)> = vec![
        (
            "top-level await, and the last expression is the result",
            "a = await tools.echo({'x': 1})\na['x'] + 1",
            json!(2),
        ),
        (
            "a top-level return is the result",
            "for i in range(10):\n    if i == 3:\n        return i\n'never'",
            json!(3),
        ),
        (
            "JSON values come back as JSON",
            "{'d': {'k': 1}, 'l': [1], 't': (1, 2), 's': 'x', 'i': 3, 'f': 1.5, 'b': True, 'n': None}",
            json!({"d": {"k": 1}, "l": [1], "t": [1, 2], "s": "x", "i": 3, "f": 1.5, "b": true, "n": null}),
        ),
        (
            "tools and ToolCallError are bound; the stub's classes are not",
            "r = [ToolCallError is not None, tools is not None]\nfor probe in ['KvSetArgs', 'Tools']:\n    try:\n        KvSetArgs if probe == 'KvSetArgs' else Tools\n    except NameError:\n        r.append('no ' + probe)\nr",
            json!([true, true, "no KvSetArgs", "no Tools"]),
        ),
        (
            "tools.name(key=value): keyword arguments are the arguments object",
            "a = await tools.echo(n=1, s='x')\nb = await tools.echo()\n[a, b]",
            json!([{"n": 1, "s": "x"}, {}]),
        ),
        (
            "tools.kv_set(...): the method the SDK declares for the tool kv.set",
            "a = await tools.kv_set(k='v')\nf = tools.kv_set\nb = await f()\n[a, b, hasattr(tools, 'kv_set'), hasattr(tools, 'kv_sett')]",
            json!([{"stored": {"k": "v"}}, {"stored": {}}, true, false]),
        ),
        (
            "tools.name(args) and tools[\"name\"](args)",
            "a = await tools.echo({'n': 1})\nb = await tools['kv.set']({'k': 'v'})\nname = 'kv.set'\nc = await tools[name]({})\n[a, b, c]",
            json!([{"n": 1}, {"stored": {"k": "v"}}, {"stored": {}}]),
        ),
        (
            "a failure is a ToolCallError with toolName, kind and a message",
            "try:\n    await tools.fail({})\nexcept ToolCallError as e:\n    r = [e.toolName, e.kind, str(e), isinstance(e, Exception)]\nr",
            json!(["fail", "tool_failed", "it broke", true]),
        ),
        (
            "asyncio.gather runs calls at the same time",
            "import asyncio\nawait asyncio.gather(tools.meet({}), tools.meet({}))",
            json!(["met", "met"]),
        ),
        (
            "a failure inside gather is caught as a ToolCallError",
            "import asyncio\ntry:\n    await asyncio.gather(tools.echo({}), tools['fail']({}))\nexcept ToolCallError as e:\n    r = e.toolName\nr",
            json!("fail"),
        ),
        (
            "functions, async functions, lambdas, comprehensions, f-strings, try/except",
            "def double(x):\n    return 2 * x\nasync def fetch(k):\n    return (await tools.echo({'k': k}))['k']\nsq = lambda x: x * x\ngot = [await fetch(i) for i in range(3)]\ntry:\n    {}['missing']\nexcept KeyError:\n    got.append(f'{double(2)}-{sq(3):>3}')\ngot",
            json!([0, 1, 2, "4-  9"]),
        ),
        (
            "plain classes and dataclasses",
            "from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\nclass Q:\n    def __init__(self, y):\n        self.y = y\n    def twice(self):\n        return self.y * 2\n[P(1).x, Q(2).twice()]",
            json!([1, 4]),
        ),
        (
            "the modules the instructions name",
            "import json, math, re, datetime, collections, itertools, functools, typing\n[json.loads('[1]'), math.floor(2.5), re.findall(r'\\d', 'a1b2'), str(datetime.date(2024, 1, 2)), collections.Counter('aab')['a'], list(itertools.chain([1], [2])), functools.reduce(lambda a, b: a + b, [1, 2, 3])]",
            json!([[1], 2, ["1", "2"], "2024-01-02", 2, [1, 2], 6]),
        ),
    ];
    for mode in modes() {
        for (what, code, want) in &cases {
            assert_eq!(&value(&mode, code), want, "{what} ({mode:?})");
        }
        let out = run(
            &mode,
            Limits::default(),
            "print('a', 1)\nprint({'k': [1]})\n2",
        );
        let lines: Vec<&str> = out.logs.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(lines, ["a 1", "{'k': [1]}"], "print output is returned");
        assert_eq!(out.calls.len(), 0);
    }
    let text = flavor(Language::Python).instructions;
    for promise in [
        "top-level `await`",
        "top-level `return`",
        "last expression",
        "`print`",
        "`tools` and `ToolCallError`",
        "`await tools.name(key=value)`",
        "`await tools[\"name\"](args)`",
        "`e.toolName` and `e.kind`",
        "`await asyncio.gather(...)`",
    ] {
        assert!(text.contains(promise), "the instructions promise {promise}");
    }
}

#[test]
fn every_construct_the_instructions_rule_out_errors_naming_it() {
    // (how the instructions name it, a program, the kind, what the error says)
    let cases = [
        (
            "class inheritance",
            "class E(Exception):\n    pass",
            K::SyntaxError,
            "class inheritance",
        ),
        ("`yield`", "def g():\n    yield 1", K::SyntaxError, "yield"),
        (
            "`match`",
            "match 1:\n    case 1:\n        pass",
            K::SyntaxError,
            "match",
        ),
        ("`time`", "import time\ntime.time()", K::Thrown, "'time'"),
        (
            "`asyncio.sleep`",
            "import asyncio\nawait asyncio.sleep(1)",
            K::Thrown,
            "sleep",
        ),
        ("`random`", "import random", K::Thrown, "'random'"),
        ("`open`", "open('/etc/passwd').read()", K::Thrown, "open"),
        ("no network", "import socket", K::Thrown, "'socket'"),
        (
            "no network",
            "fetch('https://example.com')",
            K::Thrown,
            "'fetch'",
        ),
        ("`eval`", "eval('1 + 1')", K::Thrown, "'eval'"),
        ("`exec`", "exec('x = 1')", K::Thrown, "'exec'"),
    ];
    let text = flavor(Language::Python).instructions;
    for mode in modes() {
        for (named, code, kind, says) in cases {
            assert!(text.contains(named), "the instructions name {named}");
            let out = run(&mode, Limits::default(), code);
            let error = out.error.unwrap_or_else(|| panic!("{code} ran"));
            assert_eq!(error.kind, kind, "{code}: {}", error.message);
            assert!(error.message.contains(says), "{code}: {}", error.message);
            assert!(error.location.is_some(), "{code} has a location");
            assert!(!error.message.contains("monty"), "{}", error.message);
        }
    }
}

#[test]
fn errors_point_at_the_line_and_column_as_written() {
    for mode in modes() {
        let out = run(
            &mode,
            Limits::default(),
            "a = 1\nb = tools['kv.set']\nc = nope + 1",
        );
        let at = out.error.unwrap().location.unwrap();
        assert_eq!((at.line, at.column), (3, 5));
        let out = run(&mode, Limits::default(), "x = 1\ny = (1,, 2)\n");
        let error = out.error.unwrap();
        assert_eq!(error.kind, K::SyntaxError);
        let at = error.location.unwrap();
        assert_eq!((at.line, at.column), (2, 8));
        // A failure nobody caught names the tool and the kind.
        let out = run(
            &mode,
            Limits::default(),
            "x = 1\nawait tools.fail({'a': 1})",
        );
        let error = out.error.unwrap();
        assert_eq!(error.kind, K::Thrown);
        assert_eq!(error.location.unwrap().line, 2);
        assert_eq!(
            error.message,
            "ToolCallError: it broke (from tool \"fail\", kind tool_failed)"
        );
    }
}

/// Past the bounds of the interpreter's bytecode (a jump's offset, the
/// stack one function needs), the program is told what to split, in no
/// words of the compiler's own.
#[test]
fn a_program_too_large_to_compile_is_told_to_split() {
    let isolation = Isolation::InProcess;
    for code in [
        format!("x = 1\nx{}", " < x".repeat(40_000)),
        format!("x = 1\ny = ({})", "x, ".repeat(70_000)),
    ] {
        let error = run(&isolation, Limits::default(), &code).error.unwrap();
        assert_eq!(error.kind, K::SyntaxError, "{error:?}");
        assert!(
            error.message.contains("split it into several statements"),
            "{error:?}"
        );
        assert!(
            !error.message.contains("u16") && !error.message.contains("i16"),
            "{error:?}"
        );
    }
}

#[test]
fn tool_calls_are_recorded_and_bad_arguments_are_refused_in_the_program() {
    for mode in modes() {
        let out = run(
            &mode,
            Limits::default(),
            "a = await tools.echo(x=1, y='z')\nb = await tools.echo()\ntry:\n    await tools.echo({1, 2})\nexcept TypeError as e:\n    c = str(e)\n[a, b, c]",
        );
        assert!(out.error.is_none(), "{:?}", out.error);
        assert_eq!(out.value[0], json!({"x": 1, "y": "z"}));
        assert_eq!(out.value[1], json!({}));
        assert!(out.value[2].as_str().unwrap().contains("set"));
        let names: Vec<&str> = out.calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["echo", "echo"]);
        // An integral float that fits 64 bits is sent as an integer, as
        // JavaScript sends it; other floats stay floats.
        let got = value(
            &mode,
            "await tools.echo(half=6 / 2, neg=-0.0, frac=2.5, big=2.0 ** 60, low=-(2.0 ** 63), high=2.0 ** 63, past=2.0 ** 64, tiny=5e-324)",
        );
        // (`Value`'s equality tells the integer 3 from the float 3.0.)
        assert_eq!(
            got,
            json!({
                "big": 1_152_921_504_606_846_976_i64,
                "frac": 2.5,
                "half": 3,
                "high": 9_223_372_036_854_775_808_u64,
                "low": i64::MIN,
                "neg": 0,
                "past": 18_446_744_073_709_551_616.0,
                "tiny": 5e-324,
            })
        );
        // An unknown tool is a ToolCallError of kind unknown_tool.
        let got = value(
            &mode,
            "try:\n    await tools.ech({})\nexcept ToolCallError as e:\n    r = [e.kind, 'echo' in str(e)]\nr",
        );
        assert_eq!(got, json!(["unknown_tool", true]));
        // A name that is not defined is a NameError, never a tool call.
        let out = run(&mode, Limits::default(), "echo({})");
        assert!(out.error.unwrap().message.starts_with("NameError"));
        assert!(out.calls.is_empty());
    }
}

/// What a hostile program must end in.
enum Want {
    Kind(K),
    Value(Value),
}

/// Hostile programs in the spirit of the JavaScript ones; also the fuzz
/// corpus below.
fn hostile() -> Vec<(&'static str, String, Want)> {
    use Want::{Kind, Value as V};
    vec![
        ("deep brackets", format!("x = {}1{}", "[".repeat(10_000), "]".repeat(10_000)), Kind(K::SyntaxError)),
        ("a long operator chain", format!("x = 1{}", "+1".repeat(100_000)), Kind(K::StackOverflow)),
        ("deep unary operators", format!("x = {}1", "-".repeat(100_000)), Kind(K::StackOverflow)),
        ("a power tower", format!("x = 2{}", "**2".repeat(30_000)), Kind(K::StackOverflow)),
        ("a huge source", format!("x = 1\n{}", "# pad\n".repeat(60_000)), Kind(K::SourceLimit)),
        ("nested function definitions", {
            let mut s = String::new();
            for i in 0..20 {
                s.push_str(&format!("{}def f{i}():\n", "    ".repeat(i)));
            }
            s.push_str(&format!("{}return 1\n", "    ".repeat(20)));
            s
        }, Kind(K::SyntaxError)),
        ("a huge power", "x = 10 ** 10 ** 8".into(), Kind(K::OutOfMemory)),
        ("a huge string", "x = 'a' * 10 ** 10".into(), Kind(K::OutOfMemory)),
        ("an infinite loop that catches everything", "while True:\n    try:\n        pass\n    except BaseException:\n        pass".into(), Kind(K::Timeout)),
        ("recursion", "def f():\n    return f()\nf()".into(), Kind(K::StackOverflow)),
        ("recursion caught forever", "def f():\n    return f()\nwhile True:\n    try:\n        f()\n    except BaseException:\n        pass".into(), Kind(K::Timeout)),
        ("huge output", "while True:\n    print('x' * 1000)".into(), Kind(K::OutputLimit)),
        ("huge output, caught", "while True:\n    try:\n        print('x' * 1000)\n    except BaseException:\n        pass".into(), Kind(K::OutputLimit)),
        ("a huge result", "['x' * 1000 for i in range(5000)]".into(), Kind(K::OutputLimit)),
        ("100k calls", "for i in range(100000):\n    await tools.echo({})".into(), Kind(K::CallLimit)),
        ("100k calls never awaited", "for i in range(100000):\n    tools.echo({})".into(), Kind(K::CallLimit)),
        ("100k calls, failures caught", "for i in range(100000):\n    try:\n        await tools.echo({})\n    except BaseException:\n        pass".into(), Kind(K::CallLimit)),
        ("a set as the result", "{1, 2}".into(), Kind(K::InvalidResult)),
        ("NaN as the result", "float('nan')".into(), Kind(K::InvalidResult)),
        ("a value nested too deep", "x = []\nfor i in range(1000):\n    x = [x]\nx".into(), Kind(K::InvalidResult)),
        ("an int key", "{1: 2}".into(), Kind(K::InvalidResult)),
        ("an int past 64 bits", "2 ** 70".into(), Kind(K::InvalidResult)),
        ("deep values inside the sandbox are fine", "x = []\nfor i in range(100000):\n    x = [x]\n[len(str(x)) > 0, x == x, len(repr(x)) > 0]".into(), V(json!([true, true, true]))),
        ("a call never awaited still completes the run", "tools.echo({})\n1".into(), V(json!(1))),
    ]
}

fn check_hostile(mode: &Isolation) {
    let timeout = 1_000;
    for (what, code, want) in hostile() {
        let started = Instant::now();
        let out = run(mode, limits(timeout), &code);
        let took = started.elapsed();
        assert!(
            took < Duration::from_millis(2 * timeout),
            "{what} took {took:?} ({mode:?})"
        );
        match want {
            Want::Kind(kind) => {
                let error = out
                    .error
                    .unwrap_or_else(|| panic!("{what}: no error ({mode:?})"));
                assert_eq!(error.kind, kind, "{what} ({mode:?}): {}", error.message);
            }
            Want::Value(v) => {
                assert!(out.error.is_none(), "{what} ({mode:?}): {:?}", out.error);
                assert_eq!(out.value, v, "{what}");
            }
        }
    }
    // The host is untouched.
    assert_eq!(value(mode, "1 + 1"), json!(2));
}

#[test]
fn every_hostile_program_ends_in_its_kind_in_process() {
    check_hostile(&Isolation::InProcess);
}

#[test]
fn every_hostile_program_ends_in_its_kind_in_the_default_worker() {
    check_hostile(&modes()[1]);
}

#[test]
fn memory_bombs_end_as_out_of_memory_in_the_default_mode() {
    let bombs = [
        "l = []\nwhile True:\n    l.append('x' * 100000 + str(len(l)))",
        "l = [0]\nwhile True:\n    l = l + l",
        "d = {}\ni = 0\nwhile True:\n    d[i] = [i] * 1000\n    i += 1",
        "l = []\nwhile True:\n    try:\n        l.append([0] * 100000)\n    except BaseException:\n        pass",
    ];
    // The default runtime, as a host would build it.
    let runtime = PyRuntime::new(Tools::default(), limits(20_000));
    for bomb in bombs {
        let out = futures_executor::block_on(runtime.run(Language::Python, bomb));
        assert_eq!(out.error.map(|e| e.kind), Some(K::OutOfMemory), "{bomb}");
    }
    assert_eq!(
        futures_executor::block_on(runtime.run(Language::Python, "21 * 2")).value,
        json!(42)
    );
}

/// In a worker, the memory a program takes counts against its limit as it
/// grows, not only the address space: a list of many small strings past
/// 16 MiB ends `out_of_memory` (it once ran to its end, at more than 300
/// MiB), and one well within the limit runs.
#[test]
fn a_worker_s_program_ends_near_its_memory_limit() {
    let worker = modes()[1].clone();
    let limits = Limits {
        memory_bytes: 16 << 20,
        ..limits(30_000)
    };
    let grow = |n: usize| {
        format!("a = []\nfor i in range({n}):\n    a.append('x' * 1000 + str(i))\nlen(a)")
    };
    let out = run(&worker, limits.clone(), &grow(300_000));
    let error = out.error.expect("out of memory");
    assert_eq!(error.kind, K::OutOfMemory, "{error:?}");
    let out = run(&worker, limits.clone(), &grow(2_000));
    assert_eq!(out.value, json!(2_000), "{:?}", out.error);
    // What the worker spends reading a tool's answer is the host's, which
    // `max_host_bytes` bounds: a 4 MB answer fits a 16 MiB program.
    let echoed = "s = 'y' * 4_000_000\nr = await tools.echo(x=s)\nlen(r['x'])";
    let out = run(&worker, limits, echoed);
    assert_eq!(out.value, json!(4_000_000), "{:?}", out.error);
}

/// A stand-in for an engine process that crashes: it reads the job, writes
/// what a crashing Rust process writes to stderr, and kills itself.
fn crashing_worker(dir: &std::path::Path, name: &str, stderr: &str, signal: &str) -> WorkerCommand {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!("#!/bin/sh\nread job\ncat >&2 <<'END'\n{stderr}\nEND\nkill -{signal} $$\n"),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    WorkerCommand::new(path)
}

#[test]
fn a_crashing_engine_process_ends_as_a_clean_error() {
    let dir = std::env::temp_dir().join(format!("codemode-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "segv",
            "thread '<unnamed>' panicked at src/bytecode/vm.rs:1:1:\nindex out of bounds",
            "SEGV",
            K::Internal,
        ),
        (
            "abort-oom",
            "memory allocation of 1048576 bytes failed",
            "ABRT",
            K::OutOfMemory,
        ),
        (
            "abort-stack",
            "thread 'codemode-engine' has overflowed its stack",
            "ABRT",
            K::StackOverflow,
        ),
    ];
    for (name, stderr, signal, kind) in cases {
        let runtime = PyRuntime::new(Tools::default(), limits(5_000)).with_isolation(
            Isolation::Worker(crashing_worker(&dir, name, stderr, signal)),
        );
        let out = futures_executor::block_on(runtime.run(Language::Python, "1"));
        let error = out.error.unwrap();
        assert_eq!(error.kind, kind, "{name}: {}", error.message);
        if kind == K::Internal {
            assert!(error.message.contains("crashed"), "{}", error.message);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // The host goes on.
    assert_eq!(value(&Isolation::InProcess, "3"), json!(3));
}

#[test]
fn runtime_picks_the_engine_and_the_one_engine_runtimes_refuse_the_other() {
    let runtime = Runtime::new(Tools::default(), Limits::default());
    assert!(matches!(
        runtime.isolation_for(Language::Python),
        Isolation::Worker(_)
    ));
    assert_eq!(
        runtime.isolation_for(Language::TypeScript),
        &Isolation::InProcess
    );
    let js = futures_executor::block_on(
        runtime.run(Language::JavaScript, "return (await tools.echo({a: 1})).a;"),
    );
    let py = futures_executor::block_on(
        runtime.run(Language::Python, "(await tools.echo({'a': 2}))['a']"),
    );
    assert_eq!((js.value, py.value), (json!(1), json!(2)));

    let js_only = JsRuntime::new(Tools::default(), Limits::default());
    let error = futures_executor::block_on(js_only.run(Language::Python, "1"))
        .error
        .unwrap();
    assert_eq!(error.kind, K::UnsupportedLanguage);
    assert!(error.message.contains("PyRuntime"));
    let py_only = PyRuntime::new(Tools::default(), Limits::default());
    let error = futures_executor::block_on(py_only.run(Language::JavaScript, "return 1;"))
        .error
        .unwrap();
    assert_eq!(error.kind, K::UnsupportedLanguage);
}

#[tokio::test(flavor = "current_thread")]
async fn python_runs_do_not_block_a_current_thread_executor() {
    let runtime = Arc::new(
        PyRuntime::new(Tools::default(), limits(1_000)).with_isolation(Isolation::InProcess),
    );
    let spinning = {
        let runtime = Arc::clone(&runtime);
        tokio::spawn(async move { runtime.run(Language::Python, "while True:\n    pass").await })
    };
    // While one program spins, another finishes on the same thread.
    let quick = runtime
        .run(Language::Python, "await tools.echo({'x': 1})")
        .await;
    assert_eq!(quick.value, json!({"x": 1}));
    assert_eq!(
        spinning.await.unwrap().error.map(|e| e.kind),
        Some(K::Timeout)
    );
}

const PIECES: &[&str] = &[
    "x = await tools.echo({'a': 1})\n",
    "import asyncio\nr = await asyncio.gather(tools.echo({}), tools.fail({}))\n",
    "try:\n    await tools.fail({})\nexcept ToolCallError as e:\n    k = e.kind\n",
    "l = [i for i in range(1000)]\n",
    "s = 'x' * 100000\n",
    "def f(n):\n    return n if n < 1 else f(n - 1)\nf(50)\n",
    "while True:\n    pass\n",
    "print('y' * 10000)\n",
    "d = {'k': [1, 2, {'z': None}]}\n",
    "tools['kv.set']({'k': 1})\n",
    "return 1\n",
    "(\n",
    "x.kind\n",
    "undefined_name\n",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, .. Default::default() })]

    /// Stitched pieces and hostile programs, cut anywhere: the run always
    /// ends, never as an internal failure.
    #[test]
    fn stitched_and_cut_programs_always_end(
        pieces in proptest::collection::vec(0usize..PIECES.len(), 1..6),
        hostile_at in proptest::option::of((0usize..24, 0usize..400)),
    ) {
        let mut code: String = pieces.iter().map(|&i| PIECES[i]).collect();
        if let Some((which, cut)) = hostile_at {
            let cases = hostile();
            let program = &cases[which % cases.len()].1;
            let at = program.floor_char_boundary(cut);
            code.push_str(&program[..at]);
        }
        let out = run(&Isolation::InProcess, limits(300), &code);
        if let Some(error) = &out.error {
            proptest::prop_assert!(error.kind != K::Internal, "{}", error.message);
            proptest::prop_assert!(!error.message.is_empty());
        }
    }
}
#[test]
fn every_tool_name_is_callable() {
    struct Named;
    impl Toolset for Named {
        fn defs(&self) -> Vec<ToolDef> {
            ["_x", "__init__", "a b", "class", "x\"y", "then", "kv.set"]
                .into_iter()
                .map(|n| ToolDef::new(n, json!({})))
                .collect()
        }
        async fn call(&self, name: &str, _args: Value) -> Result<Value, ToolCallError> {
            Ok(json!(name))
        }
    }
    for mode in modes() {
        let runtime = PyRuntime::new(Named, Limits::default()).with_isolation(mode.clone());
        let out = futures_executor::block_on(runtime.run(
            Language::Python,
            "names = ['_x', '__init__', 'a b', 'class', 'x\"y', 'then', 'kv.set']\n[await tools[n]({}) for n in names] + [await tools._x({}), await tools.then({})]",
        ));
        assert!(out.error.is_none(), "{:?}", out.error);
        assert_eq!(
            out.value,
            json!([
                "_x", "__init__", "a b", "class", "x\"y", "then", "kv.set", "_x", "then"
            ])
        );
    }
}

#[test]
fn the_rewrites_keep_python_semantics() {
    let cases: Vec<(&str, &str, Value)> = vec![
        (
            "exceptions built from any values",
            "r = []\nfor make in [lambda: ValueError(5), lambda: KeyError('k'), lambda: Exception({'a': 1}), lambda: ValueError('a', 'b')]:\n    try:\n        raise make()\n    except Exception as e:\n        r.append(str(e))\nr",
            json!(["5", "'k'", "{'a': 1}", "('a', 'b')"]),
        ),
        (
            "a program's own `tools` is left alone",
            "tools = {'a': 1}\ntools['a']",
            json!(1),
        ),
        (
            "a parameter named tools is left alone",
            "def f(tools):\n    return tools['a']\nf({'a': 2})",
            json!(2),
        ),
        (
            "comments inside rewritten expressions",
            "x = await (tools  # [ not this one\n    ['echo'])({'a': 1})\ntry:\n    await tools.fail({})\nexcept ToolCallError as e:\n    k = (e  # . not this one\n        ).kind\n[x, k]",
            json!([{"a": 1}, "tool_failed"]),
        ),
        (
            "shadowed built-ins do not break the failure fields",
            "isinstance = None\ngetattr = None\nclass O:\n    kind = 3\ntry:\n    await tools.fail({})\nexcept ToolCallError as e:\n    r = [O().kind, e.kind]\nr",
            json!([3, "tool_failed"]),
        ),
        (
            "a failure caught inside a gathered coroutine stays there",
            "import asyncio\nasync def one(i):\n    try:\n        return await tools.fail({'i': i})\n    except ToolCallError as e:\n        return [i, e.kind]\nawait asyncio.gather(one(0), tools.echo({'n': 1}), one(2))",
            json!([[0, "tool_failed"], {"n": 1}, [2, "tool_failed"]]),
        ),
        (
            "a failure awaited later is raised where it is awaited",
            "f = tools.fail({})\nx = 1\ntry:\n    await f\nexcept ToolCallError as e:\n    x = e.toolName\nx",
            json!("fail"),
        ),
        (
            "a caught failure returned as a value stays a value",
            "import asyncio\nasync def safe():\n    try:\n        return await tools.fail({})\n    except ToolCallError as e:\n        return e\ngot = await asyncio.gather(safe(), safe())\none = await safe()\n[[g.kind for g in got], one.toolName]",
            json!([["tool_failed", "tool_failed"], "fail"]),
        ),
        (
            "a gather stored, aliased or nested still raises its failure",
            "import asyncio\nr = []\npending = asyncio.gather(tools.fail({}), tools.echo({}))\nga = asyncio.gather\nfor make in [lambda: pending, lambda: ga(tools.echo({}), tools['also_fail']({})), lambda: asyncio.gather(asyncio.gather(tools.echo({}), tools.fail({})), tools.echo({}))]:\n    try:\n        await make()\n        r.append('missed')\n    except ToolCallError as e:\n        r.append(e.toolName)\nr",
            json!(["fail", "also_fail", "fail"]),
        ),
        (
            "asyncio.run of a failing call raises",
            "import asyncio\ntry:\n    r = asyncio.run(tools.fail({}))\nexcept ToolCallError as e:\n    r = ['caught', str(e)]\nr",
            json!(["caught", "it broke"]),
        ),
        (
            "two tools failing with one message keep it, and their names",
            "out = []\nfor t in ['fail', 'also_fail']:\n    try:\n        await tools[t]({})\n    except ToolCallError as e:\n        out.append([str(e), e.toolName])\nout",
            json!([["it broke", "fail"], ["it broke", "also_fail"]]),
        ),
        (
            "the asyncio.run(main()) idiom",
            "import asyncio\nasync def main():\n    return await tools.echo({'a': 1})\nif __name__ == '__main__':\n    r = asyncio.run(main())\nr",
            json!({"a": 1}),
        ),
        (
            "hasattr and getattr see the tools there are",
            "[hasattr(tools, 'echo'), hasattr(tools, 'zzz'), getattr(tools, 'nope', 5)]",
            json!([true, false, 5]),
        ),
    ];
    for mode in modes() {
        for (what, code, want) in &cases {
            assert_eq!(&value(&mode, code), want, "{what} ({mode:?})");
        }
        let error = run(&mode, Limits::default(), "x = 1\nraise ValueError(x)")
            .error
            .unwrap();
        assert_eq!(error.message, "ValueError: 1");
        assert_eq!(error.location.map(|l| l.line), Some(2));
        let error = run(&mode, Limits::default(), "raise ToolCallError('mine')")
            .error
            .unwrap();
        assert_eq!(error.message, "ToolCallError: mine");
        // A call or `gather` never awaited is named as such.
        for (code, path) in [
            ("tools.echo({})", "$"),
            ("{'v': tools.echo({})}", "$[\"v\"]"),
            ("async def f():\n    return 1\nf()", "$"),
            ("import asyncio\nasyncio.gather(tools.echo({}))", "$"),
        ] {
            let error = run(&mode, Limits::default(), code).error.unwrap();
            assert_eq!(error.kind, K::InvalidResult, "{code}");
            let want = format!("at {path}: a call that was never awaited; write `await` before it");
            assert!(error.message.ends_with(&want), "{code}: {}", error.message);
        }
        // Other values the engine shows only by their repr are shown so.
        let error = run(&mode, Limits::default(), "iter([1])").error.unwrap();
        assert!(
            error
                .message
                .contains("at $: <list_iterator object> (use dict"),
            "{}",
            error.message
        );
        // A huge int is refused at once, by its size, not its digits.
        let started = Instant::now();
        let error = run(&mode, limits(5_000), "1 << 20_000_000").error.unwrap();
        assert_eq!(error.kind, K::InvalidResult);
        assert!(error.message.contains("20000001 bits"), "{}", error.message);
        assert!(started.elapsed() < Duration::from_secs(2));
        // Lambdas count as function nesting.
        let lambdas = format!("f = {}1", "lambda: ".repeat(12));
        assert_eq!(
            run(&mode, Limits::default(), &lambdas).error.unwrap().kind,
            K::SyntaxError
        );
    }
}

#[test]
fn the_index_functions_answer_in_python_too() {
    for isolation in modes() {
        let code = "found = await catalog.search('kv set', limit=2)\n\
                    text = await catalog.describe(['kv.set', 'echo'])\n\
                    d = catalog.describe\n\
                    again = await d(names=['echo'])\n\
                    try:\n    await catalog.search(5)\nexcept ToolCallError as e:\n    err = [e.toolName, e.kind]\n\
                    shapes = []\n\
                    for bad in [lambda: catalog.search(q='x'), lambda: catalog.search('x', 2, 3), lambda: catalog.describe({'echo'}), lambda: catalog.search(b'x')]:\n    \
                    try:\n        await bad()\n    except ToolCallError as e:\n        shapes.append([e.toolName, e.kind])\n\
                    [found[0]['name'], 'async def echo(self, args: ' in text, \
                     'async def kv_set(' in text, again == (await catalog.describe(['echo'])), err, shapes]";
        assert_eq!(
            value(&isolation, code),
            json!([
                "kv.set",
                true,
                true,
                true,
                ["catalog.search", "invalid_arguments"],
                [
                    ["catalog.search", "invalid_arguments"],
                    ["catalog.search", "invalid_arguments"],
                    ["catalog.describe", "invalid_arguments"],
                    ["catalog.search", "invalid_arguments"]
                ]
            ]),
            "{isolation:?}"
        );
    }
}

/// The check before a run reports the places past the runtime's own
/// limits of nesting, from the same numbers: each such program the run
/// refuses, in the same words. (The interpreter's parser has a budget of
/// its own, counted its own way and lower in a debug build, so programs a
/// little below the limits may still be refused; the check, which reports
/// only what is certain, leaves those to the run.)
#[test]
fn the_check_reports_what_the_runtime_refuses_for_depth() {
    let concat = |terms: usize| format!("q = {}\nq\n", vec!["'a'"; terms].join(" + "));
    let defs = |levels: usize| {
        let mut code = String::new();
        for i in 0..levels {
            code.push_str(&format!("{}def f{i}():\n", "    ".repeat(i)));
        }
        code.push_str(&format!("{}return 1\n1\n", "    ".repeat(levels)));
        code
    };
    let cases = [
        (concat(20), false),
        (concat(201), true),
        (concat(250), true),
    ]
    .into_iter()
    .chain([(defs(5), false), (defs(7), true)]);
    for (code, past) in cases {
        let out = run(&Isolation::InProcess, Limits::default(), &code);
        let reported: Vec<&str> = (out.diagnostics.iter())
            .filter(|d| d.code == codemode_core::DiagnosticCode::SyntaxError)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            !reported.is_empty(),
            past,
            "{}\n{out:?}",
            &code[..code.len().min(60)]
        );
        if past {
            let error = out.error.as_ref().expect("refused");
            assert_eq!(reported[0], error.message, "{out:?}");
        } else {
            assert!(out.error.is_none(), "{out:?}");
        }
    }
}

/// Line endings are `\n` to the program, as in a Python source file: a
/// triple-quoted string across `\r\n` holds `"a\nb"`, and errors keep the
/// lines of the text as written.
#[test]
fn line_endings_read_as_python_reads_them() {
    for isolation in modes() {
        assert_eq!(
            value(
                &isolation,
                "x = \"\"\"a\r\nb\"\"\"\r\ny = '''c\rd'''\r\n[x, y]\r\n"
            ),
            json!(["a\nb", "c\nd"]),
            "{isolation:?}"
        );
        let out = run(&isolation, Limits::default(), "x = 1\r\n\r\ny = nope\r\n");
        let at = out.error.and_then(|e| e.location).map(|l| l.line);
        assert_eq!(at, Some(3), "{isolation:?}");
    }
}
