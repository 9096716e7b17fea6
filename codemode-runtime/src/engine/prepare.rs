//! From the program as the model wrote it to the JavaScript the engine runs.
//!
//! The program becomes the body of one async function. The wrapped text is
//! parsed with oxc and must have exactly the shape of that one function, so
//! no text in the program can close the wrapper and run at script level.
//! TypeScript is first compiled to JavaScript by oxc's transformer (after its
//! semantic pass), with a source map that carries locations back.

use crate::outcome::{Location, RunError, RunErrorKind};
use oxc_allocator::Allocator;
use oxc_ast::ast::{BigIntLiteral, ImportExpression, Statement};
use oxc_ast_visit::Visit;
use oxc_codegen::{Codegen, CodegenOptions};
use oxc_diagnostics::OxcDiagnostic;
use oxc_parser::{ParseOptions, Parser};
use oxc_semantic::SemanticBuilder;
use oxc_span::{GetSpan, SourceType};
use oxc_transformer::{TransformOptions, Transformer};
use std::path::{Path, PathBuf};

/// The text before the program. It is on the program's first line, so only
/// that line's columns shift.
pub(crate) const PREFIX: &str = codemode_core::program::WRAPPER_START;
/// The text after the program; the newline ends a trailing `//` comment.
const SUFFIX: &str = codemode_core::program::WRAPPER_END;

/// A program ready to evaluate, with what is needed to map the engine's
/// positions back to the source the model wrote.
pub(crate) struct Prepared {
    /// The wrapped JavaScript.
    pub(crate) source: String,
    /// For TypeScript: per generated (0-based) line and column, the original
    /// position; sorted.
    map: Option<Vec<(u32, u32, u32, u32)>>,
    /// The original program (for columns in characters).
    original: String,
}

impl Prepared {
    /// The place in the original program of a 1-based line and column that
    /// the engine reported in the wrapped source.
    pub(crate) fn locate(&self, line: u32, column: u32) -> Option<Location> {
        let column = if line == 1 {
            column.checked_sub(PREFIX.len() as u32)?
        } else {
            column
        };
        match &self.map {
            // The engine places some errors at the wrapper's closing
            // brackets, after the program's last line: no place in it.
            None if line as usize > self.original.matches('\n').count() + 1 => None,
            None => Some(Location { line, column }),
            Some(map) => {
                let (gl, gc) = (line.checked_sub(1)?, column.saturating_sub(1));
                // The last mapping at or before (gl, gc) on the same line.
                let idx = map.partition_point(|&(l, c, _, _)| (l, c) <= (gl, gc));
                let &(l, _, sl, sc) = map.get(idx.checked_sub(1)?)?;
                if l != gl {
                    return None;
                }
                Some(Location {
                    line: sl + 1,
                    column: char_column(&self.original, sl, sc) + 1,
                })
            }
        }
    }
}

/// The character column of a UTF-16 column on a 0-based line.
fn char_column(source: &str, line: u32, utf16_col: u32) -> u32 {
    let Some(text) = source.split('\n').nth(line as usize) else {
        return utf16_col;
    };
    let mut units = 0u32;
    for (chars, ch) in text.chars().enumerate() {
        if units >= utf16_col {
            return chars as u32;
        }
        units += ch.len_utf16() as u32;
    }
    text.chars().count() as u32
}

/// The 1-based line and column (in characters) of a byte offset.
pub(crate) fn location_of(source: &str, offset: usize) -> Location {
    let (line, column) = codemode_core::program::line_column(source, offset);
    Location { line, column }
}

fn syntax(message: impl Into<String>, at: Option<Location>) -> RunError {
    RunError::new(RunErrorKind::SyntaxError, message).at(at)
}

