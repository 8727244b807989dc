//! `bundle_without_contents`: the strict bundle reader of `check --mcp`, whose sources
//! may leave out their texts (issue 12, finding 7).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evidence_check::bundle::bundle_without_contents;
use evidence_check::contract::Limits;
use evidence_check::Bundle;
use evidence_check::Contract;
use serde_json::Value;

fn example() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/demo.bundle.json")).unwrap()
}

fn codes(text: &str) -> Vec<(String, String)> {
    let e = bundle_without_contents(text, &Limits::default()).unwrap_err();
    e.violations.iter().map(|v| (v.path.clone(), v.code.code().to_string())).collect()
}

#[test]
fn a_bundle_without_contents_reads_as_the_full_one_with_empty_texts() {
    let full = example();
    let mut v: Value = serde_json::from_str(&full).unwrap();
    for s in v["sources"].as_array_mut().unwrap() {
        s.as_object_mut().unwrap().remove("content");
    }
    let bare = bundle_without_contents(&v.to_string(), &Limits::default()).unwrap();
    let inline = Bundle::from_json(&full).unwrap();
    assert_eq!(bare.report, inline.report);
    assert_eq!(bare.scope, inline.scope);
    assert_eq!(bare.reviews, inline.reviews);
    assert_eq!(bare.sources.iter().map(|s| &s.spec).collect::<Vec<_>>(), inline.sources.iter().map(|s| &s.spec).collect::<Vec<_>>());
    assert!(bare.sources.iter().all(|s| s.content.is_empty()));
    // Inline contents, when present, are kept (and checked) as usual.
    assert_eq!(bundle_without_contents(&full, &Limits::default()).unwrap(), inline);
}

#[test]
fn everything_else_is_as_strict_as_a_check() {
    let full = example();
    assert_eq!(codes("null"), vec![(String::new(), "wrong_type".to_string())]);
    let pairs = |v: &[(&str, &str)]| v.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect::<Vec<_>>();
    assert_eq!(codes(r#"{"sources":{}}"#), pairs(&[("/scope", "missing"), ("/sources", "wrong_type"), ("/report", "missing")]));
    assert_eq!(codes(&full.replacen("{\n  \"scope\"", "{\n  \"scope\": {},\n  \"scope\"", 1))[0].1, "duplicate_key");
    assert_eq!(codes(&full.replacen("{\n  \"scope\"", "{\n  \"extra\": 1,\n  \"scope\"", 1)), vec![("/extra".to_string(), "extra_field".to_string())]);
    let small = Limits { max_input_bytes: 10, ..Limits::default() };
    let e = bundle_without_contents(&full, &small).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "input_too_large");
    // A source without its spec is still refused; content alone is optional.
    assert!(codes(r#"{"scope":{"tenant_id":"t","user_id":"u"},"sources":[{}],"report":{"title":"t","claims":[]}}"#)
        .contains(&("/sources/0/spec".to_string(), "missing".to_string())));
}
