//! The string rules of the contracts and their patterns (identifiers, filenames,
//! digests, lengths in code points), checked on a field's text or number. They know no
//! policy and no JSON: the policy (above) picks the rules, the contract's checker (above
//! it) applies them to the values it reads, with no coercion.

use crate::error::ViolationCode;
use crate::visible::is_python_space;

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

/// A failed check: its code and message, placed at a path by the caller.
pub type Fault = (ViolationCode, String);

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

/// The rule of a whole-number field on its value (`None`: a negative number).
pub fn check_int(n: Option<u64>, min: u64) -> Result<u64, Fault> {
    match n {
        Some(n) if n >= min => Ok(n),
        _ => Err((ViolationCode::TooSmall, format!("Input should be greater than or equal to {min}"))),
    }
}

/// The rule of a literal field on its text (`None`: not a string).
pub fn check_literal<T: Copy>(s: Option<&str>, options: &[(&str, T)]) -> Result<T, Fault> {
    let found = s.and_then(|s| options.iter().find(|(name, _)| *name == s).map(|(_, t)| *t));
    found.ok_or_else(|| {
        let names: Vec<String> = options.iter().map(|(n, _)| format!("'{n}'")).collect();
        (ViolationCode::NotAllowed, format!("Input should be {}", names.join(" or ")))
    })
}

