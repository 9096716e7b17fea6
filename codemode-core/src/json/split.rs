//! A tool list read in two parts on two threads ([`parse_split`]).
//!
//! The first thread reads the list from its start, and says at each tool
//! where it is. The second, once it starts, guesses where a tool starts
//! halfway between that place and the end of the text, and reads the tools
//! from there to the end ([`fast::parse_second`]). When the first reaches
//! the second's starting place, it takes the second's part, waiting for it
//! if the second is still reading; the part is used only when it starts at
//! that very tool ([`fast::parse_first`]). A second thread that has not
//! started by the time the first is done never reads: nothing ever waits for
//! work that may not run, and a late start only moves the halfway place.

use super::{Json, fast};
use bumpalo::Bump;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Where the second part stands.
enum State<'a> {
    /// Not started.
    Waiting,
    /// Being read.
    Reading,
    /// Read (`None`: no part found).
    Done(Option<fast::Part<'a>>),
    /// Not wanted any more: the first part is done, or took it.
    Over,
}

struct Handoff<'a> {
    state: Mutex<State<'a>>,
    done: Condvar,
    /// Where the first thread's latest tool starts.
    first_at: AtomicUsize,
    /// Where the second thread seeks its first tool (`usize::MAX` until it
    /// starts).
    second_from: AtomicUsize,
    /// Where the tool the second thread is reading from starts, as far as
    /// it has guessed (`usize::MAX` before its first guess).
    second_at: AtomicUsize,
}

impl<'a> Handoff<'a> {
    fn lock(&self) -> MutexGuard<'_, State<'a>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// For the second thread: where to seek its part, if it is still
    /// wanted (the part must then be [`finish`](Self::finish)ed).
    fn start(&self, len: usize) -> Option<usize> {
        let mut state = self.lock();
        if !matches!(*state, State::Waiting) {
            return None;
        }
        *state = State::Reading;
        let at = self.first_at.load(Ordering::Acquire).min(len);
        let from = at + (len - at) / 2;
        self.second_from.store(from, Ordering::Release);
        Some(from)
    }

    fn finish(&self, part: Option<fast::Part<'a>>) {
        *self.lock() = State::Done(part);
        self.done.notify_all();
    }

    /// For the first thread, at a tool starting at `at`: `None` to be asked
    /// again at the next tool (the second part starts further on, or may);
    /// else the answer, waiting for it only when the second thread is
    /// reading from this very tool. A part that starts before `at` is of no
    /// use any more, nor is one still being read from there.
    fn ask(&self, at: usize) -> Option<Option<fast::Part<'a>>> {
        self.first_at.store(at, Ordering::Release);
        if at < self.second_from.load(Ordering::Acquire) {
            return None;
        }
        let mut state = self.lock();
        loop {
            match std::mem::replace(&mut *state, State::Over) {
                State::Reading => {
                    *state = State::Reading;
                    let guess = self.second_at.load(Ordering::Acquire);
                    if guess > at {
                        return None;
                    }
                    if guess < at {
                        return Some(None);
                    }
                    state = self
                        .done
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                State::Done(Some(part)) if part.at > at => {
                    *state = State::Done(Some(part));
                    return None;
                }
                State::Done(part) => return Some(part.filter(|part| part.at == at)),
                // Not reached: the place is known once it has started.
                State::Waiting | State::Over => return Some(None),
            }
        }
    }

    /// For the first thread, when it is done: a part not started is not
    /// read any more.
    fn close(&self) {
        let mut state = self.lock();
        if matches!(*state, State::Waiting) {
            *state = State::Over;
        }
    }
}

/// Finishes the second part with none when dropped while it holds the
/// handoff: the second thread's reading ended by a panic.
struct Unfinished<'h, 'a>(Option<&'h Handoff<'a>>);

impl Drop for Unfinished<'_, '_> {
    fn drop(&mut self) {
        if let Some(handoff) = self.0 {
            handoff.finish(None);
        }
    }
}

/// Parses a tool list (an array of tools, or an object with a `tools`
/// array) as [`super::parse_within`] does, in two parts at once: this
/// thread reads the list from its start, into `first`, and a second thread
/// the tools from about the middle of what is left when it starts, into
/// `second`. The tree is the one [`super::parse_within`] gives, or `None`
/// wherever the fast reader would leave the text to serde_json (read it
/// whole then, to get the tree or the error in serde_json's words). A list
/// whose middle the second thread cannot find (a tool longer than half the
/// text, say) is read by this thread alone.
pub(crate) fn parse_split<'a>(
    text: &'a str,
    first: &'a Bump,
    second: &'a mut Bump,
    levels: usize,
) -> Option<Json<'a>> {
    let handoff = Handoff {
        state: Mutex::new(State::Waiting),
        done: Condvar::new(),
        first_at: AtomicUsize::new(0),
        second_from: AtomicUsize::new(usize::MAX),
        second_at: AtomicUsize::new(usize::MAX),
    };
    let handoff = &handoff;
    let (list, ()) = crate::parallel::join(
        || {
            let list = fast::parse_first(text, first, levels, &mut |at| handoff.ask(at));
            handoff.close();
            list
        },
        move || {
            let second: &'a Bump = second;
            if let Some(from) = handoff.start(text.len()) {
                // Should the reading panic, the first thread is told there
                // is no part (and `join` then passes the panic on), rather
                // than waiting for one for ever.
                let mut unfinished = Unfinished(Some(handoff));
                let guessing = &mut |at| handoff.second_at.store(at, Ordering::Release);
                // The list's elements sit one or two levels down.
                let part =
                    fast::parse_second(text, second, levels.saturating_sub(2), from, guessing);
                unfinished.0 = None;
                handoff.finish(part);
            }
        },
    );
    list
}
