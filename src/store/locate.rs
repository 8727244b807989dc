//! The one quote locator: finds a quote in a source's current text by exact match (the
//! needle's CRLF and lone CR normalised as the source was), counts overlapping
//! occurrences ("xyx" occurs twice in "xyxyx"), and picks one occurrence with W3C
//! TextQuoteSelector context (`prefix` / `suffix`) or an explicit `occurrence`. It never
//! guesses: a quote that is absent or stays ambiguous is a [`LocateError`]. A
//! whitespace-insensitive match happens only when asked for ([`Whitespace::Loose`]).
//!
//! `EvidenceStore::quote`, the repair hints of failed citations, `locateCitations` and
//! quote-only `fromWebAnnotation` all use it.

use serde::Serialize;

use crate::citation::TextIndex;
use crate::digest::normalize_newlines;
use crate::error::Lang;
use crate::store::StoreErrorKind;

/// How many ranges an ambiguity error lists.
pub const MAX_LISTED_RANGES: usize = 5;

/// How occurrences are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Counting {
    /// Every offset where the quote starts, overlapping ones included (the default).
    #[default]
    Overlapping,
    /// The reference's `quote`: Python's `str.count` (non-overlapping from the left), the
    /// quote compared as given (its CRLF not normalised), one error for absent and repeated.
    Reference,
}

/// Whether whitespace must match exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Whitespace {
    /// Exact match only (the default).
    #[default]
    Exact,
    /// When there is no exact match: each run of whitespace in the quote matches any
    /// non-empty run of whitespace in the source (leading and trailing whitespace of the
    /// quote ignored). The located text is the source's own.
    Loose,
}

/// What to look for: a quote, optionally with the text right before and after it, or
/// the n-th (1-based) of its occurrences.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selector {
    pub exact: String,
    pub prefix: Option<String>,
    pub suffix: Option<String>,
    pub occurrence: Option<usize>,
}

impl Selector {
    pub fn exact(text: &str) -> Selector {
        Selector { exact: text.to_owned(), ..Selector::default() }
    }
}

/// How to locate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LocateOptions {
    pub counting: Counting,
    pub whitespace: Whitespace,
}

/// One located passage: a code-point range and the source's exact text there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Located {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub whitespace: Whitespace,
}

/// Why a quote could not be located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocateError {
    /// The quote (with its context, or at that occurrence) is not in the source.
    /// `occurrences` counts the bare quote's occurrences.
    NotFound { source_id: String, occurrences: usize, reason: NotFoundReason },
    /// The quote occurs `count` times (after context filtering); the first ranges listed.
    Ambiguous { source_id: String, count: usize, ranges: Vec<(usize, usize)> },
    /// `compat: "reference"`: the reference's one error for both cases.
    NotUnique { source_id: String },
}

/// Why a quote was not found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotFoundReason {
    /// The quote is empty.
    Empty,
    /// The quote does not occur.
    Absent,
    /// The quote occurs, but never with the given prefix and suffix.
    Context,
    /// The quote occurs fewer times than the occurrence asked for.
    Occurrence(usize),
}

impl LocateError {
    pub fn kind(&self) -> StoreErrorKind {
        match self {
            Self::NotFound { .. } => StoreErrorKind::QuoteNotFound,
            Self::Ambiguous { .. } => StoreErrorKind::QuoteAmbiguous,
            Self::NotUnique { .. } => StoreErrorKind::QuoteNotUnique,
        }
    }

