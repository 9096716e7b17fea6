//! The worker process: an engine in a child process under OS limits, so a
//! hang, a crash or a memory bomb inside the engine ends that process and
//! nothing else. Tool calls still run in the host; the child only sees the
//! program, the limits and the tool results.
//!
//! The child is a program that calls [`run_worker_if_requested`] first in
//! `main` (the `codemode` binary and the example agent do), started with the
//! argument [`WORKER_ARG`]. Messages are JSON lines: the job and tool results
//! on its stdin; tool calls, console lines and the outcome on its stdout.

use crate::engine;
use crate::host::{Connection, recv_until};
use crate::outcome::{RunError, RunErrorKind};
use crate::protocol::{EngineIo, EngineOutcome, Job, Recv, Reply, ToHost};
use futures_channel::mpsc::unbounded;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The first argument that makes a process a worker.
pub const WORKER_ARG: &str = "__codemode_worker";

/// How to start a worker process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerCommand {
    program: PathBuf,
    args: Vec<OsString>,
}

impl WorkerCommand {
    /// This process's own executable, re-executed as a worker: the default
    /// for Python. It works from any binary that links this crate, tests
    /// included, because the worker starts before `main` (see
    /// [`run_worker_if_requested`]). On Linux it names `/proc/self/exe`, so
    /// it holds even when the file on disk was replaced.
    pub fn this_process() -> Self {
        if cfg!(target_os = "linux") {
            WorkerCommand::new("/proc/self/exe")
        } else {
            WorkerCommand::new(std::env::current_exe().unwrap_or_default())
        }
    }

    /// The current executable, re-executed as a worker. Its `main` must call
    /// [`run_worker_if_requested`] first.
    pub fn current_exe() -> std::io::Result<Self> {
        Ok(WorkerCommand::new(std::env::current_exe()?))
    }

    /// Another executable whose `main` calls [`run_worker_if_requested`]
    /// first (for example the `codemode` binary, or a small binary of your
    /// own when the host's `main` is not yours, as in tests).
    pub fn new(program: impl Into<PathBuf>) -> Self {
        WorkerCommand {
            program: program.into(),
            args: vec![OsString::from(WORKER_ARG)],
        }
    }

    /// The executable this command starts.
    pub fn program(&self) -> &std::path::Path {
        &self.program
    }
}

/// If this process was started as a worker, runs the worker and exits;
/// otherwise returns at once.
///
/// A process started as a worker becomes one before `main` runs, in a
/// constructor this crate registers, so calling this is only needed where
/// such constructors do not run. Calling it first in `main` is harmless.
///
/// ```no_run
/// // First thing in `main`:
/// codemode_runtime::run_worker_if_requested();
/// // ... the host's own work
/// ```
pub fn run_worker_if_requested() {
    if std::env::args_os().nth(1).is_some_and(|a| a == WORKER_ARG) {
        let code = worker_main();
        std::process::exit(code);
    }
}

/// Makes a process started with [`WORKER_ARG`] a worker before `main`:
/// `main` may be a test harness or a server that must not start twice.
#[ctor::ctor(unsafe)]
fn worker_before_main() {
    // Read without `std::env::args`, which may not be set up yet.
    let Ok(cmdline) = std::fs::read("/proc/self/cmdline") else {
        return;
    };
    if cmdline.split(|&b| b == 0).nth(1) == Some(WORKER_ARG.as_bytes()) {
        let code = worker_main();
        std::process::exit(code);
    }
}

/// The worker: reads one job, runs it, writes the outcome.
fn worker_main() -> i32 {
    // The protocol gets stdout to itself: anything else that writes to fd 1
    // (the engine's C code included) lands on stderr instead.
    let protocol = match redirect_stdout() {
        Some(file) => file,
        None => return 3,
    };
    let mut input = BufReader::new(std::io::stdin());
    let mut line = String::new();
    if input.read_line(&mut line).unwrap_or(0) == 0 {
        return 4;
    }
    let job: Job = match serde_json::from_str(&line) {
        Ok(job) => job,
        Err(_) => return 5,
    };
    let (replies_tx, replies_rx) = std::sync::mpsc::channel::<Reply>();
    // Replies arrive on their own thread, so the engine can wait with a deadline.
    let reader = std::thread::Builder::new()
        .name("codemode-worker-in".to_owned())
        .spawn(move || {
            let mut line = String::new();
            loop {
                line.clear();
                match input.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => match serde_json::from_str::<Reply>(&line) {
                        Ok(reply) => {
                            if replies_tx.send(reply).is_err() {
                                break;
                            }
                        }
                        Err(_) => break,
                    },
                }
            }
        });
    if reader.is_err() {
        return 6;
    }
    let out = Arc::new(Mutex::new(std::io::BufWriter::new(protocol)));
    let limits = job.limits.clone();
    // Before `limit_self` forbids new threads.
    engine::measure_worker_memory(job.language);
    let engine_out = Arc::clone(&out);
    let engine = std::thread::Builder::new()
        .name("codemode-engine".to_owned())
        .stack_size(engine::ENGINE_STACK)
        .spawn(move || {
            let io = PipeIo {
                out: engine_out,
                replies: replies_rx,
                cancelled: AtomicBool::new(false),
            };
            engine::run(
                job,
                Box::new(io),
                Arc::new(AtomicBool::new(false)),
                &mut None,
            )
        });
    let Ok(engine) = engine else { return 7 };
    limit_self(&limits);
    let outcome = engine.join().unwrap_or_else(|_| EngineOutcome {
        value: None,
        error: Some(RunError::new(
            RunErrorKind::Internal,
            "the engine stopped unexpectedly (a panic inside it was contained)",
        )),
    });
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = write_line(&mut *out, &ToHost::Done(outcome));
    0
}

