//! The example agent.
//!
//! - `agent [--provider P]` drives a scripted model through the agent loop.
//! - `agent --language javascript|typescript|python` (or `--program`) runs a
//!   realistic Code Mode program (`programs/triage.*`) against the support
//!   tools in the embedded sandbox, and prints its result, its console output
//!   and its call trace.
//! - `agent --sdk [--language L]` prints the SDK fixed at compile time.
//! - `agent --serve [--language L]` serves the support tools as a Code Mode
//!   MCP server over stdio: put it in an MCP client's `mcpServers`.

use agent::conversation::Conversation;
use agent_tools::SupportTools;
use codemode::runtime::{Isolation, Limits, RunOutcome, Runtime, WorkerCommand};
use codemode::{Language, StaticToolset, ToolFormat};
use std::process::ExitCode;

const USAGE: &str = "usage: agent [--provider anthropic|openai-responses] [--program] [--language javascript|typescript|python] [--sdk] [--serve] [--worker]\n\n\
    Drives a scripted model (a recorded conversation) through the agent loop: offers\n\
    run_code, runs the program in the model's tool call against the support tools,\n\
    sends the tool result back and prints the final answer. --program, or --language\n\
    on its own, runs the example program in that language directly (Python runs in a\n\
    worker process by default); --sdk prints the SDK the build script fixed at compile\n\
    time; --serve serves the support tools as a Code Mode MCP server on stdio (the\n\
    run_code description is the one fixed at compile time); --worker runs every\n\
    engine in a child process under OS limits.";

fn main() -> ExitCode {
    // This binary is also the sandbox's worker process (`--worker`).
    codemode::runtime::run_worker_if_requested();
    let mut language = None;
    let mut print_sdk = false;
    let mut serve = false;
    let mut direct = false;
    let mut provider = None;
    let mut isolation = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--sdk" => print_sdk = true,
            "--serve" => serve = true,
            "--program" => direct = true,
            "--worker" => match WorkerCommand::current_exe() {
                Ok(command) => isolation = Some(Isolation::Worker(command)),
                Err(e) => {
                    return usage(&format!(
                        "cannot find this executable to start workers: {e}"
                    ));
                }
            },
            "--provider" => match args.next().map(|p| p.parse::<ToolFormat>()) {
                Some(Ok(p @ (ToolFormat::Anthropic | ToolFormat::OpenAiResponses))) => {
                    provider = Some(p)
                }
                Some(Ok(other)) => {
                    return usage(&format!(
                        "no conversation is recorded for {}",
                        other.as_str()
                    ));
                }
                Some(Err(e)) => return usage(&e.to_string()),
                None => return usage("--provider needs a value"),
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
    if serve {
        return serve_mcp(language.unwrap_or(Language::JavaScript));
    }
    let mut runtime = Runtime::new(SupportTools::with_sample_tickets(), Limits::default());
    if let Some(isolation) = isolation {
        runtime = runtime.with_isolation(isolation);
    }
    // A language on its own asks for the example program in it; the
    // recorded conversations are JavaScript.
    if direct || (language.is_some() && provider.is_none()) {
        return run_program(&runtime, language.unwrap_or(Language::JavaScript));
    }
    if language.is_some_and(|l| l != Language::JavaScript) {
        return usage(
            "the recorded conversations are JavaScript; add --program to run the example program in another language",
        );
    }
    let provider = provider.unwrap_or(ToolFormat::Anthropic);
    let conversation = match Conversation::recorded(provider) {
        Ok(c) => c,
        Err(e) => return usage(&e),
    };
    let tools = SupportTools::tool_defs();
    let transcript = match futures_executor::block_on(agent::conversation::run_loop(
        &conversation,
        &runtime,
        &tools,
        Language::JavaScript,
    )) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("== user\n{}\n", conversation.user);
    println!(
        "== model ({}) offered run_code, {} request(s)",
        provider.as_str(),
        transcript.requests.len()
    );
    for answer in &transcript.answers {
        if let Some(outcome) = &answer.outcome {
            print_calls(outcome);
        }
        println!(
            "\n== tool result sent back\n{}",
            serde_json::to_string_pretty(&answer.result).unwrap_or_default()
        );
    }
    println!("\n== final answer\n{}", transcript.final_text);
    ExitCode::SUCCESS
}

/// Serves the support tools over MCP on stdio until the client leaves.
/// Logs go to stderr; stdout carries only protocol messages.
fn serve_mcp(language: Language) -> ExitCode {
    use codemode::mcp::{CodeModeServer, Transport};
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = CodeModeServer::new(SupportTools::with_sample_tickets()).language(language);
    match runtime.block_on(server.serve(Transport::Stdio)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the example program directly, without a model.
fn run_program(runtime: &Runtime<SupportTools>, language: Language) -> ExitCode {
    let program = match language {
        Language::JavaScript => include_str!("../programs/triage.js"),
        Language::TypeScript => include_str!("../programs/triage.ts"),
        Language::Python => include_str!("../programs/triage.py"),
    };
    let outcome = futures_executor::block_on(runtime.run(language, program));
    println!(
        "== result\n{}",
        serde_json::to_string_pretty(&outcome.value).unwrap_or_default()
    );
    println!("\n== console");
    for line in &outcome.logs {
        println!("[{}] {}", line.level, line.text);
    }
    print_calls(&outcome);
    match outcome.error {
        None => ExitCode::SUCCESS,
        Some(error) => {
            eprintln!("\nerror: {error}");
            ExitCode::FAILURE
        }
    }
}

fn print_calls(outcome: &RunOutcome) {
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
}

fn usage(message: &str) -> ExitCode {
    eprintln!("error: {message}\n{USAGE}");
    ExitCode::from(2)
}
