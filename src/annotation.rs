//! W3C Web Annotation export and import of citations: each valid citation becomes an
//! annotation whose target is the source's locator with a `TextQuoteSelector` (exact
//! quote, up to 32 code points of context either side) and a `TextPositionSelector`
//! (code points, as the Web Annotation model counts them), and whose `state` records the
//! revision and digest the passage was checked against.
//!
//! What is exported is valid under the "must" JSON Schemas of the W3C's
//! web-annotation-tests: the state has an `id` (a `urn:` naming the source, revision and
//! digest), and a locator that is not an IRI (`"Spec, section 3"`) is kept in
//! `target.locator` while `target.source` is the `urn:` of the source id.

use serde_json::{json, Map, Value};

use crate::assess::check;
use crate::contract::Checker;
use crate::contract::{Citation, Contract, Report, Scope};
use crate::error::{Coded, ContractError, Lang, ViolationCode};
use crate::json::{join, join_index};
use crate::store::locate::{locate, LocateError, LocateOptions, Selector, Whitespace};
use crate::review::ReviewErrorKind;
use crate::store::StoreError;
use crate::store::EvidenceStore;

/// How many code points of context a `TextQuoteSelector` carries on each side.
pub const CONTEXT: usize = 32;
/// The prefix of an annotation id made from a citation id.
pub const ID_PREFIX: &str = "urn:evidence-check:citation:";
/// The prefix of a target's `source` for a source whose locator is not an IRI.
pub const SOURCE_PREFIX: &str = "urn:evidence-check:source:";
/// The prefix of a revision state's `id`.
pub const REVISION_PREFIX: &str = "urn:evidence-check:revision:";

/// `s` with every byte that is not an RFC 3986 unreserved character percent-encoded.
fn pct(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Whether `s` is an absolute URI as RFC 3986 writes it (a scheme, then only URI
/// characters and well-formed percent escapes): what the schemas' `format: uri` takes.
pub fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else { return false };
    let mut chars = scheme.chars();
    if !chars.next().is_some_and(|c| c.is_ascii_alphabetic()) || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) || rest.is_empty() {
        return false;
    }
    let b = rest.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)) {
                return false;
            }
            i += 3;
            continue;
        }
        if !(c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c)) {
            return false;
        }
        i += 1;
    }
    true
}

/// The `id` of the revision state of a citation's source.
pub fn revision_id(source_id: &str, revision: u64, digest: &str) -> String {
    format!("{REVISION_PREFIX}{}:{revision}:sha256:{digest}", pct(source_id))
}

fn context() -> Value {
    json!([
        "http://www.w3.org/ns/anno.jsonld",
        {
            "SourceRevision": "urn:evidence-check:SourceRevision",
            "source_id": "urn:evidence-check:source_id",
            "revision": "urn:evidence-check:revision",
            "digest": "urn:evidence-check:digest",
            "locator": "urn:evidence-check:locator"
        }
    ])
}

/// One annotation per valid citation (first-seen order), its body the texts of the
/// claims that cite it. Invalid citations are not exported.
pub fn to_web_annotations(scope: &Scope, report: &Report, store: &EvidenceStore) -> Result<Vec<Value>, ReviewErrorKind> {
    let checked = check(scope, report, store, &[])?;
    let mut out = Vec::with_capacity(checked.citations.len());
    for (citation, snapshot) in &checked.citations {
        let (start, end) = (usize::try_from(citation.start).unwrap_or(0), usize::try_from(citation.end).unwrap_or(0));
        let text = &snapshot.content;
        let prefix = snapshot.index.slice(text, start.saturating_sub(CONTEXT), start).unwrap_or("");
        let suffix = snapshot.index.slice(text, end, (end + CONTEXT).min(snapshot.index.chars())).unwrap_or("");
        let bodies: Vec<Value> = report
            .claims
            .iter()
            .filter(|c| c.citations.iter().any(|x| x.citation_id == citation.citation_id))
            .map(|c| json!({"type": "TextualBody", "value": c.text, "format": "text/plain", "purpose": "describing"}))
            .collect();
        let locator = &snapshot.spec.locator;
        let mut target = json!({
            "source": locator,
            "selector": [
                {"type": "TextQuoteSelector", "exact": citation.quote, "prefix": prefix, "suffix": suffix},
                {"type": "TextPositionSelector", "start": citation.start, "end": citation.end}
            ],
            "state": {
                "id": revision_id(&citation.source_ref.source_id, citation.source_ref.revision, &citation.source_ref.digest),
                "type": "SourceRevision",
                "source_id": citation.source_ref.source_id,
                "revision": citation.source_ref.revision,
                "digest": citation.source_ref.digest
            }
        });
        if !is_uri(locator) {
            if let Some(t) = target.as_object_mut() {
                t.insert("source".into(), Value::String(format!("{SOURCE_PREFIX}{}", pct(&citation.source_ref.source_id))));
                t.insert("locator".into(), Value::String(locator.clone()));
            }
        }
        out.push(json!({
            "@context": context(),
            "id": format!("{ID_PREFIX}{}", citation.citation_id),
            "type": "Annotation",
            "motivation": "describing",
            "body": bodies,
            "target": target
        }));
    }
    Ok(out)
}

