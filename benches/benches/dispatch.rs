//! `Toolset::call` (argument parsing, the call, result serialisation, panic
//! catching) against the same function called directly with a bare serde_json
//! round trip of its arguments and result.

use codemode::Toolset;
use codemode_benches::lookup::{BenchTools, LookupArgs, lookup_direct};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// Polls a future that is ready at once (a sync tool's), without an executor.
fn now<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(out) => out,
        Poll::Pending => unreachable!("a synchronous tool's call is ready on its first poll"),
    }
}

fn dispatch(c: &mut Criterion) {
    let args = json!({"id": "rec-42", "limit": 5});
    let mut group = c.benchmark_group("dispatch");
    group.bench_function("toolset_call", |b| {
        b.iter(|| now(BenchTools.call("lookup", black_box(args.clone()))).unwrap())
    });
    group.bench_function("direct_with_serde", |b| {
        b.iter(|| {
            let parsed: LookupArgs = serde_json::from_value(black_box(args.clone())).unwrap();
            serde_json::to_value(lookup_direct(parsed.id, parsed.limit)).unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
