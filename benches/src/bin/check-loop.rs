//! Runs the check benchmark's work in a loop, for profilers (`perf record`,
//! `valgrind --tool=callgrind`): the 50-line program against the 100-tool
//! catalog, checked N times.
//!
//! Usage: `check-loop LANGUAGE [N]` (javascript, typescript or python;
//! N defaults to 2,000). Built with the `mimalloc` feature, it uses the
//! allocator the `codemode` CLI uses instead of the system's.

use codemode::{Catalog, Language};
use codemode_benches::{corpus, program};
use std::hint::black_box;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let language: Language = args
        .next()
        .ok_or("usage: check-loop LANGUAGE [N]")?
        .parse()?;
    let rounds: usize = args.next().map_or(Ok(2_000), |n| n.parse())?;
    let catalog = Catalog::new(corpus(100));
    let tools: Vec<_> = catalog.tools().cloned().collect();
    let code = program(&tools, language, 50);
    let found = catalog.check_program(language, &code);
    if !found.is_empty() {
        return Err(format!("the program should check clean: {found:?}").into());
    }
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        black_box(catalog.check_program(language, black_box(&code)));
    }
    let each = start.elapsed() / u32::try_from(rounds.max(1))?;
    println!("{language}: {each:?} per check over {rounds} checks");
    Ok(())
}
