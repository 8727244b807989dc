//! Digests: newline normalisation, SHA-256 hex, and the report digest over canonical
//! JSON that is byte-identical to Python's
//! `json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))`.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::borrow::Cow;

use crate::contract::Report;

/// Replaces CRLF and lone CR by LF; no other rewriting. Borrows when there is no CR.
pub fn normalize_newlines(text: &str) -> Cow<'_, str> {
    let Some(first) = memchr::memchr(b'\r', text.as_bytes()) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    push_normalized(&mut out, text, first);
    Cow::Owned(out)
}

/// [`normalize_newlines`] whose copy (a text with a CR) is allocated fallibly: `Err` gives
/// the bytes that could not be allocated.
pub fn try_normalize_newlines(text: &str) -> Result<Cow<'_, str>, usize> {
    let Some(first) = memchr::memchr(b'\r', text.as_bytes()) else {
        return Ok(Cow::Borrowed(text));
    };
    let mut out = String::new();
    out.try_reserve_exact(text.len()).map_err(|_| text.len())?;
    push_normalized(&mut out, text, first);
    Ok(Cow::Owned(out))
}

/// Appends `text` with CRLF and lone CR as LF; `first` is the offset of its first CR.
fn push_normalized(out: &mut String, text: &str, first: usize) {
    let bytes = text.as_bytes();
    let mut read = 0;
    let mut cr = Some(first);
    while let Some(at) = cr {
        // A CR and the LF after it are ASCII: every cut is at a character boundary.
        out.push_str(text.get(read..at).unwrap_or(""));
        out.push('\n');
        read = at + 1;
        if bytes.get(read) == Some(&b'\n') {
            read += 1;
        }
        cr = memchr::memchr(b'\r', bytes.get(read..).unwrap_or_default()).map(|i| read + i);
    }
    out.push_str(text.get(read..).unwrap_or(""));
}

/// Normalises an owned text in place (CRLF and lone CR become LF), as
/// [`normalize_newlines`] does, without a second buffer: a text that holds no CR is
/// returned as it came, one that does shrinks where it is. Each CR is found by `memchr`
/// (wasm SIMD where the build enables it).
pub fn normalize_newlines_owned(mut text: String) -> String {
    let Some(first) = memchr::memchr(b'\r', text.as_bytes()) else {
        return text;
    };
    // SAFETY: the bytes are only moved (whole runs without a CR, towards the start, in
    // order) and ASCII bytes rewritten as ASCII (each CR becomes an LF, the LF after it is
    // dropped), so the text stays UTF-8.
    let bytes = unsafe { text.as_mut_vec() };
    let len = bytes.len();
    let (mut read, mut write) = (first, first);
    let mut cr = Some(first);
    while let Some(at) = cr {
        bytes.copy_within(read..at, write);
        write += at - read;
        if let Some(b) = bytes.get_mut(write) {
            *b = b'\n';
        }
        write += 1;
        read = at + 1;
        if bytes.get(read) == Some(&b'\n') {
            read += 1;
        }
        cr = memchr::memchr(b'\r', bytes.get(read..).unwrap_or_default()).map(|i| read + i);
    }
    bytes.copy_within(read..len, write);
    bytes.truncate(write + (len - read));
    text
}

/// The default smallest text (in UTF-8 bytes) handed to the host's SHA-256: below it the
/// built-in hasher is faster than the call to the host's (measured: BENCHMARKS.md).
pub const HOST_HASH_MIN_BYTES: usize = 128;

/// SHA-256 hex of `text`'s UTF-8 bytes: by the host's SHA-256 (see [`crate::host`]) when
/// one is installed and the text is not shorter than its smallest size, else (or when the
/// host gives no 64-digit lower-case hex digest) by the built-in hasher. Both give the
/// same digest.
pub fn sha256_hex_hosted(text: &str) -> String {
    let hosted = match crate::host::installed().sha256 {
        Some((hash, min_bytes)) if text.len() >= min_bytes => hash(text.as_bytes()),
        _ => None,
    };
    match hosted {
        Some(d) if d.len() == 64 && d.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) => d,
        _ => sha256_hex(text),
    }
}

/// The lower-case hex digit of a nibble (`n < 16`).
fn nibble(n: u8) -> char {
    char::from_digit(u32::from(n & 15), 16).unwrap_or('0')
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let digit = |n: u8| DIGITS.get(usize::from(n & 15)).copied().unwrap_or(b'0');
    let mut out = Vec::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.extend_from_slice(&[digit(b >> 4), digit(*b)]);
    }
    // ASCII hex digits only.
    String::from_utf8(out).unwrap_or_default()
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
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // Eight bytes at a time while none of them needs escaping.
        if let Some(word) = bytes.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
            if !needs_escape(u64::from_le_bytes(word)) {
                i += 8;
                continue;
            }
        }
        i += 1;
        if b >= 0x20 && b != b'"' && b != b'\\' {
            continue;
        }
        let i = i - 1;
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            _ => "",
        };
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
    out.push_str(s.get(start..).unwrap_or(""));
    out.push('"');
}

/// True when one of the eight bytes of `w` is a control character (below U+0020), `"`
/// or `\\` (the bytes [`write_json_string`] escapes; a word with none is copied as it is).
fn needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Some byte is below n (n <= 128): the classic test, exact for whether one exists.
    let below = |v: u64, n: u64| v.wrapping_sub(ONES * n) & !v & HIGH != 0;
    below(w, 0x20) || below(w ^ (ONES * u64::from(b'"')), 1) || below(w ^ (ONES * u64::from(b'\\')), 1)
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

