//! A reader for the usual tool list, straight from its bytes into the arena.
//!
//! serde_json's deserializer reads a value through a visitor, one call per
//! value. This reader walks the bytes with its own stack and finds the ends
//! of strings eight bytes at a time. A long list is read in two parts at
//! once (see [`parse_first`] and [`parse_second`]): each part reads only its
//! own tools.
//!
//! It reads only what it can read exactly as serde_json does, and gives up
//! (`None`) on anything else: bad JSON, nesting past the caller's bound, an
//! escaped lone surrogate, a number that is not a plain integer. A number
//! that is not plain is read by serde_json itself, so floats keep serde_json's
//! rounding. The caller then reads the text with serde_json, whose result or
//! error is the answer. So for every text this reader accepts, the tree is
//! the one serde_json's reading would give, and everything else is judged by
//! serde_json in its own words.

use super::{Fields, Json, Node, Num, Scratch, take_fields};
use bumpalo::Bump;
use serde::de::DeserializeSeed;

/// The tree of `text`, built as [`super::parse_within`] builds it with
/// serde_json, or `None` where this reader leaves the text to serde_json.
pub(super) fn parse<'a>(text: &'a str, bump: &'a Bump, levels: usize) -> Option<Json<'a>> {
    Reader::new(text, bump, 0).read(Place::Whole, levels)
}

/// Where a value sits, for reading a tool list in two parts: the list's
/// array is the top level, or the value of a top-level `tools`.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// Anywhere else.
    Whole,
    /// The top level of a tool list.
    ListRoot,
    /// The value of the top-level `tools`.
    ListTools,
}

impl Place {
    /// The place of the value under `key` in an object here.
    fn under(self, key: &str) -> Place {
        match self {
            Place::ListRoot if key == "tools" => Place::ListTools,
            _ => Place::Whole,
        }
    }
}

/// The tools that [`parse_second`] read: the elements of the list from the
/// one at `at` to its end, and the place of the `]` that closes it.
#[derive(Clone, Copy)]
pub(super) struct Part<'a> {
    pub(super) at: usize,
    items: &'a [Json<'a>],
    close: usize,
}

/// The first part of a tool list read in two: the list, as [`parse`] reads
/// it, except that at each element of the list after the first it asks
/// `second` (with where the element starts) for the part read by the second
/// thread. `None` means "ask again at the next element"; `Some` is the
/// answer, after which it asks no more. When the part starts at this very
/// element, its elements are taken as they are and the reading goes on at
/// the list's `]`; otherwise it reads the rest itself. So the second part's
/// elements are used only where this reading confirms that they are the
/// list's, and the tree is the one [`parse`] gives.
pub(super) fn parse_first<'a>(
    text: &'a str,
    bump: &'a Bump,
    levels: usize,
    second: &mut dyn FnMut(usize) -> Option<Option<Part<'a>>>,
) -> Option<Json<'a>> {
    let mut reader = Reader::new(text, bump, 0);
    reader.split = Some(second);
    reader.read(Place::ListRoot, levels)
}

/// Guesses [`parse_second`] makes at most before it gives up (it also
/// gives up once wrong guesses have read half the text).
const GUESSES: usize = 16;

/// The second part of a tool list read in two: the elements of the list
/// from the first one that seems to start at `from` or later, read with
/// `levels` left for each (or `None`). Where an element starts is a guess,
/// `},{` with whitespace around the comma (each told to `guessing` before
/// it is read): it must read as the elements of an array up to a `]` that
/// ends the list, with only the end of the top-level object after it. The guess can still be wrong (inside a
/// string, or inside another array at the end); [`parse_first`] confirms it.
/// Wrong guesses are bounded in number and in the text they read, so the
/// work stays linear in the text whatever it holds.
pub(super) fn parse_second<'a>(
    text: &'a str,
    bump: &'a Bump,
    levels: usize,
    from: usize,
    guessing: &mut dyn FnMut(usize),
) -> Option<Part<'a>> {
    let bytes = text.as_bytes();
    // The list's `]` gives back a level that no `[` here took.
    let levels = levels.min(usize::MAX - 1);
    let object = bytes.iter().find(|b| !is_whitespace(**b)) == Some(&b'{');
    let (mut at, mut spent) = (from, 0usize);
    for _ in 0..GUESSES {
        let start = element_start(bytes, at)?;
        guessing(start);
        let mut reader = Reader::new(text, bump, start);
        reader.partial = true;
        reader.frames.push(Frame::Array {
            start: 0,
            list: false,
        });
        if let Some(Json::Array(items)) = reader.read(Place::Whole, levels) {
            let close = reader.pos - 1;
            if reader.ends_list(object, levels) {
                return Some(Part {
                    at: start,
                    items,
                    close,
                });
            }
        }
        spent += reader.pos - start;
        if spent > text.len() / 2 {
            return None;
        }
        at = start + 1;
    }
    None
}

fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\t' | b'\r')
}

/// The first `{` at `from` or later that follows `}` and a comma, with
/// whitespace between: where an element of a list of objects may start.
fn element_start(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        let open = at + bytes.get(at..)?.iter().position(|&b| b == b'{')?;
        let before = |end: usize| bytes[..end].iter().rposition(|&b| !is_whitespace(b));
        if let Some(comma) = before(open)
            && bytes[comma] == b','
            && before(comma).is_some_and(|close| bytes[close] == b'}')
        {
            return Some(open);
        }
        at = open + 1;
    }
}

/// An array or object being read.
enum Frame<'a> {
    /// Its items so far are `items[start..]`; `list` tells whether it is
    /// the tool list.
    Array { start: usize, list: bool },
    /// Its entries so far are `entries[start..]`; `key` is the key of the
    /// value being read.
    Object {
        start: usize,
        place: Place,
        key: &'a str,
    },
}

struct Reader<'a, 's> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    bump: &'a Bump,
    items: Vec<Json<'a>>,
    entries: Vec<(&'a str, Json<'a>)>,
    frames: Vec<Frame<'a>>,
    /// A string with escapes, as it reads once they are replaced.
    unescaped: String,
    /// Asked at the list's elements for the second part, until it answers
    /// (see [`parse_first`]).
    split: Option<&'s mut dyn FnMut(usize) -> Option<Option<Part<'a>>>>,
    /// Whether a value that closes every frame ends the reading, wherever
    /// it ends (otherwise only the end of the text may follow it).
    partial: bool,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` that equals `byte` (exact for the
/// lowest one; bytes above it may be flagged falsely).
fn bytes_equal(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The high bit of each byte of `word` below 0x20 (exact for the lowest
/// one; bytes above it may be flagged falsely).
fn bytes_below_space(word: u64) -> u64 {
    word.wrapping_sub(ONES * 0x20) & !word & HIGHS
}

impl<'a, 's> Reader<'a, 's> {
    fn new(text: &'a str, bump: &'a Bump, pos: usize) -> Self {
        Reader {
            text,
            bytes: text.as_bytes(),
            pos,
            bump,
            items: Vec::new(),
            entries: Vec::new(),
            frames: Vec::new(),
            unescaped: String::new(),
            split: None,
            partial: false,
        }
    }

    /// The second part's elements, when it is ready at the element about to
    /// be read (after whitespace) and starts right there.
    fn second_part(&mut self) -> Option<(&'a [Json<'a>], usize)> {
        self.split.as_ref()?;
        self.skip_whitespace();
        let answer = (self.split.as_mut()?)(self.pos)?;
        self.split = None;
        let part = answer?;
        (part.at == self.pos).then_some((part.items, part.close))
    }

    /// Whether what follows a list's `]` ends the text: nothing, or the
    /// rest of the top-level object when the list is its `tools`.
    fn ends_list(&mut self, object: bool, levels: usize) -> bool {
        if object {
            loop {
                match self.next_token() {
                    Some(b'}') => break,
                    Some(b',') if self.key().is_some() => {
                        let mut value = Reader::new(self.text, self.bump, self.pos);
                        value.partial = true;
                        let read = value.read(Place::Whole, levels).is_some();
                        self.pos = value.pos;
                        if !read {
                            return false;
                        }
                    }
                    _ => return false,
                }
            }
        }
        self.skip_whitespace();
        self.pos == self.bytes.len()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(is_whitespace) {
            self.pos += 1;
        }
    }

    /// The next byte after whitespace, consumed.
    fn next_token(&mut self) -> Option<u8> {
        self.skip_whitespace();
        let byte = self.peek()?;
        self.pos += 1;
        Some(byte)
    }

    fn read(&mut self, mut place: Place, mut levels: usize) -> Option<Json<'a>> {
        'value: loop {
            let mut value = match self.next_token()? {
                b'{' => {
                    levels = levels.checked_sub(1)?;
                    if self.next_token()? == b'}' {
                        levels += 1;
                        Json::Object(Fields::EMPTY)
                    } else {
                        self.pos -= 1;
                        let key = self.key()?;
                        self.frames.push(Frame::Object {
                            start: self.entries.len(),
                            place,
                            key,
                        });
                        place = place.under(key);
                        continue 'value;
                    }
                }
                b'[' => {
                    levels = levels.checked_sub(1)?;
                    self.skip_whitespace();
                    if self.peek()? == b']' {
                        self.pos += 1;
                        levels += 1;
                        Json::Array(&[])
                    } else {
                        self.frames.push(Frame::Array {
                            start: self.items.len(),
                            list: place != Place::Whole,
                        });
                        place = Place::Whole;
                        continue 'value;
                    }
                }
                b'"' => Json::String(self.string()?),
                b't' => self.literal(b"rue", Json::Bool(true))?,
                b'f' => self.literal(b"alse", Json::Bool(false))?,
                b'n' => self.literal(b"ull", Json::Null)?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return None,
            };
            // Hand the value to what holds it, closing every array and
            // object it completes, until one asks for another value.
            loop {
                match self.frames.last_mut() {
                    None => {
                        if self.partial {
                            return Some(value);
                        }
                        self.skip_whitespace();
                        return (self.pos == self.bytes.len()).then_some(value);
                    }
                    Some(&mut Frame::Array { start, list }) => {
                        self.items.push(value);
                        match self.next_token()? {
                            b',' => {
                                if list
                                    && let Some((items, close)) = self.second_part()
                                    && let Some((last, before)) = items.split_last()
                                {
                                    // The rest of the list, read by the
                                    // second part: on to its `]`.
                                    self.items.extend_from_slice(before);
                                    value = *last;
                                    self.pos = close;
                                    continue;
                                }
                                place = Place::Whole;
                                continue 'value;
                            }
                            b']' => {
                                self.frames.pop();
                                levels += 1;
                                let items = self.bump.alloc_slice_copy(&self.items[start..]);
                                self.items.truncate(start);
                                value = Json::Array(items);
                            }
                            _ => return None,
                        }
                    }
                    Some(Frame::Object {
                        start,
                        place: object_place,
                        key,
                    }) => {
                        self.entries.push((*key, value));
                        let (start, object_place) = (*start, *object_place);
                        match self.next_token()? {
                            b',' => {
                                let next_key = self.key()?;
                                if let Some(Frame::Object { key, .. }) = self.frames.last_mut() {
                                    *key = next_key;
                                }
                                place = object_place.under(next_key);
                                continue 'value;
                            }
                            b'}' => {
                                self.frames.pop();
                                levels += 1;
                                value =
                                    Json::Object(take_fields(&mut self.entries, start, self.bump));
                            }
                            _ => return None,
                        }
                    }
                }
            }
        }
    }

    /// A key and the colon after it.
    fn key(&mut self) -> Option<&'a str> {
        if self.next_token()? != b'"' {
            return None;
        }
        let key = self.string()?;
        (self.next_token()? == b':').then_some(key)
    }

    fn literal(&mut self, rest: &[u8], value: Json<'a>) -> Option<Json<'a>> {
        let end = self.pos + rest.len();
        (self.bytes.get(self.pos..end)? == rest).then(|| {
            self.pos = end;
            value
        })
    }

    /// The position of the next `"`, `\` or control character from `from`.
    fn string_stop(&self, from: usize) -> Option<usize> {
        self.find(
            from,
            |word| bytes_equal(word, b'"') | bytes_equal(word, b'\\') | bytes_below_space(word),
            |b| matches!(b, b'"' | b'\\' | 0..0x20),
        )
    }

    /// The first position from `from` of a byte that `flags` flags in a
    /// word of eight (its lowest flag exact) and `is` accepts alone.
    fn find(
        &self,
        from: usize,
        flags: impl Fn(u64) -> u64,
        is: impl Fn(u8) -> bool,
    ) -> Option<usize> {
        let mut at = from;
        while let Some(chunk) = self.bytes.get(at..at + 8) {
            let found = flags(u64::from_le_bytes(chunk.try_into().ok()?));
            if found != 0 {
                return Some(at + (found.trailing_zeros() / 8) as usize);
            }
            at += 8;
        }
        (at..self.bytes.len()).find(|&i| is(self.bytes[i]))
    }

    /// A string whose opening quote has been read, borrowed from the text
    /// unless it has escapes.
    fn string(&mut self) -> Option<&'a str> {
        let start = self.pos;
        let stop = self.string_stop(start)?;
        match self.bytes[stop] {
            b'"' => {
                self.pos = stop + 1;
                self.text.get(start..stop)
            }
            b'\\' => {
                self.unescaped.clear();
                self.unescaped.push_str(self.text.get(start..stop)?);
                self.pos = stop;
                self.escaped()
            }
            _ => None,
        }
    }

    /// The rest of a string with escapes, from the escape at `pos`.
    fn escaped(&mut self) -> Option<&'a str> {
        loop {
            match *self.bytes.get(self.pos)? {
                b'"' => {
                    self.pos += 1;
                    return Some(self.bump.alloc_str(&self.unescaped));
                }
                b'\\' => {
                    let byte = *self.bytes.get(self.pos + 1)?;
                    self.pos += 2;
                    let c = match byte {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return None,
                    };
                    self.unescaped.push(c);
                }
                0..0x20 => return None,
                _ => {
                    let stop = self.string_stop(self.pos)?;
                    self.unescaped.push_str(self.text.get(self.pos..stop)?);
                    self.pos = stop;
                }
            }
        }
    }

    /// The character of a `\u` escape whose `\u` has been read; a surrogate
    /// pair makes one character, and a lone surrogate is left to serde_json.
    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex4()?;
        match first {
            0xD800..=0xDBFF => {
                if self.bytes.get(self.pos..self.pos + 2)? != b"\\u" {
                    return None;
                }
                self.pos += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return None;
                }
                char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            }
            _ => char::from_u32(first),
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.bytes.get(self.pos..self.pos + 4)?;
        let mut n = 0;
        for &d in digits {
            n = n * 16 + char::from(d).to_digit(16)?;
        }
        self.pos += 4;
        Some(n)
    }

    /// A number from its first byte (already read). A plain integer is read
    /// here; any other is read by serde_json, for its exact rounding.
    fn number(&mut self) -> Option<Json<'a>> {
        let start = self.pos - 1;
        let negative = self.bytes[start] == b'-';
        let digits_start = if negative { self.pos } else { start };
        let mut end = digits_start;
        while let Some(b'0'..=b'9') = self.bytes.get(end) {
            end += 1;
        }
        let digits = &self.bytes[digits_start..end];
        let plain = !matches!(self.bytes.get(end), Some(b'.' | b'e' | b'E'))
            && (digits.len() == 1 || digits.first() != Some(&b'0'))
            && (1..=18).contains(&digits.len())
            // -0 is a float to serde_json.
            && !(negative && digits == b"0");
        if plain {
            self.pos = end;
            let n = digits
                .iter()
                .fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
            return Some(Json::Number(if negative {
                Num::NegInt(-(n as i64))
            } else {
                Num::PosInt(n)
            }));
        }
        while let Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') = self.bytes.get(end) {
            end += 1;
        }
        self.pos = end;
        let mut de = serde_json::Deserializer::from_str(self.text.get(start..end)?);
        let number = Node {
            bump: self.bump,
            scratch: &mut Scratch::default(),
            levels: 0,
        }
        .deserialize(&mut de)
        .ok()?;
        de.end().ok()?;
        Some(number)
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_with_serde;
    use super::*;
    use proptest::prelude::*;

    /// A JSON value as a test writes it: objects may repeat keys.
    #[derive(Debug, Clone)]
    enum Tree {
        Null,
        Bool(bool),
        Int(i64),
        UInt(u64),
        Float(f64),
        Str(String),
        Arr(Vec<Tree>),
        Obj(Vec<(String, Tree)>),
    }

    /// How a tree is written: `seed` picks which characters are escaped,
    /// where whitespace goes and how floats are spelled.
    fn write(tree: &Tree, seed: u32, out: &mut String) {
        let space = |out: &mut String, at: usize| {
            if (seed as usize + at).is_multiple_of(3) {
                out.push_str([" ", "\n  ", "\t", "\r\n"][(seed as usize + at) % 4]);
            }
        };
        match tree {
            Tree::Null => out.push_str("null"),
            Tree::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Tree::Int(n) => out.push_str(&n.to_string()),
            Tree::UInt(n) => out.push_str(&n.to_string()),
            Tree::Float(f) if seed.is_multiple_of(2) => out.push_str(&format!("{f:e}")),
            Tree::Float(f) => out.push_str(&format!("{f:?}")),
            Tree::Str(s) => write_str(s, seed, out),
            Tree::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    space(out, i);
                    write(item, seed.wrapping_add(i as u32), out);
                }
                space(out, items.len());
                out.push(']');
            }
            Tree::Obj(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    space(out, i);
                    write_str(k, seed, out);
                    space(out, i + 1);
                    out.push(':');
                    write(v, seed.wrapping_add(i as u32), out);
                }
                out.push('}');
            }
        }
    }

    fn write_str(s: &str, seed: u32, out: &mut String) {
        out.push('"');
        for (i, c) in s.chars().enumerate() {
            let escape = (seed as usize + i).is_multiple_of(4);
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' if escape => out.push_str("\\n"),
                '/' if escape => out.push_str("\\/"),
                c if (c as u32) < 0x20 || escape => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        out.push_str(&format!("\\u{unit:04X}"));
                    }
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }

    fn tree() -> impl Strategy<Value = Tree> {
        let key = prop_oneof![
            Just("tools".to_owned()),
            Just("a".to_owned()),
            Just("b".to_owned()),
            Just("]} \"[{\\".to_owned()),
            any::<String>()
        ];
        let leaf = prop_oneof![
            Just(Tree::Null),
            any::<bool>().prop_map(Tree::Bool),
            any::<i64>().prop_map(Tree::Int),
            any::<u64>().prop_map(Tree::UInt),
            (-1e300f64..1e300).prop_map(Tree::Float),
            Just(Tree::Float(-0.0)),
            any::<String>().prop_map(Tree::Str),
            "[\\[\\]{}\"\\\\, :a]{0,12}".prop_map(Tree::Str),
        ];
        leaf.prop_recursive(5, 48, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Tree::Arr),
                prop::collection::vec((key.clone(), inner), 0..6).prop_map(Tree::Obj),
            ]
        })
    }

    /// The fast reading and serde_json's of `text`, whole, as text that
    /// shows every difference (a float's sign and bits, a key's place).
    fn both(text: &str, levels: usize) -> (Option<String>, Option<String>) {
        let bump = Bump::new();
        let fast = parse(text, &bump, levels).map(|json| format!("{json:?}"));
        let serde = parse_with_serde(text, &bump, levels).ok();
        (fast, serde.map(|json| format!("{json:?}")))
    }

    /// The fast reading of `text` as a list in two parts, the second sought
    /// from `from` on and taken at the first element there, and whether it
    /// was taken.
    fn in_two(text: &str, levels: usize, from: usize) -> (Option<String>, bool) {
        let (first, second) = (Bump::new(), Bump::new());
        let mut part = Some(parse_second(
            text,
            &second,
            levels.saturating_sub(2),
            from,
            &mut |_| {},
        ));
        let mut taken = false;
        let json = parse_first(text, &first, levels, &mut |at| {
            if at < from {
                return None;
            }
            let part = part.take()?;
            taken = part.is_some_and(|part| part.at == at);
            Some(part)
        });
        (json.map(|json| format!("{json:?}")), taken)
    }

    /// Every place a second part may be sought from in `text`: each byte of
    /// a short text, some hundred of a long one.
    fn places(text: &str) -> impl Iterator<Item = usize> {
        let step = (text.len() / 100).max(1);
        (0..=text.len()).step_by(step)
    }

    proptest! {
        #[test]
        fn reads_valid_text_as_serde_json_reads_it(tree in tree(), seed in any::<u32>()) {
            let mut text = String::new();
            write(&tree, seed, &mut text);
            let (fast, serde) = both(&text, usize::MAX);
            prop_assert!(serde.is_some(), "serde_json refused {text}");
            // Valid text without lone surrogates or huge numbers is read
            // here, not left to serde_json.
            prop_assert!(fast.is_some(), "left to serde_json: {text}");
            prop_assert_eq!(&fast, &serde, "{}", text);
            for from in places(&text) {
                prop_assert_eq!(&in_two(&text, usize::MAX, from).0, &serde, "{} from {}", text, from);
            }
        }

        #[test]
        fn reads_tool_lists_in_two_parts_as_serde_json_reads_them(
            tools in prop::collection::vec(prop::collection::vec((any::<String>(), tree()), 0..4), 0..12),
            wrapped in any::<bool>(),
            seed in any::<u32>(),
        ) {
            let count = tools.len();
            let list = Tree::Arr(tools.into_iter().map(Tree::Obj).collect());
            let tree = if wrapped {
                Tree::Obj(vec![("tools".to_owned(), list), ("nextCursor".to_owned(), Tree::Null)])
            } else {
                list
            };
            let mut text = String::new();
            write(&tree, seed, &mut text);
            let (_, serde) = both(&text, usize::MAX);
            let mut taken = false;
            for from in places(&text) {
                let (fast, here) = in_two(&text, usize::MAX, from);
                prop_assert!(fast.is_some(), "left to serde_json: {text}");
                prop_assert_eq!(&fast, &serde, "{} from {}", text, from);
                taken |= here;
            }
            // A list of two objects or more is split somewhere.
            prop_assert!(taken || count < 2, "never split: {text}");
        }

        #[test]
        fn what_it_reads_of_broken_text_is_what_serde_json_reads(
            tree in tree(),
            seed in any::<u32>(),
            at in any::<prop::sample::Index>(),
            edit in 0..3u8,
            byte in prop::sample::select(b"{}[],:\"\\ 0-.eE1tfnu\n\x01".to_vec()),
        ) {
            let mut text = String::new();
            write(&tree, seed, &mut text);
            let mut bytes = text.into_bytes();
            let at = at.index(bytes.len() + 1);
            match edit {
                0 => bytes.insert(at, byte),
                1 if at < bytes.len() => { bytes.remove(at); }
                _ if at < bytes.len() => bytes[at] = byte,
                _ => bytes.push(byte),
            }
            let Ok(text) = String::from_utf8(bytes) else { return Ok(()) };
            for levels in [usize::MAX, 2] {
                let (fast, serde) = both(&text, levels);
                if fast.is_some() {
                    prop_assert_eq!(&fast, &serde, "{}", text);
                }
                for from in places(&text) {
                    let (split, _) = in_two(&text, levels, from);
                    if split.is_some() {
                        prop_assert_eq!(&split, &serde, "{} from {}", text, from);
                    }
                }
            }
        }
    }

    #[test]
    fn edge_cases_are_read_as_serde_json_reads_them_or_left_to_it() {
        for text in [
            "-0",
            "0",
            "-1",
            "999999999999999999",
            "-999999999999999999",
            "9999999999999999999",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1e400",
            "01",
            "1.",
            "1.5e+3",
            "[1e5e3]",
            "\"\\ud83d\\ude00\"",
            "\"\\ud83d\"",
            "\"\\ude00\"",
            "\"\\ud83d\\u0041\"",
            "\"a\u{1}b\"",
            "\"\\x\"",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "[tru]",
            "nul",
            "[] x",
            "\u{feff}[]",
            r#"{"tools": [{"a": "x\"]"}, [1, [2]], "}", 3], "z": {"k": "v", "k": [0]}}"#,
        ] {
            for levels in [usize::MAX, 3, 1, 0] {
                let (fast, serde) = both(text, levels);
                if fast.is_some() {
                    assert_eq!(fast, serde, "{text}");
                }
                for from in places(text) {
                    let (split, _) = in_two(text, levels, from);
                    if split.is_some() {
                        assert_eq!(split, serde, "{text} from {from}");
                    }
                }
            }
        }
        // A number that is no plain integer is read by serde_json.
        let zero = parse("-0", &Bump::new(), 0).map(|json| format!("{json:?}"));
        assert_eq!(zero.as_deref(), Some("Number(Float(-0.0))"));
        // What is left to serde_json, which refuses it.
        for text in ["1e400", "\"\\ud83d\"", "01", "[1,]"] {
            assert_eq!(
                parse(text, &Bump::new(), usize::MAX).map(|_| ()),
                None,
                "{text}"
            );
        }
        // A control character makes a string invalid wherever it falls in
        // the words read eight at a time, and an escape is found wherever
        // it falls too.
        for n in 0..48 {
            let pad = "x".repeat(n);
            for raw in ['\u{1}', '\n', '\u{1f}'] {
                // Before any escape, after one, and in a tool of each half.
                for text in [
                    format!("\"{pad}{raw}tail\""),
                    format!("\"\\n{pad}{raw}tail\""),
                    format!("[\"ok\", \"\\t{pad}{raw}\", \"{pad}{raw}\\t\"]"),
                ] {
                    // Whole, and in two parts split anywhere.
                    assert_eq!(both(&text, usize::MAX), (None, None), "{text:?}");
                    for from in places(&text) {
                        assert_eq!(in_two(&text, usize::MAX, from).0, None, "{text:?}");
                    }
                }
            }
            let text = format!("[\"{pad}\\n{pad}\", \"{pad}\"]");
            let (fast, serde) = both(&text, usize::MAX);
            assert!(fast.is_some(), "{text}");
            assert_eq!(fast, serde, "{text}");
        }
        // Guesses inside a string, or inside an array of objects within a
        // tool, are refused; the list is split at its own elements.
        let text = r#"{"tools": [{"a": "},{\"x\": 1}]}"}, {"b": [{"c": 1},{"d": 2}]}, {"e": 3}], "z": [{"f": 1},{"g": 2}]}"#;
        let serde = both(text, usize::MAX).1;
        let mut taken = Vec::new();
        for from in 0..=text.len() {
            let (split, here) = in_two(text, usize::MAX, from);
            assert_eq!(split, serde, "from {from}");
            if here {
                taken.push(from);
            }
        }
        // Taken wherever an element of the list after the first starts at
        // or after the place sought from: the `{"b"` one from anywhere up to
        // it, past the guess in the string; the `{"e"` one from past `{"b"`,
        // past the guess at `{"d"` in its array. From past `{"e"`, the only
        // guess left is in `z`, which the list never reaches.
        let e = text.find(r#"{"e""#).unwrap();
        assert_eq!(taken, (0..=e).collect::<Vec<_>>());
        // A tool longer than half the text, full of guesses that fail only
        // at its end: the second part gives up after reading at most half
        // of it again, and the list is read by the first alone.
        let members = vec![r#"{"x": 1}"#; 20_000].join(",");
        let text = format!(r#"[{{"anyOf": [{members}], "more": 1}}, {{"y": 2}}]"#);
        let second = Bump::new();
        assert!(parse_second(&text, &second, usize::MAX, text.len() / 4, &mut |_| {}).is_none());
        // The tree of one wrong guess over three quarters of the text (some
        // six bytes for each of its bytes), not of a second one.
        assert!(second.allocated_bytes() < text.len() * 8);
        let (split, taken) = in_two(&text, usize::MAX, text.len() / 4);
        assert!(!taken);
        assert_eq!(split, both(&text, usize::MAX).1);
    }
}
