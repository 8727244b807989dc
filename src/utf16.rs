//! A text's UTF-16 code units, for results that cross to JS as UTF-16 (src/wasm.rs).

/// `text`'s UTF-16 code units (what `text.encode_utf16()` yields), decoded from its UTF-8
/// bytes into exactly as many slots, allocated once, runs of ASCII eight bytes at a time;
/// `None` when there is no memory for them (the caller passes the text as UTF-8 instead:
/// wasm memory never shrinks, and a failed allocation must not abort the module). In wasm,
/// `Vec::extend` over `encode_utf16` checked the capacity at each unit: 5 % of a
/// `checkBundle` call on the demo bundle (a 2.4 KB result).
pub(crate) fn units(text: &str) -> Option<Vec<u16>> {
    /// The payload of the next byte, a continuation byte: `text` is valid UTF-8.
    fn more(rest: &mut &[u8]) -> u32 {
        let (&byte, tail) = rest.split_first().unwrap_or((&0, &[]));
        *rest = tail;
        u32::from(byte & 0x3F)
    }
    fn put(units: &mut [u16], len: &mut usize, unit: u16) {
        if let Some(slot) = units.get_mut(*len) {
            *slot = unit;
            *len += 1;
        }
    }
    let count = unit_count(text);
    let mut units = Vec::new();
    units.try_reserve_exact(count).ok()?;
    units.resize(count, 0);
    let mut len = 0;
    let mut rest = text.as_bytes();
    loop {
        while let Some((word, tail)) = rest.split_first_chunk::<8>() {
            let Some(slots) = units.get_mut(len..len + 8).filter(|_| u64::from_le_bytes(*word) & 0x8080_8080_8080_8080 == 0) else { break };
            for (slot, &byte) in slots.iter_mut().zip(word) {
                *slot = u16::from(byte);
            }
            len += 8;
            rest = tail;
        }
        let Some((&lead, tail)) = rest.split_first() else { break };
        rest = tail;
        match lead {
            0..=0x7F => put(&mut units, &mut len, u16::from(lead)),
            0x80..=0xDF => put(&mut units, &mut len, ((u32::from(lead & 0x1F) << 6) | more(&mut rest)) as u16),
            0xE0..=0xEF => put(&mut units, &mut len, ((u32::from(lead & 0x0F) << 12) | (more(&mut rest) << 6) | more(&mut rest)) as u16),
            _ => {
                let c = (u32::from(lead & 0x07) << 18) | (more(&mut rest) << 12) | (more(&mut rest) << 6) | more(&mut rest);
                let c = c.wrapping_sub(0x1_0000);
                put(&mut units, &mut len, 0xD800 | (c >> 10) as u16);
                put(&mut units, &mut len, 0xDC00 | (c & 0x3FF) as u16);
            }
        }
    }
    units.truncate(len);
    Some(units)
}

/// How many UTF-16 code units `text` has: one per character (a byte that is not a
/// continuation byte), two for a character beyond U+FFFF (a four-byte lead).
fn unit_count(text: &str) -> usize {
    text.bytes().map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0)).sum()
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

    #[cfg(not(target_arch = "wasm32"))]
    proptest! {
        #[test]
        fn units_are_encode_utf16(text in any::<String>()) {
            let units = super::units(&text).unwrap_or_default();
            prop_assert_eq!(&units, &text.encode_utf16().collect::<Vec<_>>());
            prop_assert_eq!(units.capacity(), units.len());
        }
    }
}
