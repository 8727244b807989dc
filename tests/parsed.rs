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
    let whole = ReviewList::from_value(&reviews).unwrap();
    let mut list = ReviewList::default();
    for r in reviews.as_array().unwrap() {
        list.push_value(r).unwrap();
    }
    assert_eq!(list, whole);
    assert_eq!(list.len(), 3);
    let mut broken = reviews[0].clone();
    broken["note"] = json!("");
    let one = list.push_value(&broken).unwrap_err();
    let mut all = reviews.as_array().unwrap().clone();
    all.push(broken);
    assert_eq!(one, ReviewList::from_value(&Value::Array(all)).unwrap_err());
    assert_eq!(one.violations[0].path, "/3/note");
    assert_eq!(list.len(), 3, "a refused review is not added");
    assert!(ReviewList::from_value(&Value::Null).unwrap().is_empty());
}

// proptest is a native dev-dependency (Cargo.toml): `wasm-pack test` builds every test target.
#[cfg(not(target_arch = "wasm32"))]
mod recorded {
    use super::*;
    use evidence_check::parsed::Recorded;
    use evidence_check::review::{Review, Verdict};
    use evidence_check::Scope;
    use proptest::prelude::*;

    /// A review with each field drawn from values the reader accepts and values it refuses.
    fn review() -> impl Strategy<Value = Review> {
        let id = prop::sample::select(vec!["t1", "reader", "", "a b", "-x", "é", "a\n", "x_y-Z9"]).prop_map(str::to_owned);
        let long_id = Just("a".repeat(64));
        let ids = prop_oneof![4 => id, 1 => long_id];
        let digest = prop::sample::select(vec!["1ce0154968e3344b65321a63ce8082d19a3c2b2960a2cb9ded546a4331090691", "ABC", "", "1CE0154968E3344B65321A63CE8082D19A3C2B2960A2CB9DED546A4331090691"]).prop_map(str::to_owned);
        let note = prop_oneof![
            Just(" ".to_owned()),
            Just(String::new()),
            Just("教学审阅替身:仅核对本例说明。".to_owned()),
            Just("a \"quoted\" \\ note\u{1f}\u{7f}\u{2028}".to_owned()),
            (999usize..1002).prop_map(|n| "笔".repeat(n)),
            "\\PC{1,40}",
        ];
        let at = prop::sample::select(vec!["2026-11-29T00:00:00+00:00", "2026-11-29T00:00:00.123456789Z", "", "not a date"]).prop_map(str::to_owned);
        let long_at = Just("9".repeat(65));
        let signature = prop_oneof![Just(None), Just(Some("ab".repeat(32))), Just(Some("xyz".to_owned()))];
        let verdict = prop::sample::select(vec![Verdict::Supported, Verdict::Insufficient, Verdict::Contradicted]);
        (ids.clone(), ids.clone(), digest, ids, verdict, note, prop_oneof![3 => at, 1 => long_at], signature).prop_map(
            |(tenant_id, user_id, report_digest, claim_id, verdict, note, reviewed_at, signature)| Review {
                scope: Scope { tenant_id, user_id },
                report_digest,
                claim_id,
                verdict,
                note,
                reviewed_at,
                signature,
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// A review is kept for `Reviews.add` exactly when reading its JSON text as the
        /// next item of a list gives it back: what `push_recorded` relies on.
        #[test]
        fn a_review_is_kept_exactly_when_reading_its_text_gives_it_back(r in review()) {
            let text = serde_json::to_string(&r).unwrap();
            let mut list = ReviewList::default();
            let read_back = list.push_json(&text).is_ok() && list.reviews() == std::slice::from_ref(&r);
            prop_assert_eq!(Recorded::new(r.clone(), text).is_some(), read_back);
        }
    }

    #[test]
    fn a_recorded_review_is_taken_as_it_is_only_for_its_own_text() {
        let reviews = bundle()["reviews"].clone();
        let first: Review = ReviewList::from_value(&reviews).unwrap().into_reviews().remove(0);
        let text = serde_json::to_string(&first).unwrap();
        let recorded = Recorded::new(first.clone(), text.clone()).expect("a valid review is kept");
        assert_eq!(recorded.text(), text);
        let mut list = ReviewList::default();
        list.push_recorded(&text, Some(&recorded)).unwrap();
        assert_eq!(list.reviews(), std::slice::from_ref(&first));
        // Another text is read: its own note, and its own violations at the list's path.
        let mut changed = serde_json::to_value(&first).unwrap();
        changed["note"] = json!("another note");
        list.push_recorded(&changed.to_string(), Some(&recorded)).unwrap();
        assert_eq!(list.reviews()[1].note, "another note");
        changed["note"] = json!("");
        let refused = list.push_recorded(&changed.to_string(), Some(&recorded)).unwrap_err();
        let mut read = list.clone();
        assert_eq!(refused, read.push_json(&changed.to_string()).unwrap_err());
        assert_eq!(refused.violations[0].path, "/2/note");
        assert_eq!(list.len(), 2);
        // A text that differs only in its key order or spacing is read too (same review).
        let spaced = text.replacen(",", ", ", 1);
        list.push_recorded(&spaced, Some(&recorded)).unwrap();
        assert_eq!(list.reviews()[2], first);
    }

    #[test]
    fn a_review_made_under_a_looser_policy_is_not_kept() {
        let mut r: Review = ReviewList::from_value(&bundle()["reviews"]).unwrap().into_reviews().remove(0);
        r.note = "n".repeat(1001);
        let text = serde_json::to_string(&r).unwrap();
        assert!(Recorded::new(r, text.clone()).is_none());
        assert!(ReviewList::default().push_json(&text).is_err());
    }
}
