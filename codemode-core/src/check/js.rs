//! The check of a JavaScript or TypeScript program: parsed with oxc as the
//! JavaScript runtime parses it (the body of an async function), then one
//! walk over the tree.

use super::flow::{Flow, Flows};
use super::value::{AsNull, Entries, Entry, Numeral, Val};
use super::{Context, Finding, Positions, Seen, Style, ToolCall, error};
use crate::diagnostic::{DiagnosticCode, Severity};
use crate::sandbox::javascript_absent;
use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Argument, ArrayExpressionElement, AssignmentExpression, AssignmentTarget,
    AssignmentTargetPropertyIdentifier, BigIntLiteral, BinaryExpression, BinaryOperator,
    BindingPattern, CallExpression, ComputedMemberExpression, Expression, ExpressionStatement,
    IdentifierReference, ImportExpression, ObjectPropertyKind, PropertyKey, PropertyKind,
    SimpleAssignmentTarget, Statement, StaticMemberExpression, TSClassImplements, TSType,
    TryStatement, UnaryExpression, UnaryOperator, VariableDeclarator, WithStatement,
};
use oxc_ast_visit::{Visit, walk};
use oxc_parser::{ParseOptions, Parser};
use oxc_span::{GetSpan, SourceType};
use std::borrow::Cow;

/// The text before a JavaScript program when it is parsed, as the runtime
/// wraps it: the program is the body of an async function.
pub const WRAPPER_START: &str = "(async () => {";
/// The text after it; the newline ends a trailing `//` comment.
pub const WRAPPER_END: &str = "\n})()";

/// Brackets nest at most this deep, anywhere in the text, in a program the
/// JavaScript runtime runs; it refuses a deeper one before any parser sees
/// it, and the check reports it the same way.
pub const JS_MAX_NESTING: usize = 400;

/// Statements and expressions nest at most this deep, counted from the
/// program's own statements, in a program the JavaScript runtime runs. The
/// engine's compiler recurses on each level and runs out of stack a few
/// thousand levels down, without saying where; the runtime refuses a
/// deeper program before the engine sees it, and the check reports it the
/// same way ([`js_depth_past`]).
pub const JS_MAX_DEPTH: usize = 1_000;

/// Expressions may nest this deep in the walk; deeper ones are not judged
/// (a program past [`JS_MAX_DEPTH`] is refused before the walk).
const MAX_DEPTH: usize = JS_MAX_DEPTH;

/// The offset of the first statement or expression in `body` (a
/// program's own statements) that nests past [`JS_MAX_DEPTH`].
///
/// What the engine's compiler reads in a loop does not count as a level:
/// the left operand of a binary or logical operator (`a + b + c` nests to
/// the left in the tree, one level per term), the object of a member and
/// the callee of a call (`s.trim().trim()`), and TypeScript's wrappers
/// (`x as T`, `x!`), which compile to nothing.
pub fn js_depth_past(body: &[Statement<'_>]) -> Option<usize> {
    let mut depth = Depth {
        depth: 0,
        past: None,
        level: Vec::new(),
    };
    for stmt in body {
        depth.visit_statement(stmt);
    }
    depth.past
}

/// The walk of [`js_depth_past`].
struct Depth {
    depth: usize,
    past: Option<usize>,
    /// The expressions (by address) that stay at their parent's level:
    /// each is met right after its parent marks it.
    level: Vec<usize>,
}

impl Depth {
    fn enter(&mut self, at: u32, counts: bool, inside: impl FnOnce(&mut Self)) {
        if self.past.is_some() {
            return;
        }
        if !counts {
            inside(self);
            return;
        }
        if self.depth == JS_MAX_DEPTH {
            self.past = Some(at as usize);
            return;
        }
        self.depth += 1;
        inside(self);
        self.depth -= 1;
    }

    /// Marks `it` to stay at its parent's level.
    fn same_level(&mut self, it: &Expression<'_>) {
        self.level.push(std::ptr::from_ref(it) as usize);
    }
}

impl<'a> Visit<'a> for Depth {
    fn visit_statement(&mut self, it: &Statement<'a>) {
        self.enter(it.span().start, true, |depth| {
            walk::walk_statement(depth, it)
        });
    }

    fn visit_expression(&mut self, it: &Expression<'a>) {
        let address = std::ptr::from_ref(it) as usize;
        let marked = match self.level.last() {
            Some(&last) if last == address => {
                self.level.pop();
                true
            }
            _ => false,
        };
        let wrapper = matches!(
            it,
            Expression::TSAsExpression(_)
                | Expression::TSSatisfiesExpression(_)
                | Expression::TSNonNullExpression(_)
                | Expression::TSTypeAssertion(_)
                | Expression::TSInstantiationExpression(_)
        );
        let counts = !marked && !wrapper;
        self.enter(it.span().start, counts, |depth| {
            walk::walk_expression(depth, it)
        });
    }

    fn visit_binary_expression(&mut self, it: &oxc_ast::ast::BinaryExpression<'a>) {
        self.same_level(&it.left);
        walk::walk_binary_expression(self, it);
    }

    fn visit_logical_expression(&mut self, it: &oxc_ast::ast::LogicalExpression<'a>) {
        self.same_level(&it.left);
        walk::walk_logical_expression(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        self.same_level(&it.callee);
        walk::walk_call_expression(self, it);
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        self.same_level(&it.object);
        walk::walk_static_member_expression(self, it);
    }

    fn visit_computed_member_expression(&mut self, it: &ComputedMemberExpression<'a>) {
        self.same_level(&it.object);
        walk::walk_computed_member_expression(self, it);
    }
}

/// Whether `code` holds U+2028 or U+2029 (bytes E2 80 A8 and E2 80 A9).
fn has_separators(code: &str) -> bool {
    let bytes = code.as_bytes();
    memchr::memchr_iter(0xE2, bytes)
        .any(|i| bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)))
}

