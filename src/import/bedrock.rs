//! AWS Bedrock Converse `citationsContent` → a bundle.
//!
//! Each `output.message.content[i].citationsContent` block is one claim: its text is
//! `content[].text` joined; its citations are `citations[]`, whose cited text is
//! `sourceContent[].text` joined (streaming sends it in pieces). `documentIndex` counts
//! the `document` blocks of the request in order of appearance across its messages; the
//! host's snapshot of a document is found under its index (`"0"`) or its `name`.
//!
//! - `documentChar {documentIndex, start, end}`: checked exactly, `[start, end)` into the
//!   host's snapshot. AWS does not state the unit: it is settled from the documents.
//!   Every citation is tried in code points and in UTF-16 units; the response's unit is
//!   UTF-16 when some citation holds only in UTF-16 and none only in code points, else
//!   code points (Claude on Bedrock counts as Anthropic does). A citation that does not
//!   hold in that unit keeps the model's range and quote, so the check reports it.
//! - `documentPage`: the quote located within pages `start..=end` (1-based) of the
//!   snapshot, pages separated by form feeds (U+000C, as pdftotext writes them).
//! - `documentChunk`: the quote located within chunks `start..=end` of the request
//!   document's `source.content[]` text blocks, themselves located in the snapshot.
//! - `web`: existence only; `searchResultLocation`: not a document of the host's.

use std::collections::BTreeMap;

use serde_json::Value;

use super::anthropic::{normalized_range, utf16_range};
use super::provider::{array_at, str_at, usize_at, Builder, ImportIssueKind, ProviderImport, ProviderOptions};
use crate::citation::Unit;
use crate::digest::normalize_newlines;
use crate::error::{ContractError, ViolationCode};

pub const TITLE: &str = "Bedrock response";
/// Pages of a snapshot are separated by this character (pdftotext's form feed).
pub const PAGE_BREAK: char = '\u{c}';

/// A document block of the request.
struct Document {
    name: Option<String>,
    /// `source.content[]` text blocks, when the document has them.
    chunks: Option<Vec<String>>,
}

fn documents(request: &Value) -> Vec<Document> {
    let mut out = Vec::new();
    for message in array_at(request, "messages") {
        for block in array_at(message, "content") {
            let Some(doc) = block.get("document") else { continue };
            let chunks = doc.get("source").and_then(|s| s.get("content")).and_then(Value::as_array).map(|items| {
                items.iter().map(|i| str_at(i, "text").unwrap_or("").to_owned()).collect()
            });
            out.push(Document { name: str_at(doc, "name").map(str::to_owned), chunks });
        }
    }
    out
}

/// The snapshot key of document `d`: its index, or else its name.
fn key_of(b: &Builder, docs: &[Document], d: usize) -> String {
    let index = d.to_string();
    if b.source(&index).is_some() {
        return index;
    }
    match docs.get(d).and_then(|doc| doc.name.clone()) {
        Some(name) if b.source(&name).is_some() => name,
        _ => index,
    }
}

fn cited_text(cite: &Value) -> Option<String> {
    let parts = cite.get("sourceContent")?.as_array()?;
    let texts: Vec<&str> = parts.iter().filter_map(|p| str_at(p, "text")).collect();
    (!texts.is_empty()).then(|| texts.concat())
}

/// Which units a char range holds its text in: (code points, UTF-16).
fn holds(raw: &str, index: &crate::citation::TextIndex, start: usize, end: usize, cited: &str) -> (bool, bool) {
    let cp = index.slice(raw, start, end) == Some(cited);
    let u16 = utf16_range(raw, index, start, end).and_then(|(s, e)| index.slice(raw, s, e)) == Some(cited);
    (cp, u16)
}

