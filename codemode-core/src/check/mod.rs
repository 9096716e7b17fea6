//! A check of a program against its SDK before it runs: no compiler, a
//! parse and one walk, microseconds.
//!
//! It reports only what is certain to go wrong: calls to tools that do not
//! exist, literal arguments that break their schema (unknown keys where the
//! object is closed, missing required keys, wrong JSON types, values outside
//! an `enum` or `const`, through nested literals, arrays and named types),
//! tool calls whose result is dropped, names and modules the sandbox lacks,
//! and syntax errors. A value the check cannot see (a variable, a spread, a
//! call) is never an error, and neither is anything a program's own
//! bindings might change: a program that binds `tools` itself is not judged
//! on its calls.

mod flow;
pub(crate) mod js;
pub(crate) mod python;
mod stack;
mod value;

use crate::catalog::Catalog;
use crate::diagnostic::{Diagnostic, DiagnosticCode, Severity};
use crate::language::Language;
use crate::schema::Lowered;
use crate::tool::ToolDef;
use std::borrow::Cow;
use std::fmt::Write as _;
use value::{Checker, Val};

/// The longest program checked (four times the runtimes' default limit);
/// a longer one gets no diagnostics.
const MAX_CHECKED_BYTES: usize = 1 << 20;

/// Stack for the parse and walk: a floor, and room per token of program
/// for the deepest nesting that text can hold (debug builds need the most).
const MIN_STACK: usize = 1 << 20;
const STACK_PER_TOKEN: usize = 2 << 10;

/// Checks `code`, a program in `language`, against the SDK of `tools`, and
/// returns what is certain to go wrong, sorted by place. An empty list
/// means nothing was found, not that the program is right. It never
/// panics, whatever the text; a program over 1 MiB is not checked.
///
/// This prepares a [`Catalog`] first; a host that checks many programs
/// against one tool set keeps the catalog and calls
/// [`Catalog::check_program`].
///
/// ```
/// use codemode_core::{DiagnosticCode, Language, ToolDef, check_program};
/// use serde_json::json;
///
/// let tools = vec![ToolDef::new(
///     "search",
///     json!({
///         "type": "object",
///         "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
///         "required": ["query"],
///         "additionalProperties": false
///     }),
/// )];
/// let code = "const hits = await tools.search({ limit: \"ten\" });\nreturn hits;";
/// let found = check_program(Language::JavaScript, &tools, code);
/// let codes: Vec<_> = found.iter().map(|d| (d.line, d.column, d.code)).collect();
/// assert_eq!(
///     codes,
///     [(1, 33, DiagnosticCode::MissingKey), (1, 42, DiagnosticCode::WrongType)]
/// );
/// assert_eq!(
///     found[1].message,
///     "tools.search(): `limit` must be an integer, not a string"
/// );
/// assert!(check_program(Language::Python, &tools, "return await tools.search({'query': 'x'})").is_empty());
/// ```
pub fn check_program(language: Language, tools: &[ToolDef], code: &str) -> Vec<Diagnostic> {
    Catalog::new(tools.iter().cloned()).check_program(language, code)
}

impl Catalog {
    /// Checks `code`, a program in `language`, against this catalog's SDK;
    /// see [`check_program`].
    pub fn check_program(&self, language: Language, code: &str) -> Vec<Diagnostic> {
        self.check_program_explained(language, code, &|_| None)
    }

