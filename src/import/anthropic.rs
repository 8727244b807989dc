//! Anthropic Messages API citations → a bundle.
//!
//! The request's `document` blocks (in order of appearance across its messages) become
//! the catalogue and the sources: `source.type` `text` gives its `data`, `content` its
//! text blocks joined by [`SEPARATOR`] (recorded on the source's import note), so a block
//! range maps to a code-point range and the range's text is the blocks' concatenation,
//! which is what `cited_text` holds. Each `text` block of the response that carries
//! citations becomes one `fact` claim; each citation one citation whose quote is
//! `cited_text`. A `char_location` range is tried in code points, then in UTF-16 units;
//! the unit that holds is recorded on the citation's import note. When neither holds, the
//! model's range and quote are kept unchanged so that the check reports it
//! (`quote_mismatch`, `range_out_of_bounds`): nothing is silently corrected. A block range
//! the document does not have ends past the text (one code point per missing block), so
//! the check reports `range_out_of_bounds`.
//! `page_location` (PDF pages) is refused: PDF text is not ours to extract.
//!
//! Each document is indexed once ([`TextIndex`]: code points, UTF-16 units, CRLF pairs):
//! a citation costs a lookup, never a walk of its document. A response with more
//! citations than the policy's `max_response_citations` is refused before any is read.

use serde_json::{Map, Value};

use crate::bundle::{Bundle, BundleSource};
use crate::citation::{TextIndex, Unit};
use crate::rules::is_identifier;
use crate::json::{join, join_index};
use crate::contract::Checker;
use crate::contract::{Citation, Claim, ClaimKind, Report, Scope, SourceKind, SourceRef, SourceSpec};
use crate::digest::{normalize_newlines, sha256_hex};
use crate::error::{ContractError, Violation, ViolationCode};
use crate::import::ImportNote;
use crate::policy::Policy;

/// What the blocks of a content document are joined with: nothing, because Anthropic's
/// `cited_text` of a block range is "the full text of the cited block range, concatenated".
pub const SEPARATOR: &str = "";
/// The report title of an imported message.
pub const TITLE: &str = "Anthropic message";

/// Options of [`from_anthropic_message`].
#[derive(Clone, Debug)]
pub struct AnthropicOptions {
    pub scope: Scope,
    /// The source id of each document, by document index (default `doc-<index>`).
    pub source_ids: Vec<String>,
    /// When the host fetched the documents (each source's `fetched_at`).
    pub fetched_at: Option<String>,
    /// Keep the uncited text blocks of the response as the report's gaps.
    pub uncited_as_gaps: bool,
    /// The limits: `max_response_citations` bounds the citations read.
    pub policy: Policy,
    /// The report's title (default [`TITLE`]; a blank one is not taken).
    pub title: Option<String>,
}

/// One document of the request.
struct Document {
    index: usize,
    /// Where it is in the request (`/request/messages/0/content/1`).
    path: String,
    title: Option<String>,
    /// Its text (`None` for a document that is not text, e.g. a PDF).
    text: Option<String>,
    /// Content documents: the code-point start of each block, and the end.
    blocks: Option<Vec<usize>>,
    source_type: String,
}

fn documents(c: &mut Checker, request: &Value) -> Vec<Document> {
    let mut out = Vec::new();
    let Some(messages) = request.get("messages").and_then(Value::as_array) else {
        c.push("/request/messages", ViolationCode::Missing, "the request needs a messages array");
        return out;
    };
    for (m, message) in messages.iter().enumerate() {
        let Some(content) = message.get("content").and_then(Value::as_array) else { continue };
        for (b, block) in content.iter().enumerate() {
            if block.get("type").and_then(Value::as_str) != Some("document") {
                continue;
            }
            let path = format!("/request/messages/{m}/content/{b}");
            let index = out.len();
            let source = block.get("source");
            let source_type = source.and_then(|s| s.get("type")).and_then(Value::as_str).unwrap_or("").to_owned();
            let title = block.get("title").and_then(Value::as_str).map(str::to_owned);
            let (text, blocks) = match source_type.as_str() {
                "text" => match source.and_then(|s| s.get("data")).and_then(Value::as_str) {
                    Some(d) => (Some(d.to_owned()), None),
                    None => {
                        c.push(&format!("{path}/source/data"), ViolationCode::Missing, format!("document {index} is a text document without a data string"));
                        (None, None)
                    }
                },
                "content" => content_text(c, source.and_then(|s| s.get("content")), &format!("{path}/source/content"), index),
                _ => (None, None),
            };
            out.push(Document { index, path, title, text, blocks, source_type });
        }
    }
    out
}

