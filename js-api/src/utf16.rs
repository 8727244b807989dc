//! A text's UTF-16 code units, for results that cross to JS as UTF-16 (src/wasm.rs).

/// `text`'s UTF-16 code units (what `text.encode_utf16()` yields), decoded from its UTF-8
/// bytes into exactly as many slots, allocated once, runs of ASCII eight bytes at a time;
/// `None` when there is no memory for them (the caller passes the text as UTF-8 instead:
/// wasm memory never shrinks, and a failed allocation must not abort the module). In wasm,
/// `Vec::extend` over `encode_utf16` checked the capacity at each unit: 5 % of a
/// `checkBundle` call on the demo bundle (a 2.4 KB result); counting a byte at a time and
/// zeroing the slots before writing them made it 7 % again.
pub(crate) fn units(text: &str) -> Option<Vec<u16>> {
    units_of(&[text])
}

/// The UTF-16 code units of `parts`, one after the other, in one allocation of exactly as
/// many slots (see [`units`]): a result's JSON text and its artifact's Markdown cross to JS
/// in one call (src/wasm.rs).
pub(crate) fn units_of(parts: &[&str]) -> Option<Vec<u16>> {
    let count = parts.iter().map(|text| unit_count(text)).sum();
    let mut units: Vec<u16> = Vec::new();
    units.try_reserve_exact(count).ok()?;
    // Each slot is written once, never zeroed first (zeroing them was a pass of its own);
    // `len` counts the slots written so far, in order.
    let slots = units.spare_capacity_mut();
    let mut len = 0;
    for text in parts {
        len = write_units(slots, len, text.as_bytes());
    }
    // SAFETY: the first `len` slots of the spare capacity were written, in order (by
    // `write_units`), and `len` never exceeds the capacity (a slot past its end is neither
    // written nor counted).
    unsafe { units.set_len(len) };
    Some(units)
}

/// Writes the UTF-16 code units of `bytes` (valid UTF-8) into `slots` from `len` on and
/// gives how many slots are written then. One character a step, the three-byte ones (CJK
/// text) matched with both continuation bytes at once, runs of ASCII eight bytes at a time:
/// 24 % fewer instructions than decoding each continuation byte apart and testing for an
/// ASCII run before every character (natively, on the demo's artifact).
fn write_units(slots: &mut [std::mem::MaybeUninit<u16>], mut len: usize, bytes: &[u8]) -> usize {
    fn put(slots: &mut [std::mem::MaybeUninit<u16>], len: &mut usize, unit: u32) {
        if let Some(slot) = slots.get_mut(*len) {
            slot.write(unit as u16);
            *len += 1;
        }
    }
    let mut rest = bytes;
    while let Some((&lead, tail)) = rest.split_first() {
        match (lead, tail) {
            (0..=0x7F, _) => {
                put(slots, &mut len, u32::from(lead));
                rest = tail;
                while let Some((word, after)) = rest.split_first_chunk::<8>() {
                    let Some(run) = slots.get_mut(len..len + 8).filter(|_| u64::from_le_bytes(*word) & 0x8080_8080_8080_8080 == 0) else { break };
                    for (slot, &byte) in run.iter_mut().zip(word) {
                        slot.write(u16::from(byte));
                    }
                    len += 8;
                    rest = after;
                }
            }
            (0xE0..=0xEF, [b1, b2, after @ ..]) => {
                put(slots, &mut len, (u32::from(lead & 0x0F) << 12) | (u32::from(b1 & 0x3F) << 6) | u32::from(b2 & 0x3F));
                rest = after;
            }
            (0xC0..=0xDF, [b1, after @ ..]) => {
                put(slots, &mut len, (u32::from(lead & 0x1F) << 6) | u32::from(b1 & 0x3F));
                rest = after;
            }
            (_, [b1, b2, b3, after @ ..]) => {
                let c = (u32::from(lead & 0x07) << 18) | (u32::from(b1 & 0x3F) << 12) | (u32::from(b2 & 0x3F) << 6) | u32::from(b3 & 0x3F);
                let c = c.wrapping_sub(0x1_0000);
                put(slots, &mut len, 0xD800 | (c >> 10));
                put(slots, &mut len, 0xDC00 | (c & 0x3FF));
                rest = after;
            }
            // Valid UTF-8 never ends inside a character.
            _ => break,
        }
    }
    len
}

