//! A bundle: everything one stateless check needs in one JSON document — the scope,
//! the catalogue with each source's text, the report, and the host's review records.
//! This is the CLI's input format and `checkBundle`'s argument.

use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;

use crate::assess::{check_detailed, Assessment, CheckOptions, ReviewMode};
use crate::clock::Clock;
use crate::json::{join, Node};
use crate::contract::Checker;
use crate::rules::{ANY_STRING, IDENTIFIER};
use crate::contract::{rule, Contract, Report, Scope, SourceSpec};
use crate::error::ContractError;
use crate::review::ReviewErrorKind;
use crate::store::StoreError;
use crate::render::{render_checked_detailed, Artifact};
use crate::review::Review;
use crate::policy::Policy;
use crate::store::EvidenceStore;

/// One source of a bundle: its catalogue entry and its text at a known revision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BundleSource {
    pub spec: SourceSpec,
    pub content: String,
    /// The revision the host holds this text at (default 1).
    #[cfg_attr(test, ts(optional = nullable))]
    pub revision: u64,
    /// When the host fetched it (default: the clock's time).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub fetched_at: Option<String>,
}

impl BundleSource {
    pub(crate) const FIELDS: &'static [&'static str] = &["spec", "content", "revision", "fetched_at"];
}

impl Contract for BundleSource {
    const SUBJECT: &'static str = "bundle_source";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let spec = c.required(m, path, "spec").and_then(|s| SourceSpec::check(c, s, &join(path, "spec")));
        let content = c.string_field(m, path, "content", &ANY_STRING);
        let revision = match m.get("revision") {
            Some(r) => c.int(r, &join(path, "revision"), 1),
            None => Some(1),
        };
        let fetched_at = match m.get("fetched_at") {
            Some(f) => c.string(f, &join(path, "fetched_at"), &rule::DATE_TIME).map(Some),
            None => Some(None),
        };
        if c.count() != before {
            return None;
        }
        Some(BundleSource { spec: spec?, content: content?, revision: revision?, fetched_at: fetched_at? })
    }
}

/// Scope, sources, report and reviews (and, from an importer, its notes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Bundle {
    pub scope: Scope,
    pub sources: Vec<BundleSource>,
    pub report: Report,
    #[cfg_attr(test, ts(optional = nullable))]
    pub reviews: Vec<Review>,
    /// What an importer recorded per citation or source (see [`crate::import`]); not checked.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(optional = nullable))]
    pub import_notes: Vec<ImportNote>,
}

impl Bundle {
    pub(crate) const FIELDS: &'static [&'static str] = &["scope", "sources", "report", "reviews", "import_notes"];
}

impl Contract for Bundle {
    const SUBJECT: &'static str = "bundle";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let scope = c.required(m, path, "scope").and_then(|s| Scope::check(c, s, &join(path, "scope")));
        let sources = c
            .required(m, path, "sources")
            .and_then(|s| c.list(s, &join(path, "sources"), 0, c.limits.max_sources, BundleSource::check));
        let report = c.required(m, path, "report").and_then(|r| Report::check(c, r, &join(path, "report")));
        let reviews = c.list_or(m, path, "reviews", usize::MAX, Review::check);
        let import_notes = c.list_or(m, path, "import_notes", usize::MAX, ImportNote::check);
        if c.count() != before {
            return None;
        }
        Some(Bundle { scope: scope?, sources: sources?, report: report?, reviews: reviews?, import_notes: import_notes? })
    }
}

/// How to check a bundle.
#[derive(Clone, Debug)]
pub struct BundleOptions {
    pub clock: Clock,
    pub render: bool,
    /// Every limit and vocabulary (the store's, the contracts', the artifact's); the
    /// bundle should have been parsed with the same policy. Replaces the former
    /// `store: StoreOptions` and `limits: Limits` fields.
    pub policy: Policy,
    /// How the artifact escapes text (hardened by default).
    pub escaping: crate::render::Escaping,
    /// When set, every review must carry a valid HMAC signature made with this key.
    pub review_key: Option<Vec<u8>>,
    /// The language of messages and artifact labels.
    pub lang: crate::error::Lang,
    /// What a stale, foreign or second review does: [`ReviewMode::Report`] (an issue;
    /// the default for bundles) or [`ReviewMode::Throw`] (the reference's `review_mismatch`).
    pub reviews: ReviewMode,
}