// ---- reading an annotation back -----------------------------------------------------
//
// The W3C Web Annotation Data Model (https://www.w3.org/TR/annotation-model/):
// - §4.2 Selectors: a Specific Resource may have several selectors; they "SHOULD select
//   the same content", and a consumer "MUST pick one of the described segments, if they
//   are different". A citation needs one segment, so different ones are refused
//   (`selector_conflict`), never settled by order.
// - §4.2.9 Refinement of Selection: `refinedBy` is "the more specific selector that
//   SHOULD be applied to the results of the first"; several are "alternatives that will
//   result in the same selection". A refinement is applied within its parent's segment,
//   or refused (`refinement_unsupported`), never ignored.

/// How many selectors (with their refinements) one target may have: each costs at most a
/// search of the source.
pub const MAX_SELECTORS: usize = 16;

/// Why a `refinedBy` could not be applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefinementReason {
    /// The parent is a selector this library does not evaluate (a FragmentSelector, a
    /// CssSelector, a RangeSelector…): there is no segment to refine.
    ParentNotEvaluated,
    /// The refinement is not a TextQuoteSelector or a TextPositionSelector.
    RefinementNotEvaluated,
    /// The annotation has a `SourceRevision` state: it is read as written, its position
    /// being the citation's range.
    ReadAsWritten,
}

/// Why an annotation could not be read into a citation.
#[derive(Debug)]
pub enum AnnotationError {
    /// The annotation breaks its contract (a missing selector, a wrong type).
    Contract(ContractError),
    /// Its quote could not be located, or its source has no current revision.
    Store(StoreError),
    /// `target.state.source_id` names one source and the target's `source` or `locator`
    /// another. `locator` is the catalogue's locator of the state's source, when known.
    SourceConflict { state_source_id: String, field: &'static str, value: String, locator: Option<String> },
    /// Two selectors of one target (or two alternatives of one `refinedBy`) select
    /// different segments: their JSON paths, and what each selects.
    SelectorConflict { paths: [String; 2], selected: [String; 2] },
    /// A `refinedBy` at `path` that cannot be applied within its parent.
    RefinementUnsupported { path: String, selector: String, refinement: String, reason: RefinementReason },
}

impl AnnotationError {
    pub const SOURCE_CONFLICT: &'static str = "annotation_source_conflict";
    pub const SELECTOR_CONFLICT: &'static str = "selector_conflict";
    pub const REFINEMENT_UNSUPPORTED: &'static str = "refinement_unsupported";
    /// The codes it raises besides a contract's and the store's.
    pub const CODES: &'static [&'static str] = &[Self::SOURCE_CONFLICT, Self::SELECTOR_CONFLICT, Self::REFINEMENT_UNSUPPORTED];

    /// The broken contract, if that is the error.
    pub fn contract(&self) -> Option<&ContractError> {
        match self {
            Self::Contract(c) | Self::Store(StoreError::Contract(c)) => Some(c),
            _ => None,
        }
    }
}

impl From<ContractError> for AnnotationError {
    fn from(e: ContractError) -> Self {
        Self::Contract(e)
    }
}
impl From<StoreError> for AnnotationError {
    fn from(e: StoreError) -> Self {
        Self::Store(e)
    }
}
impl From<crate::store::locate::LocateError> for AnnotationError {
    fn from(e: crate::store::locate::LocateError) -> Self {
        Self::Store(StoreError::Locate(e))
    }
}

