//! The check of a program before it runs: a 50-line program against a
//! 100-tool catalog, in JavaScript, TypeScript and Python. The catalog is
//! prepared once, as a runtime keeps it. With the `mimalloc` feature the
//! benchmark runs on the allocator the `codemode` CLI uses (`cargo bench
//! -p codemode-benches --bench check --features mimalloc`).

use codemode::{Catalog, Language};
use codemode_benches::{corpus, program};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn check(c: &mut Criterion) {
    let catalog = Catalog::new(corpus(100));
    let tools: Vec<_> = catalog.tools().cloned().collect();
    let mut group = c.benchmark_group("check/50-lines-100-tools");
    for language in [Language::JavaScript, Language::TypeScript, Language::Python] {
        let code = program(&tools, language, 50);
        assert_eq!(code.lines().count(), 50, "{code}");
        // The benchmark measures a correct program: the check finds nothing.
        let found = catalog.check_program(language, &code);
        assert!(found.is_empty(), "{language}: {found:#?}\n{code}");
        group.bench_function(language.as_str(), |b| {
            b.iter(|| catalog.check_program(language, black_box(&code)))
        });
    }
    group.finish();
}

criterion_group!(benches, check);
criterion_main!(benches);
