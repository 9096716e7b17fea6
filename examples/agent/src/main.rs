//! The example agent.
//!
//! - `agent [--language javascript|typescript]` runs a realistic Code Mode
//!   program (`programs/triage.*`) against the support tools in the embedded
//!   sandbox, and prints its result, its console output and its call trace.
//! - `agent --sdk [--language L]` prints the SDK fixed at compile time.

use agent_tools::SupportTools;
use codemode::Language;
use codemode::runtime::{Isolation, JsRuntime, Limits, WorkerCommand};
use std::process::ExitCode;

const USAGE: &str = "usage: agent [--sdk] [--worker] [--language javascript|typescript|python]\n\n\
    Runs the example program against the support tools, or with --sdk prints the\n\
    Code Mode SDK that the build script fixed at compile time. --worker runs the\n\
    program's engine in a child process under OS limits.";

fn main() -> ExitCode {
    // This binary is also the sandbox's worker process (`--worker`).
    codemode::runtime::run_worker_if_requested();
    let mut language = None;
    let mut print_sdk = false;
    let mut isolation = Isolation::InProcess;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--sdk" => print_sdk = true,
            "--worker" => match WorkerCommand::current_exe() {
                Ok(command) => isolation = Isolation::Worker(command),
                Err(e) => {
                    return usage(&format!(
                        "cannot find this executable to start workers: {e}"
                    ));
                }
            },
            "--language" | "-l" => match args.next().map(|l| l.parse::<Language>()) {
                Some(Ok(l)) => language = Some(l),
                Some(Err(e)) => return usage(&e.to_string()),
                None => return usage("--language needs a value"),
            },
            "--help" | "-h" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => return usage(&format!("unexpected argument {other:?}")),
        }
    }
    if print_sdk {
        print!(
            "{}",
            agent::sdk_text(language.unwrap_or(Language::TypeScript))
        );
        eprintln!(
            "# {} tools, fingerprint {}",
            agent::sdk::TOOL_NAMES.len(),
            agent::sdk::FINGERPRINT
        );
        return ExitCode::SUCCESS;
    }
    let (language, program) = match language.unwrap_or(Language::JavaScript) {
        Language::JavaScript => (Language::JavaScript, include_str!("../programs/triage.js")),
        Language::TypeScript => (Language::TypeScript, include_str!("../programs/triage.ts")),
        Language::Python => {
            return usage(
                "the embedded runtime runs JavaScript and TypeScript; use --sdk to print the Python SDK",
            );
        }
    };
    let runtime = JsRuntime::new(SupportTools::with_sample_tickets(), Limits::default())
        .with_isolation(isolation);
    let outcome = futures_executor::block_on(runtime.run(language, program));

    println!("== result");
    println!(
        "{}",
        serde_json::to_string_pretty(&outcome.value).unwrap_or_default()
    );
    println!("\n== console");
    for line in &outcome.logs {
        println!("[{}] {}", line.level, line.text);
    }
    println!("\n== tool calls");
    for (i, call) in outcome.calls.iter().enumerate() {
        let status = match &call.error {
            None => "ok".to_owned(),
            Some(e) => format!("{}: {}", e.kind, e.message),
        };
        let ms = call
            .duration_ms
            .map_or("-".to_owned(), |ms| format!("{ms:.2} ms"));
        println!(
            "{:>2}. {}({}) -> {status} [{ms}]",
            i + 1,
            call.name,
            call.args
        );
    }
    match outcome.error {
        None => ExitCode::SUCCESS,
        Some(error) => {
            eprintln!("\nerror ({:?}): {}", error.kind, error.message);
            ExitCode::FAILURE
        }
    }
}

fn usage(message: &str) -> ExitCode {
    eprintln!("error: {message}\n{USAGE}");
    ExitCode::from(2)
}