/// The canonical JSON of a report, with every default field present: the same bytes as
/// [`canonical_json`] of the report's `serde_json::to_value`, written straight from the
/// typed report (its keys in code-point order in code, no `Value` tree, no sort).
pub fn canonical_report(report: &Report) -> String {
    let mut out = String::with_capacity(canonical_size_hint(report));
    report.write_canonical(&mut out);
    out
}

/// The canonical JSON of a report through its `serde_json::Value` (the test oracle of
/// [`canonical_report`]).
pub fn canonical_report_via_value(report: &Report) -> String {
    // Serialising plain structs of strings and integers cannot fail.
    serde_json::to_value(report).map(|v| canonical_json(&v)).unwrap_or_default()
}

/// The report digest: SHA-256 hex of the report's canonical JSON.
pub fn report_digest(report: &Report) -> String {
    sha256_hex(&canonical_report(report))
}

/// A little more than the text the report's canonical JSON holds (one allocation).
fn canonical_size_hint(report: &Report) -> usize {
    let citations: usize = report
        .claims
        .iter()
        .flat_map(|c| &c.citations)
        .map(|c| c.citation_id.len() + c.quote.len() + c.source_ref.source_id.len() + c.source_ref.digest.len() + 128)
        .sum();
    let claims: usize = report.claims.iter().map(|c| c.claim_id.len() + c.text.len() + c.rationale.len() + 96).sum();
    let conflicts: usize = report.conflicts.iter().map(|c| c.reason.len() + c.claim_ids.iter().map(|i| i.len() + 3).sum::<usize>() + 32).sum();
    let gaps: usize = report.gaps.iter().map(|g| g.len() + 3).sum();
    report.title.len() + citations + claims + conflicts + gaps + 64
}

/// Writes a value as canonical JSON (keys in code-point order, no spaces, non-ASCII
/// kept), as [`canonical_json`] writes its `serde_json::Value`. Each struct writes its
/// keys in sorted order itself; a test compares every writer with the `Value` path.
pub trait WriteCanonical {
    fn write_canonical(&self, out: &mut String);
}

impl WriteCanonical for str {
    fn write_canonical(&self, out: &mut String) {
        write_json_string(out, self);
    }
}

impl WriteCanonical for String {
    fn write_canonical(&self, out: &mut String) {
        write_json_string(out, self);
    }
}

impl WriteCanonical for u64 {
    fn write_canonical(&self, out: &mut String) {
        write_u64(out, *self);
    }
}

impl<T: WriteCanonical> WriteCanonical for [T] {
    fn write_canonical(&self, out: &mut String) {
        out.push('[');
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            item.write_canonical(out);
        }
        out.push(']');
    }
}

impl<T: WriteCanonical> WriteCanonical for Vec<T> {
    fn write_canonical(&self, out: &mut String) {
        self.as_slice().write_canonical(out);
    }
}

/// Writes `{"k1":v1,"k2":v2,…}`; the keys must come in code-point order (and need no
/// escaping: they are the structs' field names).
pub(crate) fn write_object(out: &mut String, fields: &[(&str, &dyn WriteCanonical)]) {
    out.push('{');
    for (i, (key, value)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(key);
        out.push_str("\":");
        value.write_canonical(out);
    }
    out.push('}');
}

/// Decimal digits of an unsigned integer, as `serde_json` writes a number.
pub(crate) fn write_u64(out: &mut String, n: u64) {
    out.push_str(u64_digits(n, &mut [0u8; 20]));
}

/// The decimal digits of `n`, written at the end of `digits`.
pub(crate) fn u64_digits(mut n: u64, digits: &mut [u8; 20]) -> &str {
    let mut at = digits.len();
    loop {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    // ASCII digits only.
    std::str::from_utf8(digits.get(at..).unwrap_or_default()).unwrap_or("0")
}

impl WriteCanonical for crate::contract::SourceRef {
    fn write_canonical(&self, out: &mut String) {
        write_object(out, &[("digest", &self.digest), ("revision", &self.revision), ("source_id", &self.source_id)]);
    }
}

impl WriteCanonical for crate::contract::Citation {
    fn write_canonical(&self, out: &mut String) {
        write_object(
            out,
            &[("citation_id", &self.citation_id), ("end", &self.end), ("quote", &self.quote), ("ref", &self.source_ref), ("start", &self.start)],
        );
    }
}

impl WriteCanonical for crate::contract::Claim {
    fn write_canonical(&self, out: &mut String) {
        write_object(
            out,
            &[
                ("citations", &self.citations),
                ("claim_id", &self.claim_id),
                ("kind", &self.kind),
                ("rationale", &self.rationale),
                ("text", &self.text),
            ],
        );
    }
}

impl WriteCanonical for crate::contract::ClaimKind {
    fn write_canonical(&self, out: &mut String) {
        write_json_string(out, self.as_str());
    }
}

impl WriteCanonical for crate::contract::Conflict {
    fn write_canonical(&self, out: &mut String) {
        write_object(out, &[("claim_ids", &self.claim_ids), ("reason", &self.reason)]);
    }
}

impl WriteCanonical for Report {
    fn write_canonical(&self, out: &mut String) {
        write_object(out, &[("claims", &self.claims), ("conflicts", &self.conflicts), ("gaps", &self.gaps), ("title", &self.title)]);
    }
}

impl WriteCanonical for crate::contract::Scope {
    fn write_canonical(&self, out: &mut String) {
        write_object(out, &[("tenant_id", &self.tenant_id), ("user_id", &self.user_id)]);
    }
}
