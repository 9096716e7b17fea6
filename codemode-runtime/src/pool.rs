//! Kept threads for blocking tool calls. A blocking tool (a plain function
//! under `#[tool]`) runs on a thread of its own so it neither stalls the
//! executor nor waits behind another call; starting a thread per call
//! costs tens of microseconds, more than the call itself for a quick tool.
//! So a thread that finishes a call waits a while for the next one, and a
//! call takes a waiting thread when there is one. Calls never queue: with
//! no thread waiting, a new one starts.

use std::sync::mpsc::{RecvTimeoutError, SendError, Sender, channel};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

type Job = Box<dyn FnOnce() + Send>;

/// How long a thread waits for its next call before it ends.
const KEEP: Duration = Duration::from_secs(10);
/// At most this many threads wait at once; the rest end after their call.
const MAX_WAITING: usize = 32;

/// The waiting threads, each with the sender of its own queue and an id.
static WAITING: Mutex<Vec<(u64, Sender<Job>)>> = Mutex::new(Vec::new());
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn waiting() -> MutexGuard<'static, Vec<(u64, Sender<Job>)>> {
    WAITING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `job` on a waiting thread, or on a new one. Fails only when no
/// thread waits and none can be started.
pub(crate) fn run(job: Job) -> std::io::Result<()> {
    let mut job = job;
    loop {
        let Some((_, thread)) = waiting().pop() else {
            break;
        };
        match thread.send(job) {
            Ok(()) => return Ok(()),
            // That thread has ended: try the next.
            Err(SendError(back)) => job = back,
        }
    }
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
        let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (tx, rx) = channel();
        {
            let mut list = waiting();
            if list.len() >= MAX_WAITING {
                return;
            }
            list.push((id, tx));
        }
        job = match rx.recv_timeout(KEEP) {
            Ok(next) => next,
            Err(RecvTimeoutError::Disconnected) => return,
            Err(RecvTimeoutError::Timeout) => {
                let mut list = waiting();
                match list.iter().position(|(waiting_id, _)| *waiting_id == id) {
                    // Nobody took this thread: it ends.
                    Some(at) => {
                        list.swap_remove(at);
                        return;
                    }
                    // A call took it just now: its job is on the way.
                    None => {
                        drop(list);
                        match rx.recv() {
                            Ok(next) => next,
                            Err(_) => return,
                        }
                    }
                }
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

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
