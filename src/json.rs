//! Strict JSON reading: a byte limit checked before parsing, duplicate keys rejected
//! (two parsers that disagree on which value wins are a smuggling hole), the parser's
//! own nesting limit, and a bounded tree: at most [`value_budget`] array items and
//! object entries are kept. Past the budget the reader still parses (so broken JSON is
//! still refused) and counts each kept array's real length, but keeps nothing more, so
//! memory stays a small multiple of the input whatever its shape (4 million `{}` in one
//! list are 8 MB of text but would be hundreds of MB as a tree).

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
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

/// The fewest bytes of input per value that [`value_budget`] grants `need` at: a
/// bundle's densest lists that have no count limit (citations, reviews, sources) spend
/// more than 100 bytes on each object of about ten values, and the dense ones (gaps, a
/// conflict's ids, claims without citations) have count limits far under
/// [`MIN_VALUE_BUDGET`].
pub const DENSEST: usize = 12;

/// How many array items and object entries are kept from an input of `bytes` bytes:
/// [`MIN_VALUE_BUDGET`], one per 32 bytes of input, or `need` (what the largest input
/// the contract limits accept holds) but at most one per [`DENSEST`] bytes, whichever is
/// most. A kept value costs at most two tokens of the [`Tape`] (a key and its value, 24
/// bytes), so the tree stays within twice the input, plus [`MIN_VALUE_BUDGET`]'s tokens.
pub fn value_budget(bytes: usize, need: usize) -> usize {
    MIN_VALUE_BUDGET.max(bytes / 32).max(need.min(bytes / DENSEST))
}

/// One value or key of a [`Tape`]: 12 bytes, whatever the target.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
    Null,
    Bool(bool),
    /// A whole number from 0 to `u64::MAX`, as its low and high halves.
    UInt([u32; 2]),
    /// A negative whole number (an `i64`'s bits).
    Int([u32; 2]),
    /// A number with a fraction or exponent (an `f64`'s bits).
    Float([u32; 2]),
    /// A string borrowed from the text: its byte offset and length.
    Str(u32, u32),
    /// A string that held an escape: its index among the tape's own strings.
    Owned(u32),
    /// An array: how many items were kept, and the index past its last token.
    Array(u32, u32),
    /// An object: how many entries were kept (each a key, then its value), and the index
    /// past its last token.
    Object(u32, u32),
}

/// How many tokens each block of a tape holds. The tape grows a block at a time, so it is
/// never copied as it grows and holds at most one block it does not use.
const BLOCK: usize = 1024;

/// A JSON value as the strict reader keeps it: one token per value and per key, in the
/// text's order (12 bytes each), each container followed by its items. Strings that hold
/// no escape are borrowed from the text; the others are the tape's own. Read it through
/// [`Node`], from [`Tape::root`].
#[derive(Debug, Default)]
pub struct Tape<'a> {
    text: &'a str,
    blocks: Vec<Vec<Tok>>,
    len: usize,
    owned: Vec<Box<str>>,
}

fn half(n: u64) -> [u32; 2] {
    [(n & 0xffff_ffff) as u32, (n >> 32) as u32]
}

fn whole([lo, hi]: [u32; 2]) -> u64 {
    u64::from(lo) | (u64::from(hi) << 32)
}

