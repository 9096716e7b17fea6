//! The program text before the interpreter sees it: bounded, parsed once
//! with the ruff parser, checked for what the interpreter cannot take, and
//! rewritten where the sandbox's Python needs a different spelling.
//!
//! - `tools[<expr>]` becomes `__codemode_tool(<expr>)`, and `tools._name`
//!   becomes `__codemode_tool("_name")`: the host object that stands for
//!   `tools` has attributes, not items, and passes no name that starts with
//!   an underscore to the host. The host function answers any name with the
//!   tool function of that name.
//! - `<expr>.toolName` and `<expr>.kind` read through a helper, because a
//!   tool failure arrives as a built-in exception that has no attributes of
//!   its own; the helper reads them off the failure, and is `getattr` for
//!   every other object.
//! - `await <expr>` becomes `__codemode_check(await <expr>)`. A failed tool
//!   call resolves to a host object that stands for the failure (not an
//!   exception, so a program that returns a caught `ToolCallError` as a
//!   value keeps it), and the check raises the failure where it was awaited, so a coroutine that catches it inside `gather` does
//!   (Monty fails a whole `gather` when an awaited call inside fails). For
//!   `await ...gather(...)` the check looks at each result, as `gather`
//!   raises the first failure.
//!
//! Every rewrite keeps the program's lines where they were, and the edits
//! are kept so a column in the rewritten text maps back to the original.

use crate::outcome::{Location, RunError, RunErrorKind};
use codemode_core::{ERROR_CLASS, GLOBAL};
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, ExprContext, Stmt};
use ruff_python_parser::ParseErrorType;
use ruff_text_size::Ranged;

/// Expressions and statements may nest this deep, and function
/// definitions this deep (the interpreter's compile time grows about
/// threefold with each level, so 20 levels take minutes). The check
/// before a run reports the same places, from the same numbers.
use codemode_core::program::{
    PYTHON_MAX_DEF_NESTING as MAX_DEF_NESTING, PYTHON_MAX_NESTING as MAX_NESTING,
};

/// The host function that gives the tool function of a name.
pub(crate) const TOOL_HOST: &str = "__codemode_tool";
/// The helpers that raise a failed call's failure where it is awaited.
pub(crate) const CHECK: &str = "__codemode_check";
/// The host function that says whether a failed call's object may still be
/// about (one not yet raised), so results need looking into.
pub(crate) const UNRAISED_HOST: &str = "__codemode_unraised";
/// The host function behind them, which raises the failure it is given.
pub(crate) const RAISE_HOST: &str = "__codemode_raise";
/// The host class of a failed call's result (never an exception the
/// program could hold or return itself).
pub(crate) const FAILED_CLASS: &str = "__codemode_failed";
/// The helper that reads a tool failure's `toolName` and `kind`.
pub(crate) const FIELD_HELPER: &str = "__codemode_field";
/// The host function behind it.
pub(crate) const FIELD_HOST: &str = "__codemode_error_field";
/// The attributes a tool failure carries.
pub(crate) const FAILURE_FIELDS: [&str; 2] = ["toolName", "kind"];

/// The one line the program runs after: it binds `ToolCallError` to the
/// built-in exception a tool failure arrives as (`failure`), and defines the
/// helper. Every line number of the program is one more than its own, which
/// [`Rewritten::locate`] takes off.
pub(crate) fn prelude() -> String {
    format!(
        "{ERROR_CLASS} = {FAILURE_TYPE}; {FIELD_HELPER} = lambda o, n, i=isinstance, b=BaseException, g=getattr, f={FIELD_HOST}: f(o, n) if i(o, b) else g(o, n); {CHECK} = lambda v, i=isinstance, t={FAILED_CLASS}, r={RAISE_HOST}, l=list, u={UNRAISED_HOST}: r(v) if i(v, t) else ([{CHECK}(x) for x in v] if i(v, l) and u() else v)\n"
    )
}

/// The built-in exception a tool failure arrives as. Nothing in the
/// interpreter raises it, and it has no subclasses, so `except
/// ToolCallError` catches exactly the failures of tool calls.
pub(crate) const FAILURE_TYPE: &str = "PermissionError";

/// The lines the prelude adds before the program.
const PRELUDE_LINES: u32 = 1;

/// A program ready for the interpreter.
#[derive(Debug)]
pub(crate) struct Rewritten {
    /// The prelude and the rewritten program.
    pub(crate) source: String,
    /// The original program (for locations).
    original: String,
    /// Edits, in order: the original byte range and the byte range of its
    /// replacement in the rewritten program (without the prelude).
    edits: Vec<Edit>,
}

