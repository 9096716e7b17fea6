//! Toolsets for real agents: tools known at run time, composition, policies,
//! hooks, and the last mile between a provider and a run.

use codemode::runtime::{ApprovalRequest, JsRuntime, Limits, RunErrorKind, RunEvent};
use codemode::{
    CallPolicy, DynToolset, ErrorKind, Language, ProviderCall, RunCodeArgs, StaticToolset, ToolDef,
    ToolFormat, Toolset, ToolsetError, ToolsetObject, Toolsets, native_tools, render,
    run_code_tool,
};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// A compiled toolset with metadata written in `#[tool(...)]`.
struct Notes;

#[codemode::toolset]
impl Notes {
    /// Add a note.
    #[tool(idempotent)]
    fn add_note(&self, text: String) -> usize {
        text.len()
    }

    #[tool(
        name = "notes.search",
        description = "Search the notes for a word.",
        title = "Search notes",
        read_only,
        open_world = false,
        policy = "both"
    )]
    async fn search(&self, word: String) -> Vec<String> {
        vec![format!("a note about {word}")]
    }

    /// Delete every note.
    #[tool(destructive, policy = "direct")]
    fn wipe(&self) -> bool {
        true
    }
}

fn weather() -> DynToolset {
    let defs = vec![
        ToolDef::new(
            "forecast",
            json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
        )
        .with_description("Tomorrow's forecast."),
        ToolDef::new("radar", json!({"type": "object"})).with_description("The radar image URL."),
    ];
    DynToolset::new(defs, |name, args| async move {
        match name.as_str() {
            "forecast" => Ok(json!({"city": args["city"], "sky": "clear"})),
            _ => Ok(json!("https://radar.invalid/now.png")),
        }
    })
}

fn combined() -> Toolsets {
    Toolsets::new()
        .with(Notes)
        .unwrap()
        .with_prefix("wx_", weather())
        .unwrap()
}

fn run(runtime: &JsRuntime<Toolsets>, code: &str) -> codemode::runtime::RunOutcome {
    futures_executor::block_on(runtime.run(Language::JavaScript, code))
}

#[test]
fn metadata_from_the_attribute() {
    let defs = Notes::tool_defs();
    let search = defs.iter().find(|d| d.name == "notes.search").unwrap();
    assert_eq!(
        search.description.as_deref(),
        Some("Search the notes for a word.")
    );
    assert_eq!(search.policy, CallPolicy::Both);
    let mcp = serde_json::to_value(search).unwrap();
    assert_eq!(
        mcp["annotations"],
        json!({"title": "Search notes", "readOnlyHint": true, "openWorldHint": false})
    );
    let add = defs.iter().find(|d| d.name == "add_note").unwrap();
    assert_eq!(
        add.annotations.as_ref().unwrap().idempotent_hint,
        Some(true)
    );
    assert_eq!(
        serde_json::to_value(add).unwrap().get("policy"),
        None,
        "the policy is the host's, not the wire's"
    );
}

#[test]
fn a_program_calls_a_dyn_toolset_and_a_compiled_one_together() {
    let runtime = JsRuntime::new(combined(), Limits::default());
    let out = run(
        &runtime,
        r#"const [f, n] = await Promise.all([tools.wx_forecast({city: "Oslo"}), tools["notes.search"]({word: "rain"})]);
           return [f.sky, n[0], await tools.add_note({text: "four"})];"#,
    );
    assert_eq!(
        out.value,
        json!(["clear", "a note about rain", 4]),
        "{:?}",
        out.error
    );
}

