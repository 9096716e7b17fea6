//! Two things at once, when the machine has a second core to run them on.

use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex, OnceLock, PoisonError};

/// How many threads rendering may use; see [`set_render_threads`].
static ALLOWED: AtomicUsize = AtomicUsize::new(1);

/// Lets rendering use up to `threads` threads (at most as many as the
/// machine runs at once; 1, the default, keeps every render on its caller's
/// thread). With two, a long tool list (256 tools or more) is read, lowered
/// and printed in two halves at once, and the texts are byte-identical to a
/// render on one thread. The second half runs on a helper thread that is
/// started the first time a list is halved and then kept, waiting, for the
/// process's life (a new thread per half cost each half a fresh heap).
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

/// Lists at least this long are worth a second thread: below it, handing
/// half to the helper costs about what it saves (in a whole `codemode`
/// process, halving 100 or 200 tools made the render some 10% slower;
/// BENCHMARKS.md §2). Tests halve shorter lists, so that small lists
/// exercise both paths.
const WORTH_SPLITTING: usize = if cfg!(test) { 64 } else { 256 };

/// Where to cut a list of `len` items to work on its halves at once: `len`
/// itself (no cut) when it is short or there is one core.
pub(crate) fn split_point(len: usize) -> usize {
    if worth_halving(len) { len / 2 } else { len }
}

/// Whether `len` units of work (items, or about one tool's worth of
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

/// Runs `a` here and offers `b` to the helper thread, and returns both
/// results. Whichever thread claims `b` first runs it: the helper, if it is
/// free before `a` is done, or else this thread, after `a` (a busy machine
/// can take milliseconds to wake the helper, and the helper may be busy with
/// another caller's half). A panic in either is resumed here, as if both
/// had run on this thread.
///
/// So `a` must never wait for `b` to start: `b` may not run until `a` is
/// done (the helper may be busy, or this may be a `join` inside a `b` that
/// the helper runs). It may wait for a `b` that has started, as the split
/// reading does.
pub(crate) fn join<A, B: Send, FA, FB>(a: FA, b: FB) -> (A, B)
where
    FA: FnOnce() -> A,
    FB: FnOnce() -> B + Send,
{
    let mut slot = Slot {
        work: Some(b),
        out: None,
    };
    let slot: *mut Slot<FB, B> = &raw mut slot;
    let offer = Arc::new(Offer::default());
    let job = Job::new(slot, Arc::clone(&offer));
    if let Some(helper) = helper() {
        // A helper that could not be started has no receiver: the job comes
        // back unsent, and `b` runs here.
        let _ = helper.send(job);
    }
    // Until the offer is settled, `slot` may be in use by the helper: even
    // when `a` panics, this frame must not end before the helper is done
    // with it.
    let settle = Settle(&offer);
    let first = a();
    let claimed_here = offer.claim(CLAIMED_HERE);
    std::mem::forget(settle);
    let second = if claimed_here {
        // SAFETY: `slot` points at this frame's `Slot`, and claimed here,
        // the helper never touches it.
        match unsafe { (*slot).work.take() } {
            Some(work) => work(),
            None => unreachable!("the offered work is taken once"),
        }
    } else {
        offer.wait();
        // SAFETY: as above; the helper has claimed the work, and `wait`
        // returns only once it has stored the result and let go of the slot.
        match unsafe { (*slot).out.take() } {
            Some(Ok(second)) => second,
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => unreachable!("the helper stores a result before it says it is done"),
        }
    };
    (first, second)
}

/// The offered work and, once the helper has run it, its result.
struct Slot<F, B> {
    work: Option<F>,
    out: Option<std::thread::Result<B>>,
}

/// Who has claimed an offered half: nobody yet, its caller, or the helper,
/// which then says when it is done.
#[derive(Default)]
struct Offer {
    state: AtomicU8,
    lock: Mutex<()>,
    done: Condvar,
}

const OPEN: u8 = 0;
const CLAIMED_HERE: u8 = 1;
const CLAIMED_THERE: u8 = 2;
const DONE_THERE: u8 = 3;

