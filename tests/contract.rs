//! Unit tests of the core (src/contract/): the data contracts: patterns, blank text, types, lengths, cross-field rules, list limits, strict JSON.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use evidence_check::rules::{is_blank, is_digest, is_filename, is_identifier};
use evidence_check::{Contract, Report};
use serde_json::json;
use support::*;

#[test]
fn patterns_follow_the_reference_and_reject_a_trailing_newline() {
    assert!(is_identifier("a"));
    assert!(is_identifier(&format!("a{}", "b".repeat(63))));
    assert!(!is_identifier(&format!("a{}", "b".repeat(64))));
    assert!(!is_identifier("a\n"));
    assert!(!is_identifier("_a"));
    assert!(!is_identifier("é"));
    assert!(!is_identifier(""));
    assert!(is_filename("plan_a.md"));
    assert!(!is_filename("plan_a.md\n"));
    assert!(!is_filename(".md"));
    assert!(!is_filename("a.txt"));
    assert!(is_digest(&"a".repeat(64)));
    assert!(!is_digest(&"A".repeat(64)));
    assert!(!is_digest(&format!("{}\n", "a".repeat(64))));
}

#[test]
fn a_digest_is_64_lower_case_hex_digits_at_every_place() {
    let plain = |s: &str| s.len() == 64 && s.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c));
    let odd: Vec<char> = (0u8..=127).map(char::from).chain(['é', '\u{80}', '\u{ff}', '\u{130}', '\u{1f600}']).collect();
    for at in [0, 1, 7, 8, 31, 56, 63] {
        for &c in &odd {
            for base in ["0", "f", "9", "a"] {
                let mut s: Vec<char> = base.repeat(64).chars().collect();
                s[at] = c;
                let s: String = s.into_iter().collect();
                assert_eq!(is_digest(&s), plain(&s), "{s:?}");
            }
        }
    }
    assert!(is_digest("0123456789abcdef".repeat(4).as_str()));
    assert!(!is_digest(&"a".repeat(63)));
    assert!(!is_digest(&"a".repeat(65)));
}

#[test]
fn blank_follows_python_strip() {
    assert!(is_blank(" \t\n\u{3000}\u{a0}\u{2028}\u{1c}\u{1f}"));
    assert!(!is_blank("\u{200b}"));
    assert!(!is_blank("\u{feff}"));
}

#[test]
fn no_coercion_and_every_violation_listed_with_its_path() {
    let mut r = valid_report();
    r["claims"][0]["citations"][0]["start"] = json!("0");
    r["claims"][0]["citations"][0]["end"] = json!(true);
    r["claims"][0]["citations"][0]["ref"]["revision"] = json!(1.0);
    r["claims"][0]["text"] = json!(1);
    r["extra"] = json!(null);
    let got = violations(r);
    assert_eq!(
        got,
        vec![
            ("/extra".to_owned(), "extra_field".to_owned()),
            ("/claims/0/text".to_owned(), "wrong_type".to_owned()),
            ("/claims/0/citations/0/ref/revision".to_owned(), "wrong_type".to_owned()),
            ("/claims/0/citations/0/start".to_owned(), "wrong_type".to_owned()),
            ("/claims/0/citations/0/end".to_owned(), "wrong_type".to_owned()),
        ]
    );
}

#[test]
fn numbers_below_their_minimum_and_missing_fields() {
    let mut r = valid_report();
    r["claims"][0]["citations"][0]["start"] = json!(-1);
    r["claims"][0]["citations"][0]["end"] = json!(0);
    r["claims"][0].as_object_mut().unwrap().remove("kind");
    assert_eq!(
        violations(r),
        vec![
            ("/claims/0/kind".to_owned(), "missing".to_owned()),
            ("/claims/0/citations/0/start".to_owned(), "too_small".to_owned()),
            ("/claims/0/citations/0/end".to_owned(), "too_small".to_owned()),
        ]
    );
}

