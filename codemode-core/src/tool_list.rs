//! Reading a tool list: an array of MCP tools, or a `tools/list` result.

use crate::json::{self, Json};
use crate::prefetch::Footprint;
use crate::schema::ToolSource;
use crate::tool::ToolDef;
use bumpalo::Bump;
use serde_json::Value;
use std::fmt;
use std::ops::ControlFlow;

/// Deepest JSON nesting accepted; deeper input is refused with its position
/// rather than risking the parser's stack.
pub const MAX_NESTING: usize = 100_000;

/// Why an input could not be read as a tool list. Its `Display` names the
/// source and the place.
#[derive(Debug, PartialEq)]
pub struct ToolListError {
    /// The file name, or `<stdin>`.
    pub source: String,
    /// Line and column (1-based), for errors in the JSON text itself.
    pub position: Option<(usize, usize)>,
    /// What is wrong, naming the tool by index where it is one tool.
    pub message: String,
}

impl fmt::Display for ToolListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.source, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
        }
    }
}

/// Parses `text` (named `source` in errors) into tool definitions: a JSON
/// array of MCP tools, or the result of MCP `tools/list` (an object with a
/// `tools` array; other keys are ignored). Only `name` and `inputSchema`
/// are required; a bad tool is named by its index.
///
/// Nesting past [`MAX_NESTING`] is refused with its place; input nested
/// deeply, though within that cap, needs a deep stack to parse.
///
/// ```
/// use codemode_core::parse_tool_list;
///
/// let tools = parse_tool_list("list.json", r#"{"tools": [{"name": "ping", "inputSchema": {}}], "nextCursor": null}"#).unwrap();
/// assert_eq!(tools[0].name, "ping");
/// let err = parse_tool_list("list.json", r#"[{"name": 7}]"#).unwrap_err();
/// assert_eq!(err.to_string(), "list.json: tool #0: `name` must be a string, found a number");
/// ```
pub fn parse_tool_list(source: &str, text: &str) -> Result<Vec<ToolDef>, ToolListError> {
    let mut arenas = Arenas::for_text(text);
    Ok(read_tools(source, text, &mut arenas)?
        .iter()
        .map(Listed::to_def)
        .collect())
}

/// Text about one tool long, the unit in which a list's length decides
/// whether to read it in halves.
const TOOLS_WORTH_OF_TEXT: usize = 1024;

/// Arenas for the trees of a tool list: one, or one for each half when the
/// list is long enough to read in halves at once.
pub(crate) struct Arenas {
    first: Bump,
    second: Option<Bump>,
}

impl Arenas {
    /// Arenas sized for the list in `text`.
    pub(crate) fn for_text(text: &str) -> Self {
        if crate::parallel::worth_halving(text.len() / TOOLS_WORTH_OF_TEXT) {
            // Each half's trees take about half of what the whole takes.
            let half = text.len().saturating_mul(5) / 4;
            Arenas {
                first: Bump::with_capacity(half),
                second: Some(Bump::with_capacity(half)),
            }
        } else {
            Arenas {
                first: json::arena_for(text),
                second: None,
            }
        }
    }
}

/// Nesting that the first reading of a list allows. Real tool lists nest a
/// few dozen levels; a list nested deeper than this is scanned for its
/// depth and read again (see [`read_tools`]), so the usual list is read
/// without a scan of its own, and no reading recurses deeper than this
/// before the scan has passed the text.
const SHALLOW: usize = 512;

/// The tools of the list in `text`, read as [`parse_tool_list`] reads them.
/// A long list is read in two parts at once ([`json::parse_split`]), each
/// thread building the tools of its part.
///
/// The first reading refuses nesting past [`SHALLOW`] levels. Only when it
/// fails (bad JSON, or deep JSON) is the text scanned for nesting past
/// [`MAX_NESTING`], which is refused with its place before any parser
/// recurses into it, and then read whole, to report the error in that
/// reading's words or to read the deep list.
pub(crate) fn read_tools<'a>(
    source: &str,
    text: &'a str,
    arenas: &'a mut Arenas,
) -> Result<Vec<Listed<'a>>, ToolListError> {
    // A byte-order mark is no JSON, but editors write one, and RFC 8259
    // lets a parser ignore it. Places are then counted as an editor shows
    // them, without it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first: &'a Bump = &arenas.first;
    let Some(second) = arenas.second.as_mut() else {
        if let Ok(list) = json::parse_within(text, first, SHALLOW) {
            return list_of(source, first.alloc(list), text);
        }
        check_depth(source, text)?;
        return read_whole(source, text, first);
    };
    match json::parse_split(text, first, second, SHALLOW) {
        Some(list) => list_of(source, first.alloc(list), text),
        None => {
            check_depth(source, text)?;
            read_whole(source, text, first)
        }
    }
}

