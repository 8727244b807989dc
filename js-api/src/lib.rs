//! The JavaScript binding of evidence-check: the only crate that touches wasm-bindgen and
//! js-sys. The core (the `evidence_check` crate) decides; this crate marshals.
//!
//! Data crosses the boundary with the reference's snake_case field names. Every thrown
//! value is an `Error` whose `name` is `ContractError` (with `.issues`) or
//! `EvidenceError`, with a stable `.code`. One module holds every export; the package's
//! `evidence-check/extras` subpath re-exports part of it.
#![cfg(target_arch = "wasm32")]

mod utf16;

use js_sys::{JsString, Reflect, JSON};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use evidence_check::bundle::{Bundle, BundleOptions};
use evidence_check::clock::Clock;
use evidence_check::json::{parse_strict, DEFAULT_MAX_INPUT_BYTES};
use evidence_check::contract::Limits;
use evidence_check::contract::{Citation, Contract, Report, Scope, SourceRef};
use evidence_check::error::{BindingError, BindingErrorKind, Coded, Lang};
use evidence_check::options::CallOptions;
use evidence_check::citation::Unit;
use evidence_check::render::Escaping;
use evidence_check::schema::Dialect;
use evidence_check::catalog::DocumentCatalog as CoreCatalog;
use evidence_check::excerpt::{claims_from_value, documents_from_value, AnswerStatus, Document, ExcerptClaim, Library};
use evidence_check::outcome::{observations_from_value, Effects, Expected, Finish, Graded, Task};
use evidence_check::review::Review;
use evidence_check::store::EvidenceStore as CoreStore;

/// The data interfaces and options, generated from the Rust types (`src/ts.rs` writes
/// `js/generated/types.d.ts`; a test fails when it is stale).
#[wasm_bindgen(typescript_custom_section)]
const GENERATED_TYPES: &str = include_str!("../../js/generated/types.d.ts");

/// What the Rust types do not describe: the parsed forms (every default filled in, made
/// from the generated input types), the policy input, the W3C annotation, and the JS-side
/// classes.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** A report as parsed: every default filled in. */
export type ParsedReport = Required<Omit<Report, "claims">> & { claims: Required<Claim>[] };
/** A bundle as parsed: every default filled in (an absent content reads as ""). */
export type ParsedBundle = Omit<Bundle, "sources" | "report" | "reviews"> & { sources: Array<BundleSource & { revision: number }>; report: ParsedReport; reviews: Review[] };
/** A policy: a preset's name, or an object that starts from one (`{ extends: "documents", max_claims: 5000 }`). */
export type PolicyInput = "reference" | "documents" | ({ extends?: "reference" | "documents" } & Partial<Policy>);
/** A list of documents, or a frozen catalogue. */
export type DocumentSource = Document[] | DocumentCatalog;
export interface FinalizeOptions { catalog?: DocumentCatalog; }
export interface GradeOptions { catalog?: DocumentCatalog; }
/** A catalogue refusal: "document_changed", "catalog_digest_mismatch" or "unknown_document". */
export interface CatalogError extends EvidenceError { item_id: string; expected_sha256?: string; actual_sha256?: string; }
/** A JSON Schema (draft 2020-12) document. */
export type JsonSchema = { [keyword: string]: unknown };
/** A W3C Web Annotation of one citation (https://www.w3.org/TR/annotation-model/). */
export interface WebAnnotation {
  "@context": Array<string | Record<string, string>>;
  id: string;
  type: "Annotation";
  motivation: "describing";
  body: Array<{ type: "TextualBody"; value: string; format: "text/plain"; purpose: "describing" }>;
  target: {
    source: string;
    selector: Array<
      | { type: "TextQuoteSelector"; exact: string; prefix: string; suffix: string }
      | { type: "TextPositionSelector"; start: number; end: number }
    >;
    state: { type: "SourceRevision"; source_id: string; revision: number; digest: string };
  };
}
/** Every stable code of a thrown error or an assessment issue. */
export type ErrorCode = ContractCode | EvidenceCode;
/** The code of every broken contract. */
export type ContractCode = "contract";
/** What every function throws: an `Error` subclass with a stable `code`. Exported by
 * name from every entry (`import { ContractError } from "evidence-check"`). The
 * library's own errors are `ContractError` or `EvidenceError` (their codes are
 * `ErrorCode`); the JS side's (`McpReadError`, the CLI's) subclass it with codes of their own. */
export declare class EvidenceCheckError extends Error {
  constructor(message: string, code?: string, options?: { cause?: unknown });
  code: string;
}
/** A broken contract: `code` is "contract", `issues` lists every violation. */
export declare class ContractError extends EvidenceCheckError {
  name: "ContractError";
  code: ContractCode;
  issues: ContractIssue[];
  subject: string;
}
/** Any other refusal, with its own `code`; `detail`: its subject and numbers when known
 * (absent under `compat: "reference"`), `field`: the policy field of a policy refusal. */
export declare class EvidenceError extends EvidenceCheckError {
  name: "EvidenceError";
  code: EvidenceCode;
  detail?: Detail;
  field?: string;
}
/** The classes behind the thrown errors, for `instanceof` checks. */
export interface ErrorClasses {
  EvidenceCheckError: typeof EvidenceCheckError;
  ContractError: typeof ContractError;
  EvidenceError: typeof EvidenceError;
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "Scope")]
    pub type JsScope;
    #[wasm_bindgen(typescript_type = "SourceSpec[]")]
    pub type JsSpecs;
    #[wasm_bindgen(typescript_type = "SourceRef")]
    pub type JsSourceRef;
    #[wasm_bindgen(typescript_type = "ReadResult")]
    pub type JsReadResult;
    #[wasm_bindgen(typescript_type = "Citation")]
    pub type JsCitation;
    #[wasm_bindgen(typescript_type = "Report | string")]
    pub type JsReportInput;
    #[wasm_bindgen(typescript_type = "ParsedReport")]
    pub type JsParsedReport;
    #[wasm_bindgen(typescript_type = "Snapshot")]
    pub type JsSnapshot;
    #[wasm_bindgen(typescript_type = "Verdict")]
    pub type JsVerdict;
    #[wasm_bindgen(typescript_type = "Review")]
    pub type JsReview;
    #[wasm_bindgen(typescript_type = "Review[]")]
    pub type JsReviews;
    #[wasm_bindgen(typescript_type = "Assessment")]
    pub type JsAssessment;
    #[wasm_bindgen(typescript_type = "Artifact")]
    pub type JsArtifact;
    #[wasm_bindgen(typescript_type = "Bundle | string | Uint8Array")]
    pub type JsBundleInput;
    #[wasm_bindgen(typescript_type = "BundleResult")]
    pub type JsBundleResult;
    #[wasm_bindgen(typescript_type = "StoreOptions")]
    pub type JsStoreOptions;
    #[wasm_bindgen(typescript_type = "RenderOptions")]
    pub type JsRenderOptions;
    #[wasm_bindgen(typescript_type = "RangeOptions")]
    pub type JsRangeOptions;
    #[wasm_bindgen(typescript_type = "LangOptions")]
    pub type JsLangOptions;
    #[wasm_bindgen(typescript_type = "ReviewOptions")]
    pub type JsReviewOptions;
    #[wasm_bindgen(typescript_type = "JsonSchema")]
    pub type JsJsonSchema;
    #[wasm_bindgen(typescript_type = "SchemaOptions")]
    pub type JsSchemaOptions;
    #[wasm_bindgen(typescript_type = "ParseOptions")]
    pub type JsParseOptions;
    #[wasm_bindgen(typescript_type = "ErrorClasses")]
    pub type JsErrorClasses;
    #[wasm_bindgen(typescript_type = "WebAnnotation")]
    pub type JsWebAnnotation;
    #[wasm_bindgen(typescript_type = "WebAnnotation[]")]
    pub type JsWebAnnotations;
    #[wasm_bindgen(typescript_type = "AssessOptions")]
    pub type JsAssessOptions;
    #[wasm_bindgen(typescript_type = "OffsetUnit")]
    pub type JsOffsetUnit;
    #[wasm_bindgen(typescript_type = "CheckBundleOptions")]
    pub type JsCheckBundleOptions;
    #[wasm_bindgen(typescript_type = "Document")]
    pub type JsDocument;
    #[wasm_bindgen(typescript_type = "Document[]")]
    pub type JsDocuments;
    #[wasm_bindgen(typescript_type = "ExcerptClaim")]
    pub type JsExcerptClaim;
    #[wasm_bindgen(typescript_type = "ExcerptClaim[]")]
    pub type JsExcerptClaims;
    #[wasm_bindgen(typescript_type = "ExcerptCheck")]
    pub type JsExcerptCheck;
    #[wasm_bindgen(typescript_type = "AnswerStatus")]
    pub type JsAnswerStatus;
    #[wasm_bindgen(typescript_type = "Evaluation")]
    pub type JsEvaluation;
    #[wasm_bindgen(typescript_type = "Task")]
    pub type JsTask;
    #[wasm_bindgen(typescript_type = "Observation[]")]
    pub type JsObservations;
    // The reader accepts a `text` and ignores it (never delivered).
    #[wasm_bindgen(typescript_type = "Finish & { text?: string }")]
    pub type JsFinish;
    #[wasm_bindgen(typescript_type = "Outcome")]
    pub type JsOutcome;
    #[wasm_bindgen(typescript_type = "Expected")]
    pub type JsExpected;
    #[wasm_bindgen(typescript_type = "Effects")]
    pub type JsEffects;
    #[wasm_bindgen(typescript_type = "Grade")]
    pub type JsGrade;
    #[wasm_bindgen(typescript_type = "DocumentSource")]
    pub type JsDocumentSource;
    #[wasm_bindgen(typescript_type = "Document | DocumentCatalog")]
    pub type JsDocumentOrCatalog;
    #[wasm_bindgen(typescript_type = "FinalizeOptions")]
    pub type JsFinalizeOptions;
    #[wasm_bindgen(typescript_type = "GradeOptions")]
    pub type JsGradeOptions;
    #[wasm_bindgen(typescript_type = "Imported")]
    pub type JsImported;
    #[wasm_bindgen(typescript_type = "Document | undefined")]
    pub type JsMaybeDocument;
    #[wasm_bindgen(typescript_type = "string[]")]
    pub type JsIds;
    #[wasm_bindgen(typescript_type = "CatalogJson")]
    pub type JsCatalogJson;
    #[wasm_bindgen(typescript_type = "CatalogJson | string")]
    pub type JsCatalogJsonInput;
    #[wasm_bindgen(typescript_type = "DocumentCatalogOptions")]
    pub type JsDocumentCatalogOptions;
}

#[cfg(feature = "console_error_panic_hook")]
/// Installs the panic hook (wasm-bindgen runs it when the module is initialised; calling
/// it again does nothing).
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

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
struct ErrorClasses {
    contract: js_sys::Object,
    evidence: js_sys::Object,
    object: js_sys::Object,
    /// The entry's `errorData(contract, json)`: when registered, a thrown value is made by
    /// it from [`evidence_check::error::thrown_json`], and the entry's patched glue makes the error
    /// once the call has returned (an `Error` made here captures the wasm frames: 15–30 µs).
    data: Option<js_sys::Function>,
    /// The entry's `jsonFromUtf16(units)`: when registered, a result with non-ASCII text
    /// crosses as UTF-16 code units (see [`to_js`]).
    json16: Option<js_sys::Function>,
}

fn make_class(name: &str, parent: &js_sys::Object) -> (JsValue, js_sys::Object) {
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

fn classes_object(base: &JsValue, contract: &JsValue, evidence: &JsValue) -> js_sys::Object {
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
        ErrorClasses { contract, evidence, object, data: None, json16: None }
    });
}

