//! The strict reader's fast path: valid JSON text read straight into the contract types,
//! without the [`serde_json::Value`] tree of [`super::json`].
//!
//! serde Visitors read each object field by field: a key that is not a field of the type,
//! a key seen twice, a value of the wrong JSON type (no coercion), a string, number or
//! list that breaks its rule, a missing field, a broken cross-field rule, more array items
//! and object entries than the tree reader keeps ([`super::json::value_budget`]), input
//! over the byte limit or text that is not JSON (lone surrogates included: serde_json
//! refuses them in both readers) — each makes the fast path give up at once. The caller
//! then reads the text again with the tree reader, which lists every violation with its
//! path, in its fixed order. So an accepted input gives the value the tree reader gives,
//! and a refused one gives exactly its error. (A report read at the root is the one
//! exception, see [`read_report_links_unchecked`]: its report-level cross-field rules, and
//! one of its lists over its maximum, are left to the caller, which lists the violations
//! the tree reader would.)
//!
//! The rules are not copied: both readers call the same rule functions
//! ([`super::validate::check_str`], [`super::validate::check_int`],
//! [`super::validate::check_literal`], the field rules of [`super::rule`], the policy's
//! limits, and each type's cross-field rule).

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

use super::validate::{check_int, check_literal, check_str, StrRule};
use super::{rule, Citation, Claim, Conflict, Limits, Report, Scope, SourceKind, SourceRef, SourceSpec};
use crate::bundle::{Bundle, BundleSource};
use crate::import::ImportNote;
use crate::review::{Review, Verdict};

/// How a text is read: the limits of the tree reader it stands in for.
#[derive(Clone, Copy, Debug)]
pub struct How {
    /// Input over this many bytes is refused.
    pub max_bytes: usize,
    /// The `need` of [`super::json::value_budget`]; `None`: one value per 16 bytes of
    /// input (what [`super::json::parse_strict`] keeps).
    pub need: Option<usize>,
    /// `null` in an optional field of a report means absent (the OpenAI strict dialect,
    /// see [`crate::schema::strip_nulls`]).
    pub nulls_absent: bool,
    /// A bundle source may leave out `content` (see [`crate::bundle::bundle_without_contents`]).
    pub content_optional: bool,
    /// Each bundle source's `content` comes out with its newlines normalised, and its
    /// length as given is kept (see [`read_bundle_normalized`]).
    pub normalize_content: bool,
}

impl How {
    /// As [`super::Contract::from_json_with`] reads under `limits`.
    pub fn contract(limits: &Limits) -> How {
        How { max_bytes: limits.max_input_bytes, need: Some(limits.values_needed()), nulls_absent: false, content_optional: false, normalize_content: false }
    }

    /// As [`super::json::parse_strict`] reads with this byte limit.
    pub fn plain(max_bytes: usize) -> How {
        How { max_bytes, need: None, nulls_absent: false, content_optional: false, normalize_content: false }
    }
}

/// What a read carries: the policy, and the count of array items and object entries.
pub struct Cx<'p> {
    policy: &'p Limits,
    values: usize,
    budget: usize,
    how: How,
    /// Under [`How::normalize_content`], each source's content length as given and its
    /// code-point index, in order.
    given: Vec<(usize, crate::citation::TextIndex)>,
    /// The report read at the root is given back with its cross-field rules
    /// ([`Report::check_links`]) not run (see [`read_report_links_unchecked`]).
    links_unchecked: bool,
    /// Under `links_unchecked`: the one report-level list over its maximum whose items are
    /// all valid (its field, the maximum, its length).
    too_long: Option<(&'static str, usize, usize)>,
}

impl Cx<'_> {
    /// Counts one more array item or object entry; past the budget the fast path gives up.
    fn count<E: de::Error>(&mut self) -> Result<(), E> {
        self.values = self.values.saturating_add(1);
        if self.values > self.budget {
            return Err(bail());
        }
        Ok(())
    }
}

