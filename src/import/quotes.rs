//! Quote-only citations: the host locates, never guesses.
//!
//! A draft report's citations may carry only `source_id`, `quote` and optional `prefix`
//! / `suffix` (W3C TextQuoteSelector context) or `occurrence` (1-based). Each is located
//! in the source's current revision by [`crate::store::locate::locate`]. A quote that is absent
//! or stays ambiguous is an issue, and its claim keeps no citation for it (so the claim
//! can only be `insufficient`); the report gets a gap that names it, and
//! [`locate_bundle`] keeps it in an import note with its code, which the check reports. A whitespace-insensitive match happens only with
//! [`Whitespace::Loose`]; such a citation quotes the source's exact text, and the report
//! gets a gap that says so, so the artifact shows it.

use serde::Serialize;
use serde_json::{json, Value};

use crate::bundle::{load_sources, Bundle, BundleError, BundleOptions, BundleSource};
use crate::rules::{is_identifier, ANY_STRING, IDENTIFIER};
use crate::json::{join, join_index, Tape};
use crate::contract::Checker;
use crate::contract::{Contract, Limits, Report, Scope};
use crate::error::{ContractError, Lang};
use crate::store::StoreError;
use crate::import::ImportNote;
use crate::store::locate::{LocateOptions, Selector, Whitespace};
use crate::review::Review;
use crate::store::EvidenceStore;

/// A citation located from its quote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LocatedCitation {
    pub claim_id: String,
    pub citation_id: String,
    pub source_id: String,
    pub start: usize,
    pub end: usize,
    /// The source's exact text at the range (the citation's quote).
    pub quote: String,
    pub whitespace: Whitespace,
}

/// A quote that was not located; its citation was left out of its claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LocateIssue {
    pub claim_id: String,
    /// The draft citation's id, when it had one.
    pub citation_id: Option<String>,
    pub source_id: String,
    /// The draft's quote, as given.
    pub quote: String,
    /// `quote_not_found`, `quote_ambiguous`, or why the source has no current snapshot in
    /// the scope: `source_not_in_scope` (not catalogued), `source_not_ingested`,
    /// `source_removed` (`ref_unavailable` for all three under `compat: "reference"`).
    #[cfg_attr(test, ts(type = "\"quote_not_found\" | \"quote_ambiguous\" | \"source_not_in_scope\" | \"source_not_ingested\" | \"source_removed\" | \"ref_unavailable\""))]
    pub code: &'static str,
    pub message: String,
    /// How many times the quote occurs (after context filtering for an ambiguity).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub count: Option<usize>,
    /// The first code-point ranges of an ambiguous quote.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(test, ts(optional = nullable))]
    pub ranges: Vec<[usize; 2]>,
}

/// What [`locate_citations`] found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LocateResult {
    #[cfg_attr(test, ts(type = "ParsedReport"))]
    pub report: Report,
    pub located: Vec<LocatedCitation>,
    pub issues: Vec<LocateIssue>,
}

/// The gap a loosely located citation adds to the report.
pub fn loose_gap(citation_id: &str, source_id: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("引用 {citation_id} 按宽松空白定位于来源 {source_id}:草稿引文与原文的空白不同,引文已取原文。"),
        Lang::En => format!("Citation {citation_id} was located in source {source_id} ignoring whitespace: the draft's quote differs from the source in whitespace; the source's exact text is quoted."),
    }
}

/// The gap an unlocated quote adds to the report, so the artifact shows it: the claim,
/// the citation (when the draft named it), why, and the quote (its first 80 code points).
pub fn unlocated_gap(issue: &LocateIssue, lang: Lang) -> String {
    let quote = &issue.quote;
    let mut excerpt: String = quote.chars().take(80).collect();
    if excerpt.len() < quote.len() {
        excerpt.push('…');
    }
    let why = crate::bundle::unlocated_message(issue.code, &issue.source_id, lang);
    let claim = &issue.claim_id;
    match (&issue.citation_id, lang) {
        (Some(id), Lang::En) => format!("Claim {claim}, citation {id}: {why} ({}); quote: \"{excerpt}\"", issue.code),
        (None, Lang::En) => format!("Claim {claim}: {why} ({}); quote: \"{excerpt}\"", issue.code),
        (Some(id), Lang::Zh) => format!("论断 {claim} 的引用 {id}:{why}({});引文:“{excerpt}”", issue.code),
        (None, Lang::Zh) => format!("论断 {claim}:{why}({});引文:“{excerpt}”", issue.code),
    }
}

/// A quote-only draft citation.
struct Draft {
    citation_id: Option<String>,
    source_id: String,
    selector: Selector,
}

