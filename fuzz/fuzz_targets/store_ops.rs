//! Ingest arbitrary text, then quote, quote by range in every unit and check citations
//! at arbitrary offsets: nothing panics, and whatever quote() returns checks out.
#![no_main]
use evidence_check::citation::Unit;
use evidence_check::{Citation, Clock, EvidenceStore, Scope, SourceKind, SourceSpec, StoreOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, rest) = data.split_at(4);
    let text = String::from_utf8_lossy(rest);
    let spec = SourceSpec { source_id: "s".into(), title: "S".into(), locator: "l".into(), filename: "s.md".into(), kind: SourceKind::Public };
    let Ok(clock) = Clock::fixed("2026-11-29T00:00:00+00:00") else { return };
    let Ok(mut store) = EvidenceStore::new(vec![spec], StoreOptions { max_sources: 1, max_source_bytes: 1 << 20 }, clock) else { return };
    let scope = Scope { tenant_id: "t".into(), user_id: "u".into() };
    let Ok(r) = store.ingest(&scope, "s", &text) else { return };
    let (a, b) = (usize::from(head[0]) * 7 + usize::from(head[1]), usize::from(head[2]) * 7 + usize::from(head[3]));
    for unit in [Unit::CodePoint, Unit::Utf16, Unit::Utf8] {
        if let Ok(c) = store.quote_range(&scope, &r, a.min(b), a.max(b), unit, "c") {
            assert!(store.check_citation(&scope, &c).is_ok());
        }
    }
    let snippet: String = text.chars().skip(a % 64).take(1 + b % 16).collect();
    if let Ok(c) = store.quote(&scope, &r, &snippet, "q") {
        assert!(store.check_citation(&scope, &c).is_ok());
    }
    let citation = Citation { citation_id: "x".into(), source_ref: r.clone(), start: a as u64, end: b as u64, quote: snippet };
    let _ = store.check_citation(&scope, &citation);
    let _ = store.remove(&scope, "s");
    let _ = store.check_citation(&scope, &citation);
});
