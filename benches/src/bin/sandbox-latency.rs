//! Start, round-trip, timeout and cancellation latency of the sandbox, in
//! each isolation mode, side by side in one run:
//! `cargo run --release -p codemode-benches --bin sandbox-latency [RUNS]`.

use codemode::runtime::{Isolation, JsRuntime, Limits, WorkerCommand};
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
        "| mode | trivial run | per call (100 sequential calls) | timeout overrun (100 ms limit) | cancellation (drop after 50 ms) |"
    );
    println!("| --- | ---: | ---: | ---: | ---: |");
    for (label, isolation) in [
        ("in-process", Isolation::InProcess),
        ("worker", Isolation::Worker(worker)),
    ] {
        let limits = Limits {
            timeout: Duration::from_millis(100),
            ..Limits::default()
        };
        let bounded = JsRuntime::new(Echo, limits).with_isolation(isolation.clone());
        let runtime = JsRuntime::new(Echo, Limits::default()).with_isolation(isolation);
        let time = |runtime: &JsRuntime<Echo>, code: &str| {
            median(
                (0..runs)
                    .map(|_| {
                        let t = Instant::now();
                        let out = rt.block_on(runtime.run(Language::JavaScript, code));
                        let took = t.elapsed().as_secs_f64() * 1000.0;
                        assert!(
                            out.error.is_none() || code.contains("for (;;)"),
                            "{:?}",
                            out.error
                        );
                        took
                    })
                    .collect(),
            )
        };
        let trivial = time(&runtime, "return 1;");
        let hundred = time(
            &runtime,
            "for (let i = 0; i < 100; i++) await tools.echo({i}); return 1;",
        ) - trivial;
        let overrun = time(&bounded, "for (;;) {}") - 100.0;
        let cancel = median(
            (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    let cut = rt.block_on(async {
                        tokio::time::timeout(
                            Duration::from_millis(50),
                            bounded.run(Language::JavaScript, "for (;;) {}"),
                        )
                        .await
                    });
                    assert!(cut.is_err());
                    t.elapsed().as_secs_f64() * 1000.0 - 50.0
                })
                .collect(),
        );
        println!(
            "| {label} | {trivial:.2} ms | {:.1} µs | {overrun:.2} ms | {cancel:.2} ms |",
            hundred * 10.0
        );
    }
}