/// A type the fast path reads.
pub trait Typed: Sized {
    /// Reads one value of the type, or gives up.
    fn read<'de, D: Deserializer<'de>>(cx: &mut Cx<'_>, d: D) -> Result<Self, D::Error>;
}

/// Reads `text` into `T` under `policy` read as `how`; `None` when the text is not a
/// valid `T` (or when reading it any further would not be cheap): read it with the tree
/// reader to learn why.
pub fn read<T: Typed>(text: &str, policy: &Limits, how: How) -> Option<T> {
    run(text, policy, how, |cx, de| T::read(cx, de))
}

/// Reads a JSON array of `T` given on its own (a host's reviews), as
/// [`super::list_from_value_in`] checks one; `null` is an empty list when `null_is_empty`.
pub fn read_list<T: Typed>(text: &str, policy: &Limits, how: How, null_is_empty: bool) -> Option<Vec<T>> {
    let items = run(text, policy, how, |cx, de| {
        Opt(List { cx, min: 0, max: usize::MAX, item: Of::<T>(PhantomData), over: None }, null_is_empty).deserialize(de)
    })?;
    Some(items.unwrap_or_default())
}

/// Reads a bundle as [`read`] does under [`How::contract`] (the same values are accepted),
/// but with each source's `content` LF-normalised (CRLF and lone CR become LF) and
/// indexed as it is copied out of serde_json's reading ([`super::json::text_normalized`]):
/// one pass where the plain reader copies the string and the store then normalises it
/// and indexes it in two more. Also gives each source's content length in UTF-8 bytes as
/// given (before normalisation: the size the store's limit applies to) and the code-point
/// index of its normalised text, in the sources' order.
pub fn read_bundle_normalized(text: &str, policy: &Limits) -> Option<(Bundle, Vec<(usize, crate::citation::TextIndex)>)> {
    let how = How { normalize_content: true, ..How::contract(policy) };
    run(text, policy, how, |cx, de| {
        let bundle = Bundle::read(cx, de)?;
        Ok((bundle, std::mem::take(&mut cx.given)))
    })
}

/// Reads a report as [`read`] does, but gives it back with its report-level cross-field
/// rules ([`Report::check_links`]) not run: the caller runs them (see
/// `Report::from_json_in`). Those rules come last in both readers, once every field is
/// valid, so when this read gives a report, the tree reader's only violations for the
/// same text are the ones `check_links` lists for that report, and no second read is needed
/// to learn them.
///
/// Also gives back, instead of giving up, one list of the report (`claims`, `conflicts`,
/// `gaps`) over its maximum whose items are all valid, when every other field is valid:
/// the tree reader then lists that one violation ([`super::validate::Checker::list`]
/// stops at the item past the maximum, the other fields are valid and the cross-field rules
/// are not run), which this gives as the violation the tree reader writes.
pub fn read_report_links_unchecked(text: &str, policy: &Limits, how: How) -> Option<(Report, Option<crate::error::Violation>)> {
    run(text, policy, how, |cx, de| {
        cx.links_unchecked = true;
        let report = Report::read(cx, de)?;
        let over = cx.too_long.map(|(field, max, n)| crate::error::Violation {
            path: super::validate::join("", field),
            code: crate::error::ViolationCode::TooLong,
            message: super::validate::too_long_list(max, n),
        });
        Ok((report, over))
    })
}

type De<'t> = serde_json::Deserializer<serde_json::de::StrRead<'t>>;

fn run<'t, T>(text: &'t str, policy: &Limits, how: How, f: impl FnOnce(&mut Cx<'_>, &mut De<'t>) -> Result<T, serde_json::Error>) -> Option<T> {
    if text.len() > how.max_bytes {
        return None;
    }
    let need = how.need.unwrap_or(text.len() / 16);
    let mut cx = Cx { policy, values: 0, budget: super::json::value_budget(text.len(), need), how, given: Vec::new(), links_unchecked: false, too_long: None };
    let mut de = serde_json::Deserializer::from_str(text);
    let t = f(&mut cx, &mut de).ok()?;
    de.end().ok()?;
    Some(t)
}

