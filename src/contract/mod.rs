//! The data contracts: what a report, a citation, a source spec and a scope must be.
//!
//! Every type is checked from a JSON value by [`Contract::from_value`] (or from text by
//! [`Contract::from_json`]), which lists every violation with its JSON path. The rules are
//! the reference's: unknown fields rejected, no coercion, identifier/filename/digest
//! patterns, lengths in code points, list limits and cross-field rules.

pub mod checker;
pub mod dialect;

pub use checker::Checker;
pub use dialect::Dialect;
/// The strict reader's old path (now [`crate::json`]), kept for `src/options.rs` until
/// the binding's owner moves it.
#[doc(hidden)]
pub use crate::json;

use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

use crate::error::{ContractError, ViolationCode};
use crate::visible::is_blank;
use crate::json::{join, Node, Object, Tape};
use crate::rules::{self, sized, DIGEST};

/// The rules of the contracts' fields, in one place ([`Contract::check`] through
/// [`Checker`]).
pub mod rule {
    use crate::rules::{sized, StrRule};
    use super::Limits;

    /// A report's or a source spec's title.
    pub const TITLE: StrRule = sized(1, 120);
    /// A source spec's locator.
    pub const LOCATOR: StrRule = sized(1, 300);
    /// One gap of a report.
    pub const GAP: StrRule = sized(1, 1000);
    /// A conflict's reason.
    pub const REASON: StrRule = sized(1, 1000);
    /// A read result's message.
    pub const MESSAGE: StrRule = sized(0, 1000);
    /// A review's `reviewed_at`, a bundle source's `fetched_at`.
    pub const DATE_TIME: StrRule = sized(1, 64);
    /// How many claims a conflict names (least, most).
    pub const CONFLICT_MEMBERS: (usize, usize) = (2, 4);

    /// A claim's text.
    pub fn claim_text(p: &Limits) -> StrRule {
        sized(1, p.max_claim_chars)
    }
    /// A claim's rationale.
    pub fn rationale(p: &Limits) -> StrRule {
        sized(0, p.max_rationale_chars)
    }
    /// A review's note.
    pub fn note(p: &Limits) -> StrRule {
        sized(1, p.max_note_chars)
    }
}

/// The limits and vocabularies of the contracts: the policy (see [`crate::policy`]).
/// `Limits { max_claims: 13, ..Default::default() }` still works: the fields kept their names.
pub type Limits = crate::policy::Policy;

/// Maximum code points of a read result's content under the reference policy (the
/// policy's `max_source_bytes`).
pub const MAX_READ_CONTENT_CHARS: usize = 24_000;

/// A type with a contract that can be checked from JSON.
pub trait Contract: Sized {
    /// What the type is called in errors (`report`, `citation`…).
    const SUBJECT: &'static str;

    /// Checks `v`, pushing every violation (paths below `path`) into `c`.
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self>;

    /// Checks a JSON value with the default limits.
    fn from_value(v: &Value) -> Result<Self, ContractError> {
        Self::from_value_with(v, &Limits::default())
    }

    /// Checks a JSON value with the given limits.
    fn from_value_with(v: &Value, limits: &Limits) -> Result<Self, ContractError> {
        checked(Tape::from_value(v).root(), Checker::new(limits.clone(), BTreeMap::default()), None)
    }

    /// Parses and checks JSON text (duplicate keys refused) with the default limits.
    fn from_json(text: &str) -> Result<Self, ContractError> {
        Self::from_json_with(text, &Limits::default())
    }

    /// Parses and checks JSON text with the given limits: parses it into a bounded tree
    /// ([`json::read_bounded`]) and checks it, listing every violation with its path.
    fn from_json_with(text: &str, limits: &Limits) -> Result<Self, ContractError> {
        read_checked(text, limits)
    }
}

