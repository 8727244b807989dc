//! Errors, one enum per area. Every variant has a stable `code()` (snake_case, never
//! renamed once published) and a `message()` in each language: `message()` alone is the
//! reference's Chinese text (what `compat: "reference"` gives, byte for byte).
//!
//! Checking a report yields data (an [`crate::assess::Assessment`] with a list of issues);
//! these errors are for input that cannot be used at all, or for misuse.

use std::fmt;

/// The language of messages and artifact labels. Every code and every label has a
/// Chinese text (the reference's) and an English one. There is no fixed default: a call
/// without `lang` follows the host's locale ([`crate::host::lang`]), and `compat:
/// "reference"` gives Chinese.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "zh" => Some(Lang::Zh),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language of a host's locale: Chinese for a Chinese one (`zh`, `zh_CN.UTF-8`,
    /// `zh-TW`, `zh@…`, any case), English for anything else (`en-US`, `C.UTF-8`, `""`).
    /// A browser's `navigator.language` and a POSIX `LANG` read the same way.
    pub fn from_locale(locale: &str) -> Lang {
        let b = locale.trim().as_bytes();
        let chinese = b.get(..2).is_some_and(|p| p.eq_ignore_ascii_case(b"zh")) && matches!(b.get(2), None | Some(b'_' | b'-' | b'.' | b'@'));
        if chinese {
            Lang::Zh
        } else {
            Lang::En
        }
    }
}

/// What every error of the library is: a stable code, a message in a language, and for a
/// broken contract the list of issues. The binding turns any `Coded` into the one JS
/// error class that fits (`ContractError` when it has issues, else `EvidenceError`).
pub trait Coded {
    /// The stable code.
    fn code(&self) -> &'static str;
    /// The message in a language.
    fn message(&self, lang: Lang) -> String;
    /// Every violation, localised, for a broken contract; `None` for any other error.
    fn issues(&self, _lang: Lang) -> Option<(&'static str, Vec<Violation>)> {
        None
    }
    /// Properties the thrown error carries besides `code`, `message` and `issues`
    /// (the document of a catalogue error, the source and counts of a locate error).
    fn details(&self) -> Vec<(&'static str, serde_json::Value)> {
        Vec::new()
    }
    /// [`Coded::message`] and [`Coded::issues`] together, as a thrown error carries them
    /// (a broken contract localises its violations once for both).
    fn message_and_issues(&self, lang: Lang) -> (String, Option<(&'static str, Vec<Violation>)>) {
        (self.message(lang), self.issues(lang))
    }
}



/// One rule of a contract that an input breaks, with the JSON path where it broke.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "ContractIssue"))]
pub struct Violation {
    /// JSON Pointer (RFC 6901) to the offending value; `""` is the whole input.
    pub path: String,
    /// Stable code of the rule, see [`ViolationCode`].
    #[cfg_attr(test, ts(type = "IssueCode"))]
    pub code: ViolationCode,
    /// Human-readable message (for the reference's own rules, its Chinese text).
    pub message: String,
}

/// The rule a [`Violation`] breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ViolationCode {
    /// The input is not well-formed JSON.
    InvalidJson,
    /// The input is larger than the configured byte limit; it was not parsed.
    InputTooLarge,
    /// The JSON nests deeper than the parser allows.
    TooDeep,
    /// An object has the same key twice.
    DuplicateKey,
    /// A required field is absent.
    Missing,
    /// A field that the contract does not define is present.
    ExtraField,
    /// The value has the wrong JSON type (no coercion: `"1"` is not an integer).
    WrongType,
    /// An integer is below its minimum.
    TooSmall,
    /// A string or list is shorter than its minimum.
    TooShort,
    /// A string or list is longer than its maximum.
    TooLong,
    /// A string does not match its pattern (identifier, filename, digest).
    PatternMismatch,
    /// A string is not one of the allowed literals.
    NotAllowed,
    /// A citation's range is empty or reversed (`end <= start`).
    EmptyRange,
    /// A claim's text is blank, or an inference has a blank rationale.
    BlankClaim,
    /// Two claims share one `claim_id`.
    DuplicateClaimId,
    /// One claim cites the same `citation_id` twice.
    DuplicateCitationInClaim,
    /// One `citation_id` names two different citations.
    CitationIdConflict,
    /// A conflict lists the same claim twice.
    DuplicateConflictMember,
    /// A conflict names a claim that the report does not have.
    UnknownConflictMember,
    /// Two documents share one id.
    DuplicateDocumentId,
    /// More violations than are listed: the last entry counts the rest.
    TooManyViolations,
    /// The input holds more array items and object entries than are read.
    TooManyValues,
    /// The JSON text starts with a byte order mark (U+FEFF).
    Bom,
    /// Citations that are still quote-only (a draft's: no range): one violation for all.
    QuoteOnlyCitations,
}

