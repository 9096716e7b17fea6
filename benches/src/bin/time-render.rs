//! Times `codemode::render` in-process on a tool list file, for the
//! side-by-side comparison: `time-render FILE ROUNDS` prints the best
//! milliseconds per full render, in TypeScript and Python, as JSON.

use std::time::Instant;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (file, rounds, text) =
        match codemode_benches::file_and_rounds(&args, "time-render FILE ROUNDS") {
            Ok(input) => input,
            Err(message) => {
                eprintln!("{message}");
                return std::process::ExitCode::from(2);
            }
        };
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let tools: Vec<codemode::ToolDef> =
        serde_json::from_value(value["tools"].clone()).unwrap_or_default();
    let mut out = serde_json::Map::new();
    for lang in [codemode::Language::TypeScript, codemode::Language::Python] {
        let mut best = f64::MAX;
        let mut bytes = 0;
        for _ in 0..rounds.max(1) {
            let started = Instant::now();
            let sdk = codemode::render(lang, &tools);
            best = best.min(started.elapsed().as_secs_f64() * 1000.0);
            bytes = sdk.len();
        }
        out.insert(
            lang.as_str().to_owned(),
            serde_json::json!({"best_ms": best, "bytes": bytes}),
        );
    }
    out.insert("tools".to_owned(), tools.len().into());
    println!("{}", serde_json::Value::Object(out));
    std::process::ExitCode::SUCCESS
}
