//! The evidence store: a trusted catalogue, and per (scope, source) the current
//! snapshot and a revision counter that never goes back.

pub mod locate;

use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::citation::TextIndex;
use crate::clock::Clock;
use crate::rules;
use crate::contract::{Citation, Contract, ReadResult, Scope, SourceRef, SourceSpec};
use crate::digest::{normalize_newlines_owned, sha256_hex_hosted, try_normalize_newlines};
use crate::error::{Coded, ContractError, Lang, Violation};
use std::fmt;
use locate::{locate, LocateOptions, Located, Selector, Whitespace};
use crate::error::Detail;
use crate::policy::Policy;

/// Default maximum number of specs in a catalogue.
pub const DEFAULT_MAX_SOURCES: usize = 16;
/// Default maximum size of a source, in UTF-8 bytes before newline normalisation.
pub const DEFAULT_MAX_SOURCE_BYTES: usize = 24_000;

/// The store's two limits, a view of the policy's `max_sources` and `max_source_bytes`
/// (kept for [`EvidenceStore::new`]; [`EvidenceStore::with_policy`] takes the whole policy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreOptions {
    pub max_sources: usize,
    pub max_source_bytes: usize,
}

impl StoreOptions {
    /// The reference policy with these two limits.
    pub fn policy(self) -> Policy {
        Policy { max_sources: self.max_sources, max_source_bytes: self.max_source_bytes, ..Policy::reference() }
    }
}

impl From<&Policy> for StoreOptions {
    fn from(p: &Policy) -> Self {
        StoreOptions { max_sources: p.max_sources, max_source_bytes: p.max_source_bytes }
    }
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions { max_sources: DEFAULT_MAX_SOURCES, max_source_bytes: DEFAULT_MAX_SOURCE_BYTES }
    }
}

/// One revision of one source as the store holds it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Snapshot {
    // The catalogue entry, shared with the store's catalogue (not copied per snapshot).
    pub spec: Arc<SourceSpec>,
    #[serde(rename = "ref")]
    pub source_ref: SourceRef,
    /// The LF-normalised text.
    pub content: String,
    pub fetched_at: String,
    #[serde(skip)]
    pub index: TextIndex,
}

impl Snapshot {
    /// The text of the code-point range `[start, end)`, if it lies inside the text.
    pub fn slice(&self, start: u64, end: u64) -> Option<&str> {
        let start = usize::try_from(start).ok()?;
        let end = usize::try_from(end).ok()?;
        self.index.slice(&self.content, start, end)
    }
}

/// A source's record in one scope: its current snapshot (none once removed) and the last
/// revision given, which never goes back.
#[derive(Debug)]
struct Slot {
    current: Option<Arc<Snapshot>>,
    revision: u64,
}

/// Snapshots of catalogued sources, per scope.
#[derive(Debug)]
pub struct EvidenceStore {
    specs: BTreeMap<String, Arc<SourceSpec>>,
    // Per scope, per source id: looked up by borrowed keys, nothing cloned per citation.
    scopes: BTreeMap<Scope, BTreeMap<String, Slot>>,
    policy: Policy,
    clock: Clock,
    closed: bool,
    /// The bytes of every current snapshot's text (`max_store_bytes`).
    held: usize,
}

impl EvidenceStore {
    /// A store over a trusted catalogue, under the reference policy with `options`'
    /// two limits. Refused when there are more specs than `options.max_sources` or two
    /// share a `source_id`.
    pub fn new(specs: Vec<SourceSpec>, options: StoreOptions, clock: Clock) -> Result<Self, StoreError> {
        Self::with_policy(specs, options.policy(), clock)
    }

    /// A store over a trusted catalogue that applies `policy` to everything it checks
    /// (source sizes, read results, quotes, and the reports assessed and rendered with it).
    pub fn with_policy(specs: Vec<SourceSpec>, policy: Policy, clock: Clock) -> Result<Self, StoreError> {
        let n = specs.len();
        // Extended (a later id wins, as collected), not collected: a map collected from an
        // iterator compiles a sort of its own.
        let mut map = BTreeMap::new();
        map.extend(specs.into_iter().map(|s| (s.source_id.clone(), Arc::new(s))));
        if n > policy.max_sources {
            let detail = policy.limit_detail(n, "sources", "max_sources");
            return Err(if policy.reference_messages { StoreErrorKind::CatalogueInvalid.into() } else { StoreErrorKind::CatalogueInvalid.with(detail) });
        }
        if map.len() != n {
            return Err(StoreErrorKind::CatalogueInvalid.into());
        }
        Ok(EvidenceStore {
            specs: map,
            scopes: BTreeMap::default(),
            policy,
            clock,
            closed: false,
            held: 0,
        })
    }

