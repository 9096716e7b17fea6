//! Runs the check benchmark's work in a loop, for profilers (`perf record`,
//! `valgrind --tool=callgrind`): the 50-line program against the 100-tool
//! catalog, checked N times.
//!
//! Usage: `check-loop [--runtime] LANGUAGE [N [STACK_KIB]]` (javascript,
//! typescript or python; N defaults to 2,000). With STACK_KIB the checks run
//! on a thread with that much stack (a tokio worker has 2,048), else on the
//! main thread. With `--runtime` each check goes through `Runtime::run`
//! under `CheckPolicy::Deny`, with one wrong key added to the program so
//! that it is refused after its check and never runs. Built with the `mimalloc` feature, it uses the
//! allocator the `codemode` CLI uses instead of the system's.

use codemode::runtime::{CheckPolicy, Limits, Runtime};
use codemode::{Catalog, ErrorKind, Language, ToolCallError, ToolDef, Toolset};
use codemode_benches::{corpus, program};
use serde_json::Value;
use std::hint::black_box;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let through_runtime = args.first().is_some_and(|a| a == "--runtime");
    if through_runtime {
        args.remove(0);
    }
    let mut args = args.into_iter();
    let language: Language = args
        .next()
        .ok_or("usage: check-loop [--runtime] LANGUAGE [N [STACK_KIB]]")?
        .parse()?;
    let rounds: usize = args.next().map_or(Ok(2_000), |n| n.parse())?;
    let catalog = Catalog::new(corpus(100));
    let tools: Vec<_> = catalog.tools().cloned().collect();
    let code = program(&tools, language, 50);
    let found = catalog.check_program(language, &code);
    if !found.is_empty() {
        return Err(format!("the program should check clean: {found:?}").into());
    }
    let stack: Option<usize> = args.next().map(|kib| kib.parse()).transpose()?;
    let work = || {
        if through_runtime {
            time_runtime(tools.clone(), language, &code, rounds)
        } else {
            time(&catalog, language, &code, rounds)
        }
    };
    let each = match stack {
        None => work(),
        Some(kib) => std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(kib << 10)
                .spawn_scoped(scope, work)
                .map(|worker| worker.join().unwrap_or_default())
        })?,
    };
    let on = stack.map_or("the main thread".to_owned(), |kib| {
        format!("a {kib} KiB thread")
    });
    let how = if through_runtime {
        " through the runtime"
    } else {
        ""
    };
    println!("{language}: {each:?} per check{how} over {rounds} checks on {on}");
    Ok(())
}

/// The tools of a catalog, which fail when called (no run gets that far).
struct Listed(Vec<ToolDef>);

impl Toolset for Listed {
    fn defs(&self) -> Vec<ToolDef> {
        self.0.clone()
    }

    async fn call(&self, name: &str, _args: Value) -> Result<Value, ToolCallError> {
        Err(ToolCallError::new(
            name,
            ErrorKind::ToolFailed,
            "not in a benchmark",
        ))
    }
}

/// The mean time of one run refused by its check, over `rounds` runs.
fn time_runtime(
    tools: Vec<ToolDef>,
    language: Language,
    code: &str,
    rounds: usize,
) -> std::time::Duration {
    let wrong = format!("{code}\n{}", wrong_call(&tools[0].name, language));
    let runtime = Runtime::new(Listed(tools), Limits::default()).with_check(CheckPolicy::Deny);
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        let outcome = futures_executor::block_on(runtime.run(language, black_box(&wrong)));
        assert!(outcome.error.is_some(), "the check refuses the program");
    }
    start.elapsed() / u32::try_from(rounds.max(1)).unwrap_or(u32::MAX)
}

/// A call of `tool` with a key no generated tool has.
fn wrong_call(tool: &str, language: Language) -> String {
    match language {
        Language::Python => format!("await tools[{tool:?}]({{\"no_such_key\": 1}})"),
        _ => format!("await tools[{tool:?}]({{ no_such_key: 1 }});"),
    }
}

/// The mean time of one check over `rounds` checks.
fn time(catalog: &Catalog, language: Language, code: &str, rounds: usize) -> std::time::Duration {
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        black_box(catalog.check_program(language, black_box(code)));
    }
    start.elapsed() / u32::try_from(rounds.max(1)).unwrap_or(u32::MAX)
}
