//! Excerpt claims, coverage, finalize and gradeTask: the second article's worked
//! examples on our own item cards, and a fixture task set (tests/data/tasks).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use evidence_check::excerpt::{
    check_excerpt, claims_from_value, documents_from_value, evaluate_claims, extract_excerpts, splitlines, AnswerStatus, Document,
    ExcerptCheck, ExcerptClaim, ExcerptReason,
};
use evidence_check::catalog::DocumentCatalog;
use evidence_check::outcome::{finalize, finalize_in, grade_task, grade_task_in, Effects, Expected, Finish, GradeMode, Graded, Observation, OutcomeReason, Task};
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
    let no_write = Effects { ledger: 0, ..reserved.effects.clone() };
    assert_eq!(grade_task(&reserved.expected, &out, &no_write).failed, ["ledger", "ledger_rule"]);
    let stock_off = Effects { remaining: reserved.effects.remaining.map(|r| r + 1), ..reserved.effects.clone() };
    assert_eq!(grade_task(&reserved.expected, &out, &stock_off).failed, ["remaining", "stock"]);
}

// ---- the grader recomputes (issue 16) -------------------------------------------------

fn catalog() -> DocumentCatalog {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tasks/docs");
    let mut c = DocumentCatalog::new();
    for id in ["camera", "drone", "microphone", "projector", "tripod"] {
        let body = std::fs::read_to_string(dir.join(format!("{id}.md"))).unwrap();
        c.import(Document { id: id.into(), title: id.into(), body }).unwrap();
    }
    c
}

fn outcome_of(e: &Entry) -> evidence_check::outcome::Outcome {
    finalize(&e.task, &e.observations, &Finish::from_value(&e.finish).unwrap())
}

fn entry<'a>(all: &'a [Entry], id: &str) -> &'a Entry {
    all.iter().find(|e| e.id == id).unwrap()
}

#[test]
fn an_info_outcome_with_its_claims_emptied_fails_a_recomputed_grade() {
    let all = tasks();
    let cat = catalog();
    let e = entry(&all, "q-camera");
    let mut out = outcome_of(e);
    assert_eq!(grade_task_in(&e.expected, &out, &e.effects, Some(&cat)).failed, Vec::<&str>::new());
    out.claims.clear();
    // Trusted, the outcome's own evaluation speaks for it, and the grade says so.
    let trusted = grade_task(&e.expected, &out, &e.effects);
    assert!(trusted.passed);
    assert_eq!(trusted.evaluation, GradeMode::Trusted);
    assert_eq!(trusted.from_caller, ["support", "completeness", "duplicates"]);
    assert_eq!(trusted.claim_evaluation, None);
    // Recomputed against the catalogue, the missing facts fail.
    let g = grade_task_in(&e.expected, &out, &e.effects, Some(&cat));
    assert!(!g.passed);
    assert_eq!(g.evaluation, GradeMode::Recomputed);
    assert_eq!(g.failed, ["completeness"]);
    assert_eq!(g.from_caller, Vec::<&str>::new());
    assert_eq!(g.recomputed, ["status", "support", "completeness", "duplicates", "receipts", "ledger", "ledger_rule", "remaining"]);
    let ev = g.claim_evaluation.unwrap();
    assert_eq!((ev.covered, ev.required, ev.coverage, ev.support_rate), (0, 4, Some(0.0), None));
}

