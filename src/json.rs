//! Strict JSON reading: a byte limit checked before parsing, duplicate keys rejected
//! (two parsers that disagree on which value wins are a smuggling hole), the parser's
//! own nesting limit, and a bounded tree: at most [`value_budget`] array items and
//! object entries are kept. Past the budget the reader still parses (so broken JSON is
//! still refused) and counts each kept array's real length, but keeps nothing more, so
//! memory stays a small multiple of the input whatever its shape (4 million `{}` in one
//! list are 8 MB of text but would be hundreds of MB as a tree).

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

use crate::error::{ContractError, Violation, ViolationCode};

/// The deepest nesting of arrays and objects a JSON input may have: the 128th level
/// (serde_json's own limit) is refused with `too_deep`, before it is read further.
pub const MAX_DEPTH: usize = 127;

/// The refusal of JSON that nests deeper than [`MAX_DEPTH`]: `too_deep` at the root,
/// with the library's own message; `at` says where the text went too deep (`line 1
/// column 128`), or why a value was not serialised (given as a JS value too deep for
/// `JSON.stringify`).
pub fn too_deep(at: &str, subject: &'static str) -> ContractError {
    ContractError {
        subject,
        violations: vec![violation(ViolationCode::TooDeep, too_deep_message(at))],
    }
}

/// Whether a host's exception (its `name` and `message`, when they are strings) says
/// that serialising a value ran out of stack: V8's and JavaScriptCore's `RangeError`
/// "Maximum call stack size exceeded", SpiderMonkey's `InternalError` "too much
/// recursion". Such a value nests far deeper than JSON is read: a [`too_deep`].
pub fn is_out_of_stack(name: Option<&str>, message: Option<&str>) -> bool {
    match name {
        Some("RangeError") => message.is_some_and(|m| m.contains("call stack")),
        Some("InternalError") => message.is_some_and(|m| m.contains("recursion")),
        _ => false,
    }
}

/// How serde_json's message starts when it refused the text for its nesting limit.
const RECURSION_MARK: &str = "recursion limit exceeded";

/// The message of serde_json's error `e` given its own text (formatted once by the
/// caller), but the library's for its nesting limit ("recursion limit exceeded" is not
/// passed on).
fn message_of(e: &serde_json::Error, text: String) -> String {
    if text.starts_with(RECURSION_MARK) {
        return too_deep_message(&format!("at line {} column {}", e.line(), e.column()));
    }
    text
}

fn too_deep_message(at: &str) -> String {
    format!("the JSON nests deeper than {MAX_DEPTH} levels ({at}); it was not read")
}

/// Default limit on the size of a JSON input, in bytes (16 MiB).
pub const DEFAULT_MAX_INPUT_BYTES: usize = 16 * 1024 * 1024;

/// The least number of array items and object entries kept from any input.
pub const MIN_VALUE_BUDGET: usize = 16_384;

/// How many array items and object entries are kept from an input of `bytes` bytes:
/// [`MIN_VALUE_BUDGET`], one per 32 bytes of input, or `need` (what the largest input
/// the contract limits accept holds), whichever is most. Kept values cost tens of bytes
/// each, so the tree stays within a few times the input.
pub fn value_budget(bytes: usize, need: usize) -> usize {
    MIN_VALUE_BUDGET.max(bytes / 32).max(need)
}

/// A bounded read: the kept tree, and the real length of every kept array whose items
/// were not all kept (by JSON Pointer).
#[derive(Debug, Default)]
pub struct Read {
    pub value: Value,
    /// Real item counts of the kept arrays that lost items, by JSON Pointer.
    pub lengths: BTreeMap<String, usize>,
    /// Array items and object entries in the whole input.
    pub values: usize,
    /// The budget in force; `values > budget` means part of the input was not kept.
    pub budget: usize,
}

impl Read {
    /// True when part of the input was counted but not kept.
    pub fn truncated(&self) -> bool {
        self.values > self.budget
    }

