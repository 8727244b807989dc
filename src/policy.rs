//! The policy: one object for every limit and vocabulary of the contracts, the store and
//! the artifact. Two presets: [`Policy::documents`] (real documents: licence texts,
//! source files, long pages; the default) and [`Policy::reference`] (the design article's
//! values; `compat: "reference"` selects it, and every golden case runs under it). A
//! custom policy is JSON that starts from a preset: `{"extends": "reference",
//! "max_claims": 20}` (`extends` defaults to the default preset); an unknown field is an
//! error that names it.
//!
//! The policy is carried by the object that holds it: a store made with a policy applies
//! it to everything it checks, a bundle check applies it to the bundle, the schema
//! states its limits.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;

use crate::rules::{self, Pattern, StrRule};

/// Which `kind` values a source spec may have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum KindRule {
    /// Any string matching the identifier pattern (`"any_identifier"` in JSON).
    Any(AnyIdentifier),
    /// One of these values (the reference: `["fixture", "public"]`).
    List(Vec<String>),
}

/// The JSON spelling of [`KindRule::Any`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum AnyIdentifier {
    #[serde(rename = "any_identifier")]
    AnyIdentifier,
}

/// The rule a source spec's `filename` must meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum FilenameRule {
    /// `^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.md$` (the reference).
    Markdown,
    /// Any relative path: no `..` segment, no leading `/`, no backslash, no NUL or
    /// control character, 1 to 255 bytes.
    RelativePath,
}

/// An identifier pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum IdRule {
    /// `^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$` (the reference).
    Reference,
    /// `^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$` (e-mail addresses, dotted names).
    Extended,
}

impl IdRule {
    /// The most UTF-16 units an identifier of this rule can have (its characters are
    /// ASCII): a longer string breaks the pattern whatever it holds.
    pub const fn max_units(self) -> usize {
        match self {
            Self::Reference => 64,
            Self::Extended => 128,
        }
    }
}

/// Every limit and vocabulary. Lengths of texts are in Unicode code points; sizes in
/// UTF-8 bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Policy {
    /// Specs in a store's catalogue (and sources in a bundle).
    pub max_sources: usize,
    /// Bytes of one source's text, before newline normalisation (also the code-point
    /// limit of a read result's content).
    pub max_source_bytes: usize,
    /// Claims in a report.
    pub max_claims: usize,
    /// Citations in one claim.
    pub max_citations: usize,
    /// Gaps in a report.
    pub max_gaps: usize,
    /// Conflicts in a report.
    pub max_conflicts: usize,
    /// Code points of a citation's quote.
    pub max_quote_chars: usize,
    /// Code points of a claim's text.
    pub max_claim_chars: usize,
    /// Code points of an inference's rationale.
    pub max_rationale_chars: usize,
    /// Code points of the rendered artifact.
    pub max_artifact_chars: usize,
    /// Bytes of the rendered artifact.
    pub max_artifact_bytes: usize,
    /// Bytes of a JSON input, checked before parsing.
    pub max_input_bytes: usize,
    /// Bytes of text one store holds at once (every scope's current snapshots, and so a
    /// bundle's sources, together): keeps a store well inside wasm32's 4 GiB.
    pub max_store_bytes: usize,
    /// The allowed `kind` values of a source spec.
    pub kinds: KindRule,
    /// The rule of a source spec's `filename`.
    pub filename: FilenameRule,
    /// The pattern of source, claim and citation ids.
    pub identifier: IdRule,
    /// The pattern of `tenant_id` and `user_id`.
    pub scope_id: IdRule,
    /// Code points of a review's note.
    pub max_note_chars: usize,
    /// Citations in one model response an importer reads (Anthropic's Messages API):
    /// a response with more is refused before its citations are read.
    pub max_response_citations: usize,
    /// `compat: "reference"`: the reference's codes and message texts (`ref_unavailable`,
    /// no subject in messages, reviews that throw). Not a policy field: set by the
    /// `compat` option, kept with the policy so that everything holding it follows it.
    #[serde(skip)]
    pub reference_messages: bool,
}

/// The default: [`Policy::documents`].
impl Default for Policy {
    fn default() -> Self {
        Policy::documents()
    }
}

/// How many MiB.
const MIB: usize = 1024 * 1024;

/// The preset names, for messages.
pub const PRESETS: &[&str] = &["reference", "documents"];