/// U+2028 and U+2029 as escapes, as the runtime rewrites them, and the
/// offsets (in the rewritten text, before `shift` bytes are put in front)
/// where each escape starts.
fn escape_separators(code: &str) -> (std::borrow::Cow<'_, str>, Vec<usize>) {
    if !has_separators(code) {
        return (code.into(), Vec::new());
    }
    let mut text = String::with_capacity(code.len() + 16);
    let mut widened = Vec::new();
    for ch in code.chars() {
        match ch {
            '\u{2028}' | '\u{2029}' => {
                widened.push(text.len());
                text.push_str(if ch == '\u{2028}' {
                    "\\u2028"
                } else {
                    "\\u2029"
                });
            }
            ch => text.push(ch),
        }
    }
    (text.into(), widened)
}

/// An arena this large or smaller is kept for the thread's next check.
const KEPT_ARENA: usize = 4 << 20;

thread_local! {
    /// The arena of the thread's last check, emptied, so that a check does
    /// not map fresh memory for its syntax tree each time.
    static ARENA: std::cell::Cell<Option<Allocator>> = const { std::cell::Cell::new(None) };
}

/// Checks a JavaScript (`typescript` false) or TypeScript program.
pub(super) fn check(
    context: &Context<'_>,
    code: &str,
    typescript: bool,
) -> (Vec<(Severity, Finding)>, Positions) {
    let (escaped, widened) = escape_separators(code);
    let shift = if typescript { 0 } else { WRAPPER_START.len() };
    let positions = Positions::Shifted {
        shift,
        widened: widened.iter().map(|w| w + shift).collect(),
    };
    let source = if typescript {
        escaped
    } else {
        let mut wrapped =
            String::with_capacity(WRAPPER_START.len() + escaped.len() + WRAPPER_END.len());
        wrapped.push_str(WRAPPER_START);
        wrapped.push_str(&escaped);
        wrapped.push_str(WRAPPER_END);
        Cow::Owned(wrapped)
    };
    let mut allocator = ARENA.take().unwrap_or_default();
    let findings = check_parsed(context, &allocator, &source, typescript, shift);
    allocator.reset();
    if allocator.capacity() <= KEPT_ARENA {
        ARENA.set(Some(allocator));
    }
    (findings, positions)
}

/// Parses `source` (the program as wrapped) into `allocator` and walks it.
fn check_parsed(
    context: &Context<'_>,
    allocator: &Allocator,
    source: &str,
    typescript: bool,
    shift: usize,
) -> Vec<(Severity, Finding)> {
    let parsed = if typescript {
        let options = ParseOptions {
            allow_return_outside_function: true,
            ..ParseOptions::default()
        };
        Parser::new(allocator, source, SourceType::ts())
            .with_options(options)
            .parse()
    } else {
        Parser::new(allocator, source, SourceType::cjs()).parse()
    };
    let mut findings = Vec::new();
    for error in &parsed.diagnostics {
        let labels = error.labels.as_slice();
        let at = labels
            .iter()
            .find(|l| l.primary())
            .or(labels.first())
            .map_or(shift, |l| l.offset() as usize);
        findings.push((Severity::Error, syntax_finding(source, at, error)));
    }
    if !findings.is_empty() || parsed.panicked {
        if findings.is_empty() {
            findings.push((
                Severity::Error,
                Finding {
                    at: shift,
                    code: DiagnosticCode::SyntaxError,
                    message: "the program could not be parsed".to_owned(),
                },
            ));
        }
        return findings;
    }
    let body: &[Statement<'_>] = if typescript {
        &parsed.program.body
    } else {
        match wrapped_body(&parsed.program.body, source.len()) {
            Some(body) => body,
            None => {
                findings.push((
                    Severity::Error,
                    Finding {
                        at: shift,
                        code: DiagnosticCode::SyntaxError,
                        message: "the program closes the function it runs in: it has a `}` or `)` without its opening pair; check its brackets".to_owned(),
                    },
                ));
                return findings;
            }
        }
    };
    if let Some(at) = js_depth_past(body) {
        findings.push((
            Severity::Error,
            Finding {
                at,
                code: DiagnosticCode::SyntaxError,
                message: super::too_deep_message(JS_MAX_DEPTH),
            },
        ));
        return findings;
    }
    for stmt in body {
        if is_module_item(stmt) {
            findings.push((
                Severity::Error,
                Finding {
                    at: stmt.span().start as usize,
                    code: DiagnosticCode::Unavailable,
                    message: NO_MODULES.to_owned(),
                },
            ));
        }
    }
    let mut walk = Walk::default();
    walk.in_turn(body, |walk, stmt| walk.visit_statement(stmt));
    walk.finish(context, &mut findings);
    findings
}

