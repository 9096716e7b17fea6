//! The check of a Python program: parsed with ruff's parser (the one the
//! Python runtime uses), then one walk over the tree.

use super::flow::{Flow, Flows};
use super::value::{Entries, Entry, Numeral, Val};
use super::{Context, Finding, Seen, Style, ToolCall, error, too_deep_message};
use crate::diagnostic::{DiagnosticCode, Severity};
use crate::sandbox::{python_absent, python_module_available};

/// Statements and expressions nest at most this deep in a program the
/// Python runtime runs; it refuses a deeper one.
pub const PYTHON_MAX_NESTING: usize = 200;

/// Functions (`def` and `lambda`) nest at most this deep in a program the
/// Python runtime runs: its interpreter compiles each level several times
/// over, so 20 levels take minutes.
pub const PYTHON_MAX_DEF_NESTING: usize = 6;

/// What the runtime and the check say of a place past
/// [`PYTHON_MAX_DEF_NESTING`].
pub fn functions_too_deep_message() -> String {
    format!(
        "functions (`def` and `lambda`) nest more than {PYTHON_MAX_DEF_NESTING} deep here; the sandbox's Python compiles each level several times over. Move inner functions out to the top level"
    )
}
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{
    Alias, ExceptHandler, Expr, ExprCall, ExprContext, Number, Parameter, Pattern, Stmt, UnaryOp,
};
use ruff_text_size::Ranged;
use std::borrow::Cow;

/// Statements and expressions may nest this deep in the walk; deeper ones
/// are not judged.
const MAX_DEPTH: usize = 1_000;

/// `code` as Python reads a source file: every line ending (`\r\n`, or
/// a lone `\r`) is `\n`, inside strings too, so a triple-quoted string
/// written on two lines holds `"a\nb"` whichever ending the text has.
/// Also where the `\r` of each `\r\n` was: the offset (in the text
/// given back) of the `\n` after it.
pub fn universal_newlines(code: &str) -> (Cow<'_, str>, Vec<usize>) {
    if !code.contains('\r') {
        return (Cow::Borrowed(code), Vec::new());
    }
    let mut out = String::with_capacity(code.len());
    let mut dropped = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find('\r') {
        out.push_str(&rest[..at]);
        if rest[at + 1..].starts_with('\n') {
            dropped.push(out.len());
        } else {
            out.push('\n');
        }
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    (Cow::Owned(out), dropped)
}

/// Brackets nest at most this deep, outside strings and comments, in a
/// program the Python runtime runs; it refuses a deeper one before its
/// parser (which recurses on each) sees it.
pub const PYTHON_MAX_BRACKETS: usize = 200;

/// Where brackets first nest past `limit` in Python `code`, strings and
/// comments skipped: the scan the runtime makes before it parses, and the
/// check with it, so that both refuse the same programs at the same place.
pub fn python_brackets_past(code: &str, limit: usize) -> Option<usize> {
    let bytes = code.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            quote @ (b'\'' | b'"') => {
                let triple = bytes.get(i..i + 3) == Some(&[quote, quote, quote][..]);
                i += if triple { 3 } else { 1 };
                while i < bytes.len() {
                    if bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if triple {
                        if bytes.get(i..i + 3) == Some(&[quote, quote, quote][..]) {
                            i += 2;
                            break;
                        }
                    } else if bytes[i] == quote || bytes[i] == b'\n' {
                        break;
                    }
                    i += 1;
                }
            }
            byte => {
                if super::opens_past(byte, &mut depth, limit) {
                    return Some(i);
                }
            }
        }
        i += 1;
    }
    None
}

