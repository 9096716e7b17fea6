//! `codemode report --tokens`: what the SDKs cost in prompt tokens, next to
//! the same tools sent as native tool definitions.

use codemode::{Catalog, Fit, Fitted, Language, ToolDef};
use serde_json::json;
use std::fmt::Write;
use tiktoken_rs::CoreBPE;

/// Token counts per tool and in total.
pub struct TokenReport {
    rows: Vec<Row>,
    /// Where the TypeScript SDK's tokens go.
    typescript_parts: Parts,
    /// Where the Python SDK's tokens go.
    python_parts: Parts,
    /// With a budget: the `run_code` description's tokens in each language,
    /// and how much of the tool set the SDK in it declares.
    within: Option<Within>,
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

/// A `run_code` description within a budget.
struct Within {
    budget: usize,
    typescript: (usize, Fit),
    python: (usize, Fit),
}

/// o200k_base token counting, for keeping a `run_code` description within
/// a budget exactly (the core's estimate can undercount some languages).
pub struct Counter {
    bpe: CoreBPE,
}

impl Counter {
    /// Loads o200k_base.
    pub fn load() -> Result<Self, String> {
        let bpe = tiktoken_rs::o200k_base()
            .map_err(|e| format!("cannot load the o200k_base tokenizer: {e}"))?;
        Ok(Counter { bpe })
    }

    /// The tokens of `text`, counted until `until` is reached: the count
    /// if it is less, else a number at least `until` (see
    /// [`CodeModeServer::token_counter`](codemode::mcp::CodeModeServer::token_counter)).
    #[cfg(feature = "mcp")]
    pub fn count_until(&self, text: &str, until: usize) -> usize {
        token_count_until(&self.bpe, text, until)
    }

    /// The SDK for `language` within `budget` tokens, as
    /// [`Catalog::within_by`] fits it. Each text is counted only until it is
    /// past the budget, as the fit asks of a count no more than whether it
    /// is, so an SDK of millions of tokens costs no more to rule out than
    /// the budget's worth; only when even the smallest SDK is past the
    /// budget is its description counted whole, to say by how much.
    pub fn within<'c>(
        &self,
        catalog: &'c Catalog,
        language: Language,
        budget: usize,
    ) -> Fitted<'c> {
        let past = budget.saturating_add(1);
        let mut fitted = catalog.within_by(language, budget, &|text| {
            token_count_until(&self.bpe, text, past)
        });
        if fitted.tokens > budget {
            fitted.tokens = token_count(&self.bpe, &fitted.run_code_tool.description);
        }
        fitted
    }
}

/// Counts the tokens of `tools` with o200k_base (and, with a `budget`, of
/// the `run_code` descriptions whose SDK is kept within it).
pub fn count(tools: Vec<ToolDef>, budget: Option<usize>) -> Result<TokenReport, String> {
    let counter = Counter::load()?;
    let bpe = &counter.bpe;
    let tokens = |text: &str| token_count(bpe, text);
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
                native: native_tokens(bpe, tool),
            }
        })
        .collect::<Vec<_>>();
    let native = rows.iter().map(|r| r.native).sum();
    let typescript = catalog.render(Language::TypeScript);
    let python = catalog.render(Language::Python);
    let within = budget.map(|budget| {
        let prompt = |language| {
            let fitted = counter.within(&catalog, language, budget);
            (fitted.tokens, fitted.fit)
        };
        Within {
            budget,
            typescript: prompt(Language::TypeScript),
            python: prompt(Language::Python),
        }
    });
    Ok(TokenReport {
        within,
        typescript: tokens(typescript),
        python: tokens(python),
        typescript_parts: Parts::count(&split(typescript, Syntax::TypeScript), &tokens),
        python_parts: Parts::count(&split(python, Syntax::Python), &tokens),
        native,
        rows,
    })
}

/// Tokens by what they are for. Each part is counted on its own, so the
/// parts add up to about the whole, not exactly.
#[derive(Debug, Default, PartialEq)]
struct Parts {
    /// The fixed text around the tools: the error class, the `tools`
    /// declaration, imports.
    header: usize,
    /// Descriptions and other doc text.
    descriptions: usize,
    /// Constraint notes in docs (`@format ...`, `@default ...`).
    notes: usize,
    /// Everything else: names, types, punctuation.
    types: usize,
}

impl Parts {
    fn count(texts: &[String; 4], tokens: &impl Fn(&str) -> usize) -> Parts {
        Parts {
            header: tokens(&texts[Part::Header as usize]),
            descriptions: tokens(&texts[Part::Description as usize]),
            notes: tokens(&texts[Part::Note as usize]),
            types: tokens(&texts[Part::Type as usize]),
        }
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "header": self.header,
            "descriptions": self.descriptions,
            "notes": self.notes,
            "types": self.types,
        })
    }
}