#[test]
fn lengths_count_code_points() {
    let mut r = valid_report();
    r["title"] = json!("😀".repeat(120));
    assert!(Report::from_value(&r).is_ok());
    r["title"] = json!("😀".repeat(121));
    assert_eq!(violations(r), vec![("/title".to_owned(), "too_long".to_owned())]);
}

#[test]
fn a_length_rule_counts_code_points_whatever_the_bytes() {
    use evidence_check::rules::{check_str, sized};
    let (rule, at_least) = (sized(3, 5), sized(3, 1000));
    let code = |s: &str| check_str(s, &rule).map_err(|(code, message)| (code.code().to_owned(), message));
    for ok in ["abc", "abcde", "😀😀😀", "😀😀😀😀😀", "ééééé", "a😀b"] {
        assert_eq!(code(ok), Ok(()), "{ok}");
        assert_eq!(check_str(ok, &at_least), Ok(()), "{ok}");
    }
    for short in ["", "ab", "😀😀", "é😀"] {
        let too_short = Err(("too_short".to_owned(), "String should have at least 3 characters".to_owned()));
        assert_eq!(code(short), too_short, "{short}");
        assert_eq!(check_str(short, &at_least).map_err(|(code, message)| (code.code().to_owned(), message)), too_short, "{short}");
    }
    assert_eq!(code("abcdef"), Err(("too_long".to_owned(), "String should have at most 5 characters, not 6".to_owned())));
    assert_eq!(code("ééééééé"), Err(("too_long".to_owned(), "String should have at most 5 characters, not 7".to_owned())));
    assert_eq!(code("😀😀😀😀😀😀"), Err(("too_long".to_owned(), "String should have at most 5 characters, not 6".to_owned())));
}

#[test]
fn a_citation_id_naming_two_passages_gives_both_places() {
    let mut r = valid_report();
    let first = r["claims"][0]["citations"][0].clone();
    let mut other = first.clone();
    other["citation_id"] = json!("c0");
    let mut second = first.clone();
    second["quote"] = json!("y");
    r["claims"] = json!([
        {"claim_id": "k1", "text": "x", "kind": "fact", "citations": [other.clone(), first]},
        {"claim_id": "k2", "text": "x", "kind": "fact", "citations": [other.clone()]},
        {"claim_id": "k3", "text": "x", "kind": "fact", "citations": [other, second]},
    ]);
    let e = Report::from_value(&r).unwrap_err();
    let v: Vec<_> = e.violations.iter().map(|v| (v.path.as_str(), v.code.code(), v.message.as_str())).collect();
    assert_eq!(
        v,
        vec![(
            "/claims/2/citations/1",
            "citation_id_conflict",
            "同一引用标识对应不同片段。 (citation_id 'c1' names two passages: a r1 [0, 1) at /claims/0/citations/1 and a r1 [0, 1) at /claims/2/citations/1)"
        )]
    );
}

#[test]
fn cross_field_rules_each_reported() {
    let mut r = valid_report();
    r["claims"][0]["citations"][0]["end"] = json!(0);
    r["claims"][0]["citations"][0]["start"] = json!(0);
    // end >= 1 is a field rule; start == end is the range rule.
    r["claims"][0]["citations"][0]["end"] = json!(1);
    r["claims"][0]["citations"][0]["start"] = json!(1);
    assert_eq!(violations(r.clone()), vec![("/claims/0/citations/0".to_owned(), "empty_range".to_owned())]);

    let mut r = valid_report();
    r["claims"][0]["kind"] = json!("inference");
    r["claims"][0]["rationale"] = json!(" \u{3000}");
    assert_eq!(violations(r), vec![("/claims/0".to_owned(), "blank_claim".to_owned())]);

    // Several report-level rules at once: all are listed, at the report's root.
    let mut r = valid_report();
    let claim = r["claims"][0].clone();
    let mut other = claim.clone();
    other["citations"][0]["quote"] = json!("y");
    other["citations"] = json!([other["citations"][0].clone(), other["citations"][0].clone()]);
    r["claims"] = json!([claim.clone(), claim, other]);
    r["conflicts"] = json!([{"claim_ids": ["k1", "k1"], "reason": "r"}, {"claim_ids": ["k1", "zz"], "reason": "r"}]);
    assert_eq!(
        violations(r),
        vec![
            ("".to_owned(), "duplicate_claim_id".to_owned()),
            ("".to_owned(), "duplicate_citation_in_claim".to_owned()),
            ("/claims/2/citations/0".to_owned(), "citation_id_conflict".to_owned()),
            ("/claims/2/citations/1".to_owned(), "citation_id_conflict".to_owned()),
            ("".to_owned(), "duplicate_conflict_member".to_owned()),
            ("".to_owned(), "unknown_conflict_member".to_owned()),
        ]
    );
}

