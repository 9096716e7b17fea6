//! `codemode check`: a program checked against the SDK of a tool list, as
//! the runtime checks it before a run.

use codemode::Language;
use std::path::PathBuf;

/// The arguments of `check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The program's language: javascript, typescript or python (js, ts, py).
    #[arg(short, long, value_parser = crate::parse_language)]
    language: Language,
    /// The tool list the program is written against (as `render` reads it).
    #[arg(long, value_name = "FILE")]
    tools: PathBuf,
    /// Print the diagnostics as a JSON array.
    #[arg(long)]
    json: bool,
    /// The program; `-` or nothing reads standard input.
    program: Option<PathBuf>,
}

/// Prints what the check finds; the exit code is 1 when it found an error.
#[cfg(feature = "check")]
pub fn check(args: CheckArgs) -> Result<u8, String> {
    let catalog = crate::catalog_of(None, Some(&args.tools))?;
    let (source, code) = crate::read_input(args.program.as_deref())?;
    let found = catalog.check_program(args.language, &code);
    let text = if args.json {
        serde_json::to_string_pretty(&found).map_err(|e| format!("cannot print: {e}"))? + "\n"
    } else {
        found
            .iter()
            .map(|d| {
                format!(
                    "{source}:{}:{}: {} [{}]: {}\n",
                    d.line, d.column, d.severity, d.code, d.message
                )
            })
            .collect()
    };
    crate::write_stdout(&text)?;
    let errors = found
        .iter()
        .any(|d| d.severity == codemode::Severity::Error);
    Ok(u8::from(errors))
}

/// Refuses, naming the feature.
#[cfg(not(feature = "check"))]
pub fn check(args: CheckArgs) -> Result<u8, String> {
    let _ = (args.language, args.tools, args.json, args.program);
    Err(
        "`codemode check` needs the program check, which this build left out; \
         install it with `cargo install codemode-cli --features check`"
            .to_owned(),
    )
}