#[derive(Clone, Copy)]
enum Part {
    Header,
    Description,
    Note,
    Type,
}

#[derive(Clone, Copy, PartialEq)]
enum Syntax {
    TypeScript,
    Python,
}

/// The keywords a doc note starts with (`@format`, `@default`, ...), as
/// the printers write them.
const NOTE_TAGS: [&str; 14] = [
    "@format ",
    "@pattern ",
    "@minLength ",
    "@maxLength ",
    "@minimum ",
    "@exclusiveMinimum ",
    "@maximum ",
    "@exclusiveMaximum ",
    "@multipleOf ",
    "@minItems ",
    "@maxItems ",
    "@uniqueItems",
    "@default ",
    "@deprecated",
];

/// The SDK's text sorted into its four parts, each joined by newlines. A
/// line is read as the printers write them: the fixed lines they always
/// write are the header; comments (`//`, `/** */`, `#`) and docstrings are
/// doc text, from the first note tag on notes; the rest is types.
fn split(sdk: &str, syntax: Syntax) -> [String; 4] {
    let mut parts: [String; 4] = Default::default();
    let mut push = |part: Part, text: &str| {
        let out = &mut parts[part as usize];
        out.push_str(text);
        out.push('\n');
    };
    let push_doc = |text: &str, push: &mut dyn FnMut(Part, &str)| match NOTE_TAGS
        .iter()
        .filter_map(|t| text.find(t))
        .min()
    {
        Some(at) => {
            push(Part::Description, &text[..at]);
            push(Part::Note, &text[at..]);
        }
        None => push(Part::Description, text),
    };
    // A line of code, and the comment after it if it has one.
    let code_line = |line: &str, push: &mut dyn FnMut(Part, &str)| match code_end(line, syntax) {
        Some(at) => {
            push(Part::Type, &line[..at]);
            push_doc(&line[at..], push);
        }
        None => push(Part::Type, line),
    };
    let mut in_doc = false;
    let mut in_header = syntax == Syntax::Python;
    for line in sdk.lines() {
        let trimmed = line.trim_start();
        if in_doc {
            let end = match syntax {
                Syntax::TypeScript => trimmed.starts_with("*/"),
                Syntax::Python => trimmed.ends_with("\"\"\""),
            };
            let text = trimmed.trim_end_matches("\"\"\"");
            push_doc(text, &mut push);
            in_doc = !end;
            continue;
        }
        match syntax {
            Syntax::TypeScript => {
                if line.starts_with("declare ") || line == "};" {
                    push(Part::Header, line);
                } else if let Some(doc) = trimmed.strip_prefix("/**") {
                    match doc.strip_suffix("*/") {
                        Some(one) => push_doc(one, &mut push),
                        None => in_doc = true,
                    }
                } else {
                    code_line(line, &mut push);
                }
            }
            Syntax::Python => {
                // The header runs to the end of the error class.
                if in_header {
                    push(Part::Header, line);
                    in_header = !line.trim_start().starts_with("kind: ");
                    continue;
                }
                if line == "class Tools(Protocol):"
                    || line.starts_with("tools: ")
                    || trimmed == "pass"
                {
                    push(Part::Header, line);
                } else if let Some(doc) = trimmed.strip_prefix("\"\"\"") {
                    match doc.strip_suffix("\"\"\"") {
                        Some(one) => push_doc(one, &mut push),
                        None => {
                            push_doc(doc, &mut push);
                            in_doc = true;
                        }
                    }
                } else {
                    code_line(line, &mut push);
                }
            }
        }
    }
    parts
}

/// Where a line comment starts in `line`, outside string literals.
fn code_end(line: &str, syntax: Syntax) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match (c, syntax) {
                ('"' | '\'', _) => quote = Some(c),
                ('#', Syntax::Python) => return Some(i),
                ('/', Syntax::TypeScript) if chars.peek().is_some_and(|&(_, n)| n == '/') => {
                    return Some(i);
                }
                _ => {}
            },
        }
    }
    None
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

/// Tokens added for each cut in the middle of a run with no space (see
/// [`token_count_until`]).
const CUT_MARGIN: usize = 4;

/// The o200k token count of `text`, cut into pieces of at most
/// [`MAX_PIECE`] bytes. A piece ends before a space that follows a
/// non-space, where the tokenizer splits anyway, so ordinary text counts
/// exactly; only a run with no such place is cut mid-run.
fn token_count(bpe: &CoreBPE, text: &str) -> usize {
    token_count_until(bpe, text, usize::MAX)
}

