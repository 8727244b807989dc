//! Locating code-point offsets in UTF-8 text without scanning the whole text per
//! citation (a [`TextIndex`] is built once per snapshot), and converting offsets between
//! the units hosts count in: code points, UTF-16 units and UTF-8 bytes.


/// How many code points lie between two checkpoints of a [`TextIndex`]: a lookup reads
/// at most this many characters; building the index stops at one word in ~40.
const STRIDE: usize = 256;

/// The bytes of text per line-count checkpoint.
pub const LINE_BLOCK: usize = 1024;

/// Code-point positions of one text: checkpoints every 256 code points, and (made on
/// the first line lookup, for the artifact) how many line feeds precede each block of
/// [`LINE_BLOCK`] bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextIndex {
    chars: usize,
    ascii: bool,
    /// Byte offset of code point `k * STRIDE`; empty for ASCII text.
    checkpoints: Vec<usize>,
    /// The line feeds before byte `k * LINE_BLOCK`, for every block: a line number is
    /// one of these plus a count within one block (a fraction of the text's size, where
    /// an offset per line feed would be four or eight times a text of line feeds).
    newlines: std::sync::OnceLock<Vec<usize>>,
    /// UTF-16 offset of each checkpoint, made on the first conversion from UTF-16.
    utf16: std::sync::OnceLock<Vec<usize>>,
    /// Code-point offsets of each LF that follows a CR, ascending, made on the first
    /// mapping into the LF-normalised text.
    crlf: std::sync::OnceLock<Vec<usize>>,
}

