//! Every rule about names, in one place: what a tool may be called, how a
//! server's tools are prefixed, which names each target language can spell
//! bare, which it reserves, and how generated types are named (free of
//! collisions, and independent of input order).
//!
//! - [`typescript`]: TypeScript's keywords and library globals, and object
//!   keys that need no quotes.
//! - [`python`]: Python identifiers, keywords, builtins and `typing` names.

mod py_identifiers;
pub(crate) mod python;
pub use python::{ALIAS_SEPARATORS, python_method_aliases};
pub(crate) mod typescript;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::fmt;

/// Whether `text`, sorted lines each ended by `\n` (as the lists of
/// reserved names are kept), holds the line `name`. A search by halves
/// over the text itself: a process that renders once pays nothing to
/// build a table first (splitting 2,000 lines cost more than a small
/// render's naming).
pub(crate) fn sorted_lines_contain(text: &str, name: &str) -> bool {
    let bytes = text.as_bytes();
    // `lo` is always a line's start; the line sought, if present, starts
    // in `lo..hi`.
    let (mut lo, mut hi) = (0, bytes.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = bytes[lo..mid]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(lo, |i| lo + i + 1);
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| start + i);
        match bytes[start..end].cmp(name.as_bytes()) {
            std::cmp::Ordering::Equal => return true,
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start,
        }
    }
    false
}

/// Why a string cannot name a tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolNameError {
    /// The name is empty.
    Empty,
    /// The name holds a control character (it could not be printed in a
    /// declaration or a comment as it is).
    ControlCharacter(char),
}

impl fmt::Display for ToolNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolNameError::Empty => f.write_str("a tool name cannot be empty"),
            ToolNameError::ControlCharacter(c) => {
                write!(
                    f,
                    "a tool name cannot contain control characters (found {c:?})"
                )
            }
        }
    }
}

impl std::error::Error for ToolNameError {}

/// Checks that `name` can name a tool: any text that is not empty and holds
/// no control character. Everything else a language cannot spell is quoted
/// by the printers (`tools["my tool"]`), so it needs no rule here. The
/// `#[tool]` macro applies the same rule at compile time.
///
/// ```
/// use codemode_core::{ToolNameError, check_tool_name};
///
/// assert_eq!(check_tool_name("github.search issues"), Ok(()));
/// assert_eq!(check_tool_name(""), Err(ToolNameError::Empty));
/// assert_eq!(check_tool_name("a\tb"), Err(ToolNameError::ControlCharacter('\t')));
/// ```
pub fn check_tool_name(name: &str) -> Result<(), ToolNameError> {
    if name.is_empty() {
        return Err(ToolNameError::Empty);
    }
    match name.chars().find(|c| c.is_control()) {
        Some(c) => Err(ToolNameError::ControlCharacter(c)),
        None => Ok(()),
    }
}

/// Whether `prefix` can be put before a server's tool names: at most 64
/// ASCII letters, digits, `_`, `-` or `.` (empty is allowed: a lone server
/// gets no prefix). Every prefix [`server_prefix`] makes passes.
///
/// ```
/// use codemode_core::is_valid_prefix;
///
/// assert!(is_valid_prefix("github_"));
/// assert!(!is_valid_prefix("my server/"));
/// ```
pub fn is_valid_prefix(prefix: &str) -> bool {
    prefix.len() <= 64 && prefix.chars().all(is_prefix_char)
}

/// The characters a prefix may hold.
fn is_prefix_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Longest name (in bytes, all ASCII) a type is given from a tool's name,
/// a key or a definition's, before a number tells equal ones apart. A
/// generated name is printed at every use of its type, so a name as long
/// as its input would make the SDK grow with the input times the uses.
pub(crate) const MAX_NAME: usize = 64;

/// `get-weather_now` → `GetWeatherNow`: ASCII letters and digits of the
/// input, each run capitalised, at most [`MAX_NAME`] of them. Never empty
/// and never starts with a digit.
pub(crate) fn pascal_case(name: &str) -> String {
    let mut out = String::new();
    for word in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        // ASCII: a byte is a character.
        let word = &word[..word.len().min(MAX_NAME - out.len())];
        out.push(word.as_bytes()[0].to_ascii_uppercase().into());
        out.push_str(&word[1..]);
        if out.len() == MAX_NAME {
            break;
        }
    }
    if out.is_empty() {
        out.push_str("Type");
    } else if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'T');
    }
    out
}

/// The prefix an MCP server's tools get in an SDK: the `configured` one
/// when there is one; else none when the server is `alone` in the SDK;
/// else the server's name, with every character a tool name cannot hold
/// replaced by `_`, then `_`. Run-time toolsets and build-time snapshots
/// both follow this one rule, so their names agree.
///
/// ```
/// use codemode_core::server_prefix;
///
/// assert_eq!(server_prefix("github", None, false), "github_");
/// assert_eq!(server_prefix("my server/2", None, false), "my_server_2_");
/// assert_eq!(server_prefix("github", None, true), "");
/// assert_eq!(server_prefix("github", Some("gh_"), false), "gh_");
/// ```
pub fn server_prefix(server: &str, configured: Option<&str>, alone: bool) -> String {
    match configured {
        Some(prefix) => return prefix.to_owned(),
        None if alone => return String::new(),
        None => {}
    }
    let mut prefix: String = server
        .chars()
        .map(|c| if is_prefix_char(c) { c } else { '_' })
        .take(63)
        .collect();
    prefix.push('_');
    prefix
}

