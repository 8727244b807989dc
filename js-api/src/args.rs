use crate::*;

// ---- crossing the boundary ----------------------------------------------------------
//
// Reading an argument can run the caller's code: `toJSON`, getters, Proxy traps. An
// exception thrown from an import that is not declared `catch` unwinds through the wasm
// frames without running their destructors (a borrow flag stays set, the shadow stack
// pointer is not restored), which poisons the store and, after a few thousand calls,
// the whole instance. So every JS call that can run the caller's code goes through a
// catching import below, and its exception becomes a coded `invalid_argument`. (That is
// why options are read from `JSON.stringify` text, not with serde-wasm-bindgen: its
// object reads are plain property accesses, not catching imports.)

#[wasm_bindgen]
extern "C" {
    /// `JSON.stringify`, whose result may be `undefined` (a `toJSON` that returns nothing).
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = stringify)]
    pub(crate) fn stringify_caught(value: &JsValue) -> Result<JsValue, JsValue>;
    /// `Object.keys` (runs a Proxy's `ownKeys` and `getOwnPropertyDescriptor` traps).
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    pub(crate) fn keys_caught(value: &JsValue) -> Result<js_sys::Array, JsValue>;
    /// `Array.isArray` (throws for a revoked Proxy).
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    pub(crate) fn is_array_caught(value: &JsValue) -> Result<bool, JsValue>;
    /// `String.prototype.isWellFormed` (ES2024): one linear scan in the host. Caught: a
    /// host without it, or a caller who replaced it, throws, and the scan below decides.
    #[wasm_bindgen(catch, js_namespace = ["String", "prototype", "isWellFormed"], js_name = call)]
    fn is_well_formed_caught(this: &JsValue) -> Result<bool, JsValue>;
    /// `String.prototype.indexOf`, caught for the same reason.
    #[wasm_bindgen(catch, js_namespace = ["String", "prototype", "indexOf"], js_name = call)]
    fn index_of_caught(this: &JsValue, search: &JsValue, from: f64) -> Result<f64, JsValue>;

}


/// A string argument; a lone surrogate is refused, never replaced.
pub(crate) fn text_arg(value: &JsValue, name: &str) -> Result<String, JsValue> {
    // One crossing: the glue checks `typeof` and copies a string's text (anything else
    // reads as `None`); a `dyn_ref` first and a `length` after were two more per string.
    let Some(s) = value.dyn_ref::<JsString>() else {
        return Err(argument_error(format!("{name} must be a string")));
    };
    match copy_text(s, name, usize::MAX)? {
        Copied::Text(text) => checked_text(value, text, name),
        Copied::TooLarge(bytes) => Err(out_of_memory(name, bytes)),
    }
}

/// A string argument of at most `max_bytes` UTF-8 bytes, measured as it is copied (never
/// copied past the limit); `Err(Ok(size))` gives the size of one over it.
pub(crate) fn sized_text(s: &JsString, name: &str, max_bytes: usize) -> Result<String, Result<usize, JsValue>> {
    match copy_text(s, name, max_bytes).map_err(Err)? {
        Copied::Text(text) => checked_text(s, text, name).map_err(Err),
        Copied::TooLarge(bytes) => Err(Ok(bytes)),
    }
}

/// `text`, the string `value` as read, unless `value` holds a lone surrogate.
pub(crate) fn checked_text(value: &JsValue, text: String, name: &str) -> Result<String, JsValue> {
    // The conversion replaces a lone surrogate by U+FFFD; only a string that comes out
    // with a U+FFFD needs the host's check, which tells a real U+FFFD apart. ASCII text
    // holds no U+FFFD.
    if !text.is_ascii() && !well_formed(value, &text) {
        return Err(js_error(&BindingError::unicode(format!("{name} contains an unpaired surrogate; it is not valid Unicode")), default_lang()));
    }
    Ok(text)
}

/// Whether `s`, copied as `text`, holds no lone surrogate: the core asks the host for the
/// string's own U+FFFDs (`indexOf`) and, past a few, for `isWellFormed()`.
fn well_formed(s: &JsValue, text: &str) -> bool {
    let replacement = JsValue::from_str("\u{FFFD}");
    let mut from = 0.0;
    let next = || match index_of_caught(s, &replacement, from) {
        Ok(at) if at >= 0.0 => {
            from = at + 1.0;
            true
        }
        _ => false,
    };
    evidence_check::citation::copy_is_well_formed(text, next, || is_well_formed_caught(s).ok())
}

/// A string argument that cannot be valid past `max_units` UTF-16 units. A longer one is
/// not copied into wasm memory: the stand-in is used instead, which the core refuses with
/// the same code, at the same point of its order, as the real string.
pub(crate) fn bounded_text_arg(value: &JsValue, name: &str, max_units: usize, stand_in: &str) -> Result<String, JsValue> {
    match value.dyn_ref::<JsString>() {
        Some(s) => bounded_text(s, name, max_units, stand_in),
        None => text_arg(value, name),
    }
}