    /// [`Catalog::check_program`], with `explain` asked about every name the
    /// program calls that no tool has: what it says (the source of such
    /// tools is down, say) ends that call's error, after a `; `. A runtime
    /// passes [`crate::Toolset::missing`].
    pub fn check_program_explained(
        &self,
        language: Language,
        code: &str,
        explain: &dyn Fn(&str) -> Option<String>,
    ) -> Vec<Diagnostic> {
        let context = Context {
            explain,
            lowered: self.checked(),
            aliases: match language {
                Language::Python => self.python_aliases(),
                Language::JavaScript | Language::TypeScript => &[],
            },
            work: std::cell::Cell::new(
                CHECK_WORK.saturating_add(WORK_PER_BYTE.saturating_mul(code.len())),
            ),
            suggest_work: std::cell::Cell::new(SUGGEST_WORK),
            stopped: std::cell::Cell::new(false),
            methods: match language {
                Language::Python => (self.python_aliases().iter())
                    .map(|(method, tool)| (tool.as_str(), method.as_str()))
                    .collect(),
                Language::JavaScript | Language::TypeScript => Default::default(),
            },
        };
        if code.len() > MAX_CHECKED_BYTES {
            return Vec::new();
        }
        // The JavaScript runtime refuses deeper brackets anywhere in the text
        // (Python's skips strings and comments, and its parser has a limit
        // of its own).
        let javascript = language != Language::Python;
        if let Some(at) = javascript
            .then(|| nested_past(code, js::JS_MAX_NESTING))
            .flatten()
        {
            return vec![to_diagnostic(
                code,
                Finding {
                    at,
                    code: DiagnosticCode::SyntaxError,
                    message: brackets_too_deep_message(js::JS_MAX_NESTING),
                },
                Severity::Error,
            )];
        }
        let walk = || match language {
            Language::JavaScript => js::check(&context, code, false),
            Language::TypeScript => js::check(&context, code, true),
            Language::Python => {
                // Read as the runtime reads it (see `universal_newlines`).
                let (code, dropped) = python::universal_newlines(code);
                let found = python::check(&context, &code);
                (found, Positions::Dropped(dropped))
            }
        };
        let (findings, positions) = match stack_for(code) {
            Stack::Here => walk(),
            // No stack to be had (a limited address space): nothing is
            // certain, so nothing is reported, and the program runs under
            // the runtime's own limits.
            Stack::Another(size) => match stack::on_stack(size, walk) {
                Some(found) => found,
                None => return Vec::new(),
            },
        };
        let offsets: Vec<usize> = (findings.iter())
            .map(|(_, finding)| positions.original(finding.at))
            .collect();
        let places = line_columns(code, &offsets);
        let mut diagnostics: Vec<Diagnostic> = (findings.into_iter().zip(places))
            .map(|((severity, finding), (line, column))| Diagnostic {
                line,
                column,
                severity,
                code: finding.code,
                message: visible(finding.message),
            })
            .collect();
        diagnostics.sort_by(|a, b| {
            (a.line, a.column, a.code, &a.message).cmp(&(b.line, b.column, b.code, &b.message))
        });
        diagnostics.dedup();
        let stopped = context.stopped.get() || diagnostics.len() > MAX_FINDINGS;
        if diagnostics.len() > MAX_FINDINGS {
            // Errors first: a warning never takes an error's place.
            let errors = (diagnostics.iter())
                .filter(|d| d.severity == Severity::Error)
                .count();
            let mut warnings_left = MAX_FINDINGS.saturating_sub(errors);
            let mut errors_left = MAX_FINDINGS;
            diagnostics.retain(|d| {
                let left = if d.severity == Severity::Error {
                    &mut errors_left
                } else {
                    &mut warnings_left
                };
                let keep = *left > 0;
                *left = left.saturating_sub(1);
                keep
            });
        }
        if stopped && let Some(last) = diagnostics.last_mut() {
            last.message.push_str(&format!(
                " (the check stops after {MAX_FINDINGS} problems; fix these and check again)"
            ));
        }
        diagnostics
    }
}

/// The stack a check of `code` runs on. The parsers recurse at most once
/// per token for the nesting that brackets do not show (`!!!!x`,
/// `a = b = c`, `x => y => z`, `not not x`). A token takes at least a byte,
/// so the length bounds the need; only when that bound asks for more than
/// the thread has left are the tokens counted, for a closer one.
fn stack_for(code: &str) -> Stack {
    let need = |tokens: usize| {
        STACK_PER_TOKEN
            .saturating_mul(tokens)
            .saturating_add(MIN_STACK)
    };
    let Some(left) = stacker::remaining_stack() else {
        return Stack::Another(need(token_bound(code)));
    };
    if left >= need(code.len()) {
        return Stack::Here;
    }
    let need = need(token_bound(code));
    if left >= need {
        Stack::Here
    } else {
        Stack::Another(need)
    }
}