/// A contract type's [`super::Contract::from_json_typed`]: this fast path.
macro_rules! fast_path {
    () => {
        fn from_json_typed(text: &str, limits: &$crate::contract::Limits, how: $crate::contract::typed::How) -> Option<Self> {
            $crate::contract::typed::read(text, limits, how)
        }
    };
}
pub(crate) use fast_path;

/// The fast path gives up; the reason is not kept (the tree reader gives it).
fn bail<E: de::Error>() -> E {
    E::custom("not valid; read again with the tree reader")
}

/// A broken rule makes the fast path give up.
fn ok<T, E: de::Error>(r: Result<T, super::validate::Fault>) -> Result<T, E> {
    r.map_err(|_| bail())
}

/// A field the type requires.
fn need<T, E: de::Error>(v: Option<T>) -> Result<T, E> {
    v.ok_or_else(bail)
}

/// A string, handed to `F` (which gives up with `None`).
struct Str<F>(F);

impl<'de, T, F: FnOnce(&str) -> Option<T>> DeserializeSeed<'de> for Str<F> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, T, F: FnOnce(&str) -> Option<T>> Visitor<'de> for Str<F> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<T, E> {
        (self.0)(s).ok_or_else(bail)
    }
}

/// A string under its rule.
fn string_seed(rule: &StrRule) -> Str<impl FnOnce(&str) -> Option<String> + '_> {
    Str(move |s: &str| check_str(s, rule).ok().map(|()| s.to_owned()))
}

/// An object key: the index of one of `names`, or (when `.1`: the strict dialect) past
/// them, of one of the [`crate::schema::NULLABLE_FIELDS`] the type does not have.
struct Key(&'static [&'static str], bool);

impl<'de> DeserializeSeed<'de> for Key {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        let Key(names, nullable) = self;
        Str(|s: &str| {
            names.iter().position(|n| *n == s).or_else(|| {
                let extra = crate::schema::NULLABLE_FIELDS.iter().position(|n| *n == s).filter(|_| nullable)?;
                Some(names.len() + extra)
            })
        })
        .deserialize(d)
    }
}

/// A `null` and nothing else.
struct Null;

impl<'de> DeserializeSeed<'de> for Null {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_unit(self)
    }
}

impl<'de> Visitor<'de> for Null {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("null")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// How one item of a list is read.
trait Item {
    type Out;
    fn read<'de, D: Deserializer<'de>>(&self, cx: &mut Cx<'_>, d: D) -> Result<Self::Out, D::Error>;
}

/// Items of a contract type.
struct Of<T>(PhantomData<T>);

impl<T: Typed> Item for Of<T> {
    type Out = T;
    fn read<'de, D: Deserializer<'de>>(&self, cx: &mut Cx<'_>, d: D) -> Result<T, D::Error> {
        T::read(cx, d)
    }
}

/// Strings under a rule.
impl Item for StrRule {
    type Out = String;
    fn read<'de, D: Deserializer<'de>>(&self, _: &mut Cx<'_>, d: D) -> Result<String, D::Error> {
        string_seed(self).deserialize(d)
    }
}

/// One value read as an item.
struct One<'c, 'p, 'i, I>(&'c mut Cx<'p>, &'i I);

impl<'de, I: Item> DeserializeSeed<'de> for One<'_, '_, '_, I> {
    type Value = I::Out;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<I::Out, D::Error> {
        self.1.read(self.0, d)
    }
}

/// A list of `min..=max` items (as [`super::validate::Checker::list`] accepts one).
struct List<'c, 'p, I> {
    cx: &'c mut Cx<'p>,
    min: usize,
    max: usize,
    item: I,
    /// The report's field this list is, when a list over its maximum is to be noted in
    /// [`Cx::too_long`] rather than given up on (see [`read_report_links_unchecked`]).
    over: Option<&'static str>,
}

