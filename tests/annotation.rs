//! Unit tests of the core (src/annotation.rs): W3C Web Annotation export and import.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use serde_json::json;
use support::*;

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
    assert_eq!(from_web_annotation(&broken).unwrap_err().contract().unwrap().violations[0].path, "/citation/start");
    broken["id"] = json!("urn:other:1");
    assert_eq!(from_web_annotation(&broken).unwrap_err().contract().unwrap().violations[0].path, "/id");
}

fn store_with(locator: &str) -> evidence_check::EvidenceStore {
    use evidence_check::Contract;
    let spec = evidence_check::SourceSpec::from_value(&json!({"source_id": "a", "title": "T", "locator": locator, "filename": "a.md", "kind": "fixture"})).unwrap();
    evidence_check::EvidenceStore::new(vec![spec], evidence_check::store::StoreOptions::default(), clock()).unwrap()
}

#[test]
fn the_state_has_an_id_and_a_locator_that_is_no_iri_gets_a_urn_source() {
    use evidence_check::annotation::{from_web_annotation_in, is_uri, to_web_annotations};
    let s = scope("t");
    let mut st = store_with("Spec, section 3");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st, &s, &r, "Plan A works offline.");
    let a = &to_web_annotations(&s, &report, &st).unwrap()[0];
    assert_eq!(a["target"]["source"], json!("urn:evidence-check:source:a"));
    assert_eq!(a["target"]["locator"], json!("Spec, section 3"));
    let id = a["target"]["state"]["id"].as_str().unwrap();
    assert_eq!(id, format!("urn:evidence-check:revision:a:1:sha256:{}", r.digest));
    assert!(is_uri(id));
    // Our own export still reads back exactly; without its state it is found by its urn.
    assert_eq!(evidence_check::annotation::from_web_annotation(a).unwrap(), report.claims[0].citations[0]);
    let mut foreign = a.clone();
    foreign["target"].as_object_mut().unwrap().remove("state");
    assert_eq!(from_web_annotation_in(&foreign, &s, &st, Default::default()).unwrap(), report.claims[0].citations[0]);
    // A locator that is an IRI stays the source.
    for (locator, iri) in [("https://example.org/a?b=1#c", true), ("fixture:x", true), ("[notes](https://x.org)", false), ("file:方案.md", false), ("no scheme", false), ("a:%zz", false)] {
        assert_eq!(is_uri(locator), iri, "{locator}");
    }
}

/// An annotation as Hypothesis's API returns it: a list of one target, Range +
/// TextPosition + TextQuote selectors, no state.
fn hypothesis(exact: &str, prefix: &str, suffix: &str, start: usize) -> serde_json::Value {
    json!({
        "id": "Zx1aBc2dEe",
        "uri": "https://example.org/a",
        "target": [{
            "source": "https://example.org/a",
            "selector": [
                {"type": "RangeSelector", "startContainer": "/main[1]/p[2]", "startOffset": 0, "endContainer": "/main[1]/p[2]", "endOffset": 6},
                {"type": "TextPositionSelector", "start": start, "end": start + exact.chars().count()},
                {"type": "TextQuoteSelector", "exact": exact, "prefix": prefix, "suffix": suffix}
            ]
        }],
        "text": "a note",
        "tags": []
    })
}

#[test]
fn a_hypothesis_annotation_is_taken_quote_first_and_its_position_only_chooses() {
    use evidence_check::annotation::from_web_annotation_in;
    let s = scope("t");
    let mut st = store_with("https://example.org/a");
    let r = st.ingest(&s, "a", "Plan A. Plan B. Plan A. Plan C.").unwrap();
    // Context decides: the second "Plan A", where the position (counting another text)
    // selects other text; a position that selects the first "Plan A" is a conflict.
    let c = from_web_annotation_in(&hypothesis("Plan A", "Plan B. ", ".", 3), &s, &st, Default::default()).unwrap();
    assert_eq!((c.start, c.end, c.citation_id.as_str(), &c.source_ref), (16, 22, "annotation", &r));
    let e = from_web_annotation_in(&hypothesis("Plan A", "Plan B. ", ".", 0), &s, &st, Default::default()).unwrap_err();
    assert_eq!(evidence_check::error::Coded::code(&e), "selector_conflict");
    // Ambiguous by context: the position picks the nearest occurrence.
    let c = from_web_annotation_in(&hypothesis("Plan A", "", "", 15), &s, &st, Default::default()).unwrap();
    assert_eq!((c.start, c.end), (16, 22));
    let c = from_web_annotation_in(&hypothesis("Plan A", "", "", 2), &s, &st, Default::default()).unwrap();
    assert_eq!((c.start, c.end), (0, 6));
    // Equally near both: still ambiguous. A position alone never locates a missing quote.
    let e = from_web_annotation_in(&hypothesis("Plan A", "", "", 8), &s, &st, Default::default()).unwrap_err();
    assert_eq!(evidence_check::error::Coded::code(&e), "quote_ambiguous");
    let e = from_web_annotation_in(&hypothesis("Plan D", "", "", 0), &s, &st, Default::default()).unwrap_err();
    assert_eq!(evidence_check::error::Coded::code(&e), "quote_not_found");
}