    /// The policy this store applies.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// A refusal with its subject and numbers, or under `compat: "reference"` the
    /// reference's bare code (the split codes are `ref_unavailable`).
    fn fail(&self, kind: StoreErrorKind, detail: Detail) -> StoreError {
        if self.policy.reference_messages {
            StoreError::Store(kind.reference_kind())
        } else {
            kind.with(detail)
        }
    }

    /// The catalogue entry of a source.
    pub fn spec(&self, source_id: &str) -> Option<&SourceSpec> {
        self.specs.get(source_id).map(|s| &**s)
    }

    /// Replaces the clock (for example to fix `now` for one call).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// SHA-256 hex of a (normalised) text, by the host's SHA-256 where one is installed.
    fn digest(&self, text: &str) -> String {
        sha256_hex_hosted(text)
    }

    /// The digest of a report (SHA-256 of its canonical JSON), by the host's SHA-256 where
    /// one is installed: the same digest as [`crate::digest::report_digest`].
    pub fn report_digest(&self, report: &crate::contract::Report) -> String {
        self.digest(&crate::digest::canonical_report(report))
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The store's two limits (a view of its policy).
    pub fn options(&self) -> StoreOptions {
        StoreOptions::from(&self.policy)
    }

    fn ensure_open(&self) -> Result<(), StoreError> {
        if self.closed {
            Err(StoreErrorKind::StoreClosed.into())
        } else {
            Ok(())
        }
    }

    fn accept(&self, source_id: &str, content: &str) -> Result<Arc<SourceSpec>, StoreError> {
        self.admit(source_id, || rules::is_blank(content), content.len())
    }

    /// The checks `ingest` makes before it reads a text, in the same order (closed,
    /// unknown source, blank, too large), for a text known by whether it is blank and its
    /// size in UTF-8 bytes or a lower bound of it: a host can refuse an oversize text
    /// without copying it.
    pub fn admit(&self, source_id: &str, blank: impl FnOnce() -> bool, bytes: usize) -> Result<Arc<SourceSpec>, StoreError> {
        self.ensure_open()?;
        let named = || Detail { source_id: Some(source_id.to_owned()), ..Detail::default() };
        let spec = self.specs.get(source_id).ok_or_else(|| self.fail(StoreErrorKind::UnknownSource, named()))?;
        if blank() {
            return Err(self.fail(StoreErrorKind::EmptyContent, named()));
        }
        if bytes > self.policy.max_source_bytes {
            let detail = self.policy.limit_detail(bytes, "bytes", "max_source_bytes").source(source_id);
            return Err(self.fail(StoreErrorKind::SourceTooLarge, detail));
        }
        // Counted before anything is copied: a text replacing another is held beside it
        // until it is stored.
        let total = self.held.saturating_add(bytes);
        if total > self.policy.max_store_bytes {
            return Err(StoreErrorKind::OverCapacity.with(Detail::limit(total, self.policy.max_store_bytes, "bytes", "max_store_bytes").source(source_id)));
        }
        Ok(Arc::clone(spec))
    }

    /// How many more bytes of text the store can hold (`max_store_bytes`).
    pub fn room(&self) -> usize {
        self.policy.max_store_bytes.saturating_sub(self.held)
    }

    /// Stores `content` (CRLF and CR become LF) as the current snapshot. Identical
    /// content returns the current ref unchanged, with its first `fetched_at`; anything
    /// else gets the next revision. The text is copied once, only when it is stored.
    pub fn ingest(&mut self, scope: &Scope, source_id: &str, content: &str) -> Result<SourceRef, StoreError> {
        self.ingest_text(scope, source_id, Cow::Borrowed(content))
    }

    /// [`Self::ingest`] of a text the caller may give away: an owned one is kept
    /// (normalised in place), not copied.
    pub fn ingest_text(&mut self, scope: &Scope, source_id: &str, content: Cow<'_, str>) -> Result<SourceRef, StoreError> {
        let spec = self.accept(source_id, &content)?;
        let content = normalized(content).map_err(|bytes| out_of_memory(bytes, source_id))?;
        let digest = self.digest(&content);
        let slot = self.slot(scope, source_id);
        if let Some(old) = slot.and_then(|s| s.current.as_ref()) {
            if old.source_ref.digest == digest {
                return Ok(old.source_ref.clone());
            }
        }
        let revision = slot.map_or(0, |s| s.revision).saturating_add(1);
        let content = owned(content).map_err(|bytes| out_of_memory(bytes, source_id))?;
        Ok(self.put(scope, source_id, spec, content, None, digest, revision, None))
    }

    /// Restores a snapshot that the host already holds at a known revision (for
    /// stateless checks of a bundle): the revision must be newer than any this store
    /// has given that source in that scope.
    pub fn restore(&mut self, scope: &Scope, source_id: &str, content: &str, revision: u64, fetched_at: Option<String>) -> Result<SourceRef, StoreError> {
        self.restore_text(scope, source_id, Cow::Borrowed(content), revision, fetched_at)
    }

    /// [`Self::restore`] of a text the caller may give away: an owned one is kept
    /// (normalised in place), a borrowed one copied once.
    pub fn restore_text(&mut self, scope: &Scope, source_id: &str, content: Cow<'_, str>, revision: u64, fetched_at: Option<String>) -> Result<SourceRef, StoreError> {
        let spec = self.accept(source_id, &content)?;
        self.restore_admitted(scope, source_id, spec, content, None, revision, fetched_at)
    }

    #[allow(clippy::too_many_arguments)]
    /// Restores an admitted text: normalised here unless its `index` is given (then it is
    /// normalised already).
    fn restore_admitted(&mut self, scope: &Scope, source_id: &str, spec: Arc<SourceSpec>, content: Cow<'_, str>, index: Option<TextIndex>, revision: u64, fetched_at: Option<String>) -> Result<SourceRef, StoreError> {
        let known = self.slot(scope, source_id).map_or(0, |s| s.revision);
        if revision == 0 || revision <= known {
            let detail = Detail { source_id: Some(source_id.to_owned()), cited_revision: Some(revision), current_revision: Some(known), ..Detail::default() };
            return Err(self.fail(StoreErrorKind::RevisionNotNewer, detail));
        }
        let content = if index.is_none() { normalized(content) } else { Ok(content) }.and_then(owned).map_err(|bytes| out_of_memory(bytes, source_id))?;
        let digest = self.digest(&content);
        Ok(self.put(scope, source_id, spec, content, index, digest, revision, fetched_at))
    }

    #[allow(clippy::too_many_arguments)]
    fn put(&mut self, scope: &Scope, source_id: &str, spec: Arc<SourceSpec>, content: String, index: Option<TextIndex>, digest: String, revision: u64, fetched_at: Option<String>) -> SourceRef {
        let source_ref = SourceRef { source_id: source_id.to_owned(), revision, digest };
        let index = index.unwrap_or_else(|| TextIndex::new(&content));
        let fetched_at = fetched_at.unwrap_or_else(|| self.clock.now());
        let snapshot = Snapshot { spec, source_ref: source_ref.clone(), content, fetched_at, index };
        let slot = Slot { current: Some(Arc::new(snapshot)), revision };
        let sources = match self.scopes.get_mut(scope) {
            Some(sources) => sources,
            None => self.scopes.entry(scope.clone()).or_default(),
        };
        let added = slot.current.as_ref().map_or(0, |s| s.content.len());
        let dropped = match sources.get_mut(source_id) {
            Some(old) => std::mem::replace(old, slot).current.map_or(0, |s| s.content.len()),
            None => {
                sources.insert(source_id.to_owned(), slot);
                0
            }
        };
        self.held = self.held.saturating_sub(dropped).saturating_add(added);
        source_ref
    }

    /// Ingests a read tool's business result after checking it (`status` `ok`, the
    /// spec's filename, content limits).
    pub fn ingest_read_result(&mut self, scope: &Scope, source_id: &str, result: &Value) -> Result<SourceRef, StoreError> {
        if !result.is_object() {
            return Err(StoreErrorKind::ReadResultNotObject.into());
        }
        let parsed = ReadResult::from_value_with(result, &self.policy)?;
        match self.specs.get(source_id) {
            Some(spec) if spec.filename == parsed.data.filename => {}
            _ => return Err(self.fail(StoreErrorKind::ReadMismatch, Detail { source_id: Some(source_id.to_owned()), ..Detail::default() })),
        }
        self.ingest(scope, source_id, &parsed.data.content)
    }

    /// The snapshot that `source_ref` names, if it is still current in this scope.
    pub fn get(&self, scope: &Scope, source_ref: &SourceRef) -> Result<&Arc<Snapshot>, StoreError> {
        self.ensure_open()?;
        // The snapshot's digest was computed from its text at ingest and the text is
        // immutable, so comparing refs compares digests; nothing is rehashed per citation.
        let slot = self.slot(scope, &source_ref.source_id);
        match slot.and_then(|s| s.current.as_ref()) {
            Some(s) if s.source_ref == *source_ref => Ok(s),
            found => Err(self.unavailable(slot.is_some(), source_ref, found)),
        }
    }

    /// Why a ref names no current snapshot: only this scope's own records are looked at,
    /// so the answer is the same whether or not another scope holds the source.
    fn unavailable(&self, ingested: bool, cited: &SourceRef, current: Option<&Arc<Snapshot>>) -> StoreError {
        let detail = Detail { source_id: Some(cited.source_id.clone()), ..Detail::default() };
        let Some(current) = current else {
            return self.no_current(&cited.source_id, ingested, Some(cited.revision));
        };
        let now = &current.source_ref;
        if now.revision != cited.revision {
            self.fail(StoreErrorKind::RevisionStale, Detail { cited_revision: Some(cited.revision), current_revision: Some(now.revision), ..detail })
        } else {
            self.fail(StoreErrorKind::DigestMismatch, Detail { cited_digest: Some(cited.digest.clone()), current_digest: Some(now.digest.clone()), ..detail })
        }
    }

    /// Why a source has no current snapshot in a scope: not catalogued
    /// (`source_not_in_scope`), removed (`source_removed`, with the cited revision when
    /// there is one) or never ingested (`source_not_ingested`); `ref_unavailable` under
    /// `compat: "reference"`.
    fn no_current(&self, source_id: &str, ingested: bool, cited_revision: Option<u64>) -> StoreError {
        let detail = Detail { source_id: Some(source_id.to_owned()), ..Detail::default() };
        if !self.specs.contains_key(source_id) {
            self.fail(StoreErrorKind::SourceNotInScope, detail)
        } else if ingested {
            self.fail(StoreErrorKind::SourceRemoved, Detail { cited_revision, ..detail })
        } else {
            self.fail(StoreErrorKind::SourceNotIngested, detail)
        }
    }

    /// The current snapshot of a source in a scope, if any.
    pub fn current(&self, scope: &Scope, source_id: &str) -> Option<&Arc<Snapshot>> {
        if self.closed {
            return None;
        }
        self.slot(scope, source_id)?.current.as_ref()
    }

    /// The record of a source in a scope, if it was ever stored there.
    fn slot(&self, scope: &Scope, source_id: &str) -> Option<&Slot> {
        self.scopes.get(scope)?.get(source_id)
    }

    /// Checks that the citation's snapshot is current and that its range holds exactly
    /// its quote.
    pub fn check_citation(&self, scope: &Scope, citation: &Citation) -> Result<&Arc<Snapshot>, StoreError> {
        let snapshot = self.get(scope, &citation.source_ref)?;
        let range = || Detail {
            source_id: Some(citation.source_ref.source_id.clone()),
            start: Some(citation.start),
            end: Some(citation.end),
            text_length: Some(snapshot.index.chars()),
            ..Detail::default()
        };
        if usize::try_from(citation.end).map_or(true, |end| end > snapshot.index.chars()) {
            return Err(self.fail(StoreErrorKind::RangeOutOfBounds, range()));
        }
        if snapshot.slice(citation.start, citation.end) != Some(citation.quote.as_str()) {
            if self.policy.reference_messages {
                return Err(self.fail(StoreErrorKind::QuoteMismatch, Detail::default()));
            }
            let mut detail = range();
            detail.text_at_range = snapshot.slice(citation.start, citation.end).map(escaped_excerpt);
            let loose = LocateOptions { whitespace: Whitespace::Loose, ..LocateOptions::default() };
            let source_id = &citation.source_ref.source_id;
            if let Ok(found) = locate(source_id, &snapshot.index, &snapshot.content, &Selector::exact(&citation.quote), loose) {
                if found.whitespace == Whitespace::Loose {
                    detail.loose_start = Some(found.start as u64);
                    detail.loose_end = Some(found.end as u64);
                }
            }
            return Err(self.fail(StoreErrorKind::QuoteMismatch, detail));
        }
        Ok(snapshot)
    }

    /// Makes a citation from the only occurrence of `text` in the snapshot (overlapping
    /// occurrences counted; CRLF and CR in `text` normalised as the source was).
    pub fn quote(&self, scope: &Scope, source_ref: &SourceRef, text: &str, citation_id: &str) -> Result<Citation, StoreError> {
        self.quote_with(scope, source_ref, &Selector::exact(text), citation_id, LocateOptions::default())
    }

    /// Makes a citation from the one occurrence that `selector` picks (its prefix and
    /// suffix, or its 1-based occurrence). The citation's quote is the source's text.
    pub fn quote_with(
        &self,
        scope: &Scope,
        source_ref: &SourceRef,
        selector: &Selector,
        citation_id: &str,
        options: LocateOptions,
    ) -> Result<Citation, StoreError> {
        let snapshot = self.get(scope, source_ref)?;
        let found = locate(&source_ref.source_id, &snapshot.index, &snapshot.content, selector, options)?;
        citation_checked(citation_id, source_ref, found.start, found.end, found.text, &self.policy)
    }

    /// The current snapshot of a source in a scope, or why there is none
    /// (`source_not_in_scope`, `source_not_ingested`, `source_removed`).
    pub fn current_snapshot(&self, scope: &Scope, source_id: &str) -> Result<&Arc<Snapshot>, StoreError> {
        self.ensure_open()?;
        self.current(scope, source_id).ok_or_else(|| self.no_current(source_id, self.slot(scope, source_id).is_some(), None))
    }

    /// Locates `selector` in the current snapshot of a source (whatever its revision).
    pub fn locate_current(&self, scope: &Scope, source_id: &str, selector: &Selector, options: LocateOptions) -> Result<(&Arc<Snapshot>, Located), StoreError> {
        let snapshot = self.current_snapshot(scope, source_id)?;
        let found = locate(source_id, &snapshot.index, &snapshot.content, selector, options)?;
        Ok((snapshot, found))
    }

    /// Every catalogue entry (in no particular order).
    pub fn specs(&self) -> impl Iterator<Item = &SourceSpec> {
        self.specs.values().map(|s| &**s)
    }

    /// Makes a citation from an explicit range of the snapshot's (LF-normalised) text,
    /// counted in `unit`: a host that holds UTF-16 indices (JavaScript) or byte offsets
    /// gets the code-point citation the contract needs. A range that splits a character
    /// is an error.
    pub fn quote_range(
        &self,
        scope: &Scope,
        source_ref: &SourceRef,
        start: usize,
        end: usize,
        unit: crate::citation::Unit,
        citation_id: &str,
    ) -> Result<Citation, QuoteRangeError> {
        let snapshot = self.get(scope, source_ref)?;
        if start >= end {
            return Err(QuoteRangeError::Offset(crate::citation::OffsetErrorKind::EmptyRange));
        }
        // Through the snapshot's index: the cost does not grow with the position.
        let at = |offset| snapshot.index.code_point_of(&snapshot.content, offset, unit).map_err(QuoteRangeError::Offset);
        let (s, e) = (at(start)?, at(end)?);
        let quote = snapshot.index.slice(&snapshot.content, s, e).ok_or(QuoteRangeError::Offset(crate::citation::OffsetErrorKind::OutOfRange))?;
        Ok(citation_checked(citation_id, source_ref, s, e, quote.to_owned(), &self.policy)?)
    }

    /// Drops the current snapshot; the revision counter stays, so an old citation never
    /// becomes valid again.
    pub fn remove(&mut self, scope: &Scope, source_id: &str) -> Result<(), StoreError> {
        self.ensure_open()?;
        if let Some(slot) = self.scopes.get_mut(scope).and_then(|sources| sources.get_mut(source_id)) {
            let dropped = slot.current.take().map_or(0, |s| s.content.len());
            self.held = self.held.saturating_sub(dropped);
        }
        Ok(())
    }

    /// Drops everything; the store accepts nothing more.
    pub fn close(&mut self) {
        self.scopes.clear();
        self.held = 0;
        self.closed = true;
    }

    pub fn is_closed(&self) -> bool {
        self.closed
    }
}

/// The LF-normalised text: a borrowed text stays borrowed unless it holds a CR (then one
/// normalised copy, allocated fallibly: `Err` gives its bytes), an owned one is
/// normalised in place.
fn normalized(text: Cow<'_, str>) -> Result<Cow<'_, str>, usize> {
    match text {
        Cow::Borrowed(t) => try_normalize_newlines(t),
        Cow::Owned(t) => Ok(Cow::Owned(normalize_newlines_owned(t))),
    }
}

/// The text as the store keeps it: an owned one as it is, a borrowed one copied by
/// fallible allocation (`Err` gives its bytes).
fn owned(text: Cow<'_, str>) -> Result<String, usize> {
    match text {
        Cow::Owned(t) => Ok(t),
        Cow::Borrowed(t) => {
            let mut out = String::new();
            out.try_reserve_exact(t.len()).map_err(|_| t.len())?;
            out.push_str(t);
            Ok(out)
        }
    }
}

/// `out_of_memory`: `bytes` for the text of `source_id` could not be allocated.
fn out_of_memory(bytes: usize, source_id: &str) -> StoreError {
    StoreErrorKind::OutOfMemory.with(Detail::allocation(bytes).source(source_id))
}

/// A citation whose id and quote meet the citation contract.
pub(crate) fn citation_checked(citation_id: &str, source_ref: &SourceRef, start: usize, end: usize, quote: String, policy: &Policy) -> Result<Citation, StoreError> {
    let mut c = crate::contract::Checker::default();
    c.report("/citation_id", rules::check_str(citation_id, &policy.identifier_rule()));
    c.report("/quote", rules::check_str(&quote, &policy.quote_rule()));
    if !c.violations.is_empty() {
        return Err(ContractError { subject: "citation", violations: c.violations }.into());
    }
    Ok(Citation { citation_id: citation_id.to_owned(), source_ref: source_ref.clone(), start: start as u64, end: end as u64, quote })
}

/// Why [`EvidenceStore::quote_range`] failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuoteRangeError {
    Store(StoreError),
    Offset(crate::citation::OffsetErrorKind),
}

impl From<StoreError> for QuoteRangeError {
    fn from(e: StoreError) -> Self {
        QuoteRangeError::Store(e)
    }
}

impl crate::error::Coded for QuoteRangeError {
    fn code(&self) -> &'static str {
        match self {
            Self::Store(e) => e.code(),
            Self::Offset(k) => k.code(),
        }
    }
    fn message(&self, lang: crate::error::Lang) -> String {
        match self {
            Self::Store(e) => crate::error::Coded::message(e, lang),
            Self::Offset(k) => k.message_in(lang).to_owned(),
        }
    }
    fn issues(&self, lang: crate::error::Lang) -> Option<(&'static str, Vec<crate::error::Violation>)> {
        match self {
            Self::Store(e) => e.issues(lang),
            Self::Offset(_) => None,
        }
    }
    fn details(&self) -> Vec<(&'static str, serde_json::Value)> {
        match self {
            Self::Store(e) => e.details(),
            Self::Offset(_) => Vec::new(),
        }
    }
}

