//! Replays a reference case (see `tests/data/reference/README.md`) through an [`Engine`]
//! and builds the result in the reference's own format, so a whole result can be
//! compared with the reference's expected output. The native golden test and the
//! wasm tests (Node, headless Chromium) share this file with different engines.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use serde_json::{json, Map, Value};

/// The clock every case is replayed with (the reference's `REFERENCE_NOW`).
pub const NOW: &str = "2026-11-29T00:00:00+00:00";

/// Why an engine call failed, in engine-neutral terms.
#[derive(Debug)]
pub enum Failure {
    /// A contract error: `(path, code, message)` for every violation.
    Contract(Vec<(String, String, String)>),
    /// Any other error: its code and message.
    Error { code: String, message: String },
}

/// The operations a case uses; values are JSON in the shapes the JS API uses.
pub trait Engine {
    type Store;
    fn parse_scope(&self, v: &Value) -> Result<Value, Failure>;
    fn parse_spec(&self, v: &Value) -> Result<Value, Failure>;
    fn new_store(&self, specs: &[Value]) -> Result<Self::Store, Failure>;
    fn ingest(&self, store: &mut Self::Store, scope: &Value, source_id: &str, content: &Value) -> Result<Value, Failure>;
    fn ingest_read_result(&self, store: &mut Self::Store, scope: &Value, source_id: &str, result: &Value) -> Result<Value, Failure>;
    fn remove(&self, store: &mut Self::Store, scope: &Value, source_id: &str);
    fn parse_ref(&self, v: &Value) -> Result<Value, Failure>;
    fn quote(&self, store: &Self::Store, scope: &Value, source_ref: &Value, text: &str, citation_id: &str) -> Result<Value, Failure>;
    /// Parses a report from JSON text.
    fn parse_report(&self, text: &str) -> Result<Value, Failure>;
    fn report_digest(&self, report: &Value) -> String;
    fn record_review(&self, scope: &Value, report: &Value, claim_id: &Value, verdict: &Value, note: &Value) -> Result<Value, Failure>;
    fn assess(&self, store: &Self::Store, scope: &Value, report: &Value, reviews: &[Value]) -> Result<Value, Failure>;
    fn render(&self, store: &Self::Store, scope: &Value, report: &Value, reviews: &[Value]) -> Result<Value, Failure>;
    fn close(&self, store: &mut Self::Store);
}

fn message(f: &Failure) -> String {
    match f {
        Failure::Error { message, .. } => message.clone(),
        Failure::Contract(v) => format!("unexpected contract error {v:?}"),
    }
}

/// `{"error": "contract", "stage": …, "detail": [{"path", "code", "message"}]}`.
fn contract(stage: &str, f: Failure) -> Map<String, Value> {
    match f {
        Failure::Contract(violations) => {
            let detail: Vec<Value> =
                violations.into_iter().map(|(p, c, m)| json!({"path": p, "code": c, "message": m})).collect();
            let mut m = Map::new();
            m.insert("error".into(), json!("contract"));
            m.insert("stage".into(), json!(stage));
            m.insert("detail".into(), Value::Array(detail));
            m
        }
        Failure::Error { message, .. } => {
            let mut m = Map::new();
            m.insert("error".into(), json!(message));
            m
        }
    }
}

fn obj(m: Map<String, Value>) -> Value {
    Value::Object(m)
}

/// Replays one case; the result has the reference's shape, with contract details as
/// `{path, code, message}` (see [`normalize`]).
pub fn replay<E: Engine>(engine: &E, case: &Value) -> Value {
    let scope = match engine.parse_scope(&case["scope"]) {
        Ok(s) => s,
        Err(f) => return obj(contract("scope", f)),
    };
    let mut specs = Vec::new();
    for spec in case["specs"].as_array().cloned().unwrap_or_default() {
        match engine.parse_spec(&spec) {
            Ok(s) => specs.push(s),
            Err(f) => return obj(contract("specs", f)),
        }
    }
    let mut store = match engine.new_store(&specs) {
        Ok(s) => s,
        Err(f) => return json!({"stage": "store", "error": message(&f)}),
    };
    let result = replay_with_store(engine, &mut store, &scope, case);
    engine.close(&mut store);
    result
}