    pub fn code(&self) -> &'static str {
        self.kind().code()
    }

    pub fn source_id(&self) -> &str {
        match self {
            Self::NotFound { source_id, .. } | Self::Ambiguous { source_id, .. } | Self::NotUnique { source_id } => source_id,
        }
    }

    /// How many times the quote occurs (after context filtering for an ambiguity).
    pub fn count(&self) -> Option<usize> {
        match self {
            Self::NotFound { occurrences, .. } => Some(*occurrences),
            Self::Ambiguous { count, .. } => Some(*count),
            Self::NotUnique { .. } => None,
        }
    }

    /// The first ranges of an ambiguous quote.
    pub fn ranges(&self) -> &[(usize, usize)] {
        match self {
            Self::Ambiguous { ranges, .. } => ranges,
            _ => &[],
        }
    }

    /// A message naming the source and the numbers (the reference's text for `NotUnique`).
    pub fn message_in(&self, lang: Lang) -> String {
        match (self, lang) {
            (Self::NotUnique { .. }, _) => self.kind().message_in(lang).to_owned(),
            (Self::NotFound { source_id, occurrences, reason }, Lang::En) => match reason {
                NotFoundReason::Empty => format!("The quote is empty; nothing to locate in source {source_id}."),
                NotFoundReason::Absent => format!("The quote does not occur in the current revision of source {source_id}."),
                NotFoundReason::Context => format!("The quote occurs {occurrences} times in source {source_id}, but never with the given prefix and suffix."),
                NotFoundReason::Occurrence(n) => format!("Occurrence {n} was asked for, but the quote occurs {occurrences} times in source {source_id}."),
            },
            (Self::NotFound { source_id, occurrences, reason }, Lang::Zh) => match reason {
                NotFoundReason::Empty => format!("片段为空,无法在来源 {source_id} 中定位。"),
                NotFoundReason::Absent => format!("片段未出现在来源 {source_id} 的当前版本中。"),
                NotFoundReason::Context => format!("片段在来源 {source_id} 中出现 {occurrences} 次,但没有一处与给定的前后文相符。"),
                NotFoundReason::Occurrence(n) => format!("要求第 {n} 处,但片段在来源 {source_id} 中只出现 {occurrences} 次。"),
            },
            (Self::Ambiguous { source_id, count, ranges }, lang) => {
                let listed: Vec<String> = ranges.iter().map(|(s, e)| format!("[{s}, {e})")).collect();
                let listed = listed.join(", ");
                match lang {
                    Lang::En => format!(
                        "The quote occurs {count} times in source {source_id} (code points {listed}{}); give a prefix and suffix or an occurrence to pick one.",
                        if *count > ranges.len() { ", …" } else { "" }
                    ),
                    Lang::Zh => format!(
                        "片段在来源 {source_id} 中出现 {count} 次(字符区间 {listed}{}),无法唯一定位;请给出前后文或指定第几处。",
                        if *count > ranges.len() { ", …" } else { "" }
                    ),
                }
            }
        }
    }
}