impl<'de, I: Item> DeserializeSeed<'de> for List<'_, '_, I> {
    type Value = Vec<I::Out>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<I::Out>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, I: Item> Visitor<'de> for List<'_, '_, I> {
    type Value = Vec<I::Out>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(item) = seq.next_element_seed(One(&mut *self.cx, &self.item))? {
            self.cx.count()?;
            // A report's list over its maximum is read on (see `over`) only up to twice its
            // maximum: past that the tree reader reads it instead, as it did before, so a
            // list far over (hostile) is never read whole twice.
            if out.len() >= self.max && (self.over.is_none() || out.len() >= self.max.saturating_mul(2)) {
                return Err(bail());
            }
            out.push(item);
        }
        if out.len() < self.min {
            return Err(bail());
        }
        if out.len() > self.max {
            // Only one such list: with two, the tree reader's order is its own.
            match (self.over, self.cx.too_long) {
                (Some(field), None) => self.cx.too_long = Some((field, self.max, out.len())),
                _ => return Err(bail()),
            }
        }
        Ok(out)
    }
}

/// A value that may be `null` (absent) when `.1` is set.
struct Opt<S>(S, bool);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Opt<S> {
    type Value = Option<S::Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        if self.1 {
            d.deserialize_option(self)
        } else {
            self.0.deserialize(d).map(Some)
        }
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Opt<S> {
    type Value = Option<S::Value>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value or null")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(d).map(Some)
    }
}

/// An object being read field by field: each key one of the type's fields, at most once.
struct Obj<'c, 'p, A> {
    cx: &'c mut Cx<'p>,
    map: A,
    names: &'static [&'static str],
    seen: u64,
}

impl<'de, A: MapAccess<'de>> Obj<'_, '_, A> {
    /// The next field's name, or `None` at the end of the object. In the strict dialect a
    /// `null` under one of [`crate::schema::NULLABLE_FIELDS`] that the type does not have
    /// is passed over, as [`crate::schema::strip_nulls`] drops it (after the duplicate
    /// keys and the budget were checked, as here).
    fn next(&mut self) -> Result<Option<&'static str>, A::Error> {
        loop {
            let Some(i) = self.map.next_key_seed(Key(self.names, self.cx.how.nulls_absent))? else { return Ok(None) };
            self.cx.count()?;
            let bit = 1u64.checked_shl(u32::try_from(i).map_err(|_| bail())?).ok_or_else(bail)?;
            if self.seen & bit != 0 {
                return Err(bail());
            }
            self.seen |= bit;
            match self.names.get(i) {
                Some(name) => return Ok(Some(name)),
                None => self.map.next_value_seed(Null)?,
            }
        }
    }

    fn string(&mut self, rule: &StrRule) -> Result<String, A::Error> {
        self.map.next_value_seed(string_seed(rule))
    }

    /// A string that may be `null` (absent) in the strict dialect.
    fn string_or_null(&mut self, rule: &StrRule) -> Result<Option<String>, A::Error> {
        let nulls = self.cx.how.nulls_absent;
        self.map.next_value_seed(Opt(string_seed(rule), nulls))
    }

    fn int(&mut self, min: u64) -> Result<u64, A::Error> {
        let n: u64 = self.map.next_value()?;
        ok(check_int(Some(n), min))
    }

    fn literal<T: Copy>(&mut self, options: &[(&str, T)]) -> Result<T, A::Error> {
        self.map.next_value_seed(Str(|s: &str| check_literal(Some(s), options).ok()))
    }

    fn typed<T: Typed>(&mut self) -> Result<T, A::Error> {
        self.map.next_value_seed(One(&mut *self.cx, &Of::<T>(PhantomData)))
    }

    fn list<I: Item>(&mut self, item: I, min: usize, max: usize) -> Result<Vec<I::Out>, A::Error> {
        self.map.next_value_seed(List { cx: &mut *self.cx, min, max, item, over: None })
    }

    /// A list that may be `null` (absent) in the strict dialect.
    fn list_or_null<I: Item>(&mut self, item: I, max: usize) -> Result<Option<Vec<I::Out>>, A::Error> {
        self.list_or_null_at(item, max, None)
    }

    /// A list of the report read at the root (its field `field`): one over its maximum is
    /// noted under [`Cx::links_unchecked`] instead of given up on (see
    /// [`read_report_links_unchecked`]).
    fn report_list<I: Item>(&mut self, item: I, min: usize, max: usize, field: &'static str) -> Result<Vec<I::Out>, A::Error> {
        let over = self.cx.links_unchecked.then_some(field);
        self.map.next_value_seed(List { cx: &mut *self.cx, min, max, item, over })
    }

    /// [`Self::report_list`] for a list that may be `null` (absent) in the strict dialect.
    fn report_list_or_null<I: Item>(&mut self, item: I, max: usize, field: &'static str) -> Result<Option<Vec<I::Out>>, A::Error> {
        let over = self.cx.links_unchecked.then_some(field);
        self.list_or_null_at(item, max, over)
    }

    fn list_or_null_at<I: Item>(&mut self, item: I, max: usize, over: Option<&'static str>) -> Result<Option<Vec<I::Out>>, A::Error> {
        let nulls = self.cx.how.nulls_absent;
        self.map.next_value_seed(Opt(List { cx: &mut *self.cx, min: 0, max, item, over }, nulls))
    }
}

