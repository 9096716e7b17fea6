//! Kept threads for blocking tool calls. A blocking tool (a plain function
//! under `#[tool]`) runs on a thread of its own so it neither stalls the
//! executor nor waits behind another call; starting a thread per call
//! costs tens of microseconds, more than the call itself for a quick tool.
//! So a thread that finishes a call waits a while for the next one, and a
//! call takes a waiting thread when there is one; with none waiting, a new
//! one starts, up to [`MAX_THREADS`] in the process, past which calls wait
//! in order for the next free thread.

use std::collections::VecDeque;
use std::sync::mpsc::{SendError, Sender, channel};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Threads waiting for work of type `T`, each on a queue of its own: the
/// engine threads that hold an engine built ahead (`host.rs`) wait this way.
pub(crate) struct Waiting<T> {
    threads: Mutex<Vec<Sender<T>>>,
}

impl<T> Waiting<T> {
    /// No thread waits yet.
    pub(crate) const fn new() -> Self {
        Waiting {
            threads: Mutex::new(Vec::new()),
        }
    }

    fn threads(&self) -> MutexGuard<'_, Vec<Sender<T>>> {
        self.threads.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many threads wait.
    pub(crate) fn len(&self) -> usize {
        self.threads().len()
    }

    /// Gives `work` to the newest waiting thread, or gives it back when
    /// none waits.
    pub(crate) fn hand(&self, mut work: T) -> Option<T> {
        loop {
            let Some(thread) = self.threads().pop() else {
                return Some(work);
            };
            match thread.send(work) {
                Ok(()) => return None,
                // That thread has ended: try the next.
                Err(SendError(back)) => work = back,
            }
        }
    }

    /// Makes the calling thread wait for work, unless `most` threads wait
    /// already (then, or if the list is dropped, `None`: the thread should
    /// end).
    pub(crate) fn wait(&self, most: usize) -> Option<T> {
        let (tx, rx) = channel();
        {
            let mut threads = self.threads();
            if threads.len() >= most {
                return None;
            }
            threads.push(tx);
        }
        rx.recv().ok()
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// How long a thread waits for its next call before it ends.
const KEEP: Duration = Duration::from_secs(10);
/// At most this many threads wait at once; the rest end after their call.
const MAX_WAITING: usize = 32;
/// At most this many threads run blocking calls at once, in the whole
/// process: past it, calls wait in order for the next free thread (a
/// program that starts a thousand calls at once gets them all answered,
/// without a thousand threads).
pub(crate) const MAX_THREADS: usize = 256;

/// The calls not yet taken, and the threads that take them.
struct Pool {
    queue: VecDeque<Job>,
    /// Threads started and not ended.
    live: usize,
    /// Threads waiting for a call.
    idle: usize,
    /// Calls queued for waiting threads that have not woken yet.
    wakeups: usize,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    queue: VecDeque::new(),
    live: 0,
    idle: 0,
    wakeups: 0,
});
static WORK: Condvar = Condvar::new();

fn lock() -> MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `job` on a waiting thread, on a new one, or (past [`MAX_THREADS`])
/// on the next thread that frees up. When no thread runs and none can be
/// started, the calls waiting are dropped unrun: a job learns that it never
/// ran when it is dropped (its callers' channels close).
pub(crate) fn run(job: Job) {
    let mut pool = lock();
    pool.queue.push_back(job);
    if pool.idle > pool.wakeups {
        pool.wakeups += 1;
        WORK.notify_one();
        return;
    }
    if pool.live >= MAX_THREADS {
        return;
    }
    pool.live += 1;
    drop(pool);
    let spawned = std::thread::Builder::new()
        .name("codemode-tool".to_owned())
        .spawn(serve);
    if spawned.is_err() {
        let mut pool = lock();
        pool.live -= 1;
        // Another thread takes the calls later; with none, they fail.
        if pool.live == 0 {
            let unrun = std::mem::take(&mut pool.queue);
            drop(pool);
            drop(unrun);
        }
    }
}

/// Runs `f` on a kept thread (see [`run`]) and waits for what it gives:
/// `None` when it never ran (no thread could take it), `Some(Err(_))` when
/// it panicked. A caller that stops waiting before a thread takes it
/// leaves it unrun.
pub(crate) async fn call<R: Send + 'static>(
    f: impl FnOnce() -> R + Send + 'static,
) -> Option<std::thread::Result<R>> {
    let (tx, rx) = futures_channel::oneshot::channel();
    run(Box::new(move || {
        if tx.is_canceled() {
            return;
        }
        let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
    }));
    rx.await.ok()
}

/// A pool thread: runs calls in order while there are some, then waits a
/// while for the next.
fn serve() {
    let mut pool = lock();
    loop {
        if let Some(job) = pool.queue.pop_front() {
            drop(pool);
            job();
            pool = lock();
            continue;
        }
        if pool.idle >= MAX_WAITING {
            break;
        }
        pool.idle += 1;
        let (next, waited) = WORK
            .wait_timeout(pool, KEEP)
            .unwrap_or_else(|e| e.into_inner());
        pool = next;
        pool.idle -= 1;
        if pool.wakeups > 0 {
            pool.wakeups -= 1;
        } else if waited.timed_out() && pool.queue.is_empty() {
            break;
        }
    }
    pool.live -= 1;
}

/// Threads running or waiting for blocking calls, for tests.
#[cfg(test)]
pub(crate) fn live_threads() -> usize {
    lock().live
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn calls_run_at_once_threads_are_kept_and_capped() {
        // Four calls that only finish together: none may wait behind another.
        let arrived = Arc::new(AtomicUsize::new(0));
        let (done_tx, done_rx) = channel();
        for _ in 0..4 {
            let arrived = Arc::clone(&arrived);
            let done = done_tx.clone();
            run(Box::new(move || {
                arrived.fetch_add(1, Ordering::SeqCst);
                while arrived.load(Ordering::SeqCst) < 4 {
                    std::thread::sleep(Duration::from_millis(1));
                }
                done.send(std::thread::current().id()).unwrap();
            }));
        }
        let first: Vec<_> = (0..4)
            .map(|_| done_rx.recv_timeout(Duration::from_secs(10)).unwrap())
            .collect();
        // Give the threads time to start waiting, then run one more call: it
        // lands on one of them.
        std::thread::sleep(Duration::from_millis(50));
        let done = done_tx.clone();
        run(Box::new(move || {
            done.send(std::thread::current().id()).unwrap()
        }));
        let again = done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(first.contains(&again));
        // (One test, not two: the pool is the process's, so a test running
        // beside this one would take the kept threads.)
        past_the_cap_calls_wait_for_a_free_thread();
    }

    fn past_the_cap_calls_wait_for_a_free_thread() {
        // More calls at once than threads may run: every one is answered,
        // and the process never holds more than the cap.
        let calls = MAX_THREADS * 2 + 7;
        let most = Arc::new(AtomicUsize::new(0));
        let (done_tx, done_rx) = channel();
        for _ in 0..calls {
            let most = Arc::clone(&most);
            let done = done_tx.clone();
            run(Box::new(move || {
                most.fetch_max(live_threads(), Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(20));
                done.send(()).unwrap();
            }));
        }
        for _ in 0..calls {
            done_rx.recv_timeout(Duration::from_secs(30)).unwrap();
        }
        assert!(most.load(Ordering::SeqCst) <= MAX_THREADS);
        assert!(live_threads() <= MAX_THREADS);
    }
}
