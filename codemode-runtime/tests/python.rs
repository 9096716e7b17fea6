//! The Python engine through `PyRuntime` and `Runtime`, in both isolation modes.
#![cfg(feature = "python")]

use codemode_core::{ErrorKind, Language, ToolCallError, ToolDef, Toolset};
use codemode_runtime::{Isolation, Limits, PyRuntime, RunErrorKind, RunOutcome, Runtime};
use serde_json::{Value, json};

struct Tools;

impl Toolset for Tools {
    fn defs(&self) -> Vec<ToolDef> {
        ["echo", "fail", "kv.set", "slow"]
            .into_iter()
            .map(|n| ToolDef::new(n, json!({})))
            .collect()
    }
    async fn call(&self, name: &str, args: Value) -> Result<Value, ToolCallError> {
        match name {
            "echo" => Ok(args),
            "kv.set" => Ok(json!({"stored": args})),
            "slow" => {
                futures_timer::Delay::new(std::time::Duration::from_millis(50)).await;
                Ok(json!("late"))
            }
            _ => Err(ToolCallError::new(name, ErrorKind::ToolFailed, "it broke")),
        }
    }
}

fn modes() -> Vec<Isolation> {
    vec![
        Isolation::InProcess,
        PyRuntime::new(Tools, Limits::default()).isolation().clone(),
    ]
}

fn run_in(isolation: &Isolation, code: &str) -> RunOutcome {
    let runtime = PyRuntime::new(Tools, Limits::default()).with_isolation(isolation.clone());
    futures_executor::block_on(runtime.run(Language::Python, code))
}

#[test]
fn smoke() {
    for mode in modes() {
        let out = run_in(
            &mode,
            "import asyncio\na = await tools.echo({'x': 1})\nb, c = await asyncio.gather(tools['kv.set']({'k': 2}), tools.slow())\nprint('hi', a)\ntry:\n    await tools.fail({})\nexcept ToolCallError as e:\n    print(e.toolName, e.kind, str(e))\n[a, b, c]\n",
        );
        println!("{mode:?}: {out:#?}");
        assert!(out.error.is_none());
    }
}