impl BundleOptions {
    /// The defaults: the documents policy, rendering on, hardened escaping, the host's
    /// language ([`crate::host::lang`]), reviews reported.
    pub fn new(clock: Clock) -> BundleOptions {
        BundleOptions {
            clock,
            render: true,
            policy: Policy::default(),
            escaping: crate::render::Escaping::Hardened,
            review_key: None,
            lang: crate::host::lang(),
            reviews: ReviewMode::Report,
        }
    }

    /// `compat: "reference"`: the reference policy with its messages, its escaping,
    /// Chinese; rendering on, reviews reported.
    pub fn reference(clock: Clock) -> BundleOptions {
        BundleOptions {
            policy: Policy::reference().with_reference_messages(true),
            escaping: crate::render::Escaping::Reference,
            lang: crate::error::Lang::Zh,
            ..BundleOptions::new(clock)
        }
    }
}

/// What a bundle check found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BundleResult {
    pub assessment: Assessment,
    /// The artifact, when rendering was asked for and succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub artifact: Option<Artifact>,
    /// Why rendering was refused (an invalid report, an oversize artifact).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub render_error: Option<RenderIssue>,
}

/// A refused render, as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RenderIssue {
    #[cfg_attr(test, ts(type = "EvidenceCode"))]
    pub code: &'static str,
    pub message: String,
    /// The artifact's size and the limit it is over (absent under `compat: "reference"`).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(skip))] // flattened: src/ts.rs declares the type `& Detail`
    pub detail: Option<crate::error::Detail>,
}

/// Why a bundle could not be checked at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BundleError {
    /// The bundle breaks its contract.
    Contract(ContractError),
    /// The catalogue or one source was refused by the store (`path` names it).
    Store { path: String, error: StoreError },
    /// The review records do not belong to this scope and report.
    Review(ReviewErrorKind),
    /// [`Self::Review`] with its subject: `review_target_missing` names the review's
    /// index and its claim.
    ReviewDetailed(ReviewErrorKind, Box<crate::error::Detail>),
}

impl BundleError {
    pub fn code(&self) -> &'static str {
        match self {
            Self::Contract(c) => c.code(),
            Self::Store { error, .. } => error.code(),
            Self::Review(k) | Self::ReviewDetailed(k, _) => k.code(),
        }
    }
    pub fn message(&self) -> String {
        match self {
            Self::Contract(c) => c.message(),
            Self::Store { path, error } => format!("{} ({path})", error.message()),
            Self::Review(k) => format!("{} (/reviews)", k.message()),
            Self::ReviewDetailed(..) => crate::error::Coded::message(self, crate::error::Lang::Zh),
        }
    }
}

impl std::fmt::Display for BundleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}
impl std::error::Error for BundleError {}

/// Loads the bundle's sources into a fresh store.
pub fn load_store(bundle: &Bundle, options: &BundleOptions) -> Result<EvidenceStore, BundleError> {
    load_sources(&bundle.scope, &bundle.sources, options)
}

/// Loads sources into a fresh store (each text copied once into it).
pub fn load_sources(scope: &Scope, sources: &[BundleSource], options: &BundleOptions) -> Result<EvidenceStore, BundleError> {
    let specs = sources.iter().map(|s| s.spec.clone()).collect();
    let texts = sources.iter().map(|s| (s.revision, Cow::Borrowed(s.content.as_str()), s.fetched_at.clone()));
    fill_store(scope, specs, texts, options)
}

