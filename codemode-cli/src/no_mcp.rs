//! `serve` and `snapshot` in a build without the `mcp` feature: they exist,
//! so `--help` lists them, and they say how to get a build that has them.

/// Whatever was passed to `serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<String>,
}

/// Whatever was passed to `snapshot`.
#[derive(clap::Args)]
pub struct SnapshotArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<String>,
}

fn missing(command: &str) -> String {
    format!(
        "`codemode {command}` needs the MCP bridge, which this build left out; \
         install it with `cargo install codemode-cli --features mcp`"
    )
}

/// Refuses, naming the feature.
pub fn serve(args: ServeArgs) -> Result<(), String> {
    let _ = args.rest;
    Err(missing("serve"))
}

/// Refuses, naming the feature.
pub fn snapshot(args: SnapshotArgs) -> Result<(), String> {
    let _ = args.rest;
    Err(missing("snapshot"))
}