impl Coded for AnnotationError {
    fn code(&self) -> &'static str {
        match self {
            Self::Contract(c) => c.code(),
            Self::Store(e) => e.code(),
            Self::SourceConflict { .. } => Self::SOURCE_CONFLICT,
            Self::SelectorConflict { .. } => Self::SELECTOR_CONFLICT,
            Self::RefinementUnsupported { .. } => Self::REFINEMENT_UNSUPPORTED,
        }
    }
    fn message(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Self::Contract(c) => Coded::message(c, lang),
            Self::Store(e) => Coded::message(e, lang),
            Self::SourceConflict { state_source_id, field, value, locator } => {
                let known = match (locator, zh) {
                    (Some(l), false) => format!(" (source {state_source_id}'s locator is {l:?})"),
                    (Some(l), true) => format!("(来源 {state_source_id} 的 locator 是 {l:?})"),
                    (None, _) => String::new(),
                };
                if zh {
                    format!("标注的 target.state.source_id 是 {state_source_id:?},而 target.{field} 是 {value:?},指向另一个来源{known}")
                } else {
                    format!("the annotation's target.state.source_id is {state_source_id:?} but its target.{field} is {value:?}, which names another source{known}")
                }
            }
            Self::SelectorConflict { paths: [a, b], selected: [sa, sb] } => {
                if zh {
                    format!("同一目标的两个选择器选中了不同的片段:{a} 选中 {sa},{b} 选中 {sb}")
                } else {
                    format!("two selectors of one target select different segments: {a} selects {sa}, {b} selects {sb}")
                }
            }
            Self::RefinementUnsupported { path, selector, refinement, reason } => {
                let why = match (reason, zh) {
                    (RefinementReason::ParentNotEvaluated, false) => format!("a {selector} is not evaluated here, so there is no segment to refine"),
                    (RefinementReason::ParentNotEvaluated, true) => format!("此处不解析 {selector},没有可细化的片段"),
                    (RefinementReason::RefinementNotEvaluated, false) => format!("only a TextQuoteSelector or a TextPositionSelector can be applied within a text segment, not a {refinement}"),
                    (RefinementReason::RefinementNotEvaluated, true) => format!("文本片段内只能应用 TextQuoteSelector 或 TextPositionSelector,不能应用 {refinement}"),
                    (RefinementReason::ReadAsWritten, false) => "an annotation with a SourceRevision state is read as written: its position is the citation's range".to_owned(),
                    (RefinementReason::ReadAsWritten, true) => "带 SourceRevision 状态的标注按原样读取:它的位置就是引用的区间".to_owned(),
                };
                if zh {
                    format!("{path} 的 refinedBy({refinement} 细化 {selector})无法应用:{why}")
                } else {
                    format!("the refinedBy at {path} ({refinement} within {selector}) cannot be applied: {why}")
                }
            }
        }
    }
    fn issues(&self, lang: Lang) -> Option<(&'static str, Vec<crate::error::Violation>)> {
        match self {
            Self::Contract(c) => c.issues(lang),
            Self::Store(e) => e.issues(lang),
            _ => None,
        }
    }
    fn details(&self) -> Vec<(&'static str, Value)> {
        match self {
            Self::Contract(_) => Vec::new(),
            Self::Store(e) => e.details(),
            Self::SourceConflict { state_source_id, field, value, locator } => {
                vec![("stateSourceId", json!(state_source_id)), ("field", json!(field)), ("value", json!(value)), ("locator", json!(locator))]
            }
            Self::SelectorConflict { paths, selected } => vec![("paths", json!(paths)), ("selected", json!(selected))],
            Self::RefinementUnsupported { path, selector, refinement, .. } => vec![("path", json!(path)), ("selector", json!(selector)), ("refinement", json!(refinement))],
        }
    }
}

/// A selector and its JSON Pointer.
type Pointed<'v> = (String, &'v Map<String, Value>);

/// A target's selectors (one object or a list) and the path of each.
fn selectors_at<'v>(v: Option<&'v Value>, path: &str) -> Vec<Pointed<'v>> {
    match v {
        Some(Value::Array(a)) => a.iter().enumerate().filter_map(|(i, s)| Some((join_index(path, i), s.as_object()?))).collect(),
        Some(Value::Object(one)) => vec![(path.to_owned(), one)],
        _ => Vec::new(),
    }
}

fn kind_of(s: &Map<String, Value>) -> &str {
    s.get("type").and_then(Value::as_str).unwrap_or("")
}

/// A selector's refinements (`refinedBy`: one selector or a list of alternatives).
fn refinements<'v>(s: &'v Map<String, Value>, path: &str) -> Vec<Pointed<'v>> {
    selectors_at(s.get("refinedBy"), &join(path, "refinedBy"))
}

/// Refuses a target with more than [`MAX_SELECTORS`] selectors, refinements included.
fn check_count(selectors: &[Pointed<'_>], path: &str) -> Result<(), AnnotationError> {
    fn count(s: &Map<String, Value>, path: &str, budget: &mut usize) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        refinements(s, path).iter().all(|(p, r)| count(r, p, budget))
    }
    let mut budget = MAX_SELECTORS;
    if selectors.iter().all(|(p, s)| count(s, p, &mut budget)) {
        return Ok(());
    }
    let v = crate::error::Violation { path: path.to_owned(), code: ViolationCode::TooLong, message: format!("a target may have at most {MAX_SELECTORS} selectors, refinements included") };
    Err(ContractError { subject: "web_annotation", violations: vec![v] }.into())
}

