//! checkBundle's reader (`read_for_check`, `check_read`) against the plain reader's
//! check, for texts escaped every way JSON allows.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evidence_check::bundle::{check_bundle_owned, check_read, read_for_check, BundleOptions};
use evidence_check::contract::{Contract, Limits};
use evidence_check::{Bundle, Clock, Policy};
use serde_json::Value;

/// Every character as a `\u` escape (astral ones as a surrogate pair), hex in `upper` case.
fn all_escaped(s: &str, upper: bool) -> String {
    let mut out = String::from("\"");
    for unit in s.encode_utf16() {
        out.push_str(&if upper { format!("\\u{unit:04X}") } else { format!("\\u{unit:04x}") });
    }
    out.push('"');
    out
}

/// Short escapes where JSON has them, the rest as serde_json writes it (raw UTF-8).
fn short_escaped(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '/' => out.push_str("\\/"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\t' => out.push_str("\\t"),
            c => {
                let json = serde_json::to_string(&c.to_string()).unwrap();
                out.push_str(&json[1..json.len() - 1]);
            }
        }
    }
    out.push('"');
    out
}

fn demo() -> Value {
    serde_json::from_str(include_str!("../examples/demo.bundle.json")).unwrap()
}

fn options(limits: &Limits) -> BundleOptions {
    let mut options = BundleOptions::new(Clock::fixed("2026-11-29T00:00:00+00:00").unwrap());
    options.policy = limits.clone();
    options
}

/// A bundle's JSON text with each source's `content` written by `write`.
fn with_contents(v: &Value, write: impl Fn(&str) -> String) -> String {
    let mut v = v.clone();
    let mut contents = Vec::new();
    for (i, s) in v["sources"].as_array_mut().unwrap().iter_mut().enumerate() {
        contents.push(write(s["content"].as_str().unwrap()));
        s["content"] = format!("@content{i}@").into();
    }
    let mut text = serde_json::to_string_pretty(&v).unwrap();
    for (i, c) in contents.iter().enumerate() {
        text = text.replace(&format!("\"@content{i}@\""), c);
    }
    text
}

/// checkBundle's path (`read_for_check`, `check_read`) against the plain one
/// (`from_json_with`, `check_bundle_owned`): the same result or the same error.
fn same_check(text: &str, limits: &Limits) -> Result<String, String> {
    let options = options(limits);
    let fast = read_for_check(text, limits).map_err(|e| e.message()).and_then(|b| check_read(b, &options).map_err(|e| e.message()));
    let plain = Bundle::from_json_with(text, limits).map_err(|e| e.message()).and_then(|b| check_bundle_owned(b, &options).map_err(|e| e.message()));
    assert_eq!(fast, plain);
    fast.map(|r| serde_json::to_string(&r).unwrap())
}

#[test]
fn a_bundle_read_for_a_check_gives_the_plain_readers_result() {
    let limits = Policy::reference();
    let v = demo();
    let as_is = same_check(&v.to_string(), &limits).unwrap();
    // The same texts through every escaping: the same result (digests included).
    for write in [short_escaped as fn(&str) -> String, |s: &str| all_escaped(s, false), |s: &str| all_escaped(s, true)] {
        assert_eq!(same_check(&with_contents(&v, write), &limits).unwrap(), as_is);
    }
    // CRLF and CR in the texts: normalised as the store normalises them (the refs no
    // longer match the digests: a result with issues, the same both ways).
    for newline in ["\r\n", "\r", "\r\r\n"] {
        let crlf = |s: &str| s.replace('\n', newline).replace('。', "。\r");
        for write in [|s: &str| serde_json::to_string(s).unwrap(), |s: &str| all_escaped(s, false)] {
            let text = with_contents(&v, |s| write(&crlf(s)));
            assert_ne!(same_check(&text, &limits).unwrap(), as_is);
        }
    }
    // The report's refs made to match CRLF texts: the digest is of the normalised text.
    let mut crlf = v.clone();
    for s in crlf["sources"].as_array_mut().unwrap() {
        let text = s["content"].as_str().unwrap().replace('\n', "\r\n");
        s["content"] = text.into();
    }
    assert_eq!(same_check(&crlf.to_string(), &limits).unwrap(), as_is);
}

#[test]
fn the_size_limit_applies_to_a_text_as_given_not_as_normalised() {
    let v = demo();
    let first = v["sources"][0]["content"].as_str().unwrap().to_owned();
    let given = first.replace('\n', "\r\n");
    let normalised = first.len();
    assert!(given.len() > normalised);
    let mut bundle = v.clone();
    bundle["sources"][0]["content"] = given.clone().into();
    let text = bundle.to_string();
    // At the text's size as given: checked; one byte less: refused, naming the size as given.
    let at = |max: usize| Limits { max_source_bytes: max, ..Policy::reference() };
    assert!(same_check(&text, &at(given.len())).is_ok());
    let e = same_check(&text, &at(given.len() - 1)).unwrap_err();
    assert!(e.contains(&given.len().to_string()), "{e}");
    let e = same_check(&text, &at(normalised)).unwrap_err();
    assert!(e.contains(&given.len().to_string()), "{e}");
}

