//! What the code `#[codemode::tool]` and `#[codemode::toolset]` generate calls.
//! Not a public API: names here may change in any release.

pub use ::schemars;
pub use ::serde;
pub use ::serde_json;
/// The body of `tools!`.
pub use codemode_macros::__tools as tools_impl;

use crate::{ErrorKind, ToolCallError, ToolDef};
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::any::Any;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

/// Types a tool can take as its arguments.
#[diagnostic::on_unimplemented(
    message = "the arguments of a tool must implement `Deserialize` and `JsonSchema`: `{Self}` does not",
    label = "this type cannot be read from the program's JSON arguments",
    note = "derive them: `#[derive(serde::Deserialize, schemars::JsonSchema)]`"
)]
pub trait ToolArgs: DeserializeOwned + JsonSchema {}
impl<T: DeserializeOwned + JsonSchema> ToolArgs for T {}

/// Types a tool can return (inside `Result` or not).
#[diagnostic::on_unimplemented(
    message = "the output of a tool must implement `Serialize` and `JsonSchema`: `{Self}` does not",
    label = "this type cannot be sent back to the program as JSON",
    note = "derive them: `#[derive(serde::Serialize, schemars::JsonSchema)]`"
)]
pub trait ToolOutput: Serialize + JsonSchema {}
impl<T: Serialize + JsonSchema> ToolOutput for T {}

/// Compile-time check that a parameter type can be an argument.
pub const fn assert_args<T: ToolArgs>() {}

/// The JSON Schema of `T`, without the root `$schema` and `title` (the tool
/// carries its own name), and with its `$defs`.
pub fn schema_for<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut value = generator.into_root_schema_for::<T>().to_value();
    if let Some(map) = value.as_object_mut() {
        map.remove("$schema");
        map.remove("title");
    }
    value
}

/// One parameter of a tool, for its arguments' schema.
pub struct ParamSchema {
    name: &'static str,
    doc: &'static str,
    schema: fn(&mut schemars::SchemaGenerator) -> schemars::Schema,
    optional: fn() -> bool,
}

/// Parameter `name` of type `T`, with its doc comment (`doc`, the lines
/// joined by `\n`, each without its first space).
fn param<T: ToolArgs>(name: &'static str, doc: &'static str) -> ParamSchema {
    ParamSchema {
        name,
        doc,
        schema: |generator| generator.subschema_for::<T>(),
        // Optional exactly when the reader accepts it missing (`Option`).
        optional: || T::deserialize(Missing("")).is_ok(),
    }
}

/// The schema of a tool's arguments object, built from its parameters'
/// own schemas. It is what schemars derives for a struct of those fields
/// with `deny_unknown_fields` (a test holds the two equal), without a
/// derived impl per tool: the derive was a large part of a tools crate's
/// compile time.
pub fn args_schema(params: &[ParamSchema]) -> Value {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut object = serde_json::Map::new();
    object.insert("type".into(), "object".into());
    object.insert("additionalProperties".into(), false.into());
    let mut properties = serde_json::Map::new();
    let mut required = Vec::new();
    for param in params {
        let mut schema = (param.schema)(&mut generator);
        let (title, description) = title_and_description(param.doc);
        for (key, text) in [("title", title), ("description", description)] {
            if !text.is_empty() {
                schema.insert(key.to_owned(), text.into());
            }
        }
        properties.insert(param.name.to_owned(), schema.to_value());
        if !(param.optional)() {
            required.push(Value::from(param.name));
        }
    }
    if !properties.is_empty() {
        object.insert("properties".into(), properties.into());
    }
    if !required.is_empty() {
        object.insert("required".into(), required.into());
    }
    let definitions = generator.take_definitions(true);
    if !definitions.is_empty() {
        object.insert("$defs".into(), definitions.into());
    }
    Value::Object(object)
}

/// A doc comment as schemars reads one: a first line that starts with `#`
/// is the title, the rest the description; otherwise all of it is the
/// description. Both trimmed.
fn title_and_description(doc: &str) -> (&str, &str) {
    let doc = doc.trim_ascii();
    match doc.strip_prefix('#') {
        Some(_) => {
            let end = doc.find('\n').unwrap_or(doc.len());
            let title = doc[..end].trim_start_matches('#').trim_ascii();
            (title, doc[end..].trim_ascii())
        }
        None => ("", doc),
    }
}

/// A tool's declaration.
pub fn tool_def(name: &str, description: &str, input: Value, output: Value) -> ToolDef {
    ToolDef::new(name, input)
        .with_description(description)
        .with_output_schema(output)
}

