use crate::*;
use evidence_check::review::ReviewField;

// ---- functions ----------------------------------------------------------------------

/// Parses and checks a report (JSON text or an object). Throws a `ContractError`
/// listing every violation.
#[wasm_bindgen(js_name = parseReport)]
pub fn parse_report(#[wasm_bindgen(unchecked_param_type = "Report | string")] input: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "ParseOptions | null")] options: Option<JsValue>) -> Result<ReportHandle, JsValue> {
    let options = options_arg::<evidence_check::options::ParseOptions>(options, default_lang())?;
    let lang = options.lang();
    let policy = options.limits().in_lang(lang)?;
    let text = contract_text(&input, true, "report", Report::SUBJECT, &policy, lang)?;
    let parsed = evidence_check::parsed::ParsedReport::from_json_in(&text, options.dialect(), &policy).in_lang(lang)?;
    Ok(ReportHandle { inner: TrapCell::new(Some(std::rc::Rc::new(parsed))), lang })
}


/// SHA-256 hex of the report's canonical JSON. A handle is read under its own policy
/// and language, a report given as an object or text under the options' (the defaults).
#[wasm_bindgen(js_name = reportDigest)]
pub fn report_digest(#[wasm_bindgen(unchecked_param_type = "ReportArg")] report: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "ReportDigestOptions | null")] options: Option<JsValue>) -> Result<String, JsValue> {
    let options = options_arg::<evidence_check::options::ReportDigestOptions>(options, default_lang())?;
    let (policy, lang) = report_setting(&report, &options)?;
    match report_arg(&report, &policy, lang)? {
        ReportArg::Handle(parsed) => Ok(parsed.digest().to_owned()),
        ReportArg::Plain(report) => Ok(evidence_check::digest::report_digest(&report)),
    }
}

