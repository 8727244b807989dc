use crate::*;

pub(crate) fn schema_arg(options: Option<JsValue>) -> Result<(Dialect, Limits), JsValue> {
    let options = options_arg::<evidence_check::options::SchemaOptions>(options, default_lang())?;
    Ok((options.dialect(), options.limits().in_lang(default_lang())?))
}

/// The JSON Schema of a report (draft 2020-12, or the strict structured-output dialect).
#[wasm_bindgen(js_name = reportJsonSchema, unchecked_return_type = "JsonSchema")]
pub fn report_json_schema(#[wasm_bindgen(unchecked_optional_param_type = "SchemaOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let (dialect, policy) = schema_arg(options)?;
    to_js(&evidence_check::schema::report_schema(dialect, &policy))
}

/// The JSON Schema of a citation.
#[wasm_bindgen(js_name = citationJsonSchema, unchecked_return_type = "JsonSchema")]
pub fn citation_json_schema(#[wasm_bindgen(unchecked_optional_param_type = "SchemaOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let (dialect, policy) = schema_arg(options)?;
    to_js(&evidence_check::schema::citation_schema(dialect, &policy))
}

/// The JSON Schema of a claim.
#[wasm_bindgen(js_name = claimJsonSchema, unchecked_return_type = "JsonSchema")]
pub fn claim_json_schema(#[wasm_bindgen(unchecked_optional_param_type = "SchemaOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let (dialect, policy) = schema_arg(options)?;
    to_js(&evidence_check::schema::claim_schema(dialect, &policy))
}

/// The JSON Schema of a bundle (the CLI's input).
#[wasm_bindgen(js_name = bundleJsonSchema, unchecked_return_type = "JsonSchema")]
pub fn bundle_json_schema(#[wasm_bindgen(unchecked_optional_param_type = "SchemaOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let (dialect, policy) = schema_arg(options)?;
    to_js(&evidence_check::schema::bundle_schema(dialect, &policy))
}


// ---- policies -------------------------------------------------------------------------

/// Reads a policy (a preset's name, or JSON text or an object that starts from a preset
/// with `extends`) and returns it whole; an unknown field throws `policy_unknown_field`
/// naming it (`field`). For hosts that load a policy file (the CLI's `--policy FILE.json`).
/// Its errors are in `options.lang`, else the host's language.
#[wasm_bindgen(js_name = parsePolicy, unchecked_return_type = "Policy")]
pub fn parse_policy(
    #[wasm_bindgen(unchecked_param_type = "string | PolicyInput")] policy: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "LangOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let lang = options_arg::<evidence_check::options::LangOptions>(options, default_lang())?.lang();
    let parsed = match policy.as_string() {
        Some(text) => evidence_check::policy::Policy::from_json(&text),
        None => evidence_check::policy::Policy::from_value(&value_arg(&policy, "policy", lang)?),
    };
    to_js(&parsed.in_lang(lang)?)
}