/// The tools of the list in `text`, read in one pass, without a bound on
/// nesting: the caller has checked its depth.
fn read_whole<'a>(
    source: &str,
    text: &'a str,
    bump: &'a Bump,
) -> Result<Vec<Listed<'a>>, ToolListError> {
    // serde_json counts a column 0 before the first character of a line
    // (an empty input ends there); columns count from 1.
    let invalid = |e: serde_json::Error, column: usize| ToolListError {
        source: source.to_owned(),
        position: Some((e.line(), column.max(1))),
        message: format!("invalid JSON: {}", strip_position(&e.to_string())),
    };
    let (list, read) = match json::parse(text, bump) {
        Ok(list) => (list, text),
        // A lone surrogate's escape, which JSON admits and Rust strings
        // cannot hold: read as U+FFFD, each escape keeping its length.
        Err(_) if let Some(mended) = mend_lone_surrogates(text.as_bytes()) => {
            let mended = String::from_utf8(mended).unwrap_or_default();
            return read_whole(source, bump.alloc_str(&mended), bump);
        }
        // Valid JSON with a number past the largest double (`1e400`),
        // which JavaScript reads as Infinity: read as the largest double,
        // so that one such bound does not cost the whole list.
        Err(e) => match clamp_huge_numbers(text) {
            Some((clamped, edits)) => {
                let clamped = bump.alloc_str(&clamped);
                let list = json::parse(clamped, bump).map_err(|e| {
                    // The place in the text as given.
                    let (line, column) = (e.line(), e.column());
                    let shift: isize = (edits.iter())
                        .filter(|edit| edit.line == line && edit.end <= column)
                        .map(|edit| edit.longer_by)
                        .sum();
                    invalid(e, column.saturating_add_signed(-shift))
                })?;
                (list, &*clamped)
            }
            None => {
                let column = e.column();
                return Err(invalid(e, column));
            }
        },
    };
    list_of(source, bump.alloc(list), read)
}

/// Numbers at least this large are written as the largest double: every
/// number serde_json refuses as out of range is.
const NEAR_MAX: f64 = 1.797_693_134_862_315e308;

/// Whether `token` is a number by JSON's grammar: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
fn is_json_number(token: &str) -> bool {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = token.strip_prefix('-').unwrap_or(token);
    let int = digits(rest);
    if int == 0 || (int > 1 && rest.starts_with('0')) {
        return false;
    }
    let mut rest = &rest[int..];
    if let Some(fraction) = rest.strip_prefix('.') {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        rest = &fraction[n..];
    }
    if let Some(exponent) = rest.strip_prefix(['e', 'E']) {
        let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        let n = digits(exponent);
        if n == 0 {
            return false;
        }
        rest = &exponent[n..];
    }
    rest.is_empty()
}

/// `line` (JSON text, such as one message read off the wire) mended as a
/// tool list read from text is: every number too large for a double
/// written as the largest double of its sign, and every escaped lone
/// surrogate as U+FFFD (as JavaScript reads it); `None` when it needs
/// neither, or is not UTF-8.
pub fn mend_line(line: &[u8]) -> Option<String> {
    let mended = mend_lone_surrogates(line);
    let line = mended.as_deref().unwrap_or(line);
    let clamped = if may_hold_huge_number(line) {
        clamp_huge_numbers(std::str::from_utf8(line).ok()?).map(|(text, _)| text)
    } else {
        None
    };
    clamped.or_else(|| String::from_utf8(mended?).ok())
}

