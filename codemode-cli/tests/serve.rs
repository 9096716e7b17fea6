//! `codemode serve` and `codemode snapshot`, driven by a real MCP client
//! (rmcp's), in front of the fixture server and real servers from npm.

use rmcp::model::{
    CallToolRequestParams, CallToolResult, NumberOrString, ProgressNotificationParam,
    ProgressToken, RequestMetaObject,
};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const CODEMODE: &str = env!("CARGO_BIN_EXE_codemode");

/// A client that records what the server tells it.
#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<String>>>,
    list_changed: Arc<tokio::sync::Notify>,
}

impl Recorder {
    /// The progress messages, once `count` have arrived (or after 10 s).
    /// The server sends them before the result, but the client hands each
    /// notification to its handler on a task of its own, so the last can
    /// land just after the result does.
    async fn progress_after(&self, count: usize) -> Vec<String> {
        for _ in 0..1000 {
            let progress = self.progress.lock().unwrap().clone();
            if progress.len() >= count {
                return progress;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        self.progress.lock().unwrap().clone()
    }
}

impl ClientHandler for Recorder {
    fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + Send + '_ {
        self.progress
            .lock()
            .unwrap()
            .push(params.message.unwrap_or_default());
        std::future::ready(())
    }

    fn on_tool_list_changed(
        &self,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + Send + '_ {
        self.list_changed.notify_one();
        std::future::ready(())
    }
}

type Client = RunningService<RoleClient, Recorder>;

/// A scratch directory, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("codemode-serve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fixture_entry(name: &str) -> Value {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../codemode-mcp/tests/fixtures/server.py");
    json!({"command": "python3", "args": [script, "--name", name]})
}

async fn start(args: &[&str]) -> (Client, Recorder) {
    let recorder = Recorder::default();
    let mut command = tokio::process::Command::new(CODEMODE);
    command.arg("serve").args(args);
    let transport = rmcp::transport::TokioChildProcess::new(command).unwrap();
    let client = recorder.clone().serve(transport).await.unwrap();
    (client, recorder)
}