/// Where a check runs.
enum Stack {
    /// On the caller's stack, which has enough left.
    Here,
    /// On another of this many bytes.
    Another(usize),
}

/// At least as many as the tokens in `code`, in either language: each byte
/// of punctuation, each run of word characters (letters, digits, `_`,
/// `$`) and each character outside ASCII counts one; blanks count none.
/// Strings and comments are counted as if they were code, which only
/// counts more.
fn token_bound(code: &str) -> usize {
    let mut count = 0usize;
    let mut in_word = false;
    for &b in code.as_bytes() {
        let word = b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
        let starts = if word {
            !in_word
        } else {
            // Neither a blank nor the continuation of a UTF-8 character.
            !b.is_ascii_whitespace() && !(0x80..0xC0).contains(&b)
        };
        count += usize::from(starts);
        in_word = word;
    }
    count
}

/// What a language's walk needs.
pub(crate) struct Context<'c> {
    lowered: &'c Lowered,
    /// Why no tool has a name, when the host knows (see
    /// [`Catalog::check_program_explained`]).
    explain: &'c dyn Fn(&str) -> Option<String>,
    /// The methods the Python SDK declares for tools whose names cannot be
    /// methods, with their tools, by method (none for JavaScript).
    aliases: &'c [(String, String)],
    /// Steps the check may still take in judging values, in the whole
    /// program (see [`CHECK_WORK`]).
    work: std::cell::Cell<usize>,
    /// What comparing names for "did you mean" may still cost in the whole
    /// program (see [`SUGGEST_WORK`]).
    suggest_work: std::cell::Cell<usize>,
    /// The method of each tool in `aliases`, by tool.
    methods: foldhash::HashMap<&'c str, &'c str>,
    /// Whether the check left calls (or problems of a call) out, past
    /// [`MAX_FINDINGS`].
    stopped: std::cell::Cell<bool>,
}

/// What finding the names near a misspelt one may cost in the check of
/// one program, in characters compared. Past it, a misspelt name gets no
/// suggestion: thousands of misspelt calls against thousands of tools are
/// checked in bounded time.
const SUGGEST_WORK: usize = 1 << 22;

/// Most problems the check of one program reports. Past them it checks no
/// further call, and says so: a model fixes the first few and checks again.
const MAX_FINDINGS: usize = 64;

/// Steps the check of one program may take in judging values: each type
/// a value is weighed against counts one, and each member of a union one
/// more. Past it, a value is taken as it is (the check reports only what
/// it is sure of): a long program of calls into a tool whose schema holds
/// a union of thousands of members, or intersections that each reach the
/// same recursive type (so that every level doubles the work), is checked
/// in bounded time, and never holds up its run for long.
const CHECK_WORK: usize = 1 << 20;

/// Steps the check may take for each byte of the program, beyond
/// [`CHECK_WORK`]: a long literal costs about a step per value, so a long
/// program of ordinary calls is checked whole, and the bound stays linear
/// in the program.
const WORK_PER_BYTE: usize = 8;

/// A problem at a byte offset of the text the walk parsed.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    at: usize,
    code: DiagnosticCode,
    message: String,
}

/// How a language's values and calls are written in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    Js,
    Py,
}

/// How offsets in the parsed text map back to the program's.
pub(crate) enum Positions {
    /// The text had `shift` bytes put before the program, and each of the
    /// offsets in `widened` (of the parsed text) had 3 bytes added there.
    Shifted { shift: usize, widened: Vec<usize> },
    /// A byte was taken out before each of these offsets (of the parsed
    /// text): the `\r` of a `\r\n` (see `python::universal_newlines`).
    Dropped(Vec<usize>),
}