/// A name of `FIELDS` that the type's reader does not read: gives up (the tree reader
/// then reads the text; `tests/contract_reader.rs` would see the two disagree).
fn unknown<T, E: de::Error>() -> Result<T, E> {
    Err(bail())
}

/// A contract type read as an object: `$body` reads the fields from `$o` (an [`Obj`]).
macro_rules! object {
    ($ty:ty, $names:expr, |$o:ident| $body:block) => {
        impl Typed for $ty {
            fn read<'de, D: Deserializer<'de>>(cx: &mut Cx<'_>, d: D) -> Result<Self, D::Error> {
                struct V<'c, 'p>(&'c mut Cx<'p>);
                impl<'de> Visitor<'de> for V<'_, '_> {
                    type Value = $ty;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<$ty, A::Error> {
                        let mut $o = Obj { cx: self.0, map, names: $names, seen: 0 };
                        $body
                    }
                }
                d.deserialize_map(V(cx))
            }
        }
    };
}

object!(Scope, Scope::FIELDS, |o| {
    let rule = o.cx.policy.scope_rule();
    let (mut tenant_id, mut user_id) = (None, None);
    while let Some(k) = o.next()? {
        match k {
            "tenant_id" => tenant_id = Some(o.string(&rule)?),
            "user_id" => user_id = Some(o.string(&rule)?),
            _ => return unknown(),
        }
    }
    Ok(Scope { tenant_id: need(tenant_id)?, user_id: need(user_id)? })
});

object!(SourceSpec, SourceSpec::FIELDS, |o| {
    let p = o.cx.policy;
    let (mut source_id, mut title, mut locator, mut filename, mut kind) = (None, None, None, None, None);
    while let Some(k) = o.next()? {
        match k {
            "source_id" => source_id = Some(o.string(&p.identifier_rule())?),
            "title" => title = Some(o.string(&rule::TITLE)?),
            "locator" => locator = Some(o.string(&rule::LOCATOR)?),
            "filename" => filename = Some(o.string(&p.filename_rule())?),
            "kind" => kind = Some(o.map.next_value_seed(Str(|s: &str| SourceKind::in_policy(p, Some(s)).ok()))?),
            _ => return unknown(),
        }
    }
    Ok(SourceSpec { source_id: need(source_id)?, title: need(title)?, locator: need(locator)?, filename: need(filename)?, kind: need(kind)? })
});

object!(SourceRef, SourceRef::FIELDS, |o| {
    let p = o.cx.policy;
    let (mut source_id, mut revision, mut digest) = (None, None, None);
    while let Some(k) = o.next()? {
        match k {
            "source_id" => source_id = Some(o.string(&p.identifier_rule())?),
            "revision" => revision = Some(o.int(1)?),
            "digest" => digest = Some(o.string(&super::validate::DIGEST)?),
            _ => return unknown(),
        }
    }
    Ok(SourceRef { source_id: need(source_id)?, revision: need(revision)?, digest: need(digest)? })
});