/// The first `refinedBy` among `selectors` (and their refinements), with its parent's type.
fn first_refinement<'v>(selectors: &[Pointed<'v>]) -> Option<(Pointed<'v>, &'v Map<String, Value>)> {
    selectors.iter().find_map(|(p, s)| refinements(s, p).into_iter().next().map(|r| (r, *s)))
}

fn unsupported(path: String, parent: &Map<String, Value>, refinement: &Map<String, Value>, reason: RefinementReason) -> AnnotationError {
    AnnotationError::RefinementUnsupported { path, selector: kind_of(parent).to_owned(), refinement: kind_of(refinement).to_owned(), reason }
}

/// The one selector of `kind` among `selectors`: several must agree on `key`.
fn agreeing<'v>(selectors: &[Pointed<'v>], kind: &str, key: impl Fn(&Map<String, Value>) -> Value) -> Result<Option<&'v Map<String, Value>>, AnnotationError> {
    let mut of_kind = selectors.iter().filter(|(_, s)| kind_of(s) == kind);
    let Some((first_path, first)) = of_kind.next() else { return Ok(None) };
    if let Some((path, other)) = of_kind.find(|(_, s)| key(s) != key(first)) {
        let describe = |s: &Map<String, Value>| format!("{kind} {}", key(s));
        return Err(AnnotationError::SelectorConflict { paths: [first_path.clone(), path.clone()], selected: [describe(first), describe(other)] });
    }
    Ok(Some(first))
}

/// Refuses a `state.source_id` that names another source than the target's `source` (a
/// [`SOURCE_PREFIX`] urn, or with a store its catalogue locator) or `locator`.
fn check_source(target: &Map<String, Value>, store: Option<&EvidenceStore>) -> Result<(), AnnotationError> {
    let Some(state_id) = target.get("state").and_then(|s| s.get("source_id")).and_then(Value::as_str) else { return Ok(()) };
    let spec = store.and_then(|st| st.spec(state_id));
    let conflict = |field: &'static str, value: &str| AnnotationError::SourceConflict {
        state_source_id: state_id.to_owned(),
        field,
        value: value.to_owned(),
        locator: spec.map(|s| s.locator.clone()),
    };
    let named_elsewhere = |value: &str| store.is_some_and(|st| st.specs().any(|s| s.locator == value && s.source_id != state_id));
    if let Some(source) = target.get("source").and_then(Value::as_str) {
        let agrees = match source.strip_prefix(SOURCE_PREFIX) {
            Some(id) => unpct(id).as_deref() == Some(state_id),
            None => spec.map_or(!named_elsewhere(source), |s| s.locator == source),
        };
        if !agrees {
            return Err(conflict("source", source));
        }
    }
    if let Some(locator) = target.get("locator").and_then(Value::as_str) {
        if !spec.map_or(!named_elsewhere(locator), |s| s.locator == locator) {
            return Err(conflict("locator", locator));
        }
    }
    Ok(())
}

/// Turns an annotation made by [`to_web_annotations`] back into its citation; the
/// citation's contract applies to what comes out. Several quote or position selectors
/// must agree; a `refinedBy` is refused (the annotation is read as written); a
/// `state.source_id` that a [`SOURCE_PREFIX`] source contradicts is refused.
pub fn from_web_annotation(v: &Value) -> Result<Citation, AnnotationError> {
    read_as_written(v, None)
}

/// [`from_web_annotation`]; with a store, the state's source is also checked against the
/// catalogue's locators.
fn read_as_written(v: &Value, store: Option<&EvidenceStore>) -> Result<Citation, AnnotationError> {
    let mut c = Checker::default();
    let fail = |c: Checker| ContractError { subject: "web_annotation", violations: c.violations };
    let id = v.get("id").and_then(Value::as_str).and_then(|id| id.strip_prefix(ID_PREFIX));
    if id.is_none() {
        c.push("/id", ViolationCode::PatternMismatch, format!("the id must start with {ID_PREFIX}"));
    }
    let Some(target) = v.get("target").and_then(Value::as_object) else {
        c.push("/target", ViolationCode::Missing, "an annotation needs a target object");
        return Err(fail(c).into());
    };
    let selectors = selectors_at(target.get("selector"), "/target/selector");
    check_count(&selectors, "/target/selector")?;
    check_source(target, store)?;
    if let Some(((path, refinement), parent)) = first_refinement(&selectors) {
        return Err(unsupported(path, parent, refinement, RefinementReason::ReadAsWritten));
    }
    let quote = agreeing(&selectors, "TextQuoteSelector", |s| s.get("exact").cloned().unwrap_or(Value::Null))?;
    let position = agreeing(&selectors, "TextPositionSelector", |s| json!([s.get("start"), s.get("end")]))?;
    if quote.is_none() {
        c.push("/target/selector", ViolationCode::Missing, "a TextQuoteSelector is required");
    }
    if position.is_none() {
        c.push("/target/selector", ViolationCode::Missing, "a TextPositionSelector is required");
    }
    let state = target.get("state").and_then(Value::as_object).filter(|s| s.get("type").and_then(Value::as_str) == Some("SourceRevision"));
    if state.is_none() {
        c.push("/target/state", ViolationCode::Missing, "a SourceRevision state (source_id, revision, digest) is required");
    }
    let (Some(id), Some(quote), Some(position), Some(state)) = (id, quote, position, state) else { return Err(fail(c).into()) };
    let citation = json!({
        "citation_id": id,
        "ref": {"source_id": state.get("source_id"), "revision": state.get("revision"), "digest": state.get("digest")},
        "start": position.get("start"),
        "end": position.get("end"),
        "quote": quote.get("exact"),
    });
    // Violations name the citation the annotation describes (`/citation/start`, …).
    Citation::from_value(&citation).map_err(|e| {
        let violations = e
            .violations
            .into_iter()
            .map(|mut v| {
                v.path = format!("/citation{}", v.path);
                v
            })
            .collect();
        ContractError { subject: "web_annotation", violations }.into()
    })
}

