//! Output schemas as validators: a tool's declared `outputSchema` is what
//! the SDK tells a program its result is, so a result that breaks it is an
//! error rather than a value the program's types misdescribe.

use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// The validator of `schema`; `None` when it cannot be compiled (a `$ref`
/// to elsewhere, say), which checks nothing. `format` is an annotation, as
/// in MCP's default dialect, whatever draft the schema names.
pub(crate) fn compile(schema: &Value) -> Option<Arc<jsonschema::Validator>> {
    jsonschema::options()
        .should_validate_formats(false)
        .build(schema)
        .ok()
        .map(Arc::new)
}

/// Where and how `value` breaks the schema `validator` was compiled from,
/// if it does. A `pattern` whose match ran past the regex engine's
/// backtracking limit checks nothing.
pub(crate) fn mismatch(validator: &jsonschema::Validator, value: &Value) -> Option<String> {
    let error = validator.iter_errors(value).find(|error| {
        !matches!(
            error.kind(),
            jsonschema::error::ValidationErrorKind::BacktrackLimitExceeded { .. }
        )
    })?;
    let at = error.instance_path().to_string();
    Some(if at.is_empty() {
        error.to_string()
    } else {
        format!("at {at}: {error}")
    })
}

/// A tool's output schema, compiled the first time a result is checked
/// against it.
pub(crate) struct LazyValidator {
    schema: Value,
    compiled: OnceLock<Option<Arc<jsonschema::Validator>>>,
}

impl LazyValidator {
    /// The validator of `schema`, not yet compiled.
    pub(crate) fn new(schema: Value) -> Self {
        LazyValidator {
            schema,
            compiled: OnceLock::new(),
        }
    }

    /// Where and how `value` breaks the schema, if it does (see
    /// [`mismatch`]); a schema that does not compile checks nothing.
    pub(crate) fn mismatch(&self, value: &Value) -> Option<String> {
        let compiled = self.compiled.get_or_init(|| compile(&self.schema));
        mismatch(compiled.as_deref()?, value)
    }
}