#[test]
fn every_fixture_task_passes_a_recomputed_grade_and_tampered_outcomes_fail_for_their_reason() {
    let all = tasks();
    let cat = catalog();
    for e in &all {
        let out = outcome_of(e);
        let g = grade_task_in(&e.expected, &out, &e.effects, Some(&cat));
        assert!(g.passed, "{}: failed {:?}", e.id, g.failed);
        assert!(g.from_caller.is_empty(), "{}", e.id);
        assert_eq!(g.checks.stock.is_some(), e.task.kind == evidence_check::outcome::TaskKind::Reserve && e.effects.stock_before.is_some(), "{}", e.id);
        let with_catalog = finalize_in(&e.task, &e.observations, &Finish::from_value(&e.finish).unwrap(), Some(&cat));
        assert_eq!(with_catalog, out, "{}: finalize against the catalogue decides the same", e.id);

        let tampered = |f: &dyn Fn(&mut Vec<ExcerptClaim>)| {
            let mut o = out.clone();
            f(&mut o.claims);
            grade_task_in(&e.expected, &o, &e.effects, Some(&cat)).failed
        };
        if ["info", "reserved", "insufficient"].contains(&e.expected.status.as_str()) {
            assert_eq!(tampered(&|c| c.clear()), ["completeness"], "{}: emptied", e.id);
            assert_eq!(tampered(&|c| drop(c.remove(1))), ["completeness"], "{}: one dropped", e.id);
            assert_eq!(
                tampered(&|c| {
                    c.remove(1);
                    c.push(c[0].clone());
                }),
                ["completeness", "duplicates"],
                "{}: a duplicate for a dropped fact",
                e.id
            );
            assert_eq!(tampered(&|c| c[0].sha256 = "0".repeat(64)), ["support", "completeness"], "{}: a stale digest", e.id);
        } else {
            let camera = extract_excerpts(cat.get("camera").unwrap());
            assert_eq!(tampered(&|c| c.push(camera[0].clone())), ["completeness"], "{}: a claim where none is allowed", e.id);
        }
    }
}

#[test]
fn broken_runs_fail_a_recomputed_grade_too() {
    let all = tasks();
    let cat = catalog();
    for e in all.iter().filter(|e| ["info", "reserved", "insufficient"].contains(&e.expected.status.as_str())) {
        let run = |finish: &Value| grade_task_in(&e.expected, &outcome_of_finish(e, finish), &e.effects, Some(&cat)).failed;
        let mut emptied = e.finish.clone();
        emptied["claims"] = json!([]);
        assert_eq!(run(&emptied), ["status", "completeness"], "{}: evidence emptied", e.id);
        let mut dropped = e.finish.clone();
        dropped["claims"].as_array_mut().unwrap().remove(1);
        assert_eq!(run(&dropped), ["status", "completeness"], "{}: one fact dropped", e.id);
    }
}

fn outcome_of_finish(e: &Entry, finish: &Value) -> evidence_check::outcome::Outcome {
    finalize(&e.task, &e.observations, &Finish::from_value(finish).unwrap())
}

