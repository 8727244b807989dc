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


// ---- no message mixes English and Chinese ----------------------------------------------

use evidence_check::error::{has_cjk, Coded, Detail, Hint, Lang};
use evidence_check::Contract;
use serde_json::{json, Value};

/// `text` without what it quotes (`"…"`, `'…'`, `` `…` ``, `“…”`): the input a message names.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut close: Option<char> = None;
    for c in text.chars() {
        match close {
            Some(end) if c == end => close = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' | '`' => close = Some(c),
                '“' => close = Some('”'),
                _ => out.push(c),
            },
        }
    }
    out
}

/// The longest run of English words (letters only, two or more) outside quotes: code
/// names (`max_claims`, `--policy`, `U+FEFF`, `r1`) are not words.
fn english_run(text: &str) -> usize {
    let (mut best, mut run) = (0, 0);
    for token in unquoted(text).split(|c: char| c.is_whitespace() || "(),;:。,;:()".contains(c)) {
        if token.is_empty() {
            continue;
        }
        let word = token.len() >= 2 && token.chars().all(|c| c.is_ascii_alphabetic());
        run = if word { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// Every check of one message: English has no Chinese outside quotes; Chinese (where a
/// Chinese text exists) has Chinese and no English sentence beside it.
fn check(what: &str, lang: Lang, message: &str, failures: &mut Vec<String>) {
    let bad = match lang {
        Lang::En => has_cjk(&unquoted(message)),
        Lang::Zh => !has_cjk(message) || english_run(message) >= 3,
    };
    if bad {
        failures.push(format!("{what} ({lang:?}): {message}"));
    }
}

fn both(what: &str, mut text: impl FnMut(Lang) -> String, failures: &mut Vec<String>) {
    for lang in [Lang::En, Lang::Zh] {
        check(what, lang, &text(lang), failures);
    }
}

/// A bundle whose report meets most issues there are: a stale revision, a text that
/// differs at its range (with a whitespace-insensitive match), a range past the end, an
/// unknown source, an inference without citations, a conflict, and reviews of another
/// scope, of another digest and twice. Its own texts hold no English sentence.
fn troubled_bundle() -> Value {
    let text = "x1 y2  z3 w4\nv5 u6";
    let digest = evidence_check::digest_text(text);
    let r = |rev: u64| json!({"source_id": "a", "revision": rev, "digest": digest});
    let cite = |id: &str, rev: u64, start: u64, end: u64, quote: &str| json!({"citation_id": id, "ref": r(rev), "start": start, "end": end, "quote": quote});
    let report = json!({"title": "t1", "claims": [
        {"claim_id": "k1", "text": "x1", "kind": "fact", "citations": [cite("c1", 1, 0, 2, "x1")]},
        {"claim_id": "k2", "text": "y2", "kind": "fact", "citations": [cite("c2", 2, 3, 5, "y2")]},
        {"claim_id": "k3", "text": "z3", "kind": "fact", "citations": [cite("c3", 1, 0, 8, "y2 z3")]},
        {"claim_id": "k4", "text": "w4", "kind": "fact", "citations": [cite("c4", 1, 90, 92, "w4")]},
        {"claim_id": "k5", "text": "v5", "kind": "fact", "citations": [{"citation_id": "c5", "ref": {"source_id": "b", "revision": 1, "digest": digest}, "start": 0, "end": 2, "quote": "x1"}]},
        {"claim_id": "k6", "text": "u6", "kind": "inference", "rationale": "r1", "citations": []},
    ], "conflicts": [{"claim_ids": ["k1", "k6"], "reason": "r2"}], "gaps": ["g1"]});
    let scope = json!({"tenant_id": "t", "user_id": "u"});
    let parsed = evidence_check::Report::from_value(&report).unwrap();
    let s = evidence_check::Scope::from_value(&scope).unwrap();
    let clock = evidence_check::Clock::fixed("2026-11-29T00:00:00+00:00").unwrap();
    let review = |s: &evidence_check::Scope, r: &evidence_check::Report| serde_json::to_value(evidence_check::record_review(s, r, "k1", "supported", "n1", &clock).unwrap()).unwrap();
    let mut other = parsed.clone();
    other.title = "t2".into();
    let foreign = evidence_check::Scope { tenant_id: "t9".into(), user_id: "u".into() };
    json!({
        "scope": scope,
        "sources": [{"spec": {"source_id": "a", "title": "a", "locator": "fixture:a", "filename": "a.md", "kind": "public"}, "content": text}],
        "report": report,
        "reviews": [review(&s, &parsed), review(&s, &parsed), review(&foreign, &parsed), review(&s, &other)],
    })
}

#[test]
fn no_message_mixes_english_and_chinese() {
    use evidence_check::catalog::CatalogErrorKind;
    use evidence_check::citation::OffsetErrorKind;
    use evidence_check::clock::ClockErrorKind;
    use evidence_check::error::{BindingErrorKind, ContractError, Violation, ViolationCode, RULE_TEXTS, TYPE_NAMES};
    use evidence_check::import::provider::ImportIssueKind;
    use evidence_check::render::RenderErrorKind;
    use evidence_check::review::{ReviewErrorKind, SignatureProblem};
    use evidence_check::store::locate::{LocateError, NotFoundReason};
    use evidence_check::store::StoreErrorKind;
    let mut failures = Vec::new();
    let f = &mut failures;

    // Every code's own message.
    /// Every message of one kind of code, in a language.
    type Messages = fn(Lang) -> Vec<String>;
    let codes: [(&str, Messages); 10] = [
        ("store", |l| StoreErrorKind::ALL.iter().map(|k| k.message_in(l).to_owned()).collect()),
        ("review", |l| ReviewErrorKind::ALL.iter().map(|k| k.message_in(l).to_owned()).collect()),
        ("signature", |l| SignatureProblem::ALL.iter().map(|k| k.message_in(l).to_owned()).collect()),
        ("render", |l| RenderErrorKind::ALL.iter().map(|k| k.message_in(l).to_owned()).collect()),
        ("offset", |l| OffsetErrorKind::ALL.iter().map(|k| k.message_in(l).to_owned()).collect()),
        ("clock", |l| ClockErrorKind::ALL.iter().map(|k| k.message_in(l).to_owned()).collect()),
        ("binding", |l| BindingErrorKind::ALL.iter().map(|k| k.message_in(l).to_owned()).collect()),
        ("catalog", |l| CatalogErrorKind::ALL.iter().map(|k| k.message_in(l).to_owned()).collect()),
        ("import", |l| ImportIssueKind::ALL.iter().map(|k| k.message_in(l).to_owned()).collect()),
        ("violation", |l| ViolationCode::ALL.iter().filter_map(|k| k.reference_message_in(l)).map(str::to_owned).collect()),
    ];
    for (what, messages) in &codes {
        for lang in [Lang::En, Lang::Zh] {
            for m in messages(lang) {
                check(what, lang, &m, f);
            }
        }
    }

    // A detail with every field, after each store code's message.
    let detail = Detail {
        source_id: Some("a".into()),
        claim_id: Some("k1".into()),
        review_index: Some(2),
        size: Some(30_000),
        limit: Some(24_000),
        unit: Some("bytes"),
        policy_field: Some("max_source_bytes"),
        cited_revision: Some(1),
        current_revision: Some(2),
        cited_digest: Some("0".repeat(64)),
        current_digest: Some("1".repeat(64)),
        start: Some(0),
        end: Some(4),
        text_length: Some(3),
        text_at_range: Some("x1 y2".into()),
        beyond_documents: false,
        loose_start: Some(1),
        loose_end: Some(5),
    };
    for unit in ["bytes", "sources", "code_points"] {
        let d = Detail { unit: Some(unit), ..detail.clone() };
        for k in StoreErrorKind::ALL {
            both("detail", |l| d.message(k.message_in(l), l), f);
        }
    }

    // Every hint, and every rule's text with and without one.
    let hints = [Hint::Raise("max_claims"), Hint::RaiseFile("max_claims"), Hint::RaiseCompat("max_claims"), Hint::Allow, Hint::AllowCompat];
    for h in hints {
        both("hint", |l| h.text(l), f);
    }
    for (en, _) in RULE_TEXTS {
        // What each `{}` names: a number or a type's name; a list of literals for the
        // catch-all; where the reader stopped for the nesting limit.
        let fills: Vec<&str> = match *en {
            "Input should be {}" => vec!["'fact' or 'inference'"],
            _ if en.contains("({})") => vec!["at line 1 column 2"],
            _ => std::iter::once("5").chain(TYPE_NAMES.iter().map(|(t, _)| *t)).collect(),
        };
        for fill in fills {
            let text = en.replace("{}", fill);
            for hint in [None, Some(Hint::Allow), Some(Hint::Raise("max_claims")), Some(Hint::RaiseCompat("max_claims"))] {
                let message = hint.map_or(text.clone(), |h| format!("{text}; {}", h.text(Lang::En)));
                let v = Violation { path: "/claims/0/kind".into(), code: ViolationCode::NotAllowed, message };
                let e = ContractError { subject: "report", violations: vec![v.clone(), v] };
                for lang in [Lang::En, Lang::Zh] {
                    let (summary, issues) = e.message_and_issues(lang);
                    check("contract summary", lang, &summary, f);
                    check("rule text", lang, &issues.unwrap().1[0].message, f);
                }
            }
        }
    }
    // A text of no rule (serde's) keeps one language, whatever is asked.
    let serde = ContractError { subject: "report", violations: vec![Violation { path: String::new(), code: ViolationCode::InvalidJson, message: "EOF while parsing a value at line 1 column 1".into() }] };
    let summary = serde.message_and_issues(Lang::Zh).0;
    assert!(!has_cjk(&summary), "{summary}");
    // The reference's own texts after the summary.
    let dup = ContractError { subject: "report", violations: vec![Violation { path: String::new(), code: ViolationCode::DuplicateClaimId, message: ViolationCode::DuplicateClaimId.reference_message().unwrap().into() }] };
    both("reference text summary", |l| Coded::message(&dup, l), f);

    // The policy's errors, the locator's, the importers'.
    for e in [evidence_check::policy::PolicyError::UnknownField("x".into()), evidence_check::policy::PolicyError::UnknownPreset("y".into())] {
        both("policy", |l| Coded::message(&e, l), f);
    }
    let located = [
        LocateError::NotFound { source_id: "a".into(), occurrences: 0, reason: NotFoundReason::Absent },
        LocateError::NotFound { source_id: "a".into(), occurrences: 0, reason: NotFoundReason::Empty },
        LocateError::NotFound { source_id: "a".into(), occurrences: 2, reason: NotFoundReason::Context },
        LocateError::NotFound { source_id: "a".into(), occurrences: 2, reason: NotFoundReason::Occurrence(3) },
        LocateError::Ambiguous { source_id: "a".into(), count: 7, ranges: vec![(0, 2), (4, 6)] },
        LocateError::NotUnique { source_id: "a".into() },
    ];
    for e in &located {
        both("locate", |l| e.message_in(l), f);
    }
    for code in ["quote_not_found", "quote_ambiguous", "ref_unavailable"] {
        both("unlocated", |l| evidence_check::bundle::unlocated_message(code, "a", l), f);
    }
    both("loose gap", |l| evidence_check::import::quotes::loose_gap("c1", "a", l), f);

    // An assessment's issues and the artifact's labels, checked as a bundle in each language.
    let bundle = evidence_check::bundle::Bundle::from_value(&troubled_bundle()).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for lang in [Lang::En, Lang::Zh] {
        let clock = evidence_check::Clock::fixed("2026-11-29T00:00:00+00:00").unwrap();
        let options = evidence_check::BundleOptions { lang, ..evidence_check::BundleOptions::new(clock) };
        let result = evidence_check::check_bundle(&bundle, &options).unwrap();
        for issue in &result.assessment.issues {
            seen.insert(issue.code);
            check(&format!("issue {}", issue.code), lang, &issue.message, f);
        }
        // The artifact of the report without its invalid claims.
        let mut valid = bundle.clone();
        valid.report.claims.retain(|c| ["k1", "k6"].contains(&c.claim_id.as_str()));
        if let Some(artifact) = evidence_check::check_bundle(&valid, &options).unwrap().artifact {
            assert!(has_cjk(&artifact.content) == (lang == Lang::Zh), "{lang:?} artifact:\n{}", artifact.content);
            // A line may hold only the report's own text (x1, r1…) or a digest: no label, no language.
            for line in artifact.content.lines() {
                let mixed = match lang {
                    Lang::En => has_cjk(&unquoted(line)),
                    Lang::Zh => english_run(line) >= 3,
                };
                if mixed {
                    f.push(format!("artifact line ({lang:?}): {line}"));
                }
            }
        } else {
            f.push(format!("no artifact ({lang:?})"));
        }
    }
    println!("issues met: {seen:?}");
    assert!(seen.len() >= 7, "{seen:?}");
    assert!(failures.is_empty(), "{} messages mix the languages:\n{}", failures.len(), failures.join("\n"));
}
