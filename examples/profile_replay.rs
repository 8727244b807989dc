//! Replays the reference's golden cases step by step through the core, as a host does
//! through the JS API (a store, its ingests, parseReport, recordReview and
//! Reviews.add per review, assess, render), each result written as JSON text: the native
//! profile of the step-by-step path. `cargo run --release --example profile_replay [ROUNDS]`,
//! or under callgrind as `make profile` runs `profile`. Each round gives every report its
//! own title and the store its own clock, so no result repeats.
// Reading a case as `case["key"]` gives `null` for a missing key; the one write is to an object.
#![allow(clippy::indexing_slicing)]
use evidence_check::assess::{assess_in, CheckOptions, ReviewMode};
use evidence_check::contract::json::DEFAULT_MAX_INPUT_BYTES;
use evidence_check::digest::HostHasher;
use evidence_check::contract::{specs_from_json_typed, specs_from_value_with};
use evidence_check::error::Lang;
use evidence_check::parsed::{ParsedReport, ReviewList};
use evidence_check::policy::Policy;
use evidence_check::render::{render_opts, Escaping};
use evidence_check::{Clock, Contract, EvidenceStore, Scope};
use serde_json::Value;

fn now(i: usize) -> String {
    let s = i % 86_400;
    format!("2026-11-29T{:02}:{:02}:{:02}+00:00", s / 3600, s / 60 % 60, s % 60)
}

/// A case and the JSON texts the JS replay would hand over: its specs, and its report
/// around the place where each run's number goes into the title.
pub(crate) struct Case {
    case: Value,
    specs: String,
    report: Option<(String, String)>,
}

impl Case {
    pub(crate) fn new(case: Value) -> Case {
        let specs = case.get("specs").map_or_else(|| "[]".to_owned(), Value::to_string);
        let mut input = case["report"].clone();
        if let Some(title) = input.get("title").and_then(Value::as_str) {
            input["title"] = Value::String(format!("{title} #\u{1}"));
        }
        let text = input.to_string();
        let report = text.split_once("\\u0001").map(|(a, b)| (a.to_owned(), b.to_owned()));
        Case { case, specs, report }
    }

    /// The report's JSON text in run `i` (the case's own when it has no title).
    fn report(&self, i: usize) -> String {
        match &self.report {
            Some((head, tail)) => format!("{head}{i}{tail}"),
            None => self.case["report"].to_string(),
        }
    }
}

/// Each step is a function of its own, so that a profile shows each step's share.
macro_rules! steps {
    ($($name:ident),*) => {$(
        #[inline(never)]
        fn $name<T>(f: impl FnOnce() -> T) -> T {
            f()
        }
    )*};
}
steps!(new_store, ingest, parse_report, record_review, add_review, assess, render);

/// One case, as replay-split.mjs replays it (errors are results, as its `catch {}` takes them).
/// `host`: the host's SHA-256, as the Node entry registers node:crypto's (`None` natively).
pub(crate) fn replay(c: &Case, i: usize, policy: &Policy, host: Option<HostHasher>) -> Option<()> {
    let case = &c.case;
    let clock = Clock::fixed(&now(i)).ok()?;
    let scope = Scope::from_value(&case["scope"]).ok()?;
    let mut store = new_store(|| {
        let specs = specs_from_json_typed(&c.specs, policy, DEFAULT_MAX_INPUT_BYTES)
            .map_or_else(|| specs_from_value_with(&serde_json::from_str(&c.specs).unwrap_or_default(), policy), Ok)
            .ok()?;
        let mut store = EvidenceStore::with_policy(specs, policy.clone(), clock.clone()).ok()?;
        store.set_host_hasher(host);
        Some(store)
    })?;
    for step in case["ingest"].as_array().into_iter().flatten() {
        ingest(|| {
            let id = step["source_id"].as_str().unwrap_or("");
            let done = if let Some(gone) = step["remove"].as_str() {
                store.remove(&scope, gone).map(|()| String::new())
            } else if step.get("read_result").is_some() {
                store.ingest_read_result(&scope, id, &step["read_result"]).map(|r| serde_json::to_string(&r).unwrap_or_default())
            } else {
                store.ingest(&scope, id, step["content"].as_str().unwrap_or("")).map(|r| serde_json::to_string(&r).unwrap_or_default())
            };
            std::hint::black_box(done.ok());
        });
    }
    for id in case["remove"].as_array().into_iter().flatten() {
        let _ = store.remove(&scope, id.as_str().unwrap_or(""));
    }
    let parsed = parse_report(|| ParsedReport::from_json_in(&c.report(i), Default::default(), policy).ok())?;
    // The digest is made once, by the host where there is one, as the JS API's handle does.
    std::hint::black_box(parsed.digest_with(host));
    let rscope = case.get("report_scope").map_or(Ok(scope.clone()), Scope::from_value).ok()?;
    let mut reviews = ReviewList::default();
    for r in case["reviews"].as_array().into_iter().flatten() {
        let rs = r.get("scope").map_or(Ok(rscope.clone()), Scope::from_value);
        let Ok(rs) = rs else { continue };
        let review = record_review(|| {
            let review = evidence_check::review::record_review_signed(&rs, &parsed, &r["claim_id"], &r["verdict"], &r["note"], &clock, None, policy, None);
            review.ok().map(|review| serde_json::to_string(&review).unwrap_or_default())
        });
        let Some(text) = review else { continue };
        add_review(|| std::hint::black_box(reviews.push_json(&text).ok()).unwrap_or_default());
    }
    let check = || CheckOptions { review_key: None, reviews: ReviewMode::Throw, report_digest: Some(parsed.digest()) };
    assess(|| {
        let a = assess_in(&rscope, parsed.report(), &store, reviews.reviews(), check(), Lang::Zh);
        std::hint::black_box(a.map(|a| serde_json::to_string(&a).unwrap_or_default()).ok());
    });
    if case["render"].as_bool() == Some(true) {
        render(|| {
            let artifact = render_opts(&rscope, parsed.report(), &store, reviews.reviews(), &clock, Escaping::Hardened, check(), Lang::Zh);
            std::hint::black_box(artifact.map(|a| serde_json::to_string(&a).unwrap_or_default()).ok());
        });
    }
    Some(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rounds: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference/cases");
    let mut names: Vec<_> = std::fs::read_dir(&dir)?.filter_map(Result::ok).map(|e| e.path()).collect();
    names.sort();
    let mut cases = Vec::new();
    for name in names {
        let case: Value = serde_json::from_str(&std::fs::read_to_string(name)?)?;
        if case["op"].as_str() != Some("quote") {
            cases.push(Case::new(case));
        }
    }
    let policy = Policy::reference();
    let started = std::time::Instant::now();
    let mut i = 0;
    for _ in 0..rounds {
        for case in &cases {
            std::hint::black_box(replay(case, i, &policy, None));
            i += 1;
        }
    }
    let per = started.elapsed().as_secs_f64() * 1e6 / i as f64;
    println!("{} cases × {rounds} rounds, {per:.1} µs per case", cases.len());
    Ok(())
}