/// The text of a content document (its text blocks joined) and each block's start.
fn content_text(c: &mut Checker, content: Option<&Value>, path: &str, index: usize) -> (Option<String>, Option<Vec<usize>>) {
    let texts: Vec<&str> = match content {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(items)) => {
            let mut texts = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match (item.get("type").and_then(Value::as_str), item.get("text").and_then(Value::as_str)) {
                    (Some("text"), Some(t)) => texts.push(t),
                    _ => {
                        c.push(&join_index(path, i), ViolationCode::NotAllowed, format!("document {index}: only text blocks can be checked"));
                        return (None, None);
                    }
                }
            }
            texts
        }
        _ => {
            c.push(path, ViolationCode::Missing, format!("document {index} is a content document without a content list"));
            return (None, None);
        }
    };
    let mut starts = Vec::with_capacity(texts.len() + 1);
    let mut text = String::new();
    let mut at = 0usize;
    for (i, t) in texts.iter().enumerate() {
        if i > 0 {
            text.push_str(SEPARATOR);
            at += SEPARATOR.chars().count();
        }
        starts.push(at);
        text.push_str(t);
        at += t.chars().count();
    }
    starts.push(at);
    (Some(text), Some(starts))
}

/// A citation's range in the document's raw text, the unit that held, if any: through
/// the document's index, so the cost does not grow with the document.
pub(crate) fn char_range(raw: &str, index: &TextIndex, start: usize, end: usize, cited: &str) -> Option<(usize, usize, &'static str)> {
    if index.slice(raw, start, end) == Some(cited) {
        return Some((start, end, "code_point"));
    }
    let (s, e) = utf16_range(raw, index, start, end)?;
    (index.slice(raw, s, e) == Some(cited)).then_some((s, e, "utf16"))
}

/// A non-empty UTF-16 range of the indexed `raw` text in code points (through its index).
pub(crate) fn utf16_range(raw: &str, index: &TextIndex, start: usize, end: usize) -> Option<(usize, usize)> {
    if start >= end {
        return None;
    }
    let at = |o| index.code_point_of(raw, o, Unit::Utf16).ok();
    Some((at(start)?, at(end)?))
}

/// A code-point range of the raw text as a range of the LF-normalised text the store
/// holds; offsets past the text's end stay as far past the normalised end.
pub(crate) fn normalized_range(raw: &str, index: &TextIndex, (s, e): (usize, usize)) -> (usize, usize) {
    let at = |cp: usize, start: bool| match cp.checked_sub(index.chars()) {
        Some(past) if past > 0 => index.lf_normalized(raw, index.chars(), false).saturating_add(past),
        _ => index.lf_normalized(raw, cp, start),
    };
    (at(s, true), at(e, false))
}

/// The citations of the response's text blocks, counted without reading them.
fn citation_count(blocks: &[Value]) -> usize {
    blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .map(|b| b.get("citations").and_then(Value::as_array).map_or(0, Vec::len))
        .sum()
}

/// Block range `[start, end)` of a content document (`starts`: each block's code-point
/// start, then the end) as the code-point range of its blocks' text, and whether the
/// document has those blocks. A block index past the last block is one code point past
/// the text's end per missing block, so that a range the document does not have ends
/// past it (the check reports `range_out_of_bounds`).
fn block_range(starts: &[usize], start: usize, end: usize) -> ((usize, usize), bool) {
    let blocks = starts.len().saturating_sub(1);
    let total = starts.last().copied().unwrap_or(0);
    let at = |b: usize| starts.get(b).copied().unwrap_or_else(|| total.saturating_add(b - blocks));
    let separator = if end < blocks { SEPARATOR.chars().count() } else { 0 };
    ((at(start), at(end).saturating_sub(separator)), start < end && end <= blocks)
}

