//! Issue 14 (points 1–3): the policy (presets, custom policies, every documents limit at
//! its edge), reviews reported instead of thrown in bundle mode, and errors and issues
//! that name their subject; with a bundle of real documents (the system's licence texts,
//! a CRLF file, a file with emoji and CJK).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use evidence_check::assess::{check_opts, CheckOptions, ReviewMode};
use evidence_check::bundle::{check_bundle, Bundle, BundleError, BundleOptions};
use evidence_check::error::Lang;
use evidence_check::policy::{Policy, PolicyError};
use evidence_check::render::{render_opts, Escaping};
use evidence_check::review::{record_review, record_review_with};
use evidence_check::{ClaimState, Clock, Contract, EvidenceStore, Report, Review, Scope, SourceRef, SourceSpec, Status, StoreError};
use serde_json::{json, Value};

const NOW: &str = "2026-11-29T00:00:00+00:00";
const MIB: usize = 1024 * 1024;

fn clock() -> Clock {
    Clock::fixed(NOW).unwrap()
}
fn documents() -> Policy {
    Policy::documents()
}
fn scope() -> Scope {
    Scope { tenant_id: "t".into(), user_id: "u".into() }
}
fn spec_json(id: &str) -> Value {
    json!({"source_id": id, "title": id, "locator": format!("fixture:{id}"), "filename": format!("{id}.md"), "kind": "public"})
}
fn spec(id: &str) -> SourceSpec {
    SourceSpec::from_value(&spec_json(id)).unwrap()
}

/// A store with source `a` holding `text`, and a report citing `quote` from it.
fn store_and_report(policy: Policy, text: &str, quote: &str) -> (EvidenceStore, Report) {
    let mut st = EvidenceStore::with_policy(vec![spec("a")], policy, clock()).unwrap();
    let r = st.ingest(&scope(), "a", text).unwrap();
    let c = st.quote(&scope(), &r, quote, "c1").unwrap();
    let report = Report::from_value_with(
        &json!({"title": "T", "claims": [{"claim_id": "k1", "text": "claim", "kind": "fact", "citations": [serde_json::to_value(&c).unwrap()]}]}),
        st.policy(),
    )
    .unwrap();
    (st, report)
}

// ---- presets and custom policies -------------------------------------------------------

#[test]
fn the_reference_preset_is_the_articles_values_and_documents_the_default() {
    let p = Policy::reference();
    assert_eq!(Policy::default(), documents());
    assert_eq!((p.max_sources, p.max_source_bytes, p.max_claims, p.max_citations, p.max_gaps, p.max_conflicts), (16, 24_000, 12, 4, 8, 6));
    assert_eq!((p.max_quote_chars, p.max_claim_chars, p.max_rationale_chars, p.max_note_chars), (800, 1000, 1000, 1000));
    assert_eq!((p.max_artifact_chars, p.max_artifact_bytes, p.max_input_bytes), (8000, 24_000, 16 * MIB));
    // The old store view still gives the reference's values.
    assert_eq!(evidence_check::contract::Limits::default(), documents());
    assert_eq!(evidence_check::StoreOptions::default().policy(), p);
}

#[test]
fn the_documents_preset_has_the_issues_values() {
    let p = documents();
    assert!(p.max_sources >= 256);
    assert_eq!((p.max_source_bytes, p.max_claims, p.max_citations, p.max_quote_chars), (16 * MIB, 2000, 32, 20_000));
    assert_eq!((p.max_artifact_chars, p.max_artifact_bytes), (16 * MIB, 16 * MIB));
}