/// A count or offset of a tape (the reader refuses text of 4 GiB or more, so each fits).
fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<'a> Tape<'a> {
    fn new(text: &'a str) -> Tape<'a> {
        Tape { text, ..Tape::default() }
    }

    /// The value that was read (`null` for an empty tape).
    pub fn root(&self) -> Node<'_> {
        Node { tape: self, at: 0 }
    }

    /// The same value as a tape of its own (every string copied).
    pub fn from_value(v: &Value) -> Tape<'static> {
        let mut tape = Tape::new("");
        tape.push_value(v);
        tape
    }

    fn push_value(&mut self, v: &Value) {
        match v {
            Value::Null => {
                self.push(Tok::Null);
            }
            Value::Bool(b) => {
                self.push(Tok::Bool(*b));
            }
            Value::Number(n) => {
                self.push(number(n));
            }
            Value::String(s) => self.push_owned(s),
            Value::Array(a) => {
                let at = self.push(Tok::Null);
                a.iter().for_each(|v| self.push_value(v));
                self.set(at, Tok::Array(narrow(a.len()), narrow(self.len)));
            }
            Value::Object(m) => {
                let at = self.push(Tok::Null);
                for (k, v) in m {
                    self.push_owned(k);
                    self.push_value(v);
                }
                self.set(at, Tok::Object(narrow(m.len()), narrow(self.len)));
            }
        }
    }

    fn push_owned(&mut self, s: &str) {
        let i = narrow(self.owned.len());
        self.owned.push(s.into());
        self.push(Tok::Owned(i));
    }

    /// A string: borrowed when it is part of the text, else copied.
    fn push_str(&mut self, s: &str) {
        let offset = (s.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        match offset.checked_add(s.len()) {
            Some(end) if end <= self.text.len() && self.text.get(offset..end).is_some_and(|t| std::ptr::eq(t, s)) => {
                self.push(Tok::Str(narrow(offset), narrow(s.len())));
            }
            _ => self.push_owned(s),
        }
    }

    /// Appends a token; its index.
    fn push(&mut self, t: Tok) -> usize {
        let at = self.len;
        match self.blocks.last_mut() {
            Some(b) if b.len() < BLOCK => b.push(t),
            _ => {
                let mut b = Vec::with_capacity(BLOCK);
                b.push(t);
                self.blocks.push(b);
            }
        }
        self.len += 1;
        at
    }

    #[inline]
    fn set(&mut self, at: usize, t: Tok) {
        if let Some(slot) = self.blocks.get_mut(at / BLOCK).and_then(|b| b.get_mut(at % BLOCK)) {
            *slot = t;
        }
    }

    #[inline]
    fn tok(&self, at: usize) -> Tok {
        self.blocks.get(at / BLOCK).and_then(|b| b.get(at % BLOCK)).copied().unwrap_or(Tok::Null)
    }

    /// The index past the value at `at` and everything in it.
    #[inline]
    fn next(&self, at: usize) -> usize {
        match self.tok(at) {
            Tok::Array(_, end) | Tok::Object(_, end) => end as usize,
            _ => at + 1,
        }
    }

    /// Whether the string at `at` is `key` (its length compared first).
    #[inline]
    fn key_is(&self, at: usize, key: &str) -> bool {
        match self.tok(at) {
            Tok::Str(offset, len) => {
                let offset = offset as usize;
                len as usize == key.len() && self.text.as_bytes().get(offset..offset + key.len()) == Some(key.as_bytes())
            }
            Tok::Owned(i) => self.owned.get(i as usize).is_some_and(|s| **s == *key),
            _ => false,
        }
    }

    #[inline]
    fn str_at(&self, at: usize) -> Option<&str> {
        match self.tok(at) {
            Tok::Str(offset, len) => self.text.get(offset as usize..(offset as usize).saturating_add(len as usize)),
            Tok::Owned(i) => self.owned.get(i as usize).map(|s| &**s),
            _ => None,
        }
    }
}

fn number(n: &serde_json::Number) -> Tok {
    if let Some(u) = n.as_u64() {
        Tok::UInt(half(u))
    } else if let Some(i) = n.as_i64() {
        Tok::Int(half(i as u64))
    } else {
        Tok::Float(half(n.as_f64().unwrap_or(0.0).to_bits()))
    }
}

/// One value of a [`Tape`]: a copyable view, read as a [`serde_json::Value`] is.
#[derive(Clone, Copy)]
pub struct Node<'t> {
    tape: &'t Tape<'t>,
    at: usize,
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Value::from(*self))
    }
}