/// A fresh store over the sources' specs, filled with `texts` (each source's revision,
/// its text, its length as given and its index when the text is LF-normalised already,
/// and `fetched_at`, in the specs' order).
fn fill_store<'t>(
    scope: &Scope,
    specs: Vec<SourceSpec>,
    texts: impl Iterator<Item = (u64, Cow<'t, str>, Option<String>)>,
    options: &BundleOptions,
) -> Result<EvidenceStore, BundleError> {
    let ids: Vec<String> = specs.iter().map(|s| s.source_id.clone()).collect();
    let mut store = EvidenceStore::with_policy(specs, options.policy.clone(), options.clock.clone())
        .map_err(|error| BundleError::Store { path: "/sources".into(), error })?;
    for (i, (id, (revision, content, fetched_at))) in ids.iter().zip(texts).enumerate() {
        store
            .restore_text(scope, id, content, revision, fetched_at)
            .map_err(|error| BundleError::Store { path: format!("/sources/{i}"), error })?;
    }
    Ok(store)
}

/// Checks a bundle: assess, and render when asked.
pub fn check_bundle(bundle: &Bundle, options: &BundleOptions) -> Result<BundleResult, BundleError> {
    let store = load_store(bundle, options)?;
    check_loaded(bundle, &store, options)
}

/// [`check_bundle`] on a bundle it may take apart: each source's text moves into the
/// store (normalised in place) instead of being copied. Same result.
pub fn check_bundle_owned(bundle: Bundle, options: &BundleOptions) -> Result<BundleResult, BundleError> {
    check_read(ReadBundle { bundle }, options)
}

/// A bundle read from JSON text for a check ([`read_for_check`]).
#[derive(Debug)]
pub struct ReadBundle {
    bundle: Bundle,
}

/// Reads a bundle's JSON text for [`check_read`]: what [`Contract::from_json_with`]
/// accepts and refuses, with the same errors.
pub fn read_for_check(text: &str, limits: &crate::contract::Limits) -> Result<ReadBundle, ContractError> {
    Bundle::from_json_with(text, limits).map(|bundle| ReadBundle { bundle })
}

/// [`check_bundle_owned`] of a bundle from [`read_for_check`]: each source's text moves
/// into the store (normalised in place), never copied.
pub fn check_read(read: ReadBundle, options: &BundleOptions) -> Result<BundleResult, BundleError> {
    let ReadBundle { mut bundle } = read;
    // Each source's spec, text and fetched_at move into the store (the specs are not copied).
    let (specs, texts): (Vec<_>, Vec<_>) = std::mem::take(&mut bundle.sources)
        .into_iter()
        .map(|s| (s.spec, (s.revision, Cow::Owned(s.content), s.fetched_at)))
        .unzip();
    let store = fill_store(&bundle.scope, specs, texts.into_iter(), options)?;
    check_loaded(&bundle, &store, options)
}

/// The assessment (and artifact) of a bundle whose sources are in `store`.
fn check_loaded(bundle: &Bundle, store: &EvidenceStore, options: &BundleOptions) -> Result<BundleResult, BundleError> {
    // One assessment serves both the result and the artifact.
    let check = CheckOptions { review_key: options.review_key.as_deref(), reviews: options.reviews, report_digest: None };
    let mut checked = check_detailed(&bundle.scope, &bundle.report, store, &bundle.reviews, check).map_err(|(k, detail)| match detail {
        Some(d) => BundleError::ReviewDetailed(k, d),
        None => BundleError::Review(k),
    })?;
    checked.assessment.localize(options.lang);
    unlocated_issues(bundle, &mut checked.assessment, options.lang);
    let (artifact, render_error) = if options.render {
        match render_checked_detailed(&bundle.report, &checked, &options.clock, options.escaping, options.lang) {
            Ok(a) => (Some(a), None),
            Err((k, detail)) => {
                let base = k.message_in(options.lang);
                let message = detail.as_ref().map_or_else(|| base.to_owned(), |d| d.message(base, options.lang));
                (None, Some(RenderIssue { code: k.code(), message, detail: detail.map(|d| *d) }))
            }
        }
    } else {
        (None, None)
    };
    Ok(BundleResult { assessment: checked.assessment, artifact, render_error })
}

