//! The last mile: a provider's tool call answered with that provider's tool
//! result, whether it is `run_code` or a tool the model may call directly.

use crate::{RunOutcome, Runtime, outcome};
use codemode_core::{Language, ProviderCall, RUN_CODE, RunCodeArgs, Toolset};
use std::sync::Arc;

/// A provider's tool call answered: the result to send back, and the run's
/// full outcome for the host's own records (`None` when nothing ran).
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The tool result, in the provider's shape.
    pub result: serde_json::Value,
    /// What the run produced.
    pub outcome: Option<RunOutcome>,
}

impl<T: Toolset + Send + Sync + 'static + ?Sized> Runtime<T> {
    /// Answers a provider's tool call with that provider's tool result: runs
    /// the program of a `run_code` call (in `language`) and returns the
    /// result shaped for the provider, the outcome as model text within
    /// `budget_bytes`. A call to another tool, or malformed arguments, gets a
    /// result that tells the model what was wrong.
    pub async fn answer(
        &self,
        language: Language,
        call: &ProviderCall,
        budget_bytes: usize,
    ) -> Answer {
        if call.name != RUN_CODE {
            return self.answer_direct(call, budget_bytes).await;
        }
        let args = match RunCodeArgs::from_value(&call.arguments) {
            Ok(args) => args,
            Err(error) => {
                return Answer {
                    result: call.result(error.message(), None, true),
                    outcome: None,
                };
            }
        };
        let outcome = self
            .run_described(language, &args.code, &args.description)
            .await;
        let text = outcome.to_model_text(budget_bytes);
        // Structured content repeats the value: only when it fits the budget too.
        let value = (outcome.error.is_none()
            && serde_json::to_string(&outcome.value).map_or(0, |j| j.len()) <= budget_bytes)
            .then_some(&outcome.value);
        let result = call.result(&text, value, outcome.error.is_some());
        Answer {
            result,
            outcome: Some(outcome),
        }
    }

    /// A call to a tool the model may call directly (policy `direct` or
    /// `both`), answered with its JSON result; any other name is an error
    /// the model can act on.
    async fn answer_direct(&self, call: &ProviderCall, budget_bytes: usize) -> Answer {
        let direct = self
            .toolset
            .defs()
            .iter()
            .any(|d| d.name == call.name && d.policy.direct());
        if !direct {
            let text = format!(
                "there is no tool named {:?} here; write a program and call `{RUN_CODE}` with it",
                call.name
            );
            return Answer {
                result: call.result(&text, None, true),
                outcome: None,
            };
        }
        let args = match &call.arguments {
            serde_json::Value::String(text) => {
                serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
            }
            other => other.clone(),
        };
        let toolset = Arc::clone(&self.toolset);
        let name = call.name.clone();
        let result =
            futures_util::FutureExt::catch_unwind(std::panic::AssertUnwindSafe(async move {
                toolset.call(&name, args).await
            }))
            .await
            .unwrap_or_else(|_| {
                Err(codemode_core::ToolCallError::new(
                    &call.name,
                    codemode_core::ErrorKind::ToolPanicked,
                    "the tool panicked",
                ))
            });
        let (text, value, is_error) = match &result {
            Ok(value) => (
                serde_json::to_string(value).unwrap_or_default(),
                Some(value),
                false,
            ),
            Err(error) => (
                format!("{} ({}): {}", error.tool_name, error.kind, error.message),
                None,
                true,
            ),
        };
        let text = outcome::cut(&text, budget_bytes);
        let value =
            value.filter(|v| serde_json::to_string(v).map_or(0, |j| j.len()) <= budget_bytes);
        Answer {
            result: call.result(&text, value, is_error),
            outcome: None,
        }
    }
}
