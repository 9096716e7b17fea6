//! The transport to a server started as a child process: rmcp's line
//! reader and writer over the child's standard streams, with the child's
//! output read through [`ClampedLines`].
//!
//! rmcp reads each line with serde_json, which refuses a number past the
//! largest double (`1e400`, valid JSON that JavaScript reads as Infinity)
//! as malformed, and drops the line. A tool list or a result holding one
//! would never arrive: the request would wait for its timeout, and the
//! server would be reported as silent. Such numbers are read as the largest
//! double instead, as a tool list read from a file is, and escaped lone
//! surrogates and bytes that are no UTF-8 as U+FFFD (as a JavaScript
//! peer's `TextDecoder` reads them). `codemode serve` reads its client's
//! requests through the same filter. rmcp drops a line past 16 MiB as well, and one
//! whose arrays and objects nest past 127 levels, and a response that is no
//! JSON-RPC 2.0 response (no `"jsonrpc": "2.0"`, both `result` and `error`
//! or neither, an `error` without its `code` and `message`): such an answer
//! to a request becomes a JSON-RPC error for that request, saying why, so
//! the call fails at once. A client's request that rmcp would drop the
//! same way becomes a request of [`REFUSED_METHOD`] with its id, which
//! `codemode serve` answers with an error saying why, so the client is not
//! left waiting. An HTTP server's events go through the same filter
//! ([`filter_line`], used by `crate::http`).

use process_wrap::tokio::{ChildWrapper, CommandWrap};
use rmcp::RoleClient;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::process::Stdio;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, ReadBuf};
use tokio::process::{ChildStdin, ChildStdout};

/// How long a closed server may take to exit before it is killed.
const EXIT_WAIT: Duration = Duration::from_secs(3);

/// The longest line rmcp reads; it drops a longer one, so a request
/// answered by one would wait for its timeout. Such an answer becomes an
/// error for its request instead (see [`Overlong`]).
const MAX_LINE: usize = 16 * 1024 * 1024;

/// How much of an overlong line's start and end is kept to find its id.
const KEPT: usize = 4096;

/// A server's standard streams as an rmcp transport, owning the process:
/// closing it closes the server's input and waits a little for it to exit,
/// and dropping it kills the process group (see `connect`).
pub(crate) struct ChildTransport {
    transport: AsyncRwTransport<RoleClient, ClampedLines<ChildStdout>, ChildStdin>,
    child: Option<Box<dyn ChildWrapper>>,
}

impl ChildTransport {
    /// Starts `command` with its input and output piped to this process
    /// and its errors passed through.
    pub(crate) fn spawn(mut command: CommandWrap) -> io::Result<Self> {
        command
            .command_mut()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut child = command.spawn()?;
        let stdin = child.inner_mut().stdin().take();
        let stdout = child.inner_mut().stdout().take();
        let (Some(stdin), Some(stdout)) = (stdin, stdout) else {
            return Err(io::Error::other(
                "the server's standard streams were not piped",
            ));
        };
        Ok(Self {
            transport: AsyncRwTransport::new(ClampedLines::new(stdout), stdin),
            child: Some(child),
        })
    }
}

impl Transport<RoleClient> for ChildTransport {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        self.transport.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.transport.receive()
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.transport.close().await?;
        if let Some(child) = &mut self.child
            && tokio::time::timeout(EXIT_WAIT, child.wait()).await.is_err()
        {
            Box::into_pin(child.kill()).await?;
        }
        self.child = None;
        Ok(())
    }
}

impl Drop for ChildTransport {
    fn drop(&mut self) {
        // The whole process group, as `connect` made the server the leader
        // of its own: nothing it started outlives it.
        if let Some(child) = &mut self.child {
            let _ = child.start_kill();
        }
    }
}

