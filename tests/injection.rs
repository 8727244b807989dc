//! Every payload of tests/data/injection/payloads.json, placed in each text field of a
//! report and of its source spec, renders (hardened escaping) to Markdown whose
//! elements under pulldown-cmark with every extension on are exactly those of the same
//! artifact made from harmless text, apart from the code spans the escaping writes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

use evidence_check::digest::{normalize_newlines, report_digest};
use evidence_check::error::Lang;
use evidence_check::render::{render_in, Escaping};
use evidence_check::{Citation, Claim, ClaimKind, Clock, Conflict, EvidenceStore, Report, Review, Scope, SourceKind, SourceSpec, StoreOptions, Verdict};
use pulldown_cmark::{Event, Options, Parser};
use std::collections::BTreeMap;
use std::path::Path;

const FIELDS: [&str; 9] = ["title", "claim_text", "rationale", "quote", "conflict_reason", "gap", "review_note", "spec_title", "spec_locator"];

fn artifact(field: &str, payload: &str, lang: Lang) -> String {
    let pick = |f: &str, default: &str| if f == field { payload.to_owned() } else { default.to_owned() };
    let scope = Scope { tenant_id: "t".into(), user_id: "u".into() };
    let spec = SourceSpec {
        source_id: "s".into(),
        title: pick("spec_title", "Source"),
        locator: pick("spec_locator", "fixture:s"),
        filename: "s.md".into(),
        kind: SourceKind::Public,
    };
    let quoted = normalize_newlines(&pick("quote", "Passage")).into_owned();
    let content = format!("Intro.\n{quoted}\nEnd.\n");
    let clock = Clock::fixed("2026-11-29T00:00:00+00:00").unwrap();
    let mut store = EvidenceStore::new(vec![spec], StoreOptions::default(), clock.clone()).unwrap();
    let r = store.ingest(&scope, "s", &content).unwrap();
    let c1 = store.quote(&scope, &r, "Intro.", "c1").unwrap();
    let start = 7u64;
    let c2 = Citation { citation_id: "c2".into(), source_ref: r, start, end: start + quoted.chars().count() as u64, quote: quoted };
    let report = Report {
        title: pick("title", "Report"),
        claims: vec![
            Claim { claim_id: "k1".into(), text: pick("claim_text", "Claim"), kind: ClaimKind::Fact, rationale: String::new(), citations: vec![c1] },
            Claim { claim_id: "k2".into(), text: "Other".into(), kind: ClaimKind::Inference, rationale: pick("rationale", "Because"), citations: vec![c2] },
            Claim { claim_id: "k3".into(), text: "Third".into(), kind: ClaimKind::Fact, rationale: String::new(), citations: vec![] },
        ],
        conflicts: vec![Conflict { claim_ids: vec!["k2".into(), "k3".into()], reason: pick("conflict_reason", "Reason") }],
        gaps: vec![pick("gap", "Gap")],
    };
    let review = Review {
        scope: scope.clone(),
        report_digest: report_digest(&report),
        claim_id: "k1".into(),
        verdict: Verdict::Supported,
        note: pick("review_note", "Note"),
        reviewed_at: "2026-11-29T00:00:00+00:00".into(),
        signature: None,
    };
    // Sizes are not this test's concern: the artifact limits are checked elsewhere.
    match render_in(&scope, &report, &store, &[review], &clock, Escaping::Hardened, None, lang) {
        Ok(a) => a.content,
        Err(e) => panic!("{field}: {payload:?}: {e}"),
    }
}

/// The elements a CommonMark+GFM renderer makes, counted by kind.
fn elements(markdown: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for event in Parser::new_ext(markdown, Options::all()) {
        let name = match event {
            Event::Start(tag) => {
                let s = format!("{tag:?}");
                s.split(['(', ' ', '{']).next().unwrap_or("").to_owned()
                    + &match tag {
                        pulldown_cmark::Tag::Heading { level, .. } => format!("{level:?}"),
                        _ => String::new(),
                    }
            }
            // The hardened escaping writes a word GitHub could link as a code span.
            Event::End(_) | Event::Text(_) | Event::SoftBreak | Event::Code(_) => continue,
            other => {
                let s = format!("{other:?}");
                s.split(['(', ' ']).next().unwrap_or("").to_owned()
            }
        };
        *out.entry(name).or_insert(0) += 1;
    }
    out
}

