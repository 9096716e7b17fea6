//! `McpToolset` against real MCP servers installed from npm at pinned
//! versions (tests/interop/package.json): server-everything, server-memory
//! and server-filesystem.

#[path = "../../tests/support/interop.rs"]
mod interop;

use codemode_core::{ErrorKind, Language, Toolset};
use codemode_mcp::{McpToolset, ServerConfig};
use codemode_runtime::{Limits, Runtime};
use serde_json::json;

async fn connect(scratch: &std::path::Path) -> McpToolset {
    let toolset = McpToolset::builder()
        .server(
            "everything",
            ServerConfig::stdio(interop::bin("mcp-server-everything"), Vec::<String>::new()),
        )
        .server(
            "memory",
            ServerConfig::stdio(interop::bin("mcp-server-memory"), Vec::<String>::new()).with_var(
                "MEMORY_FILE_PATH",
                scratch.join("memory.jsonl").display().to_string(),
            ),
        )
        .server(
            "files",
            ServerConfig::stdio(
                interop::bin("mcp-server-filesystem"),
                [scratch.display().to_string()],
            )
            .with_prefix("fs_"),
        )
        .connect()
        .await
        .unwrap();
    for status in toolset.servers() {
        assert_eq!(
            status.state,
            codemode_mcp::ServerState::Connected,
            "{status:?}"
        );
        assert!(status.tools > 0, "{status:?}");
    }
    toolset
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_servers_answer_through_the_toolset() {
    let scratch = tempdir("toolset");
    let tools = connect(&scratch).await;
    let names: Vec<String> = tools.defs().into_iter().map(|d| d.name).collect();
    for name in [
        "everything_echo",
        "everything_get-sum",
        "memory_read_graph",
        "fs_read_text_file",
    ] {
        assert!(
            names.contains(&name.to_owned()),
            "{name} is missing from {names:?}"
        );
    }
    let echo = tools
        .call("everything_echo", json!({"message": "hi"}))
        .await
        .unwrap();
    assert_eq!(echo, json!("Echo: hi"));
    // structuredContent wins over the text.
    let weather = tools
        .call(
            "everything_get-structured-content",
            json!({"location": "Chicago"}),
        )
        .await
        .unwrap();
    assert!(weather.is_object(), "{weather}");
    // An image block keeps MCP's own shape.
    let image = tools
        .call("everything_get-tiny-image", json!({}))
        .await
        .unwrap();
    let blocks = image.as_array().unwrap();
    assert!(
        blocks
            .iter()
            .any(|b| b["type"] == "image" && b["mimeType"] == "image/png"),
        "{image}"
    );
    // isError is tool_failed with the server's text.
    let err = tools
        .call("fs_read_text_file", json!({"path": "/etc/passwd"}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::ToolFailed, "{err}");
    assert!(
        err.message.contains("denied") || err.message.contains("outside"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&scratch);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_uses_two_real_servers_concurrently_and_catches_a_failure() {
    let scratch = tempdir("program");
    std::fs::write(scratch.join("notes.txt"), "alpha\nbeta\n").unwrap();
    let tools = connect(&scratch).await;
    let runtime = Runtime::new(tools, Limits::default());
    let program = format!(
        r#"
        const dir = {dir:?};
        const [text, created] = await Promise.all([
            tools.fs_read_text_file({{ path: dir + "/notes.txt" }}),
            tools.memory_create_entities({{ entities: [{{ name: "alpha", entityType: "word", observations: ["first"] }}] }}),
        ]);
        let caught = null;
        try {{ await tools.fs_read_text_file({{ path: dir + "/missing.txt" }}); }}
        catch (e) {{ caught = [e.kind, e.toolName]; }}
        const graph = await tools.memory_read_graph({{}});
        // server-filesystem answers with structuredContent {{ content }}.
        return {{ lines: text.content.trim().split("\n"), entities: graph.entities.map((e) => e.name), caught }};
    "#,
        dir = scratch.display().to_string()
    );
    let outcome = runtime.run(Language::JavaScript, &program).await;
    assert_eq!(outcome.error, None, "{:?}", outcome.error);
    assert_eq!(
        outcome.value,
        json!({"lines": ["alpha", "beta"], "entities": ["alpha"], "caught": ["tool_failed", "fs_read_text_file"]})
    );
    let _ = std::fs::remove_dir_all(&scratch);
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-real-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The filesystem server resolves symlinks: give it the real path.
    dir.canonicalize().unwrap()
}
