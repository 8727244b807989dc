//! Unit tests of the core (src/store.rs): the evidence store: catalogue, ingest, revisions, read results, quotes, closing, limits.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use evidence_check::clock::Clock;
use evidence_check::store::StoreErrorKind;
use evidence_check::{Contract, EvidenceStore, Report, SourceSpec, StoreError, StoreOptions};
use serde_json::json;
use support::*;

#[test]
fn store_catalogue_limits() {
    let many: Vec<SourceSpec> = (0..17).map(|i| spec(&format!("s{i}"))).collect();
    let err = EvidenceStore::new(many.clone(), StoreOptions::default(), clock()).unwrap_err();
    assert_eq!(err.code(), StoreErrorKind::CatalogueInvalid.code());
    let raised = StoreOptions { max_sources: 17, ..StoreOptions::default() };
    assert!(EvidenceStore::new(many, raised, clock()).is_ok());
    let err = EvidenceStore::new(vec![spec("a"), spec("a")], StoreOptions::default(), clock()).unwrap_err();
    assert_eq!(err.code(), "catalogue_invalid");
}

#[test]
fn ingest_rules_and_revisions() {
    let mut st = store();
    let s = scope("t");
    assert_eq!(st.ingest(&s, "zz", "x").unwrap_err().code(), "unknown_source");
    assert_eq!(st.ingest(&s, "a", " \n").unwrap_err().code(), "empty_content");
    // 24,000 bytes before normalisation: CRLF counts two bytes.
    let crlf = "a\r\n".repeat(8000);
    assert_eq!(crlf.len(), 24_000);
    assert!(st.ingest(&s, "a", &crlf).is_ok());
    assert_eq!(st.ingest(&s, "a", &format!("{crlf}x")).unwrap_err().code(), "source_too_large");

    let mut st = store();
    let r1 = st.ingest(&s, "a", "A").unwrap();
    assert_eq!(r1.revision, 1);
    assert_eq!(st.ingest(&s, "a", "A").unwrap(), r1, "identical content keeps the ref");
    assert_eq!(st.ingest(&s, "a", "B").unwrap().revision, 2);
    assert_eq!(st.ingest(&s, "a", "A").unwrap().revision, 3, "A -> B -> A is a new revision");
    st.remove(&s, "a").unwrap();
    assert_eq!(st.ingest(&s, "a", "A").unwrap().revision, 4, "removal keeps the counter");
}

#[test]
fn fetched_at_is_kept_for_identical_content() {
    let mut st = EvidenceStore::new(vec![spec("a")], StoreOptions::default(), Clock::fixed("2020-01-01T00:00:00Z").unwrap()).unwrap();
    let s = scope("t");
    let r = st.ingest(&s, "a", "A").unwrap();
    st.set_clock(clock());
    st.ingest(&s, "a", "A").unwrap();
    assert_eq!(st.get(&s, &r).unwrap().fetched_at, "2020-01-01T00:00:00Z");
}

#[test]
fn read_results_are_checked_against_the_spec() {
    let mut st = store();
    let s = scope("t");
    let ok = json!({"status": "ok", "data": {"filename": "a.md", "content": "A"}});
    assert_eq!(st.ingest_read_result(&s, "a", &ok).unwrap().revision, 1);
    assert_eq!(st.ingest_read_result(&s, "b", &ok).unwrap_err().code(), "read_mismatch");
    assert_eq!(st.ingest_read_result(&s, "a", &json!("x")).unwrap_err().code(), "read_result_not_object");
    let bad = json!({"status": "error", "data": {"filename": "a.md", "content": "A"}});
    match st.ingest_read_result(&s, "a", &bad).unwrap_err() {
        StoreError::Contract(c) => assert_eq!(c.violations[0].path, "/status"),
        other => panic!("expected a contract error, got {other:?}"),
    }
}

#[test]
fn quote_needs_a_unique_passage_and_a_valid_id() {
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", "xx 😀 yy 😀 zz").unwrap();
    assert_eq!(st.quote(&s, &r, "😀", "q").unwrap_err().code(), "quote_ambiguous");
    assert_eq!(st.quote(&s, &r, "", "q").unwrap_err().code(), "quote_not_found");
    assert_eq!(st.quote(&s, &r, "ww", "q").unwrap_err().code(), "quote_not_found");
    // The reference's one code for both, under compat "reference".
    let reference = evidence_check::store::locate::LocateOptions { counting: evidence_check::store::locate::Counting::Reference, ..Default::default() };
    for text in ["😀", "", "ww"] {
        let sel = evidence_check::store::locate::Selector::exact(text);
        assert_eq!(st.quote_with(&s, &r, &sel, "q", reference).unwrap_err().code(), "quote_not_unique");
    }
    let c = st.quote(&s, &r, "yy 😀", "q").unwrap();
    assert_eq!((c.start, c.end), (5, 9), "code points, not bytes or UTF-16 units");
    match st.quote(&s, &r, "zz", "bad id").unwrap_err() {
        StoreError::Contract(e) => assert_eq!(e.violations[0].path, "/citation_id"),
        other => panic!("expected a contract error, got {other:?}"),
    }
}

#[test]
fn admit_refuses_an_oversize_text_by_its_size_in_the_order_ingest_does() {
    // What a host uses to refuse a text before copying it: only its size (or a lower
    // bound) and whether it is blank; the codes come in ingest's order.
    let mut st = store();
    let big = StoreOptions::default().max_source_bytes + 1;
    let code = |st: &EvidenceStore, id: &str, blank: bool, bytes: usize| st.admit(id, || blank, bytes).map(|spec| spec.source_id.clone()).map_err(|e| e.code());
    assert_eq!(code(&st, "a", false, big), Err("source_too_large"));
    assert_eq!(code(&st, "zz", false, big), Err("unknown_source"));
    assert_eq!(code(&st, "a", true, big), Err("empty_content"));
    assert_eq!(code(&st, "a", false, big - 1), Ok("a".to_owned()));
    assert_eq!(st.ingest(&scope("t"), "a", &"x".repeat(big)).unwrap_err().code(), "source_too_large");
    st.close();
    assert_eq!(code(&st, "a", false, big), Err("store_closed"));
}

#[test]
fn a_closed_store_refuses_everything() {
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", "A").unwrap();
    st.close();
    assert_eq!(st.ingest(&s, "a", "A").unwrap_err().code(), "store_closed");
    assert_eq!(st.get(&s, &r).unwrap_err().code(), "store_closed");
    assert_eq!(st.remove(&s, "a").unwrap_err().code(), "store_closed");
}

#[test]
fn limits_can_be_raised() {
    let mut r = valid_report();
    let claim = r["claims"][0].clone();
    r["claims"] = json!((0..13).map(|i| { let mut c = claim.clone(); c["claim_id"] = json!(format!("k{i}")); c }).collect::<Vec<_>>());
    assert_eq!(violations(r.clone()), vec![("/claims".to_owned(), "too_long".to_owned())]);
    let raised = evidence_check::contract::Limits { max_claims: 13, ..Default::default() };
    assert_eq!(Report::from_value_with(&r, &raised).unwrap().claims.len(), 13);
}