/// MCP annotations from `#[tool(...)]`: the title and the four hints
/// (read-only, destructive, idempotent, open-world).
pub fn annotations(title: Option<&str>, hints: [Option<bool>; 4]) -> crate::ToolAnnotations {
    crate::ToolAnnotations {
        title: title.map(str::to_owned),
        read_only_hint: hints[0],
        destructive_hint: hints[1],
        idempotent_hint: hints[2],
        open_world_hint: hints[3],
    }
}

/// Reads the arguments; `null` (a call with no argument) counts as `{}`.
/// The error names the JSON path of the bad field.
pub fn parse_args<T: DeserializeOwned>(tool: &str, args: Value) -> Result<T, ToolCallError> {
    let args = if args.is_null() {
        Value::Object(Default::default())
    } else {
        args
    };
    serde_path_to_error::deserialize(args).map_err(|e| {
        let path = e.path().to_string();
        invalid_arguments(tool, &path, e.into_inner())
    })
}

/// A tool's arguments object, read one parameter at a time. `#[tool]`
/// expands to this rather than to a derived deserializer per tool: the
/// parsing is compiled once, here, and each tool only names its fields,
/// which keeps the code generated per tool (and its compile time) small.
/// It reads what serde's derive with `deny_unknown_fields` reads, with the
/// same messages: `null` counts as `{}`, an unknown key is refused, a
/// missing `Option` is `None`, and any other missing field is an error.
pub struct Args {
    tool: &'static str,
    map: serde_json::Map<String, Value>,
}

/// Starts reading `args` for `tool`, whose parameters are `fields`.
pub fn args(
    tool: &'static str,
    args: Value,
    fields: &'static [&'static str],
) -> Result<Args, ToolCallError> {
    use serde::de::Error as _;
    let map = match args {
        Value::Null => serde_json::Map::new(),
        Value::Object(map) => map,
        // serde_json words the refusal (`invalid type: string "x", ...`).
        other => {
            let error = match serde::Deserializer::deserialize_map(other, ArgsObject) {
                Err(error) => error,
                Ok(never) => match never {},
            };
            return Err(invalid_arguments(tool, ".", error));
        }
    };
    if let Some(key) = map.keys().find(|key| !fields.contains(&key.as_str())) {
        let error = serde_json::Error::unknown_field(key, fields);
        return Err(invalid_arguments(tool, ".", error));
    }
    Ok(Args { tool, map })
}

/// Reads one parameter of type `T`: `(&Param::<T>::new()).read(..)`.
/// For a type that cannot be read, the call resolves to [`Unreadable`]
/// instead of failing to compile, so the only error is the one
/// `assert_args` puts on the type.
pub struct Param<T>(PhantomData<T>);

impl<T> Param<T> {
    /// A reader for `T`.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Param(PhantomData)
    }
}

/// Chosen when `T` can be a tool's argument.
pub trait Readable<T> {
    /// Reads parameter `name` of `args`.
    fn read(&self, args: &mut Args, name: &'static str) -> Result<T, ToolCallError>;
    /// Parameter `name`'s part of the arguments' schema.
    fn schema(&self, name: &'static str, doc: &'static str) -> ParamSchema;
}

impl<T: ToolArgs> Readable<T> for Param<T> {
    fn read(&self, args: &mut Args, name: &'static str) -> Result<T, ToolCallError> {
        args.field(name)
    }

    fn schema(&self, name: &'static str, doc: &'static str) -> ParamSchema {
        param::<T>(name, doc)
    }
}

/// Chosen otherwise; never runs, as the crate does not compile.
pub trait Unreadable<T> {
    /// Never called.
    fn read(&self, args: &mut Args, name: &'static str) -> Result<T, ToolCallError>;
    /// Never called.
    fn schema(&self, name: &'static str, doc: &'static str) -> ParamSchema;
}

impl<T> Unreadable<T> for &Param<T> {
    fn read(&self, args: &mut Args, name: &'static str) -> Result<T, ToolCallError> {
        Err(ToolCallError::new(
            args.tool,
            ErrorKind::InvalidArguments,
            format!("parameter `{name}` has a type that cannot be read from JSON"),
        ))
    }

