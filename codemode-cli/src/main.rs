#![warn(missing_docs)]
//! `codemode`: render the typed SDK a Code Mode program is written against,
//! from any MCP server's tool list, and serve Code Mode in front of MCP
//! servers.

mod check;
#[cfg(feature = "mcp")]
mod mcp;
#[cfg(not(feature = "mcp"))]
#[path = "no_mcp.rs"]
mod mcp;
mod tokens;

use clap::{Parser, Subcommand};
use codemode::{Catalog, Language, ToolFormat};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Rendering allocates many small strings and maps and frees them
/// together; mimalloc does that markedly faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay`, as its C header numbers it (the crate
/// gives the options no constants).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Tells mimalloc to keep the memory it frees instead of giving it back to
/// the system after its delay. Left to purge, a one-tool render gives back
/// some 96 MiB of its reserved arena, mostly as it exits, which is work
/// for a process that is about to end: a render of one server's tools is
/// about 8% faster without it (BENCHMARKS.md). `serve` lives on, and
/// gives its memory back as usual.
fn keep_freed_memory() {
    // SAFETY: `mi_option_set` stores a number in mimalloc's table of
    // options; it is not thread-safe, and this runs before the process
    // starts any thread of its own.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) };
}

/// Exit code for bad input or usage: the caller must fix something.
const EXIT_BAD_INPUT: u8 = 2;

/// Render typed Code Mode SDKs from MCP tool lists.
///
/// Input is a JSON array of MCP tools, or the result of MCP `tools/list`
/// (an object with a `tools` array; other keys are ignored).
#[derive(Parser)]
#[command(name = "codemode", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the SDK that declares the tools, for the `run_code` description.
    ///
    /// The output is byte-identical for the same tool set, whatever the order
    /// of the tools or of the keys in their schemas. Of two tools with one
    /// name, the SDK keeps the first declaration (`--report` warns), so
    /// there the order decides.
    Render {
        /// The program's language: javascript, typescript or python (js, ts, py).
        #[arg(short, long, value_parser = parse_language)]
        language: Language,
        /// Also print every schema node that fell to the escape hatch, to stderr.
        #[arg(long)]
        report: bool,
        /// Keep the SDK within this many tokens: past it, print an index of
        /// the tools (names and summaries, by group) that programs read
        /// declarations from through `catalog.describe`.
        #[arg(long, value_name = "TOKENS")]
        budget: Option<usize>,
        /// Print instead what a program's `catalog.describe` answers for
        /// these tools (the option repeated, one name each): their
        /// declarations, which check on their own.
        #[arg(long, value_name = "NAME", conflicts_with = "budget")]
        describe: Vec<String>,
        /// The tool list to read; `-` or nothing reads standard input.
        file: Option<PathBuf>,
    },
    /// Report on a tool list: `--tokens` compares the SDKs' prompt cost with
    /// native tool definitions.
    Report(ReportArgs),
    /// Print the `run_code` tool definition, with the SDK in its description,
    /// in the shape a provider's API takes.
    ///
    /// The instructions open the description and are the same for every tool
    /// set, so they stay in a provider's prompt cache when the tools change.
    RunCodeTool {
        /// The program's language: javascript, typescript or python (js, ts, py).
        #[arg(short, long, value_parser = parse_language)]
        language: Language,
        /// mcp, openai-chat, openai-responses or anthropic.
        #[arg(short, long, value_parser = parse_format)]
        format: ToolFormat,
        /// Keep the SDK within this many tokens (see `render --budget`).
        #[arg(long, value_name = "TOKENS")]
        budget: Option<usize>,
        /// The tool list to read; `-` or nothing reads standard input.
        file: Option<PathBuf>,
    },
    /// Serve Code Mode over MCP in front of the servers of an MCP client
    /// configuration: one `run_code` tool whose description carries the SDK
    /// of every upstream tool, and whose programs call them.
    ///
    /// It serves stdio (put it in a client's config in place of the servers)
    /// or, with --http, streamable HTTP on loopback. Logs go to stderr.
    Serve(mcp::ServeArgs),
    /// Check a program against the SDK of a tool list, as the runtime does
    /// before it runs one: calls of unknown tools, literal arguments that
    /// break their schema, dropped calls, names the sandbox lacks, syntax.
    ///
    /// Prints one line per finding (`FILE:line L, column C: error [code]:
    /// message`) and exits 1 when one is an error. Needs the `check`
    /// feature (also on with `mcp`).
    Check(check::CheckArgs),
    /// Write each server's tool list (NAME.json, a `tools/list` result) for
    /// `codemode-build` to pin at compile time, and `serve --pinned` to check.
    Snapshot(mcp::SnapshotArgs),
}

