//! The options of every call, as the JavaScript binding receives them: one struct per
//! call, read from JSON in one step (`camelCase` names, unknown names refused with the
//! list of the allowed ones), then resolved into the core's own settings. Also the
//! checks of JSON text that comes from a host (`JSON.stringify` output).
//!
//! Everything here is reached by native tests; the binding only hands over the JSON
//! text of the options object.

use serde_json::Value;
use std::fmt;

use crate::bundle::BundleOptions;
use crate::citation::Unit;
use crate::clock::Clock;
use crate::contract::{Contract, Scope};
use crate::clock::ClockErrorKind;
use crate::error::{BindingError, Coded, ContractError, Lang, Violation};
use crate::store::locate::{Counting, LocateOptions, Selector, Whitespace};
use crate::render::Escaping;
use crate::schema::Dialect;
use crate::policy::{Policy, PolicyError};

/// `compat: "reference"`: the reference's (weaker) escaping and quote counting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(rename_all = "lowercase"))]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Compat {
    Reference,
}

/// `dialect`: the schema flavour, or how `null` in optional fields is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS, serde::Deserialize))]
pub enum DialectName {
    #[cfg_attr(test, serde(rename = "standard"))]
    Standard,
    #[cfg_attr(test, serde(rename = "openai-strict"))]
    OpenAiStrict,
}

/// `whitespace`: exact matching (the default) or loose matching of whitespace runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(rename_all = "lowercase"))]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum WhitespaceName {
    Exact,
    Loose,
}

/// How a host counts offsets: `code_point`, `utf16` or `utf8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(rename_all = "snake_case"))]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum OffsetUnit {
    CodePoint,
    Utf16,
    Utf8,
}

impl From<OffsetUnit> for Unit {
    fn from(u: OffsetUnit) -> Unit {
        match u {
            OffsetUnit::CodePoint => Unit::CodePoint,
            OffsetUnit::Utf16 => Unit::Utf16,
            OffsetUnit::Utf8 => Unit::Utf8,
        }
    }
}

/// An option that is present must have a value of its type: `null` is refused (a JS
/// `undefined` never reaches JSON, so it reads as absent).
#[cfg(test)]
fn present<'de, D: serde::Deserializer<'de>, T: serde::Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

macro_rules! call_options {
    ($($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $field:ident: $ty:ty,)* })*) => {$(
        #[cfg_attr(test, derive(ts_rs::TS, serde::Deserialize), ts(optional_fields), serde(rename_all = "camelCase", deny_unknown_fields))]
        $(#[$m])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $( $(#[$fm])* #[cfg_attr(test, serde(default, deserialize_with = "present"))] pub $field: Option<$ty>, )*
        }
        impl From<$name> for CallOptions {
            fn from(o: $name) -> CallOptions {
                CallOptions { $($field: o.$field,)* ..CallOptions::default() }
            }
        }
        impl Options for $name {
            const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];
            fn from_call(c: CallOptions) -> Self {
                Self { $($field: c.$field,)* }
            }
        }
    )*};
}

/// The options of one call: the names it takes (the core's `snake_case` names, in the
/// order the messages list them) and how it is taken out of [`CallOptions`].
pub trait Options: Sized {
    const FIELDS: &'static [&'static str];
    fn from_call(c: CallOptions) -> Self;
}

/// Every option any call takes; each call's own struct converts into it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CallOptions {
    pub now: Option<String>,
    pub max_sources: Option<usize>,
    pub max_source_bytes: Option<usize>,
    pub max_claims: Option<usize>,
    pub max_citations: Option<usize>,
    pub max_input_bytes: Option<usize>,
    pub lang: Option<Lang>,
    pub compat: Option<Compat>,
    pub review_key: Option<String>,
    pub key: Option<String>,
    pub render: Option<bool>,
    pub dialect: Option<DialectName>,
    pub whitespace: Option<WhitespaceName>,
    pub unit: Option<OffsetUnit>,
    pub prefix: Option<String>,
    pub suffix: Option<String>,
    pub occurrence: Option<usize>,
    pub scope: Option<Value>,
    pub source_ids: Option<Vec<String>>,
    pub fetched_at: Option<String>,
    pub uncited_as_gaps: Option<bool>,
    pub documents: Option<Value>,
    pub require_contents: Option<bool>,
    pub policy: Option<Value>,
    pub reviews: Option<ReviewsName>,
    /// `hostHashing: false`: every source is hashed in the module, even where the host
    /// registered a faster SHA-256 (the Node build's `node:crypto`).
    pub host_hashing: Option<bool>,
}

