//! An SDK within a token budget: when every declaration does not fit, an
//! index of the tools instead, and the two functions a program calls to
//! read the declarations it needs ([`INDEX_GLOBAL`]`.describe`) and to find
//! tools by words (`.search`).
//!
//! Everything here is a pure function of the tool set (and the budget), so
//! the index and each tool's declaration are byte-stable, and a build can
//! fix them as constants.

use crate::canonical::{json_string, python_string};
use crate::catalog::Catalog;
use crate::error::ErrorKind;
use crate::language::{ERROR_CLASS, GLOBAL, INDEX_GLOBAL, Language};
use crate::print::comment::{clean_lines, defuse_python, defuse_typescript, escape_directives};
use crate::run_code::{RunCodeTool, run_code_tool_for_index};
use crate::schema::{Def, LoweredTool, Ty};
use crate::tool::ToolDef;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write;

/// How much of the tool set an SDK within a budget declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fit {
    /// Every declaration: the budget is not exceeded.
    Full,
    /// An index: every tool's name and a one-line summary, grouped by prefix.
    Summaries,
    /// An index of names only, grouped by prefix.
    Names,
    /// The groups and how many tools each holds, with the names of the
    /// tools in as many groups as the budget leaves room for (smallest
    /// groups first).
    Groups,
}

/// A tool that [`Catalog::search`] found.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ToolMatch {
    /// The tool's name.
    pub name: String,
    /// The first sentence of its description, at most [`SUMMARY_CHARS`]
    /// characters.
    pub summary: String,
}

/// Longest summary, in characters.
pub const SUMMARY_CHARS: usize = 100;

/// Most tools one `describe` call declares.
pub const MAX_DESCRIBED: usize = 50;

/// Most matches one `search` call returns.
pub const MAX_MATCHES: usize = 50;

/// Most words of one `search` query that count; the rest are ignored. A
/// query is read only as far as its first [`MAX_QUERY_BYTES`] bytes, so a
/// program cannot make one call cost more than a few words' worth.
pub const MAX_QUERY_WORDS: usize = 32;

/// Most bytes of an unknown name that `describe` repeats back.
const MAX_NAME_SHOWN: usize = 200;

/// Most bytes of one `search` query (or of one name `describe` looks up
/// close matches for) that are read.
pub const MAX_QUERY_BYTES: usize = 1024;

/// Most bytes of a tool's name, of its description and of each of its
/// parameters' names that search reads (the rest is not searched). A real
/// server's longest description is under 3,000 characters; a hostile one
/// of megabytes would make the first search of its catalog slow.
const MAX_SEARCHED_BYTES: usize = 16 << 10;

/// A conservative estimate of how many tokens `text` takes in the common
/// byte-pair tokenizers (o200k, cl100k): a run of letters counts one token
/// per six, a run of digits one per three, a run of punctuation one per
/// two, a line break with its indent one, a space before a word nothing,
/// and any other character one per two bytes of UTF-8. On English SDK text
/// it is at or above o200k's count. Some languages and scripts take more
/// tokens than it counts (Swahili and other Latin-script text with short
/// tokens, Thaana, N'Ko): where the budget must hold for any text, count
/// with the model's tokenizer ([`Catalog::within_by`]).
///
/// ```
/// use codemode_core::estimate_tokens;
///
/// assert_eq!(estimate_tokens(""), 0);
/// assert_eq!(estimate_tokens("read the file"), 3);
/// assert_eq!(estimate_tokens("understanding"), 3);
/// assert!(estimate_tokens("{ a?: string }") >= 5);
/// ```
pub fn estimate_tokens(text: &str) -> usize {
    let mut tokens = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let mut run = |first: char, same: fn(&char) -> bool| {
            let mut run: usize = usize::from(same(&first));
            while chars.peek().is_some_and(same) {
                chars.next();
                run += 1;
            }
            run
        };
        tokens += if c.is_ascii_alphabetic() {
            run(c, char::is_ascii_alphabetic).div_ceil(LETTERS_PER_TOKEN)
        } else if c.is_ascii_digit() {
            run(c, char::is_ascii_digit).div_ceil(3)
        } else if c == ' ' || c == '\n' {
            // A line break and the indent after it are one token; one space
            // joins the word after it.
            let blank = run(c, |c| *c == ' ' || *c == '\n');
            usize::from(c == '\n' || blank > 1)
        } else if c.is_ascii_punctuation() {
            // Common pairs (`?:`, `});`, `[]`) are one token.
            run(c, char::is_ascii_punctuation).div_ceil(2)
        } else {
            // Any other character: one token per two of its UTF-8 bytes
            // (an emoji can take two tokens, a CJK character one).
            c.len_utf8().div_ceil(2)
        };
    }
    tokens
}

/// Letters a word token holds, at the least, in the estimate.
const LETTERS_PER_TOKEN: usize = 6;

/// An SDK kept within a token budget ([`Catalog::within_by`]).
#[derive(Debug, Clone)]
pub struct Fitted<'c> {
    /// How much of the tool set it declares.
    pub fit: Fit,
    /// The SDK text: every declaration, or an index.
    pub sdk: Cow<'c, str>,
    /// The `run_code` tool whose description carries it.
    pub run_code_tool: RunCodeTool,
    /// The tokens of that description, as the fit counted them: past the
    /// budget only when even the bare groups are.
    pub tokens: usize,
}

impl Catalog {
    /// How much of the SDK for `language` fits in `budget` tokens (as
    /// [`estimate_tokens`] counts them) together with the `run_code`
    /// instructions around it, so that the whole description stays within
    /// the budget: every declaration if they fit, else the largest index
    /// that does (the groups alone if none does).
    pub fn fit(&self, language: Language, budget: usize) -> Fit {
        self.within_by(language, budget, &estimate_tokens).fit
    }

