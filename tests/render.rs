//! Unit tests of the core (src/render.rs): the Markdown artifact: literal() and hardened escaping, refusals, the English layout.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use evidence_check::render::{hardened, literal, render, Escaping};
use support::*;

#[test]
fn literal_matches_python() {
    let input = "  a\u{3000}b\u{a0}c\u{2028}d\u{1c}e\u{200b}f\u{feff}g  <h> & [x](javascript:y) `*_{}#+-.!|>~\\ http://x.y/@z:1 ";
    let python = "a b c d e\u{200b}f\u{feff}g &lt;h&gt; &amp; \\[x\\]\\(javascript:y\\) \\`\\*\\_\\{\\}\\#\\+\\-\\.\\!\\|&gt;\\~\\\\ http://x\\.y/@z:1";
    assert_eq!(literal(input), python);
}

#[test]
fn render_refuses_invalid_and_oversize() {
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let mut report = report_citing(&st, &s, &r, "Plan A works offline.");
    let ok = render(&s, &report, &st, &[], &clock(), Escaping::Reference).unwrap();
    assert_eq!(ok.content_digest, evidence_check::digest::sha256_hex(&ok.content));
    assert!(ok.content.contains("状态:needs_review;导出时间:2026-11-29T00:00:00+00:00"));
    assert!(ok.content.contains("字符区间:[8, 29);行:2—2"));
    report.claims[0].citations[0].quote = "tampered".into();
    assert_eq!(render(&s, &report, &st, &[], &clock(), Escaping::Reference).unwrap_err().code(), "report_invalid");
}

#[test]
fn hardened_escaping_leaves_no_markdown_and_shows_invisible_characters() {
    assert_eq!(
        hardened("  see http://x.y/a_b?c=1&d  www.example.org a@b.co <b> [x](y) | ~~z~~ :) "),
        "see `http://x.y/a_b?c=1&d` `www.example.org` `a@b.co` \\<b\\> \\[x\\]\\(y\\) \\| \\~\\~z\\~\\~ \\:\\)"
    );
    // Every GitHub reference form is a code span, its text as it is; a fence is longer
    // than any backtick run in the word, padded when the word starts or ends with one.
    assert_eq!(hardened("Closes #12, GH-3 o/r#4 @x a5c3785 A5C3785ED8"), "Closes `#12,` `GH-3` `o/r#4` `@x` `a5c3785` `A5C3785ED8`");
    assert_eq!(hardened("`#1` a``@b"), "`` `#1` `` ```a``@b```");
    assert_eq!(hardened("#\u{200b}1"), "`#⟦U+200B⟧1`");
    // Not links: six hex digits, a longer word with a hex prefix, gh- without a digit.
    assert_eq!(hardened("a5c378 feedback deadbeefx gh-x"), "a5c378 feedback deadbeefx gh\\-x");
    // A shown character ends a hex run as its marker does.
    assert_eq!(hardened("abc\u{200b}defa"), "abc⟦U+200B⟧defa");
    assert_eq!(hardened("a\u{202e}b\u{200b}c\u{0}d\u{7f}"), "a⟦U+202E⟧b⟦U+200B⟧c⟦U+0000⟧d⟦U+007F⟧");
    assert_eq!(hardened("line\nbreak\u{2028}here"), "line break here");
    // The reference's escaping is kept byte for byte as the compat mode.
    assert_eq!(Escaping::Reference.text("http://x.y"), "http://x\\.y");
    assert_eq!(Escaping::Hardened.text("http://x.y"), "`http://x.y`");
}

#[test]
fn the_english_artifact_has_the_same_layout() {
    use evidence_check::assess::check;
    use evidence_check::error::Lang;
    use evidence_check::render::render_checked_in;
    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", TEXT).unwrap();
    let report = report_citing(&st, &s, &r, "Plan A works offline.");
    let checked = check(&s, &report, &st, &[]).unwrap();
    let zh = render_checked_in(&report, &checked, &clock(), Escaping::Hardened, Lang::Zh).unwrap().content;
    let en = render_checked_in(&report, &checked, &clock(), Escaping::Hardened, Lang::En).unwrap().content;
    assert_eq!(zh.lines().count(), en.lines().count());
    assert!(en.contains("## Claims\n\n- **k1 / sourced fact / awaiting review**: Plan A works offline\\. [1](#source-1)\n"), "{en}");
    assert!(en.contains("Fetched at: 2026\\-11\\-29T00\\:00\\:00\\+00\\:00; code points: [8, 29); lines: 2—2"), "{en}");
    assert!(!en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "no Chinese label left");
}

