use crate::*;

// ---- the store ----------------------------------------------------------------------

// Every method takes `&self` (the core store sits in a `TrapCell`, borrowed only after
// every argument has been read), so the caller's code run while an argument is read (a
// getter, a `toJSON`) may call this store again without a borrow conflict. `free()` is
// this binding's own (the JS class keeps the last `free` it defines, and Symbol.dispose
// calls it): it drops the snapshots at once and leaves a small tombstone that the
// finalizer releases, so a later call throws a coded `store_freed` instead of
// wasm-bindgen's "null pointer passed to rust".

/// Snapshots of the sources of a trusted catalogue, per scope.
#[wasm_bindgen]
pub struct EvidenceStore {
    pub(crate) inner: TrapCell<Option<Box<CoreStore>>>,
    pub(crate) lang: Lang,
}

impl EvidenceStore {
    /// The core store, or `store_freed`.
    pub(crate) fn core(&self) -> Result<Exclusive<'_, CoreStore>, JsValue> {
        self.core_or(|| js_error(&BindingError::from(BindingErrorKind::StoreFreed), self.lang))
    }

    /// [`Self::core`] for a store given as the argument `store` of a function (freed
    /// before the call, or by the caller's code run while another argument was read):
    /// `store_freed` naming it.
    pub(crate) fn core_arg(&self, lang: Lang) -> Result<Exclusive<'_, CoreStore>, JsValue> {
        self.core_or(|| freed_argument(BindingErrorKind::StoreFreed, "store", lang))
    }

    pub(crate) fn core_or(&self, freed: impl FnOnce() -> JsValue) -> Result<Exclusive<'_, CoreStore>, JsValue> {
        let guard = self.inner.try_borrow_mut().ok_or_else(busy_error)?;
        guard.filter_map(|inner| inner.as_deref_mut()).ok_or_else(freed)
    }
}

impl EvidenceStore {
    /// An argument read under the store's policy (the store carries it) and in its language.
    pub(crate) fn arg<T: Contract>(&self, value: JsValue, text_ok: bool, name: &str) -> Result<T, JsValue> {
        let policy = self.core()?.policy().clone();
        parse_arg_with(&value, text_ok, name, &policy, self.lang)
    }

    /// An identifier argument (a source or citation id): one longer than the store's
    /// identifier rule allows becomes the stand-in "-", which matches no catalogue entry
    /// and breaks the same pattern.
    fn id(&self, value: &JsValue, name: &str) -> Result<String, JsValue> {
        let max_units = self.core()?.policy().identifier.max_units();
        bounded_text_arg(value, name, max_units, "-")
    }
}

/// A store borrowed by a call in progress (never expected: no caller's code runs while
/// the core store is borrowed).
pub(crate) fn busy_error() -> JsValue {
    argument_error("the store is in use by a call in progress")
}

/// Whether a JS string is blank in the core's sense, read in bounded pieces (never
/// copied into wasm memory whole).
pub(crate) fn js_blank(s: &JsString) -> bool {
    const PIECE: u32 = 16 * 1024;
    let len = s.length();
    (0..len.div_ceil(PIECE)).all(|i| evidence_check::rules::is_blank(&String::from(s.slice(i * PIECE, len.min((i + 1) * PIECE)))))
}

