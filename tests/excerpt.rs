//! Excerpt claims, coverage, finalize and gradeTask: the second article's worked
//! examples on our own item cards, and a fixture task set (tests/data/tasks).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use evidence_check::excerpt::{
    check_excerpt, claims_from_value, documents_from_value, evaluate_claims, extract_excerpts, splitlines, AnswerStatus, Document,
    ExcerptCheck, ExcerptClaim, ExcerptReason,
};
use evidence_check::outcome::{finalize, grade_task, Effects, Expected, Finish, Observation, OutcomeReason, Task};
use evidence_check::Contract;
use serde_json::{json, Value};
use std::path::Path;

fn camera() -> Document {
    let body = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tasks/docs/camera.md")).unwrap();
    Document { id: "camera".into(), title: "Entry camera".into(), body }
}

fn fails(reason: ExcerptReason) -> ExcerptCheck {
    ExcerptCheck { supported: false, reason: Some(reason) }
}
const OK: ExcerptCheck = ExcerptCheck { supported: true, reason: None };

#[test]
fn splitlines_is_pythons() {
    // Printed by Python: "a\nb\r\nc\rd\x0be\x0cf\x1cg\x1dh\x1ei\x85j\u2028k\u2029l\n\nm\r\n".splitlines()
    let text = "a\nb\r\nc\rd\u{b}e\u{c}f\u{1c}g\u{1d}h\u{1e}i\u{85}j\u{2028}k\u{2029}l\n\nm\r\n";
    assert_eq!(splitlines(text), ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "", "m"]);
    assert_eq!(splitlines(""), Vec::<&str>::new());
    assert_eq!(splitlines("x\u{1f}y"), ["x\u{1f}y"], "U+001F is not a line break");
    assert_eq!(splitlines("\n"), [""]);
}

#[test]
fn four_camera_facts_are_extracted_and_supported() {
    let doc = camera();
    let claims = extract_excerpts(&doc);
    let sha = evidence_check::digest::sha256_hex(&doc.body);
    assert_eq!(
        claims,
        vec![
            ExcerptClaim { item_id: "camera".into(), sha256: sha.clone(), line: 2, quote: "- Item name: entry-level mirrorless camera.".into(), text: "Item name: entry-level mirrorless camera.".into() },
            ExcerptClaim { item_id: "camera".into(), sha256: sha.clone(), line: 3, quote: "- Use: photographing lab set-ups and field notes.".into(), text: "Use: photographing lab set-ups and field notes.".into() },
            ExcerptClaim { item_id: "camera".into(), sha256: sha.clone(), line: 4, quote: "- Borrowing requires: a signed equipment form.".into(), text: "Borrowing requires: a signed equipment form.".into() },
            ExcerptClaim { item_id: "camera".into(), sha256: sha, line: 5, quote: "- Return: within three days, battery charged.".into(), text: "Return: within three days, battery charged.".into() },
        ]
    );
    let docs = [doc];
    for c in &claims {
        assert_eq!(check_excerpt(&docs, c), OK);
    }
}

#[test]
fn each_single_field_mutation_fails_with_its_reason() {
    let docs = [camera()];
    let c = extract_excerpts(&docs[0]).remove(0);
    let m = |f: &dyn Fn(&mut ExcerptClaim)| {
        let mut x = c.clone();
        f(&mut x);
        check_excerpt(&docs, &x)
    };
    assert_eq!(m(&|x| x.text = "Item name: 100 cameras in stock.".into()), fails(ExcerptReason::TextDoesNotMatchQuote));
    assert_eq!(m(&|x| x.sha256 = "0".repeat(64)), fails(ExcerptReason::StaleDigest));
    assert_eq!(m(&|x| x.line = 3), fails(ExcerptReason::QuoteNotAtLine));
    assert_eq!(m(&|x| x.line = 0), fails(ExcerptReason::LineOutOfRange));
    assert_eq!(m(&|x| x.line = 6), fails(ExcerptReason::LineOutOfRange));
    assert_eq!(m(&|x| x.line = -1), fails(ExcerptReason::LineOutOfRange));
    assert_eq!(m(&|x| x.item_id = "tripod".into()), fails(ExcerptReason::UnknownItem));
    // Line changed and quote moved with it, text kept: the prefix check fails.
    assert_eq!(
        m(&|x| {
            x.line = 3;
            x.quote = "- Use: photographing lab set-ups and field notes.".into();
        }),
        fails(ExcerptReason::TextDoesNotMatchQuote)
    );
    // Quote and text both moved to line 3: supported, but it is another fact.
    let moved = m(&|x| {
        x.line = 3;
        x.quote = "- Use: photographing lab set-ups and field notes.".into();
        x.text = "Use: photographing lab set-ups and field notes.".into();
    });
    assert_eq!(moved, OK);
    // No Unicode normalisation: a full-width colon is another text.
    assert_eq!(m(&|x| x.text = "Item name：entry-level mirrorless camera.".into()), fails(ExcerptReason::TextDoesNotMatchQuote));
}

