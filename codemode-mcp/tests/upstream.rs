//! `McpToolset` against servers that behave and servers that do not: a
//! fixture server of our own (tests/fixtures/server.py), which can exit
//! mid-call, stay silent, send a malformed tool list or change its tools.

use codemode_core::{ErrorKind, Language, Toolset, render};
use codemode_mcp::{
    Collisions, DriftPolicy, McpError, McpToolset, Pin, ServerConfig, ServerState, snapshot_text,
};
use codemode_runtime::{Limits, Runtime};
use serde_json::{Value, json};
use std::time::Duration;

/// The test server (see its modes).
const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/server.py");

fn fixture(name: &str, mode: &str) -> ServerConfig {
    ServerConfig::stdio("python3", [SCRIPT, "--name", name, "--mode", mode])
}

fn names(tools: &McpToolset) -> Vec<String> {
    tools.defs().into_iter().map(|d| d.name).collect()
}

#[tokio::test]
async fn lists_every_page_and_maps_each_kind_of_result() {
    let tools = McpToolset::builder()
        .server(
            "one",
            fixture("one", "normal").with_call_timeout(Duration::from_millis(500)),
        )
        .connect()
        .await
        .unwrap();
    // One server: no prefix. The fixture lists two tools a page.
    assert_eq!(
        names(&tools),
        [
            "add", "deep", "echo", "exit", "fail", "flood", "grow", "hang", "meet", "picture",
            "refuse", "slow"
        ]
    );
    assert_eq!(tools.servers()[0].state, ServerState::Connected);
    let call = |name: &'static str, args: Value| tools.call(name, args);
    assert_eq!(
        call("echo", json!({"message": "hi"})).await.unwrap(),
        json!({"server": "one", "echo": {"message": "hi"}})
    );
    assert_eq!(
        call("add", json!({"a": 2, "b": 3})).await.unwrap(),
        json!({"sum": 5})
    );
    // A result that breaks the declared output schema would reach a
    // program typed as the SDK says it is not.
    let err = call("add", json!({"a": 13, "b": 0})).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidResult);
    assert!(
        err.message.contains("does not match the output schema")
            && err.message.contains("at /sum")
            && err.message.contains(r#"{"sum":"unlucky"}"#),
        "{err}"
    );
    assert_eq!(
        call("picture", json!({})).await.unwrap(),
        json!(["a red dot", {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}])
    );
    let err = call("fail", json!({})).await.unwrap_err();
    assert_eq!(
        (err.kind, err.message.as_str()),
        (ErrorKind::ToolFailed, "one cannot do that")
    );
    let err = call("refuse", json!({})).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::ServerError);
    assert!(
        err.message.contains("refused on purpose") && err.message.contains("-32001"),
        "{err}"
    );
    let err = call("hang", json!({})).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Timeout);
    assert_eq!(
        err.message,
        "the MCP server \"one\" did not answer within 0.5 s"
    );
    let err = call("echo", json!([1])).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidArguments);
    let err = call("nope", json!({})).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnknownTool);
    // The server still answers after all that.
    assert!(call("echo", json!({"message": "again"})).await.is_ok());
}