    /// The SDK for `language` within `budget` tokens as `count` counts
    /// them, such as the tokenizer of the model the prompt is for, with the
    /// `run_code` tool around it and that tool's count: one fit serves
    /// them all. [`fit`](Catalog::fit), [`render_within`](Catalog::render_within)
    /// and [`run_code_tool_within`](Catalog::run_code_tool_within) count with
    /// [`estimate_tokens`], which can undercount text in some languages and
    /// scripts; an exact count keeps every budget that can be kept, and
    /// [`Fitted::tokens`] says when none can.
    pub fn within_by(
        &self,
        language: Language,
        budget: usize,
        count: &dyn Fn(&str) -> usize,
    ) -> Fitted<'_> {
        let full = self.run_code_tool(language);
        let tokens = count(&full.description);
        if tokens <= budget {
            return Fitted {
                fit: Fit::Full,
                sdk: Cow::Borrowed(self.render(language)),
                run_code_tool: full,
                tokens,
            };
        }
        let indexed = |fit, index: String| {
            let run_code_tool = run_code_tool_for_index(language, &index);
            let tokens = count(&run_code_tool.description);
            Fitted {
                fit,
                sdk: Cow::Owned(index),
                run_code_tool,
                tokens,
            }
        };
        for fit in [Fit::Summaries, Fit::Names] {
            let fitted = indexed(fit, self.index(language, fit));
            if fitted.tokens <= budget {
                return fitted;
            }
        }
        indexed(Fit::Groups, self.groups_within(language, budget, count))
    }

    /// The groups level, with the names of the tools in as many groups as
    /// `budget` leaves room for: the smallest groups first, so that as many
    /// groups as possible are spelled out; the rest keep their count.
    fn groups_within(
        &self,
        language: Language,
        budget: usize,
        count: &dyn Fn(&str) -> usize,
    ) -> String {
        let groups = groups(self.lowered_tools().iter());
        let bare = self.index_with(language, Fit::Groups, &groups, &|_| false);
        let prompt = |index: &str| count(&run_code_tool_for_index(language, index).description);
        let Some(mut left) = budget.checked_sub(prompt(&bare)) else {
            return bare;
        };
        // The header says that some groups are named.
        left = left.saturating_sub(HEADER_SLACK);
        // A group's lines are counted only until they are past what is
        // left: such a group is never named, whatever its whole cost.
        let mut costs: Vec<(usize, usize)> = groups
            .values()
            .enumerate()
            .map(|(i, tools)| {
                let mut lines = 0usize;
                for tool in tools {
                    lines =
                        lines.saturating_add(count(&self.name_line(language, tool, Fit::Names)));
                    if lines > left {
                        break;
                    }
                }
                (lines, i)
            })
            .collect();
        costs.sort_unstable();
        let mut named = vec![false; groups.len()];
        for (cost, i) in costs {
            if cost > left {
                break;
            }
            left -= cost;
            named[i] = true;
        }
        if !named.contains(&true) {
            return bare;
        }
        let index = self.index_with(language, Fit::Groups, &groups, &|i| named[i]);
        if prompt(&index) <= budget {
            index
        } else {
            bare
        }
    }

    /// The SDK for `language` such that the `run_code` description around
    /// it stays within `budget` tokens ([`fit`](Catalog::fit)): [`render`](Catalog::render)
    /// when it fits, else an index (see [`Fit`]) that declares the
    /// [`INDEX_GLOBAL`] functions a program reads declarations and finds
    /// tools with.
    ///
    /// ```
    /// use codemode_core::{Catalog, Fit, Language, ToolDef, estimate_tokens};
    /// use serde_json::json;
    ///
    /// let tools = (0..40).map(|i| {
    ///     ToolDef::new(format!("files_read_{i}"), json!({"type": "object", "properties": {"path": {"type": "string"}}}))
    ///         .with_description("Reads a file. It returns the text.")
    /// });
    /// let catalog = Catalog::new(tools);
    /// assert_eq!(catalog.render_within(Language::TypeScript, 100_000), catalog.render(Language::TypeScript));
    /// let summaries = catalog.index(Language::TypeScript, Fit::Summaries);
    /// let budget = estimate_tokens(&summaries) + 600; // and the instructions
    /// assert!(budget < estimate_tokens(catalog.render(Language::TypeScript)));
    /// assert_eq!(catalog.fit(Language::TypeScript, budget), Fit::Summaries);
    /// let prompt = catalog.run_code_tool_within(Language::TypeScript, budget).description;
    /// assert!(estimate_tokens(&prompt) <= budget);
    /// let index = catalog.render_within(Language::TypeScript, budget);
    /// assert!(index.contains("//   files_read_7: Reads a file.\n"));
    /// assert!(index.contains("describe(names: readonly string[]): Promise<string>;"));
    /// ```
    pub fn render_within(&self, language: Language, budget: usize) -> Cow<'_, str> {
        self.within_by(language, budget, &estimate_tokens).sdk
    }

    /// The `run_code` tool for `language` with the SDK within `budget`
    /// tokens ([`render_within`](Catalog::render_within)); when that is an
    /// index, the instructions say how to read declarations and find tools.
    pub fn run_code_tool_within(&self, language: Language, budget: usize) -> RunCodeTool {
        self.within_by(language, budget, &estimate_tokens)
            .run_code_tool
    }

    /// The index SDK at one level of detail (for [`Fit::Full`], the SDK;
    /// for [`Fit::Groups`], the groups without names).
    pub fn index(&self, language: Language, fit: Fit) -> String {
        if fit == Fit::Full {
            return self.render(language).to_owned();
        }
        let groups = groups(self.lowered_tools().iter());
        self.index_with(language, fit, &groups, &|_| fit != Fit::Groups)
    }

    /// The index at `fit`, with the tools of group `i` listed when
    /// `named(i)`.
    fn index_with(
        &self,
        language: Language,
        fit: Fit,
        groups: &BTreeMap<String, Vec<&LoweredTool>>,
        named: &dyn Fn(usize) -> bool,
    ) -> String {
        let python = language == Language::Python;
        let mut out = if python {
            python_index_header()
        } else {
            typescript_index_header()
        };
        let sign = comment_sign(language);
        let some_named = fit == Fit::Groups && (0..groups.len()).any(named);
        let _ = writeln!(
            out,
            "{sign} {} {}, by group{}:",
            self.len(),
            if self.len() == 1 { "tool" } else { "tools" },
            match fit {
                Fit::Summaries => " (name: summary)",
                Fit::Names => "",
                _ if some_named => {
                    " (how many tools each holds; the tools of the smallest groups by name)"
                }
                _ => " (how many tools each holds)",
            }
        );
        for (i, (group, tools)) in groups.iter().enumerate() {
            let _ = writeln!(
                out,
                "{sign} {} ({})",
                defuse(language, &shown(language, group)),
                tools.len()
            );
            if named(i) {
                for tool in tools {
                    out.push_str(&self.name_line(language, tool, fit));
                }
            }
        }
        out
    }

    /// One tool's line in an index: its name, and at [`Fit::Summaries`]
    /// its summary.
    fn name_line(&self, language: Language, tool: &LoweredTool, fit: Fit) -> String {
        let mut text = shown(language, &tool.name);
        let summary = summary(tool.description.as_deref());
        if fit == Fit::Summaries && !summary.is_empty() {
            text.push_str(": ");
            text.push_str(&summary);
        }
        // Defused whole: a name and its summary together can form a
        // directive (`type` and `ignore`) that neither forms alone.
        format!("{}   {}\n", comment_sign(language), defuse(language, &text))
    }

    /// What `describe(names)` answers: the declarations of the named tools
    /// in `language` (each once, in name order), as an SDK of those tools
    /// alone prints them, without the error class; a comment for each name
    /// that is no tool. At most [`MAX_DESCRIBED`] names are declared.
    ///
    /// The chosen tools decide what is shared and what is read-only: a
    /// type that another tool's result reaches in the full SDK, and so
    /// stays mutable there, is read-only here when only the chosen tools'
    /// arguments reach it. Both are true of the chosen tools; the text
    /// only depends on which tools are asked for, not on the order.
    pub fn describe(&self, language: Language, names: &[&str]) -> String {
        let mut wanted: Vec<&str> = names.to_vec();
        wanted.sort_unstable();
        wanted.dedup();
        let sign = comment_sign(language);
        let mut out = String::new();
        if wanted.len() > MAX_DESCRIBED {
            let _ = writeln!(
                out,
                "{sign} {} names asked for; the first {MAX_DESCRIBED} (in name order) are declared, ask for the rest in another call",
                wanted.len()
            );
            wanted.truncate(MAX_DESCRIBED);
        }
        let mut chosen: Vec<ToolDef> = Vec::new();
        // A name the Python SDK declares as a method stands for its tool.
        let mut aliases: Option<Vec<(String, &str)>> = None;
        for name in &wanted {
            let found = self.tools().find(|t| t.name == *name).or_else(|| {
                let aliases =
                    aliases.get_or_insert_with(|| crate::python_method_aliases(self.tool_names()));
                let (_, tool) = aliases.iter().find(|(method, _)| method == name)?;
                self.tools().find(|t| t.name == *tool)
            });
            match found {
                Some(tool) => chosen.push(with_docs_cut(tool)),
                None => {
                    let close: Vec<String> = self
                        .search(name, 3)
                        .into_iter()
                        .map(|m| quoted(language, &m.name))
                        .collect();
                    let hint = if close.is_empty() {
                        String::new()
                    } else {
                        format!("; close: {}", close.join(", "))
                    };
                    // A name is the program's to choose: a long one is cut.
                    let shown = if name.len() > MAX_NAME_SHOWN {
                        quoted(language, &format!("{}…", prefix(name, MAX_NAME_SHOWN)))
                    } else {
                        quoted(language, name)
                    };
                    let line = format!("no tool is named {shown}{hint}");
                    let _ = writeln!(out, "{sign} {}", defuse(language, &line));
                }
            }
        }
        if !chosen.is_empty() {
            let sdk = Catalog::new(chosen);
            let all: Vec<&str> = self.tool_names().collect();
            let text = sdk.render_among(language, &all);
            out.push_str(&text);
        }
        out
    }

    /// The tools whose names, descriptions and parameter names best match
    /// the words of `query` (ignoring case, and the accents of Latin,
    /// Greek and Cyrillic letters): a word equal to a word of the name
    /// scores 3, the start of one 2, a word of the description or of a
    /// parameter's name 1. Text in a script without spaces (Chinese,
    /// Japanese, Thai, ...) matches by pairs of neighbouring characters.
    /// Ties go by name; tools that match nothing are left out. At most
    /// `limit` (and at most [`MAX_MATCHES`]) are returned.
    ///
    /// ```
    /// use codemode_core::{Catalog, ToolDef};
    /// use serde_json::json;
    ///
    /// let catalog = Catalog::new([
    ///     ToolDef::new("github_create_issue", json!({})).with_description("Open a new issue in a repository."),
    ///     ToolDef::new("github_list_issues", json!({})).with_description("List the issues of a repository."),
    ///     ToolDef::new("slack_post", json!({})).with_description("Post a message to a channel."),
    /// ]);
    /// let found: Vec<String> = catalog.search("create issue", 10).into_iter().map(|m| m.name).collect();
    /// assert_eq!(found, ["github_create_issue", "github_list_issues"]);
    /// ```
    pub fn search(&self, query: &str, limit: usize) -> Vec<ToolMatch> {
        let mut query: Vec<String> = words(prefix(query, MAX_QUERY_BYTES));
        query.truncate(MAX_QUERY_WORDS);
        if query.is_empty() {
            return Vec::new();
        }
        let index = self.search_index();
        let query: Vec<QueryWord> = query.iter().map(|q| index.query_word(q)).collect();
        let mut scored: Vec<(usize, &LoweredTool)> = self
            .lowered_tools()
            .iter()
            .enumerate()
            .filter_map(|(at, tool)| {
                let score: usize = query.iter().map(|q| index.score(at, q)).sum();
                (score > 0).then_some((score, tool))
            })
            .collect();
        // Highest score first; tools are in name order already.
        scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
        scored
            .into_iter()
            .take(limit.min(MAX_MATCHES))
            .map(|(_, tool)| ToolMatch {
                name: tool.name.clone(),
                summary: summary(tool.description.as_deref()),
            })
            .collect()
    }
}