impl Positions {
    fn original(&self, at: usize) -> usize {
        match self {
            Positions::Shifted { shift, widened } => {
                let before = widened.partition_point(|&w| w < at);
                at.saturating_sub(*shift).saturating_sub(3 * before)
            }
            Positions::Dropped(dropped) => at + dropped.partition_point(|&d| d <= at),
        }
    }
}

/// A call of a tool, as a walk found it.
pub(crate) struct ToolCall<'a> {
    /// The name as the program wrote it.
    name: Cow<'a, str>,
    /// Where the name is.
    name_at: usize,
    /// Where the call is (for findings about the call as a whole).
    at: usize,
    /// The argument, when the call passes one the check reads.
    args: Option<(usize, Val<'a>)>,
    /// When set, the call cannot run with what it was given.
    bad_arguments: Option<String>,
    /// Whether the name was looked up in a way that gives `undefined` (not
    /// an error) for a missing tool: `tools.name?.()`.
    optional: bool,
    /// Whether the call is inside a `try` that catches: a missing tool
    /// there may be the program's own probe.
    guarded: bool,
    /// Whether the call is reached as a property (`tools.then` is never a
    /// tool, even when a tool has that name).
    as_property: bool,
}

/// What a walk collects of a program's names and calls; judged at the
/// end, when every binding is known.
#[derive(Default)]
pub(crate) struct Seen<'a> {
    /// How often each name is bound anywhere in the program (declared,
    /// assigned, a parameter, an import).
    bound: foldhash::HashMap<&'a str, u32>,
    /// Names given `tools` itself (`const t = tools`): aliases, if bound once.
    aliases: foldhash::HashSet<&'a str>,
    /// Tool calls, with the name of the object each was made on.
    calls: Vec<(&'a str, ToolCall<'a>)>,
    /// Where calls whose result is dropped start, sorted.
    dropped: Vec<usize>,
    /// Uses of names the sandbox lacks (outside a `try` that catches), and
    /// whether the code around each certainly runs.
    absent: Vec<(&'a str, usize, bool)>,
    /// Names a program asks about before it relies on them: tools it tests
    /// for (`"x" in tools`, `if (tools.x)`, `hasattr(tools, "x")`) and
    /// globals it tests with `typeof`. Their absence is not judged.
    probed: foldhash::HashSet<Cow<'a, str>>,
    /// Whether names can resolve in ways a walk does not see (a `with`
    /// block): then neither `tools` nor the sandbox's globals are judged.
    dynamic: bool,
    /// Whether `tools` is used as a value (passed to a function, listed):
    /// then the program may know which tools there are, and a missing one
    /// is not judged.
    escaped: bool,
    /// Whether the program reaches the global object as a value, and so
    /// may put globals in place: then missing globals are not judged.
    global_object: bool,
    /// Calls of `tools.a.b(...)` where `"a.b"` is a tool: where `a` is, the
    /// name `a`, and the tool.
    dotted: Vec<(usize, &'a str, String)>,
}

impl<'a> Seen<'a> {
    fn bind(&mut self, name: &'a str) {
        *self.bound.entry(name).or_insert(0) += 1;
    }

    fn binds(&self, name: &str) -> bool {
        self.dynamic || self.bound.contains_key(name)
    }

    fn probed(&self, name: &str) -> bool {
        self.probed.contains(name)
    }

    /// Whether calls on `name` reach tools (before bindings are judged).
    fn is_base(&self, name: &str) -> bool {
        name == crate::GLOBAL || self.aliases.contains(&name)
    }

    /// Notes that the call starting at `at` is a statement of its own.
    fn dropped_at(&mut self, at: usize) {
        if let Err(i) = self.dropped.binary_search(&at) {
            self.dropped.insert(i, at);
        }
    }

    /// Judges the names and calls seen. A program that binds `tools` itself
    /// is not judged on its calls.
    fn judge(mut self, context: &Context<'_>, style: Style, out: &mut Vec<(Severity, Finding)>) {
        for &(name, at, certain) in &self.absent {
            let absent = match style {
                Style::Js => crate::sandbox::javascript_absent(name),
                Style::Py => crate::sandbox::python_absent(name),
            };
            let put_in_place = self.global_object && style == Style::Js;
            if let (Some(absent), false) = (
                absent,
                self.binds(name) || self.probed(name) || put_in_place,
            ) {
                // Code that may never run (a helper never called, a branch
                // not taken) is not certain to fail.
                let severity = if certain {
                    Severity::Error
                } else {
                    Severity::Warning
                };
                let message = format!("`{name}` is not available: {}", absent.instead);
                out.push(finding(severity, at, DiagnosticCode::Unavailable, message));
            }
        }
        if self.binds(crate::GLOBAL) {
            return;
        }
        let once = |name: &str| self.bound.get(name).copied() == Some(1);
        let gather = match style {
            Style::Js => "collect it in `Promise.all`",
            Style::Py => "pass it to `asyncio.gather`",
        };
        // A Python method takes keyword arguments, a subscript a dict.
        let args = match style {
            Style::Js => "args",
            Style::Py => "...",
        };
        for (at, head, tool) in std::mem::take(&mut self.dotted) {
            if !context.declares(head)
                && context.declares(&tool)
                && !self.escaped
                && !self.probed(&tool)
            {
                out.push(error(
                    at,
                    DiagnosticCode::UnknownTool,
                    format!(
                        "no tool is named {head:?}: the tool {tool:?} is called as {}({args})",
                        context.spelled(&tool, style)
                    ),
                ));
            }
        }
        let calls = std::mem::take(&mut self.calls);
        // Only errors count toward the limit: warnings (code that may never
        // run) must not crowd out a call that certainly fails.
        let mut errors = out.iter().filter(|(s, _)| *s == Severity::Error).count();
        // Where the program binds a name `undefined` of its own, the
        // `undefined` an argument holds may be any value: no argument is
        // judged.
        let unseen_arguments = style == Style::Js && self.bound.contains_key("undefined");
        for (base, mut call) in calls {
            if base != crate::GLOBAL && !once(base) {
                continue;
            }
            if unseen_arguments {
                call.args = None;
            }
            // A tool the program tests for, lists or tries may be missing.
            let probe = self.probed(&call.name) || self.escaped || call.guarded;
            if probe && !context.declares(&call.name) {
                // Missing on purpose, maybe; but where the host knows why
                // the tool is missing (its server is down, say), the
                // program should hear it, as a warning.
                if let Some(why) = (context.explain)(&call.name) {
                    out.push(finding(
                        Severity::Warning,
                        call.name_at,
                        DiagnosticCode::UnknownTool,
                        format!("no tool is named {:?}; {why}", call.name),
                    ));
                }
                continue;
            }
            let then = style == Style::Js && call.as_property && call.name == "then";
            if !then && self.dropped.binary_search(&call.at).is_ok() && context.declares(&call.name)
            {
                out.push(finding(
                    Severity::Warning,
                    call.at,
                    DiagnosticCode::NotAwaited,
                    format!(
                        "the result of {}() is never awaited: the call runs, but its value and any error are lost; write `await` before it (or {gather})",
                        context.spelled(&call.name, style)
                    ),
                ));
            }
            context.check_call(call, style, out, &mut errors);
        }
    }
}

/// A finding of `severity`.
fn finding(
    severity: Severity,
    at: usize,
    code: DiagnosticCode,
    message: String,
) -> (Severity, Finding) {
    (severity, Finding { at, code, message })
}

/// An error-severity finding.
fn error(at: usize, code: DiagnosticCode, message: String) -> (Severity, Finding) {
    finding(Severity::Error, at, code, message)
}

impl Context<'_> {
    /// The tool named `name`, or declared as the method `name`, if the SDK
    /// declares one.
    fn tool(&self, name: &str) -> Option<&crate::schema::LoweredTool> {
        let tools = &self.lowered.tools;
        let find = |name: &str| tools.binary_search_by(|t| t.name.as_str().cmp(name)).ok();
        let i = find(name).or_else(|| {
            let a = self
                .aliases
                .binary_search_by(|(method, _)| method.as_str().cmp(name))
                .ok()?;
            find(&self.aliases[a].1)
        })?;
        tools.get(i)
    }

    /// How the SDK has a program name the tool `name`.
    fn spelled<'n>(&'n self, name: &'n str, style: Style) -> Spelled<'n> {
        let method = self.methods.get(name).copied();
        Spelled {
            name,
            method,
            style,
        }
    }

    /// Whether the SDK declares a tool named `name`.
    fn declares(&self, name: &str) -> bool {
        self.tool(name).is_some()
    }

    /// The findings for one call; `errors` counts the program's errors so
    /// far, and past [`MAX_FINDINGS`] of them no call is checked.
    fn check_call(
        &self,
        call: ToolCall<'_>,
        style: Style,
        out: &mut Vec<(Severity, Finding)>,
        errors: &mut usize,
    ) {
        if *errors >= MAX_FINDINGS {
            self.stopped.set(true);
            return;
        }
        let before = out.len();
        self.judge_call(call, style, out);
        *errors += out.len() - before;
    }

    /// [`check_call`](Self::check_call) without the count: each finding
    /// here is an error.
    fn judge_call(&self, call: ToolCall<'_>, style: Style, out: &mut Vec<(Severity, Finding)>) {
        let Some(tool) = self.tool(&call.name) else {
            if call.optional {
                return;
            }
            let names: Vec<&str> = self.lowered.tools.iter().map(|t| t.name.as_str()).collect();
            // Python reads an identifier in NFKC form: `tools.ﬁle` is
            // `tools.file`, and the tool "ﬁle" is reached only by subscript.
            let folded = (style == Style::Py)
                .then(|| {
                    use unicode_normalization::UnicodeNormalization;
                    (names.iter().copied()).find(|n| {
                        !n.is_ascii() && *n != call.name && n.nfkc().eq(call.name.chars())
                    })
                })
                .flatten();
            let hint = match folded.or_else(|| suggest(&call.name, &names, &self.suggest_work)) {
                Some(near) => format!("; did you mean {}?", self.spelled(near, style)),
                None if names.is_empty() => "; there are no tools".to_owned(),
                None if names.len() <= 12 => {
                    let listed: Vec<String> = names
                        .iter()
                        .map(|n| self.spelled(n, style).to_string())
                        .collect();
                    format!("; the tools are {}", listed.join(", "))
                }
                None => "; the SDK declares every tool there is".to_owned(),
            };
            let why = (self.explain)(&call.name)
                .map(|why| format!("; {why}"))
                .unwrap_or_default();
            out.push(error(
                call.name_at,
                DiagnosticCode::UnknownTool,
                format!("no tool is named {:?}{why}{hint}", call.name),
            ));
            return;
        };
        if call.as_property && style == Style::Js && tool.name == "then" && !call.optional {
            let g = crate::GLOBAL;
            out.push(error(
                call.name_at,
                DiagnosticCode::UnknownTool,
                format!(
                    "`{g}.then` is never a tool, so awaiting `{g}` stays safe; call this one as {g}(\"then\", args)"
                ),
            ));
            return;
        }
        let shown = self.spelled(&call.name, style);
        if let Some(problem) = call.bad_arguments {
            out.push(error(
                call.at,
                DiagnosticCode::BadArguments,
                format!("{shown}(): {problem}"),
            ));
            return;
        }
        let Some((at, args)) = call.args else { return };
        let mut checker = Checker {
            lowered: self.lowered,
            style,
            call: shown,
            out: Vec::new(),
            work: &self.work,
            suggest_work: &self.suggest_work,
            seen: Default::default(),
        };
        checker.check(&tool.input, &args, at, &value::Path::Root, 0);
        // The parts of an intersection may each find the same problem.
        let mut found = checker.out;
        found.sort_by(|a, b| (a.at, a.code, &a.message).cmp(&(b.at, b.code, &b.message)));
        found.dedup_by(|a, b| (a.at, a.code, &a.message) == (b.at, b.code, &b.message));
        if found.len() > MAX_FINDINGS {
            self.stopped.set(true);
        }
        out.extend(found.into_iter().map(|f| (Severity::Error, f)));
    }
}

