//! Thin adapters for what many Node pipelines see instead of a provider's response: the
//! Vercel AI SDK's result (`source` parts and `providerMetadata`) and LangChain's
//! standard `citation` content blocks. Both lose what a provider said about units and
//! base texts, so each reads only what it can check against the host's snapshots:
//!
//! - **LangChain** (`content[].annotations[]` of type `citation`: `cited_text` /
//!   `citedText`, `url`, `title`, `start_index` / `startIndex`, `end_index`, `extras`):
//!   the claim is the text block (the offsets are in the origin provider's unit, which
//!   the block does not say); `cited_text` is located quote-only in the snapshot keyed by
//!   `url`, else `title`, else `extras.document_index`. A message translated from Google
//!   (`response_metadata.model_provider` `google_genai`) carries the answer's text in
//!   `cited_text`, not a source passage: existence only.
//! - **Vercel AI SDK** (a `generateText` result): `providerMetadata.google.groundingMetadata`
//!   is read as Gemini's, over the result's `text` as the one part; otherwise each
//!   `source` part is existence only, unless its `providerMetadata.anthropic.citedText` is
//!   there: then it is located quote-only in the snapshot keyed by the source's
//!   `filename`, `title`, `url` or `id`, and the claim is the whole answer (sources are
//!   not anchored in the text).

use serde_json::{json, Value};

use super::provider::{array_at, str_at, Builder, ImportIssueKind, ProviderImport, ProviderOptions};
use crate::error::ContractError;

pub const LANGCHAIN_TITLE: &str = "LangChain message";
pub const VERCEL_TITLE: &str = "AI SDK result";

fn first_str<'v>(v: &'v Value, keys: &[&str]) -> Option<&'v str> {
    keys.iter().find_map(|k| str_at(v, k))
}

/// Imports a LangChain AI message with standard `citation` annotations.
pub fn from_langchain_message(message: &Value, options: &ProviderOptions) -> Result<ProviderImport, ContractError> {
    let mut b = Builder::new("langchain", options, &std::collections::BTreeMap::new());
    let origin = message.get("response_metadata").and_then(|m| first_str(m, &["model_provider", "modelProvider"])).unwrap_or("");
    let google = origin.starts_with("google");
    for (i, block) in array_at(message, "content").iter().enumerate() {
        if str_at(block, "type") != Some("text") {
            continue;
        }
        let text = str_at(block, "text").unwrap_or("");
        let mut citations = Vec::new();
        for (k, ann) in array_at(block, "annotations").iter().enumerate() {
            if str_at(ann, "type") != Some("citation") {
                continue;
            }
            let path = format!("/content/{i}/annotations/{k}");
            let url = str_at(ann, "url");
            let cited = first_str(ann, &["cited_text", "citedText"]);
            if google {
                b.issue(ImportIssueKind::ExistenceOnly, &path, Some(text.trim()), format!("a citation translated from {origin}: its cited_text is the answer's text, not a source passage (url {:?})", url.unwrap_or("")));
                continue;
            }
            let Some(cited) = cited.filter(|c| !c.is_empty()) else {
                let kind = if url.is_some() { ImportIssueKind::ExistenceOnly } else { ImportIssueKind::NoCitedText };
                b.issue(kind, &path, Some(text.trim()), format!("url {:?}, no cited_text", url.unwrap_or("")));
                continue;
            };
            let index = ann.get("extras").and_then(|e| e.get("document_index")).and_then(Value::as_u64).map(|n| n.to_string());
            let key = [url.map(str::to_owned), str_at(ann, "title").map(str::to_owned), index]
                .into_iter()
                .flatten()
                .find(|k| b.source(k).is_some())
                .or_else(|| url.map(str::to_owned))
                .unwrap_or_default();
            citations.extend(b.quote_citation(&key, cited, None, "quote", &path, text.trim(), None));
        }
        b.claim(text, citations);
    }
    b.finish(LANGCHAIN_TITLE)
}

/// Imports a Vercel AI SDK `generateText` result.
pub fn from_vercel_result(result: &Value, options: &ProviderOptions) -> Result<ProviderImport, ContractError> {
    let text = str_at(result, "text").unwrap_or("");
    if let Some(g) = result.get("providerMetadata").and_then(|m| m.get("google")).and_then(|g| g.get("groundingMetadata")).filter(|g| !g.is_null()) {
        let response = json!({"candidates": [{"content": {"parts": [{"text": text}]}, "groundingMetadata": g}]});
        let mut out = super::gemini::from_gemini_response(&Value::Null, &response, options)?;
        for n in &mut out.bundle.import_notes {
            n.importer = "vercel".into();
        }
        out.provider = "vercel";
        return Ok(out);
    }
    let mut b = Builder::new("vercel", options, &std::collections::BTreeMap::new());
    let from_content: Vec<Value> = array_at(result, "content").iter().filter(|p| str_at(p, "type") == Some("source")).cloned().collect();
    let (sources, base) = if result.get("sources").is_some() { (array_at(result, "sources").to_vec(), "/sources") } else { (from_content, "/content") };
    let mut citations = Vec::new();
    for (k, source) in sources.iter().enumerate() {
        let path = format!("{base}/{k}");
        let cited = source.get("providerMetadata").and_then(|m| m.get("anthropic")).and_then(|a| first_str(a, &["citedText", "cited_text"])).filter(|c| !c.is_empty());
        let Some(cited) = cited else {
            let what = first_str(source, &["url", "filename", "title", "id"]).unwrap_or("");
            b.issue(ImportIssueKind::ExistenceOnly, &path, Some(text.trim()), format!("{} source {what:?}: no cited text passes through", str_at(source, "sourceType").unwrap_or("a")));
            continue;
        };
        let key = ["filename", "title", "url", "id"].iter().filter_map(|f| str_at(source, f)).find(|k| b.source(k).is_some()).or_else(|| first_str(source, &["filename", "title", "url", "id"])).unwrap_or("").to_owned();
        citations.extend(b.quote_citation(&key, cited, None, "quote", &path, text.trim(), None));
    }
    b.claim(text, citations);
    b.finish(VERCEL_TITLE)
}