const NO_MODULES: &str = "`import` and `export` are not available: the sandbox has no modules. Call tools through `tools` and return the result instead";

fn syntax_finding(source: &str, at: usize, error: &oxc_diagnostics::OxcDiagnostic) -> Finding {
    let rest = source.get(at..).unwrap_or("");
    if rest.starts_with("import") || rest.starts_with("export") {
        return Finding {
            at,
            code: DiagnosticCode::Unavailable,
            message: NO_MODULES.to_owned(),
        };
    }
    let mut message = error.message.to_string();
    if let Some(help) = &error.help {
        message.push_str(&format!(" ({help})"));
    }
    Finding {
        at,
        code: DiagnosticCode::SyntaxError,
        message,
    }
}

/// The statements of the wrapping function, when the parsed text (of
/// `len` bytes) is exactly that one function called: a program cannot
/// close it and run outside.
pub fn wrapped_body<'p, 'a>(
    program: &'p [Statement<'a>],
    len: usize,
) -> Option<&'p [Statement<'a>]> {
    let [Statement::ExpressionStatement(stmt)] = program else {
        return None;
    };
    let Expression::CallExpression(call) = &stmt.expression else {
        return None;
    };
    let Expression::ParenthesizedExpression(paren) = &call.callee else {
        return None;
    };
    let Expression::ArrowFunctionExpression(arrow) = &paren.expression else {
        return None;
    };
    let whole = arrow.r#async
        && arrow.span.start == 1
        && arrow.span.end as usize == len - 3
        && call.arguments.is_empty();
    let oxc_ast::ast::ArrowFunctionBody::FunctionBody(body) = &arrow.body else {
        return None;
    };
    whole.then_some(body.statements.as_slice())
}

/// `import` and `export` forms, which need modules the sandbox lacks.
/// Type-only imports and exports are erased, so they are allowed.
pub fn is_module_item(stmt: &Statement<'_>) -> bool {
    match stmt {
        Statement::ImportDeclaration(decl) => !decl.import_kind.is_type(),
        Statement::ExportNamedDeclaration(decl) => !decl.export_kind.is_type(),
        Statement::ExportFromDeclaration(decl) => !decl.export_kind.is_type(),
        Statement::ExportAllDeclaration(decl) => !decl.export_kind.is_type(),
        Statement::ExportDeclaration(decl) => !decl.declaration.is_typescript_syntax(),
        Statement::ExportDefaultDeclaration(_)
        | Statement::TSImportEqualsDeclaration(_)
        | Statement::TSExportAssignment(_)
        | Statement::TSNamespaceExportDeclaration(_) => true,
        _ => false,
    }
}

/// What one walk over a JavaScript program collects.
#[derive(Default)]
struct Walk<'a> {
    seen: Seen<'a>,
    /// `import(...)` expressions.
    imports: Vec<usize>,
    /// BigInt literals (`1n`).
    bigints: Vec<usize>,
    /// Where the property of each `tools.x` / `tools["x"]` is, and its name.
    members: Vec<(usize, Cow<'a, str>)>,
    /// How many `try` blocks with a `catch` are open around the walk.
    guarded: usize,
    /// Whether the code being walked certainly runs.
    flow: Flow,
    /// References to `tools` (or an alias), and how many of them are the
    /// object of a member access, a callee, or the right of `in`: any other
    /// reference passes `tools` around as a value.
    base_refs: usize,
    base_uses: usize,
    depth: usize,
}