/// Registers the package's own error classes (internal: the entries call it once).
#[wasm_bindgen(js_name = __registerErrorClasses, skip_typescript)]
pub fn register_error_classes(base: js_sys::Function, contract: js_sys::Function, evidence: js_sys::Function, data: Option<js_sys::Function>, json16: Option<js_sys::Function>) -> Result<(), JsValue> {
    let proto = |f: &js_sys::Function| -> Result<js_sys::Object, JsValue> {
        Reflect::get(f, &JsValue::from_str("prototype"))?.dyn_into::<js_sys::Object>()
    };
    let classes = ErrorClasses { contract: proto(&contract)?, evidence: proto(&evidence)?, object: classes_object(&base, &contract, &evidence), data, json16 };
    CLASSES.with(|c| *c.borrow_mut() = classes);
    Ok(())
}

/// The error classes every function throws, for `instanceof` (the same classes the
/// package exports by name): `const { ContractError, EvidenceError, EvidenceCheckError } = errorClasses()`.
#[wasm_bindgen(js_name = errorClasses)]
pub fn error_classes() -> JsErrorClasses {
    CLASSES.with(|c| JsValue::from(c.borrow().object.clone())).unchecked_into()
}

/// The thrown value of any coded error, in a language: a `ContractError` (with `issues`
/// and `subject`) when it lists violations, else an `EvidenceError`; `code` always, and
/// the error's own details as properties.
fn js_error<E: Coded + ?Sized>(e: &E, lang: Lang) -> JsValue {
    if let Some(make) = CLASSES.with(|c| c.borrow().data.clone()) {
        let (contract, json) = evidence_check::error::thrown_json(e, lang);
        if let Ok(data) = make.call2(&JsValue::UNDEFINED, &JsValue::from_bool(contract), &JsValue::from_str(&json)) {
            return data;
        }
    }
    let issues = e.issues(lang);
    let err = js_sys::Error::new(&e.message(lang));
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
fn argument_error(message: impl Into<String>) -> JsValue {
    js_error(&BindingError::argument(message), Lang::Zh)
}

// ---- crossing the boundary ----------------------------------------------------------
//
// Reading an argument can run the caller's code: `toJSON`, getters, Proxy traps. An
// exception thrown from an import that is not declared `catch` unwinds through the wasm
// frames without running their destructors (a borrow flag stays set, the shadow stack
// pointer is not restored), which poisons the store and, after a few thousand calls,
// the whole instance. So every JS call that can run the caller's code goes through a
// catching import below, and its exception becomes a coded `invalid_argument`. (That is
// why options are not read with serde-wasm-bindgen: its object reads are plain property
// accesses, not catching imports, and it never sees an unknown key.)

#[wasm_bindgen]
extern "C" {
    /// `JSON.stringify`, whose result may be `undefined` (a `toJSON` that returns nothing).
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = stringify)]
    fn stringify_caught(value: &JsValue) -> Result<JsValue, JsValue>;
    /// `Object.keys` (runs a Proxy's `ownKeys` and `getOwnPropertyDescriptor` traps).
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn keys_caught(value: &JsValue) -> Result<js_sys::Array, JsValue>;
    /// `Array.isArray` (throws for a revoked Proxy).
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array_caught(value: &JsValue) -> Result<bool, JsValue>;
    /// The entry's `jsonFromUtf16`: `JSON.parse` of JSON text given as UTF-16 code units.
    type Utf16Json;
    /// `Function.prototype.call`: the units arrive as a view of wasm memory, which the
    /// function reads before it returns (it never calls back into the module).
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call_units(this: &Utf16Json, this_arg: &JsValue, units: &[u16]) -> Result<JsValue, JsValue>;
    /// The same with `asText: true`: the units as a string, not parsed.
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call_units_text(this: &Utf16Json, this_arg: &JsValue, units: &[u16], as_text: bool) -> Result<JsValue, JsValue>;
    /// The same with a split: the units before `at` are a result's JSON text, the rest its
    /// artifact's Markdown, set as `content` of the value (of its `artifact` when `nested`).
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call_units_content(this: &Utf16Json, this_arg: &JsValue, units: &[u16], as_text: bool, at: u32, nested: bool) -> Result<JsValue, JsValue>;
}

/// The shortest JSON text with non-ASCII characters that crosses as UTF-16: below it, the
/// reader's fixed cost (a call, a `Buffer`) outweighs what it saves (measured side by side
/// on the replay: a review or an assessment's few Chinese messages cross faster as UTF-8).
const UTF16_MIN_BYTES: usize = 1024;

/// A result's JSON text with non-ASCII characters (Chinese messages, an artifact's
/// Markdown) as a JS value through the entry's `jsonFromUtf16`, or `None` (not
/// registered, or it threw). V8 turns UTF-8 with CJK text into a string at ~4 ns a byte
/// (12 µs for a 2.4 KB artifact), UTF-16 code units at memcpy speed, and `JSON.parse`
/// reads either alike; ASCII text is fastest as it is (a one-byte string).
fn json_from_utf16(text: &str) -> Option<JsValue> {
    let (reader, units) = utf16_reader_and_units(text)?;
    reader.call_units(&JsValue::NULL, &units).ok()
}

/// The entry's reader and `text`'s UTF-16 code units, or `None`: a text that crosses
/// faster as UTF-8 (ASCII, or under [`UTF16_MIN_BYTES`]), no reader registered, or no
/// memory for the units (the caller then passes the text as UTF-8). The reader is taken
/// out of `CLASSES` first, so no borrow is held while the units are allocated or the
/// reader runs.
fn utf16_reader_and_units(text: &str) -> Option<(Utf16Json, Vec<u16>)> {
    let reader = utf16_reader(text)?;
    Some((reader, crate::utf16::units(text)?))
}

/// The entry's reader when `text` crosses faster as UTF-16 (see [`utf16_reader_and_units`]).
fn utf16_reader(text: &str) -> Option<Utf16Json> {
    if text.len() < UTF16_MIN_BYTES || text.is_ascii() {
        return None;
    }
    CLASSES.with(|c| c.try_borrow().ok()?.json16.clone()).map(JsCast::unchecked_into)
}

/// `text` as a JS string: with non-ASCII characters (an artifact's Chinese Markdown) and
/// 1 KiB or more, as UTF-16 code units through the entry's `jsonFromUtf16(units, true)`.
fn text_to_js(text: &str) -> JsValue {
    utf16_reader_and_units(text)
        .and_then(|(reader, units)| reader.call_units_text(&JsValue::NULL, &units, true).ok())
        .filter(JsValue::is_string)
        .unwrap_or_else(|| JsValue::from_str(text))
}

/// Sets an artifact's `content` (written as "" in its JSON, so the key keeps its place):
/// the Markdown crosses as a string of its own, neither escaped by serde_json here nor
/// unescaped by `JSON.parse` (~10 % of a checkBundle call on the demo, side by side).
fn set_content(artifact: &JsValue, content: &str) -> Result<(), JsValue> {
    Reflect::set(artifact, &JsValue::from_str("content"), &text_to_js(content)).map(drop)
}

/// `value` (an artifact, or a result with one at `artifact` when `nested`) as a JS value,
/// its `content` (written as "" in its JSON, so the key keeps its place) set to `content`.
fn with_content<T: Serialize + ?Sized>(value: &T, content: &str, nested: bool) -> Result<JsValue, JsValue> {
    json_with_content(serde_json::to_string(value), content, nested)
}

/// [`with_content`]'s part that does not depend on the type. Markdown with non-ASCII
/// characters crosses with the JSON text in one call, both as UTF-16 code units (one
/// allocation, one view): the entry's reader parses the JSON and sets the Markdown as a
/// string of its own. Before, the JSON crossed as UTF-8 and the Markdown in a second call,
/// and two property names and a `Reflect` get and set crossed too: the demo `checkBundle`
/// took 0.956 of the time (side by side, CPU time, medians of 30 rounds; A/A 0.999).
/// Otherwise (ASCII or short Markdown, no reader, or the reader failed), as before.
#[inline(never)]
fn json_with_content(text: serde_json::Result<String>, content: &str, nested: bool) -> Result<JsValue, JsValue> {
    let text = written(text)?;
    let joined = utf16_reader(content).and_then(|reader| {
        let at = u32::try_from(crate::utf16::unit_count(&text)).ok()?;
        let units = crate::utf16::units_of(&[&text, content])?;
        reader.call_units_content(&JsValue::NULL, &units, false, at, nested).ok()
    });
    if let Some(value) = joined.filter(JsValue::is_object) {
        return Ok(value);
    }
    let value = json_text_to_js(&text)?;
    let artifact = if nested { Reflect::get(&value, &JsValue::from_str("artifact"))? } else { value.clone() };
    set_content(&artifact, content)?;
    Ok(value)
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    json_to_js(serde_json::to_string(value))
}

/// [`to_js`]'s part that does not depend on the type: one copy in the module, not one a
/// result type.
#[inline(never)]
fn json_to_js(text: serde_json::Result<String>) -> Result<JsValue, JsValue> {
    json_text_to_js(&written(text)?)
}

/// A result's JSON text, or the error of a result that could not be written.
fn written(text: serde_json::Result<String>) -> Result<String, JsValue> {
    text.map_err(|e| argument_error(format!("a result cannot be written as JSON: {e}")))
}

/// A result's JSON text as a JS value.
fn json_text_to_js(text: &str) -> Result<JsValue, JsValue> {
    match json_from_utf16(text) {
        Some(value) => Ok(value),
        None => JSON::parse(text),
    }
}

fn typed<T: JsCast>(value: &(impl Serialize + ?Sized)) -> Result<T, JsValue> {
    to_js(value).map(JsCast::unchecked_into)
}

/// A string argument; a lone surrogate is refused, never replaced.
fn text_arg(value: &JsValue, name: &str) -> Result<String, JsValue> {
    // One crossing: the glue checks `typeof` and copies a string's text (anything else
    // reads as `None`); a `dyn_ref` first and a `length` after were two more per string.
    let Some(text) = value.as_string() else {
        return Err(argument_error(format!("{name} must be a string")));
    };
    checked_text(value, text, name)
}

/// `text`, the string `value` as read, unless `value` holds a lone surrogate.
fn checked_text(value: &JsValue, text: String, name: &str) -> Result<String, JsValue> {
    // The conversion replaces a lone surrogate by U+FFFD; only a string that comes out
    // with a U+FFFD needs the exact (slower) check, which tells a real U+FFFD apart.
    // (`memmem` looks for the rarest of its three bytes, with wasm SIMD where the build
    // has it; `str::contains` would run a two-way search, ~6 % of checkBundle on 64 MB.)
    // ASCII text holds no U+FFFD.
    let replaced = !text.is_ascii() && memchr::memmem::find(text.as_bytes(), "\u{FFFD}".as_bytes()).is_some();
    if replaced && !value.unchecked_ref::<JsString>().is_valid_utf16() {
        return Err(js_error(&BindingError::unicode(format!("{name} contains an unpaired surrogate; it is not valid Unicode")), Lang::Zh));
    }
    Ok(text)
}

/// The most UTF-16 units an identifier (`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`) can have.
const MAX_ID_UNITS: usize = 64;

/// A string argument that cannot be valid past `max_units` UTF-16 units. A longer one is
/// not copied into wasm memory: the stand-in is used instead, which the core refuses with
/// the same code, at the same point of its order, as the real string.
fn bounded_text_arg(value: &JsValue, name: &str, max_units: usize, stand_in: &str) -> Result<String, JsValue> {
    match value.dyn_ref::<JsString>() {
        Some(s) => bounded_text(s, name, max_units, stand_in),
        None => text_arg(value, name),
    }
}

/// [`bounded_text_arg`] for a value already known to be a string.
fn bounded_text(s: &JsString, name: &str, max_units: usize, stand_in: &str) -> Result<String, JsValue> {
    if s.length() as usize > max_units {
        Ok(stand_in.to_owned())
    } else {
        text_arg(s, name)
    }
}

