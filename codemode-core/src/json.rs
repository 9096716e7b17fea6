//! A compact JSON tree, borrowed from its text and kept in an arena.
//!
//! The renderer reads every tool's schemas once and never changes them, so
//! it does not need `serde_json::Value`'s owned strings and B-tree maps: a
//! schema object of three keys costs a B-tree leaf of several hundred bytes
//! there, and a tool list of 1 MB grew to tens of megabytes of fresh pages.
//! Here a string is a slice of the input (copied only when it has escapes),
//! an object is a slice of entries sorted by key, and all of it sits in one
//! [`Bump`] arena that is freed at once.
//!
//! A reader of its own ([`fast`]) reads the usual text; whatever it cannot
//! read exactly as serde_json would (bad JSON, lone surrogates, floats) goes
//! through serde_json's own deserializer. So what is accepted, the error
//! messages and the numbers are exactly serde_json's. Keys repeated in one
//! object keep their last value, as `serde_json::Value` does.
//! Converting to and from `Value` keeps its own stack, so depth is no limit.

use bumpalo::Bump;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

mod fast;
mod split;

pub(crate) use split::parse_split;

/// One JSON value in the arena.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Json<'a> {
    Null,
    Bool(bool),
    Number(Num),
    String(&'a str),
    Array(&'a [Json<'a>]),
    Object(Fields<'a>),
}

/// A JSON number, as serde_json reads it (without arbitrary precision).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Num {
    PosInt(u64),
    NegInt(i64),
    Float(f64),
}

impl Num {
    /// The number as serde_json holds it, which also decides how it prints.
    pub(crate) fn number(self) -> Number {
        match self {
            Num::PosInt(n) => n.into(),
            Num::NegInt(n) => n.into(),
            // Only finite floats are ever stored (see `visit_f64`).
            Num::Float(f) => Number::from_f64(f).unwrap_or_else(|| 0.into()),
        }
    }
}

/// An object's entries, sorted by key, each key once.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields<'a>(&'a [(&'a str, Json<'a>)]);

impl<'a> Fields<'a> {
    /// The object without entries.
    pub(crate) const EMPTY: Fields<'static> = Fields(&[]);

    /// The address of the entries.
    pub(crate) fn entries_at(self) -> usize {
        self.0.as_ptr().addr()
    }

    /// The entries' length in bytes.
    pub(crate) fn entries_len(self) -> usize {
        size_of_val(self.0)
    }

    /// The value under `key`.
    pub(crate) fn get(self, key: &str) -> Option<&'a Json<'a>> {
        let entries = self.0;
        entries
            .binary_search_by(|(k, _)| (*k).cmp(key))
            .ok()
            .map(|i| &entries[i].1)
    }

    /// The entries in key order.
    pub(crate) fn iter(
        self,
    ) -> impl DoubleEndedIterator<Item = (&'a str, &'a Json<'a>)> + ExactSizeIterator {
        self.0.iter().map(|(k, v)| (*k, v))
    }

    pub(crate) fn len(self) -> usize {
        self.0.len()
    }
}