#[test]
fn a_bundle_that_breaks_its_contract_gives_the_readers_error() {
    let limits = Policy::reference();
    let text = demo().to_string();
    for bad in [
        text.replacen("\"scope\"", "\"extra\":1,\"scope\"", 1),
        text.replacen("\"content\":\"", "\"content\":\"\\ud800", 1),
        text.replacen("\"content\":\"", "\"content\":\"\\udc00", 1),
        text.replacen("\"content\":\"", "\"content\":\"\\ud83d\\u0041", 1),
        text.replacen("\"content\":\"", "\"content\":\"\\ude00\\ud83d", 1),
        text.replacen("\"content\":", "\"content\":1,\"x\":", 1),
        text.replacen("\"content\":", "\"content\":\"a\",\"content\":", 1),
        text.replacen("\"sources\":[", "\"sources\":[{\"spec\":{}},", 1),
    ] {
        let e = same_check(&bad, &limits).unwrap_err();
        assert_eq!(e, Bundle::from_json_with(&bad, &limits).unwrap_err().message());
    }
}

/// Each source's revision reaches the store on both of a check's paths (the read text
/// moved into the store, and a bundle borrowed): refs at the source's revision are found,
/// refs at another are not.
#[test]
fn a_sources_revision_reaches_the_store() {
    let limits = Policy::reference();
    let codes = |v: &Value| {
        let moved = check_read(read_for_check(&v.to_string(), &limits).unwrap(), &options(&limits)).unwrap();
        let borrowed = evidence_check::bundle::check_bundle(&Bundle::from_json_with(&v.to_string(), &limits).unwrap(), &options(&limits)).unwrap();
        assert_eq!(moved, borrowed);
        moved.assessment.issues.iter().map(|i| i.code).collect::<Vec<_>>()
    };
    let mut v = demo();
    let before = codes(&v);
    let id = v["sources"][0]["spec"]["source_id"].clone();
    v["sources"][0]["revision"] = serde_json::json!(3);
    let stale = codes(&v);
    assert!(stale.len() > before.len() && stale.contains(&"revision_stale"), "{stale:?}");
    for claim in v["report"]["claims"].as_array_mut().unwrap() {
        for c in claim["citations"].as_array_mut().unwrap() {
            if c["ref"]["source_id"] == id {
                c["ref"]["revision"] = serde_json::json!(3);
            }
        }
    }
    let found = codes(&v);
    // The report changed, so its reviews are stale: only the citations' issues compare.
    assert!(!found.contains(&"revision_stale"), "{found:?}");
}

/// A bundle given as UTF-8 bytes: a leading BOM is dropped and not counted against the
/// limit; more is refused before the copy (`admit_bytes`) and after it (`bytes_text`) by
/// its size, with the hint to raise the limit; invalid bytes by the offset of the first,
/// counted with the BOM.
#[test]
fn bundle_bytes_are_read_as_a_fatal_utf8_decoder_reads_them() {
    use evidence_check::bundle::{admit_bytes, bytes_text, BytesRefused, UTF8_BOM};
    use evidence_check::error::Coded;
    let limits = Limits { max_input_bytes: 10, ..Limits::documents() };
    let with_bom = |b: &[u8]| [UTF8_BOM, b].concat();
    assert_eq!(bytes_text(b"{\"a\":\"\xc3\xa9\"}".to_vec(), &Limits::documents()).unwrap(), "{\"a\":\"é\"}");
    assert_eq!(bytes_text(with_bom(b"0123456789"), &limits).unwrap(), "0123456789", "a BOM is not counted");
    // Before the copy: the size with a BOM at most is admitted, one more is not.
    assert!(admit_bytes(13, &limits).is_ok());
    let e = admit_bytes(14, &limits).unwrap_err();
    assert_eq!(e.code(), "contract");
    let text = format!("{:?}", e.message_and_issues(evidence_check::Lang::En));
    assert!(text.contains("max_input_bytes"), "{text}");
    assert!(admit_bytes(u64::from(u32::MAX) + 1, &Limits { max_input_bytes: usize::MAX, ..Limits::documents() }).is_err(), "past 4 GiB");
    // After it: 11 bytes without a BOM are too large, the same message as before the copy.
    let Err(BytesRefused::TooLarge(after)) = bytes_text(b"01234567890".to_vec(), &limits) else { panic!("11 bytes taken") };
    assert_eq!(after.code(), "contract");
    assert_eq!(after.violations[0].code, admit_bytes(14, &limits).unwrap_err().violations[0].code);
    // Invalid bytes: the offset of the first, the BOM counted; code and detail carried.
    let e = bytes_text(with_bom(b"{\"a\xff"), &Limits::documents()).unwrap_err();
    assert_eq!(e, BytesRefused::NotUtf8(evidence_check::bundle::NotUtf8 { name: "bundle", offset: 6 }));
    assert_eq!(e.code(), "invalid_unicode");
    assert_eq!(e.details(), vec![("offset", Value::from(6))]);
    assert!(e.issues(evidence_check::Lang::En).is_none());
}