/// Lines read from `inner`, each with every number too large for a double
/// written as the largest double (see the module's documentation). Other
/// lines, and a last line without its line break, pass unchanged.
pub(crate) struct ClampedLines<R> {
    inner: R,
    /// Read, but not yet a whole line.
    partial: Vec<u8>,
    /// Whole lines, ready to be read from `at`.
    ready: Vec<u8>,
    at: usize,
    done: bool,
    /// A line past [`MAX_LINE`] being skipped to its end.
    overlong: Option<Overlong>,
    /// Who writes the lines (`server` or `client`), for the errors made in
    /// place of their answers.
    peer: &'static str,
}

/// The start and end of a line too long for rmcp, skipped as it arrives.
/// When it ends, an answer to a request becomes a JSON-RPC error for that
/// request, so the call fails at once with the reason, instead of waiting
/// for its timeout; anything else is dropped, as rmcp would drop it.
struct Overlong {
    head: Vec<u8>,
    tail: Vec<u8>,
    bytes: usize,
}

impl Overlong {
    /// A line seen as far as `start`.
    fn starting(start: &[u8]) -> Self {
        let mut overlong = Overlong {
            head: start[..start.len().min(KEPT)].to_vec(),
            tail: Vec::new(),
            bytes: 0,
        };
        overlong.see(start);
        overlong
    }

    fn see(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len();
        self.tail.extend_from_slice(bytes);
        if self.tail.len() > 2 * KEPT {
            self.tail.drain(..self.tail.len() - KEPT);
        }
    }

    /// The error line for the request this line answers, if it answers one
    /// (or, from a client, for the request it is; see [`refusal`]).
    fn answer(&self, peer: &str) -> Option<Vec<u8>> {
        let why = format!(
            "is {} bytes, past the {} MiB a message may take",
            self.bytes,
            MAX_LINE >> 20
        );
        refusal(&self.head, &self.tail, peer, &why)
    }
}

/// What rmcp is handed in place of a line that cannot be passed on, saying
/// that the line (from `peer`) `why`: for an answer to a request, a
/// JSON-RPC error line for that request; for a client's request
/// (`codemode serve`'s input), a request of [`REFUSED_METHOD`] with the
/// request's id, which the server answers with an error saying why, so the
/// client is answered rather than left waiting. `None` for anything else
/// (a notification, or a request from a server), which rmcp would drop as
/// well.
///
/// An error made here carries this process's [`refusal_mark`] as its
/// `data`, so the client can tell it from an error the server sent: a
/// server cannot know the mark.
fn refusal(head: &[u8], tail: &[u8], peer: &str, why: &str) -> Option<Vec<u8>> {
    if let Some(id) = response_id(head, tail) {
        let message = format!("the {peer}'s answer {why}");
        let error = serde_json::to_value(refusal_error(message)).ok()?;
        return Some(
            format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{error}}}\n").into_bytes(),
        );
    }
    if peer != CLIENT {
        return None;
    }
    let id = request_id(head, tail)?;
    let params = serde_json::json!({ "message": format!("the request {why}") });
    Some(
        format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"{REFUSED_METHOD}\",\"params\":{params}}}\n"
        )
        .into_bytes(),
    )
}

/// Who writes a server's input: `codemode serve`'s client.
const CLIENT: &str = "client";

/// The method of the request that stands, in `codemode serve`'s input, for
/// a client's request that cannot be read (see [`refusal`]); its `params`
/// hold the `message` to answer it with, as an error.
pub(crate) const REFUSED_METHOD: &str = "codemode/refused";

/// The error made in place of an answer that cannot be passed on, saying
/// why: an internal error marked as codemode's own (see [`is_refusal`]).
pub(crate) fn refusal_error(message: String) -> rmcp::model::ErrorData {
    let mut error =
        rmcp::model::ErrorData::new(rmcp::model::ErrorCode::INTERNAL_ERROR, message, None);
    error.data = Some(serde_json::json!({"refusedBy": refusal_mark()}));
    error
}

/// A value drawn once per process that marks the errors this filter makes
/// in place of answers it cannot pass on.
fn refusal_mark() -> &'static str {
    static MARK: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    MARK.get_or_init(|| {
        use std::hash::BuildHasher;
        let state = std::collections::hash_map::RandomState::new();
        format!(
            "codemode-{:016x}{:016x}",
            state.hash_one(1u8),
            state.hash_one(2u8)
        )
    })
}