impl<'a> Json<'a> {
    pub(crate) fn as_str(&self) -> Option<&'a str> {
        match *self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&'a [Json<'a>]> {
        match *self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match *self {
            Json::Number(Num::PosInt(n)) => Some(n),
            _ => None,
        }
    }

    pub(crate) fn is_true(&self) -> bool {
        matches!(self, Json::Bool(true))
    }

    /// What the value is, for error messages, in the words of
    /// [`json_kind`](crate::json_kind).
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// The value a JSON pointer names, with `Value::pointer`'s rules.
    pub(crate) fn pointer(&'a self, pointer: &str) -> Option<&'a Json<'a>> {
        if pointer.is_empty() {
            return Some(self);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut target = self;
        for token in rest.split('/') {
            target = target.step(token)?;
        }
        Some(target)
    }

    /// The value one (escaped) pointer token names inside this one.
    pub(crate) fn step(&'a self, token: &str) -> Option<&'a Json<'a>> {
        let token = if token.contains('~') {
            std::borrow::Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
        } else {
            std::borrow::Cow::Borrowed(token)
        };
        match self {
            Json::Object(fields) => fields.get(&token),
            Json::Array(items) => items.get(array_index(&token)?),
            _ => None,
        }
    }

    /// The same value as a `serde_json::Value`.
    pub(crate) fn to_value(self) -> Value {
        enum Step<'s, 'a> {
            Enter(&'s Json<'a>),
            Array(usize),
            Object(Fields<'a>),
        }
        let mut steps = vec![Step::Enter(&self)];
        let mut done: Vec<Value> = Vec::new();
        while let Some(step) = steps.pop() {
            match step {
                Step::Enter(json) => match *json {
                    Json::Null => done.push(Value::Null),
                    Json::Bool(b) => done.push(Value::Bool(b)),
                    Json::Number(n) => done.push(Value::Number(n.number())),
                    Json::String(s) => done.push(Value::String(s.to_owned())),
                    Json::Array(items) => {
                        steps.push(Step::Array(items.len()));
                        steps.extend(items.iter().rev().map(Step::Enter));
                    }
                    Json::Object(fields) => {
                        steps.push(Step::Object(fields));
                        steps.extend(fields.iter().rev().map(|(_, v)| Step::Enter(v)));
                    }
                },
                Step::Array(n) => {
                    let items = done.split_off(done.len() - n);
                    done.push(Value::Array(items));
                }
                Step::Object(fields) => {
                    let values = done.split_off(done.len() - fields.len());
                    let map: Map<String, Value> = fields
                        .iter()
                        .map(|(k, _)| k.to_owned())
                        .zip(values)
                        .collect();
                    done.push(Value::Object(map));
                }
            }
        }
        done.pop().unwrap_or(Value::Null)
    }
}

/// serde_json's rule for an array index in a pointer: digits, no sign, no
/// leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

/// Borrows `value` as a tree in `bump`.
pub(crate) fn from_value<'a>(value: &'a Value, bump: &'a Bump) -> Json<'a> {
    nested(value, bump, 0)
}

/// How deep [`nested`] recurses before it hands a subtree to
/// [`from_value_deep`], which keeps its stack on the heap.
const RECURSE_LEVELS: usize = 64;

/// [`from_value`] for a value at `level`: each map and array is read once,
/// in order, straight into its slice in `bump`.
fn nested<'a>(value: &'a Value, bump: &'a Bump, level: usize) -> Json<'a> {
    match value {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(n) => Json::Number(num_of(n)),
        Value::String(s) => Json::String(s),
        _ if level >= RECURSE_LEVELS => from_value_deep(value, bump),
        Value::Array(items) => Json::Array(
            bump.alloc_slice_fill_iter(items.iter().map(|item| nested(item, bump, level + 1))),
        ),
        Value::Object(map) => {
            let entries = bump.alloc_slice_fill_iter(
                map.iter()
                    .map(|(key, item)| (key.as_str(), nested(item, bump, level + 1))),
            );
            Json::Object(fields_of_map(entries))
        }
    }
}

/// [`from_value`] for a subtree of any depth, with its stack on the heap.
fn from_value_deep<'a>(value: &'a Value, bump: &'a Bump) -> Json<'a> {
    enum Step<'v> {
        Enter(&'v Value),
        Array(usize),
        Object(&'v Map<String, Value>),
    }
    let mut steps = vec![Step::Enter(value)];
    let mut done: Vec<Json<'a>> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Enter(value) => match value {
                Value::Null => done.push(Json::Null),
                Value::Bool(b) => done.push(Json::Bool(*b)),
                Value::Number(n) => done.push(Json::Number(num_of(n))),
                Value::String(s) => done.push(Json::String(s)),
                Value::Array(items) => {
                    steps.push(Step::Array(items.len()));
                    steps.extend(items.iter().rev().map(Step::Enter));
                }
                Value::Object(map) => {
                    steps.push(Step::Object(map));
                    steps.extend(map.values().rev().map(Step::Enter));
                }
            },
            Step::Array(n) => {
                let start = done.len() - n;
                let items = bump.alloc_slice_copy(&done[start..]);
                done.truncate(start);
                done.push(Json::Array(items));
            }
            Step::Object(map) => {
                let start = done.len() - map.len();
                let entries = bump.alloc_slice_fill_iter(
                    map.keys()
                        .map(String::as_str)
                        .zip(done[start..].iter().copied()),
                );
                done.truncate(start);
                done.push(Json::Object(fields_of_map(entries)));
            }
        }
    }
    done.pop().unwrap_or(Json::Null)
}

