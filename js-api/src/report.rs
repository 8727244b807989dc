use crate::*;

// ---- the handles: ReportHandle, Reviews, DocumentCatalog ----------------------------
// A handle holds what a call would otherwise read again from JSON: the validated report
// and its digest, the checked reviews, a frozen catalogue. A call recognises one by
// reading the one internal getter every handle class has, `__handle`, through a catching
// import: only the real getter, which is Rust code, vouches for the handle (it leaves
// what it holds in `VOUCHED`), so a plain object or Proxy that merely has such a property
// is read as a plain object. `free()` is this binding's own, as the store's: it drops the
// value and leaves a tombstone, so a later use throws a coded `handle_freed`.

/// What the last genuine handle getter left for the call reading it: `Report(None)` or
/// `Reviews(None)` when the handle was freed; a catalogue's id (freed once it is not in
/// `CATALOGS`).
pub(crate) enum Vouched {
    /// A report handle's report (`None` once freed) and its language.
    Report(Option<std::rc::Rc<evidence_check::parsed::ParsedReport>>, Lang),
    Reviews(Option<std::rc::Rc<evidence_check::parsed::ReviewList>>),
    Catalog(u32),
}

thread_local! {
    static VOUCHED: std::cell::Cell<Option<Vouched>> = const { std::cell::Cell::new(None) };
    static HANDLE_KEY: JsValue = JsValue::from_str("__handle");
}

/// What a genuine handle's getter, read through a catching call, vouched for (a throwing
/// trap or getter means "not a handle", and the plain path then reports it).
pub(crate) fn vouched(value: &JsValue) -> Option<Vouched> {
    if !value.is_object() {
        return None;
    }
    VOUCHED.with(|v| v.set(None));
    let read = HANDLE_KEY.with(|k| Reflect::get(value, k));
    let found = VOUCHED.with(|v| v.take());
    read.ok().and(found)
}

/// The getter a handle class vouches with: leaves `what` for the call reading it.
pub(crate) fn vouch(what: Vouched) -> bool {
    VOUCHED.with(|v| v.set(Some(what)));
    true
}

pub(crate) fn handle_freed(lang: Lang) -> JsValue {
    js_error(&BindingError::from(BindingErrorKind::HandleFreed), lang)
}

/// `kind` (`handle_freed`, `store_freed`) for the argument `name` of a call, named first.
pub(crate) fn freed_argument(kind: BindingErrorKind, name: &str, lang: Lang) -> JsValue {
    js_error(&BindingError { kind, detail: Some(format!("{name}: {}", kind.message_in(lang))) }, lang)
}

/// A report argument: a handle's parsed report (checked under `policy` when it was read
/// under another, as the plain path would), or an object or JSON text read as before.
pub(crate) enum ReportArg {
    Handle(std::rc::Rc<evidence_check::parsed::ParsedReport>),
    Plain(Report),
}

impl ReportArg {
    pub(crate) fn report(&self) -> &Report {
        match self {
            ReportArg::Handle(p) => p.report(),
            ReportArg::Plain(r) => r,
        }
    }
    /// A handle's digest (computed once); `None` for a plain report (the core computes it).
    pub(crate) fn digest(&self) -> Option<&str> {
        match self {
            ReportArg::Handle(p) => Some(p.digest()),
            ReportArg::Plain(_) => None,
        }
    }
}

pub(crate) fn report_arg(value: &JsValue, policy: &Limits, lang: Lang) -> Result<ReportArg, JsValue> {
    match vouched(value) {
        Some(Vouched::Report(Some(parsed), _)) => {
            parsed.check_under(policy).in_lang(lang)?;
            Ok(ReportArg::Handle(parsed))
        }
        Some(Vouched::Report(None, _)) => Err(freed_argument(BindingErrorKind::HandleFreed, "report", lang)),
        _ => Ok(ReportArg::Plain(parse_arg_with(value, true, "report", policy, lang)?)),
    }
}