// ---- the store's errors -------------------------------------------------------------

crate::error::coded_enum! {
    /// Why the evidence store refused an operation or a citation.
    StoreErrorKind {
        /// The catalogue has more specs than allowed, or two specs share a `source_id`.
        CatalogueInvalid => ("catalogue_invalid", "来源配置重复或超限。", "The source catalogue is over its size limit or names a source twice."),
        /// The store was closed; it accepts nothing more.
        StoreClosed => ("store_closed", "证据存储已关闭。", "The evidence store is closed."),
        /// The source id is not in the trusted catalogue.
        UnknownSource => ("unknown_source", "来源未在可信目录中登记。", "The source is not in the trusted catalogue."),
        /// The content is empty or only whitespace.
        EmptyContent => ("empty_content", "正文必须是非空字符串。", "The text must be a non-empty string."),
        /// The content is larger than the byte limit (UTF-8 bytes, before newline normalisation).
        SourceTooLarge => ("source_too_large", "来源超过字节上限。", "The source is over the byte limit."),
        /// A read result is not an object.
        ReadResultNotObject => ("read_result_not_object", "读取结果必须是业务结果对象。", "A read result must be a business-result object."),
        /// A read result names another file than the spec, or its source is not catalogued.
        ReadMismatch => ("read_mismatch", "读取失败或来源映射不一致。", "The read failed or names another file than the catalogue."),
        /// The cited snapshot does not exist: never ingested, removed, another scope's, or an old revision.
        RefUnavailable => ("ref_unavailable", "来源不存在、已撤销、越权或版本失效。", "The source does not exist, was removed, belongs to another scope, or the revision is stale."),
        /// The citation's range ends past the end of the text.
        RangeOutOfBounds => ("range_out_of_bounds", "引用区间超出正文。", "The citation range ends past the end of the text."),
        /// The quote is not the text found at the cited range.
        QuoteMismatch => ("quote_mismatch", "引文与原文区间不一致。", "The quote is not the text at the cited range."),
        /// `compat: "reference"` only: the passage to quote is empty, absent, or occurs more than once (the reference's one error for both).
        QuoteNotUnique => ("quote_not_unique", "片段缺失或重复,无法唯一定位。", "The passage is missing or occurs more than once; it cannot be located uniquely."),
        /// The quote (with its context, or at the occurrence asked for) is not in the source's current revision.
        QuoteNotFound => ("quote_not_found", "片段未在来源当前版本中找到。", "The quote is not in the source's current revision."),
        /// The quote occurs more than once and nothing picks one occurrence.
        QuoteAmbiguous => ("quote_ambiguous", "片段出现多次,无法唯一定位;请给出前后文或指定第几处。", "The quote occurs more than once; give a prefix and suffix or an occurrence to pick one."),
        /// A revision to restore is not newer than the store's counter for that source.
        RevisionNotNewer => ("revision_not_newer", "恢复的版本必须大于已有版本计数。", "A restored revision must be newer than the store's revision counter."),
        /// (Split from `ref_unavailable`.) The source is catalogued, but this scope has no snapshot of it and never had one.
        SourceNotIngested => ("source_not_ingested", "来源尚未在此范围内采集,没有任何快照。", "The source was never ingested in this scope; there is no snapshot of it."),
        /// (Split from `ref_unavailable`.) This scope had a snapshot of the source, and it was removed.
        SourceRemoved => ("source_removed", "来源快照已在此范围内撤销。", "The source's snapshot was removed in this scope."),
        /// (Split from `ref_unavailable`.) The cited revision is not the current one.
        RevisionStale => ("revision_stale", "引用的版本不是来源的当前版本。", "The cited revision is not the source's current revision."),
        /// (Split from `ref_unavailable`.) The cited digest is not the current revision's digest.
        DigestMismatch => ("digest_mismatch", "引用的摘要与来源当前版本的摘要不一致。", "The cited digest is not the digest of the source's current revision."),
        /// (Split from `ref_unavailable`.) No source with this id is available in this scope (the store's catalogue does not name it). Says nothing about other scopes.
        SourceNotInScope => ("source_not_in_scope", "此范围内没有该标识的来源。", "No source with this id is available in this scope."),
        /// The store would hold more bytes of text than `max_store_bytes` (refused before anything is copied).
        OverCapacity => ("over_capacity", "证据存储将超过文本总容量上限。", "The store would hold more text than its capacity allows."),
        /// The memory for a source's text could not be allocated.
        OutOfMemory => ("out_of_memory", "内存不足,无法分配来源正文所需的内存。", "Out of memory: the memory for the source's text could not be allocated."),
    }
}