#[wasm_bindgen]
impl EvidenceStore {
    /// A store over a trusted catalogue. Throws when there are more than `maxSources`
    /// specs (default 16) or two share a `source_id`. `lang` is the language of
    /// everything derived from the store (its errors, and calls given it without a `lang`).
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "SourceSpec[]")] specs: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "StoreOptions | null")] options: Option<JsValue>) -> Result<EvidenceStore, JsValue> {
        let options = options_arg::<evidence_check::options::StoreOptions>(options, default_lang())?;
        let lang = options.lang();
        let specs: JsValue = specs;
        let text = if specs.is_undefined() { None } else { Some(json_text(&specs, false, "specs", "specs", DEFAULT_MAX_INPUT_BYTES, lang)?) };
        let v = match &text {
            Some(text) => parse_strict(text, DEFAULT_MAX_INPUT_BYTES, "specs").in_lang(lang)?,
            None => Value::Null,
        };
        let policy = options.limits().in_lang(lang)?;
        let specs = evidence_check::contract::specs_from_value_with(&v, &policy).in_lang(lang)?;
        let clock = options.clock().in_lang(lang)?;
        let inner = CoreStore::with_policy(specs, policy, clock).in_lang(lang)?;
        Ok(EvidenceStore { inner: TrapCell::new(Some(Box::new(inner))), lang })
    }

    /// Stores a source's text (CRLF and CR become LF) and returns its ref. A text longer
    /// in UTF-16 units than `maxSourceBytes` is refused before it is copied into wasm
    /// memory (a text has at least as many UTF-8 bytes as UTF-16 units).
    #[wasm_bindgen(unchecked_return_type = "SourceRef")]
    pub fn ingest(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue, #[wasm_bindgen(js_name = sourceId, unchecked_param_type = "string")] source_id: JsValue, #[wasm_bindgen(unchecked_param_type = "string")] content: JsValue) -> Result<JsValue, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope, false, "scope")?;
        let source_id = self.id(&source_id, "sourceId")?;
        let Some(s) = content.dyn_ref::<JsString>() else { return Err(argument_error("content must be a string")) };
        // The most bytes the store takes now; a longer text is refused in the core's order
        // (unknown source, blank, too large, over capacity) by its size, measured as it is
        // copied and never copied past this.
        let most = {
            let core = self.core()?;
            core.options().max_source_bytes.min(core.room())
        };
        let refuse = |bytes: usize| -> JsValue {
            match self.core().map(|core| core.admit(&source_id, || js_blank(s), bytes)) {
                Ok(Err(e)) => InLang(e, lang).into(),
                Ok(Ok(_)) => argument_error("content could not be copied"),
                Err(e) => e,
            }
        };
        if s.length() as usize > most {
            return Err(refuse(s.length() as usize));
        }
        let content = sized_text(s, "content", most).map_err(|e| e.map_or_else(|e| e, refuse))?;
        let r = self.core()?.ingest_text(&scope, &source_id, std::borrow::Cow::Owned(content)).in_lang(lang)?;
        to_js(&r)
    }

    /// Checks a read tool's result against the spec, then stores its text.
    #[wasm_bindgen(js_name = ingestReadResult, unchecked_return_type = "SourceRef")]
    pub fn ingest_read_result(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue, #[wasm_bindgen(js_name = sourceId, unchecked_param_type = "string")] source_id: JsValue, #[wasm_bindgen(unchecked_param_type = "ReadResult")] result: JsValue) -> Result<JsValue, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope, false, "scope")?;
        let source_id = self.id(&source_id, "sourceId")?;
        let result = value_arg(&result, "result", lang)?;
        let r = self.core()?.ingest_read_result(&scope, &source_id, &result).in_lang(lang)?;
        to_js(&r)
    }

    /// The snapshot a ref names, if it is still current in this scope.
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue, #[wasm_bindgen(js_name = ref, unchecked_param_type = "SourceRef")] source_ref: JsValue) -> Result<JsValue, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope, false, "scope")?;
        let source_ref: SourceRef = self.arg(source_ref, false, "ref")?;
        let core = self.core()?;
        let s = core.get(&scope, &source_ref).in_lang(lang)?;
        to_js(&**s)
    }

    /// Checks that a citation's range of its current snapshot holds exactly its quote.
    #[wasm_bindgen(js_name = checkCitation, unchecked_return_type = "Snapshot")]
    pub fn check_citation(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue, #[wasm_bindgen(unchecked_param_type = "Citation")] citation: JsValue) -> Result<JsValue, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope, false, "scope")?;
        let citation: Citation = self.arg(citation, false, "citation")?;
        let core = self.core()?;
        let s = core.check_citation(&scope, &citation).in_lang(lang)?;
        to_js(&**s)
    }

    /// Makes a citation from the only occurrence of `text` in the snapshot.
    #[wasm_bindgen(unchecked_return_type = "Citation")]
    pub fn quote(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue,
        #[wasm_bindgen(js_name = ref, unchecked_param_type = "SourceRef")] source_ref: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(js_name = citationId, unchecked_param_type = "string")] citation_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "QuoteOptions | null")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope, false, "scope")?;
        let source_ref: SourceRef = self.arg(source_ref, false, "ref")?;
        let text = text_arg(&text, "text")?;
        let citation_id = self.id(&citation_id, "citationId")?;
        let options = options_arg::<evidence_check::options::QuoteOptions>(options, lang)?;
        let (selector, locate_options) = options.selector(text).in_lang(lang)?;
        let c = self.core()?.quote_with(&scope, &source_ref, &selector, &citation_id, locate_options).in_lang(lang)?;
        to_js(&c)
    }

    /// Makes a citation from an explicit range of the snapshot's text counted in
    /// `options.unit` (default `"utf16"`, JavaScript's string indices); the citation has
    /// the contract's code-point offsets. A range that splits a character is an error.
    #[wasm_bindgen(js_name = quoteRange, unchecked_return_type = "Citation")]
    pub fn quote_range(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue,
        #[wasm_bindgen(js_name = ref, unchecked_param_type = "SourceRef")] source_ref: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] start: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] end: JsValue,
        #[wasm_bindgen(js_name = citationId, unchecked_param_type = "string")] citation_id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RangeOptions | null")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope, false, "scope")?;
        let source_ref: SourceRef = self.arg(source_ref, false, "ref")?;
        let citation_id = self.id(&citation_id, "citationId")?;
        let options = options_arg::<evidence_check::options::RangeOptions>(options, lang)?;
        let (start, end) = (index_arg(&start, "start")?, index_arg(&end, "end")?);
        let c = self.core()?.quote_range(&scope, &source_ref, start, end, options.unit(Unit::Utf16), &citation_id).in_lang(lang)?;
        to_js(&c)
    }

    /// Drops the current snapshot; the revision counter stays.
    pub fn remove(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue, #[wasm_bindgen(js_name = sourceId, unchecked_param_type = "string")] source_id: JsValue) -> Result<(), JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope, false, "scope")?;
        let source_id = self.id(&source_id, "sourceId")?;
        Ok(self.core()?.remove(&scope, &source_id).in_lang(lang)?)
    }

    /// Drops every snapshot; the store accepts nothing more.
    pub fn close(&self) -> Result<(), JsValue> {
        self.core()?.close();
        Ok(())
    }

    /// Releases the store's snapshots now; every later call throws `store_freed`.
    /// Freeing twice does nothing.
    pub fn free(&self) -> Result<(), JsValue> {
        let mut inner = self.inner.try_borrow_mut().ok_or_else(busy_error)?;
        *inner = None;
        Ok(())
    }

    /// `fromWebAnnotation` given this store: an annotation made by `toWebAnnotations`, or a
    /// foreign one (a `TextQuoteSelector`, Hypothesis's TextPosition and Range ones beside
    /// it) located quote-first by the one quote locator in the current revision of its
    /// source (`state.source_id`, or the catalogue locator equal to the target's `source`
    /// or `locator`); a position only chooses among occurrences. Absent →
    /// `quote_not_found`, ambiguous → `quote_ambiguous`. A lone surrogate at the outer edge
    /// of a prefix or suffix is dropped, and the result's `trimmed` says so.
    #[wasm_bindgen(js_name = fromWebAnnotation, unchecked_return_type = "LocatedAnnotation")]
    pub fn locate_web_annotation(&self, #[wasm_bindgen(unchecked_param_type = "Scope")] scope: JsValue, #[wasm_bindgen(unchecked_param_type = "WebAnnotation | QuoteOnlyAnnotation")] annotation: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "WhitespaceOptions | null")] options: Option<JsValue>) -> Result<JsValue, JsValue> {
        let lang = self.lang;
        let options = options_arg::<evidence_check::options::WhitespaceOptions>(options, lang)?;
        let scope: Scope = self.arg(scope, false, "scope")?;
        let (v, trimmed) = annotation_arg(&annotation, "annotation", lang)?;
        let c = evidence_check::annotation::from_web_annotation_in(&v, &scope, &*self.core()?, options.whitespace()).in_lang(lang)?;
        if trimmed.is_empty() {
            return to_js(&c);
        }
        // The citation, and which context lost a lone surrogate at its outer edge.
        #[derive(Serialize)]
        struct Trimmed<'a> {
            #[serde(flatten)]
            citation: &'a Citation,
            trimmed: &'a [evidence_check::annotation::ContextTrim],
        }
        to_js(&Trimmed { citation: &c, trimmed: &trimmed })
    }
}
