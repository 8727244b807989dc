//! Property tests: quoting round-trips at code-point offsets, normalisation is
//! idempotent, and canonical JSON parses back to the same report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use evidence_check::digest::{canonical_report, normalize_newlines};
use evidence_check::{Citation, Clock, Contract, EvidenceStore, Report, Scope, SourceSpec, StoreOptions};
use proptest::prelude::*;
use serde_json::json;

fn store() -> EvidenceStore {
    let spec = SourceSpec::from_value(&json!({"source_id": "a", "title": "T", "locator": "l", "filename": "a.md", "kind": "public"})).unwrap();
    let opts = StoreOptions { max_source_bytes: 1 << 20, ..StoreOptions::default() };
    EvidenceStore::new(vec![spec], opts, Clock::fixed("2026-11-29T00:00:00+00:00").unwrap()).unwrap()
}

/// Text mixing ASCII, CJK, astral characters, combining marks and CR/LF.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("a".to_owned()),
            Just(" ".to_owned()),
            Just("\r\n".to_owned()),
            Just("\r".to_owned()),
            Just("\n".to_owned()),
            Just("证".to_owned()),
            Just("😀".to_owned()),
            Just("e\u{301}".to_owned()),
            "[a-z]{1,3}".prop_map(|s| s),
        ],
        1..200,
    )
    .prop_map(|parts| format!("x{}", parts.concat()))
}

proptest! {
    #[test]
    fn check_citation_accepts_exactly_the_slice(t in text(), a in 0usize..400, b in 0usize..400) {
        let mut st = store();
        let scope = Scope { tenant_id: "t".into(), user_id: "u".into() };
        let r = st.ingest(&scope, "a", &t).unwrap();
        let norm: Vec<char> = normalize_newlines(&t).chars().collect();
        let (start, end) = (a.min(b) % norm.len(), (a.max(b) % norm.len()) + 1);
        prop_assume!(start < end);
        let quote: String = norm[start..end].iter().collect();
        let cite = |s: usize, e: usize, q: &str| Citation {
            citation_id: "c".into(), source_ref: r.clone(), start: s as u64, end: e as u64, quote: q.to_owned(),
        };
        prop_assert!(st.check_citation(&scope, &cite(start, end, &quote)).is_ok());
        // One code point more or less is refused.
        if end < norm.len() {
            prop_assert!(st.check_citation(&scope, &cite(start, end + 1, &quote)).is_err());
        }
        if end > start + 1 {
            prop_assert!(st.check_citation(&scope, &cite(start, end - 1, &quote)).is_err());
        }
        // quote() round-trips when the passage is unique (overlapping occurrences count).
        let n = evidence_check::store::locate::count_occurrences(&normalize_newlines(&t), &quote);
        match st.quote(&scope, &r, &quote, "q") {
            Ok(c) => {
                prop_assert_eq!(n, 1);
                prop_assert!(st.check_citation(&scope, &c).is_ok());
                prop_assert_eq!(c.quote, quote);
            }
            Err(e) => prop_assert!(n != 1 || quote.chars().count() > 800, "unexpected {e:?}"),
        }
    }

    #[test]
    fn normalisation_is_idempotent_and_leaves_no_cr(t in text()) {
        let once = normalize_newlines(&t).into_owned();
        prop_assert!(!once.contains('\r'));
        prop_assert_eq!(normalize_newlines(&once).into_owned(), once);
    }

    #[test]
    fn canonical_json_parses_back_to_the_same_report(
        title in "[^\u{0}-\u{8}]{1,40}",
        texts in proptest::collection::vec("\\PC{1,30}", 1..6),
        gap in proptest::option::of("[\u{0}-\u{1f}\"\\\\a-z😀]{1,20}"),
    ) {
        // A claim of only whitespace or invisible fillers (U+180F…) is blank: the contract refuses it.
        prop_assume!(texts.iter().all(|t| !evidence_check::visible::is_blank(t)));
        let claims: Vec<_> = texts.iter().enumerate().map(|(i, t)| json!({
            "claim_id": format!("k{i}"), "text": t, "kind": "fact",
            "citations": [{"citation_id": format!("c{i}"), "ref": {"source_id": "a", "revision": 1 + i, "digest": "0".repeat(64)}, "start": i, "end": i + 1, "quote": t}]
        })).collect();
        let mut v = json!({"title": title, "claims": claims});
        if let Some(g) = gap { v["gaps"] = json!([g]); }
        let report = Report::from_value(&v).unwrap();
        let again = Report::from_json(&canonical_report(&report)).unwrap();
        prop_assert_eq!(again, report);
    }
}

/// Keys mixing the two characters a JSON Pointer escapes with ones it keeps (`~0`, `~1`
/// and `0`, `1` too, so that an escape next to plain digits would show).
fn key() -> impl Strategy<Value = String> {
    proptest::collection::vec(prop_oneof![Just('~'), Just('/'), Just('0'), Just('1'), Just('a'), Just('证'), Just('😀')], 0..12).prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    /// A path's segments are escaped as RFC 6901 says (`~` as `~0` first, then `/` as
    /// `~1`: the two `replace`s the paths were made with before).
    #[test]
    fn pointer_segments_escape_as_rfc_6901(k in key(), path in key(), i in 0usize..100_000) {
        use evidence_check::json::{join, join_index, pointer_segment};
        let escaped = k.replace('~', "~0").replace('/', "~1");
        prop_assert_eq!(pointer_segment(&k), escaped.clone());
        prop_assert_eq!(join(&path, &k), format!("{path}/{escaped}"));
        prop_assert_eq!(join_index(&path, i), format!("{path}/{i}"));
    }
}