impl ViolationCode {
    /// The stable code.
    pub const fn code(self) -> &'static str {
        match self {
            Self::InvalidJson => "invalid_json",
            Self::InputTooLarge => "input_too_large",
            Self::TooDeep => "too_deep",
            Self::DuplicateKey => "duplicate_key",
            Self::Missing => "missing",
            Self::ExtraField => "extra_field",
            Self::WrongType => "wrong_type",
            Self::TooSmall => "too_small",
            Self::TooShort => "too_short",
            Self::TooLong => "too_long",
            Self::PatternMismatch => "pattern_mismatch",
            Self::NotAllowed => "not_allowed",
            Self::EmptyRange => "empty_range",
            Self::BlankClaim => "blank_claim",
            Self::DuplicateClaimId => "duplicate_claim_id",
            Self::DuplicateCitationInClaim => "duplicate_citation_in_claim",
            Self::CitationIdConflict => "citation_id_conflict",
            Self::DuplicateConflictMember => "duplicate_conflict_member",
            Self::UnknownConflictMember => "unknown_conflict_member",
            Self::DuplicateDocumentId => "duplicate_document_id",
            Self::TooManyViolations => "too_many_violations",
            Self::TooManyValues => "too_many_values",
            Self::Bom => "bom",
            Self::QuoteOnlyCitations => "quote_only_citations",
        }
    }

    /// Every code.
    pub const ALL: &'static [ViolationCode] = &[
        Self::InvalidJson, Self::InputTooLarge, Self::TooDeep, Self::DuplicateKey, Self::Missing, Self::ExtraField,
        Self::WrongType, Self::TooSmall, Self::TooShort, Self::TooLong, Self::PatternMismatch, Self::NotAllowed,
        Self::EmptyRange, Self::BlankClaim, Self::DuplicateClaimId, Self::DuplicateCitationInClaim, Self::CitationIdConflict,
        Self::DuplicateConflictMember, Self::UnknownConflictMember, Self::DuplicateDocumentId, Self::TooManyViolations,
        Self::TooManyValues, Self::Bom, Self::QuoteOnlyCitations,
    ];

    /// Every code, in the order of [`Self::ALL`].
    pub const CODES: [&'static str; Self::ALL.len()] = {
        let mut out = [""; Self::ALL.len()];
        let mut i = 0;
        while i < Self::ALL.len() {
            // Evaluated at compile time: an index out of range fails the build.
            #[allow(clippy::indexing_slicing)]
            {
                out[i] = Self::ALL[i].code();
            }
            i += 1;
        }
        out
    };

    /// The reference's message for its cross-field rules, in a language.
    pub fn reference_message_in(self, lang: Lang) -> Option<&'static str> {
        match lang {
            Lang::Zh => self.reference_message(),
            Lang::En => match self {
                Self::EmptyRange => Some("A citation range must be non-empty and half-open (start < end)."),
                Self::BlankClaim => Some("A claim must not be blank; an inference must state its rationale."),
                Self::DuplicateClaimId => Some("Two claims share one claim id."),
                Self::DuplicateCitationInClaim => Some("A claim cites the same citation twice."),
                Self::CitationIdConflict => Some("One citation id names two different passages."),
                Self::DuplicateConflictMember => Some("A conflict lists the same claim twice."),
                Self::UnknownConflictMember => Some("A conflict names a claim that the report does not have."),
                _ => None,
            },
        }
    }

    /// The reference's own message for its cross-field rules; `None` for the type and
    /// length rules, whose texts are the validation library's, not the contract's.
    pub fn reference_message(self) -> Option<&'static str> {
        match self {
            Self::EmptyRange => Some("引用区间必须非空,采用左闭右开区间。"),
            Self::BlankClaim => Some("论断不能为空;推断必须说明推导依据。"),
            Self::DuplicateClaimId => Some("论断标识重复。"),
            Self::DuplicateCitationInClaim => Some("同一论断重复引用。"),
            Self::CitationIdConflict => Some("同一引用标识对应不同片段。"),
            Self::DuplicateConflictMember => Some("冲突成员重复。"),
            Self::UnknownConflictMember => Some("冲突关联了不存在的论断。"),
            _ => None,
        }
    }
}

impl serde::Serialize for ViolationCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// An input broke its contract. Lists every violation found, never only the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractError {
    /// What was being parsed (`report`, `scope`, `specs`, `citation`, `read_result`, `review`, `bundle`…).
    pub subject: &'static str,
    /// Every violation, in document order.
    pub violations: Vec<Violation>,
}

impl ContractError {
    /// The stable code of every contract error.
    pub fn code(&self) -> &'static str {
        "contract"
    }
    /// A one-line summary naming the first violation and how many there are (English).
    pub fn message(&self) -> String {
        self.summary(Lang::En)
    }

    /// [`Self::message`] in a language. The summary is in the language of the violation's
    /// message: a message that has no Chinese text (serde's, an importer's) stays in an
    /// English sentence, so that no summary mixes the two.
    pub fn summary(&self, lang: Lang) -> String {
        let subject = self.subject;
        let Some(v) = self.violations.first() else {
            return match lang {
                Lang::Zh => format!("{subject} 不符合契约"),
                Lang::En => format!("{subject} breaks its contract"),
            };
        };
        let more = self.violations.len() - 1;
        let path = if v.path.is_empty() { "/" } else { v.path.as_str() };
        let m = &v.message;
        match (lang, more) {
            (Lang::Zh, 0) if crate::error::has_cjk(m) => format!("{subject} 不符合契约(位置 {path}):{m}"),
            (Lang::Zh, _) if crate::error::has_cjk(m) => format!("{subject} 不符合契约(位置 {path}):{m}(另有 {more} 处)"),
            (_, 0) => format!("{subject} breaks its contract at {path}: {m}"),
            _ => format!("{subject} breaks its contract at {path}: {m} (and {more} more)"),
        }
    }
}

impl ContractError {
    /// The error with the reference's cross-field messages in a language.
    pub fn localized(&self, lang: Lang) -> ContractError {
        let mut e = self.clone();
        for v in &mut e.violations {
            if let Some(m) = v.code.reference_message_in(lang) {
                // The reference's text, in the language; a subject after it stays (and
                // in the reference's own language the message stays as it is).
                let rest = v.code.reference_message().and_then(|zh| v.message.strip_prefix(zh)).unwrap_or("");
                if v.message.strip_prefix(m) != Some(rest) {
                    v.message = format!("{m}{rest}");
                }
            }
            if v.code == ViolationCode::QuoteOnlyCitations {
                if let Some(m) = quote_only_in(&v.message, lang) {
                    v.message = m;
                }
            }
            if lang == Lang::Zh || Hint::of(&v.message).is_some() {
                v.message = rule_text_in(&v.message, lang);
            }
        }
        e
    }
}

/// The one violation of an input whose citations are still quote-only: how many, and
/// which (`subjects`: their JSON paths, with the draft's citation id when it gave one).
pub fn quote_only_message(count: usize, subjects: &str, lang: Lang) -> String {
    match (lang, count) {
        (Lang::En, 1) => format!("1 citation has no range: run `evidence-check locate` first: {subjects}"),
        (Lang::En, n) => format!("{n} citations have no range: run `evidence-check locate` first: {subjects}"),
        (Lang::Zh, n) => format!("{n} 条引用没有区间:请先运行 `evidence-check locate`:{subjects}"),
    }
}