#[test]
fn a_lone_surrogate_at_the_outer_edge_of_a_context_is_dropped_and_said_so() {
    use evidence_check::annotation::import_web_annotation;
    let s = scope("t");
    let mut st = store_with("https://example.org/a");
    let text = "Camp 🏕 here. Plan A works 🔥 offline. Plan A works.";
    st.ingest(&s, "a", text).unwrap();
    // 32 UTF-16 units of context cut through 🏕 (prefix) and 🔥 (suffix) leave half of each.
    let a = hypothesis("Plan A works", "PLACEHOLDER_P", "PLACEHOLDER_S", 13);
    let json_text = serde_json::to_string(&a).unwrap().replace("PLACEHOLDER_P", "\\udfd5 here. ").replace("PLACEHOLDER_S", " \\ud83d");
    assert!(serde_json::from_str::<serde_json::Value>(&json_text).is_err(), "a lone surrogate is not JSON the reader takes");
    let out = import_web_annotation(&json_text, 1 << 20, &s, &st, Default::default()).unwrap();
    assert_eq!((out.citation.start, out.citation.end), (13, 25));
    let fields: Vec<(&str, &str)> = out.trimmed.iter().map(|t| (t.field, t.unit.as_str())).collect();
    assert_eq!(fields, [("prefix", "\\udfd5"), ("suffix", "\\ud83d")]);
    assert!(out.trimmed[0].message.contains("dropped"));
    // A lone surrogate inside a context (not at its outer edge) is still refused.
    let inner = serde_json::to_string(&a).unwrap().replace("PLACEHOLDER_P", "x\\udfd5 here. ").replace("PLACEHOLDER_S", " ");
    assert!(import_web_annotation(&inner, 1 << 20, &s, &st, Default::default()).is_err());
}

fn foreign(target: serde_json::Value) -> serde_json::Value {
    json!({"id": "urn:evidence-check:citation:w1", "type": "Annotation", "target": target})
}

fn details(e: &evidence_check::annotation::AnnotationError) -> serde_json::Value {
    use evidence_check::error::Coded;
    let mut m = serde_json::Map::new();
    m.insert("code".into(), json!(e.code()));
    for (k, v) in e.details() {
        m.insert(k.into(), v);
    }
    serde_json::Value::Object(m)
}

/// A store of two sources: `a` at https://example.org/a, `b` at https://example.org/b.
fn two_sources() -> (evidence_check::EvidenceStore, evidence_check::contract::Scope) {
    use evidence_check::Contract;
    let spec = |id: &str| evidence_check::SourceSpec::from_value(&json!({"source_id": id, "title": "T", "locator": format!("https://example.org/{id}"), "filename": format!("{id}.md"), "kind": "fixture"})).unwrap();
    let mut st = evidence_check::EvidenceStore::new(vec![spec("a"), spec("b")], evidence_check::store::StoreOptions::default(), clock()).unwrap();
    let s = scope("t");
    st.ingest(&s, "a", "Plan A. Plan B. Plan A. Plan C.").unwrap();
    st.ingest(&s, "b", "Plan A only.").unwrap();
    (st, s)
}

