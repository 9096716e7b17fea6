//! The stack a check runs its parsers on, when the caller's has too little
//! left: a tokio worker has 2 MiB, and a 50-line program may ask for more.
//!
//! stacker maps a fresh stack for every such call, and the first touch of
//! each of its pages is a page fault: about half of a check's time on a
//! 2 MiB thread. Here each thread keeps the stack it mapped (up to
//! [`KEPT`]) for its next check, already faulted in. The stack has a page
//! without access at each end, as stacker's has, so an overflow faults
//! instead of writing over other memory.

/// The largest stack a thread keeps between checks; a larger one is
/// unmapped after its check.
const KEPT: usize = 16 << 20;

/// Every stack mapped is at least this large, so that programs of
/// ordinary length share one.
const LEAST: usize = 4 << 20;

/// Runs `f` on a stack of at least `size` bytes; `None` when no such
/// stack can be had (a process whose address space is limited), rather
/// than the panic stacker would give.
pub(super) fn on_stack<R>(size: usize, f: impl FnOnce() -> R) -> Option<R> {
    imp::on_stack(size, f)
}

#[cfg(unix)]
mod imp {
    psm::psm_stack_manipulation! {
        yes {
            use super::{KEPT, LEAST};
            use std::cell::Cell;
            use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

            /// A mapping of `usable` bytes of stack between two pages
            /// without access.
            struct Stack {
                mapping: *mut libc::c_void,
                page: usize,
                usable: usize,
            }

            impl Stack {
                fn map(size: usize) -> Option<Stack> {
                    // SAFETY: sysconf has no preconditions.
                    let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
                        .ok()
                        .filter(|p| p.is_power_of_two())?;
                    let usable = size.max(LEAST).checked_next_multiple_of(page)?;
                    let whole = usable.checked_add(2 * page)?;
                    // SAFETY: a fresh anonymous mapping; nothing else refers
                    // to it, and it is unmapped only by `drop`.
                    unsafe {
                        let mapping = libc::mmap(
                            std::ptr::null_mut(),
                            whole,
                            libc::PROT_NONE,
                            libc::MAP_PRIVATE | libc::MAP_ANON,
                            -1,
                            0,
                        );
                        if mapping == libc::MAP_FAILED {
                            return None;
                        }
                        let stack = Stack { mapping, page, usable };
                        let inner = mapping.cast::<u8>().add(page).cast();
                        if libc::mprotect(inner, usable, libc::PROT_READ | libc::PROT_WRITE) != 0 {
                            return None;
                        }
                        Some(stack)
                    }
                }

                /// The lowest address of the usable part.
                fn base(&self) -> *mut u8 {
                    // SAFETY: `page` bytes in, inside the mapping.
                    unsafe { self.mapping.cast::<u8>().add(self.page) }
                }
            }

            impl Drop for Stack {
                fn drop(&mut self) {
                    // SAFETY: the mapping made in `map`, of this length, no
                    // longer in use (a stack in use is never dropped: it is
                    // taken out of `SPARE` while it runs).
                    unsafe {
                        libc::munmap(self.mapping, self.usable + 2 * self.page);
                    }
                }
            }

            thread_local! {
                /// The thread's stack between checks. A check takes it out
                /// while it runs, so a check nested in another maps its own.
                static SPARE: Cell<Option<Stack>> = const { Cell::new(None) };
            }

            pub(super) fn on_stack<R>(size: usize, f: impl FnOnce() -> R) -> Option<R> {
                let spare = SPARE.try_with(Cell::take).ok().flatten();
                let stack = match spare {
                    Some(stack) if stack.usable >= size => stack,
                    spare => {
                        // Kept for the next check if this one cannot map.
                        let mapped = Stack::map(size);
                        if mapped.is_none() {
                            let _ = SPARE.try_with(|s| s.set(spare));
                        }
                        mapped?
                    }
                };
                // SAFETY: the base is page-aligned and the length a multiple
                // of the page, which meets every target's stack alignment;
                // the callback cannot unwind, as it catches every panic.
                let result = unsafe {
                    psm::on_stack(stack.base(), stack.usable, move || {
                        catch_unwind(AssertUnwindSafe(f))
                    })
                };
                if stack.usable <= KEPT {
                    // A thread being torn down drops it instead.
                    let _ = SPARE.try_with(|spare| spare.set(Some(stack)));
                }
                match result {
                    Ok(value) => Some(value),
                    Err(panic) => resume_unwind(panic),
                }
            }
        }
        no {
            pub(super) fn on_stack<R>(size: usize, f: impl FnOnce() -> R) -> Option<R> {
                Some(stacker::grow(size, f))
            }
        }
    }
}

#[cfg(not(unix))]
mod imp {
    pub(super) fn on_stack<R>(size: usize, f: impl FnOnce() -> R) -> Option<R> {
        Some(stacker::grow(size, f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Recurses `depth` times with a frame of about 1 KiB each.
    fn deep(depth: usize) -> usize {
        let frame = std::hint::black_box([1u8; 1024]);
        if depth == 0 {
            return 0;
        }
        deep(depth - 1) + usize::from(frame[depth % 1024])
    }

    #[test]
    fn a_small_thread_runs_deep_work_again_and_again() {
        std::thread::Builder::new()
            .stack_size(128 << 10)
            .spawn(|| {
                for _ in 0..3 {
                    // About 3 MiB of frames, far past the thread's own.
                    assert_eq!(on_stack(8 << 20, || deep(3_000)), Some(3_000));
                }
                // Larger than the kept stack: mapped for this call.
                assert_eq!(on_stack(KEPT + 1, || deep(10)), Some(10));
                assert_eq!(on_stack(1 << 20, || deep(100)), Some(100));
            })
            .map(|t| t.join())
            .expect("spawn")
            .expect("the deep work finishes");
    }

    #[test]
    fn a_panic_reaches_the_caller_and_the_stack_is_kept() {
        let caught = std::panic::catch_unwind(|| on_stack(1 << 20, || panic!("inside")));
        let message = caught.expect_err("the panic comes back");
        assert_eq!(message.downcast_ref::<&str>(), Some(&"inside"));
        assert_eq!(on_stack(1 << 20, || deep(50)), Some(50));
    }

    /// A stack larger than the address space can hold is no stack: the
    /// caller hears so, and nothing panics.
    #[test]
    fn a_stack_that_cannot_be_mapped_is_none() {
        #[cfg(unix)]
        assert_eq!(on_stack(usize::MAX / 2, || deep(1)), None);
        assert_eq!(on_stack(1 << 20, || deep(5)), Some(5));
    }

    #[test]
    fn a_check_nested_in_another_gets_its_own_stack() {
        let outer = on_stack(1 << 20, || {
            let here = psm_position();
            let inner = on_stack(1 << 20, psm_position).unwrap_or_default();
            (here, inner, deep(20))
        })
        .expect("a stack");
        assert_ne!(outer.0 >> 20, outer.1 >> 20, "two stacks");
        assert_eq!(outer.2, 20);
    }

    fn psm_position() -> usize {
        let marker = 0u8;
        std::ptr::addr_of!(marker) as usize
    }
}