/// Whether `error` is one this filter made in place of an answer (see
/// [`refusal`]), not one the server sent.
pub(crate) fn is_refusal(error: &rmcp::model::ErrorData) -> bool {
    error
        .data
        .as_ref()
        .and_then(|data| data.get("refusedBy"))
        .and_then(|mark| mark.as_str())
        == Some(refusal_mark())
}

/// The start and end of a whole line that [`response_id`] reads.
fn ends(line: &[u8]) -> (&[u8], &[u8]) {
    (
        &line[..line.len().min(KEPT)],
        &line[line.len().saturating_sub(KEPT)..],
    )
}

/// Why `line`, an answer to a request (it has an id and no `method`),
/// is no JSON-RPC 2.0 response that rmcp reads; rmcp would drop it, and the
/// request would wait for its timeout. `None` for a line that is no such
/// answer, or that has the shape (or that this reading cannot judge, such
/// as one with a key twice: it passes as it is).
fn misshapen(line: &[u8]) -> Option<&'static str> {
    /// Whether a key is there, whatever its value (`null` included).
    #[derive(Default)]
    struct Present(bool);
    impl<'de> serde::Deserialize<'de> for Present {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            serde::de::IgnoredAny::deserialize(d).map(|_| Present(true))
        }
    }
    /// The value of a key that is there, `null` included.
    fn there<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Option<serde_json::Value>, D::Error> {
        serde::Deserialize::deserialize(d).map(Some)
    }
    #[derive(serde::Deserialize)]
    struct Envelope {
        #[serde(default, deserialize_with = "there")]
        jsonrpc: Option<serde_json::Value>,
        #[serde(default)]
        id: Present,
        #[serde(default)]
        method: Present,
        #[serde(default)]
        result: Present,
        #[serde(default, deserialize_with = "there")]
        error: Option<serde_json::Value>,
    }
    let (head, tail) = ends(line);
    response_id(head, tail)?;
    let envelope: Envelope = serde_json::from_slice(line).ok()?;
    if envelope.method.0 || !envelope.id.0 {
        return None;
    }
    if envelope.jsonrpc.as_ref().and_then(|v| v.as_str()) != Some("2.0") {
        return Some("it does not say `\"jsonrpc\": \"2.0\"`");
    }
    match (envelope.result.0, &envelope.error) {
        (true, Some(_)) => Some("it has both `result` and `error`"),
        (false, None) => Some("it has neither `result` nor `error`"),
        (false, Some(error)) => {
            // As serde reads rmcp's error: an object, or its fields in order.
            let (code, message) = match error {
                serde_json::Value::Array(fields) => (fields.first(), fields.get(1)),
                _ => (error.get("code"), error.get("message")),
            };
            let readable = code
                .and_then(|c| c.as_i64())
                .is_some_and(|c| i32::try_from(c).is_ok())
                && message.is_some_and(|m| m.is_string());
            (!readable).then_some(
                "its `error` is not an object with an integer `code` and a string `message`",
            )
        }
        (true, None) => None,
    }
}

/// The deepest nesting of arrays and objects rmcp reads: serde_json refuses
/// a message nested 128 levels deep, and rmcp then drops it, so a request
/// answered by one would wait for its timeout. Such an answer becomes an
/// error for its request instead.
const MAX_DEPTH: usize = 127;

/// The id of the JSON-RPC response whose text starts with `head` and ends
/// with `tail`, as its JSON text: found among the top-level keys before
/// `result` or `error` (`{"jsonrpc": "2.0", "id": 7, "result": ...`), or
/// as the last one (`..., "jsonrpc": "2.0", "id": 7}`), or in an object
/// that ends with neither (`{"jsonrpc": "2.0", "id": 7}`). `None` when the
/// line is no response (a request or notification has `method`) or the id
/// is not where it is looked for.
fn response_id(head: &[u8], tail: &[u8]) -> Option<String> {
    line_id(head, tail, false)
}