/// `text` with each `\u` escape of a lone UTF-16 surrogate (one that is
/// not half of a pair) written as `\ufffd`, the replacement character, as
/// JavaScript's `TextDecoder` reads such text; `None` when it has none.
/// JSON's grammar admits such escapes, and `JSON.stringify` writes them
/// for a string cut inside a pair, but Rust strings cannot hold them, so
/// serde_json refuses the whole text. An escape keeps its length, so
/// places in the text do not move.
pub(crate) fn mend_lone_surrogates(text: &[u8]) -> Option<Vec<u8>> {
    let escaped = |at: usize| -> Option<u16> {
        let digits = text.get(at..at + 6)?.strip_prefix(b"\\u")?;
        u16::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let mut mended: Option<Vec<u8>> = None;
    let mut at = 0;
    while let Some(found) = text.get(at..).and_then(|rest| memchr::memchr(b'\\', rest)) {
        let slash = at + found;
        at = slash + 2;
        let lone = match escaped(slash) {
            Some(0xD800..=0xDBFF) => match escaped(slash + 6) {
                Some(0xDC00..=0xDFFF) => {
                    at = slash + 12;
                    false
                }
                _ => true,
            },
            Some(0xDC00..=0xDFFF) => true,
            _ => false,
        };
        if lone {
            let out = mended.get_or_insert_with(|| text.to_vec());
            out[slash + 2..slash + 6].copy_from_slice(b"fffd");
            at = slash + 6;
        }
    }
    mended
}

/// Whether `bytes` might hold a number too large for a double: an exponent
/// right after a digit, or a run of more than 300 digits. A quick test
/// before [`clamp_huge_numbers`]: `false` is certain, `true` is only
/// possible (the digits may be inside a string).
fn may_hold_huge_number(bytes: &[u8]) -> bool {
    let mut run = 0usize;
    let mut previous = 0u8;
    for &byte in bytes {
        if byte.is_ascii_digit() {
            run += 1;
            if run > 300 {
                return true;
            }
        } else {
            if matches!(byte, b'e' | b'E') && (previous.is_ascii_digit() || previous == b'.') {
                return true;
            }
            run = 0;
        }
        previous = byte;
    }
    false
}

/// A number [`clamp_huge_numbers`] wrote anew.
struct Edit {
    /// Its line, from 1.
    line: usize,
    /// The column just past it in the new text, as serde_json counts
    /// columns (bytes, from 1).
    end: usize,
    /// How much longer it is than the number it replaced.
    longer_by: isize,
}

/// `text` with every number too large for a double (outside strings)
/// written as the largest double of its sign, and where; `None` when it
/// has none.
fn clamp_huge_numbers(text: &str) -> Option<(String, Vec<Edit>)> {
    const MAX: &str = "1.7976931348623157e308";
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut edits: Vec<Edit> = Vec::new();
    let (mut copied, mut i, mut line, mut line_start) = (0, 0, 1, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
                i += 1;
            }
            b'"' => {
                // Past the string, its escapes included (a string holds
                // no raw line break).
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                {
                    i += 1;
                }
                let number = &text[start..i];
                // serde_json refuses numbers a little below the largest
                // double too (it rounds less exactly), so those are written
                // as it as well; a token that is no JSON number is left for
                // the error.
                if is_json_number(number)
                    && number.parse::<f64>().is_ok_and(|v| v.abs() >= NEAR_MAX)
                {
                    let sign = if number.starts_with('-') { "-" } else { "" };
                    out.push_str(&text[copied..start]);
                    out.push_str(sign);
                    out.push_str(MAX);
                    copied = i;
                    let longer_by = (sign.len() + MAX.len()) as isize - number.len() as isize;
                    let shift: isize = (edits.iter().rev())
                        .take_while(|edit| edit.line == line)
                        .map(|edit| edit.longer_by)
                        .sum();
                    let end = (i - line_start).saturating_add_signed(shift + longer_by);
                    edits.push(Edit {
                        line,
                        end,
                        longer_by,
                    });
                }
            }
            _ => i += 1,
        }
    }
    if edits.is_empty() {
        return None;
    }
    out.push_str(&text[copied..]);
    Some((out, edits))
}

/// The tools of `list`, read from `text`, each with its footprint.
fn list_of<'a>(
    source: &str,
    list: &'a Json<'a>,
    text: &str,
) -> Result<Vec<Listed<'a>>, ToolListError> {
    let tools = tools_of(list).map_err(|e| shape_error(source, e))?;
    let mut listed = listed(tools).map_err(|e| shape_error(source, e))?;
    set_footprints(&mut listed, tools, text);
    Ok(listed)
}

/// An error in a list's shape or in one of its tools (JSON that parsed).
fn shape_error(source: &str, message: String) -> ToolListError {
    ToolListError {
        source: source.to_owned(),
        position: None,
        message,
    }
}

/// Refuses `text` if it nests past [`MAX_NESTING`], before any parser
/// recurses into it (deeper input would need a deeper stack than a thread
/// has).
fn check_depth(source: &str, text: &str) -> Result<(), ToolListError> {
    match too_deep(text) {
        Some(position) => Err(ToolListError {
            source: source.to_owned(),
            position: Some(position),
            message: format!("JSON nested deeper than {MAX_NESTING} levels"),
        }),
        None => Ok(()),
    }
}

/// Reads an already parsed JSON value as a tool list (see
/// [`parse_tool_list`]); the error names the bad tool by index.
pub fn tool_list_from_value(value: Value) -> Result<Vec<ToolDef>, String> {
    let bump = Bump::new();
    let list = json::from_value(&value, &bump);
    Ok(listed(tools_of(&list)?)?
        .iter()
        .map(Listed::to_def)
        .collect())
}