/// What a [`Node`] is, to match on.
#[derive(Clone, Copy, Debug)]
pub enum Kind<'t> {
    Null,
    Bool(bool),
    Number,
    String(&'t str),
    Array(Array<'t>),
    Object(Object<'t>),
}

impl<'t> Node<'t> {
    pub fn kind(self) -> Kind<'t> {
        match self.tape.tok(self.at) {
            Tok::Null => Kind::Null,
            Tok::Bool(b) => Kind::Bool(b),
            Tok::UInt(_) | Tok::Int(_) | Tok::Float(_) => Kind::Number,
            Tok::Str(..) | Tok::Owned(_) => Kind::String(self.tape.str_at(self.at).unwrap_or("")),
            Tok::Array(len, _) => Kind::Array(Array { tape: self.tape, at: self.at, len: len as usize }),
            Tok::Object(len, _) => Kind::Object(Object { tape: self.tape, at: self.at, len: len as usize }),
        }
    }

    pub fn as_str(self) -> Option<&'t str> {
        self.tape.str_at(self.at)
    }

    pub fn is_string(self) -> bool {
        matches!(self.tape.tok(self.at), Tok::Str(..) | Tok::Owned(_))
    }

    pub fn is_null(self) -> bool {
        self.tape.tok(self.at) == Tok::Null
    }

    pub fn as_bool(self) -> Option<bool> {
        match self.tape.tok(self.at) {
            Tok::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// A whole number from 0 to `u64::MAX`.
    pub fn as_u64(self) -> Option<u64> {
        match self.tape.tok(self.at) {
            Tok::UInt(n) => Some(whole(n)),
            _ => None,
        }
    }

    /// A whole number from `i64::MIN` to `i64::MAX`.
    pub fn as_i64(self) -> Option<i64> {
        match self.tape.tok(self.at) {
            Tok::UInt(n) => i64::try_from(whole(n)).ok(),
            Tok::Int(n) => Some(whole(n) as i64),
            _ => None,
        }
    }

    /// Any number, as an `f64`.
    pub fn as_f64(self) -> Option<f64> {
        match self.tape.tok(self.at) {
            Tok::UInt(n) => Some(whole(n) as f64),
            Tok::Int(n) => Some(whole(n) as i64 as f64),
            Tok::Float(n) => Some(f64::from_bits(whole(n))),
            _ => None,
        }
    }

    /// A number with a fraction or exponent.
    pub fn is_f64(self) -> bool {
        matches!(self.tape.tok(self.at), Tok::Float(_))
    }

    pub fn as_array(self) -> Option<Array<'t>> {
        match self.kind() {
            Kind::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_object(self) -> Option<Object<'t>> {
        match self.kind() {
            Kind::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The value of `key` in an object (`None` for any other value).
    pub fn get(self, key: &str) -> Option<Node<'t>> {
        self.as_object()?.get(key)
    }
}

/// An array of a [`Tape`].
#[derive(Clone, Copy, Debug)]
pub struct Array<'t> {
    tape: &'t Tape<'t>,
    at: usize,
    len: usize,
}

impl<'t> Array<'t> {
    pub fn len(self) -> usize {
        self.len
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The items in order.
    pub fn iter(self) -> Items<'t> {
        Items { tape: self.tape, at: self.at + 1, left: self.len }
    }

    pub fn get(self, i: usize) -> Option<Node<'t>> {
        self.iter().nth(i)
    }
}

/// The items of an [`Array`].
pub struct Items<'t> {
    tape: &'t Tape<'t>,
    at: usize,
    left: usize,
}

impl<'t> Iterator for Items<'t> {
    type Item = Node<'t>;
    fn next(&mut self) -> Option<Node<'t>> {
        self.left = self.left.checked_sub(1)?;
        let node = Node { tape: self.tape, at: self.at };
        self.at = self.tape.next(self.at);
        Some(node)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Items<'_> {}

/// An object of a [`Tape`]: its keys are unique (the reader refuses a duplicate).
#[derive(Clone, Copy, Debug)]
pub struct Object<'t> {
    tape: &'t Tape<'t>,
    at: usize,
    len: usize,
}

impl<'t> Object<'t> {
    pub fn len(self) -> usize {
        self.len
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The entries in the text's order.
    pub fn entries(self) -> Entries<'t> {
        Entries { tape: self.tape, at: self.at + 1, left: self.len }
    }

    /// The keys in the text's order.
    pub fn keys_in_text_order(self) -> impl Iterator<Item = &'t str> {
        self.entries().map(|(k, _)| k)
    }

    /// The entries in the order of their keys (as a [`serde_json::Map`] has them).
    pub fn iter(self) -> impl Iterator<Item = (&'t str, Node<'t>)> {
        let mut sorted: Vec<(&'t str, Node<'t>)> = self.entries().collect();
        sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
        sorted.into_iter()
    }

    /// The keys in their order (as a [`serde_json::Map`] has them).
    pub fn keys(self) -> impl Iterator<Item = &'t str> {
        self.iter().map(|(k, _)| k)
    }

    /// The value of `key`.
    /// The value of `key`.
    pub fn get(self, key: &str) -> Option<Node<'t>> {
        let mut at = self.at + 1;
        for _ in 0..self.len {
            if self.tape.key_is(at, key) {
                return Some(Node { tape: self.tape, at: at + 1 });
            }
            at = self.tape.next(at + 1);
        }
        None
    }

    pub fn contains_key(self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// The entries of an [`Object`].
pub struct Entries<'t> {
    tape: &'t Tape<'t>,
    at: usize,
    left: usize,
}