/// [`Contract::from_json_with`]: the one reader of JSON text into a contract type.
fn read_checked<T: Contract>(text: &str, limits: &Limits) -> Result<T, ContractError> {
    let mut read = json::read_text(text, limits.max_input_bytes, limits.values_needed(), T::SUBJECT, !limits.reference_messages).map_err(|e| with_raise_hints(e, limits))?;
    let cut = read.truncated().then(|| read.truncation_violation());
    let lengths = std::mem::take(&mut read.lengths);
    checked(read.value(), Checker::new(limits.clone(), lengths), cut)
}

/// Checks `v` with `c`; `cut` (the reader kept only part of the input) is added last, so
/// a cut input is always refused, after the real lengths of the lists it cut were checked.
fn checked<T: Contract>(v: Node<'_>, mut c: Checker, cut: Option<crate::error::Violation>) -> Result<T, ContractError> {
    let t = T::check(&mut c, v, "");
    quote_only_violation(&mut c);
    if let Some(cut) = cut {
        c.push(&cut.path, cut.code, cut.message);
    }
    match t {
        Some(t) if c.violations.is_empty() => Ok(t),
        _ => Err(with_raise_hints(ContractError { subject: T::SUBJECT, violations: c.violations }, &c.limits)),
    }
}

/// The fields of a draft's quote-only citation (located by `locate` into a full one).
pub const DRAFT_CITATION_FIELDS: &[&str] = &["citation_id", "source_id", "quote", "prefix", "suffix", "occurrence"];

/// How many subjects the quote-only violation names.
const QUOTE_ONLY_SUBJECTS: usize = 5;

/// A set of ids, extended, not collected: a set collected from an iterator compiles a
/// sort of its own.
fn str_set<'a>(ids: impl Iterator<Item = &'a str>) -> BTreeSet<&'a str> {
    let mut set = BTreeSet::new();
    set.extend(ids);
    set
}

/// Whether a citation is a draft's quote-only one: a `source_id` and a `quote`, no range,
/// nothing but [`DRAFT_CITATION_FIELDS`].
fn is_quote_only(m: Object<'_>) -> bool {
    m.contains_key("source_id") && m.contains_key("quote") && m.keys_in_text_order().all(|k| DRAFT_CITATION_FIELDS.contains(&k))
}

/// Counts a quote-only citation at `path` (its violations are the one of
/// [`quote_only_violation`]).
fn note_quote_only(c: &mut Checker, m: Object<'_>, path: &str) {
    c.quote_only += 1;
    if c.quote_only_subjects.len() < QUOTE_ONLY_SUBJECTS {
        c.quote_only_subjects.push((path.to_owned(), m.get("citation_id").and_then(Node::as_str).map(str::to_owned)));
    }
}

/// One violation, first, for every quote-only citation the check saw: how many, and
/// which (the first five), instead of five per citation.
fn quote_only_violation(c: &mut Checker) {
    if c.quote_only == 0 {
        return;
    }
    let named: Vec<String> = c
        .quote_only_subjects
        .iter()
        .map(|(path, id)| {
            let at = if path.is_empty() { "/" } else { path };
            id.as_ref().map_or_else(|| at.to_owned(), |id| format!("{at} ({id})"))
        })
        .collect();
    let mut subjects = named.join(", ");
    if c.quote_only > named.len() {
        subjects = format!("{subjects}, and {} more", c.quote_only - named.len());
    }
    let path = c.quote_only_subjects.first().map(|(p, _)| p.clone()).unwrap_or_default();
    let message = crate::error::quote_only_message(c.quote_only, &subjects, crate::error::Lang::En);
    c.violations.insert(0, crate::error::Violation { path, code: ViolationCode::QuoteOnlyCitations, message });
}