#[test]
fn no_payload_makes_an_element_in_any_field() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/injection/payloads.json")).unwrap();
    let payloads: Vec<String> = serde_json::from_str(&text).unwrap();
    assert!(payloads.len() >= 200, "only {} payloads", payloads.len());
    let mut failures = Vec::new();
    for lang in [Lang::Zh, Lang::En] {
        for field in FIELDS {
            let baseline = elements(&artifact(field, "x", lang));
            assert!(baseline.contains_key("Link"), "the template's own citation links are counted");
            for p in &payloads {
                let got = elements(&artifact(field, p, lang));
                if got != baseline {
                    failures.push(format!("{lang:?} {field}: {p:?}\n    {got:?}\n vs {baseline:?}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} placements made elements:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_reference_escaping_is_weaker_as_documented() {
    // A bare URL survives the reference's escaping; under a GFM autolinker it becomes a
    // link. The hardened default escapes it. (pulldown-cmark has no GFM autolinks, so
    // the difference is shown on the text itself.)
    let url = "http://evil.example";
    assert!(Escaping::Reference.text(url).contains("http://"));
    assert!(Escaping::Hardened.text(url).starts_with('`'), "a code span: no link, the same text");
}

/// Whether each `Text` event holding `needle` is inside a list item.
fn inside_items(markdown: &str, needle: &str) -> Vec<bool> {
    let mut depth = 0usize;
    let mut found = Vec::new();
    for event in Parser::new_ext(markdown, Options::all()) {
        match event {
            Event::Start(pulldown_cmark::Tag::Item) => depth += 1,
            Event::End(pulldown_cmark::TagEnd::Item) => depth -= 1,
            Event::Text(t) if t.contains(needle) => found.push(depth > 0),
            _ => {}
        }
    }
    found
}

#[test]
fn rationale_and_review_lines_stay_inside_their_list_item() {
    for lang in [Lang::Zh, Lang::En] {
        let md = artifact("rationale", "Because", lang);
        // k2's rationale and k1's review note.
        assert_eq!(inside_items(&md, "Because"), [true], "{md}");
        assert_eq!(inside_items(&md, "Note"), [true], "{md}");
        // One list of claims, one of conflicts and gaps.
        assert_eq!(elements(&md).get("List"), Some(&2), "{md}");
    }
}

#[test]
fn a_kind_is_escaped_like_every_other_untrusted_field() {
    // A custom policy with extended identifiers allows `@`, `.` and `+` in a kind.
    for kind in ["a@b.example", "www.evil.example", "octocat", "jlord@a5c3785", "a5c3785ed8d6", "GH-26", "a_b_"] {
        let scope = Scope { tenant_id: "t".into(), user_id: "u".into() };
        let spec = SourceSpec { source_id: "s".into(), title: "S".into(), locator: "fixture:s".into(), filename: "s.md".into(), kind: SourceKind::Other(kind.into()) };
        let clock = Clock::fixed("2026-11-29T00:00:00+00:00").unwrap();
        let mut policy = evidence_check::Policy::documents();
        policy.identifier = evidence_check::policy::IdRule::Extended;
        let mut store = EvidenceStore::with_policy(vec![spec], policy, clock.clone()).unwrap();
        let r = store.ingest(&scope, "s", "Intro.\n").unwrap();
        let c1 = store.quote(&scope, &r, "Intro.", "c1").unwrap();
        let claim = Claim { claim_id: "k1".into(), text: "Claim".into(), kind: ClaimKind::Fact, rationale: String::new(), citations: vec![c1] };
        let report = Report { title: "R".into(), claims: vec![claim], conflicts: vec![], gaps: vec![] };
        let hard = render_in(&scope, &report, &store, &[], &clock, Escaping::Hardened, None, Lang::En).unwrap().content;
        let reference = render_in(&scope, &report, &store, &[], &clock, Escaping::Reference, None, Lang::En).unwrap().content;
        let line = |md: &str| md.lines().find(|l| l.contains("; kind: ")).unwrap().to_owned();
        assert_eq!(line(&hard), format!("Source: fixture\\:s; kind: {}", Escaping::Hardened.text(kind)));
        assert_eq!(line(&reference), format!("Source: fixture:s; kind: {kind}"), "the reference writes it as it is");
    }
    assert_eq!(Escaping::Hardened.text("a_b_"), "a\\_b\\_", "escaped outside a code span");
}