impl<'t> Iterator for Entries<'t> {
    type Item = (&'t str, Node<'t>);
    fn next(&mut self) -> Option<(&'t str, Node<'t>)> {
        self.left = self.left.checked_sub(1)?;
        let key = self.tape.str_at(self.at).unwrap_or("");
        let value = Node { tape: self.tape, at: self.at + 1 };
        self.at = self.tape.next(self.at + 1);
        Some((key, value))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl From<Node<'_>> for Value {
    fn from(v: Node<'_>) -> Value {
        match v.tape.tok(v.at) {
            Tok::Null => Value::Null,
            Tok::Bool(b) => Value::Bool(b),
            Tok::UInt(n) => Value::from(whole(n)),
            Tok::Int(n) => Value::from(whole(n) as i64),
            Tok::Float(n) => serde_json::Number::from_f64(f64::from_bits(whole(n))).map_or(Value::Null, Value::Number),
            Tok::Str(..) | Tok::Owned(_) => Value::String(v.as_str().unwrap_or("").to_owned()),
            Tok::Array(..) => Value::Array(v.as_array().map(|a| a.iter().map(Value::from).collect()).unwrap_or_default()),
            Tok::Object(..) => {
                let mut out = Map::new();
                for (k, v) in v.as_object().into_iter().flat_map(Object::entries) {
                    out.insert(k.to_owned(), Value::from(v));
                }
                Value::Object(out)
            }
        }
    }
}

/// A bounded read: the kept tree, and the real length of every kept array whose items
/// were not all kept (by JSON Pointer).
#[derive(Debug, Default)]
pub struct Read<'a> {
    pub tape: Tape<'a>,
    /// Real item counts of the kept arrays that lost items, by JSON Pointer.
    pub lengths: BTreeMap<String, usize>,
    /// Array items and object entries in the whole input.
    pub values: usize,
    /// The budget in force; `values > budget` means part of the input was not kept.
    pub budget: usize,
}

impl Read<'_> {
    /// The value that was read.
    pub fn value(&self) -> Node<'_> {
        self.tape.root()
    }

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

struct Reader<'de> {
    budget: usize,
    /// Items and entries seen (kept or not).
    values: usize,
    lengths: BTreeMap<String, usize>,
    tape: Tape<'de>,
}

impl Reader<'_> {
    /// Counts one more item or entry; true when it is kept.
    fn take(&mut self) -> bool {
        self.values = self.values.saturating_add(1);
        self.values <= self.budget
    }
}

struct Seed<'r, 'p, 'de> {
    reader: &'r mut Reader<'de>,
    path: &'p Path<'p>,
}

impl<'de> DeserializeSeed<'de> for Seed<'_, '_, 'de> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// An object key, borrowed from the text when it holds no escape.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

/// Up to this many entries an object's keys are compared one by one for a duplicate;
/// past it they are also kept in a set.
const FEW_KEYS: usize = 16;

