//! The one quote locator: `EvidenceStore::quote`, repair hints, `locate_citations`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evidence_check::assess::assess;
use evidence_check::contract::{Contract, Limits, Scope, SourceSpec};
use evidence_check::error::Lang;
use evidence_check::store::StoreError;
use evidence_check::import::quotes::{locate_citations, LocateIssue};
use evidence_check::store::locate::{locate, Counting, LocateError, LocateOptions, Located, Selector, Whitespace};
use evidence_check::{citation::TextIndex, Clock, EvidenceStore, StoreOptions};
use serde_json::json;

fn scope() -> Scope {
    Scope { tenant_id: "t".into(), user_id: "u".into() }
}
fn store(texts: &[(&str, &str)]) -> EvidenceStore {
    let specs = texts
        .iter()
        .map(|(id, _)| SourceSpec::from_value(&json!({"source_id": id, "title": "T", "locator": "fixture:x", "filename": format!("{id}.md"), "kind": "fixture"})).unwrap())
        .collect();
    let mut st = EvidenceStore::new(specs, StoreOptions::default(), Clock::fixed("2026-11-29T00:00:00+00:00").unwrap()).unwrap();
    for (id, text) in texts {
        st.ingest(&scope(), id, text).unwrap();
    }
    st
}
fn find(text: &str, sel: Selector, options: LocateOptions) -> Result<Located, LocateError> {
    locate("s", &TextIndex::new(text), text, &sel, options)
}
fn with(exact: &str, prefix: Option<&str>, suffix: Option<&str>, occurrence: Option<usize>) -> Selector {
    Selector { exact: exact.into(), prefix: prefix.map(Into::into), suffix: suffix.map(Into::into), occurrence }
}

#[test]
fn overlapping_occurrences_are_separate_ones() {
    let d = LocateOptions::default();
    let err = find("xyxyx", Selector::exact("xyx"), d).unwrap_err();
    assert_eq!(err, LocateError::Ambiguous { source_id: "s".into(), count: 2, ranges: vec![(0, 3), (2, 5)] });
    assert_eq!(find("aaa", Selector::exact("aa"), d).unwrap_err().count(), Some(2));
    // The reference's count (Python's str.count) under compat "reference": "xyx" is unique there.
    let reference = LocateOptions { counting: Counting::Reference, ..d };
    let found = find("xyxyx", Selector::exact("xyx"), reference).unwrap();
    assert_eq!((found.start, found.end), (0, 3));
}

#[test]
fn absent_ambiguous_and_the_message_names_source_and_numbers() {
    let st = store(&[("a", "one two one two one")]);
    let r = st.current(&scope(), "a").unwrap().source_ref.clone();
    let e = st.quote(&scope(), &r, "one", "q").unwrap_err();
    assert_eq!(e.code(), "quote_ambiguous");
    assert_eq!(e.message(), "片段在来源 a 中出现 3 次(字符区间 [0, 3), [8, 11), [16, 19)),无法唯一定位;请给出前后文或指定第几处。");
    let StoreError::Locate(l) = &e else { panic!("{e:?}") };
    assert_eq!(l.message_in(Lang::En), "The quote occurs 3 times in source a (code points [0, 3), [8, 11), [16, 19)); give a prefix and suffix or an occurrence to pick one.");
    let e = st.quote(&scope(), &r, "three", "q").unwrap_err();
    assert_eq!(e.code(), "quote_not_found");
    assert_eq!(e.message(), "片段未出现在来源 a 的当前版本中。");
}

#[test]
fn prefix_suffix_and_occurrence_pick_one() {
    let text = "one two one two one";
    let d = LocateOptions::default();
    let hit = |sel| find(text, sel, d).map(|l| (l.start, l.end));
    assert_eq!(hit(with("one", Some("two "), Some(" two"), None)), Ok((8, 11)));
    assert_eq!(hit(with("one", None, Some(" two"), None)).unwrap_err().count(), Some(2), "still two candidates");
    assert_eq!(hit(with("one", Some("two "), None, Some(2))), Ok((16, 19)));
    assert_eq!(hit(with("one", None, None, Some(1))), Ok((0, 3)));
    let e = hit(with("one", None, None, Some(4))).unwrap_err();
    assert_eq!((e.code(), e.count()), ("quote_not_found", Some(3)));
    let e = hit(with("one", Some("six "), None, None)).unwrap_err();
    assert_eq!((e.code(), e.count()), ("quote_not_found", Some(3)));
}

