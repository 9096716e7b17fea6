//! The compile-time constants are exactly what rendering at run time gives.

use agent::sdk;
use agent_tools::SupportTools;
use codemode::{Language, StaticToolset, render};

#[test]
fn constants_equal_the_run_time_render() {
    let tools = SupportTools::tool_defs();
    for lang in Language::ALL {
        assert_eq!(agent::sdk_text(lang), render(lang, &tools), "{lang}");
    }
    let names: Vec<String> = tools.iter().map(|t| t.name.clone()).collect();
    assert_eq!(sdk::TOOL_NAMES, names.as_slice());
}

#[test]
fn fingerprint_matches_the_builder() {
    let artifacts = codemode_build::Sdk::new()
        .toolset::<SupportTools>()
        .render()
        .unwrap();
    assert_eq!(sdk::FINGERPRINT, artifacts.fingerprint);
    assert!(
        artifacts.degradations.is_empty(),
        "{:?}",
        artifacts.degradations
    );
}

#[test]
fn fingerprint_ignores_declaration_order() {
    let mut reversed = SupportTools::tool_defs();
    reversed.reverse();
    let artifacts = codemode_build::Sdk::new().tools(reversed).render().unwrap();
    assert_eq!(sdk::FINGERPRINT, artifacts.fingerprint);
}

#[test]
fn run_code_constants_equal_the_run_time_definitions() {
    let tools = SupportTools::tool_defs();
    for (lang, description, anthropic, openai_chat) in [
        (
            Language::JavaScript,
            sdk::run_code::javascript::DESCRIPTION,
            sdk::run_code::javascript::ANTHROPIC,
            sdk::run_code::javascript::OPENAI_CHAT,
        ),
        (
            Language::TypeScript,
            sdk::run_code::typescript::DESCRIPTION,
            sdk::run_code::typescript::ANTHROPIC,
            sdk::run_code::typescript::OPENAI_CHAT,
        ),
        (
            Language::Python,
            sdk::run_code::python::DESCRIPTION,
            sdk::run_code::python::ANTHROPIC,
            sdk::run_code::python::OPENAI_CHAT,
        ),
    ] {
        let tool = codemode::run_code_tool(lang, &tools);
        assert_eq!(description, tool.description);
        let parsed: serde_json::Value = serde_json::from_str(anthropic).unwrap();
        assert_eq!(parsed, tool.to_anthropic());
        let parsed: serde_json::Value = serde_json::from_str(openai_chat).unwrap();
        assert_eq!(parsed, tool.to_openai_chat());
    }
    assert!(sdk::run_code::python::MCP.contains("inputSchema"));
    assert!(sdk::run_code::typescript::OPENAI_RESPONSES.contains("\"strict\": true"));
}
