use crate::*;

// ---- errors -------------------------------------------------------------------------
//
// One path: every error of the core implements `Coded`; a call attaches its language with
// `.in_lang(lang)` and `?` converts it into the one JS error class that fits. The language
// is the call's `lang` option, else the language of the store or catalogue it was given,
// else the library's default (zh).

/// The error classes. The package's entries define them as JS classes and register their
/// prototypes once (`__registerErrorClasses`); without that (the raw wasm-bindgen module,
/// as the wasm tests load it) they are made here, without `eval` (the page's
/// Content-Security-Policy forbids it) and without a JS snippet (Node 20 cannot `require`
/// an ES module): each is a function whose `prototype` chains to `Error.prototype`.
pub(crate) struct ErrorClasses {
    pub(crate) contract: js_sys::Object,
    pub(crate) evidence: js_sys::Object,
    pub(crate) object: js_sys::Object,
}

pub(crate) fn make_class(name: &str, parent: &js_sys::Object) -> (JsValue, js_sys::Object) {
    let proto = js_sys::Object::create(parent);
    let ctor = wasm_bindgen::closure::Closure::<dyn Fn(JsValue) -> JsValue>::new(|m: JsValue| {
        JsValue::from(js_sys::Error::new(&m.as_string().unwrap_or_default()))
    })
    .into_js_value();
    let name_value = JsValue::from_str(name);
    let _ = Reflect::set(&proto, &JsValue::from_str("name"), &name_value);
    let _ = Reflect::set(&proto, &JsValue::from_str("constructor"), &ctor);
    let _ = Reflect::set(&ctor, &JsValue::from_str("prototype"), &proto);
    let descriptor = js_sys::Object::new();
    let _ = Reflect::set(&descriptor, &JsValue::from_str("value"), &name_value);
    if let Some(f) = ctor.dyn_ref::<js_sys::Object>() {
        js_sys::Object::define_property(f, &JsValue::from_str("name"), &descriptor);
    }
    (ctor, proto)
}

pub(crate) fn classes_object(base: &JsValue, contract: &JsValue, evidence: &JsValue) -> js_sys::Object {
    let object = js_sys::Object::new();
    let _ = Reflect::set(&object, &JsValue::from_str("EvidenceCheckError"), base);
    let _ = Reflect::set(&object, &JsValue::from_str("ContractError"), contract);
    let _ = Reflect::set(&object, &JsValue::from_str("EvidenceError"), evidence);
    object
}

thread_local! {
    static CLASSES: std::cell::RefCell<ErrorClasses> = std::cell::RefCell::new({
        let error_proto: js_sys::Object = js_sys::Error::new("").into();
        let error_proto = js_sys::Object::get_prototype_of(&error_proto);
        let (base_ctor, base) = make_class("EvidenceCheckError", &error_proto);
        let (contract_ctor, contract) = make_class("ContractError", &base);
        let (evidence_ctor, evidence) = make_class("EvidenceError", &base);
        let object = classes_object(&base_ctor, &contract_ctor, &evidence_ctor);
        ErrorClasses { contract, evidence, object }
    });
}

/// Registers the package's own error classes (internal: the entries call it once).
#[wasm_bindgen(js_name = __registerErrorClasses, skip_typescript)]
pub fn register_error_classes(base: js_sys::Function, contract: js_sys::Function, evidence: js_sys::Function) -> Result<(), JsValue> {
    let proto = |f: &js_sys::Function| -> Result<js_sys::Object, JsValue> {
        Reflect::get(f, &JsValue::from_str("prototype"))?.dyn_into::<js_sys::Object>()
    };
    let classes = ErrorClasses { contract: proto(&contract)?, evidence: proto(&evidence)?, object: classes_object(&base, &contract, &evidence) };
    CLASSES.with(|c| *c.borrow_mut() = classes);
    Ok(())
}

/// The error classes every function throws, for `instanceof` (the same classes the
/// package exports by name): `const { ContractError, EvidenceError, EvidenceCheckError } = errorClasses()`.
#[wasm_bindgen(js_name = errorClasses, unchecked_return_type = "ErrorClasses")]
pub fn error_classes() -> JsValue {
    CLASSES.with(|c| JsValue::from(c.borrow().object.clone()))
}

/// The thrown value of any coded error, in a language: a `ContractError` (with `issues`
/// and `subject`) when it lists violations, else an `EvidenceError`; `code` always, and
/// the error's own details as properties.
pub(crate) fn js_error(e: &dyn Coded, lang: Lang) -> JsValue {
    let (message, issues) = e.message_and_issues(lang);
    let err = js_sys::Error::new(&message);
    CLASSES.with(|c| {
        let c = c.borrow();
        js_sys::Object::set_prototype_of(&err, if issues.is_some() { &c.contract } else { &c.evidence });
    });
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(&err, &JsValue::from_str(k), v);
    };
    set("code", &JsValue::from_str(e.code()));
    if let Some((subject, violations)) = issues {
        set("issues", &to_js(&violations).unwrap_or(JsValue::NULL));
        set("subject", &JsValue::from_str(subject));
    }
    for (k, v) in e.details() {
        set(k, &to_js(&v).unwrap_or(JsValue::NULL));
    }
    err.into()
}

/// An error with the language its message is to be given in: what a call returns to the
/// binding, which converts it once. `result.in_lang(lang)?` is the whole call site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InLang<E>(pub E, pub Lang);

/// `Result::in_lang`: attaches the call's language to its error.
pub trait WithLang<T, E> {
    fn in_lang(self, lang: Lang) -> Result<T, InLang<E>>;
}

impl<T, E: Coded> WithLang<T, E> for Result<T, E> {
    fn in_lang(self, lang: Lang) -> Result<T, InLang<E>> {
        self.map_err(|e| InLang(e, lang))
    }
}

/// The one conversion: `result.in_lang(lang)?` in every export.
impl<E: Coded> From<InLang<E>> for JsValue {
    fn from(InLang(e, lang): InLang<E>) -> JsValue {
        js_error(&e, lang)
    }
}

/// `invalid_argument` naming the argument (its message is the one given, in any language).
pub(crate) fn argument_error(message: impl Into<String>) -> JsValue {
    js_error(&BindingError::argument(message), default_lang())
}