#[tokio::test]
async fn prefixes_and_collisions_name_both_servers() {
    let tools = McpToolset::builder()
        .server("a", fixture("a", "normal"))
        .server("b-2", fixture("b", "normal"))
        .connect()
        .await
        .unwrap();
    let all = names(&tools);
    assert!(
        all.contains(&"a_echo".to_owned()) && all.contains(&"b-2_echo".to_owned()),
        "{all:?}"
    );
    let out = tools
        .call("b-2_echo", json!({"message": "x"}))
        .await
        .unwrap();
    assert_eq!(out["server"], "b");

    let err = McpToolset::builder()
        .server("a", fixture("a", "normal").with_prefix(""))
        .server("b", fixture("b", "normal").with_prefix(""))
        .connect()
        .await
        .unwrap_err();
    assert_eq!(
        err,
        McpError::Collision {
            tool: "add".into(),
            first: "a".into(),
            second: "b".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "MCP servers \"a\" and \"b\" both provide a tool named \"add\": give one of them a different prefix"
    );
    // Or the first server keeps each contested name.
    let tools = McpToolset::builder()
        .server("a", fixture("a", "normal").with_prefix(""))
        .server("b", fixture("b", "normal").with_prefix(""))
        .collisions(Collisions::KeepFirst)
        .connect()
        .await
        .unwrap();
    let out = tools.call("echo", json!({"message": "x"})).await.unwrap();
    assert_eq!(out["server"], "a");
    assert_eq!(names(&tools).iter().filter(|n| *n == "echo").count(), 1);
}

#[tokio::test]
async fn a_server_that_exits_mid_call_fails_only_its_own_calls_and_starts_again() {
    let tools = McpToolset::builder()
        .server("doomed", fixture("doomed", "normal"))
        .server("steady", fixture("steady", "normal"))
        .connect()
        .await
        .unwrap();
    let err = tools.call("doomed_exit", json!({})).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unavailable, "{err}");
    assert!(
        err.message
            .starts_with("the MCP server \"doomed\" that provides this tool is not running"),
        "{err}"
    );
    assert!(matches!(tools.servers()[0].state, ServerState::Exited(_)));
    let out = tools
        .call("steady_echo", json!({"message": "x"}))
        .await
        .unwrap();
    assert_eq!(out["server"], "steady");
    // The next call to one of its tools starts it again, and is answered.
    let out = tools
        .call("doomed_echo", json!({"message": "x"}))
        .await
        .unwrap();
    assert_eq!(out["server"], "doomed");
    assert_eq!(tools.servers()[0].state, ServerState::Connected);
}

