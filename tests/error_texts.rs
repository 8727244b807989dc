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
    // serde_json's syntax errors have Chinese texts too (json_syntax_errors_are_in_the_language_asked).
    let serde = ContractError { subject: "report", violations: vec![Violation { path: String::new(), code: ViolationCode::InvalidJson, message: "EOF while parsing a value at line 1 column 1".into() }] };
    both("serde's syntax error", |l| serde.message_and_issues(l).0, f);
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

// ---- the importers' and the annotation reader's texts -------------------------------------

/// A Rust source's string literal starting at byte `at` (just after its `"`), unescaped
/// as far as messages need (`\"`, `\\`), and where it ends.
fn literal_at(src: &str, at: usize) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut chars = src.get(at..)?.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, at + i + 1)),
            '\\' => out.push(chars.next()?.1),
            _ => out.push(c),
        }
    }
    None
}

/// A format string as a template: every `{…}` (`{}`, `{name}`, `{:?}`) is `{}`.
fn as_template(format: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in format.chars() {
        match (c, inside) {
            ('{', false) => inside = true,
            ('}', true) => {
                inside = false;
                out.push_str("{}");
            }
            (_, true) => {}
            (c, false) => out.push(c),
        }
    }
    out
}

/// Every message literal of `src` that follows one of `markers` (then `"` or `format!("`,
/// after whitespace), as a template.
fn literals_after(src: &str, markers: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for marker in markers {
        for (at, _) in src.match_indices(marker) {
            let rest = src[at + marker.len()..].trim_start();
            let skipped = src.len() - rest.len();
            let body = if rest.starts_with('"') { Some(skipped + 1) } else { rest.strip_prefix("format!(\"").map(|_| skipped + "format!(\"".len()) };
            if let Some((text, _)) = body.and_then(|b| literal_at(src, b)) {
                out.push(as_template(&text));
            }
        }
    }
    out
}

/// Every `format!("…")` literal of `src`, and every `"…".into()` of more than one word,
/// as a template.
fn formats(src: &str) -> Vec<String> {
    let formatted = src.match_indices("format!(\"").filter_map(|(at, m)| literal_at(src, at + m.len())).map(|(t, _)| t);
    let into = src.match_indices('"').filter_map(|(at, _)| literal_at(src, at + 1)).filter(|(t, end)| src[*end..].starts_with(".into()") && t.contains(' ')).map(|(t, _)| t);
    formatted.chain(into).map(|t| as_template(&t)).collect()
}

/// Every `.rs` file under `root`.
fn rust_files(root: &str) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files
}

#[test]
fn every_message_the_core_writes_in_english_has_a_chinese_text() {
    use evidence_check::error::RULE_TEXTS;
    use evidence_check::import::provider::DETAIL_TEXTS;
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let files = rust_files(root);
    let has = |table: &[(&str, &str)], t: &str| table.iter().any(|(en, _)| *en == t);
    let (mut rules, mut details, mut missing) = (0, 0, Vec::new());
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        let name = path.strip_prefix(root).unwrap().display().to_string();
        // A violation's message: after its code, or the `message` a reader builds for it.
        let built = if name.starts_with("import") || name == "annotation.rs" { literals_after(&src, &["let message = "]) } else { Vec::new() };
        for t in code_then_literal(&src).into_iter().chain(built) {
            rules += 1;
            // The checker's `item{}` is `item` or `items`.
            let t = t.replace("item{}", "items");
            if !has(RULE_TEXTS, &t) {
                missing.push(format!("{name}: rule text {t:?}"));
            }
        }
        // The provider importers' issue details: every text they format but a JSON
        // Pointer, an id or locator they make, and the message they assemble.
        const NOT_TEXT: &[&str] = &["{}:{}", "{}.md", "cite-{}", "claim-{}", "{} ({})", "{}:{}。", " within [{}, {})"];
        if ["bedrock.rs", "gemini.rs", "openai.rs", "adapters.rs", "provider.rs"].iter().any(|f| name == format!("import/{f}")) {
            let words = |t: &String| t.replace("{}", "").chars().any(|c| c.is_ascii_alphabetic());
            for t in formats(&src).into_iter().filter(|t| !t.starts_with("{}/") && !t.starts_with('/') && words(t) && !NOT_TEXT.contains(&t.as_str())) {
                details += 1;
                // Where the quote was looked for, when in a window: `{}` or ` within [a, b)`.
                let variants: Vec<String> = match t.strip_suffix("{}{}") {
                    Some(head) => vec![format!("{head}{{}}"), format!("{head}{{}} within [{{}}, {{}})")],
                    None => vec![t.clone()],
                };
                for t in variants.iter().filter(|t| !has(DETAIL_TEXTS, t) && !has(RULE_TEXTS, t)) {
                    missing.push(format!("{name}: import issue detail {t:?}"));
                }
            }
        }
    }
    println!("{rules} rule texts and {details} issue details in {} files", files.len());
    assert!(rules >= 50 && details >= 25, "{rules} rule texts, {details} details: the walk lost its way");
    assert!(missing.is_empty(), "{} texts have no Chinese text:\n{}", missing.len(), missing.join("\n"));
}

