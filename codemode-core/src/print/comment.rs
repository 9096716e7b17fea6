//! Making arbitrary text safe inside comments and docstrings.

use crate::schema::Doc;
use std::borrow::Cow;
use std::fmt::Write;

/// Splits `text` into lines that are safe in any comment: line breaks of
/// every kind (CR, CRLF, NEL, U+2028, U+2029) end a line, and every other
/// control character becomes a visible `\u{..}` escape. Trailing blanks are
/// trimmed, leading and trailing empty lines dropped. Lines that need no
/// change are borrowed from `text`.
pub(crate) fn clean_lines(text: &str) -> Vec<Cow<'_, str>> {
    let mut lines = Vec::new();
    if is_plain(text) {
        // The common case: nothing to escape, `\n` the only break.
        lines.extend(text.split('\n').map(|line| Cow::Borrowed(line.trim_end())));
    } else {
        let mut push = |line: &str| lines.push(Cow::Owned(line.trim_end().to_owned()));
        let mut line = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => {
                    if chars.peek() == Some(&'\n') {
                        chars.next();
                    }
                    push(&std::mem::take(&mut line));
                }
                '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{0b}' | '\u{0c}' => {
                    push(&std::mem::take(&mut line));
                }
                '\t' => line.push(' '),
                c if c.is_control() => {
                    let _ = write!(line, "\\u{{{:x}}}", c as u32);
                }
                c => line.push(c),
            }
        }
        push(&line);
    }
    // Blank edges dropped in one cut each (many blank lines stay linear).
    let start = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |i| i + 1);
    lines.truncate(end);
    lines.drain(..start);
    dedent(&mut lines);
    lines
}

/// Removes the indentation the lines share, as Python's `inspect.cleandoc`
/// does for a docstring: the first line's own, and the least of the later
/// non-blank lines' (descriptions taken from docstrings carry it on every
/// line, and it costs tokens on every line).
fn dedent(lines: &mut [Cow<'_, str>]) {
    let indent = |line: &str| line.len() - line.trim_start_matches(' ').len();
    let common = lines
        .iter()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| indent(l))
        .min()
        .unwrap_or(0);
    for (i, line) in lines.iter_mut().enumerate() {
        let cut = if i == 0 {
            indent(line)
        } else {
            common.min(line.len())
        };
        if cut > 0 {
            *line = match std::mem::take(line) {
                Cow::Borrowed(text) => Cow::Borrowed(&text[cut..]),
                Cow::Owned(text) => Cow::Owned(text[cut..].to_owned()),
            };
        }
    }
}

/// Whether `text` has no control character other than `\n`, and no other
/// line break (U+0085, U+2028, U+2029), read byte by byte: the controls are
/// U+0000-U+001F, U+007F (one byte each) and U+0080-U+009F (`C2 80`-`C2 9F`);
/// the two separators are `E2 80 A8` and `E2 80 A9`.
fn is_plain(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Most text is printable ASCII and `\n`: whole chunks of it are passed
    // in bulk (a branch-free test the compiler vectorises), and the exact
    // scan starts at the first chunk with anything else. No multi-byte
    // character spans the cut, since everything before it is ASCII.
    let mut start = 0;
    for chunk in bytes.chunks_exact(32) {
        let other = chunk.iter().fold(false, |any, &b| {
            any | ((b < 0x20) & (b != b'\n')) | (b >= 0x7f)
        });
        if other {
            break;
        }
        start += 32;
    }
    for (i, &b) in bytes.iter().enumerate().skip(start) {
        let special = match b {
            b'\n' => false,
            0..0x20 | 0x7f => true,
            0xc2 => bytes.get(i + 1).is_some_and(|n| (0x80..0xa0).contains(n)),
            0xe2 => {
                bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xa8 | 0xa9))
            }
            _ => false,
        };
        if special {
            return false;
        }
    }
    true
}

