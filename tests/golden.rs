//! Every reference case replayed through the native API and compared, as a whole
//! value, with the reference's expected output, under `compat: "reference"`: the
//! reference policy with its messages, its escaping and its quote counting.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{normalize, replay, Engine, Failure, NOW};
use evidence_check::render::Escaping;
use evidence_check::review::record_review_value;
use evidence_check::{
    assess, render, report_digest, Clock, Contract, ContractError, EvidenceStore, Report, Review, Scope, SourceRef,
    SourceSpec,
};
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

struct Native;

fn contract(e: ContractError) -> Failure {
    Failure::Contract(e.violations.into_iter().map(|v| (v.path, v.code.code().to_owned(), v.message)).collect())
}
fn error(code: &str, message: String) -> Failure {
    Failure::Error { code: code.to_owned(), message }
}
fn store_error(e: evidence_check::StoreError) -> Failure {
    match e {
        evidence_check::StoreError::Contract(c) => contract(c),
        // Replayed under compat "reference": the reference's codes and texts.
        other => error(other.reference_code(), other.reference_message()),
    }
}
fn to_value<T: Serialize>(t: &T) -> Value {
    serde_json::to_value(t).unwrap()
}
/// `compat: "reference"`'s policy: the reference preset with its codes and texts.
fn reference() -> evidence_check::Policy {
    evidence_check::Policy::reference().with_reference_messages(true)
}
fn scope(v: &Value) -> Scope {
    Scope::from_value_with(v, &reference()).unwrap()
}
fn report(v: &Value) -> Report {
    Report::from_value_with(v, &reference()).unwrap()
}
fn reviews(v: &[Value]) -> Vec<Review> {
    v.iter().map(|r| Review::from_value_with(r, &reference()).unwrap()).collect()
}
fn clock() -> Clock {
    Clock::fixed(NOW).unwrap()
}

impl Engine for Native {
    type Store = EvidenceStore;
    fn parse_scope(&self, v: &Value) -> Result<Value, Failure> {
        Scope::from_value_with(v, &reference()).map(|s| to_value(&s)).map_err(contract)
    }
    fn parse_spec(&self, v: &Value) -> Result<Value, Failure> {
        SourceSpec::from_value_with(v, &reference()).map(|s| to_value(&s)).map_err(contract)
    }
    fn new_store(&self, specs: &[Value]) -> Result<EvidenceStore, Failure> {
        let specs = specs.iter().map(|s| SourceSpec::from_value_with(s, &reference()).unwrap()).collect();
        EvidenceStore::with_policy(specs, reference(), clock()).map_err(store_error)
    }
    fn ingest(&self, store: &mut EvidenceStore, s: &Value, id: &str, content: &Value) -> Result<Value, Failure> {
        let content = content.as_str().unwrap();
        store.ingest(&scope(s), id, content).map(|r| to_value(&r)).map_err(store_error)
    }
    fn ingest_read_result(&self, store: &mut EvidenceStore, s: &Value, id: &str, result: &Value) -> Result<Value, Failure> {
        store.ingest_read_result(&scope(s), id, result).map(|r| to_value(&r)).map_err(store_error)
    }
    fn remove(&self, store: &mut EvidenceStore, s: &Value, id: &str) {
        store.remove(&scope(s), id).unwrap();
    }
    fn parse_ref(&self, v: &Value) -> Result<Value, Failure> {
        SourceRef::from_value_with(v, &reference()).map(|r| to_value(&r)).map_err(contract)
    }
    fn quote(&self, store: &EvidenceStore, s: &Value, r: &Value, text: &str, id: &str) -> Result<Value, Failure> {
        let r = SourceRef::from_value_with(r, &reference()).unwrap();
        // Replayed under compat "reference", as the renders are.
        let reference = evidence_check::store::locate::LocateOptions { counting: evidence_check::store::locate::Counting::Reference, ..Default::default() };
        store.quote_with(&scope(s), &r, &evidence_check::store::locate::Selector::exact(text), id, reference).map(|c| to_value(&c)).map_err(store_error)
    }
    fn parse_report(&self, text: &str) -> Result<Value, Failure> {
        Report::from_json_with(text, &reference()).map(|r| to_value(&r)).map_err(contract)
    }
    fn report_digest(&self, r: &Value) -> String {
        report_digest(&report(r))
    }
    fn record_review(&self, s: &Value, r: &Value, claim_id: &Value, verdict: &Value, note: &Value) -> Result<Value, Failure> {
        record_review_value(&scope(s), &report(r), claim_id, verdict, note, &clock())
            .map(|r| to_value(&r))
            .map_err(|k| error(k.code(), k.message().to_owned()))
    }
    fn assess(&self, store: &EvidenceStore, s: &Value, r: &Value, rv: &[Value]) -> Result<Value, Failure> {
        assess(&scope(s), &report(r), store, &reviews(rv)).map(|a| to_value(&a)).map_err(|k| error(k.code(), k.message().to_owned()))
    }
    fn render(&self, store: &EvidenceStore, s: &Value, r: &Value, rv: &[Value]) -> Result<Value, Failure> {
        render(&scope(s), &report(r), store, &reviews(rv), &clock(), Escaping::Reference)
            .map(|a| to_value(&a))
            .map_err(|e| error(e.code(), e.message().to_owned()))
    }
    fn close(&self, store: &mut EvidenceStore) {
        store.close();
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Replays every case of `tests/data/<set>/cases` and compares it with `expected/`.
fn replay_set(set: &str, at_least: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(set);
    let mut names: Vec<_> = std::fs::read_dir(root.join("cases")).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert!(names.len() >= at_least, "expected at least {at_least} cases in {set}, found {}", names.len());
    let mut failed = Vec::new();
    for name in &names {
        let case = read_json(&root.join("cases").join(name));
        let expected = normalize(&read_json(&root.join("expected").join(name)), &case, true);
        let actual = normalize(&replay(&Native, &case), &case, false);
        if actual != expected {
            failed.push(format!(
                "{}:\n  expected {}\n  actual   {}",
                name.to_string_lossy(),
                serde_json::to_string(&expected).unwrap(),
                serde_json::to_string(&actual).unwrap()
            ));
        }
    }
    assert!(failed.is_empty(), "{} of {} cases differ:\n{}", failed.len(), names.len(), failed.join("\n"));
}

/// The reference's own golden cases (copied from `shared/reference/`).
#[test]
fn reference_cases_match_their_expected_output() {
    replay_set("reference", 30);
}

/// Our extra cases, whose expected outputs the reference produced (`make golden-extra`).
#[test]
fn extra_cases_match_the_reference_output() {
    replay_set("extra", 22);
}

/// The wasm tests embed `tests/data/golden-all.json`; it must hold exactly the cases on disk.
#[test]
fn golden_bundle_is_current() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let bundle = read_json(&data.join("golden-all.json"));
    for set in ["reference", "extra"] {
        let mut names: Vec<String> = std::fs::read_dir(data.join(set).join("cases"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let held: Vec<String> = bundle[set].as_object().unwrap().keys().cloned().collect();
        assert_eq!(held, names, "run `node scripts/golden-bundle.mjs` to refresh tests/data/golden-all.json");
        for name in &names {
            assert_eq!(bundle[set][name]["case"], read_json(&data.join(set).join("cases").join(name)), "{set}/{name}: case differs");
            assert_eq!(bundle[set][name]["expected"], read_json(&data.join(set).join("expected").join(name)), "{set}/{name}: expected differs");
        }
    }
}
