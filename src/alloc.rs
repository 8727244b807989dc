//! How the wasm memory grows: in large, geometric steps (issue 15).
//!
//! In wasm32 the global allocator is dlmalloc, the allocator std uses there, with one change:
//! std's asks `memory.grow` for just the pages a request needs, often one 64 KiB page, and V8
//! runs a full garbage collection every few growths while a large JS heap is live (a hostile
//! report of 400,000 claims spent ~80 % of a cold call in 81 full GCs). Here a growth asks for
//! at least [`STEP_SHARE`] of the current memory and [`MIN_STEP_PAGES`], so a call that needs
//! 100 MB costs a handful of growths, not thousands. The memory may hold up to that share more
//! than the largest call needed (it never shrinks, as before); near wasm32's 4 GiB the step
//! is cut to what is left, and when the large step is refused (the host's own limit) the
//! growth falls back to exactly the pages needed. A refused growth is a failed allocation,
//! reported as before, never a wrapped address.
//!
//! The policy is [`grow_pages`] and [`region`], pure functions tested natively; the allocator
//! that calls them compiles only for wasm32 (natively std's allocator stays).

/// A wasm page.
pub const PAGE_BYTES: u64 = 1 << 16;
/// wasm32's limit: 65,536 pages, 4 GiB.
pub const MAX_PAGES: u64 = 1 << 16;
/// The smallest step, 1 MiB.
pub const MIN_STEP_PAGES: u64 = 16;
/// A step is at least the current memory divided by this.
pub const STEP_SHARE: u64 = 4;

/// What to ask `memory.grow` for: `pages` first, then `fallback` (exactly the pages needed)
/// if the host refuses the larger step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Growth {
    pub pages: u64,
    pub fallback: Option<u64>,
}

/// The growth for a memory of `current` pages that needs `needed` more, under `limit` pages:
/// `None` when nothing is needed or the limit leaves no room for it (no growth is tried).
pub fn grow_pages(current: u64, needed: u64, limit: u64) -> Option<Growth> {
    let room = limit.checked_sub(current)?;
    if needed == 0 || needed > room {
        return None;
    }
    let pages = needed.max(current.div_ceil(STEP_SHARE)).max(MIN_STEP_PAGES).min(room);
    Some(Growth { pages, fallback: (pages > needed).then_some(needed) })
}