/// The source an annotation's target names: its `state.source_id`; the source id of a
/// [`SOURCE_PREFIX`] `source`; or else the one catalogue entry whose locator is the
/// target's `locator` or `source` ([`check_source`] has refused a target that names two).
fn target_source(target: &Map<String, Value>, store: &EvidenceStore) -> Option<String> {
    if let Some(id) = target.get("state").and_then(|s| s.get("source_id")).and_then(Value::as_str) {
        return Some(id.to_owned());
    }
    let source = target.get("source").and_then(Value::as_str);
    if let Some(id) = source.and_then(|s| s.strip_prefix(SOURCE_PREFIX)).and_then(unpct) {
        if store.specs().any(|s| s.source_id == id) {
            return Some(id);
        }
    }
    let locator = target.get("locator").and_then(Value::as_str).or(source)?;
    let mut found = store.specs().filter(|s| s.locator == locator);
    match (found.next(), found.next()) {
        (Some(one), None) => Some(one.source_id.clone()),
        _ => None,
    }
}

/// The inverse of [`pct`], when the result is UTF-8.
fn unpct(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The annotation's one target object and its path (Hypothesis sends a list of one).
fn target_of(v: &Value) -> Option<(String, &Map<String, Value>)> {
    match v.get("target")? {
        Value::Object(t) => Some(("/target".to_owned(), t)),
        Value::Array(a) => a.iter().enumerate().find_map(|(i, t)| Some((join_index("/target", i), t.as_object().filter(|t| t.contains_key("selector"))?))),
        _ => None,
    }
}

/// How many occurrences a position may choose among.
pub const MAX_CHOICES: usize = 1000;

/// A code-point range of the source's text.
type Range = (usize, usize);

/// The source's current snapshot and how quotes are located in it.
struct Source<'s> {
    id: String,
    snapshot: &'s crate::store::Snapshot,
    options: LocateOptions,
}

impl Source<'_> {
    fn text(&self, (s, e): Range) -> Option<&str> {
        self.snapshot.index.slice(&self.snapshot.content, s, e)
    }
    fn chars(&self) -> usize {
        self.snapshot.index.chars()
    }
}

/// A TextQuoteSelector's exact text and context, or a contract error at `path`.
fn quote_selector(s: &Map<String, Value>, path: &str) -> Result<Selector, AnnotationError> {
    let text = |key: &str| s.get(key).and_then(Value::as_str).map(str::to_owned);
    let Some(exact) = text("exact") else {
        let v = crate::error::Violation { path: path.to_owned(), code: ViolationCode::Missing, message: "a TextQuoteSelector needs its exact text".into() };
        return Err(ContractError { subject: "web_annotation", violations: vec![v] }.into());
    };
    Ok(Selector { exact, prefix: text("prefix"), suffix: text("suffix"), occurrence: None })
}

/// A TextPositionSelector's `[start, end)`, if it is a non-empty range of `len` code points.
fn position_range(s: &Map<String, Value>, len: usize) -> Option<Range> {
    let at = |k: &str| s.get(k).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok());
    let (start, end) = (at("start")?, at("end")?);
    (start < end && end <= len).then_some((start, end))
}

