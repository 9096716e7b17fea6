//! Names for named types: collision-safe, independent of input order, and
//! never one the SDK or the target language already uses.

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Every global the TypeScript standard and DOM libraries declare, one per
/// line, sorted. A top-level type with one of these names would be a
/// duplicate declaration under `tsc`'s default libraries.
/// Regenerate with `node tests/interop/ts-globals.js` (checked by the interop suite).
const TS_GLOBALS: &str = include_str!("ts_globals.txt");

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
pub(crate) fn ts_reserved(name: &str) -> bool {
    name == crate::GLOBAL
        || name == crate::ERROR_CLASS
        || TS_KEYWORDS.contains(&name)
        || ts_globals().binary_search(&name).is_ok()
}

fn ts_globals() -> &'static [&'static str] {
    static LIST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    LIST.get_or_init(|| TS_GLOBALS.lines().collect())
}

/// Every name a Python module sees without importing it, every `typing`
/// name, and every keyword (hard and soft), one per line, sorted.
/// Regenerate with `python3 tests/interop/py-reserved.py`.
const PY_RESERVED: &str = include_str!("py_reserved.txt");

/// Whether `name` would shadow a builtin, a `typing` name, a keyword, or a
/// name the Python SDK itself declares (`Tools`, `tools`, `ToolCallError`).
pub(crate) fn py_reserved(name: &str) -> bool {
    static LIST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    name == crate::GLOBAL
        || name == crate::ERROR_CLASS
        || name == "Tools"
        || LIST
            .get_or_init(|| PY_RESERVED.lines().collect())
            .binary_search(&name)
            .is_ok()
}

/// Assigns one name to each request `(base, key)`.
///
/// A base that is free, not reserved and asked for by one key only is used as
/// it is. The rest are settled in order of `(base, key)`, which depends only on
/// the set of requests: a reserved base gets `Type` appended, and a taken one
/// the first free number from 2. Equal keys must not repeat.
pub(crate) fn assign(
    requests: &[(String, String)],
    reserved: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut demand: BTreeMap<&str, usize> = BTreeMap::new();
    for (base, _) in requests {
        *demand.entry(base.as_str()).or_default() += 1;
    }
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut names: Vec<Option<String>> = vec![None; requests.len()];
    for (i, (base, _)) in requests.iter().enumerate() {
        if demand[base.as_str()] == 1 && !reserved(base) {
            taken.insert(base.clone());
            names[i] = Some(base.clone());
        }
    }
    let mut rest: Vec<usize> = (0..requests.len())
        .filter(|&i| names[i].is_none())
        .collect();
    rest.sort_by(|&a, &b| requests[a].cmp(&requests[b]));
    // The next number to try for each stem: every number below it is taken
    // (names are only ever added), so thousands of requests for one stem
    // cost one step each, not a count from 2 each.
    let mut next: HashMap<String, u64> = HashMap::new();
    for i in rest {
        let base = &requests[i].0;
        let stem = if reserved(base) {
            format!("{base}Type")
        } else {
            base.clone()
        };
        // Free: not taken, not reserved, and not another request's own base.
        let free = |name: &str| {
            !taken.contains(name) && !reserved(name) && (name == base || !demand.contains_key(name))
        };
        let mut name = stem.clone();
        let mut n = next.get(&stem).copied().unwrap_or(2);
        if n > 2 || !free(&name) {
            loop {
                name = format!("{stem}{n}");
                n += 1;
                if free(&name) {
                    break;
                }
            }
        }
        next.insert(stem, n);
        taken.insert(name.clone());
        names[i] = Some(name);
    }
    names.into_iter().map(Option::unwrap_or_default).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(b, k)| (b.to_string(), k.to_string()))
            .collect()
    }

    #[test]
    fn globals_list_is_sorted_and_has_the_dom() {
        let lines: Vec<&str> = TS_GLOBALS.lines().collect();
        assert!(lines.windows(2).all(|w| w[0] < w[1]));
        for name in ["Location", "Event", "Promise", "Record", "Array", "Element"] {
            assert!(ts_reserved(name), "{name}");
        }
        assert!(!ts_reserved("WeatherReport"));
    }

    #[test]
    fn unique_free_bases_are_kept() {
        let names = assign(&req(&[("Foo", "1"), ("Bar", "2")]), |_| false);
        assert_eq!(names, ["Foo", "Bar"]);
    }

    #[test]
    fn collisions_are_numbered_by_key_order() {
        let a = assign(&req(&[("Foo", "b"), ("Foo", "a"), ("Bar", "c")]), |_| false);
        assert_eq!(a, ["Foo2", "Foo", "Bar"]);
        let b = assign(&req(&[("Bar", "c"), ("Foo", "a"), ("Foo", "b")]), |_| false);
        assert_eq!(b, ["Bar", "Foo", "Foo2"]);
    }

    #[test]
    fn a_numbered_name_never_steals_another_base() {
        let names = assign(&req(&[("Foo", "a"), ("Foo", "b"), ("Foo2", "c")]), |_| {
            false
        });
        assert_eq!(names, ["Foo", "Foo3", "Foo2"]);
    }

    #[test]
    fn reserved_bases_get_a_suffix() {
        let names = assign(&req(&[("Promise", "a"), ("PromiseType", "b")]), ts_reserved);
        assert_eq!(names, ["PromiseType2", "PromiseType"]);
    }
}
