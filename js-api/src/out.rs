use crate::*;

#[wasm_bindgen]
extern "C" {

    /// The entry's `jsonFromUtf16`: `JSON.parse` of JSON text given as UTF-16 code units.
    pub(crate) type Utf16Json;
    /// `Function.prototype.call`: the units arrive as a view of wasm memory, which the
    /// function reads before it returns (it never calls back into the module).
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call_units(this: &Utf16Json, this_arg: &JsValue, units: &[u16]) -> Result<JsValue, JsValue>;
    /// The same with `asText: true`: the units as a string, not parsed.
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call_units_text(this: &Utf16Json, this_arg: &JsValue, units: &[u16], as_text: bool) -> Result<JsValue, JsValue>;
    /// The same with a split: the units before `at` are a result's JSON text, the rest its
    /// artifact's Markdown, set as `content` of the value (of its `artifact` when `nested`).
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call_units_content(this: &Utf16Json, this_arg: &JsValue, units: &[u16], as_text: bool, at: u32, nested: bool) -> Result<JsValue, JsValue>;
}


/// The shortest JSON text with non-ASCII characters that crosses as UTF-16: below it, the
/// reader's fixed cost (a call, a `Buffer`) outweighs what it saves (measured side by side
/// on the replay: a review or an assessment's few Chinese messages cross faster as UTF-8).
pub(crate) const UTF16_MIN_BYTES: usize = 1024;

/// A result's JSON text with non-ASCII characters (Chinese messages, an artifact's
/// Markdown) as a JS value through the entry's `jsonFromUtf16`, or `None` (not
/// registered, or it threw). V8 turns UTF-8 with CJK text into a string at ~4 ns a byte
/// (12 µs for a 2.4 KB artifact), UTF-16 code units at memcpy speed, and `JSON.parse`
/// reads either alike; ASCII text is fastest as it is (a one-byte string).
pub(crate) fn json_from_utf16(text: &str) -> Option<JsValue> {
    let (reader, units) = utf16_reader_and_units(text)?;
    reader.call_units(&JsValue::NULL, &units).ok()
}

/// The entry's reader and `text`'s UTF-16 code units, or `None`: a text that crosses
/// faster as UTF-8 (ASCII, or under [`UTF16_MIN_BYTES`]), no reader registered, or no
/// memory for the units (the caller then passes the text as UTF-8). The reader is taken
/// out of `CLASSES` first, so no borrow is held while the units are allocated or the
/// reader runs.
pub(crate) fn utf16_reader_and_units(text: &str) -> Option<(Utf16Json, Vec<u16>)> {
    let reader = utf16_reader(text)?;
    Some((reader, crate::utf16::units(text)?))
}

/// The entry's reader when `text` crosses faster as UTF-16 (see [`utf16_reader_and_units`]).
pub(crate) fn utf16_reader(text: &str) -> Option<Utf16Json> {
    if text.len() < UTF16_MIN_BYTES || text.is_ascii() {
        return None;
    }
    CLASSES.with(|c| c.try_borrow().ok()?.json16.clone()).map(JsCast::unchecked_into)
}

/// `text` as a JS string: with non-ASCII characters (an artifact's Chinese Markdown) and
/// 1 KiB or more, as UTF-16 code units through the entry's `jsonFromUtf16(units, true)`.
pub(crate) fn text_to_js(text: &str) -> JsValue {
    utf16_reader_and_units(text)
        .and_then(|(reader, units)| reader.call_units_text(&JsValue::NULL, &units, true).ok())
        .filter(JsValue::is_string)
        .unwrap_or_else(|| JsValue::from_str(text))
}

/// Sets an artifact's `content` (written as "" in its JSON, so the key keeps its place):
/// the Markdown crosses as a string of its own, neither escaped by serde_json here nor
/// unescaped by `JSON.parse` (~10 % of a checkBundle call on the demo, side by side).
pub(crate) fn set_content(artifact: &JsValue, content: &str) -> Result<(), JsValue> {
    Reflect::set(artifact, &JsValue::from_str("content"), &text_to_js(content)).map(drop)
}

/// `value` (an artifact, or a result with one at `artifact` when `nested`) as a JS value,
/// its `content` (written as "" in its JSON, so the key keeps its place) set to `content`.
pub(crate) fn with_content<T: Serialize + ?Sized>(value: &T, content: &str, nested: bool) -> Result<JsValue, JsValue> {
    json_with_content(serde_json::to_string(value), content, nested)
}

/// [`with_content`]'s part that does not depend on the type. Markdown with non-ASCII
/// characters crosses with the JSON text in one call, both as UTF-16 code units (one
/// allocation, one view): the entry's reader parses the JSON and sets the Markdown as a
/// string of its own. Before, the JSON crossed as UTF-8 and the Markdown in a second call,
/// and two property names and a `Reflect` get and set crossed too: the demo `checkBundle`
/// took 0.956 of the time (side by side, CPU time, medians of 30 rounds; A/A 0.999).
/// Otherwise (ASCII or short Markdown, no reader, or the reader failed), as before.
#[inline(never)]
pub(crate) fn json_with_content(text: serde_json::Result<String>, content: &str, nested: bool) -> Result<JsValue, JsValue> {
    let text = written(text)?;
    let joined = utf16_reader(content).and_then(|reader| {
        let at = u32::try_from(crate::utf16::unit_count(&text)).ok()?;
        let units = crate::utf16::units_of(&[&text, content])?;
        reader.call_units_content(&JsValue::NULL, &units, false, at, nested).ok()
    });
    if let Some(value) = joined.filter(JsValue::is_object) {
        return Ok(value);
    }
    let value = json_text_to_js(&text)?;
    let artifact = if nested { Reflect::get(&value, &JsValue::from_str("artifact"))? } else { value.clone() };
    set_content(&artifact, content)?;
    Ok(value)
}

pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    json_to_js(serde_json::to_string(value))
}

/// [`to_js`]'s part that does not depend on the type: one copy in the module, not one a
/// result type.
#[inline(never)]
pub(crate) fn json_to_js(text: serde_json::Result<String>) -> Result<JsValue, JsValue> {
    json_text_to_js(&written(text)?)
}

/// A result's JSON text, or the error of a result that could not be written.
pub(crate) fn written(text: serde_json::Result<String>) -> Result<String, JsValue> {
    text.map_err(|e| argument_error(format!("a result cannot be written as JSON: {e}")))
}

/// A result's JSON text as a JS value.
pub(crate) fn json_text_to_js(text: &str) -> Result<JsValue, JsValue> {
    match json_from_utf16(text) {
        Some(value) => Ok(value),
        None => JSON::parse(text),
    }
}

pub(crate) fn typed<T: JsCast>(value: &(impl Serialize + ?Sized)) -> Result<T, JsValue> {
    to_js(value).map(JsCast::unchecked_into)
}