/// [`quote_only_message`] in English, as the reader made it, in `lang`.
fn quote_only_in(message: &str, lang: Lang) -> Option<String> {
    let digits = message.find(|c: char| !c.is_ascii_digit())?;
    let count: usize = message.get(..digits)?.parse().ok()?;
    let (_, subjects) = message.split_once("first: ")?;
    let en = quote_only_message(count, subjects, Lang::En);
    (en == message).then(|| quote_only_message(count, subjects, lang))
}

/// The library's texts of the type and length rules (the checker's and the string
/// rules'), with `{}` for what they name: each English text and its Chinese one.
pub const RULE_TEXTS: &[(&str, &str)] = &[
    ("Input should be a string, not {}", "应为字符串,实为{}"),
    ("String should have at least {} characters", "字符串至少应有 {} 个字符"),
    ("String should have at most {} characters, not {}", "字符串至多 {} 个字符,实有 {} 个"),
    ("String should match pattern '{}'", "字符串应匹配模式 '{}'"),
    ("Input should be a whole number from {} to {}, not {}", "应为 {} 到 {} 之间的整数,实为{}"),
    ("Input should be greater than or equal to {}", "应大于或等于 {}"),
    ("Input should be an object, not {}", "应为对象,实为{}"),
    ("Input should be an array, not {}", "应为数组,实为{}"),
    ("Extra inputs are not permitted", "不允许有此字段"),
    ("Field required", "缺少必填字段"),
    ("List should have at least {} item, not {}", "列表至少应有 {} 项,实有 {} 项"),
    ("List should have at least {} items, not {}", "列表至少应有 {} 项,实有 {} 项"),
    ("List should have at most {} items, not {}", "列表至多 {} 项,实有 {} 项"),
    // The JSON reader's and the argument reader's.
    ("the input is {} bytes, over the limit of {} bytes; it was not parsed", "输入为 {} 字节,超过上限 {} 字节;未解析"),
    ("{} is at least {} bytes of JSON, over the limit of {} bytes; it was not read", "{} 至少有 {} 字节的 JSON,超过上限 {} 字节;未读取"),
    ("the JSON nests deeper than {} levels ({}); it was not read", "JSON 嵌套超过 {} 层({});未读取"),
    (
        "the JSON text starts with a byte order mark (U+FEFF) at line {} column {} (byte {}); save it as UTF-8 without a BOM, or remove the mark",
        "JSON 文本在第 {} 行第 {} 列(第 {} 字节)以字节顺序标记(U+FEFF)开头;请存为不带 BOM 的 UTF-8,或删去该标记",
    ),
    (
        "the input holds {} array items and object entries, over the {} that are read; the rest were counted, not checked",
        "输入含有 {} 个数组项和对象条目,超过读取上限 {} 个;其余只计数,未检查",
    ),
    (
        "{} more violations were found and are not listed (at most {} are; past them a list over its limit is not checked item by item, so there may be more)",
        "另有 {} 处违规未列出(至多列出 {} 处;此后超出上限的列表不再逐项检查,实际可能更多)",
    ),
    // The importers' (a request's or response's shape, the host's source ids).
    ("the request needs a messages array", "请求需要 messages 数组"),
    ("document {} is a text document without a data string", "文档 {} 是文本文档,却没有 data 字符串"),
    ("document {}: only text blocks can be checked", "文档 {}:只能核对文本块"),
    ("document {} is a content document without a content list", "文档 {} 是内容文档,却没有 content 列表"),
    ("source id {} of document {} is not an identifier", "来源标识 {} 不是合法标识符(文档 {})"),
    ("source id {} is not an identifier", "来源标识 {} 不是合法标识符"),
    ("the response needs a content array", "响应需要 content 数组"),
    ("the response has {} citations, over the limit of {} citations a response (max_response_citations)", "响应含有 {} 条引用,超过每个响应 {} 条的上限(max_response_citations)"),
    ("a citation must be an object", "引用必须是对象"),
    (
        "a {} citation cites a search result, not a document of the request: its text is not the host's to check",
        "{} 引用引的是搜索结果,不是请求中的文档:其文本不由宿主核对",
    ),
    ("a citation needs a document_index", "引用需要 document_index"),
    ("document {} is not in the request ({} documents)", "文档 {} 不在请求中(请求共有 {} 个文档)"),
    ("page_location cites PDF pages of {}: PDF text is not ours to extract; send the document as text", "page_location 引用的是{}的 PDF 页:本库不提取 PDF 文本;请以文本形式发送该文档"),
    ("{} is a {} document, not text or content: it cannot be checked", "{}是 {} 文档,不是 text 或 content:无法核对"),
    ("a citation needs its cited_text", "引用需要 cited_text"),
    ("a {} citation does not fit {} (source type {})", "{} 引用与{}不符(来源类型 {})"),
    ("a {} citation needs {} and {}", "{} 引用需要 {} 和 {}"),
    ("a Converse response needs output.message.content", "Converse 响应需要 output.message.content"),
    ("a generateContent response needs a candidates array", "generateContent 响应需要 candidates 数组"),
    ("a Responses API response needs an output array", "Responses API 响应需要 output 数组"),
    // The web annotation reader's.
    ("the id must start with {}", "id 必须以 {} 开头"),
    ("an annotation needs a target object", "标注需要 target 对象"),
    ("a TextQuoteSelector is required", "缺少 TextQuoteSelector"),
    ("a TextPositionSelector is required", "缺少 TextPositionSelector"),
    ("a SourceRevision state (source_id, revision, digest) is required", "缺少 SourceRevision 状态(source_id、revision、digest)"),
    ("a target may have at most {} selectors, refinements included", "一个目标至多 {} 个选择器(含细化)"),
    ("a TextQuoteSelector needs its exact text", "TextQuoteSelector 需要 exact 文本"),
    ("a refining TextPositionSelector must be a non-empty range within its parent's segment of {} code points", "用于细化的 TextPositionSelector 必须是父片段({} 个码位)内的非空区间"),
    (
        "the target names no catalogued source (give state.source_id, or a source or locator equal to one catalogue locator)",
        "目标没有指向已编目的来源(请给出 state.source_id,或与某个目录 locator 相同的 source 或 locator)",
    ),
    ("a TextPositionSelector must be a non-empty range of the source's {} code points", "TextPositionSelector 必须是来源 {} 个码位内的非空区间"),
    // The catalogue's, the excerpt tools' and the outcome readers'.
    ("document id '{}' is used twice", "资料标识 '{}' 重复使用"),
    ("a reserve task needs item_id", "预订任务需要 item_id"),
    ("a reserve task needs quantity", "预订任务需要 quantity"),
    ("Extra inputs are not permitted for status {}", "状态 {} 不允许有此字段"),
    ("Extra inputs are not permitted for this tool", "此工具不允许有此字段"),
    ("Field required (null when no reply came back)", "缺少必填字段(没有收到回复时为 null)"),
    ("Input should be a boolean", "应为布尔值"),
    ("Input should be an object", "应为对象"),
    ("Input should be a whole number", "应为整数"),
    ("Input should be an object (without a catalogue the grade reads the outcome's own evaluation)", "应为对象(没有目录时,评分读取结果自带的 evaluation)"),
    // The bundle's import notes.
    ("an import note of an unlocated quote names its claim_id, source_id and code", "未定位引文的导入记录须写明 claim_id、source_id 和 code"),
    ("an import note names exactly one citation_id or source_id", "导入记录须恰好写明一个 citation_id 或 source_id"),
    // serde_json's syntax errors, each followed by where the reader stopped.
    ("EOF while parsing a list {}", "列表未结束,文本已到末尾({})"),
    ("EOF while parsing an object {}", "对象未结束,文本已到末尾({})"),
    ("EOF while parsing a string {}", "字符串未结束,文本已到末尾({})"),
    ("EOF while parsing a value {}", "值未结束,文本已到末尾({})"),
    ("expected `:` {}", "此处应为 `:`({})"),
    ("expected `,` or `]` {}", "此处应为 `,` 或 `]`({})"),
    ("expected `,` or `}` {}", "此处应为 `,` 或 `}`({})"),
    ("expected ident {}", "此处应为标识符({})"),
    ("expected value {}", "此处应为值({})"),
    ("expected `\"` {}", "此处应为 `\"`({})"),
    ("invalid escape {}", "无效的转义({})"),
    ("invalid number {}", "无效的数字({})"),
    ("number out of range {}", "数字超出范围({})"),
    ("invalid unicode code point {}", "无效的 Unicode 码点({})"),
    ("control character (\\u0000-\\u001F) found while parsing a string {}", "字符串中有控制字符(\\u0000-\\u001F)({})"),
    ("key must be a string {}", "键必须是字符串({})"),
    ("trailing comma {}", "多余的逗号({})"),
    ("trailing characters {}", "JSON 值之后还有字符({})"),
    ("lone leading surrogate in hex escape {}", "十六进制转义中有落单的前导代理项({})"),
    ("unexpected end of hex escape {}", "十六进制转义意外结束({})"),
    ("recursion limit exceeded {}", "嵌套超过递归上限({})"),
    ("duplicate key `{}` {}", "重复的键 `{}`({})"),
    // Last: any other "Input should be …" is a list of literals ('fact' or 'inference').
    ("Input should be {}", "应为 {}"),
];

