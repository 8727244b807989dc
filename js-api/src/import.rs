use crate::*;

// ---- W3C Web Annotations ---------------------------------------------------------------

/// One W3C Web Annotation per valid citation of the report (TextQuoteSelector with up to
/// 32 code points of context, TextPositionSelector in code points, revision and digest
/// in the state). Errors are in the store's language unless `options.lang` is given.
#[wasm_bindgen(js_name = toWebAnnotations, unchecked_return_type = "WebAnnotation[]")]
pub fn to_web_annotations(#[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue, #[wasm_bindgen(unchecked_param_type = "ReportArg")] report: JsValue, store: &EvidenceStore, #[wasm_bindgen(unchecked_optional_param_type = "LangOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let lang = options_arg::<evidence_check::options::LangOptions>(options, store.lang)?.lang_or(store.lang);
    let policy = store.core_arg(lang)?.policy().clone();
    let scope: Scope = parse_arg_with(&scope, false, "scope", &policy, lang)?;
    let report = report_arg(&report, &policy, lang)?;
    to_js(&evidence_check::annotation::to_web_annotations(&scope, report.report(), &*store.core_arg(lang)?).in_lang(lang)?)
}

/// The citation an annotation made by `toWebAnnotations` describes (for a quote-only
/// annotation, see `EvidenceStore.fromWebAnnotation`).
#[wasm_bindgen(js_name = fromWebAnnotation, unchecked_return_type = "Citation")]
pub fn from_web_annotation(#[wasm_bindgen(unchecked_param_type = "WebAnnotation")] annotation: JsValue) -> Result<JsValue, JsValue> {
    let v = value_arg(&annotation, "annotation", default_lang())?;
    to_js(&evidence_check::annotation::from_web_annotation(&v).in_lang(default_lang())?)
}

// ---- the quote locator and the Anthropic importer -----------------------------------

/// Locates a draft report's quote-only citations in the store's snapshots, under the
/// store's policy and in its language unless the options give others.
#[wasm_bindgen(js_name = locateCitations, unchecked_return_type = "LocateResult")]
pub fn locate_citations(#[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue, #[wasm_bindgen(unchecked_param_type = "DraftReport | string")] draft: JsValue, store: &EvidenceStore, #[wasm_bindgen(unchecked_optional_param_type = "LocateOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let options = options_arg::<evidence_check::options::LocateOptionsIn>(options, store.lang)?;
    let lang = options.lang_or(store.lang);
    let limits = options.limits_or(store.core_arg(lang)?.policy()).in_lang(lang)?;
    let scope: Scope = parse_arg_with(&scope, false, "scope", &limits, lang)?;
    let draft = json_value_arg(&draft, "draft", lang)?;
    let r = evidence_check::import::quotes::locate_citations(&scope, &draft, &*store.core_arg(lang)?, options.whitespace(), lang, &limits).in_lang(lang)?;
    to_js(&r)
}

/// Locates the quote-only citations of a draft bundle against its own sources: the
/// bundle to check, what was located, and the issues.
#[wasm_bindgen(js_name = locateBundle, unchecked_return_type = "LocatedBundle")]
pub fn locate_bundle(#[wasm_bindgen(unchecked_param_type = "DraftBundle | string")] draft: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "LocateBundleOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let options = options_arg::<evidence_check::options::LocateBundleOptions>(options, default_lang())?;
    let lang = options.lang();
    let bundle_options = options.locate_bundle().in_lang(lang)?;
    let draft = json_value_arg(&draft, "draft", lang)?;
    to_js(&evidence_check::import::quotes::locate_bundle(&draft, &bundle_options, options.whitespace()).in_lang(lang)?)
}

/// A bundle from an Anthropic Messages API request and its response with citations.
#[wasm_bindgen(js_name = fromAnthropicMessage, unchecked_return_type = "Bundle")]
pub fn from_anthropic_message(#[wasm_bindgen(unchecked_param_type = "AnthropicRequest | string")] request: JsValue, #[wasm_bindgen(unchecked_param_type = "AnthropicResponse | string")] response: JsValue, #[wasm_bindgen(unchecked_param_type = "AnthropicOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    // No options at all reads as every default: the core refuses the missing scope.
    let read = options_arg::<evidence_check::options::AnthropicOptions>(Some(options), default_lang())?;
    let lang = read.lang();
    let core = read.anthropic().in_lang(lang)?;
    let (request, response) = crate::providers::exchange_args(&request, &response, lang)?;
    to_js(&evidence_check::import::anthropic::from_anthropic_message(&request, &response, &core).in_lang(lang)?)
}
