//! A forgery set for the grader (issue 33, finding 7): outcomes that claim `reserved`
//! without the receipt for the task's item and quantity, generated from the fixture
//! tasks (tests/data/tasks/tasks.json). None may pass.
//!
//! Each forgery kind is a run (what really happened: its observations, its ledger, its
//! stock) and a forged outcome claiming `reserved`. The outcome's own `observations`
//! are kept (the run's), removed, or forged (made up to back the claim); its `remaining`
//! is reported or `null`; it is graded against the full expectation (with the stock
//! measured) and the minimal one (`{status, ledger}`, no stock measured), with and
//! without the catalogue. The run's observations reach the grader only through
//! `effects`, the grader's own input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use evidence_check::catalog::DocumentCatalog;
use evidence_check::excerpt::{extract_excerpts, AnswerStatus, Document};
use evidence_check::outcome::{finalize, finalize_in, grade, Effects, Expected, Finish, Graded, Observation, OutcomeReason, Task};
use evidence_check::Contract;
use serde_json::{json, Value};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn tasks() -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("tests/data/tasks/tasks.json")).unwrap();
    serde_json::from_str::<Value>(&text).unwrap().as_array().unwrap().clone()
}

fn catalog() -> DocumentCatalog {
    let mut c = DocumentCatalog::new();
    for id in ["camera", "drone", "microphone", "projector", "tripod"] {
        let body = std::fs::read_to_string(root().join(format!("tests/data/tasks/docs/{id}.md"))).unwrap();
        c.import(Document { id: id.into(), title: id.into(), body }).unwrap();
    }
    c
}

/// The stock of each item before a run (make_tasks.py's `STOCK`, as the fixtures show it).
fn stock_of(all: &[Value], item: &str) -> u64 {
    all.iter()
        .find(|e| e["task"]["item_id"] == item && e["effects"]["stock_before"].is_u64())
        .map_or(0, |e| e["effects"]["stock_before"].as_u64().unwrap())
}

fn reserve_obs(item: &str, quantity: u64, key: &str, result: Value) -> Value {
    json!({"tool": "reserve", "request": {"item_id": item, "quantity": quantity, "receipt_key": key}, "result": result})
}

fn reserved(item: &str, quantity: u64, remaining: u64, key: &str) -> Value {
    json!({"status": "reserved", "item_id": item, "quantity": quantity, "remaining": remaining, "revision": 1, "receipt": key})
}

/// What really happened in a run.
struct Run {
    observations: Vec<Value>,
    ledger: u64,
    /// The task item's stock after the run.
    remaining: u64,
}

/// A forged `reserved` outcome on a run.
struct Forgery {
    kind: &'static str,
    task_id: String,
    run: Run,
    /// The receipt the outcome names and the remaining stock it reports.
    receipt: String,
    remaining: u64,
    /// The item the outcome says it is about.
    item_id: String,
}

/// The observations a forger makes up to back its outcome: the honest run's, with the
/// reservation replaced by one for the outcome's receipt and figures.
fn forged_observations(e: &Value, f: &Forgery, remaining: Option<u64>) -> Vec<Value> {
    let item = e["task"]["item_id"].as_str().unwrap();
    let q = e["task"]["quantity"].as_u64().unwrap();
    let mut obs: Vec<Value> = e["observations"].as_array().unwrap().iter().filter(|o| o["tool"] != "reserve").cloned().collect();
    obs.push(reserve_obs(item, q, &f.receipt, reserved(item, q, remaining.unwrap_or(f.remaining), &f.receipt)));
    obs
}

