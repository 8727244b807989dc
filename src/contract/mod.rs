//! The data contracts: what a report, a citation, a source spec and a scope must be.
//!
//! Every type is checked from a JSON value by [`Contract::from_value`] (or from text by
//! [`Contract::from_json`]), which lists every violation with its JSON path. The rules are
//! the reference's: unknown fields rejected, no coercion, identifier/filename/digest
//! patterns, lengths in code points, list limits and cross-field rules.

pub mod json;
pub mod validate;

use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

use crate::error::{ContractError, ViolationCode};
use crate::visible::is_blank;
use validate::{join, sized, Checker, DIGEST, FILENAME, IDENTIFIER};

/// The list and size limits of the contracts. The defaults are the reference's; a host
/// may raise them (for example to check large generated reports).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Claims in a report (reference: 12).
    pub max_claims: usize,
    /// Citations in one claim (reference: 4).
    pub max_citations: usize,
    /// Conflicts in a report (reference: 6).
    pub max_conflicts: usize,
    /// Gaps in a report (reference: 8).
    pub max_gaps: usize,
    /// Size of a JSON input in bytes, checked before parsing (16 MiB).
    pub max_input_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_claims: 12, max_citations: 4, max_conflicts: 6, max_gaps: 8, max_input_bytes: json::DEFAULT_MAX_INPUT_BYTES }
    }
}
impl Limits {
    /// About how many array items and object entries the largest report these limits
    /// accept holds (a claim: 6 and 10 per citation; a conflict: 7; a gap: 1), plus room
    /// for a bundle's scope, sources and reviews: the JSON reader keeps at least this many.
    pub fn values_needed(&self) -> usize {
        let claims = self.max_claims.saturating_mul(self.max_citations.saturating_mul(10).saturating_add(6));
        claims.saturating_add(self.max_conflicts.saturating_mul(7)).saturating_add(self.max_gaps).saturating_add(1024)
    }
}

/// Maximum code points of a read result's content.
pub const MAX_READ_CONTENT_CHARS: usize = 24_000;

/// A type with a contract that can be checked from JSON.
pub trait Contract: Sized {
    /// What the type is called in errors (`report`, `citation`…).
    const SUBJECT: &'static str;

    /// Checks `v`, pushing every violation (paths below `path`) into `c`.
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self>;

    /// Checks a JSON value with the default limits.
    fn from_value(v: &Value) -> Result<Self, ContractError> {
        Self::from_value_with(v, &Limits::default())
    }

    /// Checks a JSON value with the given limits.
    fn from_value_with(v: &Value, limits: &Limits) -> Result<Self, ContractError> {
        checked(v, Checker::new(*limits, HashMap::new()), None)
    }

    /// Parses and checks JSON text (duplicate keys refused) with the default limits.
    fn from_json(text: &str) -> Result<Self, ContractError> {
        Self::from_json_with(text, &Limits::default())
    }

    /// Parses and checks JSON text with the given limits.
    fn from_json_with(text: &str, limits: &Limits) -> Result<Self, ContractError> {
        let read = json::read_bounded(text, limits.max_input_bytes, limits.values_needed(), Self::SUBJECT)?;
        let cut = read.truncated().then(|| read.truncation_violation());
        checked(&read.value, Checker::new(*limits, read.lengths), cut)
    }
}

/// Checks `v` with `c`; `cut` (the reader kept only part of the input) is added last, so
/// a cut input is always refused, after the real lengths of the lists it cut were checked.
fn checked<T: Contract>(v: &Value, mut c: Checker, cut: Option<crate::error::Violation>) -> Result<T, ContractError> {
    let t = T::check(&mut c, v, "");
    if let Some(cut) = cut {
        c.push(&cut.path, cut.code, cut.message);
    }
    match t {
        Some(t) if c.violations.is_empty() => Ok(t),
        _ => Err(ContractError { subject: T::SUBJECT, violations: c.violations }),
    }
}

/// Runs `build` only when checking the object's own fields added no violation, as the
/// reference runs a model's cross-field rules only on valid fields.
fn finish<T>(c: &Checker, before: usize, build: impl FnOnce() -> Option<T>) -> Option<T> {
    if c.count() == before {
        build()
    } else {
        None
    }
}

/// Whose data this is: one tenant's user never sees another's snapshots or reviews.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Scope {
    pub tenant_id: String,
    pub user_id: String,
}

impl Contract for Scope {
    const SUBJECT: &'static str = "scope";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["tenant_id", "user_id"])?;
        let tenant_id = c.string_field(m, path, "tenant_id", &IDENTIFIER);
        let user_id = c.string_field(m, path, "user_id", &IDENTIFIER);
        finish(c, before, || Some(Scope { tenant_id: tenant_id?, user_id: user_id? }))
    }
}

/// Whether a source is made-up test material or a public document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    Fixture,
    Public,
}

impl SourceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fixture => "fixture",
            Self::Public => "public",
        }
    }
}

/// One entry of the host's trusted catalogue of sources.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceSpec {
    pub source_id: String,
    pub title: String,
    pub locator: String,
    pub filename: String,
    pub kind: SourceKind,
}