#[derive(Debug, Clone, Copy)]
struct Edit {
    old_start: usize,
    old_end: usize,
    new_start: usize,
    new_end: usize,
}

impl Rewritten {
    /// The place in the original program of a 1-based line and character
    /// column of the rewritten one (prelude included).
    pub(crate) fn locate(&self, line: u32, column: u32) -> Option<Location> {
        let line = line.checked_sub(PRELUDE_LINES)?;
        if line == 0 {
            return None;
        }
        let body = &self.source[prelude().len().min(self.source.len())..];
        let start = line_start(body, line)?;
        let offset = body[start..]
            .char_indices()
            .nth(column.saturating_sub(1) as usize)
            .map_or(body.len(), |(i, _)| start + i);
        // Back through the edits before `offset`.
        let mut delta: isize = 0;
        let mut original = None;
        for edit in &self.edits {
            if edit.new_end <= offset {
                delta = edit.new_end as isize - edit.old_end as isize;
            } else if edit.new_start <= offset {
                original = Some(edit.old_start);
                break;
            } else {
                break;
            }
        }
        let original_offset = original.unwrap_or_else(|| (offset as isize - delta).max(0) as usize);
        Some(location_of(&self.original, original_offset))
    }
}

/// The byte offset where 1-based `line` starts.
fn line_start(text: &str, line: u32) -> Option<usize> {
    if line == 1 {
        return Some(0);
    }
    text.match_indices('\n')
        .nth(line as usize - 2)
        .map(|(i, _)| i + 1)
}

/// The 1-based line and character column of a byte offset.
pub(crate) fn location_of(text: &str, offset: usize) -> Location {
    crate::engine::prepare::location_of(text, offset)
}

/// Checks, parses and rewrites `code`. Its line endings are first made
/// `\n`, as Python reads a source file (lines and columns stay those of the
/// text as written).
pub(crate) fn prepare(code: &str) -> Result<Rewritten, RunError> {
    let (code, _) = codemode_core::program::universal_newlines(code);
    let code = &*code;
    check_brackets(code)?;
    let parsed = ruff_python_parser::parse_module(code).map_err(|error| {
        let offset = usize::from(error.location.start());
        if matches!(error.error, ParseErrorType::RecursionLimitExceeded) {
            return too_deep(code, offset);
        }
        let at = location_of(code, offset);
        RunError::new(
            RunErrorKind::SyntaxError,
            format!("SyntaxError: {}", error.error),
        )
        .at(Some(at))
    })?;
    let mut walk = Walk {
        depth: 0,
        defs: 0,
        problem: None,
        edits: Vec::new(),
        tools_edits: Vec::new(),
        binds_tools: false,
        code,
    };
    walk.visit_body(&parsed.syntax().body);
    if let Some(problem) = walk.problem {
        return Err(problem);
    }
    let mut edits = walk.edits;
    // A program that binds `tools` itself means its own value by it somewhere:
    // its subscripts are left as written.
    if !walk.binds_tools {
        edits.extend(walk.tools_edits);
    }
    Ok(apply(code, edits))
}

/// A replacement of `start..end` by `before` + the original text + `after`,
/// or by `text` alone.
#[derive(Debug)]
struct Replace {
    start: usize,
    end: usize,
    kind: ReplaceKind,
}

#[derive(Debug)]
enum ReplaceKind {
    /// `tools[<slice>]` becomes `__codemode_tool(<slice>)`: `tools[` (up to
    /// `open_end`) and the closing `]` change.
    Subscript { open_end: usize },
    /// `tools._name` becomes `__codemode_tool("_name")`.
    Underscore { name: String },
    /// `<expr>` (an `await`, or `asyncio.run(..)`) becomes `check(<expr>)`.
    Check,
    /// The arguments of an exception's constructor, `start..end`, become
    /// one string (`str(..)`, or `str((..))` for several): the sandbox's
    /// exceptions take at most one string, and `str()` of the exception is
    /// the same either way.
    Stringify { several: bool },
    /// `<value>.<attr>` becomes `helper(<value>, "<attr>")`: the text from
    /// the dot on changes.
    Field { dot: usize, attr: String },
}