fn forgeries(all: &[Value]) -> Vec<(Value, Forgery)> {
    let mut out = Vec::new();
    let items = ["camera", "drone", "microphone", "projector", "tripod"];
    for e in all.iter().filter(|e| e["expected"]["status"] == "reserved") {
        let task_id = e["task"]["task_id"].as_str().unwrap().to_owned();
        let item = e["task"]["item_id"].as_str().unwrap();
        let q = e["task"]["quantity"].as_u64().unwrap();
        let stock = e["effects"]["stock_before"].as_u64().unwrap();
        let honest: Vec<Value> = e["observations"].as_array().unwrap().clone();
        let reads: Vec<Value> = honest.iter().filter(|o| o["tool"] != "reserve").cloned().collect();
        let key = format!("rk-{task_id}");
        let mk = |kind, run, receipt: &str, remaining, item_id: &str| Forgery { kind, task_id: task_id.clone(), run, receipt: receipt.into(), remaining, item_id: item_id.into() };

        // 1. A fake `reserved`: no reservation was made, nothing was written.
        out.push((e.clone(), mk("fake_reserved", Run { observations: reads.clone(), ledger: 0, remaining: stock }, &key, stock - q, item)));

        // 2. A wrong quantity: the reservation took another quantity than the task's.
        for other in [q + 1, q.saturating_sub(1)] {
            if other == 0 || other > stock {
                continue;
            }
            let mut obs = reads.clone();
            obs.push(reserve_obs(item, other, &key, reserved(item, other, stock - other, &key)));
            out.push((e.clone(), mk("wrong_quantity", Run { observations: obs, ledger: 1, remaining: stock - other }, &key, stock - other, item)));
        }

        // 3. Another item's receipt: the reservation was of another item; this item's stock is untouched.
        let other = items.iter().copied().find(|i| *i != item && *i != "drone" && stock_of(all, i) >= q).unwrap();
        let other_left = stock_of(all, other) - q;
        let mut obs = reads.clone();
        obs.push(reserve_obs(other, q, &key, reserved(other, q, other_left, &key)));
        for (remaining, named) in [(other_left, item), (other_left, other), (stock - q, item)] {
            let run = Run { observations: obs.clone(), ledger: 1, remaining: stock };
            out.push((e.clone(), mk("other_item_receipt", run, &key, remaining, named)));
        }

        // 4. A lost reply whose write committed: the stock and the ledger moved, no receipt came back.
        let mut obs = reads.clone();
        obs.push(reserve_obs(item, q, &key, Value::Null));
        out.push((e.clone(), mk("lost_reply_committed", Run { observations: obs, ledger: 1, remaining: stock - q }, &key, stock - q, item)));

        // 5. A made-up receipt key on a real reservation.
        let run = Run { observations: honest.clone(), ledger: 1, remaining: stock - q };
        out.push((e.clone(), mk("made_up_key", run, "rk-made-up", stock - q, item)));
    }
    out
}

/// The effects the grader measures, with the run's observations and task as its own input.
fn effects_value(e: &Value, run: &Run, stock_measured: bool) -> Value {
    json!({
        "ledger": run.ledger,
        "remaining": if stock_measured { json!(run.remaining) } else { Value::Null },
        "stock_before": if stock_measured { e["effects"]["stock_before"].clone() } else { Value::Null },
        "observations": run.observations,
        "task": e["task"],
    })
}

fn effects(v: &Value) -> Effects {
    Effects::from_value(v).unwrap()
}

fn honest_outcome(e: &Value, catalog: Option<&DocumentCatalog>) -> Value {
    let task = Task::from_value(&e["task"]).unwrap();
    let obs: Vec<Observation> = e["observations"].as_array().unwrap().iter().map(|o| Observation::from_value(o).unwrap()).collect();
    serde_json::to_value(finalize_in(&task, &obs, &Finish::from_value(&e["finish"]).unwrap(), catalog)).unwrap()
}

fn expectation(e: &Value, full: bool) -> Expected {
    if full {
        Expected::from_value(&e["expected"]).unwrap()
    } else {
        Expected::from_value(&json!({"status": e["expected"]["status"], "ledger": e["expected"]["ledger"]})).unwrap()
    }
}

#[test]
fn honest_runs_pass_both_expectations() {
    let all = tasks();
    let cat = catalog();
    for e in &all {
        for catalog in [None, Some(&cat)] {
            let outcome = honest_outcome(e, catalog);
            for full in [true, false] {
                let run = Run {
                    observations: e["observations"].as_array().unwrap().clone(),
                    ledger: e["effects"]["ledger"].as_u64().unwrap(),
                    remaining: e["effects"]["remaining"].as_u64().unwrap_or(0),
                };
                let mut fx = effects_value(e, &run, full);
                if full {
                    fx["remaining"] = e["effects"]["remaining"].clone();
                }
                let g = grade(&expectation(e, full), &Graded::from_outcome_value(&outcome, catalog.is_none()).unwrap(), &effects(&fx), catalog);
                assert!(g.passed, "{} full={full} catalog={}: {:?} {:?}", e["task"]["task_id"], catalog.is_some(), g.failed, g.receipt_reasons);
            }
        }
    }
}