/// `reviews`: what a stale, foreign or second review does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(serde::Deserialize), serde(rename_all = "lowercase"))]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum ReviewsName {
    Throw,
    Report,
}

call_options! {
    /// `new EvidenceStore(specs, options)`: a fixed clock (`now`), the catalogue and
    /// source-size limits, the language of messages and labels, the policy, `compat`.
    StoreOptions {
        now: String, max_sources: usize, max_source_bytes: usize, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat,
        /// `false`: hash every text in the module even where the host's SHA-256 is registered (Node).
        host_hashing: bool,
    }
    /// `store.quote(…, options)`: picks one occurrence of a quote by W3C TextQuoteSelector
    /// context (the text right before and after) or the n-th occurrence (1-based);
    /// `whitespace: "loose"` matches whitespace runs loosely, only when asked;
    /// `compat: "reference"`: the reference's count (non-overlapping) and its one code
    /// `quote_not_unique`.
    QuoteOptions { prefix: String, suffix: String, occurrence: usize, whitespace: WhitespaceName, compat: Compat, }
    /// `store.quoteRange(…, options)`: the unit the host counts its offsets in.
    RangeOptions { unit: OffsetUnit, }
    /// `parseReport(input, options)`. `dialect: "openai-strict"`: `null` in an optional
    /// field means absent (strict-mode output).
    ParseOptions { dialect: DialectName, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat, }
    /// The schema functions. `dialect: "openai-strict"`: every property required, optional
    /// ones nullable, no string lengths.
    SchemaOptions { dialect: DialectName, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, }
    /// `recordReview(…, options)`. `key`: the host's secret; the review gets an
    /// HMAC-SHA-256 `signature` over its canonical JSON.
    ReviewOptions { now: String, key: String, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat, }
    /// `assess(…, options)`. `reviewKey`: every review must carry a valid signature made
    /// with this key; `reviews: "report"` lists a stale, foreign or second review as an
    /// issue instead of throwing.
    AssessOptions { review_key: String, lang: Lang, reviews: ReviewsName, }
    /// `render(…, options)`. `compat: "reference"`: the reference's escaping,
    /// byte-identical to it and weaker (bare URLs autolink).
    RenderOptions { now: String, compat: Compat, review_key: String, lang: Lang, reviews: ReviewsName, }
    /// `checkBundle(bundle, options)`. `policy` sets every limit (default "reference": 16
    /// sources, 24,000 bytes a source, 12 claims, 4 citations a claim, 16 MiB of JSON); the
    /// `max*` options override single fields of it.
    CheckBundleOptions {
        now: String, render: bool, max_sources: usize, max_source_bytes: usize, max_claims: usize,
        max_citations: usize, max_input_bytes: usize, compat: Compat, review_key: String, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value,
        /// `false`: hash every source in the module even where the host's SHA-256 is registered (Node).
        host_hashing: bool,
    }
    /// `store.fromWebAnnotation(…, options)`.
    WhitespaceOptions { whitespace: WhitespaceName, }
    /// `locateCitations(…, options)`.
    #[cfg_attr(test, ts(rename = "LocateOptions"))]
    LocateOptionsIn { whitespace: WhitespaceName, lang: Lang, max_claims: usize, max_citations: usize, }
    /// `locateBundle(draft, options)`.
    LocateBundleOptions {
        whitespace: WhitespaceName, lang: Lang, max_claims: usize, max_citations: usize, now: String,
        max_sources: usize, max_source_bytes: usize,
    }
    /// `fromAnthropicMessage(request, response, options)`: `sourceIds[i]` names document i
    /// (default `doc-<i>`); `uncitedAsGaps` keeps uncited text blocks as gaps.
    AnthropicOptions { #[cfg_attr(test, ts(type = "Scope"))] scope: Value, source_ids: Vec<String>, fetched_at: String, uncited_as_gaps: bool, }
    /// `new DocumentCatalog(options)`: `documents` are imported in order.
    #[cfg_attr(test, ts(rename = "DocumentCatalogOptions"))]
    CatalogOptions { lang: Lang, #[cfg_attr(test, ts(optional, type = "Document[]"))] documents: Value, }
    /// `DocumentCatalog.fromJSON(json, options)`, `convertOffset` and `toWebAnnotations`.
    LangOptions { lang: Lang, }
    /// `parseBundle(bundle, options)`: `requireContents: false` lets sources leave out
    /// `content`; the limits as `checkBundle`'s.
    ParseBundleOptions { require_contents: bool, max_claims: usize, max_citations: usize, max_input_bytes: usize, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, }
}

/// The options of `finalize` and `gradeTask` hold one field, `catalog` (an instance the
/// binding reads as a handle, never as data): any other key is refused, naming it and the
/// allowed one.
pub fn catalog_option_keys<S: AsRef<str>>(keys: &[S]) -> Result<(), BindingError> {
    match keys.iter().map(AsRef::as_ref).find(|k| *k != "catalog") {
        Some(key) => Err(BindingError::argument(format!("options: unknown field `{key}`, expected `catalog`"))),
        None => Ok(()),
    }
}

/// Why options were refused: a wrong or unknown option, a `now` that is no date-time, or
/// an option that holds a contract (a scope) and breaks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Binding(BindingError),
    Clock(ClockErrorKind),
    Contract(ContractError),
    Policy(PolicyError),
}

impl From<PolicyError> for OptionError {
    fn from(e: PolicyError) -> Self {
        Self::Policy(e)
    }
}

impl From<BindingError> for OptionError {
    fn from(e: BindingError) -> Self {
        Self::Binding(e)
    }
}
impl From<ClockErrorKind> for OptionError {
    fn from(e: ClockErrorKind) -> Self {
        Self::Clock(e)
    }
}
impl From<ContractError> for OptionError {
    fn from(e: ContractError) -> Self {
        Self::Contract(e)
    }
}

impl Coded for OptionError {
    fn code(&self) -> &'static str {
        match self {
            Self::Binding(e) => Coded::code(e),
            Self::Clock(k) => k.code(),
            Self::Contract(c) => Coded::code(c),
            Self::Policy(p) => Coded::code(p),
        }
    }
    fn message(&self, lang: Lang) -> String {
        match self {
            Self::Binding(e) => Coded::message(e, lang),
            Self::Clock(k) => k.message_in(lang).to_owned(),
            Self::Contract(c) => Coded::message(c, lang),
            Self::Policy(p) => Coded::message(p, lang),
        }
    }
    fn issues(&self, lang: Lang) -> Option<(&'static str, Vec<Violation>)> {
        match self {
            Self::Contract(c) => c.issues(lang),
            _ => None,
        }
    }
    fn details(&self) -> Vec<(&'static str, Value)> {
        match self {
            Self::Policy(p) => p.details(),
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Coded::message(self, Lang::En))
    }
}
impl std::error::Error for OptionError {}