#[derive(clap::Args)]
struct ReportArgs {
    /// Count prompt tokens (o200k_base) per tool and in total, for the
    /// TypeScript SDK, the Python SDK and the same tools as native JSON tool
    /// definitions.
    #[arg(long, required = true)]
    tokens: bool,
    /// Print only the totals, as one JSON object.
    #[arg(long)]
    json: bool,
    /// Also count the whole `run_code` description (instructions and SDK)
    /// with the SDK kept within this many tokens, in both languages.
    #[arg(long, value_name = "TOKENS")]
    budget: Option<usize>,
    /// The tool list to read; `-` or nothing reads standard input.
    file: Option<PathBuf>,
}

fn parse_format(s: &str) -> Result<ToolFormat, String> {
    s.parse()
        .map_err(|e: codemode::UnknownToolFormat| e.to_string())
}

pub(crate) fn parse_language(s: &str) -> Result<Language, String> {
    s.parse()
        .map_err(|e: codemode::UnknownLanguage| e.to_string())
}

fn main() -> ExitCode {
    // `serve --language python` runs programs in worker processes started
    // from this binary.
    #[cfg(feature = "mcp")]
    codemode::runtime::run_worker_if_requested();
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve(_)) {
        keep_freed_memory();
    }
    // One render per process, with mimalloc: long lists are worth halving
    // between two cores.
    codemode::set_render_threads(2);
    // The tool list of `render` and `run-code-tool` is read first, to see
    // whether it can be worked on here (and a tokenizer for a budget loads
    // meanwhile).
    let early = match &cli.command {
        Command::Render { file, budget, .. } | Command::RunCodeTool { file, budget, .. } => {
            let counter = budget.map(|_| load_counter());
            match read_input(file.as_deref()) {
                Ok(list) => Early {
                    list: Some(list),
                    counter,
                },
                Err(message) => return exit(Ok(Err(message))),
            }
        }
        _ => Early {
            list: None,
            counter: None,
        },
    };
    if early.list.as_ref().is_some_and(|(_, text)| shallow(text)) && main_stack_suffices() {
        let run = std::panic::AssertUnwindSafe(|| run(cli, early));
        return exit(std::panic::catch_unwind(run).map_err(drop));
    }
    // Deeply nested input needs a deep stack to parse (and to free); the
    // work runs on a thread that has one.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(cli, early));
    exit(
        worker
            .map_err(drop)
            .and_then(|handle| handle.join().map_err(drop)),
    )
}

/// What `main` has done for a command before running it.
struct Early {
    /// The tool list of `render` and `run-code-tool`, read (its source's
    /// name and its text).
    list: Option<(String, String)>,
    /// The tokenizer loading for their `--budget`.
    counter: Option<Counter>,
}