#[test]
fn the_sdk_shows_exactly_what_a_program_may_call() {
    let tools = combined()
        .allow(["wx_forecast", "notes.search", "wipe"])
        .unwrap();
    let sdk = render(Language::TypeScript, &tools.defs());
    assert!(sdk.contains(r#"wx_forecast(args"#) && sdk.contains(r#""notes.search"(args"#));
    assert!(
        !sdk.contains("wx_radar") && !sdk.contains("add_note"),
        "filtered out"
    );
    assert!(
        !sdk.contains(r#""wipe""#),
        "direct-only tools are not in the SDK"
    );
    let runtime = JsRuntime::new(tools, Limits::default());
    let out = run(
        &runtime,
        r#"const r = [];
           for (const n of ["wx_radar", "wipe"]) { try { await tools(n, {}); } catch (e) { r.push([e.toolName, e.kind]); } }
           return r;"#,
    );
    assert_eq!(
        out.value,
        json!([["wx_radar", "unknown_tool"], ["wipe", "unknown_tool"]])
    );
}

#[test]
fn native_tools_are_the_direct_ones() {
    let tools = combined();
    let names = |format| -> Vec<Value> {
        native_tools(format, &tools)
            .iter()
            .map(|t| t["name"].clone())
            .collect()
    };
    assert_eq!(
        names(ToolFormat::Anthropic),
        [json!("notes.search"), json!("wipe")]
    );
    let chat = native_tools(ToolFormat::OpenAiChat, &tools);
    let parsed: Vec<async_openai::types::chat::ChatCompletionTools> =
        serde_json::from_value(Value::Array(chat)).unwrap();
    assert_eq!(parsed.len(), 2);
    let mcp = native_tools(ToolFormat::Mcp, &tools);
    let parsed: Vec<rmcp::model::Tool> = serde_json::from_value(Value::Array(mcp)).unwrap();
    assert_eq!(
        parsed[1]
            .annotations
            .as_ref()
            .and_then(|a| a.destructive_hint),
        Some(true)
    );
}

#[test]
fn construction_errors_name_the_problem() {
    let twice = Toolsets::new()
        .with(weather())
        .unwrap()
        .with(weather())
        .unwrap_err();
    assert!(
        matches!(&twice, ToolsetError::DuplicateName { name, .. } if name == "forecast"),
        "{twice}"
    );
    assert!(twice.to_string().contains("\"forecast\""));
    let prefix = Toolsets::new()
        .with_prefix("bad prefix ", weather())
        .unwrap_err();
    assert!(
        matches!(prefix, ToolsetError::InvalidPrefix { .. }),
        "{prefix}"
    );
    let filter = combined().allow(["wx_forecast", "nope"]).unwrap_err();
    assert!(filter.to_string().contains("\"nope\""), "{filter}");
}

#[test]
fn arc_and_box_dyn_are_toolsets() {
    let shared: Arc<dyn ToolsetObject> = Arc::new(weather());
    let runtime = JsRuntime::from_arc(Arc::new(shared), Limits::default());
    let out = futures_executor::block_on(runtime.run(
        Language::JavaScript,
        "return (await tools.forecast({city: 'Rome'})).city;",
    ));
    assert_eq!(out.value, json!("Rome"));
    let boxed: Box<dyn ToolsetObject> = Box::new(Notes);
    assert_eq!(Toolset::defs(&boxed).len(), 3);
}

#[test]
fn the_approval_hook_can_deny_and_the_observer_sees_everything() {
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let events = Arc::clone(&seen);
    let asked: Arc<Mutex<Vec<ApprovalRequest>>> = Arc::default();
    let requests = Arc::clone(&asked);
    let runtime = JsRuntime::new(combined(), Limits::default())
        .with_approval(move |request: ApprovalRequest| {
            requests.lock().unwrap().push(request.clone());
            async move {
                if request.tool == "add_note" {
                    Err("notes are read-only for this user".to_owned())
                } else {
                    Ok(())
                }
            }
        })
        .with_observer(move |event| {
            let line = match event {
                RunEvent::CallStarted { name, .. } => format!("start {name}"),
                RunEvent::CallFinished { name, error, .. } => format!(
                    "end {name} {}",
                    error.as_ref().map_or("ok".into(), |e| e.kind.to_string())
                ),
                RunEvent::Log(line) => format!("log {}", line.text),
                RunEvent::Finished { error } => format!("finished {error:?}"),
            };
            events.lock().unwrap().push(line);
        });
    let out = futures_executor::block_on(runtime.run_described(
        Language::JavaScript,
        r#"try { await tools.add_note({text: "x"}); } catch (e) { console.log(e.kind, e.message); }
           return (await tools.wx_forecast({city: "Oslo"})).sky;"#,
        "add a note, then check the weather",
    ));
    assert_eq!(out.value, json!("clear"));
    assert_eq!(out.calls[0].error.as_ref().unwrap().kind, ErrorKind::Denied);
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "start add_note",
            "end add_note denied",
            "log denied the host denied this call: notes are read-only for this user",
            "start wx_forecast",
            "end wx_forecast ok",
            "finished None",
        ]
    );
    let asked = asked.lock().unwrap();
    assert_eq!(asked[0].description, "add a note, then check the weather");
    assert_eq!(asked[0].args, json!({"text": "x"}));
}

#[test]
fn run_code_args_from_objects_and_strings() {
    let args: RunCodeArgs =
        serde_json::from_value(json!("{\"code\":\"return 1\",\"description\":\"d\"}")).unwrap();
    assert_eq!(args.code, "return 1");
    for bad in [json!("{not json"), json!(42), json!({"code": 7}), json!({})] {
        let err = RunCodeArgs::from_value(&bad).unwrap_err();
        assert!(err.message().contains("run_code"), "{err}");
    }
}

/// Each provider's call in, that provider's result out, checked against a
/// maintained client crate's types where one exists.
#[test]
fn provider_calls_become_provider_results() {
    let runtime = JsRuntime::new(combined(), Limits::default());
    let code = r#"return (await tools.wx_forecast({city: "Oslo"})).sky;"#;
    let args = json!({"code": code, "description": "forecast"}).to_string();
    let answer = |format, call: Value| {
        let call = ProviderCall::parse(format, &call).unwrap();
        futures_executor::block_on(runtime.answer(Language::JavaScript, &call, 4096))
    };

    // OpenAI Chat: the call as async-openai serialises it, the result as it reads it.
    let call: async_openai::types::chat::ChatCompletionMessageToolCall =
        serde_json::from_value(json!({"id": "call_1", "type": "function", "function": {"name": "run_code", "arguments": args}})).unwrap();
    let chat = answer(ToolFormat::OpenAiChat, serde_json::to_value(&call).unwrap());
    let message: async_openai::types::chat::ChatCompletionRequestMessage =
        serde_json::from_value(chat.result.clone()).unwrap();
    assert!(matches!(
        message,
        async_openai::types::chat::ChatCompletionRequestMessage::Tool(_)
    ));
    assert_eq!(chat.result["content"], "result: \"clear\"\n");

    // OpenAI Responses.
    let responses = answer(
        ToolFormat::OpenAiResponses,
        json!({"type": "function_call", "call_id": "fc_1", "name": "run_code", "arguments": args}),
    );
    let item: async_openai::types::responses::Item =
        serde_json::from_value(responses.result.clone()).unwrap();
    assert!(matches!(
        item,
        async_openai::types::responses::Item::FunctionCallOutput(_)
    ));

    // Anthropic (no maintained Rust client crate to check against: the shape is pinned here).
    let anthropic = answer(
        ToolFormat::Anthropic,
        json!({"type": "tool_use", "id": "toolu_1", "name": "run_code", "input": {"code": "throw new Error('no')", "description": "fail"}}),
    );
    assert_eq!(anthropic.result["type"], "tool_result");
    assert_eq!(anthropic.result["tool_use_id"], "toolu_1");
    assert_eq!(anthropic.result["is_error"], true);
    let content = anthropic.result["content"].as_str().unwrap();
    assert!(
        content.starts_with("error (thrown) at line 1, column 11: Error: no"),
        "{content}"
    );

    // MCP: a CallToolResult as rmcp reads it, with structured content.
    let mcp = answer(
        ToolFormat::Mcp,
        json!({"name": "run_code", "arguments": {"code": code, "description": "d"}}),
    );
    let result: rmcp::model::CallToolResult = serde_json::from_value(mcp.result.clone()).unwrap();
    assert_eq!(result.is_error, Some(false));
    assert_eq!(result.structured_content, Some(json!({"result": "clear"})));

    // Not run_code, and malformed arguments: results that say what was wrong.
    let other = answer(
        ToolFormat::Anthropic,
        json!({"type": "tool_use", "id": "t2", "name": "wx_forecast", "input": {}}),
    );
    assert!(
        other.outcome.is_none()
            && other.result["content"]
                .as_str()
                .unwrap()
                .contains("call `run_code`")
    );
    let malformed = answer(
        ToolFormat::OpenAiResponses,
        json!({"type": "function_call", "call_id": "c3", "name": "run_code", "arguments": "{oops"}),
    );
    assert!(
        malformed.result["output"]
            .as_str()
            .unwrap()
            .contains("not valid JSON")
    );
}

#[test]
fn a_failed_run_reads_well_for_the_model() {
    let runtime = JsRuntime::new(combined(), Limits::default());
    let out = run(
        &runtime,
        "const f = await tools.wx_forecast({city: 'Oslo'});\nconsole.log('sky', f.sky);\nreturn f.wind.speed;",
    );
    assert_eq!(
        out.error.as_ref().map(|e| e.kind),
        Some(RunErrorKind::Thrown)
    );
    let text = out.to_model_text(400);
    assert_eq!(
        text,
        "error (thrown) at line 3, column 8: TypeError: cannot read property 'speed' of undefined\nconsole:\nsky clear\n"
    );
    let tool = run_code_tool(Language::JavaScript, &combined().defs());
    assert!(tool.description.contains("  wx_forecast(args"));
}

#[test]
fn a_handler_that_panics_fails_only_its_call() {
    let fragile = DynToolset::new(
        vec![ToolDef::new("parse", json!({"type": "object"}))],
        |_, args: Value| {
            let n = args["n"].as_u64().expect("n is a number"); // panics before any future exists
            async move { Ok(json!(n)) }
        },
    );
    let runtime = JsRuntime::new(fragile, Limits::default());
    let out = futures_executor::block_on(runtime.run(
        Language::JavaScript,
        "try { await tools.parse({n: 'x'}); } catch (e) { return [e.kind, await tools.parse({n: 2})]; }",
    ));
    assert_eq!(out.value, json!(["tool_panicked", 2]), "{:?}", out.error);
}

#[test]
fn answer_reaches_direct_tools_and_nothing_else() {
    let runtime = JsRuntime::new(combined(), Limits::default());
    let call = |name: &str| {
        let call = ProviderCall::parse(
            ToolFormat::Anthropic,
            &json!({"type": "tool_use", "id": "t", "name": name, "input": {"word": "x"}}),
        )
        .unwrap();
        futures_executor::block_on(runtime.answer(Language::JavaScript, &call, 1000)).result
    };
    let direct = call("notes.search");
    assert_eq!(
        (direct["is_error"].clone(), direct["content"].clone()),
        (json!(false), json!(r#"["a note about x"]"#))
    );
    let program_only = call("add_note");
    assert_eq!(program_only["is_error"], true);
}