#[test]
fn the_digest_is_over_the_body_as_given() {
    let mut doc = camera();
    let claims = extract_excerpts(&doc);
    doc.body = doc.body.replace('\n', "\r\n");
    assert_eq!(check_excerpt(&[doc], &claims[0]), fails(ExcerptReason::StaleDigest), "CRLF is another version");
}

fn eval_json(claims: &[ExcerptClaim], status: AnswerStatus) -> Value {
    serde_json::to_value(evaluate_claims(&[camera()], "camera", claims, status)).unwrap()
}

#[test]
fn coverage_and_support_are_separate_gates() {
    let all = extract_excerpts(&camera());
    assert_eq!(
        eval_json(&all, AnswerStatus::Info),
        json!({"support_rate": 1.0, "supported": 4, "total": 4, "covered": 4, "required": 4, "coverage": 1.0, "duplicates": 0,
               "support_pass": true, "completeness_pass": true, "duplicates_pass": true, "passed": true})
    );
    assert_eq!(
        eval_json(&[], AnswerStatus::Info),
        json!({"support_rate": null, "supported": 0, "total": 0, "covered": 0, "required": 4, "coverage": 0.0, "duplicates": 0,
               "support_pass": true, "completeness_pass": false, "duplicates_pass": true, "passed": false})
    );
    assert_eq!(
        eval_json(&all[..3], AnswerStatus::Reserved),
        json!({"support_rate": 1.0, "supported": 3, "total": 3, "covered": 3, "required": 4, "coverage": 0.75, "duplicates": 0,
               "support_pass": true, "completeness_pass": false, "duplicates_pass": true, "passed": false})
    );
    let padded = [&all[..3], &all[..1]].concat();
    assert_eq!(
        eval_json(&padded, AnswerStatus::Insufficient),
        json!({"support_rate": 1.0, "supported": 4, "total": 4, "covered": 3, "required": 4, "coverage": 0.75, "duplicates": 1,
               "support_pass": true, "completeness_pass": false, "duplicates_pass": false, "passed": false})
    );
    for status in [AnswerStatus::NotFound, AnswerStatus::Denied, AnswerStatus::Abstain] {
        assert_eq!(
            eval_json(&[], status),
            json!({"support_rate": null, "supported": 0, "total": 0, "covered": 0, "required": 0, "coverage": null, "duplicates": 0,
                   "support_pass": true, "completeness_pass": true, "duplicates_pass": true, "passed": true})
        );
        assert_eq!(eval_json(&all[..1], status)["completeness_pass"], json!(false), "{status:?} with a claim fails");
    }
}

#[test]
fn documents_and_claims_have_contracts() {
    let e = documents_from_value(&json!([{"id": "a", "title": "t", "body": "b"}, {"id": "a", "title": "t", "body": "c"}])).unwrap_err();
    assert_eq!((e.violations[0].path.as_str(), e.violations[0].code.code()), ("/1/id", "duplicate_document_id"));
    let e = claims_from_value(&json!([{"item_id": "a", "sha256": "x", "line": "2", "quote": "- q", "text": "q"}])).unwrap_err();
    assert_eq!((e.violations[0].path.as_str(), e.violations[0].code.code()), ("/0/line", "wrong_type"));
}

// ---- finalize ----------------------------------------------------------------------

fn doc_obs(doc: &Document) -> Observation {
    Observation::Document { document: doc.clone() }
}

#[test]
fn a_cited_reserved_without_a_receipt_is_rejected() {
    let doc = camera();
    let task = Task::from_value(&json!({"task_id": "t1", "kind": "reserve", "item_id": "camera", "quantity": 1})).unwrap();
    let obs = vec![Observation::Search { query: "camera".into(), hits: vec!["camera".into()] }, doc_obs(&doc)];
    let finish = Finish { status: AnswerStatus::Reserved, claims: extract_excerpts(&doc) };
    let out = finalize(&task, &obs, &finish);
    assert!(out.evaluation.passed, "the citations are perfect");
    assert!(!out.accepted);
    assert_eq!(out.status, "rejected");
    assert_eq!(out.reasons, [OutcomeReason::NoReserveReceipt]);
    assert_eq!((out.text.as_str(), out.claims.len(), out.receipt.as_deref()), ("", 0, None));
}

