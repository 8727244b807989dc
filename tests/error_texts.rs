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