impl Offer {
    /// Claims the work for `by`; false if the other side has it.
    fn claim(&self, by: u8) -> bool {
        self.state
            .compare_exchange(OPEN, by, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Waits until the helper, which has claimed the work, is done with it.
    fn wait(&self) {
        let mut guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        while self.state.load(Ordering::Acquire) != DONE_THERE {
            guard = self
                .done
                .wait(guard)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// For the helper: the work is done and its slot no longer used.
    fn finish(&self) {
        let _guard = self.lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.state.store(DONE_THERE, Ordering::Release);
        self.done.notify_all();
    }
}

/// Settles an offer as the caller's frame unwinds (a panic in `a`): takes
/// the work back if the helper has not claimed it, else waits for it.
struct Settle<'o>(&'o Offer);

impl Drop for Settle<'_> {
    fn drop(&mut self) {
        if !self.0.claim(CLAIMED_HERE) {
            self.0.wait();
        }
    }
}

/// A half offered to the helper: `run` is [`run_offered`] for the slot's
/// types, `slot` the caller's [`Slot`].
struct Job {
    run: unsafe fn(*mut ()),
    slot: *mut (),
    offer: Arc<Offer>,
}

impl Job {
    /// The job for a slot whose work and result may cross threads.
    fn new<F: FnOnce() -> B + Send, B: Send>(slot: *mut Slot<F, B>, offer: Arc<Offer>) -> Job {
        Job {
            run: run_offered::<F, B>,
            slot: slot.cast(),
            offer,
        }
    }
}

// SAFETY: the helper dereferences `slot` only after claiming the offer, and
// the caller, which owns the slot, then waits for it; `Job::new` takes only
// slots whose work and result are `Send`.
unsafe impl Send for Job {}

/// Runs the work in a caller's [`Slot`] and stores its result (or its
/// panic) there.
///
/// # Safety
/// `slot` is a live `Slot<F, B>` that no other thread uses until the offer
/// it came with is finished.
unsafe fn run_offered<F: FnOnce() -> B, B>(slot: *mut ()) {
    // SAFETY: the caller's promise.
    let slot = unsafe { &mut *slot.cast::<Slot<F, B>>() };
    if let Some(work) = slot.work.take() {
        slot.out = Some(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
    }
}

/// The helper thread's queue, started on first use; `None` if the thread
/// could not be started (then every half runs on its caller's thread for
/// the rest of the process: a render is correct either way), or in a child
/// process forked after it started, which has the queue but not the
/// thread.
fn helper() -> Option<&'static Sender<Job>> {
    static HELPER: OnceLock<Option<(u32, Sender<Job>)>> = OnceLock::new();
    let (process, queue) = HELPER
        .get_or_init(|| {
            let (send, receive) = channel::<Job>();
            let started = std::thread::Builder::new()
                .name("codemode-render".into())
                .spawn(move || {
                    // Offers the caller took back are skipped.
                    while let Ok(job) = receive.recv() {
                        if job.offer.claim(CLAIMED_THERE) {
                            // Should anything unwind out of the run, the
                            // caller must still hear that the slot is let
                            // go of, or it would wait for ever.
                            let finish = Finish(&job.offer);
                            // SAFETY: claimed, so the caller waits for
                            // `finish` before its slot goes away.
                            unsafe { (job.run)(job.slot) };
                            drop(finish);
                        }
                    }
                });
            started.ok().map(|_| (std::process::id(), send))
        })
        .as_ref()?;
    (*process == std::process::id()).then_some(queue)
}

/// Tells the caller the helper is done with its slot, when dropped.
struct Finish<'o>(&'o Offer);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
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