/// Checks a Python program.
pub(super) fn check(context: &Context<'_>, code: &str) -> Vec<(Severity, Finding)> {
    let mut findings = Vec::new();
    if let Some(at) = python_brackets_past(code, PYTHON_MAX_BRACKETS) {
        findings.push((
            Severity::Error,
            Finding {
                at,
                code: DiagnosticCode::SyntaxError,
                message: super::brackets_too_deep_message(PYTHON_MAX_BRACKETS),
            },
        ));
        return findings;
    }
    let parsed = match ruff_python_parser::parse_module(code) {
        Ok(parsed) => parsed,
        Err(error) => {
            // The parser's own bound on nesting (unary operators, `lambda`,
            // conditional expressions): the runtime, which parses with the
            // same parser, says it in the words of its own limit.
            let message = match error.error {
                ruff_python_parser::ParseErrorType::RecursionLimitExceeded => {
                    too_deep_message(PYTHON_MAX_NESTING)
                }
                other => format!("SyntaxError: {other}"),
            };
            findings.push((
                Severity::Error,
                Finding {
                    at: usize::from(error.location.start()),
                    code: DiagnosticCode::SyntaxError,
                    message,
                },
            ));
            return findings;
        }
    };
    let body = &parsed.syntax().body;
    let mut walk = Walk::default();
    walk.visit_body(body);
    walk.finish(context, &mut findings);
    findings
}

/// What one walk over a Python program collects.
#[derive(Default)]
struct Walk<'a> {
    seen: Seen<'a>,
    /// Imports of modules the sandbox lacks.
    modules: Vec<(String, usize)>,
    /// How many statements enclose the one being walked (1: the module's).
    statements: usize,
    /// How many `try` blocks with handlers enclose the walk.
    guarded: usize,
    /// Whether the code being walked certainly runs.
    flow: Flow,
    /// References to `tools` (or an alias), and how many are the object of
    /// an attribute or a subscript (see the JavaScript walk).
    base_refs: usize,
    base_uses: usize,
    /// `hasattr(tools, ...)` tests, which pass `tools` as a value.
    probes: usize,
    /// Statements and expressions around the walk (as the runtime counts
    /// them), and the functions (`def` and `lambda`) among them.
    depth: usize,
    functions: usize,
    /// The first place past the runtime's limits of nesting.
    past_limits: Option<Finding>,
}

impl<'a> Walk<'a> {
    fn bind(&mut self, name: &'a str) {
        self.seen.bind(name);
    }

    /// `hasattr(tools, "x")` and `getattr(tools, "x", ...)` test for a tool.
    fn probe(&mut self, call: &'a ExprCall) {
        let (Expr::Name(function), [Expr::Name(object), Expr::StringLiteral(name), ..]) =
            (call.func.as_ref(), &call.arguments.args[..])
        else {
            return;
        };
        if matches!(function.id.as_str(), "hasattr" | "getattr")
            && self.seen.is_base(object.id.as_str())
        {
            self.probes += 1;
            self.seen.probed.insert(Cow::Borrowed(name.value.to_str()));
        }
    }

    /// Whether `call` is made on `tools` (or an alias): `tools.x(...)` or
    /// `tools["x"](...)`.
    fn reaches_tools(&self, call: &ExprCall) -> bool {
        let object = match call.func.as_ref() {
            Expr::Attribute(attr) => &attr.value,
            Expr::Subscript(sub) => &sub.value,
            _ => return false,
        };
        matches!(object.as_ref(), Expr::Name(name) if self.seen.is_base(name.id.as_str()))
    }