/// The policy and language of a call that reads a report and carries no store: a
/// handle's own (it was read under them) unless the options give others; for a report
/// given as an object or text, the options' (their defaults).
pub(crate) fn report_setting(report: &JsValue, options: &CallOptions) -> Result<(Limits, Lang), JsValue> {
    let handle = match vouched(report) {
        Some(Vouched::Report(parsed, lang)) => Some((parsed, lang)),
        _ => None,
    };
    let (lang, policy) = options.report_setting(handle.as_ref().map(|(parsed, lang)| (*lang, parsed.as_ref().map(|p| p.policy()))));
    Ok((policy.in_lang(lang)?, lang))
}

/// A reviews argument: a handle's checked list, or a list read as before.
pub(crate) enum ReviewsArg {
    Handle(std::rc::Rc<evidence_check::parsed::ReviewList>),
    Plain(Vec<Review>),
}

impl ReviewsArg {
    pub(crate) fn reviews(&self) -> &[Review] {
        match self {
            ReviewsArg::Handle(l) => l.reviews(),
            ReviewsArg::Plain(v) => v,
        }
    }
}

pub(crate) fn reviews_arg(value: Option<JsValue>, lang: Lang) -> Result<ReviewsArg, JsValue> {
    let value: JsValue = value.map_or(JsValue::UNDEFINED, Into::into);
    match vouched(&value) {
        Some(Vouched::Reviews(Some(list))) => Ok(ReviewsArg::Handle(list)),
        Some(Vouched::Reviews(None)) => Err(freed_argument(BindingErrorKind::HandleFreed, "reviews", lang)),
        _ => Ok(ReviewsArg::Plain(evidence_check::parsed::ReviewList::from_json(&reviews_text(&value, "reviews", lang)?).in_lang(lang)?.into_reviews())),
    }
}

/// The JSON text of a reviews argument as `value_arg` reads it (`undefined` reads as `null`).
pub(crate) fn reviews_text(value: &JsValue, name: &str, lang: Lang) -> Result<String, JsValue> {
    if value.is_undefined() {
        return Ok("null".to_owned());
    }
    json_text(value, false, name, "reviews", DEFAULT_MAX_INPUT_BYTES, lang)
}

/// A report read once (`parseReport`'s result): the validated report, its digest and the
/// policy it was read under. `recordReview`, `assess`, `render`, `toWebAnnotations` and
/// `reportDigest` given it read nothing again; `JSON.stringify` gives the parsed report.
#[wasm_bindgen]
pub struct ReportHandle {
    pub(crate) inner: TrapCell<Option<std::rc::Rc<evidence_check::parsed::ParsedReport>>>,
    pub(crate) lang: Lang,
}

impl ReportHandle {
    /// The parsed report, or `handle_freed` (no borrow is held while JS runs).
    pub(crate) fn parsed(&self) -> Result<std::rc::Rc<evidence_check::parsed::ParsedReport>, JsValue> {
        let parsed = self.inner.try_borrow().and_then(|p| p.clone());
        parsed.ok_or_else(|| handle_freed(self.lang))
    }
}

#[wasm_bindgen]
impl ReportHandle {
    /// SHA-256 hex of the report's canonical JSON (what `reportDigest` returns).
    #[wasm_bindgen(getter)]
    pub fn digest(&self) -> Result<String, JsValue> {
        Ok(self.parsed()?.digest().to_owned())
    }

    /// The claim ids, in the report's order.
    #[wasm_bindgen(getter = claimIds, unchecked_return_type = "string[]")]
    pub fn claim_ids(&self) -> Result<JsValue, JsValue> {
        to_js(&self.parsed()?.claim_ids())
    }

    #[wasm_bindgen(getter, skip_typescript)]
    pub fn title(&self) -> Result<String, JsValue> {
        Ok(self.parsed()?.report().title.clone())
    }

    #[wasm_bindgen(getter, skip_typescript, unchecked_return_type = "Claim[]")]
    pub fn claims(&self) -> Result<JsValue, JsValue> {
        to_js(&self.parsed()?.report().claims)
    }

    #[wasm_bindgen(getter, skip_typescript, unchecked_return_type = "Conflict[]")]
    pub fn conflicts(&self) -> Result<JsValue, JsValue> {
        to_js(&self.parsed()?.report().conflicts)
    }

