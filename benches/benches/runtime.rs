//! run_code latency for a trivial program against a bare QuickJS eval of the
//! same code, and the cost of one tool call's round trip.

use codemode::Language;
use codemode::runtime::{JsRuntime, Limits};
use codemode_benches::lookup::BenchTools;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

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
