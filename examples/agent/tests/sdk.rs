//! The compile-time constants are exactly what rendering at run time gives.

use agent::sdk;
use agent_tools::SupportTools;
use codemode::{Language, Toolset, render};

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
