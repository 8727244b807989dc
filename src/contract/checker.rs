//! The checker of a contract: it walks a JSON value under a policy and collects every
//! violation with its JSON path.

use std::collections::BTreeMap;

use crate::error::{Violation, ViolationCode};
use crate::json::{join, join_index, Kind, Node, Object};
use crate::rules::{check_int, check_literal, check_str, Fault, StrRule};

/// At most this many violations are listed; one more entry counts the rest.
pub const MAX_VIOLATIONS: usize = 100;

/// The message of a list of `n` items over its maximum.
pub fn too_long_list(max: usize, n: usize) -> String {
    format!("List should have at most {max} items, not {n}")
}

/// Collects violations while a value is checked.
#[derive(Default)]
pub struct Checker {
    /// At most [`MAX_VIOLATIONS`] violations, then one `too_many_violations` entry.
    pub violations: Vec<Violation>,
    /// The list limits in force.
    pub limits: super::Limits,
    /// Real lengths of arrays the reader did not keep whole (see [`crate::json::Read`]).
    pub lengths: BTreeMap<String, usize>,
    /// Violations found past [`MAX_VIOLATIONS`].
    unlisted: usize,
    /// Quote-only citations (no range yet) seen: how many, and the first few (path, and
    /// citation id when given).
    pub quote_only: usize,
    pub quote_only_subjects: Vec<(String, Option<String>)>,
}

impl Checker {
    /// A checker with the given limits and the real lengths of truncated arrays.
    pub fn new(limits: super::Limits, lengths: BTreeMap<String, usize>) -> Checker {
        Checker { limits, lengths, ..Checker::default() }
    }

    pub fn push(&mut self, path: &str, code: ViolationCode, message: impl Into<String>) {
        if self.violations.len() < MAX_VIOLATIONS {
            self.violations.push(Violation { path: path.to_owned(), code, message: message.into() });
            return;
        }
        self.unlisted += 1;
        let message = format!(
            "{} more violations were found and are not listed (at most {MAX_VIOLATIONS} are; past them a list over its limit is not checked item by item, so there may be more)",
            self.unlisted
        );
        match self.violations.get_mut(MAX_VIOLATIONS) {
            Some(last) => last.message = message,
            None => self.violations.push(Violation { path: String::new(), code: ViolationCode::TooManyViolations, message }),
        }
    }

    /// A reference rule: its message is the reference's own text.
    pub fn rule(&mut self, path: &str, code: ViolationCode) {
        let message = code.reference_message().unwrap_or("").to_owned();
        let v = Violation { path: path.to_owned(), code, message };
        if !self.violations.contains(&v) {
            self.push(&v.path, v.code, v.message);
        }
    }

    /// How many violations were found (listed or not); grows with every violation.
    pub fn count(&self) -> usize {
        self.violations.len().min(MAX_VIOLATIONS) + self.unlisted
    }

