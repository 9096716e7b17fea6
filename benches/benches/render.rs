//! Render time over tool sets of 10 to 10,000 tools, in both languages, and
//! over extreme schemas. Throughput is per tool, so criterion reports the
//! per-tool cost directly.

use codemode::{Catalog, Language, render};
use codemode_benches::{
    conditions_behind_one_ref, corpus, deep, float_definitions, long_union, open_union,
    open_union_one_key, repeated_enum, wide, wide_all_of,
};
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn sizes(c: &mut Criterion) {
    for lang in [Language::TypeScript, Language::Python] {
        let mut group = c.benchmark_group(format!("render/{lang}"));
        for n in [10, 100, 1_000, 10_000] {
            let tools = corpus(n);
            group.throughput(Throughput::Elements(n as u64));
            if n >= 1_000 {
                group.sample_size(10);
            }
            group.bench_with_input(BenchmarkId::from_parameter(n), &tools, |b, tools| {
                b.iter(|| render(lang, black_box(tools)))
            });
        }
        group.finish();
    }
}

/// From a tool list's text to the SDK, as the CLI does it: the text read
/// straight into a catalog ([`Catalog::parse`]), then printed.
fn from_text(c: &mut Criterion) {
    for lang in [Language::TypeScript, Language::Python] {
        let mut group = c.benchmark_group(format!("from-text/{lang}"));
        for n in [10, 1_000, 10_000] {
            let text = serde_json::json!({"tools": corpus(n)}).to_string();
            group.throughput(Throughput::Elements(n as u64));
            if n >= 1_000 {
                group.sample_size(10);
            }
            group.bench_with_input(BenchmarkId::from_parameter(n), &text, |b, text| {
                b.iter(|| {
                    let catalog = Catalog::parse("corpus.json", black_box(text.as_str()));
                    catalog.map(|c| c.render(lang).len())
                })
            });
        }
        group.finish();
    }
}

fn extremes(c: &mut Criterion) {
    let mut group = c.benchmark_group("render/extreme");
    for (name, tools) in [
        ("deep-12", deep(12)),
        ("deep-10000", deep(10_000)),
        ("wide-2000", wide(2_000)),
        ("union-5000", long_union(5_000)),
        // Two sizes, so that the time per member can be compared.
        ("all-of-2000", wide_all_of(2_000)),
        ("all-of-8000", wide_all_of(8_000)),
        ("repeated-enum-5000", repeated_enum(5_000)),
        ("repeated-enum-20000", repeated_enum(20_000)),
        ("float-definitions-5000", float_definitions(5_000)),
        ("float-definitions-20000", float_definitions(20_000)),
        ("open-union-100x100", open_union(100, 100)),
        ("open-union-200x200", open_union(200, 200)),
        ("open-union-one-key-5000", open_union_one_key(5_000)),
        ("open-union-one-key-20000", open_union_one_key(20_000)),
        (
            "conditions-behind-one-ref-5000",
            conditions_behind_one_ref(5_000),
        ),
        (
            "conditions-behind-one-ref-20000",
            conditions_behind_one_ref(20_000),
        ),
    ] {
        for lang in [Language::TypeScript, Language::Python] {
            group.bench_function(format!("{name}/{lang}"), |b| {
                b.iter(|| render(lang, black_box(&tools)))
            });
        }
        // Free a very deep value without deep recursion on the test stack.
        if name == "deep-10000" {
            std::mem::forget(tools);
        }
    }
    group.finish();
}

/// `catalog.search` over 1,000 and 10,000 tools: the first query on a
/// catalog, which splits every tool's name, description and parameter
/// names into words, and a query after it.
fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let tools = corpus(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("first", n), &tools, |b, tools| {
            b.iter_batched_ref(
                || Catalog::new(tools.clone()),
                |catalog| catalog.search(black_box("list the files"), 10).len(),
                BatchSize::LargeInput,
            )
        });
        let catalog = Catalog::new(tools);
        catalog.search("warm", 1);
        group.bench_with_input(BenchmarkId::new("warm", n), &catalog, |b, catalog| {
            b.iter(|| catalog.search(black_box("list the files"), 10).len())
        });
    }
    group.finish();
}

criterion_group!(benches, sizes, from_text, extremes, search);
criterion_main!(benches);
