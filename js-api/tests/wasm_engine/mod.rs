//! The golden replay driven through the exported JavaScript API (the `#[wasm_bindgen]`
//! functions and the `EvidenceStore` class), with every value crossing as a JS value.
//! Shared by `tests/node.rs` and `tests/web.rs`.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::common::{normalize, replay, Engine, Failure, NOW};
use evidence_check_wasm as api;
use js_sys::{Reflect, JSON};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};

pub struct Js;

/// A serde value as a JS value (through JSON text).
pub fn js(v: &Value) -> JsValue {
    JSON::parse(&v.to_string()).unwrap()
}

fn typed<T: JsCast>(v: &Value) -> T {
    js(v).unchecked_into()
}

/// A JS value as a serde value.
pub fn val(v: &JsValue) -> Value {
    serde_json::from_str(&String::from(JSON::stringify(v).unwrap())).unwrap()
}

fn get(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(key)).unwrap()
}

/// What every thrown value must be: an `Error` with a `code`, and for a contract
/// error its `issues`.
pub fn failure(e: JsValue) -> Failure {
    assert!(e.is_instance_of::<js_sys::Error>(), "thrown value is not an Error: {e:?}");
    let name = get(&e, "name").as_string().unwrap();
    let code = get(&e, "code").as_string().expect("every error has a code");
    let message = get(&e, "message").as_string().unwrap();
    match name.as_str() {
        "ContractError" => {
            assert_eq!(code, "contract");
            let issues = val(&get(&e, "issues"));
            Failure::Contract(
                issues
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| {
                        (i["path"].as_str().unwrap().to_owned(), i["code"].as_str().unwrap().to_owned(), i["message"].as_str().unwrap().to_owned())
                    })
                    .collect(),
            )
        }
        "EvidenceError" => Failure::Error { code, message },
        other => panic!("unexpected error name {other}"),
    }
}

/// The golden cases run under compat "reference": the reference's policy, language,
/// codes and texts.
fn now() -> JsValue {
    js(&json!({ "now": NOW, "compat": "reference" }))
}

/// `compat: "reference"` alone.
fn compat() -> Option<JsValue> {
    Some(js(&json!({ "compat": "reference" })))
}

fn reviews(v: &[Value]) -> Option<JsValue> {
    Some(typed(&Value::Array(v.to_vec())))
}

/// Drops a leading "/0" (the JS API checks specs as one list; the reference one by one).
fn strip_index(f: Failure) -> Failure {
    match f {
        Failure::Contract(v) => Failure::Contract(
            v.into_iter().map(|(p, c, m)| (p.strip_prefix("/0").map(str::to_owned).unwrap_or(p), c, m)).collect(),
        ),
        other => other,
    }
}

impl Engine for Js {
    type Store = api::EvidenceStore;