fn replay_with_store<E: Engine>(engine: &E, store: &mut E::Store, scope: &Value, case: &Value) -> Value {
    let mut log = Vec::new();
    let mut refs = Map::new();
    for step in case["ingest"].as_array().cloned().unwrap_or_default() {
        if let Some(id) = step.get("remove") {
            let id = id.as_str().unwrap();
            engine.remove(store, scope, id);
            log.push(json!({"removed": id}));
            continue;
        }
        let id = step["source_id"].as_str().unwrap();
        let out = match step.get("read_result") {
            Some(r) => engine.ingest_read_result(store, scope, id, r),
            None => engine.ingest(store, scope, id, &step["content"]),
        };
        match out {
            Ok(r) => {
                refs.insert(id.into(), json!({"revision": r["revision"], "digest": r["digest"]}));
                log.push(json!({"source_id": id, "revision": r["revision"], "digest": r["digest"]}));
            }
            Err(f) => {
                let mut m = Map::new();
                m.insert("source_id".into(), json!(id));
                m.extend(contract("ingest", f));
                log.push(obj(m));
            }
        }
    }
    for id in case["remove"].as_array().cloned().unwrap_or_default() {
        let id = id.as_str().unwrap();
        engine.remove(store, scope, id);
        log.push(json!({"removed": id}));
    }
    let mut result = Map::new();
    result.insert("ingest_log".into(), Value::Array(log));
    result.insert("refs".into(), Value::Object(refs.clone()));

    if case["op"] == "quote" {
        let items = match case.get("quotes") {
            Some(q) => q.as_array().cloned().unwrap_or_default(),
            None => vec![case["quote"].clone()],
        };
        let mut out = Vec::new();
        for item in items {
            let source_ref = match item.get("ref") {
                Some(r) => match engine.parse_ref(r) {
                    Ok(r) => r,
                    Err(f) => {
                        out.push(obj(contract("quote", f)));
                        continue;
                    }
                },
                None => {
                    let id = item["source_id"].as_str().unwrap();
                    let cur = &refs[id];
                    json!({"source_id": id, "revision": cur["revision"], "digest": cur["digest"]})
                }
            };
            let text = item["text"].as_str().unwrap();
            let citation_id = item["citation_id"].as_str().unwrap();
            match engine.quote(store, scope, &source_ref, text, citation_id) {
                Ok(c) => out.push(json!({"citation": c})),
                Err(f) => out.push(obj(contract("quote", f))),
            }
        }
        result.insert("quotes".into(), Value::Array(out));
        return obj(result);
    }

    let report_text = serde_json::to_string(&case["report"]).unwrap();
    let report = match engine.parse_report(&report_text) {
        Ok(r) => r,
        Err(f) => {
            result.extend(contract("report", f));
            return obj(result);
        }
    };
    result.insert("report_digest".into(), json!(engine.report_digest(&report)));
    let report_scope = match case.get("report_scope") {
        Some(s) => match engine.parse_scope(s) {
            Ok(s) => s,
            Err(f) => {
                result.extend(contract("report_scope", f));
                return obj(result);
            }
        },
        None => scope.clone(),
    };

    let mut reviews = Vec::new();
    let mut review_out = Vec::new();
    for item in case["reviews"].as_array().cloned().unwrap_or_default() {
        let parsed = item
            .get("scope")
            .map_or(Ok(report_scope.clone()), |s| engine.parse_scope(s))
            .and_then(|s| {
                let against = match item.get("report") {
                    Some(r) => engine.parse_report(&serde_json::to_string(r).unwrap())?,
                    None => report.clone(),
                };
                Ok((s, against))
            });
        let (review_scope, against) = match parsed {
            Ok(p) => p,
            Err(f) => {
                let mut m = Map::new();
                m.insert("claim_id".into(), item.get("claim_id").cloned().unwrap_or(Value::Null));
                m.extend(contract("review", f));
                review_out.push(obj(m));
                continue;
            }
        };
        match engine.record_review(&review_scope, &against, &item["claim_id"], &item["verdict"], &item["note"]) {
            Ok(r) => {
                review_out.push(json!({"claim_id": r["claim_id"], "verdict": r["verdict"], "reviewed_at": r["reviewed_at"]}));
                reviews.push(r);
            }
            Err(f) => review_out.push(json!({"claim_id": item["claim_id"], "error": message(&f)})),
        }
    }
    result.insert("reviews".into(), Value::Array(review_out));

    let assessment = match engine.assess(store, &report_scope, &report, &reviews) {
        Ok(a) => {
            let issues: Vec<Value> = a["issues"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| json!({"claim_id": i["claim_id"], "message": i["message"]}))
                .collect();
            json!({"status": a["status"], "claims": a["claims"], "issues": issues})
        }
        Err(f) => json!({"error": message(&f)}),
    };
    result.insert("assessment".into(), assessment);

    let artifact = if case["render"] == true {
        match engine.render(store, &report_scope, &report, &reviews) {
            Ok(a) => json!({"content": a["content"], "content_digest": a["content_digest"], "status": a["status"]}),
            Err(f) => json!({"error": message(&f)}),
        }
    } else {
        Value::Null
    };
    result.insert("artifact".into(), artifact);
    obj(result)
}

