//! Which names Python source can spell bare, and which it reserves.

use super::py_identifiers::{CONTINUE, START};
use unicode_normalization::UnicodeNormalization;

/// Whether `name` can be written bare in Python source as an identifier:
/// name characters as CPython 3.11 knows them (Unicode 14.0: a letter added
/// since would not parse there), and stable under NFKC (the form Python
/// compares names in).
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
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic() || in_ranges(START, c));
    start
        && chars.all(|c| {
            (c == '_' || c.is_ascii_alphanumeric() || in_ranges(CONTINUE, c))
                // A name character that shows nothing (U+034F, a variation
                // selector, a Hangul filler) would make two names look one.
                && !crate::canonical::unseen(c)
        })
        && !name.starts_with(crate::canonical::unseen)
        && name.nfkc().eq(name.chars())
}

/// Whether `c` lies in one of `ranges` (sorted, inclusive, disjoint).
fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    let c = u32::from(c);
    let after = ranges.partition_point(|&(start, _)| start <= c);
    after > 0 && c <= ranges[after - 1].1
}

/// Python's hard keywords; none of them can name a method or a field.
/// Sorted, for binary search.
pub(crate) const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Every name a printed annotation can use besides the module's own classes
/// and aliases. A TypedDict field with one of these names, written in class
/// syntax, would shadow it for the fields after it. Sorted, for binary search.
pub(crate) const ANNOTATION_NAMES: &[&str] = &[
    "Any",
    "Awaitable",
    "Callable",
    "Literal",
    "Mapping",
    "Never",
    "None",
    "NotRequired",
    "Protocol",
    "ReadOnly",
    "Required",
    "Sequence",
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
pub(crate) fn is_plain_member(name: &str) -> bool {
    is_identifier(name) && !is_keyword(name) && !name.starts_with("__")
}

/// Whether `name` is one of [`KEYWORDS`].
fn is_keyword(name: &str) -> bool {
    const LONGEST: usize = longest(KEYWORDS);
    name.len() <= LONGEST && KEYWORDS.binary_search(&name).is_ok()
}

/// Whether `name` is one of [`ANNOTATION_NAMES`].
pub(crate) fn is_annotation_name(name: &str) -> bool {
    const LONGEST: usize = longest(ANNOTATION_NAMES);
    name.len() <= LONGEST && ANNOTATION_NAMES.binary_search(&name).is_ok()
}

/// The length of the longest of `list`: a longer name is in none of the
/// lists above, which most names are answered by.
const fn longest(list: &[&str]) -> usize {
    let (mut i, mut most) = (0, 0);
    while i < list.len() {
        if list[i].len() > most {
            most = list[i].len();
        }
        i += 1;
    }
    most
}

/// Whether a tool named `name` can be a method of `tools` that a program
/// calls as `tools.name`: a plain member that is not private to the class
/// either (pyright refuses `tools._name` outside it; `_` alone is public).
pub(crate) fn is_plain_method(name: &str) -> bool {
    is_plain_member(name) && (name == "_" || !name.starts_with('_'))
}

/// Whether the Python SDK declares a tool named `name` as a method that a
/// program calls as `tools.name`, not only through `__getitem__`: a plain
/// method name that no annotation uses (a method binds its name in the
/// class body and would hide it from the annotations after it). The
/// module's classes and aliases are named around these names.
pub(crate) fn is_bare_method(name: &str) -> bool {
    is_plain_method(name) && !is_annotation_name(name)
}

/// The characters of a tool name that its Python method spells `_`: the
/// separators tool names use (`-`, `.`, `/`, `:` and space).
pub const ALIAS_SEPARATORS: &[u8] = b"-./: ";

/// The method each tool gets in the Python SDK when its own name cannot be
/// one only because it holds separators: the name with `_` for each of
/// [`ALIAS_SEPARATORS`] (`get-sum` is `get_sum`, `kv.set` is `kv_set`). A
/// tool gets none when its name holds any other character a Python name
/// cannot, when the result is still no method name (`3d-view`, `-x`), or
/// is another tool's name, or the method of another tool too. Pairs of
/// (method, tool), sorted by method; the order of `names` does not matter.
///
/// The SDK declares these methods, and the sandbox and the check resolve
/// them, so the three agree on one rule.
///
/// ```
/// use codemode_core::python_method_aliases;
///
/// let aliases = python_method_aliases(["get-sum", "get.sum", "kv.set", "read_file", "x-1", "a#b"]);
/// assert_eq!(aliases, [("kv_set".to_owned(), "kv.set"), ("x_1".to_owned(), "x-1")]);
/// ```
pub fn python_method_aliases<'n>(
    names: impl IntoIterator<Item = &'n str>,
) -> Vec<(String, &'n str)> {
    let separator = |b: u8| ALIAS_SEPARATORS.contains(&b);
    let names: Vec<&'n str> = names.into_iter().collect();
    let mut aliases: Vec<(String, &'n str)> = names
        .iter()
        .filter(|name| {
            name.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || separator(b))
                && !is_bare_method(name)
        })
        .map(|&name| {
            let alias: String = name
                .bytes()
                .map(|b| if separator(b) { '_' } else { b as char })
                .collect();
            (alias, name)
        })
        .filter(|(alias, _)| is_bare_method(alias))
        .collect();
    if aliases.is_empty() {
        return aliases;
    }
    let taken: foldhash::HashSet<&str> = names.iter().copied().collect();
    aliases.retain(|(alias, _)| !taken.contains(alias.as_str()));
    aliases.sort_unstable();
    // A method two tools would share is neither's.
    let mut kept: Vec<(String, &'n str)> = Vec::with_capacity(aliases.len());
    let mut i = 0;
    while i < aliases.len() {
        let mut j = i + 1;
        while j < aliases.len() && aliases[j].0 == aliases[i].0 {
            j += 1;
        }
        if j == i + 1 {
            kept.push(std::mem::take(&mut aliases[i]));
        }
        i = j;
    }
    kept
}

/// Whether a property named `name` can be a keyword parameter of a
/// method: a plain member name (a `__x` would be mangled in the class
/// body) other than `self`, in ASCII (a letter newer than the Unicode of
/// an older Python would not parse there, while a dict key always does).
pub(crate) fn is_keyword_param(name: &str) -> bool {
    name.is_ascii() && is_plain_member(name) && name != "self"
}

/// Every name a Python module sees without importing it, every `typing`
/// name, and every keyword (hard and soft), one per line, sorted.
/// Regenerate with `python3 tests/interop/py-reserved.py`.
pub(crate) const PY_RESERVED: &str = include_str!("py_reserved.txt");

/// Whether `name` would shadow a builtin, a `typing` name, a keyword, or a
/// name the Python SDK itself declares (`Tools`, `tools`, `ToolCallError`,
/// and an index's `catalog`, `Catalog` and `ToolMatch`, which the
/// declarations `describe` gives must not hide).
pub(crate) fn reserved(name: &str) -> bool {
    name == crate::GLOBAL
        || name == crate::ERROR_CLASS
        || name == crate::INDEX_GLOBAL
        || name == "Tools"
        || name == "Catalog"
        || name == "ToolMatch"
        || super::sorted_lines_contain(PY_RESERVED, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_is_found_whatever_its_length() {
        assert!(KEYWORDS.iter().all(|name| is_keyword(name)));
        assert!(ANNOTATION_NAMES.iter().all(|name| is_annotation_name(name)));
        // The longest of each list.
        assert!(!is_plain_member("nonlocal") && !is_plain_member("continue"));
        assert!(!is_bare_method("NotRequired"));
        // Longer than any: answered from the length.
        assert!(is_plain_member("continues") && is_bare_method("NotRequiredToo"));
    }

    #[test]
    fn lists_searched_by_halves_are_sorted() {
        for list in [KEYWORDS, ANNOTATION_NAMES] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
        let reserved: Vec<&str> = PY_RESERVED.lines().collect();
        assert!(reserved.windows(2).all(|w| w[0] < w[1]));
        for ranges in [START, CONTINUE] {
            assert!(ranges.iter().all(|&(a, b)| a <= b));
            assert!(
                ranges.windows(2).all(|w| w[0].1 < w[1].0),
                "sorted, disjoint"
            );
        }
    }

    #[test]
    fn identifiers_are_those_python_3_11_parses() {
        for name in ["a", "_x9", "été", "名前", "x\u{663}", "\u{10400}"] {
            assert!(is_identifier(name), "{name:?}");
        }
        for name in [
            "",
            "9a",
            "a-b",
            "\u{663}x",   // a digit cannot begin a name
            "\u{fb01}le", // NFKC reads it as `file`
            "a\u{200c}b", // a name character only since Unicode 15.1
            "\u{1e030}",  // a letter added in Unicode 15.0
            "x\u{11f00}", // a Kawi sign, Unicode 15.0
            "\u{31350}",  // a CJK ideograph added in Unicode 15.0
            "t\u{34f}",   // a name character that shows nothing
            "t\u{fe0f}",  // a variation selector
            "\u{3164}",   // a Hangul filler, a letter that shows nothing
        ] {
            assert!(!is_identifier(name), "{name:?}");
        }
    }
}