/// Tokens set aside for the longer header of a groups index that names
/// some groups.
const HEADER_SLACK: usize = 16;

/// How a comment line starts in `language`.
fn comment_sign(language: Language) -> &'static str {
    if language == Language::Python {
        "#"
    } else {
        "//"
    }
}

/// `text` made safe for a comment in `language` (no checker directive).
fn defuse(language: Language, text: &str) -> String {
    if language == Language::Python {
        defuse_python(text).into_owned()
    } else {
        defuse_typescript(text).into_owned()
    }
}

/// A name as a comment line shows it: bare when it is printable ASCII
/// without spaces or quotes and forms no checker directive, else quoted
/// (see [`quoted`]).
fn shown(language: Language, name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\'' && b != b'\\')
        && defuse(language, name) == name;
    if bare {
        name.to_owned()
    } else {
        quoted(language, name)
    }
}

/// `name` as a string literal of `language`, so a program can copy it: no
/// comment line can end inside it (line separators are escaped), what
/// prints as nothing is escaped, and so is what would help form a checker
/// directive (`"\u0040ts-nocheck"`), so that the comment needs no
/// defusing there and the literal still names the tool.
fn quoted(language: Language, name: &str) -> String {
    let python = language == Language::Python;
    let literal = if python {
        python_string(name)
    } else {
        json_string(name)
    };
    escape_directives(&literal, python).into_owned()
}

/// The characters that end a part of a tool's name, for grouping.
const SEPARATORS: [char; 5] = ['_', '.', '-', '/', ':'];

/// A group is split by the next part of its tools' names when it holds more
/// than half of the tools and at least this many.
const SPLIT_AT: usize = 8;

/// How many parts of a name a group's name takes at most.
const MAX_PARTS: usize = 4;

/// The tools in groups by the part of the name before its first `_`, `.`,
/// `-`, `/` or `:`, each group's tools in name order. Tools that share no
/// such part with another are in the group named `other` (`ungrouped`
/// when some tools' names start with `other`). A group that
/// holds most of the tools (all of them, when every name starts alike) is
/// split by the next part of the names, so that the groups still tell the
/// tools apart: `aws_s3_get` and `aws_s3_put` go to `aws_s3`, and the
/// tools of `aws` whose next part no other shares stay in `aws`.
fn groups<'t, T: Named>(tools: impl Iterator<Item = &'t T>) -> BTreeMap<String, Vec<&'t T>> {
    let tools: Vec<&T> = tools.collect();
    let total = tools.len();
    let mut groups = BTreeMap::new();
    let rest = group_by_part(tools, 0, 1, total, &mut groups);
    if !rest.is_empty() {
        // Named apart from every group of tools, so that a prefix `other`
        // keeps its own count.
        let mut label = "other".to_owned();
        let mut n = 1;
        while groups.contains_key(&label) {
            n += 1;
            label = if n == 2 {
                "ungrouped".to_owned()
            } else {
                format!("ungrouped ({n})")
            };
        }
        groups.insert(label, rest);
    }
    for tools in groups.values_mut() {
        tools.sort_by(|a, b| a.name().cmp(b.name()));
    }
    groups
}

/// A tool as the groups read it: by its name.
trait Named {
    fn name(&self) -> &str;
}

impl Named for LoweredTool {
    fn name(&self) -> &str {
        &self.name
    }
}

#[cfg(test)]
impl Named for ToolDef {
    fn name(&self) -> &str {
        &self.name
    }
}

/// Puts `tools`, whose names share their first `from` bytes (0, or a part
/// and its separator), into `groups` by their `part`-th part, and returns
/// the tools that share that part with no other.
fn group_by_part<'t, T: Named>(
    tools: Vec<&'t T>,
    from: usize,
    part: usize,
    total: usize,
    groups: &mut BTreeMap<String, Vec<&'t T>>,
) -> Vec<&'t T> {
    // The end of the name's prefix one part longer than `from` bytes.
    let end = |name: &str| -> Option<usize> {
        let at = from + name.get(from..)?.find(SEPARATORS)?;
        (at > from && at + 1 < name.len()).then_some(at)
    };
    let mut by_prefix: BTreeMap<&str, Vec<&T>> = BTreeMap::new();
    let mut rest = Vec::new();
    for tool in tools {
        let name = tool.name();
        match end(name) {
            Some(at) => by_prefix.entry(&name[..at]).or_default().push(tool),
            None => rest.push(tool),
        }
    }
    for (prefix, members) in by_prefix {
        if members.len() < 2 {
            rest.extend(members);
        } else if part < MAX_PARTS && members.len() >= SPLIT_AT && members.len() * 2 > total {
            let next = prefix.len() + 1;
            let left = group_by_part(members, next, part + 1, total, groups);
            if !left.is_empty() {
                groups.entry(prefix.to_owned()).or_default().extend(left);
            }
        } else {
            groups.entry(prefix.to_owned()).or_default().extend(members);
        }
    }
    rest
}

/// The first sentence of a tool's description (its first line, up to
/// the first `. `), cut at a word to at most [`SUMMARY_CHARS`] characters.
fn summary(description: Option<&str>) -> String {
    let text = description.unwrap_or("");
    let lines = clean_lines(text);
    let Some(first) = lines.first() else {
        return String::new();
    };
    let sentence = match first.find(". ") {
        Some(at) => &first[..=at],
        None => first.as_ref(),
    };
    if sentence.chars().count() <= SUMMARY_CHARS {
        return sentence.to_owned();
    }
    let cut: String = sentence.chars().take(SUMMARY_CHARS - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(at) if at > SUMMARY_CHARS / 2 => &cut[..at],
        _ => cut.as_str(),
    };
    format!("{cut}…")
}

