//! `codemode report --tokens`: what the SDKs cost in prompt tokens, next to
//! the same tools sent as native tool definitions.

use codemode::{Catalog, Language, ToolDef};
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
pub fn count(tools: Vec<ToolDef>) -> Result<TokenReport, String> {
    let bpe = tiktoken_rs::o200k_base()
        .map_err(|e| format!("cannot load the o200k_base tokenizer: {e}"))?;
    let tokens = |text: &str| token_count(&bpe, text);
    let empty = Catalog::new([]);
    let empty_ts = tokens(empty.render(Language::TypeScript));
    let empty_py = tokens(empty.render(Language::Python));
    let catalog = Catalog::new(tools);
    let rows = catalog
        .tools()
        .map(|tool| {
            let one = Catalog::new([tool.clone()]);
            Row {
                name: tool.name.clone(),
                // A tool's share: the SDK with it alone, less the empty SDK.
                typescript: tokens(one.render(Language::TypeScript)).saturating_sub(empty_ts),
                python: tokens(one.render(Language::Python)).saturating_sub(empty_py),
                native: native_tokens(&bpe, tool),
            }
        })
        .collect::<Vec<_>>();
    let native = rows.iter().map(|r| r.native).sum();
    Ok(TokenReport {
        typescript: tokens(catalog.render(Language::TypeScript)),
        python: tokens(catalog.render(Language::Python)),
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
    token_count(bpe, &definition.to_string())
}

/// Longest piece of text handed to the tokenizer at once. Its pattern
/// backtracks on long runs of spaces (and panics past its limit), and its
/// merges are quadratic in the length of one word, so text from a hostile
/// tool list is cut first.
const MAX_PIECE: usize = 4096;

/// The o200k token count of `text`, cut into pieces of at most
/// [`MAX_PIECE`] bytes. A piece ends before a space that follows a
/// non-space, where the tokenizer splits anyway, so ordinary text counts
/// exactly; only a run with no such place is cut mid-run.
fn token_count(bpe: &CoreBPE, text: &str) -> usize {
    let mut total = 0;
    let mut rest = text;
    while rest.len() > MAX_PIECE {
        let mut end = MAX_PIECE;
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let window = &rest[..end];
        let natural = window
            .char_indices()
            .rev()
            .find(|&(i, c)| {
                c.is_whitespace()
                    && i > 0
                    && window[..i]
                        .chars()
                        .next_back()
                        .is_some_and(|p| !p.is_whitespace())
            })
            .map(|(i, _)| i);
        let cut = natural.unwrap_or(end);
        total += bpe.encode_ordinary(&rest[..cut]).len();
        rest = &rest[cut..];
    }
    total + bpe.encode_ordinary(rest).len()
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
        let report = count(tools).unwrap();
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

    #[test]
    fn long_runs_are_counted_without_failing() {
        let bpe = tiktoken_rs::o200k_base().unwrap();
        let prose = "The quick brown fox jumps over the lazy dog. ".repeat(400);
        // Ordinary text is cut where the tokenizer splits anyway.
        assert_eq!(token_count(&bpe, &prose), bpe.encode_ordinary(&prose).len());
        for hostile in [
            " ".repeat(1 << 20),
            "a".repeat(1 << 20),
            "\n".repeat(1 << 20),
        ] {
            let n = token_count(&bpe, &hostile);
            assert!(n > 0 && n < hostile.len(), "{n}");
        }
    }
}