fn usize_at(v: &Map<String, Value>, key: &str) -> Option<usize> {
    v.get(key).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok())
}

/// Builds the bundle. A problem with the request or the response (not a wrong range:
/// that is the check's finding) is a contract error naming its JSON path.
pub fn from_anthropic_message(request: &Value, response: &Value, options: &AnthropicOptions) -> Result<Bundle, ContractError> {
    let mut c = Checker::default();
    let docs = documents(&mut c, request);
    let mut sources = Vec::new();
    let mut refs: Vec<Option<(SourceRef, TextIndex)>> = Vec::with_capacity(docs.len());
    let mut notes = Vec::new();
    for doc in &docs {
        let source_id = options.source_ids.get(doc.index).cloned().unwrap_or_else(|| format!("doc-{}", doc.index));
        if !is_identifier(&source_id) {
            c.push(&format!("/options/sourceIds/{}", doc.index), ViolationCode::PatternMismatch, format!("source id {source_id:?} of document {} is not an identifier", doc.index));
        }
        let Some(text) = &doc.text else {
            refs.push(None);
            continue;
        };
        let content = normalize_newlines(text).into_owned();
        let title: String = doc.title.clone().filter(|t| !crate::rules::is_blank(t)).unwrap_or_else(|| format!("Document {}", doc.index));
        let title: String = title.chars().take(120).collect();
        let spec = SourceSpec {
            source_id: source_id.clone(),
            title,
            locator: format!("anthropic:document/{}", doc.index),
            filename: format!("{source_id}.md"),
            kind: SourceKind::Public,
        };
        let source_ref = SourceRef { source_id: source_id.clone(), revision: 1, digest: sha256_hex(&content) };
        refs.push(Some((source_ref, TextIndex::new(text))));
        if doc.blocks.is_some() {
            notes.push(ImportNote {
                importer: "anthropic".into(),
                source_id: Some(source_id.clone()),
                document_index: Some(doc.index as u64),
                separator: Some(SEPARATOR.into()),
                ..ImportNote::default()
            });
        }
        sources.push(BundleSource { spec, content, revision: 1, fetched_at: options.fetched_at.clone() });
    }
    let mut claims = Vec::new();
    let mut gaps = Vec::new();
    let blocks = match response.get("content").and_then(Value::as_array) {
        Some(b) => b.as_slice(),
        None => {
            c.push("/response/content", ViolationCode::Missing, "the response needs a content array");
            &[]
        }
    };
    let cited = citation_count(blocks);
    let limit = options.policy.max_response_citations;
    if cited > limit {
        let mut message = format!("the response has {cited} citations, over the limit of {limit} citations a response (max_response_citations)");
        if !options.policy.reference_messages {
            message = format!("{message}; {}", crate::error::how_to_raise("max_response_citations", crate::error::Lang::En));
        }
        let violations = vec![Violation { path: "/response/content".into(), code: ViolationCode::TooLong, message }];
        return Err(ContractError { subject: "anthropic_message", violations });
    }
    let mut next_citation = 0usize;
    for (b, block) in blocks.iter().enumerate() {
        if block.get("type").and_then(Value::as_str) != Some("text") {
            continue;
        }
        let text = block.get("text").and_then(Value::as_str).unwrap_or("");
        let cites = block.get("citations").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        if cites.is_empty() {
            // A gap says something: text with no letter or digit (punctuation, spaces,
            // symbols between the cited blocks) is none.
            if options.uncited_as_gaps && !crate::rules::is_blank(text) && text.chars().any(char::is_alphanumeric) {
                gaps.push(text.trim().to_owned());
            }
            continue;
        }
        let mut citations = Vec::with_capacity(cites.len());
        for (k, cite) in cites.iter().enumerate() {
            let path = join_index(&join(&format!("/response/content/{b}"), "citations"), k);
            let Some(cite) = cite.as_object() else {
                c.push(&path, ViolationCode::WrongType, "a citation must be an object");
                continue;
            };
            let kind = cite.get("type").and_then(Value::as_str).unwrap_or("");
            if matches!(kind, "web_search_result_location" | "search_result_location") {
                c.push(&join(&path, "type"), ViolationCode::NotAllowed, format!("a {kind} citation cites a search result, not a document of the request: its text is not the host's to check"));
                continue;
            }
            let Some(d) = usize_at(cite, "document_index") else {
                c.push(&join(&path, "document_index"), ViolationCode::Missing, "a citation needs a document_index");
                continue;
            };
            let Some(doc) = docs.get(d) else {
                c.push(&join(&path, "document_index"), ViolationCode::NotAllowed, format!("document {d} is not in the request ({} documents)", docs.len()));
                continue;
            };
            let name = match &doc.title {
                Some(t) => format!("document {d} ({t:?}, {})", doc.path),
                None => format!("document {d} ({})", doc.path),
            };
            if kind == "page_location" {
                c.push(&path, ViolationCode::NotAllowed, format!("page_location cites PDF pages of {name}: PDF text is not ours to extract; send the document as text"));
                continue;
            }
            let Some((source_ref, index)) = refs.get(d).and_then(Option::as_ref) else {
                c.push(&path, ViolationCode::NotAllowed, format!("{name} is a {:?} document, not text or content: it cannot be checked", doc.source_type));
                continue;
            };
            let raw = doc.text.as_deref().unwrap_or("");
            let Some(cited) = cite.get("cited_text").and_then(Value::as_str) else {
                c.push(&join(&path, "cited_text"), ViolationCode::Missing, "a citation needs its cited_text");
                continue;
            };
            let (start_key, end_key) = match (kind, &doc.blocks) {
                ("char_location", None) => ("start_char_index", "end_char_index"),
                ("content_block_location", Some(_)) => ("start_block_index", "end_block_index"),
                _ => {
                    c.push(&join(&path, "type"), ViolationCode::NotAllowed, format!("a {kind:?} citation does not fit {name} (source type {:?})", doc.source_type));
                    continue;
                }
            };
            let (Some(start), Some(end)) = (usize_at(cite, start_key), usize_at(cite, end_key)) else {
                c.push(&path, ViolationCode::Missing, format!("a {kind} citation needs {start_key} and {end_key}"));
                continue;
            };
            // Offsets of the LF-normalised text the store holds (a char range that held in
            // no unit stays the model's own).
            let ((s, e), unit) = match &doc.blocks {
                Some(starts) => {
                    let (range, held) = block_range(starts, start, end);
                    let held = held && index.slice(raw, range.0, range.1) == Some(cited);
                    (normalized_range(raw, index, range), if held { "block" } else { "unmatched" })
                }
                None => match char_range(raw, index, start, end, cited) {
                    Some((s, e, unit)) => (normalized_range(raw, index, (s, e)), unit),
                    None => ((start, end), "unmatched"),
                },
            };
            let citation_id = format!("cite-{next_citation}");
            next_citation += 1;
            notes.push(ImportNote {
                importer: "anthropic".into(),
                citation_id: Some(citation_id.clone()),
                document_index: Some(d as u64),
                unit: Some(unit.into()),
                ..ImportNote::default()
            });
            let quote = if unit == "unmatched" { cited.to_owned() } else { normalize_newlines(cited).into_owned() };
            citations.push(Citation { citation_id, source_ref: source_ref.clone(), start: s as u64, end: e as u64, quote });
        }
        claims.push(Claim { claim_id: format!("claim-{}", claims.len()), text: text.trim().to_owned(), kind: ClaimKind::Fact, rationale: String::new(), citations });
    }
    if !c.violations.is_empty() {
        return Err(ContractError { subject: "anthropic_message", violations: c.violations });
    }
    let title = options.title.clone().filter(|t| !crate::rules::is_blank(t)).unwrap_or_else(|| TITLE.into());
    let report = Report { title, claims, conflicts: Vec::new(), gaps };
    Ok(Bundle { scope: options.scope.clone(), sources, report, reviews: Vec::new(), import_notes: notes })
}
