//! Importers: what models return, turned into bundles that the checker binds to the
//! host's own snapshots. Each importer records what it did per citation or source in the
//! bundle's `import_notes` (the report's contract stays as it is).
//!
//! - [`anthropic`]: a Messages API request and its response with citations enabled.
//! - [`quotes`]: quote-only citations (`source_id`, `quote`, optional `prefix` /
//!   `suffix`), located by exact match with the one locator ([`crate::store::locate`]).
//! - [`bedrock`], [`openai`], [`gemini`]: a provider's request and response, bound to the
//!   host's snapshots ([`provider`]); [`from_model_response`] picks one by shape.
//! - [`adapters`]: the Vercel AI SDK's result and LangChain's `citation` blocks.

pub mod adapters;
pub mod anthropic;
pub mod bedrock;
pub mod gemini;
pub mod openai;
pub mod provider;
pub mod quotes;

use serde_json::Value;

use crate::error::{ContractError, Lang};
use provider::{ProviderImport, ProviderOptions};

/// The response shapes [`from_model_response`] knows, as its refusal lists them.
pub const KNOWN_SHAPES: [(&str, &str); 4] = [
    ("anthropic", "Anthropic Messages: {type: \"message\", content: [...]}"),
    ("bedrock", "Bedrock Converse: {output: {message: {content: [...]}}}"),
    ("openai", "OpenAI Responses: {object: \"response\", output: [...]}"),
    ("gemini", "Gemini / Vertex generateContent: {candidates: [...]}"),
];

/// Why [`from_model_response`] refused.
#[derive(Debug)]
pub enum ModelResponseError {
    /// The request or response is malformed for its provider.
    Contract(ContractError),
    /// The response has none of [`KNOWN_SHAPES`] (or `provider` names none of them).
    UnknownShape { given: Option<String> },
}

impl ModelResponseError {
    pub const UNKNOWN_SHAPE: &'static str = "unknown_response_shape";
    /// The codes it raises besides a contract's.
    pub const CODES: &'static [&'static str] = &[Self::UNKNOWN_SHAPE];
}

impl From<ContractError> for ModelResponseError {
    fn from(e: ContractError) -> Self {
        ModelResponseError::Contract(e)
    }
}

impl crate::error::Coded for ModelResponseError {
    fn code(&self) -> &'static str {
        match self {
            Self::Contract(c) => crate::error::Coded::code(c),
            Self::UnknownShape { .. } => Self::UNKNOWN_SHAPE,
        }
    }
    fn message(&self, lang: Lang) -> String {
        match self {
            Self::Contract(c) => crate::error::Coded::message(c, lang),
            Self::UnknownShape { given } => {
                let known: Vec<String> = KNOWN_SHAPES
                    .iter()
                    .map(|(n, s)| match lang {
                        Lang::En => format!("{n} ({s})"),
                        Lang::Zh => format!("{n} 格式({s})"),
                    })
                    .collect();
                let head = match (given, lang) {
                    (Some(p), Lang::En) => format!("Unknown provider {p:?}"),
                    (Some(p), Lang::Zh) => format!("未知的提供方 {p:?}"),
                    (None, Lang::En) => "The response has no shape this importer knows".to_owned(),
                    (None, Lang::Zh) => "无法识别响应的格式".to_owned(),
                };
                match lang {
                    Lang::En => format!("{head}; known shapes: {}", known.join("; ")),
                    Lang::Zh => format!("{head};已知格式:{}", known.join(";")),
                }
            }
        }
    }
}

/// The provider whose shape `response` has.
pub fn detect_provider(response: &Value) -> Option<&'static str> {
    let is_array = |v: Option<&Value>| v.is_some_and(Value::is_array);
    if is_array(response.get("output").and_then(|o| o.get("message")).and_then(|m| m.get("content"))) {
        Some("bedrock")
    } else if is_array(response.get("candidates")) {
        Some("gemini")
    } else if is_array(response.get("output")) {
        Some("openai")
    } else if is_array(response.get("content")) && (response.get("type").and_then(Value::as_str) == Some("message") || response.get("role").and_then(Value::as_str) == Some("assistant")) {
        Some("anthropic")
    } else {
        None
    }
}

/// Imports any known provider's request and response: `provider` as given, or detected
/// from the response's shape. Anthropic's ranges are read against the request's
/// documents (see [`anthropic`]); the snapshot map's `"<index>"` keys name their source
/// ids, and a snapshot's text replaces the document's, so the check compares each
/// citation with what the host holds.
pub fn from_model_response(request: &Value, response: &Value, provider: Option<&str>, options: &ProviderOptions) -> Result<ProviderImport, ModelResponseError> {
    let name = match provider {
        Some(p) => KNOWN_SHAPES.iter().map(|(n, _)| *n).find(|n| *n == p).ok_or_else(|| ModelResponseError::UnknownShape { given: Some(p.to_owned()) })?,
        None => detect_provider(response).ok_or(ModelResponseError::UnknownShape { given: None })?,
    };
    Ok(match name {
        "bedrock" => bedrock::from_bedrock_response(request, response, options)?,
        "openai" => openai::from_openai_response(request, response, options)?,
        "gemini" => gemini::from_gemini_response(request, response, options)?,
        _ => {
            let mut source_ids = Vec::new();
            while let Some(s) = options.sources.get(&source_ids.len().to_string()) {
                source_ids.push(s.source_id.clone());
            }
            let a = anthropic::AnthropicOptions { scope: options.scope.clone(), source_ids, fetched_at: options.fetched_at.clone(), uncited_as_gaps: false, policy: options.policy.clone(), title: None };
            let mut bundle = anthropic::from_anthropic_message(request, response, &a)?;
            // The host's snapshot, where it gave one, replaces the request's text: the
            // citations are then checked against what the host holds.
            for source in bundle.sources.iter_mut() {
                // Its document index, from the locator the importer wrote.
                let Some(index) = source.spec.locator.strip_prefix("anthropic:document/") else { continue };
                let Some(host) = options.sources.get(index) else { continue };
                let content = crate::digest::normalize_newlines(&host.text).into_owned();
                let digest = crate::digest::sha256_hex(&content);
                source.content = content;
                for c in bundle.report.claims.iter_mut().flat_map(|c| c.citations.iter_mut()) {
                    if c.source_ref.source_id == source.spec.source_id {
                        c.source_ref.digest = digest.clone();
                    }
                }
            }
            if let Some(t) = options.title.clone().filter(|t| !crate::rules::is_blank(t)) {
                bundle.report.title = t;
            }
            ProviderImport { provider: "anthropic", bundle, issues: Vec::new() }
        }
    })
}

/// What an importer did for one citation or one source (it belongs to the bundle).
pub use crate::bundle::ImportNote;
