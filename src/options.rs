//! The options of every call, as the JavaScript binding receives them: one struct per
//! call names the options it takes, and one struct of every option reads them from JSON
//! in one step (`camelCase` names, unknown names refused with the list of the call's
//! ones), then resolves them into the core's own settings. Also the checks of JSON text
//! that comes from a host (`JSON.stringify` output).
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

/// `compat: "reference"`: the reference's behaviour, byte for byte: its policy and its
/// language (Chinese) unless `policy` or `lang` is given beside it, its (weaker) escaping,
/// its quote counting and its codes and message texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[derive(serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Compat {
    Reference,
}

/// `dialect`: the schema flavour, or how `null` in optional fields is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[derive(serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum DialectName {
    #[serde(rename = "standard")]
    Standard,
    #[serde(rename = "openai-strict")]
    OpenAiStrict,
}

/// `whitespace`: exact matching (the default) or loose matching of whitespace runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[derive(serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum WhitespaceName {
    Exact,
    Loose,
}

/// How a host counts offsets: `code_point`, `utf16` or `utf8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[derive(serde::Deserialize)]
#[serde(rename_all = "snake_case")]
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
fn present<'de, D: serde::Deserializer<'de>, T: serde::Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

macro_rules! call_options {
    ($($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $field:ident: $ty:ty,)* })*) => {$(
        #[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
        $(#[$m])*
        #[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        pub struct $name {
            $( $(#[$fm])* pub $field: Option<$ty>, )*
        }
        impl Options for $name {}
    )*};
}

/// The options one call takes: a struct whose fields serde's derive names (its
/// `camelCase` list, the one an unknown option's message gives). The values are read
/// into [`CallOptions`], by the one derive every call shares.
pub trait Options: serde::de::DeserializeOwned {
    /// The names of the call's options, in the order its struct declares them.
    fn names() -> &'static [&'static str] {
        field_names::<Self>()
    }
}

