//! Unit tests of the core (src/citation.rs): offset conversions between code points, UTF-16 and UTF-8.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]

mod support;

use support::*;

#[test]
fn offsets_convert_between_units_and_never_split_a_character() {
    use evidence_check::citation::{convert_offset, Unit};
    use evidence_check::citation::OffsetErrorKind;
    let t = "a😀é中\n";
    // code points: a 😀 é 中 \n = 5; UTF-16: 1 2 1 1 1 = 6; UTF-8: 1 4 2 3 1 = 11
    let table = [(0, 0, 0), (1, 1, 1), (2, 3, 5), (3, 4, 7), (4, 5, 10), (5, 6, 11)];
    for (cp, u16, u8) in table {
        assert_eq!(convert_offset(t, cp, Unit::CodePoint, Unit::Utf16), Ok(u16));
        assert_eq!(convert_offset(t, cp, Unit::CodePoint, Unit::Utf8), Ok(u8));
        assert_eq!(convert_offset(t, u16, Unit::Utf16, Unit::CodePoint), Ok(cp));
        assert_eq!(convert_offset(t, u8, Unit::Utf8, Unit::Utf16), Ok(u16));
    }
    assert_eq!(convert_offset(t, 2, Unit::Utf16, Unit::CodePoint), Err(OffsetErrorKind::SplitsSurrogatePair));
    assert_eq!(convert_offset(t, 3, Unit::Utf8, Unit::CodePoint), Err(OffsetErrorKind::SplitsUtf8Sequence));
    assert_eq!(convert_offset(t, 6, Unit::CodePoint, Unit::Utf8), Err(OffsetErrorKind::OutOfRange));

    let mut st = store();
    let s = scope("t");
    let r = st.ingest(&s, "a", "x\r\n😀 offline.\n").unwrap();
    // In JS the normalised text is "x\n😀 offline.\n"; "offline." is at UTF-16 [5, 13).
    let c = st.quote_range(&s, &r, 5, 13, Unit::Utf16, "c").unwrap();
    assert_eq!((c.start, c.end, c.quote.as_str()), (4, 12, "offline."));
    assert!(st.check_citation(&s, &c).is_ok());
    assert!(matches!(
        st.quote_range(&s, &r, 3, 13, Unit::Utf16, "c"),
        Err(evidence_check::store::QuoteRangeError::Offset(OffsetErrorKind::SplitsSurrogatePair))
    ));
}

mod index_by_words {
    //! TextIndex::new reads eight bytes at a time and finds line feeds on the first line
    //! lookup; it must agree with a plain walk over the characters on every text (words
    //! that end inside a character, line feeds and checkpoints anywhere in a word).
    use evidence_check::citation::TextIndex;
    use proptest::prelude::*;

    fn check(text: &str) {
        let index = TextIndex::new(text);
        let starts: Vec<usize> = text.char_indices().map(|(b, _)| b).chain([text.len()]).collect();
        assert_eq!(index.chars(), starts.len() - 1, "{text:?}");
        let mut line = 1;
        for (cp, (byte, ch)) in text.char_indices().enumerate() {
            assert_eq!(index.byte_of(text, cp), Some(byte), "byte_of({cp}) in {text:?}");
            assert_eq!(index.char_of(text, byte), Some(cp), "char_of({byte}) in {text:?}");
            assert_eq!(index.line_of(text, cp), line, "line_of({cp}) in {text:?}");
            if ch == '\n' {
                line += 1;
            }
        }
        assert_eq!(index.byte_of(text, starts.len() - 1), Some(text.len()));
        assert_eq!(index.line_of(text, starts.len() - 1), line, "line_of(end) in {text:?}");
    }

    #[test]
    fn long_mixed_texts() {
        let unit = "The 𝒳 tool keeps 64 entries; 中文资料 works offline 😀 here.\n";
        check(&unit.repeat(40));
        check(&format!("é{}", "a".repeat(200)));
        check(&"\n".repeat(130));
        check(&format!("{}\n😀", "中".repeat(600)));
        check(&format!("{}\n😀\n", "a".repeat(600)));
        // Line feeds counted per block: texts that end at, before and after a block's end.
        let block = evidence_check::citation::LINE_BLOCK;
        for n in [block - 1, block, block + 1, 2 * block, 3 * block + 7] {
            check(&"\n".repeat(n));
            check(&"中\n".repeat(n / 4));
        }
    }

    proptest! {
        #[test]
        fn agrees_with_a_walk_over_the_characters(text in "[a\\n é中😀\\u{80}\\u{7ff}\\u{800}\\u{ffff}\\u{10000}]{0,700}") {
            check(&text);
        }
    }
}

