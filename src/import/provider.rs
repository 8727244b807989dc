//! What the provider importers ([`super::bedrock`], [`super::openai`], [`super::gemini`])
//! share: the host's snapshots (a map from the provider's key — a document index, a file
//! id, a URI — to a source id and the text the host holds), the issues that list every
//! citation that could not be checked (each with a code), and the builder that binds
//! quotes to the snapshots with the one locator ([`crate::store::locate`]).
//!
//! Sources are always the host's snapshots, never text taken from the response. A quote
//! located in a snapshot becomes a citation whose quote is the snapshot's own text. A
//! quote that is not in the snapshot is kept as the provider's text over the first code
//! points of the source, so the check reports it (`quote_mismatch`, or
//! `range_out_of_bounds` on a shorter source) and the bundle is `invalid`: never
//! corrected, never dropped. A citation with nothing to check (a URL, a file id without
//! text) is an [`ImportIssue`], and so is one whose quote is ambiguous.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::bundle::{Bundle, BundleSource};
use crate::citation::TextIndex;
use crate::contract::{Checker, Citation, Claim, ClaimKind, Report, Scope, SourceKind, SourceRef, SourceSpec};
use crate::digest::{normalize_newlines, sha256_hex};
use crate::error::{ContractError, Lang, ViolationCode};
use crate::import::ImportNote;
use crate::policy::Policy;
use crate::rules::is_identifier;
use crate::store::locate::{locate, LocateError, LocateOptions, Selector};

crate::error::coded_enum! {
    /// Why a provider's citation was not checked, or was flagged.
    ImportIssueKind {
        /// Only a URL, a file id or a title came back: existence, not a passage.
        ExistenceOnly => ("existence_only", "引用只给出网址、文件标识或标题:只能记录其存在,无法核对段落。", "The citation gives only a URL, a file id or a title: its existence is recorded, no passage can be checked."),
        /// The citation carries no cited text (a field left out, or never returned).
        NoCitedText => ("no_cited_text", "引用没有附带被引原文,无法核对。", "The citation carries no cited text, so it cannot be checked."),
        /// The host supplied no snapshot for the document, file or URI the citation names.
        SourceNotSupplied => ("source_not_supplied", "宿主没有提供该引用所指资料的快照。", "The host supplied no snapshot of the document, file or URI the citation names."),
        /// The cited text is not in the host's snapshot (at that range, page or chunk).
        CitedTextNotFound => ("cited_text_not_found", "被引原文不在宿主的快照中(或不在所指的范围、页或块中)。", "The cited text is not in the host's snapshot (or not at the range, page or chunk it names)."),
        /// The cited text occurs more than once where it was looked for: no guess is made.
        CitedTextAmbiguous => ("cited_text_ambiguous", "被引原文在所指范围内出现多次,不作猜测。", "The cited text occurs more than once where it was looked for; no guess is made."),
        /// The answer offsets do not select the answer text the provider gives for them.
        AnswerOffsetsMismatch => ("answer_offsets_mismatch", "回答中的偏移量所指的文字与提供方给出的文字不一致。", "The answer offsets do not select the answer text the provider gives for them."),
        /// Answer offsets outside the answer text, or not on a character boundary.
        AnswerOffsetsOutOfRange => ("answer_offsets_out_of_range", "回答中的偏移量超出回答文本,或不在字符边界上。", "The answer offsets fall outside the answer text, or not on a character boundary."),
        /// A location evidence-check cannot check (a search result, a page of a text without pages, a generated file).
        LocationNotCheckable => ("location_not_checkable", "该引用位置无法核对。", "This kind of citation location cannot be checked."),
    }
}