/// A map's entries as fields, sorted by key: a map built with
/// `preserve_order` iterates in insertion order.
fn fields_of_map<'a>(entries: &'a mut [(&'a str, Json<'a>)]) -> Fields<'a> {
    if !entries.is_sorted_by(|a, b| a.0 <= b.0) {
        entries.sort_by(|a, b| a.0.cmp(b.0));
    }
    Fields(entries)
}

fn num_of(n: &Number) -> Num {
    if let Some(n) = n.as_u64() {
        Num::PosInt(n)
    } else if let Some(n) = n.as_i64() {
        Num::NegInt(n)
    } else {
        Num::Float(n.as_f64().unwrap_or(0.0))
    }
}

/// An arena sized for the tree of `text`, so that it is one block: a
/// schema's tree takes a little over twice its compact text.
pub(crate) fn arena_for(text: &str) -> Bump {
    Bump::with_capacity(text.len().saturating_mul(5) / 2)
}

/// Parses `text` as one JSON value into `bump`. Nesting is not limited here;
/// callers bound it first.
pub(crate) fn parse<'a>(text: &'a str, bump: &'a Bump) -> Result<Json<'a>, serde_json::Error> {
    parse_within(text, bump, usize::MAX)
}

/// Parses `text` as [`parse`] does, but refuses it as soon as arrays and
/// objects nest more than `levels` deep, before the parser recurses further
/// (an error that names no place; the text is some other error's, or too
/// deep). A caller that bounds nesting this way needs no scan before it.
pub(crate) fn parse_within<'a>(
    text: &'a str,
    bump: &'a Bump,
    levels: usize,
) -> Result<Json<'a>, serde_json::Error> {
    match fast::parse(text, bump, levels) {
        Some(json) => Ok(json),
        None => parse_with_serde(text, bump, levels),
    }
}

/// [`parse_within`] through serde_json alone: the reading that judges
/// every text the fast reader leaves to it.
fn parse_with_serde<'a>(
    text: &'a str,
    bump: &'a Bump,
    levels: usize,
) -> Result<Json<'a>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let mut scratch = Scratch::default();
    let json = Node {
        bump,
        scratch: &mut scratch,
        levels,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok(json)
}

/// Children gathered before they move into the arena, shared by every level.
#[derive(Default)]
struct Scratch<'a> {
    items: Vec<Json<'a>>,
    entries: Vec<(&'a str, Json<'a>)>,
}

struct Node<'s, 'a> {
    bump: &'a Bump,
    scratch: &'s mut Scratch<'a>,
    /// How many more levels of arrays and objects may open here.
    levels: usize,
}

impl<'a> Node<'_, 'a> {
    fn child(&mut self) -> Node<'_, 'a> {
        Node {
            bump: self.bump,
            scratch: &mut *self.scratch,
            levels: self.levels,
        }
    }

    /// Opens an array or object here: one level fewer for what it holds.
    fn open<E: de::Error>(&mut self) -> Result<(), E> {
        match self.levels.checked_sub(1) {
            Some(levels) => {
                self.levels = levels;
                Ok(())
            }
            None => Err(E::custom("arrays and objects nest too deep")),
        }
    }
}

impl<'de: 'a, 'a> DeserializeSeed<'de> for Node<'_, 'a> {
    type Value = Json<'a>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Json<'a>, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for Node<'_, 'a> {
    type Value = Json<'a>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json<'a>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json<'a>, E> {
        Ok(Json::Number(if n < 0 {
            Num::NegInt(n)
        } else {
            Num::PosInt(n as u64)
        }))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json<'a>, E> {
        Ok(Json::Number(Num::PosInt(n)))
    }

    fn visit_f64<E>(self, f: f64) -> Result<Json<'a>, E> {
        // As `Value` does: a float that is not finite is null.
        Ok(if f.is_finite() {
            Json::Number(Num::Float(f))
        } else {
            Json::Null
        })
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'a>, E> {
        Ok(Json::String(s))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json<'a>, E> {
        Ok(Json::String(self.bump.alloc_str(s)))
    }

    fn visit_unit<E>(self) -> Result<Json<'a>, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json<'a>, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Json<'a>, A::Error> {
        self.open()?;
        let start = self.scratch.items.len();
        while let Some(item) = seq.next_element_seed(self.child())? {
            self.scratch.items.push(item);
        }
        let items = self
            .bump
            .alloc_slice_fill_iter(self.scratch.items.drain(start..));
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Json<'a>, A::Error> {
        self.open()?;
        let start = self.scratch.entries.len();
        while let Some(key) = map.next_key_seed(Key(self.bump))? {
            let value = map.next_value_seed(self.child())?;
            self.scratch.entries.push((key, value));
        }
        Ok(Json::Object(take_fields(
            &mut self.scratch.entries,
            start,
            self.bump,
        )))
    }
}

