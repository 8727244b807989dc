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
        "see http\\:\\/\\/x\\.y\\/a\\_b\\?c\\=1\\&d www\\.example\\.org a⟦U+0040⟧b\\.co \\<b\\> \\[x\\]\\(y\\) \\| \\~\\~z\\~\\~ \\:\\)"
    );
    assert_eq!(hardened("a\u{202e}b\u{200b}c\u{0}d\u{7f}"), "a⟦U+202E⟧b⟦U+200B⟧c⟦U+0000⟧d⟦U+007F⟧");
    assert_eq!(hardened("line\nbreak\u{2028}here"), "line break here");
    // The reference's escaping is kept byte for byte as the compat mode.
    assert_eq!(Escaping::Reference.text("http://x.y"), "http://x\\.y");
    assert_eq!(Escaping::Hardened.text("http://x.y"), "http\\:\\/\\/x\\.y");
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