thread_local! {
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The characters that this thread's offset lookups through a [`TextIndex`] have read so
/// far (a deterministic measure of their work, for tests that compare two positions).
#[doc(hidden)]
pub fn offset_steps() -> u64 {
    STEPS.with(std::cell::Cell::get)
}

impl TextIndex {
    /// Indexes `text` in one pass.
    pub fn new(text: &str) -> Self {
        let ascii = is_ascii(text.as_bytes());
        let mut checkpoints = Vec::new();
        let chars = if ascii {
            text.len()
        } else {
            checkpoints.reserve(text.len() / STRIDE + 1);
            index_code_points(text.as_bytes(), &mut checkpoints)
        };
        TextIndex { chars, ascii, checkpoints, newlines: std::sync::OnceLock::new(), utf16: std::sync::OnceLock::new(), crlf: std::sync::OnceLock::new() }
    }

    /// Length in code points.
    pub fn chars(&self) -> usize {
        self.chars
    }

    /// Byte offset of code point `cp` (`cp == chars()` is the end), or `None` past the end.
    pub fn byte_of(&self, text: &str, cp: usize) -> Option<usize> {
        if cp > self.chars {
            return None;
        }
        if self.ascii || cp == self.chars {
            return Some(if self.ascii { cp } else { text.len() });
        }
        let base = *self.checkpoints.get(cp / STRIDE)?;
        let rest = text.get(base..)?;
        rest.char_indices().nth(cp % STRIDE).map(|(b, _)| base + b)
    }

    /// Code-point offset of byte offset `byte` (which must be a char boundary).
    pub fn char_of(&self, text: &str, byte: usize) -> Option<usize> {
        if self.ascii {
            return (byte <= text.len()).then_some(byte);
        }
        let k = self.checkpoints.partition_point(|b| *b <= byte).checked_sub(1)?;
        let base = *self.checkpoints.get(k)?;
        Some(k * STRIDE + text.get(base..byte)?.chars().count())
    }

    /// The code-point offset of `offset`, counted in `unit` into `text` (the indexed
    /// text): [`convert_offset`] to code points, reading at most one stride of characters
    /// whatever the position. An offset inside one character is an error, never shifted.
    pub fn code_point_of(&self, text: &str, offset: usize, unit: Unit) -> Result<usize, OffsetErrorKind> {
        let within = |end: usize| if offset <= end { Ok(offset) } else { Err(OffsetErrorKind::OutOfRange) };
        match unit {
            Unit::CodePoint => within(self.chars),
            _ if self.ascii => within(text.len()),
            Unit::Utf8 if offset > text.len() => Err(OffsetErrorKind::OutOfRange),
            Unit::Utf8 if !text.is_char_boundary(offset) => Err(OffsetErrorKind::SplitsUtf8Sequence),
            Unit::Utf8 => {
                let cp = self.char_of(text, offset).ok_or(OffsetErrorKind::OutOfRange)?;
                STEPS.with(|c| c.set(c.get() + (cp % STRIDE) as u64));
                Ok(cp)
            }
            Unit::Utf16 => {
                let utf16 = self.utf16.get_or_init(|| self.utf16_checkpoints(text));
                let k = utf16.partition_point(|u| *u <= offset).checked_sub(1).ok_or(OffsetErrorKind::OutOfRange)?;
                let (Some(&base), Some(&at)) = (self.checkpoints.get(k), utf16.get(k)) else { return Err(OffsetErrorKind::OutOfRange) };
                let (mut at, mut cp) = (at, k * STRIDE);
                let mut chars = text.get(base..).unwrap_or_default().chars();
                let found = loop {
                    if at == offset {
                        break Ok(cp);
                    }
                    let Some(c) = chars.next() else { break Err(OffsetErrorKind::OutOfRange) };
                    at += c.len_utf16();
                    cp += 1;
                    if offset < at {
                        break Err(OffsetErrorKind::SplitsSurrogatePair);
                    }
                };
                STEPS.with(|c| c.set(c.get() + (cp - k * STRIDE) as u64));
                found
            }
        }
    }

    /// Where code-point offset `cp` of `text` (the indexed text) falls in the same text
    /// with each CRLF made one LF (a lone CR stays one character, as
    /// `digest::normalize_newlines` writes it), read as a range's start (`start`) or its
    /// end. A start on the LF of a CRLF is the pair's one LF (the range holds it); an end
    /// there keeps the pair's LF too (the CR it ends after reads as that LF). The CRLF
    /// offsets are found once per text; each mapping is a binary search.
    pub fn lf_normalized(&self, text: &str, cp: usize, start: bool) -> usize {
        let crlf = self.crlf.get_or_init(|| {
            STEPS.with(|c| c.set(c.get() + text.len() as u64));
            crlf_offsets(text, self.ascii)
        });
        // LFs of pairs before `cp` (and, for a start, the one at `cp`) disappear.
        let removed = if start { crlf.partition_point(|lf| *lf <= cp) } else { crlf.partition_point(|lf| *lf < cp) };
        STEPS.with(|c| c.set(c.get() + u64::from(usize::BITS - crlf.len().leading_zeros())));
        cp - removed
    }

    /// The UTF-16 offset of each checkpoint, in one pass over the text.
    fn utf16_checkpoints(&self, text: &str) -> Vec<usize> {
        let bytes = text.as_bytes();
        let (mut from, mut units) = (0, 0);
        self.checkpoints
            .iter()
            .map(|&b| {
                units += utf16_units(bytes.get(from..b).unwrap_or_default());
                from = b;
                units
            })
            .collect()
    }

    /// The text of the half-open code-point range `[start, end)`, or `None` when it ends
    /// past the text or is reversed.
    pub fn slice<'t>(&self, text: &'t str, start: usize, end: usize) -> Option<&'t str> {
        if start > end {
            return None;
        }
        let b = self.byte_of(text, start)?;
        let e = self.byte_of(text, end)?;
        text.get(b..e)
    }

    /// 1-based line of code point `cp` of `text` (the indexed text): one more than the
    /// line feeds before it.
    pub fn line_of(&self, text: &str, cp: usize) -> usize {
        let bytes = text.as_bytes();
        let line_feeds = |b: &[u8]| memchr::memchr_iter(b'\n', b).count();
        let blocks = self.newlines.get_or_init(|| {
            let mut before = 0;
            bytes
                .chunks(LINE_BLOCK)
                .map(|block| {
                    let at = before;
                    before += line_feeds(block);
                    at
                })
                .collect()
        });
        let byte = self.byte_of(text, cp).unwrap_or(text.len());
        // The end of a text whose length is a whole number of blocks is in its last block.
        let block = (byte / LINE_BLOCK).min(blocks.len().saturating_sub(1));
        let before = blocks.get(block).copied().unwrap_or(0);
        before + line_feeds(bytes.get(block * LINE_BLOCK..byte).unwrap_or_default()) + 1
    }
}

/// The code-point offset of each LF of `text` that follows a CR, ascending: one pass.
fn crlf_offsets(text: &str, ascii: bool) -> Vec<usize> {
    let mut at = (0, 0); // (byte, code point) of the last pair's LF
    memchr::memmem::find_iter(text.as_bytes(), b"\r\n")
        .map(|b| {
            let lf = b + 1;
            let cp = if ascii { lf } else { at.1 + text.get(at.0..lf).map_or(0, |s| s.chars().count()) };
            at = (lf, cp);
            cp
        })
        .collect()
}