/// The entries from `start` on, taken out of `entries` as an object: sorted
/// by key, the last of equal keys kept.
fn take_fields<'a>(
    entries: &mut Vec<(&'a str, Json<'a>)>,
    start: usize,
    bump: &'a Bump,
) -> Fields<'a> {
    // Stable, so among equal keys the last one read is the last here.
    // Keys mostly differ in their first byte: compare it before the rest.
    entries[start..].sort_by(|a, b| {
        let (a, b) = (a.0.as_bytes(), b.0.as_bytes());
        a.first().cmp(&b.first()).then_with(|| a.cmp(b))
    });
    let mut kept = start;
    for i in start..entries.len() {
        if kept > start && entries[kept - 1].0 == entries[i].0 {
            entries[kept - 1] = entries[i];
        } else {
            entries[kept] = entries[i];
            kept += 1;
        }
    }
    entries.truncate(kept);
    let fields = bump.alloc_slice_copy(&entries[start..]);
    entries.truncate(start);
    Fields(fields)
}

/// An object key: borrowed from the text unless it has escapes.
struct Key<'a>(&'a Bump);

impl<'de: 'a, 'a> DeserializeSeed<'de> for Key<'a> {
    type Value = &'a str;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<&'a str, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for Key<'a> {
    type Value = &'a str;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<&'a str, E> {
        Ok(s)
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<&'a str, E> {
        Ok(self.0.alloc_str(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(text: &str) {
        let bump = Bump::new();
        let tree = parse(text, &bump).unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(tree.to_value(), value, "{text}");
        assert_eq!(from_value(&value, &bump).to_value(), value, "{text}");
    }

    #[test]
    fn nesting_is_bounded_where_asked() {
        let bump = Bump::new();
        for (text, deepest) in [
            ("1", 0),
            ("[]", 1),
            (r#"{"a": [1, {"b": []}], "c": {}}"#, 4),
            (r#"[[], [[{"x": "[[[["}]]]"#, 4),
        ] {
            assert!(parse_within(text, &bump, deepest).is_ok(), "{text}");
            if deepest > 0 {
                assert!(parse_within(text, &bump, deepest - 1).is_err(), "{text}");
            }
        }
        // In two parts, nesting is bounded as in one: a part that reads
        // past the bound counts for nothing.
        let text = r#"{"tools": [{"a": 1}, {"a": [[1]]}, {"b": 2}], "x": [3]}"#;
        for levels in 0..7 {
            let (first, mut second) = (Bump::new(), Bump::new());
            let split = parse_split(text, &first, &mut second, levels).map(|j| j.to_value());
            let whole = parse_within(text, &bump, levels).ok().map(|j| j.to_value());
            assert_eq!(split, whole, "{levels}");
        }
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            r#"{"b": [1, -2, 2.5, 1e300, 18446744073709551615, -9223372036854775808], "a": null}"#,
            r#"{"k": 1, "k": 2, "j": {"x": "\u00e9\n", "x\"y": true}}"#,
            r#"[[], {}, "", "a\\b", 0, -0, 0.1]"#,
            "123456789012345678901234567890",
        ] {
            round_trip(text);
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses_in_its_words() {
        for text in ["[1e400]", "{\"a\": }", "[1,]", "\"\\x\"", "{} {}", ""] {
            let ours = parse(text, &Bump::new()).unwrap_err().to_string();
            let theirs = serde_json::from_str::<Value>(text).unwrap_err().to_string();
            assert_eq!(ours, theirs, "{text}");
        }
    }

    #[test]
    fn a_list_read_in_two_parts_is_the_list_read_whole() {
        crate::parallel::two_threads();
        let many = format!(
            "{{\"tools\": [{}], \"nextCursor\": null}}",
            (0..400)
                .map(|i| format!(
                    r#"{{"name": "t{i}", "s": {{"anyOf": [{{"a": 1}},{{"b": "}},{{"}}]}}}}"#
                ))
                .collect::<Vec<_>>()
                .join(",")
        );
        for text in [
            r#"[{"a": [1, 2, 3]}, 2, [3, [4]], "four", null]"#,
            r#"{"next": [1, 2], "tools": [0, {"x": [1, 2]}, 2, 3], "z": 1}"#,
            r#"{"tools": [{"a": 1}, {"b": 2}], "tools": [{"c": 3},{"d": 4},{"e": 5}]}"#,
            r#"{"tools": [{"a": "},{"}, {"b": [{"c": 1},{"d": 2}]}, {"e": 3}], "z": [{"f": 1},{"g": 2}]}"#,
            r#"{"tools": {"not": "a list"}}"#,
            r#"{"other": 1}"#,
            "[]",
            "7",
            &many,
        ] {
            let whole = parse(text, &Bump::new()).unwrap().to_value();
            // Each run of threads may split it elsewhere, or not at all.
            for _ in 0..20 {
                let (first, mut second) = (Bump::new(), Bump::new());
                let split = parse_split(text, &first, &mut second, usize::MAX);
                assert_eq!(split.map(|j| j.to_value()).as_ref(), Some(&whole), "{text}");
            }
        }
    }

    #[test]
    fn later_keys_win_and_objects_are_sorted() {
        let bump = Bump::new();
        let tree = parse(r#"{"z": 1, "a": 2, "z": 3}"#, &bump).unwrap();
        let Json::Object(fields) = tree else {
            panic!("{tree:?}")
        };
        assert_eq!(
            fields.iter().map(|(k, _)| k).collect::<Vec<_>>(),
            ["a", "z"]
        );
        assert_eq!(fields.get("z").unwrap().as_u64(), Some(3));
    }

    #[test]
    fn pointers_follow_serde_json() {
        let value = json!({"a/b": {"c~d": [10, 20]}, "": 1, "01": 2});
        let bump = Bump::new();
        let tree = from_value(&value, &bump);
        for pointer in [
            "",
            "/a~1b",
            "/a~1b/c~0d/1",
            "/a~1b/c~0d/01",
            "/a~1b/c~0d/+1",
            "/",
            "/01",
            "x",
            "/a~1b/c~0d/2",
        ] {
            assert_eq!(
                tree.pointer(pointer).map(|j| j.to_value()),
                value.pointer(pointer).cloned(),
                "{pointer}"
            );
        }
    }

    /// Past [`RECURSE_LEVELS`], the conversion goes on without recursion:
    /// both ways give the same tree, keys sorted, at every depth.
    #[test]
    fn the_recursive_and_the_iterative_conversion_agree() {
        let mut value = json!({"leaf": [1, -2, 2.5, null, true, "s"]});
        for level in 0..(RECURSE_LEVELS * 3) {
            value = if level % 2 == 0 {
                json!({"z": level, "inner": value, "a": [level, {"b": "c"}]})
            } else {
                json!([value, {"y": {}}, []])
            };
        }
        let bump = Bump::new();
        assert_eq!(from_value(&value, &bump).to_value(), value);
        assert_eq!(from_value_deep(&value, &bump).to_value(), value);
        assert_eq!(
            crate::canonical::to_canonical(&from_value(&value, &bump), None),
            crate::canonical::to_canonical(&from_value_deep(&value, &bump), None)
        );
    }

    #[test]
    fn deep_trees_convert_without_recursion() {
        let depth = 50_000;
        let text = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        // Parsing recurses (callers bound it); run it on a deep stack.
        let value = std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(s, || parse(&text, &Bump::new()).unwrap().to_value())
                .unwrap()
                .join()
                .unwrap()
        });
        let bump = Bump::new();
        let again = from_value(&value, &bump);
        assert_eq!(crate::canonical::to_canonical(&again, None), text);
        // Drop iteratively, so the test thread's stack is not the limit.
        let mut cur = value;
        while let Value::Array(mut items) = cur {
            cur = items.pop().unwrap_or(Value::Null);
        }
        // The same for objects, built without recursion.
        let mut value = json!(1);
        for _ in 0..depth {
            // (`json!` would copy `value` by serialising it, recursively.)
            let mut map = Map::new();
            map.insert("b".to_owned(), json!([]));
            map.insert("a".to_owned(), value);
            value = Value::Object(map);
        }
        let again = from_value(&value, &bump);
        let canonical = crate::canonical::to_canonical(&again, None);
        assert!(canonical.starts_with(r#"{"a":{"a":"#) && canonical.ends_with(r#"},"b":[]}"#));
        let mut cur = value;
        while let Value::Object(mut map) = cur {
            cur = map.remove("a").unwrap_or(Value::Null);
        }
    }
}