/// The message of an unlocated quote's issue: what was not found, and where.
pub fn unlocated_message(code: &str, source_id: &str, lang: crate::error::Lang) -> String {
    use crate::error::Lang;
    match (code, lang) {
        ("quote_ambiguous", Lang::En) => format!("cited text is ambiguous in source {source_id}: it occurs more than once, so the citation was not located (give a prefix, suffix or occurrence)"),
        ("quote_ambiguous", Lang::Zh) => format!("来源 {source_id} 中引文出现多次,引用未能定位(请给出前后文或第几处)"),
        ("ref_unavailable", Lang::En) => format!("cited text not found in source {source_id}: the source has no current revision in this scope"),
        ("ref_unavailable", Lang::Zh) => format!("来源 {source_id} 中未找到引文:此范围内没有它的当前版本"),
        ("source_not_in_scope", Lang::En) => format!("cited text not found in source {source_id}: the catalogue has no such source"),
        ("source_not_in_scope", Lang::Zh) => format!("来源 {source_id} 中未找到引文:目录中没有这个来源"),
        ("source_not_ingested", Lang::En) => format!("cited text not found in source {source_id}: the source was never ingested in this scope"),
        ("source_not_ingested", Lang::Zh) => format!("来源 {source_id} 中未找到引文:此范围内从未摄入该来源"),
        ("source_removed", Lang::En) => format!("cited text not found in source {source_id}: the source was removed in this scope"),
        ("source_removed", Lang::Zh) => format!("来源 {source_id} 中未找到引文:此范围内该来源已被移除"),
        (_, Lang::En) => format!("cited text not found in source {source_id}: the citation was not located"),
        (_, Lang::Zh) => format!("来源 {source_id} 中未找到引文:引用未能定位"),
    }
}

/// Every unlocated quote that an import note keeps ([`ImportNote::code`]) is an issue
/// of its claim. It does not make the report invalid (the artifact still shows it, by
/// the gap `locate` wrote), but the report is at best `partial`.
fn unlocated_issues(bundle: &Bundle, assessment: &mut Assessment, lang: crate::error::Lang) {
    let mut any = false;
    for note in &bundle.import_notes {
        let (Some(code), Some(claim_id), Some(source_id)) = (&note.code, &note.claim_id, &note.source_id) else { continue };
        let Some(code) = note_rule::UNLOCATED.iter().map(|(c, _)| *c).find(|c| c == code) else { continue };
        any = true;
        assessment.issues.push(crate::assess::Issue {
            claim_id: claim_id.clone(),
            citation_id: note.citation_id.clone(),
            code,
            message: unlocated_message(code, source_id, lang),
            hint: None,
            detail: Some(Box::new(crate::error::Detail { source_id: Some(source_id.clone()), ..Default::default() })),
        });
    }
    if any && matches!(assessment.status, crate::assess::Status::NeedsReview | crate::assess::Status::ReviewedCandidate) {
        assessment.status = crate::assess::Status::Partial;
    }
}

// ---- a bundle whose texts come from elsewhere (`check --mcp`) ---------------------------

/// Parses and checks a bundle exactly as a check reads it (strict JSON: duplicate keys
/// and oversize input refused; the whole contract, unknown fields included); without
/// `require_contents`, see [`bundle_without_contents`].
pub fn parse_bundle(text: &str, limits: &crate::contract::Limits, require_contents: bool) -> Result<Bundle, ContractError> {
    if require_contents {
        Bundle::from_json_with(text, limits)
    } else {
        bundle_without_contents(text, limits)
    }
}

/// [`parse_bundle`], but each source may leave out `content`: for hosts that read the
/// texts elsewhere, as the CLI's `--mcp` does. An absent `content` reads as empty; a
/// present one is checked as usual.
pub fn bundle_without_contents(text: &str, limits: &crate::contract::Limits) -> Result<Bundle, ContractError> {
    let mut v = crate::json::parse_strict(text, limits.max_input_bytes, Bundle::SUBJECT)?;
    if let Some(sources) = v.get_mut("sources").and_then(Value::as_array_mut) {
        for source in sources.iter_mut().filter_map(Value::as_object_mut) {
            source.entry("content").or_insert_with(|| Value::String(String::new()));
        }
    }
    Bundle::from_value_with(&v, limits)
}

