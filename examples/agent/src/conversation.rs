//! The agent loop with a scripted model: offer `run_code`, take the model's
//! tool call in a provider's wire shape (recorded in `conversations/`), run
//! it, send the tool result back, and read the model's final answer.

use codemode::runtime::{Answer, Runtime};
use codemode::{Language, ProviderCall, ToolFormat, Toolset, run_code_tool};
use serde_json::{Value, json};

/// A recorded conversation: the user's request and the model's turns, in one
/// provider's shapes.
#[derive(Debug, Clone)]
pub struct Conversation {
    /// `anthropic` or `openai-responses`.
    pub format: ToolFormat,
    /// What the user asked.
    pub user: String,
    /// The model's replies, in order: an Anthropic assistant message, or an
    /// OpenAI Responses `output` array.
    pub turns: Vec<Value>,
}

impl Conversation {
    /// Reads a recorded conversation.
    pub fn parse(text: &str) -> Result<Self, String> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| format!("the conversation is not JSON: {e}"))?;
        let format: ToolFormat = value["provider"]
            .as_str()
            .unwrap_or_default()
            .parse()
            .map_err(|e: codemode::UnknownToolFormat| e.to_string())?;
        if !matches!(format, ToolFormat::Anthropic | ToolFormat::OpenAiResponses) {
            return Err(format!(
                "the scripted model speaks anthropic and openai-responses, not {}",
                format.as_str()
            ));
        }
        let user = value["user"]
            .as_str()
            .ok_or("the conversation has no `user` request")?
            .to_owned();
        let turns = value["turns"]
            .as_array()
            .ok_or("the conversation has no `turns`")?
            .clone();
        Ok(Conversation {
            format,
            user,
            turns,
        })
    }

    /// The conversation for `provider`, as recorded in this crate.
    pub fn recorded(format: ToolFormat) -> Result<Self, String> {
        match format {
            ToolFormat::Anthropic => Self::parse(include_str!("../conversations/anthropic.json")),
            ToolFormat::OpenAiResponses => {
                Self::parse(include_str!("../conversations/openai-responses.json"))
            }
            other => Err(format!(
                "no conversation is recorded for {}",
                other.as_str()
            )),
        }
    }
}

/// A model that answers each request with its next recorded turn, after
/// checking that the request offers `run_code`.
struct ScriptedModel<'a> {
    conversation: &'a Conversation,
    next: usize,
}

impl ScriptedModel<'_> {
    fn respond(&mut self, request: &Value) -> Result<Value, String> {
        let offered = request["tools"]
            .as_array()
            .is_some_and(|tools| tools.iter().any(|t| t["name"] == codemode::RUN_CODE));
        if !offered {
            return Err("the request does not offer run_code".to_owned());
        }
        let turn = self
            .conversation
            .turns
            .get(self.next)
            .cloned()
            .ok_or("the script has no more turns")?;
        self.next += 1;
        Ok(turn)
    }
}

/// What happened in one loop.
#[derive(Debug)]
pub struct Transcript {
    /// Every request sent to the model, in the provider's shape.
    pub requests: Vec<Value>,
    /// Every tool call answered, with the run's outcome.
    pub answers: Vec<Answer>,
    /// The model's final text.
    pub final_text: String,
}

/// Runs the conversation against `runtime`: at most eight model turns.
pub async fn run_loop<T: Toolset + Send + Sync + 'static>(
    conversation: &Conversation,
    runtime: &Runtime<T>,
    tools: &[codemode::ToolDef],
    language: Language,
) -> Result<Transcript, String> {
    let format = conversation.format;
    let run_code = run_code_tool(language, tools).to_format(format);
    let mut model = ScriptedModel {
        conversation,
        next: 0,
    };
    // Both shapes open with the same user message.
    let mut history: Vec<Value> = vec![json!({"role": "user", "content": conversation.user})];
    let mut requests = Vec::new();
    let mut answers = Vec::new();
    for _ in 0..8 {
        let request = match format {
            ToolFormat::Anthropic => {
                json!({"model": "scripted", "max_tokens": 1024, "tools": [run_code], "messages": history})
            }
            _ => json!({"model": "scripted", "tools": [run_code], "input": history}),
        };
        let reply = model.respond(&request)?;
        requests.push(request);
        let (calls, text): (Vec<Value>, Vec<String>) = match format {
            ToolFormat::Anthropic => {
                history.push(reply.clone());
                let blocks = reply["content"].as_array().cloned().unwrap_or_default();
                (
                    blocks
                        .iter()
                        .filter(|b| b["type"] == "tool_use")
                        .cloned()
                        .collect(),
                    blocks
                        .iter()
                        .filter(|b| b["type"] == "text")
                        .filter_map(|b| b["text"].as_str().map(str::to_owned))
                        .collect(),
                )
            }
            _ => {
                let items = reply.as_array().cloned().unwrap_or_default();
                history.extend(items.iter().cloned());
                (
                    items
                        .iter()
                        .filter(|i| i["type"] == "function_call")
                        .cloned()
                        .collect(),
                    items
                        .iter()
                        .filter(|i| i["type"] == "message")
                        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
                        .filter_map(|c| c["text"].as_str().map(str::to_owned))
                        .collect(),
                )
            }
        };
        if calls.is_empty() {
            return Ok(Transcript {
                requests,
                answers,
                final_text: text.join("\n"),
            });
        }
        let mut results = Vec::new();
        for call in &calls {
            let call = ProviderCall::parse(format, call).map_err(|e| e.to_string())?;
            let answer = runtime.answer(language, &call, 16 << 10).await;
            results.push(answer.result.clone());
            answers.push(answer);
        }
        match format {
            ToolFormat::Anthropic => history.push(json!({"role": "user", "content": results})),
            _ => history.extend(results),
        }
    }
    Err("the model did not finish within eight turns".to_owned())
}