    fn tool_call(&self, call: &'a ExprCall) -> Option<(&'a str, ToolCall<'a>)> {
        let base_of = |e: &'a Expr| match e {
            Expr::Name(name) if self.seen.is_base(name.id.as_str()) => Some(name.id.as_str()),
            _ => None,
        };
        let (base, name, name_at) = match call.func.as_ref() {
            Expr::Attribute(attr) => {
                let name = attr.attr.as_str();
                // Dunders are the object's own, never tools.
                if name.starts_with("__") && name.ends_with("__") {
                    return None;
                }
                (
                    base_of(&attr.value)?,
                    Cow::Borrowed(name),
                    usize::from(attr.attr.range().start()),
                )
            }
            Expr::Subscript(sub) => match (base_of(&sub.value), sub.slice.as_ref()) {
                (Some(base), Expr::StringLiteral(s)) => (
                    base,
                    Cow::Borrowed(s.value.to_str()),
                    usize::from(s.range().start()),
                ),
                _ => return None,
            },
            _ => return None,
        };
        let arguments = &call.arguments;
        let mut bad_arguments = None;
        let args = match (&arguments.args[..], &arguments.keywords[..]) {
            ([], []) => Some((name_at, Val::no_arguments())),
            ([Expr::Starred(_)], []) => None,
            ([one], []) => Some((usize::from(one.range().start()), value_of(one))),
            ([], keywords) => {
                let mut entries: Vec<Entry<'_>> = Vec::new();
                let mut open = false;
                for keyword in keywords {
                    match &keyword.arg {
                        Some(key) => entries.push(Entry {
                            key: Cow::Borrowed(key.as_str()),
                            key_at: usize::from(keyword.range().start()),
                            at: usize::from(keyword.value.range().start()),
                            val: value_of(&keyword.value),
                        }),
                        None => {
                            entries.clear();
                            open = true;
                        }
                    }
                }
                Some((
                    usize::from(call.range().start()),
                    Val::Obj { entries, open },
                ))
            }
            (positional, keywords) => {
                if !positional.iter().any(|a| matches!(a, Expr::Starred(_)))
                    && !keywords.iter().any(|k| k.arg.is_none())
                {
                    bad_arguments = Some(format!(
                        "a tool takes one dict of arguments (or keyword arguments), not {} positional and {} keyword arguments",
                        positional.len(),
                        keywords.len()
                    ));
                }
                None
            }
        };
        Some((
            base,
            ToolCall {
                name,
                name_at,
                at: usize::from(call.range().start()),
                args,
                bad_arguments,
                optional: false,
                guarded: self.guarded > 0,
                as_property: false,
            },
        ))
    }

    fn finish(mut self, context: &Context<'_>, out: &mut Vec<(Severity, Finding)>) {
        // `hasattr` and `getattr` take `tools` as a value but only test it.
        if self.base_refs > self.base_uses + self.probes {
            self.seen.escaped = true;
        }
        if let Some(finding) = self.past_limits.take() {
            out.push((Severity::Error, finding));
        }
        for (module, at) in self.modules {
            out.push(error(
                at,
                DiagnosticCode::Unavailable,
                format!(
                    "the module `{module}` is not available: the sandbox has only {}",
                    crate::sandbox::PYTHON_MODULES.join(", ")
                ),
            ));
        }
        self.seen.judge(context, Style::Py, out);
    }
}

impl Flows for Walk<'_> {
    fn flow(&mut self) -> &mut Flow {
        &mut self.flow
    }
}

impl<'a> Walk<'a> {
    /// Enters a statement or expression (a function, for `def` and
    /// `lambda`), and notes the first place past the runtime's limits,
    /// which it refuses to run. The walk counts the level itself (`depth`).
    fn enter(&mut self, at: usize, function: bool) {
        self.functions += usize::from(function);
        if self.past_limits.is_some() {
            return;
        }
        let message = if self.depth + 1 > PYTHON_MAX_NESTING {
            too_deep_message(PYTHON_MAX_NESTING)
        } else if self.functions > PYTHON_MAX_DEF_NESTING {
            functions_too_deep_message()
        } else {
            return;
        };
        self.past_limits = Some(Finding {
            at,
            code: DiagnosticCode::SyntaxError,
            message,
        });
    }

    fn leave(&mut self, function: bool) {
        self.functions -= usize::from(function);
    }