#[test]
fn a_receipt_with_a_wrong_digest_claim_is_not_delivered_complete() {
    let doc = camera();
    let task = Task::from_value(&json!({"task_id": "t1", "kind": "reserve", "item_id": "camera", "quantity": 1})).unwrap();
    let reserve = Observation::from_value(&json!({"tool": "reserve", "request": {"item_id": "camera", "quantity": 1, "receipt_key": "k1"},
        "result": {"status": "reserved", "item_id": "camera", "quantity": 1, "remaining": 2, "revision": 7, "receipt": "k1"}})).unwrap();
    let mut claims = extract_excerpts(&doc);
    claims[2].sha256 = "f".repeat(64);
    let out = finalize(&task, &[doc_obs(&doc), reserve.clone()], &Finish { status: AnswerStatus::Reserved, claims });
    assert!(!out.accepted);
    assert_eq!(out.reasons, [OutcomeReason::ClaimsUnsupported, OutcomeReason::FactsMissing]);

    // With good claims the executor delivers its own text, from the receipt.
    let policy_claims = extract_excerpts(&doc);
    let out = finalize(&task, &[doc_obs(&doc), reserve], &Finish { status: AnswerStatus::Reserved, claims: policy_claims.clone() });
    assert!(out.accepted, "{:?}", out.reasons);
    assert_eq!(out.text, "Reserved 1 × camera; 2 left in stock (receipt k1, stock revision 7).");
    assert_eq!((out.receipt.as_deref(), out.remaining), (Some("k1"), Some(2)));
    assert_eq!(out.claims, policy_claims);
}

#[test]
fn a_lost_reply_is_unconfirmed_never_failed_or_reserved() {
    let doc = camera();
    let task = Task::from_value(&json!({"task_id": "t1", "kind": "reserve", "item_id": "camera", "quantity": 2})).unwrap();
    let lost = Observation::from_value(&json!({"tool": "reserve", "request": {"item_id": "camera", "quantity": 2, "receipt_key": "rk-9"}, "result": null})).unwrap();
    for status in [AnswerStatus::Reserved, AnswerStatus::Insufficient, AnswerStatus::Abstain] {
        let out = finalize(&task, &[doc_obs(&doc), lost.clone()], &Finish { status, claims: extract_excerpts(&doc) });
        assert_eq!(out.status, "unconfirmed");
        assert!(!out.accepted);
        assert_eq!(out.reasons, [OutcomeReason::ReplyLost]);
        assert_eq!(out.recovery_key.as_deref(), Some("rk-9"));
        assert_eq!(out.text, "A reservation of 2 × camera was sent but no reply was observed; its outcome is unconfirmed. Recover it with receipt key rk-9.");
    }
    // Recovered with the same key: the receipt backs the outcome.
    let recovered = Observation::from_value(&json!({"tool": "reserve", "request": {"item_id": "camera", "quantity": 2, "receipt_key": "rk-9"},
        "result": {"status": "reserved", "item_id": "camera", "quantity": 2, "remaining": 1, "revision": 3, "receipt": "rk-9"}})).unwrap();
    let out = finalize(&task, &[doc_obs(&doc), lost, recovered], &Finish { status: AnswerStatus::Reserved, claims: extract_excerpts(&doc) });
    assert_eq!(out.status, "reserved");
}

#[test]
fn other_statuses_need_their_observations() {
    let doc = camera();
    let query = Task::from_value(&json!({"task_id": "q", "kind": "query"})).unwrap();
    let claims = extract_excerpts(&doc);
    let fin = |status, claims: &[ExcerptClaim]| Finish { status, claims: claims.to_vec() };
    // info needs exactly one document read.
    assert_eq!(finalize(&query, &[], &fin(AnswerStatus::Info, &claims)).reasons[0], OutcomeReason::InfoNeedsOneDocument);
    let two = [doc_obs(&doc), doc_obs(&Document { id: "x".into(), title: "x".into(), body: "- x".into() })];
    assert_eq!(finalize(&query, &two, &fin(AnswerStatus::Info, &claims)).reasons, [OutcomeReason::InfoNeedsOneDocument]);
    let info = finalize(&query, &[doc_obs(&doc)], &fin(AnswerStatus::Info, &claims));
    assert!(info.accepted);
    assert_eq!(info.text, format!("Entry camera (camera), document version {}.", doc.sha256()));
    // not_found needs an empty search; denied a denial; insufficient a shortage.
    let hit = Observation::Search { query: "camera".into(), hits: vec!["camera".into()] };
    assert_eq!(finalize(&query, &[hit], &fin(AnswerStatus::NotFound, &[])).reasons, [OutcomeReason::NoEmptySearch]);
    let none = Observation::Search { query: "telescope".into(), hits: vec![] };
    assert_eq!(finalize(&query, std::slice::from_ref(&none), &fin(AnswerStatus::NotFound, &[])).text, "No item matches the search \"telescope\".");
    assert_eq!(finalize(&query, &[none], &fin(AnswerStatus::NotFound, &claims)).reasons, [OutcomeReason::ClaimsNotAllowed]);
    assert_eq!(finalize(&query, &[], &fin(AnswerStatus::Denied, &[])).reasons, [OutcomeReason::NoDenial]);
    assert_eq!(
        finalize(&query, &[doc_obs(&doc)], &fin(AnswerStatus::Insufficient, &claims)).reasons,
        [OutcomeReason::NoInsufficientObservation]
    );
    assert!(finalize(&query, &[], &fin(AnswerStatus::Abstain, &[])).accepted);
    // reserved on a query task is the wrong kind even with a receipt.
    let receipt = Observation::from_value(&json!({"tool": "reserve", "request": {"item_id": "camera", "quantity": 1, "receipt_key": "k"},
        "result": {"status": "reserved", "item_id": "camera", "quantity": 1, "remaining": 0, "revision": 1, "receipt": "k"}})).unwrap();
    assert!(finalize(&query, &[doc_obs(&doc), receipt], &fin(AnswerStatus::Reserved, &claims)).reasons.contains(&OutcomeReason::WrongTaskKind));
}