    /// An object with only the given fields; each unknown field is a violation, in the
    /// order of their keys.
    pub fn object<'t>(&mut self, v: Node<'t>, path: &str, fields: &[&str]) -> Option<Object<'t>> {
        let Some(map) = v.as_object() else {
            self.push(path, ViolationCode::WrongType, format!("Input should be an object, not {}", type_name(v)));
            return None;
        };
        if map.keys_in_text_order().any(|k| !fields.contains(&k)) {
            let mut unknown: Vec<&str> = map.keys_in_text_order().filter(|k| !fields.contains(k)).collect();
            unknown.sort_unstable();
            for key in unknown {
                self.push(&join(path, key), ViolationCode::ExtraField, "Extra inputs are not permitted");
            }
        }
        Some(map)
    }

    /// A required field.
    pub fn required<'t>(&mut self, map: Object<'t>, path: &str, key: &str) -> Option<Node<'t>> {
        let found = map.get(key);
        if found.is_none() {
            self.push(&join(path, key), ViolationCode::Missing, "Field required");
        }
        found
    }

    pub fn string(&mut self, v: Node<'_>, path: &str, rule: &StrRule) -> Option<String> {
        self.report(path, string_value(v, rule))
    }

    /// Records a failed check at `path`.
    pub fn report<T>(&mut self, path: &str, r: Result<T, Fault>) -> Option<T> {
        r.map_err(|(code, message)| self.push(path, code, message)).ok()
    }

    /// As [`Self::report`], building the child path only when there is a violation.
    fn report_at<T>(&mut self, path: &str, key: &str, r: Result<T, Fault>) -> Option<T> {
        r.map_err(|(code, message)| self.push(&join(path, key), code, message)).ok()
    }

    /// A field that defaults when absent.
    pub fn string_or(&mut self, map: Object<'_>, path: &str, key: &str, rule: &StrRule) -> Option<String> {
        match map.get(key) {
            Some(v) => self.report_at(path, key, string_value(v, rule)),
            None => Some(String::new()),
        }
    }

    pub fn string_field(&mut self, map: Object<'_>, path: &str, key: &str, rule: &StrRule) -> Option<String> {
        let v = self.required(map, path, key)?;
        self.report_at(path, key, string_value(v, rule))
    }

    /// A whole number, at least `min`. Floats, booleans and strings are refused.
    pub fn int(&mut self, v: Node<'_>, path: &str, min: u64) -> Option<u64> {
        self.report(path, int_value(v, min))
    }

    pub fn int_field(&mut self, map: Object<'_>, path: &str, key: &str, min: u64) -> Option<u64> {
        let v = self.required(map, path, key)?;
        self.report_at(path, key, int_value(v, min))
    }

    /// One of the given string literals.
    pub fn literal<T: Copy>(&mut self, v: Node<'_>, path: &str, options: &[(&str, T)]) -> Option<T> {
        self.report(path, literal_value(v, options))
    }

    pub fn literal_field<T: Copy>(&mut self, map: Object<'_>, path: &str, key: &str, options: &[(&str, T)]) -> Option<T> {
        let v = self.required(map, path, key)?;
        self.report_at(path, key, literal_value(v, options))
    }

    /// An array of `min..=max` items, each checked by `item`. As in the reference, the
    /// maximum counts valid items and checking stops as soon as it is passed; the
    /// minimum counts the items given. The length is checked first, with the real
    /// length, when the reader did not keep every item or when [`MAX_VIOLATIONS`] are
    /// already listed: a list over its maximum is then refused without checking its
    /// items, so neither the work nor the list of violations grows with the input.
    pub fn list<T>(
        &mut self,
        v: Node<'_>,
        path: &str,
        min: usize,
        max: usize,
        mut item: impl FnMut(&mut Self, Node<'_>, &str) -> Option<T>,
    ) -> Option<Vec<T>> {
        let Some(items) = v.as_array() else {
            self.push(path, ViolationCode::WrongType, format!("Input should be an array, not {}", type_name(v)));
            return None;
        };
        let n = self.lengths.get(path).copied().unwrap_or(items.len()).max(items.len());
        let too_long = |n: usize| too_long_list(max, n);
        if n > max && (n > items.len() || self.unlisted > 0 || self.violations.len() >= MAX_VIOLATIONS) {
            self.push(path, ViolationCode::TooLong, too_long(n));
            return None;
        }
        let mut out = Vec::with_capacity(items.len().min(max));
        let mut ok = n == items.len();
        for (i, v) in items.iter().enumerate() {
            match item(self, v, &join_index(path, i)) {
                Some(t) => out.push(t),
                None => ok = false,
            }
            if out.len() > max || (n > max && self.unlisted > 0) {
                self.push(path, ViolationCode::TooLong, too_long(n));
                return None;
            }
        }
        if n < min {
            self.push(path, ViolationCode::TooShort, format!("List should have at least {min} item{}, not {n}", if min == 1 { "" } else { "s" }));
            return None;
        }
        ok.then_some(out)
    }

    /// An optional list field (absent means empty).
    pub fn list_or<T>(
        &mut self,
        map: Object<'_>,
        path: &str,
        key: &str,
        max: usize,
        item: impl FnMut(&mut Self, Node<'_>, &str) -> Option<T>,
    ) -> Option<Vec<T>> {
        match map.get(key) {
            Some(v) => self.list(v, &join(path, key), 0, max, item),
            None => Some(Vec::new()),
        }
    }
}

/// How a value is named in a type error.
pub(crate) fn type_name(v: Node<'_>) -> &'static str {
    match v.kind() {
        Kind::Null => "null",
        Kind::Bool(_) => "a boolean",
        Kind::Number if v.is_f64() => "a number with a fraction or exponent",
        Kind::Number => "an integer",
        Kind::String(_) => "a string",
        Kind::Array(_) => "an array",
        Kind::Object(_) => "an object",
    }
}

/// A string that keeps `rule`, copied out of the tree.
fn string_value(v: Node<'_>, rule: &StrRule) -> Result<String, Fault> {
    let Some(s) = v.as_str() else {
        return Err((ViolationCode::WrongType, format!("Input should be a string, not {}", type_name(v))));
    };
    check_str(s, rule)?;
    Ok(s.to_owned())
}

/// A whole number, at least `min`.
fn int_value(v: Node<'_>, min: u64) -> Result<u64, Fault> {
    match (v.as_u64(), v.as_i64()) {
        (Some(n), _) => check_int(Some(n), min),
        (None, Some(_)) => check_int(None, min),
        _ => Err((ViolationCode::WrongType, format!("Input should be a whole number from {min} to {}, not {}", u64::MAX, type_name(v)))),
    }
}

/// One of the string literals `options`.
fn literal_value<T: Copy>(v: Node<'_>, options: &[(&str, T)]) -> Result<T, Fault> {
    check_literal(v.as_str(), options)
}
