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

/// The violations of a report under the reference policy (the contract's own rules).
pub fn violations(v: Value) -> Vec<(String, String)> {
    let e = Report::from_value_with(&v, &Limits::reference()).unwrap_err();
    // The same value as text: the same error.
    assert_eq!(read_json::<Report>(&v.to_string(), &Limits::reference()).unwrap_err(), e);
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

// ---- the contract's readers of JSON text ---------------------------------------------

use evidence_check::contract::Limits;
use evidence_check::ContractError;

/// `T::from_json_with`.
pub fn read_json<T: Contract + PartialEq + std::fmt::Debug>(text: &str, limits: &Limits) -> Result<T, ContractError> {
    T::from_json_with(text, limits)
}

/// `Report::from_json_in`.
pub fn read_in(text: &str, dialect: evidence_check::schema::Dialect, limits: &Limits) -> Result<Report, ContractError> {
    Report::from_json_in(text, dialect, limits)
}

/// `bundle_without_contents`.
pub fn read_without_contents(text: &str, limits: &Limits) -> Result<evidence_check::bundle::Bundle, ContractError> {
    evidence_check::bundle::bundle_without_contents(text, limits)
}

/// `reviews_from_json`.
pub fn read_reviews(text: &str) -> Result<Vec<evidence_check::Review>, ContractError> {
    evidence_check::review::reviews_from_json(text, evidence_check::json::DEFAULT_MAX_INPUT_BYTES)
}

/// A store's specs (`new EvidenceStore`): `specs_from_value_with` of the tree that
/// `parse_strict` reads.
pub fn read_specs(text: &str, limits: &Limits) -> Result<Vec<evidence_check::contract::SourceSpec>, ContractError> {
    use evidence_check::contract::{json::parse_strict, specs_from_value_with};
    let max = evidence_check::json::DEFAULT_MAX_INPUT_BYTES;
    parse_strict(text, max, "specs").and_then(|v| specs_from_value_with(&v, limits))
}

/// Every reader of the contract on `text` under `limits`.
pub fn every_reader(text: &str, limits: &Limits) {
    use evidence_check::schema::Dialect;
    let _ = read_json::<Report>(text, limits);
    let _ = read_json::<evidence_check::bundle::Bundle>(text, limits);
    let _ = read_in(text, Dialect::OpenAiStrict, limits);
    let _ = read_without_contents(text, limits);
    let _ = read_reviews(text);
    let _ = read_specs(text, limits);
}