/// Reads an already parsed JSON value as a tool list, each tool on its
/// own: a tool that cannot be read gives its error (naming it by index, as
/// [`tool_list_from_value`] does) in its place, and the others are read as
/// that function reads them. The outer error is for a value that holds no
/// list of tools at all. A host that takes tools from a server it does not
/// control can so leave one malformed tool out, rather than all of them.
///
/// ```
/// let tools = codemode_core::tools_from_value_each(serde_json::json!([
///     {"name": "ok", "inputSchema": {"type": "object"}},
///     {"name": "bad"},
/// ]))
/// .unwrap();
/// assert_eq!(tools[0].as_ref().unwrap().name, "ok");
/// assert_eq!(tools[1].as_ref().unwrap_err(), "tool #1 (\"bad\"): `inputSchema` is missing");
/// ```
pub fn tools_from_value_each(value: Value) -> Result<Vec<Result<ToolDef, String>>, String> {
    let bump = Bump::new();
    let list = json::from_value(&value, &bump);
    Ok(tools_of(&list)?
        .iter()
        .enumerate()
        .map(|(index, tool)| listed_tool(index, tool).map(|tool| tool.to_def()))
        .collect())
}

/// One tool of a list, read but not yet copied out of its tree.
pub(crate) struct Listed<'a> {
    pub(crate) name: &'a str,
    description: Option<&'a str>,
    input: &'a Json<'a>,
    output: Option<&'a Json<'a>>,
    annotations: Option<&'a Json<'a>>,
    footprint: Footprint,
}

impl<'a> Listed<'a> {
    /// The tool as the lowering reads it.
    pub(crate) fn source(&self) -> ToolSource<'a> {
        ToolSource {
            name: self.name,
            description: self.description,
            input: self.input,
            output: self.output,
            footprint: self.footprint,
        }
    }

    fn to_def(&self) -> ToolDef {
        let mut tool = ToolDef::new(self.name, self.input.to_value());
        tool.description = self.description.map(str::to_owned);
        tool.output_schema = self.output.map(|schema| schema.to_value());
        tool.annotations = self
            .annotations
            .and_then(|a| serde_json::from_value(a.to_value()).ok());
        tool
    }
}

/// The tools of a list: a JSON array of tools, or an object with a `tools`
/// array.
fn tools_of<'a>(list: &'a Json<'a>) -> Result<&'a [Json<'a>], String> {
    const EXPECTED: &str = "expected an array of tools or an object with a `tools` array";
    match list {
        Json::Array(tools) => Ok(tools),
        Json::Object(fields) => match fields.get("tools") {
            Some(Json::Array(tools)) => Ok(tools),
            Some(other) => Err(format!(
                "`tools` must be an array of tools, found {}",
                other.kind()
            )),
            None => Err(format!("{EXPECTED}; this object has no `tools` key")),
        },
        other => Err(format!("{EXPECTED}, found {}", other.kind())),
    }
}

/// Each tool read; the error names the first bad one by index.
fn listed<'a>(tools: &'a [Json<'a>]) -> Result<Vec<Listed<'a>>, String> {
    let mut listed = Vec::with_capacity(tools.len());
    for (index, tool) in tools.iter().enumerate() {
        // Read long ago, each tool's entries are far from the one before.
        if let Some(Json::Object(next)) = tools.get(index + 1) {
            crate::prefetch::fetch_entries(*next);
        }
        listed.push(listed_tool(index, tool)?);
    }
    Ok(listed)
}

/// Gives each of `listed`, the tools in `tools` as read from `text`, where
/// its tree and text lie. A tool's tree lies between its entries and the
/// entries of the tool before it, and its text between its first key and
/// the next tool's first key. So the first tool's tree is known only by its
/// entries, and the last tool's text by the [`ABOUT_ONE_TOOL`] bytes from
/// its first key. Where the reading broke that order (the first tool that
/// a second thread read, in another arena), a range is wrong, which wastes
/// one request and changes nothing else.
fn set_footprints(listed: &mut [Listed<'_>], tools: &[Json<'_>], text: &str) {
    let text = text.as_bytes().as_ptr_range();
    let text = text.start.addr()..text.end.addr();
    let marks: Vec<Marks> = tools.iter().map(|tool| marks_of(tool, &text)).collect();
    for (k, tool) in listed.iter_mut().enumerate() {
        let own = marks[k];
        let before = k.checked_sub(1).map_or(0, |k| marks[k].entries);
        let next = marks.get(k + 1).map_or(0, |m| m.first_key);
        tool.footprint = Footprint::new(
            (
                own.entries,
                before.checked_sub(own.entries).unwrap_or(own.entries_len),
            ),
            (
                own.first_key,
                next.checked_sub(own.first_key).unwrap_or(ABOUT_ONE_TOOL),
            ),
        );
    }
}

/// Text asked for of a list's final tool, whose end is not known.
const ABOUT_ONE_TOOL: usize = 1024;

/// Where one tool lies, as [`set_footprints`] reads it.
#[derive(Clone, Copy, Default)]
struct Marks {
    /// The address of its object's entries, which the reading allocates
    /// after everything they hold, so below it in the arena.
    entries: usize,
    /// The entries' length in bytes.
    entries_len: usize,
    /// The address of its first key in the text: escaped keys are copied
    /// into the arena, so only the keys in `text` count.
    first_key: usize,
}

fn marks_of(tool: &Json<'_>, text: &std::ops::Range<usize>) -> Marks {
    match tool {
        Json::Object(fields) => Marks {
            entries: fields.entries_at(),
            entries_len: fields.entries_len(),
            first_key: (fields.iter())
                .map(|(key, _)| key.as_ptr().addr())
                .filter(|at| text.contains(at))
                .min()
                .unwrap_or(0),
        },
        _ => Marks::default(),
    }
}

fn listed_tool<'a>(index: usize, tool: &'a Json<'a>) -> Result<Listed<'a>, String> {
    let Json::Object(fields) = tool else {
        return Err(format!(
            "tool #{index}: expected an object, found {}",
            tool.kind()
        ));
    };
    let name = match fields.get("name") {
        Some(Json::String(name)) => *name,
        Some(other) => {
            return Err(format!(
                "tool #{index}: `name` must be a string, found {}",
                other.kind()
            ));
        }
        None => return Err(format!("tool #{index}: `name` is missing")),
    };
    let at = || format!("tool #{index} ({})", Value::String(name.to_owned()));
    let description = match fields.get("description") {
        None | Some(Json::Null) => None,
        Some(Json::String(text)) => Some(*text),
        Some(other) => {
            return Err(format!(
                "{}: `description` must be a string, found {}",
                at(),
                other.kind()
            ));
        }
    };
    let Some(input) = fields.get("inputSchema") else {
        return Err(format!("{}: `inputSchema` is missing", at()));
    };
    let output = fields
        .get("outputSchema")
        .filter(|schema| !matches!(schema, Json::Null));
    Ok(Listed {
        name,
        description,
        input,
        output,
        annotations: fields.get("annotations"),
        footprint: Default::default(),
    })
}

/// What a JSON value is, for error messages: `null`, `a boolean`, `a
/// number`, `a string`, `an array` or `an object`.
pub fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json appends " at line L column C"; the position is already in front.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message,
    }
}

