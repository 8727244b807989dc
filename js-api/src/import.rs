use crate::*;

// ---- W3C Web Annotations ---------------------------------------------------------------

/// One W3C Web Annotation per valid citation of the report (TextQuoteSelector with up to
/// 32 code points of context, TextPositionSelector in code points, revision and digest
/// in the state). Errors are in the store's language unless `options.lang` is given.
#[wasm_bindgen(js_name = toWebAnnotations)]
pub fn to_web_annotations(scope: JsScope, report: JsReportArg, store: &EvidenceStore, options: Option<JsLangOptions>) -> Result<JsWebAnnotations, JsValue> {
    let lang = options_arg::<evidence_check::options::LangOptions>(options.map(Into::into), store.lang)?.lang_or(store.lang);
    let policy = store.core_arg(lang)?.policy().clone();
    let scope: Scope = parse_arg_with(&scope.into(), false, "scope", &policy, lang)?;
    let report = report_arg(&report.into(), &policy, lang)?;
    typed(&evidence_check::annotation::to_web_annotations(&scope, report.report(), &*store.core_arg(lang)?).in_lang(lang)?)
}

/// The citation an annotation made by `toWebAnnotations` describes (for a quote-only
/// annotation, see `EvidenceStore.fromWebAnnotation`).
#[wasm_bindgen(js_name = fromWebAnnotation)]
pub fn from_web_annotation(annotation: JsWebAnnotation) -> Result<JsCitation, JsValue> {
    let v = value_arg(&annotation.into(), "annotation", Lang::default())?;
    typed(&evidence_check::annotation::from_web_annotation(&v).in_lang(Lang::default())?)
}

// ==== importers and the quote locator (issue 17) ========================================
// Kept together at the end of the file to ease merging.

#[wasm_bindgen(js_name = locateCitations)]
pub fn locate_citations(scope: JsScope, draft: JsDraftReport, store: &EvidenceStore, options: Option<JsLocateOptions>) -> Result<JsLocateResult, JsValue> {
    let options = options_arg::<evidence_check::options::LocateOptionsIn>(options.map(Into::into), store.lang)?;
    let lang = options.lang_or(store.lang);
    let policy = store.core_arg(lang)?.policy().clone();
    let scope: Scope = parse_arg_with(&scope.into(), false, "scope", &policy, lang)?;
    let draft = json_value_arg(&draft.into(), "draft", lang)?;
    let limits = options.limits().in_lang(lang)?;
    let r = evidence_check::import::quotes::locate_citations(&scope, &draft, &*store.core_arg(lang)?, options.whitespace(), lang, &limits).in_lang(lang)?;
    typed(&r)
}

/// Locates the quote-only citations of a draft bundle against its own sources: the
/// bundle to check, what was located, and the issues.
#[wasm_bindgen(js_name = locateBundle)]
pub fn locate_bundle(draft: JsDraftBundle, options: Option<JsLocateBundleOptions>) -> Result<JsLocatedBundle, JsValue> {
    let options = options_arg::<evidence_check::options::LocateBundleOptions>(options.map(Into::into), Lang::default())?;
    let lang = options.lang_or(Lang::default());
    let bundle_options = BundleOptions { render: false, escaping: Escaping::Hardened, review_key: None, ..options.bundle().in_lang(lang)? };
    let draft = json_value_arg(&draft.into(), "draft", lang)?;
    typed(&evidence_check::import::quotes::locate_bundle(&draft, &bundle_options, options.whitespace()).in_lang(lang)?)
}

/// A bundle from an Anthropic Messages API request and its response with citations.
#[wasm_bindgen(js_name = fromAnthropicMessage)]
pub fn from_anthropic_message(request: JsAnthropicRequest, response: JsAnthropicResponse, options: JsAnthropicOptions) -> Result<JsImportedBundle, JsValue> {
    // No options at all reads as every default: the core refuses the missing scope.
    let core = options_arg::<evidence_check::options::AnthropicOptions>(Some(options.into()), Lang::default())?.anthropic().in_lang(Lang::default())?;
    let request = json_value_arg(&request.into(), "request", Lang::default())?;
    let response = json_value_arg(&response.into(), "response", Lang::default())?;
    typed(&evidence_check::import::anthropic::from_anthropic_message(&request, &response, &core).in_lang(Lang::default())?)
}