    fn schema(&self, name: &'static str, doc: &'static str) -> ParamSchema {
        ParamSchema {
            name,
            doc,
            schema: |_| schemars::Schema::default(),
            optional: || false,
        }
    }
}

impl Args {
    /// Reads parameter `name`.
    pub fn field<T: DeserializeOwned>(&mut self, name: &'static str) -> Result<T, ToolCallError> {
        match self.map.remove(name) {
            Some(value) => serde_path_to_error::deserialize(value).map_err(|e| {
                let inner = e.path().to_string();
                let path = match inner.as_str() {
                    "." => name.to_owned(),
                    p if p.starts_with('[') => format!("{name}{p}"),
                    p => format!("{name}.{p}"),
                };
                invalid_arguments(self.tool, &path, e.into_inner())
            }),
            None => T::deserialize(Missing(name)).map_err(|e| invalid_arguments(self.tool, ".", e)),
        }
    }
}

/// A field that is absent: `None` to an `Option`, an error to anything else.
struct Missing(&'static str);

impl<'de> serde::Deserializer<'de> for Missing {
    type Error = serde_json::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::missing_field(self.0))
    }

    fn deserialize_option<V: serde::de::Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// What a tool's arguments must be: an object. Only its refusals are
/// used, for their wording.
struct ArgsObject;

impl<'de> serde::de::Visitor<'de> for ArgsObject {
    type Value = std::convert::Infallible;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object of the tool's arguments")
    }
}

/// An `invalid_arguments` error at `path` (`.` for the whole object).
fn invalid_arguments(tool: &str, path: &str, error: impl std::fmt::Display) -> ToolCallError {
    let message = if path == "." {
        format!("invalid arguments: {error}")
    } else {
        format!("invalid arguments at `{path}`: {error}")
    };
    ToolCallError::new(tool, ErrorKind::InvalidArguments, message)
}

/// Turns a tool's result value into JSON.
pub fn serialize_output<T: ToolOutput>(tool: &str, value: T) -> Result<Value, ToolCallError> {
    serde_json::to_value(value).map_err(|e| {
        ToolCallError::new(
            tool,
            ErrorKind::ToolFailed,
            format!("the tool's output could not be serialised: {e}"),
        )
    })
}

/// Runs a synchronous tool body, turning a panic into a `ToolCallError`.
pub fn catch_sync<R>(tool: &str, body: impl FnOnce() -> R) -> Result<R, ToolCallError> {
    // The unwinding machinery is compiled once, for a `dyn` body, rather
    // than once per tool.
    let mut body = Some(body);
    let mut out = None;
    catch_dyn(&mut || out = body.take().map(|body| body()))
        .map_err(|payload| panicked(tool, payload))?;
    out.ok_or_else(|| panicked(tool, Box::new("the tool did not run")))
}

fn catch_dyn(body: &mut dyn FnMut()) -> std::thread::Result<()> {
    catch_unwind(AssertUnwindSafe(body))
}

/// Runs an asynchronous tool body, turning a panic while it is polled into a
/// `ToolCallError`.
pub fn catch_async<F: Future>(tool: &'static str, future: F) -> CatchUnwind<F> {
    CatchUnwind {
        tool,
        future: Box::pin(future),
    }
}

/// The future of [`catch_async`].
pub struct CatchUnwind<F> {
    tool: &'static str,
    future: Pin<Box<F>>,
}

impl<F: Future> Future for CatchUnwind<F> {
    type Output = Result<F::Output, ToolCallError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let tool = self.tool;
        match catch_unwind(AssertUnwindSafe(|| self.future.as_mut().poll(cx))) {
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(panicked(tool, payload))),
        }
    }
}

fn panicked(tool: &str, payload: Box<dyn Any + Send>) -> ToolCallError {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-string payload".to_owned());
    ToolCallError::new(
        tool,
        ErrorKind::ToolPanicked,
        format!("the tool panicked: {message}"),
    )
}

// ---- Telling `Result<T, E>` from a plain `T`, by trait impls ----
//
// Generated code calls `(&Probe::<R>::new()).kind()`. Method lookup first
// tries methods whose `&self` is `&Probe<R>`, which only the `Result` impl
// has, then (auto-referencing) `&&Probe<R>`, which every `R` has. No type is
// recognised by its name.

/// A stand-in for a return type, to pick how it is handled.
pub struct Probe<R>(PhantomData<R>);