#[test]
fn crlf_in_the_quote_is_normalised_as_the_source_was() {
    let st = store(&[("a", "line one\r\nline two\rline three")]);
    let r = st.current(&scope(), "a").unwrap().source_ref.clone();
    let c = st.quote(&scope(), &r, "one\r\nline two\rline", "q").unwrap();
    assert_eq!((c.start, c.end, c.quote.as_str()), (5, 22, "one\nline two\nline"));
}

#[test]
fn loose_whitespace_only_on_request_and_quotes_the_source() {
    let text = "Plan A  works\n  offline.";
    let loose = LocateOptions { whitespace: Whitespace::Loose, ..LocateOptions::default() };
    assert_eq!(find(text, Selector::exact("Plan A works offline."), LocateOptions::default()).unwrap_err().code(), "quote_not_found");
    let found = find(text, Selector::exact(" Plan A works offline. "), loose).unwrap();
    assert_eq!((found.start, found.end, found.text.as_str(), found.whitespace), (0, 24, text, Whitespace::Loose));
    // An exact match is preferred, and says so.
    assert_eq!(find(text, Selector::exact("works"), loose).unwrap().whitespace, Whitespace::Exact);
}

#[test]
fn a_repair_hint_counts_overlapping_occurrences() {
    let mut st = store(&[("a", "aaa b")]);
    let old = st.current(&scope(), "a").unwrap().source_ref.clone();
    let report = evidence_check::Report::from_value(&json!({"title": "T", "claims": [{"claim_id": "k", "text": "x", "kind": "fact",
        "citations": [{"citation_id": "c", "ref": old, "start": 0, "end": 2, "quote": "aa"}]}]}))
    .unwrap();
    st.ingest(&scope(), "a", "aaa c").unwrap();
    let a = assess(&scope(), &report, &st, &[]).unwrap();
    let hint = a.issues[0].hint.as_ref().unwrap();
    assert_eq!((hint.occurrences, hint.start), (2, None));
}

fn located(st: &EvidenceStore, draft: serde_json::Value, ws: Whitespace) -> evidence_check::import::quotes::LocateResult {
    locate_citations(&scope(), &draft, st, ws, Lang::En, &Limits::default()).unwrap()
}

#[test]
fn locate_citations_unique_ambiguous_context_absent_crlf() {
    let st = store(&[("a", "one two one two one\r\nthe end"), ("b", "Plan A  works\n offline.")]);
    let q = |quote: &str, extra: serde_json::Value| {
        let mut c = json!({"source_id": "a", "quote": quote});
        c.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        c
    };
    let draft = json!({"title": "Draft", "claims": [
        {"claim_id": "unique", "text": "u", "kind": "fact", "citations": [q("two one\r\nthe", json!({}))]},
        {"claim_id": "ambiguous", "text": "a", "kind": "fact", "citations": [q("one", json!({"citation_id": "amb"}))]},
        {"claim_id": "context", "text": "c", "kind": "fact", "citations": [q("one", json!({"prefix": "two ", "suffix": " two"}))]},
        {"claim_id": "absent", "text": "x", "kind": "fact", "citations": [q("three", json!({}))]},
        {"claim_id": "loose", "text": "l", "kind": "fact", "citations": [{"source_id": "b", "quote": "Plan A works offline."}]}
    ]});
    let r = located(&st, draft.clone(), Whitespace::Exact);
    let spots: Vec<(&str, &str, usize, usize)> = r.located.iter().map(|l| (l.claim_id.as_str(), l.citation_id.as_str(), l.start, l.end)).collect();
    assert_eq!(spots, vec![("unique", "q1", 12, 23), ("context", "q2", 8, 11)]);
    assert_eq!(r.located[0].quote, "two one\nthe");
    let codes: Vec<(&str, &str, Option<usize>)> = r.issues.iter().map(|i: &LocateIssue| (i.claim_id.as_str(), i.code, i.count)).collect();
    assert_eq!(codes, vec![("ambiguous", "quote_ambiguous", Some(3)), ("absent", "quote_not_found", Some(0)), ("loose", "quote_not_found", Some(0))]);
    assert_eq!(r.issues[0].ranges, vec![[0, 3], [8, 11], [16, 19]]);
    assert_eq!(r.issues[0].citation_id.as_deref(), Some("amb"));
    // No loose match without the option; each unlocated quote is a gap that names it.
    assert_eq!(r.report.gaps.len(), 3, "{:?}", r.report.gaps);
    assert!(r.report.gaps[0].starts_with("Claim ambiguous, citation amb: cited text is ambiguous in source a"), "{}", r.report.gaps[0]);
    assert_eq!(r.report.gaps[1], "Claim absent: cited text not found in source a: the citation was not located (quote_not_found); quote: \"three\"");
    // The claims without their citation can only be insufficient.
    let a = assess(&scope(), &r.report, &st, &[]).unwrap();
    let states: Vec<&str> = a.claims.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(states, vec!["pending_review", "insufficient", "pending_review", "insufficient", "insufficient"]);
    assert!(a.issues.is_empty());

    let r = located(&st, draft, Whitespace::Loose);
    let l = r.located.iter().find(|l| l.claim_id == "loose").unwrap();
    assert_eq!((l.quote.as_str(), l.whitespace), ("Plan A  works\n offline.", Whitespace::Loose));
    assert_eq!(r.report.gaps[2..], vec![format!("Citation {} was located in source b ignoring whitespace: the draft's quote differs from the source in whitespace; the source's exact text is quoted.", l.citation_id)]);
    let a = assess(&scope(), &r.report, &st, &[]).unwrap();
    assert_eq!(a.state("loose").unwrap().as_str(), "pending_review");
}