/// A host string's copy is checked against the string's own U+FFFDs: one question per
/// U+FFFD of the copy, none for a copy without, the whole string past `MAX_PROBES`.
#[test]
fn a_copy_is_well_formed_when_the_string_holds_each_of_its_u_fffds() {
    use evidence_check::citation::{copy_is_well_formed, MAX_PROBES};
    use std::cell::Cell;
    // `own`: how many U+FFFDs the host's string really holds.
    let run = |copy: &str, own: usize, whole: Option<bool>| {
        let (asked, found, wholes) = (Cell::new(0), Cell::new(0), Cell::new(0));
        let next = || {
            asked.set(asked.get() + 1);
            (found.get() < own).then(|| found.set(found.get() + 1)).is_some()
        };
        let answer = copy_is_well_formed(copy, next, || {
            wholes.set(wholes.get() + 1);
            whole
        });
        (answer, asked.get(), wholes.get())
    };
    let unit = "中文 😀 text ";
    assert_eq!(run(&unit.repeat(10_000), 0, None), (true, 0, 0), "no U+FFFD: the host is not asked");
    let one = format!("{}\u{FFFD}", unit.repeat(1_000));
    assert_eq!(run(&one, 1, None), (true, 1, 0), "a real U+FFFD");
    assert_eq!(run(&one, 0, None), (false, 1, 0), "a replaced lone surrogate");
    let three = "\u{FFFD}a\u{FFFD}b\u{FFFD}";
    assert_eq!(run(three, 2, None), (false, 3, 0), "one of three replaced");
    // Past MAX_PROBES the host's answer for the whole string decides; without one, the
    // probes go on.
    let many = "\u{FFFD}x".repeat(MAX_PROBES + 5);
    assert_eq!(run(&many, MAX_PROBES + 5, Some(false)), (false, MAX_PROBES, 1));
    assert_eq!(run(&many, MAX_PROBES + 5, Some(true)), (true, MAX_PROBES, 1));
    assert_eq!(run(&many, MAX_PROBES + 5, None), (true, MAX_PROBES + 5, 1));
    assert_eq!(run(&many, MAX_PROBES + 4, None), (false, MAX_PROBES + 5, 1));
}

#[test]
fn code_points_through_the_index_agree_with_a_walk_from_the_start() {
    use evidence_check::citation::{convert_offset, TextIndex, Unit};
    // Several strides of mixed widths, and an ASCII text.
    for t in ["The 𝒳 tool keeps 64 entries; 中文资料 works offline 😀 here.\n".repeat(40), "plain ascii\n".repeat(100)] {
        let index = TextIndex::new(&t);
        for unit in [Unit::Utf16, Unit::Utf8, Unit::CodePoint] {
            let len = match unit {
                Unit::Utf16 => t.encode_utf16().count(),
                Unit::Utf8 => t.len(),
                Unit::CodePoint => t.chars().count(),
            };
            for offset in 0..=len + 2 {
                assert_eq!(index.code_point_of(&t, offset, unit), convert_offset(&t, offset, unit, Unit::CodePoint), "{unit:?} {offset}");
            }
        }
    }
}

#[test]
fn quote_range_costs_the_same_far_into_a_text() {
    // The characters read per conversion (counted by `offset_steps`) at 100 positions
    // within the first 400 KB, and at 100 near the end of 16 MiB: about the same work.
    use evidence_check::citation::{offset_steps, TextIndex, Unit};
    let unit = "The 𝒳 tool keeps 64 entries; 中文资料 works offline 😀 here.\n";
    let units = unit.encode_utf16().count();
    let work = |bytes: usize, from_end: bool| {
        let n = bytes / unit.len();
        let t = unit.repeat(n);
        let index = TextIndex::new(&t);
        index.code_point_of(&t, 0, Unit::Utf16).unwrap(); // the index's one-time UTF-16 part
        let first = if from_end { n - 101 } else { 0 };
        let before = offset_steps();
        for k in first..first + 100 {
            // The quote's start in line k, in UTF-16 units and in bytes.
            index.code_point_of(&t, k * units + 24, Unit::Utf16).unwrap();
            index.code_point_of(&t, k * unit.len() + 30, Unit::Utf8).unwrap();
        }
        offset_steps() - before
    };
    let (near, far) = (work(400_000, false), work(16 << 20, true));
    assert!(near > 0, "no steps counted");
    let r = far as f64 / near as f64;
    assert!(r <= 2.0, "16 MiB in cost {r:.2}× 400 KB");
}

#[test]
fn store_quote_range_reads_as_much_at_16_mib_as_at_400_kb() {
    use evidence_check::citation::{offset_steps, Unit};
    use evidence_check::policy::Policy;
    let unit = "The 𝒳 tool keeps 64 entries; 中文资料 works offline 😀 here.\n";
    let units = unit.encode_utf16().count();
    let mut st = evidence_check::EvidenceStore::with_policy(vec![spec("a"), spec("b")], Policy::documents(), clock()).unwrap();
    let s = scope("t");
    let (n_near, n_far) = (400_000 / unit.len(), (16 << 20) / unit.len() - 2);
    let near = st.ingest(&s, "a", &unit.repeat(n_near)).unwrap();
    let far = st.ingest(&s, "b", &unit.repeat(n_far + 1)).unwrap();
    let work = |r, line: usize| {
        let before = offset_steps();
        let c = st.quote_range(&s, r, line * units + 30, line * units + 51, Unit::Utf16, "c").unwrap();
        assert_eq!(c.quote, "中文资料 works offline 😀");
        offset_steps() - before
    };
    let (_, _) = (work(&near, 0), work(&far, 0)); // each index's one-time UTF-16 part
    let (a, b) = (work(&near, n_near - 1), work(&far, n_far));
    assert!(a > 0, "no steps counted");
    assert!(b as f64 / a as f64 <= 2.0, "16 MiB in cost {b} steps against {a} at 400 KB");
}