/// Every literal right after a violation's code (`ViolationCode::Name, "…"` or
/// `format!("…"`), as a template.
fn code_then_literal(src: &str) -> Vec<String> {
    let marker = "ViolationCode::";
    let mut out = Vec::new();
    for (at, _) in src.match_indices(marker) {
        let rest = &src[at + marker.len()..];
        let name_len = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(0);
        let Some(after) = rest[name_len..].strip_prefix(',') else { continue };
        let body = after.trim_start();
        let start = src.len() - body.len();
        let lit = if body.starts_with('"') { Some(start + 1) } else { body.strip_prefix("format!(\"").map(|_| start + "format!(\"".len()) };
        if let Some((text, _)) = lit.and_then(|b| literal_at(src, b)) {
            out.push(as_template(&text));
        }
    }
    out
}

/// Every message of an error in both languages: the message and each issue's.
fn coded_both(what: &str, e: &dyn Coded, f: &mut Vec<String>) {
    for lang in [Lang::En, Lang::Zh] {
        let (message, issues) = e.message_and_issues(lang);
        check(&format!("{what} [{}]", e.code()), lang, &message, f);
        for v in issues.map(|(_, v)| v).unwrap_or_default() {
            check(&format!("{what} [{}] {}", v.code.code(), v.path), lang, &v.message, f);
        }
    }
}

fn fixture(path: &str) -> Value {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap()
}

fn provider_options(sources: &Value, lang: Lang) -> evidence_check::import::provider::ProviderOptions {
    use evidence_check::import::provider::{HostSource, ProviderOptions};
    let mut o = ProviderOptions::new(evidence_check::Scope { tenant_id: "t".into(), user_id: "u".into() });
    o.lang = lang;
    for (k, v) in sources.as_object().into_iter().flatten() {
        let host = HostSource { source_id: v["sourceId"].as_str().unwrap().into(), text: v["text"].as_str().unwrap().into(), title: None, locator: None };
        o.sources.insert(k.clone(), host);
    }
    o
}