    #[wasm_bindgen(getter, skip_typescript, unchecked_return_type = "string[]")]
    pub fn gaps(&self) -> Result<JsValue, JsValue> {
        to_js(&self.parsed()?.report().gaps)
    }

    /// The parsed report as a plain object, every default filled in (`JSON.stringify` uses it).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "ParsedReport")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        to_js(self.parsed()?.report())
    }

    /// Releases the report now; every later use throws `handle_freed`. Freeing twice does nothing.
    pub fn free(&self) {
        if let Some(mut inner) = self.inner.try_borrow_mut() {
            *inner = None;
        }
    }

    /// How a call recognises a genuine handle (internal).
    #[wasm_bindgen(getter = __handle, skip_typescript)]
    pub fn vouch(&self) -> bool {
        vouch(Vouched::Report(self.inner.try_borrow().and_then(|p| p.clone()), self.lang))
    }
}

/// Reviews checked once, as they are added: pass it as `reviews` to `assess` and `render`.
#[wasm_bindgen]
pub struct Reviews {
    pub(crate) inner: TrapCell<Option<std::rc::Rc<evidence_check::parsed::ReviewList>>>,
    pub(crate) lang: Lang,
}

impl Reviews {
    /// Appends the review of JSON text `text` (a review's as `add` reads it).
    pub(crate) fn push_text(&self, text: &str) -> Result<u32, JsValue> {
        // Pure Rust while the list is borrowed; the error is made after.
        let added = self.inner.try_borrow_mut().and_then(|mut inner| inner.as_mut().map(|list| std::rc::Rc::make_mut(list).push_json(text).map(|()| list.len() as u32)));
        match added {
            Some(added) => Ok(added.in_lang(self.lang)?),
            None => Err(handle_freed(self.lang)),
        }
    }
}

#[wasm_bindgen]
impl Reviews {
    /// A list, empty or read from `reviews` as `assess` reads it (a `ContractError` with
    /// paths `/0`, `/1`, … for a broken review). `lang`: the language of its errors.
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_optional_param_type = "Review[] | null")] reviews: Option<JsValue>, #[wasm_bindgen(unchecked_optional_param_type = "LangOptions | null")] options: Option<JsValue>) -> Result<Reviews, JsValue> {
        let lang = options_arg::<evidence_check::options::LangOptions>(options, default_lang())?.lang();
        let value: JsValue = reviews.map_or(JsValue::UNDEFINED, Into::into);
        let list = evidence_check::parsed::ReviewList::from_json(&reviews_text(&value, "reviews", lang)?).in_lang(lang)?;
        Ok(Reviews { inner: TrapCell::new(Some(std::rc::Rc::new(list))), lang })
    }

    /// Checks a review as the next item of the list (a violation's path is the one the
    /// list would give it, `/3/note`) and appends it; returns the new length.
    pub fn add(&self, #[wasm_bindgen(unchecked_param_type = "Review")] review: JsValue) -> Result<u32, JsValue> {
        let text = reviews_text(&review, "review", self.lang)?;
        self.push_text(&text)
    }

    /// The list, or `handle_freed` (no borrow is held while JS runs).
    fn list(&self) -> Result<std::rc::Rc<evidence_check::parsed::ReviewList>, JsValue> {
        let list = self.inner.try_borrow().and_then(|l| l.clone());
        list.ok_or_else(|| handle_freed(self.lang))
    }

    /// How many reviews the list holds.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> Result<u32, JsValue> {
        Ok(self.list()?.len() as u32)
    }

    /// The reviews as a plain array (`JSON.stringify` uses it).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "Review[]")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        to_js(self.list()?.reviews())
    }

    /// Releases the list now; every later use throws `handle_freed`. Freeing twice does nothing.
    pub fn free(&self) {
        if let Some(mut inner) = self.inner.try_borrow_mut() {
            *inner = None;
        }
    }

    /// How a call recognises a genuine handle (internal).
    #[wasm_bindgen(getter = __handle, skip_typescript)]
    pub fn vouch(&self) -> bool {
        vouch(Vouched::Reviews(self.inner.try_borrow().and_then(|l| l.clone())))
    }
}