/// The exit code of a command's outcome: its own, or 2 with its message
/// for bad input, or a failure if its thread could not start or panicked.
fn exit(outcome: Result<Result<u8, String>, ()>) -> ExitCode {
    match outcome {
        Ok(Ok(code)) => ExitCode::from(code),
        Ok(Err(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Err(()) => {
            eprintln!("error: internal failure (please report it)");
            ExitCode::FAILURE
        }
    }
}

/// Brackets a JSON text may hold and still be worked on by the main thread.
/// Only the reading of a text recurses as deep as it nests (lowering stops
/// at a few levels), so a text with no more brackets than this, which can
/// nest no deeper, needs little stack: reading one that is bad JSON at its
/// deepest, the worst case, took between 128 and 256 KiB.
const SHALLOW_BRACKETS: usize = 512;

/// The stack the main thread must be allowed to grow to, to take a shallow
/// list: well past what one needs ([`SHALLOW_BRACKETS`]).
#[cfg(unix)]
const MAIN_STACK_NEEDED: u64 = 4 << 20;

/// Whether the main thread's stack may grow to [`MAIN_STACK_NEEDED`] (its
/// limit is usually 8 MiB, but `ulimit -s` sets it).
fn main_stack_suffices() -> bool {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` only writes the limit into `limit`, which
        // outlives the call.
        let read = unsafe { libc::getrlimit(libc::RLIMIT_STACK, &mut limit) } == 0;
        read && (limit.rlim_cur == libc::RLIM_INFINITY || limit.rlim_cur >= MAIN_STACK_NEEDED)
    }
    // Elsewhere the main thread's stack is fixed when the binary is linked
    // (1 MiB on Windows), which a debug build's reading of a bad list at
    // the deepest shallow nesting could outgrow.
    #[cfg(not(unix))]
    false
}

/// Whether `text` holds at most [`SHALLOW_BRACKETS`] brackets (counting
/// those in strings too). One server's tool list does: working on it here
/// spares starting a thread, and a heap of its own for it, which is a
/// sixth of the time of such a render.
fn shallow(text: &str) -> bool {
    text.bytes()
        .filter(|b| matches!(b, b'[' | b'{'))
        .nth(SHALLOW_BRACKETS)
        .is_none()
}

/// Runs a command, with what `main` did for it first; `Ok` carries the
/// exit code (0, or 1 for `check` when it found an error).
fn run(cli: Cli, early: Early) -> Result<u8, String> {
    let Early { list, counter } = early;
    let done = match cli.command {
        Command::Check(args) => return check::check(args),
        Command::Render {
            language,
            report,
            budget,
            describe,
            file,
        } => {
            let counting = budget.zip(counter);
            let catalog = catalog_of(list, file.as_deref())?;
            let rendered = catalog.rendered(language);
            let fitted = match counting {
                Some((budget, counter)) => Some(within(&catalog, language, budget, counter)?),
                None => None,
            };
            if report {
                // stderr writes each piece at once: a list with a million
                // degradations took nine system calls a line.
                let mut err = std::io::BufWriter::new(std::io::stderr().lock());
                for name in catalog.duplicates() {
                    let _ = writeln!(
                        err,
                        "warning: tool {name:?} is declared more than once; the SDK keeps its first declaration"
                    );
                }
                for d in &rendered.degradations {
                    let _ = writeln!(
                        err,
                        "degraded: tool {:?} at {}: {}",
                        d.tool, d.pointer, d.reason
                    );
                }
                let _ = writeln!(err, "{} degradation(s)", rendered.degradations.len());
                if let (Some(budget), Some(fitted)) = (budget, &fitted) {
                    let _ = writeln!(err, "within {budget} tokens: {:?}", fitted.fit);
                }
                let _ = err.flush();
            }
            let written = match &fitted {
                Some(fitted) => write_stdout(&fitted.sdk),
                None if !describe.is_empty() => {
                    let names: Vec<&str> = describe.iter().map(String::as_str).collect();
                    write_stdout(&catalog.describe(language, &names))
                }
                None => write_stdout(&rendered.text),
            };
            // The process ends next: freeing the catalog one node at a time
            // would only delay it.
            std::mem::forget(catalog);
            written
        }
        Command::Report(args) => {
            let tools = read_tools(args.file.as_deref())?;
            let report = tokens::count(tools, args.budget)?;
            write_stdout(&if args.json {
                report.json()
            } else {
                report.table()
            })
        }
        Command::RunCodeTool {
            language,
            format,
            budget,
            file,
        } => {
            let counting = budget.zip(counter);
            let catalog = catalog_of(list, file.as_deref())?;
            let tool = match counting {
                Some((budget, counter)) => {
                    within(&catalog, language, budget, counter)?.run_code_tool
                }
                None => catalog.run_code_tool(language),
            }
            .to_format(format);
            let json = serde_json::to_string_pretty(&tool)
                .map_err(|e| format!("cannot print the tool: {e}"))?;
            write_stdout(&(json + "\n"))
        }
        Command::Serve(args) => mcp::serve(args),
        Command::Snapshot(args) => mcp::snapshot(args),
    };
    done.map(|()| 0)
}

/// Reads and parses the tool list named on the command line.
fn read_tools(file: Option<&std::path::Path>) -> Result<Vec<codemode::ToolDef>, String> {
    let (source, text) = read_input(file)?;
    codemode::parse_tool_list(&source, &text).map_err(|e| e.to_string())
}

/// The catalog of `list` (a source's name and its text), or of the tool
/// list in `file` when it has not been read yet.
fn catalog_of(
    list: Option<(String, String)>,
    file: Option<&std::path::Path>,
) -> Result<Catalog, String> {
    let (source, text) = match list {
        Some(list) => list,
        None => read_input(file)?,
    };
    Catalog::parse(&source, text).map_err(|e| e.to_string())
}

fn read_input(file: Option<&std::path::Path>) -> Result<(String, String), String> {
    match file {
        None => read_stdin(),
        Some(path) if path.as_os_str() == "-" => read_stdin(),
        Some(path) => {
            let name = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
            let text = String::from_utf8(bytes).map_err(|e| {
                format!(
                    "{name}: not UTF-8 (first bad byte at offset {})",
                    e.utf8_error().valid_up_to()
                )
            })?;
            Ok((name, text))
        }
    }
}

fn read_stdin() -> Result<(String, String), String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("<stdin>: cannot read: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "<stdin>: not UTF-8 (first bad byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(("<stdin>".to_owned(), text))
}

fn write_stdout(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`| head`) is the reader's choice, not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write output: {e}")),
    }
}

/// The o200k tokenizer, loaded on a thread of its own while the tool list
/// is read and lowered: loading it takes about as long as rendering a few
/// thousand tools. Started before the list is read ([`Early`]).
fn load_counter() -> Counter {
    std::thread::spawn(tokens::Counter::load)
}

/// A tokenizer being loaded ([`load_counter`]).
type Counter = std::thread::JoinHandle<Result<tokens::Counter, String>>;

/// The SDK for `language` kept within `budget` o200k tokens; says on
/// stderr when even the smallest SDK (the groups alone) is past it, and is
/// printed all the same.
fn within(
    catalog: &codemode::Catalog,
    language: Language,
    budget: usize,
    counter: Counter,
) -> Result<codemode::Fitted<'_>, String> {
    let counter = counter
        .join()
        .map_err(|_| "cannot load the o200k_base tokenizer".to_owned())??;
    let fitted = counter.within(catalog, language, budget);
    if fitted.tokens > budget {
        eprintln!(
            "warning: the run_code description takes {} tokens, past the budget of {budget}, even with the smallest SDK ({:?})",
            fitted.tokens, fitted.fit
        );
    }
    Ok(fitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_shallow_up_to_its_512th_bracket() {
        let brackets = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(shallow(&brackets(SHALLOW_BRACKETS)));
        assert!(!shallow(&brackets(SHALLOW_BRACKETS + 1)));
        // Braces count too, and so do brackets inside strings.
        let mixed = format!("{}\"[\"", "{".repeat(SHALLOW_BRACKETS));
        assert!(!shallow(&mixed));
        assert!(shallow(&"]".repeat(10_000)));
    }
}
