//! The transport to a server started as a child process: rmcp's line
//! reader and writer over the child's standard streams, with the child's
//! output read through [`ClampedLines`].
//!
//! rmcp reads each line with serde_json, which refuses a number past the
//! largest double (`1e400`, valid JSON that JavaScript reads as Infinity)
//! as malformed, and drops the line. A tool list or a result holding one
//! would never arrive: the request would wait for its timeout, and the
//! server would be reported as silent. Such numbers are read as the largest
//! double instead, as a tool list read from a file is.

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

/// The longest line kept whole to be read again; a longer one passes as
/// it is (rmcp refuses lines past 16 MiB anyway).
const MAX_LINE: usize = 16 * 1024 * 1024;

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
}

impl<R> ClampedLines<R> {
    pub(crate) fn new(inner: R) -> Self {
        ClampedLines {
            inner,
            partial: Vec::new(),
            ready: Vec::new(),
            at: 0,
            done: false,
        }
    }

    /// Appends `read` to `partial`, and moves its whole lines (all of it at
    /// the end of the stream, or when a line grows past [`MAX_LINE`]) to
    /// `ready`. Only `read` is searched: `partial` holds no line break.
    fn take_lines(&mut self, read: &[u8]) {
        let before = self.partial.len();
        self.partial.extend_from_slice(read);
        let end = if self.done || self.partial.len() > MAX_LINE {
            self.partial.len()
        } else {
            match read.iter().rposition(|b| *b == b'\n') {
                Some(at) => before + at + 1,
                None => return,
            }
        };
        self.ready.clear();
        self.at = 0;
        for line in self.partial[..end].split_inclusive(|b| *b == b'\n') {
            match codemode_core::wire::mend_line(line) {
                Some(text) => self.ready.extend_from_slice(text.as_bytes()),
                None => self.ready.extend_from_slice(line),
            }
        }
        self.partial.drain(..end);
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
        // Text that is not UTF-8 is left for rmcp to refuse; long digits in
        // a string are no number.
        let mut input = b"{\"x\": \"caf\xc3\xa9\"}\n\xff\xfe 1e400\n\"".to_vec();
        input.extend(std::iter::repeat_n(b'7', 400));
        input.extend(b"\"\n");
        assert_eq!(through(&input, 5).await, input);
    }
}