impl<R> Probe<R> {
    /// A probe for `R`.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

/// Chosen for `Result<T, E>`.
pub trait ViaResult {
    /// `T` and `E`.
    type Kind;
    /// How to handle the value.
    fn kind(&self) -> Self::Kind;
}

/// Chosen for any other return type.
pub trait ViaPlain {
    /// The return type.
    type Kind;
    /// How to handle the value.
    fn kind(&self) -> Self::Kind;
}

impl<T, E> ViaResult for Probe<Result<T, E>> {
    type Kind = ResultKind<T, E>;
    fn kind(&self) -> Self::Kind {
        ResultKind(PhantomData)
    }
}

impl<R> ViaPlain for &Probe<R> {
    type Kind = PlainKind<R>;
    fn kind(&self) -> Self::Kind {
        PlainKind(PhantomData)
    }
}

/// A tool that returns `Result<T, E>`.
pub struct ResultKind<T, E>(PhantomData<(T, E)>);
/// A tool that returns a plain `R`.
pub struct PlainKind<R>(PhantomData<R>);

/// How a return value splits into output and error. No bounds here: they
/// sit on [`output_schema`] and [`serialize_output`], whose errors carry
/// [`ToolOutput`]'s message.
pub trait Split {
    /// The value the tool returned.
    type Returned;
    /// What the program receives.
    type Ok;
    /// What fails the call.
    type Err;
    /// The value as a `Result`.
    fn split(&self, value: Self::Returned) -> Result<Self::Ok, Self::Err>;
}

impl<T, E> Split for ResultKind<T, E> {
    type Returned = Result<T, E>;
    type Ok = T;
    type Err = E;
    fn split(&self, value: Result<T, E>) -> Result<T, E> {
        value
    }
}

impl<R> Split for PlainKind<R> {
    type Returned = R;
    type Ok = R;
    type Err = std::convert::Infallible;
    fn split(&self, value: R) -> Result<R, std::convert::Infallible> {
        Ok(value)
    }
}

/// The output schema of a tool whose return type `kind` stands for.
pub fn output_schema<K: Split>(_: &K) -> Value
where
    K::Ok: ToolOutput,
{
    schema_for::<K::Ok>()
}

// ---- Keeping the kind of an error that converts into ToolCallError ----

/// A stand-in for an error type, to pick how it becomes a `ToolCallError`.
pub struct ErrProbe<E>(PhantomData<E>);

impl<E> ErrProbe<E> {
    /// A probe for the type of `error`.
    pub fn of(_: &E) -> Self {
        ErrProbe(PhantomData)
    }
}

/// Chosen for errors that convert into `ToolCallError`: their kind is kept.
pub trait ViaInto {
    /// How to convert.
    fn err_kind(&self) -> IntoKind;
}

/// Chosen for any other error: it must be `Display`, and the call fails with
/// its message.
pub trait ViaDisplay {
    /// How to convert.
    fn err_kind(&self) -> DisplayKind;
}

impl<E: Into<ToolCallError>> ViaInto for ErrProbe<E> {
    fn err_kind(&self) -> IntoKind {
        IntoKind
    }
}

impl<E> ViaDisplay for &ErrProbe<E> {
    fn err_kind(&self) -> DisplayKind {
        DisplayKind
    }
}

/// Converts with `Into<ToolCallError>`.
pub struct IntoKind;
/// Converts with `Display`.
pub struct DisplayKind;

impl IntoKind {
    /// The error, named after the tool that was called.
    pub fn convert<E: Into<ToolCallError>>(self, tool: &str, error: E) -> ToolCallError {
        let mut error = error.into();
        error.tool_name = tool.to_owned();
        error
    }
}

impl DisplayKind {
    /// A failed call with the error's message (`{:#}`, so error chains that
    /// support it are shown whole).
    pub fn convert<E: ToolError>(self, tool: &str, error: E) -> ToolCallError {
        ToolCallError::new(tool, ErrorKind::ToolFailed, format!("{error:#}"))
    }
}

/// Error types a tool can return.
#[diagnostic::on_unimplemented(
    message = "the error type of a tool must implement `Display` or convert into `codemode::ToolCallError`: `{Self}` does neither",
    label = "the program could not be told what went wrong"
)]
pub trait ToolError: std::fmt::Display {}
impl<E: std::fmt::Display> ToolError for E {}

/// Fails at compile time if two tools in one toolset share a name.
pub const fn assert_unique_names(names: &[&str]) {
    let mut i = 0;
    while i < names.len() {
        let mut j = i + 1;
        while j < names.len() {
            if str_eq(names[i], names[j]) {
                panic!("two tools in this toolset have the same name");
            }
            j += 1;
        }
        i += 1;
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Sorts declarations by name (a toolset's `tool_defs()` order).
pub fn sorted(mut defs: Vec<ToolDef>) -> Vec<ToolDef> {
    defs.sort_by(|a, b| a.name.cmp(&b.name));
    defs
}