object!(Citation, Citation::FIELDS, |o| {
    let p = o.cx.policy;
    let (mut citation_id, mut source_ref, mut start, mut end, mut quote) = (None, None, None, None, None);
    while let Some(k) = o.next()? {
        match k {
            "citation_id" => citation_id = Some(o.string(&p.identifier_rule())?),
            "ref" => source_ref = Some(o.typed::<SourceRef>()?),
            "start" => start = Some(o.int(0)?),
            "end" => end = Some(o.int(1)?),
            "quote" => quote = Some(o.string(&p.quote_rule())?),
            _ => return unknown(),
        }
    }
    let citation = Citation { citation_id: need(citation_id)?, source_ref: need(source_ref)?, start: need(start)?, end: need(end)?, quote: need(quote)? };
    match citation.broken_rule() {
        None => Ok(citation),
        Some(_) => Err(bail()),
    }
});

object!(Claim, Claim::FIELDS, |o| {
    let p = o.cx.policy;
    let (mut claim_id, mut text, mut kind, mut rationale, mut citations) = (None, None, None, None, None);
    while let Some(k) = o.next()? {
        match k {
            "claim_id" => claim_id = Some(o.string(&p.identifier_rule())?),
            "text" => text = Some(o.string(&rule::claim_text(p))?),
            "kind" => kind = Some(o.literal(&super::CLAIM_KINDS)?),
            "rationale" => rationale = o.string_or_null(&rule::rationale(p))?,
            "citations" => citations = o.list_or_null(Of::<Citation>(PhantomData), p.max_citations)?,
            _ => return unknown(),
        }
    }
    let claim = Claim {
        claim_id: need(claim_id)?,
        text: need(text)?,
        kind: need(kind)?,
        rationale: rationale.unwrap_or_default(),
        citations: citations.unwrap_or_default(),
    };
    match claim.broken_rule() {
        None => Ok(claim),
        Some(_) => Err(bail()),
    }
});

object!(Conflict, Conflict::FIELDS, |o| {
    let p = o.cx.policy;
    let (mut claim_ids, mut reason) = (None, None);
    while let Some(k) = o.next()? {
        match k {
            "claim_ids" => claim_ids = Some(o.list(p.identifier_rule(), rule::CONFLICT_MEMBERS.0, rule::CONFLICT_MEMBERS.1)?),
            "reason" => reason = Some(o.string(&rule::REASON)?),
            _ => return unknown(),
        }
    }
    Ok(Conflict { claim_ids: need(claim_ids)?, reason: need(reason)? })
});

object!(Report, Report::FIELDS, |o| {
    let p = o.cx.policy;
    let (mut title, mut claims, mut conflicts, mut gaps) = (None, None, None, None);
    while let Some(k) = o.next()? {
        match k {
            "title" => title = Some(o.string(&rule::TITLE)?),
            "claims" => claims = Some(o.report_list(Of::<Claim>(PhantomData), 1, p.max_claims, "claims")?),
            "conflicts" => conflicts = o.report_list_or_null(Of::<Conflict>(PhantomData), p.max_conflicts, "conflicts")?,
            "gaps" => gaps = o.report_list_or_null(rule::GAP, p.max_gaps, "gaps")?,
            _ => return unknown(),
        }
    }
    let report = Report { title: need(title)?, claims: need(claims)?, conflicts: conflicts.unwrap_or_default(), gaps: gaps.unwrap_or_default() };
    if o.cx.links_unchecked {
        return Ok(report);
    }
    if report.links_broken(p) {
        return Err(bail());
    }
    Ok(report)
});