/// The policy field that sets the limit a `too_long` violation at `path` breaks.
fn policy_field(path: &str) -> Option<&'static str> {
    let last = path.rsplit('/').next().unwrap_or("");
    let parent = path.rsplit('/').nth(1).unwrap_or("");
    Some(match last {
        "claims" => "max_claims",
        "citations" => "max_citations",
        "gaps" => "max_gaps",
        "conflicts" => "max_conflicts",
        "sources" => "max_sources",
        "quote" => "max_quote_chars",
        "text" => "max_claim_chars",
        "rationale" => "max_rationale_chars",
        "note" => "max_note_chars",
        "content" if parent == "data" => "max_source_bytes",
        _ => return None,
    })
}

/// Adds to each violation that the policy decides how to get past it: for a limit, how
/// to raise it (the policy field and the CLI flag); for a filename, a source kind or a
/// scope id that the documents policy allows and this policy does not, that it is
/// allowed there. Under `compat: "reference"` the hints say to drop compat. (The
/// reference's own texts, the cross-field rules', never get one.)
pub fn with_raise_hints(mut e: ContractError, policy: &Limits) -> ContractError {
    use crate::error::Hint;
    let compat = policy.reference_messages;
    let raise = |field: &'static str| {
        if compat {
            Hint::RaiseCompat(field)
        } else if policy.documents_raises(field) {
            Hint::Raise(field)
        } else {
            Hint::RaiseFile(field)
        }
    };
    for v in &mut e.violations {
        let hint = match v.code {
            ViolationCode::TooLong => policy_field(&v.path).map(raise),
            ViolationCode::InputTooLarge => Some(raise("max_input_bytes")),
            ViolationCode::PatternMismatch | ViolationCode::NotAllowed => {
                documents_allows(&v.path, v.code, policy).then_some(if compat { Hint::AllowCompat } else { Hint::Allow })
            }
            _ => None,
        };
        if let Some(hint) = hint {
            v.message = format!("{}; {}", v.message, hint.text(crate::error::Lang::En));
        }
    }
    e
}

/// Whether the value at `path` that breaks `code` is one the documents policy accepts
/// where `policy` does not: a spec's `filename` under the `*.md` rule, a spec's `kind`
/// under a list of kinds, a `tenant_id` or `user_id` under the reference's id rule.
fn documents_allows(path: &str, code: ViolationCode, policy: &Limits) -> bool {
    let mut segments = path.rsplit('/');
    let last = segments.next().unwrap_or("");
    let grandparent = segments.nth(1).unwrap_or("");
    match (last, code) {
        ("filename", ViolationCode::PatternMismatch) => policy.filename == crate::policy::FilenameRule::Markdown,
        // A claim has a `kind` too (fact or inference): only a source spec's is the policy's.
        ("kind", ViolationCode::NotAllowed) => grandparent != "claims" && matches!(policy.kinds, crate::policy::KindRule::List(_)),
        ("tenant_id" | "user_id", ViolationCode::PatternMismatch) => policy.scope_id == crate::policy::IdRule::Reference,
        _ => false,
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
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Scope {
    pub tenant_id: String,
    pub user_id: String,
}

impl Scope {
    pub(crate) const FIELDS: &'static [&'static str] = &["tenant_id", "user_id"];
}

impl Contract for Scope {
    const SUBJECT: &'static str = "scope";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let rule = c.limits.scope_rule();
        let tenant_id = c.string_field(m, path, "tenant_id", &rule);
        let user_id = c.string_field(m, path, "user_id", &rule);
        finish(c, before, || Some(Scope { tenant_id: tenant_id?, user_id: user_id? }))
    }
}

/// Whether a source is made-up test material or a public document (the reference's
/// two kinds), or another kind a policy allows (`kinds`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(type = "\"fixture\" | \"public\" | (string & {})"))]
pub enum SourceKind {
    Fixture,
    Public,
    /// A kind the policy allows besides the reference's two.
    Other(String),
}

impl SourceKind {
    pub fn as_str(&self) -> &str {
        match self {
            Self::Fixture => "fixture",
            Self::Public => "public",
            Self::Other(s) => s,
        }
    }

