//! Which characters would hide content: they render invisibly, reorder text, or pass
//! for blank. The hardened artifact and the page show each of them as `⟦U+XXXX⟧`; a
//! claim made only of them (and spaces) is blank.
//!
//! Shown always: C0 and C1 controls, the format characters (general category Cf: the
//! bidirectional controls, zero-width characters, tags…), the whole tag block
//! U+E0000–E007F, the Hangul fillers U+115F U+1160 U+3164 U+FFA0, U+034F (combining
//! grapheme joiner), the Mongolian selectors U+180B–180D U+180F, U+17B4–17B5 and the
//! blank Braille pattern U+2800. Variation selectors (U+FE00–FE0F, U+E0100–E01EF) are
//! shown too, except a single one right after a base it can modify: U+FE0E or U+FE0F
//! after an emoji, an ideographic variation selector after a CJK ideograph.

/// True for a character that is shown whatever comes before it.
pub fn is_hidden(c: char) -> bool {
    matches!(u32::from(c),
        0x00..=0x1f | 0x7f..=0x9f | 0xad | 0x34f | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x890..=0x891 | 0x8e2
        | 0x115f..=0x1160 | 0x17b4..=0x17b5 | 0x180b..=0x180f | 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x2064
        | 0x2066..=0x206f | 0x2800 | 0x3164 | 0xfeff | 0xffa0 | 0xfff9..=0xfffb | 0x110bd | 0x110cd | 0x13430..=0x1343f
        | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a | 0xe0000..=0xe007f)
}

/// A variation selector (U+FE00–FE0F, U+E0100–E01EF).
pub fn is_variation_selector(c: char) -> bool {
    matches!(u32::from(c), 0xfe00..=0xfe0f | 0xe0100..=0xe01ef)
}

/// A character that can carry an emoji presentation selector (Extended_Pictographic,
/// plus the keycap bases `0-9 # *`).
fn is_emoji_base(c: char) -> bool {
    matches!(u32::from(c),
        0x23 | 0x2a | 0x30..=0x39 | 0xa9 | 0xae | 0x203c | 0x2049 | 0x2122 | 0x2139 | 0x2194..=0x2199 | 0x21a9..=0x21aa
        | 0x231a..=0x231b | 0x2328 | 0x2388 | 0x23cf | 0x23e9..=0x23f3 | 0x23f8..=0x23fa | 0x24c2 | 0x25aa..=0x25ab
        | 0x25b6 | 0x25c0 | 0x25fb..=0x25fe | 0x2600..=0x27bf | 0x2934..=0x2935 | 0x2b05..=0x2b07 | 0x2b1b..=0x2b1c
        | 0x2b50 | 0x2b55 | 0x3030 | 0x303d | 0x3297 | 0x3299 | 0x1f000..=0x1faff)
}

/// A CJK unified or compatibility ideograph.
fn is_ideograph(c: char) -> bool {
    matches!(u32::from(c),
        0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xf900..=0xfaff | 0x20000..=0x2a6df | 0x2a700..=0x2ebef | 0x2ebf0..=0x2ee5f
        | 0x2f800..=0x2fa1f | 0x30000..=0x323af)
}

/// True when `c`, coming right after `prev` (`None` at the start of the text), is shown.
pub fn is_shown(prev: Option<char>, c: char) -> bool {
    if is_hidden(c) {
        return true;
    }
    if !is_variation_selector(c) {
        return false;
    }
    let Some(base) = prev else { return true };
    let allowed = match u32::from(c) {
        0xfe0e | 0xfe0f => is_emoji_base(base),
        0xe0100..=0xe01ef => is_ideograph(base),
        _ => false,
    };
    !allowed
}

/// How a shown character is written: `⟦U+XXXX⟧`.
pub fn push_shown(out: &mut String, c: char) {
    out.extend(shown(c));
}

/// The characters of `⟦U+XXXX⟧` for `c`: at least four upper-case hex digits, as
/// `{:04X}` writes them.
pub fn shown(c: char) -> impl Iterator<Item = char> {
    let n = u32::from(c);
    let digits = (32 - n.leading_zeros()).div_ceil(4).max(4);
    let hex = (0..digits).rev().map(move |shift| char::from_digit((n >> (shift * 4)) & 15, 16).map_or('0', |d| d.to_ascii_uppercase()));
    "⟦U+".chars().chain(hex).chain(std::iter::once('⟧'))
}

/// Calls `each(prev, c)` for every character with the character before it.
fn with_prev(text: &str, mut each: impl FnMut(Option<char>, char)) {
    let mut prev = None;
    for c in text.chars() {
        each(prev, c);
        prev = Some(c);
    }
}

/// The text with every shown character written as `⟦U+XXXX⟧`, line feeds and tabs kept
/// (for a page that displays text as it is).
pub fn show_invisible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    with_prev(text, |prev, c| {
        if c != '\n' && c != '\t' && is_shown(prev, c) {
            push_shown(&mut out, c);
        } else {
            out.push(c);
        }
    });
    out
}

/// Python's `str.isspace()`: Unicode White_Space plus the four information separators
/// U+001C–U+001F. Used wherever the reference calls `strip()` or `split()`.
pub fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// True when the text has nothing visible: only Python whitespace and shown characters.
/// (The reference's `not text.strip()` calls `"\u3164"` or `"\u200b"` not blank.)
pub fn is_blank(text: &str) -> bool {
    let mut prev = None;
    for c in text.chars() {
        if !(is_python_space(c) || is_shown(prev, c)) {
            return false;
        }
        prev = Some(c);
    }
    true
}