    /// Sleeps until `flag` is set (or ten seconds pass: a test then fails on
    /// what it checks next).
    fn until_set(flag: &std::sync::atomic::AtomicBool) {
        let start = std::time::Instant::now();
        while !flag.load(Ordering::SeqCst) && start.elapsed().as_secs() < 10 {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// `a` panics while the helper runs `b`, which borrows the caller's
    /// frame: the panic must not end that frame before `b` is done.
    #[test]
    fn a_panic_here_waits_for_the_half_the_helper_runs() {
        let started = std::sync::atomic::AtomicBool::new(false);
        let finished = AtomicUsize::new(0);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            join(
                || {
                    until_set(&started);
                    panic!("in a")
                },
                || {
                    started.store(true, Ordering::SeqCst);
                    // Longer than a first panic takes to unwind (tens of
                    // milliseconds in a test build).
                    std::thread::sleep(std::time::Duration::from_millis(400));
                    finished.fetch_add(1, Ordering::SeqCst)
                },
            )
        }));
        assert!(caught.is_err());
        assert_eq!(finished.load(Ordering::SeqCst), 1);
    }

    /// `b`, on the helper, waits for what `a` hands over midway through a
    /// channel (as the sharing counts do); and when `a` unwinds before
    /// handing anything over, `b` hears that none will come instead of
    /// waiting for ever (the caller waits for a `b` the helper has started
    /// before the panic goes on). `a` waits until `b` has started each
    /// time, so that `b` does wait.
    #[test]
    fn a_handoff_reaches_b_or_b_hears_it_never_will() {
        let (give, handed) = std::sync::mpsc::sync_channel(1);
        let started = &std::sync::atomic::AtomicBool::new(false);
        let (after, given) = join(
            || {
                until_set(started);
                give.send(7).unwrap();
                "a went on"
            },
            move || {
                started.store(true, Ordering::SeqCst);
                handed.recv().ok()
            },
        );
        assert_eq!((after, given), ("a went on", Some(7)));
        let (give, handed) = std::sync::mpsc::sync_channel::<u8>(1);
        let started = &std::sync::atomic::AtomicBool::new(false);
        let heard_none = &std::sync::atomic::AtomicBool::new(false);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            join(
                move || {
                    let _give = give;
                    until_set(started);
                    panic!("in a before the handoff")
                },
                move || {
                    started.store(true, Ordering::SeqCst);
                    heard_none.store(handed.recv().is_err(), Ordering::SeqCst)
                },
            )
        }));
        assert!(caught.is_err());
        assert!(heard_none.load(Ordering::SeqCst));
    }

    /// Every `b` the helper takes runs on the same thread: threads are not
    /// started per half.
    #[test]
    fn the_helper_is_one_kept_thread_and_never_runs_a() {
        let here = std::thread::current().id();
        let mut elsewhere = std::collections::BTreeSet::new();
        for _ in 0..20 {
            let ran = std::sync::atomic::AtomicBool::new(false);
            let (a_ran_on, b_ran_on) = join(
                || {
                    until_set(&ran);
                    std::thread::current().id()
                },
                || {
                    ran.store(true, Ordering::SeqCst);
                    std::thread::current().id()
                },
            );
            assert_eq!(a_ran_on, here);
            assert_ne!(b_ran_on, here);
            elsewhere.insert(format!("{b_ran_on:?}"));
        }
        assert_eq!(elsewhere.len(), 1, "b ran on {elsewhere:?}");
    }

    fn on_the_helper() -> bool {
        std::thread::current().name() == Some("codemode-render")
    }

    /// `a` returns while the helper is still in `b`, which reads the
    /// caller's frame: the caller must wait for `b`'s result.
    #[test]
    fn a_done_first_waits_for_the_half_the_helper_runs() {
        let started = std::sync::atomic::AtomicBool::new(false);
        let numbers: Vec<u64> = (1..=100).collect();
        let (first, (sum, there)) = join(
            || {
                until_set(&started);
                "a"
            },
            || {
                started.store(true, Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(50));
                (numbers.iter().sum::<u64>(), on_the_helper())
            },
        );
        assert_eq!((first, sum, there), ("a", 5050, true));
    }

    /// A panic in a `b` that the helper runs comes back here, with its
    /// message (a panic the helper prints goes to the output of the test
    /// that started the helper: run with `--nocapture` to see it).
    #[test]
    fn a_panic_on_the_helper_comes_back_here() {
        let started = std::sync::atomic::AtomicBool::new(false);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            join(
                || until_set(&started),
                || -> u8 {
                    started.store(true, Ordering::SeqCst);
                    assert!(on_the_helper(), "b ran on the caller's thread");
                    panic!("in b, on the helper")
                },
            )
        }));
        let panic = caught.expect_err("b's panic comes back");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"in b, on the helper"));
    }

    /// Callers on several threads share the one helper, and a `b` that
    /// joins on the helper does not wait for the helper (its own `b` runs
    /// on the helper after its `a`).
    #[test]
    fn many_callers_and_joins_on_the_helper_all_finish() {
        let total = AtomicUsize::new(0);
        let outer_on_the_helper = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..10 {
                        let started = std::sync::atomic::AtomicBool::new(false);
                        let ((), ()) = join(
                            || until_set(&started),
                            || {
                                started.store(true, Ordering::SeqCst);
                                if on_the_helper() {
                                    outer_on_the_helper.fetch_add(1, Ordering::SeqCst);
                                }
                                let ((), ()) = join(
                                    || {
                                        total.fetch_add(1, Ordering::SeqCst);
                                    },
                                    || {
                                        total.fetch_add(1, Ordering::SeqCst);
                                    },
                                );
                            },
                        );
                    }
                });
            }
        });
        assert_eq!(total.load(Ordering::SeqCst), 4 * 10 * 2);
        // Each outer `a` waits for its `b` to start, and only the helper can
        // start it before `a` is done.
        assert_eq!(outer_on_the_helper.load(Ordering::SeqCst), 4 * 10);
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