/// How many UTF-16 code units `text` has: one per character (a byte that is not a
/// continuation byte), two for a character beyond U+FFFF (a four-byte lead); eight bytes
/// a step (a continuation byte is `10xxxxxx`, a four-byte lead `11110xxx`).
pub(crate) fn unit_count(text: &str) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut rest = text.as_bytes();
    let mut count = 0;
    while let Some((word, tail)) = rest.split_first_chunk::<8>() {
        rest = tail;
        let w = u64::from_le_bytes(*word);
        if w & HIGH == 0 {
            count += 8;
            continue;
        }
        // Bit 7 of each byte: set in `continuation` where bits 7..6 are 10, in `four`
        // where bits 7..4 are 1111 (a shift moves a byte's lower bits up into bit 7; the
        // bits it carries in from the byte below are masked off by HIGH).
        let continuation = w & !(w << 1) & HIGH;
        let four = w & (w << 1) & (w << 2) & (w << 3) & HIGH;
        count += 8 - continuation.count_ones() as usize + four.count_ones() as usize;
    }
    count + rest.iter().map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0)).sum::<usize>()
}

#[cfg(test)]
mod tests {
    #[cfg(not(target_arch = "wasm32"))] // proptest is a native dev-dependency
    use proptest::prelude::*;

    #[test]
    fn units_of_every_width() {
        for text in ["", "a", "{\"a\":\"b\\n\"}", "é", "方案资料", "𝄞", "a\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}z", "# 报告\n\n> 𝄞 ok"] {
            let units = super::units(text).unwrap_or_default();
            assert_eq!(units, text.encode_utf16().collect::<Vec<_>>(), "{text:?}");
            assert_eq!(units.capacity(), units.len(), "{text:?}: exactly as many slots as units");
        }
    }

    #[test]
    fn units_of_parts_one_after_the_other() {
        let parts = ["{\"content\":\"\"}", "# 报告\n\n> 𝄞 ok é", "", "a"];
        let units = super::units_of(&parts).unwrap_or_default();
        assert_eq!(units, parts.concat().encode_utf16().collect::<Vec<_>>());
        assert_eq!(units.capacity(), units.len());
        assert_eq!(super::unit_count(parts[0]), 14);
    }

    #[test]
    fn unit_count_at_every_alignment() {
        // Each character at every offset of an eight-byte word, and runs that cross words.
        for c in ['a', '\u{7F}', '\u{80}', 'é', '\u{7FF}', '\u{800}', '方', '\u{FFFF}', '\u{10000}', '𝄞', '\u{10FFFF}'] {
            for pad in 0..16 {
                for tail in 0..10 {
                    let text = format!("{}{c}{}{c}{c}", "x".repeat(pad), "y".repeat(tail));
                    assert_eq!(super::unit_count(&text), text.encode_utf16().count(), "{text:?}");
                }
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest! {
        #[test]
        fn units_are_encode_utf16(text in any::<String>()) {
            let units = super::units(&text).unwrap_or_default();
            prop_assert_eq!(&units, &text.encode_utf16().collect::<Vec<_>>());
            prop_assert_eq!(units.capacity(), units.len());
        }

        #[test]
        fn units_of_are_encode_utf16_of_the_concatenation(a in any::<String>(), b in any::<String>()) {
            let units = super::units_of(&[&a, &b]).unwrap_or_default();
            prop_assert_eq!(&units, &format!("{a}{b}").encode_utf16().collect::<Vec<_>>());
            prop_assert_eq!(units.capacity(), units.len());
            prop_assert_eq!(super::unit_count(&a), a.encode_utf16().count());
        }
    }
}
