//! A `RefCell` whose borrows a trap cannot leave set for good.
//!
//! A trap (WebAssembly memory running out where an allocation cannot fail softly) ends
//! every frame of the call at once, and no destructor runs: a borrow one of those frames
//! held would stay set, and every later call would find the value busy. A [`TrapCell`]
//! counts a borrow only in the epoch it was taken in; once no call is on the stack, the
//! host calls [`release_stale_borrows`], which starts a new epoch, and every borrow taken
//! before it is known to be stale (its frame never runs again).

use std::cell::{Cell, UnsafeCell};

thread_local! {
    /// Bumped by [`release_stale_borrows`]: a borrow taken in an earlier epoch belongs to
    /// a call that never returned.
    static EPOCH: Cell<u32> = const { Cell::new(0) };
}

fn epoch() -> u32 {
    EPOCH.with(Cell::get)
}

/// Starts a new epoch: every [`TrapCell`] borrow taken before it is released. Call it
/// only when no frame that holds a borrow can run again (after a trap, with no call of
/// the module on the stack).
pub fn release_stale_borrows() {
    EPOCH.with(|e| e.set(e.get().wrapping_add(1)));
}

/// How a [`TrapCell`] is borrowed: `-1` exclusively, `n > 0` by `n` readers, and in which
/// epoch the borrow was taken.
#[derive(Clone, Copy)]
struct Flag {
    borrows: i32,
    epoch: u32,
}

/// A `RefCell` whose borrows a trap cannot leave behind for good: a borrow taken before
/// the last [`release_stale_borrows`] is stale (its call never returned, and never
/// resumes) and is no longer counted.
pub struct TrapCell<T> {
    flag: Cell<Flag>,
    value: UnsafeCell<T>,
}

impl<T> TrapCell<T> {
    pub const fn new(value: T) -> TrapCell<T> {
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
    pub fn try_borrow(&self) -> Option<Shared<'_, T>> {
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
    pub fn try_borrow_mut(&self) -> Option<Exclusive<'_, T>> {
        if self.live() != 0 {
            return None;
        }
        self.flag.set(Flag { borrows: -1, epoch: epoch() });
        // SAFETY: no borrow is live (as for `try_borrow`).
        Some(Exclusive { flag: &self.flag, value: unsafe { &mut *self.value.get() } })
    }
}

/// A shared borrow of a [`TrapCell`].
pub struct Shared<'a, T> {
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
pub struct Exclusive<'a, T: ?Sized> {
    flag: &'a Cell<Flag>,
    value: &'a mut T,
}

impl<'a, T: ?Sized> Exclusive<'a, T> {
    /// The borrow narrowed to the part `f` picks, or `None` (the borrow ends) when it
    /// picks none.
    pub fn filter_map<U: ?Sized>(self, f: impl FnOnce(&mut T) -> Option<&mut U>) -> Option<Exclusive<'a, U>> {
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
