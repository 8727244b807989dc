//! Helpers shared by the core's unit tests (tests/contract.rs, store.rs, assess.rs, render.rs…),
//! split out of the former tests/core.rs.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evidence_check::clock::Clock;
use evidence_check::{Contract, EvidenceStore, Report, Scope, SourceSpec, StoreOptions};
use serde_json::{json, Value};

pub const NOW: &str = "2026-11-29T00:00:00+00:00";

pub fn clock() -> Clock {
    Clock::fixed(NOW).unwrap()
}
pub fn scope(t: &str) -> Scope {
    Scope { tenant_id: t.into(), user_id: "u".into() }
}
pub fn spec(id: &str) -> SourceSpec {
    SourceSpec::from_value(&json!({"source_id": id, "title": "T", "locator": "fixture:x", "filename": format!("{id}.md"), "kind": "fixture"})).unwrap()
}
pub fn store() -> EvidenceStore {
    EvidenceStore::new(vec![spec("a"), spec("b")], StoreOptions::default(), clock()).unwrap()
}
pub const TEXT: &str = "# Title\nPlan A works offline.\nPlan B needs a network.\n";

/// A one-claim report citing `quote` in source `a` at its unique position.
pub fn report_citing(store: &EvidenceStore, s: &Scope, r: &evidence_check::SourceRef, quote: &str) -> Report {
    let c = store.quote(s, r, quote, "c1").unwrap();
    Report::from_value(&json!({
        "title": "R",
        "claims": [{"claim_id": "k1", "text": "Plan A works offline.", "kind": "fact", "citations": [c]}]
    }))
    .unwrap()
}

pub fn violations(v: Value) -> Vec<(String, String)> {
    let e = Report::from_value(&v).unwrap_err();
    // The same value as text: both paths of the reader give the same error.
    assert_eq!(both::<Report>(&v.to_string(), &Limits::default()).unwrap_err(), e);
    e.violations.into_iter().map(|v| (v.path, v.code.code().to_owned())).collect()
}

pub fn valid_report() -> Value {
    json!({
        "title": "R",
        "claims": [{"claim_id": "k1", "text": "x", "kind": "fact", "citations": [
            {"citation_id": "c1", "ref": {"source_id": "a", "revision": 1, "digest": "0".repeat(64)}, "start": 0, "end": 1, "quote": "x"}
        ]}]
    })
}

// ---- the two readers of the contract (issue 15, part 2) ------------------------------

use evidence_check::contract::typed::{self, How};
use evidence_check::contract::Limits;
use evidence_check::ContractError;

/// Asserts that the fast path and the tree reader agree on `text` (the fast path accepts
/// exactly what the tree reader accepts, with an equal value) and that what callers get
/// is the tree reader's result, errors included (codes, paths, messages, order).
fn agree<T: PartialEq + std::fmt::Debug>(text: &str, fast: Option<T>, tree: Result<T, ContractError>, used: Result<T, ContractError>) -> Result<T, ContractError> {
    let shown: String = text.chars().take(300).collect();
    match (&fast, &tree) {
        (Some(f), Ok(t)) => assert_eq!(f, t, "the two readers give different values for {shown}"),
        (None, Err(_)) => {}
        (Some(_), Err(e)) => panic!("the fast path accepts what the tree reader refuses ({e:?}): {shown}"),
        (None, Ok(_)) => panic!("the fast path refuses what the tree reader accepts: {shown}"),
    }
    assert_eq!(used, tree, "the reader's result is not the tree reader's for {shown}");
    tree
}

/// `T::from_json_with` through both readers (see [`agree`]).
pub fn both<T: Contract + PartialEq + std::fmt::Debug>(text: &str, limits: &Limits) -> Result<T, ContractError> {
    agree(text, T::from_json_typed(text, limits, How::contract(limits)), T::from_json_tree(text, limits), T::from_json_with(text, limits))
}

/// `Report::from_json_in` through both readers.
pub fn both_in(text: &str, dialect: evidence_check::schema::Dialect, limits: &Limits) -> Result<Report, ContractError> {
    let how = match dialect {
        evidence_check::schema::Dialect::Standard => How::contract(limits),
        evidence_check::schema::Dialect::OpenAiStrict => How { nulls_absent: true, ..How::plain(limits.max_input_bytes) },
    };
    agree(text, typed::read(text, limits, how), Report::from_json_in_tree(text, dialect, limits), Report::from_json_in(text, dialect, limits))
}

/// `bundle_without_contents` through both readers.
pub fn both_without_contents(text: &str, limits: &Limits) -> Result<evidence_check::bundle::Bundle, ContractError> {
    use evidence_check::bundle::{bundle_without_contents, bundle_without_contents_tree};
    let how = How { content_optional: true, ..How::plain(limits.max_input_bytes) };
    agree(text, typed::read(text, limits, how), bundle_without_contents_tree(text, limits), bundle_without_contents(text, limits))
}

/// `reviews_from_json` through both readers.
pub fn both_reviews(text: &str) -> Result<Vec<evidence_check::Review>, ContractError> {
    use evidence_check::review::{reviews_from_json, reviews_from_json_tree};
    let max = evidence_check::contract::json::DEFAULT_MAX_INPUT_BYTES;
    agree(text, typed::read_list(text, &Limits::default(), How::plain(max), true), reviews_from_json_tree(text, max), reviews_from_json(text, max))
}

/// A store's specs (`new EvidenceStore`) through both readers: the typed read of their JSON
/// text, and `specs_from_value_with` of the tree that `parse_strict` reads.
pub fn both_specs(text: &str, limits: &Limits) -> Result<Vec<evidence_check::contract::SourceSpec>, ContractError> {
    use evidence_check::contract::{json::parse_strict, specs_from_json_typed, specs_from_value_with};
    let max = evidence_check::contract::json::DEFAULT_MAX_INPUT_BYTES;
    let tree = || parse_strict(text, max, "specs").and_then(|v| specs_from_value_with(&v, limits));
    let fast = specs_from_json_typed(text, limits, max);
    let used = fast.clone().map_or_else(tree, Ok);
    agree(text, fast, tree(), used)
}

/// Every reader of the contract on `text` under `limits`, each through both paths.
pub fn every_reader(text: &str, limits: &Limits) {
    use evidence_check::schema::Dialect;
    let _ = both::<Report>(text, limits);
    let _ = both::<evidence_check::bundle::Bundle>(text, limits);
    let _ = both_in(text, Dialect::OpenAiStrict, limits);
    let _ = both_without_contents(text, limits);
    let _ = both_reviews(text);
    let _ = both_specs(text, limits);
}