    fn parse_scope(&self, v: &Value) -> Result<Value, Failure> {
        // Any scoped call checks its scope first; `remove` on an empty store does nothing else.
        let st = api::EvidenceStore::new(typed(&json!([])), compat()).map_err(failure)?;
        st.remove(typed(v), JsValue::from_str("x")).map_err(failure)?;
        Ok(v.clone())
    }
    fn parse_spec(&self, v: &Value) -> Result<Value, Failure> {
        api::EvidenceStore::new(typed(&json!([v])), compat()).map_err(|e| strip_index(failure(e)))?;
        Ok(v.clone())
    }
    fn new_store(&self, specs: &[Value]) -> Result<Self::Store, Failure> {
        api::EvidenceStore::new(typed(&Value::Array(specs.to_vec())), Some(now().unchecked_into())).map_err(failure)
    }
    fn ingest(&self, st: &mut Self::Store, scope: &Value, id: &str, content: &Value) -> Result<Value, Failure> {
        st.ingest(typed(scope), JsValue::from_str(id), js(content)).map(|r| val(&r)).map_err(failure)
    }
    fn ingest_read_result(&self, st: &mut Self::Store, scope: &Value, id: &str, result: &Value) -> Result<Value, Failure> {
        st.ingest_read_result(typed(scope), JsValue::from_str(id), typed(result)).map(|r| val(&r)).map_err(failure)
    }
    fn remove(&self, st: &mut Self::Store, scope: &Value, id: &str) {
        st.remove(typed(scope), JsValue::from_str(id)).unwrap();
    }
    fn parse_ref(&self, v: &Value) -> Result<Value, Failure> {
        // `get` checks its ref's contract before looking anything up.
        let st = api::EvidenceStore::new(typed(&json!([])), compat()).map_err(failure)?;
        match st.get(typed(&json!({"tenant_id": "t", "user_id": "u"})), typed(v)) {
            Err(e) => match failure(e) {
                f @ Failure::Contract(_) => Err(f),
                Failure::Error { .. } => Ok(v.clone()),
            },
            Ok(_) => Ok(v.clone()),
        }
    }
    fn quote(&self, st: &Self::Store, scope: &Value, r: &Value, text: &str, id: &str) -> Result<Value, Failure> {
        // Replayed under compat "reference", as the renders are.
        let options = js(&json!({ "compat": "reference" }));
        st.quote(typed(scope), typed(r), JsValue::from_str(text), JsValue::from_str(id), Some(options.unchecked_into())).map(|c| val(&c)).map_err(failure)
    }
    fn parse_report(&self, text: &str) -> Result<Value, Failure> {
        let options = js(&json!({ "compat": "reference" }));
        api::parse_report(JsValue::from_str(text).unchecked_into(), Some(options.unchecked_into())).map(|r| val(&JsValue::from(r))).map_err(failure)
    }
    fn report_digest(&self, report: &Value) -> String {
        api::report_digest(typed(report), compat()).unwrap()
    }
    fn record_review(&self, scope: &Value, report: &Value, claim_id: &Value, verdict: &Value, note: &Value) -> Result<Value, Failure> {
        api::record_review(typed(scope), typed(report), js(claim_id), typed(verdict), js(note), Some(now().unchecked_into()))
            .map(|r| val(&r))
            .map_err(failure)
    }
    fn assess(&self, st: &Self::Store, scope: &Value, report: &Value, rv: &[Value]) -> Result<Value, Failure> {
        api::assess(typed(scope), typed(report), st, reviews(rv), None).map(|a| val(&a)).map_err(failure)
    }
    fn render(&self, st: &Self::Store, scope: &Value, report: &Value, rv: &[Value]) -> Result<Value, Failure> {
        let options = js(&json!({ "now": NOW, "compat": "reference" }));
        api::render(typed(scope), typed(report), st, reviews(rv), Some(options.unchecked_into())).map(|a| val(&a)).map_err(failure)
    }
    fn close(&self, st: &mut Self::Store) {
        st.close().unwrap();
    }
}

/// The JS API with every report passed as the `ReportHandle` that `parseReport` returned
/// for it (a report never parsed, or refused, goes as the object), and the reviews as a
/// `Reviews` handle (a list it refuses goes as the array, so the call reports it).
#[derive(Default)]
pub struct JsHandles {
    handles: std::cell::RefCell<std::collections::HashMap<String, JsValue>>,
}

impl JsHandles {
    fn report(&self, report: &Value) -> JsValue {
        self.handles.borrow().get(&report.to_string()).cloned().unwrap_or_else(|| js(report))
    }
    fn reviews(rv: &[Value]) -> Option<JsValue> {
        match api::Reviews::new(Some(typed(&Value::Array(rv.to_vec()))), None) {
            Ok(list) => Some(JsValue::from(list).unchecked_into()),
            Err(_) => reviews(rv),
        }
    }
}

impl Engine for JsHandles {
    type Store = api::EvidenceStore;