/// An identifier argument (a source, claim or citation id): one over 64 units becomes the
/// stand-in "-", which matches no catalogue entry or claim and breaks the same pattern.
fn id_arg(value: &JsValue, name: &str) -> Result<String, JsValue> {
    bounded_text_arg(value, name, MAX_ID_UNITS, "-")
}

/// Refuses, before copying it into wasm memory, JSON text that cannot fit the byte
/// limit (a UTF-8 encoding has at least as many bytes as UTF-16 units).
fn check_size(s: &JsString, name: &str, max_bytes: usize, lang: Lang) -> Result<(), JsValue> {
    evidence_check::options::check_input_size(name, s.length() as usize, max_bytes).in_lang(lang)?;
    Ok(())
}

/// The JSON text of an argument: a string is taken as JSON text when `text_ok`,
/// anything else is serialised once with `JSON.stringify`. Text over `max_bytes` is
/// refused before it is copied. A value nested too deep for `JSON.stringify` (it runs
/// out of stack) is refused as JSON text nested past the reader's limit is: a `too_deep`
/// `ContractError` of `subject`, the subject the reader gives the argument.
fn json_text(value: &JsValue, text_ok: bool, name: &str, subject: &'static str, max_bytes: usize, lang: Lang) -> Result<String, JsValue> {
    if let Some(s) = text_ok.then(|| value.dyn_ref::<JsString>()).flatten() {
        check_size(s, name, max_bytes, lang)?;
        return text_arg(value, name);
    }
    if value.is_undefined() || value.is_function() || value.is_symbol() {
        return Err(argument_error(format!("{name} must be a JSON value")));
    }
    let s = stringify_caught(value).map_err(|e| stringify_error(&e, name, subject, lang))?;
    let Some(s) = s.dyn_ref::<JsString>() else {
        return Err(argument_error(format!("{name} cannot be serialised as JSON: it serialises to nothing (a toJSON that returns undefined?)")));
    };
    stringified(s.length() as usize, || String::from(s), name, max_bytes, lang)
}

/// The error of a `JSON.stringify` of the argument `name` that threw `thrown`: out of
/// stack (V8's and JavaScriptCore's `RangeError` "Maximum call stack size exceeded",
/// SpiderMonkey's `InternalError` "too much recursion"), the value nests far deeper than
/// JSON is read, a `too_deep` of `subject`; anything else (a `toJSON`, getter or Proxy
/// trap that threw, a cycle, a BigInt) an `invalid_argument`. The thrown value is read
/// through catching calls only (it may be the caller's Proxy); a value the caller threw
/// that reads as such an error is taken at its word.
fn stringify_error(thrown: &JsValue, name: &str, subject: &'static str, lang: Lang) -> JsValue {
    let text = |key: &str| Reflect::get(thrown, &JsValue::from_str(key)).ok().and_then(|v| v.as_string());
    let out_of_stack = match text("name").as_deref() {
        Some("RangeError") => text("message").is_some_and(|m| m.contains("call stack")),
        Some("InternalError") => text("message").is_some_and(|m| m.contains("recursion")),
        _ => false,
    };
    if out_of_stack {
        let e = evidence_check::json::too_deep(&format!("JSON.stringify of {name} ran out of stack"), subject);
        return InLang(e, lang).into();
    }
    argument_error(format!("{name} cannot be serialised as JSON: reading it threw an exception"))
}

/// The subject of the JSON reader's errors for an argument read as plain JSON
/// (`value_arg`, `json_value_arg`): the contract the argument is read as (`result` is a
/// `read_result`), else the argument's own name, the options object for one of its
/// entries (`options.policy`).
fn subject_of(name: &str) -> &'static str {
    const SUBJECTS: &[(&str, &str)] = &[
        ("annotation", "web_annotation"),
        ("claims", "claims"),
        ("documents", "documents"),
        ("draft", "draft"),
        ("json", "catalog"),
        ("observations", "observations"),
        ("outcome", "outcome"),
        ("policy", "policy"),
        ("request", "request"),
        ("response", "response"),
        ("result", "read_result"),
    ];
    if name.starts_with("options.") {
        return "options";
    }
    SUBJECTS.iter().find(|(n, _)| *n == name).map_or("argument", |(_, subject)| subject)
}

/// A value's `JSON.stringify` text of `units` UTF-16 units, checked: refused by its size
/// before `text` gives (copies) it, then for an escaped lone surrogate.
fn stringified<T: AsRef<str>>(units: usize, text: impl FnOnce() -> T, name: &str, max_bytes: usize, lang: Lang) -> Result<T, JsValue> {
    evidence_check::options::check_input_size(name, units, max_bytes).in_lang(lang)?;
    let text = text();
    evidence_check::options::check_stringified(text.as_ref(), name).in_lang(lang)?;
    Ok(text)
}

fn parse_arg<T: Contract>(value: &JsValue, text_ok: bool, name: &str, lang: Lang) -> Result<T, JsValue> {
    parse_arg_with(value, text_ok, name, &Limits::default(), lang)
}

fn parse_arg_with<T: Contract>(value: &JsValue, text_ok: bool, name: &str, limits: &Limits, lang: Lang) -> Result<T, JsValue> {
    let text = json_text(value, text_ok, name, T::SUBJECT, limits.max_input_bytes, lang)?;
    Ok(T::from_json_with(&text, limits).in_lang(lang)?)
}

/// A JSON argument given as an object (`undefined` reads as `null`).
fn value_arg(value: &JsValue, name: &str, lang: Lang) -> Result<Value, JsValue> {
    if value.is_undefined() {
        return Ok(Value::Null);
    }
    let subject = subject_of(name);
    let text = json_text(value, false, name, subject, DEFAULT_MAX_INPUT_BYTES, lang)?;
    Ok(parse_strict(&text, DEFAULT_MAX_INPUT_BYTES, subject).in_lang(lang)?)
}

/// A JSON argument given as an object or as JSON text.
fn json_value_arg(value: &JsValue, name: &str, lang: Lang) -> Result<Value, JsValue> {
    let subject = subject_of(name);
    let text = json_text(value, true, name, subject, DEFAULT_MAX_INPUT_BYTES, lang)?;
    Ok(parse_strict(&text, DEFAULT_MAX_INPUT_BYTES, subject).in_lang(lang)?)
}

/// The options of one call, as the core's struct `T` reads them (one step, see
/// [`evidence_check::options::read`]). The object is read once through catching calls, key by
/// key, into JSON (a getter or Proxy trap that throws is an `invalid_argument`); a `now`
/// too long to be a date-time is not copied (its stand-in is refused alike). `lang` is
/// the language of errors while reading.
fn options_arg<T: evidence_check::options::Options + Into<CallOptions>>(value: Option<JsValue>, lang: Lang) -> Result<CallOptions, JsValue> {
    match options_entries(value, lang)? {
        Some(entries) => Ok(evidence_check::options::from_entries::<T>(entries, "options").in_lang(lang)?.into()),
        None => Ok(CallOptions::default()),
    }
}

/// The options object's entries as listed (`None`: no options), for [`options_arg`]; the
/// part of it that does not depend on the call (one copy in the module, not one a call).
fn options_entries(value: Option<JsValue>, lang: Lang) -> Result<Option<Vec<(String, Value)>>, JsValue> {
    let Some(value) = value else { return Ok(None) };
    // An object is the common case: one test for it (`undefined` and `null` are not objects).
    if !value.is_object() {
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        return Err(argument_error("options must be an object"));
    }
    if is_array_caught(&value).unwrap_or(true) {
        return Err(argument_error("options must be an object"));
    }
    let keys = keys_caught(&value).map_err(|_| argument_error("options cannot be read: listing its keys threw an exception"))?;
    // The entries as listed; read as the object's map would read them (see `from_entries`).
    let mut entries = Vec::with_capacity(keys.length() as usize);
    for listed in keys.iter() {
        let Some(key) = listed.as_string() else { continue };
        let name = || format!("options.{key}");
        // The key as listed is the property's own (no string made again from its text);
        // a non-ASCII key is read back from its text, as before (a lone surrogate in it
        // comes out as U+FFFD, which names another property).
        let property = if key.is_ascii() { listed } else { JsValue::from_str(&key) };
        let v = Reflect::get(&value, &property).map_err(|_| argument_error(format!("{} cannot be read: reading it threw an exception", name())))?;
        let json = if key == "now" && v.is_string() {
            // No valid date-time is near 256 units long; the stand-in is refused alike.
            Value::String(bounded_text(v.unchecked_ref(), &name(), 256, "")?)
        } else if let Some(text) = v.as_string() {
            // A string in one crossing (anything else reads as `None`).
            Value::String(checked_text(&v, text, &name())?)
        } else if v.is_undefined() {
            continue;
        } else if let Some(n) = v.as_f64() {
            if n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_991.0 {
                Value::from(n as i64)
            } else {
                serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
            }
        } else if let Some(b) = v.as_bool() {
            Value::Bool(b)
        } else if v.is_null() {
            Value::Null
        } else {
            value_arg(&v, &name(), lang)?
        };
        entries.push((key, json));
    }
    Ok(Some(entries))
}

/// A whole-number argument. It is taken as a JS value, not an `f64`: the conversion to a
/// number would run an object's `valueOf` (the caller's code) and coerce strings.
fn index_arg(v: &JsValue, name: &str) -> Result<usize, JsValue> {
    match v.as_f64() {
        Some(n) if n.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&n) => Ok(n as usize),
        _ => Err(argument_error(format!("{name} must be a whole number from 0 to 2^53 - 1"))),
    }
}

fn unit_value(v: &JsValue, name: &str) -> Result<Unit, JsValue> {
    v.as_string()
        .and_then(|s| Unit::parse(&s))
        .ok_or_else(|| argument_error(format!("{name} must be \"code_point\", \"utf16\" or \"utf8\"")))
}

fn host_micros() -> i64 {
    (js_sys::Date::now() * 1000.0) as i64
}

fn host_clock() -> Clock {
    Clock::Source(host_micros)
}

// ---- the store ----------------------------------------------------------------------

// Every method takes `&self` (the core store sits in a `RefCell`, borrowed only after
// every argument has been read), so the caller's code run while an argument is read (a
// getter, a `toJSON`) may call this store again without a borrow conflict. `free()` is
// this binding's own (the JS class keeps the last `free` it defines, and Symbol.dispose
// calls it): it drops the snapshots at once and leaves a small tombstone that the
// finalizer releases, so a later call throws a coded `store_freed` instead of
// wasm-bindgen's "null pointer passed to rust".

/// Snapshots of the sources of a trusted catalogue, per scope.
#[wasm_bindgen]
pub struct EvidenceStore {
    inner: std::cell::RefCell<Option<Box<CoreStore>>>,
    lang: Lang,
}

impl EvidenceStore {
    /// The core store, or `store_freed`.
    fn core(&self) -> Result<std::cell::RefMut<'_, CoreStore>, JsValue> {
        self.core_or(|| js_error(&BindingError::from(BindingErrorKind::StoreFreed), self.lang))
    }

    /// [`Self::core`] for a store given as the argument `store` of a function (freed
    /// before the call, or by the caller's code run while another argument was read):
    /// `store_freed` naming it.
    fn core_arg(&self, lang: Lang) -> Result<std::cell::RefMut<'_, CoreStore>, JsValue> {
        self.core_or(|| freed_argument(BindingErrorKind::StoreFreed, "store", lang))
    }

    fn core_or(&self, freed: impl FnOnce() -> JsValue) -> Result<std::cell::RefMut<'_, CoreStore>, JsValue> {
        let guard = self.inner.try_borrow_mut().map_err(|_| busy_error())?;
        std::cell::RefMut::filter_map(guard, |inner| inner.as_deref_mut()).map_err(|_| freed())
    }
}