async fn run_code(client: &Client, code: &str, progress: bool) -> CallToolResult {
    let mut params = CallToolRequestParams::new("run_code").with_arguments(
        json!({"code": code, "description": "a test program"})
            .as_object()
            .unwrap()
            .clone(),
    );
    if progress {
        let mut meta = RequestMetaObject::default();
        meta.set_progress_token(ProgressToken(NumberOrString::Number(7)));
        params.meta = Some(meta);
    }
    client.peer().call_tool(params).await.unwrap()
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

async fn description(client: &Client, tool: &str) -> String {
    let tools = client.peer().list_all_tools().await.unwrap();
    let tool = tools.iter().find(|t| t.name == tool).unwrap();
    tool.description.clone().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_run_code_over_stdio_in_front_of_two_servers() {
    let dir = Scratch::new("stdio");
    let config = dir.write(
        "config.json",
        &json!({"mcpServers": {"left": fixture_entry("left"), "right": fixture_entry("right")}})
            .to_string(),
    );
    let (client, recorder) = start(&[
        "--config",
        config.to_str().unwrap(),
        "--direct",
        "left_add",
        "--direct",
        "left_hang",
        "--call-timeout-ms",
        "1500",
    ])
    .await;

    let tools = client.peer().list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["run_code", "left_add", "left_hang"]);
    // Listed with its outputSchema, which its structured result then fits.
    assert!(tools[1].output_schema.is_some(), "{:?}", tools[1]);
    let sdk = description(&client, "run_code").await;
    assert!(
        sdk.contains(r#"left_echo(args: { message: string })"#),
        "{sdk}"
    );
    assert!(sdk.contains("  right_meet(args"), "{sdk}");

    // Calls to two servers, concurrently (each `meet` waits for the other),
    // and a failure the program catches.
    let meet = Scratch::new("stdio-meet");
    let program = format!(
        r#"const dir = {:?};
        const [a, b] = await Promise.all([tools.left_meet({{ dir, count: 2 }}), tools.right_meet({{ dir, count: 2 }})]);
        let caught = null;
        try {{ await tools.right_fail({{}}); }} catch (e) {{ caught = e.kind + ": " + e.message; }}
        console.log("done");
        return {{ met: a.met && b.met, servers: [a.server, b.server], caught }};"#,
        meet.0.display().to_string()
    );
    let result = run_code(&client, &program, true).await;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    assert_eq!(
        result.structured_content,
        Some(
            json!({"result": {"met": true, "servers": ["left", "right"], "caught": "tool_failed: right cannot do that"}})
        )
    );
    assert!(text(&result).contains("done"), "{}", text(&result));
    let mut progress = recorder.progress_after(3).await;
    progress.sort();
    assert_eq!(
        progress,
        [
            "called left_meet",
            "called right_fail: failed (tool_failed)",
            "called right_meet"
        ]
    );

    // A failed run is an error result that says where.
    let result = run_code(&client, "const x = 1;\nnull.boom;", false).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("line 2"), "{}", text(&result));

    // The direct tool, straight through.
    let direct = client
        .peer()
        .call_tool(
            CallToolRequestParams::new("left_add")
                .with_arguments(json!({"a": 2, "b": 5}).as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    assert_eq!(direct.structured_content, Some(json!({"sum": 7})));
    // A direct call is bound by the per-call limit as a program's call is.
    let hung = client
        .peer()
        .call_tool(CallToolRequestParams::new("left_hang"))
        .await
        .unwrap();
    assert_eq!(hung.is_error, Some(true));
    assert!(
        text(&hung).contains("timeout") && text(&hung).contains("1500 ms"),
        "{}",
        text(&hung)
    );

    // An upstream list change reaches the client, and the SDK shows it.
    let result = run_code(&client, "return await tools.right_grow({});", false).await;
    assert_eq!(result.structured_content, Some(json!({"result": "grown"})));
    tokio::time::timeout(Duration::from_secs(10), recorder.list_changed.notified())
        .await
        .unwrap();
    assert!(
        description(&client, "run_code")
            .await
            .contains("  right_extra(args")
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_python_programs_over_streamable_http_on_loopback() {
    let dir = Scratch::new("http");
    let config = dir.write(
        "config.json",
        &json!({"mcpServers": {"one": fixture_entry("one")}}).to_string(),
    );
    let (mut child, url) = serve_http(&config, &["--language", "python", "--check", "deny"]).await;
    let _ = rustls::crypto::ring::default_provider().install_default();
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url.as_str());
    let client = Recorder::default().serve(transport).await.unwrap();
    let sdk = description(&client, "run_code").await;
    assert!(
        sdk.contains("async def echo(self, *, message: str"),
        "{sdk}"
    );
    let program = "import asyncio\nfirst, second = await asyncio.gather(tools.echo(message='a'), tools.add({'a': 1, 'b': 2}))\n{'echo': first['echo']['message'], 'sum': second['sum']}";
    let result = run_code(&client, program, false).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"result": {"echo": "a", "sum": 3}})),
        "{}",
        text(&result)
    );
    // Under `--check deny`, a program the check finds an error in does not
    // run, and the model reads every finding.
    let result = run_code(
        &client,
        "await tools.echo({'message': 'a'})\nawait tools.ehco({})",
        false,
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let said = text(&result);
    assert!(
        said.contains("check_failed") && said.contains("did you mean tools.echo?"),
        "{said}"
    );
    client.cancel().await.unwrap();
    let _ = child.kill().await;
}

/// Starts `codemode serve --config CONFIG --http 127.0.0.1:0 EXTRA...` and
/// returns it with the URL it says it listens at.
async fn serve_http(config: &Path, extra: &[&str]) -> (tokio::process::Child, String) {
    let mut child = tokio::process::Command::new(CODEMODE)
        .args([
            "serve",
            "--config",
            config.to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
        ])
        .args(extra)
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let url = listening_url(&mut child).await;
    (child, url)
}

/// Reads `codemode serve --http`'s stderr until it says where it listens
/// (then keeps draining it).
async fn listening_url(child: &mut tokio::process::Child) -> String {
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let url = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(url) = line.strip_prefix("codemode: serving MCP at ") {
                return url.to_owned();
            }
        }
        panic!("the server ended without saying where it listens");
    })
    .await
    .unwrap();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    url
}