/// JSON Pointer of a reference `loc`.
fn pointer(loc: &Value) -> String {
    loc.as_array()
        .unwrap()
        .iter()
        .map(|seg| match seg {
            Value::String(s) => format!("/{}", s.replace('~', "~0").replace('/', "~1")),
            other => format!("/{other}"),
        })
        .collect()
}

/// The value at a reference `loc` inside `root`.
fn at<'v>(root: &'v Value, loc: &Value) -> Option<&'v Value> {
    loc.as_array().unwrap().iter().try_fold(root, |v, seg| match seg {
        Value::String(s) => v.get(s),
        Value::Number(n) => v.get(usize::try_from(n.as_u64()?).ok()?),
        _ => None,
    })
}

/// Rewrites every contract `detail` into the comparable part: the sorted set of
/// `[path, reference message or null]`. On the reference's side the message is its
/// Chinese text after `"Value error, "` (pydantic's English texts are not part of the
/// contract), and pydantic's extra `too_short` on a non-empty list whose items all
/// failed is dropped. `input` is the case, for that check.
pub fn normalize(v: &Value, case: &Value, reference: bool) -> Value {
    match v {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, item) in m {
                if k == "detail" && m.get("error") == Some(&json!("contract")) {
                    let stage_input = match m["stage"].as_str().unwrap() {
                        "report" => case.get("report"),
                        _ => None,
                    };
                    out.insert(k.clone(), normalize_detail(item, stage_input, reference));
                } else {
                    out.insert(k.clone(), normalize(item, case, reference));
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| normalize(i, case, reference)).collect()),
        other => other.clone(),
    }
}

fn normalize_detail(detail: &Value, input: Option<&Value>, reference: bool) -> Value {
    let mut set: Vec<Value> = detail
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| {
            if reference {
                // "Tuple should have at least N items after validation, not M": spurious
                // when the input itself had N or more items (some of them failed).
                let min = d["msg"].as_str().unwrap().split("at least ").nth(1).and_then(|r| r.split(' ').next()?.parse::<usize>().ok());
                let given = input.and_then(|i| at(i, &d["loc"])).and_then(Value::as_array).map(Vec::len);
                let spurious = d["type"] == "too_short" && matches!((min, given), (Some(min), Some(given)) if given >= min);
                if spurious {
                    return None;
                }
                let msg = d["msg"].as_str().unwrap().strip_prefix("Value error, ").map(str::to_owned);
                Some(json!([pointer(&d["loc"]), msg]))
            } else {
                let code = d["code"].as_str().unwrap();
                let msg = evidence_message(code).then(|| d["message"].clone());
                Some(json!([d["path"], msg]))
            }
        })
        .collect();
    set.sort_by_key(|v| v.to_string());
    set.dedup();
    Value::Array(set)
}

/// Codes of the reference's own cross-field rules, whose messages are compared.
fn evidence_message(code: &str) -> bool {
    matches!(
        code,
        "empty_range"
            | "blank_claim"
            | "duplicate_claim_id"
            | "duplicate_citation_in_claim"
            | "citation_id_conflict"
            | "duplicate_conflict_member"
            | "unknown_conflict_member"
    )
}