impl Contract for SourceSpec {
    const SUBJECT: &'static str = "source_spec";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["source_id", "title", "locator", "filename", "kind"])?;
        let source_id = c.string_field(m, path, "source_id", &IDENTIFIER);
        let title = c.string_field(m, path, "title", &sized(1, 120));
        let locator = c.string_field(m, path, "locator", &sized(1, 300));
        let filename = c.string_field(m, path, "filename", &FILENAME);
        let kind = c.literal_field(m, path, "kind", &[("fixture", SourceKind::Fixture), ("public", SourceKind::Public)]);
        finish(c, before, || {
            Some(SourceSpec { source_id: source_id?, title: title?, locator: locator?, filename: filename?, kind: kind? })
        })
    }
}

/// Names one revision of one source by its digest.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SourceRef {
    pub source_id: String,
    pub revision: u64,
    pub digest: String,
}

impl Contract for SourceRef {
    const SUBJECT: &'static str = "source_ref";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["source_id", "revision", "digest"])?;
        let source_id = c.string_field(m, path, "source_id", &IDENTIFIER);
        let revision = c.int_field(m, path, "revision", 1);
        let digest = c.string_field(m, path, "digest", &DIGEST);
        finish(c, before, || Some(SourceRef { source_id: source_id?, revision: revision?, digest: digest? }))
    }
}

/// The payload of a successful read: the file's name and text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadPayload {
    pub filename: String,
    pub content: String,
}

impl Contract for ReadPayload {
    const SUBJECT: &'static str = "read_payload";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["filename", "content"])?;
        let filename = c.string_field(m, path, "filename", &FILENAME);
        let content = c.string_field(m, path, "content", &sized(1, MAX_READ_CONTENT_CHARS));
        finish(c, before, || Some(ReadPayload { filename: filename?, content: content? }))
    }
}

/// A read tool's business result (`status` is always `ok`; failures never reach ingest).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadResult {
    pub status: &'static str,
    pub message: String,
    pub data: ReadPayload,
}

impl Contract for ReadResult {
    const SUBJECT: &'static str = "read_result";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["status", "message", "data"])?;
        let status = c.literal_field(m, path, "status", &[("ok", "ok")]);
        let message = c.string_or(m, path, "message", &sized(0, 1000));
        let data = c.required(m, path, "data").and_then(|d| ReadPayload::check(c, d, &join(path, "data")));
        finish(c, before, || Some(ReadResult { status: status?, message: message?, data: data? }))
    }
}

/// A passage of one source revision: half-open code-point range `[start, end)` of the
/// LF-normalised text, and the exact text found there.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Citation {
    pub citation_id: String,
    #[serde(rename = "ref")]
    pub source_ref: SourceRef,
    pub start: u64,
    pub end: u64,
    pub quote: String,
}

/// The limits on a citation's quote, in code points.
pub const QUOTE_RULE: validate::StrRule = sized(1, 800);

impl Contract for Citation {
    const SUBJECT: &'static str = "citation";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["citation_id", "ref", "start", "end", "quote"])?;
        let citation_id = c.string_field(m, path, "citation_id", &IDENTIFIER);
        let source_ref = c.required(m, path, "ref").and_then(|r| SourceRef::check(c, r, &join(path, "ref")));
        let start = c.int_field(m, path, "start", 0);
        let end = c.int_field(m, path, "end", 1);
        let quote = c.string_field(m, path, "quote", &QUOTE_RULE);
        let citation = finish(c, before, || {
            Some(Citation { citation_id: citation_id?, source_ref: source_ref?, start: start?, end: end?, quote: quote? })
        })?;
        if citation.end <= citation.start {
            c.rule(path, ViolationCode::EmptyRange);
            return None;
        }
        Some(citation)
    }
}

/// Whether a claim restates a source (`fact`) or is derived from sources (`inference`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimKind {
    Fact,
    Inference,
}

impl ClaimKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fact => "fact",
            Self::Inference => "inference",
        }
    }
}

/// One claim of a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Claim {
    pub claim_id: String,
    pub text: String,
    pub kind: ClaimKind,
    pub rationale: String,
    pub citations: Vec<Citation>,
}

impl Contract for Claim {
    const SUBJECT: &'static str = "claim";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["claim_id", "text", "kind", "rationale", "citations"])?;
        let claim_id = c.string_field(m, path, "claim_id", &IDENTIFIER);
        let text = c.string_field(m, path, "text", &sized(1, 1000));
        let kind = c.literal_field(m, path, "kind", &[("fact", ClaimKind::Fact), ("inference", ClaimKind::Inference)]);
        let rationale = c.string_or(m, path, "rationale", &sized(0, 1000));
        let citations = c.list_or(m, path, "citations", c.limits.max_citations, Citation::check);
        let claim = finish(c, before, || {
            Some(Claim { claim_id: claim_id?, text: text?, kind: kind?, rationale: rationale?, citations: citations? })
        })?;
        if is_blank(&claim.text) || (claim.kind == ClaimKind::Inference && is_blank(&claim.rationale)) {
            c.rule(path, ViolationCode::BlankClaim);
            return None;
        }
        Some(claim)
    }
}