/// [`token_count`], stopped once the count reaches `until`: the count if
/// it is less, else a number at least `until`.
fn token_count_until(bpe: &CoreBPE, text: &str, until: usize) -> usize {
    let mut total = 0;
    let mut rest = text;
    while rest.len() > MAX_PIECE && total < until {
        let window = &rest[..rest.floor_char_boundary(MAX_PIECE)];
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
        let cut = natural.unwrap_or(window.len());
        total += bpe.encode_ordinary(&rest[..cut]).len();
        if natural.is_none() {
            // Cut mid-run: merges across the cut are lost or made, which
            // moves the count a little either way. The margin keeps it at
            // or above the exact count, so that a budget it allows holds.
            total += CUT_MARGIN;
        }
        rest = &rest[cut..];
    }
    if total < until {
        total += bpe.encode_ordinary(rest).len();
    }
    total
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
        let _ = writeln!(out, "\nby part (each counted alone, so about the total):");
        for (name, ts, py) in [
            (
                "header",
                self.typescript_parts.header,
                self.python_parts.header,
            ),
            (
                "descriptions",
                self.typescript_parts.descriptions,
                self.python_parts.descriptions,
            ),
            (
                "notes",
                self.typescript_parts.notes,
                self.python_parts.notes,
            ),
            (
                "types",
                self.typescript_parts.types,
                self.python_parts.types,
            ),
        ] {
            let _ = writeln!(out, "{name:<width$}  {ts:>10}  {py:>10}");
        }
        if let Some(w) = &self.within {
            let _ = writeln!(
                out,
                "\nrun_code description within {} tokens: typescript {} ({:?}), python {} ({:?})",
                w.budget, w.typescript.0, w.typescript.1, w.python.0, w.python.1
            );
        }
        out
    }

    /// The totals as one JSON object.
    pub fn json(&self) -> String {
        let mut report = json!({
            "typescript_tokens": self.typescript,
            "python_tokens": self.python,
            "native_tokens": self.native,
            "typescript_parts": self.typescript_parts.json(),
            "python_parts": self.python_parts.json(),
        });
        if let Some(w) = &self.within {
            report["within_budget"] = json!({
                "budget": w.budget,
                "typescript": {"run_code_tokens": w.typescript.0, "fit": format!("{:?}", w.typescript.1), "within": w.typescript.0 <= w.budget},
                "python": {"run_code_tokens": w.python.0, "fit": format!("{:?}", w.python.1), "within": w.python.0 <= w.budget},
            });
        }
        report.to_string() + "\n"
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
        let report = count(tools, Some(10)).unwrap();
        assert_eq!(report.rows.len(), 2);
        assert_eq!(
            report.native,
            report.rows.iter().map(|r| r.native).sum::<usize>()
        );
        assert!(report.typescript > report.rows[0].typescript);
        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(json["native_tokens"], report.native);
        assert!(report.table().contains("ratio to native"));
        // Ten tokens hold no SDK: an index, whose prompt is counted.
        assert_eq!(json["within_budget"]["typescript"]["fit"], "Groups");
        assert!(json["within_budget"]["python"]["run_code_tokens"].as_u64() > Some(100));
        assert!(
            report
                .table()
                .contains("run_code description within 10 tokens")
        );
    }

    #[test]
    fn parts_are_told_apart() {
        let tools = vec![
            ToolDef::new(
                "a",
                json!({"type": "object", "properties": {
                    "x": {"type": "string", "description": "An x.", "format": "email"},
                    "y#": {"type": "string", "description": "Two\nlines."}
                }}),
            )
            .with_description("Do a."),
        ];
        let catalog = Catalog::new(tools);
        let ts = split(catalog.render(Language::TypeScript), Syntax::TypeScript);
        let [header, descriptions, notes, types] = &ts;
        assert!(
            header.starts_with("declare class ToolCallError"),
            "{header}"
        );
        assert!(header.contains("declare const tools: {\n};\n"), "{header}");
        assert_eq!(notes, "@format email\n");
        for text in ["Do a.", "An x.", "Two", "lines."] {
            assert!(descriptions.contains(text), "{text:?} in {descriptions}");
        }
        assert!(
            types.contains("\"y#\"?: string;") && !types.contains("Do a."),
            "{types}"
        );
        let py = split(catalog.render(Language::Python), Syntax::Python);
        let [header, descriptions, notes, types] = &py;
        assert!(
            header.contains("from typing import") && header.contains("tools: Tools"),
            "{header}"
        );
        assert_eq!(notes, "@format email\n");
        assert!(
            descriptions.contains("Do a.") && descriptions.contains("An x."),
            "{descriptions}"
        );
        assert!(
            types.contains("\"y#\": ") && !types.contains("An x."),
            "{types}"
        );
    }

    /// The core's estimate, which decides when an SDK becomes an index,
    /// never undercounts o200k on SDK text, and overcounts by less than 40%.
    #[test]
    fn the_core_estimate_is_at_or_above_o200k() {
        let bpe = tiktoken_rs::o200k_base().unwrap();
        let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden");
        let mut texts: Vec<(String, String)> = Vec::new();
        for entry in std::fs::read_dir(&golden).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let tools: Vec<ToolDef> =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let catalog = Catalog::new(tools);
                for language in [Language::TypeScript, Language::Python] {
                    let name = format!("{} {language}", path.display());
                    texts.push((name.clone(), catalog.render(language).to_owned()));
                    texts.push((
                        format!("{name} index"),
                        catalog.index(language, codemode::Fit::Summaries),
                    ));
                }
            }
        }
        let prose = "The quick brown fox jumps over the lazy dog, then reads the file at ./a/b.txt (UTF-8). ";
        texts.push(("prose".into(), prose.repeat(20)));
        for (name, text) in texts {
            let exact = token_count(&bpe, &text);
            let estimate = codemode::estimate_tokens(&text);
            assert!(
                estimate >= exact,
                "{name}: estimate {estimate} < o200k {exact}"
            );
            assert!(
                estimate * 10 <= exact * 14,
                "{name}: estimate {estimate} > 1.4 x o200k {exact}"
            );
        }
        // Other scripts are overcounted more (they only reach an index
        // sooner), never undercounted.
        let scripts = "Überprüfe die Datei. 读取文件内容。 Файл прочитан ✅🚀 ∑ ".repeat(20);
        assert!(codemode::estimate_tokens(&scripts) >= token_count(&bpe, &scripts));
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

    /// A run with no space is cut in the middle, which can move the count
    /// either way; with the margin per cut it stays at or above the exact
    /// count.
    #[test]
    fn a_run_cut_in_the_middle_is_not_undercounted() {
        let bpe = tiktoken_rs::o200k_base().unwrap();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let alphabets: [&[u8]; 4] = [
            b"ab",
            b"abcdefghijklmnopqrstuvwxyz",
            b"bcdfghjklmnpqrstvwxz",
            b"ab1_-.",
        ];
        for round in 0..40 {
            let alphabet = alphabets[round % alphabets.len()];
            let len = 6_000 + next(6_000) as usize;
            let run: String = (0..len)
                .map(|_| alphabet[next(alphabet.len() as u64) as usize] as char)
                .collect();
            let exact = bpe.encode_ordinary(&run).len();
            let counted = token_count(&bpe, &run);
            assert!(counted >= exact, "{counted} < {exact} for a run of {len}");
        }
    }

    /// Counting each text only until it is past the budget chooses what
    /// counting it whole chooses, and says the same count, at budgets
    /// around every level's own size.
    #[test]
    fn a_fit_counted_until_past_the_budget_is_the_fit_counted_whole() {
        let counter = Counter::load().unwrap();
        let whole = |text: &str| token_count(&counter.bpe, text);
        // Groups of two with long names, so that even the bare groups take
        // more text than the counter reads at once.
        let tools = (0..200).map(|i| {
            let group = format!("group{}{}", i / 2, "longname".repeat(5));
            ToolDef::new(
                format!("{group}_tool_{i}"),
                json!({"type": "object", "properties": {"path": {"type": "string"}}}),
            )
            .with_description(format!(
                "Does thing {i} to a file. Then more words follow it."
            ))
        });
        let catalog = Catalog::new(tools);
        let same = |language, budget| {
            let exact = catalog.within_by(language, budget, &whole);
            let capped = counter.within(&catalog, language, budget);
            assert_eq!(
                (capped.fit, &capped.sdk, capped.tokens),
                (exact.fit, &exact.sdk, exact.tokens),
                "{language} at {budget}"
            );
            exact
        };
        for language in [Language::TypeScript, Language::Python] {
            // From the whole SDK down: each level's count, one less (the
            // next level: summaries, names, groups with fewer named), and
            // one more.
            let mut budget = 1_000_000;
            let mut fits = Vec::new();
            for _ in 0..6 {
                same(language, budget + 1);
                let fitted = same(language, budget);
                fits.push(fitted.fit);
                budget = fitted.tokens - 1;
            }
            assert_eq!(
                fits[..4],
                [Fit::Full, Fit::Summaries, Fit::Names, Fit::Groups]
            );
            // Past the budget whatever the SDK: counted whole, to say by how
            // much.
            let smallest = same(language, 0);
            assert!(smallest.run_code_tool.description.len() > MAX_PIECE);
        }
        // A count stopped early is at least where it stopped.
        let prose = "The quick brown fox jumps over the lazy dog. ".repeat(400);
        let all = whole(&prose);
        assert_eq!(token_count_until(&counter.bpe, &prose, all + 1), all);
        let stopped = token_count_until(&counter.bpe, &prose, 100);
        assert!((100..all).contains(&stopped), "{stopped} of {all}");
    }
}