/// Reads the options of one call from the JSON text of the options object (`name` is
/// what the messages call it). Absent text (`None`: no options given) is every default.
pub fn read<T: Options + Default>(json: Option<&str>, name: &str) -> Result<T, BindingError> {
    let Some(json) = json else { return Ok(T::default()) };
    let value: Value = serde_json::from_str(json).map_err(|e| BindingError::argument(format!("{name} is not JSON: {}", crate::contract::json::serde_message(&e))))?;
    from_value(value, name)
}

/// Reads the options of one call from a JSON object. An unknown name is refused with
/// the list of the allowed ones, a wrong value with the option's name and what it must be.
/// The messages are the ones serde's derive gives (`unknown field …, expected one of …`,
/// `invalid type: …, expected …`), at the option's JSON path (`options.sourceIds[1]`);
/// read by hand, the module carries no generic deserializer for the options.
pub fn from_value<T: Options>(value: Value, name: &str) -> Result<T, BindingError> {
    let Value::Object(map) = value else {
        return Err(BindingError::argument(format!("{name} must be an object")));
    };
    read_fields(&mut map.into_iter(), T::FIELDS)
        .map(T::from_call)
        .map_err(|(at, message)| BindingError::argument(format!("{name}.{at}: {message}")))
}

/// [`from_value`] of an object given as its entries in the order they were listed: read
/// as the object's map reads them (by key, a later entry replacing an earlier one of the
/// same key), without building the map.
pub fn from_entries<T: Options>(listed: Vec<(String, Value)>, name: &str) -> Result<T, BindingError> {
    read_fields(&mut by_key(listed).into_iter(), T::FIELDS)
        .map(T::from_call)
        .map_err(|(at, message)| BindingError::argument(format!("{name}.{at}: {message}")))
}