/// Runs `codemode ARGS` to its end, with nothing on its standard input.
fn codemode(args: &[&str]) -> std::process::Output {
    Command::new(CODEMODE)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn refuses_bad_configs_and_non_loopback_addresses_with_exit_2() {
    let dir = Scratch::new("bad");
    let bad = dir.write(
        "bad.json",
        r#"{"mcpServers": {"x": {"command": "srv", "args": "-v"}}}"#,
    );
    let out = codemode(&["serve", "--config", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.json: mcpServers.x.args: must be an array of strings, found a string"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    let good = dir.write(
        "good.json",
        &json!({"mcpServers": {"one": fixture_entry("one")}}).to_string(),
    );
    let out = codemode(&[
        "serve",
        "--config",
        good.to_str().unwrap(),
        "--http",
        "0.0.0.0:0",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("listen on a loopback address"));

    let out = codemode(&[
        "serve",
        "--config",
        good.to_str().unwrap(),
        "--direct",
        "nope",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--direct nope: no upstream server provides a tool by that name"),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn snapshots_pin_the_sdk_and_drift_is_refused_by_policy() {
    let dir = Scratch::new("snapshot");
    let config = dir.write(
        "config.json",
        &json!({"mcpServers": {"one": fixture_entry("one")}}).to_string(),
    );
    let out_dir = dir.0.join("snapshots");
    let out = codemode(&[
        "snapshot",
        "--config",
        config.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let snapshot = std::fs::read_to_string(out_dir.join("one.json")).unwrap();
    let listed: Value = serde_json::from_str(&snapshot).unwrap();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "add", "deep", "echo", "exit", "fail", "flood", "grow", "hang", "meet", "picture",
            "refuse", "slow"
        ]
    );
    // The same servers give the same bytes.
    let again = codemode(&[
        "snapshot",
        "--config",
        config.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_to_string(out_dir.join("one.json")).unwrap(),
        snapshot
    );

    // A snapshot that no longer matches: refused under --drift error.
    let mut edited = listed.clone();
    edited["tools"]
        .as_array_mut()
        .unwrap()
        .retain(|t| t["name"] != "slow");
    std::fs::write(
        out_dir.join("one.json"),
        serde_json::to_string(&edited).unwrap(),
    )
    .unwrap();
    let out = codemode(&[
        "serve",
        "--config",
        config.to_str().unwrap(),
        "--pinned",
        out_dir.to_str().unwrap(),
        "--drift",
        "error",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("differ from its pinned snapshot") && stderr.contains("added: slow"),
        "{stderr}"
    );
}

#[path = "../../tests/support/interop.rs"]
mod interop;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_real_npm_servers_to_a_real_client() {
    let dir = Scratch::new("real");
    std::fs::create_dir_all(dir.0.join("files")).unwrap();
    std::fs::write(dir.0.join("files/plan.txt"), "ship it\n").unwrap();
    let files = dir.0.join("files").canonicalize().unwrap();
    let config = dir.write(
        "config.json",
        &json!({"mcpServers": {
            "everything": {"command": interop::bin("mcp-server-everything")},
            "memory": {"command": interop::bin("mcp-server-memory"), "env": {"MEMORY_FILE_PATH": dir.0.join("memory.jsonl")}},
            "files": {"command": interop::bin("mcp-server-filesystem"), "args": [files], "codemode": {"prefix": "fs_"}},
        }})
        .to_string(),
    );
    let (client, recorder) = start(&[
        "--config",
        config.to_str().unwrap(),
        "--direct",
        "everything_echo",
    ])
    .await;
    let names: Vec<String> = client
        .peer()
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["run_code", "everything_echo"]);
    let program = format!(
        r#"const [plan, echo] = await Promise.all([
            tools.fs_read_text_file({{ path: {path:?} }}),
            tools.everything_echo({{ message: "hi" }}),
        ]);
        await tools.memory_create_entities({{ entities: [{{ name: "plan", entityType: "note", observations: [plan.content.trim()] }}] }});
        let caught = null;
        try {{ await tools.fs_read_text_file({{ path: "/etc/hostname" }}); }} catch (e) {{ caught = e.kind; }}
        const found = await tools.memory_search_nodes({{ query: "ship" }});
        return {{ echo, found: found.entities.map((e) => e.name), caught }};"#,
        path = files.join("plan.txt").display().to_string()
    );
    let result = run_code(&client, &program, true).await;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    assert_eq!(
        result.structured_content,
        Some(json!({"result": {"echo": "Echo: hi", "found": ["plan"], "caught": "tool_failed"}}))
    );
    assert_eq!(recorder.progress_after(5).await.len(), 5);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_toolset_reaches_a_server_over_streamable_http() {
    // `codemode serve --http` is the upstream here: a real streamable HTTP
    // MCP server, in front of the fixture.
    let dir = Scratch::new("http-upstream");
    let config = dir.write(
        "config.json",
        &json!({"mcpServers": {"one": fixture_entry("one")}}).to_string(),
    );
    let (mut child, url) = serve_http(&config, &[]).await;
    let upstream = codemode::mcp::McpToolset::builder()
        .server(
            "remote",
            codemode::mcp::ServerConfig::http(url).with_var("X-Trace", "codemode-test"),
        )
        .connect()
        .await
        .unwrap();
    use codemode::Toolset;
    let names: Vec<String> = upstream.defs().into_iter().map(|d| d.name).collect();
    assert_eq!(names, ["run_code"]);
    let out = upstream
        .call(
            "run_code",
            json!({"code": "return (await tools.add({a: 20, b: 22})).sum;", "description": "add"}),
        )
        .await
        .unwrap();
    assert_eq!(out, json!({"result": 42}));
    let err = upstream
        .call(
            "run_code",
            json!({"code": "throw new Error('no');", "description": "fail"}),
        )
        .await
        .unwrap_err();
    assert_eq!(err.kind, codemode::ErrorKind::ToolFailed);
    assert!(err.message.contains("no"), "{err}");
    drop(upstream);
    let _ = child.kill().await;
}

/// Sends one HTTP request on a new connection and reads its status line and
/// headers; the connection is returned open, with the body unread.
fn http_request(authority: &str, head: &str, body: &str) -> (std::net::TcpStream, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "{head}\r\nHost: {authority}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut headers = Vec::new();
    let mut byte = [0u8; 1];
    while !headers.ends_with(b"\r\n\r\n") {
        assert_eq!(
            stream.read(&mut byte).unwrap(),
            1,
            "the response ended early"
        );
        headers.push(byte[0]);
    }
    (stream, String::from_utf8(headers).unwrap())
}

/// Serves one fixture server over HTTP with `extra` flags, in a scratch
/// folder named `name`; gives the folder (to keep), the process and the
/// server's `host:port`.
async fn serve_fixture_http(
    name: &str,
    extra: &[&str],
) -> (Scratch, tokio::process::Child, String) {
    let dir = Scratch::new(name);
    let config = dir.write(
        "config.json",
        &json!({"mcpServers": {"one": fixture_entry("one")}}).to_string(),
    );
    let (child, url) = serve_http(&config, extra).await;
    let authority = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    (dir, child, authority)
}

/// The head of a JSON-RPC POST to `/mcp`, before `Host`.
const POST: &str = "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream";

/// An `initialize` request's body.
fn initialize_body() -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}})
    .to_string()
}

/// The `Mcp-Session-Id` among `headers`.
fn session_of(headers: &str) -> Option<String> {
    headers.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("mcp-session-id")
            .then(|| value.trim().to_owned())
    })
}

