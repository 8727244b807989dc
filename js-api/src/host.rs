use crate::*;

// ---- what the host lends the core: its clock and (Node) its SHA-256, installed once ----

fn host_micros() -> i64 {
    (js_sys::Date::now() * 1000.0) as i64
}

/// The host's locale, read once: in Node the first non-empty of `LC_ALL`, `LC_MESSAGES`
/// and `LANG` (POSIX's order), else the browser's `navigator.language` (what a page, a
/// worker or a runtime without those variables has). The core maps it to a language.
fn host_locale() -> Option<String> {
    let get = |o: &JsValue, key: &str| Reflect::get(o, &JsValue::from_str(key)).ok().filter(|v| !v.is_undefined() && !v.is_null());
    let global: JsValue = js_sys::global().into();
    let env = get(&global, "process").and_then(|p| get(&p, "env"));
    let posix = env.and_then(|env| ["LC_ALL", "LC_MESSAGES", "LANG"].iter().find_map(|k| get(&env, k)?.as_string().filter(|v| !v.is_empty())));
    posix.or_else(|| get(&global, "navigator").and_then(|n| get(&n, "language")?.as_string()))
}

/// Installs the host's clock, its locale and the panic hook (wasm-bindgen runs it when
/// the module is initialised).
#[wasm_bindgen(start)]
pub fn start() {
    reserve_externref_slots();
    evidence_check::host::install_clock(host_micros);
    evidence_check::host::install_locale(host_locale().as_deref());
    // A panic is a bug: the entries report the trap it ends in as `internal`, not as
    // memory running out.
    std::panic::set_hook(Box::new(|info| {
        crate::trap::note_panic();
        #[cfg(feature = "console_error_panic_hook")]
        console_error_panic_hook::hook(info);
        #[cfg(not(feature = "console_error_panic_hook"))]
        let _ = info;
    }));
}

extern "C" {
    // wasm-bindgen's allocator of JS-value table slots (its own exports).
    fn __externref_table_alloc() -> u32;
    fn __externref_table_dealloc(idx: u32);
}

/// Table slots for JS values, allocated once and released: wasm-bindgen keeps their list.
const EXTERNREF_SLOTS: usize = 8192;

/// Grows wasm-bindgen's list of JS-value table slots to [`EXTERNREF_SLOTS`] at start. A
/// call that traps never releases the JS values its frames held, and when the list must
/// then grow while memory is exhausted, wasm-bindgen's allocator traps with its list
/// borrowed, which breaks every later call of the instance; with the slots reserved,
/// that takes thousands of traps instead of a few.
fn reserve_externref_slots() {
    let mut slots = Vec::with_capacity(EXTERNREF_SLOTS);
    // SAFETY: wasm-bindgen's own allocator, called as its generated code calls it; every
    // slot taken is given back at once, before any JS value is put in it.
    slots.extend((0..EXTERNREF_SLOTS).map(|_| unsafe { __externref_table_alloc() }));
    for slot in slots {
        unsafe { __externref_table_dealloc(slot) };
    }
}

/// entry has its own module, and its own `wasmMemoryBytes`.
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    core::arch::wasm32::memory_size(0) as f64 * 65536.0
}

#[wasm_bindgen]
extern "C" {
    /// A host's hash function: `(bytes: Uint8Array) => string`, the lower-case hex SHA-256.
    type HostHashFn;
    /// `Function.prototype.call`: the bytes arrive as a view of wasm memory, not a copy
    /// (wasm-bindgen passes a `&[u8]` argument of an import as a subarray of the memory).
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call_hash(this: &HostHashFn, this_arg: &JsValue, bytes: &[u8]) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// The registered host hash function.
    static HOST_HASH: std::cell::RefCell<Option<HostHashFn>> = const { std::cell::RefCell::new(None) };
}

/// The registered function on `bytes`, or `None` (it threw, or gave no string: the
/// module's hasher then runs; a wrong digest is caught by the core). The function must
/// not call back into this module: the view is of its memory.
fn host_sha256(bytes: &[u8]) -> Option<String> {
    HOST_HASH.with(|h| h.try_borrow().ok()?.as_ref()?.call_hash(&JsValue::NULL, bytes).ok()?.as_string())
}

/// Registers the host's synchronous SHA-256, `(bytes: Uint8Array) => string` (`null`
/// removes it): the Node entry passes `node:crypto`'s at load. Texts of `minBytes`
/// (default `HOST_HASH_MIN_BYTES`) or more are then hashed by it.
#[wasm_bindgen(js_name = __registerHostHasher, skip_typescript)]
pub fn register_host_hasher(hash: JsValue, #[wasm_bindgen(js_name = minBytes)] min_bytes: JsValue) -> Result<(), JsValue> {
    let min_bytes = if min_bytes.is_undefined() { evidence_check::digest::HOST_HASH_MIN_BYTES } else { index_arg(&min_bytes, "minBytes")? };
    let f = if hash.is_null() || hash.is_undefined() {
        None
    } else if hash.is_function() {
        Some(hash.unchecked_into::<HostHashFn>())
    } else {
        return Err(argument_error("the host hasher must be a function or null"));
    };
    let installed: evidence_check::host::Sha256 = host_sha256;
    evidence_check::host::install_sha256(f.is_some().then_some(installed), min_bytes);
    HOST_HASH.with(|h| h.try_borrow_mut().map(|mut slot| *slot = f)).map_err(|_| argument_error("the host hasher is in use"))
}