/// An evidence-store error: a refused operation, or a contract broken by its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The store refused the operation.
    Store(StoreErrorKind),
    /// The store refused the operation; the detail names the subject and the numbers.
    Detailed(StoreErrorKind, Box<Detail>),
    /// The input (a read result, a quoted citation) broke its contract.
    Contract(ContractError),
    /// A quote could not be located (absent or ambiguous), with its source and counts.
    Locate(locate::LocateError),
}

impl StoreError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Store(k) | Self::Detailed(k, _) => k.code(),
            Self::Contract(c) => c.code(),
            Self::Locate(l) => l.code(),
        }
    }
    /// The message (Chinese, naming the subject and the numbers).
    pub fn message(&self) -> String {
        self.message_in(Lang::Zh)
    }
    /// The message in a language, naming the subject and the numbers.
    pub fn message_in(&self, lang: Lang) -> String {
        match self {
            Self::Store(k) => k.message_in(lang).to_owned(),
            Self::Detailed(k, d) => d.message(k.message_in(lang), lang),
            Self::Contract(c) => c.message(),
            Self::Locate(l) => l.message_in(lang),
        }
    }
    /// The kind, for the store's own refusals.
    pub fn kind(&self) -> Option<StoreErrorKind> {
        match self {
            Self::Store(k) | Self::Detailed(k, _) => Some(*k),
            _ => None,
        }
    }
    /// The detail (subject and numbers), when there is one.
    pub fn detail(&self) -> Option<&Detail> {
        match self {
            Self::Detailed(_, d) => Some(d),
            _ => None,
        }
    }
    /// `compat: "reference"`: the reference's code (the split codes are `ref_unavailable`).
    pub fn reference_code(&self) -> &'static str {
        match self.kind() {
            Some(k) => k.reference_kind().code(),
            None => self.code(),
        }
    }
    /// `compat: "reference"`: the reference's message text, without subject or numbers.
    pub fn reference_message(&self) -> String {
        match self.kind() {
            Some(k) => k.reference_kind().message().to_owned(),
            None => self.message(),
        }
    }
}