impl EvidenceStore {
    /// An argument read under the store's policy (the store carries it) and in its language.
    fn arg<T: Contract>(&self, value: JsValue, text_ok: bool, name: &str) -> Result<T, JsValue> {
        let policy = self.core()?.policy().clone();
        parse_arg_with(&value, text_ok, name, &policy, self.lang)
    }
}

/// A store borrowed by a call in progress (never expected: no caller's code runs while
/// the core store is borrowed).
fn busy_error() -> JsValue {
    argument_error("the store is in use by a call in progress")
}

/// Whether a JS string is blank in the core's sense, read in bounded pieces (never
/// copied into wasm memory whole).
fn js_blank(s: &JsString) -> bool {
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
    pub fn new(specs: JsSpecs, options: Option<JsStoreOptions>) -> Result<EvidenceStore, JsValue> {
        let options = options_arg::<evidence_check::options::StoreOptions>(options.map(Into::into), Lang::Zh)?;
        let lang = options.lang_or(Lang::Zh);
        let specs: JsValue = specs.into();
        let text = if specs.is_undefined() { None } else { Some(json_text(&specs, false, "specs", "specs", DEFAULT_MAX_INPUT_BYTES, lang)?) };
        let v = match &text {
            Some(text) => parse_strict(text, DEFAULT_MAX_INPUT_BYTES, "specs").in_lang(lang)?,
            None => Value::Null,
        };
        let policy = options.limits().in_lang(lang)?;
        let specs = evidence_check::contract::specs_from_value_with(&v, &policy).in_lang(lang)?;
        let clock = options.clock(host_clock()).in_lang(lang)?;
        let mut inner = CoreStore::with_policy(specs, policy, clock).in_lang(lang)?;
        inner.set_host_hasher(host_hasher(options.host_hashing));
        Ok(EvidenceStore { inner: std::cell::RefCell::new(Some(Box::new(inner))), lang })
    }

    /// Stores a source's text (CRLF and CR become LF) and returns its ref. A text longer
    /// in UTF-16 units than `maxSourceBytes` is refused before it is copied into wasm
    /// memory (a text has at least as many UTF-8 bytes as UTF-16 units).
    pub fn ingest(&self, scope: JsScope, #[wasm_bindgen(js_name = sourceId, unchecked_param_type = "string")] source_id: JsValue, #[wasm_bindgen(unchecked_param_type = "string")] content: JsValue) -> Result<JsSourceRef, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope.into(), false, "scope")?;
        let source_id = id_arg(&source_id, "sourceId")?;
        if let Some(s) = content.dyn_ref::<JsString>() {
            let core = self.core()?;
            let units = s.length() as usize;
            if units > core.options().max_source_bytes {
                core.admit(&source_id, || js_blank(s), units).in_lang(lang)?;
            }
        }
        let content = text_arg(&content, "content")?;
        let r = self.core()?.ingest_text(&scope, &source_id, std::borrow::Cow::Owned(content)).in_lang(lang)?;
        typed(&r)
    }

    /// Checks a read tool's result against the spec, then stores its text.
    #[wasm_bindgen(js_name = ingestReadResult)]
    pub fn ingest_read_result(&self, scope: JsScope, #[wasm_bindgen(js_name = sourceId, unchecked_param_type = "string")] source_id: JsValue, result: JsReadResult) -> Result<JsSourceRef, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope.into(), false, "scope")?;
        let source_id = id_arg(&source_id, "sourceId")?;
        let result = value_arg(&result.into(), "result", lang)?;
        let r = self.core()?.ingest_read_result(&scope, &source_id, &result).in_lang(lang)?;
        typed(&r)
    }

    /// The snapshot a ref names, if it is still current in this scope.
    pub fn get(&self, scope: JsScope, #[wasm_bindgen(js_name = ref)] source_ref: JsSourceRef) -> Result<JsSnapshot, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope.into(), false, "scope")?;
        let source_ref: SourceRef = self.arg(source_ref.into(), false, "ref")?;
        let core = self.core()?;
        let s = core.get(&scope, &source_ref).in_lang(lang)?;
        typed(&**s)
    }

    /// Checks that a citation's range of its current snapshot holds exactly its quote.
    #[wasm_bindgen(js_name = checkCitation)]
    pub fn check_citation(&self, scope: JsScope, citation: JsCitation) -> Result<JsSnapshot, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope.into(), false, "scope")?;
        let citation: Citation = self.arg(citation.into(), false, "citation")?;
        let core = self.core()?;
        let s = core.check_citation(&scope, &citation).in_lang(lang)?;
        typed(&**s)
    }

    /// Makes a citation from the only occurrence of `text` in the snapshot.
    pub fn quote(
        &self,
        scope: JsScope,
        #[wasm_bindgen(js_name = ref)] source_ref: JsSourceRef,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
        #[wasm_bindgen(js_name = citationId, unchecked_param_type = "string")] citation_id: JsValue,
        options: Option<JsQuoteOptions>,
    ) -> Result<JsCitation, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope.into(), false, "scope")?;
        let source_ref: SourceRef = self.arg(source_ref.into(), false, "ref")?;
        let text = text_arg(&text, "text")?;
        let citation_id = id_arg(&citation_id, "citationId")?;
        let options = options_arg::<evidence_check::options::QuoteOptions>(options.map(Into::into), lang)?;
        let (selector, locate_options) = options.selector(text).in_lang(lang)?;
        let c = self.core()?.quote_with(&scope, &source_ref, &selector, &citation_id, locate_options).in_lang(lang)?;
        typed(&c)
    }

    /// Makes a citation from an explicit range of the snapshot's text counted in
    /// `options.unit` (default `"utf16"`, JavaScript's string indices); the citation has
    /// the contract's code-point offsets. A range that splits a character is an error.
    #[wasm_bindgen(js_name = quoteRange)]
    pub fn quote_range(
        &self,
        scope: JsScope,
        #[wasm_bindgen(js_name = ref)] source_ref: JsSourceRef,
        #[wasm_bindgen(unchecked_param_type = "number")] start: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] end: JsValue,
        #[wasm_bindgen(js_name = citationId, unchecked_param_type = "string")] citation_id: JsValue,
        options: Option<JsRangeOptions>,
    ) -> Result<JsCitation, JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope.into(), false, "scope")?;
        let source_ref: SourceRef = self.arg(source_ref.into(), false, "ref")?;
        let citation_id = id_arg(&citation_id, "citationId")?;
        let options = options_arg::<evidence_check::options::RangeOptions>(options.map(Into::into), lang)?;
        let (start, end) = (index_arg(&start, "start")?, index_arg(&end, "end")?);
        let c = self.core()?.quote_range(&scope, &source_ref, start, end, options.unit(Unit::Utf16), &citation_id).in_lang(lang)?;
        typed(&c)
    }

    /// Drops the current snapshot; the revision counter stays.
    pub fn remove(&self, scope: JsScope, #[wasm_bindgen(js_name = sourceId, unchecked_param_type = "string")] source_id: JsValue) -> Result<(), JsValue> {
        let lang = self.lang;
        let scope: Scope = self.arg(scope.into(), false, "scope")?;
        let source_id = id_arg(&source_id, "sourceId")?;
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
        let mut inner = self.inner.try_borrow_mut().map_err(|_| busy_error())?;
        *inner = None;
        Ok(())
    }

    /// `fromWebAnnotation` given this store: an annotation made by `toWebAnnotations`, or a
    /// quote-only one (a `TextQuoteSelector` alone) located by the one quote locator in the
    /// current revision of its source (`state.source_id`, or the catalogue locator equal
    /// to the target's `source`). Absent → `quote_not_found`, ambiguous → `quote_ambiguous`.
    #[wasm_bindgen(js_name = fromWebAnnotation)]
    pub fn from_web_annotation_in(&self, scope: JsScope, annotation: JsQuoteAnnotation, options: Option<JsWhitespaceOptions>) -> Result<JsCitation, JsValue> {
        let lang = self.lang;
        let options = options_arg::<evidence_check::options::WhitespaceOptions>(options.map(Into::into), lang)?;
        let scope: Scope = self.arg(scope.into(), false, "scope")?;
        let v = value_arg(&annotation.into(), "annotation", lang)?;
        let c = evidence_check::annotation::from_web_annotation_in(&v, &scope, &*self.core()?, options.whitespace()).in_lang(lang)?;
        typed(&c)
    }
}

// ---- functions ----------------------------------------------------------------------

/// Parses and checks a report (JSON text or an object). Throws a `ContractError`
/// listing every violation.
#[wasm_bindgen(js_name = parseReport)]
pub fn parse_report(input: JsReportInput, options: Option<JsParseOptions>) -> Result<ReportHandle, JsValue> {
    let options = options_arg::<evidence_check::options::ParseOptions>(options.map(Into::into), Lang::Zh)?;
    let lang = options.lang_or(Lang::Zh);
    let policy = options.limits().in_lang(lang)?;
    let text = json_text(&input.into(), true, "report", Report::SUBJECT, policy.max_input_bytes, lang)?;
    let parsed = evidence_check::parsed::ParsedReport::from_json_in(&text, options.dialect(), &policy).in_lang(lang)?;
    Ok(ReportHandle { inner: std::cell::RefCell::new(Some(std::rc::Rc::new(parsed))), lang })
}

fn schema_arg(options: Option<JsSchemaOptions>) -> Result<(Dialect, Limits), JsValue> {
    let options = options_arg::<evidence_check::options::SchemaOptions>(options.map(Into::into), Lang::Zh)?;
    Ok((options.dialect(), options.limits().in_lang(Lang::Zh)?))
}

/// The JSON Schema of a report (draft 2020-12, or the strict structured-output dialect).
#[wasm_bindgen(js_name = reportJsonSchema)]
pub fn report_json_schema(options: Option<JsSchemaOptions>) -> Result<JsJsonSchema, JsValue> {
    let (dialect, policy) = schema_arg(options)?;
    typed(&evidence_check::schema::report_schema(dialect, &policy))
}

/// The JSON Schema of a citation.
#[wasm_bindgen(js_name = citationJsonSchema)]
pub fn citation_json_schema(options: Option<JsSchemaOptions>) -> Result<JsJsonSchema, JsValue> {
    let (dialect, policy) = schema_arg(options)?;
    typed(&evidence_check::schema::citation_schema(dialect, &policy))
}

/// The JSON Schema of a claim.
#[wasm_bindgen(js_name = claimJsonSchema)]
pub fn claim_json_schema(options: Option<JsSchemaOptions>) -> Result<JsJsonSchema, JsValue> {
    let (dialect, policy) = schema_arg(options)?;
    typed(&evidence_check::schema::claim_schema(dialect, &policy))
}

/// The JSON Schema of a bundle (the CLI's input).
#[wasm_bindgen(js_name = bundleJsonSchema)]
pub fn bundle_json_schema(options: Option<JsSchemaOptions>) -> Result<JsJsonSchema, JsValue> {
    let (dialect, policy) = schema_arg(options)?;
    typed(&evidence_check::schema::bundle_schema(dialect, &policy))
}

