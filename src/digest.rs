//! Digests: newline normalisation, SHA-256 hex, and the report digest over canonical
//! JSON that is byte-identical to Python's
//! `json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))`.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::borrow::Cow;

use crate::contract::Report;

/// Replaces CRLF and lone CR by LF; no other rewriting. Borrows when there is no CR.
pub fn normalize_newlines(text: &str) -> Cow<'_, str> {
    if !text.contains('\r') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('\r') {
        out.push_str(rest.get(..i).unwrap_or(""));
        out.push('\n');
        let after = rest.get(i + 1..).unwrap_or("");
        rest = after.strip_prefix('\n').unwrap_or(after);
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The lower-case hex digit of a nibble (`n < 16`).
fn nibble(n: u8) -> char {
    char::from_digit(u32::from(n & 15), 16).unwrap_or('0')
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(nibble(b >> 4));
        s.push(nibble(*b));
    }
    s
}

/// SHA-256 hex of the UTF-8 bytes of `text`, exactly as given.
pub fn sha256_hex(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

/// The digest of a source text: SHA-256 hex of the LF-normalised text.
pub fn digest_text(text: &str) -> String {
    sha256_hex(&normalize_newlines(text))
}

/// Appends `s` as a JSON string the way Python's `json.dumps(ensure_ascii=False)` does:
/// `"` and `\` escaped, `\b \f \n \r \t` short, other controls below U+0020 as `\u00xx`,
/// everything else kept.
pub fn write_json_string(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0x08 => Some("\\b"),
            0x0c => Some("\\f"),
            0..=0x1f => Some(""),
            _ => None,
        };
        if let Some(esc) = esc {
            out.push_str(s.get(start..i).unwrap_or(""));
            if esc.is_empty() {
                out.push_str("\\u00");
                out.push(nibble(b >> 4));
                out.push(nibble(b));
            } else {
                out.push_str(esc);
            }
            start = i + 1;
        }
    }
    out.push_str(s.get(start..).unwrap_or(""));
    out.push('"');
}

/// Canonical JSON: keys sorted by code point, no spaces, non-ASCII kept.
pub fn canonical_json(v: &Value) -> String {
    let mut out = String::new();
    write_canonical(&mut out, v);
    out
}

fn write_canonical(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_json_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // UTF-8 byte order is code-point order.
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (k, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(out, k);
                out.push(':');
                write_canonical(out, item);
            }
            out.push('}');
        }
    }
}

/// The canonical JSON of a report, with every default field present.
pub fn canonical_report(report: &Report) -> String {
    // Serialising plain structs of strings and integers cannot fail.
    serde_json::to_value(report).map(|v| canonical_json(&v)).unwrap_or_default()
}

/// The report digest: SHA-256 hex of the report's canonical JSON.
pub fn report_digest(report: &Report) -> String {
    sha256_hex(&canonical_report(report))
}
