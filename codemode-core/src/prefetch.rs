//! Asking the cache for memory before it is read.
//!
//! A long list is read whole into an arena and then lowered in the order
//! of its tools' names, not in the order it was read: each tool's tree and
//! text then lie far from the last one's, long out of the cache. Asking for
//! the next tool's while the current one is lowered hides that wait (at
//! 10,000 tools, an eighth of the time on one thread and a sixth on two;
//! BENCHMARKS.md).

use crate::json::Fields;

/// Where one tool's tree and text lie in memory, as two address ranges.
/// Only ever asked for, never read through: a wrong range costs a wasted
/// request and nothing else.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct Footprint {
    tree: (usize, usize),
    text: (usize, usize),
}

/// Most bytes of a tool's tree, or of its text, asked for at once: more
/// than most tools take, and a bound on the work for one that takes more.
const MOST: usize = 16 << 10;

impl Footprint {
    /// The tree from `tree.0` on, `tree.1` bytes long, and the text likewise.
    pub(crate) fn new(tree: (usize, usize), text: (usize, usize)) -> Footprint {
        Footprint { tree, text }
    }

    /// Asks the cache for the tool's tree and text.
    pub(crate) fn fetch(self) {
        fetch(self.tree);
        fetch(self.text);
    }

    /// Whether `address` lies in the tree's range.
    #[cfg(test)]
    pub(crate) fn tree_holds(self, address: usize) -> bool {
        (self.tree.0..self.tree.0 + self.tree.1).contains(&address)
    }

    /// Whether `address` lies in the text's range.
    #[cfg(test)]
    pub(crate) fn text_holds(self, address: usize) -> bool {
        (self.text.0..self.text.0 + self.text.1).contains(&address)
    }
}

/// Asks the cache for an object's entries.
pub(crate) fn fetch_entries(fields: Fields<'_>) {
    fetch((fields.entries_at(), fields.entries_len()));
}

/// Asks the cache for the `len` bytes from `from` on (at most [`MOST`]),
/// one line of 64 bytes at a time.
fn fetch((from, len): (usize, usize)) {
    let lines = len.min(MOST).div_ceil(64);
    #[cfg(target_arch = "x86_64")]
    for line in 0..lines {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let at = from.wrapping_add(line * 64);
        // SAFETY: SSE, which the instruction needs, is part of every
        // x86_64 target; a prefetch reads nothing and cannot fault,
        // whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::without_provenance::<i8>(at)) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (from, lines);
}