#[test]
fn a_state_that_names_another_source_than_the_target_is_refused() {
    use evidence_check::annotation::{from_web_annotation, from_web_annotation_in, to_web_annotations};
    let (st, s) = two_sources();
    let quote = json!({"type": "TextQuoteSelector", "exact": "Plan C"});
    let state = json!({"source_id": "a"});
    // The state says a; the source is b's locator, b's urn, or the locator is b's.
    for (target, field, value) in [
        (json!({"source": "https://example.org/b", "state": state, "selector": quote}), "source", "https://example.org/b"),
        (json!({"source": "urn:evidence-check:source:b", "state": state, "selector": quote}), "source", "urn:evidence-check:source:b"),
        (json!({"source": "https://example.org/a", "locator": "https://example.org/b", "state": state, "selector": quote}), "locator", "https://example.org/b"),
        (json!({"source": "https://elsewhere.example/x", "state": state, "selector": quote}), "source", "https://elsewhere.example/x"),
    ] {
        let e = from_web_annotation_in(&foreign(target), &s, &st, Default::default()).unwrap_err();
        assert_eq!(details(&e), json!({"code": "annotation_source_conflict", "stateSourceId": "a", "field": field, "value": value, "locator": "https://example.org/a"}));
        assert!(evidence_check::error::Coded::message(&e, evidence_check::error::Lang::En).contains(&format!("target.{field} is {value:?}")));
    }
    // Agreeing names, and a state alone, are read.
    for target in [json!({"source": "https://example.org/a", "state": state, "selector": quote}), json!({"source": "urn:evidence-check:source:a", "state": state, "selector": quote}), json!({"state": state, "selector": quote})] {
        assert_eq!(from_web_annotation_in(&foreign(target), &s, &st, Default::default()).unwrap().start, 24);
    }
    // Our own export, its state edited to name b while its urn source names a: refused
    // with and without a store.
    let mut st2 = store_with("Spec, section 3");
    let r = st2.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st2, &s, &r, "Plan A works offline.");
    let mut a = to_web_annotations(&s, &report, &st2).unwrap().remove(0);
    a["target"]["state"]["source_id"] = json!("b");
    let e = from_web_annotation(&a).unwrap_err();
    assert_eq!(details(&e)["code"], json!("annotation_source_conflict"));
    assert_eq!((details(&e)["stateSourceId"].clone(), details(&e)["value"].clone()), (json!("b"), json!("urn:evidence-check:source:a")));
}

#[test]
fn several_selectors_of_one_target_must_select_the_same_segment() {
    use evidence_check::annotation::{from_web_annotation, from_web_annotation_in, to_web_annotations};
    let (st, s) = two_sources();
    let q = |exact: &str, prefix: &str| json!({"type": "TextQuoteSelector", "exact": exact, "prefix": prefix});
    let target = |selectors: serde_json::Value| foreign(json!({"source": "https://example.org/a", "selector": selectors}));
    // Two quotes of the same segment agree; two of different segments are refused, naming both.
    let c = from_web_annotation_in(&target(json!([q("Plan A", "B. "), q("Plan A. Plan C", "")])), &s, &st, Default::default());
    let e = c.unwrap_err();
    assert_eq!(details(&e), json!({"code": "selector_conflict", "paths": ["/target/selector/0", "/target/selector/1"], "selected": ["[16, 22) \"Plan A\"", "[16, 30) \"Plan A. Plan C\""]}));
    let c = from_web_annotation_in(&target(json!([q("Plan A", "B. "), {"type": "CssSelector", "value": "#p1"}, q("Plan A", "Plan B. ")])), &s, &st, Default::default()).unwrap();
    assert_eq!((c.start, c.end), (16, 22));
    let e = from_web_annotation_in(&target(json!([q("Plan B", ""), {"type": "TextPositionSelector", "start": 9, "end": 9}, {"type": "TextPositionSelector", "start": 8, "end": 14}])), &s, &st, Default::default()).unwrap_err();
    assert_eq!(details(&e)["paths"], json!(["/target/selector/1", "/target/selector/2"]));
    // Our own annotation: a second position or quote that differs is refused.
    let mut st2 = store_with("fixture:x");
    let r = st2.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st2, &s, &r, "Plan A works offline.");
    let mut a = to_web_annotations(&s, &report, &st2).unwrap().remove(0);
    let selectors = a["target"]["selector"].as_array_mut().unwrap();
    selectors.push(json!({"type": "TextPositionSelector", "start": 0, "end": 6}));
    let e = from_web_annotation(&a).unwrap_err();
    assert_eq!(details(&e)["paths"], json!(["/target/selector/1", "/target/selector/2"]));
    let selectors = a["target"]["selector"].as_array_mut().unwrap();
    selectors[2] = json!({"type": "TextQuoteSelector", "exact": "Plan B"});
    let e = from_web_annotation(&a).unwrap_err();
    assert_eq!(details(&e)["paths"], json!(["/target/selector/0", "/target/selector/2"]));
}

