//! JSON pointers: local `$ref`s decoded, and segments escaped.

use crate::json::{Fields, Json};

/// The JSON pointer of a local reference (`#`, `#/$defs/X`, percent-encoded
/// or not); `None` for anything else.
pub(crate) fn local_pointer(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let decoded = percent_decode(fragment)?;
    if decoded.is_empty() || decoded.starts_with('/') {
        Some(decoded)
    } else {
        None
    }
}

fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A pointer segment with `~1` and `~0` decoded.
pub(super) fn unescape_segment(segment: &str) -> String {
    segment.replace("~1", "/").replace("~0", "~")
}

/// Appends `segment` to a JSON pointer, escaped.
pub(crate) fn push_segment(ptr: &mut String, segment: &str) {
    ptr.push('/');
    if !segment.bytes().any(|b| b == b'~' || b == b'/') {
        ptr.push_str(segment);
        return;
    }
    for c in segment.chars() {
        match c {
            '~' => ptr.push_str("~0"),
            '/' => ptr.push_str("~1"),
            c => ptr.push(c),
        }
    }
}

/// Longest tool name or pointer a degradation (or a type's origin) keeps
/// in full, in bytes. Each node of a schema may record one, so a longer
/// one is cut ([`for_report`]): a long key or tool name copied into every
/// record below it would make memory grow with the input times the
/// records.
pub(crate) const REPORT_MAX: usize = 256;

/// `s` as a degradation reports it: in full up to [`REPORT_MAX`] bytes,
/// else its start and its end with `…` between.
pub(crate) fn for_report(s: &str) -> String {
    cut_for_report(s).into_owned()
}

/// [`for_report`], borrowed when `s` is short enough as it is.
pub(crate) fn cut_for_report(s: &str) -> std::borrow::Cow<'_, str> {
    if s.len() <= REPORT_MAX {
        return s.into();
    }
    let head = s.floor_char_boundary(REPORT_MAX * 5 / 8);
    let tail = s.ceil_char_boundary(s.len() - REPORT_MAX / 4);
    format!("{}…{}", &s[..head], &s[tail..]).into()
}

/// Whether the schema at `pointer` (from `root`), or one on the way to it
/// below the root, names a base of its own (`$id`, or draft 4's `id`, as a
/// string). A map of schemas on the way (`properties`, `$defs`, ...) is
/// read as [`map_names_a_base`] has it: an entry of it named `id` is a
/// name. The schema at `pointer` itself is read as a schema even where it
/// is such a map, since a reference made it one.
pub(crate) fn on_the_way_to(root: &Json<'_>, pointer: &str) -> bool {
    let Some(rest) = pointer.strip_prefix('/') else {
        return false;
    };
    let mut node = root;
    let mut in_map = false;
    let mut tokens = rest.split('/').peekable();
    while let Some(token) = tokens.next() {
        let Some(next) = node.step(token) else {
            return false;
        };
        // A map's values are schemas whatever their names; a schema's value
        // under a map keyword is a map.
        let is_map = !in_map && matches!(node, Json::Object(_)) && holds_a_map(token);
        node = next;
        if let Json::Object(fields) = node {
            let names = match is_map && tokens.peek().is_some() {
                true => map_names_a_base(fields),
                false => names_a_base(fields),
            };
            if names {
                return true;
            }
        }
        in_map = is_map;
    }
    false
}

/// Whether a map of schemas names a base for what is below it, were it
/// read as a schema: only through `$id`, since an entry named `id` that
/// holds text is a property or definition written in shorthand (malformed,
/// and reported where it is read), far likelier than draft 4's base.
pub(crate) fn map_names_a_base(fields: &Fields<'_>) -> bool {
    fields.get("$id").is_some_and(|id| id.as_str().is_some())
}

/// Whether a schema's keyword `key` holds a map from names to schemas.
pub(crate) fn holds_a_map(key: &str) -> bool {
    matches!(
        key,
        "properties"
            | "patternProperties"
            | "$defs"
            | "definitions"
            | "dependentSchemas"
            | "dependencies"
    )
}

/// Whether a schema names a base of its own: `$id`, or draft 4's `id`, as
/// a string.
pub(crate) fn names_a_base(fields: &Fields<'_>) -> bool {
    map_names_a_base(fields) || fields.get("id").is_some_and(|id| id.as_str().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_reports_keep_their_ends_and_cut_at_characters() {
        assert_eq!(for_report("/properties/a"), "/properties/a");
        let long = format!("/properties/{}/properties/end", "é".repeat(400));
        let cut = for_report(&long);
        assert!(cut.len() <= REPORT_MAX + '…'.len_utf8(), "{}", cut.len());
        assert!(cut.starts_with("/properties/é") && cut.ends_with("/properties/end"));
        assert!(cut.contains('…'));
    }
}
