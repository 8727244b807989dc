//! Issue 33: the core's peak allocation on its largest paths, as a ratio of two sizes
//! (never a time). A counting allocator keeps, per thread, the bytes allocated now and the
//! most allocated at once since the last reset, so each test measures its own calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use evidence_check::assess::CheckOptions;
use evidence_check::error::Lang;
use evidence_check::policy::Policy;
use evidence_check::render::{render_checked_detailed, render_opts, Escaping};
use evidence_check::{Clock, Contract, EvidenceStore, Report, Scope, SourceSpec};
use serde_json::json;

struct Counting;

thread_local! {
    static NOW: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grew(bytes: usize) {
    let _ = NOW.try_with(|n| {
        n.set(n.get() + bytes);
        let _ = PEAK.try_with(|p| p.set(p.get().max(n.get())));
    });
}
fn shrank(bytes: usize) {
    let _ = NOW.try_with(|n| n.set(n.get().saturating_sub(bytes)));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        shrank(layout.size());
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            // A moving realloc holds both blocks for a moment.
            grew(new_size);
            shrank(layout.size());
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes this thread held at once while `f` ran, above what it held before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = NOW.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, PEAK.with(Cell::get) - base)
}

const NOW_TEXT: &str = "2026-11-29T00:00:00+00:00";

fn scope() -> Scope {
    Scope { tenant_id: "t".into(), user_id: "u".into() }
}

/// A store whose one source has a title and a locator of invisible characters (each
/// written as `⟦U+200B⟧`, 13 bytes for 3, in every citation's passage), and a report of
/// `n` citations of it: the artifact grows by about 5 KiB per citation.
fn amplifying(n: usize, policy: Policy) -> (EvidenceStore, Report) {
    let spec = SourceSpec::from_value(&json!({
        "source_id": "a", "title": "\u{200b}".repeat(120), "locator": "\u{200b}".repeat(300), "filename": "a.md", "kind": "public"
    }))
    .unwrap();
    let mut store = EvidenceStore::with_policy(vec![spec], policy, Clock::fixed(NOW_TEXT).unwrap()).unwrap();
    let r = store.ingest(&scope(), "a", &"abcdefghij".repeat(100)).unwrap();
    let claims: Vec<_> = (0..n.div_ceil(32))
        .map(|k| {
            let citations: Vec<_> = (0..32.min(n - 32 * k))
                .map(|j| json!({"citation_id": format!("c{k}_{j}"), "ref": r, "start": j, "end": j + 1, "quote": &"abcdefghij".repeat(10)[j..j + 1]}))
                .collect();
            json!({"claim_id": format!("k{k}"), "text": "claim", "kind": "fact", "citations": citations})
        })
        .collect();
    let report = Report::from_value_with(&json!({"title": "T", "claims": claims}), &store.policy().clone()).unwrap();
    (store, report)
}

#[test]
fn an_oversize_artifact_is_stopped_at_its_limit_not_built_whole() {
    const LIMIT: usize = 256 * 1024;
    let policy = Policy { max_artifact_bytes: LIMIT, max_artifact_chars: LIMIT, ..Policy::documents() };
    let render = |n: usize| {
        let (store, report) = amplifying(n, policy.clone());
        let checked = evidence_check::assess::check_detailed(&scope(), &report, &store, &[], CheckOptions::default()).unwrap();
        let (result, peak) = peak_of(|| render_checked_detailed(&report, &checked, store.clock(), Escaping::Hardened, Lang::En));
        let (kind, detail) = result.unwrap_err();
        assert_eq!(kind.code(), "artifact_too_large");
        let d = detail.as_deref().unwrap();
        // Where writing stopped: one byte past the limit.
        assert_eq!((d.size, d.limit, d.unit, d.policy_field), (Some(LIMIT + 1), Some(LIMIT), Some("bytes"), Some("max_artifact_bytes")));
        peak
    };
    // 2,000 and 4,000 citations would make artifacts of about 10 and 20 MiB.
    let (small, large) = (render(2000), render(4000));
    println!("render's peak allocation: {small} bytes for 2,000 citations, {large} for 4,000 (limit {LIMIT})");
    // The artifact's buffer stays at the limit, however long the report.
    assert!(large < small * 5 / 4, "doubling the citations took the render's peak from {small} to {large} bytes");
    assert!(large < 2 * LIMIT, "{large} bytes for an artifact stopped at {LIMIT}");
}

