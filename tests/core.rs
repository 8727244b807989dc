//! Unit tests of the core, rule by rule, including the article's mutations.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use evidence_check::assess::{assess, ClaimState, Status};
use evidence_check::clock::{format_utc_micros, is_iso_datetime, Clock};
use evidence_check::contract::validate::{is_blank, is_digest, is_filename, is_identifier};
use evidence_check::digest::{canonical_json, digest_text, normalize_newlines, report_digest};
use evidence_check::error::{ReviewErrorKind, StoreErrorKind};
use evidence_check::render::{hardened, literal, render, Escaping};
use evidence_check::review::record_review;
use evidence_check::{Contract, EvidenceStore, Report, Scope, SourceSpec, StoreError, StoreOptions};
use serde_json::{json, Value};

const NOW: &str = "2026-11-29T00:00:00+00:00";

fn clock() -> Clock {
    Clock::fixed(NOW).unwrap()
}
fn scope(t: &str) -> Scope {
    Scope { tenant_id: t.into(), user_id: "u".into() }
}
fn spec(id: &str) -> SourceSpec {
    SourceSpec::from_value(&json!({"source_id": id, "title": "T", "locator": "fixture:x", "filename": format!("{id}.md"), "kind": "fixture"})).unwrap()
}
fn store() -> EvidenceStore {
    EvidenceStore::new(vec![spec("a"), spec("b")], StoreOptions::default(), clock()).unwrap()
}
const TEXT: &str = "# Title\nPlan A works offline.\nPlan B needs a network.\n";

/// A one-claim report citing `quote` in source `a` at its unique position.
fn report_citing(store: &EvidenceStore, s: &Scope, r: &evidence_check::SourceRef, quote: &str) -> Report {
    let c = store.quote(s, r, quote, "c1").unwrap();
    Report::from_value(&json!({
        "title": "R",
        "claims": [{"claim_id": "k1", "text": "Plan A works offline.", "kind": "fact", "citations": [c]}]
    }))
    .unwrap()
}

fn violations(v: Value) -> Vec<(String, String)> {
    let e = Report::from_value(&v).unwrap_err();
    e.violations.into_iter().map(|v| (v.path, v.code.code().to_owned())).collect()
}

fn valid_report() -> Value {
    json!({
        "title": "R",
        "claims": [{"claim_id": "k1", "text": "x", "kind": "fact", "citations": [
            {"citation_id": "c1", "ref": {"source_id": "a", "revision": 1, "digest": "0".repeat(64)}, "start": 0, "end": 1, "quote": "x"}
        ]}]
    })
}

#[test]
fn patterns_follow_the_reference_and_reject_a_trailing_newline() {
    assert!(is_identifier("a"));
    assert!(is_identifier(&format!("a{}", "b".repeat(63))));
    assert!(!is_identifier(&format!("a{}", "b".repeat(64))));
    assert!(!is_identifier("a\n"));
    assert!(!is_identifier("_a"));
    assert!(!is_identifier("é"));
    assert!(!is_identifier(""));
    assert!(is_filename("plan_a.md"));
    assert!(!is_filename("plan_a.md\n"));
    assert!(!is_filename(".md"));
    assert!(!is_filename("a.txt"));
    assert!(is_digest(&"a".repeat(64)));
    assert!(!is_digest(&"A".repeat(64)));
    assert!(!is_digest(&format!("{}\n", "a".repeat(64))));
}

#[test]
fn blank_follows_python_strip() {
    assert!(is_blank(" \t\n\u{3000}\u{a0}\u{2028}\u{1c}\u{1f}"));
    assert!(!is_blank("\u{200b}"));
    assert!(!is_blank("\u{feff}"));
}