/// Entries in key order, as the map's `insert` keeps them: a key already there gets the
/// later value.
fn by_key(listed: Vec<(String, Value)>) -> Vec<(String, Value)> {
    let mut entries: Vec<(String, Value)> = Vec::with_capacity(listed.len());
    for (key, value) in listed {
        match entries.binary_search_by(|(k, _)| k.as_str().cmp(&key)) {
            Ok(i) => {
                if let Some(slot) = entries.get_mut(i) {
                    slot.1 = value;
                }
            }
            Err(i) => entries.insert(i, (key, value)),
        }
    }
    entries
}

/// `maxSourceBytes` for `max_source_bytes`.
fn camel(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut upper = false;
    for c in field.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                out.push(c.to_ascii_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

/// Where a value was refused (its path below the option, `[1]`) and serde's message.
type Refusal = (String, String);

/// The object's keys (in the map's order, as serde's derive reads them) into the fields
/// named; anything else is an unknown field.
fn read_fields(map: &mut dyn Iterator<Item = (String, Value)>, fields: &[&str]) -> Result<CallOptions, Refusal> {
    let mut c = CallOptions::default();
    for (key, v) in map {
        let Some(field) = fields.iter().find(|f| is_camel_of(&key, f)) else {
            let names: Vec<String> = fields.iter().map(|f| camel(f)).collect();
            return Err((key.clone(), unknown(&key, "field", "fields", &names)));
        };
        c.set(field, v).map_err(|(at, m)| (format!("{key}{at}"), m))?;
    }
    Ok(c)
}

/// `key == camel(field)`, without making the camelCase name (field names are ASCII).
fn is_camel_of(key: &str, field: &str) -> bool {
    let mut k = key.bytes();
    let mut upper = false;
    for c in field.bytes() {
        if c == b'_' {
            upper = true;
            continue;
        }
        let want = if upper { c.to_ascii_uppercase() } else { c };
        upper = false;
        if k.next() != Some(want) {
            return false;
        }
    }
    k.next().is_none()
}

/// serde's `unknown field `x`, expected one of `a`, `b``.
#[cold]
#[inline(never)]
fn unknown(name: &str, what: &str, plural: &str, allowed: &[impl AsRef<str>]) -> String {
    let quoted = |n: &dyn AsRef<str>| format!("`{}`", n.as_ref());
    let expected = match allowed {
        [] => return format!("unknown {what} `{name}`, there are no {plural}"),
        [a] => quoted(a),
        [a, b] => format!("{} or {}", quoted(a), quoted(b)),
        all => format!("one of {}", all.iter().map(|n| quoted(n)).collect::<Vec<_>>().join(", ")),
    };
    format!("unknown {what} `{name}`, expected {expected}")
}

/// What serde_json calls a value in `invalid type: …` (its `Unexpected`).
fn unexpected(v: &Value) -> String {
    match v {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) if n.is_f64() => format!("floating point `{n}`"),
        Value::Number(n) => format!("integer `{n}`"),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    }
}

#[cold]
#[inline(never)]
fn invalid_type(v: &Value, expected: &str) -> Refusal {
    (String::new(), format!("invalid type: {}, expected {expected}", unexpected(v)))
}

/// A value an option holds, read as serde's derive read it from a `Value`.
trait OptionValue: Sized {
    fn read(v: Value) -> Result<Self, Refusal>;
}

impl OptionValue for Value {
    fn read(v: Value) -> Result<Self, Refusal> {
        Ok(v)
    }
}

impl OptionValue for String {
    fn read(v: Value) -> Result<Self, Refusal> {
        match v {
            Value::String(s) => Ok(s),
            v => Err(invalid_type(&v, "a string")),
        }
    }
}

impl OptionValue for bool {
    fn read(v: Value) -> Result<Self, Refusal> {
        v.as_bool().ok_or_else(|| invalid_type(&v, "a boolean"))
    }
}

impl OptionValue for usize {
    fn read(v: Value) -> Result<Self, Refusal> {
        let Value::Number(n) = &v else { return Err(invalid_type(&v, "usize")) };
        match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => usize::try_from(u).map_err(|_| (String::new(), format!("invalid value: integer `{u}`, expected usize"))),
            (None, Some(i)) => Err((String::new(), format!("invalid value: integer `{i}`, expected usize"))),
            (None, None) => Err(invalid_type(&v, "usize")),
        }
    }
}

