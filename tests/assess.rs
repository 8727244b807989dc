//! Unit tests of the core (src/assess.rs): claim states, status and issues, including the article's mutations and repair hints.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use evidence_check::assess::{assess, ClaimState, Status};
use evidence_check::review::record_review;
use evidence_check::{Contract, EvidenceStore, Report, Scope};
use serde_json::json;
use support::*;

#[test]
fn the_articles_mutations() {
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st, &s, &r, "Plan A works offline.");
    let pending = assess(&s, &report, &st, &[]).unwrap();
    assert_eq!(pending.status, Status::NeedsReview);

    let issue_codes = |report: &Report, st: &EvidenceStore, s: &Scope| {
        let a = assess(s, report, st, &[]).unwrap();
        assert_eq!(a.status, Status::Invalid);
        assert_eq!(a.state("k1"), Some(ClaimState::Invalid));
        a.issues.iter().map(|i| i.code).collect::<Vec<_>>()
    };

    // Tampered quote.
    let mut tampered = report.clone();
    tampered.claims[0].citations[0].quote = "Plan A works online.".into();
    assert_eq!(issue_codes(&tampered, &st, &s), ["quote_mismatch"]);
    // Shifted range.
    let mut shifted = report.clone();
    shifted.claims[0].citations[0].start += 1;
    shifted.claims[0].citations[0].end += 1;
    assert_eq!(issue_codes(&shifted, &st, &s), ["quote_mismatch"]);
    // Past the end.
    let mut past = report.clone();
    past.claims[0].citations[0].end = 10_000;
    assert_eq!(issue_codes(&past, &st, &s), ["range_out_of_bounds"]);
    // Wrong scope: another tenant sees nothing.
    assert_eq!(issue_codes(&report, &st, &scope("other")), ["source_not_ingested"]);
    // Wrong digest fails the version check first.
    let mut digest = report.clone();
    digest.claims[0].citations[0].source_ref.digest = "0".repeat(64);
    assert_eq!(issue_codes(&digest, &st, &s), ["digest_mismatch"]);
    // Stale revision.
    let mut st2 = store();
    st2.ingest(&s, "a", TEXT).unwrap();
    st2.ingest(&s, "a", &format!("{TEXT}More.\n")).unwrap();
    assert_eq!(issue_codes(&report, &st2, &s), ["revision_stale"]);
    // Removed, then re-ingested with the same text: a new revision, the old citation stays dead.
    let mut st3 = store();
    st3.ingest(&s, "a", TEXT).unwrap();
    st3.remove(&s, "a").unwrap();
    assert_eq!(st3.ingest(&s, "a", TEXT).unwrap().revision, 2);
    assert_eq!(issue_codes(&report, &st3, &s), ["revision_stale"]);
}

#[test]
fn state_precedence() {
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let c = st.quote(&s, &r, "Plan A works offline.", "c1").unwrap();
    let report = Report::from_value(&json!({
        "title": "R",
        "claims": [
            {"claim_id": "none", "text": "t", "kind": "fact"},
            {"claim_id": "d1", "text": "t", "kind": "fact", "citations": [c]},
            {"claim_id": "d2", "text": "t", "kind": "fact", "citations": [c]},
            {"claim_id": "ok", "text": "t", "kind": "fact", "citations": [c]}
        ],
        "conflicts": [{"claim_ids": ["d1", "d2"], "reason": "opposite"}]
    }))
    .unwrap();
    let reviews: Vec<_> = ["none", "d1", "ok"]
        .iter()
        .map(|id| record_review(&s, &report, id, "supported", "n", &clock()).unwrap())
        .collect();
    let a = assess(&s, &report, &st, &reviews).unwrap();
    let states: Vec<_> = a.claims.iter().map(|(id, st)| (id.as_str(), *st)).collect();
    assert_eq!(
        states,
        [
            ("none", ClaimState::Insufficient),
            ("d1", ClaimState::Disputed),
            ("d2", ClaimState::Disputed),
            ("ok", ClaimState::Supported)
        ]
    );
    assert_eq!(a.status, Status::Partial);
}

#[test]
fn stale_citations_get_a_repair_hint_that_is_never_applied() {
    let mut st = store();
    let s = scope("t");
    let r1 = st.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st, &s, &r1, "Plan A works offline.");
    let r2 = st.ingest(&s, "a", &format!("Preface.\n{TEXT}")).unwrap();
    let a = assess(&s, &report, &st, &[]).unwrap();
    assert_eq!(a.status, Status::Invalid, "the hint does not repair anything");
    assert_eq!(
        serde_json::to_value(&a.issues[0].hint).unwrap(),
        json!({"ref": r2, "occurrences": 1, "start": 17, "end": 38})
    );
    // Several occurrences: only the count. None: no hint.
    st.ingest(&s, "a", "Plan A works offline. Plan A works offline.").unwrap();
    let a = assess(&s, &report, &st, &[]).unwrap();
    assert_eq!(serde_json::to_value(&a.issues[0].hint).unwrap()["occurrences"], json!(2));
    assert_eq!(serde_json::to_value(&a.issues[0].hint).unwrap().get("start"), None);
    st.ingest(&s, "a", "Rewritten entirely.").unwrap();
    assert_eq!(assess(&s, &report, &st, &[]).unwrap().issues[0].hint, None);
    // Another tenant's text is never looked at.
    assert_eq!(assess(&scope("other"), &report, &st, &[]).unwrap().issues[0].hint, None);
}
