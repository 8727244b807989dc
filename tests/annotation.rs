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
