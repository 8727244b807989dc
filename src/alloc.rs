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
/// `None` when nothing is needed, when the limit leaves no room at all, or when not even a
/// memory of `limit` pages could hold what is needed (no growth is tried). When less room is
/// left than is needed, the growth takes what is left: dlmalloc joins it to the free space at
/// the end of its memory (the last step's rest, up to a quarter of the memory, or more where
/// blocks were freed) and only then sees whether the request fits, so a request larger than
/// the room left, but not than the room and that free space together, is still served.
pub fn grow_pages(current: u64, needed: u64, limit: u64) -> Option<Growth> {
    let room = limit.checked_sub(current).filter(|room| *room > 0)?;
    if needed == 0 || needed > limit {
        return None;
    }
    let pages = needed.max(current.div_ceil(STEP_SHARE)).max(MIN_STEP_PAGES).min(room);
    Some(Growth { pages, fallback: (pages > needed).then_some(needed) })
}

/// Bytes of a memory of `pages` wasm pages, exact up to and at wasm32's 4 GiB (a product in
/// 32-bit `usize` wraps to 0 there).
pub fn memory_bytes(pages: u32) -> f64 {
    f64::from(pages) * PAGE_BYTES as f64
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

/// A linear memory that grows by whole pages from address [`Pages::base`]: in wasm32 the
/// module's own; natively a test's stand-in, so that dlmalloc and this growth run in `cargo test`.
pub trait Pages {
    /// Its size in pages.
    fn size(&self) -> u64;
    /// Grows it by `pages`: its previous size in pages, `None` when refused.
    fn grow(&self, pages: u64) -> Option<u64>;
    /// The address of its first byte.
    fn base(&self) -> usize;
    /// The most pages it may have.
    fn limit(&self) -> u64;
}

/// When the host refuses a growth of `pages` (its own limit, below wasm32's: a browser's, or
/// Node's `--wasm-max-mem-pages`), the most it grants below them, grown in halving powers of
/// two (a refused `memory.grow` changes nothing), each right after the last, as (the previous
/// size, the pages grown in all); `None` when it grants nothing. dlmalloc joins them to the
/// free rest of its last step, so a request that the two together hold is served.
pub fn grow_granted<M: Pages + ?Sized>(memory: &M, pages: u64) -> Option<(u64, u64)> {
    let (mut first, mut total) = (None, 0u64);
    let mut step = pages.checked_next_power_of_two()?;
    while step > 1 {
        step /= 2;
        if total + step < pages {
            if let Some(previous) = memory.grow(step) {
                first.get_or_insert(previous);
                total += step;
            }
        }
    }
    first.map(|previous| (previous, total))
}

/// dlmalloc's system side, growing a memory by [`grow_pages`]; like std's, it never gives
/// memory back (wasm memory cannot shrink).
#[cfg(any(target_arch = "wasm32", test))]
pub struct Steps<M>(pub M);

// SAFETY: `alloc` returns memory that `Pages::grow` has just added to the memory, which
// nothing else uses, with its true length (or null).
#[cfg(any(target_arch = "wasm32", test))]
unsafe impl<M: Pages + Send> dlmalloc::Allocator for Steps<M> {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        let fail = (std::ptr::null_mut(), 0, 0);
        let memory = &self.0;
        let Some(Growth { pages, fallback }) = grow_pages(memory.size(), (size as u64).div_ceil(PAGE_BYTES), memory.limit()) else { return fail };
        let grown = match (memory.grow(pages), fallback) {
            (Some(previous), _) => Some((previous, pages)),
            (None, Some(needed)) => memory.grow(needed).map(|previous| (previous, needed)).or_else(|| grow_granted(memory, needed)),
            (None, None) => grow_granted(memory, pages),
        };
        let Some((start, len)) = grown.and_then(|(previous, pages)| region(previous, pages)) else { return fail };
        match (usize::try_from(start).ok().and_then(|start| memory.base().checked_add(start)), usize::try_from(len)) {
            (Some(address), Ok(len)) => (address as *mut u8, len, 0),
            _ => fail,
        }
    }

    fn remap(&self, _ptr: *mut u8, _old: usize, _new: usize, _can_move: bool) -> *mut u8 {
        std::ptr::null_mut()
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

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::{Pages, Steps, MAX_PAGES};
    use core::arch::wasm32::{memory_grow, memory_size};
    use core::cell::UnsafeCell;
    use std::alloc::{GlobalAlloc, Layout};

    #[cfg(target_feature = "atomics")]
    compile_error!("src/alloc.rs's allocator is single-threaded: build without atomics");

    /// The module's memory 0.
    struct Wasm;

    impl Pages for Wasm {
        fn size(&self) -> u64 {
            memory_size(0) as u64
        }

        fn grow(&self, pages: u64) -> Option<u64> {
            let previous = memory_grow(0, usize::try_from(pages).ok()?);
            (previous != usize::MAX).then_some(previous as u64)
        }

        fn base(&self) -> usize {
            0
        }

        fn limit(&self) -> u64 {
            MAX_PAGES
        }
    }

    struct Global(UnsafeCell<dlmalloc::Dlmalloc<Steps<Wasm>>>);

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
    static GLOBAL: Global = Global(UnsafeCell::new(dlmalloc::Dlmalloc::new_with_allocator(Steps(Wasm))));
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
        assert_eq!(grow(17, 0), None);
        assert_eq!(grow(MAX_PAGES + 1, 1), None);
        assert_eq!(grow(17, u64::MAX), None);
        assert_eq!(grow(17, MAX_PAGES + 1), None);
        assert_eq!(grow(u64::MAX, u64::MAX), None);
    }

    #[test]
    fn short_of_room_the_growth_takes_what_is_left() {
        // dlmalloc joins it to its free space at the end and then sees whether the request fits.
        assert_eq!(grow(MAX_PAGES - 10, 11), Some(Growth { pages: 10, fallback: None }));
        assert_eq!(grow(MAX_PAGES - 1, MAX_PAGES), Some(Growth { pages: 1, fallback: None }));
        assert_eq!(grow_pages(100, 50, 120), Some(Growth { pages: 20, fallback: None }));
    }

    #[test]
    fn four_gibibytes_of_memory_are_counted_as_such() {
        assert_eq!(memory_bytes(17), 1_114_112.0);
        assert_eq!(memory_bytes(65_536), 4_294_967_296.0);
    }

    /// A memory of at most `limit` pages in a buffer of this process (dlmalloc natively, on
    /// the same growth as in wasm).
    struct Stand {
        base: usize,
        pages: std::cell::Cell<u64>,
        limit: u64,
        /// The host's own limit: growths past it are refused.
        cap: u64,
    }

    impl Stand {
        fn layout(limit: u64) -> std::alloc::Layout {
            match std::alloc::Layout::from_size_align((limit * PAGE_BYTES) as usize, PAGE_BYTES as usize) {
                Ok(layout) => layout,
                Err(e) => unreachable!("{e}"),
            }
        }

        fn new(limit: u64) -> Stand {
            Stand::capped(limit, limit)
        }

        fn capped(limit: u64, cap: u64) -> Stand {
            // SAFETY: the layout's size is not zero.
            let base = unsafe { std::alloc::alloc_zeroed(Stand::layout(limit.min(cap))) };
            assert!(!base.is_null());
            Stand { base: base as usize, pages: std::cell::Cell::new(0), limit, cap }
        }
    }

    impl Drop for Stand {
        fn drop(&mut self) {
            // SAFETY: allocated in `capped` with this layout.
            unsafe { std::alloc::dealloc(self.base as *mut u8, Stand::layout(self.limit.min(self.cap))) }
        }
    }

    impl Pages for Stand {
        fn size(&self) -> u64 {
            self.pages.get()
        }

        fn grow(&self, pages: u64) -> Option<u64> {
            let previous = self.pages.get();
            let next = previous.checked_add(pages).filter(|next| *next <= self.limit.min(self.cap))?;
            self.pages.set(next);
            Some(previous)
        }

        fn base(&self) -> usize {
            self.base
        }

        fn limit(&self) -> u64 {
            self.limit
        }
    }

    /// Fills `memory` with small blocks until a step takes it past 384 pages, then asks for
    /// more than the room left below `cap` pages but less than that room and the step's free
    /// rest together: served, the memory at `cap`; then past both, refused, and the heap goes on.
    fn a_request_past_the_room_left_is_served_from_the_last_steps_rest(memory: Stand, cap: u64) {
        let mut heap = dlmalloc::Dlmalloc::new_with_allocator(Steps(memory));
        let block = 60_000;
        let mut kept = 0;
        while heap.allocator().0.size() < 384 {
            // SAFETY: a valid size and alignment; the blocks are never freed (the heap goes whole).
            assert!(!unsafe { heap.malloc(block, 8) }.is_null());
            kept += 1;
        }
        let memory = heap.allocator().0.size() * PAGE_BYTES;
        let room = (cap - heap.allocator().0.size()) * PAGE_BYTES;
        let rest = memory - kept * (block as u64 + 64);
        assert!(room > 0 && rest > 2 * PAGE_BYTES, "room {room}, rest {rest}");
        let size = (room + rest / 2) as usize;
        // SAFETY: as above.
        let large = unsafe { heap.malloc(size, 8) };
        assert!(!large.is_null(), "{size} bytes refused: room {room}, rest {rest}");
        // SAFETY: `large` holds `size` bytes.
        unsafe {
            large.write(1);
            large.add(size - 1).write(2);
        }
        assert_eq!(heap.allocator().0.size(), cap);
        // SAFETY: as above.
        assert!(unsafe { heap.malloc(room as usize * 2, 8) }.is_null());
        // SAFETY: as above.
        assert!(!unsafe { heap.malloc(1000, 8) }.is_null());
    }

    #[test]
    fn near_the_limit_a_request_larger_than_the_room_left_is_served_from_the_last_steps_rest() {
        a_request_past_the_room_left_is_served_from_the_last_steps_rest(Stand::new(512), 512);
    }

    #[test]
    fn under_a_host_limit_a_request_larger_than_the_room_left_is_served_from_the_last_steps_rest() {
        // The host refuses growths past 512 pages; the allocator sees wasm32's limit.
        a_request_past_the_room_left_is_served_from_the_last_steps_rest(Stand::capped(MAX_PAGES, 512), 512);
    }

    #[test]
    fn a_refused_growth_takes_the_most_the_host_grants_below_it() {
        let memory = Stand::capped(MAX_PAGES, 100);
        assert_eq!(grow_granted(&memory, 70), Some((0, 69)));
        assert_eq!(memory.size(), 69);
        assert_eq!(grow_granted(&memory, 40), Some((69, 31)));
        assert_eq!(grow_granted(&memory, 5), None);
        assert_eq!(grow_granted(&memory, 0), None);
        assert_eq!(memory.size(), 100);
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