/// A fixture task, how to break its run, and the checks that must fail.
type Breakage = (&'static str, fn(&mut Expected, &mut Effects), &'static [&'static str]);

/// Each status's ledger and stock rule: one run that keeps it and one that breaks it.
#[test]
fn each_status_has_its_ledger_rule() {
    let all = tasks();
    let cat = catalog();
    let cases: [Breakage; 9] = [
        // info writes nothing: the repro, an expectation of one write, fails.
        ("q-camera", |x, f| (x.ledger, f.ledger) = (1, 1), &["ledger_rule"]),
        // reserved writes exactly one row ...
        ("r-camera-1", |x, f| (x.ledger, f.ledger) = (2, 2), &["ledger_rule"]),
        // ... and lowers the stock by the quantity (the answer's own remaining no longer matches).
        ("r-camera-1", |x, f| (x.remaining, f.remaining) = (Some(1), Some(1)), &["remaining", "stock"]),
        ("s-camera-4", |x, f| (x.ledger, f.ledger) = (1, 1), &["ledger_rule"]),
        ("s-camera-4", |x, f| (x.remaining, f.remaining) = (Some(2), Some(2)), &["stock"]),
        ("d-drone-1", |x, f| (x.ledger, f.ledger) = (1, 1), &["ledger_rule"]),
        ("n-laptop", |x, f| (x.ledger, f.ledger) = (1, 1), &["ledger_rule"]),
        ("a-borrowing", |x, f| (x.ledger, f.ledger, x.remaining, f.remaining) = (1, 1, Some(2), Some(2)), &["ledger_rule", "stock"]),
        // unconfirmed: a retry under a fresh key wrote twice (and took the stock twice).
        ("u-tripod-1", |x, f| (x.ledger, f.ledger, x.remaining, f.remaining) = (2, 2, Some(3), Some(3)), &["ledger_rule", "stock"]),
    ];
    for (id, breaks, failed) in cases {
        let e = entry(&all, id);
        let out = outcome_of(e);
        for catalog in [None, Some(&cat)] {
            assert_eq!(grade_task_in(&e.expected, &out, &e.effects, catalog).failed, Vec::<&str>::new(), "{id} as run");
            let (mut x, mut f) = (e.expected.clone(), e.effects.clone());
            breaks(&mut x, &mut f);
            let g = grade_task_in(&x, &out, &f, catalog);
            assert_eq!(g.failed, failed, "{id} broken");
            assert!(!g.passed);
        }
    }
    // The repro, exactly: ledger 1 expected and measured for an info answer.
    let e = entry(&all, "q-camera");
    let x = Expected { status: "info".into(), ledger: 1, remaining: None, item_id: None, quantity: None };
    let g = grade_task(&x, &outcome_of(e), &Effects { ledger: 1, remaining: None, stock_before: None, ..e.effects.clone() });
    assert_eq!((g.passed, g.failed.as_slice()), (false, ["ledger_rule"].as_slice()));
}

fn outcome_json(e: &Entry) -> Value {
    serde_json::to_value(outcome_of(e)).unwrap()
}

fn grade_json(e: &Entry, outcome: &Value, catalog: Option<&DocumentCatalog>) -> evidence_check::outcome::Grade {
    evidence_check::outcome::grade(&e.expected, &Graded::from_outcome_value(outcome, catalog.is_none()).unwrap(), &e.effects, catalog)
}

fn grade_run(e: &Entry, outcome: &Value, observations: &Value, catalog: Option<&DocumentCatalog>) -> evidence_check::outcome::Grade {
    let mut fx = serde_json::to_value(&e.effects).unwrap();
    fx["observations"] = observations.clone();
    evidence_check::outcome::grade(&e.expected, &Graded::from_outcome_value(outcome, catalog.is_none()).unwrap(), &Effects::from_value(&fx).unwrap(), catalog)
}

/// The receipts are replayed from the run's observations, the grader's own input
/// (`effects.observations`), never from the outcome's copy (issue 33, finding 7).
#[test]
fn receipts_are_replayed_from_the_runs_observations() {
    let all = tasks();
    let cat = catalog();
    let run_obs = |e: &Entry| serde_json::to_value(&e.observations).unwrap();
    // unconfirmed: the recovery key must be the lost request's.
    let u = entry(&all, "u-tripod-1");
    let mut o = outcome_json(u);
    assert!(grade_json(u, &o, Some(&cat)).passed);
    o["recovery_key"] = json!("rk-other");
    let g = grade_json(u, &o, Some(&cat));
    assert_eq!((g.failed.as_slice(), g.receipt_reasons.as_slice()), (["receipts"].as_slice(), [OutcomeReason::NoLostReply].as_slice()));

    // reserved: a receipt the observations do not hold, or other figures, fail.
    let r = entry(&all, "r-camera-1");
    let good = outcome_json(r);
    let mut forged = good.clone();
    forged["receipt"] = json!("rk-forged");
    assert_eq!(grade_json(r, &forged, None).receipt_reasons, [OutcomeReason::NoReserveReceipt]);
    // Removing the outcome's observations changes nothing: they were never read.
    forged.as_object_mut().unwrap().remove("observations");
    let g = grade_json(r, &forged, Some(&cat));
    assert_eq!((g.passed, g.failed.as_slice()), (false, ["receipts"].as_slice()));
    assert!(g.from_caller.is_empty());
    // Without the run's observations the receipts fail: they are nobody's word.
    let g = grade_run(r, &good, &Value::Null, Some(&cat));
    assert_eq!((g.failed.as_slice(), g.receipt_reasons.as_slice()), (["receipts"].as_slice(), [OutcomeReason::NoObservations].as_slice()));

    // A lost reply resolved under another key is not resolved: the receipt does not count.
    let lost = json!({"tool": "reserve", "request": {"item_id": "camera", "quantity": 1, "receipt_key": "rk-lost"}, "result": null});
    let mut other = run_obs(r);
    other.as_array_mut().unwrap().insert(2, lost.clone());
    assert_eq!(grade_run(r, &good, &other, Some(&cat)).receipt_reasons, [OutcomeReason::ReplyLost]);
    // The same lost reply put in the outcome's copy only is not the run's: it carries no weight.
    let mut copy = good.clone();
    copy["observations"] = other.clone();
    assert!(grade_json(r, &copy, Some(&cat)).passed);
    // Replayed under the same key, it is.
    let mut same = run_obs(r);
    let mut lost_same = lost;
    lost_same["request"]["receipt_key"] = good["receipt"].clone();
    same.as_array_mut().unwrap().insert(2, lost_same);
    assert!(grade_run(r, &good, &same, Some(&cat)).passed);

    // info: the document must have been read; not_found: the empty search.
    let q = entry(&all, "q-camera");
    let mut unread = run_obs(q);
    unread.as_array_mut().unwrap().retain(|o| o["tool"] != "document");
    assert_eq!(grade_run(q, &outcome_json(q), &unread, Some(&cat)).receipt_reasons, [OutcomeReason::DocumentNotRead, OutcomeReason::InfoNeedsOneDocument]);
    let n = entry(&all, "n-telescope");
    let mut hit = run_obs(n);
    hit[0]["hits"] = json!(["camera"]);
    assert_eq!(grade_run(n, &outcome_json(n), &hit, None).failed, ["receipts"]);
}

#[test]
fn a_trusted_grade_needs_the_outcomes_evaluation() {
    let all = tasks();
    let mut o = outcome_json(&all[0]);
    o.as_object_mut().unwrap().remove("evaluation");
    let e = Graded::from_outcome_value(&o, true).unwrap_err();
    assert_eq!((e.violations[0].path.as_str(), e.violations[0].code.code()), ("/evaluation", "wrong_type"));
    assert!(Graded::from_outcome_value(&o, false).is_ok());
    o["claims"] = json!([{"item_id": "camera"}]);
    let e = Graded::from_outcome_value(&o, false).unwrap_err();
    assert_eq!(e.violations[0].path, "/claims/0/sha256");
}

// ---- the three readings (docs/outcomes.md) ---------------------------------------------

#[test]
fn reading_1_a_stale_digest_gives_no_coverage() {
    let mut claims = extract_excerpts(&camera());
    claims[0].sha256 = "0".repeat(64);
    let ev = evaluate_claims(&[camera()], "camera", &claims, AnswerStatus::Info);
    assert_eq!((ev.covered, ev.required, ev.support_pass), (3, 4, false));
}

#[test]
fn reading_2_the_same_document_read_twice_is_one_document() {
    let doc = camera();
    let query = Task::from_value(&json!({"task_id": "q", "kind": "query"})).unwrap();
    let finish = Finish { status: AnswerStatus::Info, claims: extract_excerpts(&doc) };
    let twice = finalize(&query, &[doc_obs(&doc), doc_obs(&doc)], &finish);
    assert!(twice.accepted, "{:?}", twice.reasons);
    // The same id with another body between the reads is two versions: not one document.
    let edited = Document { body: doc.body.replace('\n', "\r\n"), ..doc.clone() };
    assert_eq!(finalize(&query, &[doc_obs(&doc), doc_obs(&edited)], &finish).reasons[0], OutcomeReason::InfoNeedsOneDocument);
}

#[test]
fn reading_3_the_answers_own_remaining_is_compared_with_the_real_stock() {
    let all = tasks();
    let r = entry(&all, "r-camera-1");
    let out = outcome_of(r);
    assert_eq!(out.remaining, Some(2));
    // Nothing expected of the stock, but the answer says 2 and the stock is 1.
    let x = Expected { remaining: None, ..r.expected.clone() };
    let f = Effects { remaining: Some(1), stock_before: None, ..r.effects.clone() };
    assert_eq!(grade_task(&x, &out, &f).failed, ["remaining"]);
}

#[test]
fn finalize_against_a_catalogue_refuses_a_changed_document() {
    let cat = catalog();
    let doc = camera();
    let query = Task::from_value(&json!({"task_id": "q", "kind": "query"})).unwrap();
    let edited = Document { body: format!("{}- Stock: 100 cameras.\n", doc.body), ..doc.clone() };
    let finish = Finish { status: AnswerStatus::Info, claims: extract_excerpts(&edited) };
    let out = finalize_in(&query, &[doc_obs(&edited)], &finish, Some(&cat));
    assert!(!out.accepted);
    assert!(out.reasons.contains(&OutcomeReason::DocumentChanged), "{:?}", out.reasons);
    // Without the catalogue the changed document would have been believed.
    assert!(finalize(&query, &[doc_obs(&edited)], &finish).accepted);
}