/// Assigns one name to each request `(base, key)`.
///
/// A base longer than [`MAX_NAME`] is cut to that length first (bases are
/// ASCII). A base that is free, not reserved and asked for by one key only
/// is used as it is. The rest are settled in order of `(base, key)`, which
/// depends only on the set of requests: a reserved base gets `Type`
/// appended, and a taken one the first free number from 2. Equal keys must
/// not repeat.
pub(crate) fn assign(
    requests: &[(String, String)],
    reserved: impl Fn(&str) -> bool,
) -> Vec<String> {
    let requests: Vec<(&str, &str)> = (requests.iter())
        .map(|(base, key)| (base.get(..MAX_NAME).unwrap_or(base), key.as_str()))
        .collect();
    // Only looked up, never iterated, so hashing cannot reorder anything.
    let mut demand: HashMap<&str, usize> = HashMap::with_capacity(requests.len());
    for &(base, _) in &requests {
        *demand.entry(base).or_default() += 1;
    }
    let mut taken: HashSet<String> = HashSet::with_capacity(requests.len());
    let mut names: Vec<Option<String>> = vec![None; requests.len()];
    for (i, &(base, _)) in requests.iter().enumerate() {
        if demand[base] == 1 && !reserved(base) {
            taken.insert(base.to_owned());
            names[i] = Some(base.to_owned());
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
        let base = requests[i].0;
        let stem = if reserved(base) {
            format!("{base}Type")
        } else {
            base.to_owned()
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

    #[test]
    fn generated_names_are_cut_and_cut_names_stay_apart() {
        assert_eq!(pascal_case("get-weather_now"), "GetWeatherNow");
        let long = pascal_case(&format!("list {}", "x".repeat(10_000)));
        assert_eq!(long.len(), MAX_NAME);
        assert!(long.starts_with("ListXxx"));
        // Two requests whose bases agree in their first MAX_NAME bytes.
        let a = format!("{long}Args");
        let b = format!("{long}Output");
        let names = assign(&[(a, "a".into()), (b, "b".into())], |_| false);
        assert_eq!(names, [long.clone(), format!("{long}2")]);
    }

    #[test]
    fn every_default_prefix_is_a_valid_prefix() {
        for server in ["github", "ünï cödé", "a/b c", "", &"x".repeat(200), "-.-"] {
            let prefix = server_prefix(server, None, false);
            assert!(is_valid_prefix(&prefix), "{server:?} gave {prefix:?}");
        }
        assert!(!is_valid_prefix("a b"));
        assert!(!is_valid_prefix(&"x".repeat(65)));
    }

    #[test]
    fn tool_names_are_refused_only_when_empty_or_with_control_characters() {
        for name in ["a", "my tool", "ü.x-y/z", "__proto__", "then"] {
            assert_eq!(check_tool_name(name), Ok(()), "{name:?}");
        }
        assert_eq!(check_tool_name(""), Err(ToolNameError::Empty));
        assert_eq!(
            check_tool_name("a\u{7f}b").map_err(|e| e.to_string()),
            Err("a tool name cannot contain control characters (found '\\u{7f}')".to_owned())
        );
    }

    fn req(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(b, k)| (b.to_string(), k.to_string()))
            .collect()
    }

    #[test]
    fn globals_list_is_sorted_and_has_the_dom() {
        let lines: Vec<&str> = typescript::TS_GLOBALS.lines().collect();
        assert!(lines.windows(2).all(|w| w[0] < w[1]));
        for name in ["Location", "Event", "Promise", "Record", "Array", "Element"] {
            assert!(typescript::reserved(name), "{name}");
        }
        assert!(!typescript::reserved("WeatherReport"));
    }

    #[test]
    fn search_by_halves_finds_every_line_and_nothing_else() {
        for text in [
            typescript::TS_GLOBALS,
            python::PY_RESERVED,
            "a\nb\nc\n",
            "only\n",
            "",
        ] {
            let lines: Vec<&str> = text.lines().collect();
            for &line in &lines {
                assert!(sorted_lines_contain(text, line), "{line}");
                // Neighbours that sort just before and after, and prefixes.
                for probe in [format!("{line}_"), format!("{line}\u{0}"), {
                    let mut shorter = line.to_owned();
                    shorter.pop();
                    shorter
                }] {
                    let expected = lines.binary_search(&probe.as_str()).is_ok();
                    assert_eq!(sorted_lines_contain(text, &probe), expected, "{probe:?}");
                }
            }
            for probe in ["", "\n", "zzzz", "0", "A", "ab\nc"] {
                assert_eq!(
                    sorted_lines_contain(text, probe),
                    lines.contains(&probe),
                    "{probe:?}"
                );
            }
        }
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
        let names = assign(
            &req(&[("Promise", "a"), ("PromiseType", "b")]),
            typescript::reserved,
        );
        assert_eq!(names, ["PromiseType2", "PromiseType"]);
    }
}