impl crate::error::Coded for BundleError {
    fn code(&self) -> &'static str {
        BundleError::code(self)
    }
    fn message(&self, lang: crate::error::Lang) -> String {
        use crate::error::Coded;
        match self {
            Self::Contract(c) => Coded::message(c, lang),
            Self::Store { path, error } => format!("{} ({path})", Coded::message(error, lang)),
            Self::Review(k) => format!("{} (/reviews)", k.message_in(lang)),
            Self::ReviewDetailed(k, d) => crate::assess::review_refusal_message(*k, d, lang),
        }
    }
    fn issues(&self, lang: crate::error::Lang) -> Option<(&'static str, Vec<crate::error::Violation>)> {
        match self {
            Self::Contract(c) => c.issues(lang),
            Self::Store { error, .. } => error.issues(lang),
            Self::Review(_) | Self::ReviewDetailed(..) => None,
        }
    }
    fn details(&self) -> Vec<(&'static str, Value)> {
        match self {
            Self::Store { error, .. } => error.details(),
            Self::ReviewDetailed(_, d) => serde_json::to_value(&**d).map(|v| vec![("detail", v)]).unwrap_or_default(),
            _ => Vec::new(),
        }
    }
}

// ---- a bundle given as UTF-8 bytes -----------------------------------------------------

/// The byte order mark that may open UTF-8 text: dropped, as `TextDecoder` drops it.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Bytes that are not UTF-8: the argument, and the offset of the first byte that does not
/// begin a valid character (counted in the bytes as given, a leading BOM included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotUtf8 {
    pub name: &'static str,
    pub offset: usize,
}

impl crate::error::Coded for NotUtf8 {
    fn code(&self) -> &'static str {
        "invalid_unicode"
    }
    fn message(&self, lang: crate::error::Lang) -> String {
        let NotUtf8 { name, offset } = self;
        match lang {
            crate::error::Lang::Zh => format!("{name} 不是合法的 UTF-8:第 {offset} 字节起不是一个完整的字符"),
            crate::error::Lang::En => format!("{name} is not valid UTF-8: the bytes from offset {offset} are not a character"),
        }
    }
    fn details(&self) -> Vec<(&'static str, Value)> {
        vec![("offset", Value::from(self.offset))]
    }
}

/// Refuses, before they are copied, `len` bytes of a bundle that cannot fit `limits` (more
/// than a BOM over `max_input_bytes`) or a 32-bit memory (over 4 GiB): too large, with the
/// hint to raise the limit, as text over it is refused.
pub fn admit_bytes(len: u64, limits: &Policy) -> Result<(), ContractError> {
    let max = u64::try_from(limits.max_input_bytes).unwrap_or(u64::MAX);
    if len > max.saturating_add(UTF8_BOM.len() as u64) || len > u64::from(u32::MAX) {
        return Err(bytes_too_large(len, limits));
    }
    Ok(())
}

fn bytes_too_large(len: u64, limits: &Policy) -> ContractError {
    crate::contract::with_raise_hints(crate::json::input_too_large(len, limits.max_input_bytes, Bundle::SUBJECT), limits)
}

/// Why a bundle's bytes were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BytesRefused {
    /// Over `max_input_bytes`, a leading BOM not counted.
    TooLarge(ContractError),
    /// Not UTF-8.
    NotUtf8(NotUtf8),
}

impl BytesRefused {
    fn inner(&self) -> &dyn crate::error::Coded {
        match self {
            BytesRefused::TooLarge(e) => e,
            BytesRefused::NotUtf8(e) => e,
        }
    }
}