/// SHA-256 hex of the report's canonical JSON.
#[wasm_bindgen(js_name = reportDigest)]
pub fn report_digest(report: JsReportArg) -> Result<String, JsValue> {
    match report_arg(&report.into(), &Limits::default(), Lang::Zh)? {
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
#[wasm_bindgen(js_name = recordReview)]
pub fn record_review(
    scope: JsScope,
    report: JsReportArg,
    #[wasm_bindgen(js_name = claimId, unchecked_param_type = "string")] claim_id: JsValue,
    verdict: JsVerdict,
    #[wasm_bindgen(unchecked_param_type = "string")] note: JsValue,
    options: Option<JsReviewOptions>,
) -> Result<JsReview, JsValue> {
    let options = options_arg::<evidence_check::options::ReviewOptions>(options.map(Into::into), Lang::Zh)?;
    let lang = options.lang_or(Lang::Zh);
    let policy = options.limits().in_lang(lang)?;
    let scope: Scope = parse_arg_with(&scope.into(), false, "scope", &policy, lang)?;
    let report = report_arg(&report.into(), &policy, lang)?;
    let clock = options.clock(host_clock()).in_lang(lang)?;
    let key = options.signing_key().in_lang(lang)?;
    let verdict: JsValue = verdict.into();
    // Non-strings are refused by the review rules themselves, in the reference's order.
    // A string too long to be valid (an id over 64 units, a verdict over 12, a note over
    // twice its 1,000 code points) is not copied: like a non-string, it is refused by the
    // same rule.
    let as_value = |v: &JsValue, name: &str, max_units: usize| -> Result<Value, JsValue> {
        match v.dyn_ref::<JsString>() {
            Some(s) if (s.length() as usize) <= max_units => text_arg(v, name).map(Value::String),
            _ => Ok(Value::Null),
        }
    };
    let note_value = as_value(&note, "note", 2 * policy.max_note_chars)?;
    let review = evidence_check::review::record_review_signed(
        &scope,
        evidence_check::review::Digested { report: report.report(), digest: report.digest(host_hasher(None)) },
        &as_value(&claim_id, "claimId", MAX_ID_UNITS)?,
        &as_value(&verdict, "verdict", 12)?,
        &note_value,
        &clock,
        note.dyn_ref::<JsString>().map(|s| s.length() as usize),
        &policy,
        key.as_deref(),
    )
    .in_lang(lang)?;
    let text = written(serde_json::to_string(&review))?;
    let value = json_text_to_js(&text)?;
    remember_recorded(evidence_check::parsed::Recorded::new(review, text));
    Ok(value.unchecked_into())
}

/// The scope, report and reviews that `assess` and `render` take, read under the store's
/// policy. The policy is cloned before reading: the caller's code (a `toJSON`, a getter)
/// may call the same store while an argument is read.
fn check_args(store: &EvidenceStore, scope: JsScope, report: JsReportArg, reviews: Option<JsReviewsArg>, lang: Lang) -> Result<(Scope, ReportArg, ReviewsArg), JsValue> {
    let policy = store.core_arg(lang)?.policy().clone();
    let scope: Scope = parse_arg_with(&scope.into(), false, "scope", &policy, lang)?;
    let report = report_arg(&report.into(), &policy, lang)?;
    let reviews = reviews_arg(reviews, lang)?;
    Ok((scope, report, reviews))
}

/// Assesses a report against the store's current snapshots (in the store's language
/// unless `lang` is given).
#[wasm_bindgen]
pub fn assess(
    scope: JsScope,
    report: JsReportArg,
    store: &EvidenceStore,
    reviews: Option<JsReviewsArg>,
    options: Option<JsAssessOptions>,
) -> Result<JsAssessment, JsValue> {
    let options = options_arg::<evidence_check::options::AssessOptions>(options.map(Into::into), store.lang)?;
    let lang = options.lang_or(store.lang);
    let (scope, report, reviews) = check_args(store, scope, report, reviews, lang)?;
    let key = options.review_key().in_lang(lang)?;
    let host = store.core_arg(lang)?.host_hasher();
    let check = evidence_check::assess::CheckOptions { review_key: key.as_deref(), reviews: options.reviews(evidence_check::assess::ReviewMode::Throw), report_digest: report.digest(host) };
    let a = evidence_check::assess::assess_in(&scope, report.report(), &*store.core_arg(lang)?, reviews.reviews(), check, lang).in_lang(lang)?;
    typed(&a)
}

/// Renders the Markdown artifact (in the store's language unless `lang` is given);
/// throws for an invalid report or an oversize artifact.
#[wasm_bindgen]
pub fn render(
    scope: JsScope,
    report: JsReportArg,
    store: &EvidenceStore,
    reviews: Option<JsReviewsArg>,
    options: Option<JsRenderOptions>,
) -> Result<JsArtifact, JsValue> {
    let options = options_arg::<evidence_check::options::RenderOptions>(options.map(Into::into), store.lang)?;
    let lang = options.lang_or(store.lang);
    let (scope, report, reviews) = check_args(store, scope, report, reviews, lang)?;
    let key = options.review_key().in_lang(lang)?;
    let host = store.core_arg(lang)?.host_hasher();
    let check = evidence_check::assess::CheckOptions { review_key: key.as_deref(), reviews: options.reviews(evidence_check::assess::ReviewMode::Throw), report_digest: report.digest(host) };
    let clock = options.clock(host_clock()).in_lang(lang)?;
    let mut a = evidence_check::render::render_opts(&scope, report.report(), &*store.core_arg(lang)?, reviews.reviews(), &clock, options.escaping(), check, lang).in_lang(lang)?;
    let content = std::mem::take(&mut a.content);
    with_content(&a, &content, false).map(JsCast::unchecked_into)
}

/// Checks a whole bundle statelessly: assess, and render unless `render: false`.
#[wasm_bindgen(js_name = checkBundle)]
pub fn check_bundle(bundle: JsBundleInput, options: Option<JsCheckBundleOptions>) -> Result<JsBundleResult, JsValue> {
    let options = options_arg::<evidence_check::options::CheckBundleOptions>(options.map(Into::into), Lang::Zh)?;
    let lang = options.lang_or(Lang::Zh);
    let host = host_hasher(options.host_hashing);
    let options = BundleOptions { host_hasher: host, ..options.bundle(host_clock()).in_lang(lang)? };
    let text = bundle_text(&bundle.into(), &options.policy, lang)?;
    let bundle = evidence_check::bundle::read_for_check(&text, &options.policy).in_lang(lang)?;
    drop(text);
    let mut result = evidence_check::bundle::check_read(bundle, &options).in_lang(lang)?;
    let content = result.artifact.as_mut().map(|a| std::mem::take(&mut a.content));
    match content {
        Some(content) => with_content(&result, &content, true),
        None => to_js(&result),
    }
    .map(JsCast::unchecked_into)
}

// ---- excerpts and outcomes (the second article) --------------------------------------

fn status_arg(value: &JsValue) -> Result<AnswerStatus, JsValue> {
    let s = text_arg(value, "status")?;
    AnswerStatus::parse(&s).ok_or_else(|| {
        let names: Vec<&str> = AnswerStatus::ALL.iter().map(|(n, _)| *n).collect();
        argument_error(format!("status must be one of {}", names.join(", ")))
    })
}

/// One claim per body line that starts with `"- "` (lines as Python's `splitlines()`):
/// of a document, or of the catalogue's document `itemId`.
#[wasm_bindgen(js_name = extractExcerpts)]
pub fn extract_excerpts(
    source: JsDocumentOrCatalog,
    #[wasm_bindgen(js_name = itemId)] item_id: Option<JsString>,
) -> Result<JsExcerptClaims, JsValue> {
    let source: JsValue = source.into();
    match catalog_handle(&source, "document")? {
        Some(handle) => {
            let item_id = text_arg(&item_id.map_or(JsValue::UNDEFINED, Into::into), "itemId")?;
            let (claims, lang) = with_catalog(handle, "document", |c, lang| (c.require(&item_id).map(evidence_check::excerpt::extract_excerpts), lang))?;
            typed(&claims.in_lang(lang)?)
        }
        None => {
            let doc: Document = parse_arg(&source, false, "document", Lang::Zh)?;
            typed(&evidence_check::excerpt::extract_excerpts(&doc))
        }
    }
}

/// Runs `f` over the documents of a list or a catalogue.
fn with_documents<R>(source: JsValue, f: impl FnOnce(&Library<'_>) -> R) -> Result<R, JsValue> {
    match catalog_handle(&source, "documents")? {
        Some(handle) => with_catalog(handle, "documents", |c, _| f(&c.library())),
        None => {
            let documents = documents_from_value(&value_arg(&source, "documents", Lang::Zh)?).in_lang(Lang::Zh)?;
            Ok(f(&Library::new(&documents)))
        }
    }
}

/// Whether a claim is exactly the line it names, in the document version it names.
#[wasm_bindgen(js_name = checkExcerpt)]
pub fn check_excerpt(documents: JsDocumentSource, claim: JsExcerptClaim) -> Result<JsExcerptCheck, JsValue> {
    let claim: ExcerptClaim = parse_arg(&claim.into(), false, "claim", Lang::Zh)?;
    typed(&with_documents(documents.into(), |lib| lib.check(&claim))?)
}

/// Support and completeness of an answer's claims about one item, given its status.
#[wasm_bindgen(js_name = evaluateClaims)]
pub fn evaluate_claims(
    documents: JsDocumentSource,
    #[wasm_bindgen(js_name = itemId, unchecked_param_type = "string")] item_id: JsValue,
    claims: JsExcerptClaims,
    status: JsAnswerStatus,
) -> Result<JsEvaluation, JsValue> {
    let item_id = text_arg(&item_id, "itemId")?;
    let claims = claims_from_value(&value_arg(&claims.into(), "claims", Lang::Zh)?).in_lang(Lang::Zh)?;
    let status = status_arg(&status.into())?;
    typed(&with_documents(documents.into(), |lib| evidence_check::excerpt::evaluate_claims_in(lib, &item_id, &claims, status))?)
}

/// The catalogue of `options.catalog`, if any. A catalogue is an instance, not data: it
/// is read as a handle through catching calls, never serialised.
fn catalog_option(options: Option<JsValue>) -> Result<Option<u32>, JsValue> {
    let Some(value) = options.filter(|v| !v.is_undefined() && !v.is_null()) else { return Ok(None) };
    if !value.is_object() {
        return Err(argument_error("options must be an object"));
    }
    let keys = keys_caught(&value).map_err(|_| argument_error("options cannot be read: listing its keys threw an exception"))?;
    let keys: Vec<String> = keys.iter().map(|k| k.as_string().unwrap_or_default()).collect();
    evidence_check::options::catalog_option_keys(&keys).map_err(|e| js_error(&e, Lang::Zh))?;
    let v = Reflect::get(&value, &JsValue::from_str("catalog")).map_err(|_| argument_error("options.catalog cannot be read: reading it threw an exception"))?;
    if v.is_undefined() {
        return Ok(None);
    }
    catalog_handle(&v, "options.catalog")?.map(Some).ok_or_else(|| argument_error("options.catalog must be a DocumentCatalog"))
}

/// The executor's decision on a policy's finish, from the task and the observations;
/// with `options.catalog`, claims are checked against the frozen catalogue.
#[wasm_bindgen]
pub fn finalize(task: JsTask, observations: JsObservations, finish: JsFinish, options: Option<JsFinalizeOptions>) -> Result<JsOutcome, JsValue> {
    let task: Task = parse_arg(&task.into(), false, "task", Lang::Zh)?;
    let observations = observations_from_value(&value_arg(&observations.into(), "observations", Lang::Zh)?).in_lang(Lang::Zh)?;
    let finish: Finish = parse_arg(&finish.into(), false, "finish", Lang::Zh)?;
    let outcome = match catalog_option(options.map(Into::into))? {
        Some(handle) => with_catalog(handle, "options.catalog", |c, _| evidence_check::outcome::finalize_in(&task, &observations, &finish, Some(c)))?,
        None => evidence_check::outcome::finalize(&task, &observations, &finish),
    };
    typed(&outcome)
}

/// Grades one task of an evaluation run. With `options.catalog` support and coverage
/// are recomputed from the outcome's claims; without, they are the outcome's own
/// (`evaluation: "trusted"`).
#[wasm_bindgen(js_name = gradeTask)]
pub fn grade_task(expected: JsExpected, outcome: JsOutcome, effects: JsEffects, options: Option<JsGradeOptions>) -> Result<JsGrade, JsValue> {
    let catalog = catalog_option(options.map(Into::into))?;
    let expected: Expected = parse_arg(&expected.into(), false, "expected", Lang::Zh)?;
    let v = value_arg(&outcome.into(), "outcome", Lang::Zh)?;
    let outcome = Graded::from_outcome_value(&v, catalog.is_none()).in_lang(Lang::Zh)?;
    let effects: Effects = parse_arg(&effects.into(), false, "effects", Lang::Zh)?;
    let grade = match catalog {
        Some(handle) => with_catalog(handle, "options.catalog", |c, _| evidence_check::outcome::grade(&expected, &outcome, &effects, Some(c)))?,
        None => evidence_check::outcome::grade(&expected, &outcome, &effects, None),
    };
    typed(&grade)
}

// ---- offsets and diagnostics ---------------------------------------------------------

/// Converts an offset into `text` between units. An offset inside one character
/// (between surrogate halves, inside a UTF-8 sequence) throws, never shifts; the message
/// is in `options.lang`.
#[wasm_bindgen(js_name = convertOffset)]
pub fn convert_offset(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] offset: JsValue,
    from: JsOffsetUnit,
    to: JsOffsetUnit,
    options: Option<JsLangOptions>,
) -> Result<f64, JsValue> {
    let lang = options_arg::<evidence_check::options::LangOptions>(options.map(Into::into), Lang::Zh)?.lang_or(Lang::Zh);
    let text = text_arg(&text, "text")?;
    let offset = index_arg(&offset, "offset")?;
    let (from, to) = (unit_value(&from.into(), "from")?, unit_value(&to.into(), "to")?);
    Ok(evidence_check::citation::convert_offset(&text, offset, from, to).in_lang(lang)? as f64)
}

/// Bytes of linear memory the module holds (for leak checks; it never shrinks). Each
/// entry has its own module, and its own `wasmMemoryBytes`.
#[wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    core::arch::wasm32::memory_size(0) as f64 * 65536.0
}

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
    let v = value_arg(&annotation.into(), "annotation", Lang::Zh)?;
    typed(&evidence_check::annotation::from_web_annotation(&v).in_lang(Lang::Zh)?)
}