/// Refuses a program that is too large or nests brackets too deeply, before
/// any recursive parser sees it.
pub(crate) fn check_size(code: &str, max_bytes: usize) -> Result<(), RunError> {
    check_length(code, max_bytes)?;
    if let Some(at) =
        codemode_core::program::nested_past(code, codemode_core::program::JS_MAX_NESTING)
    {
        return Err(syntax(
            codemode_core::program::brackets_too_deep_message(
                codemode_core::program::JS_MAX_NESTING,
            ),
            Some(location_of(code, at)),
        ));
    }
    Ok(())
}

/// Refuses a program whose statements and expressions nest past
/// `JS_MAX_DEPTH`, where the engine's compiler would run out of stack
/// without saying where; `place` locates an offset.
fn too_deep(
    body: &[Statement<'_>],
    place: impl Fn(usize) -> Option<Location>,
) -> Result<(), RunError> {
    match codemode_core::program::js_depth_past(body) {
        Some(offset) => Err(RunError::new(
            RunErrorKind::StackOverflow,
            codemode_core::program::too_deep_message(codemode_core::program::JS_MAX_DEPTH),
        )
        .at(place(offset))),
        None => Ok(()),
    }
}

/// Refuses a program longer than `max_bytes`, before any parser sees it.
pub(crate) fn check_length(code: &str, max_bytes: usize) -> Result<(), RunError> {
    if code.len() > max_bytes {
        return Err(RunError::new(
            RunErrorKind::SourceLimit,
            format!(
                "the program is {} bytes; the sandbox takes at most {max_bytes}: write a shorter program, and keep data out of its text",
                code.len()
            ),
        ));
    }
    Ok(())
}

/// The JavaScript to run for a JavaScript program.
pub(crate) fn javascript(code: &str) -> Result<Prepared, RunError> {
    let escaped = escape_line_separators(code);
    let code: &str = &escaped;
    let source = wrap(code, code, None)?;
    Ok(Prepared {
        source,
        map: None,
        original: code.to_owned(),
    })
}

/// Wraps `js` as the body of an async function and checks that the result is
/// exactly that function. Errors are located in `original` (through `map`
/// for TypeScript).
fn wrap(
    js: &str,
    original: &str,
    map: Option<&[(u32, u32, u32, u32)]>,
) -> Result<String, RunError> {
    let source = format!("{PREFIX}{js}{SUFFIX}");
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, &source, SourceType::cjs()).parse();
    let place = |offset: usize| -> Option<Location> {
        let at = location_of(&source, offset);
        let prepared = Prepared {
            source: String::new(),
            map: map.map(<[_]>::to_vec),
            original: original.to_owned(),
        };
        prepared.locate(at.line, at.column)
    };
    if let Some(error) = parsed.diagnostics.first() {
        let offset = first_offset(error).unwrap_or(0);
        return Err(syntax(
            explain_syntax(error, &source, offset),
            place(offset),
        ));
    }
    if parsed.panicked {
        return Err(syntax("the program could not be parsed", None));
    }
    let Some(statements) = codemode_core::program::wrapped_body(&parsed.program.body, source.len())
    else {
        return Err(syntax(
            "the program closes the function it runs in: it has a `}` or `)` without its opening pair; check its brackets",
            None,
        ));
    };
    // A TypeScript program's nesting was counted in its own text, before
    // it was compiled to this.
    if map.is_none() {
        too_deep(statements, place)?;
    }
    if let Some(stmt) = statements.iter().find(|s| is_module_item(s)) {
        let offset = stmt.span().start as usize;
        return Err(syntax(
            explain_syntax(&OxcDiagnostic::error(""), &source, offset),
            place(offset),
        ));
    }
    let mut refused = Refused::default();
    refused.visit_program(&parsed.program);
    if let Some(offset) = refused.import {
        return Err(syntax(
            "`import()` is not available: the sandbox has no modules. Call tools through `tools` instead",
            place(offset),
        ));
    }
    if let Some(offset) = refused.bigint {
        // The prelude takes away BigInt's other sources.
        return Err(syntax(
            format!(
                "a BigInt literal is not available: {}",
                codemode_core::sandbox::NO_BIGINT
            ),
            place(offset),
        ));
    }
    Ok(source)
}

