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
