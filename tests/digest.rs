//! Unit tests of the core (src/digest.rs): canonical JSON and newline normalisation.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use evidence_check::digest::{canonical_json, digest_text, normalize_newlines};
use serde_json::json;

#[test]
fn canonical_json_is_pythons_sorted_compact_form() {
    let v = json!({"b": "q\"\\\u{0}\u{1f}\u{7f}\u{2028}é😀\n\t\r\u{8}\u{c}", "a": [1, {"z": true, "é": null, "Z": "x"}], "ä": 1, "B": 2});
    // Printed by Python: json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    let python = "{\"B\":2,\"a\":[1,{\"Z\":\"x\",\"z\":true,\"\u{e9}\":null}],\"b\":\"q\\\"\\\\\\u0000\\u001f\u{7f}\u{2028}\u{e9}\u{1f600}\\n\\t\\r\\b\\f\",\"\u{e4}\":1}";
    assert_eq!(canonical_json(&v), python);
}

#[test]
fn newline_normalisation() {
    assert_eq!(normalize_newlines("a\r\nb\rc\n\r\r\n"), "a\nb\nc\n\n\n");
    assert_eq!(normalize_newlines("plain"), "plain");
    assert_eq!(digest_text("a\r\nb"), digest_text("a\nb"));
    assert_eq!(digest_text(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

#[test]
fn in_place_normalisation_matches_the_copying_one() {
    use evidence_check::digest::normalize_newlines_owned;
    for text in ["a\r\nb\rc\n\r\r\n", "plain", "", "\r", "\r\r", "\n\r", "é\r\n😀\r中\r\n\r\n", "x\r\n\n\r\r\ny"] {
        assert_eq!(normalize_newlines_owned(text.to_owned()), normalize_newlines(text), "{text:?}");
    }
}

proptest::proptest! {
    /// Both normalisers are the two replacements (CRLF, then lone CR, become LF) on texts
    /// long enough for memchr's word and vector loops, with CRs anywhere.
    #[test]
    fn normalisation_is_replacing_crlf_then_cr(text in "[a\r\n中😀]{0,40}", repeat in 1usize..12) {
        let text = text.repeat(repeat);
        let expected = text.replace("\r\n", "\n").replace('\r', "\n");
        let copied = normalize_newlines(&text);
        proptest::prop_assert_eq!(copied.as_ref(), expected.as_str());
        proptest::prop_assert_eq!(evidence_check::digest::normalize_newlines_owned(text.clone()), expected);
    }
}

mod host {
    //! The host's SHA-256, installed once (`evidence_check::host`): a stand-in records the
    //! sizes it was given; every digest is the built-in hasher's.
    use super::normalize_newlines;
    use evidence_check::digest::{sha256_hex, sha256_hex_hosted, HOST_HASH_MIN_BYTES};
    use evidence_check::host::{install_sha256, Sha256};
    use std::cell::RefCell;

    thread_local! {
        static SEEN: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    }
    fn recording(bytes: &[u8]) -> Option<String> {
        SEEN.with(|s| s.borrow_mut().push(bytes.len()));
        Some(sha256_hex(std::str::from_utf8(bytes).unwrap()))
    }
    fn wrong(_: &[u8]) -> Option<String> {
        Some("A".repeat(64))
    }
    fn short(bytes: &[u8]) -> Option<String> {
        Some(sha256_hex(std::str::from_utf8(bytes).unwrap())[1..].to_owned())
    }
    fn failing(_: &[u8]) -> Option<String> {
        None
    }
    fn seen() -> Vec<usize> {
        SEEN.with(|s| std::mem::take(&mut *s.borrow_mut()))
    }
    /// `f` with `hash` installed (on this thread) for texts of `min_bytes` up, then none.
    fn hosted<R>(hash: Sha256, min_bytes: usize, f: impl FnOnce() -> R) -> R {
        install_sha256(Some(hash), min_bytes);
        let r = f();
        install_sha256(None, 0);
        r
    }

    #[test]
    fn texts_from_the_threshold_up_go_to_the_host_with_the_same_digest() {
        seen();
        for n in [0, 1, HOST_HASH_MIN_BYTES - 1, HOST_HASH_MIN_BYTES, HOST_HASH_MIN_BYTES + 1, 100_000] {
            let text = "x".repeat(n);
            assert_eq!(hosted(recording, HOST_HASH_MIN_BYTES, || sha256_hex_hosted(&text)), sha256_hex(&text));
            assert_eq!(sha256_hex_hosted(&text), sha256_hex(&text));
        }
        assert_eq!(seen(), vec![HOST_HASH_MIN_BYTES, HOST_HASH_MIN_BYTES + 1, 100_000]);
        // A host installed with its own smallest size gets every text from there up.
        assert_eq!(hosted(recording, 0, || sha256_hex_hosted("")), sha256_hex(""));
        assert_eq!(seen(), vec![0]);
    }

    #[test]
    fn a_host_that_fails_or_answers_no_lower_case_digest_is_not_believed() {
        let text = "y".repeat(HOST_HASH_MIN_BYTES * 2);
        for hash in [wrong as Sha256, short, failing] {
            assert_eq!(hosted(hash, HOST_HASH_MIN_BYTES, || sha256_hex_hosted(&text)), sha256_hex(&text));
        }
    }

    #[test]
    fn a_store_hashes_large_sources_by_the_host_and_gives_the_same_refs() {
        use evidence_check::contract::{Scope, SourceKind, SourceSpec};
        use evidence_check::{Clock, EvidenceStore, StoreOptions};
        seen();
        let scope = Scope { tenant_id: "t".into(), user_id: "u".into() };
        let spec = |id: &str| SourceSpec { source_id: id.into(), title: "T".into(), locator: "x:y".into(), filename: format!("{id}.md"), kind: SourceKind::Public };
        let big = "line\r\n".repeat(HOST_HASH_MIN_BYTES);
        let opts = StoreOptions { max_sources: 4, max_source_bytes: 1 << 20 };
        let clock = || Clock::fixed("2026-11-29T00:00:00+00:00").unwrap();
        let refs = || {
            let mut st = EvidenceStore::new(vec![spec("a"), spec("b")], opts, clock()).unwrap();
            (st.ingest(&scope, "a", &big).unwrap(), st.ingest_text(&scope, "b", "small\r\n".to_owned().into()).unwrap())
        };
        assert_eq!(hosted(recording, HOST_HASH_MIN_BYTES, refs), refs());
        // Only the large one, normalised (CRLF became LF), went to the host.
        assert_eq!(seen(), vec!["line\n".len() * HOST_HASH_MIN_BYTES]);
    }

    #[test]
    fn a_bundle_checked_with_the_host_hasher_gives_the_same_result() {
        use evidence_check::bundle::{check_bundle, check_bundle_owned, BundleOptions};
        use evidence_check::contract::{Contract, Limits};
        use evidence_check::{Bundle, Clock, Policy};
        let mut v: serde_json::Value = serde_json::from_str(include_str!("../examples/demo.bundle.json")).unwrap();
        // The first source grows past the threshold (its digest no longer matches the
        // report's refs: a result with issues, the same both ways); the second stays small.
        let first = &mut v["sources"][0]["content"];
        *first = format!("{}{}", first.as_str().unwrap(), "more text\r\n".repeat(HOST_HASH_MIN_BYTES)).into();
        let limits = Limits { max_source_bytes: 1 << 20, ..Policy::reference() };
        let bundle = Bundle::from_value_with(&v, &limits).unwrap();
        let mut options = BundleOptions::new(Clock::fixed("2026-11-29T00:00:00+00:00").unwrap());
        options.policy = limits;
        let plain = check_bundle(&bundle, &options).unwrap();
        seen();
        // The long source (normalised) and the report's canonical JSON go to the host.
        let long = normalize_newlines(&bundle.sources[0].content).len();
        let report = evidence_check::digest::canonical_report(&bundle.report).len();
        assert_eq!(hosted(recording, HOST_HASH_MIN_BYTES, || check_bundle_owned(bundle.clone(), &options)).unwrap(), plain);
        assert_eq!(seen(), vec![long, report]);
        assert_eq!(hosted(recording, HOST_HASH_MIN_BYTES, || check_bundle(&bundle, &options)).unwrap(), plain);
        assert_eq!(seen(), vec![long, report]);
    }
}

mod typed_writer {
    //! The canonical JSON written straight from the typed report and review (issue 15)
    //! is byte for byte the one written through a `serde_json::Value` tree.
    use evidence_check::contract::{Citation, Claim, ClaimKind, Conflict, Report, Scope, SourceRef};
    use evidence_check::digest::{canonical_json, canonical_report, canonical_report_via_value};
    use evidence_check::review::{signed_payload, Review, Verdict};
    use proptest::prelude::*;

    /// Any text: controls, quotes, backslashes, U+007F, line separators, CJK, astral.
    fn text() -> impl Strategy<Value = String> {
        prop_oneof![any::<String>(), "[\u{0}-\u{1f}\"\\\\\u{7f}\u{2028}a-z证😀 ]{0,24}"]
    }

    fn source_ref() -> impl Strategy<Value = SourceRef> {
        (text(), any::<u64>(), text()).prop_map(|(source_id, revision, digest)| SourceRef { source_id, revision, digest })
    }

    fn citation() -> impl Strategy<Value = Citation> {
        (text(), source_ref(), any::<u64>(), any::<u64>(), text())
            .prop_map(|(citation_id, source_ref, start, end, quote)| Citation { citation_id, source_ref, start, end, quote })
    }

    fn claim() -> impl Strategy<Value = Claim> {
        (text(), text(), any::<bool>(), text(), proptest::collection::vec(citation(), 0..3)).prop_map(|(claim_id, text, fact, rationale, citations)| Claim {
            claim_id,
            text,
            kind: if fact { ClaimKind::Fact } else { ClaimKind::Inference },
            rationale,
            citations,
        })
    }

    fn report() -> impl Strategy<Value = Report> {
        (
            text(),
            proptest::collection::vec(claim(), 0..4),
            proptest::collection::vec((proptest::collection::vec(text(), 0..3), text()).prop_map(|(claim_ids, reason)| Conflict { claim_ids, reason }), 0..3),
            proptest::collection::vec(text(), 0..3),
        )
            .prop_map(|(title, claims, conflicts, gaps)| Report { title, claims, conflicts, gaps })
    }

    fn review() -> impl Strategy<Value = Review> {
        (text(), text(), text(), text(), text(), text(), 0usize..3, proptest::option::of(text())).prop_map(
            |(tenant_id, user_id, report_digest, claim_id, note, reviewed_at, verdict, signature)| Review {
                scope: Scope { tenant_id, user_id },
                report_digest,
                claim_id,
                verdict: [Verdict::Supported, Verdict::Insufficient, Verdict::Contradicted][verdict],
                note,
                reviewed_at,
                signature,
            },
        )
    }

    /// The review's payload as it was signed before: its `Value` without the signature.
    fn payload_via_value(review: &Review) -> String {
        canonical_json(&serde_json::to_value(Review { signature: None, ..review.clone() }).unwrap())
    }

    proptest! {
        /// A JSON string is written as `serde_json` writes it (which escapes what Python's
        /// `json.dumps(ensure_ascii=False)` escapes), whatever the escapes' places among
        /// the eight-byte words the writer skips.
        #[test]
        fn a_json_string_is_written_as_serde_json_writes_it(parts in proptest::collection::vec(text(), 0..12)) {
            let s = parts.concat();
            let mut out = String::new();
            evidence_check::digest::write_json_string(&mut out, &s);
            prop_assert_eq!(out, serde_json::to_string(&s).unwrap());
        }

        #[test]
        fn the_typed_writer_gives_the_value_trees_bytes(report in report()) {
            prop_assert_eq!(canonical_report(&report), canonical_report_via_value(&report));
        }

        #[test]
        fn a_reviews_signed_payload_is_its_unsigned_value_in_canonical_form(review in review()) {
            prop_assert_eq!(signed_payload(&review), payload_via_value(&review));
            // And the whole review, its signature included when it has one.
            let mut whole = String::new();
            evidence_check::digest::WriteCanonical::write_canonical(&review, &mut whole);
            prop_assert_eq!(whole, canonical_json(&serde_json::to_value(&review).unwrap()));
        }
    }

    /// Every report of the golden cases (reference and extra) that the contract accepts,
    /// and a review of each of its claims, written both ways.
    #[test]
    fn every_golden_report_and_review_is_written_as_the_value_tree_writes_it() {
        use evidence_check::{Clock, Contract};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let clock = Clock::fixed("2026-11-29T00:00:00+00:00").unwrap();
        let mut reports = 0;
        for set in ["reference", "extra"] {
            for entry in std::fs::read_dir(root.join(set).join("cases")).unwrap() {
                let case: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
                let Ok(report) = Report::from_value(&case["report"]) else { continue };
                reports += 1;
                assert_eq!(canonical_report(&report), canonical_report_via_value(&report));
                let scope = Scope { tenant_id: "t\"".into(), user_id: "u\n".into() };
                for claim in &report.claims {
                    let review = evidence_check::review::record_review(&scope, &report, &claim.claim_id, "supported", "note \\ \u{1}", &clock).unwrap();
                    assert_eq!(signed_payload(&review), payload_via_value(&review));
                }
            }
        }
        assert!(reports >= 37, "only {reports} golden reports were read");
    }
}