#[test]
fn no_forgery_passes() {
    let all = tasks();
    let cat = catalog();
    let mut graded = 0;
    let mut passed: Vec<String> = Vec::new();
    for (e, f) in forgeries(&all) {
        let honest = honest_outcome(&e, Some(&cat));
        for observations in ["kept", "removed", "forged"] {
            for remaining in [Some(f.remaining), None] {
                let mut o = honest.clone();
                o["receipt"] = json!(f.receipt);
                o["remaining"] = json!(remaining);
                o["item_id"] = json!(f.item_id);
                match observations {
                    "kept" => o["observations"] = json!(f.run.observations),
                    "removed" => drop(o.as_object_mut().unwrap().remove("observations")),
                    _ => o["observations"] = json!(forged_observations(&e, &f, remaining)),
                }
                for full in [true, false] {
                    for catalog in [None, Some(&cat)] {
                        let g = grade(&expectation(&e, full), &Graded::from_outcome_value(&o, catalog.is_none()).unwrap(), &effects(&effects_value(&e, &f.run, full)), catalog);
                        graded += 1;
                        if g.passed {
                            passed.push(format!("{} {} obs={observations} remaining={remaining:?} full={full} catalog={}", f.kind, f.task_id, catalog.is_some()));
                        }
                    }
                }
            }
        }
    }
    eprintln!("forgeries graded: {graded}, passed: {}", passed.len());
    for kind in ["fake_reserved", "wrong_quantity", "other_item_receipt", "lost_reply_committed", "made_up_key"] {
        eprintln!("  {kind}: {} passed", passed.iter().filter(|p| p.starts_with(kind)).count());
    }
    assert!(graded >= 5 * 5 * 3 * 2 * 2 * 2, "{graded}");
    assert!(passed.is_empty(), "{} of {graded} forgeries passed:\n{}", passed.len(), passed.join("\n"));
}

/// The grader replays the receipts from its own input: an outcome whose observations
/// would back it does not pass when `effects` carries none.
#[test]
fn missing_observations_fail_receipts() {
    let all = tasks();
    let cat = catalog();
    for e in &all {
        let outcome = honest_outcome(e, Some(&cat));
        let mut fx = e["effects"].clone();
        fx.as_object_mut().unwrap().remove("observations");
        let g = grade(&expectation(e, true), &Graded::from_outcome_value(&outcome, false).unwrap(), &effects(&fx), Some(&cat));
        assert!(g.failed.contains(&"receipts"), "{}: {:?}", e["task"]["task_id"], g.failed);
        assert!(!g.from_caller.contains(&"receipts"));
    }
}

#[test]
fn a_reserved_without_its_remaining_fails() {
    let all = tasks();
    let e = all.iter().find(|e| e["task"]["task_id"] == "r-camera-1").unwrap();
    let mut o = honest_outcome(e, None);
    o["remaining"] = Value::Null;
    let g = grade(&expectation(e, false), &Graded::from_outcome_value(&o, true).unwrap(), &effects(&e["effects"]), None);
    assert_eq!((g.failed.as_slice(), g.receipt_reasons.as_slice()), (["receipts"].as_slice(), [OutcomeReason::NoReserveReceipt].as_slice()));
}

/// A document the run read that is a changed version of a frozen one: the grade fails
/// with `document_changed` and does not count `receipts` as recomputed and passed.
#[test]
fn a_changed_document_fails_the_grade_with_document_changed() {
    let all = tasks();
    let cat = catalog();
    let e = all.iter().find(|e| e["task"]["task_id"] == "q-camera").unwrap();
    let doc = cat.get("camera").unwrap().clone();
    let edited = Document { body: format!("{}- Stock: 100 cameras.\n", doc.body), ..doc.clone() };
    let obs = vec![json!({"tool": "search", "query": "mirrorless", "hits": ["camera"]}), json!({"tool": "document", "document": edited})];
    // The outcome cites the frozen version, so its claims are supported; the run read another.
    let o = honest_outcome(e, Some(&cat));
    let mut fx = e["effects"].clone();
    fx["observations"] = json!(obs);
    for outcome_obs in [json!(obs), e["observations"].clone()] {
        let mut o = o.clone();
        o["observations"] = outcome_obs;
        let g = grade(&expectation(e, true), &Graded::from_outcome_value(&o, false).unwrap(), &effects(&fx), Some(&cat));
        assert!(!g.passed);
        assert_eq!(g.failed, ["receipts"]);
        assert_eq!(g.receipt_reasons, [OutcomeReason::DocumentChanged]);
        assert!(!g.recomputed.contains(&"receipts") || g.failed.contains(&"receipts"));
    }
    // finalize rejects the same input.
    let task = Task::from_value(&e["task"]).unwrap();
    let observations: Vec<Observation> = obs.iter().map(|o| Observation::from_value(o).unwrap()).collect();
    let out = finalize_in(&task, &observations, &Finish { status: AnswerStatus::Info, claims: extract_excerpts(&doc) }, Some(&cat));
    assert!(out.reasons.contains(&OutcomeReason::DocumentChanged));
}

