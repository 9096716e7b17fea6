//! TypeScript to JavaScript by removing the types (oxc's transformer).

use oxc_allocator::Allocator;
use oxc_codegen::Codegen;
use oxc_parser::Parser;
use oxc_semantic::SemanticBuilder;
use oxc_span::SourceType;
use oxc_transformer::{TransformOptions, Transformer};
use std::path::Path;

/// The JavaScript of a TypeScript `source`, or the first syntax error.
pub(crate) fn strip_types(source: &str) -> Result<String, String> {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, source, SourceType::ts()).parse();
    if let Some(error) = parsed.diagnostics.first() {
        return Err(error.to_string());
    }
    if parsed.panicked {
        return Err("the program could not be parsed".to_owned());
    }
    let mut program = parsed.program;
    let scoping = SemanticBuilder::new()
        .build(&program)
        .semantic
        .into_scoping();
    let options = TransformOptions::default();
    let transformed = Transformer::new(&allocator, Path::new("program.ts"), &options)
        .build_with_scoping(scoping, &mut program);
    if let Some(error) = transformed.diagnostics.first() {
        return Err(error.to_string());
    }
    Ok(Codegen::new().build(&program).code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_removed() {
        let js = strip_types("interface P { x: number }\nconst p: P = { x: 1 } as P;\nlet n = <number>(p.x satisfies number);\ntype T = string;").unwrap();
        assert!(
            !js.contains("interface") && !js.contains(": P") && !js.contains("type T"),
            "{js}"
        );
        assert!(js.contains("const p = { x: 1 }"), "{js}");
    }

    #[test]
    fn syntax_errors_are_reported() {
        assert!(strip_types("const x: = 1;").is_err());
    }
}