/// The field names serde's derive gives a struct: the list its `deserialize_struct`
/// call carries, taken by a deserializer that reads nothing else.
fn field_names<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
    #[derive(Debug)]
    struct Names(&'static [&'static str]);
    impl fmt::Display for Names {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("field names")
        }
    }
    impl std::error::Error for Names {}
    impl serde::de::Error for Names {
        fn custom<M: fmt::Display>(_: M) -> Self {
            Names(&[])
        }
    }
    struct Fields;
    impl<'de> serde::Deserializer<'de> for Fields {
        type Error = Names;
        fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Names> {
            Err(Names(&[]))
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(self, _: &'static str, fields: &'static [&'static str], _: V) -> Result<V::Value, Names> {
            Err(Names(fields))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }
    match T::deserialize(Fields) {
        Err(Names(names)) => names,
        Ok(_) => &[],
    }
}

/// Every option any call takes; each call's own struct names the ones it takes.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct CallOptions {
    #[serde(deserialize_with = "present")] pub now: Option<String>,
    #[serde(deserialize_with = "present")] pub max_sources: Option<usize>,
    #[serde(deserialize_with = "present")] pub max_source_bytes: Option<usize>,
    #[serde(deserialize_with = "present")] pub max_claims: Option<usize>,
    #[serde(deserialize_with = "present")] pub max_citations: Option<usize>,
    #[serde(deserialize_with = "present")] pub max_input_bytes: Option<usize>,
    #[serde(deserialize_with = "present")] pub lang: Option<Lang>,
    #[serde(deserialize_with = "present")] pub compat: Option<Compat>,
    #[serde(deserialize_with = "present")] pub review_key: Option<String>,
    #[serde(deserialize_with = "present")] pub key: Option<String>,
    #[serde(deserialize_with = "present")] pub render: Option<bool>,
    #[serde(deserialize_with = "present")] pub dialect: Option<DialectName>,
    #[serde(deserialize_with = "present")] pub whitespace: Option<WhitespaceName>,
    #[serde(deserialize_with = "present")] pub unit: Option<OffsetUnit>,
    #[serde(deserialize_with = "present")] pub prefix: Option<String>,
    #[serde(deserialize_with = "present")] pub suffix: Option<String>,
    #[serde(deserialize_with = "present")] pub occurrence: Option<usize>,
    #[serde(deserialize_with = "present")] pub scope: Option<Value>,
    #[serde(deserialize_with = "present")] pub source_ids: Option<Vec<String>>,
    #[serde(deserialize_with = "present")] pub fetched_at: Option<String>,
    #[serde(deserialize_with = "present")] pub uncited_as_gaps: Option<bool>,
    #[serde(deserialize_with = "present")] pub documents: Option<Value>,
    #[serde(deserialize_with = "present")] pub require_contents: Option<bool>,
    #[serde(deserialize_with = "present")] pub policy: Option<Value>,
    #[serde(deserialize_with = "present")] pub reviews: Option<ReviewsName>,
    /// The provider importers: the host's snapshots by the provider's key.
    #[serde(deserialize_with = "present")] pub sources: Option<Value>,
    #[serde(deserialize_with = "present")] pub title: Option<String>,
    #[serde(deserialize_with = "present")] pub provider: Option<String>,
}

/// `reviews`: what a stale, foreign or second review does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[derive(serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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
    SchemaOptions { dialect: DialectName, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat, }
    /// `reportDigest(report, options)`: the policy and language a report given as an
    /// object or text is read under (a handle's own, unless given).
    ReportDigestOptions { lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat, }
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
    /// `checkBundle(bundle, options)`. `policy` sets every limit and vocabulary (default
    /// "documents"; "reference" under `compat: "reference"`); the `max*` options override
    /// single fields of it.
    CheckBundleOptions {
        now: String, render: bool, max_sources: usize, max_source_bytes: usize, max_claims: usize,
        max_citations: usize, max_input_bytes: usize, compat: Compat, review_key: String, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value,
    }
    /// `store.fromWebAnnotation(…, options)`.
    WhitespaceOptions { whitespace: WhitespaceName, }
    /// `locateCitations(…, options)`: the store's policy and language unless given.
    #[cfg_attr(test, ts(rename = "LocateOptions"))]
    LocateOptionsIn {
        whitespace: WhitespaceName, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat,
        max_claims: usize, max_citations: usize,
    }
    /// `locateBundle(draft, options)`: the policy the draft and its sources are read under.
    LocateBundleOptions {
        whitespace: WhitespaceName, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat,
        max_claims: usize, max_citations: usize, now: String, max_sources: usize, max_source_bytes: usize,
    }
    /// `fromAnthropicMessage(request, response, options)`: `sourceIds[i]` names document i
    /// (default `doc-<i>`); `uncitedAsGaps` keeps uncited text blocks as gaps; `title`
    /// names the report; `policy` and `lang` as every call's.
    AnthropicOptions {
        #[cfg_attr(test, ts(type = "Scope"))] scope: Value, source_ids: Vec<String>, fetched_at: String, uncited_as_gaps: bool,
        title: String, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat,
    }
    /// `fromBedrockResponse`, `fromOpenAIResponse`, `fromGeminiResponse(request, response,
    /// options)`: `sources` maps the provider's key (a Bedrock document index or name, an
    /// OpenAI file id, a Gemini URI) to the host's snapshot; `title` names the report.
    ProviderOptions {
        #[cfg_attr(test, ts(type = "Scope"))] scope: Value,
        #[cfg_attr(test, ts(type = "Record<string, HostSource>"))] sources: Value,
        lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat, title: String, fetched_at: String,
    }
    /// `fromModelResponse(request, response, options)`: `provider`, or detected by shape.
    ModelResponseOptions {
        #[cfg_attr(test, ts(type = "Scope"))] scope: Value,
        #[cfg_attr(test, ts(type = "Record<string, HostSource>"))] sources: Value,
        lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat, title: String, fetched_at: String,
        #[cfg_attr(test, ts(type = "\"anthropic\" | \"bedrock\" | \"openai\" | \"gemini\""))] provider: String,
    }
    /// `new DocumentCatalog(options)`: `documents` are imported in order.
    #[cfg_attr(test, ts(rename = "DocumentCatalogOptions"))]
    CatalogOptions { lang: Lang, #[cfg_attr(test, ts(optional, type = "Document[]"))] documents: Value, }
    /// `DocumentCatalog.fromJSON(json, options)`, `convertOffset` and `toWebAnnotations`.
    LangOptions { lang: Lang, }
    /// `parseBundle(bundle, options)`: `requireContents: false` lets sources leave out
    /// `content`; the limits as `checkBundle`'s.
    ParseBundleOptions { require_contents: bool, max_claims: usize, max_citations: usize, max_input_bytes: usize, lang: Lang, #[cfg_attr(test, ts(optional, type = "PolicyInput"))] policy: Value, compat: Compat, }
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

/// Reads the options of one call from JSON text (`None`: no options given, every default).
pub fn read<T: Options>(json: Option<&str>, name: &str) -> Result<CallOptions, OptionError> {
    read_named(json, name, T::names())
}

fn read_named(json: Option<&str>, name: &str, names: &'static [&'static str]) -> Result<CallOptions, OptionError> {
    let Some(json) = json else { return Ok(CallOptions::default()) };
    let value = crate::json::parse_strict(json, crate::json::DEFAULT_MAX_INPUT_BYTES, "options")?;
    Ok(from_value_named(value, name, names)?)
}

/// The options of one call from the `JSON.stringify` text of the options object: a
/// string holding a lone surrogate is `invalid_unicode`, the JSON is read strictly (depth,
/// duplicate keys) under the subject `options`, then by serde's derive.
pub fn from_stringified<T: Options>(json: &str, name: &str) -> Result<CallOptions, OptionError> {
    check_stringified(json, name)?;
    read_named(Some(json), name, T::names())
}

/// Reads the options of one call from a JSON object by serde's derive, through
/// serde_path_to_error: an unknown name is refused with the list of the call's
/// ones, a wrong value with serde's message at the option's JSON path
/// (`options.sourceIds[1]: …`). As the call's own derive would, the options are read in
/// the order of their names and the first refused one is named. The one place serde's
/// errors become coded ones.
pub fn from_value<T: Options>(value: Value, name: &str) -> Result<CallOptions, BindingError> {
    from_value_named(value, name, T::names())
}

fn from_value_named(value: Value, name: &str, names: &'static [&'static str]) -> Result<CallOptions, BindingError> {
    let Value::Object(mut options) = value else {
        return Err(BindingError::argument(format!("{name} must be an object")));
    };
    let unknown = options.keys().find(|k| !names.contains(&k.as_str())).cloned();
    if let Some(key) = &unknown {
        let mut before = true;
        options.retain(|k, _| {
            before &= k != key;
            before
        });
    }
    // serde's message at the option's path (`.`: the object itself).
    let refused = |path: &str, e: &serde_json::Error| {
        let at = if path == "." { name.to_owned() } else { format!("{name}.{path}") };
        BindingError::argument(format!("{at}: {e}"))
    };
    let read = serde_path_to_error::deserialize(Value::Object(options)).map_err(|e| refused(&e.path().to_string(), e.inner()))?;
    match unknown {
        Some(key) => Err(refused(&key, &serde::de::Error::unknown_field(&key, names))),
        None => Ok(read),
    }
}

/// The most UTF-16 units a valid `now` can have: a longer one is refused as no
/// date-time before the options are read (it is not copied).
pub const MAX_NOW_UNITS: usize = 256;

/// Refuses a `now` of `units` UTF-16 units that cannot be a date-time, as
/// [`CallOptions::clock`] refuses one that is not.
pub fn check_now_units(units: usize) -> Result<(), ClockErrorKind> {
    if units > MAX_NOW_UNITS {
        return Err(ClockErrorKind::InvalidNow);
    }
    Ok(())
}

/// A whole-number argument (an offset, a position, a byte count) from the JS number `n`
/// (`None`: not a number): an integer from 0 to 2^53 - 1, the integers a double holds
/// exactly. Anything else is an `invalid_argument` naming `name`.
pub fn whole_number(n: Option<f64>, name: &str) -> Result<usize, BindingError> {
    match n {
        Some(n) if n.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&n) => Ok(n as usize),
        _ => Err(BindingError::argument(format!("{name} must be a whole number from 0 to 2^53 - 1"))),
    }
}