/// What [`Catalog::search`] matches queries against, made at the first
/// search: every word of the tools, each once, and each tool's words as
/// numbers, so that a query compares numbers, not strings, and a catalog
/// of thousands of tools stays small in memory.
#[derive(Debug, Clone, Default)]
pub(crate) struct SearchIndex {
    /// Every word of every tool, sorted; a word's number is its place here,
    /// so the words that start with a given text have neighbouring numbers.
    vocabulary: Vec<Box<str>>,
    /// Each tool's words, one after the other: for tool `i`, its name's
    /// (in order) in `ids[ends[i - 1].1..ends[i].0]`, and those of its
    /// description and of its parameters' names (sorted, each once) in
    /// `ids[ends[i].0..ends[i].1]`.
    ids: Vec<u32>,
    ends: Vec<(u32, u32)>,
}

/// A word of a query, as [`SearchIndex::score`] looks for it: its number,
/// if some tool has it, and the numbers of the words that start with it.
pub(crate) struct QueryWord {
    id: Option<u32>,
    starting: std::ops::Range<u32>,
    /// The words of `starting` whose next character is a mark that the
    /// words keep (a vowel sign, a voicing mark), sorted: the query ends
    /// inside one of their letters (`ハ` in `ハ\u{3099}ス`, which is
    /// `バス`), so it is not their start.
    mid_letter: Vec<u32>,
}

impl QueryWord {
    /// Whether the word numbered `id` starts with this one.
    fn starts(&self, id: u32) -> bool {
        self.starting.contains(&id) && self.mid_letter.binary_search(&id).is_err()
    }
}

impl SearchIndex {
    pub(crate) fn of_tools(tools: &[LoweredTool], defs: &[Def]) -> SearchIndex {
        // Numbers in the order words are first seen, renumbered below.
        let mut seen: foldhash::HashMap<Box<str>, u32> = foldhash::HashMap::default();
        let mut number = |word: &str| -> u32 {
            if let Some(id) = seen.get(word) {
                return *id;
            }
            let id = as_u32(seen.len());
            seen.insert(word.into(), id);
            id
        };
        let mut ids: Vec<u32> = Vec::new();
        let mut ends = Vec::with_capacity(tools.len());
        for tool in tools {
            let mut read = |ids: &mut Vec<u32>, text: &str| {
                let text = prefix(text, MAX_SEARCHED_BYTES);
                for_each_word(text, Read::Tool, |word| ids.push(number(word)));
            };
            read(&mut ids, &tool.name);
            let name_end = ids.len();
            read(&mut ids, tool.description.as_deref().unwrap_or(""));
            for name in parameter_names(&tool.input, defs) {
                read(&mut ids, name);
            }
            ends.push((name_end, ids.len()));
        }
        let mut vocabulary: Vec<(Box<str>, u32)> = seen.into_iter().collect();
        vocabulary.sort_unstable();
        let mut rank = vec![0; vocabulary.len()];
        for (at, (_, id)) in vocabulary.iter().enumerate() {
            rank[*id as usize] = as_u32(at);
        }
        // Each tool's words renumbered, its description's sorted and once.
        let renumbered = |id: &u32| rank[*id as usize];
        let mut out = Vec::with_capacity(ids.len());
        let mut out_ends = Vec::with_capacity(ends.len());
        let mut text = Vec::new();
        let mut start = 0;
        for (name_end, end) in ends {
            out.extend(ids[start..name_end].iter().map(renumbered));
            text.clear();
            text.extend(ids[name_end..end].iter().map(renumbered));
            text.sort_unstable();
            text.dedup();
            let text_start = out.len();
            out.extend_from_slice(&text);
            out_ends.push((as_u32(text_start), as_u32(out.len())));
            start = end;
        }
        SearchIndex {
            vocabulary: vocabulary.into_iter().map(|(word, _)| word).collect(),
            ids: out,
            ends: out_ends,
        }
    }

    /// `word` as [`Self::score`] looks for it.
    pub(crate) fn query_word(&self, word: &str) -> QueryWord {
        let first = self.vocabulary.partition_point(|w| &**w < word);
        let starting = self.vocabulary[first..].partition_point(|w| w.starts_with(word));
        let id = (self.vocabulary.get(first).is_some_and(|w| &**w == word)).then(|| as_u32(first));
        let mid_letter = (first..first + starting)
            .filter(|&at| {
                let next = self.vocabulary[at][word.len()..].chars().next();
                next.is_some_and(unicode_normalization::char::is_combining_mark)
            })
            .map(as_u32)
            .collect();
        QueryWord {
            id,
            starting: as_u32(first)..as_u32(first + starting),
            mid_letter,
        }
    }

    /// For the tool at `at`: 3 for a word of its name, 2 for the start of
    /// one, 1 for a word of its description or of a parameter's name, 0
    /// otherwise.
    fn score(&self, at: usize, word: &QueryWord) -> usize {
        let name_start = match at {
            0 => 0,
            _ => self.ends[at - 1].1 as usize,
        };
        let (text_start, end) = self.ends[at];
        let name = &self.ids[name_start..text_start as usize];
        let text = &self.ids[text_start as usize..end as usize];
        if word.id.is_some_and(|id| name.contains(&id)) {
            3
        } else if name.iter().any(|&id| word.starts(id)) {
            2
        } else if word.id.is_some_and(|id| text.binary_search(&id).is_ok()) {
            1
        } else {
            0
        }
    }
}

/// `n` as a `u32`: a search index numbers words and their places with
/// them, and holds far fewer than four billion of either.
fn as_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Most types [`parameter_names`] looks into for one tool: the argument's
/// own, and the named types and members of unions and intersections it
/// leads to. Enough for any real server; a hostile schema's parameters
/// past it are not searched.
const PARAMETER_TYPES: usize = 16;

/// The names of the top-level keys of a tool's argument `input`: the
/// properties of its object, through named types and the members of
/// unions and intersections.
fn parameter_names<'t>(input: &'t Ty, defs: &'t [Def]) -> Vec<&'t str> {
    let mut names = Vec::new();
    let mut todo = vec![input];
    let mut seen = 0;
    while let Some(ty) = todo.pop() {
        seen += 1;
        if seen > PARAMETER_TYPES {
            break;
        }
        match ty {
            Ty::Object(object) => names.extend(object.props.iter().map(|p| p.name.as_str())),
            Ty::Named(id) => todo.extend(defs.get(*id).map(|def| &def.ty)),
            Ty::Union(members) | Ty::Inter(members, _) => todo.extend(members.iter().rev()),
            _ => {}
        }
    }
    names
}

/// At most the first `bytes` bytes of `text`, cut at a character boundary.
fn prefix(text: &str, bytes: usize) -> &str {
    &text[..text.floor_char_boundary(bytes)]
}

/// Whether `c` is of a script written without spaces between words (Han,
/// kana, Thai, Lao, Khmer, Myanmar), or is a Hangul syllable (Korean puts
/// its particles on the word before them): [`words`] reads such text as
/// pairs of characters, since it cannot tell where a word ends.
fn unspaced(c: char) -> bool {
    (matches!(c,
        '\u{0E00}'..='\u{0EFF}' // Thai, Lao
        | '\u{1000}'..='\u{109F}' // Myanmar
        | '\u{1780}'..='\u{17FF}' // Khmer
        | '\u{3040}'..='\u{30FF}' // Hiragana, Katakana
        | '\u{31F0}'..='\u{31FF}' // Katakana extensions
        | '\u{3400}'..='\u{4DBF}' // CJK extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK unified ideographs
        | '\u{F900}'..='\u{FAFF}' // CJK compatibility ideographs
        | '\u{20000}'..='\u{3FFFF}' // CJK extensions B and on
    ) || HANGUL_SYLLABLES.contains(&c))
        && c.is_alphanumeric()
}

/// The Hangul syllables, which [`for_each_word`] keeps whole: its letters
/// apart are no word.
const HANGUL_SYLLABLES: std::ops::RangeInclusive<char> = '\u{AC00}'..='\u{D7A3}';

