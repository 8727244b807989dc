use crate::*;

// ---- the document catalogue (the second article's frozen documents table) ------------

thread_local! {
    /// The catalogues alive, by handle, with their language: a function given a
    /// `DocumentCatalog` finds its documents here without taking the instance from its owner.
    static CATALOGS: TrapCell<std::collections::BTreeMap<u32, (CoreCatalog, Lang)>> = const { TrapCell::new(std::collections::BTreeMap::new()) };
    static NEXT_CATALOG: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

/// The id of a live or freed `DocumentCatalog` instance, as its getter vouches; `None`
/// for anything else.
pub(crate) fn catalog_handle(value: &JsValue) -> Option<u32> {
    match vouched(value) {
        Some(Vouched::Catalog(id)) => Some(id),
        _ => None,
    }
}

/// `handle_freed` for a catalogue: the argument `name` of a function, or (`None`) the
/// instance a method was called on.
pub(crate) fn freed_catalog(name: Option<&str>, lang: Lang) -> JsValue {
    match name {
        Some(name) => freed_argument(BindingErrorKind::HandleFreed, name, lang),
        None => handle_freed(lang),
    }
}

/// Runs `f` over a live catalogue (the argument `name`) and its language: `handle_freed`
/// naming it once it was freed, before the call or by the caller's code during it.
pub(crate) fn with_catalog<R>(handle: u32, name: &str, f: impl FnOnce(&CoreCatalog, Lang) -> R) -> Result<R, JsValue> {
    CATALOGS.with(|m| m.try_borrow()?.get(&handle).map(|(c, lang)| f(c, *lang))).ok_or_else(|| freed_catalog(Some(name), default_lang()))
}

/// The language of the catalogue `handle`, while it is alive.
pub(crate) fn catalog_lang(handle: u32) -> Option<Lang> {
    CATALOGS.with(|m| m.try_borrow()?.get(&handle).map(|(_, lang)| *lang))
}

/// Documents imported once, their digests frozen: the same body again is a no-op, a
/// different body under the same id throws `document_changed` and replaces nothing.
/// Pass it wherever a document list goes, and as `options.catalog` to `finalize` and
/// `gradeTask`.
#[wasm_bindgen]
pub struct DocumentCatalog {
    pub(crate) handle: u32,
    pub(crate) lang: Lang,
}

impl Drop for DocumentCatalog {
    fn drop(&mut self) {
        CATALOGS.with(|m| m.try_borrow_mut().map(|mut m| m.remove(&self.handle)));
    }
}

impl DocumentCatalog {
    pub(crate) fn adopt(inner: CoreCatalog, lang: Lang) -> DocumentCatalog {
        let handle = NEXT_CATALOG.with(|n| {
            let h = n.get();
            n.set(h.wrapping_add(1).max(1));
            h
        });
        CATALOGS.with(|m| m.try_borrow_mut().map(|mut m| m.insert(handle, (inner, lang))));
        DocumentCatalog { handle, lang }
    }

    pub(crate) fn inner<R>(&self, f: impl FnOnce(&mut CoreCatalog) -> R) -> Result<R, JsValue> {
        CATALOGS.with(|m| m.try_borrow_mut()?.get_mut(&self.handle).map(|(c, _)| f(c))).ok_or_else(|| freed_catalog(None, self.lang))
    }
}

#[wasm_bindgen]
impl DocumentCatalog {
    /// An empty catalogue, or one holding `options.documents` (imported in order).
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_optional_param_type = "DocumentCatalogOptions | null")] options: Option<JsValue>) -> Result<DocumentCatalog, JsValue> {
        let options = options_arg::<evidence_check::options::CatalogOptions>(options, default_lang())?;
        let lang = options.lang();
        let documents = match &options.documents {
            Some(docs) => documents_from_value(docs),
            None => Ok(Vec::new()),
        };
        let inner = CoreCatalog::with_documents(documents.in_lang(lang)?).in_lang(lang)?;
        Ok(DocumentCatalog::adopt(inner, lang))
    }

    /// Loads a saved catalogue (`toJSON()`), re-verifying every digest; a body that is
    /// not its recorded digest throws `catalog_digest_mismatch` naming the id.
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(#[wasm_bindgen(unchecked_param_type = "CatalogJson | string")] json: JsValue, #[wasm_bindgen(unchecked_optional_param_type = "LangOptions | null")] options: Option<JsValue>) -> Result<DocumentCatalog, JsValue> {
        let lang = options_arg::<evidence_check::options::LangOptions>(options, default_lang())?.lang();
        let json: JsValue = json;
        let v = if json.is_string() { json_value_arg(&json, "json", lang)? } else { value_arg(&json, "json", lang)? };
        Ok(DocumentCatalog::adopt(CoreCatalog::from_value(&v).in_lang(lang)?, lang))
    }

    /// Imports a document and returns what was frozen: `{item_id, sha256, lines}`.
    #[wasm_bindgen(js_name = import, unchecked_return_type = "Imported")]
    pub fn import_document(&self, #[wasm_bindgen(unchecked_param_type = "Document")] doc: JsValue) -> Result<JsValue, JsValue> {
        let doc: Document = parse_arg(&doc, false, "document", self.lang)?;
        to_js(&self.inner(|c| c.import(doc))?.in_lang(self.lang)?)
    }

    /// The document with this id, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "Document | undefined")]
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue) -> Result<JsValue, JsValue> {
        let id = text_arg(&id, "id")?;
        match self.inner(|c| c.get(&id).cloned())? {
            Some(doc) => to_js(&doc),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The ids, sorted.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn ids(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner(|c| c.ids().into_iter().map(str::to_owned).collect::<Vec<_>>())?)
    }

    /// The saved form: every document with its frozen digest (`JSON.stringify` uses it).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "CatalogJson")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner(|c| c.to_json())?)
    }

    /// Releases the documents now; every later use throws `handle_freed`. Freeing twice does
    /// nothing. (This binding's own `free`, as the store's: the instance stays a tombstone
    /// that the finalizer releases, so a method called on it after, or on it while its own
    /// call reads an argument, is a coded error, never wasm-bindgen's "null pointer passed
    /// to rust" nor its "recursive use of an object".)
    pub fn free(&self) {
        CATALOGS.with(|m| m.try_borrow_mut().map(|mut m| m.remove(&self.handle)));
    }

    /// How a call recognises a genuine handle (internal).
    #[wasm_bindgen(getter = __handle, skip_typescript)]
    pub fn vouch(&self) -> bool {
        vouch(Vouched::Catalog(self.handle))
    }
}