// ==== importers and the quote locator (issue 17) ========================================
// Kept together at the end of the file to ease merging.

#[wasm_bindgen(typescript_custom_section)]
const IMPORT_TYPES: &str = r#"
/** A TextQuoteSelector (https://www.w3.org/TR/annotation-model/#text-quote-selector). */
export interface TextQuoteSelector { type: "TextQuoteSelector"; exact: string; prefix?: string; suffix?: string; }
/** An annotation that carries only a quote: located in its source (`state.source_id`, or the catalogue locator equal to `source`). */
export interface QuoteOnlyAnnotation {
  id?: string; type?: "Annotation";
  target: { source?: string; selector: TextQuoteSelector | TextQuoteSelector[]; state?: { type?: "SourceRevision"; source_id: string } };
}
/** A citation a model wrote without offsets. */
export interface DraftCitation { citation_id?: string; source_id: string; quote: string; prefix?: string; suffix?: string; occurrence?: number; }
/** A claim whose citations may be quote-only. */
export type DraftClaim = Omit<Claim, "citations"> & { citations?: Array<Citation | DraftCitation> };
/** A report whose citations may be quote-only. */
export type DraftReport = Omit<Report, "claims"> & { claims: DraftClaim[] };
/** A bundle whose report is a draft. */
export type DraftBundle = Omit<Bundle, "report"> & { report: DraftReport };
/** A Messages API request (the documents are its `document` blocks). */
export interface AnthropicRequest { messages: Array<{ role: string; content: string | Array<{ type: string; [key: string]: unknown }> }>; [key: string]: unknown; }
/** A Messages API response with citations. */
export interface AnthropicResponse {
  content: Array<{ type: string; text?: string; citations?: Array<{ type: string; cited_text: string; document_index: number; [key: string]: unknown }> | null; [key: string]: unknown }>;
  [key: string]: unknown;
}
/** A locate error also says where and how often: `sourceId`, `count`, `ranges`. */
export interface LocateError extends EvidenceError { sourceId: string; count?: number; ranges?: Array<[number, number]>; }
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "QuoteOptions")]
    pub type JsQuoteOptions;
    #[wasm_bindgen(typescript_type = "WebAnnotation | QuoteOnlyAnnotation")]
    pub type JsQuoteAnnotation;
    #[wasm_bindgen(typescript_type = "DraftReport | string")]
    pub type JsDraftReport;
    #[wasm_bindgen(typescript_type = "LocateOptions")]
    pub type JsLocateOptions;
    #[wasm_bindgen(typescript_type = "WhitespaceOptions")]
    pub type JsWhitespaceOptions;
    #[wasm_bindgen(typescript_type = "LocateResult")]
    pub type JsLocateResult;
    #[wasm_bindgen(typescript_type = "DraftBundle | string")]
    pub type JsDraftBundle;
    #[wasm_bindgen(typescript_type = "LocateBundleOptions")]
    pub type JsLocateBundleOptions;
    #[wasm_bindgen(typescript_type = "LocatedBundle")]
    pub type JsLocatedBundle;
    #[wasm_bindgen(typescript_type = "AnthropicRequest | string")]
    pub type JsAnthropicRequest;
    #[wasm_bindgen(typescript_type = "AnthropicResponse | string")]
    pub type JsAnthropicResponse;
    #[wasm_bindgen(typescript_type = "AnthropicOptions")]
    pub type JsAnthropicOptions;
    #[wasm_bindgen(typescript_type = "Bundle")]
    pub type JsImportedBundle;
}

/// Locates the quote-only citations of a draft report (`{source_id, quote, prefix?,
/// suffix?, occurrence?}`) in the store's current snapshots. Absent or ambiguous quotes
/// are issues and their citations are left out, so their claims can only be insufficient.
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
    let options = options_arg::<evidence_check::options::LocateBundleOptions>(options.map(Into::into), Lang::Zh)?;
    let lang = options.lang_or(Lang::Zh);
    let bundle_options = BundleOptions { render: false, escaping: Escaping::Hardened, review_key: None, host_hasher: host_hasher(None), ..options.bundle(host_clock()).in_lang(lang)? };
    let draft = json_value_arg(&draft.into(), "draft", lang)?;
    typed(&evidence_check::import::quotes::locate_bundle(&draft, &bundle_options, options.whitespace()).in_lang(lang)?)
}

/// A bundle from an Anthropic Messages API request and its response with citations.
#[wasm_bindgen(js_name = fromAnthropicMessage)]
pub fn from_anthropic_message(request: JsAnthropicRequest, response: JsAnthropicResponse, options: JsAnthropicOptions) -> Result<JsImportedBundle, JsValue> {
    // No options at all reads as every default: the core refuses the missing scope.
    let core = options_arg::<evidence_check::options::AnthropicOptions>(Some(options.into()), Lang::Zh)?.anthropic().in_lang(Lang::Zh)?;
    let request = json_value_arg(&request.into(), "request", Lang::Zh)?;
    let response = json_value_arg(&response.into(), "response", Lang::Zh)?;
    typed(&evidence_check::import::anthropic::from_anthropic_message(&request, &response, &core).in_lang(Lang::Zh)?)
}

// ---- the document catalogue (the second article's frozen documents table) ------------

thread_local! {
    /// The catalogues alive, by handle, with their language: a function given a
    /// `DocumentCatalog` finds its documents here without taking the instance from its owner.
    static CATALOGS: std::cell::RefCell<std::collections::BTreeMap<u32, (CoreCatalog, Lang)>> = const { std::cell::RefCell::new(std::collections::BTreeMap::new()) };
    static NEXT_CATALOG: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

/// The handle of a `DocumentCatalog` instance (the argument `name`); `None` for anything else.
fn catalog_handle(value: &JsValue, name: &str) -> Result<Option<u32>, JsValue> {
    if !value.is_object() || is_array_caught(value).unwrap_or(true) {
        return Ok(None);
    }
    // A plain object has no such property; a getter or trap that throws is the caller's.
    let handle = Reflect::get(value, &JsValue::from_str("__catalogHandle")).map_err(|_| argument_error(format!("{name} cannot be read: reading it threw an exception")))?;
    Ok(handle.as_f64().map(|h| h as u32))
}

/// `handle_freed` for a catalogue: the argument `name` of a function, or (`None`) the
/// instance a method was called on.
fn freed_catalog(name: Option<&str>, lang: Lang) -> JsValue {
    match name {
        Some(name) => freed_argument(BindingErrorKind::HandleFreed, name, lang),
        None => handle_freed(lang),
    }
}

/// Runs `f` over a live catalogue (the argument `name`) and its language: `handle_freed`
/// naming it once it was freed, before the call or by the caller's code during it.
fn with_catalog<R>(handle: u32, name: &str, f: impl FnOnce(&CoreCatalog, Lang) -> R) -> Result<R, JsValue> {
    CATALOGS.with(|m| m.borrow().get(&handle).map(|(c, lang)| f(c, *lang))).ok_or_else(|| freed_catalog(Some(name), Lang::Zh))
}

/// Documents imported once, their digests frozen: the same body again is a no-op, a
/// different body under the same id throws `document_changed` and replaces nothing.
/// Pass it wherever a document list goes, and as `options.catalog` to `finalize` and
/// `gradeTask`.
#[wasm_bindgen]
pub struct DocumentCatalog {
    handle: u32,
    lang: Lang,
}

impl Drop for DocumentCatalog {
    fn drop(&mut self) {
        CATALOGS.with(|m| m.borrow_mut().remove(&self.handle));
    }
}

impl DocumentCatalog {
    fn adopt(inner: CoreCatalog, lang: Lang) -> DocumentCatalog {
        let handle = NEXT_CATALOG.with(|n| {
            let h = n.get();
            n.set(h.wrapping_add(1).max(1));
            h
        });
        CATALOGS.with(|m| m.borrow_mut().insert(handle, (inner, lang)));
        DocumentCatalog { handle, lang }
    }

    fn inner<R>(&self, f: impl FnOnce(&mut CoreCatalog) -> R) -> Result<R, JsValue> {
        CATALOGS.with(|m| m.borrow_mut().get_mut(&self.handle).map(|(c, _)| f(c))).ok_or_else(|| freed_catalog(None, self.lang))
    }
}

#[wasm_bindgen]
impl DocumentCatalog {
    /// An empty catalogue, or one holding `options.documents` (imported in order).
    #[wasm_bindgen(constructor)]
    pub fn new(options: Option<JsDocumentCatalogOptions>) -> Result<DocumentCatalog, JsValue> {
        let options = options_arg::<evidence_check::options::CatalogOptions>(options.map(Into::into), Lang::Zh)?;
        let lang = options.lang_or(Lang::Zh);
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
    pub fn from_json(json: JsCatalogJsonInput, options: Option<JsLangOptions>) -> Result<DocumentCatalog, JsValue> {
        let lang = options_arg::<evidence_check::options::LangOptions>(options.map(Into::into), Lang::Zh)?.lang_or(Lang::Zh);
        let json: JsValue = json.into();
        let v = if json.is_string() { json_value_arg(&json, "json", lang)? } else { value_arg(&json, "json", lang)? };
        Ok(DocumentCatalog::adopt(CoreCatalog::from_value(&v).in_lang(lang)?, lang))
    }

    /// Imports a document and returns what was frozen: `{item_id, sha256, lines}`.
    #[wasm_bindgen(js_name = import)]
    pub fn import_document(&self, doc: JsDocument) -> Result<JsImported, JsValue> {
        let doc: Document = parse_arg(&doc.into(), false, "document", self.lang)?;
        typed(&self.inner(|c| c.import(doc))?.in_lang(self.lang)?)
    }

    /// The document with this id, or `undefined`.
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue) -> Result<JsMaybeDocument, JsValue> {
        let id = text_arg(&id, "id")?;
        match self.inner(|c| c.get(&id).cloned())? {
            Some(doc) => typed(&doc),
            None => Ok(JsValue::UNDEFINED.unchecked_into()),
        }
    }

    /// The ids, sorted.
    pub fn ids(&self) -> Result<JsIds, JsValue> {
        typed(&self.inner(|c| c.ids().into_iter().map(str::to_owned).collect::<Vec<_>>())?)
    }

    /// The saved form: every document with its frozen digest (`JSON.stringify` uses it).
    #[wasm_bindgen(js_name = toJSON)]
    pub fn to_json(&self) -> Result<JsCatalogJson, JsValue> {
        typed(&self.inner(|c| c.to_json())?)
    }

    /// Releases the documents now; every later use throws `handle_freed`. Freeing twice does
    /// nothing. (This binding's own `free`, as the store's: the instance stays a tombstone
    /// that the finalizer releases, so a method called on it after, or on it while its own
    /// call reads an argument, is a coded error, never wasm-bindgen's "null pointer passed
    /// to rust" nor its "recursive use of an object".)
    pub fn free(&self) {
        CATALOGS.with(|m| m.borrow_mut().remove(&self.handle));
    }

    /// How functions given this catalogue find it (internal).
    #[wasm_bindgen(getter = __catalogHandle, skip_typescript)]
    pub fn catalog_handle(&self) -> u32 {
        self.handle
    }
}

// ==== issue 12 (h12js): the strict bundle reader of `check --mcp` =========================

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "ParseBundleOptions")]
    pub type JsParseBundleOptions;
    #[wasm_bindgen(typescript_type = "ParsedBundle")]
    pub type JsParsedBundle;
}