fn draft_citation(c: &mut Checker, v: &Value, path: &str) -> Option<Draft> {
    let before = c.count();
    let tape = Tape::from_value(v);
    let m = c.object(tape.root(), path, crate::contract::DRAFT_CITATION_FIELDS)?;
    let citation_id = m.get("citation_id").map(|v| c.string(v, &join(path, "citation_id"), &IDENTIFIER));
    let source_id = c.string_field(m, path, "source_id", &IDENTIFIER);
    let quote = c.string_field(m, path, "quote", &crate::contract::QUOTE_RULE);
    let prefix = m.get("prefix").map(|v| c.string(v, &join(path, "prefix"), &ANY_STRING));
    let suffix = m.get("suffix").map(|v| c.string(v, &join(path, "suffix"), &ANY_STRING));
    let occurrence = m.get("occurrence").map(|v| c.int(v, &join(path, "occurrence"), 1));
    if c.count() != before {
        return None;
    }
    Some(Draft {
        citation_id: citation_id.flatten(),
        source_id: source_id?,
        selector: Selector {
            exact: quote?,
            prefix: prefix.flatten(),
            suffix: suffix.flatten(),
            occurrence: occurrence.flatten().and_then(|n| usize::try_from(n).ok()),
        },
    })
}

/// Locates every quote-only citation of `draft` (a report whose citations may be
/// quote-only) in the store's current snapshots in `scope`. Full citations pass as they
/// are. The located report is checked against the report contract with `limits`.
pub fn locate_citations(
    scope: &Scope,
    draft: &Value,
    store: &EvidenceStore,
    whitespace: Whitespace,
    lang: Lang,
    limits: &Limits,
) -> Result<LocateResult, ContractError> {
    let mut c = Checker::default();
    let mut out = draft.clone();
    let mut located = Vec::new();
    let mut issues = Vec::new();
    let mut loose_gaps = Vec::new();
    // Ids already used by full citations or given in the draft, so generated ones are new.
    let mut used: std::collections::BTreeSet<String> = std::collections::BTreeSet::default();
    let claims_in = draft.get("claims").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    for claim in claims_in {
        for cite in claim.get("citations").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]) {
            if let Some(id) = cite.get("citation_id").and_then(Value::as_str) {
                used.insert(id.to_owned());
            }
        }
    }
    let mut next = 0usize;
    if let Some(claims) = out.get_mut("claims").and_then(Value::as_array_mut) {
        for (i, claim) in claims.iter_mut().enumerate() {
            let claim_id = claim.get("claim_id").and_then(Value::as_str).unwrap_or("").to_owned();
            let Some(citations) = claim.get_mut("citations").and_then(Value::as_array_mut) else { continue };
            let mut kept = Vec::with_capacity(citations.len());
            for (k, cite) in citations.drain(..).enumerate() {
                let path = join_index(&join(&join_index("/claims", i), "citations"), k);
                if !cite.is_object() || cite.get("ref").is_some() {
                    kept.push(cite);
                    continue;
                }
                let Some(d) = draft_citation(&mut c, &cite, &path) else { continue };
                let options = LocateOptions { whitespace, ..LocateOptions::default() };
                match store.locate_current(scope, &d.source_id, &d.selector, options) {
                    Ok((snapshot, found)) => {
                        // Only a located citation gets an id (q1, q2, … not used in the draft).
                        let citation_id = d.citation_id.clone().unwrap_or_else(|| loop {
                            next += 1;
                            let id = format!("q{next}");
                            if !used.contains(&id) {
                                break id;
                            }
                        });
                        if found.whitespace == Whitespace::Loose {
                            loose_gaps.push(loose_gap(&citation_id, &d.source_id, lang));
                        }
                        kept.push(json!({
                            "citation_id": citation_id,
                            "ref": snapshot.source_ref,
                            "start": found.start,
                            "end": found.end,
                            "quote": found.text,
                        }));
                        located.push(LocatedCitation {
                            claim_id: claim_id.clone(),
                            citation_id,
                            source_id: d.source_id,
                            start: found.start,
                            end: found.end,
                            quote: found.text,
                            whitespace: found.whitespace,
                        });
                    }
                    Err(e) => {
                        let found = issue(&claim_id, d.citation_id, &d.source_id, &d.selector.exact, &e, lang);
                        loose_gaps.push(unlocated_gap(&found, lang));
                        issues.push(found);
                    }
                }
            }
            *citations = kept;
        }
    }
    if !c.violations.is_empty() {
        return Err(ContractError { subject: "draft", violations: c.violations });
    }
    if !loose_gaps.is_empty() {
        if let Some(m) = out.as_object_mut() {
            let gaps = m.entry("gaps").or_insert_with(|| Value::Array(Vec::new()));
            if let Some(g) = gaps.as_array_mut() {
                g.extend(loose_gaps.into_iter().map(Value::String));
            }
        }
    }
    let report = Report::from_value_with(&out, limits)?;
    Ok(LocateResult { report, located, issues })
}