#[test]
fn list_limits() {
    let mut r = valid_report();
    let c = r["claims"][0]["citations"][0].clone();
    r["claims"][0]["citations"] = json!([c.clone(), c.clone(), c.clone(), c.clone(), c]);
    r["gaps"] = json!(vec!["g"; 9]);
    r["conflicts"] = json!([{"claim_ids": ["k1"], "reason": "r"}]);
    assert_eq!(
        violations(r),
        vec![
            ("/claims/0/citations".to_owned(), "too_long".to_owned()),
            ("/conflicts/0/claim_ids".to_owned(), "too_short".to_owned()),
            ("/gaps".to_owned(), "too_long".to_owned()),
        ]
    );
    let mut r = valid_report();
    r["claims"] = json!([]);
    assert_eq!(violations(r), vec![("/claims".to_owned(), "too_short".to_owned())]);
}

/// A duplicate key is refused wherever it is: in a small object and past the first keys
/// of a large one, and when one of the two is written with an escape.
#[test]
fn json_text_duplicate_keys_in_large_objects_and_escaped() {
    let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
    for (text, key) in [
        (format!("{{{}, \"k3\": 0}}", many.join(", ")), "k3"),
        (format!("{{{}, \"k\\u0033\": 0}}", many.join(", ")), "k3"),
        (format!("{{{}, \"k39\": 0}}", many.join(", ")), "k39"),
        (r#"{"title": "a", "t\u0069tle": "b", "claims": []}"#.to_owned(), "title"),
    ] {
        let e = read_json::<Report>(&text, &Default::default()).unwrap_err();
        assert_eq!(e.violations[0].code.code(), "duplicate_key", "{text}");
        assert!(e.violations[0].message.starts_with(&format!("duplicate key `{key}` at line 1 column ")), "{}", e.violations[0].message);
    }
    // Forty distinct keys are not a duplicate: the report's own violations are listed, the
    // unknown fields in the order of their keys.
    let e = read_json::<Report>(&format!("{{{}}}", many.join(", ")), &Default::default()).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "extra_field");
    assert_eq!((e.violations[0].path.as_str(), e.violations[1].path.as_str(), e.violations[2].path.as_str()), ("/k0", "/k1", "/k10"));
}

#[test]
fn json_text_duplicate_keys_and_size_limit() {
    let e = read_json::<Report>(r#"{"title": "a", "title": "b", "claims": []}"#, &Default::default()).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "duplicate_key");
    // A duplicate in an otherwise valid report: the fast path must refuse it too.
    let dup = valid_report().to_string().replacen('{', r#"{"title": "again", "#, 1);
    let e = read_json::<Report>(&dup, &Default::default()).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "duplicate_key");
    let e = read_json::<Report>("{", &Default::default()).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "invalid_json");
    let tiny = evidence_check::contract::Limits { max_input_bytes: 10, ..Default::default() };
    let e = read_json::<Report>(&valid_report().to_string(), &tiny).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "input_too_large");
    let deep = format!("{}{}", "[".repeat(500), "]".repeat(500));
    let e = read_json::<Report>(&deep, &Default::default()).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "too_deep");
}