/// The library's default language, for what is refused before a call's options are read:
/// the host's locale's ([`crate::host::lang`]).
pub fn default_lang() -> Lang {
    crate::host::lang()
}

impl CallOptions {
    /// The call's language: its `lang`; else, under `compat: "reference"`, Chinese (the
    /// reference's); else the host's locale's ([`default_lang`]).
    pub fn lang(&self) -> Lang {
        self.lang.unwrap_or_else(|| if self.compat.is_some() { Lang::Zh } else { default_lang() })
    }

    /// The language of a call given an object that carries one (a store, a handle, a
    /// catalogue): its `lang`, else `carried`, the object's.
    pub fn lang_or(&self, carried: Lang) -> Lang {
        self.lang.unwrap_or(carried)
    }

    /// The policy: `policy` (a preset's name or a policy object); else, under `compat:
    /// "reference"`, the reference preset; else the default (documents). Then the `max*`
    /// options as overrides, then `compat` (the reference's messages). An explicit
    /// `policy` beside `compat` wins.
    pub fn limits(&self) -> Result<Policy, PolicyError> {
        self.resolve(None)
    }

    /// The policy of a call given an object that carries one (a store's, a handle's):
    /// `policy` when given, else `carried`; the `max*` overrides and `compat` as
    /// [`Self::limits`] (the carried policy keeps its own reference messages).
    pub fn limits_or(&self, carried: &Policy) -> Result<Policy, PolicyError> {
        self.resolve(Some(carried))
    }

