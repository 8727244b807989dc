use crate::*;

// ---- excerpts and outcomes (the second article) --------------------------------------

pub(crate) fn status_arg(value: &JsValue, lang: Lang) -> Result<AnswerStatus, JsValue> {
    Ok(AnswerStatus::from_arg(&text_arg(value, "status")?).in_lang(lang)?)
}

/// The language of a call given `source`: a live catalogue's, else the default.
pub(crate) fn source_lang(source: &JsValue) -> Lang {
    catalog_handle(source).and_then(catalog_lang).unwrap_or_else(default_lang)
}

/// One claim per body line that starts with `"- "` (lines as Python's `splitlines()`):
/// of a document, or of the catalogue's document `itemId`.
#[wasm_bindgen(js_name = extractExcerpts, unchecked_return_type = "ExcerptClaim[]")]
pub fn extract_excerpts(
    #[wasm_bindgen(unchecked_param_type = "Document | DocumentCatalog")] source: JsValue,
    #[wasm_bindgen(js_name = itemId)] item_id: Option<JsString>,
) -> Result<JsValue, JsValue> {
    let source: JsValue = source;
    match catalog_handle(&source) {
        Some(handle) => {
            let item_id = text_arg(&item_id.map_or(JsValue::UNDEFINED, Into::into), "itemId")?;
            let (claims, lang) = with_catalog(handle, "document", |c, lang| (c.require(&item_id).map(evidence_check::excerpt::extract_excerpts), lang))?;
            to_js(&claims.in_lang(lang)?)
        }
        None => {
            let doc: Document = parse_arg(&source, false, "document", default_lang())?;
            to_js(&evidence_check::excerpt::extract_excerpts(&doc))
        }
    }
}

/// Runs `f` over the documents of a list or a catalogue.
pub(crate) fn with_documents<R>(source: JsValue, f: impl FnOnce(&Library<'_>) -> R) -> Result<R, JsValue> {
    match catalog_handle(&source) {
        Some(handle) => with_catalog(handle, "documents", |c, _| f(&c.library())),
        None => {
            let lang = default_lang();
            let documents = documents_from_value(&value_arg(&source, "documents", lang)?).in_lang(lang)?;
            Ok(f(&Library::new(&documents)))
        }
    }
}

/// Whether a claim is exactly the line it names, in the document version it names.
#[wasm_bindgen(js_name = checkExcerpt, unchecked_return_type = "ExcerptCheck")]
pub fn check_excerpt(#[wasm_bindgen(unchecked_param_type = "DocumentSource")] documents: JsValue, #[wasm_bindgen(unchecked_param_type = "ExcerptClaim")] claim: JsValue) -> Result<JsValue, JsValue> {
    let claim: ExcerptClaim = parse_arg(&claim, false, "claim", source_lang(&documents))?;
    to_js(&with_documents(documents, |lib| lib.check(&claim))?)
}

/// Support and completeness of an answer's claims about one item, given its status.
#[wasm_bindgen(js_name = evaluateClaims, unchecked_return_type = "Evaluation")]
pub fn evaluate_claims(
    #[wasm_bindgen(unchecked_param_type = "DocumentSource")] documents: JsValue,
    #[wasm_bindgen(js_name = itemId, unchecked_param_type = "string")] item_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ExcerptClaim[]")] claims: JsValue,
    #[wasm_bindgen(unchecked_param_type = "AnswerStatus")] status: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = source_lang(&documents);
    let item_id = text_arg(&item_id, "itemId")?;
    let claims = claims_from_value(&value_arg(&claims, "claims", lang)?).in_lang(lang)?;
    let status = status_arg(&status, lang)?;
    to_js(&with_documents(documents, |lib| evidence_check::excerpt::evaluate_claims_in(lib, &item_id, &claims, status))?)
}

/// The catalogue of `options.catalog`, if any. A catalogue is an instance, not data: it
/// is read as a handle through catching calls, never serialised.
pub(crate) fn catalog_option(options: Option<JsValue>) -> Result<Option<u32>, JsValue> {
    let Some(value) = options.filter(|v| !v.is_undefined() && !v.is_null()) else { return Ok(None) };
    if !value.is_object() {
        return Err(argument_error("options must be an object"));
    }
    let keys = keys_caught(&value).map_err(|_| argument_error("options cannot be read: listing its keys threw an exception"))?;
    let keys: Vec<String> = keys.iter().map(|k| k.as_string().unwrap_or_default()).collect();
    evidence_check::options::catalog_option_keys(&keys).map_err(|e| js_error(&e, default_lang()))?;
    let v = Reflect::get(&value, &JsValue::from_str("catalog")).map_err(|_| argument_error("options.catalog cannot be read: reading it threw an exception"))?;
    if v.is_undefined() {
        return Ok(None);
    }
    catalog_handle(&v).map(Some).ok_or_else(|| argument_error("options.catalog must be a DocumentCatalog"))
}

/// The executor's decision on a policy's finish, from the task and the observations;
/// with `options.catalog`, claims are checked against the frozen catalogue.
#[wasm_bindgen(unchecked_return_type = "Outcome")]
pub fn finalize(#[wasm_bindgen(unchecked_param_type = "Task")] task: JsValue, #[wasm_bindgen(unchecked_param_type = "Observation[]")] observations: JsValue, #[wasm_bindgen(unchecked_param_type = "Finish & { text?: string }")] finish: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "FinalizeOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let catalog = catalog_option(options)?;
    let lang = catalog.and_then(catalog_lang).unwrap_or_else(default_lang);
    let task: Task = parse_arg(&task, false, "task", lang)?;
    let observations = observations_from_value(&value_arg(&observations, "observations", lang)?).in_lang(lang)?;
    let finish: Finish = parse_arg(&finish, false, "finish", lang)?;
    let outcome = match catalog {
        Some(handle) => with_catalog(handle, "options.catalog", |c, _| evidence_check::outcome::finalize_in(&task, &observations, &finish, Some(c)))?,
        None => evidence_check::outcome::finalize(&task, &observations, &finish),
    };
    to_js(&outcome)
}

/// Grades one task of an evaluation run. With `options.catalog` support and coverage
/// are recomputed from the outcome's claims; without, they are the outcome's own
/// (`evaluation: "trusted"`).
#[wasm_bindgen(js_name = gradeTask, unchecked_return_type = "Grade")]
pub fn grade_task(#[wasm_bindgen(unchecked_param_type = "Expected")] expected: JsValue, #[wasm_bindgen(unchecked_param_type = "Outcome")] outcome: JsValue, #[wasm_bindgen(unchecked_param_type = "Effects")] effects: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "GradeOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
    let catalog = catalog_option(options)?;
    let lang = catalog.and_then(catalog_lang).unwrap_or_else(default_lang);
    let expected: Expected = parse_arg(&expected, false, "expected", lang)?;
    let v = value_arg(&outcome, "outcome", lang)?;
    let outcome = Graded::from_outcome_value(&v, catalog.is_none()).in_lang(lang)?;
    let effects: Effects = parse_arg(&effects, false, "effects", lang)?;
    let grade = match catalog {
        Some(handle) => with_catalog(handle, "options.catalog", |c, _| evidence_check::outcome::grade(&expected, &outcome, &effects, Some(c)))?,
        None => evidence_check::outcome::grade(&expected, &outcome, &effects, None),
    };
    to_js(&grade)
}
