//! Importers: what models return, turned into bundles that the checker binds to the
//! host's own snapshots. Each importer records what it did per citation or source in the
//! bundle's `import_notes` (the report's contract stays as it is).
//!
//! - [`anthropic`]: a Messages API request and its response with citations enabled.
//! - [`quotes`]: quote-only citations (`source_id`, `quote`, optional `prefix` /
//!   `suffix`), located by exact match with the one locator ([`crate::locate`]).

pub mod anthropic;
pub mod quotes;

use serde::Serialize;
use serde_json::Value;

use crate::contract::validate::{join, Checker, IDENTIFIER};
use crate::contract::Contract;

/// The rules of an import note's fields, for both readers (see [`crate::contract::rule`]).
pub mod rule {
    use crate::contract::validate::{sized, StrRule};

    pub const IMPORTERS: [(&str, &str); 2] = [("anthropic", "anthropic"), ("locate", "locate")];
    pub const UNITS: [(&str, &str); 4] = [("code_point", "code_point"), ("utf16", "utf16"), ("block", "block"), ("unmatched", "unmatched")];
    pub const WHITESPACE: [(&str, &str); 2] = [("exact", "exact"), ("loose", "loose")];
    pub const SEPARATOR: StrRule = sized(0, 16);

    /// A note names exactly one citation or one source.
    pub fn names_one(citation_id: bool, source_id: bool) -> bool {
        citation_id != source_id
    }
}

/// What an importer did for one citation or one source of a bundle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(optional_fields))]
pub struct ImportNote {
    /// `anthropic` or `locate`.
    #[cfg_attr(test, ts(type = "\"anthropic\" | \"locate\""))]
    pub importer: String,
    /// The citation the note is about (or `source_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_id: Option<String>,
    /// The source the note is about (or `citation_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_id: Option<String>,
    /// Anthropic: the document's index in the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document_index: Option<u64>,
    /// Anthropic: the unit in which the model's range held its `cited_text`
    /// (`code_point`, `utf16`, `block` for content documents), or `unmatched`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional, type = "\"code_point\" | \"utf16\" | \"block\" | \"unmatched\""))]
    pub unit: Option<String>,
    /// Anthropic content documents: the separator the blocks were joined with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separator: Option<String>,
    /// Quote-only citations: `exact`, or `loose` when located whitespace-insensitively.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional, type = "Whitespace"))]
    pub whitespace: Option<String>,
}

impl ImportNote {
    pub(crate) const FIELDS: &'static [&'static str] = &["importer", "citation_id", "source_id", "document_index", "unit", "separator", "whitespace"];
}

impl Contract for ImportNote {
    const SUBJECT: &'static str = "import_note";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let importer = c.literal_field(m, path, "importer", &rule::IMPORTERS);
        let id = |c: &mut Checker, key: &str| m.get(key).map(|v| c.string(v, &join(path, key), &IDENTIFIER));
        let citation_id = id(c, "citation_id");
        let source_id = id(c, "source_id");
        let document_index = m.get("document_index").map(|v| c.int(v, &join(path, "document_index"), 0));
        let unit = m.get("unit").map(|v| c.literal(v, &join(path, "unit"), &rule::UNITS));
        let separator = m.get("separator").map(|v| c.string(v, &join(path, "separator"), &rule::SEPARATOR));
        let whitespace = m.get("whitespace").map(|v| c.literal(v, &join(path, "whitespace"), &rule::WHITESPACE));
        if !rule::names_one(citation_id.is_some(), source_id.is_some()) {
            c.push(path, crate::error::ViolationCode::Missing, "an import note names exactly one citation_id or source_id");
        }
        if c.count() != before {
            return None;
        }
        Some(ImportNote {
            importer: importer?.to_owned(),
            citation_id: citation_id.flatten(),
            source_id: source_id.flatten(),
            document_index: document_index.flatten(),
            unit: unit.flatten().map(str::to_owned),
            separator: separator.flatten(),
            whitespace: whitespace.flatten().map(str::to_owned),
        })
    }
}