mod same_as_before {
    //! The escaping writes straight into the artifact (runs of plain characters copied
    //! whole, issue 15): the same bytes as the character-by-character escaping it replaced,
    //! kept here as the oracle.
    use evidence_check::visible::is_python_space;
    use evidence_check::render::{hardened, literal};
    use evidence_check::visible::is_shown;
    use proptest::prelude::*;

    fn collapse_and_escape(text: &str, escape: impl Fn(&mut String, Option<char>, char)) -> String {
        let mut out = String::new();
        for (i, word) in text.split(is_python_space).filter(|w| !w.is_empty()).enumerate() {
            if i > 0 {
                out.push(' ');
            }
            let mut prev = None;
            for ch in word.chars() {
                escape(&mut out, prev, ch);
                prev = Some(ch);
            }
        }
        out
    }

    /// The words GitHub could link, by the rule in words: an `@` or a `#`; `://`, `www.`
    /// or `gh-` and a digit, in any case; a run of 7 or more ASCII letters and digits, all hex.
    fn could_link(word: &str) -> bool {
        let lower = word.to_ascii_lowercase();
        let gh = lower.match_indices("gh-").any(|(i, _)| lower[i + 3..].starts_with(|c: char| c.is_ascii_digit()));
        let hex = word.split(|c: char| !c.is_ascii_alphanumeric()).any(|run| run.len() >= 7 && run.chars().all(|c| c.is_ascii_hexdigit()));
        word.contains(['@', '#']) || lower.contains("://") || lower.contains("www.") || gh || hex
    }

    fn code_span(word: &str) -> String {
        let longest = word.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(longest + 1);
        let pad = if word.starts_with('`') || word.ends_with('`') { " " } else { "" };
        let mut prev = None;
        let mut inner = String::new();
        for ch in word.chars() {
            if is_shown(prev, ch) {
                inner.push_str(&format!("⟦U+{:04X}⟧", u32::from(ch)));
            } else {
                inner.push(ch);
            }
            prev = Some(ch);
        }
        format!("{fence}{pad}{inner}{pad}{fence}")
    }

    fn old_hardened(text: &str) -> String {
        let words: Vec<String> = text
            .split(is_python_space)
            .filter(|w| !w.is_empty())
            .map(|w| if could_link(w) { code_span(w) } else { old_escaped_word(w) })
            .collect();
        words.join(" ")
    }

    fn old_escaped_word(text: &str) -> String {
        collapse_and_escape(text, |out, prev, ch| {
            if ch.is_ascii_alphanumeric() || ('\u{4e00}'..='\u{9fff}').contains(&ch) {
                out.push(ch);
            } else if ch.is_ascii_punctuation() {
                out.push('\\');
                out.push(ch);
            } else if is_shown(prev, ch) {
                out.push_str(&format!("⟦U+{:04X}⟧", u32::from(ch)));
            } else {
                out.push(ch);
            }
        })
    }

    fn old_literal(text: &str) -> String {
        collapse_and_escape(text, |out, _, ch| match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '(' | ')' | '#' | '+' | '-' | '.' | '!' | '|' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            _ => out.push(ch),
        })
    }

    /// Words, every kind of Python space, punctuation, controls, invisible and variation
    /// characters after their bases and not, CJK, astral.
    fn text() -> impl Strategy<Value = String> {
        let part = prop_oneof![
            "[a-z0-9]{1,4}",
            "[0-9a-fA-F]{5,9}",
            "(www\\.|://|[gG][hH]-[0-9]|@|#)",
            "[ \t\n\r\u{b}\u{c}\u{1c}-\u{1f}\u{85}\u{a0}\u{2028}\u{3000}]{1,3}",
            "[!-/:-@\\[-`{-~]{1,3}",
            "[\u{0}-\u{8}\u{7f}-\u{9f}\u{ad}\u{200b}-\u{200f}\u{202e}\u{2060}\u{3164}\u{e0001}\u{fe0f}\u{fe00}\u{e0100}]",
            "[证葛中👍❤😀é\u{301}\u{3000}-\u{3040}\u{ff00}-\u{ff60}]{1,3}",
            any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(part, 0..24).prop_map(|parts| parts.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        #[test]
        fn hardened_and_literal_write_what_the_old_escaping_wrote(t in text()) {
            prop_assert_eq!(hardened(&t), old_hardened(&t));
            prop_assert_eq!(literal(&t), old_literal(&t));
        }
    }
}