impl Replace {
    /// The pieces: (original range, new text) in order; the text between
    /// them is kept.
    fn pieces(&self) -> Vec<(usize, usize, String)> {
        match &self.kind {
            ReplaceKind::Subscript { open_end } => vec![
                (self.start, *open_end, format!("{TOOL_HOST}(")),
                (self.end - 1, self.end, ")".to_owned()),
            ],
            ReplaceKind::Underscore { name } => {
                vec![(self.start, self.end, format!("{TOOL_HOST}(\"{name}\")"))]
            }
            ReplaceKind::Check => vec![
                (self.start, self.start, format!("{CHECK}(")),
                (self.end, self.end, ")".to_owned()),
            ],
            ReplaceKind::Stringify { several } => {
                let (open, close) = if *several {
                    ("str((", "))")
                } else {
                    ("str(", ")")
                };
                vec![
                    (self.start, self.start, open.to_owned()),
                    (self.end, self.end, close.to_owned()),
                ]
            }
            ReplaceKind::Field { dot, attr } => vec![
                (self.start, self.start, format!("{FIELD_HELPER}(")),
                (*dot, self.end, format!(", \"{attr}\")")),
            ],
        }
    }
}

fn apply(code: &str, replaces: Vec<Replace>) -> Rewritten {
    // Nested rewrites (a field of a subscript) only insert text at distinct
    // points, so all pieces together are disjoint ranges once sorted.
    let mut pieces: Vec<(usize, usize, String)> =
        replaces.iter().flat_map(Replace::pieces).collect();
    pieces.sort_by_key(|p| (p.0, p.1));
    let mut out = prelude();
    let base = out.len();
    let mut edits = Vec::with_capacity(pieces.len());
    let mut at = 0;
    for (start, end, text) in pieces {
        if start < at {
            continue;
        }
        out.push_str(&code[at..start]);
        let new_start = out.len() - base;
        out.push_str(&text);
        edits.push(Edit {
            old_start: start,
            old_end: end,
            new_start,
            new_end: out.len() - base,
        });
        at = end;
    }
    out.push_str(&code[at..]);
    Rewritten {
        source: out,
        original: code.to_owned(),
        edits,
    }
}

/// Rejects bracket nesting the parser would recurse through, before it
/// runs (the check scans the same way). Strings and comments are skipped.
fn check_brackets(code: &str) -> Result<(), RunError> {
    let limit = codemode_core::program::PYTHON_MAX_BRACKETS;
    match codemode_core::program::python_brackets_past(code, limit) {
        Some(at) => Err(RunError::new(
            RunErrorKind::SyntaxError,
            codemode_core::program::brackets_too_deep_message(limit),
        )
        .at(Some(location_of(code, at)))),
        None => Ok(()),
    }
}

fn too_deep(code: &str, offset: usize) -> RunError {
    RunError::new(
        RunErrorKind::StackOverflow,
        codemode_core::program::too_deep_message(codemode_core::program::PYTHON_MAX_NESTING),
    )
    .at(Some(location_of(code, offset)))
}

struct Walk<'a> {
    depth: usize,
    /// Function scopes (`def` and `lambda`) around the current node.
    defs: usize,
    problem: Option<RunError>,
    edits: Vec<Replace>,
    /// The rewrites of `tools[..]` and `tools._x`.
    tools_edits: Vec<Replace>,
    /// Whether the program binds the name `tools` anywhere.
    binds_tools: bool,
    code: &'a str,
}

/// The exceptions a program can construct by name.
const EXCEPTIONS: &[&str] = &[
    ERROR_CLASS,
    "ArithmeticError",
    "AssertionError",
    "AttributeError",
    "BaseException",
    "Exception",
    "FileExistsError",
    "FileNotFoundError",
    "ImportError",
    "IndexError",
    "KeyError",
    "LookupError",
    "MemoryError",
    "ModuleNotFoundError",
    "NameError",
    "NotImplementedError",
    "OSError",
    "OverflowError",
    "PermissionError",
    "RecursionError",
    "RuntimeError",
    "StopIteration",
    "TimeoutError",
    "TypeError",
    "UnboundLocalError",
    "ValueError",
    "ZeroDivisionError",
];

/// The position of the first (or last) `ch` in `text` outside comments.
fn find_code(text: &str, ch: u8, last: bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut found = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b if b == ch => {
                found = Some(i);
                if !last {
                    return found;
                }
            }
            _ => {}
        }
        i += 1;
    }
    found
}