impl OptionValue for Vec<String> {
    fn read(v: Value) -> Result<Self, Refusal> {
        let Value::Array(items) = v else { return Err(invalid_type(&v, "a sequence")) };
        items.into_iter().enumerate().map(|(i, v)| String::read(v).map_err(|(at, m)| (format!("[{i}]{at}"), m))).collect()
    }
}

/// The unit-only enums: a variant's name, or (serde's external tagging) an object of
/// one key, the name, whose value is `null`. The variant's index in `names`.
fn read_variant(v: Value, names: &[&str]) -> Result<usize, Refusal> {
    let single = || (String::new(), "invalid value: map, expected map with a single key".to_owned());
    let (name, value) = match v {
        Value::String(s) => (s, None),
        Value::Object(map) if map.len() == 1 => map.into_iter().next().map(|(k, v)| (k, Some(v))).ok_or_else(single)?,
        Value::Object(_) => return Err(single()),
        v => return Err(invalid_type(&v, "string or map")),
    };
    let Some(i) = names.iter().position(|n| *n == name) else {
        return Err((String::new(), unknown(&name, "variant", "variants", names)));
    };
    match value {
        None | Some(Value::Null) => Ok(i),
        Some(v) => Err((format!(".{name}"), invalid_type(&v, "unit").1)),
    }
}

macro_rules! option_enum {
    ($($ty:ident { $($text:literal => $variant:ident),* })*) => {$(
        impl OptionValue for $ty {
            fn read(v: Value) -> Result<Self, Refusal> {
                const NAMES: &[&str] = &[$($text),*];
                const VARIANTS: &[$ty] = &[$($ty::$variant),*];
                let i = read_variant(v, NAMES)?;
                VARIANTS.get(i).copied().ok_or_else(|| (String::new(), String::new()))
            }
        }
    )*};
}

option_enum! {
    Lang { "zh" => Zh, "en" => En }
    Compat { "reference" => Reference }
    DialectName { "standard" => Standard, "openai-strict" => OpenAiStrict }
    WhitespaceName { "exact" => Exact, "loose" => Loose }
    OffsetUnit { "code_point" => CodePoint, "utf16" => Utf16, "utf8" => Utf8 }
    ReviewsName { "throw" => Throw, "report" => Report }
}

impl CallOptions {
    /// Sets the option `field` (a name of [`CallOptions`]) from its JSON value.
    fn set(&mut self, field: &str, v: Value) -> Result<(), Refusal> {
        macro_rules! fields {
            ($($f:ident)*) => {
                match field {
                    $(stringify!($f) => self.$f = Some(OptionValue::read(v)?),)*
                    _ => {}
                }
            };
        }
        fields!(now max_sources max_source_bytes max_claims max_citations max_input_bytes lang compat review_key key render dialect whitespace unit prefix suffix occurrence scope source_ids fetched_at uncited_as_gaps documents require_contents policy reviews host_hashing);
        Ok(())
    }
}

impl CallOptions {
    /// The call's language: its `lang`, else `fallback` (the store's or catalogue's, or
    /// the library's default zh).
    pub fn lang_or(&self, fallback: Lang) -> Lang {
        self.lang.unwrap_or(fallback)
    }

    /// The policy: `policy` (a preset's name or a policy object; default reference),
    /// then the `max*` options as overrides, then `compat` (the reference's messages).
    pub fn limits(&self) -> Result<Policy, PolicyError> {
        let mut p = match &self.policy {
            None => Policy::default(),
            Some(v) => Policy::from_value(v)?,
        };
        p.max_claims = self.max_claims.unwrap_or(p.max_claims);
        p.max_citations = self.max_citations.unwrap_or(p.max_citations);
        p.max_input_bytes = self.max_input_bytes.unwrap_or(p.max_input_bytes);
        p.max_sources = self.max_sources.unwrap_or(p.max_sources);
        p.max_source_bytes = self.max_source_bytes.unwrap_or(p.max_source_bytes);
        p.reference_messages = self.compat.is_some();
        Ok(p)
    }