fn issue(claim_id: &str, citation_id: Option<String>, source_id: &str, quote: &str, e: &StoreError, lang: Lang) -> LocateIssue {
    let (message, count, ranges) = match e {
        StoreError::Locate(l) => (l.message_in(lang), l.count(), l.ranges().iter().map(|(s, e)| [*s, *e]).collect()),
        StoreError::Store(k) => (
            match lang {
                Lang::Zh => format!("{}(来源 {source_id} 在此范围内没有当前版本)", k.message()),
                Lang::En => format!("{} (source {source_id} has no current revision in this scope)", k.message_in(lang)),
            },
            None,
            Vec::new(),
        ),
        StoreError::Contract(c) => (crate::error::Coded::message(c, lang), None, Vec::new()),
        StoreError::Detailed(..) => (e.message_in(lang), None, Vec::new()),
    };
    LocateIssue { claim_id: claim_id.to_owned(), citation_id, source_id: source_id.to_owned(), quote: quote.to_owned(), code: e.code(), message, count, ranges }
}

/// What [`locate_bundle`] made: the bundle with located citations, and what was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LocatedBundle {
    #[cfg_attr(test, ts(type = "ParsedBundle"))]
    pub bundle: Bundle,
    pub located: Vec<LocatedCitation>,
    pub issues: Vec<LocateIssue>,
}

/// Locates the quote-only citations of a draft bundle (a bundle whose report is a
/// draft) against its own sources; every located citation gets an import note.
pub fn locate_bundle(draft: &Value, options: &BundleOptions, whitespace: Whitespace) -> Result<LocatedBundle, BundleError> {
    let mut c = Checker::new(options.policy.clone(), Default::default());
    let fail = |c: Checker| BundleError::Contract(crate::contract::with_raise_hints(ContractError { subject: "draft_bundle", violations: c.violations }, &options.policy));
    let tape = Tape::from_value(draft);
    let Some(m) = c.object(tape.root(), "", &["scope", "sources", "report", "reviews", "import_notes"]) else { return Err(fail(c)) };
    let scope = c.required(m, "", "scope").and_then(|s| Scope::check(&mut c, s, "/scope"));
    let sources = c.required(m, "", "sources").and_then(|s| c.list(s, "/sources", 0, usize::MAX, BundleSource::check));
    let report = c.required(m, "", "report").map(Value::from);
    let reviews = c.list_or(m, "", "reviews", usize::MAX, Review::check);
    let notes = c.list_or(m, "", "import_notes", usize::MAX, ImportNote::check);
    let (Some(scope), Some(sources), Some(report), Some(reviews), Some(mut import_notes)) = (scope, sources, report, reviews, notes) else {
        return Err(fail(c));
    };
    if !c.violations.is_empty() {
        return Err(fail(c));
    }
    let store = load_sources(&scope, &sources, options)?;
    let found = locate_citations(&scope, &report, &store, whitespace, options.lang, &options.policy).map_err(|mut e| {
        for v in &mut e.violations {
            v.path = format!("/report{}", v.path);
        }
        BundleError::Contract(e)
    })?;
    import_notes.extend(found.located.iter().filter(|l| is_identifier(&l.citation_id)).map(|l| ImportNote {
        importer: "locate".into(),
        citation_id: Some(l.citation_id.clone()),
        whitespace: Some(match l.whitespace {
            Whitespace::Exact => "exact".into(),
            Whitespace::Loose => "loose".into(),
        }),
        ..ImportNote::default()
    }));
    // Every unlocated quote stays in the bundle: a note names its claim, source, code and
    // quote (the check reports it; the report's gap shows it in the artifact).
    import_notes.extend(found.issues.iter().map(|i| ImportNote {
        importer: "locate".into(),
        citation_id: i.citation_id.clone(),
        source_id: Some(i.source_id.clone()),
        claim_id: Some(i.claim_id.clone()),
        code: Some(i.code.to_owned()),
        quote: Some(i.quote.clone()),
        ..ImportNote::default()
    }));
    Ok(LocatedBundle {
        bundle: Bundle { scope, sources, report: found.report, reviews, import_notes },
        located: found.located,
        issues: found.issues,
    })
}
