//! The whole agent loop, offline: a scripted model in each recorded
//! provider shape, the real runtime and the real tools.

use agent::conversation::{Conversation, run_loop};
use agent_tools::SupportTools;
use codemode::runtime::{JsRuntime, Limits};
use codemode::{Language, StaticToolset, ToolFormat};

fn drive(format: ToolFormat) -> agent::conversation::Transcript {
    let conversation = Conversation::recorded(format).unwrap();
    let runtime = JsRuntime::new(SupportTools::with_sample_tickets(), Limits::default());
    futures_executor::block_on(run_loop(
        &conversation,
        &runtime,
        &SupportTools::tool_defs(),
        Language::JavaScript,
    ))
    .unwrap()
}

#[test]
fn each_recorded_provider_goes_through_the_loop() {
    for format in [ToolFormat::Anthropic, ToolFormat::OpenAiResponses] {
        let transcript = drive(format);
        assert_eq!(transcript.requests.len(), 2, "{format:?}");
        // The first request offers run_code with the compile-time SDK in it.
        let offered = transcript.requests[0]["tools"][0].to_string();
        assert!(
            offered.contains("run_code") && offered.contains("search_docs"),
            "{format:?}"
        );
        let [answer] = transcript.answers.as_slice() else {
            panic!("one tool call")
        };
        let outcome = answer.outcome.as_ref().unwrap();
        assert_eq!(outcome.error, None);
        assert_eq!(outcome.calls.len(), 5);
        assert_eq!(outcome.value["advice"][0], "Clear the browser cache.");
        // The result went back in the provider's shape, and the model's
        // second request carries it.
        let second = transcript.requests[1].to_string();
        match format {
            ToolFormat::Anthropic => {
                assert_eq!(answer.result["tool_use_id"], "toolu_01");
                assert!(second.contains("tool_result"));
            }
            _ => {
                assert_eq!(answer.result["call_id"], "call_01");
                assert!(second.contains("function_call_output"));
            }
        }
        assert!(second.contains("the VPN page is missing (tool_failed)"));
        assert!(transcript.final_text.contains("urgent ticket"));
    }
}

#[test]
fn a_bad_recording_is_an_error_not_a_panic() {
    assert!(Conversation::parse("{").is_err());
    assert!(Conversation::parse(r#"{"provider": "mcp", "user": "x", "turns": []}"#).is_err());
    let empty =
        Conversation::parse(r#"{"provider": "anthropic", "user": "x", "turns": []}"#).unwrap();
    let runtime = JsRuntime::new(SupportTools::with_sample_tickets(), Limits::default());
    let err = futures_executor::block_on(run_loop(
        &empty,
        &runtime,
        &SupportTools::tool_defs(),
        Language::JavaScript,
    ))
    .unwrap_err();
    assert!(err.contains("no more turns"), "{err}");
}
