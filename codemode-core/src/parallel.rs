//! Two things at once, when the machine has a second core to run them on.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

/// How many threads rendering may use; see [`set_render_threads`].
static ALLOWED: AtomicUsize = AtomicUsize::new(1);

/// Lets rendering use up to `threads` threads (at most as many as the
/// machine runs at once; 1, the default, keeps every render on its caller's
/// thread). With two, a long tool list (64 tools or more) is read, lowered
/// and printed in two halves at once, and the texts are byte-identical to a
/// render on one thread.
///
/// It is off by default because it pays only in some processes: a one-shot
/// render with an allocator made for threads (the `codemode` CLI, which uses
/// mimalloc, turns it on). With the system allocator, starting threads and
/// giving each its own heap cost more than the halves save (measured 2.4x
/// slower for 100 tools); and a server that renders on many tasks already
/// keeps its cores busy.
///
/// ```
/// codemode_core::set_render_threads(2);
/// ```
pub fn set_render_threads(threads: usize) {
    ALLOWED.store(threads.max(1), Ordering::Relaxed);
}

/// How many threads rendering may use now.
pub(crate) fn threads() -> usize {
    static AVAILABLE: OnceLock<usize> = OnceLock::new();
    // Read once per process: on Linux it costs file reads.
    let available =
        *AVAILABLE.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from));
    ALLOWED.load(Ordering::Relaxed).min(available)
}

/// Lists at least this long are worth a second thread: below it, starting
/// one costs about what it saves.
const WORTH_SPLITTING: usize = 64;

/// Where to cut a list of `len` items to work on its halves at once: `len`
/// itself (no cut) when it is short or there is one core.
pub(crate) fn split_point(len: usize) -> usize {
    if worth_halving(len) { len / 2 } else { len }
}

/// Whether `len` units of work (items, or about four tools' worth of
/// text) are worth halving between two threads.
pub(crate) fn worth_halving(len: usize) -> bool {
    #[cfg(test)]
    if SEQUENTIAL.get() {
        return false;
    }
    len >= WORTH_SPLITTING && threads() > 1
}

#[cfg(test)]
thread_local! {
    static SEQUENTIAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Allows two threads, and fails the test where the machine cannot run two
/// at once (a test of the halves would then quietly test one pass).
#[cfg(test)]
pub(crate) fn two_threads() {
    set_render_threads(2);
    assert_eq!(threads(), 2, "this test needs a machine with two cores");
}

/// Runs `f` with nothing split (on this thread), so tests can compare the
/// halves' result with one pass.
#[cfg(test)]
pub(crate) fn sequentially<T>(f: impl FnOnce() -> T) -> T {
    SEQUENTIAL.set(true);
    let out = f();
    SEQUENTIAL.set(false);
    out
}

/// Cuts `items` at `at` (normally [`split_point`]) and runs `first` on the
/// front part here and `second` on the rest on a second thread; with no
/// rest, `first` runs alone.
pub(crate) fn halves<'t, T: Sync, A, B: Send>(
    items: &'t [T],
    at: usize,
    first: impl FnOnce(&'t [T]) -> A,
    second: impl FnOnce(&'t [T]) -> B + Send,
) -> (A, Option<B>) {
    let (front, rest) = items.split_at(at.min(items.len()));
    if rest.is_empty() {
        return (first(front), None);
    }
    let (a, b) = join(|| first(front), || second(rest));
    (a, Some(b))
}

/// Runs `a` here and `b` on a second thread, and returns both results. A
/// panic in either is resumed here, as if both had run on this thread. If
/// the thread has not started by the time `a` is done (a busy machine can
/// take milliseconds to schedule it), or cannot be started, `b` runs here
/// after `a` instead of being waited for.
pub(crate) fn join<A, B: Send>(a: impl FnOnce() -> A, b: impl FnOnce() -> B + Send) -> (A, B) {
    let b = Mutex::new(Some(b));
    // Whichever thread takes `b` first runs it; the lock is never held
    // while anything can panic.
    let take = || b.lock().unwrap_or_else(PoisonError::into_inner).take();
    std::thread::scope(|scope| {
        let second = std::thread::Builder::new().spawn_scoped(scope, || take().map(|b| b()));
        let first = a();
        let here = take().map(|b| b());
        let there = match second {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => None,
        };
        match here.or(there) {
            Some(second) => (first, second),
            None => unreachable!("`b` was taken by one of the two threads"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_run_and_a_panic_comes_back_here() {
        assert_eq!(join(|| 1, || "two"), (1, "two"));
        let caught = std::panic::catch_unwind(|| join(|| 1, || -> u8 { panic!("in b") }));
        assert!(caught.is_err());
    }

    #[test]
    fn b_runs_once_on_whichever_thread_takes_it() {
        // With `a` instant, `b` is often taken here before the thread
        // starts; with `a` slow, by the thread. Either way, once.
        for slow in [false, true] {
            for _ in 0..100 {
                let runs = AtomicUsize::new(0);
                let (_, before) = join(
                    || {
                        if slow {
                            std::thread::sleep(std::time::Duration::from_micros(200));
                        }
                    },
                    || runs.fetch_add(1, Ordering::SeqCst),
                );
                assert_eq!((before, runs.load(Ordering::SeqCst)), (0, 1));
            }
        }
    }
}