#[tokio::test]
async fn sessions_past_the_cap_are_refused_until_one_ends() {
    let (_dir, mut child, authority) =
        serve_fixture_http("http-cap", &["--max-sessions", "2"]).await;
    tokio::task::spawn_blocking(move || {
        use std::io::Read;
        let post = &format!("{POST}\r\nConnection: close");
        let initialize = initialize_body();
        let mut sessions = Vec::new();
        for _ in 0..2 {
            let (_, headers) = http_request(&authority, post, &initialize);
            assert!(headers.starts_with("HTTP/1.1 200"), "{headers}");
            sessions.push(session_of(&headers).unwrap());
        }
        let (mut refused, headers) = http_request(&authority, post, &initialize);
        assert!(headers.starts_with("HTTP/1.1 500"), "{headers}");
        let mut body = String::new();
        refused.read_to_string(&mut body).unwrap();
        assert!(
            body.contains("this server has 2 sessions open, as many as it keeps"),
            "{body}"
        );
        // A client that ends its session makes room for another.
        let delete = format!(
            "DELETE /mcp HTTP/1.1\r\nMcp-Session-Id: {}\r\nConnection: close",
            sessions[0]
        );
        let (_, headers) = http_request(&authority, &delete, "");
        assert!(headers.starts_with("HTTP/1.1 2"), "{headers}");
        let (_, headers) = http_request(&authority, post, &initialize);
        assert!(headers.starts_with("HTTP/1.1 200"), "{headers}");
    })
    .await
    .unwrap();
    let _ = child.kill().await;
}