/// `encodeInto` of `text` for [`copy_utf8`]: the whole characters from UTF-16 unit `from`
/// that fit in `buf`, as (units, bytes); every call's buffer size is noted in `calls`.
fn encoder<'a>(text: &'a str, calls: &'a std::cell::RefCell<Vec<usize>>) -> impl FnMut(usize, &mut [u8]) -> Option<(usize, usize)> + 'a {
    move |from, buf| {
        calls.borrow_mut().push(buf.len());
        let mut unit = 0;
        let (mut units, mut bytes) = (0, 0);
        for c in text.chars() {
            if unit >= from {
                if bytes + c.len_utf8() > buf.len() {
                    break;
                }
                c.encode_utf8(&mut buf[bytes..]);
                units += c.len_utf16();
                bytes += c.len_utf8();
            }
            unit += c.len_utf16();
        }
        Some((units, bytes))
    }
}

/// The long-string copy: any text copied exactly with each unit encoded once (at most
/// two growths); a text over the limit refused by its size with no buffer of its size;
/// a failing or lying encoder and a failed allocation refused, never trusted.
#[test]
fn a_long_string_is_copied_exactly_and_bounded_by_its_limit() {
    use evidence_check::citation::{copy_utf8, utf8_first_buffer, Utf8Copy};
    use std::cell::RefCell;
    // The room for a few wide characters never takes the buffer past the limit.
    assert_eq!(utf8_first_buffer(1_000, 3_000), Some(3_000));
    let texts = [
        "a".repeat(50_000),
        format!("{}{}", "a".repeat(40_000), "中".repeat(20_000)),
        format!("{}{}", "😀".repeat(10_000), "a".repeat(40_000)),
        "é—中😀".repeat(9_000),
        format!("\u{feff}{}", "x—".repeat(30_000)),
    ];
    for text in &texts {
        let units = text.encode_utf16().count();
        let calls = RefCell::new(Vec::new());
        // Under a limit it cannot pass: no measuring, at most three calls (two growths).
        let copied = copy_utf8(units, 3 * units, encoder(text, &calls));
        assert_eq!(copied, Utf8Copy::Text(text.clone()));
        assert!(calls.borrow().len() <= 3, "{} calls", calls.borrow().len());
        assert!(calls.borrow().iter().all(|&len| len <= 3 * units));
        // At its size exactly (measured first, as it could be over): copied.
        let calls = RefCell::new(Vec::new());
        assert_eq!(copy_utf8(units, text.len(), encoder(text, &calls)), Utf8Copy::Text(text.clone()));
        // One byte under: refused by its size, having been measured in small pieces only.
        let calls = RefCell::new(Vec::new());
        assert_eq!(copy_utf8(units, text.len() - 1, encoder(text, &calls)), Utf8Copy::TooLarge(text.len()));
        assert!(calls.borrow().iter().all(|&len| len <= 48 * 1024), "a buffer of the text's size was made");
    }
    let text = "中".repeat(30_000);
    let units = 30_000;
    let calls = RefCell::new(Vec::new());
    // Longer in units than the limit in bytes: refused by its length, never encoded.
    assert_eq!(copy_utf8(units, units - 1, encoder(&text, &calls)), Utf8Copy::TooLarge(units));
    assert!(calls.borrow().is_empty());
    // An encoder that fails, reads nothing, or claims more than the string or the buffer.
    assert_eq!(copy_utf8(units, 3 * units, |_, _| None), Utf8Copy::EncoderFailed);
    assert_eq!(copy_utf8(units, 3 * units, |_, _| Some((0, 0))), Utf8Copy::EncoderFailed);
    assert_eq!(copy_utf8(units, 3 * units, |from, _| Some((units - from + 1, 0))), Utf8Copy::EncoderFailed);
    assert_eq!(copy_utf8(units, 3 * units, |from, buf| Some((units - from, buf.len() + 1))), Utf8Copy::EncoderFailed);
    // One that writes what is not UTF-8.
    assert_eq!(copy_utf8(units, 3 * units, |from, buf| { buf[0] = 0xFF; Some((units - from, buf.len())) }), Utf8Copy::NotUtf8);
    // A buffer memory cannot hold: refused with the bytes asked for, nothing encoded.
    let huge = usize::MAX / 4;
    let calls = RefCell::new(Vec::new());
    assert_eq!(copy_utf8(huge, usize::MAX, encoder(&text, &calls)), Utf8Copy::OutOfMemory(utf8_first_buffer(huge, usize::MAX).unwrap()));
    assert!(calls.borrow().is_empty());
}
