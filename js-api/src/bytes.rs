use crate::*;

// ---- a bundle as UTF-8 bytes ----------------------------------------------------------
// A bundle may be given as UTF-8 bytes (a file read without an encoding): copied once into
// wasm memory, checked, never decoded into a JS string and encoded back.

#[wasm_bindgen]
extern "C" {
    /// `ArrayBuffer.isView`: a typed array or DataView of any realm (a Proxy is not one);
    /// it runs none of the caller's code.
    #[wasm_bindgen(catch, js_namespace = ArrayBuffer, js_name = isView)]
    fn is_view_caught(value: &JsValue) -> Result<bool, JsValue>;
    /// `Reflect.apply`: an intrinsic getter called on the caller's view, so that an own
    /// property or a trap of the caller's cannot stand in for it.
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = apply)]
    fn apply_caught(f: &JsValue, this: &JsValue, args: &js_sys::Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = Uint8Array)]
    type ByteView;
    /// `new Uint8Array(buffer, offset, length)`: our own view of the caller's bytes.
    #[wasm_bindgen(constructor, catch, js_class = "Uint8Array")]
    fn new_caught(buffer: &JsValue, offset: f64, length: f64) -> Result<ByteView, JsValue>;
}

/// `%TypedArray%.prototype`, whose getters (`byteLength`, `byteOffset`, `buffer`,
/// `Symbol.toStringTag`) read a view's internal slots, whatever its realm.
pub(crate) fn typed_array_prototype() -> js_sys::Object {
    let own = js_sys::Object::get_prototype_of(&js_sys::Uint8Array::new_with_length(0).into());
    js_sys::Object::get_prototype_of(&own)
}

/// The JSON text of a bundle argument: UTF-8 bytes (a `Uint8Array` or `Buffer`, of any
/// realm), read as `TextDecoder("utf-8", { fatal: true })` reads them (a leading BOM
/// dropped, invalid bytes an `invalid_unicode` naming the byte offset), or else as
/// [`json_text`] reads it. Another view (a `Uint16Array`, a `DataView`) is refused. The
/// view is read through its intrinsic getters and catching calls only: a detached buffer,
/// a throwing getter or a Proxy never unwinds through the module. Bytes over the limit
/// (a BOM not counted) are refused before they are copied, as text over it is.
pub(crate) fn bundle_text(value: &JsValue, limits: &evidence_check::contract::Limits, lang: Lang) -> Result<String, JsValue> {
    if !value.is_object() || !is_view_caught(value).unwrap_or(false) {
        return contract_text(value, true, "bundle", Bundle::SUBJECT, limits, lang);
    }
    let prototype = typed_array_prototype();
    let read = |key: &JsValue| -> Result<JsValue, JsValue> {
        let descriptor = js_sys::Reflect::get_own_property_descriptor(&prototype, key)?;
        let getter = js_sys::Reflect::get(&descriptor, &JsValue::from_str("get"))?;
        apply_caught(&getter, value, &js_sys::Array::new())
    };
    let kind = read(&js_sys::Symbol::to_string_tag().into()).ok().and_then(|t| t.as_string());
    if kind.as_deref() != Some("Uint8Array") {
        let kind = kind.unwrap_or_else(|| "DataView".to_owned());
        return Err(argument_error(format!("bundle must be JSON text, a bundle object or UTF-8 bytes in a Uint8Array, not a {kind}")));
    }
    let unreadable = |_| argument_error("bundle: reading the Uint8Array threw an exception");
    let len = read(&JsValue::from_str("byteLength")).map_err(unreadable)?.as_f64().unwrap_or(0.0);
    // More than a BOM over the limit, or more than wasm memory can hold: not copied.
    evidence_check::bundle::admit_bytes(len as u64, limits).in_lang(lang)?;
    if len < 1.0 {
        return Ok(String::new());
    }
    let offset = read(&JsValue::from_str("byteOffset")).map_err(unreadable)?.as_f64().unwrap_or(0.0);
    let buffer = read(&JsValue::from_str("buffer")).map_err(unreadable)?;
    let view: js_sys::Uint8Array = ByteView::new_caught(&buffer, offset, len).map_err(unreadable)?.unchecked_into();
    let bytes = copy_bytes(&view, "bundle")?;
    Ok(evidence_check::bundle::bytes_text(bytes, limits).in_lang(lang)?)
}