/// JSON nested past `MAX_DEPTH` (127 levels) is refused with the library's own `too_deep`,
/// naming its subject: never serde_json's "recursion limit exceeded" (round 11, red team).
#[test]
fn too_deep_json_is_the_librarys_own_refusal_naming_its_subject() {
    use evidence_check::json::{parse_strict, too_deep, DEFAULT_MAX_INPUT_BYTES, MAX_DEPTH};
    let nest = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let own = |column: usize| format!("the JSON nests deeper than 127 levels (at line 1 column {column}); it was not read");
    assert_eq!(MAX_DEPTH, 127);
    assert!(parse_strict(&nest(MAX_DEPTH), DEFAULT_MAX_INPUT_BYTES, "argument").is_ok());
    for n in [MAX_DEPTH + 1, 4097, 4100, 100_000] {
        let e = parse_strict(&nest(n), DEFAULT_MAX_INPUT_BYTES, "read_result").unwrap_err();
        assert_eq!(e.subject, "read_result");
        assert_eq!(e.violations.len(), 1);
        assert_eq!((e.violations[0].path.as_str(), e.violations[0].code.code()), ("", "too_deep"));
        assert_eq!(e.violations[0].message, own(128), "{n}");
        // Both contract readers (the typed one gives up, the tree reader refuses).
        let e = read_json::<Report>(&nest(n), &Default::default()).unwrap_err();
        assert_eq!((e.subject, e.violations[0].message.clone()), ("report", own(128)));
        // Reviews: the JSON text's errors name the reviews, as the records' do.
        let e = support::read_reviews(&nest(n)).unwrap_err();
        assert_eq!((e.subject, e.violations[0].message.clone()), ("reviews", own(128)));
    }
    // Deep inside a valid value: the position is where it went too deep.
    let inside = format!(r#"{{"title": {}}}"#, nest(200));
    let e = read_json::<Report>(&inside, &Default::default()).unwrap_err();
    assert_eq!(e.violations[0].message, own(137));
    // A policy and the options reader carry the same message, not serde_json's.
    let e = evidence_check::policy::Policy::from_json(&nest(200)).unwrap_err();
    assert!(e.message().contains(&own(128)), "{}", e.message());
    let e = evidence_check::options::read::<evidence_check::options::CheckBundleOptions>(Some(&nest(200)), "options").unwrap_err();
    let message = evidence_check::error::Coded::message(&e, evidence_check::error::Lang::En);
    assert!(message.ends_with(&own(128)) && !message.contains("recursion"), "{message}");
    // A JS value too deep for JSON.stringify (the binding): the same code and subject.
    let e = too_deep("JSON.stringify of report ran out of stack", "report");
    assert_eq!((e.subject, e.violations[0].code.code()), ("report", "too_deep"));
    assert_eq!(e.violations[0].message, "the JSON nests deeper than 127 levels (JSON.stringify of report ran out of stack); it was not read");
}

#[test]
fn a_bom_at_the_start_of_json_text_is_refused_as_bom_with_its_position() {
    let e = Report::from_json("\u{feff}{}").unwrap_err();
    assert_eq!((e.violations[0].code.code(), e.violations[0].path.as_str()), ("bom", ""));
    assert!(e.violations[0].message.contains("line 1 column 1 (byte 0)"), "{}", e.violations[0].message);
    let e = Report::from_json(" \n\u{feff}{}").unwrap_err();
    assert_eq!(e.violations[0].code.code(), "bom");
    assert!(e.violations[0].message.contains("line 2 column 1 (byte 2)"), "{}", e.violations[0].message);
    let e = evidence_check::json::parse_strict("\u{feff}[]", 1024, "reviews").unwrap_err();
    assert_eq!(e.violations[0].code.code(), "bom");
    // A U+FEFF inside a string is text; under compat "reference" a BOM is invalid JSON, as before.
    assert!(evidence_check::json::parse_strict("[\"\u{feff}\"]", 1024, "reviews").is_ok());
    let reference = evidence_check::policy::Policy::reference().with_reference_messages(true);
    let e = Report::from_json_with("\u{feff}{}", &reference).unwrap_err();
    assert_eq!(e.violations[0].code.code(), "invalid_json");
}
