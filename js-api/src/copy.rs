use crate::*;
use evidence_check::citation::Utf8Copy;

// ---- copying a string into wasm memory: bounded by its UTF-8 size, allocated fallibly ----
//
// wasm-bindgen's own copy of a string allocates with an allocator that traps when memory
// runs out, and it copies the whole string before anything can measure it. A long string
// is copied by the core's `citation::copy_utf8` instead, with `TextEncoder.encodeInto` as
// its encoder: buffers reserved fallibly, a string that could be over its limit measured
// before anything of its size is allocated. So a string over the limit in UTF-8 bytes is
// refused with its size having taken nothing, and one that memory cannot hold is a coded
// `out_of_memory`.

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = TextEncoder)]
    type Encoder;
    #[wasm_bindgen(constructor, catch, js_class = "TextEncoder")]
    fn new() -> Result<Encoder, JsValue>;
    /// `encodeInto(s, view)`: `{ read, written }`. Caught: it runs no code of this module,
    /// but a host may lack it or a caller replace it.
    #[wasm_bindgen(method, catch, js_name = encodeInto)]
    fn encode_into(this: &Encoder, s: &JsString, view: &js_sys::Uint8Array) -> Result<JsValue, JsValue>;
}

thread_local! {
    static ENCODER: Option<Encoder> = Encoder::new().ok();
}

/// Strings of at most this many UTF-16 units are copied by wasm-bindgen (at most 3 × this
/// many bytes, whatever the limit).
const SMALL_UNITS: usize = 16 * 1024;

/// A string as copied, or the UTF-8 size of one over the limit (not copied whole).
pub(crate) enum Copied {
    Text(String),
    TooLarge(usize),
}

/// `s` as UTF-8 in wasm memory, when it has at most `max_bytes` bytes (lone surrogates
/// become U+FFFD, as wasm-bindgen's copy makes them; [`checked_text`] tells them apart).
/// An allocation that fails is `out_of_memory` naming the argument `name`.
pub(crate) fn copy_text(s: &JsString, name: &str, max_bytes: usize) -> Result<Copied, JsValue> {
    let units = s.length() as usize;
    if units <= SMALL_UNITS && units <= max_bytes {
        let text = String::from(s);
        return Ok(if text.len() > max_bytes { Copied::TooLarge(text.len()) } else { Copied::Text(text) });
    }
    let copied = ENCODER.with(|e| e.as_ref().map(|e| evidence_check::citation::copy_utf8(units, max_bytes, |from, buf| encode(e, s, from, buf))));
    match copied {
        Some(Utf8Copy::Text(text)) => Ok(Copied::Text(text)),
        Some(Utf8Copy::TooLarge(bytes)) => Ok(Copied::TooLarge(bytes)),
        Some(Utf8Copy::OutOfMemory(bytes)) => Err(out_of_memory(name, bytes)),
        Some(Utf8Copy::NotUtf8) => Err(argument_error(format!("{name} could not be copied: TextEncoder.encodeInto wrote no UTF-8"))),
        Some(Utf8Copy::EncoderFailed) | None => Err(argument_error(format!("{name} could not be copied: TextEncoder.encodeInto is missing or failed"))),
    }
}

/// `encodeInto` of `s` from the unit `from` into `buf`: the UTF-16 units read and the
/// bytes written (the core checks both), `None` when it throws or answers no counts.
fn encode(encoder: &Encoder, s: &JsString, from: usize, buf: &mut [u8]) -> Option<(usize, usize)> {
    let tail;
    let s = if from == 0 {
        s
    } else {
        tail = s.slice(from as u32, s.length());
        &tail
    };
    // SAFETY: the view is of `buf`, which nothing reads or writes until the call returns,
    // and the call allocates nothing in this module, so memory cannot grow under it (a
    // replaced `encodeInto` that did would find the view detached, and throw).
    let view = unsafe { js_sys::Uint8Array::view_mut_raw(buf.as_mut_ptr(), buf.len()) };
    let result = encoder.encode_into(s, &view).ok()?;
    let field = |key: &str| Reflect::get(&result, &JsValue::from_str(key)).ok().and_then(|v| v.as_f64()).filter(|n| *n >= 0.0).map(|n| n as usize);
    Some((field("read")?, field("written")?))
}

/// `out_of_memory` for an argument: the bytes its copy needed could not be allocated.
pub(crate) fn out_of_memory(name: &str, bytes: usize) -> JsValue {
    js_error(&BindingError::out_of_memory(name, bytes), evidence_check::options::default_lang())
}

/// A copy of the bytes of `view` in wasm memory, by fallible allocation.
pub(crate) fn copy_bytes(view: &js_sys::Uint8Array, name: &str) -> Result<Vec<u8>, JsValue> {
    let len = view.length() as usize;
    let mut bytes = Vec::new();
    evidence_check::citation::grow_zeroed(&mut bytes, len).map_err(|_| out_of_memory(name, len))?;
    view.copy_to(&mut bytes);
    Ok(bytes)
}