/// The high bit of each byte of a 64-bit word.
const HI: u64 = 0x8080_8080_8080_8080;

/// `bytes.is_ascii()`, 32 bytes per step as four 64-bit words (wasm has 64-bit integers;
/// the standard one reads `usize` words, 4 bytes in wasm32), stopping at the first
/// group that holds a byte over 0x7F.
fn is_ascii(bytes: &[u8]) -> bool {
    let groups = bytes.chunks_exact(32);
    let tail = groups.remainder();
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().unwrap_or([0x80; 8]));
    groups.into_iter().all(|g| g.chunks_exact(8).fold(0, |acc, w| acc | word(w)) & HI == 0) && tail.is_ascii()
}

/// Records the checkpoints of UTF-8 `bytes` and returns its length in code points.
fn index_code_points(bytes: &[u8], checkpoints: &mut Vec<usize>) -> usize {
    let mut ix = Indexer { n: 0, ascii: true, checkpoints: std::mem::take(checkpoints) };
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    for (k, word) in words.enumerate() {
        ix.word(k * 8, u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
    }
    ix.bytes(bytes.len() - tail.len(), tail);
    *checkpoints = ix.checkpoints;
    ix.n
}

/// A [`TextIndex`] made as its text is read, in order.
/// Eight bytes at a time: a word with no checkpoint in it only adds its count of
/// code-point starts (bytes that are not 10xxxxxx); the others go byte by byte. A code
/// point starts at every byte that is not a continuation byte, so a word may end inside
/// a character.
#[derive(Debug, Default)]
pub(crate) struct Indexer {
    n: usize,
    /// Every byte so far was ASCII: code points are bytes, and no checkpoint is recorded
    /// until the first other byte (ASCII text needs none).
    ascii: bool,
    checkpoints: Vec<usize>,
}

impl Indexer {
    /// At the first byte over 0x7F: the checkpoints of the ASCII text before it (code
    /// point = byte).
    fn leave_ascii(&mut self) {
        self.checkpoints.extend((0..self.n).step_by(STRIDE));
        self.ascii = false;
    }

    /// Eight bytes (little-endian) written at byte offset `at`.
    #[inline]
    pub fn word(&mut self, at: usize, word: u64) {
        if self.ascii {
            if word & HI == 0 {
                self.n += 8;
                return;
            }
            self.leave_ascii();
        }
        // Bit 7 set and bit 6 clear: a continuation byte.
        let starts = 8 - (word & !(word << 1) & HI).count_ones() as usize;
        if (STRIDE - self.n % STRIDE) % STRIDE < starts {
            self.bytes(at, &word.to_le_bytes());
        } else {
            self.n += starts;
        }
    }

    /// `bytes` written at byte offset `at`.
    pub fn bytes(&mut self, at: usize, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            if self.ascii {
                if b.is_ascii() {
                    self.n += 1;
                    continue;
                }
                self.leave_ascii();
            }
            if (*b as i8) >= -0x40 {
                if self.n % STRIDE == 0 {
                    self.checkpoints.push(at + i);
                }
                self.n += 1;
            }
        }
    }
}

/// A unit in which hosts count offsets into a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Unicode code points: the contract's unit (Python, the W3C TextPositionSelector).
    CodePoint,
    /// UTF-16 code units: JavaScript string indices.
    Utf16,
    /// UTF-8 bytes: Rust, Go and many byte-oriented APIs.
    Utf8,
}

