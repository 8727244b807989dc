//! The Markdown artifact: the reference's layout, labels and escaping, every text from
//! the report or the sources passed through [`literal`], and hard size limits (an
//! oversize artifact is an error, never truncated).

use serde::Serialize;

use crate::assess::{Checked, ClaimState, Status};
use crate::clock::Clock;
use crate::visible::is_python_space;
use crate::contract::{ClaimKind, Report, Scope, SourceKind};
use crate::digest::sha256_hex_hosted;
use crate::error::{Coded, Lang};
use crate::review::ReviewErrorKind;
use std::fmt;
use crate::review::Review;
use crate::store::EvidenceStore;

/// Maximum artifact length in code points under the reference policy (the store's
/// policy sets it: `max_artifact_chars`).
pub const MAX_ARTIFACT_CHARS: usize = 8000;
/// Maximum artifact size in UTF-8 bytes under the reference policy (`max_artifact_bytes`).
pub const MAX_ARTIFACT_BYTES: usize = 24_000;

/// How text from the report and the sources is escaped in the artifact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Escaping {
    /// The default: a word that GitHub could make a link, a mention or a reference of
    /// (an e-mail address, a URL, `@name`, `#123`, `GH-123`, a commit SHA) is a code
    /// span; in every other word each ASCII punctuation character is backslash-escaped.
    /// Invisible format and control characters are shown as `⟦U+XXXX⟧` in both. So
    /// CommonMark and GitHub-flavoured renderers make no element from the text but those
    /// code spans (no link, autolink, image, HTML, heading, table, list, emphasis or
    /// footnote), it stays on its line, it displays as its bytes (no bidirectional
    /// reordering), and the rendered text is the text itself, whitespace collapsed.
    #[default]
    Hardened,
    /// Byte-identical to the reference's `literal()`: weaker — it leaves `:` `/` `@` and
    /// some other punctuation alone, so bare URLs autolink under GFM, and it keeps
    /// invisible characters.
    Reference,
}

impl Escaping {
    /// Escapes one text for the artifact.
    pub fn text(self, text: &str) -> String {
        let mut out = String::with_capacity(text.len() + 16);
        self.write(&mut out, text);
        out
    }

    /// Appends `text`, escaped for the artifact, to `out`.
    pub fn write(self, out: &mut impl Sink, text: &str) {
        match self {
            Escaping::Hardened => write_hardened(out, text),
            Escaping::Reference => collapse_and_escape(out, text, literal_plain, literal_char),
        }
    }
}

/// Where escaped text is written: a `String`, or the artifact's bounded buffer.
pub trait Sink {
    fn push(&mut self, c: char);
    fn push_str(&mut self, s: &str);
}

impl Sink for String {
    #[inline]
    fn push(&mut self, c: char) {
        String::push(self, c);
    }
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }
}

/// Appends `c` as `⟦U+XXXX⟧`.
fn push_shown<O: Sink>(out: &mut O, c: char) {
    crate::visible::shown(c).for_each(|c| out.push(c));
}

/// True for characters that render invisibly or reorder text, whatever precedes them
/// (see [`crate::visible`], which also shows stray variation selectors).
pub fn is_invisible(c: char) -> bool {
    crate::visible::is_hidden(c)
}

