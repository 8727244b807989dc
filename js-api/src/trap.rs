use crate::*;
use std::cell::Cell;

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
// `TrapCell`s (`evidence_check::cell`): once no call of this module is on the stack, the
// entries call [`after_trap`], and every borrow taken before it is known to be stale. And
// the memory the call had allocated stays allocated (it is leaked, not corrupted: the
// allocator had returned a null pointer, it was not interrupted).

thread_local! {
    /// A panic began (the panic hook ran) since the cause was last read.
    static PANICKED: Cell<bool> = const { Cell::new(false) };
}

/// Called by the package's entries when a call of this module did not return and no call
/// of it is on the stack any more (internal): every `TrapCell` borrow taken before is
/// released.
#[wasm_bindgen(js_name = __afterTrap, skip_typescript)]
pub fn after_trap() {
    evidence_check::cell::release_stale_borrows();
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
