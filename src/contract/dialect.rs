//! The dialects a report is written in, and what the OpenAI-strict one changes in reading.

use serde_json::Value;

/// Which flavour of schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// JSON Schema draft 2020-12, every constraint in place.
    #[default]
    Standard,
    /// Strict structured outputs: all properties required, optional ones nullable, no
    /// `minLength`/`maxLength`.
    OpenAiStrict,
}

/// The optional fields whose `null` [`strip_nulls`] drops, in any object.
pub const NULLABLE_FIELDS: [&str; 9] = ["rationale", "citations", "conflicts", "gaps", "reviews", "revision", "fetched_at", "signature", "import_notes"];

/// Drops `null` values of optional fields (what a strict-mode model writes for "absent"),
/// recursively, so that the contract can check the output.
pub fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, x| !(x.is_null() && NULLABLE_FIELDS.contains(&k.as_str())));
            m.values_mut().for_each(strip_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}
