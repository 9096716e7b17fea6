//! The prepared catalog: a tool list validated, normalised and lowered once,
//! then printed in each language at most once.

use crate::language::Language;
use crate::print::{python, typescript};
use crate::render::Rendered;
use crate::run_code::{RunCodeTool, run_code_tool_for};
use crate::schema::{Degradation, Lowered, lower_tools};
use crate::tool::{ToolDef, normalize, select};
use crate::toolset::Toolset;
use std::borrow::Cow;
use std::sync::OnceLock;

/// A tool list prepared for rendering: duplicates dropped (the first
/// declaration of a name wins) and reported, tools a program may not call
/// left out, the rest sorted by name and every schema lowered once. Each
/// language's SDK is printed on first use and kept, so a host that offers
/// `run_code` on every request, or a build that needs the SDK, the
/// `run_code` definitions and the fingerprint, pays for one render per
/// language.
///
/// The free functions ([`render`](crate::render), [`run_code_tool`](crate::run_code_tool),
/// [`fingerprint`](crate::fingerprint)) give the same texts.
///
/// ```
/// use codemode_core::{Catalog, Language, ToolDef, render};
/// use serde_json::json;
///
/// let tools = vec![
///     ToolDef::new("search", json!({"type": "object", "properties": {"q": {"type": "string"}}})),
///     ToolDef::new("fetch", json!({"type": "object"})).with_description("first"),
///     ToolDef::new("fetch", json!({"type": "object"})).with_description("second"),
/// ];
/// let catalog = Catalog::new(tools.clone());
/// assert_eq!(catalog.duplicates(), ["fetch"]);
/// assert_eq!(catalog.tool_names().collect::<Vec<_>>(), ["fetch", "search"]);
/// assert_eq!(catalog.render(Language::Python), render(Language::Python, &tools));
/// assert!(catalog.run_code_tool(Language::TypeScript).description.contains(catalog.render(Language::TypeScript)));
/// assert_eq!(catalog.fingerprint().len(), 64);
/// ```
#[derive(Debug, Clone)]
pub struct Catalog {
    lowered: Lowered<'static>,
    duplicates: Vec<String>,
    typescript: OnceLock<Rendered>,
    python: OnceLock<Rendered>,
    fingerprint: OnceLock<String>,
}

impl Catalog {
    /// Prepares `tools`.
    pub fn new(tools: impl IntoIterator<Item = ToolDef>) -> Self {
        let tools: Vec<ToolDef> = tools.into_iter().collect();
        let (keep, duplicates) = select(&tools, |tool| tool.policy.from_program());
        let mut slots: Vec<Option<ToolDef>> = tools.into_iter().map(Some).collect();
        let kept = keep
            .into_iter()
            .filter_map(|i| slots.get_mut(i).and_then(Option::take))
            .map(Cow::Owned)
            .collect();
        Catalog {
            lowered: lower_tools(kept),
            duplicates,
            typescript: OnceLock::new(),
            python: OnceLock::new(),
            fingerprint: OnceLock::new(),
        }
    }

    /// Prepares the tools `toolset` declares now.
    pub fn from_toolset<T: Toolset + ?Sized>(toolset: &T) -> Self {
        Catalog::new(toolset.defs())
    }

    /// The tools in the SDK, sorted by name.
    pub fn tools(&self) -> impl ExactSizeIterator<Item = &ToolDef> {
        self.lowered.tools.iter().map(|t| t.tool.as_ref())
    }

    /// The names of the tools in the SDK, sorted.
    pub fn tool_names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.tools().map(|t| t.name.as_str())
    }

    /// How many tools the SDK declares.
    pub fn len(&self) -> usize {
        self.lowered.tools.len()
    }

    /// Whether the SDK declares no tool.
    pub fn is_empty(&self) -> bool {
        self.lowered.tools.is_empty()
    }

    /// Names declared more than once, sorted; only each one's first
    /// declaration is in the SDK.
    pub fn duplicates(&self) -> &[String] {
        &self.duplicates
    }

    /// The SDK text for a program in `language` (JavaScript and TypeScript
    /// share one).
    pub fn render(&self, language: Language) -> &str {
        &self.rendered(language).text
    }

    /// The SDK text and its degradations.
    pub fn rendered(&self, language: Language) -> &Rendered {
        match language {
            Language::JavaScript | Language::TypeScript => &self.typescript,
            Language::Python => &self.python,
        }
        .get_or_init(|| print(language, &self.lowered))
    }

    /// Every schema node that fell to the escape hatch in `language`'s SDK,
    /// sorted by tool and pointer. Python's include TypeScript's, and the
    /// cases only Python cannot express.
    pub fn degradations(&self, language: Language) -> &[Degradation] {
        &self.rendered(language).degradations
    }

    /// The `run_code` tool for a program in `language`, with this SDK.
    pub fn run_code_tool(&self, language: Language) -> RunCodeTool {
        run_code_tool_for(language, self.render(language))
    }

    /// The fingerprint of the tool set, as [`fingerprint`](crate::fingerprint)
    /// computes it.
    pub fn fingerprint(&self) -> &str {
        self.fingerprint.get_or_init(|| {
            crate::render::fingerprint_texts(
                Some(self.render(Language::TypeScript)),
                Some(self.render(Language::Python)),
            )
        })
    }
}

impl From<Vec<ToolDef>> for Catalog {
    fn from(tools: Vec<ToolDef>) -> Self {
        Catalog::new(tools)
    }
}

/// Lowers the tools an SDK declares ([`normalize`]), borrowing them.
pub(crate) fn lower_borrowed(tools: &[ToolDef]) -> Lowered<'_> {
    lower_tools(normalize(tools).into_iter().map(Cow::Borrowed).collect())
}

/// Prints a lowered tool set. The one place degradations are merged: the
/// lowering's, and for Python those of its own conversion.
pub(crate) fn print(language: Language, lowered: &Lowered<'_>) -> Rendered {
    match language {
        Language::JavaScript | Language::TypeScript => Rendered {
            text: typescript::render(lowered),
            degradations: lowered.degradations.clone(),
        },
        Language::Python => {
            let (text, extra) = python::render(lowered);
            let mut degradations = lowered.degradations.clone();
            degradations.extend(extra);
            degradations.sort();
            degradations.dedup();
            Rendered { text, degradations }
        }
    }
}