/// How a program names a tool: `tools.name` where it can, else
/// `tools["name"]`. Written only into messages, so a clean check never
/// formats it.
#[derive(Clone, Copy)]
pub(super) struct Spelled<'n> {
    name: &'n str,
    /// The method the Python SDK declares for a name that cannot be one.
    method: Option<&'n str>,
    style: Style,
}

impl std::fmt::Display for Spelled<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (name, global) = (self.name, crate::GLOBAL);
        let plain = match self.style {
            Style::Js => crate::ident::typescript::is_plain_key(name) && name != "then",
            Style::Py => crate::ident::python::is_bare_method(name),
        };
        if self.style == Style::Js && name == "then" {
            write!(f, "{global}(\"then\", args)")
        } else if let (Style::Py, Some(method)) = (self.style, self.method) {
            write!(f, "{global}.{method}")
        } else if plain {
            write!(f, "{global}.{name}")
        } else {
            write!(f, "{global}[{name:?}]")
        }
    }
}

/// The name in `names` closest to `wanted`, when one is close enough to be
/// what was meant: equal but for case and separators, or a few edits away.
///
/// Each call spends from `work` what it compares (one per name, and the
/// cells of each edit distance), and suggests nothing once it would spend
/// more than is left.
pub(crate) fn suggest<'n>(
    wanted: &str,
    names: &[&'n str],
    work: &std::cell::Cell<usize>,
) -> Option<&'n str> {
    let spend = |cost: usize| match work.get().checked_sub(cost) {
        Some(left) => {
            work.set(left);
            true
        }
        None => false,
    };
    if !spend(names.len().saturating_mul(wanted.len().max(1))) {
        return None;
    }
    let fold = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '-' | '.' | ' ' => '_',
                c => c.to_ascii_lowercase(),
            })
            .collect()
    };
    let folded = fold(wanted);
    if let Some(same) = names.iter().find(|n| fold(n) == folded) {
        return Some(same);
    }
    let length = wanted.chars().count();
    let budget = (length / 3).clamp(1, 3);
    // Edits must leave something of the name: `b` is no misspelling of `a`.
    names
        .iter()
        .filter(|n| n.len().abs_diff(wanted.len()) <= budget)
        .take_while(|n| spend(n.len().saturating_mul(wanted.len())))
        .map(|n| (edit_distance(&folded, &fold(n)), *n))
        .filter(|&(d, n)| d <= budget && d < length.min(n.chars().count()))
        .min()
        .map(|(_, n)| n)
}