    /// The violation that says so.
    pub fn truncation_violation(&self) -> Violation {
        violation(
            ViolationCode::TooManyValues,
            format!(
                "the input holds {} array items and object entries, over the {} that are read; the rest were counted, not checked",
                self.values, self.budget
            ),
        )
    }
}

/// One step of the path from the root to the value being read.
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    seg: Seg<'a>,
}

impl Path<'_> {
    fn pointer(&self) -> String {
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            match p.seg {
                Seg::Root => {}
                Seg::Key(k) => segs.push(pointer_segment(k)),
                Seg::Index(i) => segs.push(i.to_string()),
            }
            at = p.parent;
        }
        segs.iter().rev().fold(String::new(), |acc, s| acc + "/" + s)
    }
}

struct Reader {
    budget: usize,
    /// Items and entries seen (kept or not).
    values: usize,
    lengths: BTreeMap<String, usize>,
}

impl Reader {
    /// Counts one more item or entry; true when it is kept.
    fn take(&mut self) -> bool {
        self.values = self.values.saturating_add(1);
        self.values <= self.budget
    }
}

struct Seed<'r, 'p> {
    reader: &'r mut Reader,
    path: &'p Path<'p>,
}

impl<'de> DeserializeSeed<'de> for Seed<'_, '_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_, '_> {
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
        let mut n = 0usize;
        loop {
            let more = if self.reader.take() {
                let child = Path { parent: Some(self.path), seg: Seg::Index(n) };
                let item = seq.next_element_seed(Seed { reader: &mut *self.reader, path: &child })?;
                item.map(|v| out.push(v)).is_some()
            } else {
                seq.next_element::<IgnoredAny>()?.is_some()
            };
            if !more {
                // The end of the list is not an item.
                self.reader.values = self.reader.values.saturating_sub(1);
                break;
            }
            n += 1;
        }
        if n > out.len() {
            self.reader.lengths.insert(self.path.pointer(), n);
        }
        out.shrink_to_fit();
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        loop {
            if self.reader.take() {
                let Some(key) = map.next_key::<String>()? else { break };
                let child = Path { parent: Some(self.path), seg: Seg::Key(&key) };
                let v = map.next_value_seed(Seed { reader: &mut *self.reader, path: &child })?;
                match out.entry(key) {
                    serde_json::map::Entry::Vacant(slot) => {
                        slot.insert(v);
                    }
                    serde_json::map::Entry::Occupied(slot) => {
                        return Err(de::Error::custom(format_args!("{DUPLICATE_KEY_MARK}{}`", slot.key())));
                    }
                }
            } else if map.next_entry::<IgnoredAny, IgnoredAny>()?.is_none() {
                break;
            }
        }
        // The end of the object is not an entry.
        self.reader.values = self.reader.values.saturating_sub(1);
        Ok(Value::Object(out))
    }
}

const DUPLICATE_KEY_MARK: &str = "duplicate key `";

fn violation(code: ViolationCode, message: String) -> Violation {
    Violation { path: String::new(), code, message }
}

/// The refusal of an input of `len` bytes over `max_bytes`, before it is parsed (also for
/// a bundle given as bytes, refused before it is copied).
pub fn input_too_large(len: u64, max_bytes: usize, subject: &'static str) -> ContractError {
    ContractError {
        subject,
        violations: vec![violation(
            ViolationCode::InputTooLarge,
            format!("the input is {len} bytes, over the limit of {max_bytes} bytes; it was not parsed"),
        )],
    }
}

/// Reads JSON text into a bounded tree (see the module's text), refusing duplicate keys
/// among the kept entries and input over `max_bytes`; `need` as in [`value_budget`].
pub fn read_bounded(text: &str, max_bytes: usize, need: usize, subject: &'static str) -> Result<Read, ContractError> {
    read_text(text, max_bytes, need, subject, true)
}

