//! Strict JSON reading: a byte limit checked before parsing, duplicate keys rejected
//! (two parsers that disagree on which value wins are a smuggling hole), and the
//! parser's own nesting limit.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

use crate::error::{ContractError, Violation, ViolationCode};

/// Default limit on the size of a JSON input, in bytes (16 MiB).
pub const DEFAULT_MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

struct StrictValue(Value);

impl<'de> de::Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(StrictValue)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(StrictValue(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let StrictValue(v) = map.next_value()?;
            if out.contains_key(&key) {
                return Err(de::Error::custom(format_args!("{DUPLICATE_KEY_MARK}{key}`")));
            }
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

const DUPLICATE_KEY_MARK: &str = "duplicate key `";

fn violation(code: ViolationCode, message: String) -> Violation {
    Violation { path: String::new(), code, message }
}

/// Parses JSON text into a value, refusing duplicate keys and input over `max_bytes`.
pub fn parse_strict(text: &str, max_bytes: usize, subject: &'static str) -> Result<Value, ContractError> {
    if text.len() > max_bytes {
        return Err(ContractError {
            subject,
            violations: vec![violation(
                ViolationCode::InputTooLarge,
                format!("the input is {} bytes, over the limit of {max_bytes} bytes; it was not parsed", text.len()),
            )],
        });
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = de::Deserialize::deserialize(&mut de).and_then(|StrictValue(v)| de.end().map(|()| v));
    parsed.map_err(|e| {
        let text = e.to_string();
        let code = if text.starts_with(DUPLICATE_KEY_MARK) {
            ViolationCode::DuplicateKey
        } else if text.starts_with("recursion limit exceeded") {
            ViolationCode::TooDeep
        } else {
            ViolationCode::InvalidJson
        };
        ContractError { subject, violations: vec![violation(code, text)] }
    })
}