/// Each variant's own error, as it is.
impl crate::error::Coded for BytesRefused {
    fn code(&self) -> &'static str {
        self.inner().code()
    }
    fn message(&self, lang: crate::error::Lang) -> String {
        self.inner().message(lang)
    }
    fn issues(&self, lang: crate::error::Lang) -> Option<(&'static str, Vec<crate::error::Violation>)> {
        self.inner().issues(lang)
    }
    fn message_and_issues(&self, lang: crate::error::Lang) -> (String, Option<(&'static str, Vec<crate::error::Violation>)>) {
        self.inner().message_and_issues(lang)
    }
    fn details(&self) -> Vec<(&'static str, Value)> {
        self.inner().details()
    }
}

/// The JSON text of a bundle given as UTF-8 bytes, as `TextDecoder("utf-8", { fatal: true
/// })` reads them: a leading BOM dropped, then more than `max_input_bytes` refused as too
/// large, invalid bytes refused with the offset of the first (counted with the BOM).
pub fn bytes_text(mut bytes: Vec<u8>, limits: &Policy) -> Result<String, BytesRefused> {
    let bom = if bytes.starts_with(UTF8_BOM) { UTF8_BOM.len() } else { 0 };
    bytes.drain(..bom);
    if bytes.len() > limits.max_input_bytes {
        return Err(BytesRefused::TooLarge(bytes_too_large(bytes.len() as u64, limits)));
    }
    utf8_text(bytes, bom, "bundle").map_err(BytesRefused::NotUtf8)
}

/// The text of UTF-8 `bytes` that followed `skipped` bytes (a BOM the caller dropped), as
/// `TextDecoder("utf-8", { fatal: true })` reads them: invalid bytes are refused, never
/// replaced; the error's offset counts the skipped bytes too. No copy: the text is the
/// bytes' own buffer.
pub fn utf8_text(bytes: Vec<u8>, skipped: usize, name: &'static str) -> Result<String, NotUtf8> {
    String::from_utf8(bytes).map_err(|e| NotUtf8 { name, offset: skipped + e.utf8_error().valid_up_to() })
}

// ---- what an importer recorded ---------------------------------------------------------

/// The rules of an import note's fields (see [`crate::contract::rule`]).
pub mod note_rule {
    use crate::rules::{sized, StrRule};

    pub const IMPORTERS: [(&str, &str); 7] = [
        ("anthropic", "anthropic"),
        ("locate", "locate"),
        ("bedrock", "bedrock"),
        ("openai", "openai"),
        ("gemini", "gemini"),
        ("vercel", "vercel"),
        ("langchain", "langchain"),
    ];
    pub const UNITS: [(&str, &str); 7] = [
        ("code_point", "code_point"),
        ("utf16", "utf16"),
        ("block", "block"),
        ("unmatched", "unmatched"),
        ("page", "page"),
        ("chunk", "chunk"),
        ("quote", "quote"),
    ];
    pub const WHITESPACE: [(&str, &str); 2] = [("exact", "exact"), ("loose", "loose")];
    /// Why a quote was not located (an unlocated citation's note).
    pub const UNLOCATED: [(&str, &str); 6] = [
        ("quote_not_found", "quote_not_found"),
        ("quote_ambiguous", "quote_ambiguous"),
        ("source_not_in_scope", "source_not_in_scope"),
        ("source_not_ingested", "source_not_ingested"),
        ("source_removed", "source_removed"),
        ("ref_unavailable", "ref_unavailable"),
    ];
    pub const SEPARATOR: StrRule = sized(0, 16);

    /// A note names exactly one citation or one source.
    pub fn names_one(citation_id: bool, source_id: bool) -> bool {
        citation_id != source_id
    }
}

