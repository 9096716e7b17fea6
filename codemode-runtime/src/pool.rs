//! Kept threads for blocking tool calls. A blocking tool (a plain function
//! under `#[tool]`) runs on a thread of its own so it neither stalls the
//! executor nor waits behind another call; starting a thread per call
//! costs tens of microseconds, more than the call itself for a quick tool.
//! So a thread that finishes a call waits a while for the next one, and a
//! call takes a waiting thread when there is one. Calls never queue: with
//! no thread waiting, a new one starts.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{RecvTimeoutError, SendError, Sender, channel};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Threads waiting for work of type `T`, each on a queue of its own. The
/// blocking-call threads here and the engine threads that hold an engine
/// built ahead (`host.rs`) both wait this way.
pub(crate) struct Waiting<T> {
    threads: Mutex<Vec<(u64, Sender<T>)>>,
    next_id: AtomicU64,
}

impl<T> Waiting<T> {
    /// No thread waits yet.
    pub(crate) const fn new() -> Self {
        Waiting {
            threads: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(0),
        }
    }

    fn threads(&self) -> MutexGuard<'_, Vec<(u64, Sender<T>)>> {
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
            let Some((_, thread)) = self.threads().pop() else {
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
    /// already. `None` means the thread should end: the list was full, or
    /// `keep` passed with no work given.
    pub(crate) fn wait(&self, most: usize, keep: Option<Duration>) -> Option<T> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = channel();
        {
            let mut threads = self.threads();
            if threads.len() >= most {
                return None;
            }
            threads.push((id, tx));
        }
        let Some(keep) = keep else {
            return rx.recv().ok();
        };
        match rx.recv_timeout(keep) {
            Ok(work) => Some(work),
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                let mut threads = self.threads();
                match threads.iter().position(|(waiting, _)| *waiting == id) {
                    // Nobody took this thread: it ends.
                    Some(at) => {
                        threads.swap_remove(at);
                        None
                    }
                    // Work was handed to it just now: it is on the way.
                    None => {
                        drop(threads);
                        rx.recv().ok()
                    }
                }
            }
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// How long a thread waits for its next call before it ends.
const KEEP: Duration = Duration::from_secs(10);
/// At most this many threads wait at once; the rest end after their call.
const MAX_WAITING: usize = 32;

/// The threads waiting for a blocking call.
static WAITING: Waiting<Job> = Waiting::new();

/// Runs `job` on a waiting thread, or on a new one. Fails only when no
/// thread waits and none can be started.
pub(crate) fn run(job: Job) -> std::io::Result<()> {
    let Some(job) = WAITING.hand(job) else {
        return Ok(());
    };
    std::thread::Builder::new()
        .name("codemode-tool".to_owned())
        .spawn(move || serve(job))
        .map(drop)
}

/// A kept thread: runs its call, then waits for the next.
fn serve(first: Job) {
    let mut job = first;
    loop {
        job();
        match WAITING.wait(MAX_WAITING, Some(KEEP)) {
            Some(next) => job = next,
            None => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn calls_run_at_once_and_threads_are_kept() {
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
            }))
            .unwrap();
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
        }))
        .unwrap();
        let again = done_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(first.contains(&again));
    }
}
