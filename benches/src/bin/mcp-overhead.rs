//! What `codemode serve` adds to a tool call, over stdio, against the same
//! call made straight to the upstream server (server-everything's `echo`,
//! installed by tests/interop/install.sh). One client (rmcp), one machine,
//! one run; medians of many sequential calls:
//!
//! `cargo build --release -p codemode-cli --features mcp && cargo run --release -p codemode-benches --bin mcp-overhead [CALLS]`
//!
//! Rows: the call made directly; the same tool passed straight through
//! `codemode serve` (`--direct`); a `run_code` program making that one call
//! (JavaScript and Python); and ten calls, made one by one directly against
//! one `run_code` program making all ten.

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Instant;

type Client = RunningService<RoleClient, ()>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn interop_cache() -> PathBuf {
    let out = std::process::Command::new("bash")
        .arg(root().join("tests/interop/install.sh"))
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

async fn connect(command: &Path, args: &[&str]) -> Client {
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(args);
    let (transport, _) = rmcp::transport::TokioChildProcess::builder(cmd)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server starts");
    ().serve(transport).await.expect("the handshake completes")
}

async fn call(client: &Client, name: &'static str, args: Value) -> f64 {
    let params = CallToolRequestParams::new(name)
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    let started = Instant::now();
    let result = client
        .peer()
        .call_tool(params)
        .await
        .expect("the call is answered");
    let elapsed = started.elapsed().as_secs_f64() * 1e3;
    assert_ne!(
        result.is_error,
        Some(true),
        "{name} failed: {:?}",
        result.content
    );
    elapsed
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The median time of `batch` calls made one after another, over `runs` runs
/// (after a warm-up).
async fn measure(
    runs: usize,
    batch: usize,
    client: &Client,
    name: &'static str,
    args: Value,
) -> f64 {
    for _ in 0..10 {
        call(client, name, args.clone()).await;
    }
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let mut total = 0.0;
        for _ in 0..batch {
            total += call(client, name, args.clone()).await;
        }
        times.push(total);
    }
    median(times)
}

fn main() {
    let calls: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(300);
    let cache = interop_cache();
    let everything = cache.join("node_modules/.bin/mcp-server-everything");
    let codemode = root().join("target/release/codemode");
    assert!(
        codemode.exists(),
        "build it first: cargo build --release -p codemode-cli --features mcp"
    );
    let dir = std::env::temp_dir().join(format!("codemode-mcp-overhead-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let config = dir.join("config.json");
    std::fs::write(
        &config,
        json!({"mcpServers": {"everything": {"command": everything}}}).to_string(),
    )
    .expect("the config is written");
    let config = config.display().to_string();

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    rt.block_on(async {
        let echo = json!({"message": "hello"});
        let direct = connect(&everything, &[]).await;
        let served = connect(&codemode, &["serve", "--config", &config, "--direct", "echo"]).await;
        let served_py = connect(&codemode, &["serve", "--config", &config, "--language", "python"]).await;
        let program = |code: &str| json!({"code": code, "description": "echo"});

        let straight = measure(calls, 1, &direct, "echo", echo.clone()).await;
        let passed = measure(calls, 1, &served, "echo", echo.clone()).await;
        let one_js = measure(calls, 1, &served, "run_code", program(r#"return await tools.echo({message: "hello"});"#)).await;
        let one_py = measure(calls, 1, &served_py, "run_code", program(r#"await tools.echo({"message": "hello"})"#)).await;
        let ten_direct = measure(calls / 10, 10, &direct, "echo", echo.clone()).await;
        let ten_js = measure(
            calls / 10,
            1,
            &served,
            "run_code",
            program(r#"const out = []; for (let i = 0; i < 10; i++) out.push(await tools.echo({message: "hello"})); return out.length;"#),
        )
        .await;

        println!("median of {calls} sequential calls over stdio (ten-call rows: {} runs)", calls / 10);
        println!("| path | median | added by codemode serve |");
        println!("|---|---:|---:|");
        let row = |what: &str, ms: f64, base: f64| {
            println!("| {what} | {ms:.3} ms | {:+.3} ms ({:.2}x) |", ms - base, ms / base);
        };
        println!("| `echo` straight to server-everything | {straight:.3} ms | - |");
        row("`echo` passed through (`--direct`)", passed, straight);
        row("`run_code`, JavaScript, one `echo` call", one_js, straight);
        row("`run_code`, Python, one `echo` call", one_py, straight);
        println!("| ten `echo` calls straight, one after another | {ten_direct:.3} ms | - |");
        row("`run_code`, JavaScript, ten `echo` calls", ten_js, ten_direct);
        for client in [direct, served, served_py] {
            let _ = client.cancel().await;
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}