impl Unit {
    pub const ALL: [(&'static str, Unit); 3] = [("code_point", Unit::CodePoint), ("utf16", Unit::Utf16), ("utf8", Unit::Utf8)];

    pub fn parse(s: &str) -> Option<Unit> {
        Self::ALL.iter().find(|(n, _)| *n == s).map(|(_, u)| *u)
    }

    fn width(self, c: char) -> usize {
        match self {
            Unit::CodePoint => 1,
            Unit::Utf16 => c.len_utf16(),
            Unit::Utf8 => c.len_utf8(),
        }
    }
}

/// How many U+FFFDs of a host string's copy are each looked for in the string before the
/// host checks the whole string instead.
pub const MAX_PROBES: usize = 16;

/// Whether a host string, copied as `text` with each lone surrogate replaced by U+FFFD,
/// holds no lone surrogate. Each U+FFFD of the copy is a U+FFFD of the string or a
/// replaced surrogate, so the string is well formed when it holds as many U+FFFDs as the
/// copy: `next_own()` finds the string's next own U+FFFD (`indexOf` from after the last,
/// together one read of the string up to the last one). A copy with more than
/// [`MAX_PROBES`] is decided by `whole()` (`isWellFormed()`) where the host answers.
/// Never one host call per character, and a copy with no U+FFFD asks the host nothing.
pub fn copy_is_well_formed(text: &str, mut next_own: impl FnMut() -> bool, whole: impl FnOnce() -> Option<bool>) -> bool {
    let mut whole = Some(whole);
    // (`memmem` looks for the rarest of the three bytes, with wasm SIMD; `str::matches`
    // would run a slower two-way search.)
    for (k, _) in memchr::memmem::find_iter(text.as_bytes(), "\u{FFFD}".as_bytes()).enumerate() {
        if k == MAX_PROBES {
            if let Some(answer) = whole.take().and_then(|f| f()) {
                return answer;
            }
        }
        if !next_own() {
            return false;
        }
    }
    true
}

/// UTF-16 units of valid UTF-8 `bytes`: one per leading byte, two for a 4-byte sequence.
fn utf16_units(bytes: &[u8]) -> usize {
    bytes.iter().map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0)).sum()
}

/// Converts `offset`, counted in `from` units into `text`, to `to` units. An offset that
/// falls inside one character (between the halves of a surrogate pair, inside a UTF-8
/// sequence) is an error, never shifted to a neighbour.
pub fn convert_offset(text: &str, offset: usize, from: Unit, to: Unit) -> Result<usize, OffsetErrorKind> {
    let (mut at_from, mut at_to) = (0usize, 0usize);
    for c in text.chars() {
        if at_from == offset {
            return Ok(at_to);
        }
        let next = at_from + from.width(c);
        if offset < next {
            return Err(match from {
                Unit::Utf16 => OffsetErrorKind::SplitsSurrogatePair,
                _ => OffsetErrorKind::SplitsUtf8Sequence,
            });
        }
        at_from = next;
        at_to += to.width(c);
    }
    if at_from == offset {
        Ok(at_to)
    } else {
        Err(OffsetErrorKind::OutOfRange)
    }
}

/// Converts a half-open range; both ends must fall on character boundaries.
pub fn convert_range(text: &str, start: usize, end: usize, from: Unit, to: Unit) -> Result<(usize, usize), OffsetErrorKind> {
    if start >= end {
        return Err(OffsetErrorKind::EmptyRange);
    }
    Ok((convert_offset(text, start, from, to)?, convert_offset(text, end, from, to)?))
}

/// The first buffer, in bytes, for copying a text of `units` UTF-16 units as UTF-8 under
/// `max_bytes`: `None` when the text could be over the limit (UTF-8 has at most three
/// bytes a unit), so its size must be measured first. Otherwise one byte a unit (the
/// least its UTF-8 can be, and all of it for ASCII) and a little room for a few characters
/// of more than one byte (a dash, a BOM), which would otherwise make the copy grow.
pub fn utf8_first_buffer(units: usize, max_bytes: usize) -> Option<usize> {
    if units.saturating_mul(3) > max_bytes {
        return None;
    }
    Some(units.saturating_add(units / 64 + 4096).min(max_bytes))
}

/// The bytes to add to a UTF-8 copy that has `rest` UTF-16 units left after `read` units
/// were written as `written` bytes: what the rest needs at the bytes a unit so far (and
/// an eighth more), or, when the copy has `grown` once already, three a unit, the most it
/// can need. So each unit is encoded once and the buffer grows at most twice.
pub fn utf8_growth(rest: usize, read: usize, written: usize, grown: bool) -> usize {
    let most = rest.saturating_mul(3);
    if grown {
        return most;
    }
    let at_rate = (rest as u64).saturating_mul(written as u64) / (read.max(1) as u64);
    usize::try_from(at_rate).unwrap_or(usize::MAX).saturating_add(rest / 8 + 16).min(most)
}

/// What [`copy_utf8`] made of a string.
#[derive(Debug, PartialEq, Eq)]
pub enum Utf8Copy {
    /// The string's text.
    Text(String),
    /// Over the limit: the size in UTF-8 bytes, or for a string longer in units than the
    /// limit, its length in units (a lower bound). Nothing of its size was allocated.
    TooLarge(usize),
    /// A buffer of this many bytes could not be allocated.
    OutOfMemory(usize),
    /// The encoder failed, read nothing, or gave counts past the string or the buffer.
    EncoderFailed,
    /// What the encoder wrote is not UTF-8.
    NotUtf8,
}

