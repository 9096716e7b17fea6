//! Prints the benchmark corpus as an MCP `tools/list` result:
//! `gen-corpus N > corpus.json`.

fn main() -> std::process::ExitCode {
    let n = match std::env::args().nth(1).map(|a| a.parse::<usize>()) {
        Some(Ok(n)) => n,
        _ => {
            eprintln!("usage: gen-corpus N");
            return std::process::ExitCode::from(2);
        }
    };
    let tools = codemode_benches::corpus(n);
    println!("{}", serde_json::json!({ "tools": tools }));
    std::process::ExitCode::SUCCESS
}