#[test]
fn a_refinement_applies_within_its_parents_segment_or_is_refused() {
    use evidence_check::annotation::{from_web_annotation_in, to_web_annotations, MAX_SELECTORS};
    use evidence_check::error::Coded;
    let (st, s) = two_sources();
    let at = |selector: serde_json::Value| from_web_annotation_in(&foreign(json!({"source": "https://example.org/a", "selector": selector})), &s, &st, Default::default());
    let plan_a = json!({"type": "TextQuoteSelector", "exact": "Plan A"});
    // "Plan A" alone occurs twice; within "Plan B. Plan A" once, at [16, 22).
    assert_eq!(at(plan_a.clone()).unwrap_err().code(), "quote_ambiguous");
    let c = at(json!({"type": "TextQuoteSelector", "exact": "Plan B. Plan A", "refinedBy": plan_a})).unwrap();
    assert_eq!((c.start, c.end, c.quote.as_str()), (16, 22, "Plan A"));
    // A position refined by a quote; a quote refined by a position counted in its segment;
    // agreeing alternatives; a chain of two.
    let c = at(json!({"type": "TextPositionSelector", "start": 8, "end": 22, "refinedBy": plan_a})).unwrap();
    assert_eq!((c.start, c.end), (16, 22));
    let c = at(json!({"type": "TextQuoteSelector", "exact": "Plan B. Plan A", "refinedBy": {"type": "TextPositionSelector", "start": 8, "end": 14}})).unwrap();
    assert_eq!((c.start, c.end), (16, 22));
    let c = at(json!({"type": "TextQuoteSelector", "exact": "Plan B. Plan A", "refinedBy": [plan_a, {"type": "TextPositionSelector", "start": 8, "end": 14}]})).unwrap();
    assert_eq!((c.start, c.end), (16, 22));
    let c = at(json!({"type": "TextPositionSelector", "start": 0, "end": 31, "refinedBy": {"type": "TextQuoteSelector", "exact": "Plan B. Plan A", "refinedBy": {"type": "TextQuoteSelector", "exact": "A"}}})).unwrap();
    assert_eq!((c.start, c.end), (21, 22));
    // Alternatives that disagree; a position outside its parent's segment.
    let e = at(json!({"type": "TextQuoteSelector", "exact": "Plan B. Plan A", "refinedBy": [plan_a, {"type": "TextPositionSelector", "start": 0, "end": 6}]})).unwrap_err();
    assert_eq!(details(&e)["paths"], json!(["/target/selector/refinedBy/0", "/target/selector/refinedBy/1"]));
    let e = at(json!({"type": "TextQuoteSelector", "exact": "Plan B", "refinedBy": {"type": "TextPositionSelector", "start": 2, "end": 9}})).unwrap_err();
    assert_eq!(e.contract().unwrap().violations[0].path, "/target/selector/refinedBy");
    // What cannot be applied is refused, never ignored.
    let e = at(json!({"type": "FragmentSelector", "value": "para5", "refinedBy": plan_a})).unwrap_err();
    assert_eq!(details(&e), json!({"code": "refinement_unsupported", "path": "/target/selector/refinedBy", "selector": "FragmentSelector", "refinement": "TextQuoteSelector"}));
    let e = at(json!([plan_a, {"type": "RangeSelector", "startSelector": {}, "endSelector": {}, "refinedBy": plan_a}])).unwrap_err();
    assert_eq!((details(&e)["path"].clone(), details(&e)["selector"].clone()), (json!("/target/selector/1/refinedBy"), json!("RangeSelector")));
    let e = at(json!({"type": "TextQuoteSelector", "exact": "Plan B", "refinedBy": {"type": "CssSelector", "value": "p"}})).unwrap_err();
    assert_eq!(details(&e)["refinement"], json!("CssSelector"));
    assert!(e.message(evidence_check::error::Lang::En).contains("only a TextQuoteSelector or a TextPositionSelector"), "{}", e.message(evidence_check::error::Lang::En));
    // Our own annotation is read as written: a refinement in it is refused.
    let mut st2 = store_with("fixture:x");
    let r = st2.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st2, &s, &r, "Plan A works offline.");
    let mut own = to_web_annotations(&s, &report, &st2).unwrap().remove(0);
    own["target"]["selector"][1]["refinedBy"] = json!({"type": "TextPositionSelector", "start": 0, "end": 4});
    let e = from_web_annotation_in(&own, &s, &st2, Default::default()).unwrap_err();
    assert_eq!(details(&e)["path"], json!("/target/selector/1/refinedBy"));
    assert!(e.message(evidence_check::error::Lang::En).contains("read as written"));
    // At most MAX_SELECTORS selectors, refinements included.
    let mut deep = plan_a.clone();
    for _ in 0..MAX_SELECTORS {
        deep = json!({"type": "TextPositionSelector", "start": 0, "end": 31, "refinedBy": deep});
    }
    let e = at(deep).unwrap_err();
    assert_eq!(e.contract().unwrap().violations[0].code.code(), "too_long");
}