/// [`bounded_text_arg`] for a value already known to be a string.
pub(crate) fn bounded_text(s: &JsString, name: &str, max_units: usize, stand_in: &str) -> Result<String, JsValue> {
    if s.length() as usize > max_units {
        Ok(stand_in.to_owned())
    } else {
        text_arg(s, name)
    }
}

/// Refuses, before copying it into wasm memory, JSON text that cannot fit the byte
/// limit (a UTF-8 encoding has at least as many bytes as UTF-16 units).
pub(crate) fn check_size(s: &JsString, name: &str, max_bytes: usize, lang: Lang) -> Result<(), JsValue> {
    evidence_check::options::check_input_size(name, s.length() as usize, max_bytes).in_lang(lang)?;
    Ok(())
}

/// The JSON text of an argument: a string is taken as JSON text when `text_ok`,
/// anything else is serialised once with `JSON.stringify`. Text over `max_bytes` is
/// refused before it is copied. A value nested too deep for `JSON.stringify` (it runs
/// out of stack) is refused as JSON text nested past the reader's limit is: a `too_deep`
/// `ContractError` of `subject`, the subject the reader gives the argument.
pub(crate) fn json_text(value: &JsValue, text_ok: bool, name: &str, subject: &'static str, max_bytes: usize, lang: Lang) -> Result<String, JsValue> {
    json_text_in(value, text_ok, name, (subject, max_bytes, None), lang)
}

/// [`json_text`] of a contract read under `limits`: text over the limit in UTF-8 bytes
/// is refused as the contract's reader refuses it, with the hint to raise the limit.
pub(crate) fn contract_text(value: &JsValue, text_ok: bool, name: &str, subject: &'static str, limits: &Limits, lang: Lang) -> Result<String, JsValue> {
    json_text_in(value, text_ok, name, (subject, limits.max_input_bytes, Some(limits)), lang)
}

/// The reader an argument's JSON text is for: its subject, its byte limit, and the
/// policy whose hints a refusal carries (none for plain JSON).
type ReadFor<'l> = (&'static str, usize, Option<&'l Limits>);

fn json_text_in(value: &JsValue, text_ok: bool, name: &str, read: ReadFor<'_>, lang: Lang) -> Result<String, JsValue> {
    let (subject, max_bytes, _) = read;
    if let Some(s) = text_ok.then(|| value.dyn_ref::<JsString>()).flatten() {
        check_size(s, name, max_bytes, lang)?;
        return sized_json(s, name, read, lang);
    }
    if value.is_undefined() || value.is_function() || value.is_symbol() {
        return Err(argument_error(format!("{name} must be a JSON value")));
    }
    let s = stringify_caught(value).map_err(|e| stringify_error(&e, name, subject, lang))?;
    let Some(s) = s.dyn_ref::<JsString>() else {
        return Err(argument_error(format!("{name} cannot be serialised as JSON: it serialises to nothing (a toJSON that returns undefined?)")));
    };
    check_size(s, name, max_bytes, lang)?;
    let text = sized_json(s, name, read, lang)?;
    evidence_check::options::check_stringified(&text, name).in_lang(lang)?;
    Ok(text)
}

/// JSON text of at most its limit in UTF-8 bytes, refused by its size (measured as it is
/// copied, never copied past the limit) as the reader would refuse it.
fn sized_json(s: &JsString, name: &str, (subject, max_bytes, hints): ReadFor<'_>, lang: Lang) -> Result<String, JsValue> {
    sized_text(s, name, max_bytes).map_err(|e| match e {
        Ok(bytes) => {
            let e = evidence_check::json::input_too_large(bytes as u64, max_bytes, subject);
            InLang(match hints { Some(limits) => evidence_check::contract::with_raise_hints(e, limits), None => e }, lang).into()
        }
        Err(e) => e,
    })
}

/// The error of a `JSON.stringify` of the argument `name` that threw `thrown`: out of
/// stack ([`evidence_check::json::is_out_of_stack`]) a `too_deep` of `subject`; anything
/// else (a `toJSON`, getter or Proxy trap that threw, a cycle, a BigInt) an
/// `invalid_argument`. The thrown value is read through catching calls only (it may be
/// the caller's Proxy); a value the caller threw that reads as such an error is taken at
/// its word.
pub(crate) fn stringify_error(thrown: &JsValue, name: &str, subject: &'static str, lang: Lang) -> JsValue {
    let text = |key: &str| Reflect::get(thrown, &JsValue::from_str(key)).ok().and_then(|v| v.as_string());
    if evidence_check::json::is_out_of_stack(text("name").as_deref(), text("message").as_deref()) {
        let e = evidence_check::json::too_deep(&format!("JSON.stringify of {name} ran out of stack"), subject);
        return InLang(e, lang).into();
    }
    argument_error(format!("{name} cannot be serialised as JSON: reading it threw an exception"))
}

