//! What Monty's memory limit measures in a worker process.
//!
//! Monty compares the bytes its host's allocator reports as live
//! (`LIVE_MEMORY`, less `BASELINE_MEMORY`, the process's size when a run
//! was armed) with `max_memory`, at its periodic checks. A library cannot
//! install the global allocator that would count them (a worker may be any
//! binary that links this crate), so without this nothing is counted and
//! only the address-space limit ends a memory bomb, hundreds of megabytes
//! later. In a worker, which runs one program and nothing else, a thread
//! reports the process's resident memory instead, often enough that a
//! program ends `out_of_memory` near its limit. In-process runs are not
//! measured: the host's own memory is not the program's. Nor is the
//! memory a worker spends reading and converting tool answers while the
//! program waits for them ([`HostWork`]): `max_host_bytes` bounds that.

use monty_types::{BASELINE_MEMORY, LIVE_MEMORY};
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the resident memory is read: a program allocating as fast as
/// it can gains a few megabytes between two readings.
const EVERY: Duration = Duration::from_millis(2);

/// Whether this process measures its resident memory for Monty.
static MEASURING: AtomicBool = AtomicBool::new(false);

/// The process's resident memory in bytes, read from `/proc/self/statm`.
fn resident(statm: &std::fs::File) -> Option<usize> {
    let mut text = [0u8; 128];
    let read = statm.read_at(&mut text, 0).ok()?;
    let text = std::str::from_utf8(&text[..read]).ok()?;
    let pages: usize = text.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
    pages.checked_mul(page)
}

/// Starts the thread that reports this worker's resident memory to Monty.
/// Call it before the worker's limits forbid new threads; without
/// `/proc`, or a thread, nothing is measured, as before.
pub(crate) fn measure_resident() {
    let Ok(statm) = std::fs::File::open("/proc/self/statm") else {
        return;
    };
    let Some(now) = resident(&statm) else {
        return;
    };
    LIVE_MEMORY.store(now, Ordering::Relaxed);
    let started = std::thread::Builder::new()
        .name("codemode-memory".to_owned())
        .stack_size(64 << 10)
        .spawn(move || {
            loop {
                if let Some(now) = resident(&statm) {
                    LIVE_MEMORY.store(now, Ordering::Relaxed);
                }
                std::thread::sleep(EVERY);
            }
        });
    MEASURING.store(started.is_ok(), Ordering::Relaxed);
}

/// Takes the process's size now as what a run's memory is counted from,
/// when it is measured: what the interpreter took before the program
/// started does not count against the program.
pub(crate) fn arm() {
    if !MEASURING.load(Ordering::Relaxed) {
        return;
    }
    if let Some(now) = now() {
        LIVE_MEMORY.store(now, Ordering::Relaxed);
        BASELINE_MEMORY.store(now, Ordering::Relaxed);
    }
}

/// The time the worker spends on the host's side (reading and converting
/// tool answers, while the program waits): what the process grows by
/// meanwhile is taken out of the program's count when it is dropped.
/// Freed memory stays resident for the allocator to reuse, so without this
/// a 1.4 MB answer, read into a JSON tree and then into the interpreter's
/// values, would count several times its size against the program.
pub(crate) struct HostWork {
    started: Option<usize>,
}

impl HostWork {
    /// Starts host work, when memory is measured.
    pub(crate) fn starts() -> Self {
        HostWork {
            started: MEASURING.load(Ordering::Relaxed).then(now).flatten(),
        }
    }
}

impl Drop for HostWork {
    fn drop(&mut self) {
        if let (Some(started), Some(now)) = (self.started, now()) {
            let grown = now.saturating_sub(started);
            BASELINE_MEMORY.fetch_add(grown, Ordering::Relaxed);
            LIVE_MEMORY.store(now, Ordering::Relaxed);
        }
    }
}

/// The process's resident memory now.
fn now() -> Option<usize> {
    std::fs::File::open("/proc/self/statm")
        .ok()
        .and_then(|statm| resident(&statm))
}
