//! A realistic toolset through `call`: every dispatch failure, both toolset
//! styles, and SDKs that the schemas produce.

use codemode::{ErrorKind, Language, StaticToolset, ToolCallError, Toolset, render_report};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Mutex;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Priority {
    Low,
    High,
}

/// Internally tagged.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Target {
    Email { address: String },
    Sms { number: String },
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Task {
    title: String,
    priority: Priority,
    subtasks: Vec<Task>,
}

#[derive(Debug)]
struct NotFound(String);

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no task called {:?}", self.0)
    }
}

/// An error that knows its kind.
struct BadInput(&'static str);

impl From<BadInput> for ToolCallError {
    fn from(e: BadInput) -> Self {
        ToolCallError::new("", ErrorKind::InvalidArguments, e.0)
    }
}

/// Cannot be serialised: a map with non-string keys.
#[derive(JsonSchema, Serialize)]
struct Unserialisable {
    map: BTreeMap<(u8, u8), u8>,
}

#[derive(Default)]
struct Tasks {
    tasks: Mutex<Vec<Task>>,
}

#[codemode::toolset]
impl Tasks {
    /// Add a task.
    #[tool]
    fn add(
        &self,
        /// What to do.
        title: String,
        priority: Option<Priority>,
    ) -> usize {
        let mut tasks = self.tasks.lock().unwrap();
        tasks.push(Task {
            title,
            priority: priority.unwrap_or(Priority::Low),
            subtasks: vec![],
        });
        tasks.len()
    }

    /// Find a task by title.
    #[tool]
    async fn find(&self, title: String) -> Result<Task, NotFound> {
        let tasks = self.tasks.lock().unwrap();
        match tasks.iter().find(|t| t.title == title) {
            Some(t) => Ok(Task {
                title: t.title.clone(),
                priority: Priority::High,
                subtasks: vec![],
            }),
            None => Err(NotFound(title)),
        }
    }

    /// Notify someone.
    #[tool(name = "notify-target")]
    fn notify(
        &self,
        target: Target,
        tags: BTreeMap<String, (u8, bool)>,
    ) -> Result<String, BadInput> {
        match target {
            Target::Email { address } if address.contains('@') => {
                Ok(format!("mailed {address} {}", tags.len()))
            }
            Target::Email { .. } => Err(BadInput("an email address needs an @")),
            Target::Sms { number } => Ok(format!("texted {number}")),
        }
    }

    /// Always panics (sync).
    #[tool]
    fn explode(&self) {
        panic!("boom")
    }

    /// Always panics (async).
    #[tool]
    async fn explode_later(&self) -> u8 {
        panic!("later boom")
    }

    /// Produces a result that cannot be JSON.
    #[tool]
    fn weird(&self) -> Unserialisable {
        Unserialisable {
            map: [((1, 2), 3)].into_iter().collect(),
        }
    }

    /// Takes its whole argument object.
    #[tool]
    fn import(&self, #[args] task: Task) -> Task {
        task
    }

    /// Not a method of the value: no receiver.
    #[tool]
    fn version() -> &'static str {
        "1.0"
    }
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

fn call(name: &str, args: Value) -> Result<Value, ToolCallError> {
    let tasks = Tasks::default();
    block_on(async {
        tasks
            .call("add", json!({"title": "ship it"}))
            .await
            .unwrap();
        tasks.call(name, args).await
    })
}

#[test]
fn tool_defs_are_sorted_and_complete() {
    let names: Vec<String> = Tasks::tool_defs().into_iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        [
            "add",
            "explode",
            "explode_later",
            "find",
            "import",
            "notify-target",
            "version",
            "weird"
        ]
    );
    let add = &Tasks::tool_defs()[0];
    assert_eq!(add.description.as_deref(), Some("Add a task."));
    assert_eq!(
        add.input_schema["properties"]["title"]["description"],
        "What to do."
    );
    assert_eq!(add.input_schema["required"], json!(["title"]));
    assert_eq!(add.input_schema["additionalProperties"], json!(false));
    assert!(add.input_schema.get("$schema").is_none() && add.input_schema.get("title").is_none());
}

#[test]
fn successful_calls() {
    assert_eq!(
        call("add", json!({"title": "b", "priority": "high"})),
        Ok(json!(2))
    );
    assert_eq!(
        call("find", json!({"title": "ship it"})).unwrap()["priority"],
        "high"
    );
    assert_eq!(
        call(
            "notify-target",
            json!({"target": {"type": "sms", "number": "1"}, "tags": {}})
        ),
        Ok(json!("texted 1"))
    );
    assert_eq!(call("version", Value::Null), Ok(json!("1.0")));
    assert_eq!(
        call("explode", json!({})).unwrap_err().kind,
        ErrorKind::ToolPanicked
    );
    let task = json!({"title": "t", "priority": "low", "subtasks": [{"title": "u", "priority": "high", "subtasks": []}]});
    assert_eq!(call("import", task.clone()), Ok(task));
}