/// What the rules' texts call a JSON value's type, and its Chinese name.
pub const TYPE_NAMES: &[(&str, &str)] = &[
    ("a boolean", "布尔值"),
    ("a number with a fraction or exponent", "带小数或指数的数"),
    ("an integer", "整数"),
    ("a string", "字符串"),
    ("an array", "数组"),
    ("an object", "对象"),
];

/// The parts of `text` at the `{}` of `template`, when it has that form.
fn template_parts<'t>(template: &str, text: &'t str) -> Option<Vec<&'t str>> {
    let mut pieces = template.split("{}");
    let mut rest = text.strip_prefix(pieces.next()?)?;
    let mut parts = Vec::new();
    let mut pieces = pieces.peekable();
    while let Some(piece) = pieces.next() {
        let end = if pieces.peek().is_none() { rest.len().checked_sub(piece.len()).filter(|&e| rest.get(e..) == Some(piece))? } else { rest.find(piece).filter(|_| !piece.is_empty())? };
        parts.push(rest.get(..end)?);
        rest = rest.get(end + piece.len()..)?;
    }
    rest.is_empty().then_some(parts)
}

/// Where a part of a text names a thing the way a rule's text does, its Chinese form:
/// where the reader stopped (`at line 1 column 129`), which document of a request.
const PART_TEXTS: &[(&str, &str)] = &[("at line {} column {}", "第 {} 行第 {} 列"), ("document {} ({})", "文档 {}({})"), ("document {}", "文档 {}")];

/// `text` in Chinese by the first template of `table` it has the form of, with the parts
/// it names (a type's name translated, a list of literals joined by 或); `None` for a text
/// of no template.
pub fn template_zh(table: &[(&str, &str)], text: &str) -> Option<String> {
    table.iter().find_map(|(en, zh)| {
        let parts = template_parts(en, text)?;
        // The catch-all takes literal lists only.
        if *en == "Input should be {}" && !parts.first().is_some_and(|p| p.starts_with('\'')) {
            return None;
        }
        let mut out = String::new();
        let mut pieces = zh.split("{}");
        out.push_str(pieces.next().unwrap_or(""));
        for (part, piece) in parts.iter().zip(pieces) {
            let named = TYPE_NAMES.iter().find(|(e, _)| e == part).map(|(_, z)| (*z).to_owned()).or_else(|| {
                let (en, zh) = PART_TEXTS.iter().find(|(en, _)| template_parts(en, part).is_some())?;
                let inner = template_parts(en, part)?;
                let mut named = String::new();
                for (i, piece) in zh.split("{}").enumerate() {
                    if i > 0 {
                        named.push_str(inner.get(i - 1)?);
                    }
                    named.push_str(piece);
                }
                Some(named)
            });
            out.push_str(&named.unwrap_or_else(|| part.replace("' or '", "' 或 '")));
            out.push_str(piece);
        }
        Some(out)
    })
}