/// The words that make a Python comment a directive to some checker:
/// `type: ignore` and type comments (CPython, mypy, pyright), `pyright:`,
/// `mypy:` (inline configuration), `pytype:` and pyre's `pyre-ignore`,
/// `pyre-fixme` and `pyre-strict`. Each counts only at the start of a
/// comment or after a `#` and blanks, and only in this case.
const PYTHON_DIRECTIVES: [&str; 5] = ["type:", "pyright:", "mypy:", "pytype:", "pyre-"];

/// `text`, to follow `# ` in a Python comment, with every checker directive
/// it would form broken by a space before its `:` or `-` (`type : ignore`),
/// so a description or a name can never switch a check off.
pub(crate) fn defuse_python(text: &str) -> Cow<'_, str> {
    if !PYTHON_DIRECTIVES.iter().any(|d| text.contains(d)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    // Whether only blanks stand between here and the comment's `#`.
    let mut after_hash = true;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if after_hash && let Some(d) = PYTHON_DIRECTIVES.iter().find(|d| rest.starts_with(**d)) {
            let (word, mark) = d.split_at(d.len() - 1);
            out.push_str(word);
            out.push(' ');
            out.push_str(mark);
            rest = &rest[d.len()..];
            after_hash = false;
            continue;
        }
        // U+FEFF is no whitespace to Rust, but JavaScript's `\s` (and so
        // pyright) skips it.
        after_hash = c == '#' || (after_hash && (c.is_whitespace() || c == '\u{feff}'));
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// `text`, for a TypeScript comment, with `@` and a following `ts-` (in any
/// case) parted by a space: `@ts-ignore`, `@ts-expect-error` and
/// `@ts-nocheck` are read wherever they stand in a block comment, so a
/// description or a name can never switch a check off.
pub(crate) fn defuse_typescript(text: &str) -> Cow<'_, str> {
    let forms = |at: usize| typescript_directive_at(text.as_bytes(), at);
    if !memchr::memchr_iter(b'@', text.as_bytes()).any(forms) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 4);
    let mut from = 0;
    for at in memchr::memchr_iter(b'@', text.as_bytes()).filter(|&at| forms(at)) {
        out.push_str(&text[from..=at]);
        out.push(' ');
        from = at + 1;
    }
    out.push_str(&text[from..]);
    Cow::Owned(out)
}

/// Whether the `@` of a TypeScript directive (`@ts-`, in any case) is at
/// `at`.
fn typescript_directive_at(bytes: &[u8], at: usize) -> bool {
    bytes.get(at) == Some(&b'@')
        && bytes
            .get(at + 1..at + 4)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"ts-"))
}

/// A string literal (Python's or JSON's, for TypeScript) with every
/// character that could help form a checker directive in a comment
/// written as a `\u` escape instead: the `:` or `-` that ends a Python
/// directive's word, an `@` before `ts-`. Unlike [`defuse_python`] and
/// [`defuse_typescript`], which part the words with a space, this keeps
/// the value: a program that copies the literal names the same string.
pub(crate) fn escape_directives(literal: &str, python: bool) -> Cow<'_, str> {
    let mut out = String::new();
    let mut from = 0;
    let bytes = literal.as_bytes();
    for (at, &b) in bytes.iter().enumerate() {
        // Every mark is ASCII, so `at + 1` is a character's boundary.
        let escape = if python {
            (matches!(b, b':' | b'-')
                && PYTHON_DIRECTIVES
                    .iter()
                    .any(|d| literal[..=at].ends_with(*d)))
            .then_some(b)
        } else {
            typescript_directive_at(bytes, at).then_some(b'@')
        };
        if let Some(mark) = escape {
            out.push_str(&literal[from..at]);
            let _ = write!(out, "\\u{:04x}", mark);
            from = at + 1;
        }
    }
    if from == 0 {
        return Cow::Borrowed(literal);
    }
    out.push_str(&literal[from..]);
    Cow::Owned(out)
}