impl Policy {
    /// The design article's values: 16 sources of 24,000 bytes, 12 claims with 4
    /// citations, quotes of 800 code points, an artifact of 8,000 code points and 24,000
    /// bytes, `kind` fixture or public, `*.md` filenames; a model response of 48 citations
    /// (as many as a report holds).
    pub fn reference() -> Policy {
        Policy {
            max_sources: 16,
            max_source_bytes: 24_000,
            max_claims: 12,
            max_citations: 4,
            max_gaps: 8,
            max_conflicts: 6,
            max_quote_chars: 800,
            max_claim_chars: 1000,
            max_rationale_chars: 1000,
            max_artifact_chars: 8000,
            max_artifact_bytes: 24_000,
            max_input_bytes: crate::json::DEFAULT_MAX_INPUT_BYTES,
            max_store_bytes: 256 * MIB,
            kinds: KindRule::List(vec!["fixture".into(), "public".into()]),
            filename: FilenameRule::Markdown,
            identifier: IdRule::Reference,
            scope_id: IdRule::Reference,
            max_note_chars: 1000,
            max_response_citations: 48,
            reference_messages: false,
        }
    }

    /// For real documents: 256 sources of 16 MiB, 2,000 claims with 32 citations,
    /// quotes of 20,000 code points, an artifact of 16 MiB, any identifier as `kind`,
    /// any relative path as `filename`, scope ids with `.`, `@` and `+`; a model response
    /// of 64,000 citations (as many as a report holds).
    pub fn documents() -> Policy {
        Policy {
            max_sources: 256,
            max_source_bytes: 16 * MIB,
            max_claims: 2000,
            max_citations: 32,
            max_gaps: 256,
            max_conflicts: 256,
            max_quote_chars: 20_000,
            max_claim_chars: 20_000,
            max_rationale_chars: 20_000,
            max_artifact_chars: 16 * MIB,
            max_artifact_bytes: 16 * MIB,
            // 256 sources of 16 MiB do not fit one input; a bundle of that size is a
            // deployment's choice (raise it in a policy file).
            max_input_bytes: 64 * MIB,
            // 256 sources of 16 MiB would be all of wasm32's memory: a store holds at most
            // a quarter of it.
            max_store_bytes: 1024 * MIB,
            kinds: KindRule::Any(AnyIdentifier::AnyIdentifier),
            filename: FilenameRule::RelativePath,
            identifier: IdRule::Reference,
            scope_id: IdRule::Extended,
            max_note_chars: 20_000,
            max_response_citations: 64_000,
            reference_messages: false,
        }
    }

    /// A preset by name.
    pub fn preset(name: &str) -> Option<Policy> {
        match name {
            "reference" => Some(Policy::reference()),
            "documents" => Some(Policy::documents()),
            _ => None,
        }
    }

    /// Reads a policy: a preset's name, or a JSON object `{"extends": PRESET, …fields}`
    /// (`extends` defaults to the default preset, `documents`). An unknown field, a wrong type or an unknown
    /// preset is a [`PolicyError`] naming it.
    pub fn from_json(text: &str) -> Result<Policy, PolicyError> {
        let trimmed = text.trim();
        if let Some(p) = Policy::preset(trimmed) {
            return Ok(p);
        }
        let v = crate::json::parse_strict(text, 1024 * 1024, "policy")
            .map_err(PolicyError::Json)?;
        Policy::from_value(&v)
    }

    /// [`Policy::from_json`] for a parsed value (a preset's name as a JSON string, or an object).
    pub fn from_value(v: &Value) -> Result<Policy, PolicyError> {
        let fields = match v {
            Value::String(name) => return Policy::preset(name).ok_or_else(|| PolicyError::UnknownPreset(name.clone())),
            Value::Object(m) => m,
            _ => return Err(PolicyError::Invalid { field: String::new(), message: "a policy is a preset's name or a JSON object".into() }),
        };
        let base = match fields.get("extends") {
            None => Policy::default(),
            Some(Value::String(name)) => Policy::preset(name).ok_or_else(|| PolicyError::UnknownPreset(name.clone()))?,
            Some(_) => return Err(PolicyError::Invalid { field: "extends".into(), message: "extends must be a preset's name".into() }),
        };
        let Ok(Value::Object(mut merged)) = serde_json::to_value(&base) else {
            return Err(PolicyError::Invalid { field: String::new(), message: "the preset could not be read".into() });
        };
        let known: Vec<String> = merged.keys().cloned().collect();
        for (key, value) in fields.iter().filter(|(k, _)| k.as_str() != "extends") {
            if !known.contains(key) {
                return Err(PolicyError::UnknownField(key.clone()));
            }
            // Each field alone, so that a wrong type names its field.
            let mut one: Map<String, Value> = merged.clone();
            one.insert(key.clone(), value.clone());
            if let Err(e) = serde_json::from_value::<Policy>(Value::Object(one)) {
                return Err(PolicyError::Invalid { field: key.clone(), message: e.to_string() });
            }
            merged.insert(key.clone(), value.clone());
        }
        serde_json::from_value(Value::Object(merged)).map_err(|e| PolicyError::Invalid { field: String::new(), message: e.to_string() })
    }