#[test]
fn a_custom_policy_extends_a_preset_and_names_an_unknown_field() {
    let p = Policy::from_json(r#"{"extends": "documents", "max_claims": 5000}"#).unwrap();
    assert_eq!(p, Policy { max_claims: 5000, ..documents() });
    // Without extends: the default preset, documents.
    assert_eq!(Policy::from_json(r#"{"max_claims": 13}"#).unwrap(), Policy { max_claims: 13, ..documents() });
    assert_eq!(Policy::from_json(r#"{"extends": "reference", "max_claims": 13}"#).unwrap(), Policy { max_claims: 13, ..Policy::reference() });
    assert_eq!(Policy::from_json("documents").unwrap(), documents());
    assert_eq!(Policy::from_json(r#""documents""#).unwrap(), documents());
    let e = Policy::from_json(r#"{"extends": "documents", "max_claim": 5000}"#).unwrap_err();
    assert_eq!(e, PolicyError::UnknownField("max_claim".into()));
    assert_eq!(e.code(), "policy_unknown_field");
    assert!(e.message().contains("'max_claim'"), "{}", e.message());
    let e = Policy::from_json(r#"{"extends": "document"}"#).unwrap_err();
    assert_eq!(e.code(), "policy_unknown_preset");
    assert!(e.message().contains("'document'") && e.message().contains("documents"), "{}", e.message());
    let e = Policy::from_json(r#"{"max_claims": "many"}"#).unwrap_err();
    assert_eq!((e.code(), e.field()), ("policy_invalid", "max_claims"));
    let e = Policy::from_json(r#"{"filename": "anything"}"#).unwrap_err();
    assert_eq!(e.field(), "filename");
    // Vocabularies in JSON.
    let p = Policy::from_json(r#"{"kinds": ["fixture", "public", "code"], "filename": "relative_path", "scope_id": "extended"}"#).unwrap();
    let spec = json!({"source_id": "s", "title": "S", "locator": "l", "filename": "src/lib.rs", "kind": "code"});
    assert!(SourceSpec::from_value_with(&spec, &p).is_ok());
    assert!(SourceSpec::from_value_with(&json!({"source_id": "s", "title": "S", "locator": "l", "filename": "src/lib.rs", "kind": "data"}), &p).is_err());
}

// ---- the documents preset at every limit's edge ---------------------------------------

fn report_value(claims: usize, citations: usize, gaps: usize, conflicts: usize, text_chars: usize, rationale_chars: usize, quote_chars: usize) -> Value {
    let quote = "q".repeat(quote_chars);
    let citation = |i: usize| json!({"citation_id": format!("c{i}"), "ref": {"source_id": "a", "revision": 1, "digest": "0".repeat(64)}, "start": 0, "end": quote_chars, "quote": quote});
    let claims: Vec<Value> = (0..claims)
        .map(|k| {
            json!({"claim_id": format!("k{k}"), "text": "t".repeat(text_chars), "kind": "inference", "rationale": "r".repeat(rationale_chars),
                   "citations": (0..citations).map(citation).collect::<Vec<_>>()})
        })
        .collect();
    let conflicts: Vec<Value> = (0..conflicts).map(|_| json!({"claim_ids": ["k0", "k1"], "reason": "r"})).collect();
    let gaps: Vec<Value> = (0..gaps).map(|g| json!(format!("gap {g}"))).collect();
    json!({"title": "T", "claims": claims, "conflicts": conflicts, "gaps": gaps})
}

fn too_long_at(v: &Value, policy: &Policy) -> Vec<String> {
    match Report::from_value_with(v, policy) {
        Ok(_) => Vec::new(),
        Err(e) => e.violations.into_iter().map(|v| format!("{} {}", v.path, v.code.code())).collect(),
    }
}

#[test]
fn documents_report_limits_at_their_edge() {
    let p = documents();
    let ok = |v: Value| assert_eq!(too_long_at(&v, &p), Vec::<String>::new());
    ok(report_value(2000, 1, 0, 0, 1, 1, 1));
    assert_eq!(too_long_at(&report_value(2001, 1, 0, 0, 1, 1, 1), &p), ["/claims too_long"]);
    ok(report_value(2, 32, 0, 0, 1, 1, 1));
    assert_eq!(too_long_at(&report_value(2, 33, 0, 0, 1, 1, 1), &p), ["/claims/0/citations too_long", "/claims/1/citations too_long"]);
    ok(report_value(2, 1, 256, 256, 1, 1, 1));
    assert_eq!(too_long_at(&report_value(2, 1, 257, 0, 1, 1, 1), &p), ["/gaps too_long"]);
    assert_eq!(too_long_at(&report_value(2, 1, 0, 257, 1, 1, 1), &p), ["/conflicts too_long"]);
    ok(report_value(1, 1, 0, 0, 20_000, 20_000, 20_000));
    assert_eq!(too_long_at(&report_value(1, 1, 0, 0, 20_001, 1, 1), &p), ["/claims/0/text too_long"]);
    assert_eq!(too_long_at(&report_value(1, 1, 0, 0, 1, 20_001, 1), &p), ["/claims/0/rationale too_long"]);
    assert_eq!(too_long_at(&report_value(1, 1, 0, 0, 1, 1, 20_001), &p), ["/claims/0/citations/0/quote too_long"]);
    // A limit's violation says how to raise it.
    let e = Report::from_value_with(&report_value(13, 1, 0, 0, 1, 1, 1), &Policy::reference()).unwrap_err();
    assert!(e.violations[0].message.contains("policy field max_claims") && e.violations[0].message.contains("--policy documents"), "{}", e.violations[0].message);
    // Under compat "reference": drop compat.
    let e = Report::from_value_with(&report_value(1, 1, 0, 0, 1, 1, 801), &Policy::reference().with_reference_messages(true)).unwrap_err();
    assert_eq!(e.violations[0].message, format!("String should have at most 800 characters, not 801; {}", evidence_check::error::Hint::RaiseCompat("max_quote_chars").text(Lang::En)));
    // The same reports under the reference policy are refused well before.
    assert_eq!(too_long_at(&report_value(13, 1, 0, 0, 1, 1, 1), &Policy::reference()), ["/claims too_long"]);
    assert_eq!(too_long_at(&report_value(1, 1, 0, 0, 1, 1, 801), &Policy::reference()), ["/claims/0/citations/0/quote too_long"]);
}

#[test]
fn documents_store_limits_at_their_edge() {
    let p = documents();
    let specs = |n: usize| (0..n).map(|i| spec(&format!("s{i}"))).collect::<Vec<_>>();
    assert!(EvidenceStore::with_policy(specs(256), p.clone(), clock()).is_ok());
    let e = EvidenceStore::with_policy(specs(257), p.clone(), clock()).unwrap_err();
    assert_eq!(e.code(), "catalogue_invalid");
    let d = e.detail().unwrap();
    assert_eq!((d.size, d.limit, d.policy_field), (Some(257), Some(256), Some("max_sources")));

    let mut st = EvidenceStore::with_policy(vec![spec("a")], p, clock()).unwrap();
    let text = "x".repeat(16 * MIB);
    assert!(st.ingest(&scope(), "a", &text).is_ok());
    let e = st.ingest(&scope(), "a", &format!("{text}y")).unwrap_err();
    assert_eq!(e.code(), "source_too_large");
    let d = e.detail().unwrap();
    assert_eq!((d.source_id.as_deref(), d.size, d.limit), (Some("a"), Some(16 * MIB + 1), Some(16 * MIB)));
}

#[test]
fn documents_input_limit_at_its_edge() {
    let p = documents();
    let at = " ".repeat(p.max_input_bytes - 2) + "{}";
    let e = Report::from_json_with(&at, &p).unwrap_err();
    assert_ne!(e.violations[0].code.code(), "input_too_large", "the limit itself is read");
    let over = at + " ";
    let e = Report::from_json_with(&over, &p).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "input_too_large");
}

#[test]
fn documents_vocabularies_at_their_edge() {
    let p = documents();
    let spec_with = |filename: &str, kind: &str| json!({"source_id": "s", "title": "S", "locator": "l", "filename": filename, "kind": kind});
    let ok = |v: Value| SourceSpec::from_value_with(&v, &p).is_ok();
    // kind: any identifier.
    assert!(ok(spec_with("a.md", "source-code")));
    assert!(!ok(spec_with("a.md", "source code")));
    assert!(!SourceSpec::from_value_with(&spec_with("a.md", "source-code"), &Policy::reference()).unwrap_err().violations.is_empty());
    // filename: any relative path of at most 255 bytes.
    for good in ["textwrap.py", "notes.txt", "docs/guide/intro.md", "a..b", "dir/.hidden"] {
        assert!(ok(spec_with(good, "public")), "{good}");
    }
    for bad in ["../etc/passwd", "a/../b", "..", "/etc/passwd", "a\\b", "a\u{0}b", "a\nb", "a\u{85}b", ""] {
        assert!(!ok(spec_with(bad, "public")), "{bad:?}");
    }
    assert!(ok(spec_with(&"f".repeat(255), "public")));
    assert!(!ok(spec_with(&"f".repeat(256), "public")));
    // Scope ids: [A-Za-z0-9][A-Za-z0-9._@+-]{0,127}.
    let scope_ok = |t: &str, p: &Policy| Scope::from_value_with(&json!({"tenant_id": t, "user_id": "u"}), p).is_ok();
    assert!(scope_ok("ana@acme.com", &p));
    assert!(scope_ok("ana+tag@acme.co.uk", &p));
    assert!(!scope_ok("ana@acme.com", &Policy::reference()));
    assert!(scope_ok(&format!("a{}", "b".repeat(127)), &p));
    assert!(!scope_ok(&format!("a{}", "b".repeat(128)), &p));
    assert!(!scope_ok(".ana", &p));
}

#[test]
fn documents_note_limit_at_its_edge() {
    let p = documents();
    let (_, report) = store_and_report(p.clone(), "Alpha beta gamma.", "beta");
    assert!(record_review_with(&scope(), &report, "k1", "supported", &"n".repeat(20_000), &clock(), &p).is_ok());
    let e = record_review_with(&scope(), &report, "k1", "supported", &"n".repeat(20_001), &clock(), &p).unwrap_err();
    assert_eq!(e.code(), "invalid_note");
    assert!(record_review(&scope(), &report, "k1", "supported", &"n".repeat(1001), &clock()).is_err());
    let d = evidence_check::review::refusal_detail(e, &json!("k1"), Some(20_001), &p).unwrap();
    assert_eq!((d.size, d.limit, d.policy_field), (Some(20_001), Some(20_000), Some("max_note_chars")));
    let d = evidence_check::review::refusal_detail(evidence_check::ReviewErrorKind::UnknownClaim, &json!("k9"), None, &p).unwrap();
    assert!(d.message("审阅目标不存在。", Lang::En).contains("claim k9"));
    // A review note at the documents limit passes the review contract under that policy only.
    let review = record_review_with(&scope(), &report, "k1", "supported", &"n".repeat(20_000), &clock(), &p).unwrap();
    let v = serde_json::to_value(&review).unwrap();
    assert!(Review::from_value_with(&v, &p).is_ok());
    assert!(Review::from_value_with(&v, &Policy::reference()).is_err());
}

#[test]
fn documents_artifact_limit_at_its_edge() {
    // The artifact's size, then a policy (extending documents) whose limits are exactly
    // that size and one less.
    let (st, report) = store_and_report(documents(), "Alpha beta gamma.", "beta");
    let size = |st: &EvidenceStore| render_opts(&scope(), &report, st, &[], &clock(), Escaping::Hardened, CheckOptions::default(), Lang::Zh);
    let content = size(&st).unwrap().content;
    let (bytes, chars) = (content.len(), content.chars().count());
    assert!(bytes > chars, "the artifact has non-ASCII labels, so the two limits differ");
    let with = |max_bytes: usize, max_chars: usize| {
        let p = Policy { max_artifact_bytes: max_bytes, max_artifact_chars: max_chars, ..documents() };
        let (st, _) = store_and_report(p, "Alpha beta gamma.", "beta");
        size(&st).map(|a| a.content.len()).map_err(|e| e.code())
    };
    assert_eq!(with(bytes, chars), Ok(bytes));
    assert_eq!(with(bytes - 1, chars), Err("artifact_too_large"));
    assert_eq!(with(bytes, chars - 1), Err("artifact_too_large"));
    // The refusal names the size, the limit and how to raise it.
    let p = Policy { max_artifact_chars: chars - 1, ..documents() };
    let (st2, _) = store_and_report(p, "Alpha beta gamma.", "beta");
    let f = size(&st2).unwrap_err();
    let d = f.detail.as_deref().unwrap();
    assert_eq!((d.size, d.limit, d.unit, d.policy_field), (Some(chars), Some(chars - 1), Some("code_points"), Some("max_artifact_chars")));
    assert!(f.message_in(Lang::En).contains("--policy documents"), "{}", f.message_in(Lang::En));
    // Under the reference, twelve long quotes pass assess and fail render; documents renders them.
    let text: String = (0..12).map(|i| format!("Paragraph {i}: {}\n\n", "word ".repeat(150))).collect();
    let mut st = EvidenceStore::with_policy(vec![spec("a")], documents(), clock()).unwrap();
    let r = st.ingest(&scope(), "a", &text).unwrap();
    let claims: Vec<Value> = (0..12)
        .map(|i| {
            let quote = format!("Paragraph {i}: {}", "word ".repeat(150).trim_end());
            let c = st.quote(&scope(), &r, &quote, &format!("c{i}")).unwrap();
            json!({"claim_id": format!("k{i}"), "text": "claim", "kind": "fact", "citations": [c]})
        })
        .collect();
    let report = Report::from_value(&json!({"title": "T", "claims": claims})).unwrap();
    assert!(render_opts(&scope(), &report, &st, &[], &clock(), Escaping::Hardened, CheckOptions::default(), Lang::Zh).is_ok());
    let mut reference = EvidenceStore::with_policy(vec![spec("a")], Policy { max_source_bytes: MIB, ..Policy::reference() }, clock()).unwrap();
    reference.ingest(&scope(), "a", &text).unwrap();
    let f = render_opts(&scope(), &report, &reference, &[], &clock(), Escaping::Hardened, CheckOptions::default(), Lang::En).unwrap_err();
    assert_eq!(f.code(), "artifact_too_large");
    assert!(f.message_in(Lang::En).contains("over the limit of 8000 code_points") && f.message_in(Lang::En).contains("max_artifact_chars"), "{}", f.message_in(Lang::En));
    // checkBundle reports it as data, with the same detail.
    let v = json!({"scope": scope(), "sources": [{"spec": spec_json("a"), "content": text}], "report": report});
    let bundle = Bundle::from_value(&v).unwrap();
    let options = BundleOptions { policy: Policy { max_source_bytes: MIB, ..Policy::reference() }, ..BundleOptions::new(clock()) };
    let issue = check_bundle(&bundle, &options).unwrap().render_error.unwrap();
    assert_eq!((issue.code, issue.detail.as_ref().unwrap().policy_field), ("artifact_too_large", Some("max_artifact_chars")));
}

// ---- the split codes and subjects ------------------------------------------------------

#[test]
fn ref_unavailable_is_split_and_names_its_subject() {
    let text = "Plan A works offline.";
    let (mut st, report) = store_and_report(Policy::reference(), text, "works offline");
    let citation = report.claims[0].citations[0].clone();
    let code_of = |st: &EvidenceStore, s: &Scope, c: &evidence_check::Citation| st.check_citation(s, c).unwrap_err();

    // Another scope: only that this scope has no snapshot.
    let other = Scope { tenant_id: "other".into(), user_id: "u".into() };
    let e = code_of(&st, &other, &citation);
    assert_eq!(e.code(), "source_not_ingested");
    // ...the same answer as for a catalogued source that nobody ingested anywhere.
    let mut fresh = EvidenceStore::new(vec![spec("a")], Default::default(), clock()).unwrap();
    let e2 = code_of(&fresh, &other, &citation);
    assert_eq!((e.code(), e.message()), (e2.code(), e2.message()));
    // Not in this store's catalogue.
    let mut foreign = citation.clone();
    foreign.source_ref.source_id = "zz".into();
    assert_eq!(code_of(&st, &scope(), &foreign).code(), "source_not_in_scope");
    // Wrong digest at the current revision.
    let mut digest = citation.clone();
    digest.source_ref.digest = "0".repeat(64);
    let e = code_of(&st, &scope(), &digest);
    assert_eq!(e.code(), "digest_mismatch");
    let d = e.detail().unwrap();
    assert_eq!((d.cited_digest.as_deref(), d.current_digest.as_deref()), (Some("0".repeat(64).as_str()), Some(citation.source_ref.digest.as_str())));
    assert!(e.message_in(Lang::En).contains(&format!("cited digest {}, current digest {}", "0".repeat(64), citation.source_ref.digest)), "{}", e.message_in(Lang::En));
    // A newer revision.
    st.ingest(&scope(), "a", "Plan A works offline. Now online too.").unwrap();
    let e = code_of(&st, &scope(), &citation);
    assert_eq!(e.code(), "revision_stale");
    assert_eq!((e.detail().unwrap().cited_revision, e.detail().unwrap().current_revision), (Some(1), Some(2)));
    assert!(e.message_in(Lang::En).contains("cited revision 1, current revision 2"), "{}", e.message_in(Lang::En));
    // Removed.
    st.remove(&scope(), "a").unwrap();
    assert_eq!(code_of(&st, &scope(), &citation).code(), "source_removed");
    // In an assessment: the issue carries the code and the subject.
    let a = evidence_check::assess(&scope(), &report, &st, &[]).unwrap();
    assert_eq!((a.issues[0].code, a.issues[0].detail.as_ref().unwrap().source_id.as_deref()), ("source_removed", Some("a")));
    // compat "reference": the reference's code and text.
    let r = fresh.ingest(&scope(), "a", "changed").unwrap();
    assert_eq!(r.revision, 1);
    let mut reference = EvidenceStore::with_policy(vec![spec("a")], Policy::reference().with_reference_messages(true), clock()).unwrap();
    reference.ingest(&scope(), "a", "changed").unwrap();
    let e = code_of(&reference, &scope(), &citation);
    assert_eq!((e.code(), e.message()), ("ref_unavailable", "来源不存在、已撤销、越权或版本失效。".to_owned()));
    let a = evidence_check::assess(&scope(), &report, &reference, &[]).unwrap();
    assert_eq!(a.issues[0].code, "ref_unavailable");
    assert!(a.issues[0].detail.is_none());
    assert_eq!(serde_json::to_value(&a.issues[0]).unwrap().as_object().unwrap().len(), 4, "no subject fields under compat");
}

#[test]
fn range_and_quote_issues_name_the_range_and_the_text_length() {
    let (st, report) = store_and_report(Policy::reference(), "Plan A works offline.", "works");
    let mut r = report.clone();
    r.claims[0].citations[0].end = 99;
    let e = st.check_citation(&scope(), &r.claims[0].citations[0]).unwrap_err();
    assert_eq!(e.code(), "range_out_of_bounds");
    let d = e.detail().unwrap();
    assert_eq!((d.start, d.end, d.text_length), (Some(7), Some(99), Some(21)));
    assert!(e.message_in(Lang::En).contains("range [7, 99); text length 21"), "{}", e.message_in(Lang::En));
}

#[test]
fn a_source_over_the_limit_names_source_size_limit_and_how_to_raise_it() {
    let mut st = EvidenceStore::new(vec![spec("a")], Default::default(), clock()).unwrap();
    let e = st.ingest(&scope(), "a", &"x".repeat(24_001)).unwrap_err();
    let en = e.message_in(Lang::En);
    for part in ["source a", "24001 bytes", "limit of 24000 bytes", "max_source_bytes", "--policy documents"] {
        assert!(en.contains(part), "{part:?} missing from {en}");
    }
    assert!(e.message().contains("max_source_bytes") && e.message().contains("来源 a"), "{}", e.message());
    assert_eq!(e.reference_message(), "来源超过字节上限。");
    // The store's other refusals name the source too.
    let e = st.ingest(&scope(), "zz", "text").unwrap_err();
    assert_eq!((e.code(), e.detail().unwrap().source_id.as_deref()), ("unknown_source", Some("zz")));
    let e = st.ingest(&scope(), "a", "  \n").unwrap_err();
    assert_eq!((e.code(), e.detail().unwrap().source_id.as_deref()), ("empty_content", Some("a")));
    st.restore(&scope(), "a", "text", 3, None).unwrap();
    let e = st.restore(&scope(), "a", "text", 2, None).unwrap_err();
    let d = e.detail().unwrap();
    assert_eq!((e.code(), d.cited_revision, d.current_revision), ("revision_not_newer", Some(2), Some(3)));
    let e = st.ingest_read_result(&scope(), "a", &json!({"status": "ok", "message": "", "data": {"filename": "b.md", "content": "x"}})).unwrap_err();
    assert_eq!((e.code(), e.detail().unwrap().source_id.as_deref()), ("read_mismatch", Some("a")));
}

#[test]
fn citation_id_conflict_names_the_id_and_both_passages() {
    let citation = |start: u64, quote: &str| json!({"citation_id": "c1", "ref": {"source_id": "a", "revision": 1, "digest": "0".repeat(64)}, "start": start, "end": start + quote.chars().count() as u64, "quote": quote});
    let v = json!({"title": "T", "claims": [
        {"claim_id": "k1", "text": "t", "kind": "fact", "citations": [citation(0, "abc")]},
        {"claim_id": "k2", "text": "t", "kind": "fact", "citations": [citation(5, "xyz")]}]});
    let e = Report::from_value(&v).unwrap_err();
    assert_eq!(e.violations.len(), 1);
    let v0 = &e.violations[0];
    assert_eq!((v0.path.as_str(), v0.code.code()), ("/claims/1/citations/0", "citation_id_conflict"));
    for part in ["'c1'", "a r1 [0, 3) at /claims/0/citations/0", "a r1 [5, 8) at /claims/1/citations/0"] {
        assert!(v0.message.contains(part), "{part:?} missing from {}", v0.message);
    }
    // compat "reference": the reference's path and text.
    let e = Report::from_value_with(&v, &Policy::reference().with_reference_messages(true)).unwrap_err();
    assert_eq!((e.violations[0].path.as_str(), e.violations[0].message.as_str()), ("", "同一引用标识对应不同片段。"));
}

#[test]
fn ambiguous_quotes_are_reported_with_their_count() {
    let (st, _) = store_and_report(documents(), "one two one two one three", "two one three");
    let r = st.current(&scope(), "a").unwrap().source_ref.clone();
    let e = st.quote(&scope(), &r, "one", "c9").unwrap_err();
    assert_eq!(e.code(), "quote_ambiguous");
    let StoreError::Locate(l) = &e else { panic!("{e:?}") };
    assert_eq!(l.count(), Some(3));
    assert_eq!(st.quote(&scope(), &r, "four", "c9").unwrap_err().code(), "quote_not_found");
}

// ---- reviews: reported, not thrown -----------------------------------------------------

fn bundle_with_reviews(reviews: impl FnOnce(&Report, &Scope) -> Vec<Review>) -> Bundle {
    let text = "Plan A works offline. Plan B needs a network.";
    let (st, report) = store_and_report(Policy::reference(), text, "works offline");
    let _ = st;
    let reviews = reviews(&report, &scope());
    let v = json!({
        "scope": scope(),
        "sources": [{"spec": spec_json("a"), "content": text}],
        "report": report,
        "reviews": reviews,
    });
    Bundle::from_value(&v).unwrap()
}

fn review_of(report: &Report, scope: &Scope) -> Review {
    record_review(scope, report, "k1", "supported", "checked", &clock()).unwrap()
}

#[test]
fn stale_foreign_and_duplicate_reviews_are_issues_in_bundle_mode() {
    let options = BundleOptions::new(clock());
    // A valid review: reviewed_candidate.
    let good = bundle_with_reviews(|r, s| vec![review_of(r, s)]);
    assert_eq!(check_bundle(&good, &options).unwrap().assessment.status, Status::ReviewedCandidate);

    // A review of another report digest (the quote was edited after the review).
    let stale = bundle_with_reviews(|r, s| {
        let mut edited = r.clone();
        edited.title = "Edited".into();
        vec![review_of(&edited, s)]
    });
    let result = check_bundle(&stale, &options).unwrap();
    let a = &result.assessment;
    assert_eq!(a.status, Status::NeedsReview, "the review is not counted; nothing is invalid");
    assert_eq!(a.state("k1"), Some(ClaimState::PendingReview));
    assert_eq!(a.issues.len(), 1);
    let i = &a.issues[0];
    assert_eq!((i.code, i.claim_id.as_str(), i.citation_id.as_deref()), ("review_stale_digest", "k1", None));
    let d = i.detail.as_ref().unwrap();
    assert_eq!(d.review_index, Some(0));
    // The review cites a digest; the report's is the current one.
    assert_eq!(d.current_digest.as_deref(), Some(a.report_digest.as_str()));
    assert_eq!(d.cited_digest.as_deref(), Some(stale.reviews[0].report_digest.as_str()));
    assert!(result.artifact.is_some(), "the report still renders, as awaiting review");

    // Another scope's review, then a second review of the same claim.
    let foreign = bundle_with_reviews(|r, s| {
        let other = Scope { tenant_id: "other".into(), user_id: "u".into() };
        vec![review_of(r, &other), review_of(r, s), review_of(r, s)]
    });
    let a = check_bundle(&foreign, &options).unwrap().assessment;
    let found: Vec<(&str, Option<usize>)> = a.issues.iter().map(|i| (i.code, i.detail.as_ref().unwrap().review_index)).collect();
    assert_eq!(found, [("review_other_scope", Some(0)), ("review_duplicate", Some(2))]);
    assert_eq!(a.state("k1"), Some(ClaimState::Supported), "the one valid review counts");
    assert_eq!(a.status, Status::ReviewedCandidate);

    // The reference's throw stays one option away.
    let throw = BundleOptions { reviews: ReviewMode::Throw, ..BundleOptions::new(clock()) };
    let e = check_bundle(&stale, &throw).unwrap_err();
    assert!(matches!(e, BundleError::Review(_)));
    assert_eq!(e.code(), "review_mismatch");
}

#[test]
fn assess_and_render_throw_by_default_and_report_when_asked() {
    let b = bundle_with_reviews(|r, s| {
        let mut edited = r.clone();
        edited.title = "Edited".into();
        vec![review_of(&edited, s)]
    });
    let mut st = EvidenceStore::new(vec![spec("a")], Default::default(), clock()).unwrap();
    st.ingest(&scope(), "a", &b.sources[0].content).unwrap();
    assert_eq!(evidence_check::assess(&scope(), &b.report, &st, &b.reviews).unwrap_err().code(), "review_mismatch");
    assert_eq!(
        evidence_check::render(&scope(), &b.report, &st, &b.reviews, &clock(), Escaping::Hardened).unwrap_err().code(),
        "review_mismatch"
    );
    let report = CheckOptions { reviews: ReviewMode::Report, ..Default::default() };
    let a = check_opts(&scope(), &b.report, &st, &b.reviews, report).unwrap().assessment;
    assert_eq!((a.status, a.issues[0].code), (Status::NeedsReview, "review_stale_digest"));
    let artifact = render_opts(&scope(), &b.report, &st, &b.reviews, &clock(), Escaping::Hardened, report, Lang::Zh).unwrap();
    assert_eq!(artifact.status, Status::NeedsReview);
}

// ---- the schema states the policy ------------------------------------------------------

#[test]
fn the_schema_states_the_policy_and_the_blank_and_rationale_rules() {
    use evidence_check::schema::{bundle_schema, report_schema, Dialect};
    let s = report_schema(Dialect::Standard, &documents());
    assert_eq!(s["properties"]["claims"]["maxItems"], json!(2000));
    let claim = &s["$defs"]["Claim"];
    assert_eq!(claim["properties"]["citations"]["maxItems"], json!(32));
    assert_eq!(s["$defs"]["Citation"]["properties"]["quote"]["maxLength"], json!(20_000));
    assert_eq!(claim["properties"]["text"]["pattern"], json!("\\S"));
    assert_eq!(claim["if"]["properties"]["kind"]["const"], json!("inference"));
    assert_eq!(claim["then"]["required"], json!(["rationale"]));
    let reference = report_schema(Dialect::Standard, &Policy::reference());
    assert_eq!(reference["$defs"]["Citation"]["properties"]["quote"]["maxLength"], json!(800));
    let strict = report_schema(Dialect::OpenAiStrict, &Policy::reference());
    let d = |v: &Value| v["description"].as_str().unwrap_or("").to_owned();
    assert!(d(&strict["$defs"]["Claim"]["properties"]["text"]).contains("not whitespace"));
    assert!(d(&strict["$defs"]["Claim"]["properties"]["rationale"]).contains("when kind is inference"));
    assert!(strict["$defs"]["Claim"].get("if").is_none());
    let b = bundle_schema(Dialect::Standard, &documents());
    assert_eq!(b["properties"]["sources"]["maxItems"], json!(256));
    assert_eq!(b["$defs"]["Scope"]["properties"]["tenant_id"]["pattern"], json!("^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$"));
    assert_eq!(b["$defs"]["SourceSpec"]["properties"]["kind"]["pattern"], json!("^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"));
    assert_eq!(bundle_schema(Dialect::Standard, &Policy::reference())["$defs"]["SourceSpec"]["properties"]["kind"]["enum"], json!(["fixture", "public"]));
}

// ---- a bundle of real documents ----------------------------------------------------------

/// The licence texts of the system (Debian's common-licenses), a CRLF file and a file
/// with emoji and CJK, each cited by quote.
fn real_documents() -> Option<Vec<(&'static str, String, Vec<&'static str>)>> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let data = |f: &str| read(&format!("{}/tests/data/documents/{f}", env!("CARGO_MANIFEST_DIR")));
    Some(vec![
        ("gpl-3", read("/usr/share/common-licenses/GPL-3")?, vec!["The GNU General Public License is a free, copyleft license for\nsoftware and other kinds of works.", "THERE IS NO WARRANTY FOR THE PROGRAM"]),
        ("apache-2", read("/usr/share/common-licenses/Apache-2.0")?, vec!["Grant of Copyright License.", "You must give any other recipients of the Work or\n          Derivative Works a copy of this License"]),
        ("mpl-2", read("/usr/share/common-licenses/MPL-2.0")?, vec!["Distribution of Executable Form", "This Source Code Form is subject to the terms of the Mozilla Public"]),
        ("release-notes", data("release-notes-crlf.txt")?, vec!["The sync daemon now retries three times\r\nbefore it reports a failure."]),
        ("unicode-notes", data("unicode-notes.md")?, vec!["👩🏽‍💻 writes code", "証拠は引用と一致しなければならない", "인용은 원문과 일치해야 합니다"]),
    ])
}

fn real_bundle(policy: &Policy) -> Value {
    let docs = real_documents().expect("/usr/share/common-licenses (GPL-3, Apache-2.0, MPL-2.0) and tests/data/documents");
    let specs: Vec<SourceSpec> = docs.iter().map(|(id, _, _)| spec(id)).collect();
    let mut st = EvidenceStore::with_policy(specs, documents(), clock()).unwrap();
    let mut claims = Vec::new();
    for (id, text, quotes) in &docs {
        let r: SourceRef = st.ingest(&scope(), id, text).unwrap();
        let citations: Vec<Value> = quotes
            .iter()
            .enumerate()
            .map(|(i, q)| serde_json::to_value(st.quote(&scope(), &r, q, &format!("{id}-{i}")).unwrap()).unwrap())
            .collect();
        claims.push(json!({"claim_id": format!("claim-{id}"), "text": format!("What {id} says."), "kind": "fact", "citations": citations}));
    }
    let _ = policy;
    json!({
        "scope": scope(),
        "sources": docs.iter().map(|(id, text, _)| json!({"spec": spec_json(id), "content": text})).collect::<Vec<_>>(),
        "report": {"title": "What the licences say", "claims": claims, "gaps": []},
    })
}

#[test]
fn real_documents_check_under_the_default_and_the_reference_refuses_them() {
    let v = real_bundle(&documents());
    let text = v.to_string();
    // The defaults are the documents policy.
    let options = BundleOptions::new(clock());
    assert_eq!(options.policy, documents());
    let bundle = Bundle::from_json(&text).unwrap();
    let result = check_bundle(&bundle, &options).unwrap();
    let a = &result.assessment;
    assert_eq!(a.issues, [], "every located citation holds");
    assert_eq!(a.status, Status::NeedsReview);
    assert_eq!(a.claims.len(), 5);
    assert!(a.claims.iter().all(|(_, s)| *s == ClaimState::PendingReview));
    let artifact = result.artifact.expect("rendered");
    assert!(artifact.content.contains("👩🏽\u{200d}💻") || artifact.content.contains("👩🏽⟦U+200D⟧💻"), "the emoji quote is in the artifact");
    assert!(artifact.content.contains("証拠は引用と一致しなければならない"));
    // The CRLF source was normalised, and its quote with CRLF located against it.
    let crlf = bundle.report.claims[3].citations[0].quote.clone();
    assert_eq!(crlf, "The sync daemon now retries three times\nbefore it reports a failure.");

    // The reference policy refuses the same bundle at GPL-3's size.
    let bundle = Bundle::from_json_with(&text, &Policy::reference()).unwrap();
    let e = check_bundle(&bundle, &BundleOptions { policy: Policy::reference(), ..BundleOptions::new(clock()) }).unwrap_err();
    assert_eq!(e.code(), "source_too_large");
    let gpl = std::fs::read_to_string("/usr/share/common-licenses/GPL-3").unwrap().len();
    let BundleError::Store { path, error } = &e else { panic!("{e:?}") };
    assert_eq!(path, "/sources/0");
    let en = error.message_in(Lang::En);
    for part in ["source gpl-3".to_owned(), format!("{gpl} bytes"), "limit of 24000 bytes".to_owned(), "max_source_bytes".to_owned(), "--policy documents".to_owned()] {
        assert!(en.contains(&part), "{part:?} missing from {en}");
    }
    assert!(e.message().contains("gpl-3") && e.message().contains(&gpl.to_string()), "{}", e.message());
}

#[test]
fn a_review_of_a_missing_claim_names_the_review_index_and_the_claim() {
    use evidence_check::error::Coded;
    let bundle = bundle_with_reviews(|r, s| {
        let other = Scope { tenant_id: "other".into(), user_id: "u".into() };
        let mut missing = review_of(r, s);
        missing.claim_id = "k9".into();
        vec![review_of(r, &other), missing]
    });
    let options = BundleOptions { lang: Lang::En, ..BundleOptions::new(clock()) };
    let e = check_bundle(&bundle, &options).unwrap_err();
    assert_eq!(e.code(), "review_target_missing");
    let m = Coded::message(&e, Lang::En);
    assert!(m.contains("review 1 (0-based)") && m.contains("claim k9") && m.contains("/reviews/1"), "{m}");
    assert_eq!(Coded::details(&e), vec![("detail", json!({"review_index": 1, "claim_id": "k9"}))]);
    // render (and assess) with reviews reported give the same subject.
    let store = evidence_check::bundle::load_store(&bundle, &options).unwrap();
    let check = CheckOptions { reviews: ReviewMode::Report, ..CheckOptions::default() };
    let f = render_opts(&bundle.scope, &bundle.report, &store, &bundle.reviews, &clock(), Escaping::Hardened, check, Lang::En).unwrap_err();
    assert_eq!(f.code(), "review_target_missing");
    let d = f.detail.unwrap();
    assert_eq!((d.review_index, d.claim_id.as_deref()), (Some(1), Some("k9")));
    // assess (the JS export's path) throws with the same subject and message.
    let a = evidence_check::assess::assess_detailed_in(&bundle.scope, &bundle.report, &store, &bundle.reviews, check, Lang::En).unwrap_err();
    assert_eq!(Coded::message(&a, Lang::En), m);
    assert_eq!(Coded::details(&a), vec![("detail", json!({"review_index": 1, "claim_id": "k9"}))]);
    // Under compat "reference": the reference's message, no subject.
    let reference = BundleOptions { policy: Policy::reference().with_reference_messages(true), ..BundleOptions::new(clock()) };
    let e = check_bundle(&bundle, &reference).unwrap_err();
    assert_eq!((e.code(), e.message()), ("review_target_missing", "审阅目标不在报告中。 (/reviews)".to_owned()));
}