#[test]
fn no_coercion_and_every_violation_listed_with_its_path() {
    let mut r = valid_report();
    r["claims"][0]["citations"][0]["start"] = json!("0");
    r["claims"][0]["citations"][0]["end"] = json!(true);
    r["claims"][0]["citations"][0]["ref"]["revision"] = json!(1.0);
    r["claims"][0]["text"] = json!(1);
    r["extra"] = json!(null);
    let got = violations(r);
    assert_eq!(
        got,
        vec![
            ("/extra".to_owned(), "extra_field".to_owned()),
            ("/claims/0/text".to_owned(), "wrong_type".to_owned()),
            ("/claims/0/citations/0/ref/revision".to_owned(), "wrong_type".to_owned()),
            ("/claims/0/citations/0/start".to_owned(), "wrong_type".to_owned()),
            ("/claims/0/citations/0/end".to_owned(), "wrong_type".to_owned()),
        ]
    );
}

#[test]
fn numbers_below_their_minimum_and_missing_fields() {
    let mut r = valid_report();
    r["claims"][0]["citations"][0]["start"] = json!(-1);
    r["claims"][0]["citations"][0]["end"] = json!(0);
    r["claims"][0].as_object_mut().unwrap().remove("kind");
    assert_eq!(
        violations(r),
        vec![
            ("/claims/0/kind".to_owned(), "missing".to_owned()),
            ("/claims/0/citations/0/start".to_owned(), "too_small".to_owned()),
            ("/claims/0/citations/0/end".to_owned(), "too_small".to_owned()),
        ]
    );
}

#[test]
fn lengths_count_code_points() {
    let mut r = valid_report();
    r["title"] = json!("😀".repeat(120));
    assert!(Report::from_value(&r).is_ok());
    r["title"] = json!("😀".repeat(121));
    assert_eq!(violations(r), vec![("/title".to_owned(), "too_long".to_owned())]);
}

#[test]
fn cross_field_rules_each_reported() {
    let mut r = valid_report();
    r["claims"][0]["citations"][0]["end"] = json!(0);
    r["claims"][0]["citations"][0]["start"] = json!(0);
    // end >= 1 is a field rule; start == end is the range rule.
    r["claims"][0]["citations"][0]["end"] = json!(1);
    r["claims"][0]["citations"][0]["start"] = json!(1);
    assert_eq!(violations(r.clone()), vec![("/claims/0/citations/0".to_owned(), "empty_range".to_owned())]);

    let mut r = valid_report();
    r["claims"][0]["kind"] = json!("inference");
    r["claims"][0]["rationale"] = json!(" \u{3000}");
    assert_eq!(violations(r), vec![("/claims/0".to_owned(), "blank_claim".to_owned())]);

    // Several report-level rules at once: all are listed, at the report's root.
    let mut r = valid_report();
    let claim = r["claims"][0].clone();
    let mut other = claim.clone();
    other["citations"][0]["quote"] = json!("y");
    other["citations"] = json!([other["citations"][0].clone(), other["citations"][0].clone()]);
    r["claims"] = json!([claim.clone(), claim, other]);
    r["conflicts"] = json!([{"claim_ids": ["k1", "k1"], "reason": "r"}, {"claim_ids": ["k1", "zz"], "reason": "r"}]);
    assert_eq!(
        violations(r),
        vec![
            ("".to_owned(), "duplicate_claim_id".to_owned()),
            ("".to_owned(), "duplicate_citation_in_claim".to_owned()),
            ("/claims/2/citations/0".to_owned(), "citation_id_conflict".to_owned()),
            ("/claims/2/citations/1".to_owned(), "citation_id_conflict".to_owned()),
            ("".to_owned(), "duplicate_conflict_member".to_owned()),
            ("".to_owned(), "unknown_conflict_member".to_owned()),
        ]
    );
}