    /// This policy with the reference's codes and message texts (`compat: "reference"`).
    pub fn with_reference_messages(mut self, on: bool) -> Policy {
        self.reference_messages = on;
        self
    }

    /// Whether the documents preset sets the limit `field` higher than this policy does
    /// (so that `--policy documents` raises it).
    pub fn documents_raises(&self, field: &str) -> bool {
        let of = |p: &Policy| serde_json::to_value(p).ok().and_then(|v| v.get(field).and_then(Value::as_u64));
        matches!((of(&Policy::documents()), of(self)), (Some(d), Some(p)) if d > p)
    }

    /// A refusal's detail: `size` over this policy's limit `field`, counted in `unit`,
    /// with how to raise it.
    pub fn limit_detail(&self, size: usize, unit: &'static str, field: &'static str) -> crate::error::Detail {
        let limit = serde_json::to_value(self).ok().and_then(|v| v.get(field).and_then(Value::as_u64)).and_then(|n| usize::try_from(n).ok()).unwrap_or(0);
        crate::error::Detail { beyond_documents: !self.documents_raises(field), ..crate::error::Detail::limit(size, limit, unit, field) }
    }

    /// The rule of a source, claim or citation id.
    pub fn identifier_rule(&self) -> StrRule {
        id_rule(self.identifier)
    }

    /// The rule of a tenant or user id.
    pub fn scope_rule(&self) -> StrRule {
        id_rule(self.scope_id)
    }

    /// The rule of a source spec's filename.
    pub fn filename_rule(&self) -> StrRule {
        match self.filename {
            FilenameRule::Markdown => rules::FILENAME,
            FilenameRule::RelativePath => StrRule { min: 0, max: usize::MAX, pattern: Some(RELATIVE_PATH) },
        }
    }

    /// The rule of a citation's quote.
    pub fn quote_rule(&self) -> StrRule {
        rules::sized(1, self.max_quote_chars)
    }

    /// The JSON Schema pattern of an id rule.
    pub fn id_pattern(rule: IdRule) -> &'static str {
        match rule {
            IdRule::Reference => REFERENCE_ID.1,
            IdRule::Extended => EXTENDED_ID.1,
        }
    }

    /// About how many array items and object entries the largest report this policy
    /// accepts holds (a claim: 6 and 10 per citation; a conflict: 7; a gap: 1), plus
    /// room for a bundle's scope, sources and reviews: the JSON reader keeps at least this many.
    pub fn values_needed(&self) -> usize {
        let claims = self.max_claims.saturating_mul(self.max_citations.saturating_mul(10).saturating_add(6));
        claims.saturating_add(self.max_conflicts.saturating_mul(7)).saturating_add(self.max_gaps).saturating_add(1024)
    }
}

fn id_rule(rule: IdRule) -> StrRule {
    let pattern = match rule {
        IdRule::Reference => REFERENCE_ID,
        IdRule::Extended => EXTENDED_ID,
    };
    StrRule { min: 0, max: usize::MAX, pattern: Some(pattern) }
}

const REFERENCE_ID: Pattern = (rules::is_identifier, "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$");
const EXTENDED_ID: Pattern = (is_extended_id, "^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$");
/// The text of the relative-path rule, for messages and schemas.
pub const RELATIVE_PATH_TEXT: &str = "a relative path of 1 to 255 bytes: no '..' segment, no leading '/', no backslash, no NUL or control character";
const RELATIVE_PATH: Pattern = (is_relative_path, RELATIVE_PATH_TEXT);
/// A JSON Schema pattern for the relative-path rule (ECMA-262; the byte length is in the description).
pub const RELATIVE_PATH_PATTERN: &str = "^(?!/)(?!.*\\\\)(?!(?:.*/)?\\.\\.(?:/|$))[^\\u0000-\\u001f\\u007f-\\u009f]{1,255}$";