#[test]
fn unknown_name_lists_the_known_ones() {
    let err = call("ad", json!({})).unwrap_err();
    assert_eq!(
        (err.tool_name.as_str(), err.kind),
        ("ad", ErrorKind::UnknownTool)
    );
    assert!(
        err.message.contains(r#""add", "explode""#),
        "{}",
        err.message
    );
}

#[test]
fn invalid_arguments_name_the_path() {
    let err = call(
        "notify-target",
        json!({"target": {"type": "email", "address": 5}, "tags": {}}),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidArguments);
    assert_eq!(err.tool_name, "notify-target");
    // serde reads an internally tagged enum through a buffer, so the path
    // ends at the enum's field.
    assert_eq!(
        err.message,
        "invalid arguments at `target`: invalid type: integer `5`, expected a string"
    );
    assert!(!err.message.contains("line "), "{}", err.message);
    let err = call(
        "notify-target",
        json!({"target": {"type": "sms", "number": "1"}, "tags": {"a": [1, "x"]}}),
    )
    .unwrap_err();
    assert!(
        err.message.starts_with("invalid arguments at `tags.a[1]`:"),
        "{}",
        err.message
    );
    let missing = call("add", json!({})).unwrap_err();
    assert_eq!(missing.message, "invalid arguments: missing field `title`");
    let extra = call("add", json!({"title": "x", "colour": "red"})).unwrap_err();
    assert!(
        extra.message.contains("unknown field `colour`"),
        "{}",
        extra.message
    );
    let nested = call(
        "import",
        json!({"title": "t", "priority": "low", "subtasks": [{"title": 1}]}),
    )
    .unwrap_err();
    assert!(
        nested
            .message
            .starts_with("invalid arguments at `subtasks[0].title`"),
        "{}",
        nested.message
    );
}

#[test]
fn errors_from_the_tool() {
    let err = call("find", json!({"title": "nope"})).unwrap_err();
    assert_eq!(
        (err.kind, err.message.as_str()),
        (ErrorKind::ToolFailed, r#"no task called "nope""#)
    );
    let err = call(
        "notify-target",
        json!({"target": {"type": "email", "address": "x"}, "tags": {}}),
    )
    .unwrap_err();
    // Converts into ToolCallError: its kind is kept, and it is named after the tool.
    assert_eq!(
        (err.kind, err.tool_name.as_str()),
        (ErrorKind::InvalidArguments, "notify-target")
    );
}

#[test]
fn panics_are_caught_sync_and_async() {
    let tasks = Tasks::default();
    block_on(async {
        let err = tasks.call("explode", json!({})).await.unwrap_err();
        assert_eq!(
            (err.kind, err.message.as_str()),
            (ErrorKind::ToolPanicked, "the tool panicked: boom")
        );
        let err = tasks.call("explode_later", json!({})).await.unwrap_err();
        assert_eq!(
            (err.kind, err.message.as_str()),
            (ErrorKind::ToolPanicked, "the tool panicked: later boom")
        );
        // The host carries on.
        assert_eq!(
            tasks.call("add", json!({"title": "still here"})).await,
            Ok(json!(1))
        );
    });
}

#[test]
fn unserialisable_output_is_an_error() {
    let err = call("weird", json!({})).unwrap_err();
    assert_eq!(err.kind, ErrorKind::ToolFailed);
    assert!(
        err.message
            .starts_with("the tool's output could not be serialised"),
        "{}",
        err.message
    );
}

#[test]
fn calls_are_send() {
    fn assert_send<T: Send>(_: T) {}
    let tasks = Tasks::default();
    assert_send(tasks.call("add", json!({})));
}

#[test]
fn sdks_from_rust_types_render_without_degradations() {
    for lang in Language::ALL {
        let out = render_report(lang, &Tasks::tool_defs());
        assert!(
            out.degradations.is_empty(),
            "{lang}: {:?}",
            out.degradations
        );
    }
    let ts = render_report(Language::TypeScript, &Tasks::tool_defs()).text;
    assert!(ts.contains(r#"add(args: {"#), "{ts}");
    assert!(ts.contains("priority?: Priority | null;"), "{ts}");
    assert!(
        ts.contains(
            r#"type Target = { address: string; type: "email" } | { number: string; type: "sms" };"#
        ),
        "{ts}"
    );
}

// ---- free functions gathered with tools! ----

/// Double a number.
#[codemode::tool]
fn double(n: i64) -> i64 {
    n * 2
}

/// A parameter named like its function.
#[codemode::tool]
fn echo(echo: String) -> String {
    echo
}

/// Divide, failing on zero.
#[codemode::tool(name = "divide")]
async fn div(a: f64, b: f64) -> Result<f64, String> {
    if b == 0.0 {
        Err("division by zero".into())
    } else {
        Ok(a / b)
    }
}

/// Label a thing by its kind.
#[codemode::tool]
fn label(r#type: String, note: Option<String>, count: Option<u32>) -> String {
    format!("{type}:{note:?}:{count:?}", type = r#type)
}

codemode::tools! {
    /// Arithmetic.
    struct Maths { double, div, echo }
}

codemode::tools! {
    /// One tool whose parameter is a raw identifier.
    struct Labels { label }
}

/// Arguments are read field by field (no derived deserializer): a raw
/// identifier is read under its plain name, as the schema declares it, a
/// missing `Option` is `None`, and every refusal reads as serde's would.
#[test]
fn arguments_are_read_as_the_schema_declares_them() {
    let def = &Labels::tool_defs()[0];
    assert_eq!(def.input_schema["required"], json!(["type"]));
    block_on(async {
        let call = |args: Value| Labels.call("label", args);
        assert_eq!(
            call(json!({"type": "box"})).await,
            Ok(json!("box:None:None"))
        );
        assert_eq!(
            call(json!({"type": "box", "note": "x", "count": 2})).await,
            Ok(json!("box:Some(\"x\"):Some(2)"))
        );
        let message = |args: Value| async { call(args).await.unwrap_err().message };
        assert_eq!(
            message(json!({"count": 1})).await,
            "invalid arguments: missing field `type`"
        );
        assert_eq!(
            message(json!({"type": "a", "r#type": "b"})).await,
            "invalid arguments: unknown field `r#type`, expected one of `type`, `note`, `count`"
        );
        assert_eq!(
            message(json!({"type": "a", "count": -1})).await,
            "invalid arguments at `count`: invalid value: integer `-1`, expected u32"
        );
        assert_eq!(
            message(json!(["box"])).await,
            "invalid arguments: invalid type: sequence, expected an object of the tool's arguments"
        );
        assert_eq!(
            call(json!({"type": "a", "note": null, "count": null})).await,
            Ok(json!("a:None:None"))
        );
    });
}

#[test]
fn free_functions_form_a_toolset() {
    let names: Vec<String> = Maths::tool_defs().into_iter().map(|t| t.name).collect();
    assert_eq!(names, ["divide", "double", "echo"]);
    block_on(async {
        assert_eq!(Maths.call("double", json!({"n": 21})).await, Ok(json!(42)));
        let err = Maths
            .call("divide", json!({"a": 1.0, "b": 0.0}))
            .await
            .unwrap_err();
        assert_eq!(
            (err.kind, err.message.as_str()),
            (ErrorKind::ToolFailed, "division by zero")
        );
        let err = Maths.call("triple", json!({})).await.unwrap_err();
        assert_eq!(
            err.message,
            r#"no tool is named "triple"; the tools are: "divide", "double", "echo""#
        );
        assert_eq!(
            Maths.call("echo", json!({"echo": "hi"})).await,
            Ok(json!("hi"))
        );
    });
    assert_eq!(double(4), 8);
}

// ---- the arguments' schema, built without a derive ----

/// A tool and the struct schemars would derive for its parameters, from
/// one list of fields. The struct has no doc comment: the arguments object
/// has none.
macro_rules! tool_and_struct {
    ($tool:ident, $args:ident { $($(#[$doc:meta])* $field:ident: $ty:ty,)* }) => {
        /// Every shape of parameter, each documented differently.
        #[codemode::tool]
        #[allow(clippy::too_many_arguments)]
        fn $tool($($(#[$doc])* $field: $ty,)*) -> usize {
            let _ = ($($field,)*);
            0
        }

        #[derive(JsonSchema)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct $args {
            $($(#[$doc])* $field: $ty,)*
        }
    };
}

tool_and_struct!(shapes, ShapesArgs {
    /// One line.
    title: String,
    /// # A title line
    ///
    /// Then a description
    /// over two lines.
    priority: Option<Priority>,
    ///   Indented, with trailing space.
    tasks: Vec<Task>,
    r#type: Target,
    extra: serde_json::Value,
    boxed: Box<Option<u32>>,
    #[doc = "An attribute written out."]
    tags: BTreeMap<String, Vec<i64>>,
    /// A nested option.
    maybe: Option<Option<bool>>,
});

/// No parameters at all.
#[codemode::tool]
fn nothing() {}

#[derive(JsonSchema)]
#[serde(deny_unknown_fields)]
struct NothingArgs {}

/// `#[tool]` builds the arguments' schema from each parameter's own schema
/// instead of deriving it per tool; it must be exactly what the derive
/// gives, so SDKs do not move.
#[test]
fn argument_schemas_equal_what_schemars_derives() {
    use codemode::Tool;
    assert_eq!(
        shapes::def().input_schema,
        codemode::__private::schema_for::<ShapesArgs>()
    );
    assert_eq!(
        nothing::def().input_schema,
        codemode::__private::schema_for::<NothingArgs>()
    );
}
