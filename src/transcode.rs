//! UTF-16 code units to UTF-8 in one pass that refuses a lone surrogate: how a large string
//! argument enters the module in Node (src/wasm.rs). The host writes the string's code units
//! into wasm memory at memcpy speed (`Buffer.prototype.write(text, offset, "utf16le")`, 15 ms
//! for the bench's 58.5 M units where `TextEncoder.encodeInto` takes 55 ms), a piece at a
//! time, and [`Utf8Builder::push`] transcodes each piece. A lone surrogate is refused with
//! its index, never replaced: the exact test the UTF-8 path makes with a search for U+FFFD
//! and `isWellFormed`-like check after the host replaced it.
//!
//! Runs of ASCII go four units a step (one 64-bit word), runs of three-byte characters (CJK
//! text) one unit and one 32-bit store a step.

use std::mem::MaybeUninit;

/// Why code units could not be transcoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TranscodeError {
    /// A surrogate without its pair at this index (counted from the start of the text).
    LoneSurrogate(usize),
    /// No memory for the UTF-8 bytes.
    NoMemory,
}

/// The UTF-8 text of UTF-16 code units given in pieces, in order (see the module's note).
#[derive(Debug, Default)]
pub struct Utf8Builder {
    /// Valid UTF-8: only [`Utf8Builder::push`] writes it, whole characters at a time.
    bytes: Vec<u8>,
    /// The units pushed so far (for the index of a lone surrogate).
    units: usize,
}

/// The most UTF-8 bytes a code unit takes (a surrogate pair takes 4 for 2 units), plus one:
/// a three-byte character is written with one 4-byte store.
const fn room_for(units: usize) -> usize {
    units.saturating_mul(3).saturating_add(1)
}

impl Utf8Builder {
    /// An empty text with room for `bytes` bytes (`None`: no memory for them).
    pub fn with_capacity(bytes: usize) -> Option<Self> {
        let mut b = Self::default();
        b.bytes.try_reserve_exact(bytes).ok()?;
        Some(b)
    }

    /// The bytes written so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing is written yet.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The units pushed so far.
    pub fn units(&self) -> usize {
        self.units
    }

    /// Makes room for the UTF-8 of `units` more code units (at most 3 bytes each), growing
    /// to exactly `len + room` or to `at_least`, whichever is more.
    pub fn reserve_for(&mut self, units: usize, at_least: usize) -> Result<(), TranscodeError> {
        let room = room_for(units);
        if self.bytes.capacity() - self.bytes.len() >= room {
            return Ok(());
        }
        let want = at_least.max(self.bytes.len().saturating_add(room));
        self.bytes.try_reserve_exact(want - self.bytes.len()).map_err(|_| TranscodeError::NoMemory)
    }

    /// Appends the UTF-8 of `units`. Unless `last`, a high surrogate at the end is left for
    /// the next piece (it may be the first half of a pair): the count of units consumed is
    /// returned, and the caller pushes the rest again with the next piece.
    pub fn push(&mut self, units: &[u16], last: bool) -> Result<usize, TranscodeError> {
        self.reserve_for(units.len(), 0)?;
        let len = self.bytes.len();
        let spare = self.bytes.spare_capacity_mut();
        let (read, written) = transcode(units, spare, last).map_err(|e| match e {
            TranscodeError::LoneSurrogate(at) => TranscodeError::LoneSurrogate(self.units + at),
            other => other,
        })?;
        // SAFETY: `transcode` wrote the first `written` bytes of the spare capacity (and
        // never counts a byte past its end), whole characters of valid UTF-8.
        unsafe { self.bytes.set_len(len + written) };
        self.units += read;
        Ok(read)
    }

    /// The text.
    pub fn finish(mut self) -> String {
        self.bytes.shrink_to_fit();
        // SAFETY: `push` writes only whole characters of valid UTF-8 (tests/transcode.rs
        // checks it against `String::from_utf16` on arbitrary units).
        unsafe { String::from_utf8_unchecked(self.bytes) }
    }
}

/// `String::from_utf16`, refusing a lone surrogate with its index.
pub fn from_utf16(units: &[u16]) -> Result<String, TranscodeError> {
    let mut b = Utf8Builder::with_capacity(room_for(units.len())).ok_or(TranscodeError::NoMemory)?;
    b.push(units, true)?;
    Ok(b.finish())
}

const fn is_surrogate(u: u16) -> bool {
    u & 0xF800 == 0xD800
}

