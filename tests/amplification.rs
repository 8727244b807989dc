//! Hostile inputs whose violations or tree would grow with their size: the list of
//! violations is capped, lists are measured before their items are checked, and the
//! reader keeps a bounded tree.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod support;

use evidence_check::bundle::Bundle;
use evidence_check::json::{read_bounded, value_budget, DEFAULT_MAX_INPUT_BYTES};
use evidence_check::contract::checker::MAX_VIOLATIONS;
use evidence_check::Report;
use support::read_json;

/// A bundle whose report holds `n` empty claims (the red-team's repro).
fn empty_claims_bundle(n: usize) -> String {
    let claims = vec!["{}"; n].join(",");
    format!(r#"{{"scope":{{"tenant_id":"t","user_id":"u"}},"sources":[],"report":{{"title":"x","claims":[{claims}]}}}}"#)
}

fn codes(e: &evidence_check::ContractError) -> Vec<&'static str> {
    e.violations.iter().map(|v| v.code.code()).collect()
}

#[test]
fn four_million_empty_claims_give_the_real_count_and_few_violations() {
    let n = 4_200_000;
    let text = empty_claims_bundle(n);
    assert!(text.len() < DEFAULT_MAX_INPUT_BYTES);
    let e = read_json::<Bundle>(&text, &evidence_check::contract::Limits::reference()).unwrap_err();
    assert!(e.violations.len() <= MAX_VIOLATIONS + 1, "{} violations", e.violations.len());
    let first = &e.violations[0];
    assert_eq!((first.path.as_str(), first.code.code()), ("/report/claims", "too_long"));
    assert_eq!(first.message, format!("List should have at most 12 items, not {n}; {}", evidence_check::policy::how_to_raise("max_claims", evidence_check::error::Lang::En)));
    assert!(codes(&e).contains(&"too_many_values"), "{:?}", codes(&e));
}

#[test]
fn the_reader_keeps_at_most_its_budget() {
    let text = empty_claims_bundle(1_000_000);
    let read = read_bounded(&text, DEFAULT_MAX_INPUT_BYTES, 0, "bundle").unwrap();
    assert!(read.truncated());
    assert_eq!(read.budget, value_budget(text.len(), 0));
    let kept = read.value().get("report").unwrap().get("claims").unwrap().as_array().unwrap().len();
    assert!(kept < read.budget, "{kept} kept");
    assert_eq!(read.lengths.get("/report/claims"), Some(&1_000_000));
}