/// Collapses whitespace as Python's `" ".join(text.split())` and appends each word to
/// `out`: runs of characters that `plain` keeps as they are copied whole, every other
/// character written by `escape`, which also gets the character before it in the word.
fn collapse_and_escape<O: Sink>(out: &mut O, text: &str, plain: impl Fn(char) -> bool, escape: impl Fn(&mut O, Option<char>, char)) {
    let mut wrote = false;
    let mut space = false;
    let mut prev = None;
    // The start of the run of plain characters not yet copied.
    let mut run = 0;
    for (i, ch) in text.char_indices() {
        if plain(ch) {
            if space {
                out.push(' ');
                space = false;
            }
            wrote = true;
            prev = Some(ch);
            continue;
        }
        out.push_str(text.get(run..i).unwrap_or(""));
        run = i + ch.len_utf8();
        if is_python_space(ch) {
            space |= wrote;
            prev = None;
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        wrote = true;
        escape(out, prev, ch);
        prev = Some(ch);
    }
    out.push_str(text.get(run..).unwrap_or(""));
}

/// The hardened escaping (see [`Escaping::Hardened`]).
pub fn hardened(text: &str) -> String {
    Escaping::Hardened.text(text)
}

/// Appends `text` in the hardened escaping: whitespace collapsed as the reference does,
/// then each word either in a code span (when GitHub could make a link, a mention or a
/// reference of it, see [`github_could_link`]) or backslash-escaped.
fn write_hardened<O: Sink>(out: &mut O, text: &str) {
    let mut first = true;
    for word in text.split(is_python_space).filter(|w| !w.is_empty()) {
        if !first {
            out.push(' ');
        }
        first = false;
        if github_could_link(word) {
            write_code_span(out, word);
        } else {
            collapse_and_escape(out, word, hardened_plain, hardened_char);
        }
    }
}

/// True when GitHub could turn some of `word` (no whitespace in it) into a link, a
/// mention or a reference once it is rendered as text, whatever the escapes: cmark-gfm
/// finds e-mail, `mailto:` and `xmpp:` autolinks after escapes are decoded, and GitHub
/// finds `@name`, `#123`, `owner/repo#123`, `GH-123`, `user@sha` and commit SHAs in
/// the rendered text. Code spans are left alone by both. Deliberately wider than those
/// rules: any `@` or `#`, any `://` or `www.`, `GH-` before a digit, and any run of 7 or
/// more ASCII letters and digits that are all hex digits. A shown character (written as
/// `⟦U+XXXX⟧`) is never ASCII alphanumeric, so it ends a run as its marker does.
fn github_could_link(word: &str) -> bool {
    let b = word.as_bytes();
    if b.iter().any(|&c| c == b'@' || c == b'#') {
        return true;
    }
    let at = |i: usize, pat: &[u8]| b.get(i..i + pat.len()).is_some_and(|s| s.eq_ignore_ascii_case(pat));
    let mut run = 0usize;
    let mut hex = true;
    for (i, &c) in b.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            run += 1;
            hex &= c.is_ascii_hexdigit();
            continue;
        }
        if run >= 7 && hex {
            return true;
        }
        run = 0;
        hex = true;
        let starts = match c {
            b':' => at(i, b"://"),
            b'.' => i >= 3 && at(i - 3, b"www."),
            b'-' => i >= 2 && at(i - 2, b"gh-") && b.get(i + 1).is_some_and(u8::is_ascii_digit),
            _ => false,
        };
        if starts {
            return true;
        }
    }
    run >= 7 && hex
}

/// Appends `word` as a code span: a fence one backtick longer than the longest run of
/// backticks in it, a space inside each fence when the word starts or ends with a
/// backtick (CommonMark strips one from each end), and every shown character as
/// `⟦U+XXXX⟧`. Nothing inside is escaped: a code span shows its text as it is.
fn write_code_span<O: Sink>(out: &mut O, word: &str) {
    let (mut longest, mut run) = (0, 0);
    for c in word.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let pad = word.starts_with('`') || word.ends_with('`');
    let fence = |out: &mut O| (0..=longest).for_each(|_| out.push('`'));
    fence(out);
    if pad {
        out.push(' ');
    }
    let mut prev = None;
    for c in word.chars() {
        if crate::visible::is_shown(prev, c) {
            push_shown(out, c);
        } else {
            out.push(c);
        }
        prev = Some(c);
    }
    if pad {
        out.push(' ');
    }
    fence(out);
}

/// Letters, digits and CJK ideographs are never shown nor escaped (the fast path of a
/// text's most common characters; `is_shown` is false for them), and neither are CJK
/// punctuation (U+3001–303F) and the full-width forms (U+FF01–FF5E); none is a space.
#[inline]
fn hardened_plain(ch: char) -> bool {
    ch.is_ascii_alphanumeric() || matches!(ch, '\u{4e00}'..='\u{9fff}' | '\u{3001}'..='\u{303f}' | '\u{ff01}'..='\u{ff5e}')
}

/// One character of the hardened escaping outside a code span that is not
/// [`hardened_plain`] nor a space.
fn hardened_char<O: Sink>(out: &mut O, prev: Option<char>, ch: char) {
    if ch.is_ascii_punctuation() {
        out.push('\\');
        out.push(ch);
    } else if crate::visible::is_shown(prev, ch) {
        push_shown(out, ch);
    } else {
        out.push(ch);
    }
}