/// The UTF-8 of `units` into `out` (room for [`room_for`] of them): the units read and the
/// bytes written.
fn transcode(units: &[u16], out: &mut [MaybeUninit<u8>], last: bool) -> Result<(usize, usize), TranscodeError> {
    if out.len() < room_for(units.len()) {
        return Err(TranscodeError::NoMemory);
    }
    // SAFETY: `units` is readable for its length and `out` writable for room_for(units.len())
    // bytes, which is all `transcode_raw` reads and writes (see there).
    unsafe { transcode_raw(units.as_ptr(), units.len(), out.as_mut_ptr().cast::<u8>(), last) }
}

/// [`transcode`] on pointers: no bounds check in the loops (in wasm they were a third of
/// the instructions a CJK character took).
///
/// # Safety
/// `src` is readable for `n` units and `dst` writable for `room_for(n)` bytes. Every store
/// starts at most 3 bytes a unit read so far (`o <= 3 * i`) and is at most 4 bytes long,
/// made while at least one unit is unread (`i < n`): it ends by `3 * (n - 1) + 4`.
unsafe fn transcode_raw(src: *const u16, n: usize, dst: *mut u8, last: bool) -> Result<(usize, usize), TranscodeError> {
    let mut i = 0;
    let mut o = 0;
    // SAFETY (every block below): reads at `i..i + k` are made only when `i + k <= n`, and
    // stores as the function's note says.
    while i < n {
        // ASCII, two words of four units at a time, then one.
        while i + 8 <= n {
            let (w, x) = unsafe { (src.add(i).cast::<u64>().read_unaligned(), src.add(i + 4).cast::<u64>().read_unaligned()) };
            if (w | x) & 0xFF80_FF80_FF80_FF80 != 0 {
                break;
            }
            let narrow = |w: u64| (w & 0xFF) | ((w >> 8) & 0xFF00) | ((w >> 16) & 0xFF_0000) | ((w >> 24) & 0xFF00_0000);
            unsafe { dst.add(o).cast::<u64>().write_unaligned(narrow(w) | (narrow(x) << 32)) };
            i += 8;
            o += 8;
        }
        while i + 4 <= n {
            let w = unsafe { src.add(i).cast::<u64>().read_unaligned() };
            if w & 0xFF80_FF80_FF80_FF80 != 0 {
                break;
            }
            let bytes = (w & 0xFF) | ((w >> 8) & 0xFF00) | ((w >> 16) & 0xFF_0000) | ((w >> 24) & 0xFF00_0000);
            unsafe { dst.add(o).cast::<u32>().write_unaligned(bytes as u32) };
            i += 4;
            o += 4;
        }
        if i >= n {
            break;
        }
        let u = unsafe { src.add(i).read() };
        if u < 0x80 {
            unsafe { dst.add(o).write(u as u8) };
            i += 1;
            o += 1;
        } else if u < 0x800 {
            let v = 0x80C0 | (u >> 6) | ((u & 0x3F) << 8);
            unsafe { dst.add(o).cast::<u16>().write_unaligned(v) };
            i += 1;
            o += 2;
        } else if !is_surrogate(u) {
            // A run of three-byte characters (CJK text): each in one 4-byte store, its
            // fourth byte overwritten by the next character (room_for has one byte spare).
            let mut u = u32::from(u);
            loop {
                let v = 0x0080_80E0 | (u >> 12) | (((u >> 6) & 0x3F) << 8) | ((u & 0x3F) << 16);
                unsafe { dst.add(o).cast::<u32>().write_unaligned(v) };
                i += 1;
                o += 3;
                if i >= n {
                    break;
                }
                let next = unsafe { src.add(i).read() };
                if next < 0x800 || is_surrogate(next) {
                    break;
                }
                u = u32::from(next);
            }
        } else if u < 0xDC00 {
            if i + 1 >= n {
                // The last unit of a piece that is not the last: left for the next.
                if !last {
                    break;
                }
                return Err(TranscodeError::LoneSurrogate(i));
            }
            let low = unsafe { src.add(i + 1).read() };
            if !(0xDC00..0xE000).contains(&low) {
                return Err(TranscodeError::LoneSurrogate(i));
            }
            let c = 0x1_0000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
            let v = (0xF0 | (c >> 18)) | ((0x80 | ((c >> 12) & 0x3F)) << 8) | ((0x80 | ((c >> 6) & 0x3F)) << 16) | ((0x80 | (c & 0x3F)) << 24);
            unsafe { dst.add(o).cast::<u32>().write_unaligned(v) };
            i += 2;
            o += 4;
        } else {
            return Err(TranscodeError::LoneSurrogate(i));
        }
    }
    Ok((i, o))
}