#[test]
fn a_draft_citation_with_an_unknown_field_is_a_contract_error() {
    let st = store(&[("a", "text")]);
    let draft = json!({"title": "D", "claims": [{"claim_id": "k", "text": "t", "kind": "fact", "citations": [{"source_id": "a", "quote": "text", "page": 1}]}]});
    let e = locate_citations(&scope(), &draft, &st, Whitespace::Exact, Lang::En, &Limits::default()).unwrap_err();
    assert_eq!(e.violations[0].path, "/claims/0/citations/0/page");
}

/// A draft bundle: one source, claim c1 with a made-up quote, claim c2 with a real one.
fn unlocated_draft() -> serde_json::Value {
    json!({
        "scope": {"tenant_id": "t", "user_id": "u"},
        "sources": [{"spec": {"source_id": "s", "title": "T", "locator": "fixture:x", "filename": "s.md", "kind": "fixture"}, "content": "alpha beta gamma beta\n", "fetched_at": "2026-11-29T00:00:00+00:00"}],
        "report": {"title": "R", "claims": [
            {"claim_id": "c1", "text": "made up", "kind": "fact", "citations": [{"citation_id": "x1", "source_id": "s", "quote": "delta"}]},
            {"claim_id": "c2", "text": "twice", "kind": "fact", "citations": [{"source_id": "s", "quote": "beta"}]},
            {"claim_id": "c3", "text": "real", "kind": "fact", "citations": [{"source_id": "s", "quote": "alpha"}]}
        ], "conflicts": [], "gaps": []}
    })
}

#[test]
fn an_unlocated_quote_stays_in_the_bundle_is_an_issue_and_shows_in_the_artifact() {
    use evidence_check::bundle::{check_bundle, Bundle, BundleOptions};
    use evidence_check::import::quotes::locate_bundle;
    let mut options = BundleOptions::new(Clock::fixed("2026-11-29T00:00:00+00:00").unwrap());
    options.lang = Lang::En;
    let found = locate_bundle(&unlocated_draft(), &options, Whitespace::Exact).unwrap();
    let codes: Vec<_> = found.bundle.import_notes.iter().filter_map(|n| Some((n.claim_id.as_deref()?, n.code.as_deref()?, n.source_id.as_deref()?))).collect();
    assert_eq!(codes, [("c1", "quote_not_found", "s"), ("c2", "quote_ambiguous", "s")]);
    let kept = found.bundle.import_notes.iter().find(|n| n.code.as_deref() == Some("quote_not_found")).unwrap();
    assert_eq!((kept.citation_id.as_deref(), kept.quote.as_deref()), (Some("x1"), Some("delta")));
    // The bundle as written reads back, and its check reports every unlocated citation.
    let text = serde_json::to_string(&found.bundle).unwrap();
    let bundle = Bundle::from_json(&text).unwrap();
    let result = check_bundle(&bundle, &options).unwrap();
    let issues: Vec<_> = result.assessment.issues.iter().map(|i| (i.claim_id.as_str(), i.code, i.message.as_str())).collect();
    assert_eq!(issues.len(), 2, "{issues:?}");
    assert_eq!((issues[0].0, issues[0].1), ("c1", "quote_not_found"));
    assert!(issues[0].2.contains("cited text not found in source s"), "{}", issues[0].2);
    assert_eq!((issues[1].0, issues[1].1), ("c2", "quote_ambiguous"));
    let artifact = result.artifact.expect("rendered").content;
    assert!(artifact.contains("cited text not found in source s"), "{artifact}");
    assert_eq!(result.assessment.status.as_str(), "partial");
}

