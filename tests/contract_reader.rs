//! The strict reader's two paths agree: the fast path (text straight into the contract
//! types) accepts exactly what the tree reader accepts, with an equal value, and every
//! reader returns the tree reader's result, errors included (codes, paths, messages,
//! order). On every golden case, example and data file, on hostile shapes, on the
//! injection payloads, and on random mutations of valid reports and bundles.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use evidence_check::bundle::Bundle;
use evidence_check::contract::Limits;
use evidence_check::policy::Policy;
use evidence_check::schema::Dialect;
use evidence_check::Report;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use support::{both, both_in, both_reviews, both_specs, both_without_contents, every_reader};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// Every JSON file the golden tests, the examples and the data sets read.
fn data_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["tests/data/reference/cases", "tests/data/extra/cases", "tests/data/reference/expected", "tests/data/extra/expected"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        out.extend(files.into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")));
    }
    for f in ["examples/demo.bundle.json", "tests/data/golden-all.json", "tests/data/tasks/tasks.json", "tests/data/injection/payloads.json"] {
        out.push(root().join(f));
    }
    out
}

/// Every object and array in `v`.
fn nodes(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            out.push(v.clone());
            m.values().for_each(|x| nodes(x, out));
        }
        Value::Array(a) => {
            out.push(v.clone());
            a.iter().for_each(|x| nodes(x, out));
        }
        _ => {}
    }
}

/// A golden case as a bundle: its scope, its specs with the text first ingested for
/// each, its report and its reviews.
fn case_bundle(case: &Value) -> Option<Value> {
    let specs = case.get("specs")?.as_array()?;
    let ingest = case.get("ingest").and_then(Value::as_array).cloned().unwrap_or_default();
    let sources: Vec<Value> = specs
        .iter()
        .map(|s| {
            let content = ingest
                .iter()
                .find(|i| i.get("source_id") == s.get("source_id"))
                .and_then(|i| i.pointer("/read_result/data/content"))
                .cloned()
                .unwrap_or(json!("text"));
            json!({"spec": s, "content": content})
        })
        .collect();
    let mut b = json!({"scope": case.get("scope")?, "sources": sources, "report": case.get("report")?});
    if let Some(r) = case.get("reviews").filter(|r| r.is_array()) {
        b["reviews"] = r.clone();
    }
    Some(b)
}

const POLICIES: [&str; 3] = ["reference", "documents", "reference_messages"];

fn policy(name: &str) -> Limits {
    match name {
        "documents" => Policy::documents(),
        "reference_messages" => Policy::reference().with_reference_messages(true),
        _ => Policy::reference(),
    }
}

#[test]
fn every_golden_case_example_and_data_file_reads_the_same_through_both_paths() {
    let (mut reports, mut bundles, mut specs) = (0, 0, 0);
    for file in data_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        every_reader(&text, &Limits::default());
        let v = read_json(&file);
        let mut all = Vec::new();
        nodes(&v, &mut all);
        if let Some(b) = case_bundle(&v) {
            all.push(b);
        }
        for node in &all {
            let text = serde_json::to_string_pretty(node).unwrap();
            for name in POLICIES {
                let limits = policy(name);
                reports += usize::from(both::<Report>(&text, &limits).is_ok());
                bundles += usize::from(both::<Bundle>(&text, &limits).is_ok());
                let _ = both_in(&text, Dialect::OpenAiStrict, &limits);
                let _ = both_without_contents(&text, &limits);
                specs += usize::from(both_specs(&text, &limits).is_ok());
            }
            let _ = both_reviews(&text);
        }
    }
    // The fast path was taken, not only the fallback.
    assert!(reports > 100, "{reports} reports read");
    assert!(bundles >= 30, "{bundles} bundles read");
    assert!(specs >= 30, "{specs} spec lists read");
}

fn demo() -> Value {
    read_json(&root().join("examples/demo.bundle.json"))
}

