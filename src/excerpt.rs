//! Line-anchored excerpt claims (the second design article): a claim copied from a
//! document must be exactly the line it names, in the version it names; and an answer
//! must not silently drop the facts it was required to give.
//!
//! Unlike sources in the evidence store, a document's digest is over its body exactly
//! as given (no newline normalisation), and lines are enumerated as Python's
//! `str.splitlines()` does.

use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

use crate::json::{join, Node, Object};
use crate::rules::{sized, IDENTIFIER};
use crate::contract::Checker;
use crate::contract::Contract;
use crate::digest::sha256_hex;
use crate::error::{ContractError, ViolationCode};

/// A frozen document: an item card.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Document {
    pub id: String,
    pub title: String,
    pub body: String,
}

impl Document {
    /// Hex SHA-256 of the body's UTF-8 bytes, exactly as given.
    pub fn sha256(&self) -> String {
        sha256_hex(&self.body)
    }
}

impl Contract for Document {
    const SUBJECT: &'static str = "document";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let m = c.object(v, path, &["id", "title", "body"])?;
        Document::fields(c, m, path)
    }
}

impl Document {
    /// The document's fields of an object already checked for unknown keys.
    pub(crate) fn fields(c: &mut Checker, m: Object<'_>, path: &str) -> Option<Document> {
        let before = c.count();
        let id = c.string_field(m, path, "id", &IDENTIFIER);
        let title = c.string_field(m, path, "title", &sized(0, 1000));
        let body = c.string_field(m, path, "body", &sized(0, usize::MAX));
        if c.count() != before {
            return None;
        }
        Some(Document { id: id?, title: title?, body: body? })
    }
}

/// Documents with unique ids, checked as one list.
pub fn documents_from_value(v: &Value) -> Result<Vec<Document>, ContractError> {
    crate::contract::list_from_value(v, "documents", Document::check, |c, docs| {
        let mut seen = BTreeSet::default();
        for (i, d) in docs.iter().enumerate() {
            if !seen.insert(d.id.as_str()) {
                c.push(&join(&format!("/{i}"), "id"), ViolationCode::DuplicateDocumentId, format!("document id '{}' is used twice", d.id));
            }
        }
    })
}

/// A claim that quotes one line of one document version.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ExcerptClaim {
    pub item_id: String,
    pub sha256: String,
    /// 1-based line number.
    pub line: i64,
    /// The whole line, `"- "` included.
    pub quote: String,
    /// The line without its `"- "`.
    pub text: String,
}

impl Contract for ExcerptClaim {
    const SUBJECT: &'static str = "excerpt_claim";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["item_id", "sha256", "line", "quote", "text"])?;
        let any = sized(0, usize::MAX);
        let item_id = c.string_field(m, path, "item_id", &any);
        let sha256 = c.string_field(m, path, "sha256", &any);
        let line = c.required(m, path, "line").and_then(|l| match l.as_i64() {
            Some(n) => Some(n),
            None => {
                c.push(&join(path, "line"), ViolationCode::WrongType, "Input should be a whole number");
                None
            }
        });
        let quote = c.string_field(m, path, "quote", &any);
        let text = c.string_field(m, path, "text", &any);
        if c.count() != before {
            return None;
        }
        Some(ExcerptClaim { item_id: item_id?, sha256: sha256?, line: line?, quote: quote?, text: text? })
    }
}

/// Excerpt claims, checked as one list.
pub fn claims_from_value(v: &Value) -> Result<Vec<ExcerptClaim>, ContractError> {
    crate::contract::list_from_value(v, "claims", ExcerptClaim::check, |_, _| {})
}

/// Python's `str.splitlines()`: splits on `\n`, `\r`, `\r\n`, `\v`, `\f`, `\x1c`,
/// `\x1d`, `\x1e`, `\x85`, U+2028 and U+2029; no empty line after a final break.
pub fn splitlines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let is_break = matches!(c, '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}' | '\u{1d}' | '\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}');
        if !is_break {
            continue;
        }
        lines.push(text.get(start..i).unwrap_or(""));
        let mut next = i + c.len_utf8();
        if c == '\r' {
            if let Some((_, '\n')) = chars.peek() {
                chars.next();
                next += 1;
            }
        }
        start = next;
    }
    if start < text.len() {
        lines.push(text.get(start..).unwrap_or(""));
    }
    lines
}

/// The prefix that marks a fact line.
pub const BULLET: &str = "- ";

