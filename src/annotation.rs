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
use crate::error::{ContractError, ViolationCode};
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

/// The source an annotation's target names: its `state.source_id`; the source id of a
/// [`SOURCE_PREFIX`] `source`; or else the one catalogue entry whose locator is the
/// target's `locator` or `source`.
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

/// The annotation's one target object (Hypothesis sends a list of one).
fn target_of(v: &Value) -> Option<&Map<String, Value>> {
    match v.get("target")? {
        Value::Object(t) => Some(t),
        Value::Array(a) => a.iter().filter_map(Value::as_object).find(|t| t.contains_key("selector")),
        _ => None,
    }
}

/// How many occurrences a position may choose among.
pub const MAX_CHOICES: usize = 1000;

/// [`from_web_annotation`] for an annotation made by [`to_web_annotations`] (it has a
/// `SourceRevision` state and a `TextPositionSelector`). Any other annotation with a `TextQuoteSelector` (`exact`,
/// optional `prefix` / `suffix`; Hypothesis's Range + TextPosition + TextQuote shape
/// among them) is taken quote-first: the quote with its context is located by the one
/// locator in the current revision of its source (named by `state.source_id`, by a
/// [`SOURCE_PREFIX`] source, or by the target's `locator` or `source` matching one
/// catalogue locator). A `TextPositionSelector` only chooses among the occurrences that
/// remain (the one nearest its `start`; a tie stays ambiguous), never trusted alone.
/// Absent → `quote_not_found`, ambiguous → `quote_ambiguous`. The citation id is the
/// annotation id without [`ID_PREFIX`], or `annotation` for a foreign id.
pub fn from_web_annotation_in(v: &Value, scope: &Scope, store: &EvidenceStore, whitespace: crate::store::locate::Whitespace) -> Result<Citation, StoreError> {
    let target = target_of(v);
    let selectors: &[Value] = match target.and_then(|t| t.get("selector")) {
        Some(Value::Array(a)) => a,
        Some(one @ Value::Object(_)) => std::slice::from_ref(one),
        _ => &[],
    };
    // Our own: a SourceRevision state and a position, which are checked, not located.
    let own = target.and_then(|t| t.get("state")).and_then(|s| s.get("type")).and_then(Value::as_str) == Some("SourceRevision")
        && selector(selectors, "TextPositionSelector").is_some();
    let (Some(target), Some(quote), false) = (target, selector(selectors, "TextQuoteSelector"), own) else {
        return Ok(from_web_annotation(v)?);
    };
    let position = selector(selectors, "TextPositionSelector").and_then(|p| p.get("start")).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok());
    let mut c = Checker::default();
    let text = |key: &str| quote.get(key).and_then(Value::as_str).map(str::to_owned);
    let exact = text("exact");
    if exact.is_none() {
        c.push("/target/selector", ViolationCode::Missing, "a TextQuoteSelector needs its exact text");
    }
    let source_id = target_source(target, store);
    if source_id.is_none() {
        c.push("/target/source", ViolationCode::NotAllowed, "the target names no catalogued source (give state.source_id, or a source or locator equal to one catalogue locator)");
    }
    let (Some(exact), Some(source_id)) = (exact, source_id) else {
        return Err(ContractError { subject: "web_annotation", violations: c.violations }.into());
    };
    let mut selector = crate::store::locate::Selector { exact, prefix: text("prefix"), suffix: text("suffix"), occurrence: None };
    let options = crate::store::locate::LocateOptions { whitespace, ..Default::default() };
    let (snapshot, found) = match (store.locate_current(scope, &source_id, &selector, options), position) {
        (Err(StoreError::Locate(crate::store::locate::LocateError::Ambiguous { count, ranges, source_id: sid })), Some(at)) => {
            // The position chooses among the occurrences: the nearest start, unless tied.
            let mut best: Option<(usize, usize, bool)> = None; // (distance, occurrence, tied)
            for n in 1..=count.min(MAX_CHOICES) {
                selector.occurrence = Some(n);
                let Ok((_, l)) = store.locate_current(scope, &source_id, &selector, options) else { continue };
                let d = l.start.abs_diff(at);
                best = match best {
                    Some((bd, _, _)) if d < bd => Some((d, n, false)),
                    Some((bd, bn, _)) if d == bd => Some((bd, bn, true)),
                    None => Some((d, n, false)),
                    keep => keep,
                };
            }
            match best {
                Some((_, n, false)) if count <= MAX_CHOICES => {
                    selector.occurrence = Some(n);
                    store.locate_current(scope, &source_id, &selector, options)?
                }
                _ => return Err(StoreError::Locate(crate::store::locate::LocateError::Ambiguous { count, ranges, source_id: sid })),
            }
        }
        (r, _) => r?,
    };
    let id = v.get("id").and_then(Value::as_str).and_then(|id| id.strip_prefix(ID_PREFIX)).unwrap_or("annotation");
    crate::store::citation_checked(id, &snapshot.source_ref, found.start, found.end, found.text, store.policy())
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
pub fn drop_edge_surrogates(json: &str) -> (std::borrow::Cow<'_, str>, Vec<ContextTrim>) {
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
        let edge = if field == "prefix" { "start" } else { "end" };
        trims.push(ContextTrim { field, message: format!("the {field} began or ended with a lone surrogate ({unit}) at its {edge}: it was dropped from the context"), unit });
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
pub fn import_web_annotation(json: &str, max_bytes: usize, scope: &Scope, store: &EvidenceStore, whitespace: crate::store::locate::Whitespace) -> Result<AnnotationImport, StoreError> {
    let (text, trimmed) = drop_edge_surrogates(json);
    let v = crate::json::parse_strict(&text, max_bytes, "web_annotation")?;
    let citation = from_web_annotation_in(&v, scope, store, whitespace)?;
    Ok(AnnotationImport { citation, trimmed })
}