/// `^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$`.
pub fn is_extended_id(s: &str) -> bool {
    let b = s.as_bytes();
    match b.split_first() {
        Some((first, rest)) => {
            first.is_ascii_alphanumeric() && rest.len() <= 127 && rest.iter().all(|c| c.is_ascii_alphanumeric() || b"._@+-".contains(c))
        }
        None => false,
    }
}

/// A relative path: 1 to 255 bytes, no `..` segment, no leading `/`, no backslash, no
/// NUL or other control character.
pub fn is_relative_path(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 255
        && !s.starts_with('/')
        && !s.contains('\\')
        && !s.chars().any(char::is_control)
        && !s.split('/').any(|seg| seg == "..")
}

/// Why a policy could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyError {
    /// A field that no policy has.
    UnknownField(String),
    /// `extends` (or the name given) is not a preset.
    UnknownPreset(String),
    /// A field's value has the wrong type (serde's text) or the policy is no preset's
    /// name or object.
    Invalid { field: String, message: String },
    /// The text is not JSON (the strict reader's error).
    Json(crate::error::ContractError),
}

impl PolicyError {
    /// Every code, as `code()` gives them (listed in the `.d.ts`'s `EvidenceCode`).
    pub const CODES: &'static [&'static str] = &["policy_unknown_field", "policy_unknown_preset", "policy_invalid"];

    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::UnknownField(_) => "policy_unknown_field",
            Self::UnknownPreset(_) => "policy_unknown_preset",
            Self::Invalid { .. } | Self::Json(_) => "policy_invalid",
        }
    }
    /// The field concerned (`""` for the whole policy).
    pub fn field(&self) -> &str {
        match self {
            Self::UnknownField(f) => f,
            Self::UnknownPreset(_) => "extends",
            Self::Invalid { field, .. } => field,
            Self::Json(_) => "",
        }
    }
    /// The message (English; it names the field).
    pub fn message(&self) -> String {
        match self {
            Self::UnknownField(f) => format!("the policy has an unknown field '{f}'"),
            Self::UnknownPreset(p) => format!("'{p}' is not a policy preset (presets: {})", PRESETS.join(", ")),
            Self::Invalid { field, message } if field.is_empty() => format!("the policy is not valid: {message}"),
            Self::Invalid { field, message } => format!("the policy's field '{field}' is not valid: {message}"),
            Self::Json(e) => format!("the policy is not valid: {}", e.message()),
        }
    }
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}
impl std::error::Error for PolicyError {}

pub use crate::error::how_to_raise;

/// The policy reader's own texts of an invalid policy, and their Chinese texts.
pub const INVALID_TEXTS: &[(&str, &str)] = &[
    ("a policy is a preset's name or a JSON object", "策略须是预设的名称或 JSON 对象"),
    ("extends must be a preset's name", "extends 必须是预设的名称"),
    ("the preset could not be read", "无法读取该预设"),
];

impl crate::error::Coded for PolicyError {
    fn code(&self) -> &'static str {
        PolicyError::code(self)
    }
    /// In the language: the policy's own texts, serde's ([`crate::error::serde_text_zh`])
    /// and the JSON reader's.
    fn message(&self, lang: crate::error::Lang) -> String {
        use crate::error::Lang;
        match (self, lang) {
            (_, Lang::En) => PolicyError::message(self),
            (Self::UnknownField(f), Lang::Zh) => format!("策略含有未知字段 '{f}'"),
            (Self::UnknownPreset(p), Lang::Zh) => format!("'{p}' 不是策略预设(预设:{})", PRESETS.join("、")),
            // The reader's own (serde's) sentence has no Chinese text: its code and where.
            (Self::Json(e), Lang::Zh) => {
                let v = e.violations.first();
                let at = v.and_then(|v| v.message.rsplit_once(" at line ")).and_then(|(_, at)| at.split_once(" column "));
                let code = v.map_or("invalid_json", |v| v.code.code());
                match at {
                    Some((line, column)) => format!("策略无效:其 JSON 文本不可读({code},第 {line} 行第 {column} 列)"),
                    None => format!("策略无效:其 JSON 文本不可读({code})"),
                }
            }
            (Self::Invalid { field, message }, Lang::Zh) => {
                let text = crate::error::template_in(INVALID_TEXTS, message, lang);
                let text = crate::error::serde_text_zh(&text).unwrap_or(text);
                if field.is_empty() { format!("策略无效:{text}") } else { format!("策略的字段 '{field}' 无效:{text}") }
            }
        }
    }
    /// `field`: the policy field concerned.
    fn details(&self) -> Vec<(&'static str, serde_json::Value)> {
        vec![("field", self.field().into())]
    }
}