    fn stmt(&mut self, stmt: &'a Stmt) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        self.statements += 1;
        // An import runs, and fails, only when its statement runs: one at
        // the module's top level, outside a `try` that catches, always does.
        let runs = self.statements == 1 && self.guarded == 0 && self.flow.certain();
        match stmt {
            Stmt::Try(stmt) if !stmt.handlers.is_empty() => {
                self.guarded += 1;
                self.visit_body(&stmt.body);
                self.guarded -= 1;
                self.maybe(|walk| {
                    for handler in &stmt.handlers {
                        walk.visit_except_handler(handler);
                    }
                    walk.visit_body(&stmt.orelse);
                });
                self.visit_body(&stmt.finalbody);
                self.statements -= 1;
                self.depth -= 1;
                return;
            }
            Stmt::FunctionDef(def) => self.bind(def.name.as_str()),
            Stmt::ClassDef(class) => self.bind(class.name.as_str()),
            Stmt::Global(global) => global.names.iter().for_each(|n| self.bind(n.as_str())),
            Stmt::Nonlocal(nonlocal) => nonlocal.names.iter().for_each(|n| self.bind(n.as_str())),
            Stmt::Import(import) if runs => {
                for alias in &import.names {
                    if !python_module_available(alias.name.as_str()) {
                        self.modules
                            .push((alias.name.to_string(), usize::from(alias.range().start())));
                    }
                }
            }
            Stmt::ImportFrom(import) if runs => {
                let module = import.module.as_ref().map(|m| m.as_str()).unwrap_or("");
                // `from __future__ import annotations` is a compiler flag.
                let future = module == "__future__" && import.level == 0;
                if !future && (import.level > 0 || !python_module_available(module)) {
                    let dots = ".".repeat(import.level as usize);
                    self.modules.push((
                        format!("{dots}{module}"),
                        usize::from(import.range().start()),
                    ));
                }
            }
            Stmt::Assign(assign) => {
                if let ([Expr::Name(target)], Expr::Name(value)) =
                    (&assign.targets[..], assign.value.as_ref())
                    && value.id.as_str() == crate::GLOBAL
                {
                    self.seen.aliases.insert(target.id.as_str());
                    self.base_uses += 1;
                }
            }
            Stmt::Expr(expr) => {
                if let Expr::Call(call) = expr.value.as_ref()
                    && self.reaches_tools(call)
                {
                    self.seen.dropped_at(usize::from(call.range().start()));
                }
            }
            _ => {}
        }
        // The test, the iterable and the subject always run; what they
        // guard may not.
        match stmt {
            Stmt::If(stmt) => {
                self.visit_expr(&stmt.test);
                self.maybe(|walk| {
                    walk.visit_body(&stmt.body);
                    for clause in &stmt.elif_else_clauses {
                        walk.visit_elif_else_clause(clause);
                    }
                });
            }
            Stmt::While(stmt) => {
                self.visit_expr(&stmt.test);
                self.maybe(|walk| {
                    walk.visit_body(&stmt.body);
                    walk.visit_body(&stmt.orelse);
                });
                // `while True:` ends only through a `break`, `return` or
                // `raise`, which the walk counts as ways out already: what
                // follows runs only after one of them.
                let forever = match stmt.test.as_ref() {
                    Expr::BooleanLiteral(b) => b.value,
                    Expr::NumberLiteral(n) => {
                        matches!(&n.value, Number::Int(i) if i.as_u64() != Some(0))
                    }
                    _ => false,
                };
                if forever {
                    self.flow.exit();
                }
            }
            Stmt::For(stmt) => {
                self.visit_expr(&stmt.iter);
                self.maybe(|walk| {
                    walk.visit_expr(&stmt.target);
                    walk.visit_body(&stmt.body);
                    walk.visit_body(&stmt.orelse);
                });
            }
            Stmt::Match(stmt) => {
                self.visit_expr(&stmt.subject);
                self.maybe(|walk| {
                    for case in &stmt.cases {
                        walk.visit_match_case(case);
                    }
                });
            }
            // The message is built only when the assertion fails.
            Stmt::Assert(stmt) => {
                self.visit_expr(&stmt.test);
                if let Some(msg) = &stmt.msg {
                    self.maybe(|walk| walk.visit_expr(msg));
                }
            }
            Stmt::FunctionDef(_) => self.nested(|walk| visitor::walk_stmt(walk, stmt)),
            Stmt::Return(_) | Stmt::Raise(_) | Stmt::Break(_) | Stmt::Continue(_) => {
                visitor::walk_stmt(self, stmt);
                self.flow.exit();
            }
            _ => visitor::walk_stmt(self, stmt),
        }
        self.statements -= 1;
        self.depth -= 1;
    }
}