    /// The language and policy of a call that reads a report and carries no store, given
    /// the report handle's language and policy when the report is a handle (its policy
    /// `None` once freed; its language kept for the error that says so): the handle's
    /// own unless the options give others. For a report given as an object or text, the
    /// options' (their defaults).
    pub fn report_setting(&self, handle: Option<(Lang, Option<&Policy>)>) -> (Lang, Result<Policy, PolicyError>) {
        match handle {
            Some((lang, carried)) => (self.lang_or(lang), self.resolve(carried)),
            None => (self.lang(), self.limits()),
        }
    }

    fn resolve(&self, carried: Option<&Policy>) -> Result<Policy, PolicyError> {
        let mut p = match (&self.policy, carried) {
            (Some(v), _) => Policy::from_value(v)?,
            (None, Some(c)) => c.clone(),
            (None, None) if self.compat.is_some() => Policy::reference(),
            (None, None) => Policy::default(),
        };
        p.max_claims = self.max_claims.unwrap_or(p.max_claims);
        p.max_citations = self.max_citations.unwrap_or(p.max_citations);
        p.max_input_bytes = self.max_input_bytes.unwrap_or(p.max_input_bytes);
        p.max_sources = self.max_sources.unwrap_or(p.max_sources);
        p.max_source_bytes = self.max_source_bytes.unwrap_or(p.max_source_bytes);
        p.reference_messages = self.compat.is_some() || carried.is_some_and(|c| c.reference_messages);
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
    pub fn clock(&self) -> Result<Clock, ClockErrorKind> {
        match &self.now {
            Some(now) => Clock::fixed(now),
            None => Ok(Clock::host()),
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
    pub fn bundle(&self) -> Result<BundleOptions, OptionError> {
        Ok(BundleOptions {
            clock: self.clock()?,
            render: self.render.unwrap_or(true),
            policy: self.limits()?,
            escaping: self.escaping(),
            review_key: self.review_key()?,
            lang: self.lang(),
            reviews: crate::assess::ReviewMode::Report,
        })
    }

    /// The settings of `locateBundle`: [`Self::bundle`]'s, never rendered, with hardened
    /// escaping and no review key (a draft's located bundle is checked, not reviewed).
    pub fn locate_bundle(&self) -> Result<BundleOptions, OptionError> {
        Ok(BundleOptions { render: false, escaping: Escaping::Hardened, review_key: None, ..self.bundle()? })
    }

    /// The review settings of `assess` and `render`: the `reviewKey`, and what a review
    /// that does not belong to the report does (`reviews`; by default it is thrown).
    pub fn review_check(&self) -> Result<(Option<Vec<u8>>, crate::assess::ReviewMode), BindingError> {
        Ok((self.review_key()?, self.reviews(crate::assess::ReviewMode::Throw)))
    }

    /// The settings of the Anthropic importer; `scope` is required (read under the policy).
    pub fn anthropic(&self) -> Result<crate::import::anthropic::AnthropicOptions, OptionError> {
        let scope = self.scope.as_ref().ok_or_else(|| BindingError::argument("options.scope is required"))?;
        Ok(crate::import::anthropic::AnthropicOptions {
            scope: Scope::from_value_with(scope, &self.limits()?)?,
            source_ids: self.source_ids.clone().unwrap_or_default(),
            fetched_at: self.fetched_at.clone(),
            uncited_as_gaps: self.uncited_as_gaps.unwrap_or(false),
            policy: self.limits()?,
            title: self.title.clone(),
        })
    }

    /// The settings of the provider importers; `scope` is required, `sources` maps each
    /// key to `{sourceId, text, title?, locator?}`.
    pub fn provider_import(&self) -> Result<crate::import::provider::ProviderOptions, OptionError> {
        let scope = self.scope.as_ref().ok_or_else(|| BindingError::argument("options.scope is required"))?;
        let policy = self.limits()?;
        let mut o = crate::import::provider::ProviderOptions::new(Scope::from_value_with(scope, &policy)?);
        o.policy = policy;
        o.lang = self.lang();
        o.title = self.title.clone();
        o.fetched_at = self.fetched_at.clone();
        let sources = match &self.sources {
            None => serde_json::Map::new(),
            Some(Value::Object(m)) => m.clone(),
            Some(_) => return Err(BindingError::argument("options.sources must be an object: the provider's key -> {sourceId, text}").into()),
        };
        for (key, v) in sources {
            let field = |name: &str| v.get(name).and_then(Value::as_str).map(str::to_owned);
            let unknown = v.as_object().and_then(|m| m.keys().find(|k| !matches!(k.as_str(), "sourceId" | "text" | "title" | "locator")).cloned());
            if let Some(k) = unknown {
                return Err(BindingError::argument(format!("options.sources[{key:?}]: unknown field `{k}`, expected one of `sourceId`, `text`, `title`, `locator`")).into());
            }
            let (Some(source_id), Some(text)) = (field("sourceId"), field("text")) else {
                return Err(BindingError::argument(format!("options.sources[{key:?}] needs a sourceId string and a text string (the host's snapshot)")).into());
            };
            o.sources.insert(key, crate::import::provider::HostSource { source_id, text, title: field("title"), locator: field("locator") });
        }
        Ok(o)
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
    // Every backslash followed by `u` (`memchr` finds the backslashes a word at a time,
    // where `str::find` would run a two-way search).
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
    use serde_json::json;

    #[test]
    fn arguments_are_read_under_their_subjects() {
        assert_eq!(argument_subject("result"), "read_result");
        assert_eq!(argument_subject("json"), "catalog");
        assert_eq!(argument_subject("annotation"), "web_annotation");
        assert_eq!(argument_subject("options.policy"), "options");
        assert_eq!(argument_subject("draft"), "draft");
        assert_eq!(argument_subject("anything"), "argument");
    }

    fn message(e: impl Coded) -> String {
        e.message(Lang::En)
    }

    #[test]
    fn serde_messages_name_the_option_and_its_path() {
        let read = |v: Value| from_value::<AnthropicOptions>(v, "options").map_err(message);
        assert_eq!(read(json!({"sourceIds": ["a", 1]})).unwrap_err(), "options.sourceIds[1]: invalid type: integer `1`, expected a string");
        assert_eq!(read(json!({"sourceIds": null})).unwrap_err(), "options.sourceIds: invalid type: null, expected a sequence");
        assert_eq!(read(json!({"fetchedAt": 1.5})).unwrap_err(), "options.fetchedAt: invalid type: floating point `1.5`, expected a string");
        let e = read(json!({"x": 1})).unwrap_err();
        assert_eq!(e, "options.x: unknown field `x`, expected one of `scope`, `sourceIds`, `fetchedAt`, `uncitedAsGaps`, `title`, `lang`, `policy`, `compat`");
        let lang = |v: Value| from_value::<LangOptions>(v, "options").map_err(message);
        assert_eq!(lang(json!({"lang": "fr"})).unwrap_err(), "options.lang: unknown variant `fr`, expected `zh` or `en`");
        assert_eq!(lang(json!({"lang": {"en": 1}})).unwrap_err(), "options.lang.en: invalid type: integer `1`, expected unit");
        assert_eq!(lang(json!({"langue": 1})).unwrap_err(), "options.langue: unknown field `langue`, expected `lang`");
        // Another call's option is unknown to this one, named in the order of the keys.
        assert_eq!(lang(json!({"now": "x"})).unwrap_err(), "options.now: unknown field `now`, expected `lang`");
        assert_eq!(lang(json!({"compat": "x", "lang": "fr"})).unwrap_err(), "options.compat: unknown field `compat`, expected `lang`");
        assert_eq!(lang(json!({"lang": "fr", "now": "x"})).unwrap_err(), "options.lang: unknown variant `fr`, expected `zh` or `en`");
        assert_eq!(lang(json!({"lang": "en"})).unwrap().lang, Some(Lang::En));
        assert_eq!(lang(json!([])).unwrap_err(), "options must be an object");
        let max = |v: Value| from_value::<ParseBundleOptions>(v, "options").map_err(message);
        assert_eq!(max(json!({"maxClaims": -1})).unwrap_err(), "options.maxClaims: invalid value: integer `-1`, expected usize");
        // Of two refused options the first by key is named, whatever the order written.
        assert_eq!(max(json!({"zz": 1, "maxClaims": -1})).unwrap_err(), "options.maxClaims: invalid value: integer `-1`, expected usize");
    }

    #[test]
    fn stringified_options_are_read_strictly_under_the_subject_options() {
        let deep = format!("{{\"lang\":{}{}}}", "[".repeat(200), "]".repeat(200));
        let e = from_stringified::<LangOptions>(&deep, "options").unwrap_err();
        assert_eq!(e.issues(Lang::En).unwrap().0, "options");
        let e = from_stringified::<LangOptions>(r#"{"lang":"\ud800"}"#, "options").unwrap_err();
        assert_eq!(e.code(), "invalid_unicode");
        assert_eq!(from_stringified::<LangOptions>(r#"{"lang":"en"}"#, "options").unwrap().lang, Some(Lang::En));
        assert_eq!(check_now_units(MAX_NOW_UNITS), Ok(()));
        assert_eq!(check_now_units(MAX_NOW_UNITS + 1), Err(ClockErrorKind::InvalidNow));
    }
}