/// Where the first BigInt literal and the first `import()` start, if the
/// program has them: it runs with neither (the engine's module loader holds
/// the sandbox's own prelude).
#[derive(Default)]
struct Refused {
    bigint: Option<usize>,
    import: Option<usize>,
}

impl<'a> Visit<'a> for Refused {
    fn visit_big_int_literal(&mut self, it: &BigIntLiteral<'a>) {
        self.bigint.get_or_insert(it.span.start as usize);
    }

    fn visit_import_expression(&mut self, it: &ImportExpression<'a>) {
        self.import.get_or_insert(it.span.start as usize);
        oxc_ast_visit::walk::walk_import_expression(self, it);
    }
}

use codemode_core::program::is_module_item;

fn first_offset(error: &OxcDiagnostic) -> Option<usize> {
    let labels = error.labels.as_slice();
    labels
        .iter()
        .find(|l| l.primary())
        .or(labels.first())
        .map(|l| l.offset() as usize)
}

/// The parser's message, reworded where the sandbox has a simpler story.
fn explain_syntax(error: &OxcDiagnostic, source: &str, offset: usize) -> String {
    let rest = source.get(offset..).unwrap_or("");
    if rest.starts_with("import") || rest.starts_with("export") {
        return "`import` and `export` are not available: the sandbox has no modules. Call tools through `tools` and return the result instead".to_owned();
    }
    let mut text = error.message.to_string();
    if let Some(help) = &error.help {
        text.push_str(&format!(" ({help})"));
    }
    text
}

/// The JavaScript to run for a TypeScript program: types removed, enums and
/// namespaces compiled, and a map back to the TypeScript.
/// U+2028 and U+2029 as escapes. Parsers disagree on them as line
/// terminators (QuickJS ends a `//` comment there without starting a new line,
/// oxc does not), and a disagreement between the checking parser and the
/// running one could let text escape the wrapper. As escapes they mean the
/// same inside strings, templates and regular expressions, and nothing in a
/// comment.
fn escape_line_separators(code: &str) -> std::borrow::Cow<'_, str> {
    if code.contains(['\u{2028}', '\u{2029}']) {
        code.replace('\u{2028}', "\\u2028")
            .replace('\u{2029}', "\\u2029")
            .into()
    } else {
        code.into()
    }
}

