//! `TrapCell`: a `RefCell` whose borrows a trap cannot leave set for good. A trap ends
//! its frames without running their destructors; `std::mem::forget` of a borrow is the
//! same, natively.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evidence_check::cell::{release_stale_borrows, TrapCell};

#[test]
fn borrows_follow_refcells_rules() {
    let cell = TrapCell::new(5);
    let a = cell.try_borrow().unwrap();
    let b = cell.try_borrow().unwrap();
    assert_eq!(*a + *b, 10);
    assert!(cell.try_borrow_mut().is_none(), "an exclusive borrow beside shared ones");
    drop(a);
    assert!(cell.try_borrow_mut().is_none(), "one shared borrow is still live");
    drop(b);
    let mut m = cell.try_borrow_mut().unwrap();
    *m = 7;
    assert!(cell.try_borrow().is_none() && cell.try_borrow_mut().is_none(), "the exclusive borrow is live");
    drop(m);
    assert_eq!(*cell.try_borrow().unwrap(), 7);
}

#[test]
fn a_borrow_whose_frame_never_returns_is_released_by_a_new_epoch() {
    let cell = TrapCell::new(vec![1, 2]);
    std::mem::forget(cell.try_borrow_mut().unwrap());
    assert!(cell.try_borrow().is_none() && cell.try_borrow_mut().is_none(), "stuck until the epoch changes");
    release_stale_borrows();
    cell.try_borrow_mut().unwrap().push(3);
    assert_eq!(*cell.try_borrow().unwrap(), vec![1, 2, 3]);

    // Shared borrows left behind are released the same way, and a borrow taken after
    // the new epoch counts again.
    std::mem::forget(cell.try_borrow().unwrap());
    std::mem::forget(cell.try_borrow().unwrap());
    assert!(cell.try_borrow_mut().is_none());
    release_stale_borrows();
    let live = cell.try_borrow().unwrap();
    assert!(cell.try_borrow_mut().is_none(), "a borrow of the new epoch is live");
    drop(live);
    assert!(cell.try_borrow_mut().is_some());
}

#[test]
fn a_narrowed_exclusive_borrow_holds_the_cell_and_none_releases_it() {
    let cell = TrapCell::new(Some(String::from("store")));
    let inner = cell.try_borrow_mut().unwrap().filter_map(|o| o.as_mut()).unwrap();
    assert_eq!(&*inner, "store");
    assert!(cell.try_borrow().is_none(), "the narrowed borrow is still exclusive");
    drop(inner);
    *cell.try_borrow_mut().unwrap() = None;
    assert!(cell.try_borrow_mut().unwrap().filter_map(|o| o.as_mut()).is_none());
    assert!(cell.try_borrow().is_some(), "picking nothing ends the borrow");
}
