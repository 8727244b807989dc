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
