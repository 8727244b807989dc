use crate::*;

/// The one serializer of results: JSON's values (objects, never `Map`s; `null`, never
/// `undefined`; numbers, never `BigInt`s), as `JSON.parse` of serde_json's text gives them.
const SERIALIZER: serde_wasm_bindgen::Serializer = serde_wasm_bindgen::Serializer::json_compatible();

/// A result as a JS value.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&SERIALIZER).map_err(|e| argument_error(format!("a result cannot be written as JSON: {e}")))
}
