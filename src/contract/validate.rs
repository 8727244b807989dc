//! Small combinators that check a JSON value against a contract and collect every
//! violation with its JSON path. No coercion: a value of the wrong JSON type is an error.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

use crate::error::{Violation, ViolationCode};

/// Python's `str.isspace()`: Unicode White_Space plus the four information separators
/// U+001C–U+001F. Used wherever the reference calls `strip()` or `split()`.
pub fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// True when the text is empty after Python's `str.strip()`.
pub fn is_blank(text: &str) -> bool {
    text.chars().all(is_python_space)
}

/// `^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`, where `$` is the end of the text (a trailing
/// newline is rejected).
pub fn is_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    match b.split_first() {
        Some((first, rest)) => {
            first.is_ascii_alphanumeric()
                && rest.len() <= 63
                && rest.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
        }
        None => false,
    }
}

/// `^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.md$`.
pub fn is_filename(s: &str) -> bool {
    s.strip_suffix(".md").is_some_and(is_identifier)
}

/// `^[a-f0-9]{64}$`.
pub fn is_digest(s: &str) -> bool {
    s.len() == 64 && s.as_bytes().chunks(8).all(|w| <[u8; 8]>::try_from(w).is_ok_and(|w| lower_hex_word(u64::from_le_bytes(w))))
}

/// True when each of the eight bytes of `w` is `0-9` or `a-f` (eight bytes at a time:
/// once no byte has its high bit set, `b + (0x80 - x)` has its high bit set exactly when
/// `b >= x`, and no byte carries into the next).
fn lower_hex_word(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let at_least = |x: u64| w.wrapping_add(ONES * (0x80 - x)) & HIGH;
    w & HIGH == 0 && ((at_least(0x30) & !at_least(0x3a)) | (at_least(0x61) & !at_least(0x67))) == HIGH
}

/// A pattern: its test and its text for messages.
pub type Pattern = (fn(&str) -> bool, &'static str);

/// Limits on one string field, lengths in Unicode code points.
pub struct StrRule {
    pub min: usize,
    pub max: usize,
    pub pattern: Option<Pattern>,
}

pub const IDENTIFIER: StrRule = StrRule {
    min: 0,
    max: usize::MAX,
    pattern: Some((is_identifier, "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")),
};
pub const FILENAME: StrRule = StrRule {
    min: 0,
    max: usize::MAX,
    pattern: Some((is_filename, "^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\\.md$")),
};
pub const DIGEST: StrRule = StrRule { min: 0, max: usize::MAX, pattern: Some((is_digest, "^[a-f0-9]{64}$")) };
pub const fn sized(min: usize, max: usize) -> StrRule {
    StrRule { min, max, pattern: None }
}
pub const ANY_STRING: StrRule = sized(0, usize::MAX);

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

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number with a fraction or exponent",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A failed check: its code and message, placed at a path by the caller.
pub type Fault = (ViolationCode, String);

fn string_value(v: &Value, rule: &StrRule) -> Result<String, Fault> {
    let Value::String(s) = v else {
        return Err((ViolationCode::WrongType, format!("Input should be a string, not {}", type_name(v))));
    };
    check_str(s, rule)?;
    Ok(s.clone())
}

/// The rule of a string field on its text (both readers call it): its length in code
/// points, then its pattern.
pub fn check_str(s: &str, rule: &StrRule) -> Result<(), Fault> {
    // A text has at most as many code points as bytes and at least a quarter as many:
    // count them only when the byte length leaves the rule's answer open.
    let (bytes, fewest) = (s.len(), s.len().div_ceil(4));
    if (rule.min > 0 && fewest < rule.min) || bytes > rule.max {
        let n = s.chars().count();
        if n < rule.min {
            return Err((ViolationCode::TooShort, format!("String should have at least {} characters", rule.min)));
        }
        if n > rule.max {
            return Err((ViolationCode::TooLong, format!("String should have at most {} characters, not {n}", rule.max)));
        }
    }
    if let Some((matches, pattern)) = rule.pattern {
        if !matches(s) {
            return Err((ViolationCode::PatternMismatch, format!("String should match pattern '{pattern}'")));
        }
    }
    Ok(())
}

fn int_value(v: &Value, min: u64) -> Result<u64, Fault> {
    match v {
        Value::Number(n) if n.is_u64() => check_int(n.as_u64(), min),
        Value::Number(n) if n.is_i64() => check_int(None, min),
        _ => Err((ViolationCode::WrongType, format!("Input should be a whole number from {min} to {}, not {}", u64::MAX, type_name(v)))),
    }
}

/// The rule of a whole-number field on its value (`None`: a negative number).
pub fn check_int(n: Option<u64>, min: u64) -> Result<u64, Fault> {
    match n {
        Some(n) if n >= min => Ok(n),
        _ => Err((ViolationCode::TooSmall, format!("Input should be greater than or equal to {min}"))),
    }
}

fn literal_value<T: Copy>(v: &Value, options: &[(&str, T)]) -> Result<T, Fault> {
    check_literal(v.as_str(), options)
}

/// The rule of a literal field on its text (`None`: not a string).
pub fn check_literal<T: Copy>(s: Option<&str>, options: &[(&str, T)]) -> Result<T, Fault> {
    let found = s.and_then(|s| options.iter().find(|(name, _)| *name == s).map(|(_, t)| *t));
    found.ok_or_else(|| {
        let names: Vec<String> = options.iter().map(|(n, _)| format!("'{n}'")).collect();
        (ViolationCode::NotAllowed, format!("Input should be {}", names.join(" or ")))
    })
}

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
    /// Real lengths of arrays the reader did not keep whole (see [`super::json::Read`]).
    pub lengths: BTreeMap<String, usize>,
    /// Violations found past [`MAX_VIOLATIONS`].
    unlisted: usize,
}

