//! Start, round-trip, timeout and cancellation latency of the sandbox, for
//! JavaScript (QuickJS) and Python (Monty) in each isolation mode, side by
//! side in one run:
//! `cargo run --release -p codemode-benches --bin sandbox-latency [RUNS]`.

use codemode::runtime::{Isolation, Limits, Runtime, WorkerCommand};
use codemode::{Language, ToolCallError, ToolDef, Toolset};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

struct Echo;

impl Toolset for Echo {
    fn defs(&self) -> Vec<ToolDef> {
        vec![ToolDef::new("echo", json!({"type": "object"}))]
    }

    async fn call(&self, _name: &str, args: Value) -> Result<Value, ToolCallError> {
        Ok(args)
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The programs measured, in one language.
struct Programs {
    trivial: &'static str,
    hundred_calls: &'static str,
    spin: &'static str,
}

const JAVASCRIPT: Programs = Programs {
    trivial: "return 1;",
    hundred_calls: "for (let i = 0; i < 100; i++) await tools.echo({i}); return 1;",
    spin: "for (;;) {}",
};

const PYTHON: Programs = Programs {
    trivial: "1",
    hundred_calls: "for i in range(100):\n    await tools.echo({'i': i})\n1",
    spin: "while True:\n    pass",
};

fn main() {
    codemode::runtime::run_worker_if_requested();
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(50);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a tokio runtime");
    let worker = WorkerCommand::current_exe().expect("this executable");
    println!(
        "| language | mode | trivial run | one call's round trip | 100 sequential calls | timeout overrun (100 ms limit) | cancellation (drop after 50 ms) |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for (language, programs) in [
        (Language::JavaScript, &JAVASCRIPT),
        (Language::Python, &PYTHON),
    ] {
        for (label, isolation) in [
            ("in-process", Isolation::InProcess),
            ("worker", Isolation::Worker(worker.clone())),
        ] {
            let limits = Limits {
                timeout: Duration::from_millis(100),
                ..Limits::default()
            };
            let bounded = Runtime::new(Echo, limits).with_isolation(isolation.clone());
            let runtime = Runtime::new(Echo, Limits::default()).with_isolation(isolation);
            let time = |runtime: &Runtime<Echo>, code: &str, fails: bool| {
                median(
                    (0..runs)
                        .map(|_| {
                            let t = Instant::now();
                            let out = rt.block_on(runtime.run(language, code));
                            let took = t.elapsed().as_secs_f64() * 1000.0;
                            assert_eq!(out.error.is_some(), fails, "{:?}", out.error);
                            took
                        })
                        .collect(),
                )
            };
            let trivial = time(&runtime, programs.trivial, false);
            let hundred = time(&runtime, programs.hundred_calls, false) - trivial;
            let overrun = time(&bounded, programs.spin, true) - 100.0;
            let cancel = median(
                (0..runs)
                    .map(|_| {
                        let t = Instant::now();
                        let cut = rt.block_on(async {
                            tokio::time::timeout(
                                Duration::from_millis(50),
                                bounded.run(language, programs.spin),
                            )
                            .await
                        });
                        assert!(cut.is_err());
                        t.elapsed().as_secs_f64() * 1000.0 - 50.0
                    })
                    .collect(),
            );
            // One call's round trip is measured as a hundredth of 100 calls:
            // a single call is lost in the noise of a run's start.
            println!(
                "| {} | {label} | {trivial:.2} ms | {:.1} µs | {hundred:.2} ms | {overrun:.2} ms | {cancel:.2} ms |",
                language.as_str(),
                hundred * 10.0
            );
        }
    }
}