/// One claim per body line that starts with `"- "`.
pub fn extract_excerpts(doc: &Document) -> Vec<ExcerptClaim> {
    let sha256 = doc.sha256();
    splitlines(&doc.body)
        .into_iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let text = line.strip_prefix(BULLET)?;
            Some(ExcerptClaim {
                item_id: doc.id.clone(),
                sha256: sha256.clone(),
                line: i64::try_from(i).ok()? + 1,
                quote: line.to_owned(),
                text: text.to_owned(),
            })
        })
        .collect()
}

/// Why an excerpt claim is not supported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum ExcerptReason {
    /// No document has the claim's `item_id`.
    UnknownItem,
    /// The claim's `sha256` is not the document's current digest.
    StaleDigest,
    /// `line` is not between 1 and the number of lines.
    LineOutOfRange,
    /// The line at `line` is not exactly `quote`.
    QuoteNotAtLine,
    /// `quote` is not exactly `"- "` followed by `text`.
    TextDoesNotMatchQuote,
}

impl ExcerptReason {
    pub fn code(self) -> &'static str {
        match self {
            Self::UnknownItem => "unknown_item",
            Self::StaleDigest => "stale_digest",
            Self::LineOutOfRange => "line_out_of_range",
            Self::QuoteNotAtLine => "quote_not_at_line",
            Self::TextDoesNotMatchQuote => "text_does_not_match_quote",
        }
    }
}

/// The result of checking one excerpt claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ExcerptCheck {
    pub supported: bool,
    /// `null` when supported.
    pub reason: Option<ExcerptReason>,
}

/// Documents indexed by id, each with its digest and lines computed once.
pub struct Library<'d> {
    docs: BTreeMap<&'d str, (&'d Document, String, Vec<&'d str>)>,
}

impl<'d> Library<'d> {
    pub fn new(documents: impl IntoIterator<Item = &'d Document>) -> Self {
        Self::with_digests(documents.into_iter().map(|d| (d, d.sha256())))
    }

    /// Documents whose digests are already known (a catalogue's frozen ones).
    pub fn with_digests(documents: impl IntoIterator<Item = (&'d Document, String)>) -> Self {
        // Extended (a later id wins, as in a collected map), not collected: a map collected
        // from an iterator compiles a sort of its own.
        let mut docs = BTreeMap::new();
        docs.extend(documents.into_iter().map(|(d, sha)| (d.id.as_str(), (d, sha, splitlines(&d.body)))));
        Library { docs }
    }

    pub fn document(&self, id: &str) -> Option<&'d Document> {
        self.docs.get(id).map(|(d, _, _)| *d)
    }

    /// Supported only when the document exists, the digest matches, `line - 1` is a
    /// valid index, that line equals `quote`, and `quote == "- " + text`. Exact
    /// comparison: no Unicode normalisation, no fuzzy match.
    pub fn check(&self, claim: &ExcerptClaim) -> ExcerptCheck {
        let fail = |reason| ExcerptCheck { supported: false, reason: Some(reason) };
        let Some((_, sha, lines)) = self.docs.get(claim.item_id.as_str()) else {
            return fail(ExcerptReason::UnknownItem);
        };
        if *sha != claim.sha256 {
            return fail(ExcerptReason::StaleDigest);
        }
        let line = claim.line.checked_sub(1).and_then(|i| usize::try_from(i).ok()).and_then(|i| lines.get(i));
        let Some(line) = line else {
            return fail(ExcerptReason::LineOutOfRange);
        };
        if *line != claim.quote {
            return fail(ExcerptReason::QuoteNotAtLine);
        }
        if claim.quote.strip_prefix(BULLET) != Some(claim.text.as_str()) {
            return fail(ExcerptReason::TextDoesNotMatchQuote);
        }
        ExcerptCheck { supported: true, reason: None }
    }

    /// The facts an answer about `item_id` must give: `(line, quote)` of every bullet
    /// line, read from the document's own lines (not from [`extract_excerpts`]).
    pub fn required(&self, item_id: &str) -> BTreeSet<(i64, &'d str)> {
        let Some((_, _, lines)) = self.docs.get(item_id) else { return BTreeSet::default() };
        let mut required = BTreeSet::default();
        let mut number: i64 = 0;
        for line in lines {
            number += 1;
            if line.starts_with(BULLET) {
                required.insert((number, *line));
            }
        }
        required
    }
}