/// A rendered report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Artifact {
    pub content: String,
    pub content_digest: String,
    pub report_digest: String,
    pub status: Status,
}

/// Text as an inert Markdown literal: whitespace runs collapsed and trimmed as Python's
/// `" ".join(text.split())`, `& < >` as entities, and ``\ ` * _ { } [ ] ( ) # + - . ! | > ~``
/// backslash-escaped.
pub fn literal(text: &str) -> String {
    Escaping::Reference.text(text)
}

/// Characters [`literal`] keeps as they are (neither escaped nor Python whitespace).
#[inline]
fn literal_plain(ch: char) -> bool {
    !is_python_space(ch) && !matches!(ch, '&' | '<' | '>' | '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '(' | ')' | '#' | '+' | '-' | '.' | '!' | '|' | '~')
}

/// One character [`literal`] escapes.
fn literal_char<O: Sink>(out: &mut O, _: Option<char>, ch: char) {
    match ch {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        _ => {
            out.push('\\');
            out.push(ch);
        }
    }
}

/// Renders the artifact; refuses an invalid report and an oversize artifact.
pub fn render(
    scope: &Scope,
    report: &Report,
    store: &EvidenceStore,
    reviews: &[Review],
    clock: &Clock,
    escaping: Escaping,
) -> Result<Artifact, RenderError> {
    render_in(scope, report, store, reviews, clock, escaping, None, Lang::Zh)
}

/// [`render`] with a review key (see [`crate::assess::check_with`]) and the labels in `lang`.
#[allow(clippy::too_many_arguments)]
pub fn render_in(
    scope: &Scope,
    report: &Report,
    store: &EvidenceStore,
    reviews: &[Review],
    clock: &Clock,
    escaping: Escaping,
    review_key: Option<&[u8]>,
    lang: Lang,
) -> Result<Artifact, RenderError> {
    let options = crate::assess::CheckOptions { review_key, ..Default::default() };
    render_opts(scope, report, store, reviews, clock, escaping, options, lang).map_err(|f| f.error)
}

/// [`render_in`] with every check option (`reviews: "report"` leaves a stale, foreign or
/// second review out instead of refusing). The artifact's limits are the store's policy's.
#[allow(clippy::too_many_arguments)]
pub fn render_opts(
    scope: &Scope,
    report: &Report,
    store: &EvidenceStore,
    reviews: &[Review],
    clock: &Clock,
    escaping: Escaping,
    options: crate::assess::CheckOptions<'_>,
    lang: Lang,
) -> Result<Artifact, RenderFailure> {
    let checked = crate::assess::check_detailed(scope, report, store, reviews, options).map_err(|(k, detail)| RenderFailure { error: k.into(), detail })?;
    render_checked_detailed(report, &checked, clock, escaping, lang).map_err(|(k, detail)| RenderFailure { error: k.into(), detail })
}

/// Why [`render_opts`] failed: the error, and for an oversize artifact its size and the
/// limit it is over (none under `compat: "reference"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderFailure {
    pub error: RenderError,
    pub detail: Option<Box<crate::error::Detail>>,
}

impl RenderFailure {
    pub fn code(&self) -> &'static str {
        self.error.code()
    }
    /// The message in a language, with the size, the limit and how to raise it.
    pub fn message_in(&self, lang: Lang) -> String {
        let base = match self.error {
            RenderError::Review(k) => k.message_in(lang),
            RenderError::Render(k) => k.message_in(lang),
        };
        self.detail.as_ref().map_or_else(|| base.to_owned(), |d| d.message(base, lang))
    }
}