    fn from_name(s: &str) -> SourceKind {
        match s {
            "fixture" => Self::Fixture,
            "public" => Self::Public,
            other => Self::Other(other.to_owned()),
        }
    }

    /// The policy's rule on a `kind` (`None`: not a string), for both readers.
    pub(crate) fn in_policy(policy: &Limits, s: Option<&str>) -> Result<SourceKind, rules::Fault> {
        match (&policy.kinds, s) {
            (crate::policy::KindRule::List(names), s) => {
                let options: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), n.as_str())).collect();
                rules::check_literal(s, &options).map(SourceKind::from_name)
            }
            (crate::policy::KindRule::Any(_), Some(s)) => rules::check_str(s, &policy.identifier_rule()).map(|()| SourceKind::from_name(s)),
            (crate::policy::KindRule::Any(_), None) => Err((ViolationCode::WrongType, String::new())),
        }
    }

    /// Checks a `kind` against the policy's `kinds`.
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        if matches!(c.limits.kinds, crate::policy::KindRule::Any(_)) && !v.is_string() {
            // The type error, with the type's name.
            return c.string(v, path, &rules::ANY_STRING).map(|s| SourceKind::from_name(&s));
        }
        let kind = SourceKind::in_policy(&c.limits, v.as_str());
        c.report(path, kind)
    }
}

impl Serialize for SourceKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One entry of the host's trusted catalogue of sources.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SourceSpec {
    pub source_id: String,
    pub title: String,
    pub locator: String,
    pub filename: String,
    pub kind: SourceKind,
}

impl SourceSpec {
    pub(crate) const FIELDS: &'static [&'static str] = &["source_id", "title", "locator", "filename", "kind"];
}

impl Contract for SourceSpec {
    const SUBJECT: &'static str = "source_spec";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let source_id = c.string_field(m, path, "source_id", &c.limits.identifier_rule());
        let title = c.string_field(m, path, "title", &rule::TITLE);
        let locator = c.string_field(m, path, "locator", &rule::LOCATOR);
        let filename = c.string_field(m, path, "filename", &c.limits.filename_rule());
        let kind = c.required(m, path, "kind").and_then(|k| SourceKind::check(c, k, &join(path, "kind")));
        finish(c, before, || {
            Some(SourceSpec { source_id: source_id?, title: title?, locator: locator?, filename: filename?, kind: kind? })
        })
    }
}

/// Names one revision of one source by its digest.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SourceRef {
    pub source_id: String,
    pub revision: u64,
    pub digest: String,
}

impl SourceRef {
    pub(crate) const FIELDS: &'static [&'static str] = &["source_id", "revision", "digest"];
}

impl Contract for SourceRef {
    const SUBJECT: &'static str = "source_ref";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let source_id = c.string_field(m, path, "source_id", &c.limits.identifier_rule());
        let revision = c.int_field(m, path, "revision", 1);
        let digest = c.string_field(m, path, "digest", &DIGEST);
        finish(c, before, || Some(SourceRef { source_id: source_id?, revision: revision?, digest: digest? }))
    }
}

/// The payload of a successful read: the file's name and text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReadPayload {
    pub filename: String,
    pub content: String,
}

impl Contract for ReadPayload {
    const SUBJECT: &'static str = "read_payload";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["filename", "content"])?;
        let filename = c.string_field(m, path, "filename", &c.limits.filename_rule());
        let content = c.string_field(m, path, "content", &sized(1, c.limits.max_source_bytes));
        finish(c, before, || Some(ReadPayload { filename: filename?, content: content? }))
    }
}

/// A read tool's business result (`status` is always `ok`; failures never reach ingest).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReadResult {
    #[cfg_attr(test, ts(type = "\"ok\""))]
    pub status: &'static str,
    #[cfg_attr(test, ts(optional = nullable))]
    pub message: String,
    pub data: ReadPayload,
}

