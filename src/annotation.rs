//! W3C Web Annotation export and import of citations: each valid citation becomes an
//! annotation whose target is the source's locator with a `TextQuoteSelector` (exact
//! quote, up to 32 code points of context either side) and a `TextPositionSelector`
//! (code points, as the Web Annotation model counts them), and whose `state` records the
//! revision and digest the passage was checked against.

use serde_json::{json, Map, Value};

use crate::assess::check;
use crate::contract::Checker;
use crate::contract::{Citation, Contract, Report, Scope};
use crate::error::{ContractError, ViolationCode};
use crate::review::ReviewErrorKind;
use crate::store::StoreError;
use crate::store::EvidenceStore;

/// How many code points of context a `TextQuoteSelector` carries on each side.
pub const CONTEXT: usize = 32;
/// The prefix of an annotation id made from a citation id.
pub const ID_PREFIX: &str = "urn:evidence-check:citation:";

fn context() -> Value {
    json!([
        "http://www.w3.org/ns/anno.jsonld",
        {
            "SourceRevision": "urn:evidence-check:SourceRevision",
            "source_id": "urn:evidence-check:source_id",
            "revision": "urn:evidence-check:revision",
            "digest": "urn:evidence-check:digest"
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
        out.push(json!({
            "@context": context(),
            "id": format!("{ID_PREFIX}{}", citation.citation_id),
            "type": "Annotation",
            "motivation": "describing",
            "body": bodies,
            "target": {
                "source": snapshot.spec.locator,
                "selector": [
                    {"type": "TextQuoteSelector", "exact": citation.quote, "prefix": prefix, "suffix": suffix},
                    {"type": "TextPositionSelector", "start": citation.start, "end": citation.end}
                ],
                "state": {
                    "type": "SourceRevision",
                    "source_id": citation.source_ref.source_id,
                    "revision": citation.source_ref.revision,
                    "digest": citation.source_ref.digest
                }
            }
        }));
    }
    Ok(out)
}

fn selector<'v>(selectors: &'v [Value], kind: &str) -> Option<&'v Map<String, Value>> {
    selectors.iter().filter_map(Value::as_object).find(|s| s.get("type").and_then(Value::as_str) == Some(kind))
}

/// Turns an annotation made by [`to_web_annotations`] back into its citation; the
/// citation's contract applies to what comes out.
pub fn from_web_annotation(v: &Value) -> Result<Citation, ContractError> {
    let mut c = Checker::default();
    let fail = |c: Checker| ContractError { subject: "web_annotation", violations: c.violations };
    let id = v.get("id").and_then(Value::as_str).and_then(|id| id.strip_prefix(ID_PREFIX));
    if id.is_none() {
        c.push("/id", ViolationCode::PatternMismatch, format!("the id must start with {ID_PREFIX}"));
    }
    let Some(target) = v.get("target").and_then(Value::as_object) else {
        c.push("/target", ViolationCode::Missing, "an annotation needs a target object");
        return Err(fail(c));
    };
    let selectors: &[Value] = match target.get("selector") {
        Some(Value::Array(a)) => a,
        Some(one @ Value::Object(_)) => std::slice::from_ref(one),
        _ => &[],
    };
    let quote = selector(selectors, "TextQuoteSelector");
    let position = selector(selectors, "TextPositionSelector");
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
    let (Some(id), Some(quote), Some(position), Some(state)) = (id, quote, position, state) else { return Err(fail(c)) };
    let citation = json!({
        "citation_id": id,
        "ref": {"source_id": state.get("source_id"), "revision": state.get("revision"), "digest": state.get("digest")},
        "start": position.get("start"),
        "end": position.get("end"),
        "quote": quote.get("exact"),
    });
    // Violations name the citation the annotation describes (`/citation/start`, …).
    Citation::from_value(&citation).map_err(|e| ContractError {
        subject: "web_annotation",
        violations: e
            .violations
            .into_iter()
            .map(|mut v| {
                v.path = format!("/citation{}", v.path);
                v
            })
            .collect(),
    })
}

/// The source an annotation's target names: its `state.source_id`, or else the one
/// catalogue entry whose locator is the target's `source`.
fn target_source(target: &Map<String, Value>, store: &EvidenceStore) -> Option<String> {
    if let Some(id) = target.get("state").and_then(|s| s.get("source_id")).and_then(Value::as_str) {
        return Some(id.to_owned());
    }
    let locator = target.get("source").and_then(Value::as_str)?;
    let mut found = store.specs().filter(|s| s.locator == locator);
    match (found.next(), found.next()) {
        (Some(one), None) => Some(one.source_id.clone()),
        _ => None,
    }
}

/// [`from_web_annotation`], and for an annotation with only a `TextQuoteSelector`
/// (`exact`, optional `prefix` / `suffix`), the citation the one locator finds in the
/// current revision of its source (named by `state.source_id` or by the target's
/// `source` matching one catalogue locator). Absent → `quote_not_found`, ambiguous →
/// `quote_ambiguous`; never a guess. The citation id is the annotation id without
/// [`ID_PREFIX`], or `annotation` for a foreign id.
pub fn from_web_annotation_in(v: &Value, scope: &Scope, store: &EvidenceStore, whitespace: crate::store::locate::Whitespace) -> Result<Citation, StoreError> {
    let target = v.get("target").and_then(Value::as_object);
    let selectors: &[Value] = match target.and_then(|t| t.get("selector")) {
        Some(Value::Array(a)) => a,
        Some(one @ Value::Object(_)) => std::slice::from_ref(one),
        _ => &[],
    };
    let (Some(target), Some(quote), None) = (target, selector(selectors, "TextQuoteSelector"), selector(selectors, "TextPositionSelector")) else {
        return Ok(from_web_annotation(v)?);
    };
    let mut c = Checker::default();
    let text = |key: &str| quote.get(key).and_then(Value::as_str).map(str::to_owned);
    let exact = text("exact");
    if exact.is_none() {
        c.push("/target/selector", ViolationCode::Missing, "a TextQuoteSelector needs its exact text");
    }
    let source_id = target_source(target, store);
    if source_id.is_none() {
        c.push("/target/source", ViolationCode::NotAllowed, "the target names no catalogued source (give state.source_id, or a source equal to one catalogue locator)");
    }
    let (Some(exact), Some(source_id)) = (exact, source_id) else {
        return Err(ContractError { subject: "web_annotation", violations: c.violations }.into());
    };
    let selector = crate::store::locate::Selector { exact, prefix: text("prefix"), suffix: text("suffix"), occurrence: None };
    let options = crate::store::locate::LocateOptions { whitespace, ..Default::default() };
    let (snapshot, found) = store.locate_current(scope, &source_id, &selector, options)?;
    let id = v.get("id").and_then(Value::as_str).and_then(|id| id.strip_prefix(ID_PREFIX)).unwrap_or("annotation");
    crate::store::citation_checked(id, &snapshot.source_ref, found.start, found.end, found.text, store.policy())
}