/// Checks one claim against the documents.
pub fn check_excerpt(documents: &[Document], claim: &ExcerptClaim) -> ExcerptCheck {
    Library::new(documents).check(claim)
}

/// What an answer's status asks of its claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum AnswerStatus {
    Info,
    Reserved,
    Insufficient,
    NotFound,
    Denied,
    Abstain,
    Unconfirmed,
}

impl AnswerStatus {
    pub const ALL: [(&'static str, AnswerStatus); 7] = [
        ("info", Self::Info),
        ("reserved", Self::Reserved),
        ("insufficient", Self::Insufficient),
        ("not_found", Self::NotFound),
        ("denied", Self::Denied),
        ("abstain", Self::Abstain),
        ("unconfirmed", Self::Unconfirmed),
    ];

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == s).map(|(_, v)| *v)
    }

    /// A status given as the argument `status`, or `invalid_argument` listing the names.
    pub fn from_arg(s: &str) -> Result<Self, crate::error::BindingError> {
        Self::parse(s).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|(n, _)| *n).collect();
            crate::error::BindingError::argument(format!("status must be one of {}", names.join(", ")))
        })
    }

    pub fn as_str(self) -> &'static str {
        Self::ALL.iter().find(|(_, v)| *v == self).map_or("", |(n, _)| n)
    }

    /// `info`, `reserved` and `insufficient` must give every fact of the item's
    /// document; the others need no document facts and must give none.
    pub fn needs_facts(self) -> bool {
        matches!(self, Self::Info | Self::Reserved | Self::Insufficient)
    }
}

/// Support and completeness of an answer's claims, as separate gates.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Evaluation {
    /// `supported / total`; `null` for an empty list, never 1.
    pub support_rate: Option<f64>,
    pub supported: usize,
    pub total: usize,
    /// Required facts given by a supported claim (after de-duplication).
    pub covered: usize,
    pub required: usize,
    /// `covered / required`; `null` when the status needs no document facts.
    pub coverage: Option<f64>,
    /// Claims repeating an earlier `(item_id, line, quote)`.
    pub duplicates: usize,
    pub support_pass: bool,
    pub completeness_pass: bool,
    pub duplicates_pass: bool,
    pub passed: bool,
}

/// Evaluates an answer's claims about `item_id` given `status`.
pub fn evaluate_claims(documents: &[Document], item_id: &str, claims: &[ExcerptClaim], status: AnswerStatus) -> Evaluation {
    evaluate_claims_in(&Library::new(documents), item_id, claims, status)
}

/// [`evaluate_claims`] against indexed documents (a document list or a catalogue).
///
/// A claim counts toward coverage only when it is supported: a claim whose
/// `(item_id, line, quote)` is a required fact but whose digest is stale gives no
/// fact of the current version (docs/outcomes.md, reading 1).
pub fn evaluate_claims_in(library: &Library<'_>, item_id: &str, claims: &[ExcerptClaim], status: AnswerStatus) -> Evaluation {
    let checks: Vec<bool> = claims.iter().map(|c| library.check(c).supported).collect();
    let supported = checks.iter().filter(|s| **s).count();
    let total = claims.len();
    let mut seen = BTreeSet::default();
    let mut duplicates = 0;
    let mut covered_keys = BTreeSet::default();
    let required_set = library.required(item_id);
    for (claim, ok) in claims.iter().zip(&checks) {
        if !seen.insert((claim.item_id.as_str(), claim.line, claim.quote.as_str())) {
            duplicates += 1;
            continue;
        }
        if *ok && claim.item_id == item_id && required_set.contains(&(claim.line, claim.quote.as_str())) {
            covered_keys.insert((claim.line, claim.quote.as_str()));
        }
    }
    let support_pass = supported == total;
    let (required, covered, coverage, completeness_pass) = if status.needs_facts() {
        let required = required_set.len();
        let covered = covered_keys.len();
        let coverage = (required > 0).then(|| covered as f64 / required as f64);
        (required, covered, coverage, required > 0 && covered == required)
    } else {
        (0, 0, None, claims.is_empty())
    };
    let duplicates_pass = duplicates == 0;
    Evaluation {
        support_rate: (total > 0).then(|| supported as f64 / total as f64),
        supported,
        total,
        covered,
        required,
        coverage,
        duplicates,
        support_pass,
        completeness_pass,
        duplicates_pass,
        passed: support_pass && completeness_pass && duplicates_pass,
    }
}