impl Contract for ReadResult {
    const SUBJECT: &'static str = "read_result";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["status", "message", "data"])?;
        let status = c.literal_field(m, path, "status", &[("ok", "ok")]);
        let message = c.string_or(m, path, "message", &rule::MESSAGE);
        let data = c.required(m, path, "data").and_then(|d| ReadPayload::check(c, d, &join(path, "data")));
        finish(c, before, || Some(ReadResult { status: status?, message: message?, data: data? }))
    }
}

/// A passage of one source revision: half-open code-point range `[start, end)` of the
/// LF-normalised text, and the exact text found there.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Citation {
    pub citation_id: String,
    #[serde(rename = "ref")]
    pub source_ref: SourceRef,
    pub start: u64,
    pub end: u64,
    pub quote: String,
}

/// The limits on a citation's quote under the reference policy, in code points (see
/// [`crate::policy::Policy::quote_rule`]).
pub const QUOTE_RULE: rules::StrRule = sized(1, 800);

impl Citation {
    pub(crate) const FIELDS: &'static [&'static str] = &["citation_id", "ref", "start", "end", "quote"];

    /// The citation's cross-field rule (both readers): a range that is not empty.
    pub(crate) fn broken_rule(&self) -> Option<ViolationCode> {
        (self.end <= self.start).then_some(ViolationCode::EmptyRange)
    }
}

impl Contract for Citation {
    const SUBJECT: &'static str = "citation";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        // A draft's quote-only citation: counted, and said once for all (the reference
        // lists each missing and extra field).
        if let Some(m) = v.as_object().filter(|m| is_quote_only(*m) && !c.limits.reference_messages) {
            note_quote_only(c, m, path);
            return None;
        }
        let m = c.object(v, path, Self::FIELDS)?;
        let citation_id = c.string_field(m, path, "citation_id", &c.limits.identifier_rule());
        let source_ref = c.required(m, path, "ref").and_then(|r| SourceRef::check(c, r, &join(path, "ref")));
        let start = c.int_field(m, path, "start", 0);
        let end = c.int_field(m, path, "end", 1);
        let quote = c.string_field(m, path, "quote", &c.limits.quote_rule());
        let citation = finish(c, before, || {
            Some(Citation { citation_id: citation_id?, source_ref: source_ref?, start: start?, end: end?, quote: quote? })
        })?;
        if let Some(code) = citation.broken_rule() {
            c.rule(path, code);
            return None;
        }
        Some(citation)
    }
}

/// Whether a claim restates a source (`fact`) or is derived from sources (`inference`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
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

/// The values of a claim's `kind`.
pub(crate) const CLAIM_KINDS: [(&str, ClaimKind); 2] = [("fact", ClaimKind::Fact), ("inference", ClaimKind::Inference)];

/// One claim of a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Claim {
    pub claim_id: String,
    pub text: String,
    pub kind: ClaimKind,
    #[cfg_attr(test, ts(optional = nullable))]
    pub rationale: String,
    #[cfg_attr(test, ts(optional = nullable))]
    pub citations: Vec<Citation>,
}

impl Claim {
    pub(crate) const FIELDS: &'static [&'static str] = &["claim_id", "text", "kind", "rationale", "citations"];

    /// The claim's cross-field rule (both readers): a text, and an inference's
    /// rationale, that are not blank.
    pub(crate) fn broken_rule(&self) -> Option<ViolationCode> {
        (is_blank(&self.text) || (self.kind == ClaimKind::Inference && is_blank(&self.rationale))).then_some(ViolationCode::BlankClaim)
    }
}

impl Contract for Claim {
    const SUBJECT: &'static str = "claim";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let claim_id = c.string_field(m, path, "claim_id", &c.limits.identifier_rule());
        let text = c.string_field(m, path, "text", &rule::claim_text(&c.limits));
        let kind = c.literal_field(m, path, "kind", &CLAIM_KINDS);
        let rationale = c.string_or(m, path, "rationale", &rule::rationale(&c.limits));
        let citations = c.list_or(m, path, "citations", c.limits.max_citations, Citation::check);
        let claim = finish(c, before, || {
            Some(Claim { claim_id: claim_id?, text: text?, kind: kind?, rationale: rationale?, citations: citations? })
        })?;
        if let Some(code) = claim.broken_rule() {
            c.rule(path, code);
            return None;
        }
        Some(claim)
    }
}