/// The words of a query as [`Catalog::search`] compares them (see
/// [`for_each_word`]).
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(text, Read::Query, |word| out.push(word.to_owned()));
    out
}

/// How [`for_each_word`] reads a text in a script without spaces.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Read {
    /// As a query: each pair of neighbouring characters.
    Query,
    /// As a tool's text: each character too, so that a query of one
    /// character finds it inside a longer run.
    Tool,
}

/// Calls `each` on the words of `text` as [`Catalog::search`] compares
/// them, in order:
/// - runs of letters and digits, lowercase, with a camelCase name split
///   where its case changes;
/// - in their compatibility form without diacritics, so `Café`, `cafe`
///   written with a combining accent, and the full-width `ｃａｆｅ` are one
///   word (the marks of Latin, Greek and Cyrillic letters, and the vowel
///   points of Hebrew and Arabic, go; other marks, such as the vowel signs
///   of Indic scripts or the voicing marks of kana, stay in their word);
/// - in a script without spaces ([`unspaced`]), each pair of neighbouring
///   characters, each with its marks (a lone character is a word of its
///   own; `read` says whether every character is one as well).
fn for_each_word(text: &str, read: Read, each: impl FnMut(&str)) {
    let mut split = Words {
        each,
        read,
        word: String::new(),
        last_lower: false,
        before: None,
        unit: String::new(),
    };
    for c in text.chars() {
        // ASCII needs no decomposing, and a Hangul syllable stays whole.
        if c.is_ascii() || HANGUL_SYLLABLES.contains(&c) {
            split.push(c);
        } else {
            unicode_normalization::char::decompose_compatible(c, |c| split.push(c));
        }
    }
    split.end_word();
    split.end_run();
}

/// Whether `mark` is a diacritic that search ignores: those of Latin,
/// Greek and Cyrillic letters (which a query may leave out, or write
/// composed or not), and the optional vowel points of Hebrew and Arabic.
fn ignored_mark(mark: char) -> bool {
    matches!(mark,
        '\u{0300}'..='\u{036F}' // combining diacritical marks
        | '\u{0483}'..='\u{0489}' // Cyrillic
        | '\u{0591}'..='\u{05C7}' // Hebrew points and accents
        | '\u{064B}'..='\u{065F}' | '\u{0670}' // Arabic vowel marks
        | '\u{1AB0}'..='\u{1AFF}' // extended diacritical marks
        | '\u{1DC0}'..='\u{1DFF}' // supplement
        | '\u{20D0}'..='\u{20FF}' // for symbols
        | '\u{FE20}'..='\u{FE2F}' // half marks
    )
}

/// The state of [`for_each_word`] as it reads one character after another.
struct Words<F> {
    each: F,
    read: Read,
    /// The word being read, of a spaced script.
    word: String,
    /// Whether the last character was a lowercase letter or a digit.
    last_lower: bool,
    /// In a run of an [`unspaced`] script: the character before the one
    /// being read (each with its marks), if there is one...
    before: Option<String>,
    /// ...and the one being read, which its marks may still follow.
    unit: String,
}

impl<F: FnMut(&str)> Words<F> {
    fn push(&mut self, c: char) {
        if !c.is_ascii() && unicode_normalization::char::is_combining_mark(c) {
            // A mark neither ends a word nor starts one.
            if ignored_mark(c) {
            } else if !self.unit.is_empty() {
                self.unit.push(c);
            } else if !self.word.is_empty() {
                self.word.push(c);
            }
            return;
        }
        if unspaced(c) {
            self.end_word();
            if !self.unit.is_empty() {
                self.end_unit();
            }
            self.unit.push(c);
            return;
        }
        self.end_run();
        if c.is_alphanumeric() {
            if c.is_uppercase() && self.last_lower && !self.word.is_empty() {
                self.end_word();
            }
            self.last_lower = c.is_lowercase() || c.is_ascii_digit();
            self.word.extend(c.to_lowercase());
        } else {
            self.end_word();
        }
    }

    fn end_word(&mut self) {
        self.last_lower = false;
        if !self.word.is_empty() {
            (self.each)(&self.word);
            self.word.clear();
        }
    }

    /// The character being read in an unspaced run is whole: says it (as
    /// a tool's text is read) and its pair with the one before, and makes
    /// it the one before.
    fn end_unit(&mut self) {
        if self.read == Read::Tool {
            (self.each)(&self.unit);
        }
        let unit = std::mem::take(&mut self.unit);
        if let Some(mut pair) = self.before.take() {
            pair.push_str(&unit);
            (self.each)(&pair);
        }
        self.before = Some(unit);
    }

    fn end_run(&mut self) {
        if self.unit.is_empty() {
            return;
        }
        let lone = self.before.is_none();
        self.end_unit();
        // A query's lone character has not been said (a tool's text's has).
        if lone
            && self.read == Read::Query
            && let Some(unit) = &self.before
        {
            (self.each)(unit);
        }
        self.before = None;
    }
}

/// The most characters of one description (or title) that `describe`
/// keeps; the rest is cut, and the cut says how much it left out. A real
/// server's longest is under 3,000; one of a megabyte would otherwise
/// fill a run's output, and the program could not read the declaration.
pub const MAX_DESCRIBED_DOC: usize = 8192;

/// `tool` with every description and title past [`MAX_DESCRIBED_DOC`]
/// characters cut (its own, and those in its schemas).
fn with_docs_cut(tool: &ToolDef) -> ToolDef {
    let mut tool = tool.clone();
    if let Some(text) = &mut tool.description {
        cut_doc(text);
    }
    // A walk with a stack of its own: schemas may nest deeper than a
    // thread's stack allows a recursion.
    let mut todo: Vec<&mut serde_json::Value> = vec![&mut tool.input_schema];
    todo.extend(tool.output_schema.as_mut());
    while let Some(value) = todo.pop() {
        match value {
            serde_json::Value::Object(map) => {
                for (key, value) in map.iter_mut() {
                    match value {
                        serde_json::Value::String(text)
                            if key == "description" || key == "title" =>
                        {
                            cut_doc(text)
                        }
                        // Values, not schemas: a `description` in them is
                        // data, and the SDK shows it as it is.
                        _ if matches!(key.as_str(), "const" | "enum" | "default" | "examples") => {}
                        _ => todo.push(value),
                    }
                }
            }
            serde_json::Value::Array(items) => todo.extend(items.iter_mut()),
            _ => {}
        }
    }
    tool
}

/// `text` cut after [`MAX_DESCRIBED_DOC`] characters, if it is longer.
fn cut_doc(text: &mut String) {
    if let Some((at, _)) = text.char_indices().nth(MAX_DESCRIBED_DOC) {
        let left = text[at..].chars().count();
        text.truncate(at);
        let _ = write!(text, "… (cut here: {left} more characters)");
    }
}

fn error_kinds(sep: &str) -> String {
    ErrorKind::ALL
        .iter()
        .map(|k| json_string(k.as_str()))
        .collect::<Vec<_>>()
        .join(sep)
}

fn typescript_index_header() -> String {
    format!(
        "declare class {ERROR_CLASS} extends Error {{ readonly toolName: string; readonly kind: {} }}\n\n\
         declare const {INDEX_GLOBAL}: {{\n  \
         describe(names: readonly string[]): Promise<string>;\n  \
         search(query: string, limit?: number): Promise<{{ name: string; summary: string }}[]>;\n\
         }};\n\n\
         declare const {GLOBAL}: {{\n  \
         (name: string, args?: {{ [key: string]: unknown }}): Promise<unknown>;\n  \
         [name: string]: (args?: {{ [key: string]: unknown }}) => Promise<unknown>;\n\
         }};\n\n",
        error_kinds(" | ")
    )
}