/// Locates a quote in the whole text; when it stays ambiguous, a position's `start`
/// (`hint`) chooses the nearest occurrence (a tie stays ambiguous).
fn locate_top(src: &Source<'_>, mut selector: Selector, hint: Option<usize>) -> Result<Range, AnnotationError> {
    let find = |sel: &Selector| locate(&src.id, &src.snapshot.index, &src.snapshot.content, sel, src.options);
    let (count, at) = match (find(&selector), hint) {
        (Ok(l), _) => return Ok((l.start, l.end)),
        (Err(LocateError::Ambiguous { count, .. }), Some(at)) if count <= MAX_CHOICES => (count, at),
        (Err(e), _) => return Err(e.into()),
    };
    let mut best: Option<(usize, usize, bool)> = None; // (distance, occurrence, tied)
    for n in 1..=count {
        selector.occurrence = Some(n);
        let Ok(l) = find(&selector) else { continue };
        let d = l.start.abs_diff(at);
        best = match best {
            Some((bd, _, _)) if d < bd => Some((d, n, false)),
            Some((bd, bn, _)) if d == bd => Some((bd, bn, true)),
            None => Some((d, n, false)),
            keep => keep,
        };
    }
    selector.occurrence = match best {
        Some((_, n, false)) => Some(n),
        _ => None,
    };
    let l = find(&selector)?;
    Ok((l.start, l.end))
}

