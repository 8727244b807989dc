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