impl Walk<'_> {
    /// Enters a function scope; false (and the walk stops) past the limit.
    fn enter_function(&mut self, offset: usize) -> bool {
        self.defs += 1;
        if self.defs > MAX_DEF_NESTING {
            self.problem = Some(
                RunError::new(
                    RunErrorKind::SyntaxError,
                    codemode_core::program::functions_too_deep_message(),
                )
                .at(Some(location_of(self.code, offset))),
            );
            return false;
        }
        true
    }

    /// Enters one level; false (and the walk stops) past the limit.
    fn enter(&mut self, offset: usize) -> bool {
        if self.problem.is_some() {
            return false;
        }
        self.depth += 1;
        if self.depth > MAX_NESTING {
            self.problem = Some(too_deep(self.code, offset));
            return false;
        }
        true
    }
}

impl<'a> Visitor<'a> for Walk<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        let start = usize::from(stmt.range().start());
        if !self.enter(start) {
            return;
        }
        match stmt {
            Stmt::FunctionDef(def) if def.name.as_str() == GLOBAL => self.binds_tools = true,
            Stmt::ClassDef(class) if class.name.as_str() == GLOBAL => self.binds_tools = true,
            _ => {}
        }
        let is_def = matches!(stmt, Stmt::FunctionDef(_));
        if is_def && !self.enter_function(start) {
            return;
        }
        visitor::walk_stmt(self, stmt);
        if is_def {
            self.defs -= 1;
        }
        self.depth -= 1;
    }

    fn visit_parameter(&mut self, parameter: &'a ruff_python_ast::Parameter) {
        if parameter.name.as_str() == GLOBAL {
            self.binds_tools = true;
        }
        visitor::walk_parameter(self, parameter);
    }

    fn visit_alias(&mut self, alias: &'a ruff_python_ast::Alias) {
        let bound = alias.asname.as_ref().unwrap_or(&alias.name);
        if bound.as_str() == GLOBAL {
            self.binds_tools = true;
        }
        visitor::walk_alias(self, alias);
    }

    fn visit_except_handler(&mut self, handler: &'a ruff_python_ast::ExceptHandler) {
        let ruff_python_ast::ExceptHandler::ExceptHandler(h) = handler;
        if h.name.as_ref().is_some_and(|n| n.as_str() == GLOBAL) {
            self.binds_tools = true;
        }
        visitor::walk_except_handler(self, handler);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        let range = expr.range();
        let (start, end) = (usize::from(range.start()), usize::from(range.end()));
        if !self.enter(start) {
            return;
        }
        match expr {
            Expr::Name(name) if name.id.as_str() == GLOBAL && name.ctx != ExprContext::Load => {
                self.binds_tools = true;
            }
            Expr::Subscript(sub) if is_tools(&sub.value) && sub.ctx == ExprContext::Load => {
                let value_end = usize::from(sub.value.range().end());
                // The `[` is the first after the name; the `]` ends the expression.
                if let Some(open) = find_code(&self.code[value_end..end], b'[', false) {
                    self.tools_edits.push(Replace {
                        start,
                        end,
                        kind: ReplaceKind::Subscript {
                            open_end: value_end + open + 1,
                        },
                    });
                }
            }
            Expr::Attribute(attribute)
                if attribute.ctx == ExprContext::Load
                    && is_tools(&attribute.value)
                    && attribute.attr.as_str().starts_with('_') =>
            {
                self.tools_edits.push(Replace {
                    start,
                    end,
                    kind: ReplaceKind::Underscore {
                        name: attribute.attr.to_string(),
                    },
                });
            }
            Expr::Attribute(attribute)
                if attribute.ctx == ExprContext::Load
                    && FAILURE_FIELDS.contains(&attribute.attr.as_str()) =>
            {
                // The dot is the last one before the name, outside comments.
                let value_end = usize::from(attribute.value.range().end());
                if let Some(dot) = find_code(&self.code[value_end..end], b'.', true) {
                    self.edits.push(Replace {
                        start,
                        end,
                        kind: ReplaceKind::Field {
                            dot: value_end + dot,
                            attr: attribute.attr.to_string(),
                        },
                    });
                }
            }
            Expr::Await(_) => self.edits.push(Replace {
                start,
                end,
                kind: ReplaceKind::Check,
            }),
            Expr::Call(call) => {
                if matches!(&*call.func, Expr::Attribute(a)
                    if a.attr.as_str() == "run"
                        && matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "asyncio"))
                {
                    self.edits.push(Replace {
                        start,
                        end,
                        kind: ReplaceKind::Check,
                    });
                }
                let args = &call.arguments;
                let is_exception =
                    matches!(&*call.func, Expr::Name(n) if EXCEPTIONS.contains(&n.id.as_str()));
                let plain = args.keywords.is_empty()
                    && !args.args.iter().any(|a| matches!(a, Expr::Starred(_)));
                let one_string = matches!(
                    args.args.as_ref(),
                    [Expr::StringLiteral(_) | Expr::FString(_)]
                );
                if is_exception
                    && plain
                    && !one_string
                    && let (Some(first), Some(last)) = (args.args.first(), args.args.last())
                {
                    self.edits.push(Replace {
                        start: usize::from(first.range().start()),
                        end: usize::from(last.range().end()),
                        kind: ReplaceKind::Stringify {
                            several: args.args.len() > 1,
                        },
                    });
                }
            }
            _ => {}
        }
        let is_lambda = matches!(expr, Expr::Lambda(_));
        if is_lambda && !self.enter_function(start) {
            return;
        }
        visitor::walk_expr(self, expr);
        if is_lambda {
            self.defs -= 1;
        }
        self.depth -= 1;
    }
}