/// Reads a bundle as `checkBundle` does (strict JSON, the whole contract) and returns it
/// parsed, without checking it against its sources. `requireContents: false` lets sources
/// leave out `content`: their texts come from elsewhere, as with `check --mcp`.
#[wasm_bindgen(js_name = parseBundle)]
pub fn parse_bundle(bundle: JsBundleInput, options: Option<JsParseBundleOptions>) -> Result<JsParsedBundle, JsValue> {
    let options = options_arg::<evidence_check::options::ParseBundleOptions>(options.map(Into::into), Lang::Zh)?;
    let lang = options.lang_or(Lang::Zh);
    let limits = options.limits().in_lang(lang)?;
    let text = bundle_text(&bundle.into(), &limits, lang)?;
    typed(&evidence_check::bundle::parse_bundle(&text, &limits, options.require_contents.unwrap_or(true)).in_lang(lang)?)
}

// ---- invisible characters (issue 12, finding 4) -----------------------------------------

/// The text with every character that would hide content (controls, bidirectional and
/// other format characters, fillers, stray variation selectors, tag characters) written
/// as `⟦U+XXXX⟧`, line feeds and tabs kept: what the hardened artifact shows, for a page.
#[wasm_bindgen(js_name = showInvisible)]
pub fn show_invisible(text: &str) -> String {
    evidence_check::visible::show_invisible(text)
}

// ---- issue 14: policies ---------------------------------------------------------------

/// Reads a policy (a preset's name, or JSON text or an object that starts from a preset
/// with `extends`) and returns it whole; an unknown field throws `policy_unknown_field`
/// naming it (`field`). For hosts that load a policy file (the CLI's `--policy FILE.json`).
#[wasm_bindgen(js_name = parsePolicy)]
pub fn parse_policy(#[wasm_bindgen(unchecked_param_type = "string | PolicyInput")] policy: JsValue) -> Result<JsPolicy, JsValue> {
    let parsed = match policy.as_string() {
        Some(text) => evidence_check::policy::Policy::from_json(&text),
        None => evidence_check::policy::Policy::from_value(&value_arg(&policy, "policy", Lang::Zh)?),
    };
    typed(&parsed.in_lang(Lang::Zh)?)
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "Policy")]
    pub type JsPolicy;
}

// ---- issue 15: host hashing (the Node entry registers node:crypto's SHA-256) ----------

#[wasm_bindgen]
extern "C" {
    /// A host's hash function: `(bytes: Uint8Array) => string`, the lower-case hex SHA-256.
    type HostHashFn;
    /// `Function.prototype.call`: the bytes arrive as a view of wasm memory, not a copy
    /// (wasm-bindgen passes a `&[u8]` argument of an import as a subarray of the memory).
    #[wasm_bindgen(method, catch, js_name = call)]
    fn call_hash(this: &HostHashFn, this_arg: &JsValue, bytes: &[u8]) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// The registered host hasher and the smallest text it is given.
    static HOST_HASH: std::cell::RefCell<Option<(HostHashFn, usize)>> = const { std::cell::RefCell::new(None) };
}

/// The registered host hasher on `bytes`, or `None` (none registered, it threw, or it
/// gave no string: the module's hasher then runs; a wrong digest is caught by the core).
/// The function must not call back into this module: the view is of its memory.
fn host_sha256(bytes: &[u8]) -> Option<String> {
    HOST_HASH.with(|h| h.try_borrow().ok()?.as_ref()?.0.call_hash(&JsValue::NULL, bytes).ok()?.as_string())
}

/// The host hasher a call uses: the registered one unless `hostHashing: false`.
fn host_hasher(host_hashing: Option<bool>) -> Option<evidence_check::digest::HostHasher> {
    let min_bytes = HOST_HASH.with(|h| h.try_borrow().ok()?.as_ref().map(|(_, min)| *min))?;
    (host_hashing != Some(false)).then_some(evidence_check::digest::HostHasher { hash: host_sha256, min_bytes })
}

/// Registers the host's synchronous SHA-256, `(bytes: Uint8Array) => string` (`null`
/// removes it): the Node entry passes `node:crypto`'s at load. Sources of `minBytes`
/// (default `HOST_HASH_MIN_BYTES`) or more are then hashed by it.
#[wasm_bindgen(js_name = __registerHostHasher, skip_typescript)]
pub fn register_host_hasher(hash: JsValue, #[wasm_bindgen(js_name = minBytes)] min_bytes: JsValue) -> Result<(), JsValue> {
    let min_bytes = if min_bytes.is_undefined() { evidence_check::digest::HOST_HASH_MIN_BYTES } else { index_arg(&min_bytes, "minBytes")? };
    let f = if hash.is_null() || hash.is_undefined() {
        None
    } else if hash.is_function() {
        Some((hash.unchecked_into::<HostHashFn>(), min_bytes))
    } else {
        return Err(argument_error("the host hasher must be a function or null"));
    };
    HOST_HASH.with(|h| h.try_borrow_mut().map(|mut slot| *slot = f)).map_err(|_| argument_error("the host hasher is in use"))
}

// ==== issue 15 (r3-handle): the Report and Reviews handles ==============================
// A handle holds what a call would otherwise read again from JSON: the validated report
// and its digest, or the checked reviews. A call recognises one by reading its internal
// getter (`__reportHandle`, `__reviewsHandle`) through a catching import: only the real
// getter, which is Rust code, vouches for the handle (it leaves the parsed value in
// `VOUCHED`), so a plain object or Proxy that merely has such a property is read as a
// plain object, exactly as before. `free()` is this binding's own, as the store's: it
// drops the value and leaves a tombstone, so a later use throws a coded `handle_freed`.

#[wasm_bindgen(typescript_custom_section)]
const HANDLE_TYPES: &str = r#"
/** A report read once by `parseReport`: its fields as getters, `toJSON()` the parsed report. */
export interface ReportHandle extends ParsedReport {}
/** A report: an object, JSON text, or a `ReportHandle` (then nothing is read again). */
export type ReportArg = Report | ReportHandle | string;
/** Reviews: a list, or a `Reviews` handle (each review checked once, when added). */
export type ReviewsArg = Review[] | Reviews;
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "ReportArg")]
    pub type JsReportArg;
    #[wasm_bindgen(typescript_type = "ReviewsArg")]
    pub type JsReviewsArg;
    #[wasm_bindgen(typescript_type = "Claim[]")]
    pub type JsClaims;
    #[wasm_bindgen(typescript_type = "Conflict[]")]
    pub type JsConflicts;
}

/// What the last genuine handle getter left for the call reading it: `Some(None)` when
/// the handle was freed.
enum Vouched {
    Report(Option<std::rc::Rc<evidence_check::parsed::ParsedReport>>),
    Reviews(Option<std::rc::Rc<evidence_check::parsed::ReviewList>>),
}

thread_local! {
    static VOUCHED: std::cell::Cell<Option<Vouched>> = const { std::cell::Cell::new(None) };
    static REPORT_KEY: JsValue = JsValue::from_str("__reportHandle");
    static REVIEWS_KEY: JsValue = JsValue::from_str("__reviewsHandle");
}

/// Reads `value`'s internal getter `key` (a catching read: a throwing trap or getter
/// means "not a handle", and the plain path then reports it as before) and returns what a
/// genuine handle's getter vouched for.
fn vouched(value: &JsValue, key: &'static std::thread::LocalKey<JsValue>) -> Option<Vouched> {
    if !value.is_object() {
        return None;
    }
    VOUCHED.with(|v| v.set(None));
    let read = key.with(|k| Reflect::get(value, k));
    let found = VOUCHED.with(|v| v.take());
    read.ok().and(found)
}

thread_local! {
    /// The review `recordReview` made last, with the JSON text it gave it back as (for the
    /// `Reviews.add` that usually follows, see [`evidence_check::parsed::Recorded`]).
    static RECORDED: std::cell::RefCell<Option<evidence_check::parsed::Recorded>> = const { std::cell::RefCell::new(None) };
}

fn remember_recorded(recorded: Option<evidence_check::parsed::Recorded>) {
    RECORDED.with(|r| {
        if let Ok(mut slot) = r.try_borrow_mut() {
            *slot = recorded;
        }
    });
}

fn handle_freed(lang: Lang) -> JsValue {
    js_error(&BindingError::from(BindingErrorKind::HandleFreed), lang)
}

/// `kind` (`handle_freed`, `store_freed`) for the argument `name` of a call, named first.
fn freed_argument(kind: BindingErrorKind, name: &str, lang: Lang) -> JsValue {
    js_error(&BindingError { kind, detail: Some(format!("{name}: {}", kind.message_in(lang))) }, lang)
}

/// A report argument: a handle's parsed report (checked under `policy` when it was read
/// under another, as the plain path would), or an object or JSON text read as before.
enum ReportArg {
    Handle(std::rc::Rc<evidence_check::parsed::ParsedReport>),
    Plain(Report),
}

impl ReportArg {
    fn report(&self) -> &Report {
        match self {
            ReportArg::Handle(p) => p.report(),
            ReportArg::Plain(r) => r,
        }
    }
    /// A handle's digest (computed once, by `host` where it is set and faster); `None`
    /// for a plain report (the core computes it).
    fn digest(&self, host: Option<evidence_check::digest::HostHasher>) -> Option<&str> {
        match self {
            ReportArg::Handle(p) => Some(p.digest_with(host)),
            ReportArg::Plain(_) => None,
        }
    }
}

fn report_arg(value: &JsValue, policy: &Limits, lang: Lang) -> Result<ReportArg, JsValue> {
    match vouched(value, &REPORT_KEY) {
        Some(Vouched::Report(Some(parsed))) => {
            parsed.check_under(policy).in_lang(lang)?;
            Ok(ReportArg::Handle(parsed))
        }
        Some(Vouched::Report(None)) => Err(freed_argument(BindingErrorKind::HandleFreed, "report", lang)),
        _ => Ok(ReportArg::Plain(parse_arg_with(value, true, "report", policy, lang)?)),
    }
}

/// A reviews argument: a handle's checked list, or a list read as before.
enum ReviewsArg {
    Handle(std::rc::Rc<evidence_check::parsed::ReviewList>),
    Plain(Vec<Review>),
}

impl ReviewsArg {
    fn reviews(&self) -> &[Review] {
        match self {
            ReviewsArg::Handle(l) => l.reviews(),
            ReviewsArg::Plain(v) => v,
        }
    }
}