    /// `reviews: "throw" | "report"`, else `default`.
    pub fn reviews(&self, default: crate::assess::ReviewMode) -> crate::assess::ReviewMode {
        match self.reviews {
            Some(ReviewsName::Throw) => crate::assess::ReviewMode::Throw,
            Some(ReviewsName::Report) => crate::assess::ReviewMode::Report,
            None => default,
        }
    }

    /// A fixed clock at `now`, else the host's clock.
    pub fn clock(&self, host: Clock) -> Result<Clock, ClockErrorKind> {
        match &self.now {
            Some(now) => Clock::fixed(now),
            None => Ok(host),
        }
    }

    /// `compat: "reference"` selects the reference's escaping; hardened otherwise.
    pub fn escaping(&self) -> Escaping {
        match self.compat {
            Some(Compat::Reference) => Escaping::Reference,
            None => Escaping::Hardened,
        }
    }

    /// `reviewKey`: the host's secret for review signatures (its UTF-8 bytes), never empty.
    pub fn review_key(&self) -> Result<Option<Vec<u8>>, BindingError> {
        secret(self.review_key.as_deref(), "options.reviewKey")
    }

    /// `key`: the secret a recorded review is signed with, never empty.
    pub fn signing_key(&self) -> Result<Option<Vec<u8>>, BindingError> {
        secret(self.key.as_deref(), "options.key")
    }

    pub fn whitespace(&self) -> Whitespace {
        match self.whitespace {
            Some(WhitespaceName::Loose) => Whitespace::Loose,
            _ => Whitespace::Exact,
        }
    }

    pub fn dialect(&self) -> Dialect {
        match self.dialect {
            Some(DialectName::OpenAiStrict) => Dialect::OpenAiStrict,
            _ => Dialect::Standard,
        }
    }

    /// `unit`, else `default`.
    pub fn unit(&self, default: Unit) -> Unit {
        self.unit.map_or(default, Unit::from)
    }

    /// The selector and locate options of `quote`: `occurrence` counts from 1.
    pub fn selector(&self, exact: String) -> Result<(Selector, LocateOptions), BindingError> {
        if self.occurrence == Some(0) {
            return Err(BindingError::argument("options.occurrence counts from 1"));
        }
        let counting = match self.escaping() {
            Escaping::Reference => Counting::Reference,
            Escaping::Hardened => Counting::Overlapping,
        };
        let selector = Selector { exact, prefix: self.prefix.clone(), suffix: self.suffix.clone(), occurrence: self.occurrence };
        Ok((selector, LocateOptions { counting, whitespace: self.whitespace() }))
    }

    /// The settings of a stateless bundle check.
    pub fn bundle(&self, host: Clock) -> Result<BundleOptions, OptionError> {
        Ok(BundleOptions {
            clock: self.clock(host)?,
            render: self.render.unwrap_or(true),
            policy: self.limits()?,
            escaping: self.escaping(),
            review_key: self.review_key()?,
            lang: self.lang_or(Lang::Zh),
            reviews: crate::assess::ReviewMode::Report,
            host_hasher: None,
        })
    }

    /// The settings of the Anthropic importer; `scope` is required.
    pub fn anthropic(&self) -> Result<crate::import::anthropic::AnthropicOptions, OptionError> {
        let scope = self.scope.as_ref().ok_or_else(|| BindingError::argument("options.scope is required"))?;
        Ok(crate::import::anthropic::AnthropicOptions {
            scope: Scope::from_value(scope)?,
            source_ids: self.source_ids.clone().unwrap_or_default(),
            fetched_at: self.fetched_at.clone(),
            uncited_as_gaps: self.uncited_as_gaps.unwrap_or(false),
        })
    }
}

fn secret(key: Option<&str>, name: &str) -> Result<Option<Vec<u8>>, BindingError> {
    match key {
        Some("") => Err(BindingError::argument(format!("{name} must not be empty"))),
        Some(k) => Ok(Some(k.as_bytes().to_vec())),
        None => Ok(None),
    }
}