#[test]
fn an_artifact_under_its_limit_is_unchanged_by_the_cap() {
    // The same report renders whole under a limit it fits, byte for byte as without one.
    let (store, report) = amplifying(64, Policy::documents());
    let render = |store: &EvidenceStore| render_opts(&scope(), &report, store, &[], &store.clock().clone(), Escaping::Hardened, CheckOptions::default(), Lang::En);
    let whole = render(&store).unwrap().content;
    let fits = Policy { max_artifact_bytes: whole.len(), max_artifact_chars: whole.chars().count(), ..Policy::documents() };
    let (tight, _) = amplifying(64, fits.clone());
    assert_eq!(render(&tight).unwrap().content, whole);
    let over = Policy { max_artifact_bytes: whole.len() - 1, ..fits };
    let (over, _) = amplifying(64, over);
    let f = render(&over).unwrap_err();
    assert_eq!(f.detail.as_deref().unwrap().size, Some(whole.len()));
}

#[test]
fn line_numbers_of_a_text_of_line_feeds_need_a_fraction_of_its_size() {
    // The artifact's line numbers: an index of every line feed would be four or eight
    // bytes per byte of such a text.
    for n in [1 << 20, 2 << 20] {
        let text = "\n".repeat(n);
        let index = evidence_check::citation::TextIndex::new(&text);
        let (line, peak) = peak_of(|| index.line_of(&text, n - 1));
        assert_eq!(line, n);
        assert!(peak <= n / 64, "{peak} bytes to number the lines of {n} line feeds");
    }
}

// ---- capacity: a store holds at most `max_store_bytes` of text --------------------------

#[test]
fn a_store_refuses_text_past_its_capacity_before_copying_it() {
    let specs: Vec<SourceSpec> = ["a", "b", "c"]
        .iter()
        .map(|id| SourceSpec::from_value(&json!({"source_id": id, "title": id, "locator": id, "filename": format!("{id}.md"), "kind": "public"})).unwrap())
        .collect();
    let policy = Policy { max_store_bytes: 10_000, ..Policy::documents() };
    let mut store = EvidenceStore::with_policy(specs, policy, Clock::fixed(NOW_TEXT).unwrap()).unwrap();
    let (t, u) = (scope(), Scope { tenant_id: "t".into(), user_id: "other".into() });
    store.ingest(&t, "a", &"x".repeat(4000)).unwrap();
    // Every scope counts: another user's copy of the same source is held too.
    store.ingest(&u, "a", &"y".repeat(4000)).unwrap();
    let text = "z".repeat(3000);
    let (e, peak) = peak_of(|| store.ingest(&t, "b", &text).unwrap_err());
    assert_eq!(e.code(), "over_capacity");
    let d = e.detail().unwrap();
    assert_eq!((d.size, d.limit, d.unit, d.policy_field, d.source_id.as_deref()), (Some(11_000), Some(10_000), Some("bytes"), Some("max_store_bytes"), Some("b")));
    assert!(e.message_in(Lang::En).contains("11000 bytes, over the limit of 10000 bytes"), "{}", e.message_in(Lang::En));
    assert!(peak < 3000, "{peak} bytes allocated for a refused text of 3,000");
    // A replacement is counted beside the text it replaces, then only itself.
    assert_eq!(store.ingest(&t, "a", &"w".repeat(2001)).unwrap_err().code(), "over_capacity");
    store.ingest(&t, "a", &"w".repeat(2000)).unwrap();
    store.ingest(&t, "b", &"z".repeat(3000)).unwrap();
    // A removed snapshot frees its room.
    store.remove(&u, "a").unwrap();
    store.ingest(&t, "c", &"v".repeat(4000)).unwrap();
    // A bundle's sources share one store: the one that does not fit is named by its path.
    let sources: Vec<_> = (0..3).map(|i| json!({"spec": {"source_id": format!("s{i}"), "title": "T", "locator": "L", "filename": format!("s{i}.md"), "kind": "public"}, "content": "q".repeat(4000)})).collect();
    let bundle = evidence_check::bundle::Bundle::from_value(&json!({"scope": t, "sources": sources, "report": {"title": "T", "claims": [{"claim_id": "k", "text": "claim", "kind": "inference", "rationale": "because", "citations": []}]}})).unwrap();
    let options = evidence_check::bundle::BundleOptions { policy: Policy { max_store_bytes: 10_000, ..Policy::documents() }, ..evidence_check::bundle::BundleOptions::new(Clock::fixed(NOW_TEXT).unwrap()) };
    let e = evidence_check::bundle::check_bundle(&bundle, &options).unwrap_err();
    assert_eq!((e.code(), e.message().ends_with("(/sources/2)")), ("over_capacity", true), "{}", e.message());
}