/// `text` (an English text of `table`'s) in a language: in Chinese its template's Chinese
/// text where it has one, else as it is.
pub fn template_in(table: &[(&str, &str)], text: &str, lang: Lang) -> String {
    match lang {
        Lang::Zh => template_zh(table, text).unwrap_or_else(|| text.to_owned()),
        Lang::En => text.to_owned(),
    }
}

/// A violation's message (the checker's English, a hint after it) in a language: in
/// Chinese the rule's text is translated where it has a Chinese text, and the hint is
/// given in the language.
pub fn rule_text_in(message: &str, lang: Lang) -> String {
    let (base, hint) = match Hint::of(message) {
        Some((base, hint)) => (base, Some(hint)),
        None => (message, None),
    };
    let base = match lang {
        Lang::Zh => template_zh(RULE_TEXTS, base).unwrap_or_else(|| base.to_owned()),
        Lang::En => base.to_owned(),
    };
    match (hint, lang) {
        (None, _) => base,
        (Some(h), Lang::Zh) if has_cjk(&base) => format!("{base};{}", h.text(lang)),
        // A text with no Chinese (serde's): the hint stays in its English sentence.
        (Some(h), Lang::Zh) => format!("{base}; {}", h.text(Lang::En)),
        (Some(h), Lang::En) => format!("{base}; {}", h.text(lang)),
    }
}

/// What a contract violation that a policy decides ends with (`contract::with_raise_hints`
/// appends it in English; [`ContractError::localized`] gives it in the language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint<'a> {
    /// A limit: how to raise it (the policy field, `--policy documents`).
    Raise(&'a str),
    /// A limit the documents policy does not raise: a policy file that sets it.
    RaiseFile(&'a str),
    /// A limit under `compat: "reference"`: dropping compat gives the documents policy.
    RaiseCompat(&'a str),
    /// A filename, kind or scope id that the documents policy allows.
    Allow,
    /// The same under `compat: "reference"`.
    AllowCompat,
}

impl<'a> Hint<'a> {
    /// The hint's text.
    pub fn text(self, lang: Lang) -> String {
        match (self, lang) {
            (Hint::Raise(field), _) => how_to_raise(field, lang),
            (Hint::RaiseFile(field), Lang::En) => format!("raise it with the policy field {field} (CLI: --policy with a policy file that sets \"{field}\")"),
            (Hint::RaiseFile(field), Lang::Zh) => format!("可通过策略字段 {field} 提高上限(CLI:--policy 指定一个设置了 \"{field}\" 的策略文件)"),
            (Hint::RaiseCompat(field), Lang::En) => format!(
                "raise it with the policy field {field}: without compat \"reference\" the documents policy applies (CLI: drop --compat reference, or give --policy with \"{field}\")"
            ),
            (Hint::RaiseCompat(field), Lang::Zh) => {
                format!("可通过策略字段 {field} 提高上限:去掉 compat \"reference\" 即采用 documents 策略(CLI:去掉 --compat reference,或用 --policy 设置 \"{field}\")")
            }
            (Hint::Allow, Lang::En) => "allowed under the documents policy (policy: \"documents\"; CLI: --policy documents)".to_owned(),
            (Hint::Allow, Lang::Zh) => "documents 策略允许此值(policy: \"documents\";CLI:--policy documents)".to_owned(),
            (Hint::AllowCompat, Lang::En) => {
                "allowed under the documents policy, the default: drop compat \"reference\" (CLI: run without --compat reference)".to_owned()
            }
            (Hint::AllowCompat, Lang::Zh) => "默认的 documents 策略允许此值:去掉 compat \"reference\"(CLI:不加 --compat reference 运行)".to_owned(),
        }
    }

    /// The English hint `message` ends with (after `"; "`), and the message before it.
    pub fn of(message: &'a str) -> Option<(&'a str, Hint<'a>)> {
        for hint in [Hint::Allow, Hint::AllowCompat] {
            if let Some(base) = message.strip_suffix(hint.text(Lang::En).as_str()).and_then(|b| b.strip_suffix("; ")) {
                return Some((base, hint));
            }
        }
        const RAISE: &str = "; raise it with the policy field ";
        let at = message.rfind(RAISE)?;
        let (base, tail) = (message.get(..at)?, message.get(at + 2..)?);
        let field = tail.get(RAISE.len() - 2..)?.split([' ', ':']).next()?;
        let hint = [Hint::Raise(field), Hint::RaiseFile(field), Hint::RaiseCompat(field)].into_iter().find(|h| h.text(Lang::En) == tail)?;
        Some((base, hint))
    }
}

impl Coded for ContractError {
    fn code(&self) -> &'static str {
        "contract"
    }
    fn message(&self, lang: Lang) -> String {
        self.localized(lang).summary(lang)
    }
    fn issues(&self, lang: Lang) -> Option<(&'static str, Vec<Violation>)> {
        Some((self.subject, self.localized(lang).violations))
    }
    fn message_and_issues(&self, lang: Lang) -> (String, Option<(&'static str, Vec<Violation>)>) {
        let localized = self.localized(lang);
        (localized.summary(lang), Some((self.subject, localized.violations)))
    }
}

impl fmt::Display for ContractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}
impl std::error::Error for ContractError {}

macro_rules! coded_enum {
    ($(#[$meta:meta])* $name:ident { $( $(#[$vmeta:meta])* $variant:ident => ($code:literal, $msg:literal, $en:literal), )* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
        }
        impl $name {
            /// Every variant, for documentation and tests.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
            /// Every code, in the order of [`Self::ALL`].
            pub const CODES: &'static [&'static str] = &[$($code),*];
            /// The stable code.
            pub fn code(self) -> &'static str {
                match self { $( Self::$variant => $code, )* }
            }
            /// The message (the reference's text).
            pub fn message(self) -> &'static str {
                match self { $( Self::$variant => $msg, )* }
            }
            /// The message in a language.
            pub fn message_in(self, lang: $crate::error::Lang) -> &'static str {
                match lang {
                    $crate::error::Lang::Zh => self.message(),
                    $crate::error::Lang::En => match self { $( Self::$variant => $en, )* },
                }
            }
        }
        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($name::message(*self))
            }
        }
        impl $crate::error::Coded for $name {
            fn code(&self) -> &'static str {
                (*self).code()
            }
            fn message(&self, lang: $crate::error::Lang) -> String {
                self.message_in(lang).to_owned()
            }
        }
        impl ::std::error::Error for $name {}
    };
}
pub(crate) use coded_enum;