/// Claims that the report itself says disagree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Conflict {
    pub claim_ids: Vec<String>,
    pub reason: String,
}

impl Contract for Conflict {
    const SUBJECT: &'static str = "conflict";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["claim_ids", "reason"])?;
        let claim_ids = c
            .required(m, path, "claim_ids")
            .and_then(|ids| c.list(ids, &join(path, "claim_ids"), 2, 4, |c, v, p| c.string(v, p, &IDENTIFIER)));
        let reason = c.string_field(m, path, "reason", &sized(1, 1000));
        finish(c, before, || Some(Conflict { claim_ids: claim_ids?, reason: reason? }))
    }
}

/// A candidate report written by a model: claims with citations, conflicts, gaps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    pub title: String,
    pub claims: Vec<Claim>,
    pub conflicts: Vec<Conflict>,
    pub gaps: Vec<String>,
}

impl Report {
    /// The claim with this id.
    pub fn claim(&self, claim_id: &str) -> Option<&Claim> {
        self.claims.iter().find(|c| c.claim_id == claim_id)
    }

    /// The report's cross-field rules; every violation is reported at the report's root,
    /// as the reference does.
    fn check_links(&self, c: &mut Checker, path: &str) -> bool {
        let before = c.count();
        let ids: HashSet<&str> = self.claims.iter().map(|cl| cl.claim_id.as_str()).collect();
        if ids.len() != self.claims.len() {
            c.rule(path, ViolationCode::DuplicateClaimId);
        }
        let mut seen: HashMap<&str, &Citation> = HashMap::new();
        for claim in &self.claims {
            let local: HashSet<&str> = claim.citations.iter().map(|ci| ci.citation_id.as_str()).collect();
            if local.len() != claim.citations.len() {
                c.rule(path, ViolationCode::DuplicateCitationInClaim);
            }
            for citation in &claim.citations {
                let previous = *seen.entry(&citation.citation_id).or_insert(citation);
                if previous != citation {
                    c.rule(path, ViolationCode::CitationIdConflict);
                }
            }
        }
        for conflict in &self.conflicts {
            let members: HashSet<&str> = conflict.claim_ids.iter().map(String::as_str).collect();
            if members.len() != conflict.claim_ids.len() {
                c.rule(path, ViolationCode::DuplicateConflictMember);
            }
            if !members.is_subset(&ids) {
                c.rule(path, ViolationCode::UnknownConflictMember);
            }
        }
        c.count() == before
    }
}

impl Contract for Report {
    const SUBJECT: &'static str = "report";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m: &Map<String, Value> = c.object(v, path, &["title", "claims", "conflicts", "gaps"])?;
        let title = c.string_field(m, path, "title", &sized(1, 120));
        let claims = c
            .required(m, path, "claims")
            .and_then(|cl| c.list(cl, &join(path, "claims"), 1, c.limits.max_claims, Claim::check));
        let conflicts = c.list_or(m, path, "conflicts", c.limits.max_conflicts, Conflict::check);
        let gaps = c.list_or(m, path, "gaps", c.limits.max_gaps, |c, v, p| c.string(v, p, &sized(1, 1000)));
        let report = finish(c, before, || {
            Some(Report { title: title?, claims: claims?, conflicts: conflicts?, gaps: gaps? })
        })?;
        report.check_links(c, path).then_some(report)
    }
}

/// Checks a JSON array item by item (paths `/0`, `/1`, …), then runs `whole` over the
/// items when every item was valid (for rules across items, such as unique ids).
/// `subject` names the list in the error.
pub fn list_from_value<T>(
    v: &Value,
    subject: &'static str,
    item: impl FnMut(&mut Checker, &Value, &str) -> Option<T>,
    whole: impl FnOnce(&mut Checker, &[T]),
) -> Result<Vec<T>, ContractError> {
    let mut c = Checker::default();
    let items = c.list(v, "", 0, usize::MAX, item);
    if let Some(items) = &items {
        whole(&mut c, items);
    }
    match items {
        Some(items) if c.violations.is_empty() => Ok(items),
        _ => Err(ContractError { subject, violations: c.violations }),
    }
}

/// Checks a list of specs (a catalogue) with paths `/0`, `/1`, …
pub fn specs_from_value(v: &Value) -> Result<Vec<SourceSpec>, ContractError> {
    list_from_value(v, "specs", SourceSpec::check, |_, _| {})
}

impl Report {
    /// Parses and checks a report from JSON text in a dialect: with
    /// [`crate::schema::Dialect::OpenAiStrict`] a `null` in an optional field means
    /// absent (what strict structured outputs write).
    pub fn from_json_in(text: &str, dialect: crate::schema::Dialect, limits: &Limits) -> Result<Report, ContractError> {
        match dialect {
            crate::schema::Dialect::Standard => Report::from_json_with(text, limits),
            crate::schema::Dialect::OpenAiStrict => {
                let mut v = json::parse_strict(text, limits.max_input_bytes, Self::SUBJECT)?;
                crate::schema::strip_nulls(&mut v);
                Report::from_value_with(&v, limits)
            }
        }
    }
}