/// The artifact's fixed texts in one language.
struct Labels {
    candidate: &'static str,
    status: &'static str,
    exported: &'static str,
    digest: &'static str,
    fixture: &'static str,
    claims: &'static str,
    fact: &'static str,
    inference: &'static str,
    colon: &'static str,
    rationale: &'static str,
    review: &'static str,
    sep: &'static str,
    conflicts_gaps: &'static str,
    conflict: &'static str,
    gap: &'static str,
    none: &'static str,
    passages: &'static str,
    citation: &'static str,
    source: &'static str,
    kind: &'static str,
    revision: &'static str,
    sha: &'static str,
    fetched: &'static str,
    range: &'static str,
    lines: &'static str,
    states: [&'static str; 6],
}

const ZH: Labels = Labels {
    candidate: "> 候选产物;存在性校验与审阅记录不等于事实真值证明。",
    status: "状态:",
    exported: ";导出时间:",
    digest: "结构摘要:",
    fixture: "> 含人工测试资料,仅用于验证代码,不能作为研究结论。",
    claims: "## 逐项论断",
    fact: "来源事实陈述",
    inference: "推断",
    colon: ":",
    rationale: " 推导说明:",
    review: " 审阅记录:",
    sep: ";",
    conflicts_gaps: "## 冲突与缺口",
    conflict: "- 冲突 ",
    gap: "- 缺口:",
    none: "未登记显式冲突或缺口;这不表示资料完整。",
    passages: "## 原文引用",
    citation: "### 引用 ",
    source: "来源:",
    kind: ";类型:",
    revision: "版本:",
    sha: ";正文 SHA-256:",
    fetched: "获取时间:",
    range: ";字符区间:",
    lines: ";行:",
    // supported, insufficient, contradicted, disputed, pending_review, invalid
    states: ["审阅认为支持", "证据不足", "审阅认为反驳", "存在冲突", "支持关系待审阅", "引用无效"],
};

const EN: Labels = Labels {
    candidate: "> Candidate artifact; existence checks and review records are not proof of truth.",
    status: "Status: ",
    exported: "; exported at: ",
    digest: "Report digest: ",
    fixture: "> Contains made-up test material, for checking code only; not a research conclusion.",
    claims: "## Claims",
    fact: "sourced fact",
    inference: "inference",
    colon: ": ",
    rationale: " Rationale: ",
    review: " Review: ",
    sep: "; ",
    conflicts_gaps: "## Conflicts and gaps",
    conflict: "- Conflict ",
    gap: "- Gap: ",
    none: "No conflicts or gaps recorded; this does not mean the sources are complete.",
    passages: "## Cited passages",
    citation: "### Citation ",
    source: "Source: ",
    kind: "; kind: ",
    revision: "Revision: ",
    sha: "; text SHA-256: ",
    fetched: "Fetched at: ",
    range: "; code points: ",
    lines: "; lines: ",
    states: ["reviewed as supported", "insufficient evidence", "reviewed as contradicted", "in conflict", "awaiting review", "invalid citation"],
};

/// Renders from an assessment already made (see [`crate::assess::check`]), the labels in `lang`.
pub fn render_checked_in(report: &Report, checked: &Checked<'_>, clock: &Clock, escaping: Escaping, lang: Lang) -> Result<Artifact, RenderErrorKind> {
    render_checked_detailed(report, checked, clock, escaping, lang).map_err(|(k, _)| k)
}

/// [`render_checked_in`], an oversize artifact refused with its size and the limit it is
/// over (the store's policy's; no detail under `compat: "reference"`).
pub fn render_checked_detailed(
    report: &Report,
    checked: &Checked<'_>,
    clock: &Clock,
    escaping: Escaping,
    lang: Lang,
) -> Result<Artifact, (RenderErrorKind, Option<Box<crate::error::Detail>>)> {
    let t = match lang {
        Lang::Zh => &ZH,
        Lang::En => &EN,
    };
    let label = |state: ClaimState| match state {
        ClaimState::Supported => t.states[0],
        ClaimState::Insufficient => t.states[1],
        ClaimState::Contradicted => t.states[2],
        ClaimState::Disputed => t.states[3],
        ClaimState::PendingReview => t.states[4],
        ClaimState::Invalid => t.states[5],
    };
    let a = &checked.assessment;
    if a.status == Status::Invalid {
        return Err((RenderErrorKind::ReportInvalid, None));
    }
    let numbers: std::collections::BTreeMap<&str, usize> =
        checked.citations.iter().enumerate().map(|(i, (c, _))| (c.citation_id.as_str(), i + 1)).collect();
    let number = |citation_id: &str| numbers.get(citation_id).copied().unwrap_or(0);
    let fixture = checked.citations.iter().any(|(_, s)| s.spec.kind == SourceKind::Fixture);

    // Each line is written with the line feed that ends it (an empty line is "\n"); the
    // reference joins its lines with "\n", so the last line feed is dropped at the end.
    // Written into a buffer that stops at the policy's limit (plus the last line feed,
    // dropped at the end): an oversize artifact is never built whole.
    let p = &checked.policy;
    let bytes_bind = p.max_artifact_bytes <= p.max_artifact_chars.saturating_mul(4);
    let room = p.max_artifact_bytes.min(p.max_artifact_chars.saturating_mul(4)).saturating_add(1);
    let mut out = Capped::new(room, artifact_size_hint(report, checked));
    let o = &mut out;
    let lit = |o: &mut Capped, text: &str| escaping.write(o, text);
    push_all(o, &["# "]);
    lit(o, &report.title);
    push_all(o, &["\n\n", t.candidate, "\n\n", t.status, a.status.as_str(), t.exported, &clock.now(), "\n\n"]);
    push_all(o, &[t.digest, &a.report_digest, "\n\n"]);
    if fixture {
        push_all(o, &[t.fixture, "\n\n"]);
    }
    push_all(o, &[t.claims, "\n\n"]);
    for claim in &report.claims {
        if o.stop.is_some() {
            break;
        }
        let state = label(a.state(&claim.claim_id).unwrap_or(ClaimState::Invalid));
        let kind = match claim.kind {
            ClaimKind::Fact => t.fact,
            ClaimKind::Inference => t.inference,
        };
        o.push_str("- **");
        lit(o, &claim.claim_id);
        push_all(o, &[" / ", kind, " / ", state, "**", t.colon]);
        lit(o, &claim.text);
        o.push(' ');
        for (i, c) in claim.citations.iter().enumerate() {
            let n = number(&c.citation_id);
            if i > 0 {
                o.push(' ');
            }
            o.push('[');
            push_number(o, n as u64);
            o.push_str("](#source-");
            push_number(o, n as u64);
            o.push(')');
        }
        o.push_str("\n\n");
        // The reference's continuation lines have one space, which ends the list item;
        // hardened ones have the two that keep them inside it.
        let indent = if escaping == Escaping::Hardened { " " } else { "" };
        if !claim.rationale.is_empty() {
            push_all(o, &[indent, t.rationale]);
            lit(o, &claim.rationale);
            o.push_str("\n\n");
        }
        if let Some(review) = checked.reviews.get(claim.claim_id.as_str()) {
            push_all(o, &[indent, t.review]);
            lit(o, review.verdict.as_str());
            o.push_str(t.sep);
            lit(o, &review.note);
            o.push_str(t.sep);
            lit(o, &review.reviewed_at);
            o.push_str("\n\n");
        }
    }
    push_all(o, &[t.conflicts_gaps, "\n\n"]);
    for conflict in &report.conflicts {
        o.push_str(t.conflict);
        for (i, id) in conflict.claim_ids.iter().enumerate() {
            if i > 0 {
                o.push_str(", ");
            }
            // The reference leaves conflict ids as they are (identifiers); hardened escapes them too.
            match escaping {
                Escaping::Reference => o.push_str(id),
                Escaping::Hardened => lit(o, id),
            }
        }
        o.push_str(t.colon);
        lit(o, &conflict.reason);
        o.push_str("\n\n");
    }
    for gap in &report.gaps {
        o.push_str(t.gap);
        lit(o, gap);
        o.push_str("\n\n");
    }
    if report.conflicts.is_empty() && report.gaps.is_empty() {
        push_all(o, &[t.none, "\n\n"]);
    }
    push_all(o, &[t.passages, "\n\n"]);
    for (i, (citation, snapshot)) in checked.citations.iter().enumerate() {
        if o.stop.is_some() {
            break;
        }
        let n = (i + 1) as u64;
        let start = usize::try_from(citation.start).unwrap_or(usize::MAX);
        let end = usize::try_from(citation.end).unwrap_or(usize::MAX);
        let start_line = snapshot.index.line_of(&snapshot.content, start);
        let end_line = snapshot.index.line_of(&snapshot.content, end.saturating_sub(1));
        o.push_str("<a id=\"source-");
        push_number(o, n);
        push_all(o, &["\"></a>\n\n", t.citation]);
        push_number(o, n);
        o.push_str(t.colon);
        lit(o, &snapshot.spec.title);
        push_all(o, &["\n\n", t.source]);
        lit(o, &snapshot.spec.locator);
        o.push_str(t.kind);
        // A kind is an identifier that a custom policy may widen: hardened escapes it too.
        match escaping {
            Escaping::Reference => o.push_str(snapshot.spec.kind.as_str()),
            Escaping::Hardened => lit(o, snapshot.spec.kind.as_str()),
        }
        push_all(o, &["\n\n", t.revision]);
        push_number(o, citation.source_ref.revision);
        push_all(o, &[t.sha, &citation.source_ref.digest, "\n\n", t.fetched]);
        lit(o, &snapshot.fetched_at);
        push_all(o, &[t.range, "["]);
        push_number(o, citation.start);
        o.push_str(", ");
        push_number(o, citation.end);
        push_all(o, &[")", t.lines]);
        push_number(o, start_line as u64);
        o.push('—');
        push_number(o, end_line as u64);
        o.push_str("\n\n> ");
        lit(o, &citation.quote);
        o.push_str("\n\n");
    }
    use crate::error::Detail;
    let too_large = |detail: Detail| (RenderErrorKind::ArtifactTooLarge, (!p.reference_messages).then(|| Box::new(detail)));
    match out.stop {
        // Over the limit that binds first: the size is where writing stopped, one past it.
        Some(Stop::Full) if bytes_bind => return Err(too_large(p.limit_detail(p.max_artifact_bytes.saturating_add(1), "bytes", "max_artifact_bytes"))),
        Some(Stop::Full) => return Err(too_large(p.limit_detail(p.max_artifact_chars.saturating_add(1), "code_points", "max_artifact_chars"))),
        Some(Stop::NoMemory(bytes)) => return Err((RenderErrorKind::OutOfMemory, Some(Box::new(Detail::allocation(bytes))))),
        None => {}
    }
    let mut content = out.out;
    content.pop();
    // A text has no more code points than bytes: count them only when that could matter.
    let chars = if content.len() <= p.max_artifact_chars { content.len() } else { content.chars().count() };
    if content.len() > p.max_artifact_bytes {
        return Err(too_large(p.limit_detail(content.len(), "bytes", "max_artifact_bytes")));
    }
    if chars > p.max_artifact_chars {
        return Err(too_large(p.limit_detail(chars, "code_points", "max_artifact_chars")));
    }
    Ok(Artifact {
        content_digest: sha256_hex_hosted(&content),
        content,
        report_digest: a.report_digest.clone(),
        status: a.status,
    })
}

/// Appends each text in turn.
fn push_all(out: &mut Capped, parts: &[&str]) {
    for part in parts {
        out.push_str(part);
    }
}

/// Appends an integer's decimal digits.
fn push_number(out: &mut Capped, n: u64) {
    out.push_str(crate::digest::u64_digits(n, &mut [0; 20]));
}

/// The artifact as it is written: it takes text while it stays within `room` bytes, then
/// nothing more, and it grows by fallible allocation (doubling, never past `room`).
struct Capped {
    out: String,
    room: usize,
    stop: Option<Stop>,
}

/// Why [`Capped`] took no more text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// The next text would have passed `room`.
    Full,
    /// Growing the buffer to this many bytes failed.
    NoMemory(usize),
}