    fn parse_scope(&self, v: &Value) -> Result<Value, Failure> {
        Js.parse_scope(v)
    }
    fn parse_spec(&self, v: &Value) -> Result<Value, Failure> {
        Js.parse_spec(v)
    }
    fn new_store(&self, specs: &[Value]) -> Result<Self::Store, Failure> {
        Js.new_store(specs)
    }
    fn ingest(&self, st: &mut Self::Store, scope: &Value, id: &str, content: &Value) -> Result<Value, Failure> {
        Js.ingest(st, scope, id, content)
    }
    fn ingest_read_result(&self, st: &mut Self::Store, scope: &Value, id: &str, result: &Value) -> Result<Value, Failure> {
        Js.ingest_read_result(st, scope, id, result)
    }
    fn remove(&self, st: &mut Self::Store, scope: &Value, id: &str) {
        Js.remove(st, scope, id)
    }
    fn parse_ref(&self, v: &Value) -> Result<Value, Failure> {
        Js.parse_ref(v)
    }
    fn quote(&self, st: &Self::Store, scope: &Value, r: &Value, text: &str, id: &str) -> Result<Value, Failure> {
        Js.quote(st, scope, r, text, id)
    }
    fn parse_report(&self, text: &str) -> Result<Value, Failure> {
        let options = js(&json!({ "compat": "reference" }));
        let handle = JsValue::from(api::parse_report(JsValue::from_str(text).unchecked_into(), Some(options.unchecked_into())).map_err(failure)?);
        let parsed = val(&handle);
        self.handles.borrow_mut().insert(parsed.to_string(), handle);
        Ok(parsed)
    }
    fn report_digest(&self, report: &Value) -> String {
        api::report_digest(self.report(report).unchecked_into(), None).unwrap()
    }
    fn record_review(&self, scope: &Value, report: &Value, claim_id: &Value, verdict: &Value, note: &Value) -> Result<Value, Failure> {
        api::record_review(typed(scope), self.report(report).unchecked_into(), js(claim_id), typed(verdict), js(note), Some(now().unchecked_into()))
            .map(|r| val(&r))
            .map_err(failure)
    }
    fn assess(&self, st: &Self::Store, scope: &Value, report: &Value, rv: &[Value]) -> Result<Value, Failure> {
        api::assess(typed(scope), self.report(report).unchecked_into(), st, Self::reviews(rv), None).map(|a| val(&a)).map_err(failure)
    }
    fn render(&self, st: &Self::Store, scope: &Value, report: &Value, rv: &[Value]) -> Result<Value, Failure> {
        let options = js(&json!({ "now": NOW, "compat": "reference" }));
        api::render(typed(scope), self.report(report).unchecked_into(), st, Self::reviews(rv), Some(options.unchecked_into())).map(|a| val(&a)).map_err(failure)
    }
    fn close(&self, st: &mut Self::Store) {
        Js.close(st)
    }
}

/// Replays every embedded golden case through the JS API; returns the failures.
pub fn replay_all() -> (usize, Vec<String>) {
    replay_all_with(&Js, None::<&Js>)
}

/// Replays every embedded golden case through `engine`; returns the failures: a result
/// other than the reference's, or (with `same_as`) other than that engine's, value for value.
pub fn replay_all_with<E: Engine, F: Engine>(engine: &E, same_as: Option<&F>) -> (usize, Vec<String>) {
    let all: Value = serde_json::from_str(include_str!("../../../tests/data/golden-all.json")).unwrap();
    let mut failed = Vec::new();
    let mut n = 0;
    for set in ["reference", "extra"] {
        for (name, entry) in all[set].as_object().unwrap() {
            n += 1;
            let case = &entry["case"];
            let expected = normalize(&entry["expected"], case, true);
            let raw = replay(engine, case);
            let actual = normalize(&raw, case, false);
            if actual != expected {
                failed.push(format!("{set}/{name}:\n  expected {expected}\n  actual   {actual}"));
            }
            if let Some(other) = same_as {
                let theirs = replay(other, case);
                if raw != theirs {
                    failed.push(format!("{set}/{name}: differs between the paths:\n  {raw}\n  {theirs}"));
                }
            }
        }
    }
    (n, failed)
}