pub(crate) fn typescript(code: &str) -> Result<Prepared, RunError> {
    let escaped = escape_line_separators(code);
    let code: &str = &escaped;
    let allocator = Allocator::default();
    let options = ParseOptions {
        allow_return_outside_function: true,
        ..ParseOptions::default()
    };
    let parsed = Parser::new(&allocator, code, SourceType::ts())
        .with_options(options)
        .parse();
    if let Some(error) = parsed.diagnostics.first() {
        let offset = first_offset(error).unwrap_or(0);
        return Err(syntax(
            explain_syntax(error, code, offset),
            Some(location_of(code, offset)),
        ));
    }
    if parsed.panicked {
        return Err(syntax("the program could not be parsed", None));
    }
    let mut program = parsed.program;
    too_deep(&program.body, |offset| Some(location_of(code, offset)))?;
    for stmt in &program.body {
        if is_module_item(stmt) {
            let offset = stmt.span().start as usize;
            return Err(syntax(
                explain_syntax(&OxcDiagnostic::error(""), code, offset),
                Some(location_of(code, offset)),
            ));
        }
    }
    // Early errors are the engine's to find when it compiles the program (it
    // reports them as syntax errors, located).
    let semantic = SemanticBuilder::new().with_enum_eval(true).build(&program);
    let scoping = semantic.semantic.into_scoping();
    let mut transform = TransformOptions::default();
    transform.typescript.allow_namespaces = true;
    let transformed = Transformer::new(&allocator, Path::new("program.ts"), &transform)
        .build_with_scoping(scoping, &mut program);
    if let Some(error) = transformed.diagnostics.first() {
        let offset = first_offset(error).unwrap_or(0);
        return Err(syntax(
            explain_syntax(error, code, offset),
            Some(location_of(code, offset)),
        ));
    }
    // The transformer keeps a module a module with `export {}`; the program
    // is a function body, so that marker goes.
    program.body.retain(
        |stmt| !matches!(stmt, Statement::ExportNamedDeclaration(d) if d.specifiers.is_empty()),
    );
    let generated = Codegen::new()
        .with_options(CodegenOptions {
            source_map_path: Some(PathBuf::from("program.ts")),
            ..CodegenOptions::default()
        })
        .build(&program);
    let mut map: Vec<(u32, u32, u32, u32)> = generated
        .map
        .map(|m| {
            m.get_tokens()
                .map(|t| {
                    (
                        t.get_dst_line(),
                        t.get_dst_col(),
                        t.get_src_line(),
                        t.get_src_col(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    map.sort_unstable();
    let source = wrap(&generated.code, code, Some(&map))?;
    Ok(Prepared {
        source,
        map: Some(map),
        original: code.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_removed_and_enums_compiled() {
        let p = typescript(
            "interface P { x: number }\nenum Color { Red, Green }\nconst enum K { A = 1 }\nnamespace N { export const v = 2 }\nclass A { constructor(private x: number) {} }\nconst p: P = { x: 1 } as P;\nlet n = <number>(p.x satisfies number);\ntype T = string;\nreturn [Color.Green, K.A, N.v, new A(3)];",
        )
        .unwrap();
        assert!(
            !p.source.contains("interface") && !p.source.contains(": P"),
            "{}",
            p.source
        );
    }

    #[test]
    fn the_wrapper_cannot_be_closed() {
        for code in [
            "return 1 }), globalThis.x = 1, (async () => {",
            "return 1 })(); globalThis.x = 1; (async () => {",
            "}",
            ")",
        ] {
            let err = javascript(code).err().expect(code);
            assert_eq!(err.kind, RunErrorKind::SyntaxError, "{code}");
        }
        assert!(javascript("return 1 // trailing comment").is_ok());
        let sneaky =
            "let x = 1; x // c\u{2028}--> 0 }); globalThis.escaped = 1; (async () => {\nreturn 1;";
        let prepared = javascript(sneaky);
        assert!(
            prepared
                .as_ref()
                .map_or(true, |p| !p.source.contains('\u{2028}'))
        );
    }

    #[test]
    fn syntax_errors_have_locations() {
        let err = javascript("const a = 1;\nconst b = ;").err().unwrap();
        assert_eq!(
            err.location,
            Some(Location {
                line: 2,
                column: 11
            })
        );
        let err = typescript("const a: number = 1;\nconst b: = 2;")
            .err()
            .unwrap();
        assert_eq!(err.location.map(|l| l.line), Some(2));
        let err = javascript("import x from 'y';").err().unwrap();
        assert!(err.message.contains("no modules"), "{}", err.message);
    }

    #[test]
    fn no_place_is_given_past_the_last_line() {
        let prepared = javascript("let a = 1;\nlet b = 2;\nreturn 1;\n").unwrap();
        assert_eq!(prepared.locate(2, 5), Some(Location { line: 2, column: 5 }));
        assert_eq!(prepared.locate(4, 1), Some(Location { line: 4, column: 1 }));
        assert_eq!(prepared.locate(5, 1), None);
    }

    #[test]
    fn deep_nesting_is_refused_before_parsing() {
        let code = format!("return {}1{};", "(".repeat(5000), ")".repeat(5000));
        let err = check_size(&code, 1 << 20).err().unwrap();
        assert_eq!(
            err.location,
            Some(Location {
                line: 1,
                column: 408
            })
        );
    }
}