/// The id of the JSON-RPC request whose text starts with `head` and ends
/// with `tail`, found as [`response_id`] finds a response's: among the
/// top-level keys before `params`, or as the last key. Its `method` may come
/// before `params` or after them (only a request has both an id and
/// `params`). `None` for a response, a notification, or an id not where it
/// is looked for.
fn request_id(head: &[u8], tail: &[u8]) -> Option<String> {
    line_id(head, tail, true)
}

/// The id of a response (`request` false) or of a request, as
/// [`response_id`] and [`request_id`] find them.
fn line_id(head: &[u8], tail: &[u8], request: bool) -> Option<String> {
    let text = String::from_utf8_lossy(head);
    let mut rest = text.trim_start().strip_prefix('{')?;
    let mut id = None;
    loop {
        rest = rest
            .trim_start()
            .strip_prefix(',')
            .unwrap_or(rest)
            .trim_start();
        let Some((key, after)) = json_string(rest) else {
            // The object ended with neither `result` nor `error`.
            if rest.starts_with('}') {
                break;
            }
            return None;
        };
        rest = after.trim_start().strip_prefix(':')?.trim_start();
        match key {
            "result" | "error" if !request => break,
            "params" if request => break,
            "method" if request => rest = json_string(rest)?.1,
            "jsonrpc" => rest = json_string(rest)?.1,
            "id" => {
                let (value, after) = scalar(rest)?;
                id = Some(value.to_owned());
                rest = after;
            }
            _ => return None,
        }
    }
    if id.is_some() {
        return id;
    }
    // The id last: `"id": VALUE }` at the very end, which only a key of the
    // outermost object can be.
    let tail = String::from_utf8_lossy(tail);
    let body = tail.trim_end().strip_suffix('}')?.trim_end();
    let start = if body.ends_with('"') {
        let mut at = body.len() - 1;
        loop {
            at = body[..at].rfind('"')?;
            let slashes = body[..at].len() - body[..at].trim_end_matches('\\').len();
            if slashes % 2 == 0 {
                break at;
            }
        }
    } else {
        body.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-')
            .len()
    };
    let value = &body[start..];
    let before = body[..start].trim_end().strip_suffix(':')?.trim_end();
    let before = before.strip_suffix("\"id\"")?.trim_end();
    (before.ends_with(',') && scalar(value).is_some_and(|(v, rest)| v == value && rest.is_empty()))
        .then(|| value.to_owned())
}

/// A JSON string at the start of `text`: its contents (escapes left as
/// they are) and the text after it.
fn json_string(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_prefix('"')?;
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some((&body[..i], &body[i + 1..])),
            _ => escaped = false,
        }
    }
    None
}

/// A JSON number (digits, with a sign) or string at the start of `text`,
/// as its text, and the text after it: the forms an id takes.
fn scalar(text: &str) -> Option<(&str, &str)> {
    if text.starts_with('"') {
        let (inner, rest) = json_string(text)?;
        return Some((&text[..inner.len() + 2], rest));
    }
    let digits = text.len()
        - text
            .trim_start_matches('-')
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    (digits > 0 && text[..digits].bytes().any(|b| b.is_ascii_digit()))
        .then(|| (&text[..digits], &text[digits..]))
}

impl<R> ClampedLines<R> {
    /// A server's lines (an upstream's output).
    pub(crate) fn new(inner: R) -> Self {
        ClampedLines {
            inner,
            partial: Vec::new(),
            ready: Vec::new(),
            at: 0,
            done: false,
            overlong: None,
            peer: "server",
        }
    }

    /// A client's lines (`codemode serve`'s input).
    pub(crate) fn of_client(inner: R) -> Self {
        ClampedLines {
            peer: CLIENT,
            ..ClampedLines::new(inner)
        }
    }