fn reviews_arg(value: Option<JsReviewsArg>, lang: Lang) -> Result<ReviewsArg, JsValue> {
    let value: JsValue = value.map_or(JsValue::UNDEFINED, Into::into);
    match vouched(&value, &REVIEWS_KEY) {
        Some(Vouched::Reviews(Some(list))) => Ok(ReviewsArg::Handle(list)),
        Some(Vouched::Reviews(None)) => Err(freed_argument(BindingErrorKind::HandleFreed, "reviews", lang)),
        _ => Ok(ReviewsArg::Plain(evidence_check::parsed::ReviewList::from_json(&reviews_text(&value, "reviews", lang)?).in_lang(lang)?.into_reviews())),
    }
}

/// The JSON text of a reviews argument as `value_arg` reads it (`undefined` reads as `null`).
fn reviews_text(value: &JsValue, name: &str, lang: Lang) -> Result<String, JsValue> {
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
    inner: std::cell::RefCell<Option<std::rc::Rc<evidence_check::parsed::ParsedReport>>>,
    lang: Lang,
}

impl ReportHandle {
    /// The parsed report, or `handle_freed` (no borrow is held while JS runs).
    fn parsed(&self) -> Result<std::rc::Rc<evidence_check::parsed::ParsedReport>, JsValue> {
        let parsed = self.inner.borrow().clone();
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
    #[wasm_bindgen(getter = claimIds)]
    pub fn claim_ids(&self) -> Result<JsIds, JsValue> {
        typed(&self.parsed()?.claim_ids())
    }

    #[wasm_bindgen(getter, skip_typescript)]
    pub fn title(&self) -> Result<String, JsValue> {
        Ok(self.parsed()?.report().title.clone())
    }

    #[wasm_bindgen(getter, skip_typescript)]
    pub fn claims(&self) -> Result<JsClaims, JsValue> {
        typed(&self.parsed()?.report().claims)
    }

    #[wasm_bindgen(getter, skip_typescript)]
    pub fn conflicts(&self) -> Result<JsConflicts, JsValue> {
        typed(&self.parsed()?.report().conflicts)
    }

    #[wasm_bindgen(getter, skip_typescript)]
    pub fn gaps(&self) -> Result<JsIds, JsValue> {
        typed(&self.parsed()?.report().gaps)
    }

    /// The parsed report as a plain object, every default filled in (`JSON.stringify` uses it).
    #[wasm_bindgen(js_name = toJSON)]
    pub fn to_json(&self) -> Result<JsParsedReport, JsValue> {
        typed(self.parsed()?.report())
    }

    /// Releases the report now; every later use throws `handle_freed`. Freeing twice does nothing.
    pub fn free(&self) {
        self.inner.replace(None);
    }

    /// How a call recognises a genuine handle (internal).
    #[wasm_bindgen(getter = __reportHandle, skip_typescript)]
    pub fn vouch(&self) -> bool {
        let parsed = self.inner.borrow().clone();
        VOUCHED.with(|v| v.set(Some(Vouched::Report(parsed))));
        true
    }
}

/// Reviews checked once, as they are added: pass it as `reviews` to `assess` and `render`.
#[wasm_bindgen]
pub struct Reviews {
    inner: std::cell::RefCell<Option<std::rc::Rc<evidence_check::parsed::ReviewList>>>,
    lang: Lang,
}

impl Reviews {
    /// Appends the review of JSON text `text` (a review's as `add` reads it).
    fn push_text(&self, text: &str) -> Result<u32, JsValue> {
        // Pure Rust while the list is borrowed; the error is made after. The review that
        // `recordReview` last made is not read again when this is its text unchanged.
        let added = self.inner.borrow_mut().as_mut().map(|list| {
            RECORDED.with(|r| std::rc::Rc::make_mut(list).push_recorded(text, r.try_borrow().ok().as_deref().and_then(Option::as_ref))).map(|()| list.len() as u32)
        });
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
    pub fn new(reviews: Option<JsReviews>, options: Option<JsLangOptions>) -> Result<Reviews, JsValue> {
        let lang = options_arg::<evidence_check::options::LangOptions>(options.map(Into::into), Lang::Zh)?.lang_or(Lang::Zh);
        let value: JsValue = reviews.map_or(JsValue::UNDEFINED, Into::into);
        let list = evidence_check::parsed::ReviewList::from_json(&reviews_text(&value, "reviews", lang)?).in_lang(lang)?;
        Ok(Reviews { inner: std::cell::RefCell::new(Some(std::rc::Rc::new(list))), lang })
    }

    /// Checks a review as the next item of the list (a violation's path is the one the
    /// list would give it, `/3/note`) and appends it; returns the new length.
    pub fn add(&self, review: JsReview) -> Result<u32, JsValue> {
        let text = reviews_text(&review.into(), "review", self.lang)?;
        self.push_text(&text)
    }

    /// The list, or `handle_freed` (no borrow is held while JS runs).
    fn list(&self) -> Result<std::rc::Rc<evidence_check::parsed::ReviewList>, JsValue> {
        let list = self.inner.borrow().clone();
        list.ok_or_else(|| handle_freed(self.lang))
    }

    /// How many reviews the list holds.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> Result<u32, JsValue> {
        Ok(self.list()?.len() as u32)
    }

    /// The reviews as a plain array (`JSON.stringify` uses it).
    #[wasm_bindgen(js_name = toJSON)]
    pub fn to_json(&self) -> Result<JsReviews, JsValue> {
        typed(self.list()?.reviews())
    }

    /// Releases the list now; every later use throws `handle_freed`. Freeing twice does nothing.
    pub fn free(&self) {
        self.inner.replace(None);
    }

    /// How a call recognises a genuine handle (internal).
    #[wasm_bindgen(getter = __reviewsHandle, skip_typescript)]
    pub fn vouch(&self) -> bool {
        let list = self.inner.borrow().clone();
        VOUCHED.with(|v| v.set(Some(Vouched::Reviews(list))));
        true
    }
}

// ==== issue 15 (r5-scale): a bundle as UTF-8 bytes ======================================
// A bundle may be given as UTF-8 bytes (a file read without an encoding): copied once into
// wasm memory, checked, never decoded into a JS string and encoded back.

#[wasm_bindgen]
extern "C" {
    /// `ArrayBuffer.isView`: a typed array or DataView of any realm (a Proxy is not one);
    /// it runs none of the caller's code.
    #[wasm_bindgen(catch, js_namespace = ArrayBuffer, js_name = isView)]
    fn is_view_caught(value: &JsValue) -> Result<bool, JsValue>;
    /// `Reflect.apply`: an intrinsic getter called on the caller's view, so that an own
    /// property or a trap of the caller's cannot stand in for it.
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = apply)]
    fn apply_caught(f: &JsValue, this: &JsValue, args: &js_sys::Array) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = Uint8Array)]
    type ByteView;
    /// `new Uint8Array(buffer, offset, length)`: our own view of the caller's bytes.
    #[wasm_bindgen(constructor, catch, js_class = "Uint8Array")]
    fn new_caught(buffer: &JsValue, offset: f64, length: f64) -> Result<ByteView, JsValue>;
}

/// `%TypedArray%.prototype`, whose getters (`byteLength`, `byteOffset`, `buffer`,
/// `Symbol.toStringTag`) read a view's internal slots, whatever its realm.
fn typed_array_prototype() -> js_sys::Object {
    let own = js_sys::Object::get_prototype_of(&js_sys::Uint8Array::new_with_length(0).into());
    js_sys::Object::get_prototype_of(&own)
}

/// The JSON text of a bundle argument: UTF-8 bytes (a `Uint8Array` or `Buffer`, of any
/// realm), read as `TextDecoder("utf-8", { fatal: true })` reads them (a leading BOM
/// dropped, invalid bytes an `invalid_unicode` naming the byte offset), or else as
/// [`json_text`] reads it. Another view (a `Uint16Array`, a `DataView`) is refused. The
/// view is read through its intrinsic getters and catching calls only: a detached buffer,
/// a throwing getter or a Proxy never unwinds through the module. Bytes over the limit
/// (a BOM not counted) are refused before they are copied, as text over it is.
fn bundle_text(value: &JsValue, limits: &evidence_check::contract::Limits, lang: Lang) -> Result<String, JsValue> {
    if !value.is_object() || !is_view_caught(value).unwrap_or(false) {
        return json_text(value, true, "bundle", Bundle::SUBJECT, limits.max_input_bytes, lang);
    }
    let prototype = typed_array_prototype();
    let read = |key: &JsValue| -> Result<JsValue, JsValue> {
        let descriptor = js_sys::Reflect::get_own_property_descriptor(&prototype, key)?;
        let getter = js_sys::Reflect::get(&descriptor, &JsValue::from_str("get"))?;
        apply_caught(&getter, value, &js_sys::Array::new())
    };
    let kind = read(&js_sys::Symbol::to_string_tag().into()).ok().and_then(|t| t.as_string());
    if kind.as_deref() != Some("Uint8Array") {
        let kind = kind.unwrap_or_else(|| "DataView".to_owned());
        return Err(argument_error(format!("bundle must be JSON text, a bundle object or UTF-8 bytes in a Uint8Array, not a {kind}")));
    }
    let unreadable = |_| argument_error("bundle: reading the Uint8Array threw an exception");
    let len = read(&JsValue::from_str("byteLength")).map_err(unreadable)?.as_f64().unwrap_or(0.0);
    let max = limits.max_input_bytes;
    let too_large = |len: u64| -> JsValue {
        let e = evidence_check::contract::with_raise_hints(evidence_check::json::input_too_large(len, max, Bundle::SUBJECT), limits);
        InLang(e, lang).into()
    };
    // More than a BOM over the limit, or more than wasm memory can hold: not copied.
    if len > max as f64 + 3.0 || len > f64::from(u32::MAX) {
        return Err(too_large(len as u64));
    }
    if len < 1.0 {
        return Ok(String::new());
    }
    let offset = read(&JsValue::from_str("byteOffset")).map_err(unreadable)?.as_f64().unwrap_or(0.0);
    let buffer = read(&JsValue::from_str("buffer")).map_err(unreadable)?;
    let view: js_sys::Uint8Array = ByteView::new_caught(&buffer, offset, len).map_err(unreadable)?.unchecked_into();
    let mut bytes = view.to_vec();
    let bom = if bytes.starts_with(evidence_check::bundle::UTF8_BOM) { evidence_check::bundle::UTF8_BOM.len() } else { 0 };
    bytes.drain(..bom);
    if bytes.len() > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(evidence_check::bundle::utf8_text(bytes, bom, "bundle").in_lang(lang)?)
}

// ==== issue 15 (r10-args): a review added as text =======================================
// `Reviews.add` read its review here: `undefined`, function and symbol tests, then
// `JSON.stringify` and the text's `typeof`, length and copy, eight imports. The glue
// (patched by js/entry-hook.mjs, see js/entry-args.mjs) now serialises the review with the
// same `JSON.stringify` and passes the text, which it copies before the call without an
// import. A review the module would not serialise takes `add` as before, and one whose
// serialisation throws or gives nothing is replaced by a stand-in that does the same in
// `add`, so every error stays what it was.

#[wasm_bindgen]
impl Reviews {
    /// `add` given the review's JSON text as `JSON.stringify` gave it to the glue, and its
    /// length in UTF-16 units: what `add` reads from a review it serialises (internal: the
    /// patched glue calls it). A text longer than the module reads is passed as "" and
    /// refused by its length, as `add` refuses it: never copied.
    #[wasm_bindgen(js_name = __addText, skip_typescript)]
    pub fn add_text(&self, text: &str, units: u32) -> Result<u32, JsValue> {
        self.push_text(stringified(units as usize, || text, "review", DEFAULT_MAX_INPUT_BYTES, self.lang)?)
    }
}