/// The fixture in `mode` with `--marker` set to a fresh path (see the
/// fixture's modes), and that path.
fn marked(name: &str, mode: &str) -> (ServerConfig, std::path::PathBuf) {
    let marker =
        std::env::temp_dir().join(format!("codemode-{mode}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let config = ServerConfig::stdio(
        "python3",
        [SCRIPT, "--name", name, "--mode", mode, "--marker"]
            .into_iter()
            .map(str::to_owned)
            .chain([marker.display().to_string()]),
    );
    (config, marker)
}

/// How many processes of this machine have `text` in their command line.
fn processes_with(text: &str) -> usize {
    std::fs::read_dir("/proc")
        .expect("the processes are listed in /proc")
        .filter_map(|entry| std::fs::read(entry.ok()?.path().join("cmdline")).ok())
        .filter(|line| String::from_utf8_lossy(line).contains(text))
        .count()
}

#[tokio::test]
async fn a_server_that_cannot_start_again_is_tried_again_only_after_a_wait() {
    let (config, marker) = marked("once", "oneshot");
    let tools = McpToolset::builder()
        .server("once", config)
        .connect()
        .await
        .unwrap();
    assert!(tools.call("exit", json!({})).await.is_err());
    // The attempt to start it again crashes: the call says so, and when
    // the next attempt will be.
    let err = tools
        .call("echo", json!({"message": "x"}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unavailable, "{err}");
    assert!(
        err.message
            .contains("it was started again and failed; the next attempt is at a call in 1 s"),
        "{err}"
    );
    // A call within that second is refused at once, without an attempt.
    let started = std::time::Instant::now();
    let err = tools
        .call("echo", json!({"message": "x"}))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_millis(500), "{err}");
    assert!(
        err.message.contains("it is started again at a call in 1 s"),
        "{err}"
    );
    // After it, one more attempt (which fails too) doubles the wait.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let err = tools
        .call("echo", json!({"message": "x"}))
        .await
        .unwrap_err();
    assert!(
        err.message.contains("the next attempt is at a call in 2 s"),
        "{err}"
    );
    assert!(matches!(tools.servers()[0].state, ServerState::Failed(_)));
    let _ = std::fs::remove_file(&marker);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_fails_its_first_start_joins_when_a_later_one_succeeds() {
    let (config, marker) = marked("late", "failfirst");
    let tools = McpToolset::builder()
        .server("late", config)
        .server("good", fixture("good", "normal"))
        .connect()
        .await
        .unwrap();
    let mut changes = tools.changes();
    assert!(matches!(tools.servers()[1].state, ServerState::Failed(_)));
    assert!(names(&tools).iter().all(|n| n.starts_with("good_")));
    // A program that names one of its tools learns why there is none, from
    // the check before the run and from the call.
    let why = "the MCP server \"late\", whose tools would be named \"late_…\", is not running";
    let again = "it is started again in the background";
    let runtime = Runtime::new(tools.clone(), Limits::default());
    let checked = runtime
        .run(
            Language::JavaScript,
            r#"return await tools.late_echo({ message: "x" });"#,
        )
        .await;
    assert!(
        checked
            .diagnostics
            .iter()
            .any(|d| d.message.contains(why) && d.message.contains(again)),
        "{:?}",
        checked.diagnostics
    );
    // Guarded by a `try`, the missing tool may be the program's own probe:
    // the explanation comes as a warning.
    let guarded = runtime
        .run(
            Language::JavaScript,
            r#"try { return await tools.late_echo({ message: "x" }); } catch (e) { return null; }"#,
        )
        .await;
    assert!(
        guarded
            .diagnostics
            .iter()
            .any(|d| d.severity == codemode_core::Severity::Warning && d.message.contains(why)),
        "{:?}",
        guarded.diagnostics
    );
    let called = runtime
        .run(
            Language::JavaScript,
            r#"try { await tools("late_echo", { message: "x" }); return null; } catch (e) { return [e.kind, e.message]; }"#,
        )
        .await;
    assert_eq!(called.value[0], "unknown_tool", "{called:?}");
    let message = called.value[1].as_str().unwrap_or_default();
    assert!(
        message.contains(why) && message.contains(again),
        "{message}"
    );
    drop(runtime);
    // Tried again a second later, it starts: its tools join, and the host
    // is told, with no call made meanwhile.
    tokio::time::timeout(Duration::from_secs(10), changes.wait_for(|v| *v > 0))
        .await
        .expect("the server joins within 10 s")
        .unwrap();
    assert_eq!(tools.servers()[1].state, ServerState::Connected);
    assert!(names(&tools).contains(&"late_echo".to_owned()));
    let out = tools
        .call("late_echo", json!({"message": "x"}))
        .await
        .unwrap();
    assert_eq!(out["server"], "late");
    let _ = std::fs::remove_file(&marker);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_attempts_to_start_a_failed_server_end_with_the_toolset() {
    let (config, marker) = marked("gone", "failfirst");
    let tools = McpToolset::builder()
        .server("gone", config)
        .connect()
        .await
        .unwrap();
    assert!(matches!(tools.servers()[0].state, ServerState::Failed(_)));
    // Its first start made the marker; an attempt after the drop would
    // make it again.
    std::fs::remove_file(&marker).unwrap();
    drop(tools);
    // The first attempt would come after 1 s, the next 2 s later.
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(!marker.exists(), "the server was started after the drop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_stops_waiting_for_a_restart_leaves_it_to_finish() {
    let (config, marker) = marked("slow", "slowagain");
    let tools = McpToolset::builder()
        .server("slow", config)
        .connect()
        .await
        .unwrap();
    assert!(tools.call("exit", json!({})).await.is_err());
    // A run that ends while the server takes 2 s to start again drops its
    // call; the attempt goes on, and a later call finds the server up.
    let dropped = tokio::time::timeout(
        Duration::from_millis(300),
        tools.call("echo", json!({"message": "x"})),
    )
    .await;
    assert!(dropped.is_err());
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(tools.servers()[0].state, ServerState::Connected);
    let out = tools.call("echo", json!({"message": "x"})).await.unwrap();
    assert_eq!(out["server"], "slow");
    let _ = std::fs::remove_file(&marker);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_whose_tools_are_not_taken_ends_that_server() {
    // Started again, `x` also lists `b_echo`: as `x_b_echo`, the name of
    // a tool of the server `x_b`, so its tools are not taken.
    let (config, marker) = marked("x", "renamed");
    let tools = McpToolset::builder()
        .server("x", config)
        .server("x_b", fixture("x_b", "normal"))
        .connect()
        .await
        .unwrap();
    assert!(tools.call("x_exit", json!({})).await.is_err());
    let err = tools
        .call("x_echo", json!({"message": "x"}))
        .await
        .unwrap_err();
    assert!(err.message.contains("its tools were not taken"), "{err}");
    assert!(
        err.message.contains("the next attempt is at a call in 1 s"),
        "{err}"
    );
    // The server it started is ended, not left running beside the next.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let marker_text = marker.display().to_string();
    assert_eq!(processes_with(&marker_text), 0);
    let err = tools
        .call("x_echo", json!({"message": "x"}))
        .await
        .unwrap_err();
    assert!(
        err.message.contains("it is started again at a call in"),
        "{err}"
    );
    assert_eq!(processes_with(&marker_text), 0);
    assert!(
        tools
            .call("x_b_echo", json!({"message": "x"}))
            .await
            .is_ok()
    );
    let _ = std::fs::remove_file(&marker);
}

#[tokio::test]
async fn a_server_that_lists_without_end_is_cut_off() {
    let tools = McpToolset::builder()
        .server("endless", fixture("endless", "endless"))
        .server("good", fixture("good", "normal"))
        .connect_timeout(Duration::from_secs(30))
        .connect()
        .await
        .unwrap();
    let status = tools.servers();
    assert_eq!(
        status[0].state,
        ServerState::Failed(
            "its tool list is past the 20000 tools or 64 MiB a server may list".to_owned()
        )
    );
    assert_eq!(status[1].state, ServerState::Connected);
}

#[tokio::test]
async fn servers_that_never_start_answer_or_list_are_reported_and_isolated() {
    let tools = McpToolset::builder()
        .server("silent", fixture("silent", "silent"))
        .server("crash", fixture("crash", "crash"))
        .server("malformed", fixture("malformed", "malformed"))
        .server(
            "missing",
            ServerConfig::stdio("/nonexistent/mcp-server", Vec::<String>::new()),
        )
        .server("good", fixture("good", "normal"))
        .connect_timeout(Duration::from_secs(2))
        .connect()
        .await
        .unwrap();
    let status: Vec<(String, ServerState)> = tools
        .servers()
        .into_iter()
        .map(|s| (s.name, s.state))
        .collect();
    let why = |name: &str| match &status.iter().find(|(n, _)| n == name).unwrap().1 {
        ServerState::Failed(why) => why.clone(),
        other => panic!("{name}: {other:?}"),
    };
    assert_eq!(
        why("silent"),
        "it did not complete the MCP handshake within 2 s"
    );
    assert_eq!(
        why("crash"),
        "`python3` exited or closed its output before completing the MCP handshake (see its stderr)"
    );
    assert_eq!(
        why("malformed"),
        "its tool list is malformed: tool #0: `name` must be a string, found a number"
    );
    assert!(
        why("missing").starts_with("`/nonexistent/mcp-server` could not be started"),
        "{}",
        why("missing")
    );
    assert!(names(&tools).iter().all(|n| n.starts_with("good_")));
    assert!(
        tools
            .call("good_echo", json!({"message": "x"}))
            .await
            .is_ok()
    );
}

/// The fixture in `mode` as the only server, which must connect, and the
/// names of its tools.
async fn one_connected(mode: &str) -> (McpToolset, Vec<String>) {
    let tools = McpToolset::builder()
        .server(mode, fixture(mode, mode))
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .unwrap();
    let states: Vec<ServerState> = tools.servers().into_iter().map(|s| s.state).collect();
    assert_eq!(states, [ServerState::Connected]);
    let names = names(&tools);
    (tools, names)
}

#[tokio::test]
async fn a_tool_with_a_name_no_program_can_write_is_left_out_alone() {
    let (tools, names) = one_connected("badname").await;
    // One server: its tools keep their names.
    assert_eq!(names.len(), 12, "{names:?}");
    assert!(
        names.iter().all(|n| !n.is_empty() && !n.contains('\n')),
        "{names:?}"
    );
    assert!(tools.call("echo", json!({"message": "x"})).await.is_ok());
}

#[tokio::test]
async fn a_tool_that_cannot_be_read_is_left_out_alone() {
    // A schema of `true` is valid JSON Schema that rmcp's typed list
    // refuses (the whole page with it); the others are no tools at all.
    let (tools, names) = one_connected("oddtools").await;
    assert!(names.contains(&"anything".to_owned()), "{names:?}");
    assert!(!names.contains(&"schemaless".to_owned()), "{names:?}");
    assert_eq!(names.len(), 13, "{names:?}");
    // Its schema admits any value, and the SDK says so.
    let sdk = render(Language::TypeScript, &tools.defs());
    assert!(sdk.contains("anything(args: unknown)"), "{sdk}");
    assert!(tools.call("echo", json!({"message": "x"})).await.is_ok());
}

#[tokio::test]
async fn an_answer_of_the_wrong_shape_fails_its_call_at_once() {
    let tools = McpToolset::builder()
        .server(
            "m",
            fixture("m", "misshape").with_call_timeout(Duration::from_secs(20)),
        )
        .connect()
        .await
        .unwrap();
    // rmcp drops these four; each now fails its call at once, saying why.
    for (shape, why) in [
        ("nojsonrpc", "it does not say `\"jsonrpc\": \"2.0\"`"),
        ("both", "it has both `result` and `error`"),
        ("neither", "it has neither `result` nor `error`"),
        ("errorstring", "its `error` is not an object"),
    ] {
        let started = std::time::Instant::now();
        let err = tools
            .call("echo", json!({"message": shape}))
            .await
            .unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{shape}: {err}"
        );
        assert_eq!(err.kind, ErrorKind::InvalidResult, "{shape}: {err}");
        assert!(
            err.message.contains("is no JSON-RPC 2.0 response") && err.message.contains(why),
            "{shape}: {err}"
        );
    }
    // rmcp reads these (a string id stands for the number), and the result
    // is judged as a tool result.
    let answer = tools.call("echo", json!({"message": "stringid"})).await;
    assert_eq!(answer.unwrap(), json!("x"));
    for shape in ["resultnumber", "contentstring"] {
        let err = tools
            .call("echo", json!({"message": shape}))
            .await
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::ServerError, "{shape}: {err}");
    }
}

#[tokio::test]
async fn numbers_past_the_largest_double_arrive_as_it() {
    // JSON allows `1e400` and lone surrogates; serde_json refuses both, and
    // rmcp would drop the whole message, so the list would never arrive.
    let tools = McpToolset::builder()
        .server("huge", fixture("huge", "huge"))
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .unwrap();
    assert_eq!(tools.servers()[0].state, ServerState::Connected);
    let add = tools.defs().into_iter().find(|d| d.name == "add").unwrap();
    assert_eq!(
        add.input_schema["properties"]["a"]["maximum"],
        json!(f64::MAX)
    );
    // A lone surrogate's escape, which JSON admits and serde_json refuses.
    assert_eq!(add.description.as_deref(), Some("Add two numbers.\u{fffd}"));
    assert_eq!(
        tools.call("add", json!({"a": 1, "b": 2})).await.unwrap(),
        json!({"sum": f64::MAX})
    );
}

#[tokio::test]
async fn a_server_slow_to_list_again_holds_back_no_other_server() {
    let tools = McpToolset::builder()
        .server("slow", fixture("slow", "slowlist"))
        .server("quick", fixture("quick", "normal"))
        .connect()
        .await
        .unwrap();
    let mut changes = tools.changes();
    // The slow server announces a change, and then takes 30 s to list.
    tools.call("slow_grow", json!({})).await.unwrap();
    tools.call("quick_grow", json!({})).await.unwrap();
    tokio::time::timeout(Duration::from_secs(10), changes.changed())
        .await
        .expect("the quick server's change waited for the slow server's list")
        .unwrap();
    assert!(names(&tools).contains(&"quick_extra".to_owned()));
    assert!(!names(&tools).contains(&"slow_extra".to_owned()));
}

#[tokio::test]
async fn a_server_slow_to_start_joins_when_it_is_ready() {
    let started = std::time::Instant::now();
    let tools = McpToolset::builder()
        .server("late", fixture("late", "slowstart"))
        .server("quick", fixture("quick", "normal"))
        .ready_within(Duration::from_millis(2000))
        .connect()
        .await
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_millis(5000),
        "{:?}",
        started.elapsed()
    );
    let states: Vec<ServerState> = tools.servers().into_iter().map(|s| s.state).collect();
    assert_eq!(states, [ServerState::Connecting, ServerState::Connected]);
    assert!(names(&tools).iter().all(|n| n.starts_with("quick_")));
    let mut changes = tools.changes();
    tokio::time::timeout(Duration::from_secs(20), changes.changed())
        .await
        .expect("the late server's tools never joined")
        .unwrap();
    assert_eq!(tools.servers()[0].state, ServerState::Connected);
    let out = tools
        .call("late_echo", json!({"message": "x"}))
        .await
        .unwrap();
    assert_eq!(out["server"], "late");
}

/// Calls `tool`, whose answer rmcp cannot read, and checks that the call
/// fails at once (not at its timeout) with a message holding `reason`,
/// and that the connection still works after it.
async fn an_unreadable_answer_fails_its_call_at_once(tool: &str, reason: &str) {
    let tools = McpToolset::builder()
        .server(
            "one",
            fixture("one", "normal").with_call_timeout(Duration::from_secs(60)),
        )
        .connect()
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let err = tools.call(tool, json!({})).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidResult, "{err}");
    assert!(err.message.contains(reason), "{err}");
    // Said as codemode's refusal of the answer, not the server's of the call.
    assert!(
        err.message.starts_with(
            "the answer of the MCP server \"one\" cannot be read: the server's answer"
        ),
        "{err}"
    );
    // Not the call timeout: the answer was read to its end, then refused.
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    let out = tools.call("echo", json!({"message": "x"})).await.unwrap();
    assert_eq!(out["echo"]["message"], "x");
}

#[tokio::test]
async fn an_answer_nested_too_deep_to_read_fails_its_call_at_once() {
    an_unreadable_answer_fails_its_call_at_once(
        "deep",
        "nests arrays and objects 303 levels deep, past the 127",
    )
    .await;
}

#[tokio::test]
async fn an_answer_too_long_to_read_fails_its_call_at_once() {
    an_unreadable_answer_fails_its_call_at_once("flood", "past the 16 MiB a message may take")
        .await;
}

#[tokio::test]
async fn a_list_change_refreshes_the_sdk_and_tells_the_host() {
    let tools = McpToolset::builder()
        .server("one", fixture("one", "normal"))
        .connect()
        .await
        .unwrap();
    let before = (
        tools.fingerprint(),
        render(Language::TypeScript, &tools.defs()),
    );
    let mut changes = tools.changes();
    assert_eq!(tools.version(), 0);
    tools.call("grow", json!({})).await.unwrap();
    tokio::time::timeout(Duration::from_secs(10), changes.changed())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(*changes.borrow(), 1);
    assert_eq!(tools.version(), 1);
    assert!(names(&tools).contains(&"extra".to_owned()));
    assert_ne!(tools.fingerprint(), before.0);
    let after = render(Language::TypeScript, &tools.defs());
    assert!(after.contains("  extra(args") && !before.1.contains("  extra(args"));
    assert_eq!(
        tools.call("extra", json!({})).await.unwrap(),
        json!("extra")
    );
}

#[tokio::test]
async fn a_pinned_server_keeps_its_sdk_and_reports_drift() {
    // A snapshot of the live list, then one with a tool taken out.
    let live = McpToolset::builder()
        .server("one", fixture("one", "normal"))
        .connect()
        .await
        .unwrap();
    let mut tools = live.live_tools("one").unwrap();
    let exact = Pin::from_snapshot("one.json", &snapshot_text(&tools)).unwrap();
    tools.retain(|t| t.name != "picture");
    let stale = Pin::from_snapshot("one.json", &snapshot_text(&tools)).unwrap();

    let pinned = McpToolset::builder()
        .server("one", fixture("one", "normal"))
        .pin("one", exact)
        .drift_policy(DriftPolicy::Error)
        .connect()
        .await
        .unwrap();
    assert_eq!(pinned.servers()[0].drift, None);
    assert_eq!(pinned.fingerprint(), live.fingerprint());

    let warned = McpToolset::builder()
        .server("one", fixture("one", "normal"))
        .pin("one", stale.clone())
        .connect()
        .await
        .unwrap();
    let drift = warned.servers()[0].drift.clone().unwrap();
    assert_eq!(drift.added, ["picture"]);
    // The SDK is the pinned one, and calls still reach the server.
    assert!(!names(&warned).contains(&"picture".to_owned()));
    assert!(warned.call("echo", json!({"message": "x"})).await.is_ok());
    assert!(drift.to_string().contains("added: picture"), "{drift}");

    let refused = McpToolset::builder()
        .server("one", fixture("one", "normal"))
        .pin("one", stale)
        .drift_policy(DriftPolicy::Error)
        .connect()
        .await
        .unwrap_err();
    assert!(matches!(refused, McpError::Drift(_)), "{refused}");
}

#[tokio::test]
async fn a_pinned_server_that_fails_to_start_fails_its_calls_as_unavailable() {
    let snapshot = r#"{"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}"#;
    let tools = McpToolset::builder()
        .server("down", fixture("down", "crash"))
        .pin("down", Pin::from_snapshot("down.json", snapshot).unwrap())
        .connect()
        .await
        .unwrap();
    assert_eq!(names(&tools), ["echo"]);
    let err = tools.call("echo", json!({})).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unavailable);
    assert!(err.message.contains("\"down\""), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_calls_two_servers_concurrently_and_catches_a_failure() {
    let tools = McpToolset::builder()
        .server("left", fixture("left", "normal"))
        .server("right", fixture("right", "normal"))
        .connect()
        .await
        .unwrap();
    let runtime = Runtime::new(tools, Limits::default());
    // Each `meet` call waits for the other: they finish only if they overlap.
    let dir = std::env::temp_dir().join(format!("codemode-meet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let program = format!(
        r#"
        const dir = {dir:?};
        const [a, b] = await Promise.all([
            tools.left_meet({{ dir, count: 2 }}),
            tools.right_meet({{ dir, count: 2 }}),
        ]);
        let caught = null;
        try {{ await tools.right_fail({{}}); }} catch (e) {{ caught = [e.kind, e.toolName, e.message]; }}
        const sum = await tools.left_add({{ a: 1, b: 2 }});
        return {{ met: [a.server, a.met, b.server, b.met], caught, sum: sum.sum }};
    "#,
        dir = dir.display().to_string()
    );
    let outcome = runtime.run(Language::JavaScript, &program).await;
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(outcome.error, None);
    assert_eq!(
        outcome.value,
        json!({"met": ["left", true, "right", true], "caught": ["tool_failed", "right_fail", "right cannot do that"], "sum": 3})
    );
}

#[tokio::test]
async fn constants_from_codemode_build_pin_the_live_server() {
    // What a build script does with a vendored snapshot, then what the app
    // does with the constants it wrote.
    let live = McpToolset::builder()
        .server("one", fixture("one", "normal"))
        .connect()
        .await
        .unwrap();
    let dir = std::env::temp_dir().join(format!("codemode-pin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("one.json"),
        snapshot_text(&live.live_tools("one").unwrap()),
    )
    .unwrap();
    let artifacts = codemode_build::Sdk::new()
        .mcp_snapshot(codemode_build::McpSnapshot::new(
            "one",
            dir.join("one.json"),
        ))
        .render()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let server = &artifacts.mcp[0];
    let pin = Pin::new("one", &server.snapshot, &server.fingerprint)
        .unwrap()
        .with_prefix(&server.prefix);
    // Built for a lone server (no prefix), run beside another: refused, not
    // left to fail every call as an unknown tool.
    let err = McpToolset::builder()
        .server("one", fixture("one", "normal"))
        .server("two", fixture("two", "normal"))
        .pin("one", pin.clone())
        .connect()
        .await
        .unwrap_err();
    assert_eq!(
        err,
        McpError::PinPrefix {
            server: "one".into(),
            pinned: "".into(),
            actual: "one_".into()
        }
    );
    let pinned = McpToolset::builder()
        .server("one", fixture("one", "normal"))
        .pin("one", pin)
        .drift_policy(DriftPolicy::Error)
        .connect()
        .await
        .unwrap();
    // The compiled SDK is the SDK the toolset declares, byte for byte.
    assert_eq!(
        artifacts.typescript.as_deref(),
        Some(render(Language::TypeScript, &pinned.defs()).as_str())
    );
    assert_eq!(artifacts.fingerprint, pinned.fingerprint());
    assert_eq!(pinned.servers()[0].drift, None);
}

/// The streamable HTTP fixture (tests/fixtures/http_server.py), started on
/// a free loopback port, and its endpoint.
async fn http_fixture() -> (tokio::process::Child, String) {
    use tokio::io::AsyncBufReadExt;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/http_server.py");
    let mut child = tokio::process::Command::new("python3")
        .arg(script)
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("python3 runs the HTTP fixture");
    let stdout = child.stdout.take().unwrap();
    let mut port = String::new();
    tokio::io::BufReader::new(stdout)
        .read_line(&mut port)
        .await
        .unwrap();
    (child, format!("http://127.0.0.1:{}/mcp", port.trim()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_server_s_unreadable_answer_fails_its_call_at_once() {
    let (_server, url) = http_fixture().await;
    let tools = McpToolset::builder()
        .server(
            "web",
            ServerConfig::http(url).with_call_timeout(Duration::from_secs(20)),
        )
        .connect()
        .await
        .unwrap();
    assert_eq!(names(&tools), ["echo"]);
    let call = |message: String| {
        let tools = &tools;
        async move {
            let started = std::time::Instant::now();
            let out = tools.call("echo", json!({ "message": message })).await;
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "{message} waited for the timeout"
            );
            out
        }
    };
    assert_eq!(call("hi".into()).await.unwrap(), json!("hi"));
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    for (message, why) in [
        (
            r#"sse:{"id": ID, "result": {"content": []}}"#.to_owned(),
            "it does not say `\"jsonrpc\": \"2.0\"`",
        ),
        (
            r#"sse:{"jsonrpc": "2.0", "id": ID, "result": {"content": []}, "error": {"code": 1, "message": "m"}}"#.to_owned(),
            "it has both `result` and `error`",
        ),
        (
            format!(
                r#"sse:{{"jsonrpc": "2.0", "id": ID, "result": {{"content": [], "structuredContent": {{"a": {deep}}}}}}}"#
            ),
            "nests arrays and objects",
        ),
        (
            r#"json:{"id": ID, "result": {"content": []}}"#.to_owned(),
            "no JSON-RPC 2.0 response",
        ),
    ] {
        let err = call(message.clone()).await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidResult, "{message}: {err}");
        assert!(
            err.message
                .starts_with("the answer of the MCP server \"web\" cannot be read: ")
                && err.message.contains(why),
            "{message}: {err}"
        );
    }
    // A number past the largest double arrives as it, as over stdio.
    let huge = call(
        r#"sse:{"jsonrpc": "2.0", "id": ID, "result": {"content": [], "structuredContent": {"n": 1e400}}}"#
            .into(),
    )
    .await
    .unwrap();
    assert_eq!(huge, json!({"n": f64::MAX}));
}
