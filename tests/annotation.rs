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
    assert_eq!(from_web_annotation(&broken).unwrap_err().violations[0].path, "/citation/start");
    broken["id"] = json!("urn:other:1");
    assert_eq!(from_web_annotation(&broken).unwrap_err().violations[0].path, "/id");
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
    // Context decides: the second "Plan A", whatever the position says.
    let c = from_web_annotation_in(&hypothesis("Plan A", "Plan B. ", ".", 0), &s, &st, Default::default()).unwrap();
    assert_eq!((c.start, c.end, c.citation_id.as_str(), &c.source_ref), (16, 22, "annotation", &r));
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
