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
