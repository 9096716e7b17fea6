//! The languages an SDK can be rendered for, and the names every binding shares.

use std::fmt;
use std::str::FromStr;

/// The global through which a program reaches its tools: `tools["name"](args)`.
///
/// The SDK text declares it and every runtime binding must install it under this
/// same name, or the SDK would describe something the program cannot reach.
pub const GLOBAL: &str = "tools";

/// The class of the error a failed tool call raises (JavaScript) or throws (Python).
///
/// The SDK declares it and runtimes bind it under this same name.
pub const ERROR_CLASS: &str = "ToolCallError";

/// The third global of an SDK that is an index (a tool set too large for
/// its budget; see [`Catalog::render_within`](crate::Catalog::render_within)):
/// `describe(names)` returns the declarations of the tools named, and
/// `search(words)` finds tools. Tools are members of [`GLOBAL`], never
/// globals, so no tool name can collide with it.
pub const INDEX_GLOBAL: &str = "catalog";

/// A language a Code Mode program can be written in, and so an SDK flavour.
///
/// JavaScript and TypeScript share one declaration: under JavaScript the
/// TypeScript text is documentation that the model reads, never code that runs.
///
/// ```
/// use codemode_core::Language;
///
/// let lang: Language = "py".parse().unwrap();
/// assert_eq!(lang, Language::Python);
/// assert_eq!(lang.escape_hatch(), "Any");
/// let err = "ruby".parse::<Language>().unwrap_err();
/// assert!(err.to_string().contains("javascript, typescript, python"));
/// ```
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// JavaScript; the SDK text is the TypeScript declaration.
    JavaScript,
    /// TypeScript (run type-stripped).
    TypeScript,
    /// Python; the SDK text is a stub module of TypedDicts and a `Tools` protocol.
    Python,
}

impl Language {
    /// Every language, in a fixed order.
    pub const ALL: [Language; 3] = [Language::JavaScript, Language::TypeScript, Language::Python];

    /// The canonical lower-case name (`javascript`, `typescript`, `python`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Python => "python",
        }
    }

    /// The type a schema node gets when the renderer cannot express it:
    /// `unknown` for JavaScript and TypeScript, `Any` for Python.
    pub const fn escape_hatch(self) -> &'static str {
        match self {
            Language::JavaScript | Language::TypeScript => "unknown",
            Language::Python => "Any",
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A language name that no [`Language`] answers to.
///
/// Its message lists the names that are accepted; there is no silent fallback,
/// because an SDK in the wrong language misleads the model on every request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLanguage {
    /// The name as it was given.
    pub given: String,
}

impl fmt::Display for UnknownLanguage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown language {:?}: expected one of javascript, typescript, python (or js, ts, py)",
            self.given
        )
    }
}

impl std::error::Error for UnknownLanguage {}

impl FromStr for Language {
    type Err = UnknownLanguage;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "javascript" | "js" => Ok(Language::JavaScript),
            "typescript" | "ts" => Ok(Language::TypeScript),
            "python" | "py" => Ok(Language::Python),
            _ => Err(UnknownLanguage {
                given: s.to_owned(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for lang in Language::ALL {
            assert_eq!(lang.as_str().parse::<Language>(), Ok(lang));
            assert_eq!(lang.to_string(), lang.as_str());
        }
    }

    #[test]
    fn short_and_mixed_case_names() {
        assert_eq!("JS".parse(), Ok(Language::JavaScript));
        assert_eq!("ts".parse(), Ok(Language::TypeScript));
        assert_eq!(" Python ".parse(), Ok(Language::Python));
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        for bad in ["ruby", "", "toString", "constructor", "pythonn"] {
            let err = bad.parse::<Language>().unwrap_err();
            assert_eq!(err.given, bad);
            let msg = err.to_string();
            for lang in Language::ALL {
                assert!(msg.contains(lang.as_str()), "{msg}");
            }
        }
    }

    #[test]
    fn escape_hatches() {
        assert_eq!(Language::JavaScript.escape_hatch(), "unknown");
        assert_eq!(Language::TypeScript.escape_hatch(), "unknown");
        assert_eq!(Language::Python.escape_hatch(), "Any");
    }
}