#[test]
fn a_quote_mismatch_shows_the_text_at_the_range_and_a_loose_match() {
    let st = store(&[("b", "Plan A  works\n offline. \u{202E}x")]);
    let snapshot = st.current(&scope(), "b").unwrap().source_ref.clone();
    let mut cite = st.quote(&scope(), &snapshot, "Plan A  works", "c").unwrap();
    cite.quote = "Plan A works offline.".into();
    cite.end = 16;
    let e = st.check_citation(&scope(), &cite).unwrap_err();
    assert_eq!(e.code(), "quote_mismatch");
    let d = e.detail().unwrap();
    assert_eq!(d.text_at_range.as_deref(), Some("Plan A  works\\n o"));
    assert_eq!((d.loose_start, d.loose_end), (Some(0), Some(23)));
    let m = e.message_in(Lang::En);
    assert!(m.contains("text at the range: \"Plan A  works\\n o\""), "{m}");
    assert!(m.contains("a whitespace-insensitive match is at [0, 23)") && m.contains("whitespace: \"loose\""), "{m}");
    // Bounded to 80 code points, invisible characters shown, no loose hint without a match.
    let long = format!("{}\u{202E}", "y".repeat(100));
    let st = store(&[("b", &long)]);
    let snapshot = st.current(&scope(), "b").unwrap().source_ref.clone();
    let mut cite = st.quote(&scope(), &snapshot, &"y".repeat(100), "c").unwrap();
    cite.start = 20;
    cite.end = 101;
    let d = st.check_citation(&scope(), &cite).unwrap_err().detail().cloned().unwrap();
    assert_eq!(d.text_at_range.unwrap(), format!("{}…", "y".repeat(80)));
    assert_eq!(d.loose_start, None);
    cite.start = 99;
    let d = st.check_citation(&scope(), &cite).unwrap_err().detail().cloned().unwrap();
    assert_eq!(d.text_at_range.unwrap(), "y⟦U+202E⟧");
}

#[test]
fn a_source_without_a_current_revision_gets_the_precise_code() {
    let mut st = store(&[("a", "alpha beta"), ("gone", "gamma")]);
    st.remove(&scope(), "gone").unwrap();
    let draft = json!({"title": "D", "claims": [
        {"claim_id": "k1", "text": "t", "kind": "fact", "citations": [{"source_id": "nowhere", "quote": "alpha"}]},
        {"claim_id": "k2", "text": "t", "kind": "fact", "citations": [{"source_id": "gone", "quote": "gamma"}]},
        {"claim_id": "k3", "text": "t", "kind": "fact", "citations": [{"source_id": "a", "quote": "alpha"}]}
    ]});
    let other = Scope { tenant_id: "t".into(), user_id: "other".into() };
    let codes = |st: &EvidenceStore, scope: &Scope| -> Vec<(String, &'static str, String)> {
        let r = locate_citations(scope, &draft, st, Whitespace::Exact, Lang::En, &Limits::default()).unwrap();
        r.issues.iter().map(|i| (i.claim_id.clone(), i.code, i.message.clone())).collect()
    };
    let found = codes(&st, &scope());
    let short: Vec<(&str, &str)> = found.iter().map(|(c, k, _)| (c.as_str(), *k)).collect();
    assert_eq!(short, [("k1", "source_not_in_scope"), ("k2", "source_removed")]);
    assert!(found[0].2.contains("nowhere"), "{}", found[0].2);
    let short: Vec<(String, &str)> = codes(&st, &other).into_iter().map(|(c, k, _)| (c, k)).collect();
    assert_eq!(short, [("k1".to_string(), "source_not_in_scope"), ("k2".to_string(), "source_not_ingested"), ("k3".to_string(), "source_not_ingested")]);
    // compat "reference": the reference's one code.
    let specs: Vec<SourceSpec> = ["a", "gone"].iter().map(|id| SourceSpec::from_value(&json!({"source_id": id, "title": "T", "locator": "fixture:x", "filename": format!("{id}.md"), "kind": "fixture"})).unwrap()).collect();
    let policy = evidence_check::policy::Policy::reference().with_reference_messages(true);
    let reference = EvidenceStore::with_policy(specs, policy, Clock::fixed("2026-11-29T00:00:00+00:00").unwrap()).unwrap();
    let short: Vec<&str> = codes(&reference, &scope()).into_iter().map(|(_, k, _)| k).collect();
    assert_eq!(short, ["ref_unavailable", "ref_unavailable", "ref_unavailable"]);
}