pub(crate) fn parse_arg<T: Contract>(value: &JsValue, text_ok: bool, name: &str, lang: Lang) -> Result<T, JsValue> {
    parse_arg_with(value, text_ok, name, &Limits::default(), lang)
}

pub(crate) fn parse_arg_with<T: Contract>(value: &JsValue, text_ok: bool, name: &str, limits: &Limits, lang: Lang) -> Result<T, JsValue> {
    let text = contract_text(value, text_ok, name, T::SUBJECT, limits, lang)?;
    Ok(T::from_json_with(&text, limits).in_lang(lang)?)
}

/// A JSON argument given as an object (`undefined` reads as `null`).
pub(crate) fn value_arg(value: &JsValue, name: &str, lang: Lang) -> Result<Value, JsValue> {
    if value.is_undefined() {
        return Ok(Value::Null);
    }
    let subject = evidence_check::options::argument_subject(name);
    let text = json_text(value, false, name, subject, DEFAULT_MAX_INPUT_BYTES, lang)?;
    Ok(parse_strict(&text, DEFAULT_MAX_INPUT_BYTES, subject).in_lang(lang)?)
}

/// A W3C annotation given as an object: [`value_arg`], except that a lone surrogate at
/// the outer edge of a `prefix` or `suffix` is dropped (and listed), not refused.
pub(crate) fn annotation_arg(value: &JsValue, name: &str, lang: Lang) -> Result<(Value, Vec<evidence_check::annotation::ContextTrim>), JsValue> {
    let subject = evidence_check::options::argument_subject(name);
    if value.is_undefined() || value.is_function() || value.is_symbol() {
        return Err(argument_error(format!("{name} must be a JSON value")));
    }
    let s = stringify_caught(value).map_err(|e| stringify_error(&e, name, subject, lang))?;
    let Some(s) = s.dyn_ref::<JsString>() else {
        return Err(argument_error(format!("{name} cannot be serialised as JSON: it serialises to nothing (a toJSON that returns undefined?)")));
    };
    evidence_check::options::check_input_size(name, s.length() as usize, DEFAULT_MAX_INPUT_BYTES).in_lang(lang)?;
    let raw = sized_json(s, name, (subject, DEFAULT_MAX_INPUT_BYTES, None), lang)?;
    let (text, trimmed) = evidence_check::annotation::drop_edge_surrogates_in(&raw, lang);
    evidence_check::options::check_stringified(&text, name).in_lang(lang)?;
    Ok((parse_strict(&text, DEFAULT_MAX_INPUT_BYTES, subject).in_lang(lang)?, trimmed))
}

/// A JSON argument given as an object or as JSON text.
pub(crate) fn json_value_arg(value: &JsValue, name: &str, lang: Lang) -> Result<Value, JsValue> {
    let subject = evidence_check::options::argument_subject(name);
    let text = json_text(value, true, name, subject, DEFAULT_MAX_INPUT_BYTES, lang)?;
    Ok(parse_strict(&text, DEFAULT_MAX_INPUT_BYTES, subject).in_lang(lang)?)
}

/// The options of one call, named by the core's struct `T` and read into `CallOptions`
/// from the one guarded `JSON.stringify` of the object (a getter, Proxy trap or `toJSON`
/// that throws is an `invalid_argument`). A `now` too long to be a date-time is refused before anything is
/// copied. `lang` is the language of errors while reading.
pub(crate) fn options_arg<T: evidence_check::options::Options>(value: Option<JsValue>, lang: Lang) -> Result<CallOptions, JsValue> {
    let Some(value) = value.filter(|v| !v.is_undefined() && !v.is_null()) else { return Ok(CallOptions::default()) };
    if !value.is_object() || is_array_caught(&value).unwrap_or(true) {
        return Err(argument_error("options must be an object"));
    }
    let now = Reflect::get(&value, &JsValue::from_str("now")).map_err(|_| argument_error("options.now cannot be read: reading it threw an exception"))?;
    if let Some(now) = now.dyn_ref::<JsString>() {
        evidence_check::options::check_now_units(now.length() as usize).map_err(evidence_check::options::OptionError::from).in_lang(lang)?;
    }
    let text = json_text(&value, false, "options", "options", DEFAULT_MAX_INPUT_BYTES, lang)?;
    Ok(evidence_check::options::from_stringified::<T>(&text, "options").in_lang(lang)?)
}

/// A whole-number argument. It is taken as a JS value, not an `f64`: the conversion to a
/// number would run an object's `valueOf` (the caller's code) and coerce strings.
pub(crate) fn index_arg(v: &JsValue, name: &str) -> Result<usize, JsValue> {
    evidence_check::options::whole_number(v.as_f64(), name).map_err(|e| js_error(&e, default_lang()))
}

pub(crate) fn unit_value(v: &JsValue, name: &str) -> Result<Unit, JsValue> {
    v.as_string()
        .and_then(|s| Unit::parse(&s))
        .ok_or_else(|| argument_error(format!("{name} must be \"code_point\", \"utf16\" or \"utf8\"")))
}
