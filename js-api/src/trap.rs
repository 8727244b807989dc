use crate::*;
use std::cell::{Cell, UnsafeCell};

// ---- after a trap -----------------------------------------------------------------------
//
// A trap (WebAssembly memory running out where an allocation cannot fail softly: Rust then
// aborts with `unreachable`) ends every frame of the call at once: no destructor runs.
// Three things stay behind. The shadow stack pointer stays where those frames lowered it
// (the entries save it before each call and put it back: js/entry-guard.mjs). The borrow
// a frame held stays set: wasm-bindgen's own, on the instance a method was called on, is a
// shared borrow and a strong count that `&self` methods ignore (every method here takes
// `&self`, `free` included, so the instance stays usable; the count means the finalizer
// can no longer release it, `free()` must), and this binding's own, which are
// [`TrapCell`]s: once no call of this module is on the stack, the entries call
// [`after_trap`], and every borrow taken before it is known to be stale. And the memory
// the call had allocated stays allocated (it is leaked, not corrupted: the allocator had
// returned a null pointer, it was not interrupted).

thread_local! {
    /// Bumped by [`after_trap`]: a borrow taken in an earlier epoch belongs to a call that
    /// never returned.
    static EPOCH: Cell<u32> = const { Cell::new(0) };
    /// A panic began (the panic hook ran) since the cause was last read.
    static PANICKED: Cell<bool> = const { Cell::new(false) };
}

fn epoch() -> u32 {
    EPOCH.with(Cell::get)
}

/// Called by the package's entries when a call of this module did not return and no call
/// of it is on the stack any more (internal): every [`TrapCell`] borrow taken before is
/// released.
#[wasm_bindgen(js_name = __afterTrap, skip_typescript)]
pub fn after_trap() {
    EPOCH.with(|e| e.set(e.get().wrapping_add(1)));
}

/// What made the last call trap (internal): `true` when the panic hook ran (a bug), else
/// `false` (an allocation that could not fail softly). Reading it resets it; it allocates
/// nothing, memory being exhausted.
#[wasm_bindgen(js_name = __trapCause, skip_typescript)]
pub fn trap_cause() -> bool {
    PANICKED.with(|p| p.replace(false))
}

/// The module's shadow stack pointer, a `WebAssembly.Global` (internal; exported by the
/// build, js-api/build.rs), or `undefined`.
#[wasm_bindgen(js_name = __stackPointer, skip_typescript)]
pub fn stack_pointer() -> JsValue {
    Reflect::get(&wasm_bindgen::exports(), &JsValue::from_str("__stack_pointer")).unwrap_or(JsValue::UNDEFINED)
}

/// Notes that a panic began (the start function's panic hook).
pub(crate) fn note_panic() {
    PANICKED.with(|p| p.set(true));
}

/// How a [`TrapCell`] is borrowed: `-1` exclusively, `n > 0` by `n` readers, and in which
/// epoch the borrow was taken.
#[derive(Clone, Copy)]
struct Flag {
    borrows: i32,
    epoch: u32,
}

/// A `RefCell` whose borrows a trap cannot leave behind for good: a borrow taken before
/// the last [`after_trap`] is stale (its call never returned, and never resumes) and is
/// no longer counted.
pub(crate) struct TrapCell<T> {
    flag: Cell<Flag>,
    value: UnsafeCell<T>,
}

impl<T> TrapCell<T> {
    pub(crate) const fn new(value: T) -> TrapCell<T> {
        TrapCell { flag: Cell::new(Flag { borrows: 0, epoch: 0 }), value: UnsafeCell::new(value) }
    }

    /// The live borrows: none when the only ones were taken before the last trap.
    fn live(&self) -> i32 {
        let f = self.flag.get();
        if f.borrows != 0 && f.epoch != epoch() {
            self.flag.set(Flag { borrows: 0, epoch: epoch() });
            return 0;
        }
        f.borrows
    }

    /// A shared borrow, unless the value is borrowed exclusively.
    pub(crate) fn try_borrow(&self) -> Option<Shared<'_, T>> {
        let n = self.live();
        if n < 0 {
            return None;
        }
        self.flag.set(Flag { borrows: n.saturating_add(1), epoch: epoch() });
        // SAFETY: no exclusive borrow is live: a stale one belonged to a frame a trap
        // ended, which never runs again.
        Some(Shared { flag: &self.flag, value: unsafe { &*self.value.get() } })
    }

    /// An exclusive borrow, unless the value is borrowed.
    pub(crate) fn try_borrow_mut(&self) -> Option<Exclusive<'_, T>> {
        if self.live() != 0 {
            return None;
        }
        self.flag.set(Flag { borrows: -1, epoch: epoch() });
        // SAFETY: no borrow is live (as for `try_borrow`).
        Some(Exclusive { flag: &self.flag, value: unsafe { &mut *self.value.get() } })
    }
}

/// A shared borrow of a [`TrapCell`].
pub(crate) struct Shared<'a, T> {
    flag: &'a Cell<Flag>,
    value: &'a T,
}

impl<T> std::ops::Deref for Shared<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value
    }
}

impl<T> Drop for Shared<'_, T> {
    fn drop(&mut self) {
        let f = self.flag.get();
        self.flag.set(Flag { borrows: f.borrows.saturating_sub(1).max(0), ..f });
    }
}

/// An exclusive borrow of a [`TrapCell`] (or of part of its value, [`Exclusive::filter_map`]).
pub(crate) struct Exclusive<'a, T: ?Sized> {
    flag: &'a Cell<Flag>,
    value: &'a mut T,
}

impl<'a, T: ?Sized> Exclusive<'a, T> {
    /// The borrow narrowed to the part `f` picks, or `None` (the borrow ends) when it
    /// picks none.
    pub(crate) fn filter_map<U: ?Sized>(self, f: impl FnOnce(&mut T) -> Option<&mut U>) -> Option<Exclusive<'a, U>> {
        let this = std::mem::ManuallyDrop::new(self);
        let flag = this.flag;
        // SAFETY: `this` is never used or dropped again, so the reference moves out once.
        let value: &'a mut T = unsafe { std::ptr::read(&this.value) };
        match f(value) {
            Some(value) => Some(Exclusive { flag, value }),
            None => {
                flag.set(Flag { borrows: 0, epoch: epoch() });
                None
            }
        }
    }
}

impl<T: ?Sized> std::ops::Deref for Exclusive<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value
    }
}

impl<T: ?Sized> std::ops::DerefMut for Exclusive<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.value
    }
}

impl<T: ?Sized> Drop for Exclusive<'_, T> {
    fn drop(&mut self) {
        let f = self.flag.get();
        self.flag.set(Flag { borrows: 0, ..f });
    }
}