object!(BundleSource, BundleSource::FIELDS, |o| {
    let (mut spec, mut content, mut revision, mut fetched_at) = (None, None, None, None);
    while let Some(k) = o.next()? {
        match k {
            "spec" => spec = Some(o.typed::<SourceSpec>()?),
            "content" if o.cx.how.normalize_content => {
                let read = o.map.next_value_seed(Str(|s: &str| Some(super::json::text_normalized(s))))?;
                o.cx.given.push((read.given_bytes, read.index));
                content = Some(read.text);
            }
            "content" => content = Some(o.string(&super::validate::ANY_STRING)?),
            "revision" => revision = Some(o.int(1)?),
            "fetched_at" => fetched_at = Some(o.string(&rule::DATE_TIME)?),
            _ => return unknown(),
        }
    }
    let content = match content {
        None if o.cx.how.content_optional => String::new(),
        c => need(c)?,
    };
    Ok(BundleSource { spec: need(spec)?, content, revision: revision.unwrap_or(1), fetched_at })
});

object!(Review, Review::FIELDS, |o| {
    let p = o.cx.policy;
    let (mut scope, mut report_digest, mut claim_id, mut verdict, mut note, mut reviewed_at, mut signature) = (None, None, None, None, None, None, None);
    while let Some(k) = o.next()? {
        match k {
            "scope" => scope = Some(o.typed::<Scope>()?),
            "report_digest" => report_digest = Some(o.string(&super::validate::DIGEST)?),
            "claim_id" => claim_id = Some(o.string(&p.identifier_rule())?),
            "verdict" => verdict = Some(o.literal(&Verdict::ALL)?),
            "note" => note = Some(o.string(&rule::note(p))?),
            "reviewed_at" => reviewed_at = Some(o.string(&rule::DATE_TIME)?),
            "signature" => signature = Some(o.string(&super::validate::DIGEST)?),
            _ => return unknown(),
        }
    }
    Ok(Review {
        scope: need(scope)?,
        report_digest: need(report_digest)?,
        claim_id: need(claim_id)?,
        verdict: need(verdict)?,
        note: need(note)?,
        reviewed_at: need(reviewed_at)?,
        signature,
    })
});

object!(ImportNote, ImportNote::FIELDS, |o| {
    use crate::import::rule as import;
    let mut note = ImportNote::default();
    let mut importer = None;
    while let Some(k) = o.next()? {
        match k {
            "importer" => importer = Some(o.literal(&import::IMPORTERS)?),
            "citation_id" => note.citation_id = Some(o.string(&super::validate::IDENTIFIER)?),
            "source_id" => note.source_id = Some(o.string(&super::validate::IDENTIFIER)?),
            "document_index" => note.document_index = Some(o.int(0)?),
            "unit" => note.unit = Some(o.literal(&import::UNITS)?.to_owned()),
            "separator" => note.separator = Some(o.string(&import::SEPARATOR)?),
            "whitespace" => note.whitespace = Some(o.literal(&import::WHITESPACE)?.to_owned()),
            _ => return unknown(),
        }
    }
    if !import::names_one(note.citation_id.is_some(), note.source_id.is_some()) {
        return Err(bail());
    }
    note.importer = need(importer)?.to_owned();
    Ok(note)
});

object!(Bundle, Bundle::FIELDS, |o| {
    let p = o.cx.policy;
    let (mut scope, mut sources, mut report, mut reviews, mut import_notes) = (None, None, None, None, None);
    while let Some(k) = o.next()? {
        match k {
            "scope" => scope = Some(o.typed::<Scope>()?),
            "sources" => sources = Some(o.list(Of::<BundleSource>(PhantomData), 0, p.max_sources)?),
            "report" => report = Some(o.typed::<Report>()?),
            "reviews" => reviews = Some(o.list(Of::<Review>(PhantomData), 0, usize::MAX)?),
            "import_notes" => import_notes = Some(o.list(Of::<ImportNote>(PhantomData), 0, usize::MAX)?),
            _ => return unknown(),
        }
    }
    Ok(Bundle {
        scope: need(scope)?,
        sources: need(sources)?,
        report: need(report)?,
        reviews: reviews.unwrap_or_default(),
        import_notes: import_notes.unwrap_or_default(),
    })
});