impl Capped {
    /// An empty buffer of `hint` bytes' capacity (at most `room`).
    fn new(room: usize, hint: usize) -> Capped {
        let mut c = Capped { out: String::new(), room, stop: None };
        c.grow(hint.min(room));
        c
    }

    /// Whether `add` more bytes fit; grows the buffer when they fit but it is full.
    #[inline]
    fn fits(&mut self, add: usize) -> bool {
        if self.stop.is_some() {
            return false;
        }
        let need = self.out.len().saturating_add(add);
        if need > self.room {
            self.stop = Some(Stop::Full);
            return false;
        }
        need <= self.out.capacity() || self.grow(need)
    }

    #[cold]
    fn grow(&mut self, need: usize) -> bool {
        let target = need.max(self.out.capacity().saturating_mul(2)).min(self.room);
        let ok = self.out.try_reserve_exact(target.saturating_sub(self.out.len())).is_ok();
        if !ok {
            self.stop = Some(Stop::NoMemory(target));
        }
        ok
    }
}

impl Sink for Capped {
    #[inline]
    fn push(&mut self, c: char) {
        if self.fits(c.len_utf8()) {
            self.out.push(c);
        }
    }
    #[inline]
    fn push_str(&mut self, s: &str) {
        if self.fits(s.len()) {
            self.out.push_str(s);
        }
    }
}