/// Applies `sel`'s refinements within `within`, its own segment: each alternative is
/// applied to the segment's text (a quote located in it, a position counted from its
/// start), refined in turn, and all must select the same segment.
fn refine(src: &Source<'_>, sel: &Map<String, Value>, path: &str, within: Range) -> Result<Range, AnnotationError> {
    let mut chosen: Option<(String, Range)> = None;
    for (rpath, r) in refinements(sel, path) {
        let (ws, we) = within;
        let segment = src.text(within).unwrap_or_default();
        let range = match kind_of(r) {
            "TextQuoteSelector" => {
                let index = crate::citation::TextIndex::new(segment);
                let shift = |(s, e): (usize, usize)| (s + ws, e + ws);
                match locate(&src.id, &index, segment, &quote_selector(r, &rpath)?, src.options) {
                    Ok(l) => shift((l.start, l.end)),
                    Err(LocateError::Ambiguous { source_id, count, ranges }) => {
                        return Err(LocateError::Ambiguous { source_id, count, ranges: ranges.into_iter().map(shift).collect() }.into());
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            "TextPositionSelector" => match position_range(r, we - ws) {
                Some((s, e)) => (s + ws, e + ws),
                None => {
                    let message = format!("a refining TextPositionSelector must be a non-empty range within its parent's segment of {} code points", we - ws);
                    let v = crate::error::Violation { path: rpath, code: ViolationCode::NotAllowed, message };
                    return Err(ContractError { subject: "web_annotation", violations: vec![v] }.into());
                }
            },
            _ => return Err(unsupported(rpath, sel, r, RefinementReason::RefinementNotEvaluated)),
        };
        let range = refine(src, r, &rpath, range)?;
        match &chosen {
            Some((first, r0)) if *r0 != range => return Err(conflict(src, [first.clone(), rpath], [*r0, range])),
            Some(_) => {}
            None => chosen = Some((rpath, range)),
        }
    }
    Ok(chosen.map_or(within, |(_, r)| r))
}

fn conflict(src: &Source<'_>, paths: [String; 2], [a, b]: [Range; 2]) -> AnnotationError {
    let describe = |r: Range| format!("[{}, {}) {:?}", r.0, r.1, src.text(r).map(|t| t.chars().take(40).collect::<String>()).unwrap_or_default());
    AnnotationError::SelectorConflict { paths, selected: [describe(a), describe(b)] }
}

/// [`from_web_annotation`] for an annotation made by [`to_web_annotations`] (it has a
/// `SourceRevision` state and a `TextPositionSelector`), its state's source checked
/// against the catalogue. Any other annotation with a `TextQuoteSelector` (`exact`,
/// optional `prefix` / `suffix`; Hypothesis's Range + TextPosition + TextQuote shape
/// among them) is taken quote-first: the quote with its context is located by the one
/// locator in the current revision of its source (named by `state.source_id`, by a
/// [`SOURCE_PREFIX`] source, or by the target's `locator` or `source` matching one
/// catalogue locator; a state that names another source than these is refused). The
/// selector list is read as the W3C model defines it (see above): every selector
/// evaluated (a quote, a refined position) must select the same segment, and a
/// `refinedBy` is applied within its parent's segment or refused. A plain
/// `TextPositionSelector` may count another text (Hypothesis counts UTF-16 units of the
/// page): it only chooses among the occurrences that remain (the one nearest its
/// `start`; a tie stays ambiguous), never trusted alone, but one that selects the same
/// text elsewhere (in code points, and not in UTF-16 units either) is a conflict. A
/// RangeSelector (DOM paths) or another selector this library does not evaluate is an
/// alternative left unused, unless it is refined (refused). Absent → `quote_not_found`,
/// ambiguous → `quote_ambiguous`. The citation id is the annotation id without
/// [`ID_PREFIX`], or `annotation` for a foreign id.
pub fn from_web_annotation_in(v: &Value, scope: &Scope, store: &EvidenceStore, whitespace: Whitespace) -> Result<Citation, AnnotationError> {
    let Some((target_path, target)) = target_of(v) else { return read_as_written(v, Some(store)) };
    let selectors_path = join(&target_path, "selector");
    let selectors = selectors_at(target.get("selector"), &selectors_path);
    check_count(&selectors, &selectors_path)?;
    check_source(target, Some(store))?;
    // Our own: a SourceRevision state and a position, which are checked, not located.
    let own = target.get("state").and_then(|s| s.get("type")).and_then(Value::as_str) == Some("SourceRevision") && selectors.iter().any(|(_, s)| kind_of(s) == "TextPositionSelector");
    let evaluated = |s: &Map<String, Value>| kind_of(s) == "TextQuoteSelector" || (kind_of(s) == "TextPositionSelector" && s.contains_key("refinedBy"));
    for (path, s) in &selectors {
        if !matches!(kind_of(s), "TextQuoteSelector" | "TextPositionSelector") {
            if let Some((rpath, r)) = refinements(s, path).into_iter().next() {
                return Err(unsupported(rpath, s, r, RefinementReason::ParentNotEvaluated));
            }
        }
    }
    if own || !selectors.iter().any(|(_, s)| evaluated(s)) {
        return read_as_written(v, Some(store));
    }
    let Some(source_id) = target_source(target, store) else {
        let message = "the target names no catalogued source (give state.source_id, or a source or locator equal to one catalogue locator)";
        let v = crate::error::Violation { path: join(&target_path, "source"), code: ViolationCode::NotAllowed, message: message.into() };
        return Err(ContractError { subject: "web_annotation", violations: vec![v] }.into());
    };
    let snapshot = store.current_snapshot(scope, &source_id)?;
    let src = Source { id: source_id, snapshot, options: LocateOptions { whitespace, ..Default::default() } };
    // Plain positions: they must agree with each other; the first is the quotes' hint.
    let plain: Vec<&Pointed<'_>> = selectors.iter().filter(|(_, s)| kind_of(s) == "TextPositionSelector" && !s.contains_key("refinedBy")).collect();
    agreeing(&plain.iter().map(|(p, s)| (p.clone(), *s)).collect::<Vec<_>>(), "TextPositionSelector", |s| json!([s.get("start"), s.get("end")]))?;
    let hint = plain.first().and_then(|(_, s)| s.get("start")).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok());
    let mut segment: Option<(String, Range)> = None;
    for (path, s) in selectors.iter().filter(|(_, s)| evaluated(s)) {
        let own_segment = if kind_of(s) == "TextQuoteSelector" {
            locate_top(&src, quote_selector(s, path)?, hint)?
        } else {
            position_range(s, src.chars()).ok_or_else(|| {
                let message = format!("a TextPositionSelector must be a non-empty range of the source's {} code points", src.chars());
                AnnotationError::from(ContractError { subject: "web_annotation", violations: vec![crate::error::Violation { path: path.clone(), code: ViolationCode::NotAllowed, message }] })
            })?
        };
        let range = refine(&src, s, path, own_segment)?;
        match &segment {
            Some((first, r0)) if *r0 != range => return Err(conflict(&src, [first.clone(), path.clone()], [*r0, range])),
            Some(_) => {}
            None => segment = Some((path.clone(), range)),
        }
    }
    let Some((segment_path, range)) = segment else { return read_as_written(v, Some(store)) };
    let text = src.text(range).unwrap_or_default();
    // A plain position that selects the same text elsewhere, in code points and in UTF-16
    // units alike, describes another segment.
    for (path, s) in plain {
        let Some(at) = position_range(s, src.chars()) else { continue };
        let in_utf16 = || {
            let cp = |o| snapshot.index.code_point_of(&snapshot.content, o, crate::citation::Unit::Utf16).ok();
            Some((cp(at.0)?, cp(at.1)?))
        };
        if at != range && src.text(at) == Some(text) && in_utf16() != Some(range) {
            return Err(conflict(&src, [segment_path, path.clone()], [range, at]));
        }
    }
    let id = v.get("id").and_then(Value::as_str).and_then(|id| id.strip_prefix(ID_PREFIX)).unwrap_or("annotation");
    Ok(crate::store::citation_checked(id, &snapshot.source_ref, range.0, range.1, text.to_owned(), store.policy())?)
}

/// A context that lost a lone surrogate at its outer edge.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ContextTrim {
    /// `prefix` (its first UTF-16 unit) or `suffix` (its last).
    #[cfg_attr(test, ts(type = "\"prefix\" | \"suffix\""))]
    pub field: &'static str,
    /// The dropped unit, as its JSON escape (`\udc00`).
    pub unit: String,
    pub message: String,
}

/// What [`import_web_annotation`] made: the citation, and each context it trimmed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AnnotationImport {
    pub citation: Citation,
    pub trimmed: Vec<ContextTrim>,
}