/// The buffer a string that could be over its limit is measured in, piece by piece.
const MEASURE_BYTES: usize = 48 * 1024;

/// Copies a string of `units` UTF-16 units as UTF-8 of at most `max_bytes` bytes, through
/// `encode(from, buf)`, the host's encoder (`TextEncoder.encodeInto` of the string from
/// unit `from` into `buf`: the units read and the bytes written, `None` when it fails).
/// Buffers are reserved fallibly: one byte a unit and a little more
/// ([`utf8_first_buffer`]), grown for the rest at most twice ([`utf8_growth`]), so each
/// unit is encoded once. A string that could be over the limit (more than a third of it
/// in units) is measured first in a small buffer, and one over it takes nothing of its
/// size. What the encoder wrote is checked to be UTF-8, never assumed.
pub fn copy_utf8(units: usize, max_bytes: usize, mut encode: impl FnMut(usize, &mut [u8]) -> Option<(usize, usize)>) -> Utf8Copy {
    // A UTF-8 encoding has at least as many bytes as UTF-16 units.
    if units > max_bytes {
        return Utf8Copy::TooLarge(units);
    }
    // Checked counts: some units read (of those left), no more bytes than the buffer has.
    let mut step = |from: usize, buf: &mut [u8]| match encode(from, buf) {
        Some((read, written)) if read > 0 && read <= units - from && written <= buf.len() => Some((read, written)),
        _ => None,
    };
    let first = match utf8_first_buffer(units, max_bytes) {
        Some(first) => first,
        None => {
            let mut scratch = vec![0u8; MEASURE_BYTES];
            let (mut at, mut size) = (0, 0usize);
            while at < units {
                let Some((read, written)) = step(at, &mut scratch) else { return Utf8Copy::EncoderFailed };
                at += read;
                size = size.saturating_add(written);
            }
            if size > max_bytes {
                return Utf8Copy::TooLarge(size);
            }
            size
        }
    };
    let mut buf = Vec::new();
    if grow_zeroed(&mut buf, first).is_err() {
        return Utf8Copy::OutOfMemory(first);
    }
    let (mut read, mut written) = (0, 0);
    let mut grown = false;
    loop {
        let Some((r, w)) = step(read, buf.get_mut(written..).unwrap_or_default()) else { return Utf8Copy::EncoderFailed };
        read += r;
        written += w;
        if read == units {
            break;
        }
        // Not ASCII: the buffer grows by the estimate for the rest, which is encoded into
        // it. (Here the text cannot be over the limit: one that could was measured.)
        let len = written.saturating_add(utf8_growth(units - read, read, written, grown)).min(max_bytes);
        grown = true;
        buf.truncate(written);
        if grow_zeroed(&mut buf, len).is_err() {
            return Utf8Copy::OutOfMemory(len);
        }
    }
    if written > max_bytes {
        return Utf8Copy::TooLarge(written);
    }
    buf.truncate(written);
    if buf.capacity() > written + written / 8 {
        buf.shrink_to_fit();
    }
    String::from_utf8(buf).map_or(Utf8Copy::NotUtf8, Utf8Copy::Text)
}

/// Grows `buf` to `len` zeroed bytes by fallible allocation (nothing changes when it fails).
pub fn grow_zeroed(buf: &mut Vec<u8>, len: usize) -> Result<(), std::collections::TryReserveError> {
    buf.try_reserve_exact(len.saturating_sub(buf.len()))?;
    buf.resize(len, 0);
    Ok(())
}

crate::error::coded_enum! {
    /// Why an offset could not be converted between units.
    OffsetErrorKind {
        /// The offset is past the end of the text.
        OutOfRange => ("offset_out_of_range", "偏移量超出正文末尾。", "The offset is past the end of the text."),
        /// The UTF-16 offset falls between the two halves of a surrogate pair.
        SplitsSurrogatePair => ("splits_surrogate_pair", "UTF-16 偏移量落在代理对中间,不是字符边界。", "The UTF-16 offset splits a surrogate pair; it names no character boundary."),
        /// The UTF-8 offset falls inside the bytes of one character.
        SplitsUtf8Sequence => ("splits_utf8_sequence", "UTF-8 偏移量落在一个字符的字节中间,不是字符边界。", "The UTF-8 offset splits the bytes of one character; it names no character boundary."),
        /// The range is empty or reversed.
        EmptyRange => ("empty_range", "区间必须非空,采用左闭右开区间。", "The range must be non-empty and half-open: start < end."),
    }
}
