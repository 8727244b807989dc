use crate::*;

// ---- copying a string into wasm memory: bounded by its UTF-8 size, allocated fallibly ----
//
// wasm-bindgen's own copy of a string allocates with an allocator that traps when memory
// runs out, and it copies the whole string before anything can measure it. A long string
// is copied here instead: `TextEncoder.encodeInto` writes it into a buffer reserved with
// `try_reserve_exact` of one byte per UTF-16 unit (the least its UTF-8 can be, and all of
// it for ASCII) and a little more; for a string with more, the buffer grows by what the rest
// needs at the bytes per unit so far, and the rest is encoded into it. A string that could be over its limit
// (UTF-8 has at most three bytes per unit) is measured whole before anything is
// allocated. So a string over the limit in UTF-8 bytes is refused with its size having
// taken nothing, and one that memory cannot hold is a coded `out_of_memory`.

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
    if units > max_bytes {
        return Ok(Copied::TooLarge(units));
    }
    if units <= SMALL_UNITS {
        let text = String::from(s);
        return Ok(if text.len() > max_bytes { Copied::TooLarge(text.len()) } else { Copied::Text(text) });
    }
    let Some(Ok(copied)) = ENCODER.with(|e| e.as_ref().map(|e| encode_bounded(e, s, units, name, max_bytes))) else {
        return Err(argument_error(format!("{name} could not be copied: TextEncoder.encodeInto is missing or failed")));
    };
    copied
}

/// [`copy_text`] of a long string by `encoder`; the outer `Err` is a failing `encodeInto`.
fn encode_bounded(encoder: &Encoder, s: &JsString, units: usize, name: &str, max_bytes: usize) -> Result<Result<Copied, JsValue>, JsValue> {
    // A string that could be over the limit (more than a third of it in units) is measured
    // before anything is allocated: one over it is refused with its size, one under it
    // copied into a buffer of its size.
    let first = match evidence_check::citation::utf8_first_buffer(units, max_bytes) {
        Some(first) => first,
        None => {
            let size = utf8_size(encoder, s)?;
            if size > max_bytes {
                return Ok(Ok(Copied::TooLarge(size)));
            }
            size
        }
    };
    let mut buf = Vec::new();
    if let Err(bytes) = grow(&mut buf, first) {
        return Ok(Err(out_of_memory(name, bytes)));
    }
    let (mut read, mut written) = encode(encoder, s, &mut buf)?;
    let mut grown = false;
    while read < units {
        // Not ASCII: the buffer grows by the core's estimate and the rest is encoded into
        // it. (Here the text cannot be over the limit: one that could was measured.)
        let rest = units - read;
        let estimate = evidence_check::citation::utf8_growth(rest, read, written, grown);
        grown = true;
        buf.truncate(written);
        if let Err(bytes) = grow(&mut buf, written.saturating_add(estimate).min(max_bytes)) {
            return Ok(Err(out_of_memory(name, bytes)));
        }
        let tail = s.slice(read as u32, units as u32);
        let (r, w) = encode(encoder, &tail, buf.get_mut(written..).unwrap_or_default())?;
        if r == 0 {
            return Err(JsValue::UNDEFINED);
        }
        read += r;
        written += w;
    }
    if written > max_bytes {
        return Ok(Ok(Copied::TooLarge(written)));
    }
    buf.truncate(written);
    if buf.capacity() > written + written / 8 {
        buf.shrink_to_fit();
    }
    // What `encodeInto` wrote is UTF-8 unless a caller replaced it: checked, never assumed.
    Ok(String::from_utf8(buf).map(Copied::Text).map_err(|_| argument_error(format!("{name} could not be copied: TextEncoder.encodeInto wrote no UTF-8"))))
}

/// Grows `buf` to `len` zeroed bytes by fallible allocation; `Err` gives the bytes asked for.
fn grow(buf: &mut Vec<u8>, len: usize) -> Result<(), usize> {
    buf.try_reserve_exact(len.saturating_sub(buf.len())).map_err(|_| len)?;
    buf.resize(len, 0);
    Ok(())
}

/// `encodeInto(s, buf)`: the UTF-16 units read and the bytes written.
fn encode(encoder: &Encoder, s: &JsString, buf: &mut [u8]) -> Result<(usize, usize), JsValue> {
    // SAFETY: the view is of `buf`, which nothing reads or writes until the call returns,
    // and the call allocates nothing in this module, so memory cannot grow under it (a
    // replaced `encodeInto` that did would find the view detached, and throw).
    let view = unsafe { js_sys::Uint8Array::view_mut_raw(buf.as_mut_ptr(), buf.len()) };
    let result = encoder.encode_into(s, &view)?;
    let field = |key: &str| Reflect::get(&result, &JsValue::from_str(key)).ok().and_then(|v| v.as_f64()).filter(|n| *n >= 0.0).map(|n| n as usize);
    match (field("read"), field("written")) {
        (Some(read), Some(written)) if read <= s.length() as usize && written <= buf.len() => Ok((read, written)),
        _ => Err(JsValue::UNDEFINED),
    }
}

/// The UTF-8 size of `s`, encoded in pieces into one small buffer (nothing kept).
fn utf8_size(encoder: &Encoder, s: &JsString) -> Result<usize, JsValue> {
    let mut scratch = vec![0u8; 3 * SMALL_UNITS];
    let (units, mut at, mut size) = (s.length(), 0u32, 0usize);
    while at < units {
        let (read, written) = encode(encoder, &s.slice(at, units), &mut scratch)?;
        if read == 0 {
            return Err(JsValue::UNDEFINED);
        }
        at += read as u32;
        size += written;
    }
    Ok(size)
}

/// `out_of_memory` for an argument: the bytes its copy needed could not be allocated.
pub(crate) fn out_of_memory(name: &str, bytes: usize) -> JsValue {
    js_error(&BindingError::out_of_memory(name, bytes), evidence_check::options::default_lang())
}

/// A copy of the bytes of `view` in wasm memory, by fallible allocation.
pub(crate) fn copy_bytes(view: &js_sys::Uint8Array, name: &str) -> Result<Vec<u8>, JsValue> {
    let len = view.length() as usize;
    let mut bytes = Vec::new();
    grow(&mut bytes, len).map_err(|bytes| out_of_memory(name, bytes))?;
    view.copy_to(&mut bytes);
    Ok(bytes)
}