coded_enum! {
    /// Why the JavaScript binding refused a call before reaching the core.
    BindingErrorKind {
        /// An argument has the wrong JS type or an unknown option, or reading it threw
        /// (a `toJSON`, a getter or a Proxy trap); the thrown message names the argument.
        InvalidArgument => ("invalid_argument", "参数无效:类型不对、含未知选项,或读取参数时宿主代码抛出了异常。", "An argument is invalid: the wrong type, an unknown option, or reading it threw an exception."),
        /// A string argument holds an unpaired surrogate: it is not valid Unicode.
        InvalidUnicode => ("invalid_unicode", "参数含有未配对的代理项,不是合法的 Unicode。", "An argument contains an unpaired surrogate; it is not valid Unicode."),
        /// The store was freed with `free()`; it cannot be used any more.
        StoreFreed => ("store_freed", "证据存储已释放(free),不能再使用。", "The evidence store was freed; it cannot be used any more."),
        /// A `ReportHandle`, `Reviews` or `DocumentCatalog` handle was freed with `free()`; it cannot be used any more.
        HandleFreed => ("handle_freed", "句柄(ReportHandle、Reviews 或 DocumentCatalog)已释放(free),不能再使用。", "The handle (a ReportHandle, Reviews or DocumentCatalog) was freed; it cannot be used any more."),
        /// WebAssembly memory ran out: an argument's copy could not be allocated, or a call trapped.
        OutOfMemory => ("out_of_memory", "WebAssembly 内存不足,调用未完成。", "WebAssembly memory ran out; the call did not complete."),
    }
}


/// The subject of an error or issue and the numbers involved: which source, claim,
/// citation or review, and size and limit, revisions, digests. Every field is optional;
/// only those that apply are set (and serialized).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(optional_fields))]
pub struct Detail {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_id: Option<String>,
    /// The claim, for a thrown error (an issue names it in its own `claim_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_id: Option<String>,
    /// The index of a review in the list given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review_index: Option<usize>,
    /// A size (in `unit`s) over its limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
    /// What `size` and `limit` count: `bytes`, `sources`, `code_points`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<&'static str>,
    /// The policy field that sets the limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy_field: Option<&'static str>,
    /// The documents policy does not raise the limit (a policy file does): for the hint.
    #[serde(skip)]
    pub beyond_documents: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cited_revision: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_revision: Option<u64>,
    /// The digest the citation or review names (cites).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cited_digest: Option<String>,
    /// The current digest: the source's current revision's, or the report's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_digest: Option<String>,
    /// A citation's range and the text's length, in code points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_length: Option<usize>,
    /// `quote_mismatch`: the source's text at the cited range, its first 80 code points
    /// (`…` when cut), with `\n`, `\t`, `"` and `\` escaped and invisible characters as
    /// `⟦U+XXXX⟧`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_at_range: Option<String>,
    /// `quote_mismatch`: the one range where the quote matches if whitespace is ignored
    /// (what `whitespace: "loose"` would locate), when there is one and no exact match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loose_start: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loose_end: Option<u64>,
}

impl Detail {
    /// A limit: `size` over `limit` counted in `unit`, raised by `policy_field`.
    pub fn limit(size: usize, limit: usize, unit: &'static str, policy_field: &'static str) -> Detail {
        Detail { size: Some(size), limit: Some(limit), unit: Some(unit), policy_field: Some(policy_field), ..Detail::default() }
    }

    /// An allocation of `bytes` bytes that failed (`out_of_memory`): a size with no limit.
    pub fn allocation(bytes: usize) -> Detail {
        Detail { size: Some(bytes), unit: Some("bytes"), ..Detail::default() }
    }

    /// This detail naming a source.
    pub fn source(mut self, source_id: &str) -> Detail {
        self.source_id = Some(source_id.to_owned());
        self
    }

    /// `base` followed by the subject and numbers, and how to raise a limit.
    pub fn message(&self, base: &str, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let mut parts: Vec<String> = Vec::new();
        if let Some(s) = &self.source_id {
            parts.push(if zh { format!("来源 {s}") } else { format!("source {s}") });
        }
        if let Some(c) = &self.claim_id {
            parts.push(if zh { format!("论断 {c}") } else { format!("claim {c}") });
        }
        if let Some(i) = self.review_index {
            parts.push(if zh { format!("第 {i} 条审阅(从 0 计)") } else { format!("review {i} (0-based)") });
        }
        if let (Some(size), Some(limit)) = (self.size, self.limit) {
            let unit = unit_in(self.unit.unwrap_or(""), lang);
            parts.push(if zh { format!("{size} {unit},上限 {limit} {unit}") } else { format!("{size} {unit}, over the limit of {limit} {unit}") });
        } else if let Some(size) = self.size {
            let unit = self.unit.unwrap_or("");
            parts.push(if zh { format!("无法分配 {size} {unit}") } else { format!("{size} {unit} could not be allocated") });
        }
        if let (Some(c), Some(n)) = (self.cited_revision, self.current_revision) {
            parts.push(if zh { format!("引用版本 {c},当前版本 {n}") } else { format!("cited revision {c}, current revision {n}") });
        }
        if let (Some(c), Some(n)) = (&self.cited_digest, &self.current_digest) {
            parts.push(if zh { format!("引用摘要 {c},当前摘要 {n}") } else { format!("cited digest {c}, current digest {n}") });
        }
        if let (Some(s), Some(e)) = (self.start, self.end) {
            parts.push(if zh { format!("区间 [{s}, {e})") } else { format!("range [{s}, {e})") });
        }
        if let Some(n) = self.text_length {
            parts.push(if zh { format!("正文长度 {n}") } else { format!("text length {n}") });
        }
        if let Some(t) = &self.text_at_range {
            parts.push(if zh { format!("该区间的原文:\"{t}\"") } else { format!("text at the range: \"{t}\"") });
        }
        if let (Some(s), Some(e)) = (self.loose_start, self.loose_end) {
            parts.push(if zh {
                format!("忽略空白时引文位于 [{s}, {e}):定位时可用 whitespace: \"loose\"(命令行 --whitespace loose)")
            } else {
                format!("a whitespace-insensitive match is at [{s}, {e}): locate the quote with whitespace: \"loose\" (CLI --whitespace loose)")
            });
        }
        if let Some(f) = self.policy_field {
            parts.push(if self.beyond_documents { Hint::RaiseFile(f).text(lang) } else { how_to_raise(f, lang) });
        }
        if parts.is_empty() {
            return base.to_owned();
        }
        format!("{base} ({})", parts.join("; "))
    }
}