/// [`read_bounded`], a leading byte order mark refused as `bom` only when `bom` is set
/// (under `compat: "reference"` it is not, and the BOM is `invalid_json`, as before).
pub fn read_text(text: &str, max_bytes: usize, need: usize, subject: &'static str, bom: bool) -> Result<Read, ContractError> {
    if text.len() > max_bytes {
        return Err(input_too_large(text.len() as u64, max_bytes, subject));
    }
    if bom {
        if let Some(v) = leading_bom(text) {
            return Err(ContractError { subject, violations: vec![v] });
        }
    }
    let mut reader = Reader { budget: value_budget(text.len(), need), values: 0, lengths: BTreeMap::default() };
    let root = Path { parent: None, seg: Seg::Root };
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = Seed { reader: &mut reader, path: &root }.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    match parsed {
        Ok(value) => Ok(Read { value, lengths: reader.lengths, values: reader.values, budget: reader.budget }),
        Err(e) => {
            let text = e.to_string();
            let code = if text.starts_with(DUPLICATE_KEY_MARK) {
                ViolationCode::DuplicateKey
            } else if text.starts_with(RECURSION_MARK) {
                ViolationCode::TooDeep
            } else {
                ViolationCode::InvalidJson
            };
            Err(ContractError { subject, violations: vec![violation(code, message_of(&e, text))] })
        }
    }
}

/// A byte order mark (U+FEFF) before the first value of JSON text (after any JSON
/// whitespace): `bom`, with its line, column and byte offset. A U+FEFF inside a string
/// is text, and one after the first token is `invalid_json` as any stray character is.
fn leading_bom(text: &str) -> Option<Violation> {
    let offset = text.find(|c: char| !matches!(c, ' ' | '\t' | '\n' | '\r'))?;
    if !text.get(offset..)?.starts_with('\u{feff}') {
        return None;
    }
    let before = text.get(..offset)?;
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    Some(violation(
        ViolationCode::Bom,
        format!("the JSON text starts with a byte order mark (U+FEFF) at line {line} column {column} (byte {offset}); save it as UTF-8 without a BOM, or remove the mark"),
    ))
}

/// Parses JSON text into a value, refusing duplicate keys, input over `max_bytes`, and
/// input with more values than are read (see [`read_bounded`]). With no contract limits
/// to go by, it keeps one value per 16 bytes (a catalogue of documents with 40-character
/// bodies spends 21 bytes a value).
pub fn parse_strict(text: &str, max_bytes: usize, subject: &'static str) -> Result<Value, ContractError> {
    let read = read_bounded(text, max_bytes, text.len() / 16, subject)?;
    if read.truncated() {
        return Err(ContractError { subject, violations: vec![read.truncation_violation()] });
    }
    Ok(read.value)
}

// ---- JSON Pointers (RFC 6901) --------------------------------------------------------

/// Escapes one JSON Pointer segment (RFC 6901).
pub fn pointer_segment(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    push_segment(&mut out, key);
    out
}

/// Appends `key` escaped as a JSON Pointer segment (`~` as `~0`, `/` as `~1`).
fn push_segment(out: &mut String, key: &str) {
    let mut rest = key;
    while let Some(at) = rest.find(['~', '/']) {
        let (plain, special) = rest.split_at(at);
        out.push_str(plain);
        out.push_str(if special.starts_with('~') { "~0" } else { "~1" });
        rest = special.get(1..).unwrap_or("");
    }
    out.push_str(rest);
}

/// Appends a key to a JSON Pointer.
pub fn join(path: &str, key: &str) -> String {
    let mut out = String::with_capacity(path.len() + 1 + key.len());
    out.push_str(path);
    out.push('/');
    push_segment(&mut out, key);
    out
}

/// Appends an index to a JSON Pointer.
pub fn join_index(path: &str, index: usize) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(path.len() + 4);
    out.push_str(path);
    // Writing to a `String` cannot fail.
    let _ = write!(out, "/{index}");
    out
}
