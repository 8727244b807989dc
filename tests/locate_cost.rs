//! The locator's work grows linearly with the input: the overlapping search's steps
//! (bytes read, counted by `search_steps`) for an input twice as large are at most about
//! twice as many, on the worst case of a periodic quote over a periodic source.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use evidence_check::citation::TextIndex;
use evidence_check::store::locate::{count_occurrences, locate, search_steps, LocateOptions, Selector, Whitespace};

fn steps<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = search_steps();
    let out = f();
    (out, search_steps() - before)
}

/// Steps of `f(n)` and `f(2n)`, and their ratio.
fn ratio(n: usize, f: impl Fn(usize) -> u64) -> f64 {
    let (a, b) = (f(n), f(2 * n));
    assert!(a > 0, "no steps counted");
    b as f64 / a as f64
}

#[test]
fn counting_a_periodic_quote_is_linear() {
    // A quote of n/4 "a"s over n "a"s: every offset but the last quarter is an occurrence.
    let r = ratio(20_000, |n| {
        let text = "a".repeat(n);
        let quote = "a".repeat(n / 4);
        let (count, s) = steps(|| count_occurrences(&text, &quote));
        assert_eq!(count, n - n / 4 + 1);
        s
    });
    assert!(r <= 2.2, "doubling the input multiplied the steps by {r:.2}");
}

#[test]
fn locating_a_periodic_quote_is_linear() {
    // "ab" repeated, quoting half of it, with multi-byte characters around: found n/4+1
    // times, picked by occurrence.
    let r = ratio(8_000, |n| {
        let text = format!("é{}é", "ab".repeat(n / 2));
        let quote = "ab".repeat(n / 4);
        let sel = Selector { occurrence: Some(2), ..Selector::exact(&quote) };
        let (found, s) = steps(|| locate("s", &TextIndex::new(&text), &text, &sel, LocateOptions::default()));
        let found = found.unwrap();
        assert_eq!((found.start, found.end), (3, 3 + quote.len()));
        s
    });
    assert!(r <= 2.2, "doubling the input multiplied the steps by {r:.2}");
}

#[test]
fn a_loose_periodic_quote_is_linear() {
    // No exact match (the source's whitespace is doubled), so the loose search runs over
    // the collapsed text.
    let r = ratio(8_000, |n| {
        let text = "a  ".repeat(n / 3);
        let quote = "a ".repeat(n / 12) + "a";
        let sel = Selector { occurrence: Some(1), ..Selector::exact(&quote) };
        let options = LocateOptions { whitespace: Whitespace::Loose, ..LocateOptions::default() };
        let (found, s) = steps(|| locate("s", &TextIndex::new(&text), &text, &sel, options));
        assert_eq!(found.unwrap().start, 0);
        s
    });
    assert!(r <= 2.2, "doubling the input multiplied the steps by {r:.2}");
}

#[test]
fn the_linear_count_is_the_naive_one() {
    // Every text of up to 7 characters and quote of up to 4 over {a, b, é}.
    fn all(len: usize) -> Vec<String> {
        let mut out = vec![String::new()];
        for _ in 0..len {
            out = out.iter().flat_map(|s| ["a", "b", "é"].map(|c| format!("{s}{c}"))).collect();
        }
        out
    }
    let texts: Vec<String> = (0..=7).flat_map(all).collect();
    let quotes: Vec<String> = (1..=4).flat_map(all).collect();
    for text in &texts {
        for quote in &quotes {
            let naive = text.char_indices().filter(|(b, _)| text[*b..].starts_with(quote.as_str())).count();
            assert_eq!(count_occurrences(text, quote), naive, "{quote:?} in {text:?}");
        }
    }
}

#[test]
fn filtering_by_a_long_context_is_linear() {
    // "a" occurs at every offset; a prefix and a suffix of n/8 "a"s each keep the middle.
    let r = ratio(8_000, |n| {
        let text = "a".repeat(n);
        let context = "a".repeat(n / 8);
        let sel = Selector { prefix: Some(context.clone()), suffix: Some(context.clone()), occurrence: Some(1), ..Selector::exact("a") };
        let (found, s) = steps(|| locate("s", &TextIndex::new(&text), &text, &sel, LocateOptions::default()));
        assert_eq!(found.unwrap().start, n / 8);
        s
    });
    assert!(r <= 2.2, "doubling the input multiplied the steps by {r:.2}");
}

#[test]
fn context_filtering_is_the_naive_one() {
    // Short texts of {a, b, é}, where many candidates make the context search run once.
    let mut texts = vec![String::new()];
    for _ in 0..7 {
        texts = texts.iter().flat_map(|s| ["a", "b", "é"].map(|c| format!("{s}{c}"))).chain(texts.iter().cloned()).collect();
        texts.sort();
        texts.dedup();
    }
    let contexts = [None, Some(""), Some("a"), Some("aa"), Some("ab"), Some("éa"), Some("aaa")];
    for text in &texts {
        let index = TextIndex::new(text);
        for quote in ["a", "aa", "é"] {
            for prefix in contexts {
                for suffix in contexts {
                    let naive: Vec<usize> = text
                        .char_indices()
                        .filter(|(b, _)| text[*b..].starts_with(quote))
                        .filter(|(b, _)| prefix.is_none_or(|p| text[..*b].ends_with(p)) && suffix.is_none_or(|s| text[b + quote.len()..].starts_with(s)))
                        .map(|(b, _)| text[..b].chars().count())
                        .collect();
                    for k in 1..=naive.len() + 1 {
                        let sel = Selector { prefix: prefix.map(Into::into), suffix: suffix.map(Into::into), occurrence: Some(k), ..Selector::exact(quote) };
                        let got = locate("s", &index, text, &sel, LocateOptions::default()).ok().map(|l| l.start);
                        assert_eq!(got, naive.get(k - 1).copied(), "{quote:?} in {text:?}, prefix {prefix:?}, suffix {suffix:?}, occurrence {k}");
                    }
                }
            }
        }
    }
}
