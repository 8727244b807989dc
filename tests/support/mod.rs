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