impl<'a> Walk<'a> {
    /// Whether `call` is made on `tools` (or an alias): `tools.x(...)`,
    /// `tools["x"](...)` or `tools("x", ...)`.
    fn reaches_tools(&self, call: &CallExpression<'_>) -> bool {
        let object = match call.callee.get_inner_expression() {
            Expression::StaticMemberExpression(member) => &member.object,
            Expression::ComputedMemberExpression(member) => &member.object,
            callee => callee,
        };
        matches!(object.get_inner_expression(), Expression::Identifier(id) if self.seen.is_base(id.name.as_str()))
    }

    /// The tool call `call` makes, if it calls a tool through `tools` (or
    /// an alias), with the object's name.
    fn tool_call(&self, call: &CallExpression<'a>) -> Option<(&'a str, ToolCall<'a>)> {
        let base_of = |e: &Expression<'a>| match e.get_inner_expression() {
            Expression::Identifier(id) if self.seen.is_base(id.name.as_str()) => {
                Some(id.name.as_str())
            }
            _ => None,
        };
        let first = call.arguments.first();
        let (base, name, name_at, args, as_property) = match call.callee.get_inner_expression() {
            Expression::StaticMemberExpression(member) => (
                base_of(&member.object)?,
                Cow::Borrowed(member.property.name.as_str()),
                member.property.span.start as usize,
                first,
                true,
            ),
            Expression::ComputedMemberExpression(member) => {
                let key = member.expression.get_inner_expression();
                let Val::Str(Some(name)) = value_of(key) else {
                    return None;
                };
                (
                    base_of(&member.object)?,
                    name,
                    key.span().start as usize,
                    first,
                    true,
                )
            }
            callee @ Expression::Identifier(_) => {
                let base = base_of(callee)?;
                let key = first?.as_expression()?;
                let Val::Str(Some(name)) = value_of(key) else {
                    return None;
                };
                (
                    base,
                    name,
                    key.span().start as usize,
                    call.arguments.get(1),
                    false,
                )
            }
            _ => return None,
        };
        let args = match args {
            None => Some((name_at, Val::no_arguments())),
            Some(Argument::SpreadElement(_)) => None,
            Some(arg) => arg.as_expression().map(|e| {
                let val = match value_of(e) {
                    // The runtime sends `undefined` as `{}`.
                    Val::Absent => Val::no_arguments(),
                    val => val,
                };
                (e.span().start as usize, val)
            }),
        };
        Some((
            base,
            ToolCall {
                name,
                name_at,
                at: call.span.start as usize,
                args,
                bad_arguments: None,
                optional: call.optional,
                guarded: self.guarded > 0,
                as_property,
            },
        ))
    }

    /// Judges what was collected.
    fn finish(mut self, context: &Context<'_>, out: &mut Vec<(Severity, Finding)>) {
        for at in self.imports {
            out.push(error(
                at,
                DiagnosticCode::Unavailable,
                "`import()` is not available: the sandbox has no modules. Call tools through `tools` instead".to_owned(),
            ));
        }
        // The runtime refuses the whole program, whether the literal runs
        // or not.
        for at in self.bigints {
            out.push(error(
                at,
                DiagnosticCode::Unavailable,
                format!(
                    "a BigInt literal is not available: {}",
                    crate::sandbox::NO_BIGINT
                ),
            ));
        }
        if self.base_refs > self.base_uses {
            self.seen.escaped = true;
        }
        // A member of `tools` read but not called is a test for the tool.
        let mut called: Vec<usize> = self.seen.calls.iter().map(|(_, c)| c.name_at).collect();
        called.sort_unstable();
        for (at, name) in self.members {
            if called.binary_search(&at).is_err() {
                self.seen.probed.insert(name);
            }
        }
        self.seen.judge(context, Style::Js, out);
    }
}

impl Flows for Walk<'_> {
    fn flow(&mut self) -> &mut Flow {
        &mut self.flow
    }
}