/// A refusal of the binding before the core is reached: its kind, and a message that
/// names the argument (kept as given: it says more than the kind's generic text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindingError {
    pub kind: BindingErrorKind,
    pub detail: Option<String>,
}

impl BindingError {
    /// `invalid_argument` naming the argument.
    pub fn argument(detail: impl Into<String>) -> BindingError {
        BindingError { kind: BindingErrorKind::InvalidArgument, detail: Some(detail.into()) }
    }
    /// `out_of_memory`: the `bytes` that copying the argument `name` needed could not be allocated.
    pub fn out_of_memory(name: &str, bytes: usize) -> BindingError {
        let message = format!("out of memory: the {bytes} bytes to copy {name} into WebAssembly memory could not be allocated");
        BindingError { kind: BindingErrorKind::OutOfMemory, detail: Some(message) }
    }
    /// `invalid_unicode` naming the argument.
    pub fn unicode(detail: impl Into<String>) -> BindingError {
        BindingError { kind: BindingErrorKind::InvalidUnicode, detail: Some(detail.into()) }
    }
}

impl From<BindingErrorKind> for BindingError {
    fn from(kind: BindingErrorKind) -> Self {
        BindingError { kind, detail: None }
    }
}

impl Coded for BindingError {
    fn code(&self) -> &'static str {
        self.kind.code()
    }
    /// The detail in the language: in Chinese by [`BINDING_TEXTS`] and [`serde_text_zh`]
    /// (a detail of no template stays as it is).
    fn message(&self, lang: Lang) -> String {
        match (&self.detail, lang) {
            (Some(d), Lang::Zh) => binding_text_zh(d).unwrap_or_else(|| d.clone()),
            (Some(d), Lang::En) => d.clone(),
            (None, _) => self.kind.message_in(lang).to_owned(),
        }
    }
}

/// The details of a [`BindingError`] (an argument or option refused) and their Chinese
/// texts; `{}` is the argument's name or the number given. Last: `NAME: SERDE`, an option
/// refused by serde at its path ([`serde_text_zh`]).
pub const BINDING_TEXTS: &[(&str, &str)] = &[
    ("{} contains a string with an unpaired surrogate (at character {} of its JSON); it is not valid Unicode", "{} 含有一个带未配对代理项的字符串(在其 JSON 的第 {} 个字符处),不是有效的 Unicode"),
    ("{} contains an unpaired surrogate; it is not valid Unicode", "{} 含有未配对的代理项,不是有效的 Unicode"),
    ("out of memory: the {} bytes to copy {} into WebAssembly memory could not be allocated", "内存不足:无法分配把 {1} 复制进 WebAssembly 内存所需的 {0} 字节"),
    ("{} cannot be serialised as JSON: it serialises to nothing (a toJSON that returns undefined?)", "{} 无法序列化为 JSON:序列化结果为空(toJSON 返回了 undefined?)"),
    ("{} cannot be serialised as JSON: reading it threw an exception", "{} 无法序列化为 JSON:读取时抛出了异常"),
    ("{} cannot be read: reading it threw an exception", "无法读取 {}:读取时抛出了异常"),
    ("{} cannot be read: listing its keys threw an exception", "无法读取 {}:列出其键时抛出了异常"),
    ("{} must be an object: the provider's key -> {}", "{} 必须是对象:提供方的键 -> {}"),
    ("{} needs a sourceId string and a text string (the host's snapshot)", "{} 须有字符串 sourceId 和字符串 text(宿主的快照)"),
    ("{} could not be copied: TextEncoder.encodeInto wrote no UTF-8", "无法复制 {}:TextEncoder.encodeInto 没有写出 UTF-8"),
    ("{} could not be copied: TextEncoder.encodeInto is missing or failed", "无法复制 {}:TextEncoder.encodeInto 不存在或失败"),
    ("{} could not be copied", "无法复制 {}"),
    ("bundle must be JSON text, a bundle object or UTF-8 bytes in a Uint8Array, not a {}", "bundle 必须是 JSON 文本、证据包对象或 Uint8Array 中的 UTF-8 字节,而不是 {}"),
    ("bundle: reading the Uint8Array threw an exception", "bundle:读取 Uint8Array 时抛出了异常"),
    ("a result cannot be written as JSON: {}", "结果无法写成 JSON:{}"),
    ("the host hasher must be a function or null", "宿主的哈希函数必须是函数或 null"),
    ("the host hasher is in use", "宿主的哈希函数正在使用中"),
    ("the store is in use by a call in progress", "该存储正被一个进行中的调用使用"),
    ("{} must be a whole number from 0 to 2^53 - 1", "{} 必须是 0 到 2^53 - 1 之间的整数"),
    ("{} must be \"code_point\", \"utf16\" or \"utf8\"", "{} 必须是 \"code_point\"、\"utf16\" 或 \"utf8\""),
    ("{} must be a DocumentCatalog", "{} 必须是 DocumentCatalog"),
    ("{} must be a JSON value", "{} 必须是 JSON 值"),
    ("{} must be a string", "{} 必须是字符串"),
    ("{} must be an object", "{} 必须是对象"),
    ("{} must not be empty", "{} 不能为空"),
    ("{} must be one of {}", "{} 必须是 {} 之一"),
    ("{} is required", "必须给出 {}"),
    ("{} counts from 1", "{} 从 1 开始计数"),
];

