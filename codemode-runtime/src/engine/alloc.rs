//! The engine's heap: the C allocator, counted, refusing what passes the
//! limit. A refusal is recorded where the host can see it, so an
//! out-of-memory outcome never depends on what the program threw.

use rquickjs::allocator::Allocator;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

pub(crate) struct Counting {
    used: usize,
    /// Settable after the engine is built: an engine made ahead of its run
    /// learns the run's limit when the run arrives.
    limit: Arc<AtomicUsize>,
    refused: Arc<AtomicBool>,
}

impl Counting {
    pub(crate) fn new(limit: Arc<AtomicUsize>, refused: Arc<AtomicBool>) -> Self {
        Counting {
            used: 0,
            limit,
            refused,
        }
    }

    fn fits(&self, more: usize) -> bool {
        if self.used.saturating_add(more) > self.limit.load(Ordering::Relaxed) {
            self.refused.store(true, Ordering::SeqCst);
            false
        } else {
            true
        }
    }
}

fn usable(ptr: *mut u8) -> usize {
    // SAFETY: `ptr` came from the C allocator (or is null, which it accepts).
    unsafe { libc::malloc_usable_size(ptr.cast()) }
}

// SAFETY: every pointer comes from libc's malloc family, which aligns to at
// least 16 bytes on the platforms rquickjs supports, and is freed there.
unsafe impl Allocator for Counting {
    fn alloc(&mut self, size: usize) -> *mut u8 {
        if !self.fits(size) {
            return std::ptr::null_mut();
        }
        // SAFETY: plain malloc.
        let ptr = unsafe { libc::malloc(size.max(1)) }.cast::<u8>();
        if !ptr.is_null() {
            self.used += usable(ptr);
        }
        ptr
    }

    fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
        let Some(total) = count.checked_mul(size) else {
            return std::ptr::null_mut();
        };
        if !self.fits(total) {
            return std::ptr::null_mut();
        }
        // SAFETY: plain calloc.
        let ptr = unsafe { libc::calloc(count, size) }.cast::<u8>();
        if !ptr.is_null() {
            self.used += usable(ptr);
        }
        ptr
    }

    unsafe fn dealloc(&mut self, ptr: *mut u8) {
        if ptr.is_null() {
            return;
        }
        self.used = self.used.saturating_sub(usable(ptr));
        // SAFETY: `ptr` was allocated by this allocator.
        unsafe { libc::free(ptr.cast()) }
    }

    unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
        if ptr.is_null() {
            return self.alloc(new_size);
        }
        let old = usable(ptr);
        if new_size > old && !self.fits(new_size - old) {
            return std::ptr::null_mut();
        }
        // SAFETY: `ptr` was allocated by this allocator; on failure it stays valid.
        let new = unsafe { libc::realloc(ptr.cast(), new_size.max(1)) }.cast::<u8>();
        if !new.is_null() {
            self.used = self.used.saturating_sub(old) + usable(new);
        }
        new
    }

    unsafe fn usable_size(ptr: *mut u8) -> usize {
        usable(ptr)
    }
}