impl<'a> Visit<'a> for Walk<'a> {
    fn visit_expression(&mut self, it: &Expression<'a>) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        match it {
            Expression::ArrowFunctionExpression(_)
            | Expression::FunctionExpression(_)
            | Expression::ClassExpression(_) => {
                self.nested(|walk| walk::walk_expression(walk, it));
            }
            Expression::ChainExpression(_) => self.maybe(|walk| walk::walk_expression(walk, it)),
            Expression::AssignmentExpression(assign) if assign.operator.is_logical() => {
                self.maybe(|walk| walk::walk_expression(walk, it));
            }
            _ => walk::walk_expression(self, it),
        }
        self.depth -= 1;
    }

    fn visit_statements(&mut self, it: &oxc_allocator::Vec<'a, Statement<'a>>) {
        self.in_turn(it, |walk, stmt| walk.visit_statement(stmt));
    }

    fn visit_return_statement(&mut self, it: &oxc_ast::ast::ReturnStatement<'a>) {
        walk::walk_return_statement(self, it);
        self.flow.exit();
    }

    fn visit_throw_statement(&mut self, it: &oxc_ast::ast::ThrowStatement<'a>) {
        walk::walk_throw_statement(self, it);
        self.flow.exit();
    }

    fn visit_break_statement(&mut self, it: &oxc_ast::ast::BreakStatement<'a>) {
        self.flow.exit();
        walk::walk_break_statement(self, it);
    }

    fn visit_continue_statement(&mut self, it: &oxc_ast::ast::ContinueStatement<'a>) {
        self.flow.exit();
        walk::walk_continue_statement(self, it);
    }

    // The first operand, the test and the loop's head always run; what
    // they guard may not.
    fn visit_logical_expression(&mut self, it: &oxc_ast::ast::LogicalExpression<'a>) {
        self.visit_expression(&it.left);
        self.maybe(|walk| walk.visit_expression(&it.right));
    }

    fn visit_conditional_expression(&mut self, it: &oxc_ast::ast::ConditionalExpression<'a>) {
        self.visit_expression(&it.test);
        self.maybe(|walk| {
            walk.visit_expression(&it.consequent);
            walk.visit_expression(&it.alternate);
        });
    }

    fn visit_if_statement(&mut self, it: &oxc_ast::ast::IfStatement<'a>) {
        self.visit_expression(&it.test);
        self.maybe(|walk| {
            walk.visit_statement(&it.consequent);
            if let Some(alternate) = &it.alternate {
                walk.visit_statement(alternate);
            }
        });
    }

    fn visit_while_statement(&mut self, it: &oxc_ast::ast::WhileStatement<'a>) {
        self.visit_expression(&it.test);
        self.maybe(|walk| walk.visit_statement(&it.body));
        // `while (true)` ends only through a `break`, `return` or `throw`,
        // which the walk counts as ways out already: what follows runs
        // only after one of them.
        if always_true(&it.test) {
            self.flow.exit();
        }
    }

    fn visit_for_of_statement(&mut self, it: &oxc_ast::ast::ForOfStatement<'a>) {
        self.visit_expression(&it.right);
        self.maybe(|walk| {
            walk.visit_for_statement_left(&it.left);
            walk.visit_statement(&it.body);
        });
    }

    fn visit_for_in_statement(&mut self, it: &oxc_ast::ast::ForInStatement<'a>) {
        self.visit_expression(&it.right);
        self.maybe(|walk| {
            walk.visit_for_statement_left(&it.left);
            walk.visit_statement(&it.body);
        });
    }

    fn visit_switch_statement(&mut self, it: &oxc_ast::ast::SwitchStatement<'a>) {
        self.visit_expression(&it.discriminant);
        self.maybe(|walk| {
            for case in &it.cases {
                walk.visit_switch_case(case);
            }
        });
    }

    fn visit_statement(&mut self, it: &Statement<'a>) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        self.depth += 1;
        match it {
            // Erased before the program runs: nothing in them is looked up.
            Statement::TSInterfaceDeclaration(_)
            | Statement::TSTypeAliasDeclaration(_)
            | Statement::TSGlobalDeclaration(_) => {}
            Statement::ClassDeclaration(class) if class.declare => {}
            Statement::TSNamespaceDeclaration(module) if module.declare => {}
            Statement::TSExternalModuleDeclaration(module) if module.declare => {}
            Statement::TSEnumDeclaration(e) if e.declare => {}
            Statement::FunctionDeclaration(_) | Statement::ClassDeclaration(_) => {
                self.nested(|walk| walk::walk_statement(walk, it));
            }
            Statement::ForStatement(_) | Statement::DoWhileStatement(_) => {
                self.maybe(|walk| walk::walk_statement(walk, it));
                let forever = match it {
                    Statement::ForStatement(f) => f.test.as_ref().is_none_or(always_true),
                    Statement::DoWhileStatement(d) => always_true(&d.test),
                    _ => false,
                };
                if forever {
                    self.flow.exit();
                }
            }
            _ => walk::walk_statement(self, it),
        }
        self.depth -= 1;
    }

    fn visit_assignment_pattern(&mut self, it: &oxc_ast::ast::AssignmentPattern<'a>) {
        // A default is computed only when the value is missing.
        self.maybe(|walk| walk::walk_assignment_pattern(walk, it));
    }

    fn visit_assignment_target_with_default(
        &mut self,
        it: &oxc_ast::ast::AssignmentTargetWithDefault<'a>,
    ) {
        self.maybe(|walk| walk::walk_assignment_target_with_default(walk, it));
    }

    fn visit_binding_identifier(&mut self, it: &oxc_ast::ast::BindingIdentifier<'a>) {
        self.seen.bind(it.name.as_str());
    }

    fn visit_simple_assignment_target(&mut self, it: &SimpleAssignmentTarget<'a>) {
        if let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = it {
            self.seen.bind(id.name.as_str());
        }
        walk::walk_simple_assignment_target(self, it);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        let from_tools = it.init.as_ref().is_some_and(|init| {
            matches!(init.get_inner_expression(), Expression::Identifier(id) if id.name == crate::GLOBAL)
        });
        if from_tools && let BindingPattern::BindingIdentifier(id) = &it.id {
            self.seen.aliases.insert(id.name.as_str());
            self.base_uses += 1;
        }
        walk::walk_variable_declarator(self, it);
    }

    fn visit_unary_expression(&mut self, it: &UnaryExpression<'a>) {
        // `typeof fetch` is how a program asks whether a global exists.
        if it.operator == UnaryOperator::Typeof
            && let Expression::Identifier(id) = it.argument.get_inner_expression()
        {
            self.seen.probed.insert(Cow::Borrowed(id.name.as_str()));
            return;
        }
        walk::walk_unary_expression(self, it);
    }

    fn visit_binary_expression(&mut self, it: &BinaryExpression<'a>) {
        // `"name" in tools` tests for a tool.
        if it.operator == BinaryOperator::In
            && let Expression::Identifier(id) = it.right.get_inner_expression()
            && self.seen.is_base(id.name.as_str())
            && let Val::Str(Some(name)) = value_of(&it.left)
        {
            self.seen.probed.insert(name);
        }
        if it.operator == BinaryOperator::In
            && let Expression::Identifier(id) = it.right.get_inner_expression()
            && self.seen.is_base(id.name.as_str())
        {
            self.base_uses += 1;
        }
        // `await tools.get-page(args)` reads `(await tools.get) - page(args)`
        // for the tool "get-page".
        let left = match it.left.get_inner_expression() {
            Expression::AwaitExpression(wait) => wait.argument.get_inner_expression(),
            left => left,
        };
        if it.operator == BinaryOperator::Subtraction
            && let Expression::StaticMemberExpression(member) = left
            && let Expression::Identifier(id) = member.object.get_inner_expression()
            && self.seen.is_base(id.name.as_str())
            && let Expression::CallExpression(call) = it.right.get_inner_expression()
            && let Expression::Identifier(rest) = call.callee.get_inner_expression()
        {
            let head = member.property.name.as_str();
            self.seen.dotted.push((
                member.property.span.start as usize,
                head,
                format!("{head}-{}", rest.name.as_str()),
            ));
        }
        walk::walk_binary_expression(self, it);
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if let Expression::Identifier(id) = it.object.get_inner_expression()
            && self.seen.is_base(id.name.as_str())
        {
            self.base_uses += 1;
            self.members.push((
                it.property.span.start as usize,
                Cow::Borrowed(it.property.name.as_str()),
            ));
        }
        walk::walk_static_member_expression(self, it);
    }

    fn visit_computed_member_expression(&mut self, it: &ComputedMemberExpression<'a>) {
        if let Expression::Identifier(id) = it.object.get_inner_expression()
            && self.seen.is_base(id.name.as_str())
        {
            self.base_uses += 1;
            let key = it.expression.get_inner_expression();
            if let Val::Str(Some(name)) = value_of(key) {
                self.members.push((key.span().start as usize, name));
            }
        }
        walk::walk_computed_member_expression(self, it);
    }

    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        // `globalThis.fetch = ...` puts a global in place.
        if let AssignmentTarget::StaticMemberExpression(member) = &it.left
            && javascript_absent(member.property.name.as_str()).is_some()
        {
            self.seen.bind(member.property.name.as_str());
        }
        walk::walk_assignment_expression(self, it);
    }

    fn visit_assignment_target_property_identifier(
        &mut self,
        it: &AssignmentTargetPropertyIdentifier<'a>,
    ) {
        self.seen.bind(it.binding.name.as_str());
        walk::walk_assignment_target_property_identifier(self, it);
    }

    fn visit_with_statement(&mut self, it: &WithStatement<'a>) {
        self.seen.dynamic = true;
        walk::walk_with_statement(self, it);
    }

    fn visit_try_statement(&mut self, it: &TryStatement<'a>) {
        let catches = it.handler.is_some();
        self.guarded += usize::from(catches);
        self.visit_block_statement(&it.block);
        self.guarded -= usize::from(catches);
        if let Some(handler) = &it.handler {
            self.maybe(|walk| walk.visit_catch_clause(handler));
        }
        if let Some(finalizer) = &it.finalizer {
            self.visit_block_statement(finalizer);
        }
    }

    // Types are erased before the program runs: names in them are never
    // looked up.
    fn visit_ts_type(&mut self, _it: &TSType<'a>) {}

    fn visit_ts_class_implements(&mut self, _it: &TSClassImplements<'a>) {}

    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        if self.seen.is_base(it.name.as_str()) {
            self.base_refs += 1;
        }
        if it.name == "globalThis" {
            self.seen.global_object = true;
        }
        // A use inside a `try` that catches is a program's own probe.
        if self.guarded == 0 && javascript_absent(it.name.as_str()).is_some() {
            self.seen.absent.push((
                it.name.as_str(),
                it.span.start as usize,
                self.flow.certain(),
            ));
        }
    }

    fn visit_big_int_literal(&mut self, it: &BigIntLiteral<'a>) {
        self.bigints.push(it.span.start as usize);
    }

    fn visit_import_expression(&mut self, it: &ImportExpression<'a>) {
        self.imports.push(it.span.start as usize);
        walk::walk_import_expression(self, it);
    }

    fn visit_expression_statement(&mut self, it: &ExpressionStatement<'a>) {
        let call = match it.expression.get_inner_expression() {
            Expression::CallExpression(call) => Some(call),
            Expression::ChainExpression(chain) => match &chain.expression {
                oxc_ast::ast::ChainElement::CallExpression(call) => Some(call),
                _ => None,
            },
            _ => None,
        };
        if let Some(call) = call
            && self.reaches_tools(call)
        {
            self.seen.dropped_at(call.span.start as usize);
        }
        walk::walk_expression_statement(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        if let Expression::Identifier(id) = it.callee.get_inner_expression()
            && self.seen.is_base(id.name.as_str())
        {
            self.base_uses += 1;
        }
        // `tools.kv.set(...)` for the tool "kv.set".
        if let Expression::StaticMemberExpression(outer) = it.callee.get_inner_expression()
            && let Expression::StaticMemberExpression(inner) = outer.object.get_inner_expression()
            && let Expression::Identifier(id) = inner.object.get_inner_expression()
            && self.seen.is_base(id.name.as_str())
            && !it.optional
            && !outer.optional
        {
            let head = inner.property.name.as_str();
            self.seen.dotted.push((
                inner.property.span.start as usize,
                head,
                format!("{head}.{}", outer.property.name.as_str()),
            ));
        }
        if let Some(call) = self.tool_call(it) {
            self.seen.calls.push(call);
        }
        walk::walk_call_expression(self, it);
    }
}

/// What the check can see of an expression's value.
fn value_of<'a>(expr: &Expression<'a>) -> Val<'a> {
    match expr.get_inner_expression() {
        Expression::StringLiteral(s) => Val::Str(Some(Cow::Borrowed(s.value.as_str()))),
        Expression::TemplateLiteral(t) => match (t.expressions.is_empty(), t.quasis.first()) {
            (true, Some(q)) => Val::Str(q.value.cooked.map(|c| Cow::Borrowed(c.as_str()))),
            _ => Val::Str(None),
        },
        Expression::NumericLiteral(n) => number(n.value),
        Expression::UnaryExpression(u) => match (u.operator, u.argument.get_inner_expression()) {
            (UnaryOperator::UnaryNegation, Expression::NumericLiteral(n)) => number(-n.value),
            (UnaryOperator::UnaryPlus, Expression::NumericLiteral(n)) => number(n.value),
            (UnaryOperator::Void, _) => Val::Absent,
            _ => Val::Unknown,
        },
        Expression::BooleanLiteral(b) => Val::Bool(b.value),
        Expression::NullLiteral(_) => Val::Null,
        Expression::Identifier(id) if id.name == "undefined" => Val::Absent,
        Expression::ObjectExpression(object) => {
            let mut entries = Entries::default();
            // Keys whose latest entry is a getter.
            let mut getters: Vec<Cow<'a, str>> = Vec::new();
            let mut open = false;
            for property in &object.properties {
                let ObjectPropertyKind::ObjectProperty(p) = property else {
                    // A spread may hold, and so replace, any key before it.
                    entries.clear();
                    getters.clear();
                    open = true;
                    continue;
                };
                let key = match &p.key {
                    // `{ 1e21: x }` has the key "1e+21", as JavaScript
                    // writes the number.
                    PropertyKey::NumericLiteral(n) => Some(Cow::Owned(js_number(n.value))),
                    key => key.static_name(),
                };
                let Some(key) = key else {
                    // A computed key may be any key, before it or after.
                    entries.clear();
                    getters.clear();
                    open = true;
                    continue;
                };
                if key == "toJSON" {
                    // The JSON sent is whatever it returns.
                    return Val::Unknown;
                }
                if key == "__proto__" && !p.computed && !p.shorthand {
                    // Sets the prototype; it is no key. A primitive sets
                    // nothing; an object might pass on a `toJSON`, which
                    // decides what is sent.
                    let primitive = matches!(
                        value_of(&p.value),
                        Val::Absent
                            | Val::Null
                            | Val::AsNull(_)
                            | Val::Bool(_)
                            | Val::Num(..)
                            | Val::Str(_)
                    );
                    open |= !primitive;
                    continue;
                }
                let val = if p.kind == PropertyKind::Set {
                    // A setter alone reads as `undefined`; with a getter, the
                    // getter's entry says what the key holds.
                    Val::Absent
                } else if p.kind == PropertyKind::Get {
                    Val::Unknown
                } else if p.method
                    || matches!(
                        p.value.get_inner_expression(),
                        Expression::ArrowFunctionExpression(_)
                            | Expression::FunctionExpression(_)
                            | Expression::ClassExpression(_)
                    )
                {
                    // Functions are left out of JSON.
                    Val::Absent
                } else {
                    value_of(&p.value)
                };
                let entry = Entry {
                    key,
                    key_at: p.key.span().start as usize,
                    at: p.value.span().start as usize,
                    val,
                };
                // A later key replaces an earlier one; a setter joins the
                // getter just before it for that key into one accessor,
                // and replaces a value or a method as any key does.
                let after_getter = getters.contains(&entry.key);
                if p.kind == PropertyKind::Set && after_getter {
                    continue;
                }
                match p.kind {
                    PropertyKind::Get if !after_getter => getters.push(entry.key.clone()),
                    PropertyKind::Get => {}
                    _ => getters.retain(|k| *k != entry.key),
                }
                entries.push(entry);
            }
            Val::Obj {
                entries: entries.finish(),
                open,
            }
        }
        Expression::ArrayExpression(array) => {
            let mut items = Vec::new();
            let mut open = false;
            let mut fixed = None;
            for element in &array.elements {
                match element {
                    ArrayExpressionElement::SpreadElement(_) => {
                        open = true;
                        fixed.get_or_insert(items.len());
                    }
                    ArrayExpressionElement::Elision(e) => {
                        items.push((e.span.start as usize, Val::AsNull(AsNull::Hole)))
                    }
                    other => match other.as_expression() {
                        // JSON sends `undefined` in an array as `null`.
                        Some(e) => items.push((
                            e.span().start as usize,
                            match value_of(e) {
                                Val::Absent => Val::AsNull(AsNull::Undefined),
                                val => val,
                            },
                        )),
                        None => items.push((element.span().start as usize, Val::Unknown)),
                    },
                }
            }
            let fixed = fixed.unwrap_or(items.len());
            Val::Arr {
                items,
                open,
                fixed,
                tuple: false,
            }
        }
        _ => Val::Unknown,
    }
}

