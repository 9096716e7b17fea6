//! What a check of a program finds before it runs: located, coded, and
//! worded for the model that wrote the program.
//!
//! The types live here, outside the `check` feature, so that run outcomes
//! (which carry diagnostics) and hosts that only relay them need no parser.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One problem in a program, found before it runs.
///
/// `line` and `column` are 1-based and count characters in the program as
/// the model wrote it (TypeScript included, before its types are stripped).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// Whether the program certainly fails ([`Severity::Error`]) or likely
    /// misbehaves ([`Severity::Warning`]).
    pub severity: Severity,
    /// What kind of problem it is; stable across releases.
    pub code: DiagnosticCode,
    /// What is wrong and, where there is one, how to fix it.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    /// `line 3, column 14: error [unknown-tool]: no tool is named ...`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {} [{}]: {}",
            self.line, self.column, self.severity, self.code, self.message
        )
    }
}

/// How sure a diagnostic is that the program goes wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The program fails, or a call does not happen, when it runs this far.
    Error,
    /// The program runs, but not as written: a result or an error is lost.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The kinds of problem a check reports. Each has a stable kebab-case name
/// ([`as_str`](DiagnosticCode::as_str)), which is also its JSON form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DiagnosticCode {
    /// The program does not parse (`syntax-error`).
    SyntaxError,
    /// A call names a tool the SDK does not declare (`unknown-tool`).
    UnknownTool,
    /// An argument object has a key its schema does not allow (`unknown-key`).
    UnknownKey,
    /// An argument object lacks a required key (`missing-key`).
    MissingKey,
    /// A value has the wrong JSON type (`wrong-type`).
    WrongType,
    /// A value has the right type but is not one the schema allows: outside
    /// an `enum`, unequal to a `const`, too few or too many items
    /// (`invalid-value`).
    InvalidValue,
    /// A tool is called with arguments in a shape no call takes
    /// (`bad-arguments`).
    BadArguments,
    /// A tool call's result is never awaited (`not-awaited`).
    NotAwaited,
    /// The program uses a global, a built-in or a module that the sandbox
    /// does not provide (`unavailable`).
    Unavailable,
}

impl DiagnosticCode {
    /// Every code, in a fixed order.
    pub const ALL: [DiagnosticCode; 9] = [
        DiagnosticCode::SyntaxError,
        DiagnosticCode::UnknownTool,
        DiagnosticCode::UnknownKey,
        DiagnosticCode::MissingKey,
        DiagnosticCode::WrongType,
        DiagnosticCode::InvalidValue,
        DiagnosticCode::BadArguments,
        DiagnosticCode::NotAwaited,
        DiagnosticCode::Unavailable,
    ];

    /// The stable name: `syntax-error`, `unknown-tool`, `unknown-key`,
    /// `missing-key`, `wrong-type`, `invalid-value`, `bad-arguments`,
    /// `not-awaited` or `unavailable`.
    pub const fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::SyntaxError => "syntax-error",
            DiagnosticCode::UnknownTool => "unknown-tool",
            DiagnosticCode::UnknownKey => "unknown-key",
            DiagnosticCode::MissingKey => "missing-key",
            DiagnosticCode::WrongType => "wrong-type",
            DiagnosticCode::InvalidValue => "invalid-value",
            DiagnosticCode::BadArguments => "bad-arguments",
            DiagnosticCode::NotAwaited => "not-awaited",
            DiagnosticCode::Unavailable => "unavailable",
        }
    }
}

impl fmt::Display for DiagnosticCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for DiagnosticCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for DiagnosticCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_as_their_stable_names() {
        for code in DiagnosticCode::ALL {
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, serde_json::Value::from(code.as_str()));
            assert_eq!(
                serde_json::from_value::<DiagnosticCode>(json).unwrap(),
                code
            );
        }
        let d = Diagnostic {
            line: 2,
            column: 7,
            severity: Severity::Warning,
            code: DiagnosticCode::NotAwaited,
            message: "m".into(),
        };
        assert_eq!(d.to_string(), "line 2, column 7: warning [not-awaited]: m");
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"{"line":2,"column":7,"severity":"warning","code":"not-awaited","message":"m"}"#
        );
    }
}