impl<'a> Visitor<'a> for Walk<'a> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        let function = matches!(stmt, Stmt::FunctionDef(_));
        self.enter(usize::from(stmt.range().start()), function);
        self.stmt(stmt);
        self.leave(function);
    }

    fn visit_body(&mut self, body: &'a [Stmt]) {
        self.in_turn(body, |walk, stmt| walk.visit_stmt(stmt));
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        let function = matches!(expr, Expr::Lambda(_));
        self.enter(usize::from(expr.range().start()), function);
        self.expr(expr);
        self.leave(function);
    }

    fn visit_parameter(&mut self, parameter: &'a Parameter) {
        self.bind(parameter.name.as_str());
        visitor::walk_parameter(self, parameter);
    }

    fn visit_alias(&mut self, alias: &'a Alias) {
        let bound = alias.asname.as_ref().unwrap_or(&alias.name).as_str();
        // `import a.b` binds `a`.
        let bound = bound.split('.').next().unwrap_or(bound);
        self.bind(bound);
        visitor::walk_alias(self, alias);
    }

    fn visit_except_handler(&mut self, handler: &'a ExceptHandler) {
        let ExceptHandler::ExceptHandler(h) = handler;
        if let Some(name) = &h.name {
            self.bind(name.as_str());
        }
        visitor::walk_except_handler(self, handler);
    }

    fn visit_pattern(&mut self, pattern: &'a Pattern) {
        match pattern {
            Pattern::MatchAs(p) => {
                if let Some(name) = &p.name {
                    self.bind(name.as_str());
                }
            }
            Pattern::MatchStar(p) => {
                if let Some(name) = &p.name {
                    self.bind(name.as_str());
                }
            }
            Pattern::MatchMapping(p) => {
                if let Some(name) = &p.rest {
                    self.bind(name.as_str());
                }
            }
            _ => {}
        }
        visitor::walk_pattern(self, pattern);
    }

    fn visit_type_param(&mut self, type_param: &'a ruff_python_ast::TypeParam) {
        self.bind(type_param.name().as_str());
        visitor::walk_type_param(self, type_param);
    }
}

impl<'a> Walk<'a> {
    fn expr(&mut self, expr: &'a Expr) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        match expr {
            Expr::Name(name) if name.ctx != ExprContext::Load => self.bind(name.id.as_str()),
            Expr::Name(name) if self.seen.is_base(name.id.as_str()) => self.base_refs += 1,
            Expr::Attribute(attr) => {
                if let Expr::Name(name) = attr.value.as_ref()
                    && self.seen.is_base(name.id.as_str())
                {
                    self.base_uses += 1;
                }
            }
            Expr::Subscript(sub) => {
                if let Expr::Name(name) = sub.value.as_ref()
                    && self.seen.is_base(name.id.as_str())
                {
                    self.base_uses += 1;
                }
            }
            Expr::Call(call) => {
                self.probe(call);
                // `tools.kv.set(...)` for the tool "kv.set".
                if let Expr::Attribute(outer) = call.func.as_ref()
                    && let Expr::Attribute(inner) = outer.value.as_ref()
                    && let Expr::Name(name) = inner.value.as_ref()
                    && self.seen.is_base(name.id.as_str())
                {
                    let head = inner.attr.as_str();
                    self.seen.dotted.push((
                        usize::from(inner.attr.range().start()),
                        head,
                        format!("{head}.{}", outer.attr.as_str()),
                    ));
                }
                if let Expr::Name(name) = call.func.as_ref()
                    && self.guarded == 0
                    && python_absent(name.id.as_str()).is_some()
                {
                    self.seen.absent.push((
                        name.id.as_str(),
                        usize::from(name.range().start()),
                        self.flow.certain(),
                    ));
                }
                if let Some(found) = self.tool_call(call) {
                    self.seen.calls.push(found);
                }
            }
            // `await tools.get-page(args)` reads `(await tools.get) -
            // page(args)` for the tool "get-page".
            Expr::BinOp(op) if op.op == ruff_python_ast::Operator::Sub => {
                let left = match op.left.as_ref() {
                    Expr::Await(wait) => wait.value.as_ref(),
                    left => left,
                };
                if let Expr::Attribute(attr) = left
                    && let Expr::Name(name) = attr.value.as_ref()
                    && self.seen.is_base(name.id.as_str())
                    && let Expr::Call(call) = op.right.as_ref()
                    && let Expr::Name(rest) = call.func.as_ref()
                {
                    let head = attr.attr.as_str();
                    self.seen.dotted.push((
                        usize::from(attr.attr.range().start()),
                        head,
                        format!("{head}-{}", rest.id.as_str()),
                    ));
                }
            }
            _ => {}
        }
        match expr {
            // The first operand and the test always run; the rest may not.
            Expr::BoolOp(op) => {
                if let Some((first, rest)) = op.values.split_first() {
                    self.visit_expr(first);
                    self.maybe(|walk| rest.iter().for_each(|value| walk.visit_expr(value)));
                }
            }
            Expr::If(op) => {
                self.visit_expr(&op.test);
                self.maybe(|walk| {
                    walk.visit_expr(&op.body);
                    walk.visit_expr(&op.orelse);
                });
            }
            // `a < b < c` stops at the first comparison that fails.
            Expr::Compare(op) if op.comparators.len() > 1 => {
                self.visit_expr(&op.left);
                if let Some((first, rest)) = op.comparators.split_first() {
                    self.visit_expr(first);
                    self.maybe(|walk| rest.iter().for_each(|value| walk.visit_expr(value)));
                }
            }
            Expr::Lambda(_)
            | Expr::ListComp(_)
            | Expr::SetComp(_)
            | Expr::DictComp(_)
            | Expr::Generator(_) => self.maybe(|walk| visitor::walk_expr(walk, expr)),
            _ => visitor::walk_expr(self, expr),
        }
        self.depth -= 1;
    }
}