/// The line and column where nesting first exceeds [`MAX_NESTING`].
fn too_deep(text: &str) -> Option<(usize, usize)> {
    too_deep_at(text, MAX_NESTING)
}

/// The line and column where nesting first exceeds `cap`.
fn too_deep_at(text: &str, cap: usize) -> Option<(usize, usize)> {
    let mut found = None;
    each_opening(text.as_bytes(), |at, depth| {
        if depth > cap {
            found = Some(at);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    // The line and column are only worked out for the place that fails.
    found.map(|at| line_column(text, at))
}

/// How deep the arrays and objects of the JSON text `bytes` nest, when
/// that is past `limit` (brackets inside strings do not count); `None`
/// otherwise. Most texts hold fewer brackets than the limit in all, and
/// counting them is cheap, so only the others are walked.
pub fn nesting_past(bytes: &[u8], limit: usize) -> Option<usize> {
    if count_where(bytes, |b| b == b'[' || b == b'{') <= limit {
        return None;
    }
    let mut deepest = 0;
    each_opening(bytes, |_, depth| {
        deepest = deepest.max(depth);
        ControlFlow::Continue(())
    });
    (deepest > limit).then_some(deepest)
}

/// Calls `each` with the byte offset of every `[` and `{` of the JSON text
/// `bytes` outside strings, and the depth it opens, until `each` breaks.
/// Bytes, not characters: every byte that matters here is ASCII, and a
/// multi-byte character's bytes are never ASCII.
fn each_opening(bytes: &[u8], mut each: impl FnMut(usize, usize) -> ControlFlow<()>) {
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Skip the string, to the next quote that is not escaped,
                // jumping to each quote or backslash (most of a tool list's
                // bytes are inside strings).
                i += 1;
                loop {
                    match bytes
                        .get(i..)
                        .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
                    {
                        Some(at) if bytes[i + at] == b'"' => {
                            i += at;
                            break;
                        }
                        Some(at) => i += at + 2,
                        None => {
                            i = bytes.len();
                            break;
                        }
                    }
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if each(i, depth).is_break() {
                    return;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
}

/// How many of `bytes` satisfy `pred`: counted in blocks of 255 into a
/// byte, which compilers turn into wide vector compares.
pub(crate) fn count_where(bytes: &[u8], pred: impl Fn(u8) -> bool) -> usize {
    (bytes.chunks(255))
        .map(|block| {
            usize::from(
                block
                    .iter()
                    .fold(0u8, |n, &b| n.wrapping_add(u8::from(pred(b)))),
            )
        })
        .sum()
}

/// The 1-based line and column (in characters) of byte `at`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |n| n + 1);
    (line, before[start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_tool_list("in.json", text).unwrap_err().to_string()
    }

    /// A list of `n` tools whose keys come in the text in the order given,
    /// one key escaped and first, each tool nesting objects and strings.
    fn footprinted_list(n: usize) -> String {
        let tool = |k: usize| {
            format!(
                r#"{{"\u0064escription": "Does \"{k}\".", "name": "tool_{k}", "inputSchema": {{"type": "object",
                "properties": {{"q\u0041": {{"type": "object", "properties": {{"deep": {{"enum": ["a\nb", {k}]}}}}}}}}}},
                "annotations": {{"title": "T"}}}}"#
            )
        };
        format!(
            r#"{{"tools": [{}]}}"#,
            (0..n).map(tool).collect::<Vec<_>>().join(", ")
        )
    }

    /// The address of an object's entries.
    fn entries(json: &Json<'_>) -> usize {
        match json {
            Json::Object(fields) => fields.entries_at(),
            _ => panic!("not an object"),
        }
    }

    /// Whether `tool`'s footprint holds its nested entries and the string
    /// its reading copied, and nothing of `before`.
    fn holds_its_tree(tool: &Listed<'_>, before: &Listed<'_>) -> bool {
        let print = tool.footprint;
        let nested = tool.input.pointer("/properties/qA").unwrap();
        let deepest = nested.pointer("/properties/deep").unwrap();
        let Some(Json::Array(choices)) = deepest.pointer("/enum") else {
            panic!("no enum")
        };
        let Json::String(unescaped) = choices[0] else {
            panic!("not a string")
        };
        [tool.input, nested, deepest]
            .iter()
            .all(|json| print.tree_holds(entries(json)))
            && print.tree_holds(unescaped.as_ptr().addr())
            && !print.tree_holds(entries(before.input))
    }

    #[test]
    fn each_tool_s_footprint_holds_its_tree_and_its_text() {
        let text = footprinted_list(6);
        // Room for the whole list in one chunk, as a list's arena has.
        let mut arenas = Arenas {
            first: Bump::with_capacity(1 << 20),
            second: None,
        };
        let listed = read_tools("in.json", &text, &mut arenas).unwrap();
        for (k, tool) in listed.iter().enumerate() {
            let print = tool.footprint;
            // The escaped key, copied into the arena, is not where the
            // tool's text starts; the name, after it, is in the range.
            assert!(
                print.text_holds(tool.name.as_ptr().addr()),
                "tool {k}: {print:?}"
            );
            let Json::Object(fields) = tool.input else {
                panic!()
            };
            if k == 0 {
                // The first tool's tree is known only by its entries.
                assert!(!print.tree_holds(entries(tool.input)), "{print:?}");
                continue;
            }
            assert!(
                holds_its_tree(tool, &listed[k - 1]),
                "tool {k}: {print:?} {fields:?}"
            );
        }
    }

    #[test]
    fn a_list_read_on_two_threads_has_footprints_in_both_arenas() {
        crate::parallel::two_threads();
        let text = footprinted_list(400);
        let mut arenas = Arenas::for_text(&text);
        assert!(arenas.second.is_some(), "read in one part");
        let listed = read_tools("in.json", &text, &mut arenas).unwrap();
        assert_eq!(listed.len(), 400);
        // Only the first tool of each arena's chunks can be wrong.
        let wrong = (1..listed.len())
            .filter(|&k| !holds_its_tree(&listed[k], &listed[k - 1]))
            .count();
        assert!(wrong <= 4, "{wrong} tools without their tree");
    }

    #[test]
    fn lone_surrogates_are_read_as_the_replacement_character() {
        let mend = |text: &str| {
            mend_lone_surrogates(text.as_bytes()).map(|m| String::from_utf8(m).unwrap())
        };
        // A pair, an escaped backslash before `u`, other escapes: nothing.
        for text in [
            r#""\ud83d\ude00""#,
            r#""\\ud800""#,
            r#""\n\u0041""#,
            "\\",
            r#""\u12""#,
        ] {
            assert_eq!(mend(text), None, "{text}");
        }
        assert_eq!(mend(r#""a\ud800b""#).as_deref(), Some(r#""a\ufffdb""#));
        assert_eq!(
            mend(r#""\uDC00\ud800""#).as_deref(),
            Some(r#""\ufffd\ufffd""#)
        );
        // A high half before another high half, then a pair.
        assert_eq!(
            mend(r#""\ud800\ud83d\ude00\\""#).as_deref(),
            Some(r#""\ufffd\ud83d\ude00\\""#)
        );
        // One such escape no longer costs the whole list, and a real error
        // after it keeps its place.
        let text = r#"[{"name":"a","description":"cut \ud83d","inputSchema":{}},{"name":"b","inputSchema":{}}]"#;
        let tools = parse_tool_list("-", text).unwrap();
        assert_eq!(tools[0].description.as_deref(), Some("cut \u{fffd}"));
        assert_eq!(tools.len(), 2);
        assert_eq!(
            err("[{\"name\":\"\\ud800\",\"inputSchema\":{}},\n x]"),
            "in.json:2:2: invalid JSON: expected value"
        );
        assert_eq!(
            mend_line(br#"{"d":"\udc00","n":1e400}"#).as_deref(),
            Some(r#"{"d":"\ufffd","n":1.7976931348623157e308}"#)
        );
    }

    #[test]
    fn accepts_an_array_or_a_list_result() {
        let one = r#"[{"name":"a","inputSchema":{}}]"#;
        let two =
            r#"{"tools":[{"name":"a","title":"A","_meta":{},"inputSchema":{}}],"nextCursor":"x"}"#;
        assert_eq!(
            parse_tool_list("-", one).unwrap(),
            parse_tool_list("-", two).unwrap()
        );
    }

    #[test]
    fn annotations_are_carried() {
        let text = r#"[{"name":"a","annotations":{"readOnlyHint":true,"x":1},"inputSchema":{}}]"#;
        let tools = parse_tool_list("-", text).unwrap();
        let hints = tools[0].annotations.as_ref().expect("annotations");
        assert_eq!(hints.read_only_hint, Some(true));
    }

    #[test]
    fn invalid_json_names_line_and_column() {
        assert_eq!(
            err("[\n  {\"name\": }\n]"),
            "in.json:2:12: invalid JSON: expected value"
        );
    }

    #[test]
    fn bad_tools_name_their_index() {
        assert_eq!(
            err(r#"[{"name":"a","inputSchema":{}}, {"name": 3}]"#),
            "in.json: tool #1: `name` must be a string, found a number"
        );
        assert_eq!(
            err(r#"[5]"#),
            "in.json: tool #0: expected an object, found a number"
        );
        assert_eq!(
            err(r#"[{"name":"x"}]"#),
            r#"in.json: tool #0 ("x"): `inputSchema` is missing"#
        );
        assert_eq!(
            err(r#"[{"name":"x","inputSchema":{},"description":1}]"#),
            r#"in.json: tool #0 ("x"): `description` must be a string, found a number"#
        );
    }

    #[test]
    fn a_byte_order_mark_is_ignored_and_columns_count_from_one() {
        let tools =
            parse_tool_list("in.json", "\u{feff}[{\"name\":\"a\",\"inputSchema\":{}}]").unwrap();
        assert_eq!(tools[0].name, "a");
        // Places are counted without the mark, as an editor shows them.
        assert_eq!(
            err("\u{feff}[1,]"),
            "in.json:1:4: invalid JSON: trailing comma"
        );
        assert_eq!(
            err(""),
            "in.json:1:1: invalid JSON: EOF while parsing a value"
        );
    }

    #[test]
    fn numbers_past_the_largest_double_read_as_it() {
        let digits = "9".repeat(400);
        let text = format!(
            r#"[{{"name": "t", "description": "keeps \"1e400\" and -1e999", "inputSchema": {{"maximum": 1e400, "minimum": -1E+999, "multipleOf": {digits}, "x": [2e308, 1.5]}}}}]"#
        );
        let tools = parse_tool_list("list.json", &text).unwrap();
        let schema = &tools[0].input_schema;
        assert_eq!(schema["maximum"].as_f64(), Some(f64::MAX));
        assert_eq!(schema["minimum"].as_f64(), Some(-f64::MAX));
        assert_eq!(schema["multipleOf"].as_f64(), Some(f64::MAX));
        assert_eq!(schema["x"], serde_json::json!([f64::MAX, 1.5]));
        // Text in strings is left as it is.
        assert_eq!(
            tools[0].description.as_deref(),
            Some(r#"keeps "1e400" and -1e999"#)
        );
        // The catalog reads it the same way.
        assert!(crate::Catalog::parse("list.json", text.as_str()).is_ok());
        // Just under the largest double, which serde_json refuses too.
        let tools = parse_tool_list(
            "list.json",
            r#"[{"name": "t", "inputSchema": {"maximum": 1.7976931348623158e308}}]"#,
        )
        .unwrap();
        assert_eq!(tools[0].input_schema["maximum"].as_f64(), Some(f64::MAX));
        // Numbers JSON does not allow stay errors.
        for bad in ["01e400", "1.e400", "-.5e400", "1e+", "--1e400"] {
            let text = format!(r#"[{{"name": "t", "inputSchema": {{"maximum": {bad}}}}}]"#);
            assert!(parse_tool_list("list.json", &text).is_err(), "{bad}");
        }
        // Other errors are still errors, in their place.
        assert_eq!(
            err(r#"[{"name": "t", "inputSchema": {"maximum": 1e400,}}]"#),
            err(r#"[{"name": "t", "inputSchema": {"maximum": 1e300,}}]"#)
        );
        assert_eq!(
            err("[{\"maximum\": [1e400, -1e400,\n 1e999, 1,]}]"),
            "in.json:2:11: invalid JSON: trailing comma"
        );
    }

    #[test]
    fn wrong_top_level_shapes() {
        assert!(err("3").contains("found a number"));
        assert!(err(r#"{"tools": {}}"#).contains("`tools` must be an array"));
        assert!(err(r#"{"result": []}"#).contains("no `tools` key"));
    }

    #[test]
    fn deep_input_within_the_cap_parses() {
        let depth = 5_000;
        let schema = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let text = format!(r#"[{{"name":"deep","inputSchema":{schema}}}]"#);
        // The parser needs a large stack at this depth; the binary gives it one.
        let tools = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || parse_tool_list("-", &text).map(|t| t.len()))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(tools, Ok(1));
    }

    /// A list of `tools` tools, the one at `deep` with an input schema
    /// nested `levels` deep.
    fn list_with_a_deep_tool(tools: usize, deep: usize, levels: usize) -> String {
        let tools: Vec<String> = (0..tools)
            .map(|i| {
                let schema = if i == deep {
                    format!("{}{}", "[".repeat(levels), "]".repeat(levels))
                } else {
                    r#"{"type":"object","properties":{"q":{"type":"string"}}}"#.to_owned()
                };
                format!(r#"{{"name":"t{i:04}","description":"Tool {i}.","inputSchema":{schema}}}"#)
            })
            .collect();
        format!("[{}]", tools.join(","))
    }

    #[test]
    fn lists_past_the_first_readings_depth_are_read_again() {
        // Nesting at the first reading's bound, and one past it (the scan and
        // the second reading), read the same, in one pass and in two halves.
        for levels in [SHALLOW - 2, SHALLOW - 1] {
            let text = list_with_a_deep_tool(400, 257, levels);
            let one = crate::parallel::sequentially(|| parse_tool_list("-", &text)).unwrap();
            crate::parallel::two_threads();
            let two = parse_tool_list("-", &text).unwrap();
            assert_eq!(one.len(), 400);
            assert_eq!(one, two);
            // The tool (level 2) holds its schema (level 3 and deeper).
            let mut depth = 0;
            let mut value = &one[257].input_schema;
            while let Some([inner, ..]) = value.as_array().map(Vec::as_slice) {
                depth += 1;
                value = inner;
            }
            assert_eq!(depth + 1, levels, "{levels}");
        }
    }

    #[test]
    fn lists_past_the_cap_are_refused_in_halves_too() {
        crate::parallel::two_threads();
        let text = list_with_a_deep_tool(400, 3, MAX_NESTING);
        let err = err(&text);
        assert!(
            err.ends_with(&format!(": JSON nested deeper than {MAX_NESTING} levels")),
            "{err}"
        );
    }

    #[test]
    fn brackets_in_strings_do_not_count_and_the_place_is_in_characters() {
        // Brackets inside strings (escaped quotes too) are not nesting; the
        // column counts characters, not bytes.
        let text = format!(
            "[{{\"é\": \"[[\\\"[{{\",\n \"b\": {}",
            "[".repeat(MAX_NESTING)
        );
        // Two levels open on line 1; line 2 has 6 characters before its brackets.
        assert_eq!(too_deep(&text), Some((2, 6 + MAX_NESTING - 1)));
    }

    #[test]
    fn the_jumping_scan_counts_as_a_byte_by_byte_scan_does() {
        // The plain scan: every byte in turn.
        fn depth_after(text: &str) -> usize {
            let bytes = text.as_bytes();
            let (mut depth, mut i, mut in_string) = (0usize, 0, false);
            while i < bytes.len() {
                match (in_string, bytes[i]) {
                    (true, b'\\') => i += 1,
                    (true, b'"') | (false, b'"') => in_string = !in_string,
                    (false, b'[' | b'{') => depth += 1,
                    (false, b']' | b'}') => depth = depth.saturating_sub(1),
                    _ => {}
                }
                i += 1;
            }
            depth
        }
        let pieces = ["[", "{", "]", "\"", "\\", "a", "é", "\\\"", "}", "\"[\""];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in pieces {
                        let text = format!("{a}{b}{c}{d}{a}{b}");
                        // Past the cap exactly when the plain scan ends deeper.
                        let deepest = (0..=text.len())
                            .filter(|&n| text.is_char_boundary(n))
                            .map(|n| depth_after(&text[..n]))
                            .max()
                            .unwrap_or(0);
                        assert!(too_deep_at(&text, deepest).is_none(), "{text:?}");
                        if deepest > 0 {
                            assert!(too_deep_at(&text, deepest - 1).is_some(), "{text:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn nesting_past_the_cap_is_refused_with_its_place() {
        let text = "[".repeat(MAX_NESTING + 1);
        assert_eq!(
            err(&text),
            format!(
                "in.json:1:{}: JSON nested deeper than {MAX_NESTING} levels",
                MAX_NESTING + 1
            )
        );
    }
}
