//! Any bytes as {documents, claims, task, observations, finish}: extracting, checking,
//! evaluating, finalising and grading never panic; extracted claims always check out.
#![no_main]
use evidence_check::excerpt::{check_excerpt, claims_from_value, documents_from_value, evaluate_claims, extract_excerpts, AnswerStatus};
use evidence_check::outcome::{finalize, grade_task, Effects, Expected, Finish, Observation, Task};
use evidence_check::Contract;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(v) = serde_json::from_str::<Value>(text) else { return };
    let documents = documents_from_value(&v["documents"]).unwrap_or_default();
    for d in &documents {
        for c in extract_excerpts(d) {
            assert!(check_excerpt(&documents, &c).supported);
        }
    }
    let claims = claims_from_value(&v["claims"]).unwrap_or_default();
    for (_, status) in AnswerStatus::ALL {
        let _ = evaluate_claims(&documents, v["item"].as_str().unwrap_or(""), &claims, status);
    }
    let (Ok(task), Ok(finish)) = (Task::from_value(&v["task"]), Finish::from_value(&v["finish"])) else { return };
    let observations: Vec<Observation> = v["observations"].as_array().map(|a| a.iter().filter_map(|o| Observation::from_value(o).ok()).collect()).unwrap_or_default();
    let outcome = finalize(&task, &observations, &finish);
    if let (Ok(e), Ok(f)) = (Expected::from_value(&v["expected"]), Effects::from_value(&v["effects"])) {
        let _ = grade_task(&e, &outcome, &f);
    }
});
