//! src/transcode.rs against `String::from_utf16`: valid units give the same bytes, whole or
//! in pieces split anywhere (inside a surrogate pair too); any lone surrogate is refused at
//! its index, never replaced.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![cfg(not(target_arch = "wasm32"))]
use evidence_check::transcode::{from_utf16, TranscodeError, Utf8Builder};
use proptest::prelude::*;

/// The index of the first lone surrogate, as `String::from_utf16` would refuse it.
fn first_lone(units: &[u16]) -> Option<usize> {
    let mut i = 0;
    while let Some(&u) = units.get(i) {
        match u {
            0xD800..=0xDBFF if matches!(units.get(i + 1), Some(0xDC00..=0xDFFF)) => i += 2,
            0xD800..=0xDFFF => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The units pushed in pieces of `sizes` (cycled), carrying a trailing high surrogate over.
fn in_pieces(units: &[u16], sizes: &[usize]) -> Result<String, TranscodeError> {
    let mut b = Utf8Builder::default();
    let mut at = 0;
    let mut k = 0;
    // A piece of one high surrogate that is not the last is left whole: the next is one longer.
    let mut longer = 0;
    loop {
        let size = sizes.get(k % sizes.len().max(1)).copied().unwrap_or(units.len()).max(1) + longer;
        k += 1;
        let end = (at + size).min(units.len());
        let last = end == units.len();
        let read = b.push(&units[at..end], last)?;
        longer = usize::from(read == 0);
        at += read;
        if last {
            break;
        }
    }
    assert_eq!(b.units(), units.len());
    Ok(b.finish())
}

fn check(units: &[u16]) {
    let expected = String::from_utf16(units);
    let got = from_utf16(units);
    match (&expected, &got) {
        (Ok(e), Ok(g)) => assert_eq!(e.as_bytes(), g.as_bytes()),
        (Err(_), Err(TranscodeError::LoneSurrogate(at))) => assert_eq!(Some(*at), first_lone(units)),
        _ => panic!("{units:04X?}: expected {expected:?}, got {got:?}"),
    }
    for sizes in [&[1usize][..], &[2], &[3], &[4], &[5], &[7, 1, 2], &[64]] {
        let pieces = in_pieces(units, sizes);
        match (&expected, &pieces) {
            (Ok(e), Ok(g)) => assert_eq!(e.as_bytes(), g.as_bytes(), "pieces {sizes:?}"),
            (Err(_), Err(TranscodeError::LoneSurrogate(at))) => assert_eq!(Some(*at), first_lone(units), "pieces {sizes:?}"),
            _ => panic!("{units:04X?} in pieces {sizes:?}: expected {expected:?}, got {pieces:?}"),
        }
    }
}

/// A code unit from every class the transcoder tells apart, and their edges.
fn unit() -> impl Strategy<Value = u16> {
    prop_oneof![
        4 => 0u16..0x80,
        1 => Just(0x7Fu16),
        1 => 0x80u16..0x800,
        1 => prop::sample::select(vec![0x80u16, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF]),
        3 => 0x800u16..0xD800,
        1 => 0xE000u16..=0xFFFF,
        2 => 0xD800u16..0xDC00,
        2 => 0xDC00u16..0xE000,
    ]
}

/// Valid text: characters of every width, surrogate pairs whole.
fn valid_units() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<char>(), 0..80).prop_map(|cs| cs.iter().collect::<String>().encode_utf16().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn any_units_as_from_utf16(units in prop::collection::vec(unit(), 0..64)) {
        check(&units);
    }

    #[test]
    fn valid_text_gives_the_same_bytes(units in valid_units()) {
        prop_assert!(from_utf16(&units).is_ok());
        check(&units);
    }

    #[test]
    fn one_lone_surrogate_anywhere_is_refused(mut units in valid_units(), at in any::<prop::sample::Index>(), lone in 0xD800u16..0xE000) {
        // Inserted where it cannot pair: a high one before a non-low unit (or the end), a low one after a non-high unit.
        let i = at.index(units.len() + 1);
        units.insert(i, lone);
        let paired = if lone < 0xDC00 { matches!(units.get(i + 1), Some(0xDC00..=0xDFFF)) } else { i > 0 && matches!(units.get(i - 1), Some(0xD800..=0xDBFF)) };
        prop_assume!(!paired);
        prop_assert!(from_utf16(&units).is_err());
        check(&units);
    }
}

/// Every width at every position around the four-unit words, and lone surrogates at a word's
/// edges and at a piece's end.
#[test]
fn edges_of_words_and_pieces() {
    let widths: [&[u16]; 6] = [&[0x41], &[0x7FF], &[0x4E2D], &[0xD835, 0xDCB3], &[0xD800], &[0xDC00]];
    for pad in 0..9 {
        for w in widths {
            for tail in 0..6 {
                let mut units = vec![0x61u16; pad];
                units.extend_from_slice(w);
                units.extend(std::iter::repeat_n(0x62u16, tail));
                check(&units);
                // The same inside a run of CJK.
                let mut cjk = vec![0x6587u16; pad];
                cjk.extend_from_slice(w);
                cjk.extend(std::iter::repeat_n(0x5B57u16, tail));
                check(&cjk);
            }
        }
    }
    // A high surrogate that ends the last piece is lone; one that ends an earlier piece is carried over.
    assert_eq!(from_utf16(&[0x61, 0xD800]), Err(TranscodeError::LoneSurrogate(1)));
    let mut b = Utf8Builder::default();
    assert_eq!(b.push(&[0x61, 0xD83D], false), Ok(1));
    assert_eq!(b.push(&[0xD83D, 0xDE00], true), Ok(2));
    assert_eq!(b.finish(), "a😀");
    let mut b = Utf8Builder::default();
    assert_eq!(b.push(&[0x61, 0x62], false), Ok(2));
    assert_eq!(b.push(&[0x63, 0xDE00], true), Err(TranscodeError::LoneSurrogate(3)));
    assert_eq!(from_utf16(&[]).as_deref(), Ok(""));
}