/// The bytes a growth of `pages` from `previous` pages gave, as (address, length): `None` if
/// they would pass wasm32's 4 GiB. A region that ends exactly at 4 GiB is 16 bytes shorter,
/// so that its end address does not wrap to 0 in a 32-bit `usize` (as std's allocator does).
pub fn region(previous: u64, pages: u64) -> Option<(u64, u64)> {
    let top = MAX_PAGES * PAGE_BYTES;
    let start = previous.checked_mul(PAGE_BYTES)?;
    let len = pages.checked_mul(PAGE_BYTES)?;
    let end = start.checked_add(len)?;
    match end.cmp(&top) {
        std::cmp::Ordering::Less => Some((start, len)),
        std::cmp::Ordering::Equal => Some((start, len.checked_sub(16)?)),
        std::cmp::Ordering::Greater => None,
    }
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::{grow_pages, region, Growth, MAX_PAGES, PAGE_BYTES};
    use core::arch::wasm32::{memory_grow, memory_size};
    use core::cell::UnsafeCell;
    use core::ptr::null_mut;
    use std::alloc::{GlobalAlloc, Layout};

    #[cfg(target_feature = "atomics")]
    compile_error!("src/alloc.rs's allocator is single-threaded: build without atomics");

    /// dlmalloc's system side for wasm32, growing by [`grow_pages`]; like std's, it never
    /// gives memory back (wasm memory cannot shrink).
    struct Steps;

    impl Steps {
        /// `memory.grow` by `pages`: the previous size in pages, `None` when refused.
        fn grow(pages: u64) -> Option<u64> {
            let previous = memory_grow(0, usize::try_from(pages).ok()?);
            (previous != usize::MAX).then_some(previous as u64)
        }
    }

    // SAFETY: `alloc` returns memory that `memory.grow` has just added to the module's one
    // memory, which nothing else uses, with its true length (or null).
    unsafe impl dlmalloc::Allocator for Steps {
        fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
            let fail = (null_mut(), 0, 0);
            let current = memory_size(0) as u64;
            let Some(Growth { pages, fallback }) = grow_pages(current, (size as u64).div_ceil(PAGE_BYTES), MAX_PAGES) else { return fail };
            let grown = match (Self::grow(pages), fallback) {
                (Some(previous), _) => Some((previous, pages)),
                (None, Some(needed)) => Self::grow(needed).map(|previous| (previous, needed)),
                (None, None) => None,
            };
            let Some((start, len)) = grown.and_then(|(previous, pages)| region(previous, pages)) else { return fail };
            match (usize::try_from(start), usize::try_from(len)) {
                (Ok(start), Ok(len)) => (start as *mut u8, len, 0),
                _ => fail,
            }
        }

        fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
            null_mut()
        }

        fn free_part(&self, _ptr: *mut u8, _old: usize, _new: usize) -> bool {
            false
        }

        fn free(&self, _ptr: *mut u8, _size: usize) -> bool {
            false
        }

        fn can_release_part(&self, _flags: u32) -> bool {
            false
        }

        fn allocates_zeros(&self) -> bool {
            true
        }

        fn page_size(&self) -> usize {
            1 << 16
        }
    }

    struct Global(UnsafeCell<dlmalloc::Dlmalloc<Steps>>);

    // SAFETY: wasm32 without atomics has one thread (the compile_error above).
    unsafe impl Sync for Global {}

    // SAFETY: each call has the only access to the allocator (one thread, no reentrance:
    // dlmalloc does not allocate), and passes GlobalAlloc's contract on to dlmalloc's.
    unsafe impl GlobalAlloc for Global {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            (*self.0.get()).malloc(layout.size(), layout.align())
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            (*self.0.get()).free(ptr, layout.size(), layout.align())
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            (*self.0.get()).calloc(layout.size(), layout.align())
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            (*self.0.get()).realloc(ptr, layout.size(), layout.align(), new_size)
        }
    }

    #[global_allocator]
    static GLOBAL: Global = Global(UnsafeCell::new(dlmalloc::Dlmalloc::new_with_allocator(Steps)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grow(current: u64, needed: u64) -> Option<Growth> {
        grow_pages(current, needed, MAX_PAGES)
    }

    #[test]
    fn a_small_memory_grows_by_at_least_a_mebibyte() {
        assert_eq!(grow(17, 1), Some(Growth { pages: MIN_STEP_PAGES, fallback: Some(1) }));
        assert_eq!(grow(17, 20), Some(Growth { pages: 20, fallback: None }));
    }

    #[test]
    fn a_large_memory_grows_by_a_share_of_itself_or_what_is_needed() {
        // 100 MiB of memory needing one page grows by 25 MiB.
        assert_eq!(grow(1600, 1), Some(Growth { pages: 400, fallback: Some(1) }));
        assert_eq!(grow(1601, 1), Some(Growth { pages: 401, fallback: Some(1) }));
        assert_eq!(grow(1600, 5000), Some(Growth { pages: 5000, fallback: None }));
        // From 17 pages to 3 GiB, a page needed at a time: 33 growths, not 49,135.
        let (mut pages, mut growths) = (17, 0);
        while pages < 49_152 {
            pages += grow(pages, 1).map_or(0, |g| g.pages);
            growths += 1;
        }
        assert_eq!(growths, 33);
    }

    #[test]
    fn the_step_stops_at_the_limit_and_falls_back_to_what_is_needed() {
        // 3.5 GiB grows by the 0.5 GiB left, not by 0.875 GiB.
        assert_eq!(grow(57_344, 1), Some(Growth { pages: 8_192, fallback: Some(1) }));
        assert_eq!(grow(49_152, 1), Some(Growth { pages: 12_288, fallback: Some(1) }));
        assert_eq!(grow(MAX_PAGES - 10, 10), Some(Growth { pages: 10, fallback: None }));
        assert_eq!(grow(MAX_PAGES - 10, 3), Some(Growth { pages: 10, fallback: Some(3) }));
        // A lower limit (the host's) is kept the same way.
        assert_eq!(grow_pages(100, 1, 120), Some(Growth { pages: 20, fallback: Some(1) }));
    }

    #[test]
    fn nothing_is_grown_past_the_limit_or_when_nothing_is_needed() {
        assert_eq!(grow(MAX_PAGES, 1), None);
        assert_eq!(grow(MAX_PAGES - 10, 11), None);
        assert_eq!(grow(17, 0), None);
        assert_eq!(grow(MAX_PAGES + 1, 1), None);
        assert_eq!(grow(17, u64::MAX), None);
        assert_eq!(grow(u64::MAX, u64::MAX), None);
    }

    #[test]
    fn a_region_never_wraps_past_four_gibibytes() {
        assert_eq!(region(17, 16), Some((17 << 16, 16 << 16)));
        // Ending exactly at 4 GiB: 16 bytes short, so its end is not address 0.
        assert_eq!(region(MAX_PAGES - 16, 16), Some(((MAX_PAGES - 16) << 16, (16 << 16) - 16)));
        assert_eq!(region(0, MAX_PAGES), Some((0, (MAX_PAGES << 16) - 16)));
        assert_eq!(region(MAX_PAGES - 16, 17), None);
        assert_eq!(region(u64::MAX, 1), None);
        assert_eq!(region(1, u64::MAX), None);
    }
}