fn python_index_header() -> String {
    format!(
        "from __future__ import annotations\n\
         from typing import Any, Awaitable, Callable, Literal, Protocol, TypedDict\n\n\
         class {ERROR_CLASS}(Exception):\n    \
         toolName: str\n    \
         kind: Literal[{}]\n\n\
         class ToolMatch(TypedDict):\n    \
         name: str\n    \
         summary: str\n\n\
         class Catalog(Protocol):\n    \
         async def describe(self, names: list[str]) -> str: ...\n    \
         async def search(self, query: str, limit: int = ...) -> list[ToolMatch]: ...\n\n\
         class Tools(Protocol):\n    \
         def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]: ...\n    \
         def __getitem__(self, name: str) -> Callable[..., Awaitable[Any]]: ...\n\n\
         {INDEX_GLOBAL}: Catalog\n\
         {GLOBAL}: Tools\n\n",
        error_kinds(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_counter_that_takes_more_than_the_estimate_moves_the_choice() {
        let many = catalog(30);
        let estimate = estimate_tokens(&many.run_code_tool(Language::TypeScript).description);
        assert_eq!(many.fit(Language::TypeScript, estimate), Fit::Full);
        let bytes = |text: &str| text.len();
        let fitted = many.within_by(Language::TypeScript, estimate, &bytes);
        assert_ne!(fitted.fit, Fit::Full);
        assert_eq!(fitted.tokens, fitted.run_code_tool.description.len());
        let full = many.run_code_tool(Language::TypeScript).description;
        assert!(fitted.tokens < full.len());
        assert!(fitted.run_code_tool.description.contains(&*fitted.sdk));
    }

    fn catalog(n: usize) -> Catalog {
        Catalog::new((0..n).map(|i| {
            let group = ["files", "net", "db"][i % 3];
            ToolDef::new(
                format!("{group}_op{i:03}"),
                json!({"type": "object", "properties": {"id": {"type": "string", "description": "Which one."}}, "required": ["id"]}),
            )
            .with_description(format!("Does operation {i} on {group}. More words follow here."))
        }))
    }

    #[test]
    fn the_index_shrinks_level_by_level_as_the_budget_does() {
        let c = catalog(60);
        for language in Language::ALL {
            let prompt = |fit| match fit {
                Fit::Full => estimate_tokens(&c.run_code_tool(language).description),
                fit => estimate_tokens(
                    &run_code_tool_for_index(language, &c.index(language, fit)).description,
                ),
            };
            let full = prompt(Fit::Full);
            assert_eq!(c.fit(language, full), Fit::Full);
            assert_eq!(c.fit(language, full - 1), Fit::Summaries);
            let summaries = prompt(Fit::Summaries);
            let names = prompt(Fit::Names);
            let groups = prompt(Fit::Groups);
            assert!(
                groups < names && names < summaries && summaries < full,
                "{language}"
            );
            assert_eq!(c.fit(language, summaries), Fit::Summaries);
            assert_eq!(c.fit(language, summaries - 1), Fit::Names);
            assert_eq!(c.fit(language, names - 1), Fit::Groups);
            assert_eq!(c.fit(language, 0), Fit::Groups);
            let index = c.render_within(language, names);
            assert!(
                index.contains("files (20)") && index.contains("files_op000"),
                "{index}"
            );
            assert!(!index.contains("Does operation"));
            // Between the groups and the names, the groups that fit are
            // named, and the description stays within the budget.
            let between = (groups + names) / 2;
            assert_eq!(c.fit(language, between), Fit::Groups);
            let index = c.render_within(language, between);
            let listed = index.matches("_op0").count();
            assert!(listed > 0 && listed < 60, "{listed} named:\n{index}");
            assert!(index.contains("the tools of the smallest groups by name"));
            let prompt = c.run_code_tool_within(language, between).description;
            assert!(estimate_tokens(&prompt) <= between);
            // Without room for a group, none is named.
            let bare = c.render_within(language, groups);
            assert!(!bare.contains("_op0") && bare == c.index(language, Fit::Groups));
        }
    }

    #[test]
    fn a_group_of_most_tools_is_split_by_the_next_part() {
        let names = [
            "mcp_github_issues_close",
            "mcp_github_issues_create",
            "mcp_github_issues_get",
            "mcp_github_issues_list",
            "mcp_github_pulls_create",
            "mcp_github_pulls_get",
            "mcp_github_pulls_list",
            "mcp_github_pulls_merge",
            "mcp_github_pulls_review",
            "mcp_github_search",
            "mcp_slack_post",
            "mcp_slack_read",
            "ping",
        ];
        let tools: Vec<ToolDef> = names.iter().map(|n| ToolDef::new(*n, json!({}))).collect();
        let found: Vec<(String, Vec<&str>)> = groups(tools.iter())
            .into_iter()
            .map(|(group, tools)| (group, tools.iter().map(|t| t.name.as_str()).collect()))
            .collect();
        let expected = [
            ("mcp_github", &names[9..10]),
            ("mcp_github_issues", &names[0..4]),
            ("mcp_github_pulls", &names[4..9]),
            ("mcp_slack", &names[10..12]),
            ("other", &names[12..]),
        ];
        let expected: Vec<(String, Vec<&str>)> = expected
            .iter()
            .map(|(group, tools)| (group.to_string(), tools.to_vec()))
            .collect();
        assert_eq!(found, expected);
        // In any order, the same groups.
        let reversed: Vec<ToolDef> = tools.iter().rev().cloned().collect();
        let again: Vec<(String, Vec<&str>)> = groups(reversed.iter())
            .into_iter()
            .map(|(group, tools)| (group, tools.iter().map(|t| t.name.as_str()).collect()))
            .collect();
        assert_eq!(again, found);
        // A prefix `other` is a group of its own, apart from the tools in
        // no group.
        let tools: Vec<ToolDef> = [
            "other_a",
            "other_b",
            "ping",
            "solo_x",
            "ungrouped_a",
            "ungrouped_b",
        ]
        .iter()
        .map(|n| ToolDef::new(*n, json!({})))
        .collect();
        let found: Vec<(String, usize)> = groups(tools.iter())
            .into_iter()
            .map(|(group, tools)| (group, tools.len()))
            .collect();
        let expected = [("other", 2), ("ungrouped", 2), ("ungrouped (3)", 2)];
        let expected: Vec<(String, usize)> =
            expected.iter().map(|(g, n)| (g.to_string(), *n)).collect();
        assert_eq!(found, expected);
        // Groups of less than half of the tools are not split.
        let index = catalog(60).index(Language::TypeScript, Fit::Groups);
        assert!(index.contains("// files (20)\n"), "{index}");
    }

    #[test]
    fn the_smallest_groups_are_named_first() {
        // One group of 1 tool, one of 2, one of 30.
        let tools = ["solo_a", "pair_a", "pair_b"]
            .into_iter()
            .map(str::to_owned)
            .chain((0..30).map(|i| format!("big_tool{i:02}")))
            .map(|name| ToolDef::new(name, json!({})).with_description("Does a thing."));
        let c = Catalog::new(tools);
        let language = Language::TypeScript;
        let groups = estimate_tokens(
            &run_code_tool_for_index(language, &c.index(language, Fit::Groups)).description,
        );
        let index = c.render_within(language, groups + HEADER_SLACK + 20);
        assert!(
            index.contains("//   pair_a\n//   pair_b\n") && !index.contains("big_tool00"),
            "{index}"
        );
    }

    /// A program chooses the query: only its first words count, so a huge
    /// one costs what a short one does (no copy of it is split into words).
    #[test]
    fn only_the_first_words_of_a_query_count() {
        let c = catalog(9);
        let short: Vec<String> = c.search("net", 10).into_iter().map(|m| m.name).collect();
        assert_eq!(short, ["net_op001", "net_op004", "net_op007"]);
        let huge = format!("net {}", "zzz ".repeat(5_000_000));
        let found: Vec<String> = c.search(&huge, 10).into_iter().map(|m| m.name).collect();
        assert_eq!(found, short);
        // Past the words that count, a match adds nothing.
        let late = format!("{}files", "zzz ".repeat(MAX_QUERY_WORDS));
        assert!(c.search(&late, 10).is_empty());
        // A cut inside a character stays on its boundary.
        assert!(c.search(&"é".repeat(MAX_QUERY_BYTES), 10).is_empty());
        let named = c.describe(Language::TypeScript, &[huge.as_str()]);
        assert!(
            named.starts_with("// no tool is named \"net zzz"),
            "{named}"
        );
        assert!(named.len() < 400, "{named}");
    }

    #[test]
    fn describe_declares_the_named_tools_and_says_which_are_none() {
        let c = catalog(6);
        let ts = c.describe(
            Language::TypeScript,
            &["net_op001", "files_op000", "nope_op", "net_op001"],
        );
        assert!(!ts.contains("declare class"), "{ts}");
        assert!(
            ts.contains("  files_op000(args: {\n    id: string; // Which one.\n"),
            "{ts}"
        );
        assert!(
            ts.contains("net_op001(") && !ts.contains("db_op002("),
            "{ts}"
        );
        assert!(
            ts.starts_with("// no tool is named \"nope_op\"; close: "),
            "{ts}"
        );
        let py = c.describe(Language::Python, &["db_op002"]);
        assert!(
            py.contains(
                "async def db_op002(self, *,\n        id: str,  # Which one.\n    ) -> Any:"
            ),
            "{py}"
        );
        assert!(!py.contains("class ToolCallError"), "{py}");
        // Its imports, for what it uses alone: it checks on its own.
        assert!(
            py.starts_with(
                "from __future__ import annotations\nfrom typing import Any, Protocol\n\n"
            ),
            "{py}"
        );
    }

    /// A description of a megabyte (or one in a schema) is cut in what
    /// `describe` answers, so the declaration fits a run's output; the
    /// signature is still all there.
    #[test]
    fn described_docs_are_cut_past_the_limit() {
        let huge = "word ".repeat(200_000);
        let c = Catalog::new([ToolDef::new(
            "big",
            json!({"type": "object", "properties": {"id": {"type": "integer", "description": huge}}, "required": ["id"]}),
        )
        .with_description(huge.clone())]);
        for language in Language::ALL {
            let text = c.describe(language, &["big"]);
            assert!(text.len() < 3 * MAX_DESCRIBED_DOC, "{}", text.len());
            assert!(
                text.contains("… (cut here: 991808 more characters)"),
                "{text}"
            );
            assert!(text.contains("big("), "{text}");
        }
        // Short ones are as the SDK has them.
        let c = catalog(3);
        let full = c.render(Language::TypeScript);
        let described = c.describe(Language::TypeScript, &["db_op002"]);
        assert!(full.contains(described.lines().find(|l| l.contains("db_op002(")).unwrap()));
    }

    #[test]
    fn described_python_methods_are_those_of_the_whole_set() {
        let c = Catalog::new([
            ToolDef::new("get-sum", json!({"type": "object"})),
            ToolDef::new("get_sum", json!({"type": "object"})),
            ToolDef::new("kv.set", json!({"type": "object"})),
        ]);
        // On its own `get-sum` would be the method `get_sum`, which in the
        // whole set is another tool: it stays a subscript.
        let py = c.describe(Language::Python, &["get-sum", "kv_set"]);
        assert!(py.contains("Literal[\"get-sum\"]"), "{py}");
        assert!(
            py.contains(
                "from typing import Any, Awaitable, Callable, Literal, Mapping, Protocol\n"
            ),
            "{py}"
        );
        assert!(!py.contains("async def get_sum"), "{py}");
        // `kv_set`, the method, names the tool `kv.set`.
        assert!(py.contains("async def kv_set(self, **kwargs: Any)"), "{py}");
        assert!(!py.contains("no tool is named"), "{py}");
    }

    #[test]
    fn search_ranks_name_words_over_description_words() {
        let c = catalog(9);
        let found = c.search("op004", 5);
        assert_eq!(found[0].name, "net_op004");
        assert_eq!(found[0].summary, "Does operation 4 on net.");
        let by_group: Vec<String> = c.search("NET", 10).into_iter().map(|m| m.name).collect();
        assert_eq!(by_group, ["net_op001", "net_op004", "net_op007"]);
        assert!(c.search("", 5).is_empty() && c.search("zzz", 5).is_empty());
        assert_eq!(
            words("getHTTPResponse code_v2"),
            ["get", "httpresponse", "code", "v2"]
        );
    }

    /// A parameter's name is found as a description's word is, through
    /// named types and the members of unions; and only the argument's
    /// top-level keys count, not the keys nested in them.
    #[test]
    fn search_finds_parameter_names() {
        let c = Catalog::new([
            ToolDef::new(
                "move",
                json!({"type": "object", "properties": {
                    "destinationPath": {"type": "string"},
                    "meta": {"type": "object", "properties": {"nestedKey": {"type": "string"}}}
                }}),
            ),
            ToolDef::new(
                "shared",
                json!({"$ref": "#/$defs/Args", "$defs": {"Args": {"anyOf": [
                    {"type": "object", "properties": {"branch_name": {"type": "string"}}},
                    {"type": "object", "properties": {"tag": {"type": "string"}}}
                ]}}}),
            ),
            ToolDef::new("named_destination", json!({"type": "object"})),
        ]);
        let names = |query: &str| -> Vec<String> {
            c.search(query, 10).into_iter().map(|m| m.name).collect()
        };
        // A name's word outranks a parameter's.
        assert_eq!(names("destination"), ["named_destination", "move"]);
        assert_eq!(names("path"), ["move"]);
        assert_eq!(names("branch"), ["shared"]);
        assert_eq!(names("tag"), ["shared"]);
        assert!(names("nested").is_empty());
    }

    proptest::proptest! {
        /// The numbered index ranks as comparing the words as strings
        /// does: names, descriptions and parameters made of a few short
        /// words (so that words repeat, and some start others), in any
        /// case and with accents.
        #[test]
        fn the_index_scores_as_comparing_strings_does(
            tools in proptest::collection::vec(
                ("[a-cA-C]{1,3}(_[a-c]{1,3}){0,2}", "([a-cé]{1,3} ){0,4}", proptest::collection::vec("[a-c]{1,3}", 0..3)),
                0..12,
            ),
            query in "([a-cA-Cé]{1,3} ){1,3}",
        ) {
            let catalog = Catalog::new(tools.iter().map(|(name, description, parameters)| {
                let properties: serde_json::Map<String, serde_json::Value> =
                    parameters.iter().map(|p| (p.clone(), json!({"type": "string"}))).collect();
                ToolDef::new(name.clone(), json!({"type": "object", "properties": properties}))
                    .with_description(description.clone())
            }));
            let query_words = words(&query);
            let mut want: Vec<(usize, String)> = catalog
                .lowered_tools()
                .iter()
                .map(|tool| {
                    let name = words(&tool.name);
                    let mut text = words(tool.description.as_deref().unwrap_or(""));
                    for p in parameter_names(&tool.input, catalog.lowered_defs()) {
                        text.extend(words(p));
                    }
                    let score: usize = query_words
                        .iter()
                        .map(|q| {
                            if name.contains(q) {
                                3
                            } else if name.iter().any(|w| w.starts_with(q.as_str())) {
                                2
                            } else {
                                usize::from(text.contains(q))
                            }
                        })
                        .sum();
                    (score, tool.name.clone())
                })
                .filter(|(score, _)| *score > 0)
                .collect();
            want.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
            want.truncate(MAX_MATCHES);
            let want: Vec<String> = want.into_iter().map(|(_, name)| name).collect();
            let got: Vec<String> =
                catalog.search(&query, MAX_MATCHES).into_iter().map(|m| m.name).collect();
            proptest::prop_assert_eq!(got, want);
        }
    }

    /// Only the first [`MAX_SEARCHED_BYTES`] of a tool's text are read,
    /// so a description of megabytes costs what one of 16 KiB does.
    #[test]
    fn search_reads_the_start_of_each_text() {
        let filler = "word ".repeat(MAX_SEARCHED_BYTES / 5);
        let c = Catalog::new([ToolDef::new("t", json!({"type": "object"}))
            .with_description(format!("early {filler} late"))]);
        assert_eq!(c.search("early", 5).len(), 1);
        assert!(c.search("late", 5).is_empty());
    }

    /// Accents, compatibility forms and scripts without spaces.
    #[test]
    fn search_words_fold_accents_and_pair_unspaced_scripts() {
        // Composed and combining accents, and full-width letters.
        assert_eq!(words("Café cafe\u{301} ｃａｆｅ"), ["cafe", "cafe", "cafe"]);
        assert_eq!(words("ﬁleName"), ["file", "name"]);
        // Pairs in Chinese and Japanese, a lone character whole, and
        // other scripts around them as words of their own.
        assert_eq!(words("创建文件"), ["创建", "建文", "文件"]);
        assert_eq!(words("GitHub上issue"), ["git", "hub", "上", "issue"]);
        assert_eq!(words("ファイル・作成"), ["ファ", "ァイ", "イル", "作成"]);
        // A Hangul syllable is not split into its letters.
        assert_eq!(words("파일을 읽기"), ["파일", "일을", "읽기"]);
        // Marks that make another letter stay with it: vowel signs of
        // Devanagari and Thai, the voicing marks of kana.
        assert_eq!(words("काम कम"), ["काम", "कम"]);
        assert_eq!(words("ดู ดี"), ["ดู", "ดี"]);
        assert_eq!(words("バス パス"), ["ハ\u{3099}ス", "ハ\u{309A}ス"]);
        // A tool's text also gives each character of such a run.
        let mut tool_words = Vec::new();
        for_each_word("時刻表 x", Read::Tool, |w| tool_words.push(w.to_owned()));
        assert_eq!(tool_words, ["時", "刻", "時刻", "表", "刻表", "x"]);
        let c = Catalog::new([
            ToolDef::new("write_file", json!({"type": "object"}))
                .with_description("新しいファイルを作成します。"),
            ToolDef::new("read_file", json!({"type": "object"}))
                .with_description("Lit un fichier déjà créé."),
            ToolDef::new("create_issue", json!({"type": "object"}))
                .with_description("创建一个新的问题。"),
        ]);
        let names = |query: &str| -> Vec<String> {
            c.search(query, 10).into_iter().map(|m| m.name).collect()
        };
        assert_eq!(names("ファイルを作成"), ["write_file"]);
        assert_eq!(names("deja cree"), ["read_file"]);
        assert_eq!(names("DÉJÀ"), ["read_file"]);
        assert_eq!(names("新的问题"), ["create_issue"]);
        // One character finds a run that holds it; a voicing mark is no
        // accent to leave out.
        assert_eq!(names("作"), ["write_file"]);
        let kana =
            Catalog::new([ToolDef::new("timetable", json!({"type": "object"}))
                .with_description("バスの時刻表")]);
        assert_eq!(kana.search("バス", 5).len(), 1);
        assert!(kana.search("パス", 5).is_empty());
        assert!(kana.search("ハス", 5).is_empty());
        // A name starts with a query only where a letter ends: `ハ` is no
        // start of `バス`, nor `क` of `काम`, but `バ` is.
        let named = Catalog::new(
            ["バス", "काम", "ハム"].map(|name| ToolDef::new(name, json!({"type": "object"}))),
        );
        let names = |query: &str| -> Vec<String> {
            named
                .search(query, 10)
                .into_iter()
                .map(|m| m.name)
                .collect()
        };
        assert_eq!(names("ハ"), ["ハム"]);
        assert_eq!(names("バ"), ["バス"]);
        assert!(names("क").is_empty());
        assert_eq!(names("का"), ["काम"]);
    }

    #[test]
    fn summaries_are_one_sentence_cut_at_a_word() {
        let long = ToolDef::new("t", json!({})).with_description("word ".repeat(60));
        let s = summary(long.description.as_deref());
        assert!(
            s.ends_with('…') && s.chars().count() <= SUMMARY_CHARS,
            "{s}"
        );
        let two =
            ToolDef::new("t", json!({})).with_description("First one. Second one.\nNext line.");
        assert_eq!(summary(two.description.as_deref()), "First one.");
    }

    #[test]
    fn names_never_end_a_comment_line() {
        let c = Catalog::new([
            ToolDef::new("x_a\u{2028}alert(1)", json!({})),
            ToolDef::new("x_b\u{85}c", json!({})),
            ToolDef::new("x_plain", json!({})),
        ]);
        for language in Language::ALL {
            let index = c.index(language, Fit::Names);
            assert!(
                !index.contains('\u{2028}') && !index.contains('\u{85}'),
                "{index}"
            );
            assert!(
                index.contains("\"x_a\\u2028alert(1)\"") && index.contains("   x_plain\n"),
                "{index}"
            );
            let described = c.describe(language, &["x_\u{2028}"]);
            assert!(!described.contains('\u{2028}'), "{described}");
        }
    }

    /// A name that would form a checker directive is shown as a literal
    /// with the telling character escaped: no directive, and copying it
    /// names the tool (parting the words with a space named another).
    #[test]
    fn names_that_form_directives_are_escaped_not_parted() {
        let c = Catalog::new([
            ToolDef::new("@ts-nocheck", json!({})),
            ToolDef::new("# type: ignore", json!({})),
            ToolDef::new("pyre-check", json!({})),
            ToolDef::new("plain", json!({})),
        ]);
        let ts = c.index(Language::TypeScript, Fit::Names);
        assert!(ts.contains("//   \"\\u0040ts-nocheck\"\n"), "{ts}");
        assert!(ts.contains("//   pyre-check\n"), "{ts}");
        let py = c.index(Language::Python, Fit::Names);
        assert!(py.contains("#   \"# type\\u003a ignore\"\n"), "{py}");
        assert!(py.contains("#   \"pyre\\u002dcheck\"\n"), "{py}");
        assert!(py.contains("#   @ts-nocheck\n"), "{py}");
        let hint = c.describe(Language::TypeScript, &["ts-nocheck"]);
        assert!(hint.contains("close: \"\\u0040ts-nocheck\""), "{hint}");
        let hint = c.describe(Language::Python, &["type ignore"]);
        assert!(hint.contains("\"# type\\u003a ignore\""), "{hint}");
    }

    #[test]
    fn names_in_an_index_are_literals_of_its_language() {
        // A tag character: a UTF-16 pair in TypeScript, itself in Python.
        let c = Catalog::new([
            ToolDef::new("x_a\u{e0041}", json!({})),
            ToolDef::new("x_b", json!({})),
        ]);
        let ts = c.index(Language::TypeScript, Fit::Names);
        assert!(ts.contains(r#""x_a\udb40\udc41""#), "{ts}");
        let py = c.index(Language::Python, Fit::Names);
        assert!(py.contains("\"x_a\u{e0041}\""), "{py}");
    }

    #[test]
    fn index_text_forms_no_directive() {
        let c = Catalog::new([
            ToolDef::new("x_a # type: ignore", json!({})).with_description("@ts-ignore all"),
            ToolDef::new("x_b", json!({})),
        ]);
        let ts = c.index(Language::TypeScript, Fit::Summaries);
        assert!(
            ts.contains("@ ts-ignore") && !ts.contains("@ts-ignore"),
            "{ts}"
        );
        let py = c.index(Language::Python, Fit::Summaries);
        assert!(
            py.contains("# type\\u003a ignore") && !py.contains("# type: ignore"),
            "{py}"
        );
        // A name and its summary, each harmless alone.
        let c = Catalog::new([
            ToolDef::new("type", json!({})).with_description("ignore"),
            ToolDef::new("pyright", json!({})).with_description("basic"),
        ]);
        let py = c.index(Language::Python, Fit::Summaries);
        assert!(
            py.contains("#   type : ignore") && py.contains("#   pyright : basic"),
            "{py}"
        );
    }
}