#[test]
fn the_presets_hold_at_most_a_quarter_of_wasm32_memory() {
    const GIB: usize = 1 << 30;
    for p in [Policy::reference(), Policy::documents()] {
        assert!(p.max_store_bytes <= GIB, "{}", p.max_store_bytes);
        // What one call reads at once also fits beside a full store.
        assert!(p.max_input_bytes.max(p.max_source_bytes) <= p.max_store_bytes / 4);
    }
}

// ---- bundles of many small objects: the reader's tree is a few bytes per byte of input ----

/// A bundle of about `bytes` bytes of JSON text in one of the shapes of many small
/// objects (under `documents`): `citations` (32 a claim, 160 bytes each), `reviews` (190
/// bytes each), `claims` (no citations), `sources` (tiny texts, one citation each), and
/// two the reader must visit before the check refuses them: `nested` (each claim an array
/// of arrays) and `objects` (each claim an object of objects).
fn small_objects(shape: &str, bytes: usize) -> String {
    let content = "abcdefghij".repeat(1000);
    let digest = evidence_check::digest::digest_text(&content);
    let source = |id: &str, content: &str| format!(r#"{{"spec":{{"source_id":"{id}","title":"T","locator":"L","filename":"{id}.md","kind":"public"}},"content":"{content}"}}"#);
    let cite = |id: &str, src: &str, d: &str, j: usize| format!(r#"{{"citation_id":"{id}","ref":{{"source_id":"{src}","revision":1,"digest":"{d}"}},"start":{j},"end":{},"quote":"{}"}}"#, j + 1, &content[j..j + 1]);
    let claim = |k: usize, citations: &[String]| format!(r#"{{"claim_id":"k{k}","text":"claim","kind":"fact","citations":[{}]}}"#, citations.join(","));
    let bundle = |sources: &[String], claims: &[String], reviews: &[String]| {
        format!(r#"{{"scope":{{"tenant_id":"t","user_id":"u"}},"sources":[{}],"report":{{"title":"R","claims":[{}]}},"reviews":[{}]}}"#, sources.join(","), claims.join(","), reviews.join(","))
    };
    let one = || vec![source("s", &content)];
    match shape {
        "citations" => {
            let n = bytes / 160;
            let claims: Vec<String> = (0..n.div_ceil(32)).map(|k| claim(k, &(0..32.min(n - 32 * k)).map(|j| cite(&format!("c{k}_{j}"), "s", &digest, j)).collect::<Vec<_>>())).collect();
            bundle(&one(), &claims, &[])
        }
        "reviews" => {
            let review = format!(r#"{{"scope":{{"tenant_id":"t","user_id":"u"}},"report_digest":"{}","claim_id":"k0","verdict":"supported","note":"n","reviewed_at":"{NOW_TEXT}"}}"#, "0".repeat(64));
            bundle(&one(), &[claim(0, &[cite("c", "s", &digest, 0)])], &vec![review; bytes / 190])
        }
        "claims" => bundle(&one(), &(0..bytes / 48).map(|k| claim(k, &[])).collect::<Vec<_>>(), &[]),
        "sources" => {
            let n = bytes / 250;
            let d = evidence_check::digest::digest_text("ab");
            let sources: Vec<String> = (0..n).map(|i| source(&format!("s{i}"), "ab")).collect();
            let claims: Vec<String> = (0..n).map(|i| claim(i, &[format!(r#"{{"citation_id":"c{i}","ref":{{"source_id":"s{i}","revision":1,"digest":"{d}"}},"start":0,"end":1,"quote":"a"}}"#)])).collect();
            bundle(&sources, &claims, &[])
        }
        "nested" => bundle(&one(), &vec!["[[[[[[[[]]]]]]]]".to_owned(); bytes / 17], &[]),
        "objects" => bundle(&one(), &vec![r#"{"a":{"b":{"c":{}}}}"#.to_owned(); bytes / 21], &[]),
        _ => unreachable!(),
    }
}

/// The most bytes held at once while a bundle's text is read and checked as the binding
/// does it: a copy of the text (the binding's), dropped once the bundle is read.
fn check_peak(text: &str) -> (String, usize) {
    use evidence_check::bundle::{check_read, read_for_check, BundleOptions};
    let options = BundleOptions { policy: Policy::documents(), render: false, ..BundleOptions::new(Clock::fixed(NOW_TEXT).unwrap()) };
    peak_of(|| {
        let copy = text.to_owned();
        let read = read_for_check(&copy, &options.policy);
        drop(copy);
        match read {
            Ok(read) => check_read(read, &options).map_or_else(|e| e.code().to_owned(), |r| format!("{:?}", r.assessment.status)),
            Err(e) => e.violations.first().map_or_else(String::new, |v| v.code.code().to_owned()),
        }
    })
}

/// The multiple of the input that a check of many small objects may take, and the
/// constant beside it (docs/security.md, "Peak memory").
const SMALL_OBJECTS_MULTIPLE: f64 = 4.0;
const SMALL_OBJECTS_CONSTANT: usize = 2 << 20;
/// Reviews that are each an issue of the assessment (here stale, all of one claim) take
/// what the issues take: each holds its subject (boxed), its message in no more room than
/// its text, and both digests, in a list with room for one issue per review.
const REVIEW_ISSUES_MULTIPLE: f64 = 5.5;

/// Checks `shape` at about 2 and 4 MiB: the peak of each is at most `multiple` times the
/// input plus the constant, and so is what each added byte took.
fn small_objects_within(shape: &str, multiple: f64) {
    const MIB: usize = 1 << 20;
    let runs: Vec<(usize, usize, String)> = [2 * MIB, 4 * MIB]
        .into_iter()
        .map(|bytes| {
            let text = small_objects(shape, bytes);
            let (result, peak) = check_peak(&text);
            (text.len(), peak, result)
        })
        .collect();
    let [(n, a, ra), (m, b, rb)] = [&runs[0], &runs[1]].map(Clone::clone);
    let slope = (b as f64 - a as f64) / (m as f64 - n as f64);
    println!("{shape}: {n} bytes -> {a} ({:.2}x, {ra}), {m} -> {b} ({:.2}x, {rb}); slope {slope:.2}", a as f64 / n as f64, b as f64 / m as f64);
    for (input, peak) in [(n, a), (m, b)] {
        assert!(peak as f64 <= multiple * input as f64 + SMALL_OBJECTS_CONSTANT as f64, "{shape}: {peak} bytes for {input} bytes of input");
    }
    assert!(slope <= multiple, "{shape}: each added byte took {slope:.2}");
}

#[test]
fn many_small_objects_take_at_most_four_times_their_size() {
    for shape in ["citations", "claims", "sources", "nested", "objects"] {
        small_objects_within(shape, SMALL_OBJECTS_MULTIPLE);
    }
}

#[test]
fn reviews_that_are_each_an_issue_take_what_the_issues_take() {
    small_objects_within("reviews", REVIEW_ISSUES_MULTIPLE);
}
