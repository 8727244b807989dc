//! Unit tests of the core (src/review.rs): reviews bound to scope and report digest, and signed reviews.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use evidence_check::assess::{assess, ClaimState, Status};
use evidence_check::digest::report_digest;
use evidence_check::review::ReviewErrorKind;
use evidence_check::review::record_review;
use support::*;

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
    // The limit is in code points, not bytes.
    assert!(record_review(&s, &report, "k1", "supported", &"😀".repeat(1000), &clock()).is_ok());
    assert_eq!(record_review(&s, &report, "k1", "supported", &"😀".repeat(1001), &clock()).unwrap_err(), ReviewErrorKind::InvalidNote);
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

/// A host may give `null` for a field's string longer than [`ReviewField::max_units`]:
/// no string that long is accepted, and a longer one is refused by the rule that refuses
/// `null`.
#[test]
fn review_fields_past_their_units_are_refused_as_non_strings() {
    use evidence_check::policy::{IdRule, Policy};
    use evidence_check::review::{record_review_value_with, ReviewField};
    use evidence_check::rules::check_str;
    use evidence_check::Verdict;
    use serde_json::Value;

    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st, &s, &r, "Plan A works offline.");
    let reference = Policy::reference();

    // An id of the most units passes the policy's identifier rule; one unit more cannot.
    for rule in [IdRule::Reference, IdRule::Extended] {
        let policy = Policy { identifier: rule, ..Policy::reference() };
        let n = ReviewField::ClaimId.max_units(&policy);
        assert!(check_str(&"a".repeat(n), &policy.identifier_rule()).is_ok());
        assert!(check_str(&"a".repeat(n + 1), &policy.identifier_rule()).is_err());
    }
    // The longest verdict fits, and nothing longer is one.
    let n = ReviewField::Verdict.max_units(&reference);
    assert!(Verdict::ALL.iter().any(|(name, _)| name.len() == n));
    assert!(Verdict::ALL.iter().all(|(name, _)| name.len() <= n));
    // The longest note in UTF-16 units (every code point astral) fits.
    let longest_note = "😀".repeat(reference.max_note_chars);
    assert!(longest_note.encode_utf16().count() <= ReviewField::Note.max_units(&reference));

    let v = |t: &str| Value::String(t.to_owned());
    let record = |claim: &Value, verdict: &Value, note: &Value| record_review_value_with(&s, &report, claim, verdict, note, &clock(), &reference);
    assert!(record(&v("k1"), &v("supported"), &v(&longest_note)).is_ok());
    let past = |field: ReviewField| v(&"a".repeat(field.max_units(&reference) + 1));
    let cases = [
        (record(&past(ReviewField::ClaimId), &v("supported"), &v("n")), record(&Value::Null, &v("supported"), &v("n"))),
        (record(&v("k1"), &past(ReviewField::Verdict), &v("n")), record(&v("k1"), &Value::Null, &v("n"))),
        (record(&v("k1"), &v("supported"), &past(ReviewField::Note)), record(&v("k1"), &v("supported"), &Value::Null)),
    ];
    for (past, null) in cases {
        assert_eq!(past.unwrap_err(), null.unwrap_err());
    }
}