struct PipeIo {
    out: Arc<Mutex<std::io::BufWriter<std::fs::File>>>,
    replies: std::sync::mpsc::Receiver<Reply>,
    cancelled: AtomicBool,
}

impl EngineIo for PipeIo {
    fn send(&mut self, message: ToHost) -> bool {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        write_line(&mut *out, &message).is_ok()
    }

    fn recv(&mut self, deadline: Instant) -> Recv {
        recv_until(&self.replies, deadline, &self.cancelled)
    }
}

fn write_line<W: Write, T: serde::Serialize>(out: &mut W, message: &T) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, message)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// A private copy of stdout for the protocol; fd 1 then points at stderr.
fn redirect_stdout() -> Option<std::fs::File> {
    use std::os::fd::FromRawFd;
    // SAFETY: plain descriptor calls on descriptors this process owns.
    unsafe {
        let copy = libc::dup(1);
        if copy < 0 || libc::dup2(2, 1) < 0 {
            return None;
        }
        Some(std::fs::File::from_raw_fd(copy))
    }
}

/// OS limits on this worker: address space, CPU time, no core dumps, and no
/// new processes or threads once the engine's threads exist.
fn limit_self(limits: &crate::outcome::Limits) {
    fn set(resource: libc::__rlimit_resource_t, value: u64) {
        let limit = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: setrlimit only reads the struct.
        unsafe {
            libc::setrlimit(resource, &limit);
        }
    }
    let mapped = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .next()
                .and_then(|p| p.parse::<u64>().ok())
        })
        .map_or(0, |pages| pages * 4096);
    let headroom = (limits.memory_bytes as u64)
        .saturating_add(limits.max_host_bytes as u64 * 2)
        .saturating_add(512 << 20);
    set(libc::RLIMIT_AS, mapped.saturating_add(headroom));
    set(libc::RLIMIT_CPU, limits.timeout.as_secs() + 2);
    set(libc::RLIMIT_CORE, 0);
    set(libc::RLIMIT_NPROC, 0);
    set(libc::RLIMIT_FSIZE, 0);
}

/// Starts a worker for `job`.
pub(crate) fn spawn(command: &WorkerCommand, job: Job) -> Connection {
    let (events_tx, events) = unbounded();
    let (replies, replies_rx) = std::sync::mpsc::channel::<Reply>();
    let slot = Arc::new(Mutex::new(Slot {
        child: None,
        cancelled: false,
    }));
    // Starting a process forks and execs, which takes milliseconds with a
    // large host: it happens on a thread of its own, so the future that
    // drives the run never blocks the thread polling it.
    let starter = {
        let command = command.clone();
        let slot = Arc::clone(&slot);
        let events_tx = events_tx.clone();
        std::thread::Builder::new()
            .name("codemode-worker-start".to_owned())
            .spawn(move || start(&command, job, events_tx, replies_rx, slot))
    };
    if let Err(e) = starter {
        let _ = events_tx.unbounded_send(ToHost::Done(EngineOutcome {
            value: None,
            error: Some(RunError::new(
                RunErrorKind::Internal,
                format!("the host could not start a thread for its worker process: {e}"),
            )),
        }));
    }
    Connection {
        events,
        replies,
        cancel: Box::new(move || {
            let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
            slot.cancelled = true;
            if let Some(child) = slot.child.as_mut() {
                let _ = child.kill();
            }
        }),
    }
}

/// A worker's process once started, and whether the run was cancelled
/// before (then the process is killed as soon as it starts).
struct Slot {
    child: Option<Child>,
    cancelled: bool,
}

