//! The names TypeScript reserves, and the keys it can write bare.

/// Every global the TypeScript standard and DOM libraries declare, one per
/// line, sorted. A top-level type with one of these names would be a
/// duplicate declaration under `tsc`'s default libraries.
/// Regenerate with `node tests/interop/ts-globals.js` (checked by the interop suite).
pub(crate) const TS_GLOBALS: &str = include_str!("ts_globals.txt");

/// Words TypeScript does not allow (or predefines) as a type name.
const TS_KEYWORDS: &[&str] = &[
    "abstract",
    "any",
    "as",
    "asserts",
    "async",
    "await",
    "bigint",
    "boolean",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "constructor",
    "continue",
    "debugger",
    "declare",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "from",
    "function",
    "get",
    "global",
    "if",
    "implements",
    "import",
    "in",
    "infer",
    "instanceof",
    "interface",
    "intrinsic",
    "is",
    "keyof",
    "let",
    "module",
    "namespace",
    "never",
    "new",
    "null",
    "number",
    "object",
    "of",
    "out",
    "override",
    "package",
    "private",
    "protected",
    "public",
    "readonly",
    "require",
    "return",
    "satisfies",
    "set",
    "static",
    "string",
    "super",
    "switch",
    "symbol",
    "this",
    "throw",
    "true",
    "try",
    "type",
    "typeof",
    "undefined",
    "unique",
    "unknown",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

/// Whether `name` would shadow or clash with something a TypeScript SDK
/// relies on: a keyword, a library global, or the SDK's own names.
pub(crate) fn reserved(name: &str) -> bool {
    name == crate::GLOBAL
        || name == crate::ERROR_CLASS
        || TS_KEYWORDS.contains(&name)
        || super::sorted_lines_contain(TS_GLOBALS, name)
}

/// Whether `name` can be written as an object key without quotes: an ASCII
/// identifier (`$` and `_` included). Anything else is printed as a string
/// literal, which is always valid.
pub(crate) fn is_plain_key(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}