impl StoreErrorKind {
    /// The reference's kind: the five codes split from `ref_unavailable` are it.
    pub fn reference_kind(self) -> StoreErrorKind {
        match self {
            Self::SourceNotIngested | Self::SourceRemoved | Self::RevisionStale | Self::DigestMismatch | Self::SourceNotInScope => Self::RefUnavailable,
            other => other,
        }
    }

    /// This refusal with its subject and numbers.
    pub fn with(self, detail: Detail) -> StoreError {
        StoreError::Detailed(self, Box::new(detail))
    }
}

impl Coded for StoreError {
    fn code(&self) -> &'static str {
        StoreError::code(self)
    }
    fn message(&self, lang: Lang) -> String {
        match self {
            Self::Contract(c) => Coded::message(c, lang),
            _ => self.message_in(lang),
        }
    }
    fn issues(&self, lang: Lang) -> Option<(&'static str, Vec<Violation>)> {
        match self {
            Self::Contract(c) => c.issues(lang),
            _ => None,
        }
    }
    /// The locate error's source and counts; a detailed refusal's subject and numbers as `detail`.
    fn details(&self) -> Vec<(&'static str, serde_json::Value)> {
        match self {
            Self::Locate(l) => l.details(),
            Self::Detailed(_, d) => serde_json::to_value(&**d).map(|v| vec![("detail", v)]).unwrap_or_default(),
            _ => Vec::new(),
        }
    }
}

impl From<StoreErrorKind> for StoreError {
    fn from(k: StoreErrorKind) -> Self {
        Self::Store(k)
    }
}
impl From<locate::LocateError> for StoreError {
    fn from(l: locate::LocateError) -> Self {
        Self::Locate(l)
    }
}
impl From<ContractError> for StoreError {
    fn from(c: ContractError) -> Self {
        Self::Contract(c)
    }
}
impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}
impl std::error::Error for StoreError {}

/// At most the first 80 code points of `text` (`…` when cut), escaped for a message:
/// `\n`, `\t`, `"` and `\` as in JSON, invisible characters as `⟦U+XXXX⟧`.
fn escaped_excerpt(text: &str) -> String {
    let mut out = String::new();
    let mut prev = None;
    for (i, c) in text.chars().enumerate() {
        if i == 80 {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() || crate::visible::is_shown(prev, c) => crate::visible::push_shown(&mut out, c),
            c => out.push(c),
        }
        prev = Some(c);
    }
    out
}