#[test]
fn violations_are_capped_with_a_count_of_the_rest() {
    // 12 claims (the limit), each with 20 unknown fields and 3 required ones missing.
    let extra: Vec<String> = (0..20).map(|i| format!(r#""x{i}":0"#)).collect();
    let claim = format!("{{{}}}", extra.join(","));
    let claims = [claim.as_str(); 12].join(",");
    let text = format!(r#"{{"title":"x","claims":[{claims}]}}"#);
    let e = read_json::<Report>(&text, &evidence_check::contract::Limits::reference()).unwrap_err();
    assert_eq!(e.violations.len(), MAX_VIOLATIONS + 1);
    let last = e.violations.last().unwrap();
    assert_eq!(last.code.code(), "too_many_violations");
    assert!(last.message.starts_with("176 more violations"), "{}", last.message);
}

#[test]
fn a_long_list_is_measured_before_its_items_once_the_cap_is_reached() {
    // 500 gaps of the wrong type: the reference would list 500 violations.
    let gaps = vec!["0"; 500].join(",");
    let text = format!(r#"{{"title":"x","claims":[],"gaps":[{gaps}]}}"#);
    let e = read_json::<Report>(&text, &evidence_check::contract::Limits::reference()).unwrap_err();
    assert_eq!(e.violations.len(), MAX_VIOLATIONS + 1);
    // 100 items listed, the 101st counted, then the list is refused by its length (not 400 more items).
    let last = e.violations.last().unwrap();
    assert!(last.message.starts_with("2 more violations"), "{}", last.message);
}

#[test]
fn under_the_cap_the_reference_order_holds() {
    // 9 invalid gaps (limit 8): the reference lists each item and no too_long.
    let text = r#"{"title":"x","claims":[],"gaps":[0,0,0,0,0,0,0,0,0]}"#;
    let e = read_json::<Report>(text, &evidence_check::contract::Limits::reference()).unwrap_err();
    assert_eq!(e.violations.iter().filter(|v| v.path.starts_with("/gaps/")).count(), 9);
    assert!(!codes(&e).contains(&"too_many_violations"));
}

#[test]
fn nested_lists_and_wide_objects_stay_within_the_budget() {
    let inner = vec!["{}"; 4000].join(",");
    let lists = vec![format!("[{inner}]"); 1000].join(",");
    let text = format!(r#"{{"title":"x","claims":[{lists}]}}"#);
    let read = read_bounded(&text, DEFAULT_MAX_INPUT_BYTES, 0, "report").unwrap();
    assert!(read.truncated());
    let kept: usize = read.value().get("claims").unwrap().as_array().unwrap().iter().map(|l| l.as_array().unwrap().len() + 1).sum();
    assert!(kept <= read.budget, "{kept} kept, budget {}", read.budget);
    let e = read_json::<Report>(&text, &evidence_check::contract::Limits::reference()).unwrap_err();
    assert!(e.violations.len() <= MAX_VIOLATIONS + 1);
    assert!(codes(&e).contains(&"too_many_values"));

    let keys: Vec<String> = (0..300_000).map(|i| format!(r#""k{i}":0"#)).collect();
    let text = format!("{{{}}}", keys.join(","));
    let e = read_json::<Report>(&text, &evidence_check::contract::Limits::reference()).unwrap_err();
    assert_eq!(e.violations.len(), MAX_VIOLATIONS + 1);
    assert!(codes(&e).contains(&"extra_field"));
}

#[test]
fn parse_strict_refuses_what_it_cannot_keep() {
    let text = format!("[{}]", vec!["0"; 600_000].join(","));
    let e = evidence_check::json::parse_strict(&text, DEFAULT_MAX_INPUT_BYTES, "argument").unwrap_err();
    assert_eq!(codes(&e), ["too_many_values"]);
}

#[test]
fn raised_limits_raise_what_the_reader_keeps() {
    // 4,000 minimal claims (20,000 values): more values than the default budget, accepted when the
    // limits allow that many claims.
    let claims: Vec<String> = (0..4000).map(|i| format!(r#"{{"claim_id":"k{i}","text":"t","kind":"fact","citations":[]}}"#)).collect();
    let text = format!(r#"{{"title":"x","claims":[{}]}}"#, claims.join(","));
    let raised = evidence_check::contract::Limits { max_claims: 4000, ..evidence_check::contract::Limits::reference() };
    assert_eq!(read_json::<Report>(&text, &raised).unwrap().claims.len(), 4000);
    let e = read_json::<Report>(&text, &evidence_check::contract::Limits::reference()).unwrap_err();
    assert!(e.violations[0].message.starts_with("List should have at most 12 items, not 4000; raise it with the policy field max_claims"), "{}", e.violations[0].message);
}

#[test]
fn parse_strict_keeps_a_large_list_of_short_documents() {
    // 20,000 documents with a 40-character body: 80,000 values in 1.7 MB (21 bytes a value).
    let docs: Vec<String> = (0..20_000).map(|i| format!(r#"{{"id":"d{i}","title":"t","body":"{i:040}"}}"#)).collect();
    let text = format!("[{}]", docs.join(","));
    let v = evidence_check::json::parse_strict(&text, DEFAULT_MAX_INPUT_BYTES, "argument").unwrap();
    assert_eq!(v.as_array().unwrap().len(), 20_000);
}