/// What an [`ImportIssue`]'s message says after its code's text, with `{}` for what it
/// names: each English text and its Chinese one. A more specific text comes first.
pub const DETAIL_TEXTS: &[(&str, &str)] = &[
    ("{} occurrences in source {} within [{}, {})", "{} 次出现,位于来源 {} 的 [{}, {}) 内"),
    ("{} occurrences in source {}", "{} 次出现,位于来源 {}"),
    ("source {}, kept as citation {} so that the check reports it", "来源 {},保留为引用 {},由检查报告"),
    ("a citation translated from {}: its cited_text is the answer's text, not a source passage (url {})", "由 {} 转换而来的引用:其 cited_text 是回答的文字,不是来源段落(网址 {})"),
    ("url {}, no cited_text", "网址 {},没有 cited_text"),
    ("{} source {}: no cited text passes through", "{} 来源 {}:没有传来被引原文"),
    ("the citation has no location", "引用没有位置"),
    ("{}: not a document the host holds", "{}:不是宿主持有的文档"),
    ("{} needs documentIndex, start and end", "{} 需要 documentIndex、start 和 end"),
    ("{} of document {} without sourceContent[].text", "{}(文档 {})没有 sourceContent[].text"),
    ("pages {}..{} of document {}: the snapshot has {} page(s), separated by form feeds", "第 {}..{} 页(文档 {}):快照只有 {} 页(以换页符分隔)"),
    (
        "chunks {}..{} of document {}: the request's source.content blocks are not (once) in the host's snapshot",
        "第 {}..{} 块(文档 {}):请求的 source.content 块不在宿主的快照中,或不止出现一次",
    ),
    ("part {} of an answer of {} parts", "第 {} 部分,回答共 {} 部分"),
    ("UTF-8 bytes [{}, {}) of part {} are {}, the segment's text is {}", "UTF-8 字节 [{}, {})(第 {} 部分)是 {},而片段的文字是 {}"),
    ("UTF-8 bytes [{}, {}) of part {} ({} bytes): outside it or not on a character boundary", "UTF-8 字节 [{}, {})(第 {} 部分,共 {} 字节):超出该部分或不在字符边界上"),
    ("chunk {} is not in groundingChunks ({} chunks)", "块 {} 不在 groundingChunks 中(共 {} 块)"),
    ("a {} chunk", "{} 块"),
    ("retrievedContext {} without text", "retrievedContext {} 没有文字"),
    ("a file_citation needs its file_id and index", "file_citation 需要 file_id 和 index"),
    ("index {} of an answer of {} code points", "索引 {},回答共 {} 个码位"),
    ("container {} file {}: no text of it comes back", "容器 {} 的文件 {}:没有返回它的文字"),
    ("{} annotation: not a citation of a source", "{} 标注:不是对来源的引用"),
    ("file {}: the request did not include {}, so no result text came back", "文件 {}:请求没有包含 {},因此没有返回结果文字"),
    ("file {}: the response has no file_search_call results", "文件 {}:响应没有 file_search_call 结果"),
    ("file {}: no file_search_call result is of this file", "文件 {}:没有属于此文件的 file_search_call 结果"),
    ("url {} {}", "网址 {} {}"),
    ("web {} {}", "网页 {} {}"),
    ("document {}", "文档 {}"),
];

/// A host's snapshot: the source id it is catalogued under and the text the host holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostSource {
    pub source_id: String,
    pub text: String,
    /// Catalogue title (default: the provider's title for it, or the source id).
    pub title: Option<String>,
    /// Catalogue locator (default: `<provider>:<key>`).
    pub locator: Option<String>,
}

/// Options of every provider importer.
#[derive(Clone, Debug)]
pub struct ProviderOptions {
    pub scope: Scope,
    /// The host's snapshots by the provider's key: a document index (`"0"`) or name for
    /// Bedrock, a file id for OpenAI, a URI for Gemini.
    pub sources: BTreeMap<String, HostSource>,
    pub policy: Policy,
    pub lang: Lang,
    /// The report's title (default: the provider's).
    pub title: Option<String>,
    /// When the host fetched its snapshots (each source's `fetched_at`).
    pub fetched_at: Option<String>,
}

impl ProviderOptions {
    pub fn new(scope: Scope) -> ProviderOptions {
        ProviderOptions { scope, sources: BTreeMap::new(), policy: Policy::default(), lang: crate::host::lang(), title: None, fetched_at: None }
    }
}

/// One citation that was not checked, or that was flagged: its code, why, and where it
/// is in the response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ImportIssue {
    #[cfg_attr(test, ts(type = "ImportIssueCode"))]
    pub code: &'static str,
    pub message: String,
    /// The JSON Pointer of the citation in the response (`/output/message/content/0/…`).
    pub path: String,
    /// The answer text the citation supports, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub claim: Option<String>,
    /// The bundle's citation, when it was kept (flagged) so that the check reports it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub citation_id: Option<String>,
    /// The host's source it names, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub source_id: Option<String>,
    /// The unit of the offsets concerned (`code_point`, `utf16`, `utf8`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub unit: Option<String>,
    /// Gemini: the part of the answer the offsets are in.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub part_index: Option<u64>,
}

/// What a provider importer made: the bundle (check it with `check_bundle`) and every
/// citation it could not check or flagged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProviderImport {
    #[cfg_attr(test, ts(type = "\"anthropic\" | \"bedrock\" | \"openai\" | \"gemini\" | \"vercel\" | \"langchain\""))]
    pub provider: &'static str,
    #[cfg_attr(test, ts(type = "ParsedBundle"))]
    pub bundle: Bundle,
    pub issues: Vec<ImportIssue>,
}