/// Claims that the report itself says disagree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Conflict {
    pub claim_ids: Vec<String>,
    pub reason: String,
}

impl Conflict {
    pub(crate) const FIELDS: &'static [&'static str] = &["claim_ids", "reason"];
}

impl Contract for Conflict {
    const SUBJECT: &'static str = "conflict";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let claim_ids = c
            .required(m, path, "claim_ids")
            .and_then(|ids| {
                let id = c.limits.identifier_rule();
                let (least, most) = rule::CONFLICT_MEMBERS;
                c.list(ids, &join(path, "claim_ids"), least, most, |c, v, p| c.string(v, p, &id))
            });
        let reason = c.string_field(m, path, "reason", &rule::REASON);
        finish(c, before, || Some(Conflict { claim_ids: claim_ids?, reason: reason? }))
    }
}

/// A candidate report written by a model: claims with citations, conflicts, gaps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Report {
    pub title: String,
    pub claims: Vec<Claim>,
    #[cfg_attr(test, ts(optional = nullable))]
    pub conflicts: Vec<Conflict>,
    #[cfg_attr(test, ts(optional = nullable))]
    pub gaps: Vec<String>,
}

impl Report {
    pub(crate) const FIELDS: &'static [&'static str] = &["title", "claims", "conflicts", "gaps"];

    /// The claim with this id.
    pub fn claim(&self, claim_id: &str) -> Option<&Claim> {
        self.claims.iter().find(|c| c.claim_id == claim_id)
    }

    /// The report's cross-field rules (both readers); every violation is reported at the
    /// report's root, as the reference does, or (not under `reference` messages) a
    /// citation id that names two passages at the second one.
    pub(crate) fn check_links(&self, c: &mut Checker, path: &str, reference: bool) {
        let ids = str_set(self.claims.iter().map(|cl| cl.claim_id.as_str()));
        if ids.len() != self.claims.len() {
            c.rule(path, ViolationCode::DuplicateClaimId);
        }
        // Each citation id's first citation and where it is (its path is written only
        // when a later one names another passage).
        let mut seen: BTreeMap<&str, (&Citation, usize, usize)> = BTreeMap::default();
        let at = |i: usize, j: usize| format!("{path}/claims/{i}/citations/{j}");
        for (i, claim) in self.claims.iter().enumerate() {
            // (A claim with one citation or none cannot name one twice.)
            if claim.citations.len() > 1 {
                let local = str_set(claim.citations.iter().map(|ci| ci.citation_id.as_str()));
                if local.len() != claim.citations.len() {
                    c.rule(path, ViolationCode::DuplicateCitationInClaim);
                }
            }
            for (j, citation) in claim.citations.iter().enumerate() {
                let &mut (previous, first_i, first_j) = seen.entry(&citation.citation_id).or_insert((citation, i, j));
                if std::ptr::eq(previous, citation) || *previous == *citation {
                    continue;
                }
                if reference {
                    c.rule(path, ViolationCode::CitationIdConflict);
                } else {
                    let (first_at, here) = (at(first_i, first_j), at(i, j));
                    let passage = |ci: &Citation| format!("{} r{} [{}, {})", ci.source_ref.source_id, ci.source_ref.revision, ci.start, ci.end);
                    let message = format!(
                        "{} (citation_id '{}' names two passages: {} at {first_at} and {} at {here})",
                        ViolationCode::CitationIdConflict.reference_message().unwrap_or(""),
                        citation.citation_id,
                        passage(previous),
                        passage(citation),
                    );
                    c.push(&here, ViolationCode::CitationIdConflict, &message);
                }
            }
        }
        for conflict in &self.conflicts {
            let members = str_set(conflict.claim_ids.iter().map(String::as_str));
            if members.len() != conflict.claim_ids.len() {
                c.rule(path, ViolationCode::DuplicateConflictMember);
            }
            if !members.is_subset(&ids) {
                c.rule(path, ViolationCode::UnknownConflictMember);
            }
        }
    }
}