/// Starts the worker process for `job` and the threads that talk to it.
fn start(
    command: &WorkerCommand,
    job: Job,
    events_tx: futures_channel::mpsc::UnboundedSender<ToHost>,
    replies_rx: std::sync::mpsc::Receiver<Reply>,
    slot: Arc<Mutex<Slot>>,
) {
    let fail = |message: String| {
        let _ = events_tx.unbounded_send(ToHost::Done(EngineOutcome {
            value: None,
            error: Some(RunError::new(RunErrorKind::Internal, message)),
        }));
    };
    let child = Command::new(&command.program)
        .args(&command.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_clear()
        .spawn();
    let mut child: Child = match child {
        Ok(child) => child,
        Err(e) => {
            fail(format!(
                "the host could not start its worker process {}: {e}",
                command.program.display()
            ));
            return;
        }
    };
    // The last of what the child writes to stderr tells how it died.
    let stderr_tail = child.stderr.take().and_then(|mut stderr| {
        std::thread::Builder::new()
            .name("codemode-worker-err".to_owned())
            .spawn(move || {
                let mut tail = Vec::new();
                let mut buf = [0u8; 4096];
                while let Ok(n) = std::io::Read::read(&mut stderr, &mut buf) {
                    if n == 0 {
                        break;
                    }
                    tail.extend_from_slice(&buf[..n]);
                    if tail.len() > STDERR_TAIL {
                        tail.drain(..tail.len() - STDERR_TAIL);
                    }
                }
                String::from_utf8_lossy(&tail).into_owned()
            })
            .ok()
    });
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        fail("the worker process has no pipes".to_owned());
        return;
    };
    // The wire escapes what it carries (up to twice the bytes), and the host
    // budget is enforced on the values themselves, so this only stops a
    // worker gone wrong.
    let limit =
        2 * (job.limits.max_host_bytes as u64 + job.limits.max_output_bytes as u64) + (1 << 20);
    let timeout = job.limits.timeout;
    {
        let mut held = slot.lock().unwrap_or_else(|e| e.into_inner());
        if held.cancelled {
            let _ = child.kill();
        }
        held.child = Some(child);
    }
    // Writer: the job, then each reply, as lines.
    let first = serde_json::to_string(&job).unwrap_or_default();
    let _ = std::thread::Builder::new()
        .name("codemode-worker-out".to_owned())
        .spawn(move || {
            if writeln!(stdin, "{first}")
                .and_then(|()| stdin.flush())
                .is_err()
            {
                return;
            }
            while let Ok(reply) = replies_rx.recv() {
                if write_line(&mut stdin, &reply).is_err() {
                    break;
                }
            }
        });
    // Reader: messages until the outcome, or the process's end.
    let reaper = slot;
    let _ = std::thread::Builder::new()
        .name("codemode-worker-in".to_owned())
        .spawn(move || {
            let mut lines = BufReader::new(std::io::Read::take(stdout, limit));
            let mut line = String::new();
            let mut done = false;
            loop {
                line.clear();
                match lines.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => match serde_json::from_str::<ToHost>(&line) {
                        Ok(message) => {
                            done = matches!(message, ToHost::Done(_));
                            if events_tx.unbounded_send(message).is_err() || done {
                                break;
                            }
                        }
                        Err(_) => break,
                    },
                }
            }
            let status = {
                let mut slot = reaper.lock().unwrap_or_else(|e| e.into_inner());
                slot.child.take().map(|mut child| {
                    let _ = child.kill();
                    child.wait()
                })
            };
            if !done {
                let tail = stderr_tail
                    .and_then(|reader| reader.join().ok())
                    .unwrap_or_default();
                let error = match status {
                    Some(Ok(status)) => died(status, timeout, &tail),
                    _ => RunError::new(RunErrorKind::Cancelled, "the host cancelled the run"),
                };
                let _ = events_tx.unbounded_send(ToHost::Done(EngineOutcome {
                    value: None,
                    error: Some(error),
                }));
            }
        });
}

/// How much of a worker's stderr is kept.
const STDERR_TAIL: usize = 8 << 10;

/// The run error for a worker that ended without an outcome, from how it
/// ended and the last of its stderr.
fn died(status: std::process::ExitStatus, timeout: std::time::Duration, stderr: &str) -> RunError {
    use std::os::unix::process::ExitStatusExt;
    if stderr.contains("has overflowed its stack") {
        return RunError::new(
            RunErrorKind::StackOverflow,
            "the program nested or recursed so deeply that the sandbox process ran out of stack; split the deepest part into steps",
        );
    }
    if stderr.contains("memory allocation of") {
        return RunError::new(
            RunErrorKind::OutOfMemory,
            "the program ran out of memory: the sandbox process reached its memory limit; use less memory",
        );
    }
    if let Some(at) = stderr.rfind("panicked at") {
        let what = stderr[at..].lines().take(2).collect::<Vec<_>>().join(": ");
        return RunError::new(
            RunErrorKind::Internal,
            format!(
                "the sandbox's engine crashed on this program, and only its process ended ({}); rewrite the construct near the error, or report it",
                crate::outcome::cut(&what, 300)
            ),
        );
    }
    match status.signal() {
        Some(libc::SIGXCPU) => {
            engine::timeout_error(timeout, Some("the sandbox process used up its CPU time"))
        }
        Some(libc::SIGKILL) => RunError::new(
            RunErrorKind::Internal,
            "the sandbox process was killed (by the host after a protocol error, or by the system)",
        ),
        Some(libc::SIGABRT) => RunError::new(
            RunErrorKind::OutOfMemory,
            "the sandbox process aborted, which under its address-space limit means it ran out of memory; use less memory",
        ),
        Some(signal) => RunError::new(
            RunErrorKind::Internal,
            format!("the sandbox process was ended by signal {signal}"),
        ),
        None => RunError::new(
            RunErrorKind::Internal,
            format!("the sandbox process exited with {status} before it reported an outcome"),
        ),
    }
}