/// What an importer did for one citation or one source of a bundle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(optional_fields))]
pub struct ImportNote {
    /// `anthropic`, `locate`, `bedrock`, `openai`, `gemini`, `vercel` or `langchain`.
    #[cfg_attr(test, ts(type = "\"anthropic\" | \"locate\" | \"bedrock\" | \"openai\" | \"gemini\" | \"vercel\" | \"langchain\""))]
    pub importer: String,
    /// The citation the note is about (or `source_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_id: Option<String>,
    /// The source the note is about (or `citation_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_id: Option<String>,
    /// Anthropic: the document's index in the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_index: Option<u64>,
    /// Anthropic, Bedrock: the unit in which the model's range held its cited text
    /// (`code_point`, `utf16`, `block` for content documents), or `unmatched`; a quote
    /// located in a page, a chunk or the whole snapshot: `page`, `chunk`, `quote`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional, type = "\"code_point\" | \"utf16\" | \"block\" | \"unmatched\" | \"page\" | \"chunk\" | \"quote\""))]
    pub unit: Option<String>,
    /// Anthropic content documents: the separator the blocks were joined with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separator: Option<String>,
    /// Quote-only citations: `exact`, or `loose` when located whitespace-insensitively.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional, type = "Whitespace"))]
    pub whitespace: Option<String>,
    /// An unlocated quote: the claim whose citation it was (with `source_id`, `code`,
    /// `quote`, and `citation_id` when the draft gave one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_id: Option<String>,
    /// An unlocated quote: why (`quote_not_found`, `quote_ambiguous`, `source_not_in_scope`,
    /// `source_not_ingested`, `source_removed`, `ref_unavailable`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional, type = "\"quote_not_found\" | \"quote_ambiguous\" | \"source_not_in_scope\" | \"source_not_ingested\" | \"source_removed\" | \"ref_unavailable\""))]
    pub code: Option<String>,
    /// An unlocated quote: the draft's quote, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
}

impl ImportNote {
    pub(crate) const FIELDS: &'static [&'static str] = &["importer", "citation_id", "source_id", "document_index", "unit", "separator", "whitespace", "claim_id", "code", "quote"];
}

impl Contract for ImportNote {
    const SUBJECT: &'static str = "import_note";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let importer = c.literal_field(m, path, "importer", &note_rule::IMPORTERS);
        let id = |c: &mut Checker, key: &str| m.get(key).map(|v| c.string(v, &join(path, key), &IDENTIFIER));
        let citation_id = id(c, "citation_id");
        let source_id = id(c, "source_id");
        let document_index = m.get("document_index").map(|v| c.int(v, &join(path, "document_index"), 0));
        let unit = m.get("unit").map(|v| c.literal(v, &join(path, "unit"), &note_rule::UNITS));
        let separator = m.get("separator").map(|v| c.string(v, &join(path, "separator"), &note_rule::SEPARATOR));
        let whitespace = m.get("whitespace").map(|v| c.literal(v, &join(path, "whitespace"), &note_rule::WHITESPACE));
        let claim_id = id(c, "claim_id");
        let code = m.get("code").map(|v| c.literal(v, &join(path, "code"), &note_rule::UNLOCATED));
        let quote = m.get("quote").map(|v| c.string(v, &join(path, "quote"), &ANY_STRING));
        if code.is_some() || claim_id.is_some() || quote.is_some() {
            // An unlocated quote names its claim, its source and why.
            if !(code.is_some() && claim_id.is_some() && source_id.is_some()) {
                c.push(path, crate::error::ViolationCode::Missing, "an import note of an unlocated quote names its claim_id, source_id and code");
            }
        } else if !note_rule::names_one(citation_id.is_some(), source_id.is_some()) {
            c.push(path, crate::error::ViolationCode::Missing, "an import note names exactly one citation_id or source_id");
        }
        if c.count() != before {
            return None;
        }
        Some(ImportNote {
            importer: importer?.to_owned(),
            citation_id: citation_id.flatten(),
            source_id: source_id.flatten(),
            document_index: document_index.flatten(),
            unit: unit.flatten().map(str::to_owned),
            separator: separator.flatten(),
            whitespace: whitespace.flatten().map(str::to_owned),
            claim_id: claim_id.flatten(),
            code: code.flatten().map(str::to_owned),
            quote: quote.flatten(),
        })
    }
}