impl<'de> Visitor<'de> for Seed<'_, '_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<(), E> {
        self.reader.tape.push(Tok::Bool(v));
        Ok(())
    }
    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.reader.tape.push(match u64::try_from(v) {
            Ok(u) => Tok::UInt(half(u)),
            Err(_) => Tok::Int(half(v as u64)),
        });
        Ok(())
    }
    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.reader.tape.push(Tok::UInt(half(v)));
        Ok(())
    }
    fn visit_f64<E>(self, v: f64) -> Result<(), E> {
        // (A JSON text holds no infinite or NaN number.)
        self.reader.tape.push(if v.is_finite() { Tok::Float(half(v.to_bits())) } else { Tok::Null });
        Ok(())
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<(), E> {
        self.reader.tape.push_str(v);
        Ok(())
    }
    fn visit_str<E>(self, v: &str) -> Result<(), E> {
        self.reader.tape.push_owned(v);
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        self.reader.tape.push(Tok::Null);
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        self.reader.tape.push(Tok::Null);
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let at = self.reader.tape.push(Tok::Null);
        let (mut n, mut kept) = (0usize, 0usize);
        loop {
            let more = if self.reader.take() {
                let child = Path { parent: Some(self.path), seg: Seg::Index(n) };
                let item = seq.next_element_seed(Seed { reader: &mut *self.reader, path: &child })?;
                kept += usize::from(item.is_some());
                item.is_some()
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
        if n > kept {
            self.reader.lengths.insert(self.path.pointer(), n);
        }
        let end = self.reader.tape.len;
        self.reader.tape.set(at, Tok::Array(narrow(kept), narrow(end)));
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let at = self.reader.tape.push(Tok::Null);
        let mut kept = 0usize;
        // The keys of an object with more than FEW_KEYS entries.
        let mut many: BTreeSet<Cow<'de, str>> = BTreeSet::new();
        loop {
            if self.reader.take() {
                let Some(key) = map.next_key_seed(Key)? else { break };
                let key_at = match &key {
                    Cow::Borrowed(k) => {
                        self.reader.tape.push_str(k);
                        self.reader.tape.len - 1
                    }
                    Cow::Owned(k) => {
                        self.reader.tape.push_owned(k);
                        self.reader.tape.len - 1
                    }
                };
                let child = Path { parent: Some(self.path), seg: Seg::Key(&key) };
                map.next_value_seed(Seed { reader: &mut *self.reader, path: &child })?;
                let tape = &self.reader.tape;
                let seen = if kept < FEW_KEYS {
                    let mut i = at + 1;
                    let mut seen = false;
                    while i < key_at && !seen {
                        seen = tape.key_is(i, &key);
                        i = tape.next(i + 1);
                    }
                    seen
                } else {
                    if many.is_empty() {
                        let mut i = at + 1;
                        while i < key_at {
                            many.insert(Cow::Owned(tape.str_at(i).unwrap_or("").to_owned()));
                            i = tape.next(i + 1);
                        }
                    }
                    !many.insert(key.clone())
                };
                if seen {
                    return Err(de::Error::custom(format_args!("{DUPLICATE_KEY_MARK}{key}`")));
                }
                kept += 1;
            } else if map.next_entry::<IgnoredAny, IgnoredAny>()?.is_none() {
                break;
            }
        }
        // The end of the object is not an entry.
        self.reader.values = self.reader.values.saturating_sub(1);
        let end = self.reader.tape.len;
        self.reader.tape.set(at, Tok::Object(narrow(kept), narrow(end)));
        Ok(())
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
pub fn read_bounded<'a>(text: &'a str, max_bytes: usize, need: usize, subject: &'static str) -> Result<Read<'a>, ContractError> {
    read_text(text, max_bytes, need, subject, true)
}

/// [`read_bounded`], a leading byte order mark refused as `bom` only when `bom` is set
/// (under `compat: "reference"` it is not, and the BOM is `invalid_json`, as before).
pub fn read_text<'a>(text: &'a str, max_bytes: usize, need: usize, subject: &'static str, bom: bool) -> Result<Read<'a>, ContractError> {
    // (The tape's offsets are 32 bits: no text of 4 GiB or more is read.)
    let max_bytes = max_bytes.min(u32::MAX as usize);
    if text.len() > max_bytes {
        return Err(input_too_large(text.len() as u64, max_bytes, subject));
    }
    if bom {
        if let Some(v) = leading_bom(text) {
            return Err(ContractError { subject, violations: vec![v] });
        }
    }
    let mut reader = Reader { budget: value_budget(text.len(), need), values: 0, lengths: BTreeMap::default(), tape: Tape::new(text) };
    let root = Path { parent: None, seg: Seg::Root };
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = Seed { reader: &mut reader, path: &root }.deserialize(&mut de).and_then(|()| de.end());
    match parsed {
        Ok(()) => Ok(Read { tape: reader.tape, lengths: reader.lengths, values: reader.values, budget: reader.budget }),
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
    Ok(Value::from(read.value()))
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
