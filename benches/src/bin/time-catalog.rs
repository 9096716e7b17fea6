//! Times the path a tool list's text takes through `codemode::Catalog`:
//! `time-catalog FILE ROUNDS [ts|py] [THREADS]` prints, as JSON, the best time per
//! tool of reading and lowering (`Catalog::parse`) and of printing one
//! language, over the rounds, and the best of both together in one round
//! (`total_us_per_tool`). Per-tool times at several list sizes show
//! whether the cost per tool stays flat as the list grows.

use std::time::Instant;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (file, rounds, text) = match codemode_benches::file_and_rounds(
        &args,
        "time-catalog FILE ROUNDS [ts|py] [THREADS]",
    ) {
        Ok(input) => input,
        Err(message) => {
            eprintln!("{message}");
            return std::process::ExitCode::from(2);
        }
    };
    let language = match args.get(3).map(String::as_str) {
        None | Some("ts") => codemode::Language::TypeScript,
        Some("py") => codemode::Language::Python,
        Some(other) => {
            eprintln!("error: unknown language {other:?} (ts or py)");
            return std::process::ExitCode::from(2);
        }
    };
    match args.get(4).map(|t| t.parse::<usize>()) {
        None => {}
        Some(Ok(threads)) => codemode::set_render_threads(threads),
        Some(Err(_)) => {
            eprintln!("error: THREADS must be a number");
            return std::process::ExitCode::from(2);
        }
    }
    let (mut parse, mut print, mut total, mut tools) = (f64::MAX, f64::MAX, f64::MAX, 0);
    for _ in 0..rounds.max(1) {
        // The copy is the caller's (the CLI moves the text it read in), so
        // it is made before the clock starts.
        let copy = text.clone();
        let started = Instant::now();
        let catalog = match codemode::Catalog::parse(&file, copy) {
            Ok(catalog) => catalog,
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::from(2);
            }
        };
        let parsed = started.elapsed().as_secs_f64();
        let started = Instant::now();
        std::hint::black_box(catalog.render(language).len());
        let printed = started.elapsed().as_secs_f64();
        print = print.min(printed);
        parse = parse.min(parsed);
        total = total.min(parsed + printed);
        tools = catalog.len();
    }
    let per_tool = |seconds: f64| seconds * 1e6 / tools.max(1) as f64;
    println!(
        "{}",
        serde_json::json!({
            "tools": tools,
            "language": language.as_str(),
            "parse_us_per_tool": per_tool(parse),
            "print_us_per_tool": per_tool(print),
            "total_us_per_tool": per_tool(total),
        })
    );
    std::process::ExitCode::SUCCESS
}
