//! OpenAI Responses API annotations → a bundle.
//!
//! Offsets index the answer (`output[].content[]` of type `output_text`), never the
//! source, so a claim is a span of the answer:
//!
//! - `file_citation {file_id, filename, index}`: `index` is an insertion point in the
//!   answer text (code points), whatever the type's doc comment says. The claim is the
//!   text from the previous insertion point (or the start) to it; several citations at
//!   one point are one claim. Its evidence is the `file_search_call.results[].text` of
//!   that file (the request's `include: ["file_search_call.results"]`), each located
//!   quote-only in the host's snapshot of the file (keyed by file id, or filename): one
//!   citation per result. A citation with no result text is an issue that says so.
//! - `url_citation`: the claim is `text[start_index..end_index]`; the source is a URL:
//!   existence only. `container_file_citation`: a container's file, no text: an issue.
//!   `file_path`: a generated file, not a citation of a source: an issue.

use serde_json::Value;

use super::provider::{array_at, str_at, usize_at, Builder, ImportIssueKind, ProviderImport, ProviderOptions};
use crate::error::{ContractError, ViolationCode};

pub const TITLE: &str = "OpenAI response";
/// The `include` value that makes file_search_call results carry their text.
pub const INCLUDE_RESULTS: &str = "file_search_call.results";

/// A file citation: its annotation index, file id and filename.
type Cited = (usize, String, String);

/// `text[from..to)` in code points.
fn span(text: &str, from: usize, to: usize) -> Option<String> {
    (from <= to && to <= text.chars().count()).then(|| text.chars().skip(from).take(to - from).collect())
}

/// Imports a Responses API request and its response.
pub fn from_openai_response(request: &Value, response: &Value, options: &ProviderOptions) -> Result<ProviderImport, ContractError> {
    let mut titles = std::collections::BTreeMap::new();
    let Some(output) = response.get("output").and_then(Value::as_array) else {
        let mut b = Builder::new("openai", options, &titles);
        b.c.push("/response/output", ViolationCode::Missing, "a Responses API response needs an output array");
        return b.finish(TITLE);
    };
    // Every result of every file_search_call, by file id.
    let mut results: Vec<(String, String, String)> = Vec::new(); // (file_id, filename, text)
    let mut had_results = false;
    for item in output.iter().filter(|i| str_at(i, "type") == Some("file_search_call")) {
        if let Some(rs) = item.get("results").and_then(Value::as_array) {
            had_results = true;
            for r in rs {
                let (Some(id), Some(text)) = (str_at(r, "file_id"), str_at(r, "text")) else { continue };
                let name = str_at(r, "filename").unwrap_or("").to_owned();
                if !name.is_empty() {
                    titles.insert(id.to_owned(), name.clone());
                }
                results.push((id.to_owned(), name, text.to_owned()));
            }
        }
    }
    let included = array_at(request, "include").iter().any(|v| v.as_str() == Some(INCLUDE_RESULTS));
    let mut b = Builder::new("openai", options, &titles);
    for (o, item) in output.iter().enumerate() {
        if str_at(item, "type") != Some("message") {
            continue;
        }
        for (p, part) in array_at(item, "content").iter().enumerate() {
            if str_at(part, "type") != Some("output_text") {
                continue;
            }
            let text = str_at(part, "text").unwrap_or("");
            let len = text.chars().count();
            let base = format!("/output/{o}/content/{p}/annotations");
            // Insertion points of file citations, in order: (index, [(k, file_id, filename)]).
            let mut points: Vec<(usize, Vec<Cited>)> = Vec::new();
            for (k, ann) in array_at(part, "annotations").iter().enumerate() {
                let path = format!("{base}/{k}");
                match str_at(ann, "type").unwrap_or("") {
                    "file_citation" => {
                        let (Some(index), Some(file_id)) = (usize_at(ann, "index"), str_at(ann, "file_id")) else {
                            b.issue(ImportIssueKind::LocationNotCheckable, &path, None, "a file_citation needs its file_id and index".into());
                            continue;
                        };
                        if index > len {
                            let issue = b.issue(ImportIssueKind::AnswerOffsetsOutOfRange, &path, None, format!("index {index} of an answer of {len} code points"));
                            issue.unit = Some("code_point".into());
                            continue;
                        }
                        let name = str_at(ann, "filename").unwrap_or("").to_owned();
                        // Kept in index order as they come (no sort compiled for them).
                        let cited = (k, file_id.to_owned(), name);
                        match points.binary_search_by_key(&index, |(i, _)| *i) {
                            Ok(at) => {
                                if let Some((_, list)) = points.get_mut(at) {
                                    list.push(cited);
                                }
                            }
                            Err(at) => points.insert(at, (index, vec![cited])),
                        }
                    }
                    kind @ ("url_citation" | "container_file_citation") => {
                        let claim = match (usize_at(ann, "start_index"), usize_at(ann, "end_index")) {
                            (Some(s), Some(e)) => span(text, s, e),
                            _ => None,
                        };
                        let what = if kind == "url_citation" {
                            format!("url {:?} {:?}", str_at(ann, "url").unwrap_or(""), str_at(ann, "title").unwrap_or(""))
                        } else {
                            format!("container {:?} file {:?}: no text of it comes back", str_at(ann, "container_id").unwrap_or(""), str_at(ann, "file_id").unwrap_or(""))
                        };
                        let code = if kind == "url_citation" { ImportIssueKind::ExistenceOnly } else { ImportIssueKind::NoCitedText };
                        let issue = b.issue(code, &path, claim.as_deref(), what);
                        if claim.is_none() {
                            issue.unit = Some("code_point".into());
                        }
                    }
                    other => {
                        b.issue(ImportIssueKind::LocationNotCheckable, &path, None, format!("{other:?} annotation: not a citation of a source"));
                    }
                }
            }
            let mut from = 0usize;
            for (index, list) in points {
                let claim = span(text, from, index).unwrap_or_default().trim().to_owned();
                from = index;
                let mut citations = Vec::new();
                for (k, file_id, filename) in list {
                    let path = format!("{base}/{k}");
                    let key = if b.source(&file_id).is_some() || filename.is_empty() || b.source(&filename).is_none() { file_id.clone() } else { filename.clone() };
                    let texts: Vec<String> = results.iter().filter(|(id, _, _)| *id == file_id).map(|(_, _, t)| t.clone()).collect();
                    if texts.is_empty() {
                        let why = if !included {
                            format!("file {file_id:?}: the request did not include {INCLUDE_RESULTS:?}, so no result text came back")
                        } else if !had_results {
                            format!("file {file_id:?}: the response has no file_search_call results")
                        } else {
                            format!("file {file_id:?}: no file_search_call result is of this file")
                        };
                        b.issue(ImportIssueKind::NoCitedText, &path, Some(&claim), why);
                        continue;
                    }
                    for t in texts {
                        if citations.iter().any(|c: &crate::contract::Citation| c.quote == crate::digest::normalize_newlines(&t)) {
                            continue;
                        }
                        citations.extend(b.quote_citation(&key, &t, None, "quote", &path, &claim, None));
                    }
                }
                b.claim(&claim, citations);
            }
        }
    }
    b.finish(TITLE)
}