/// Edit distance in characters, a swap of neighbours counting as one edit
/// (optimal string alignment).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let width = b.len() + 1;
    let mut rows = vec![0usize; width * (a.len() + 1)];
    let at = |i: usize, j: usize| i * width + j;
    for j in 0..width {
        rows[at(0, j)] = j;
    }
    for i in 1..=a.len() {
        rows[at(i, 0)] = i;
        for j in 1..width {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[at(i - 1, j)] + 1)
                .min(rows[at(i, j - 1)] + 1)
                .min(rows[at(i - 1, j - 1)] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[at(i - 2, j - 2)] + 1);
            }
            rows[at(i, j)] = best;
        }
    }
    rows[at(a.len(), b.len())]
}

/// The offset where brackets first nest more than `limit` deep (the
/// runtimes refuse such a program the same way).
pub fn nested_past(code: &str, limit: usize) -> Option<usize> {
    // Few programs open that many brackets at all; counting them is cheap.
    let opens = crate::tool_list::count_where(code.as_bytes(), |b| matches!(b, b'(' | b'[' | b'{'));
    if opens <= limit {
        return None;
    }
    let mut depth = 0usize;
    code.bytes()
        .position(|byte| opens_past(byte, &mut depth, limit))
}

/// What the runtimes and the check say of a place where brackets nest past
/// `limit` (`JS_MAX_NESTING` in JavaScript, `PYTHON_MAX_BRACKETS` in
/// Python).
pub fn brackets_too_deep_message(limit: usize) -> String {
    format!("brackets nest more than {limit} levels deep here; flatten the expression")
}