#[test]
fn a_located_bundle_keeps_the_precise_code_of_an_uncatalogued_source() {
    use evidence_check::bundle::{check_bundle, Bundle, BundleOptions};
    use evidence_check::import::quotes::locate_bundle;
    let mut draft = unlocated_draft();
    draft["report"]["claims"][0]["citations"][0]["source_id"] = json!("elsewhere");
    let mut options = BundleOptions::new(Clock::fixed("2026-11-29T00:00:00+00:00").unwrap());
    options.lang = Lang::En;
    let found = locate_bundle(&draft, &options, Whitespace::Exact).unwrap();
    assert_eq!(found.issues[0].code, "source_not_in_scope");
    let bundle = Bundle::from_json(&serde_json::to_string(&found.bundle).unwrap()).unwrap();
    let issue = check_bundle(&bundle, &options).unwrap().assessment.issues.remove(0);
    assert_eq!((issue.claim_id.as_str(), issue.code), ("c1", "source_not_in_scope"));
    assert_eq!(issue.message, "cited text not found in source elsewhere: the catalogue has no such source");
}

#[test]
fn a_draft_checked_before_locate_says_once_how_many_citations_have_no_range() {
    use evidence_check::bundle::Bundle;
    use evidence_check::error::Coded;
    let text = serde_json::to_string(&unlocated_draft()).unwrap();
    let e = Bundle::from_json(&text).unwrap_err();
    let v: Vec<(&str, &str)> = e.violations.iter().map(|v| (v.path.as_str(), v.code.code())).collect();
    assert_eq!(v, [("/report/claims/0/citations/0", "quote_only_citations")], "{:?}", e.violations);
    let en = "3 citations have no range: run `evidence-check locate` first: /report/claims/0/citations/0 (x1), /report/claims/1/citations/0, /report/claims/2/citations/0";
    assert_eq!(e.violations[0].message, en);
    let (_, zh) = e.issues(Lang::Zh).unwrap();
    assert_eq!(zh[0].message, "3 条引用没有区间:请先运行 `evidence-check locate`:/report/claims/0/citations/0 (x1), /report/claims/1/citations/0, /report/claims/2/citations/0");
    assert!(Coded::message(&e, Lang::En).contains("3 citations have no range"), "{}", Coded::message(&e, Lang::En));
    // Other violations are still listed, after it; past five subjects the rest are counted.
    let mut draft = unlocated_draft();
    let claims = draft["report"]["claims"].as_array_mut().unwrap();
    for k in 0..4 {
        claims.push(json!({"claim_id": format!("more{k}"), "text": "t", "kind": "fact", "citations": [{"source_id": "s", "quote": "alpha"}]}));
    }
    claims[0]["kind"] = json!("guess");
    let e = Bundle::from_json(&serde_json::to_string(&draft).unwrap()).unwrap_err();
    let v: Vec<(&str, &str)> = e.violations.iter().map(|v| (v.path.as_str(), v.code.code())).collect();
    assert_eq!(v, [("/report/claims/0/citations/0", "quote_only_citations"), ("/report/claims/0/kind", "not_allowed")]);
    assert!(e.violations[0].message.starts_with("7 citations have no range"), "{}", e.violations[0].message);
    assert!(e.violations[0].message.ends_with("/report/claims/4/citations/0, and 2 more"), "{}", e.violations[0].message);
    // One citation; and under compat "reference", each field as the reference lists it.
    let one = json!({"source_id": "s", "quote": "alpha"});
    let e = <evidence_check::contract::Citation as Contract>::from_value(&one).unwrap_err();
    assert_eq!(e.violations[0].message, "1 citation has no range: run `evidence-check locate` first: /");
    let reference = Limits::default().with_reference_messages(true);
    let e = Bundle::from_json_with(&text, &reference).unwrap_err();
    assert_eq!(e.violations.len(), 14, "{:?}", e.violations);
    assert!(e.violations.iter().all(|v| v.code.code() != "quote_only_citations"));
}