/// What the check can see of an expression's value.
fn value_of(expr: &Expr) -> Val<'_> {
    match expr {
        Expr::StringLiteral(s) => Val::Str(Some(Cow::Borrowed(s.value.to_str()))),
        Expr::FString(_) => Val::Str(None),
        Expr::NumberLiteral(n) => match &n.value {
            Number::Int(i) => match i.as_i64() {
                Some(v) => Val::Num(v as f64, Numeral::Int),
                None => Val::Unknown,
            },
            Number::Float(f) if f.is_finite() => Val::Num(*f, Numeral::Float),
            _ => Val::Unknown,
        },
        Expr::UnaryOp(u) => match (u.op, value_of(&u.operand)) {
            (UnaryOp::USub, Val::Num(v, written)) => Val::Num(-v, written),
            (UnaryOp::UAdd, Val::Num(v, written)) => Val::Num(v, written),
            _ => Val::Unknown,
        },
        Expr::BooleanLiteral(b) => Val::Bool(b.value),
        Expr::NoneLiteral(_) => Val::Null,
        Expr::Dict(dict) => {
            let mut entries = Entries::default();
            let mut open = false;
            for item in &dict.items {
                match &item.key {
                    Some(Expr::StringLiteral(key)) => {
                        let entry = Entry {
                            key: Cow::Borrowed(key.value.to_str()),
                            key_at: usize::from(key.range().start()),
                            at: usize::from(item.value.range().start()),
                            val: value_of(&item.value),
                        };
                        entries.push(entry);
                    }
                    // A spread, or a key that is not a plain string: it may
                    // hold, and so replace, any key before it.
                    _ => {
                        entries.clear();
                        open = true;
                    }
                }
            }
            Val::Obj {
                entries: entries.finish(),
                open,
            }
        }
        Expr::List(list) => sequence(&list.elts, false),
        Expr::Tuple(tuple) => sequence(&tuple.elts, true),
        _ => Val::Unknown,
    }
}

fn sequence(elements: &[Expr], tuple: bool) -> Val<'_> {
    let mut items = Vec::new();
    let mut fixed = None;
    for element in elements {
        match element {
            Expr::Starred(_) => {
                fixed.get_or_insert(items.len());
            }
            e => items.push((usize::from(e.range().start()), value_of(e))),
        }
    }
    Val::Arr {
        open: fixed.is_some(),
        fixed: fixed.unwrap_or(items.len()),
        items,
        tuple,
    }
}