/// The lines a doc comment shows: the description, then the notes on one
/// line in `@keyword value` form (`@deprecated` alone). A one-line
/// description shares its line with the notes, to keep the prompt short.
pub(crate) fn doc_lines(doc: &Doc) -> Vec<Cow<'_, str>> {
    let mut lines = doc.text.as_deref().map(clean_lines).unwrap_or_default();
    if !doc.notes.is_empty() {
        let mut notes = String::new();
        for (key, value) in &doc.notes {
            if !notes.is_empty() {
                notes.push(' ');
            }
            notes.push('@');
            notes.push_str(key);
            // The value's lines, joined by spaces.
            for line in clean_lines(value) {
                notes.push(' ');
                notes.push_str(&line);
            }
        }
        match lines.as_mut_slice() {
            [only] => {
                let only = only.to_mut();
                only.push(' ');
                only.push_str(&notes);
            }
            _ => lines.push(Cow::Owned(notes)),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_break_splits() {
        assert_eq!(
            clean_lines("a\r\nb\rc\u{2028}d\u{2029}e\u{85}f\n"),
            ["a", "b", "c", "d", "e", "f"]
        );
    }

    #[test]
    fn controls_become_visible() {
        assert_eq!(clean_lines("a\u{0}b\u{1b}"), ["a\\u{0}b\\u{1b}"]);
    }

    #[test]
    fn the_byte_scan_finds_what_a_char_scan_finds() {
        let special = |c: char| {
            (c.is_control() && c != '\n') || matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}')
        };
        for c in (0..0x3000u32).filter_map(char::from_u32) {
            let long = "x".repeat(40);
            for text in [
                format!("{c}"),
                format!("a{c}b"),
                format!("é{c}"),
                format!("{long}{c}"),
                format!("{}{c}{long}", &long[..31]),
                format!("é{long}{c}"),
                format!("{long}{c}{long}"),
            ] {
                assert_eq!(is_plain(&text), !text.chars().any(special), "{:?}", c);
            }
        }
    }

    #[test]
    fn python_directives_are_broken_wherever_a_checker_reads_them() {
        for (text, want) in [
            ("type: ignore", "type : ignore"),
            ("  type:ignore[misc]", "  type :ignore[misc]"),
            ("x # type: ignore", "x # type : ignore"),
            ("a #pyright: basic", "a #pyright : basic"),
            ("mypy: ignore-errors", "mypy : ignore-errors"),
            ("pytype: disable=x", "pytype : disable=x"),
            ("pyre-ignore[16]", "pyre -ignore[16]"),
            ("# # type: int", "# # type : int"),
            ("\u{feff}pyright: basic", "\u{feff}pyright : basic"),
            ("# \u{feff} type: ignore", "# \u{feff} type : ignore"),
            // Not after a `#`: no checker reads these.
            ("the type: a string", "the type: a string"),
            ("Type: ignore", "Type: ignore"),
            ("é type: x", "é type: x"),
        ] {
            assert_eq!(defuse_python(text), want, "{text:?}");
        }
        assert!(matches!(defuse_python("plain words"), Cow::Borrowed(_)));
    }

    #[test]
    fn typescript_directives_are_broken_in_any_case() {
        for (text, want) in [
            ("@ts-ignore", "@ ts-ignore"),
            ("x @ts-expect-error y", "x @ ts-expect-error y"),
            ("@TS-NOCHECK and @Ts-check", "@ TS-NOCHECK and @ Ts-check"),
            ("mail@ts-host.example", "mail@ ts-host.example"),
            ("@param x, @t, @ts", "@param x, @t, @ts"),
        ] {
            assert_eq!(defuse_typescript(text), want, "{text:?}");
        }
    }

    #[test]
    fn shared_indentation_is_removed() {
        assert_eq!(
            clean_lines("Summary.\n\n    Args:\n        q: the query\n    Returns it."),
            ["Summary.", "", "Args:", "    q: the query", "Returns it."]
        );
        assert_eq!(
            clean_lines("  one\n\ttwo\n\t  three"),
            ["one", "two", "  three"]
        );
    }

    #[test]
    fn blank_edges_are_dropped() {
        assert_eq!(clean_lines("\n\n  x  \n\n"), ["x"]);
        assert!(clean_lines(" \n ").is_empty());
    }
}