#[tokio::test]
async fn an_interrupt_ends_the_http_server_though_a_client_keeps_its_stream_open() {
    let (_dir, mut child, authority) =
        serve_fixture_http("http-stop", &["--timeout-ms", "1000"]).await;
    let stream = tokio::task::spawn_blocking(move || {
        let (_, headers) = http_request(&authority, POST, &initialize_body());
        let session = session_of(&headers).unwrap_or_else(|| panic!("no session: {headers}"));
        let session_head = format!("{POST}\r\nMcp-Session-Id: {session}");
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        http_request(&authority, &session_head, &initialized.to_string());
        // The stream a client keeps open for the server's notifications.
        let get =
            format!("GET /mcp HTTP/1.1\r\nAccept: text/event-stream\r\nMcp-Session-Id: {session}");
        let (stream, headers) = http_request(&authority, &get, "");
        assert!(headers.starts_with("HTTP/1.1 200"), "{headers}");
        stream
    })
    .await
    .unwrap();
    let pid = child.id().unwrap().to_string();
    assert!(
        std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    // The run timeout (1 s) and a second for requests in flight, then the
    // sessions end, with their streams.
    let status = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("the server kept running while a client's stream was open")
        .unwrap();
    assert!(status.success(), "{status}");
    drop(stream);
}

/// A session the client ends (HTTP DELETE) stops its running program at
/// once, and with it frees its slot: with one slot, another session's
/// program runs within moments, not after the run's timeout or rmcp's wait
/// for answers in flight (5 s).
#[tokio::test]
async fn ending_a_session_stops_its_programs() {
    let (_dir, mut child, authority) =
        serve_fixture_http("http-end", &["--max-runs", "1", "--timeout-ms", "30000"]).await;
    tokio::task::spawn_blocking(move || {
        use std::io::Read;
        let open = || {
            let (_, headers) = http_request(&authority, POST, &initialize_body());
            let session = session_of(&headers).unwrap_or_else(|| panic!("no session: {headers}"));
            let head = format!("{POST}\r\nMcp-Session-Id: {session}");
            let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            http_request(&authority, &head, &initialized.to_string());
            (session, head)
        };
        let call = |code: &str| {
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "run_code", "arguments": {"code": code, "description": "test"}}})
            .to_string()
        };
        let (first, first_head) = open();
        let (_spinning, headers) = http_request(&authority, &first_head, &call("while (true) {}"));
        assert!(headers.starts_with("HTTP/1.1 200"), "{headers}");
        // The program has its slot once the server has read the request.
        std::thread::sleep(Duration::from_millis(300));
        let delete =
            format!("DELETE /mcp HTTP/1.1\r\nMcp-Session-Id: {first}\r\nConnection: close");
        let (_, headers) = http_request(&authority, &delete, "");
        assert!(headers.starts_with("HTTP/1.1 2"), "{headers}");
        let ended = std::time::Instant::now();
        let (_, second_head) = open();
        let (mut answer, headers) = http_request(
            &authority,
            &format!("{second_head}\r\nConnection: close"),
            &call("return 6;"),
        );
        assert!(headers.starts_with("HTTP/1.1 200"), "{headers}");
        let mut body = String::new();
        let _ = answer.read_to_string(&mut body);
        assert!(body.contains(r#""result":6"#), "{body}");
        assert!(
            ended.elapsed() < Duration::from_secs(3),
            "{:?}",
            ended.elapsed()
        );
    })
    .await
    .unwrap();
    let _ = child.kill().await;
}