impl Checker {
    /// A checker with the given limits and the real lengths of truncated arrays.
    pub fn new(limits: super::Limits, lengths: BTreeMap<String, usize>) -> Checker {
        Checker { violations: Vec::new(), limits, lengths, unlisted: 0 }
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

    /// An object with only the given fields; each unknown field is a violation.
    pub fn object<'v>(&mut self, v: &'v Value, path: &str, fields: &[&str]) -> Option<&'v Map<String, Value>> {
        let Value::Object(map) = v else {
            self.push(path, ViolationCode::WrongType, format!("Input should be an object, not {}", type_name(v)));
            return None;
        };
        for key in map.keys() {
            if !fields.contains(&key.as_str()) {
                self.push(&join(path, key), ViolationCode::ExtraField, "Extra inputs are not permitted");
            }
        }
        Some(map)
    }

    /// A required field.
    pub fn required<'v>(&mut self, map: &'v Map<String, Value>, path: &str, key: &str) -> Option<&'v Value> {
        let found = map.get(key);
        if found.is_none() {
            self.push(&join(path, key), ViolationCode::Missing, "Field required");
        }
        found
    }

    pub fn string(&mut self, v: &Value, path: &str, rule: &StrRule) -> Option<String> {
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
    pub fn string_or(&mut self, map: &Map<String, Value>, path: &str, key: &str, rule: &StrRule) -> Option<String> {
        match map.get(key) {
            Some(v) => self.report_at(path, key, string_value(v, rule)),
            None => Some(String::new()),
        }
    }

    pub fn string_field(&mut self, map: &Map<String, Value>, path: &str, key: &str, rule: &StrRule) -> Option<String> {
        let v = self.required(map, path, key)?;
        self.report_at(path, key, string_value(v, rule))
    }

    /// A whole number, at least `min`. Floats, booleans and strings are refused.
    pub fn int(&mut self, v: &Value, path: &str, min: u64) -> Option<u64> {
        self.report(path, int_value(v, min))
    }

    pub fn int_field(&mut self, map: &Map<String, Value>, path: &str, key: &str, min: u64) -> Option<u64> {
        let v = self.required(map, path, key)?;
        self.report_at(path, key, int_value(v, min))
    }

    /// One of the given string literals.
    pub fn literal<T: Copy>(&mut self, v: &Value, path: &str, options: &[(&str, T)]) -> Option<T> {
        self.report(path, literal_value(v, options))
    }

    pub fn literal_field<T: Copy>(&mut self, map: &Map<String, Value>, path: &str, key: &str, options: &[(&str, T)]) -> Option<T> {
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
        v: &Value,
        path: &str,
        min: usize,
        max: usize,
        mut item: impl FnMut(&mut Self, &Value, &str) -> Option<T>,
    ) -> Option<Vec<T>> {
        let Value::Array(items) = v else {
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
        map: &Map<String, Value>,
        path: &str,
        key: &str,
        max: usize,
        item: impl FnMut(&mut Self, &Value, &str) -> Option<T>,
    ) -> Option<Vec<T>> {
        match map.get(key) {
            Some(v) => self.list(v, &join(path, key), 0, max, item),
            None => Some(Vec::new()),
        }
    }
}