/// A little more than the artifact's size in most cases (one allocation): the texts it
/// quotes, a little for their escapes, and its fixed lines.
fn artifact_size_hint(report: &Report, checked: &Checked<'_>) -> usize {
    let claims: usize = report.claims.iter().map(|c| c.claim_id.len() + c.text.len() + c.rationale.len() + 24 * c.citations.len() + 96).sum();
    let reviews: usize = checked.reviews.values().map(|r| r.note.len() + 96).sum();
    let notes: usize = report.conflicts.iter().map(|c| c.reason.len() + 64).sum::<usize>() + report.gaps.iter().map(|g| g.len() + 24).sum::<usize>();
    let citations: usize =
        checked.citations.iter().map(|(c, s)| c.quote.len() + s.spec.title.len() + s.spec.locator.len() + s.fetched_at.len() + 320).sum();
    let escapes = (claims + reviews + notes + citations) / 8;
    report.title.len() + claims + reviews + notes + citations + escapes + 640
}

impl crate::error::Coded for RenderFailure {
    fn code(&self) -> &'static str {
        RenderFailure::code(self)
    }
    fn message(&self, lang: Lang) -> String {
        self.message_in(lang)
    }
    /// An oversize artifact's size, limit and policy field as `detail`.
    fn details(&self) -> Vec<(&'static str, serde_json::Value)> {
        self.detail.as_ref().and_then(|d| serde_json::to_value(&**d).ok()).map(|v| vec![("detail", v)]).unwrap_or_default()
    }
}

