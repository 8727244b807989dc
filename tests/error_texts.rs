//! Unit tests of the core (src/error.rs): error codes and their texts in both languages.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

#[test]
fn every_code_has_a_chinese_and_an_english_text() {
    use evidence_check::clock::ClockErrorKind;
use evidence_check::error::{Lang, ViolationCode};
use evidence_check::citation::OffsetErrorKind;
use evidence_check::render::RenderErrorKind;
use evidence_check::review::{ReviewErrorKind, SignatureProblem};
use evidence_check::store::StoreErrorKind;
    let mut pairs: Vec<(&str, &str, &str)> = Vec::new();
    pairs.extend(StoreErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(ReviewErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(RenderErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(OffsetErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(ClockErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(SignatureProblem::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    pairs.extend(evidence_check::error::BindingErrorKind::ALL.iter().map(|k| (k.code(), k.message_in(Lang::Zh), k.message_in(Lang::En))));
    for v in ViolationCode::ALL {
        if let (Some(zh), Some(en)) = (v.reference_message_in(Lang::Zh), v.reference_message_in(Lang::En)) {
            pairs.push((v.code(), zh, en));
        }
    }
    assert!(pairs.len() >= 30);
    for (code, zh, en) in pairs {
        assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{code}: no Chinese text: {zh}");
        assert!(en.is_ascii() && en.ends_with('.'), "{code}: not an English sentence: {en}");
    }
}

#[test]
fn a_thrown_error_is_its_message_code_and_properties_as_json_in_the_order_they_are_set() {
    use evidence_check::contract::{Contract, Report};
    use evidence_check::error::{thrown_json, Coded, Detail, Lang};
use evidence_check::store::StoreErrorKind;
    // A broken contract: a ContractError, `issues` then `subject`, localised like its message
    // (each golden contract error too: the reference's cross-field texts and the limits' hints
    // are given in each language, from one localisation of the error).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference/cases");
    let mut inputs = vec![r#"{"title": 1, "claims": []}"#.to_owned()];
    for entry in std::fs::read_dir(dir).unwrap() {
        let case: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        if case.get("report").is_some() {
            inputs.push(case["report"].to_string());
        }
    }
    let errors: Vec<_> = inputs.iter().filter_map(|text| Report::from_json(text).err()).collect();
    assert!(errors.len() >= 11, "{} contract errors", errors.len());
    let localised = |e: &evidence_check::error::ContractError, lang| e.issues(lang).unwrap().1.iter().zip(&e.violations).any(|(a, b)| a.message != b.message);
    assert!(errors.iter().any(|e| localised(e, Lang::En)), "no error whose English issues differ");
    assert!(errors.iter().any(|e| localised(e, Lang::Zh)), "no error whose Chinese issues differ (a limit's hint)");
    for (broken, lang) in errors.iter().flat_map(|e| [(e, Lang::Zh), (e, Lang::En)]) {
        let (contract, json) = thrown_json(broken, lang);
        assert!(contract);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let (subject, issues) = broken.issues(lang).unwrap();
        let expected = serde_json::json!([Coded::message(broken, lang), "contract", [["issues", issues], ["subject", subject]]]);
        assert_eq!(v, expected, "{json}");
        // Each issue keeps its struct's key order (path, code, message), as the errors
        // made in wasm write it: a JSON map would sort the keys.
        let first = serde_json::to_string(issues.first().unwrap()).unwrap();
        assert!(first.starts_with(r#"{"path":"#) && json.contains(&first), "{json}");
    }
    // A refusal with a detail: an EvidenceError whose one property is `detail`.
    let refused = StoreErrorKind::SourceTooLarge.with(Detail::limit(9, 4, "bytes", "max_source_bytes").source("s"));
    let (contract, json) = thrown_json(&refused, Lang::En);
    assert!(!contract);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[0], serde_json::Value::from(Coded::message(&refused, Lang::En)));
    assert_eq!(v[1], "source_too_large");
    assert_eq!(v[2], serde_json::json!([["detail", {"source_id": "s", "size": 9, "limit": 4, "unit": "bytes", "policy_field": "max_source_bytes"}]]));
}
