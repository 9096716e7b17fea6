//! Making arbitrary text safe inside comments and docstrings.

use crate::schema::Doc;

/// Splits `text` into lines that are safe in any comment: line breaks of
/// every kind (CR, CRLF, NEL, U+2028, U+2029) end a line, and every other
/// control character becomes a visible `\u{..}` escape. Trailing blanks are
/// trimmed, leading and trailing empty lines dropped.
pub(crate) fn clean_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                lines.push(std::mem::take(&mut line));
            }
            '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{0b}' | '\u{0c}' => {
                lines.push(std::mem::take(&mut line));
            }
            '\t' => line.push(' '),
            c if c.is_control() => line.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => line.push(c),
        }
    }
    lines.push(line);
    let mut lines: Vec<String> = lines.into_iter().map(|l| l.trim_end().to_owned()).collect();
    while lines.first().is_some_and(String::is_empty) {
        lines.remove(0);
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

/// The lines a doc comment shows: the description, then the notes on one
/// line in `@keyword value` form (`@deprecated` alone). A one-line
/// description shares its line with the notes, to keep the prompt short.
pub(crate) fn doc_lines(doc: &Doc) -> Vec<String> {
    let mut lines = doc.text.as_deref().map(clean_lines).unwrap_or_default();
    let notes: Vec<String> = doc
        .notes
        .iter()
        .map(|(key, value)| {
            let value = clean_lines(value).join(" ");
            if value.is_empty() {
                format!("@{key}")
            } else {
                format!("@{key} {value}")
            }
        })
        .collect();
    if !notes.is_empty() {
        let notes = notes.join(" ");
        match lines.as_mut_slice() {
            [only] => {
                only.push(' ');
                only.push_str(&notes);
            }
            _ => lines.push(notes),
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
    fn blank_edges_are_dropped() {
        assert_eq!(clean_lines("\n\n  x  \n\n"), ["  x"]);
        assert!(clean_lines(" \n ").is_empty());
    }
}