/// The byte position of a `\uD800`–`\uDFFF` escape (not itself escaped) in JSON text
/// written by `JSON.stringify`, which escapes exactly the lone surrogates.
pub fn lone_surrogate_escape(json: &str) -> Option<usize> {
    // Every backslash followed by `u` (`memchr` finds the backslashes a word at a time;
    // `str::find` ran a two-way search, ~3 % of a `Reviews.add` call).
    let b = json.as_bytes();
    memchr::memchr_iter(b'\\', b).find(|&at| {
        let surrogate = matches!(b.get(at + 1..at + 4), Some([b'u', d, h]) if d.eq_ignore_ascii_case(&b'd') && matches!(h.to_ascii_lowercase(), b'8'..=b'9' | b'a'..=b'f'));
        surrogate && b.get(..at).map_or(0, |p| p.iter().rev().take_while(|c| **c == b'\\').count()) % 2 == 0
    })
}

/// Refuses JSON text written by `JSON.stringify` that holds a lone surrogate, naming
/// the argument and where: `invalid_unicode`, never a replacement character.
pub fn check_stringified(json: &str, name: &str) -> Result<(), BindingError> {
    match lone_surrogate_escape(json) {
        Some(at) => Err(BindingError::unicode(format!(
            "{name} contains a string with an unpaired surrogate (at character {at} of its JSON); it is not valid Unicode"
        ))),
        None => Ok(()),
    }
}

/// Refuses, before it is read, JSON text of `units` UTF-16 units that cannot fit
/// `max_bytes` (a UTF-8 encoding has at least as many bytes as UTF-16 units).
pub fn check_input_size(name: &str, units: usize, max_bytes: usize) -> Result<(), ContractError> {
    if units <= max_bytes {
        return Ok(());
    }
    Err(ContractError {
        subject: "input",
        violations: vec![Violation {
            path: String::new(),
            code: crate::error::ViolationCode::InputTooLarge,
            message: format!("{name} is at least {units} bytes of JSON, over the limit of {max_bytes} bytes; it was not read"),
        }],
    })
}