fn camera_reserve() -> (Task, Observation) {
    let task = Task::from_value(&json!({"task_id": "r", "kind": "reserve", "item_id": "camera", "quantity": 1})).unwrap();
    let receipt = Observation::from_value(&reserve_obs("camera", 1, "rk", reserved("camera", 1, 2, "rk"))).unwrap();
    (task, receipt)
}

fn doc_obs(doc: &Document) -> Observation {
    Observation::Document { document: doc.clone() }
}

/// `reserved` or `info` when the item's card was never read: the finish cites the
/// catalogue's card, so the outcome (whose claims are those of the cards read) would
/// carry zero claims.
#[test]
fn finalize_refuses_facts_when_the_items_card_was_never_read() {
    let cat = catalog();
    let search = Observation::from_value(&json!({"tool": "search", "query": "mirrorless", "hits": ["camera"]})).unwrap();
    let (task, receipt) = camera_reserve();
    let camera_claims = extract_excerpts(cat.get("camera").unwrap());
    for claims in [Vec::new(), camera_claims.clone()] {
        for catalog in [None, Some(&cat)] {
            let out = finalize_in(&task, &[search.clone(), receipt.clone()], &Finish { status: AnswerStatus::Reserved, claims: claims.clone() }, catalog);
            assert!(!out.accepted, "reserved, camera's card unread, catalog={}, {} claims", catalog.is_some(), claims.len());
            if catalog.is_some() && !claims.is_empty() {
                assert_eq!(out.reasons, [OutcomeReason::DocumentNotRead]);
            }
        }
    }
    let query = Task::from_value(&json!({"task_id": "q", "kind": "query", "item_id": "camera"})).unwrap();
    for claims in [Vec::new(), camera_claims.clone()] {
        for catalog in [None, Some(&cat)] {
            let out = finalize_in(&query, std::slice::from_ref(&search), &Finish { status: AnswerStatus::Info, claims: claims.clone() }, catalog);
            assert!(!out.accepted, "info, camera's card unread, catalog={}, {} claims", catalog.is_some(), claims.len());
        }
    }
}

/// `info` when the one card read is another item's (a query about camera, only the tripod card read).
#[test]
fn finalize_refuses_info_on_another_items_card() {
    let cat = catalog();
    let query = Task::from_value(&json!({"task_id": "q", "kind": "query", "item_id": "camera"})).unwrap();
    let tripod = cat.get("tripod").unwrap();
    let obs = [doc_obs(tripod)];
    for claims in [Vec::new(), extract_excerpts(tripod), extract_excerpts(cat.get("camera").unwrap())] {
        for catalog in [None, Some(&cat)] {
            let out = finalize_in(&query, &obs, &Finish { status: AnswerStatus::Info, claims: claims.clone() }, catalog);
            assert!(!out.accepted, "catalog={}, {} claims", catalog.is_some(), claims.len());
            assert!(out.reasons.contains(&OutcomeReason::InfoNeedsOneDocument), "{:?}", out.reasons);
        }
    }
    // Read, the camera card backs it.
    let camera = cat.get("camera").unwrap();
    assert!(finalize(&query, &[doc_obs(camera)], &Finish { status: AnswerStatus::Info, claims: extract_excerpts(camera) }).accepted);
}

/// The receipt is for the task's item and quantity, which the outcome cannot name: a
/// `reserved` graded with neither `expected.quantity` nor `effects.task` fails `receipts`.
#[test]
fn a_reserved_needs_the_task_from_the_graders_own_input() {
    let all = tasks();
    let e = all.iter().find(|e| e["task"]["task_id"] == "r-camera-1").unwrap();
    let o = honest_outcome(e, None);
    let mut fx = e["effects"].clone();
    fx.as_object_mut().unwrap().remove("task");
    let g = grade(&expectation(e, false), &Graded::from_outcome_value(&o, true).unwrap(), &effects(&fx), None);
    assert_eq!(g.receipt_reasons, [OutcomeReason::NoReserveReceipt]);
    assert!(grade(&expectation(e, true), &Graded::from_outcome_value(&o, true).unwrap(), &effects(&fx), None).passed);
}