impl Contract for Report {
    const SUBJECT: &'static str = "report";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m: Object<'_> = c.object(v, path, Self::FIELDS)?;
        let title = c.string_field(m, path, "title", &rule::TITLE);
        let claims = c
            .required(m, path, "claims")
            .and_then(|cl| c.list(cl, &join(path, "claims"), 1, c.limits.max_claims, Claim::check));
        let conflicts = c.list_or(m, path, "conflicts", c.limits.max_conflicts, Conflict::check);
        let gaps = c.list_or(m, path, "gaps", c.limits.max_gaps, |c, v, p| c.string(v, p, &rule::GAP));
        let report = finish(c, before, || {
            Some(Report { title: title?, claims: claims?, conflicts: conflicts?, gaps: gaps? })
        })?;
        let before = c.count();
        let reference = c.limits.reference_messages;
        report.check_links(c, path, reference);
        (c.count() == before).then_some(report)
    }
}

/// Checks a JSON array item by item (paths `/0`, `/1`, …) with the checker `c` (its
/// policy), then runs `whole` over the items when every item was valid (for rules across
/// items, such as unique ids). `subject` names the list in the error.
pub fn list_from_value_in<T>(
    mut c: Checker,
    v: &Value,
    subject: &'static str,
    item: impl FnMut(&mut Checker, Node<'_>, &str) -> Option<T>,
    whole: impl FnOnce(&mut Checker, &[T]),
) -> Result<Vec<T>, ContractError> {
    let tape = Tape::from_value(v);
    let items = c.list(tape.root(), "", 0, usize::MAX, item);
    if let Some(items) = &items {
        whole(&mut c, items);
    }
    match items {
        Some(items) if c.violations.is_empty() => Ok(items),
        _ => Err(ContractError { subject, violations: c.violations }),
    }
}

/// [`list_from_value_in`] under the default policy.
pub fn list_from_value<T>(
    v: &Value,
    subject: &'static str,
    item: impl FnMut(&mut Checker, Node<'_>, &str) -> Option<T>,
    whole: impl FnOnce(&mut Checker, &[T]),
) -> Result<Vec<T>, ContractError> {
    list_from_value_in(Checker::default(), v, subject, item, whole)
}

/// Checks a list of specs (a catalogue) with paths `/0`, `/1`, …
pub fn specs_from_value(v: &Value) -> Result<Vec<SourceSpec>, ContractError> {
    specs_from_value_with(v, &Limits::default())
}

/// [`specs_from_value`] under a policy (its filename, kind and identifier rules).
pub fn specs_from_value_with(v: &Value, policy: &Limits) -> Result<Vec<SourceSpec>, ContractError> {
    list_from_value_in(Checker::new(policy.clone(), BTreeMap::default()), v, "specs", SourceSpec::check, |_, _| {})
}

impl Report {
    /// Parses and checks a report from JSON text in a dialect: with
    /// [`Dialect::OpenAiStrict`] a `null` in an optional field means
    /// absent (what strict structured outputs write).
    pub fn from_json_in(text: &str, dialect: Dialect, limits: &Limits) -> Result<Report, ContractError> {
        match dialect {
            Dialect::Standard => read_checked(text, limits),
            Dialect::OpenAiStrict => {
                let mut v = json::parse_strict(text, limits.max_input_bytes, Self::SUBJECT)?;
                dialect::strip_nulls(&mut v);
                Report::from_value_with(&v, limits)
            }
        }
    }
}