#[tokio::test]
async fn programs_past_max_runs_wait_for_a_slot() {
    let dir = Scratch::new("max-runs");
    let config = dir.write(
        "config.json",
        &json!({"mcpServers": {"one": fixture_entry("one")}}).to_string(),
    );
    let (client, _) = start(&[
        "--config",
        config.to_str().unwrap(),
        "--max-runs",
        "1",
        "--timeout-ms",
        "5000",
    ])
    .await;
    let program = "return (await tools.slow({ ms: 600 })).slept;";
    let started = std::time::Instant::now();
    let (first, second) = tokio::join!(
        run_code(&client, program, false),
        run_code(&client, program, false)
    );
    for result in [&first, &second] {
        assert_eq!(
            result.structured_content,
            Some(json!({"result": 600})),
            "{}",
            text(result)
        );
    }
    // One at a time: the second program ran after the first had ended.
    assert!(
        started.elapsed() >= Duration::from_millis(1200),
        "{:?}",
        started.elapsed()
    );
    client.cancel().await.unwrap();
}

/// A client's request that strict JSON refuses but JavaScript reads (a
/// lone surrogate's escape, as `JSON.stringify` writes a string cut inside
/// an emoji; bytes that are no UTF-8) is read as JavaScript reads it and
/// answered, where it was dropped unanswered and its client waited.
#[test]
fn requests_with_lone_surrogates_or_bad_bytes_are_answered() {
    use std::io::{BufRead, Write};
    let dir = Scratch::new("mend");
    let config = dir.write(
        "mcp.json",
        &json!({"mcpServers": {"a": fixture_entry("a")}}).to_string(),
    );
    let mut child = Command::new(CODEMODE)
        .args(["serve", "--config"])
        .arg(&config)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines, answers) = std::sync::mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let Ok(message) = serde_json::from_str(&line) else {
                continue;
            };
            if lines.send(message).is_err() {
                break;
            }
        }
    });
    let mut send = |bytes: &[u8]| {
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    // Answers by id, kept as they come (two runs may end in either order).
    let mut got = std::collections::BTreeMap::new();
    let mut answer = |id: u64| loop {
        if let Some(message) = got.remove(&id) {
            break message;
        }
        let message = answers
            .recv_timeout(Duration::from_secs(60))
            .expect("an answer");
        if let Some(n) = message["id"].as_u64() {
            got.insert(n, message);
        }
    };
    send(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#);
    answer(1);
    send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send(br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"return '\ud83d' + 'x';"}}}"#);
    let mut bad = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"run_code","arguments":{"code":"return 'caf"#.to_vec();
    bad.extend(b"\xff';\"}}}");
    send(&bad);
    for (id, want) in [(2, "\u{fffd}x"), (3, "caf\u{fffd}")] {
        let message = answer(id);
        let text = message["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(text.contains(want), "{message}");
    }
    let _ = child.kill();
    let _ = child.wait();
}