#[test]
fn no_importer_or_annotation_message_mixes_english_and_chinese() {
    use evidence_check::annotation::{drop_edge_surrogates_in, from_web_annotation, from_web_annotation_in, ID_PREFIX, MAX_SELECTORS, SOURCE_PREFIX};
    use evidence_check::import::anthropic::{from_anthropic_message, AnthropicOptions};
    use evidence_check::import::provider::DETAIL_TEXTS;
    use evidence_check::import::{adapters, from_model_response};
    use evidence_check::store::locate::Whitespace;
    let mut failures = Vec::new();
    let f = &mut failures;

    // Every issue detail's text, after each code's.
    for (en, _) in DETAIL_TEXTS {
        let detail = en.replace("{}", "5");
        for lang in [Lang::En, Lang::Zh] {
            let text = evidence_check::error::template_in(DETAIL_TEXTS, &detail, lang);
            check("issue detail", lang, &text, f);
        }
    }

    // Every provider fixture: the import's issues, and the check of what it made.
    let mut issues_met = std::collections::BTreeSet::new();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/providers");
    for provider in ["bedrock", "gemini", "openai"] {
        let mut names: Vec<String> = std::fs::read_dir(format!("{dir}/{provider}")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        let cases: Vec<&str> = names.iter().filter_map(|n| n.strip_suffix(".sources.json")).collect();
        for response in names.iter().filter_map(|n| n.strip_suffix(".response.json")) {
            for case in &cases {
                let request = fixture(&format!("tests/data/providers/{provider}/{case}.request.json"));
                let resp = fixture(&format!("tests/data/providers/{provider}/{response}.response.json"));
                let sources = fixture(&format!("tests/data/providers/{provider}/{case}.sources.json"));
                for lang in [Lang::En, Lang::Zh] {
                    let what = format!("{provider} {case}/{response}");
                    // With the case's snapshots, and with none (every source not supplied).
                    for sources in [&sources, &json!({})] {
                        match from_model_response(&request, &resp, Some(provider), &provider_options(sources, lang)) {
                            Ok(out) => {
                                for i in &out.issues {
                                    issues_met.insert(i.code);
                                    check(&format!("{what} issue {}", i.code), lang, &i.message, f);
                                }
                            }
                            Err(e) => coded_both(&what, &e, f),
                        }
                    }
                }
            }
        }
    }
    for (adapter, response, sources) in [
        ("langchain", "anthropic", "anthropic"),
        ("langchain", "google", "anthropic"),
        ("langchain", "tampered", "anthropic"),
        ("vercel", "anthropic", "anthropic"),
        ("vercel", "google", "google"),
    ] {
        let resp = fixture(&format!("tests/data/providers/{adapter}/{response}.response.json"));
        let sources = fixture(&format!("tests/data/providers/{adapter}/{sources}.sources.json"));
        for lang in [Lang::En, Lang::Zh] {
            for sources in [&sources, &json!({})] {
                let o = provider_options(sources, lang);
                let out = if adapter == "vercel" { adapters::from_vercel_result(&resp, &o) } else { adapters::from_langchain_message(&resp, &o) }.unwrap();
                for i in &out.issues {
                    issues_met.insert(i.code);
                    check(&format!("{adapter} {response} issue {}", i.code), lang, &i.message, f);
                }
            }
        }
    }
    println!("import issues met: {issues_met:?}");
    assert!(issues_met.len() >= 6, "{issues_met:?}");

    // A request and response of each provider that break their shapes.
    let bad_source = json!({"0": {"sourceId": "not an id", "text": "x"}});
    for provider in ["bedrock", "gemini", "openai", "anthropic"] {
        let e = from_model_response(&json!({}), &json!({}), Some(provider), &provider_options(&bad_source, Lang::En)).unwrap_err();
        coded_both(provider, &e, f);
    }
    coded_both("unknown provider", &from_model_response(&json!({}), &json!({}), Some("nope"), &provider_options(&json!({}), Lang::En)).unwrap_err(), f);
    coded_both("unknown shape", &from_model_response(&json!({}), &json!({}), None, &provider_options(&json!({}), Lang::En)).unwrap_err(), f);

    // Anthropic: every document and citation it refuses.
    let request = json!({"messages": [{"role": "user", "content": [
        {"type": "document", "source": {"type": "text", "data": "Alpha beta. Gamma."}, "title": "Greek"},
        {"type": "document", "source": {"type": "text"}},
        {"type": "document", "source": {"type": "content", "content": [{"type": "image"}]}},
        {"type": "document", "source": {"type": "content"}},
        {"type": "document", "source": {"type": "base64", "data": "JVBERi0="}},
        {"type": "document", "source": {"type": "content", "content": [{"type": "text", "text": "Block."}]}},
    ]}]});
    let cite = |c: Value| json!({"type": "text", "text": "Alpha.", "citations": [c]});
    let response = json!({"type": "message", "content": [
        {"type": "text", "text": "x", "citations": [1]},
        cite(json!({"type": "web_search_result_location", "cited_text": "a"})),
        cite(json!({"type": "char_location", "cited_text": "Alpha"})),
        cite(json!({"type": "char_location", "cited_text": "Alpha", "document_index": 9, "start_char_index": 0, "end_char_index": 5})),
        cite(json!({"type": "page_location", "cited_text": "Alpha", "document_index": 0, "start_page_number": 1, "end_page_number": 2})),
        cite(json!({"type": "char_location", "cited_text": "Alpha", "document_index": 4, "start_char_index": 0, "end_char_index": 5})),
        cite(json!({"type": "char_location", "document_index": 0, "start_char_index": 0, "end_char_index": 5})),
        cite(json!({"type": "char_location", "cited_text": "Block.", "document_index": 5, "start_char_index": 0, "end_char_index": 6})),
        cite(json!({"type": "char_location", "cited_text": "Alpha", "document_index": 0})),
    ]});
    let scope = evidence_check::Scope { tenant_id: "t".into(), user_id: "u".into() };
    let mut a = AnthropicOptions { scope: scope.clone(), source_ids: vec!["not an id".into()], fetched_at: None, uncited_as_gaps: false, policy: Default::default(), title: None };
    let e = from_anthropic_message(&request, &response, &a).unwrap_err();
    assert!(e.violations.len() >= 12, "{e:?}");
    coded_both("anthropic", &e, f);
    coded_both("anthropic shapes", &from_anthropic_message(&json!({}), &json!({}), &a).unwrap_err(), f);
    a.policy.max_response_citations = 1;
    coded_both("anthropic limit", &from_anthropic_message(&request, &response, &a).unwrap_err(), f);

    // The annotation reader: as written, then quote-first against a store.
    let clock = evidence_check::Clock::fixed("2026-11-29T00:00:00+00:00").unwrap();
    let spec = <evidence_check::SourceSpec as evidence_check::Contract>::from_value(&json!({"source_id": "a", "title": "T", "locator": "https://example.com/a", "filename": "a.md", "kind": "public"})).unwrap();
    let mut store = evidence_check::EvidenceStore::new(vec![spec], Default::default(), clock).unwrap();
    store.ingest(&scope, "a", "Plan A. Plan B. Plan A.").unwrap();
    let quote = |exact: &str| json!({"type": "TextQuoteSelector", "exact": exact});
    let at = |s: u64, e: u64| json!({"type": "TextPositionSelector", "start": s, "end": e});
    let state = json!({"type": "SourceRevision", "source_id": "a", "revision": 1, "digest": "0".repeat(64)});
    let id = format!("{ID_PREFIX}c1");
    let own = |selector: Value| json!({"id": id, "target": {"source": "https://example.com/a", "selector": selector, "state": state}});
    let foreign = |selector: Value| json!({"id": "x", "target": {"source": "https://example.com/a", "selector": selector}});
    let written = [
        json!({"id": "x"}),
        json!({"id": id, "target": {}}),
        own(json!(vec![quote("Plan"); MAX_SELECTORS + 1])),
        own(json!([quote("Plan A."), at(0, 7), quote("Plan B.")])),
        own(json!([{"type": "TextQuoteSelector", "exact": "Plan", "refinedBy": at(0, 2)}, at(0, 4)])),
        json!({"id": id, "target": {"source": format!("{SOURCE_PREFIX}b"), "selector": [quote("Plan"), at(0, 4)], "state": state}}),
        own(json!([quote("Plan A."), {"type": "TextPositionSelector", "start": "0", "end": 7}])),
    ];
    for (i, v) in written.iter().enumerate() {
        match from_web_annotation(v) {
            Err(e) => coded_both(&format!("annotation {i}"), &e, f),
            Ok(c) => f.push(format!("annotation {i} was read: {c:?}")),
        }
    }
    let located = [
        json!({"id": "x", "target": {"selector": quote("Plan B.")}}),
        foreign(quote("Plan C.")),
        foreign(quote("Plan A.")),
        foreign(json!({"type": "TextQuoteSelector"})),
        foreign(json!([quote("Plan B."), {"type": "TextPositionSelector", "start": 0, "end": 99, "refinedBy": quote("A")}])),
        foreign(json!({"type": "TextQuoteSelector", "exact": "Plan B.", "refinedBy": at(5, 99)})),
        foreign(json!({"type": "TextQuoteSelector", "exact": "Plan B.", "refinedBy": {"type": "CssSelector", "value": "p"}})),
        foreign(json!([quote("Plan B."), {"type": "RangeSelector", "refinedBy": quote("B")}])),
        foreign(json!([quote("Plan B."), {"type": "TextQuoteSelector", "exact": "Plan A.", "suffix": " Plan B"}])),
        foreign(json!([quote("Plan B."), at(0, 7), at(16, 23)])),
    ];
    for (i, v) in located.iter().enumerate() {
        match from_web_annotation_in(v, &scope, &store, Whitespace::Exact) {
            Err(e) => coded_both(&format!("located annotation {i}"), &e, f),
            Ok(c) => f.push(format!("located annotation {i} was read: {c:?}")),
        }
    }
    for lang in [Lang::En, Lang::Zh] {
        let (_, trims) = drop_edge_surrogates_in(r#"{"prefix": "\udc00a", "suffix": "b\ud800"}"#, lang);
        assert_eq!(trims.len(), 2);
        for t in trims {
            check("context trim", lang, &t.message, f);
        }
    }
    assert!(failures.is_empty(), "{} messages mix the languages:\n{}", failures.len(), failures.join("\n"));
}

// ---- the options' and the policy's texts -------------------------------------------------

#[test]
fn no_option_or_policy_message_mixes_english_and_chinese() {
    use evidence_check::error::{binding_text_zh, BindingError, BINDING_TEXTS};
    use evidence_check::options::{self, from_stringified, from_value, CallOptions};
    use evidence_check::policy::{Policy, PolicyError};
    let mut failures = Vec::new();
    let f = &mut failures;

    // Every argument text the core and the binding write has a template.
    let (mut texts, mut missing) = (0, Vec::new());
    for dir in ["src", "js-api/src"] {
        for path in rust_files(&format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"))) {
            let src = std::fs::read_to_string(&path).unwrap();
            for t in literals_after(&src, &["BindingError::argument(", "BindingError::unicode(", "argument_error("]) {
                texts += 1;
                // `NAME: SERDE` is serde's text at an option's path (walked below).
                if t == "{}: {}" {
                    continue;
                }
                let filled = t.replace("{}", "options.x");
                match binding_text_zh(&filled) {
                    Some(_) => both(&format!("argument {t:?}"), |l| Coded::message(&BindingError::argument(filled.clone()), l), f),
                    None => missing.push(format!("{}: {t:?}", path.display())),
                }
            }
        }
    }
    println!("{texts} argument texts, {} templates", BINDING_TEXTS.len());
    assert!(texts >= 30, "{texts} argument texts: the walk lost its way");
    assert!(missing.is_empty(), "{} argument texts have no Chinese text:\n{}", missing.len(), missing.join("\n"));

    // Options that serde refuses: each wrong type, unknown names and values, by every call.
    let wrong = [json!(1), json!(-1), json!(1.5), json!("x"), json!(true), json!(null), json!([1]), json!({"a": 1})];
    let fields = ["lang", "compat", "dialect", "whitespace", "unit", "reviews", "maxClaims", "sourceIds", "now", "render", "occurrence", "scope", "nope"];
    fn refusals<T: options::Options>(values: &[Value]) -> Vec<options::OptionError> {
        values.iter().filter_map(|v| from_value::<T>(v.clone(), "options").err().map(Into::into)).collect()
    }
    let mut values: Vec<Value> = vec![json!([]), json!("x")];
    for field in fields {
        for w in &wrong {
            values.push(json!({ field: w }));
        }
    }
    values.push(json!({"lang": "fr"}));
    values.push(json!({"lang": {"en": 1}}));
    values.push(json!({"unit": "bytes"}));
    let mut refused = Vec::new();
    refused.extend(refusals::<options::AnthropicOptions>(&values));
    refused.extend(refusals::<options::CheckBundleOptions>(&values));
    refused.extend(refusals::<options::QuoteOptions>(&values));
    refused.extend(refusals::<options::RangeOptions>(&values));
    refused.extend(refusals::<options::RenderOptions>(&values));
    refused.extend(refusals::<options::ParseOptions>(&values));
    refused.extend(refusals::<options::AssessOptions>(&values));
    refused.push(from_stringified::<options::LangOptions>(r#"{"lang":"\ud800"}"#, "options").unwrap_err());
    refused.push(options::catalog_option_keys(&["catalog", "x"]).unwrap_err().into());
    // What the settings refuse: a missing scope, bad sources, an occurrence of 0, an empty key.
    let settings = [
        CallOptions::default().anthropic().unwrap_err(),
        CallOptions::default().provider_import().unwrap_err(),
        CallOptions { scope: Some(json!({"tenant_id": "t", "user_id": "u"})), sources: Some(json!([])), ..Default::default() }.provider_import().unwrap_err(),
        CallOptions { scope: Some(json!({"tenant_id": "t", "user_id": "u"})), sources: Some(json!({"0": {"sourceId": "a"}})), ..Default::default() }.provider_import().unwrap_err(),
        CallOptions { scope: Some(json!({"tenant_id": "t", "user_id": "u"})), sources: Some(json!({"0": {"sourceId": "a", "text": "x", "y": 1}})), ..Default::default() }.provider_import().unwrap_err(),
        CallOptions { occurrence: Some(0), ..Default::default() }.selector("x".into()).unwrap_err().into(),
        CallOptions { review_key: Some(String::new()), ..Default::default() }.review_key().unwrap_err().into(),
        CallOptions { key: Some(String::new()), ..Default::default() }.signing_key().unwrap_err().into(),
        CallOptions { policy: Some(json!("nope")), ..Default::default() }.limits().unwrap_err().into(),
    ];
    refused.extend(settings);
    assert!(refused.len() >= 200, "{} refusals", refused.len());
    for e in &refused {
        coded_both("options", e, f);
    }

    // Every policy the reader refuses: a preset, an object, a field of each type, JSON text.
    let mut policies: Vec<Result<Policy, PolicyError>> = vec![
        Policy::from_json("nope"),
        Policy::from_json("{"),
        Policy::from_json("[1]"),
        Policy::from_json(r#"{"a": 1, "a": 2}"#),
        Policy::from_value(&json!(1)),
        Policy::from_value(&json!({"extends": 1})),
        Policy::from_value(&json!({"extends": "nope"})),
        Policy::from_value(&json!({"nope": 1})),
    ];
    for field in ["max_claims", "kinds", "filename", "identifier", "scope_id"] {
        for w in &wrong {
            policies.push(Policy::from_value(&json!({ field: w })));
        }
    }
    let errors: Vec<PolicyError> = policies.into_iter().filter_map(Result::err).collect();
    assert!(errors.len() >= 40, "{} policy errors", errors.len());
    for e in &errors {
        coded_both("policy", e, f);
    }
    assert!(failures.is_empty(), "{} messages mix the languages:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn json_syntax_errors_are_in_the_language_asked() {
    // Each of serde_json's syntax errors that a reader can meet, as the bundle's summary.
    let texts = [
        "{nope", "{\"a\":", "[1,", "[1 2]", "{\"a\" 1}", "{\"a\":1 \"b\":2}", "[1,]", "{\"a\":1,}", "tru", "\"\\q\"", "-", "1e999999",
        "\"\\ud800\\u\"", "\"\u{1}\"", "{1:2}", "1 2", "\"abc", "{\"a\":1,\"a\":2}", "[", "{",
    ];
    let mut failures = Vec::new();
    for text in texts {
        let e = evidence_check::json::parse_strict(text, 1 << 20, "bundle").expect_err(text);
        both(text, |lang| e.localized(lang).summary(lang), &mut failures);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