#[test]
fn list_limits() {
    let mut r = valid_report();
    let c = r["claims"][0]["citations"][0].clone();
    r["claims"][0]["citations"] = json!([c.clone(), c.clone(), c.clone(), c.clone(), c]);
    r["gaps"] = json!(vec!["g"; 9]);
    r["conflicts"] = json!([{"claim_ids": ["k1"], "reason": "r"}]);
    assert_eq!(
        violations(r),
        vec![
            ("/claims/0/citations".to_owned(), "too_long".to_owned()),
            ("/conflicts/0/claim_ids".to_owned(), "too_short".to_owned()),
            ("/gaps".to_owned(), "too_long".to_owned()),
        ]
    );
    let mut r = valid_report();
    r["claims"] = json!([]);
    assert_eq!(violations(r), vec![("/claims".to_owned(), "too_short".to_owned())]);
}

#[test]
fn json_text_duplicate_keys_and_size_limit() {
    let e = Report::from_json(r#"{"title": "a", "title": "b", "claims": []}"#).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "duplicate_key");
    let e = Report::from_json("{").unwrap_err();
    assert_eq!(e.violations[0].code.code(), "invalid_json");
    let tiny = evidence_check::contract::Limits { max_input_bytes: 10, ..Default::default() };
    let e = Report::from_json_with(&valid_report().to_string(), &tiny).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "input_too_large");
    let deep = format!("{}{}", "[".repeat(500), "]".repeat(500));
    let e = Report::from_json(&deep).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "too_deep");
}

#[test]
fn canonical_json_is_pythons_sorted_compact_form() {
    let v = json!({"b": "q\"\\\u{0}\u{1f}\u{7f}\u{2028}é😀\n\t\r\u{8}\u{c}", "a": [1, {"z": true, "é": null, "Z": "x"}], "ä": 1, "B": 2});
    // Printed by Python: json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    let python = "{\"B\":2,\"a\":[1,{\"Z\":\"x\",\"z\":true,\"\u{e9}\":null}],\"b\":\"q\\\"\\\\\\u0000\\u001f\u{7f}\u{2028}\u{e9}\u{1f600}\\n\\t\\r\\b\\f\",\"\u{e4}\":1}";
    assert_eq!(canonical_json(&v), python);
}