fn is_tools(expr: &Expr) -> bool {
    matches!(expr, Expr::Name(name) if name.id.as_str() == GLOBAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(code: &str) -> String {
        let r = prepare(code).unwrap();
        r.source[prelude().len()..].to_owned()
    }

    #[test]
    fn subscripts_of_tools_and_failure_fields_are_rewritten() {
        assert_eq!(
            body("x = await tools[\"kv.set\"]({\"k\": 1})\n"),
            "x = __codemode_check(await __codemode_tool(\"kv.set\")({\"k\": 1}))\n"
        );
        assert_eq!(
            body("print(e.kind, err.toolName)"),
            "print(__codemode_field(e, \"kind\"), __codemode_field(err, \"toolName\"))"
        );
        // A field of a subscript, and subscripts of other names, stay right.
        assert_eq!(
            body("tools[\"a-b\"].kind; other[\"x\"]"),
            "__codemode_field(__codemode_tool(\"a-b\"), \"kind\"); other[\"x\"]"
        );
        assert_eq!(body("tools._x({})"), "__codemode_tool(\"_x\")({})");
        // Awaits and asyncio.run are checked.
        assert_eq!(
            body("a = await f(await g())\nb = asyncio.run(m())"),
            "a = __codemode_check(await f(__codemode_check(await g())))\nb = __codemode_check(asyncio.run(m()))"
        );
        // Stores are left alone.
        assert_eq!(body("o.kind = 1"), "o.kind = 1");
        // Parentheses around the parts stay balanced.
        assert_eq!(
            body("(e).kind; tools[(\"x\")]"),
            "__codemode_field((e), \"kind\"); __codemode_tool((\"x\"))"
        );
    }

    #[test]
    fn columns_map_back_through_the_rewrites() {
        let code = "a = tools[\"x\"]; b = nope\n";
        let r = prepare(code).unwrap();
        // `nope` is further right in the rewritten line than in the original.
        let body = &r.source[prelude().len()..];
        let rewritten = body.find("nope").unwrap() as u32 + 1;
        let original = code.find("nope").unwrap() as u32 + 1;
        assert!(rewritten > original);
        assert_eq!(
            r.locate(2, rewritten),
            Some(Location {
                line: 1,
                column: original
            })
        );
    }

    #[test]
    fn deep_and_exponential_shapes_are_refused_before_compiling() {
        let brackets = format!("x = {}1{}", "(".repeat(500), ")".repeat(500));
        assert_eq!(
            prepare(&brackets).unwrap_err().kind,
            RunErrorKind::SyntaxError
        );
        let unary = format!("x = {}1", "-".repeat(5_000));
        assert_eq!(
            prepare(&unary).unwrap_err().kind,
            RunErrorKind::StackOverflow
        );
        let mut defs = String::new();
        for i in 0..(MAX_DEF_NESTING + 1) {
            defs.push_str(&format!("{}def f{i}():\n", "    ".repeat(i)));
        }
        defs.push_str(&format!("{}return 1\n", "    ".repeat(MAX_DEF_NESTING + 1)));
        let error = prepare(&defs).unwrap_err();
        assert_eq!(error.kind, RunErrorKind::SyntaxError);
        assert!(error.message.contains("nest"));
        // Brackets inside strings and comments do not count.
        let quoted = format!("x = \"{}\"  # {}\n", "(".repeat(500), "[".repeat(500));
        assert!(prepare(&quoted).is_ok());
    }
}