// ---- the render's errors ------------------------------------------------------------

crate::error::coded_enum! {
    /// Why the artifact could not be rendered.
    RenderErrorKind {
        /// The report has invalid citations; an invalid report is never exported.
        ReportInvalid => ("report_invalid", "报告引用无效,拒绝导出。", "The report has invalid citations; it is not exported."),
        /// The artifact is over 8,000 code points or 24,000 UTF-8 bytes; it is never truncated.
        ArtifactTooLarge => ("artifact_too_large", "产物超过第七篇保存上限;应拆分报告,不能截断引用。", "The artifact is over the storage limit; split the report rather than truncating citations."),
        /// The memory for the artifact could not be allocated (the detail gives how many bytes).
        OutOfMemory => ("out_of_memory", "内存不足,无法分配产物所需的内存。", "Out of memory: the artifact's memory could not be allocated."),
    }
}

/// Why rendering failed: a review problem found while assessing, or a render rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// The reviews could not be used (see [`ReviewErrorKind`]).
    Review(ReviewErrorKind),
    /// A render rule refused the export.
    Render(RenderErrorKind),
}

impl RenderError {
    /// The stable code.
    pub fn code(self) -> &'static str {
        match self {
            Self::Review(k) => k.code(),
            Self::Render(k) => k.code(),
        }
    }
    /// The message.
    pub fn message(self) -> &'static str {
        match self {
            Self::Review(k) => k.message(),
            Self::Render(k) => k.message(),
        }
    }
}
impl Coded for RenderError {
    fn code(&self) -> &'static str {
        (*self).code()
    }
    fn message(&self, lang: Lang) -> String {
        match self {
            Self::Review(k) => k.message_in(lang).to_owned(),
            Self::Render(k) => k.message_in(lang).to_owned(),
        }
    }
}

impl From<ReviewErrorKind> for RenderError {
    fn from(k: ReviewErrorKind) -> Self {
        Self::Review(k)
    }
}
impl From<RenderErrorKind> for RenderError {
    fn from(k: RenderErrorKind) -> Self {
        Self::Render(k)
    }
}
impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(RenderError::message(*self))
    }
}
impl std::error::Error for RenderError {}
