//! Which names Python source can spell bare.

use unicode_normalization::UnicodeNormalization;

/// Whether `name` can be written bare in Python source as an identifier:
/// XID characters and stable under NFKC (the form Python compares names in).
pub(crate) fn is_identifier(name: &str) -> bool {
    if name.is_ascii() {
        // ASCII is its own NFKC form.
        let bytes = name.as_bytes();
        return bytes
            .first()
            .is_some_and(|b| *b == b'_' || b.is_ascii_alphabetic())
            && bytes
                .iter()
                .all(|b| *b == b'_' || b.is_ascii_alphanumeric());
    }
    let mut chars = name.chars();
    let start = chars
        .next()
        .is_some_and(|c| c == '_' || unicode_ident::is_xid_start(c));
    start && chars.all(unicode_ident::is_xid_continue) && name.nfkc().eq(name.chars())
}

/// Python's hard keywords; none of them can name a method or a field.
pub(super) const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Every name a printed annotation can use besides the module's own classes
/// and aliases. A TypedDict field with one of these names, written in class
/// syntax, would shadow it for the fields after it.
pub(super) const ANNOTATION_NAMES: &[&str] = &[
    "Any",
    "Awaitable",
    "Callable",
    "Literal",
    "Never",
    "None",
    "NotRequired",
    "Protocol",
    "Required",
    "TypeAlias",
    "TypedDict",
    "bool",
    "dict",
    "float",
    "int",
    "list",
    "overload",
    "str",
    "tuple",
];

/// Whether `name` can be written as a bare name in a class body: an
/// identifier, not a keyword, and not mangled or special (`__x`).
pub(super) fn is_plain_member(name: &str) -> bool {
    is_identifier(name) && !KEYWORDS.contains(&name) && !name.starts_with("__")
}
