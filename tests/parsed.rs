//! Reports and reviews read once (`evidence_check::parsed`, behind the JS handles).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evidence_check::contract::Contract;
use evidence_check::parsed::{ParsedReport, ReviewList};
use evidence_check::policy::Policy;
use evidence_check::schema::Dialect;
use evidence_check::{report_digest, Report};
use serde_json::{json, Value};

fn bundle() -> Value {
    serde_json::from_str(include_str!("../examples/demo.bundle.json")).unwrap()
}

#[test]
fn a_parsed_report_keeps_its_digest_claim_ids_and_policy() {
    let text = bundle()["report"].to_string();
    let p = ParsedReport::from_json_in(&text, Dialect::Standard, &Policy::reference()).unwrap();
    let report = Report::from_json(&text).unwrap();
    assert_eq!(p.report(), &report);
    assert_eq!(p.digest(), report_digest(&report));
    assert_eq!(p.claim_ids(), vec!["claim_a", "claim_b", "choice"]);
    assert_eq!(p.policy(), &Policy::reference());
    // The same errors as the report's own reader.
    let bad = r#"{"title": 5, "claims": []}"#;
    assert_eq!(ParsedReport::from_json_in(bad, Dialect::Standard, &Policy::reference()).unwrap_err(), Report::from_json(bad).unwrap_err());
}

#[test]
fn under_another_policy_the_report_is_checked_again_as_its_json_would_be() {
    let mut v = bundle()["report"].clone();
    let claim = v["claims"][0].clone();
    v["claims"] = Value::Array((0..13).map(|i| json!({"claim_id": format!("k{i}"), "text": claim["text"], "kind": "fact"})).collect());
    v["conflicts"] = json!([]);
    let documents = Policy::documents();
    let p = ParsedReport::from_json_in(&v.to_string(), Dialect::Standard, &documents).unwrap();
    assert!(p.check_under(&documents).is_ok());
    let refused = p.check_under(&Policy::reference()).unwrap_err();
    assert_eq!(refused, Report::from_json_with(&serde_json::to_string(p.report()).unwrap(), &Policy::reference()).unwrap_err());
    assert_eq!(refused.violations[0].path, "/claims");
}

#[test]
fn reviews_added_one_by_one_are_checked_as_items_of_the_list() {
    let reviews = bundle()["reviews"].clone();
    let whole = ReviewList::from_json(&reviews.to_string()).unwrap();
    let mut list = ReviewList::default();
    for r in reviews.as_array().unwrap() {
        list.push_json(&r.to_string()).unwrap();
    }
    assert_eq!(list, whole);
    assert_eq!(list.len(), 3);
    let mut broken = reviews[0].clone();
    broken["note"] = json!("");
    let one = list.push_json(&broken.to_string()).unwrap_err();
    let mut all = reviews.as_array().unwrap().clone();
    all.push(broken);
    assert_eq!(one, ReviewList::from_json(&Value::Array(all).to_string()).unwrap_err());
    assert_eq!(one.violations[0].path, "/3/note");
    assert_eq!(list.len(), 3, "a refused review is not added");
    assert!(ReviewList::from_json("null").unwrap().is_empty());
}