#[test]
fn newline_normalisation() {
    assert_eq!(normalize_newlines("a\r\nb\rc\n\r\r\n"), "a\nb\nc\n\n\n");
    assert_eq!(normalize_newlines("plain"), "plain");
    assert_eq!(digest_text("a\r\nb"), digest_text("a\nb"));
    assert_eq!(digest_text(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

#[test]
fn literal_matches_python() {
    let input = "  a\u{3000}b\u{a0}c\u{2028}d\u{1c}e\u{200b}f\u{feff}g  <h> & [x](javascript:y) `*_{}#+-.!|>~\\ http://x.y/@z:1 ";
    let python = "a b c d e\u{200b}f\u{feff}g &lt;h&gt; &amp; \\[x\\]\\(javascript:y\\) \\`\\*\\_\\{\\}\\#\\+\\-\\.\\!\\|&gt;\\~\\\\ http://x\\.y/@z:1";
    assert_eq!(literal(input), python);
}

#[test]
fn clock_formats_and_checks() {
    assert_eq!(format_utc_micros(0), "1970-01-01T00:00:00+00:00");
    assert_eq!(format_utc_micros(1_795_975_867_123_000), "2026-11-29T18:11:07.123000+00:00");
    assert_eq!(format_utc_micros(951_782_400_000_001), "2000-02-29T00:00:00.000001+00:00");
    assert!(is_iso_datetime(NOW));
    assert!(is_iso_datetime("2024-02-29T23:59:59.5Z"));
    assert!(!is_iso_datetime("2023-02-29T00:00:00Z"));
    assert!(!is_iso_datetime("2026-11-29 00:00:00+00:00"));
    assert!(!is_iso_datetime("2026-11-29T00:00:00"));
    assert!(Clock::fixed("yesterday").is_err());
}

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
fn reviews_are_bound_to_scope_and_digest() {
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st, &s, &r, "Plan A works offline.");
    let review = record_review(&s, &report, "k1", "supported", "checked", &clock()).unwrap();
    assert_eq!(review.report_digest, report_digest(&report));
    let a = assess(&s, &report, &st, std::slice::from_ref(&review)).unwrap();
    assert_eq!(a.status, Status::ReviewedCandidate);

    // A review of another report (edited text) does not carry over.
    let mut edited = report.clone();
    edited.claims[0].text = "Plan A works offline, always.".into();
    assert_eq!(assess(&s, &edited, &st, std::slice::from_ref(&review)).unwrap_err(), ReviewErrorKind::ReviewMismatch);
    // Nor a review from another scope, nor a duplicate.
    let other = record_review(&scope("x"), &report, "k1", "supported", "n", &clock()).unwrap();
    assert_eq!(assess(&s, &report, &st, &[other]).unwrap_err(), ReviewErrorKind::ReviewMismatch);
    assert_eq!(assess(&s, &report, &st, &[review.clone(), review]).unwrap_err(), ReviewErrorKind::ReviewMismatch);

    assert_eq!(record_review(&s, &report, "zz", "supported", "n", &clock()).unwrap_err(), ReviewErrorKind::UnknownClaim);
    assert_eq!(record_review(&s, &report, "k1", "approved", "n", &clock()).unwrap_err(), ReviewErrorKind::InvalidVerdict);
    assert_eq!(record_review(&s, &report, "k1", "supported", "\u{3000}", &clock()).unwrap_err(), ReviewErrorKind::InvalidNote);
    assert!(record_review(&s, &report, "k1", "supported", &"n".repeat(1000), &clock()).is_ok());
    assert_eq!(record_review(&s, &report, "k1", "supported", &"n".repeat(1001), &clock()).unwrap_err(), ReviewErrorKind::InvalidNote);
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
fn render_refuses_invalid_and_oversize() {
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let mut report = report_citing(&st, &s, &r, "Plan A works offline.");
    let ok = render(&s, &report, &st, &[], &clock(), Escaping::Reference).unwrap();
    assert_eq!(ok.content_digest, evidence_check::digest::sha256_hex(&ok.content));
    assert!(ok.content.contains("状态:needs_review;导出时间:2026-11-29T00:00:00+00:00"));
    assert!(ok.content.contains("字符区间:[8, 29);行:2—2"));
    report.claims[0].citations[0].quote = "tampered".into();
    assert_eq!(render(&s, &report, &st, &[], &clock(), Escaping::Reference).unwrap_err().code(), "report_invalid");
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
    let reference = evidence_check::locate::LocateOptions { counting: evidence_check::locate::Counting::Reference, ..Default::default() };
    for text in ["😀", "", "ww"] {
        let sel = evidence_check::locate::Selector::exact(text);
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
    let code = |st: &EvidenceStore, id: &str, blank: bool, bytes: usize| st.admit(id, || blank, bytes).map(|spec| spec.source_id).map_err(|e| e.code());
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

#[test]
fn hardened_escaping_leaves_no_markdown_and_shows_invisible_characters() {
    assert_eq!(
        hardened("  see http://x.y/a_b?c=1&d  www.example.org a@b.co <b> [x](y) | ~~z~~ :) "),
        "see http\\:\\/\\/x\\.y\\/a\\_b\\?c\\=1\\&d www\\.example\\.org a⟦U+0040⟧b\\.co \\<b\\> \\[x\\]\\(y\\) \\| \\~\\~z\\~\\~ \\:\\)"
    );
    assert_eq!(hardened("a\u{202e}b\u{200b}c\u{0}d\u{7f}"), "a⟦U+202E⟧b⟦U+200B⟧c⟦U+0000⟧d⟦U+007F⟧");
    assert_eq!(hardened("line\nbreak\u{2028}here"), "line break here");
    // The reference's escaping is kept byte for byte as the compat mode.
    assert_eq!(Escaping::Reference.text("http://x.y"), "http://x\\.y");
    assert_eq!(Escaping::Hardened.text("http://x.y"), "http\\:\\/\\/x\\.y");
}

#[test]
fn offsets_convert_between_units_and_never_split_a_character() {
    use evidence_check::citation::{convert_offset, Unit};
    use evidence_check::error::OffsetErrorKind;
    let t = "a😀é中\n";
    // code points: a 😀 é 中 \n = 5; UTF-16: 1 2 1 1 1 = 6; UTF-8: 1 4 2 3 1 = 11
    let table = [(0, 0, 0), (1, 1, 1), (2, 3, 5), (3, 4, 7), (4, 5, 10), (5, 6, 11)];
    for (cp, u16, u8) in table {
        assert_eq!(convert_offset(t, cp, Unit::CodePoint, Unit::Utf16), Ok(u16));
        assert_eq!(convert_offset(t, cp, Unit::CodePoint, Unit::Utf8), Ok(u8));
        assert_eq!(convert_offset(t, u16, Unit::Utf16, Unit::CodePoint), Ok(cp));
        assert_eq!(convert_offset(t, u8, Unit::Utf8, Unit::Utf16), Ok(u16));
    }
    assert_eq!(convert_offset(t, 2, Unit::Utf16, Unit::CodePoint), Err(OffsetErrorKind::SplitsSurrogatePair));
    assert_eq!(convert_offset(t, 3, Unit::Utf8, Unit::CodePoint), Err(OffsetErrorKind::SplitsUtf8Sequence));
    assert_eq!(convert_offset(t, 6, Unit::CodePoint, Unit::Utf8), Err(OffsetErrorKind::OutOfRange));

    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", "x\r\n😀 offline.\n").unwrap();
    // In JS the normalised text is "x\n😀 offline.\n"; "offline." is at UTF-16 [5, 13).
    let c = st.quote_range(&s, &r, 5, 13, Unit::Utf16, "c").unwrap();
    assert_eq!((c.start, c.end, c.quote.as_str()), (4, 12, "offline."));
    assert!(st.check_citation(&s, &c).is_ok());
    assert!(matches!(
        st.quote_range(&s, &r, 3, 13, Unit::Utf16, "c"),
        Err(evidence_check::store::QuoteRangeError::Offset(OffsetErrorKind::SplitsSurrogatePair))
    ));
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

#[test]
fn signed_reviews_are_checked_with_the_key() {
    use evidence_check::assess::check_with;
    use evidence_check::review::{sign_review, verify_review, SignatureProblem};
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st, &s, &r, "Plan A works offline.");
    let plain = record_review(&s, &report, "k1", "supported", "checked", &clock()).unwrap();
    let signed = sign_review(&plain, b"host secret");
    assert_eq!(signed.signature.as_deref().map(str::len), Some(64));
    assert_eq!(verify_review(&signed, b"host secret"), Ok(()));
    assert_eq!(verify_review(&signed, b"other key"), Err(SignatureProblem::Invalid));
    assert_eq!(verify_review(&plain, b"host secret"), Err(SignatureProblem::Missing));
    let forged = evidence_check::Review { verdict: evidence_check::Verdict::Contradicted, ..signed.clone() };
    assert_eq!(verify_review(&forged, b"host secret"), Err(SignatureProblem::Invalid));

    let key = Some(&b"host secret"[..]);
    let ok = check_with(&s, &report, &st, std::slice::from_ref(&signed), key).unwrap().assessment;
    assert_eq!((ok.status, ok.state("k1")), (Status::ReviewedCandidate, Some(ClaimState::Supported)));
    for (review, code) in [(plain, "review_signature_missing"), (forged, "review_signature_invalid")] {
        let a = check_with(&s, &report, &st, &[review], key).unwrap().assessment;
        assert_eq!(a.status, Status::Invalid);
        assert_eq!(a.state("k1"), Some(ClaimState::PendingReview), "the refused review is not used");
        assert_eq!((a.issues[0].code, a.issues[0].citation_id.as_deref()), (code, None));
    }
    // Without a key, signatures are not required (the reference's behaviour).
    assert_eq!(check_with(&s, &report, &st, &[signed], None).unwrap().assessment.status, Status::ReviewedCandidate);
}

#[test]
fn web_annotations_round_trip_citations() {
    use evidence_check::annotation::{from_web_annotation, to_web_annotations};
    let mut st = store();
    let s = scope("t");
    let long = format!("{}😀 Plan A works offline.\r\n{}", "x".repeat(40), "y".repeat(40));
    let r = st.ingest(&s, "a", &long).unwrap();
    let report = report_citing(&st, &s, &r, "Plan A works offline.");
    let annotations = to_web_annotations(&s, &report, &st).unwrap();
    assert_eq!(annotations.len(), 1);
    let a = &annotations[0];
    assert_eq!(a["id"], json!("urn:evidence-check:citation:c1"));
    assert_eq!(a["target"]["source"], json!("fixture:x"));
    assert_eq!(a["body"][0]["value"], json!("Plan A works offline."));
    assert_eq!(
        a["target"]["selector"],
        json!([
            {"type": "TextQuoteSelector", "exact": "Plan A works offline.", "prefix": format!("{}😀 ", "x".repeat(30)), "suffix": format!("\n{}", "y".repeat(31))},
            {"type": "TextPositionSelector", "start": 42, "end": 63}
        ])
    );
    assert_eq!(from_web_annotation(a).unwrap(), report.claims[0].citations[0]);
    let mut broken = a.clone();
    broken["target"]["selector"][1]["start"] = json!("42");
    assert_eq!(from_web_annotation(&broken).unwrap_err().violations[0].path, "/citation/start");
    broken["id"] = json!("urn:other:1");
    assert_eq!(from_web_annotation(&broken).unwrap_err().violations[0].path, "/id");
}

#[test]
fn every_code_has_a_chinese_and_an_english_text() {
    use evidence_check::error::{ClockErrorKind, Lang, OffsetErrorKind, RenderErrorKind, ReviewErrorKind, SignatureProblem, StoreErrorKind, ViolationCode};
    let mut pairs: Vec<(&str, &str, &str)> = Vec::new();
    pairs.extend(StoreErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(ReviewErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(RenderErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(OffsetErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(ClockErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(SignatureProblem::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(evidence_check::error::BindingErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    for v in ViolationCode::ALL {
        if let (Some(zh), Some(en)) = (v.reference_message_in(Lang::Zh), v.reference_message_in(Lang::En)) {
            pairs.push((v.code(), zh, en));
        }
    }
    assert!(pairs.len() >= 30);
    for (code, zh, en) in pairs {
        assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{code}: no Chinese text: {zh}");
        assert!(en.is_ascii() && en.ends_with('.'), "{code}: not an English sentence: {en}");
    }
}

#[test]
fn the_english_artifact_has_the_same_layout() {
    use evidence_check::assess::check;
    use evidence_check::error::Lang;
    use evidence_check::render::render_checked_in;
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st, &s, &r, "Plan A works offline.");
    let checked = check(&s, &report, &st, &[]).unwrap();
    let zh = render_checked_in(&report, &checked, &clock(), Escaping::Hardened, Lang::Zh).unwrap().content;
    let en = render_checked_in(&report, &checked, &clock(), Escaping::Hardened, Lang::En).unwrap().content;
    assert_eq!(zh.lines().count(), en.lines().count());
    assert!(en.contains("## Claims\n\n- **k1 / sourced fact / awaiting review**: Plan A works offline\\. [1](#source-1)\n"), "{en}");
    assert!(en.contains("Fetched at: 2026\\-11\\-29T00\\:00\\:00\\+00\\:00; code points: [8, 29); lines: 2—2"), "{en}");
    assert!(!en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "no Chinese label left");
}
