//! Prints the agent's compile-time SDK: `agent [--language L]`.

use codemode::Language;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut language = Language::TypeScript;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--language" | "-l" => match args.next().map(|l| l.parse::<Language>()) {
                Some(Ok(l)) => language = l,
                Some(Err(e)) => return usage(&e.to_string()),
                None => return usage("--language needs a value"),
            },
            "--help" | "-h" => {
                println!(
                    "usage: agent [--language javascript|typescript|python]\n\nPrints the Code Mode SDK fixed at compile time."
                );
                return ExitCode::SUCCESS;
            }
            other => return usage(&format!("unexpected argument {other:?}")),
        }
    }
    print!("{}", agent::sdk_text(language));
    eprintln!(
        "# {} tools, fingerprint {}",
        agent::sdk::TOOL_NAMES.len(),
        agent::sdk::FINGERPRINT
    );
    ExitCode::SUCCESS
}

fn usage(message: &str) -> ExitCode {
    eprintln!("error: {message}\nusage: agent [--language javascript|typescript|python]");
    ExitCode::from(2)
}