/// Whether a loop's test is a literal that is always true.
fn always_true(test: &Expression<'_>) -> bool {
    match test {
        Expression::BooleanLiteral(b) => b.value,
        Expression::NumericLiteral(n) => n.value != 0.0 && !n.value.is_nan(),
        _ => false,
    }
}

/// A number as JSON sends it: one too large for a double (`1e999`, its
/// negation) is `null`.
fn number<'a>(value: f64) -> Val<'a> {
    if value.is_finite() {
        Val::Num(value, Numeral::Float)
    } else {
        Val::AsNull(AsNull::Huge)
    }
}

/// A number as JavaScript writes it (`Number.prototype.toString`): the
/// shortest digits that read back as it, in plain notation from 1e-6 up to
/// 1e21 and with an exponent outside that.
fn js_number(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_owned();
    }
    if value == 0.0 {
        return "0".to_owned();
    }
    if value.is_infinite() {
        return if value > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    let sign = if value < 0.0 { "-" } else { "" };
    // Rust writes the same shortest digits, as `d.ddde±x`.
    let scientific = format!("{:e}", value.abs());
    let Some((mantissa, exponent)) = scientific.split_once('e') else {
        return format!("{value}");
    };
    let Ok(exponent) = exponent.parse::<i64>() else {
        return format!("{value}");
    };
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let (k, n) = (digits.len() as i64, exponent + 1);
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (whole, fraction) = digits.split_at(n as usize);
        format!("{whole}.{fraction}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let e_sign = if e >= 0 { "+" } else { "-" };
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        format!("{first}{point}{rest}e{e_sign}{}", e.abs())
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod number_tests {
    use super::js_number;

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        for (value, text) in [
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (1e20, "100000000000000000000"),
            (123.0, "123"),
            (0.5, "0.5"),
            (1.25, "1.25"),
            (1e-6, "0.000001"),
            (1.5e-6, "0.0000015"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (-2.0, "-2"),
            (-0.0, "0"),
            (0.1 + 0.2, "0.30000000000000004"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (f64::NAN, "NaN"),
            (123456789.125, "123456789.125"),
        ] {
            assert_eq!(js_number(value), text, "{value:?}");
        }
    }
}
