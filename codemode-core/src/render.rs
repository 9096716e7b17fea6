//! The public rendering entry points.

use crate::catalog;
use crate::language::Language;
use crate::print::typescript;
use crate::schema::{self, Degradation};
use crate::tool::ToolDef;
use serde_json::Value;

/// An SDK text together with every node that fell to the escape hatch.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The SDK text.
    pub text: String,
    /// Nodes rendered as the escape hatch, sorted by tool and pointer.
    pub degradations: Vec<Degradation>,
}

/// Renders the SDK that declares `tools` for a program written in `language`.
///
/// Tools are deduplicated by name (the first wins) and sorted, so the text
/// depends only on the tool set: it is byte-identical however the tools (and
/// the keys inside their schemas) are ordered. JavaScript and TypeScript get
/// the same text.
///
/// ```
/// use codemode_core::{render, Language, ToolDef};
/// use serde_json::json;
///
/// let greet = ToolDef::new(
///     "greet",
///     json!({
///         "type": "object",
///         "properties": {"name": {"type": "string"}},
///         "required": ["name"]
///     }),
/// )
/// .with_description("Say hi");
/// let sdk = render(Language::TypeScript, &[greet]);
/// assert!(sdk.contains(r#"greet(args: { name: string }): Promise<unknown>;"#));
/// ```
pub fn render(language: Language, tools: &[ToolDef]) -> String {
    render_report(language, tools).text
}

/// Like [`render`], and also returns the degradations. To render a tool set
/// more than once, or in both languages, prepare a [`Catalog`](crate::Catalog).
///
/// ```
/// use codemode_core::{render_report, Language, ToolDef};
/// use serde_json::json;
///
/// let tool = ToolDef::new("odd", json!({"properties": {"x": {"type": "quaternion"}}}));
/// let out = render_report(Language::TypeScript, &[tool]);
/// assert!(out.text.contains("x?: unknown"));
/// assert_eq!(out.degradations[0].pointer, "/inputSchema/properties/x");
/// ```
pub fn render_report(language: Language, tools: &[ToolDef]) -> Rendered {
    catalog::print(language, &catalog::lower_borrowed(tools), None)
}

/// Converts one JSON Schema node to a type expression in `language`.
///
/// Total: a node it cannot express becomes [`Language::escape_hatch`]. Local
/// `$ref`s are inlined, and a recursive one becomes the escape hatch.
///
/// ```
/// use codemode_core::{json_schema_to_type, Language};
/// use serde_json::json;
///
/// assert_eq!(json_schema_to_type(Language::TypeScript, &json!({"type": "integer"})), "number");
/// assert_eq!(json_schema_to_type(Language::Python, &json!({"type": "array"})), "list[Any]");
/// assert_eq!(json_schema_to_type(Language::TypeScript, &json!({"$ref": "#/definitions/x"})), "unknown");
/// ```
pub fn json_schema_to_type(language: Language, schema: &Value) -> String {
    let (ty, defs, _) = schema::lower_schema(schema);
    match language {
        Language::JavaScript | Language::TypeScript => typescript::expression(&ty, &defs),
        Language::Python => crate::print::python::expression(&ty, &defs),
    }
}

/// The fingerprint of a tool set: SHA-256, in hex, of its TypeScript and
/// Python SDK texts. Equal tool sets give equal fingerprints on every machine
/// (declaration order does not matter); any change a model could see in
/// either SDK changes it. `codemode-build` writes it as `FINGERPRINT` (when
/// it renders both languages), and an MCP toolset compares a live tool list
/// with a pinned one by it.
///
/// ```
/// use codemode_core::{ToolDef, fingerprint};
/// use serde_json::json;
///
/// let a = ToolDef::new("a", json!({"type": "object"}));
/// let b = ToolDef::new("b", json!({"type": "object"}));
/// assert_eq!(fingerprint(&[a.clone(), b.clone()]), fingerprint(&[b.clone(), a.clone()]));
/// assert_ne!(fingerprint(&[a.clone()]), fingerprint(&[a.with_description("A.")]));
/// assert_eq!(fingerprint(&[]).len(), 64);
/// ```
pub fn fingerprint(tools: &[ToolDef]) -> String {
    let lowered = catalog::lower_borrowed(tools);
    let typescript = catalog::print(Language::TypeScript, &lowered, None).text;
    let python = catalog::print(Language::Python, &lowered, None).text;
    fingerprint_texts(Some(&typescript), Some(&python))
}

/// The fingerprint of SDK texts already rendered: SHA-256 over each present
/// text, tagged with its language, as [`fingerprint`] computes it.
pub fn fingerprint_texts(typescript: Option<&str>, python: Option<&str>) -> String {
    use sha2::{Digest, Sha256};
    use std::fmt::Write as _;
    let mut hasher = Sha256::new();
    for (tag, text) in [("typescript", typescript), ("python", python)] {
        if let Some(text) = text {
            hasher.update(tag.as_bytes());
            hasher.update([0]);
            hasher.update(text.as_bytes());
            hasher.update([0]);
        }
    }
    hasher.finalize().iter().fold(String::new(), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    })
}

#[cfg(test)]
mod inlining_tests {
    use super::*;
    use serde_json::{Map, Value, json};

    /// Definitions `D0` to `D3`, each but the last with `k` members that
    /// refer to the next (properties of an object, or items of a tuple):
    /// spelled out in place, `k³` copies of `D3`.
    fn fan(k: usize, tuple: bool) -> Value {
        let mut defs = Map::new();
        for level in 0..4 {
            let member = |_| {
                if level == 3 {
                    json!({"type": "string"})
                } else {
                    json!({"$ref": format!("#/$defs/D{}", level + 1)})
                }
            };
            let body = if tuple {
                let items: Vec<Value> = (0..k).map(member).collect();
                json!({"type": "array", "prefixItems": items, "items": false})
            } else {
                let props: Map<String, Value> =
                    (0..k).map(|i| (format!("p{i}"), member(i))).collect();
                json!({"type": "object", "properties": props})
            };
            defs.insert(format!("D{level}"), body);
        }
        json!({"$ref": "#/$defs/D0", "$defs": defs})
    }

    #[test]
    fn spelling_definitions_out_stays_within_a_budget() {
        // Python spells objects as `dict[str, Any]`, so only tuples expand.
        for (language, tuple, hatch) in [
            (Language::TypeScript, false, "unknown"),
            (Language::TypeScript, true, "unknown"),
            (Language::Python, true, "Any"),
        ] {
            // Small fan-outs are spelled out whole, as before.
            let small = json_schema_to_type(language, &fan(2, tuple));
            assert!(!small.contains(hatch), "{small}");
            // Such a schema of 15 KB asked for gigabytes; now the text stays
            // within the budget's reach, and what is not spelled out is the
            // escape hatch.
            let large = json_schema_to_type(language, &fan(128, tuple));
            assert!(large.len() < 8 << 20, "{language:?}: {} bytes", large.len());
            assert!(large.contains(hatch), "{language:?}");
        }
    }
}