/// What the runtimes and the check say of a place where statements and
/// expressions nest past `limit` (`JS_MAX_DEPTH` in JavaScript,
/// `PYTHON_MAX_NESTING` in Python).
pub fn too_deep_message(limit: usize) -> String {
    format!(
        "the program nests more than {limit} levels deep here; split the deepest expression into steps with variables"
    )
}

/// Counts one byte into `depth`, the brackets open: whether it opens one
/// past `limit`.
pub(crate) fn opens_past(byte: u8, depth: &mut usize, limit: usize) -> bool {
    match byte {
        b'(' | b'[' | b'{' => {
            *depth += 1;
            *depth > limit
        }
        b')' | b']' | b'}' => {
            *depth = depth.saturating_sub(1);
            false
        }
        _ => false,
    }
}

fn to_diagnostic(code: &str, finding: Finding, severity: Severity) -> Diagnostic {
    let (line, column) = line_column(code, finding.at);
    Diagnostic {
        line,
        column,
        severity,
        code: finding.code,
        message: visible(finding.message),
    }
}

/// `message` with every character that prints as nothing or moves the
/// text around (controls, line and paragraph separators, and what
/// [`unseen`](crate::canonical::unseen) names: bidirectional marks and
/// embeddings, zero-width characters, ...) written as `\u{...}`: a message
/// quotes the program's text, and a model (or a terminal) should see what
/// is there.
fn visible(message: String) -> String {
    let hidden = |c: char| {
        c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') || crate::canonical::unseen(c)
    };
    if !message.chars().any(hidden) {
        return message;
    }
    let mut out = String::with_capacity(message.len() + 8);
    for c in message.chars() {
        if hidden(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// [`line_column`] of each offset, in one pass over `code` however many
/// there are.
fn line_columns(code: &str, offsets: &[usize]) -> Vec<(u32, u32)> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets[i]);
    let bytes = code.as_bytes();
    let mut places = vec![(0, 0); offsets.len()];
    // Up to `pos`: the line, where it starts, and its characters so far.
    let (mut pos, mut line, mut start, mut chars) = (0usize, 1usize, 0usize, 0usize);
    for i in order {
        let offset = code.floor_char_boundary(offsets[i]);
        if offset > pos {
            for at in memchr::memchr2_iter(b'\n', b'\r', &bytes[pos..offset]) {
                let at = pos + at;
                // A `\r` before a `\n` is that line break's first half.
                if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                    continue;
                }
                line += 1;
                start = at + 1;
                chars = 0;
            }
            chars += code[start.max(pos)..offset].chars().count();
            pos = offset;
        }
        let mut column = chars + 1;
        // Editors do not show a byte-order mark.
        if start == 0 && code.starts_with('\u{feff}') && offset > 0 {
            column -= 1;
        }
        places[i] = (
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(column).unwrap_or(u32::MAX),
        );
    }
    places
}

/// The 1-based line and column (in characters) of a byte offset. A line
/// ends at `\n`, `\r\n` or a lone `\r`, as both languages have it.
pub fn line_column(code: &str, offset: usize) -> (u32, u32) {
    let offset = code.floor_char_boundary(offset);
    let before = &code.as_bytes()[..offset];
    let mut line = 1usize;
    let mut start = 0usize;
    for i in memchr::memchr2_iter(b'\n', b'\r', before) {
        // A `\r` before a `\n` is that line break's first half.
        if before[i] == b'\r' && code.as_bytes().get(i + 1) == Some(&b'\n') {
            continue;
        }
        line += 1;
        start = i + 1;
    }
    let mut column = code[start..offset].chars().count() + 1;
    // Editors do not show a byte-order mark.
    if start == 0 && code.starts_with('\u{feff}') && offset > 0 {
        column -= 1;
    }
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

#[cfg(test)]
mod tests;
