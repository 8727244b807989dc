//! Locating code-point offsets in UTF-8 text without scanning the whole text per
//! citation (a [`TextIndex`] is built once per snapshot), and converting offsets between
//! the units hosts count in: code points, UTF-16 units and UTF-8 bytes.

use crate::error::OffsetErrorKind;

/// How many code points lie between two checkpoints of a [`TextIndex`].
const STRIDE: usize = 64;

/// Code-point positions of one text: checkpoints every 64 code points, and the
/// code-point offset of every line feed (for line numbers).
#[derive(Clone, Debug, Default)]
pub struct TextIndex {
    chars: usize,
    ascii: bool,
    /// Byte offset of code point `k * STRIDE`; empty for ASCII text.
    checkpoints: Vec<usize>,
    /// Code-point offsets of `\n`, ascending.
    newlines: Vec<usize>,
}

impl TextIndex {
    /// Indexes `text` in one pass.
    pub fn new(text: &str) -> Self {
        let ascii = text.is_ascii();
        let mut newlines = Vec::new();
        let mut checkpoints = Vec::new();
        let chars = if ascii {
            newlines.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i));
            text.len()
        } else {
            let mut n = 0;
            for (byte, ch) in text.char_indices() {
                if n % STRIDE == 0 {
                    checkpoints.push(byte);
                }
                if ch == '\n' {
                    newlines.push(n);
                }
                n += 1;
            }
            n
        };
        TextIndex { chars, ascii, checkpoints, newlines }
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

    /// 1-based line of code point `cp`: one more than the line feeds before it.
    pub fn line_of(&self, cp: usize) -> usize {
        self.newlines.partition_point(|n| *n < cp) + 1
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