/// The JSON text with a lone surrogate escape dropped from the outer edge of every
/// `prefix` (a leading low surrogate) and `suffix` (a trailing high surrogate) string:
/// a context cut at a fixed number of UTF-16 units beside an astral character, as
/// Hypothesis cuts its 32 units. Any other lone surrogate is left for the reader to refuse.
/// Each trim's message is in the host's language ([`crate::host::lang`]).
pub fn drop_edge_surrogates(json: &str) -> (std::borrow::Cow<'_, str>, Vec<ContextTrim>) {
    drop_edge_surrogates_in(json, crate::host::lang())
}

/// [`drop_edge_surrogates`] with each trim's message in `lang`.
pub fn drop_edge_surrogates_in(json: &str, lang: Lang) -> (std::borrow::Cow<'_, str>, Vec<ContextTrim>) {
    let b = json.as_bytes();
    let mut cuts: Vec<(usize, &'static str, String)> = Vec::new(); // (byte of the escape, field, escape)
    let mut i = 0;
    let mut last_string: Option<(usize, usize)> = None; // content bytes of the last string
    let mut key: Option<&'static str> = None; // a prefix/suffix key waiting for its value
    let escape_at = |at: usize| -> Option<u16> {
        let e = json.get(at..at + 6)?;
        let hex = e.strip_prefix("\\u")?;
        u16::from_str_radix(hex, 16).ok()
    };
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while let Some(&d) = b.get(j) {
                    match d {
                        b'\\' => j += 2,
                        b'"' => break,
                        _ => j += 1,
                    }
                }
                if let Some(field) = key.take() {
                    let unit = if field == "prefix" { Some(start).filter(|_| escape_at(start).is_some_and(|u| (0xDC00..0xE000).contains(&u))) } else { j.checked_sub(6).filter(|&at| at >= start && escape_at(at).is_some_and(|u| (0xD800..0xDC00).contains(&u)) && !escaped_backslash_before(b, at, start)) };
                    if let Some(at) = unit {
                        cuts.push((at, field, json.get(at..at + 6).unwrap_or("").to_owned()));
                    }
                }
                last_string = Some((start, j));
                i = j + 1;
            }
            b':' => {
                key = last_string.and_then(|(s, e)| match json.get(s..e) {
                    Some("prefix") => Some("prefix"),
                    Some("suffix") => Some("suffix"),
                    _ => None,
                });
                last_string = None;
                i += 1;
            }
            b',' | b'{' | b'}' | b'[' | b']' => {
                key = None;
                last_string = None;
                i += 1;
            }
            _ => i += 1,
        }
    }
    if cuts.is_empty() {
        return (std::borrow::Cow::Borrowed(json), Vec::new());
    }
    let mut out = String::with_capacity(json.len());
    let mut at = 0;
    let mut trims = Vec::new();
    for (cut, field, unit) in cuts {
        out.push_str(json.get(at..cut).unwrap_or(""));
        at = cut + 6;
        let message = match (field, lang) {
            ("prefix", Lang::Zh) => format!("prefix 的开头是孤立代理项({unit}):已从上下文中删去"),
            (_, Lang::Zh) => format!("suffix 的结尾是孤立代理项({unit}):已从上下文中删去"),
            _ => {
                let edge = if field == "prefix" { "start" } else { "end" };
                format!("the {field} began or ended with a lone surrogate ({unit}) at its {edge}: it was dropped from the context")
            }
        };
        trims.push(ContextTrim { field, message, unit });
    }
    out.push_str(json.get(at..).unwrap_or(""));
    (std::borrow::Cow::Owned(out), trims)
}

/// Whether the `\` at `at` is itself escaped (preceded by an odd run of backslashes).
fn escaped_backslash_before(b: &[u8], at: usize, start: usize) -> bool {
    let mut n = 0;
    let mut k = at;
    while k > start && b.get(k - 1) == Some(&b'\\') {
        n += 1;
        k -= 1;
    }
    n % 2 == 1
}

/// Reads an annotation's JSON text (the strict reader) after [`drop_edge_surrogates`],
/// then [`from_web_annotation_in`]; the result says which contexts were trimmed.
pub fn import_web_annotation(json: &str, max_bytes: usize, scope: &Scope, store: &EvidenceStore, whitespace: Whitespace) -> Result<AnnotationImport, AnnotationError> {
    let (text, trimmed) = drop_edge_surrogates(json);
    let v = crate::json::parse_strict(&text, max_bytes, "web_annotation")?;
    let citation = from_web_annotation_in(&v, scope, store, whitespace)?;
    Ok(AnnotationImport { citation, trimmed })
}