#[test]
fn injection_payloads_in_every_text_field_read_the_same() {
    let payloads: Vec<String> = serde_json::from_value(read_json(&root().join("tests/data/injection/payloads.json"))).unwrap();
    let fields = [
        "/report/title",
        "/report/claims/0/text",
        "/report/claims/2/rationale",
        "/report/claims/0/citations/0/quote",
        "/report/gaps/0",
        "/sources/0/spec/title",
        "/sources/0/spec/locator",
        "/sources/0/content",
        "/reviews/0/note",
    ];
    let mut accepted = 0;
    for payload in &payloads {
        for field in fields {
            let mut b = demo();
            if b["report"]["gaps"].as_array().is_none_or(Vec::is_empty) {
                b["report"]["gaps"] = json!(["gap"]);
            }
            *b.pointer_mut(field).unwrap() = json!(payload);
            let text = b.to_string();
            accepted += usize::from(both::<Bundle>(&text, &Limits::default()).is_ok());
            let _ = both::<Report>(&b["report"].to_string(), &Limits::default());
        }
    }
    assert!(accepted > payloads.len(), "{accepted} accepted");
}

#[test]
fn hostile_shapes_read_the_same() {
    let limits = Limits::default();
    let report = demo()["report"].to_string();
    let mut texts: Vec<String> = vec![
        String::new(),
        "null".into(),
        "[]".into(),
        "{}".into(),
        report.clone() + " ",
        report.clone() + "x",
        report.replacen("{", r#"{"title": "again", "#, 1),
        report.replacen(r#""title""#, r#""title": 1, "title""#, 1),
        report.replacen("\"claims\"", r#""claims": null, "claims""#, 1),
        report.replacen(r#""kind":"fact""#, r#""kind":"fact","kind":"fact""#, 1),
        report.replacen(r#""revision":1"#, r#""revision":1.0"#, 1),
        report.replacen(r#""revision":1"#, r#""revision":1e0"#, 1),
        report.replacen(r#""revision":1"#, r#""revision":-0"#, 1),
        report.replacen(r#""revision":1"#, r#""revision":18446744073709551616"#, 1),
        report.replacen(r#""revision":1"#, r#""revision":"1""#, 1),
        report.replacen(r#""start":"#, r#""start":-1,"x":"#, 1),
        // Lone surrogates, escaped: refused by both, never replaced.
        report.replacen(r#""title":""#, r#""title":"\ud800"#, 1),
        report.replacen(r#""title":""#, r#""title":"\udc00x"#, 1),
        report.replacen(r#""title""#, r#""\ud800""#, 1),
        // A paired surrogate is one astral character.
        report.replacen(r#""title":""#, r#""title":"\ud83d\ude00"#, 1),
        format!("{}{report}{}", "[".repeat(200), "]".repeat(200)),
        format!(r#"{{"title":"x","claims":[{}]}}"#, vec!["{}"; 20_000].join(",")),
        format!(r#"{{"title":"x","claims":[{}], "gaps": [{}]}}"#, &report[report.find("[{").unwrap() + 1..report.rfind("}]").unwrap() + 1], vec!["\"g\""; 40_000].join(",")),
    ];
    // As many gaps as the budget keeps, and one more than it keeps.
    let budget = evidence_check::contract::json::value_budget(0, limits.values_needed());
    for n in [budget - 40, budget + 10] {
        texts.push(format!(r#"{{"title":"x","claims":[{{"claim_id":"k","text":"t","kind":"fact"}}],"gaps":[{}]}}"#, vec!["1"; n].join(",")));
    }
    // A bundle whose reviews (a list without a limit) hold more values than the reader
    // keeps, and one whose reviews stay under it.
    let review = json!({"scope": {"tenant_id": "t", "user_id": "u"}, "report_digest": "0".repeat(64), "claim_id": "k", "verdict": "supported", "note": "n", "reviewed_at": "t"});
    let note = json!({"importer": "locate", "source_id": "a"});
    for n in [1000, 2000] {
        let mut b = demo();
        b["reviews"] = Value::Array(vec![review.clone(); n]);
        texts.push(b.to_string());
        let mut b = demo();
        b["import_notes"] = Value::Array(vec![note.clone(); 4 * n]);
        texts.push(b.to_string());
    }
    // Over the byte limit.
    let tiny = Limits { max_input_bytes: 100, ..Limits::default() };
    assert!(both::<Report>(&report, &tiny).is_err());
    for t in &texts {
        every_reader(t, &limits);
        let _ = both::<Report>(t, &policy("documents"));
    }
    // The strict dialect: null in an optional field is absent, elsewhere refused.
    let strict = r#"{"title":"t","claims":[{"claim_id":"k","text":"t","kind":"fact","rationale":null,"citations":null}],"conflicts":null,"gaps":null}"#;
    assert!(both_in(strict, Dialect::OpenAiStrict, &limits).is_ok());
    assert!(both_in(strict, Dialect::Standard, &limits).is_err());
    // strip_nulls drops a null under any of its fields, also where the type has no such
    // field; a duplicate is refused first, and a value that is not null stays unknown.
    let cited = r#"{"title":"t","claims":[{"claim_id":"k","text":"t","kind":"fact","citations":[{"citation_id":"c","ref":{"source_id":"a","revision":1,"digest":"0000000000000000000000000000000000000000000000000000000000000000"},"start":0,"end":1,"quote":"q"}]}]}"#;
    for (from, to, ok) in [
        (r#"{"title""#, r#"{"reviews":null,"title""#, true),
        (r#""start""#, r#""signature":null,"fetched_at":null,"start""#, true),
        (r#""revision":1"#, r#""revision":null"#, false),
        (r#"{"title""#, r#"{"reviews":null,"reviews":null,"title""#, false),
        (r#"{"title""#, r#"{"reviews":[],"title""#, false),
    ] {
        let text = cited.replacen(from, to, 1);
        assert_eq!(both_in(&text, Dialect::OpenAiStrict, &limits).is_ok(), ok, "{text}");
        assert!(both_in(&text, Dialect::Standard, &limits).is_err(), "{text}");
    }
    let plain = r#"{"title":"t","claims":[{"claim_id":"k","text":"t","kind":"fact"}]}"#;
    assert!(both_in(plain, Dialect::Standard, &limits).is_ok());
    for field in ["rationale", "citations", "conflicts", "gaps"] {
        let one = match field {
            "rationale" | "citations" => plain.replace(r#""kind":"fact""#, &format!(r#""kind":"fact","{field}":null"#)),
            _ => plain.replacen('{', &format!(r#"{{"{field}":null,"#), 1),
        };
        assert!(both_in(&one, Dialect::Standard, &limits).is_err(), "{one}");
        assert!(both_in(&one, Dialect::OpenAiStrict, &limits).is_ok(), "{one}");
    }
    assert!(both_in(&strict.replace(r#""title":"t""#, r#""title":null"#), Dialect::OpenAiStrict, &limits).is_err());
    assert!(both_in(&strict.replace(r#""gaps":null"#, r#""gaps":null,"gaps":[]"#), Dialect::OpenAiStrict, &limits).is_err());
    // A bundle whose sources leave out their texts.
    let mut b = demo();
    b["sources"].as_array_mut().unwrap().iter_mut().for_each(|s| {
        s.as_object_mut().unwrap().remove("content");
    });
    assert!(both_without_contents(&b.to_string(), &limits).is_ok());
    assert!(both::<Bundle>(&b.to_string(), &limits).is_err());
    // Reviews on their own.
    assert_eq!(both_reviews("null").unwrap(), vec![]);
    assert_eq!(both_reviews(&demo()["reviews"].to_string()).unwrap().len(), 3);
}

// ---- random mutations of valid reports and bundles -----------------------------------

/// Every JSON Pointer in `v`.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m.iter().for_each(|(k, x)| pointers(x, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| pointers(x, format!("{at}/{i}"), out)),
        _ => {}
    }
    out.push(at);
}

fn parent(p: &str) -> (&str, &str) {
    p.rsplit_once('/').unwrap_or(("", p))
}

/// A value a mutation puts somewhere.
fn replacement(k: u8) -> Value {
    match k % 16 {
        0 => Value::Null,
        1 => json!(1.5),
        2 => json!(-1),
        3 => json!(0),
        4 => json!(""),
        5 => json!(" \u{1c}"),
        6 => json!("x".repeat(1001)),
        7 => json!(true),
        8 => json!([]),
        9 => json!({}),
        10 => json!("a b"),
        11 => json!("A\n"),
        12 => json!(u64::MAX),
        13 => json!("😀"),
        14 => json!(["k1", "k1"]),
        _ => json!(7),
    }
}

/// Applies one mutation `op` at the `at`-th pointer of `v`.
fn mutate(v: &mut Value, at: usize, op: u8) {
    let mut ps = Vec::new();
    pointers(v, String::new(), &mut ps);
    let p = ps[at % ps.len()].clone();
    match op % 6 {
        0 => {
            let (up, last) = parent(&p);
            match v.pointer_mut(up) {
                Some(Value::Object(m)) => {
                    m.remove(&last.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(a)) if !a.is_empty() => {
                    a.remove(last.parse::<usize>().unwrap_or(0) % a.len());
                }
                _ => {}
            }
        }
        1 => match v.pointer_mut(&p) {
            Some(Value::Object(m)) => {
                m.insert("zz".into(), json!(1));
            }
            Some(Value::Array(a)) => {
                if let Some(first) = a.first().cloned() {
                    a.push(first);
                }
            }
            Some(x) => *x = replacement(op / 6),
            None => {}
        },
        2 => {
            if let Some(Value::Number(n)) = v.pointer(&p).cloned() {
                *v.pointer_mut(&p).unwrap() = json!(n.as_u64().unwrap_or(0).wrapping_add(u64::from(op / 6)) % 30);
            } else if let Some(x) = v.pointer_mut(&p) {
                *x = replacement(op / 6);
            }
        }
        _ => {
            if let Some(x) = v.pointer_mut(&p) {
                *x = replacement(op / 6);
            }
        }
    }
}

/// `v` as text, with one text-level mutation: none, a key written twice, a lone
/// surrogate, the text cut short, or a byte inserted.
fn text_of(v: &Value, op: u8, at: usize) -> String {
    let text = v.to_string();
    let pick = |s: &str, pattern: &str| -> Option<usize> {
        let found: Vec<usize> = s.match_indices(pattern).map(|(i, _)| i).collect();
        (!found.is_empty()).then(|| found[at % found.len()])
    };
    match op % 8 {
        1 => match pick(&text, ",\"") {
            // The entry after this comma, written again before it.
            Some(i) => {
                let rest = &text[i + 1..];
                let end = rest.find([',', '}']).unwrap_or(rest.len());
                format!("{},{}{}", &text[..i], &rest[..end], &text[i..])
            }
            None => text,
        },
        2 => match pick(&text, ":\"") {
            Some(i) => format!("{}:\"\\ud83d{}", &text[..i], &text[i + 2..]),
            None => text,
        },
        3 => text.chars().take(at % (text.chars().count() + 1)).collect(),
        4 => {
            let mut cs: Vec<char> = text.chars().collect();
            let i = at % (cs.len() + 1);
            cs.insert(i, ['{', '"', ',', ']', '\\', ' '][at % 6]);
            cs.into_iter().collect()
        }
        _ => text,
    }
}

fn demo_bundle_with_gaps() -> Value {
    let mut b = demo();
    b["report"]["gaps"] = json!(["a gap"]);
    b["report"]["conflicts"] = json!([{"claim_ids": [b["report"]["claims"][0]["claim_id"], b["report"]["claims"][1]["claim_id"]], "reason": "r"}]);
    b
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mutated_reports_and_bundles_read_the_same(
        muts in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..4),
        text_op in any::<u8>(),
        text_at in any::<usize>(),
        which in 0u8..4,
        name in 0usize..3,
    ) {
        let base = demo_bundle_with_gaps();
        let mut v = match which {
            0 => base["report"].clone(),
            1 => base,
            2 => base["reviews"].clone(),
            _ => Value::Array(base["sources"].as_array().unwrap().iter().map(|s| s["spec"].clone()).collect()),
        };
        for (at, op) in muts {
            mutate(&mut v, at, op);
        }
        let text = text_of(&v, text_op, text_at);
        let limits = policy(POLICIES[name]);
        match which {
            0 => {
                let _ = both::<Report>(&text, &limits);
                let _ = both_in(&text, Dialect::OpenAiStrict, &limits);
            }
            1 => {
                let _ = both::<Bundle>(&text, &limits);
                let _ = both_without_contents(&text, &limits);
            }
            2 => {
                let _ = both_reviews(&text);
            }
            _ => {
                let _ = both_specs(&text, &limits);
            }
        }
    }
}

#[test]
fn the_unmutated_bases_take_the_fast_path() {
    let b = demo_bundle_with_gaps();
    for name in POLICIES {
        assert!(both::<Bundle>(&b.to_string(), &policy(name)).is_ok());
        assert!(both::<Report>(&b["report"].to_string(), &policy(name)).is_ok());
        assert!(both_in(&b["report"].to_string(), Dialect::OpenAiStrict, &policy(name)).is_ok());
        let specs: Vec<Value> = b["sources"].as_array().unwrap().iter().map(|s| s["spec"].clone()).collect();
        assert!(both_specs(&Value::Array(specs).to_string(), &policy(name)).is_ok());
    }
    assert!(both_reviews(&b["reviews"].to_string()).is_ok());
}

/// A report whose fields are all valid and that breaks its cross-field rules (the
/// report-level ones, [`Report::from_json_in`] lists them without a second read): the
/// same error as the tree reader's, under every policy, in both dialects, with its
/// violations in the same order.
#[test]
fn reports_breaking_only_their_cross_field_rules_give_the_tree_readers_error() {
    let base = demo()["report"].clone();
    let citation = |id: &str, start: u64| json!({"citation_id": id, "ref": base["claims"][0]["citations"][0]["ref"].clone(), "start": start, "end": start + 4, "quote": "abcd"});
    let claim = |id: &str, citations: Value| json!({"claim_id": id, "text": "t", "kind": "fact", "citations": citations});
    let broken = [
        // Two claims with one id.
        json!({"title": "r", "claims": [claim("a", json!([])), claim("a", json!([]))]}),
        // A claim citing one citation twice, and one id naming two passages.
        json!({"title": "r", "claims": [claim("a", json!([citation("c", 0), citation("c", 0)])), claim("b", json!([citation("c", 5)]))]}),
        // A conflict naming one claim twice, and a claim the report does not have.
        json!({"title": "r", "claims": [claim("a", json!([])), claim("b", json!([]))], "conflicts": [{"claim_ids": ["a", "a"], "reason": "x"}, {"claim_ids": ["a", "zz"], "reason": "y"}]}),
        // Every rule at once, the conflicts given before the claims.
        json!({"conflicts": [{"claim_ids": ["b", "b", "q"], "reason": "x"}], "title": "r", "claims": [claim("b", json!([citation("c", 0), citation("c", 1)])), claim("b", json!([citation("c", 0)]))]}),
    ];
    let mut errors = 0;
    for report in &broken {
        let text = report.to_string();
        for name in POLICIES {
            let limits = policy(name);
            let e = both::<Report>(&text, &limits).unwrap_err();
            assert!(!e.violations.is_empty() && e.violations.iter().all(|v| v.code.reference_message().is_some()), "{e:?}");
            assert_eq!(both_in(&text, Dialect::Standard, &limits), Err(e.clone()));
            let _ = both_in(&text, Dialect::OpenAiStrict, &limits).unwrap_err();
            errors += e.violations.len();
        }
    }
    assert!(errors >= 20, "{errors} violations");
}

/// A report with one of its lists (`claims`, `conflicts`, `gaps`) over its maximum, its
/// items valid or not, alone or with another violation: the tree reader's error (the fast
/// path gives the one over-long list whose items are all valid without a second read).
#[test]
fn reports_with_a_list_over_its_maximum_give_the_tree_readers_error() {
    let claim = |i: usize| json!({"claim_id": format!("c{i}"), "text": "t", "kind": "fact"});
    let claims = |n: usize| Value::Array((0..n).map(claim).collect());
    let conflicts = |n: usize| Value::Array((0..n).map(|_| json!({"claim_ids": ["c0", "c1"], "reason": "r"})).collect());
    let gaps = |n: usize| Value::Array((0..n).map(|i| json!(format!("gap {i}"))).collect());
    let mut inputs = Vec::new();
    for n in [12, 13, 14, 40] {
        inputs.push(json!({"title": "r", "claims": claims(n)}));
        inputs.push(json!({"gaps": gaps(n), "title": "r", "claims": claims(2)}));
        inputs.push(json!({"title": "r", "claims": claims(2), "conflicts": conflicts(n)}));
        // Two lists over, in either order.
        inputs.push(json!({"title": "r", "claims": claims(n), "gaps": gaps(n)}));
        inputs.push(json!({"gaps": gaps(n), "claims": claims(n), "title": "r"}));
        // Another violation before or after the list; an invalid item before or after the maximum.
        inputs.push(json!({"title": 7, "claims": claims(n)}));
        inputs.push(json!({"claims": claims(n), "title": ""}));
        for at in [0, 11, 12, n - 1].into_iter().filter(|at| *at < n) {
            let mut bad = claims(n);
            bad[at]["kind"] = json!("guess");
            inputs.push(json!({"title": "r", "claims": bad}));
            let mut blank = claims(n);
            blank[at]["text"] = json!(" ");
            inputs.push(json!({"title": "r", "claims": blank}));
        }
        // Over the maximum, with the cross-field rules broken too.
        let mut twice = claims(n);
        twice[1]["claim_id"] = json!("c0");
        inputs.push(json!({"title": "r", "claims": twice}));
    }
    let mut over = 0;
    for report in &inputs {
        let text = report.to_string();
        for name in POLICIES {
            let limits = policy(name);
            let e = both::<Report>(&text, &limits);
            let _ = both_in(&text, Dialect::Standard, &limits);
            let _ = both_in(&text, Dialect::OpenAiStrict, &limits);
            over += usize::from(e.is_err_and(|e| e.violations.len() == 1 && e.violations[0].code.code() == "too_long"));
        }
    }
    assert!(over >= 20, "{over} errors of one over-long list");
}

/// A report's list over its maximum is read on by the first read only up to twice the
/// maximum (items): one far over (hostile, megabytes of claims) goes to the tree reader at once, as
/// before, instead of being read whole by both readers (red-team pass, 2026-11-30).
#[test]
fn a_list_far_over_its_maximum_is_left_to_the_tree_reader() {
    use evidence_check::contract::typed::{read_report_links_unchecked, How};
    let limits = Limits::default();
    let max = limits.max_claims;
    let report = |n: usize| json!({"title": "r", "claims": (0..n).map(|i| json!({"claim_id": format!("c{i}"), "text": "t", "kind": "fact"})).collect::<Vec<_>>()}).to_string();
    let first = |n: usize| read_report_links_unchecked(&report(n), &limits, How::contract(&limits)).map(|(_, over)| over.is_some());
    assert_eq!(first(max), Some(false));
    assert_eq!(first(max + 1), Some(true));
    assert_eq!(first(2 * max), Some(true));
    assert_eq!(first(2 * max + 1), None);
    assert_eq!(first(20 * max), None);
    // Either way the error is the tree reader's.
    for n in [max + 1, 2 * max, 2 * max + 1, 20 * max] {
        let e = both::<Report>(&report(n), &limits).expect_err("over the maximum");
        assert_eq!(e.violations.len(), 1, "{n}");
        assert_eq!(e.violations[0].code.code(), "too_long", "{n}");
    }
}
