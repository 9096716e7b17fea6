//! `codemode report --tokens`: what the SDKs cost in prompt tokens, next to
//! the same tools sent as native tool definitions.

use codemode::{Language, ToolDef, normalize, render};
use serde_json::json;
use std::fmt::Write;
use tiktoken_rs::CoreBPE;

/// Token counts per tool and in total.
pub struct TokenReport {
    rows: Vec<Row>,
    /// The whole TypeScript SDK (its header counted once).
    pub typescript: usize,
    /// The whole Python SDK.
    pub python: usize,
    /// Every tool as a native definition (`name`, `description`, `input_schema`).
    pub native: usize,
}

struct Row {
    name: String,
    typescript: usize,
    python: usize,
    native: usize,
}

/// Counts the tokens of `tools` with o200k_base.
pub fn count(tools: &[ToolDef]) -> Result<TokenReport, String> {
    let bpe = tiktoken_rs::o200k_base()
        .map_err(|e| format!("cannot load the o200k_base tokenizer: {e}"))?;
    let tokens = |text: &str| bpe.encode_ordinary(text).len();
    let empty_ts = tokens(&render(Language::TypeScript, &[]));
    let empty_py = tokens(&render(Language::Python, &[]));
    let rows = normalize(tools)
        .into_iter()
        .map(|tool| {
            let one = std::slice::from_ref(tool);
            Row {
                name: tool.name.clone(),
                // A tool's share: the SDK with it alone, less the empty SDK.
                typescript: tokens(&render(Language::TypeScript, one)).saturating_sub(empty_ts),
                python: tokens(&render(Language::Python, one)).saturating_sub(empty_py),
                native: native_tokens(&bpe, tool),
            }
        })
        .collect::<Vec<_>>();
    let native = rows.iter().map(|r| r.native).sum();
    Ok(TokenReport {
        typescript: tokens(&render(Language::TypeScript, tools)),
        python: tokens(&render(Language::Python, tools)),
        native,
        rows,
    })
}

/// The tool as a provider's native tool definition, compact JSON.
fn native_tokens(bpe: &CoreBPE, tool: &ToolDef) -> usize {
    let definition = json!({
        "name": tool.name,
        "description": tool.description.clone().unwrap_or_default(),
        "input_schema": tool.input_schema,
    });
    bpe.encode_ordinary(&definition.to_string()).len()
}

impl TokenReport {
    /// A table: one row per tool, then totals and ratios.
    pub fn table(&self) -> String {
        let width = self
            .rows
            .iter()
            .map(|r| r.name.chars().count())
            .max()
            .unwrap_or(4)
            .clamp(4, 48);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<width$}  {:>10}  {:>10}  {:>10}",
            "tool", "typescript", "python", "native"
        );
        for row in &self.rows {
            let name: String = row.name.chars().take(width).collect();
            let _ = writeln!(
                out,
                "{name:<width$}  {:>10}  {:>10}  {:>10}",
                row.typescript, row.python, row.native
            );
        }
        let _ = writeln!(
            out,
            "{:<width$}  {:>10}  {:>10}  {:>10}",
            "total", self.typescript, self.python, self.native
        );
        let ratio = |n: usize| {
            if self.native == 0 {
                0.0
            } else {
                n as f64 / self.native as f64
            }
        };
        let _ = writeln!(
            out,
            "{:<width$}  {:>10.3}  {:>10.3}  {:>10}",
            "ratio to native",
            ratio(self.typescript),
            ratio(self.python),
            "1.000"
        );
        out
    }

    /// The totals as one JSON object.
    pub fn json(&self) -> String {
        json!({
            "typescript_tokens": self.typescript,
            "python_tokens": self.python,
            "native_tokens": self.native,
        })
        .to_string()
            + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_rows_add_up() {
        let tools = vec![
            ToolDef::new("a", json!({"type": "object", "properties": {"x": {"type": "string", "description": "An x."}}})).with_description("Do a."),
            ToolDef::new("b", json!({"type": "object"})),
        ];
        let report = count(&tools).unwrap();
        assert_eq!(report.rows.len(), 2);
        assert_eq!(
            report.native,
            report.rows.iter().map(|r| r.native).sum::<usize>()
        );
        assert!(report.typescript > report.rows[0].typescript);
        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(json["native_tokens"], report.native);
        assert!(report.table().contains("ratio to native"));
    }
}