thread_local! {
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The bytes the overlapping searches of this thread have read so far (a deterministic
/// measure of their work, for tests that compare two input sizes).
#[doc(hidden)]
pub fn search_steps() -> u64 {
    STEPS.with(std::cell::Cell::get)
}

/// Byte offsets where `needle` starts in `text`, overlapping or not.
fn starts(text: &str, needle: &str, counting: Counting) -> Vec<usize> {
    if needle.is_empty() {
        return Vec::new();
    }
    match counting {
        Counting::Reference => text.match_indices(needle).map(|(b, _)| b).collect(),
        Counting::Overlapping => {
            let (out, steps) = overlapping_starts(text.as_bytes(), needle.as_bytes());
            STEPS.with(|c| c.set(c.get() + steps));
            out
        }
    }
}

/// Every offset where `needle` (not empty) starts in `hay`, overlapping ones included, in
/// time linear in both, and the bytes read. A match of a UTF-8 needle in UTF-8 text
/// always starts on a character boundary, so bytes give the same offsets as characters.
///
/// `memmem` (linear in the worst case) finds the next occurrence while no prefix of the
/// needle is pending. From each match on, KMP's prefix function carries the partial
/// match over, so that the bytes of an overlapping occurrence are not read again; when
/// no prefix of the needle ends at the current byte, `memmem` takes over again.
fn overlapping_starts(hay: &[u8], needle: &[u8]) -> (Vec<usize>, u64) {
    let m = needle.len();
    let finder = memchr::memmem::Finder::new(needle);
    let mut out = Vec::new();
    let mut steps = 0u64;
    // The prefix function: pi[i] is the length of the longest proper prefix of
    // needle[..=i] that is also its suffix. Built at the first match.
    let mut pi: Vec<usize> = Vec::new();
    let mut at = 0; // the next byte to read
    loop {
        let Some(i) = hay.get(at..).and_then(|rest| finder.find(rest)) else {
            steps += hay.len().saturating_sub(at) as u64;
            return (out, steps);
        };
        let found = at + i;
        steps += (found + m - at) as u64;
        out.push(found);
        if pi.is_empty() {
            pi = prefix_function(needle);
            steps += m as u64;
        }
        // KMP from the byte after the match, `q` bytes of the needle matched.
        at = found + m;
        let mut q = pi.get(m - 1).copied().unwrap_or(0);
        while q > 0 {
            let Some(&byte) = hay.get(at) else { return (out, steps) };
            while q > 0 && needle.get(q) != Some(&byte) {
                q = pi.get(q - 1).copied().unwrap_or(0);
                steps += 1;
            }
            if needle.get(q) == Some(&byte) {
                q += 1;
            }
            at += 1;
            steps += 1;
            if q == m {
                out.push(at - m);
                q = pi.get(m - 1).copied().unwrap_or(0);
            }
        }
    }
}

/// KMP's prefix function of `needle`.
fn prefix_function(needle: &[u8]) -> Vec<usize> {
    let mut pi = vec![0; needle.len()];
    let mut k = 0;
    for (i, byte) in needle.iter().enumerate().skip(1) {
        while k > 0 && needle.get(k) != Some(byte) {
            k = pi.get(k - 1).copied().unwrap_or(0);
        }
        if needle.get(k) == Some(byte) {
            k += 1;
        }
        if let Some(slot) = pi.get_mut(i) {
            *slot = k;
        }
    }
    pi
}

/// How many times `needle` (newlines normalised) occurs in `text`, overlapping.
pub fn count_occurrences(text: &str, needle: &str) -> usize {
    starts(text, &normalize_newlines(needle), Counting::Overlapping).len()
}

/// Every code-point start of `needle` in `text` (overlapping), for repair hints.
pub fn occurrences(index: &TextIndex, text: &str, needle: &str, counting: Counting) -> Vec<usize> {
    starts(text, &normalize_newlines(needle), counting).into_iter().filter_map(|b| index.char_of(text, b)).collect()
}

/// `text` with each whitespace run collapsed to one space, and for each byte of the
/// result (and its end) the byte offset in `text` it came from.
fn collapse(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len() + 1);
    let mut in_space = false;
    for (b, ch) in text.char_indices() {
        if ch.is_whitespace() {
            if !in_space {
                out.push(' ');
                map.push(b);
            }
            in_space = true;
        } else {
            in_space = false;
            out.push(ch);
            map.extend(std::iter::repeat_n(b, ch.len_utf8()));
        }
    }
    map.push(text.len());
    (out, map)
}

/// The last (`at_end`) or first `n` characters of `s`.
fn window(s: &str, n: usize, at_end: bool) -> &str {
    if at_end {
        let cut = s.char_indices().rev().nth(n).map_or(0, |(b, _)| b);
        s.get(cut..).unwrap_or(s)
    } else {
        let cut = s.char_indices().nth(n).map_or(s.len(), |(b, _)| b);
        s.get(..cut).unwrap_or(s)
    }
}

/// Locates `selector` in `text` (the source's LF-normalised text, indexed by `index`).
pub fn locate(source_id: &str, index: &TextIndex, text: &str, selector: &Selector, options: LocateOptions) -> Result<Located, LocateError> {
    // The reference compares the quote as given (a CRLF quote never matches the LF text).
    let needle = match options.counting {
        Counting::Overlapping => normalize_newlines(&selector.exact),
        Counting::Reference => std::borrow::Cow::Borrowed(selector.exact.as_str()),
    };
    let not_found = |occurrences, reason| LocateError::NotFound { source_id: source_id.to_owned(), occurrences, reason };
    if needle.is_empty() {
        return Err(match options.counting {
            Counting::Reference => LocateError::NotUnique { source_id: source_id.to_owned() },
            Counting::Overlapping => not_found(0, NotFoundReason::Empty),
        });
    }
    let prefix = selector.prefix.as_deref().map(normalize_newlines);
    let suffix = selector.suffix.as_deref().map(normalize_newlines);
    let exact = starts(text, &needle, options.counting);
    // (byte start, byte end) of each candidate, and whether it was found loosely.
    let (candidates, whitespace, total): (Vec<(usize, usize)>, Whitespace, usize) =
        if exact.is_empty() && options.whitespace == Whitespace::Loose && !crate::rules::is_blank(&needle) {
            let (hay, map) = collapse(text);
            let (pin, _) = collapse(needle.trim());
            let found: Vec<(usize, usize)> = starts(&hay, &pin, Counting::Overlapping)
                .into_iter()
                .filter_map(|s| {
                    let start = *map.get(s)?;
                    // The byte after the last matched character (the quote ends in a non-space).
                    let last = *map.get(s + pin.len() - 1)?;
                    let end = last + text.get(last..)?.chars().next()?.len_utf8();
                    Some((start, end))
                })
                .collect();
            let n = found.len();
            (found, Whitespace::Loose, n)
        } else {
            let n = exact.len();
            (exact.into_iter().map(|b| (b, b + needle.len())).collect(), Whitespace::Exact, n)
        };
    if options.counting == Counting::Reference && total != 1 {
        return Err(LocateError::NotUnique { source_id: source_id.to_owned() });
    }
    if total == 0 {
        return Err(not_found(0, NotFoundReason::Absent));
    }
    let context_ok = |(b, e): &(usize, usize)| {
        let before = text.get(..*b).unwrap_or("");
        let after = text.get(*e..).unwrap_or("");
        let fits = |want: &Option<std::borrow::Cow<'_, str>>, have: &str, at_end: bool| match want {
            None => true,
            Some(w) if whitespace == Whitespace::Loose => {
                let (w, _) = collapse(w);
                // Only a window as long as the context (plus whitespace) is compared.
                let (h, _) = collapse(window(have, w.chars().count() * 2 + 16, at_end));
                if at_end {
                    h.ends_with(&w)
                } else {
                    h.starts_with(&w)
                }
            }
            Some(w) => {
                if at_end {
                    have.ends_with(w.as_ref())
                } else {
                    have.starts_with(w.as_ref())
                }
            }
        };
        fits(&prefix, before, true) && fits(&suffix, after, false)
    };
    let context_len = prefix.as_ref().map_or(0, |p| p.len()) + suffix.as_ref().map_or(0, |s| s.len());
    let matching: Vec<(usize, usize)> = if whitespace == Whitespace::Exact && candidates.len().saturating_mul(context_len) > text.len() {
        // Comparing each candidate's context would read more than the text: find where the
        // prefix ends and the suffix starts once (sorted), and look each candidate up.
        let prefix_ends: Option<Vec<usize>> =
            prefix.as_ref().filter(|p| !p.is_empty()).map(|p| starts(text, p, Counting::Overlapping).into_iter().map(|b| b + p.len()).collect());
        let suffix_starts: Option<Vec<usize>> = suffix.as_ref().filter(|s| !s.is_empty()).map(|s| starts(text, s, Counting::Overlapping));
        let holds = |at: &Option<Vec<usize>>, b: usize| at.as_ref().is_none_or(|v| v.binary_search(&b).is_ok());
        candidates.into_iter().filter(|(b, e)| holds(&prefix_ends, *b) && holds(&suffix_starts, *e)).collect()
    } else {
        // Comparing each candidate's context reads up to its length again.
        STEPS.with(|c| c.set(c.get() + (candidates.len() * context_len) as u64));
        candidates.into_iter().filter(context_ok).collect()
    };
    if matching.is_empty() {
        return Err(not_found(total, NotFoundReason::Context));
    }
    let to_cp = |(b, e): (usize, usize)| -> Option<(usize, usize)> { Some((index.char_of(text, b)?, index.char_of(text, e)?)) };
    let chosen = match selector.occurrence {
        Some(n) => match n.checked_sub(1).and_then(|i| matching.get(i)) {
            Some(r) => *r,
            None => return Err(not_found(matching.len(), NotFoundReason::Occurrence(n))),
        },
        None => match matching.as_slice() {
            [one] => *one,
            _ => {
                let ranges = matching.iter().take(MAX_LISTED_RANGES).filter_map(|r| to_cp(*r)).collect();
                return Err(LocateError::Ambiguous { source_id: source_id.to_owned(), count: matching.len(), ranges });
            }
        },
    };
    let (b, e) = chosen;
    let (start, end) = to_cp(chosen).ok_or_else(|| not_found(total, NotFoundReason::Absent))?;
    Ok(Located { start, end, text: text.get(b..e).unwrap_or("").to_owned(), whitespace })
}

impl crate::error::Coded for LocateError {
    fn code(&self) -> &'static str {
        LocateError::code(self)
    }
    fn message(&self, lang: Lang) -> String {
        self.message_in(lang)
    }
    /// `sourceId`, `count` and `ranges` (code points), as the thrown error's properties.
    fn details(&self) -> Vec<(&'static str, serde_json::Value)> {
        let mut d = vec![("sourceId", serde_json::Value::from(self.source_id()))];
        if let Some(n) = self.count() {
            d.push(("count", n.into()));
        }
        if !self.ranges().is_empty() {
            d.push(("ranges", self.ranges().iter().map(|(s, e)| serde_json::json!([s, e])).collect()));
        }
        d
    }
}