/// serde's texts of a value it refused (`invalid type: integer `1`, expected a string`)
/// and their Chinese texts ([`serde_part_zh`] names each part).
pub const SERDE_TEXTS: &[(&str, &str)] = &[
    ("invalid type: {}, expected {}", "类型不对:{},应为{}"),
    ("invalid value: {}, expected {}", "值无效:{},应为{}"),
    ("invalid length {}, expected {}", "长度 {} 不对,应为{}"),
    ("unknown variant {}, expected {}", "未知的取值 {},应为{}"),
    ("unknown variant {}, there are no variants", "未知的取值 {},此处没有可选值"),
    ("unknown field {}, expected {}", "未知字段 {},应为{}"),
    ("unknown field {}, there are no fields", "未知字段 {},此处没有字段"),
    ("missing field {}", "缺少字段 {}"),
    ("duplicate field {}", "字段 {} 重复"),
    ("data did not match any variant of untagged enum {}", "不符合 {} 的任何一种形式"),
];

/// What serde calls a value it got or expected, in Chinese.
const SERDE_NAMES: &[(&str, &str)] = &[
    ("a sequence", "数组"),
    ("sequence", "数组"),
    ("a map", "对象"),
    ("map", "对象"),
    ("a boolean", "布尔值"),
    ("a string", "字符串"),
    ("unit value", "空值"),
    ("unit", "空值"),
    ("usize", "非负整数"),
    ("u64", "非负整数"),
    ("null", "null"),
];

/// The Chinese of one part of a serde text: a value's kind and the value (`integer `1``),
/// a type, a list of names (`one of `a`, `b``, `` `zh` or `en` ``); `None` for a part it
/// does not know.
fn serde_part_zh(part: &str) -> Option<String> {
    const KINDS: &[(&str, &str)] = &[("integer ", "整数 "), ("floating point ", "浮点数 "), ("boolean ", "布尔值 "), ("string ", "字符串 "), ("character ", "字符 "), ("struct ", "结构 "), ("enum ", "枚举 ")];
    let list = |names: &str| names.replace("` or `", "` 或 `").replace("`, `", "`、`");
    if let Some((_, zh)) = SERDE_NAMES.iter().find(|(en, _)| *en == part) {
        return Some((*zh).to_owned());
    }
    if let Some(names) = part.strip_prefix("one of ") {
        return Some(format!("{} 之一", list(names)));
    }
    if part.starts_with('`') {
        return Some(list(part));
    }
    // A type's own name (`KindRule`) is a name, not a word.
    KINDS.iter().find_map(|(en, zh)| part.strip_prefix(en).map(|rest| format!("{zh}{rest}"))).or_else(|| (!part.contains(' ')).then(|| part.to_owned()))
}

/// serde's text of a refused value in Chinese ([`SERDE_TEXTS`]); `None` for another text.
pub fn serde_text_zh(text: &str) -> Option<String> {
    SERDE_TEXTS.iter().find_map(|(en, zh)| {
        let parts = template_parts(en, text)?;
        let named: Vec<String> = parts.iter().map(|p| serde_part_zh(p)).collect::<Option<_>>()?;
        fill(zh, &named)
    })
}

/// A template's `{}` filled in order, or by number (`{1}`).
fn fill(template: &str, parts: &[String]) -> Option<String> {
    let mut out = String::new();
    let mut rest = template;
    let mut next = 0;
    while let Some(at) = rest.find('{') {
        out.push_str(rest.get(..at)?);
        let close = at + rest.get(at..)?.find('}')?;
        let index = match rest.get(at + 1..close)? {
            "" => {
                next += 1;
                next - 1
            }
            n => n.parse().ok()?,
        };
        out.push_str(parts.get(index)?);
        rest = rest.get(close + 1..)?;
    }
    out.push_str(rest);
    Some(out)
}

/// A [`BindingError`]'s detail in Chinese: by [`BINDING_TEXTS`], else `NAME: SERDE` with
/// serde's text translated; `None` for a detail of neither form.
pub fn binding_text_zh(detail: &str) -> Option<String> {
    BINDING_TEXTS
        .iter()
        .find_map(|(en, zh)| {
            let parts: Vec<String> = template_parts(en, detail)?.into_iter().map(str::to_owned).collect();
            fill(zh, &parts)
        })
        .or_else(|| {
            let (name, text) = detail.split_once(": ")?;
            Some(format!("{name}:{}", serde_text_zh(text)?))
        })
}

impl fmt::Display for BindingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Coded::message(self, Lang::En))
    }
}
impl std::error::Error for BindingError {}

/// Whether a text holds a CJK ideograph (it is, or quotes, Chinese text).
pub fn has_cjk(text: &str) -> bool {
    text.chars().any(|c| matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}' | '\u{20000}'..='\u{3134f}'))
}

/// What a [`Detail`]'s `unit` counts, in a language.
fn unit_in(unit: &str, lang: Lang) -> &str {
    match (unit, lang) {
        ("bytes", Lang::Zh) => "字节",
        ("sources", Lang::Zh) => "个来源",
        ("code_points", Lang::Zh) => "个码位",
        (u, _) => u,
    }
}

/// How to raise a limit, for messages: the policy field and the CLI flag.
pub fn how_to_raise(field: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("raise it with the policy field {field} (CLI: --policy documents, or a policy file with \"{field}\")"),
        Lang::Zh => format!("可通过策略字段 {field} 提高上限(CLI:--policy documents,或在策略文件中设置 \"{field}\")"),
    }
}