// ---- the fixture task set ----------------------------------------------------------

struct Entry {
    id: String,
    task: Task,
    observations: Vec<Observation>,
    finish: Value,
    effects: Effects,
    expected: Expected,
}

fn tasks() -> Vec<Entry> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tasks/tasks.json")).unwrap();
    let all: Value = serde_json::from_str(&text).unwrap();
    all.as_array()
        .unwrap()
        .iter()
        .map(|e| Entry {
            id: e["task"]["task_id"].as_str().unwrap().to_owned(),
            task: Task::from_value(&e["task"]).unwrap(),
            observations: e["observations"].as_array().unwrap().iter().map(|o| Observation::from_value(o).unwrap()).collect(),
            finish: e["finish"].clone(),
            effects: Effects::from_value(&e["effects"]).unwrap(),
            expected: Expected::from_value(&e["expected"]).unwrap(),
        })
        .collect()
}

fn grade(e: &Entry, finish: &Value) -> evidence_check::outcome::Grade {
    let out = finalize(&e.task, &e.observations, &Finish::from_value(finish).unwrap());
    grade_task(&e.expected, &out, &e.effects)
}

#[test]
fn every_fixture_task_passes() {
    let all = tasks();
    assert!(all.len() >= 17);
    let statuses: std::collections::BTreeSet<&str> = all.iter().map(|e| e.expected.status.as_str()).collect();
    assert_eq!(statuses.into_iter().collect::<Vec<_>>(), ["abstain", "denied", "info", "insufficient", "not_found", "reserved", "unconfirmed"]);
    for e in &all {
        let g = grade(e, &e.finish);
        assert!(g.passed, "{}: failed {:?}", e.id, g.failed);
    }
}

#[test]
fn broken_runs_fail_for_the_right_reason() {
    let all = tasks();
    let fact_tasks: Vec<&Entry> = all.iter().filter(|e| ["info", "reserved", "insufficient"].contains(&e.expected.status.as_str())).collect();
    assert!(fact_tasks.len() >= 10);
    for e in fact_tasks {
        let mut emptied = e.finish.clone();
        emptied["claims"] = json!([]);
        assert_eq!(grade(e, &emptied).failed, ["status", "completeness"], "{}: evidence emptied", e.id);

        let mut dropped = e.finish.clone();
        dropped["claims"].as_array_mut().unwrap().remove(1);
        assert_eq!(grade(e, &dropped).failed, ["status", "completeness"], "{}: one fact dropped", e.id);

        let mut duplicated = dropped.clone();
        let first = duplicated["claims"][0].clone();
        duplicated["claims"].as_array_mut().unwrap().push(first);
        assert_eq!(grade(e, &duplicated).failed, ["status", "completeness", "duplicates"], "{}: a duplicate cannot replace a dropped fact", e.id);
    }
}

#[test]
fn wrong_effects_fail_the_grade() {
    let all = tasks();
    let reserved = all.iter().find(|e| e.expected.status == "reserved").unwrap();
    let out = finalize(&reserved.task, &reserved.observations, &Finish::from_value(&reserved.finish).unwrap());
    let no_write = Effects { ledger: 0, remaining: reserved.effects.remaining };
    assert_eq!(grade_task(&reserved.expected, &out, &no_write).failed, ["ledger"]);
    let stock_off = Effects { ledger: 1, remaining: reserved.effects.remaining.map(|r| r + 1) };
    assert_eq!(grade_task(&reserved.expected, &out, &stock_off).failed, ["remaining"]);
}