    /// Appends `read` to `partial`, and moves its whole lines (all of it at
    /// the end of the stream) to `ready`. Only `read` is searched: `partial`
    /// holds no line break. A line that grows past [`MAX_LINE`] is skipped
    /// to its end, and stands for an error if it answers a request.
    fn take_lines(&mut self, read: &[u8]) {
        self.ready.clear();
        self.at = 0;
        let mut read = read;
        if let Some(overlong) = &mut self.overlong {
            let Some(at) = read.iter().position(|b| *b == b'\n') else {
                overlong.see(read);
                if self.done {
                    self.overlong = None;
                }
                return;
            };
            overlong.see(&read[..at]);
            if let Some(line) = self.overlong.take().and_then(|o| o.answer(self.peer)) {
                self.ready.extend_from_slice(&line);
            }
            read = &read[at + 1..];
        }
        let before = self.partial.len();
        self.partial.extend_from_slice(read);
        let end = if self.done {
            self.partial.len()
        } else {
            match read.iter().rposition(|b| *b == b'\n') {
                Some(at) => before + at + 1,
                None if self.partial.len() > MAX_LINE => {
                    self.overlong = Some(Overlong::starting(&self.partial));
                    self.partial = Vec::new();
                    return;
                }
                None => return,
            }
        };
        for line in self.partial[..end].split_inclusive(|b| *b == b'\n') {
            let content = line.strip_suffix(b"\n").unwrap_or(line);
            if content.len() > MAX_LINE {
                let answer = Overlong::starting(content).answer(self.peer);
                self.ready.extend(answer.unwrap_or_default());
                continue;
            }
            match filter_line(line, self.peer) {
                Filtered::Pass => self.ready.extend_from_slice(line),
                Filtered::Mended(text) => self.ready.extend_from_slice(&text),
                Filtered::Dropped => {}
            }
        }
        self.partial.drain(..end);
    }
}

/// What [`filter_line`] makes of a line.
pub(crate) enum Filtered {
    /// It passes as it is.
    Pass,
    /// It passes as this text instead: mended, or a JSON-RPC error for the
    /// request it answers (see [`refusal`]).
    Mended(Vec<u8>),
    /// It is left out, as rmcp would drop it: it cannot be read, and no
    /// request it answers can be found.
    Dropped,
}