/// Imports a Converse request and its response.
pub fn from_bedrock_response(request: &Value, response: &Value, options: &ProviderOptions) -> Result<ProviderImport, ContractError> {
    let docs = documents(request);
    // Extended, not collected: a map collected from an iterator compiles a sort of its own.
    let mut titles = BTreeMap::new();
    titles.extend(docs.iter().enumerate().filter_map(|(i, d)| Some((i.to_string(), d.name.clone()?))));
    let mut b = Builder::new("bedrock", options, &titles);
    let Some(blocks) = response.get("output").and_then(|o| o.get("message")).and_then(|m| m.get("content")).and_then(Value::as_array) else {
        b.c.push("/response/output/message/content", ViolationCode::Missing, "a Converse response needs output.message.content");
        return b.finish(TITLE);
    };
    // First pass: the unit of documentChar ranges, settled from the documents.
    let (mut only_cp, mut only_u16) = (0usize, 0usize);
    for block in blocks {
        for cite in block.get("citationsContent").map(|c| array_at(c, "citations")).unwrap_or(&[]) {
            let Some(loc) = cite.get("location").and_then(|l| l.get("documentChar")) else { continue };
            let (Some(d), Some(s), Some(e), Some(text)) = (usize_at(loc, "documentIndex"), usize_at(loc, "start"), usize_at(loc, "end"), cited_text(cite)) else { continue };
            let key = key_of(&b, &docs, d);
            if let Some(src) = b.source(&key) {
                match holds(&src.raw, &src.raw_index, s, e, &text) {
                    (true, false) => only_cp += 1,
                    (false, true) => only_u16 += 1,
                    _ => {}
                }
            }
        }
    }
    let unit = if only_u16 > 0 && only_cp == 0 { Unit::Utf16 } else { Unit::CodePoint };
    let unit_name = if unit == Unit::Utf16 { "utf16" } else { "code_point" };
    for (i, block) in blocks.iter().enumerate() {
        let Some(cc) = block.get("citationsContent") else { continue };
        let base = format!("/output/message/content/{i}/citationsContent");
        let claim: String = array_at(cc, "content").iter().filter_map(|p| str_at(p, "text")).collect();
        let mut citations = Vec::new();
        for (k, cite) in array_at(cc, "citations").iter().enumerate() {
            let path = format!("{base}/citations/{k}");
            let loc = cite.get("location").and_then(Value::as_object);
            let Some((kind, at)) = loc.and_then(|l| l.iter().next()) else {
                b.issue(ImportIssueKind::LocationNotCheckable, &path, Some(&claim), "the citation has no location".into());
                continue;
            };
            let title = str_at(cite, "title").unwrap_or("");
            match kind.as_str() {
                "web" => {
                    let url = str_at(at, "url").unwrap_or("");
                    b.issue(ImportIssueKind::ExistenceOnly, &path, Some(&claim), format!("web {url:?} {title:?}"));
                    continue;
                }
                "documentChar" | "documentPage" | "documentChunk" => {}
                other => {
                    b.issue(ImportIssueKind::LocationNotCheckable, &path, Some(&claim), format!("{other}: not a document the host holds"));
                    continue;
                }
            }
            let (Some(d), Some(start), Some(end)) = (usize_at(at, "documentIndex"), usize_at(at, "start"), usize_at(at, "end")) else {
                b.issue(ImportIssueKind::LocationNotCheckable, &path, Some(&claim), format!("{kind} needs documentIndex, start and end"));
                continue;
            };
            let Some(text) = cited_text(cite) else {
                b.issue(ImportIssueKind::NoCitedText, &path, Some(&claim), format!("{kind} of document {d} without sourceContent[].text"));
                continue;
            };
            let key = key_of(&b, &docs, d);
            let Some(src) = b.source(&key) else {
                let issue = b.issue(ImportIssueKind::SourceNotSupplied, &path, Some(&claim), format!("document {d}"));
                issue.claim = Some(claim.clone());
                continue;
            };
            let doc_index = Some(d as u64);
            match kind.as_str() {
                "documentChar" => {
                    let (cp, u16) = holds(&src.raw, &src.raw_index, start, end, &text);
                    let ok = if unit == Unit::Utf16 { u16 } else { cp };
                    let source_ref = src.source_ref.clone();
                    if ok {
                        let (s, e) = if unit == Unit::Utf16 { utf16_range(&src.raw, &src.raw_index, start, end).unwrap_or((start, end)) } else { (start, end) };
                        let (s, e) = normalized_range(&src.raw, &src.raw_index, (s, e));
                        let citation_id = b.citation_id();
                        b.note(&citation_id, doc_index, unit_name);
                        citations.push(crate::contract::Citation { citation_id, source_ref, start: s as u64, end: e as u64, quote: normalize_newlines(&text).into_owned() });
                    } else {
                        // The model's range and quote, unchanged: the check reports them.
                        let c = b.flagged(source_ref, start as u64, end.max(start + 1) as u64, text.clone(), &path, &claim, doc_index, unit_name, ImportIssueKind::CitedTextNotFound);
                        citations.push(c);
                    }
                }
                "documentPage" => {
                    let window = page_window(&src.content, start, end);
                    match window {
                        Some(w) => citations.extend(b.quote_citation(&key, &text, Some(w), "page", &path, &claim, doc_index)),
                        None => {
                            b.issue(ImportIssueKind::LocationNotCheckable, &path, Some(&claim), format!("pages {start}..{end} of document {d}: the snapshot has {} page(s), separated by form feeds", src.content.split(PAGE_BREAK).count()));
                        }
                    }
                }
                _ => {
                    let chunks = docs.get(d).and_then(|doc| doc.chunks.as_ref());
                    let window = chunks.and_then(|ch| {
                        let region: String = ch.get(start..=end.min(ch.len().saturating_sub(1)))?.concat();
                        match b.find(&key, &region, None) {
                            super::provider::Found::At(s, e, _) => Some((s, e)),
                            _ => None,
                        }
                    });
                    match window {
                        Some(w) => citations.extend(b.quote_citation(&key, &text, Some(w), "chunk", &path, &claim, doc_index)),
                        None => {
                            b.issue(ImportIssueKind::LocationNotCheckable, &path, Some(&claim), format!("chunks {start}..{end} of document {d}: the request's source.content blocks are not (once) in the host's snapshot"));
                        }
                    }
                }
            }
        }
        b.claim(&claim, citations);
    }
    b.finish(TITLE)
}

/// The code-point window of pages `start..=end` (1-based) of `text`.
fn page_window(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let mut bounds = vec![0usize];
    for (i, ch) in text.chars().enumerate() {
        if ch == PAGE_BREAK {
            bounds.push(i + 1);
        }
    }
    let pages = bounds.len();
    let total = text.chars().count();
    let last = end.max(start);
    if start == 0 || last > pages {
        return None;
    }
    let from = *bounds.get(start - 1)?;
    let to = bounds.get(last).map_or(total, |b| b.saturating_sub(1));
    Some((from, to))
}