/// The subject of the JSON reader's errors for an argument read as plain JSON
/// (the binding's `value_arg`, `json_value_arg`): the contract the argument is read as (`result` is a
/// `read_result`), else the argument's own name, the options object for one of its
/// entries (`options.policy`).
pub fn argument_subject(name: &str) -> &'static str {
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use serde_json::{json, Map};

    #[test]
    fn arguments_are_read_under_their_subjects() {
        assert_eq!(argument_subject("result"), "read_result");
        assert_eq!(argument_subject("json"), "catalog");
        assert_eq!(argument_subject("annotation"), "web_annotation");
        assert_eq!(argument_subject("options.policy"), "options");
        assert_eq!(argument_subject("draft"), "draft");
        assert_eq!(argument_subject("anything"), "argument");
    }

    /// The reader the hand reader replaces: serde's derive through serde_path_to_error.
    fn serde_read<T: serde::de::DeserializeOwned>(value: Value, name: &str) -> Result<T, BindingError> {
        if !value.is_object() {
            return Err(BindingError::argument(format!("{name} must be an object")));
        }
        serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            let at = if path == "." { name.to_owned() } else { format!("{name}.{path}") };
            BindingError::argument(format!("{at}: {}", e.inner()))
        })
    }

    fn values() -> Vec<Value> {
        let mut v = vec![
            json!(null), json!(true), json!(false), json!(0), json!(1), json!(7), json!(-1), json!(1.5), json!(-0.0), json!(1e300),
            json!(4_294_967_296u64), json!(u64::MAX), json!(i64::MIN), json!(""), json!("x"), json!("line\nbreak \u{1} \"é\" \\"),
            json!([]), json!(["a"]), json!(["a", 1]), json!(["a", ["b"]]), json!([null]), json!({}), json!({"a": 1, "b": 2}),
            json!({"reference": 1}), json!({"reference": {}}), json!({"x": null}), json!({"zh": 1.5}),
        ];
        for name in ["zh", "en", "reference", "standard", "openai-strict", "exact", "loose", "code_point", "utf16", "utf8", "throw", "report"] {
            v.push(json!(name));
            v.push(json!({ name: null }));
        }
        v.push(json!("2026-11-29T00:00:00+00:00"));
        v.push(json!({"tenant_id": "t", "user_id": "u"}));
        v
    }

    fn same<T: serde::de::DeserializeOwned + Options + Into<CallOptions> + Clone + PartialEq + fmt::Debug>() -> usize {
        let mut keys: Vec<String> = T::FIELDS.iter().map(|f| camel(f)).collect();
        keys.extend(["langue", "max_claims", "MaxClaims", "", "catalog"].map(String::from));
        let values = values();
        let mut n = 0;
        let mut check = |v: Value| {
            let ours = from_value::<T>(v.clone(), "options").map(Into::into).map_err(|e| e.message(Lang::En));
            let theirs = serde_read::<T>(v.clone(), "options").map(Into::into).map_err(|e| e.message(Lang::En));
            assert_eq!(ours, theirs, "{v}");
            // The entries as the binding lists them (any order) read as the map is read.
            if let Value::Object(map) = &v {
                let listed: Vec<(String, Value)> = map.clone().into_iter().rev().collect();
                let entries = from_entries::<T>(listed, "options").map(Into::into).map_err(|e| e.message(Lang::En));
                assert_eq!(entries, ours, "{v}");
            }
            n += 1;
        };
        for key in &keys {
            for value in &values {
                check(json!({ key.clone(): value.clone() }));
            }
        }
        // Two options: the first refused in the map's order is the one named.
        for (i, a) in values.iter().enumerate().step_by(3) {
            for (k, b) in [("a", values.get(i + 1)), ("zz", values.get(i + 2))] {
                for key in keys.iter().take(3) {
                    check(json!({ key.clone(): a.clone(), k: b.cloned() }));
                }
            }
        }
        let all: Map<String, Value> = T::FIELDS.iter().map(|f| (camel(f), json!(null))).collect();
        check(Value::Object(all));
        for v in [json!([]), json!("x"), json!(null), json!(1)] {
            check(v);
        }
        n
    }

    #[test]
    fn the_hand_reader_gives_serde_derives_results_and_messages() {
        let n = same::<StoreOptions>() + same::<QuoteOptions>() + same::<RangeOptions>() + same::<ParseOptions>()
            + same::<SchemaOptions>() + same::<ReviewOptions>() + same::<AssessOptions>() + same::<RenderOptions>()
            + same::<CheckBundleOptions>() + same::<WhitespaceOptions>() + same::<LocateOptionsIn>()
            + same::<LocateBundleOptions>() + same::<AnthropicOptions>() + same::<CatalogOptions>() + same::<LangOptions>()
            + same::<ParseBundleOptions>();
        assert!(n > 9_000, "{n}");
    }

    #[test]
    fn entries_are_read_by_key_the_last_of_a_key_kept() {
        let read = |entries: Vec<(&str, Value)>| {
            let entries = entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            from_entries::<ReviewOptions>(entries, "options").map_err(|e| e.message(Lang::En))
        };
        // Two keys that read as one (lone surrogates both made U+FFFD): the later value.
        let kept = read(vec![("now", json!(1)), ("lang", json!("en")), ("now", json!("2026-11-29T00:00:00+00:00"))]).unwrap();
        assert_eq!(kept.now.as_deref(), Some("2026-11-29T00:00:00+00:00"));
        assert_eq!(read(vec![("now", json!("x")), ("now", json!(1))]).unwrap_err(), "options.now: invalid type: integer `1`, expected a string");
        // Of two refused options the first by key is named, whatever the listing order.
        let e = read(vec![("zz", json!(1)), ("now", json!(1)), ("lang", json!(1))]).unwrap_err();
        assert_eq!(e, "options.lang: invalid type: integer `1`, expected string or map");
    }

    #[test]
    fn field_names_are_camel_case() {
        assert_eq!(camel("max_source_bytes"), "maxSourceBytes");
        assert_eq!(camel("now"), "now");
        for (key, field, same) in [("maxSourceBytes", "max_source_bytes", true), ("now", "now", true), ("max_source_bytes", "max_source_bytes", false), ("maxSource", "max_source_bytes", false), ("maxSourceBytesX", "max_source_bytes", false), ("nowX", "now", false), ("", "now", false)] {
            assert_eq!(is_camel_of(key, field), same, "{key} {field}");
        }
    }
}
