//! The example program in each language makes the same calls, with the same
//! concurrency, catches the same failure and returns the same result.

use agent_tools::SupportTools;
use codemode::runtime::{Isolation, Limits, Runtime};
use codemode::{Language, ToolCallError, ToolDef, Toolset};
use serde_json::Value;
use std::sync::Mutex;
use std::time::Duration;

/// The support tools, each call held long enough that calls started together
/// are seen in flight together; it records how many were in flight at each
/// call's start.
struct Watched {
    tools: SupportTools,
    in_flight: Mutex<usize>,
    starts: Mutex<Vec<(String, usize)>>,
}

impl Toolset for Watched {
    fn defs(&self) -> Vec<ToolDef> {
        self.tools.defs()
    }

    async fn call(&self, name: &str, args: Value) -> Result<Value, ToolCallError> {
        {
            let mut n = self.in_flight.lock().unwrap();
            *n += 1;
            self.starts.lock().unwrap().push((name.to_owned(), *n));
        }
        futures_timer::Delay::new(Duration::from_millis(100)).await;
        let result = self.tools.call(name, args).await;
        *self.in_flight.lock().unwrap() -= 1;
        result
    }
}

/// Numbers compared as numbers (`1392` and `1392.0` are one value).
fn normalized(value: &Value) -> Value {
    match value {
        Value::Number(n) => serde_json::json!(n.as_f64()),
        Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), normalized(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

struct Ran {
    value: Value,
    calls: Vec<(String, Value, bool)>,
    starts: Vec<(String, usize)>,
    logs: Vec<String>,
}

fn run(language: Language, program: &str, isolation: Isolation) -> Ran {
    let watched = Watched {
        tools: SupportTools::with_sample_tickets(),
        in_flight: Mutex::new(0),
        starts: Mutex::new(Vec::new()),
    };
    let runtime = Runtime::new(watched, Limits::default()).with_isolation(isolation);
    let outcome = futures_executor::block_on(runtime.run(language, program));
    assert!(outcome.error.is_none(), "{language:?}: {:?}", outcome.error);
    let toolset: &Watched = runtime.toolset();
    Ran {
        value: normalized(&outcome.value),
        calls: outcome
            .calls
            .iter()
            .map(|c| (c.name.clone(), normalized(&c.args), c.error.is_some()))
            .collect(),
        starts: toolset.starts.lock().unwrap().clone(),
        logs: outcome.logs.iter().map(|l| l.text.clone()).collect(),
    }
}

#[test]
fn the_python_program_matches_the_javascript_one() {
    let js = run(
        Language::JavaScript,
        include_str!("../programs/triage.js"),
        Isolation::InProcess,
    );
    // Python in its default place: a worker process.
    let default = Runtime::new(SupportTools::with_sample_tickets(), Limits::default())
        .isolation_for(Language::Python)
        .clone();
    let py = run(
        Language::Python,
        include_str!("../programs/triage.py"),
        default,
    );
    assert_eq!(
        py.calls, js.calls,
        "the same calls, with the same arguments"
    );
    assert_eq!(py.starts, js.starts, "the same calls made together");
    assert!(js.starts.iter().any(|(_, n)| *n == 3), "{:?}", js.starts);
    assert_eq!(
        js.calls.iter().filter(|c| c.2).count(),
        1,
        "one failure, caught"
    );
    assert_eq!(py.value, js.value, "the same result");
    assert_eq!(py.logs.len(), js.logs.len());
    assert_eq!(
        py.logs[1], js.logs[1],
        "the caught failure, described alike"
    );
}

/// The check before a run finds nothing in the example's programs, nor in
/// the interop suite's correct probes written against the agent's SDK.
#[test]
fn the_check_finds_nothing_in_the_agents_correct_programs() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut paths: Vec<std::path::PathBuf> = ["js", "ts", "py"]
        .iter()
        .map(|ext| format!("{root}/examples/agent/programs/triage.{ext}").into())
        .collect();
    for ext in ["ts", "py"] {
        paths.push(format!("{root}/tests/interop/probes/agent.support.ok.{ext}").into());
    }
    let catalog = codemode::Catalog::new(<SupportTools as codemode::StaticToolset>::tool_defs());
    for path in paths {
        let code = std::fs::read_to_string(&path).unwrap();
        let language = match path.extension().and_then(|e| e.to_str()) {
            Some("js") => Language::JavaScript,
            Some("ts") => Language::TypeScript,
            _ => Language::Python,
        };
        let found = catalog.check_program(language, &code);
        assert!(found.is_empty(), "{}: {found:#?}", path.display());
    }
}