/// Every thrown value is an `Error` with a code, and the same store keeps working
/// after errors.
pub fn errors_are_coded_and_the_store_survives() {
    let scope = json!({"tenant_id": "t", "user_id": "u"});
    let spec = json!({"source_id": "a", "title": "A", "locator": "fixture:a", "filename": "a.md", "kind": "fixture"});
    let st = api::EvidenceStore::new(typed(&json!([spec])), Some(now().unchecked_into())).unwrap();
    let cases: Vec<(JsValue, &str, &str)> = vec![
        (st.ingest(typed(&scope), JsValue::from_str("zz"), JsValue::from_str("x")).unwrap_err(), "EvidenceError", "unknown_source"),
        (st.ingest(typed(&scope), JsValue::from_f64(1.0), JsValue::from_str("x")).unwrap_err(), "EvidenceError", "invalid_argument"),
        (st.ingest(typed(&json!({"tenant_id": 1})), JsValue::from_str("a"), JsValue::from_str("x")).unwrap_err(), "ContractError", "contract"),
        (api::parse_report(JsValue::from_str("{").unchecked_into(), None).map(JsValue::from).unwrap_err(), "ContractError", "contract"),
        (api::digest_text(JsValue::from(js_sys::JsString::from_char_code1(0xd800))).map(JsValue::from).unwrap_err(), "EvidenceError", "invalid_unicode"),
    ];
    for (e, name, code) in cases {
        assert!(e.is_instance_of::<js_sys::Error>(), "not an Error: {e:?}");
        assert_eq!(get(&e, "name").as_string().unwrap(), name);
        assert_eq!(get(&e, "code").as_string().unwrap(), code);
    }
    let r = st.ingest(typed(&scope), JsValue::from_str("a"), JsValue::from_str("still works")).unwrap();
    assert_eq!(val(&r)["revision"], json!(1));
}

pub fn check_bundle_on_the_example() {
    let bundle = include_str!("../../../examples/demo.bundle.json");
    let options = js(&json!({ "now": NOW, "compat": "reference" }));
    let result = api::check_bundle(JsValue::from_str(bundle).unchecked_into(), Some(options.unchecked_into())).unwrap();
    let result = val(&result);
    assert_eq!(result["assessment"]["status"], json!("partial"));
    // Case 02 of the reference renders the same report with the same reviews.
    assert_eq!(result["artifact"]["content_digest"], json!("084c22f67d9da8dcef83ecf05a32c08212a295265607fc3fa610e5844229aabb"));
}

/// The wasm tests, the same in Node (`tests/node.rs`) and in the browser (`tests/web.rs`).
macro_rules! wasm_tests {
    () => {
        #[wasm_bindgen_test::wasm_bindgen_test]
        fn golden_cases_through_js_match_the_reference() {
            let (n, failed) = wasm_engine::replay_all();
            assert!(n >= 52, "only {n} cases embedded");
            assert!(failed.is_empty(), "{} of {n} cases differ:\n{}", failed.len(), failed.join("\n"));
        }

        #[wasm_bindgen_test::wasm_bindgen_test]
        fn golden_cases_through_report_and_reviews_handles_match_the_reference_and_the_plain_path() {
            let (n, failed) = wasm_engine::replay_all_with(&wasm_engine::JsHandles::default(), Some(&wasm_engine::Js));
            assert!(n >= 52, "only {n} cases embedded");
            assert!(failed.is_empty(), "{} differences in {n} cases:\n{}", failed.len(), failed.join("\n"));
        }

        #[wasm_bindgen_test::wasm_bindgen_test]
        fn errors_are_coded_and_the_store_survives() {
            wasm_engine::errors_are_coded_and_the_store_survives();
        }

        #[wasm_bindgen_test::wasm_bindgen_test]
        fn check_bundle_on_the_example() {
            wasm_engine::check_bundle_on_the_example();
        }
    };
}
