//! Gemini / Vertex AI `groundingMetadata` → a bundle.
//!
//! Each `groundingSupports[]` entry is one claim. Its `segment {partIndex, startIndex,
//! endIndex, text}` indexes the answer in UTF-8 bytes of `content.parts[partIndex].text`
//! (start inclusive, end exclusive; a field at zero is often left out, proto3 style, and
//! reads as 0). The bytes are converted within that part and self-checked against
//! `segment.text`: a range off a character boundary, outside the part, or selecting other
//! text is an issue naming the unit and the part, and the support is not a claim (what it
//! supports is unknown).
//!
//! Its `groundingChunkIndices` name `groundingChunks[]`: `retrievedContext {uri, title,
//! text}` is located quote-only in the host's snapshot (keyed by `uri`, else
//! `documentName`, else `title`); `web {uri, title}` is existence only.

use serde_json::Value;

use super::provider::{array_at, str_at, usize_at, Builder, ImportIssueKind, ProviderImport, ProviderOptions};
use crate::error::{ContractError, ViolationCode};

pub const TITLE: &str = "Gemini response";

/// The text of `bytes[start..end)` of `part`, when both are character boundaries.
pub fn byte_slice(part: &str, start: usize, end: usize) -> Option<&str> {
    if start > end {
        return None;
    }
    part.get(start..end)
}

/// Imports a generateContent request and its response (the first candidate).
pub fn from_gemini_response(_request: &Value, response: &Value, options: &ProviderOptions) -> Result<ProviderImport, ContractError> {
    let candidate = response.get("candidates").and_then(Value::as_array).and_then(|c| c.first());
    let chunks = candidate.and_then(|c| c.get("groundingMetadata")).map(|g| array_at(g, "groundingChunks")).unwrap_or(&[]);
    let mut titles = std::collections::BTreeMap::new();
    for ch in chunks {
        if let Some(rc) = ch.get("retrievedContext") {
            if let (Some(uri), Some(t)) = (str_at(rc, "uri"), str_at(rc, "title")) {
                titles.insert(uri.to_owned(), t.to_owned());
            }
        }
    }
    let mut b = Builder::new("gemini", options, &titles);
    let Some(candidate) = candidate else {
        b.c.push("/response/candidates", ViolationCode::Missing, "a generateContent response needs a candidates array");
        return b.finish(TITLE);
    };
    let parts: Vec<&str> = candidate.get("content").map(|c| array_at(c, "parts")).unwrap_or(&[]).iter().map(|p| str_at(p, "text").unwrap_or("")).collect();
    let supports = candidate.get("groundingMetadata").map(|g| array_at(g, "groundingSupports")).unwrap_or(&[]);
    for (i, support) in supports.iter().enumerate() {
        let path = format!("/candidates/0/groundingMetadata/groundingSupports/{i}");
        let seg = support.get("segment").unwrap_or(&Value::Null);
        let part_index = usize_at(seg, "partIndex").unwrap_or(0);
        let start = usize_at(seg, "startIndex").unwrap_or(0);
        let given = str_at(seg, "text");
        let Some(part) = parts.get(part_index) else {
            let issue = b.issue(ImportIssueKind::AnswerOffsetsOutOfRange, &format!("{path}/segment"), given, format!("part {part_index} of an answer of {} parts", parts.len()));
            issue.part_index = Some(part_index as u64);
            issue.unit = Some("utf8".into());
            continue;
        };
        let end = usize_at(seg, "endIndex").unwrap_or(part.len());
        let claim = match (byte_slice(part, start, end), given) {
            (Some(s), Some(g)) if s == g => s.to_owned(),
            (Some(s), None) => s.to_owned(),
            (Some(s), Some(g)) => {
                let issue = b.issue(
                    ImportIssueKind::AnswerOffsetsMismatch,
                    &format!("{path}/segment"),
                    Some(g),
                    format!("UTF-8 bytes [{start}, {end}) of part {part_index} are {s:?}, the segment's text is {g:?}"),
                );
                issue.part_index = Some(part_index as u64);
                issue.unit = Some("utf8".into());
                continue;
            }
            (None, g) => {
                let issue = b.issue(
                    ImportIssueKind::AnswerOffsetsOutOfRange,
                    &format!("{path}/segment"),
                    g,
                    format!("UTF-8 bytes [{start}, {end}) of part {part_index} ({} bytes): outside it or not on a character boundary", part.len()),
                );
                issue.part_index = Some(part_index as u64);
                issue.unit = Some("utf8".into());
                continue;
            }
        };
        let mut citations = Vec::new();
        for (k, idx) in array_at(support, "groundingChunkIndices").iter().enumerate() {
            let cpath = format!("{path}/groundingChunkIndices/{k}");
            let Some(chunk) = idx.as_u64().and_then(|n| usize::try_from(n).ok()).and_then(|n| chunks.get(n)) else {
                b.issue(ImportIssueKind::LocationNotCheckable, &cpath, Some(&claim), format!("chunk {idx} is not in groundingChunks ({} chunks)", chunks.len()));
                continue;
            };
            if let Some(web) = chunk.get("web") {
                b.issue(ImportIssueKind::ExistenceOnly, &cpath, Some(&claim), format!("web {:?} {:?}", str_at(web, "uri").unwrap_or(""), str_at(web, "title").unwrap_or("")));
                continue;
            }
            let Some(rc) = chunk.get("retrievedContext") else {
                let kind = chunk.as_object().and_then(|o| o.keys().next().cloned()).unwrap_or_default();
                b.issue(ImportIssueKind::LocationNotCheckable, &cpath, Some(&claim), format!("a {kind:?} chunk"));
                continue;
            };
            let key = ["uri", "documentName", "title"].iter().filter_map(|f| str_at(rc, f)).find(|k| b.source(k).is_some()).or_else(|| str_at(rc, "uri")).unwrap_or("").to_owned();
            let Some(text) = str_at(rc, "text").filter(|t| !t.is_empty()) else {
                b.issue(ImportIssueKind::NoCitedText, &cpath, Some(&claim), format!("retrievedContext {key:?} without text"));
                continue;
            };
            citations.extend(b.quote_citation(&key, text, None, "quote", &cpath, &claim, None));
        }
        b.claim(&claim, citations);
    }
    b.finish(TITLE)
}
