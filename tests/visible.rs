//! Characters that hide content are shown as ⟦U+XXXX⟧ in the hardened artifact, and a
//! claim made only of them is blank.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evidence_check::render::{hardened, Escaping};
use evidence_check::visible::{is_blank, show_invisible};
use evidence_check::{Contract, Report};

#[test]
fn fillers_and_lookalike_blanks_are_shown() {
    for c in ['\u{115f}', '\u{1160}', '\u{3164}', '\u{ffa0}', '\u{34f}', '\u{180b}', '\u{180c}', '\u{180d}', '\u{180f}', '\u{17b4}', '\u{17b5}', '\u{2800}', '\u{e0000}', '\u{e0002}', '\u{e007f}'] {
        assert_eq!(hardened(&format!("a{c}b")), format!("a⟦U+{:04X}⟧b", u32::from(c)), "{:04X}", u32::from(c));
    }
}

#[test]
fn a_variation_selector_stays_only_as_the_single_one_after_its_base() {
    // Emoji presentation after an emoji, an ideographic variation after an ideograph.
    assert_eq!(hardened("👍\u{fe0f} ❤\u{fe0e} 1\u{fe0f}\u{20e3} 葛\u{e0100}"), "👍\u{fe0f} ❤\u{fe0e} 1\u{fe0f}\u{20e3} 葛\u{e0100}");
    // The hidden-payload trick: bytes as selectors after one emoji.
    assert_eq!(hardened("👍\u{e0131}\u{e0142}"), "👍⟦U+E0131⟧⟦U+E0142⟧");
    assert_eq!(hardened("👍\u{fe0f}\u{fe0f}"), "👍\u{fe0f}⟦U+FE0F⟧");
    assert_eq!(hardened("a\u{fe0f} 葛\u{fe00} \u{fe0f}x 👍\u{e0100}"), "a⟦U+FE0F⟧ 葛⟦U+FE00⟧ ⟦U+FE0F⟧x 👍⟦U+E0100⟧");
    // The reference escaping keeps every character.
    assert_eq!(Escaping::Reference.text("a\u{3164}\u{fe0f}"), "a\u{3164}\u{fe0f}");
}

#[test]
fn show_invisible_marks_bidi_controls_and_keeps_lines() {
    assert_eq!(show_invisible("\u{202e}46\u{202c}"), "⟦U+202E⟧46⟦U+202C⟧");
    assert_eq!(show_invisible("a\n\tb\u{3164}c 👍\u{fe0f}"), "a\n\tb⟦U+3164⟧c 👍\u{fe0f}");
}

#[test]
fn a_claim_of_only_invisible_characters_is_blank() {
    for text in ["\u{3164}", "\u{2800}", " \u{115f}\u{200b} ", "\u{fe0f}", "\u{e0041}\u{e0042}"] {
        assert!(is_blank(text), "{text:?}");
        let report = serde_json::json!({"title": "t", "claims": [{"claim_id": "k", "text": text, "kind": "fact"}]});
        let e = Report::from_value(&report).unwrap_err();
        assert_eq!(e.violations[0].code.code(), "blank_claim", "{text:?}");
    }
    for text in ["x", "👍", "葛\u{e0100}", " a\u{3164}"] {
        assert!(!is_blank(text), "{text:?}");
    }
}

#[test]
fn an_at_sign_is_kept_in_a_code_span_in_hardened_text() {
    assert_eq!(hardened("security@evil.example"), "`security@evil.example`");
    assert_eq!(hardened("ping @octocat"), "ping `@octocat`");
    assert_eq!(hardened("a\u{2060}@b"), "`a⟦U+2060⟧@b`", "no invisible character is carried");
    assert_eq!(Escaping::Reference.text("a@b.c"), "a@b\\.c");
}

#[test]
fn hardened_text_writes_every_character_by_its_rule() {
    // Every character after a letter, an emoji and an ideograph: `@` and `#` in a code span, ASCII
    // punctuation escaped, a shown character as ⟦U+XXXX⟧, anything else as it is (the
    // renderer's fast path for letters, digits and ideographs must agree with the rule).
    use evidence_check::visible::is_shown;
    for prev in ['a', '\u{2764}', '\u{4e00}'] {
        for c in (0..=0x10ffff).filter_map(char::from_u32).filter(|c| !c.is_whitespace() && !matches!(c, '\u{1c}'..='\u{1f}' | '\u{85}')) {
            let expected = if c == '@' || c == '#' {
                format!("`{prev}{c}`")
            } else if is_shown(Some(prev), c) {
                format!("{prev}⟦U+{:04X}⟧", u32::from(c))
            } else if c.is_ascii_punctuation() {
                format!("{prev}\\{c}")
            } else {
                format!("{prev}{c}")
            };
            assert_eq!(hardened(&format!("{prev}{c}")), expected, "U+{:04X} after U+{:04X}", u32::from(c), u32::from(prev));
        }
    }
}