/// A host snapshot as the builder holds it.
pub(crate) struct Loaded {
    /// The text as the host gave it (ranges of the provider index it).
    pub raw: String,
    pub raw_index: TextIndex,
    /// The LF-normalised text the store holds.
    pub content: String,
    pub index: TextIndex,
    pub source_ref: SourceRef,
}

/// Where a quote was looked for and what came of it.
pub(crate) enum Found {
    /// `[start, end)` in the normalised text, and its exact text.
    At(usize, usize, String),
    Absent,
    Ambiguous(usize),
}

pub(crate) struct Builder<'o> {
    pub provider: &'static str,
    pub options: &'o ProviderOptions,
    pub c: Checker,
    sources: Vec<BundleSource>,
    /// By the provider's key.
    loaded: BTreeMap<String, Loaded>,
    pub claims: Vec<Claim>,
    pub notes: Vec<ImportNote>,
    pub issues: Vec<ImportIssue>,
    next_citation: usize,
}

impl<'o> Builder<'o> {
    /// Loads every host snapshot (in key order; a source id given under two keys is
    /// catalogued once). `titles` gives the provider's title of a key, when it has one.
    pub fn new(provider: &'static str, options: &'o ProviderOptions, titles: &BTreeMap<String, String>) -> Builder<'o> {
        let mut c = Checker::default();
        let mut sources: Vec<BundleSource> = Vec::new();
        let mut loaded = BTreeMap::new();
        for (key, host) in &options.sources {
            if !is_identifier(&host.source_id) {
                c.push(&format!("/options/sources/{key}/source_id"), ViolationCode::PatternMismatch, format!("source id {:?} is not an identifier", host.source_id));
                continue;
            }
            let content = normalize_newlines(&host.text).into_owned();
            let source_ref = SourceRef { source_id: host.source_id.clone(), revision: 1, digest: sha256_hex(&content) };
            if !sources.iter().any(|s| s.spec.source_id == host.source_id) {
                let title = host.title.clone().or_else(|| titles.get(key).cloned()).filter(|t| !crate::rules::is_blank(t)).unwrap_or_else(|| host.source_id.clone());
                let spec = SourceSpec {
                    source_id: host.source_id.clone(),
                    title: title.chars().take(120).collect(),
                    locator: host.locator.clone().unwrap_or_else(|| format!("{provider}:{key}")).chars().take(2000).collect(),
                    filename: format!("{}.md", host.source_id),
                    kind: SourceKind::Public,
                };
                sources.push(BundleSource { spec, content: content.clone(), revision: 1, fetched_at: options.fetched_at.clone() });
            }
            loaded.insert(
                key.clone(),
                Loaded { raw_index: TextIndex::new(&host.text), raw: host.text.clone(), index: TextIndex::new(&content), content, source_ref },
            );
        }
        Builder { provider, options, c, sources, loaded, claims: Vec::new(), notes: Vec::new(), issues: Vec::new(), next_citation: 0 }
    }

    pub fn source(&self, key: &str) -> Option<&Loaded> {
        self.loaded.get(key)
    }

    /// An issue of `kind` with a detail after its message.
    pub fn issue(&mut self, kind: ImportIssueKind, path: &str, claim: Option<&str>, detail: String) -> &mut ImportIssue {
        let lang = self.options.lang;
        let base = kind.message_in(lang);
        let detail = crate::error::template_in(DETAIL_TEXTS, &detail, lang);
        let message = match (detail.is_empty(), lang) {
            (true, _) => base.to_owned(),
            (false, Lang::En) => format!("{base} ({detail})"),
            (false, Lang::Zh) => format!("{}:{detail}。", base.trim_end_matches('。')),
        };
        self.issues.push(ImportIssue {
            code: kind.code(),
            message,
            path: path.to_owned(),
            claim: claim.map(str::to_owned),
            citation_id: None,
            source_id: None,
            unit: None,
            part_index: None,
        });
        let last = self.issues.len() - 1;
        // Just pushed, so it is there.
        #[allow(clippy::indexing_slicing)]
        &mut self.issues[last]
    }

    /// The next citation id.
    pub fn citation_id(&mut self) -> String {
        let id = format!("cite-{}", self.next_citation);
        self.next_citation += 1;
        id
    }

    /// Locates `quote` in the snapshot of `key`, within `[from, to)` (code points of the
    /// normalised text) when given.
    pub fn find(&self, key: &str, quote: &str, window: Option<(usize, usize)>) -> Found {
        let Some(src) = self.loaded.get(key) else { return Found::Absent };
        let (from, to) = window.unwrap_or((0, src.index.chars()));
        let Some(text) = src.index.slice(&src.content, from, to.min(src.index.chars())) else { return Found::Absent };
        let index = TextIndex::new(text);
        match locate(&src.source_ref.source_id, &index, text, &Selector::exact(quote), LocateOptions::default()) {
            Ok(l) => Found::At(from + l.start, from + l.end, l.text),
            Err(LocateError::Ambiguous { count, .. }) => Found::Ambiguous(count),
            Err(_) => Found::Absent,
        }
    }

    /// A citation of `key` for `quote`: located (its note's unit `unit`), or flagged when
    /// not found (kept over the first code points so that the check reports it), or an
    /// issue when ambiguous or the host has no snapshot. Returns the citation, if any.
    #[allow(clippy::too_many_arguments)]
    pub fn quote_citation(&mut self, key: &str, quote: &str, window: Option<(usize, usize)>, unit: &str, path: &str, claim: &str, document_index: Option<u64>) -> Option<Citation> {
        let Some(src) = self.loaded.get(key) else {
            self.issue(ImportIssueKind::SourceNotSupplied, path, Some(claim), format!("{} {key:?}", self.provider));
            return None;
        };
        let source_ref = src.source_ref.clone();
        match self.find(key, quote, window) {
            Found::At(s, e, text) => {
                let citation_id = self.citation_id();
                self.note(&citation_id, document_index, unit);
                Some(Citation { citation_id, source_ref, start: s as u64, end: e as u64, quote: text })
            }
            Found::Ambiguous(n) => {
                let where_ = window.map_or_else(String::new, |(a, b)| format!(" within [{a}, {b})"));
                let issue = self.issue(ImportIssueKind::CitedTextAmbiguous, path, Some(claim), format!("{n} occurrences in source {}{where_}", source_ref.source_id));
                issue.source_id = Some(source_ref.source_id.clone());
                None
            }
            Found::Absent => {
                let quote = normalize_newlines(quote).into_owned();
                let n = quote.chars().count().max(1) as u64;
                Some(self.flagged(source_ref, 0, n, quote, path, claim, document_index, unit, ImportIssueKind::CitedTextNotFound))
            }
        }
    }

    /// A citation kept as the provider gave it so that the check reports it, with an
    /// issue that names it.
    #[allow(clippy::too_many_arguments)]
    pub fn flagged(&mut self, source_ref: SourceRef, start: u64, end: u64, quote: String, path: &str, claim: &str, document_index: Option<u64>, unit: &str, kind: ImportIssueKind) -> Citation {
        let citation_id = self.citation_id();
        self.note(&citation_id, document_index, "unmatched");
        let source_id = source_ref.source_id.clone();
        let issue = self.issue(kind, path, Some(claim), format!("source {source_id}, kept as citation {citation_id} so that the check reports it"));
        issue.citation_id = Some(citation_id.clone());
        issue.source_id = Some(source_id);
        if unit != "quote" && unit != "page" && unit != "chunk" {
            issue.unit = Some(unit.to_owned());
        }
        Citation { citation_id, source_ref, start, end, quote }
    }

    pub fn note(&mut self, citation_id: &str, document_index: Option<u64>, unit: &str) {
        self.notes.push(ImportNote {
            importer: self.provider.into(),
            citation_id: Some(citation_id.to_owned()),
            document_index,
            unit: Some(unit.into()),
            ..ImportNote::default()
        });
    }

    /// A claim for the answer text `text` with `citations` (none: no claim; every
    /// citation not kept was listed as an issue).
    pub fn claim(&mut self, text: &str, citations: Vec<Citation>) {
        if citations.is_empty() {
            return;
        }
        let text = text.trim();
        let text = if text.is_empty() { "(empty answer span)" } else { text };
        let claim_id = format!("claim-{}", self.claims.len());
        self.claims.push(Claim { claim_id, text: text.to_owned(), kind: ClaimKind::Fact, rationale: String::new(), citations });
    }

    pub fn finish(self, default_title: &str) -> Result<ProviderImport, ContractError> {
        if !self.c.violations.is_empty() {
            return Err(ContractError { subject: "model_response", violations: self.c.violations });
        }
        let title = self.options.title.clone().filter(|t| !crate::rules::is_blank(t)).unwrap_or_else(|| default_title.to_owned());
        let report = Report { title, claims: self.claims, conflicts: Vec::new(), gaps: Vec::new() };
        Ok(ProviderImport {
            provider: self.provider,
            bundle: Bundle { scope: self.options.scope.clone(), sources: self.sources, report, reviews: Vec::new(), import_notes: self.notes },
            issues: self.issues,
        })
    }
}

pub(crate) fn usize_at(v: &Value, key: &str) -> Option<usize> {
    v.get(key).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok())
}

pub(crate) fn str_at<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

pub(crate) fn array_at<'v>(v: &'v Value, key: &str) -> &'v [Value] {
    v.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}
