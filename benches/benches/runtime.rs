//! run_code latency for a trivial program against a bare QuickJS eval of the
//! same code, back to back and after a pause, and the cost of one tool
//! call's round trip.

use codemode::Language;
use codemode::runtime::{JsRuntime, Limits};
use codemode_benches::lookup::BenchTools;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn runtime(c: &mut Criterion) {
    let runtime = JsRuntime::new(BenchTools, Limits::default());
    let mut group = c.benchmark_group("runtime");
    group.bench_function("run_trivial", |b| {
        b.iter(|| {
            futures_executor::block_on(
                runtime.run(Language::JavaScript, black_box("return 1 + 1;")),
            )
        })
    });
    // The latency an agent sees: runs arrive seconds apart (the model writes
    // the next program), so an engine built ahead is waiting when one
    // arrives. Each timed run follows an untimed pause.
    let after_pause = |code: &'static str| {
        let runtime = &runtime;
        move |b: &mut criterion::Bencher| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    std::thread::sleep(Duration::from_millis(2));
                    let start = Instant::now();
                    black_box(futures_executor::block_on(
                        runtime.run(Language::JavaScript, black_box(code)),
                    ));
                    total += start.elapsed();
                }
                total
            })
        }
    };
    group.bench_function("run_trivial_after_pause", after_pause("return 1 + 1;"));
    group.bench_function(
        "run_100_tool_calls_after_pause",
        after_pause("for (let i = 0; i < 100; i++) await tools.noop(); return 1;"),
    );
    group.bench_function("bare_quickjs_eval", |b| {
        b.iter(|| {
            let rt = rquickjs::Runtime::new().unwrap();
            let ctx = rquickjs::Context::full(&rt).unwrap();
            ctx.with(|ctx| ctx.eval::<i32, _>(black_box("1 + 1")).unwrap())
        })
    });
    group.bench_function("run_100_tool_calls", |b| {
        b.iter(|| {
            futures_executor::block_on(runtime.run(
                Language::JavaScript,
                black_box("for (let i = 0; i < 100; i++) await tools.noop(); return 1;"),
            ))
        })
    });
    group.bench_function("run_typescript_trivial", |b| {
        b.iter(|| {
            futures_executor::block_on(runtime.run(
                Language::TypeScript,
                black_box("const x: number = 1; return x + 1;"),
            ))
        })
    });
    group.finish();
}

criterion_group!(benches, runtime);
criterion_main!(benches);
