//! `agent --serve`: the support tools as a Code Mode MCP server, driven by a
//! real MCP client (rmcp's).

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::json;

async fn client(language: &str) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_agent"));
    command.args(["--serve", "--language", language]);
    ().serve(rmcp::transport::TokioChildProcess::new(command).unwrap())
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_served_run_code_is_the_one_fixed_at_compile_time_and_runs_programs() {
    for (language, compiled, program) in [
        (
            "javascript",
            agent::sdk::run_code::javascript::DESCRIPTION,
            include_str!("../programs/triage.js"),
        ),
        (
            "python",
            agent::sdk::run_code::python::DESCRIPTION,
            include_str!("../programs/triage.py"),
        ),
    ] {
        let client = client(language).await;
        let tools = client.peer().list_all_tools().await.unwrap();
        assert_eq!(tools.len(), 1, "{language}");
        assert_eq!(tools[0].name, "run_code");
        // Byte for byte what the build script wrote: the prompt prefix is
        // the same whether the agent embeds it or serves it.
        assert_eq!(
            tools[0].description.as_deref(),
            Some(compiled),
            "{language}"
        );

        let args = json!({"code": program, "description": "triage the open tickets"});
        let result = client
            .peer()
            .call_tool(
                CallToolRequestParams::new("run_code")
                    .with_arguments(args.as_object().unwrap().clone()),
            )
            .await
            .unwrap();
        assert_eq!(
            result.is_error,
            Some(false),
            "{language}: {:?}",
            result.content
        );
        let value = &result.structured_content.as_ref().unwrap()["result"];
        // The same value the program gives in the embedded runtime.
        let lang: codemode::Language = language.parse().unwrap();
        let runtime = codemode::runtime::Runtime::new(
            agent_tools::SupportTools::with_sample_tickets(),
            codemode::runtime::Limits::default(),
        );
        let direct = runtime.run(lang, program).await;
        assert_eq!(direct.error, None);
        assert_eq!(value, &direct.value, "{language}");
        client.cancel().await.unwrap();
    }
}
