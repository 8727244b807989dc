use crate::*;

// ---- offsets and diagnostics ---------------------------------------------------------

/// Converts an offset into `text` between units. An offset inside one character
/// (between surrogate halves, inside a UTF-8 sequence) throws, never shifts; the message
/// is in `options.lang`.
#[wasm_bindgen(js_name = convertOffset)]
pub fn convert_offset(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] offset: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OffsetUnit")] from: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OffsetUnit")] to: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "LangOptions | null")] options: Option<JsValue>,
) -> Result<f64, JsValue> {
    let lang = options_arg::<evidence_check::options::LangOptions>(options, default_lang())?.lang();
    let text = text_arg(&text, "text")?;
    let offset = index_arg(&offset, "offset")?;
    let (from, to) = (unit_value(&from, "from")?, unit_value(&to, "to")?);
    Ok(evidence_check::citation::convert_offset(&text, offset, from, to).in_lang(lang)? as f64)
}


// ---- invisible characters ---------------------------------------------------------------

/// The text with every character that would hide content (controls, bidirectional and
/// other format characters, fillers, stray variation selectors, tag characters) written
/// as `⟦U+XXXX⟧`, line feeds and tabs kept: what the hardened artifact shows, for a page.
#[wasm_bindgen(js_name = showInvisible)]
pub fn show_invisible(text: &str) -> String {
    evidence_check::visible::show_invisible(text)
}