/// One message (a line over stdio, an event's data over HTTP) as rmcp can
/// read it: nested too deep, or no JSON-RPC 2.0 response, it becomes an
/// error for the request it answers; bytes that are no UTF-8, escaped lone
/// surrogates and numbers past the largest double are mended. `peer` is
/// who wrote it (`server` or `client`), for the errors' words.
pub(crate) fn filter_line(line: &[u8], peer: &str) -> Filtered {
    let content = line.strip_suffix(b"\n").unwrap_or(line);
    if let Some(depth) = codemode_core::wire::nesting_past(content, MAX_DEPTH) {
        let why = format!(
            "nests arrays and objects {depth} levels deep, past the {MAX_DEPTH} a message may take"
        );
        let (head, tail) = ends(content);
        return refusal(head, tail, peer, &why).map_or(Filtered::Dropped, Filtered::Mended);
    }
    // Bytes that are no UTF-8 read as U+FFFD, as a JavaScript peer's
    // `TextDecoder` reads them.
    let lossy = match String::from_utf8_lossy(line) {
        std::borrow::Cow::Owned(text) => Some(text),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let read = lossy.as_ref().map_or(line, |text| text.as_bytes());
    let mended = codemode_core::wire::mend_line(read);
    let read = mended.as_ref().map_or(read, |text| text.as_bytes());
    match misshapen(read) {
        Some(why) => {
            let why = format!("is no JSON-RPC 2.0 response: {why}");
            let (head, tail) = ends(read);
            refusal(head, tail, peer, &why).map_or(Filtered::Dropped, Filtered::Mended)
        }
        None if lossy.is_some() || mended.is_some() => Filtered::Mended(read.to_vec()),
        None => Filtered::Pass,
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for ClampedLines<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.at < this.ready.len() {
                let n = buf.remaining().min(this.ready.len() - this.at);
                buf.put_slice(&this.ready[this.at..this.at + n]);
                this.at += n;
                return Poll::Ready(Ok(()));
            }
            if this.done {
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 8192];
            let mut read = ReadBuf::new(&mut chunk);
            match Pin::new(&mut this.inner).poll_read(cx, &mut read) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {
                    let filled = read.filled();
                    this.done = filled.is_empty();
                    this.take_lines(filled);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tokio::io::AsyncReadExt;

    /// Reads `input` through [`ClampedLines`], handed over in pieces of
    /// `piece` bytes.
    async fn through(input: &[u8], piece: usize) -> Vec<u8> {
        let (mut write, read) = tokio::io::duplex(64);
        let input = input.to_vec();
        let writer = tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            for part in input.chunks(piece) {
                write.write_all(part).await.unwrap();
            }
        });
        let mut out = Vec::new();
        ClampedLines::new(read).read_to_end(&mut out).await.unwrap();
        writer.await.unwrap();
        out
    }

    #[tokio::test]
    async fn numbers_past_the_largest_double_are_read_as_it_line_by_line() {
        let input = concat!(
            "{\"a\": 1e400, \"b\": \"1e400\", \"c\": -2E+999}\n",
            "{\"d\": 1.5e3, \"e\": [1, 2.5]}\r\n",
            "{\"f\": 1e400}"
        );
        let expected = concat!(
            "{\"a\": 1.7976931348623157e308, \"b\": \"1e400\", \"c\": -1.7976931348623157e308}\n",
            "{\"d\": 1.5e3, \"e\": [1, 2.5]}\r\n",
            "{\"f\": 1.7976931348623157e308}"
        );
        for piece in [1, 3, 7, 4096] {
            let out = through(input.as_bytes(), piece).await;
            assert_eq!(
                String::from_utf8(out).unwrap(),
                expected,
                "pieces of {piece}"
            );
        }
    }

    #[tokio::test]
    async fn other_bytes_pass_unchanged() {
        // Long digits in a string are no number.
        let mut input = b"{\"x\": \"caf\xc3\xa9\"}\n\"".to_vec();
        input.extend(std::iter::repeat_n(b'7', 400));
        input.extend(b"\"\n");
        assert_eq!(through(&input, 5).await, input);
    }

    #[tokio::test]
    async fn bytes_that_are_no_utf8_read_as_the_replacement_character() {
        // As a JavaScript peer's `TextDecoder` reads them, and then mended
        // as any line is; in every piece size, so a character cut between
        // reads is not taken for a bad one.
        let input = b"{\"a\": \"\xff\xfe\", \"b\": 1e400, \"c\": \"caf\xc3\xa9\"}\n";
        let expected =
            "{\"a\": \"\u{fffd}\u{fffd}\", \"b\": 1.7976931348623157e308, \"c\": \"caf\u{e9}\"}\n";
        for piece in [1, 2, 3, 7, 64] {
            assert_eq!(
                through(input, piece).await,
                expected.as_bytes(),
                "pieces of {piece}"
            );
        }
    }

    #[test]
    fn only_answers_rmcp_cannot_read_are_judged_misshapen() {
        let judged = |line: &str| misshapen(line.as_bytes());
        for fine in [
            r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#,
            r#"{"jsonrpc":"2.0","id":"a","result":null}"#,
            r#"{"id":1,"jsonrpc":"2.0","error":{"code":-1,"message":"m","data":[1]}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":[-32000,"m"]}"#,
            "not json at all",
        ] {
            assert_eq!(judged(fine), None, "{fine}");
        }
        for (line, why) in [
            (r#"{"id":1,"result":{}}"#, "jsonrpc"),
            (r#"{"jsonrpc":"1.0","id":1,"result":{}}"#, "jsonrpc"),
            (
                r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#,
                "both",
            ),
            (r#"{"jsonrpc":"2.0","id":1}"#, "neither"),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":"went wrong"}"#,
                "`error`",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":1e3,"message":"m"}}"#,
                "`error`",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"error":{"code":99999999999,"message":"m"}}"#,
                "`error`",
            ),
            (r#"{"jsonrpc":"2.0","id":1,"error":null}"#, "`error`"),
            (r#"{"jsonrpc":"2.0","id":1,"error":["m",1]}"#, "`error`"),
        ] {
            let found = judged(line).unwrap_or_else(|| panic!("{line}"));
            assert!(found.contains(why), "{line}: {found}");
        }
    }

    #[tokio::test]
    async fn a_misshapen_answer_becomes_an_error_for_its_request() {
        let out = through(
            b"{\"id\":7,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}}\n",
            5,
        )
        .await;
        let lines: Vec<serde_json::Value> = out
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["id"], 7);
        let error: rmcp::model::ErrorData =
            serde_json::from_value(lines[0]["error"].clone()).unwrap();
        assert!(is_refusal(&error), "{error:?}");
        assert!(error.message.contains("jsonrpc"), "{error:?}");
        assert_eq!(lines[1], json!({"jsonrpc": "2.0", "id": 8, "result": {}}));
        // `codemode serve` reads its client's answers the same way, and
        // says whose they are.
        let mut out = Vec::new();
        ClampedLines::of_client(&b"{\"id\":9,\"result\":{}}\n"[..])
            .read_to_end(&mut out)
            .await
            .unwrap();
        let line: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let message = line["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("the client's answer is no JSON-RPC 2.0 response"),
            "{message}"
        );
    }

    #[test]
    fn the_id_of_a_request_is_found_wherever_its_method_is() {
        let found = |head: &str, tail: &str| request_id(head.as_bytes(), tail.as_bytes());
        assert_eq!(
            found(
                r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x"#,
                ""
            )
            .as_deref(),
            Some("7")
        );
        // The method after the params, with the id before them or last.
        assert_eq!(
            found(
                r#"{"jsonrpc":"2.0","id":"a","params":{"x"#,
                r#"x"},"method":"tools/call"}"#
            )
            .as_deref(),
            Some(r#""a""#)
        );
        assert_eq!(
            found(r#"{"params":{"x"#, r#"x"},"method":"tools/call","id":8}"#).as_deref(),
            Some("8")
        );
        // A notification has no id, and an answer is no request.
        assert_eq!(
            found(
                r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"#,
                "x}}"
            ),
            None
        );
        assert_eq!(found(r#"{"jsonrpc":"2.0","id":9,"result":{"#, "x}}"), None);
    }

    #[test]
    fn the_id_of_a_response_is_found_at_its_start_or_its_end() {
        let found = |head: &str, tail: &str| response_id(head.as_bytes(), tail.as_bytes());
        assert_eq!(
            found(r#"{"jsonrpc":"2.0","id":7,"result":{"x"#, "").as_deref(),
            Some("7")
        );
        assert_eq!(
            found(r#" { "id" : "a\"b" , "error": {"#, "").as_deref(),
            Some(r#""a\"b""#)
        );
        // The TypeScript SDK writes the id last.
        assert_eq!(
            found(
                r#"{"result":{"content":[{"#,
                r#"xx"}]},"jsonrpc":"2.0","id":12}"#
            )
            .as_deref(),
            Some("12")
        );
        assert_eq!(
            found(r#"{"result":{"#, r#"x"},"id":"q\\"}"#).as_deref(),
            Some(r#""q\\""#)
        );
        // A request or notification is no answer; an id inside the result
        // is not the response's.
        assert_eq!(
            found(
                r#"{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"#,
                ""
            ),
            None
        );
        assert_eq!(
            found(
                r#"{"method":"notifications/message","params":{"#,
                r#","id":4}}"#
            ),
            None
        );
        assert_eq!(found(r#"{"result":{"#, r#"{"id":5}}}"#), None);
        assert_eq!(
            found(r#"{"result":{"#, r#"x","id":5}"#).as_deref(),
            Some("5")
        );
        assert_eq!(found(r#"{"result":{"#, r#"no id here"}"#), None);
    }

    #[tokio::test]
    async fn an_answer_too_long_for_rmcp_becomes_an_error_for_its_request() {
        // Just past the limit (its end comes in the read that crosses it),
        // and far past it (skipped over many reads): a response with its id
        // first, a notification, and a response with its id last.
        let near = "x".repeat(MAX_LINE + 10);
        let far = "y".repeat(MAX_LINE + 100_000);
        let input = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{{\"text\":\"{near}\"}}}}\n{{\"after\":1}}\n\
             {{\"method\":\"m\",\"params\":\"{far}\"}}\n\
             {{\"result\":{{\"text\":\"{far}\"}},\"jsonrpc\":\"2.0\",\"id\":\"q\"}}\r\n{{\"last\":2}}\n"
        );
        let out = String::from_utf8(through(input.as_bytes(), 65536).await).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        let shapes: Vec<String> = (lines.iter())
            .map(|l| format!("{}..{}", &l[..l.len().min(30)], l.len()))
            .collect();
        assert_eq!(lines.len(), 4, "{shapes:?}");
        for (line, id) in [(lines[0], json!(9)), (lines[2], json!("q"))] {
            let error: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(error["id"], id);
            assert_eq!(error["error"]["code"], -32603);
            let message = error["error"]["message"].as_str().unwrap();
            assert!(
                message.starts_with("the server's answer is 16"),
                "{message}"
            );
            // Marked as the filter's own, which a server cannot forge.
            let mut data: rmcp::model::ErrorData =
                serde_json::from_value(error["error"].clone()).unwrap();
            assert!(is_refusal(&data));
            data.data = Some(json!({"refusedBy": "codemode-0123456789abcdef0123456789abcdef"}));
            assert!(!is_refusal(&data));
        }
        assert_eq!([lines[1], lines[3]], [r#"{"after":1}"#, r#"{"last":2}"#]);
    }

    /// A response whose result holds a value nested so that the whole
    /// message nests `depth` levels (the message and its result are two),
    /// with brackets inside a string that do not count.
    fn nested_answer(id: u32, depth: usize) -> String {
        let inner = depth - 2;
        format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"s\":\"[[{{\\\"]]\",\"v\":{}0{}}}}}",
            "[".repeat(inner),
            "]".repeat(inner)
        )
    }

    #[test]
    fn the_depth_limit_is_the_one_rmcp_reads_within() {
        type Message = RxJsonRpcMessage<RoleClient>;
        let at_limit = nested_answer(1, MAX_DEPTH);
        let past = nested_answer(1, MAX_DEPTH + 1);
        assert!(serde_json::from_str::<Message>(&at_limit).is_ok());
        assert!(serde_json::from_str::<Message>(&past).is_err());
        assert_eq!(
            codemode_core::wire::nesting_past(at_limit.as_bytes(), MAX_DEPTH),
            None
        );
        assert_eq!(
            codemode_core::wire::nesting_past(past.as_bytes(), MAX_DEPTH),
            Some(MAX_DEPTH + 1)
        );
        // Many brackets, none deep: counted, then measured.
        let wide = format!("[{}]", "[],".repeat(500) + "[]");
        assert_eq!(
            codemode_core::wire::nesting_past(wide.as_bytes(), MAX_DEPTH),
            None
        );
    }

    #[tokio::test]
    async fn an_answer_nested_too_deep_for_rmcp_becomes_an_error_for_its_request() {
        let input = format!(
            "{}\n{}\n{{\"method\":\"m\",\"params\":{}}}\n",
            nested_answer(4, MAX_DEPTH),
            nested_answer(5, 300),
            "[".repeat(200) + &"]".repeat(200)
        );
        let out = String::from_utf8(through(input.as_bytes(), 100).await).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        // The first passes; the second is refused; the notification is
        // dropped, as rmcp would drop it.
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0], nested_answer(4, MAX_DEPTH));
        let error: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(error["id"], 5);
        assert_eq!(error["error"]["code"], -32603);
        assert_eq!(
            error["error"]["message"],
            "the server's answer nests arrays and objects 300 levels deep, past the 127 a message may take"
        );
    }
}