/// SHA-256 hex of the LF-normalised text: a source's digest.
#[wasm_bindgen(js_name = digestText)]
pub fn digest_text(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<String, JsValue> {
    Ok(evidence_check::digest::digest_text(&text_arg(&text, "text")?))
}

/// Records a reviewer's verdict on one claim, bound to the scope and report digest.
#[wasm_bindgen(js_name = recordReview, unchecked_return_type = "Review")]
pub fn record_review(
    #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ReportArg")] report: JsValue,
    #[wasm_bindgen(js_name = claimId, unchecked_param_type = "string")] claim_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Verdict")] verdict: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] note: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ReviewOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options_arg::<evidence_check::options::ReviewOptions>(options, default_lang())?;
    let (policy, lang) = report_setting(&report, &options)?;
    let scope: Scope = parse_arg_with(&scope, false, "scope", &policy, lang)?;
    let report = report_arg(&report, &policy, lang)?;
    let clock = options.clock().in_lang(lang)?;
    let key = options.signing_key().in_lang(lang)?;
    let verdict: JsValue = verdict;
    // Non-strings are refused by the review rules themselves, in the reference's order. A
    // string too long to be valid is not copied: like a non-string, it is refused by the
    // same rule.
    let as_value = |v: &JsValue, name: &str, field: ReviewField| -> Result<Value, JsValue> {
        match v.dyn_ref::<JsString>() {
            Some(s) if (s.length() as usize) <= field.max_units(&policy) => text_arg(v, name).map(Value::String),
            _ => Ok(Value::Null),
        }
    };
    let note_value = as_value(&note, "note", ReviewField::Note)?;
    let review = evidence_check::review::record_review_signed(
        &scope,
        evidence_check::review::Digested { report: report.report(), digest: report.digest() },
        &as_value(&claim_id, "claimId", ReviewField::ClaimId)?,
        &as_value(&verdict, "verdict", ReviewField::Verdict)?,
        &note_value,
        &clock,
        note.dyn_ref::<JsString>().map(|s| s.length() as usize),
        &policy,
        key.as_deref(),
    )
    .in_lang(lang)?;
    to_js(&review)
}

/// The scope, report and reviews that `assess` and `render` take, read under the store's
/// policy. The policy is cloned before reading: the caller's code (a `toJSON`, a getter)
/// may call the same store while an argument is read.
pub(crate) fn check_args(store: &EvidenceStore, scope: JsValue, report: JsValue, reviews: Option<JsValue>, lang: Lang) -> Result<(Scope, ReportArg, ReviewsArg), JsValue> {
    let policy = store.core_arg(lang)?.policy().clone();
    let scope: Scope = parse_arg_with(&scope, false, "scope", &policy, lang)?;
    let report = report_arg(&report, &policy, lang)?;
    let reviews = reviews_arg(reviews, lang)?;
    Ok((scope, report, reviews))
}

/// Assesses a report against the store's current snapshots (in the store's language
/// unless `lang` is given).
#[wasm_bindgen(unchecked_return_type = "Assessment")]
pub fn assess(
    #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ReportArg")] report: JsValue,
    store: &EvidenceStore,
    #[wasm_bindgen(unchecked_optional_param_type = "ReviewsArg | null")] reviews: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "AssessOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options_arg::<evidence_check::options::AssessOptions>(options, store.lang)?;
    let lang = options.lang_or(store.lang);
    let (scope, report, reviews) = check_args(store, scope, report, reviews, lang)?;
    let (key, mode) = options.review_check().in_lang(lang)?;
    let check = evidence_check::assess::CheckOptions { review_key: key.as_deref(), reviews: mode, report_digest: report.digest() };
    let a = evidence_check::assess::assess_detailed_in(&scope, report.report(), &*store.core_arg(lang)?, reviews.reviews(), check, lang).in_lang(lang)?;
    to_js(&a)
}

/// Renders the Markdown artifact (in the store's language unless `lang` is given);
/// throws for an invalid report or an oversize artifact.
#[wasm_bindgen(unchecked_return_type = "Artifact")]
pub fn render(
    #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ReportArg")] report: JsValue,
    store: &EvidenceStore,
    #[wasm_bindgen(unchecked_optional_param_type = "ReviewsArg | null")] reviews: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "RenderOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options_arg::<evidence_check::options::RenderOptions>(options, store.lang)?;
    let lang = options.lang_or(store.lang);
    let (scope, report, reviews) = check_args(store, scope, report, reviews, lang)?;
    let (key, mode) = options.review_check().in_lang(lang)?;
    let check = evidence_check::assess::CheckOptions { review_key: key.as_deref(), reviews: mode, report_digest: report.digest() };
    let clock = options.clock().in_lang(lang)?;
    let a = evidence_check::render::render_opts(&scope, report.report(), &*store.core_arg(lang)?, reviews.reviews(), &clock, options.escaping(), check, lang).in_lang(lang)?;
    to_js(&a)
}

/// Checks a whole bundle statelessly: assess, and render unless `render: false`.
#[wasm_bindgen(js_name = checkBundle, unchecked_return_type = "BundleResult")]
pub fn check_bundle(#[wasm_bindgen(unchecked_param_type = "Bundle | string | Uint8Array")] bundle: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "CheckBundleOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let options = options_arg::<evidence_check::options::CheckBundleOptions>(options, default_lang())?;
    let lang = options.lang();
    let options = options.bundle().in_lang(lang)?;
    let text = bundle_text(&bundle, &options.policy, lang)?;
    let bundle = evidence_check::bundle::read_for_check(&text, &options.policy).in_lang(lang)?;
    drop(text);
    to_js(&evidence_check::bundle::check_read(bundle, &options).in_lang(lang)?)
}

// ---- the strict bundle reader of `check --mcp` ---------------------------------------

/// Reads a bundle as `checkBundle` does (strict JSON, the whole contract) and returns it
/// parsed, without checking it against its sources. `requireContents: false` lets sources
/// leave out `content`: their texts come from elsewhere, as with `check --mcp`.
#[wasm_bindgen(js_name = parseBundle, unchecked_return_type = "ParsedBundle")]
pub fn parse_bundle(#[wasm_bindgen(unchecked_param_type = "Bundle | string | Uint8Array")] bundle: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "ParseBundleOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let options = options_arg::<evidence_check::options::ParseBundleOptions>(options, default_lang())?;
    let lang = options.lang();
    let limits = options.limits().in_lang(lang)?;
    let text = bundle_text(&bundle, &limits, lang)?;
    to_js(&evidence_check::bundle::parse_bundle(&text, &limits, options.require_contents.unwrap_or(true)).in_lang(lang)?)
}
