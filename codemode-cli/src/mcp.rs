//! `codemode serve` and `codemode snapshot`: Code Mode in front of the MCP
//! servers of an `mcpServers` configuration.

use codemode::Language;
use codemode::mcp::{
    CodeModeServer, Collisions, DriftPolicy, McpConfig, McpToolset, Pin, ServerState, Transport,
    snapshot_text,
};
use codemode::runtime::Limits;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The settings of `codemode serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// The MCP client configuration that lists the upstream servers
    /// (`{"mcpServers": {...}}`).
    #[arg(long)]
    config: PathBuf,
    /// The language of `run_code` programs: javascript, typescript or python.
    #[arg(short, long, value_parser = crate::parse_language, default_value = "javascript")]
    language: Language,
    /// Keep `run_code`'s description within this many tokens: past it, the
    /// SDK in it is an index, and programs read declarations through
    /// `catalog.describe` (see `render --budget`).
    #[arg(long, value_name = "TOKENS")]
    budget: Option<usize>,
    /// What the check of each program against the SDK before it runs does:
    /// warn (run it; the findings go back with the result), deny (do not
    /// run a program the check finds an error in), or off.
    #[arg(long, value_name = "POLICY", default_value = "warn", value_parser = parse_policy)]
    check: codemode::runtime::CheckPolicy,
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio; ADDR must
    /// be a loopback address, such as 127.0.0.1:8931.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// With --http, the sessions kept open at once; past them an
    /// `initialize` is refused until one ends or has been idle for five
    /// minutes.
    #[arg(long, value_name = "N", default_value_t = codemode::mcp::DEFAULT_MAX_SESSIONS)]
    max_sessions: usize,
    /// Also offer this upstream tool (its name as a program calls it) to the
    /// model directly, next to `run_code`. Repeat for more.
    #[arg(long = "direct", value_name = "TOOL")]
    direct: Vec<String>,
    /// Pin each server whose snapshot (NAME.json, from `codemode snapshot`)
    /// is in DIR: its tools are declared from the snapshot.
    #[arg(long, value_name = "DIR")]
    pinned: Option<PathBuf>,
    /// What a pinned server whose live tools differ does: warn or error.
    #[arg(long, value_parser = parse_drift, default_value = "warn")]
    drift: DriftPolicy,
    /// Time one run may take, in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    timeout_ms: u64,
    /// Time one tool call may take, in milliseconds.
    #[arg(long, default_value_t = 30_000)]
    call_timeout_ms: u64,
    /// Tool calls one run may make.
    #[arg(long, default_value_t = 1_000)]
    max_tool_calls: usize,
    /// Memory the program's engine may use, in MiB.
    #[arg(long, default_value_t = 64)]
    memory_mib: usize,
    /// The most text a `run_code` result may carry, in bytes.
    #[arg(long, default_value_t = 100_000)]
    max_result_bytes: usize,
    /// Programs that may run at once, each with an engine of its own; one
    /// past them waits for one to end, up to the run timeout.
    #[arg(long, default_value_t = codemode::mcp::DEFAULT_MAX_RUNS)]
    max_runs: usize,
    /// Time a server may take to start and list its tools, in milliseconds.
    #[arg(long, default_value_t = 60_000)]
    connect_timeout_ms: u64,
}

/// How long `codemode serve` waits for the upstream servers before it
/// serves: well inside the 60 s that MCP clients commonly give `initialize`.
const READY_WITHIN: Duration = Duration::from_secs(10);

/// The settings of `codemode snapshot`.
#[derive(clap::Args)]
pub struct SnapshotArgs {
    /// The MCP client configuration that lists the servers.
    #[arg(long)]
    config: PathBuf,
    /// The directory to write NAME.json into (created if missing).
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Time a server may take to start and list its tools, in milliseconds.
    #[arg(long, default_value_t = 60_000)]
    connect_timeout_ms: u64,
}

fn parse_drift(s: &str) -> Result<DriftPolicy, String> {
    match s {
        "warn" => Ok(DriftPolicy::Warn),
        "error" => Ok(DriftPolicy::Error),
        other => Err(format!(
            "{other:?} is not a drift policy: use warn or error"
        )),
    }
}

/// Logs go to standard error: on stdio, standard output carries only
/// protocol messages.
/// codemode's own events at `info`; the MCP library's only from `warn`.
fn init_logging() {
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    let filter = tracing_subscriber::filter::Targets::new()
        .with_default(tracing::Level::INFO)
        .with_target("rmcp", tracing::Level::WARN);
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(false)
                .with_target(false),
        )
        .with(filter)
        .try_init();
}

fn tokio() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// `codemode serve`.
pub fn serve(args: ServeArgs) -> Result<(), String> {
    init_logging();
    if let Some(addr) = args.http
        && !addr.ip().is_loopback()
    {
        return Err(format!(
            "--http {addr}: listen on a loopback address (127.0.0.1 or [::1]); the server has no authentication"
        ));
    }
    let config = McpConfig::load(&args.config).map_err(|e| e.to_string())?;
    // A tool one upstream adds must not stop the gateway from starting:
    // the first server (in name order) keeps a contested name.
    let mut builder = McpToolset::builder()
        .servers(&config)
        .collisions(Collisions::KeepFirst)
        // A server that hangs at start must not keep the client's own
        // initialize waiting past its timeout: after this, the servers
        // still starting join when they are ready, as a list change.
        .ready_within(READY_WITHIN)
        .drift_policy(args.drift)
        .direct(args.direct.iter().cloned())
        .connect_timeout(Duration::from_millis(args.connect_timeout_ms));
    if let Some(dir) = &args.pinned {
        for name in config.servers.keys() {
            let path = dir.join(format!("{name}.json"));
            if path.exists() {
                builder = builder.pin(name, read_pin(&path)?);
            }
        }
    }
    let limits = Limits {
        timeout: Duration::from_millis(args.timeout_ms),
        call_timeout: Duration::from_millis(args.call_timeout_ms),
        max_tool_calls: args.max_tool_calls,
        memory_bytes: args.memory_mib << 20,
        ..Limits::default()
    };
    tokio()?.block_on(async move {
        let upstream = builder
            .connect()
            .await
            .map_err(|e| format!("{}: {e}", args.config.display()))?;
        report(&upstream);
        let known: Vec<String> = codemode::Toolset::defs(&upstream)
            .into_iter()
            .map(|d| d.name)
            .collect();
        if let Some(missing) = args.direct.iter().find(|n| !known.contains(n)) {
            let down: Vec<String> = upstream
                .servers()
                .into_iter()
                .filter(|s| s.state != ServerState::Connected)
                .map(|s| format!("{:?}", s.name))
                .collect();
            if down.is_empty() {
                return Err(format!(
                    "--direct {missing}: no upstream server provides a tool by that name; the tools are: {}",
                    known.join(", ")
                ));
            }
            tracing::warn!(
                "--direct {missing}: no running server provides it now (not running: {})",
                down.join(", ")
            );
        }
        let changes = upstream.changes();
        let mut server = CodeModeServer::new(upstream)
            .language(args.language)
            .limits(limits)
            .max_result_bytes(args.max_result_bytes)
            .max_runs(args.max_runs)
            .max_sessions(args.max_sessions)
            .check(args.check)
            .list_changes(changes);
        if let Some(budget) = args.budget {
            // Counted with o200k, as `render --budget` counts it.
            let counter = crate::tokens::Counter::load()?;
            let past = budget.saturating_add(1);
            server = server
                .budget(budget)
                .token_counter(move |text| counter.count_until(text, past));
        }
        match args.http {
            None => server.serve(Transport::Stdio).await,
            Some(addr) => {
                let bound = server.bind_http(addr).await.map_err(|e| e.to_string())?;
                eprintln!("codemode: serving MCP at http://{}/mcp", bound.local_addr());
                bound.run().await
            }
        }
        .map_err(|e| e.to_string())
    })
}

fn read_pin(path: &Path) -> Result<Pin, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Pin::from_snapshot(&path.display().to_string(), &text).map_err(|e| e.to_string())
}

/// One line per server on standard error.
fn report(upstream: &McpToolset) {
    for status in upstream.servers() {
        match &status.state {
            ServerState::Connected => tracing::info!(
                "server {:?}: {} tools (prefix {:?})",
                status.name,
                status.tools,
                status.prefix
            ),
            ServerState::Failed(why) | ServerState::Exited(why) => {
                tracing::warn!("server {:?} is unavailable: {why}", status.name)
            }
            ServerState::Connecting => tracing::warn!(
                "server {:?} is still starting; its tools join when it is ready",
                status.name
            ),
        }
    }
}

/// `codemode snapshot`.
pub fn snapshot(args: SnapshotArgs) -> Result<(), String> {
    init_logging();
    let config = McpConfig::load(&args.config).map_err(|e| e.to_string())?;
    tokio()?.block_on(async move {
        let mut written = Vec::new();
        for (name, server) in &config.servers {
            if name.contains(['/', '\\']) || name.starts_with('.') {
                return Err(format!(
                    "{}: mcpServers.{name}: a server to snapshot needs a name that is a plain file name",
                    args.config.display()
                ));
            }
            // One server at a time, under its own name and no prefix: a
            // snapshot holds the server's own tool names.
            let upstream = McpToolset::builder()
                .server(name, server.clone().with_prefix(""))
                .connect_timeout(Duration::from_millis(args.connect_timeout_ms))
                .connect()
                .await
                .map_err(|e| format!("{}: {e}", args.config.display()))?;
            if let Some(status) = upstream.servers().first()
                && let ServerState::Failed(why) | ServerState::Exited(why) = &status.state
            {
                return Err(format!(
                    "{}: mcpServers.{name}: {why}",
                    args.config.display()
                ));
            }
            let tools = upstream.live_tools(name).unwrap_or_default();
            written.push((name.clone(), snapshot_text(&tools), tools.len()));
        }
        std::fs::create_dir_all(&args.out)
            .map_err(|e| format!("{}: cannot create: {e}", args.out.display()))?;
        for (name, text, count) in written {
            let path = args.out.join(format!("{name}.json"));
            std::fs::write(&path, &text)
                .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
            let pin = read_pin(&path)?;
            eprintln!(
                "codemode: wrote {} ({count} tools, fingerprint {})",
                path.display(),
                pin.fingerprint
            );
        }
        Ok(())
    })
}

fn parse_policy(s: &str) -> Result<codemode::runtime::CheckPolicy, String> {
    use codemode::runtime::CheckPolicy;
    match s {
        "off" => Ok(CheckPolicy::Off),
        "warn" => Ok(CheckPolicy::Warn),
        "deny" => Ok(CheckPolicy::Deny),
        other => Err(format!(
            "unknown check policy {other:?}: expected off, warn or deny"
        )),
    }
}
