//! Errors, one enum per area. Every variant has a stable `code()` (snake_case, never
//! renamed once published) and a `message()`; messages default to the reference's
//! Chinese texts so that outputs match it byte for byte.
//!
//! Checking a report yields data (an [`crate::assess::Assessment`] with a list of issues);
//! these errors are for input that cannot be used at all, or for misuse.

use std::fmt;

/// The language of messages and artifact labels. Chinese (the reference's texts) is the
/// default; every code and every label also has an English text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Lang {
    #[default]
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

/// What a thrown error carries, as JSON text: `[message, code, [[property, value], …]]`,
/// the properties in the order the binding sets them on the error (`issues` and `subject`
/// for a broken contract, then the error's [`Coded::details`]), and whether it is a broken
/// contract (thrown as a `ContractError`, else an `EvidenceError`). The package's entries
/// make the JS error from it after the wasm call has returned (js/entry-errors.mjs,
/// `finishError`), so that V8 does not capture the module's frames into its stack.
pub fn thrown_json<E: Coded + ?Sized>(e: &E, lang: Lang) -> (bool, String) {
    /// A property's value: the violations are written straight from their struct, so each
    /// issue keeps its key order (`path`, `code`, `message`), as the errors made in wasm do
    /// (a `serde_json::Value` map would sort the keys).
    #[derive(serde::Serialize)]
    #[serde(untagged)]
    enum Prop<'a> {
        Issues(&'a [Violation]),
        Value(serde_json::Value),
    }
    let (message, issues) = e.message_and_issues(lang);
    let mut props: Vec<(&str, Prop<'_>)> = Vec::new();
    if let Some((subject, violations)) = &issues {
        props.push(("issues", Prop::Issues(violations)));
        props.push(("subject", Prop::Value(serde_json::Value::from(*subject))));
    }
    props.extend(e.details().into_iter().map(|(k, v)| (k, Prop::Value(v))));
    // Strings, numbers and JSON values only: writing them cannot fail.
    let text = serde_json::to_string(&(message, e.code(), props)).unwrap_or_default();
    (issues.is_some(), text)
}

/// The message of any store, review or render code in a language (for messages made
/// in Chinese and shown in another language).
pub fn message_for_code(code: &str, lang: Lang) -> Option<&'static str> {
    StoreErrorKind::ALL
        .iter()
        .find(|k| k.code() == code)
        .map(|k| k.message_in(lang))
        .or_else(|| ReviewErrorKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| RenderErrorKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| SignatureProblem::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| OffsetErrorKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| ClockErrorKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| BindingErrorKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| CatalogErrorKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| ViolationCode::ALL.iter().find(|k| k.code() == code).and_then(|k| k.reference_message_in(lang)))
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
        }
    }

    /// Every code.
    pub const ALL: &'static [ViolationCode] = &[
        Self::InvalidJson, Self::InputTooLarge, Self::TooDeep, Self::DuplicateKey, Self::Missing, Self::ExtraField,
        Self::WrongType, Self::TooSmall, Self::TooShort, Self::TooLong, Self::PatternMismatch, Self::NotAllowed,
        Self::EmptyRange, Self::BlankClaim, Self::DuplicateClaimId, Self::DuplicateCitationInClaim, Self::CitationIdConflict,
        Self::DuplicateConflictMember, Self::UnknownConflictMember, Self::DuplicateDocumentId, Self::TooManyViolations,
        Self::TooManyValues,
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
    /// A one-line summary naming the first violation and how many there are.
    pub fn message(&self) -> String {
        match self.violations.first() {
            Some(v) => {
                let more = self.violations.len() - 1;
                let path = if v.path.is_empty() { "/" } else { v.path.as_str() };
                if more == 0 {
                    format!("{} breaks its contract at {path}: {}", self.subject, v.message)
                } else {
                    format!("{} breaks its contract at {path}: {} (and {more} more)", self.subject, v.message)
                }
            }
            None => format!("{} breaks its contract", self.subject),
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
            if matches!(v.code, ViolationCode::TooLong | ViolationCode::InputTooLarge) {
                if let Some(m) = raise_hint_in(&v.message, lang) {
                    v.message = m;
                }
            }
        }
        e
    }
}

/// A limit's violation ends with how to raise it, in English as the reader made it
/// (`contract::with_raise_hints`): the message with that hint in `lang`. `None` when the
/// message has no such hint (under `compat: "reference"` there is none).
fn raise_hint_in(message: &str, lang: Lang) -> Option<String> {
    let (base, hint) = message.split_once("; raise it with the policy field ")?;
    let field = hint.split(' ').next()?;
    let en = crate::policy::how_to_raise(field, Lang::En);
    let tail = message.strip_prefix(base)?.strip_prefix("; ")?;
    (tail == en).then(|| format!("{base}; {}", crate::policy::how_to_raise(field, lang)))
}

impl Coded for ContractError {
    fn code(&self) -> &'static str {
        "contract"
    }
    fn message(&self, lang: Lang) -> String {
        self.localized(lang).message()
    }
    fn issues(&self, lang: Lang) -> Option<(&'static str, Vec<Violation>)> {
        Some((self.subject, self.localized(lang).violations))
    }
    fn message_and_issues(&self, lang: Lang) -> (String, Option<(&'static str, Vec<Violation>)>) {
        let localized = self.localized(lang);
        (localized.message(), Some((self.subject, localized.violations)))
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
            pub fn message_in(self, lang: Lang) -> &'static str {
                match lang {
                    Lang::Zh => self.message(),
                    Lang::En => match self { $( Self::$variant => $en, )* },
                }
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str($name::message(*self))
            }
        }
        impl Coded for $name {
            fn code(&self) -> &'static str {
                (*self).code()
            }
            fn message(&self, lang: Lang) -> String {
                self.message_in(lang).to_owned()
            }
        }
        impl std::error::Error for $name {}
    };
}

coded_enum! {
    /// Why the evidence store refused an operation or a citation.
    StoreErrorKind {
        /// The catalogue has more specs than allowed, or two specs share a `source_id`.
        CatalogueInvalid => ("catalogue_invalid", "来源配置重复或超限。", "The source catalogue is over its size limit or names a source twice."),
        /// The store was closed; it accepts nothing more.
        StoreClosed => ("store_closed", "证据存储已关闭。", "The evidence store is closed."),
        /// The source id is not in the trusted catalogue.
        UnknownSource => ("unknown_source", "来源未在可信目录中登记。", "The source is not in the trusted catalogue."),
        /// The content is empty or only whitespace.
        EmptyContent => ("empty_content", "正文必须是非空字符串。", "The text must be a non-empty string."),
        /// The content is larger than the byte limit (UTF-8 bytes, before newline normalisation).
        SourceTooLarge => ("source_too_large", "来源超过字节上限。", "The source is over the byte limit."),
        /// A read result is not an object.
        ReadResultNotObject => ("read_result_not_object", "读取结果必须是业务结果对象。", "A read result must be a business-result object."),
        /// A read result names another file than the spec, or its source is not catalogued.
        ReadMismatch => ("read_mismatch", "读取失败或来源映射不一致。", "The read failed or names another file than the catalogue."),
        /// The cited snapshot does not exist: never ingested, removed, another scope's, or an old revision.
        RefUnavailable => ("ref_unavailable", "来源不存在、已撤销、越权或版本失效。", "The source does not exist, was removed, belongs to another scope, or the revision is stale."),
        /// The citation's range ends past the end of the text.
        RangeOutOfBounds => ("range_out_of_bounds", "引用区间超出正文。", "The citation range ends past the end of the text."),
        /// The quote is not the text found at the cited range.
        QuoteMismatch => ("quote_mismatch", "引文与原文区间不一致。", "The quote is not the text at the cited range."),
        /// `compat: "reference"` only: the passage to quote is empty, absent, or occurs more than once (the reference's one error for both).
        QuoteNotUnique => ("quote_not_unique", "片段缺失或重复,无法唯一定位。", "The passage is missing or occurs more than once; it cannot be located uniquely."),
        /// The quote (with its context, or at the occurrence asked for) is not in the source's current revision.
        QuoteNotFound => ("quote_not_found", "片段未在来源当前版本中找到。", "The quote is not in the source's current revision."),
        /// The quote occurs more than once and nothing picks one occurrence.
        QuoteAmbiguous => ("quote_ambiguous", "片段出现多次,无法唯一定位;请给出前后文或指定第几处。", "The quote occurs more than once; give a prefix and suffix or an occurrence to pick one."),
        /// A revision to restore is not newer than the store's counter for that source.
        RevisionNotNewer => ("revision_not_newer", "恢复的版本必须大于已有版本计数。", "A restored revision must be newer than the store's revision counter."),
        /// (Split from `ref_unavailable`.) The source is catalogued, but this scope has no snapshot of it and never had one.
        SourceNotIngested => ("source_not_ingested", "来源尚未在此范围内采集,没有任何快照。", "The source was never ingested in this scope; there is no snapshot of it."),
        /// (Split from `ref_unavailable`.) This scope had a snapshot of the source, and it was removed.
        SourceRemoved => ("source_removed", "来源快照已在此范围内撤销。", "The source's snapshot was removed in this scope."),
        /// (Split from `ref_unavailable`.) The cited revision is not the current one.
        RevisionStale => ("revision_stale", "引用的版本不是来源的当前版本。", "The cited revision is not the source's current revision."),
        /// (Split from `ref_unavailable`.) The cited digest is not the current revision's digest.
        DigestMismatch => ("digest_mismatch", "引用的摘要与来源当前版本的摘要不一致。", "The cited digest is not the digest of the source's current revision."),
        /// (Split from `ref_unavailable`.) No source with this id is available in this scope (the store's catalogue does not name it). Says nothing about other scopes.
        SourceNotInScope => ("source_not_in_scope", "此范围内没有该标识的来源。", "No source with this id is available in this scope."),
    }
}

coded_enum! {
    /// Why a review could not be recorded or used.
    ReviewErrorKind {
        /// The reviewed claim is not in the report.
        UnknownClaim => ("unknown_claim", "审阅目标不存在。", "The reviewed claim does not exist."),
        /// The verdict is not `supported`, `insufficient` or `contradicted`.
        InvalidVerdict => ("invalid_verdict", "审阅结论无效。", "The review verdict is not valid."),
        /// The note is blank, not a string, or longer than 1,000 code points.
        InvalidNote => ("invalid_note", "需要非空、大小受限的审阅说明。", "A review needs a non-blank note of at most 1,000 characters."),
        /// A review belongs to another scope or another report digest, or reviews one claim twice.
        ReviewMismatch => ("review_mismatch", "审阅范围、报告摘要不匹配或记录重复。", "A review belongs to another scope or report digest, or reviews a claim twice."),
        /// A review names a claim that the report does not have.
        ReviewTargetMissing => ("review_target_missing", "审阅目标不在报告中。", "The reviewed claim is not in the report."),
        /// (An issue, in bundle mode or with `reviews: "report"`.) The review was recorded for another report digest; it is not counted.
        ReviewStaleDigest => ("review_stale_digest", "审阅绑定的是另一份报告摘要,未计入。", "The review was recorded for another report digest; it is not counted."),
        /// (An issue, in bundle mode or with `reviews: "report"`.) The review belongs to another scope; it is not counted.
        ReviewOtherScope => ("review_other_scope", "审阅属于另一个范围,未计入。", "The review belongs to another scope; it is not counted."),
        /// (An issue, in bundle mode or with `reviews: "report"`.) A second review of one claim; it is not counted.
        ReviewDuplicate => ("review_duplicate", "同一论断的第二条审阅,未计入。", "A second review of the same claim; it is not counted."),
    }
}

coded_enum! {
    /// Why a review was refused under a review key (an issue of the assessment).
    SignatureProblem {
        /// The review carries no signature.
        Missing => ("review_signature_missing", "审阅记录没有签名;设置审阅密钥时每条审阅都必须签名。", "The review is not signed; with a review key every review must carry a signature."),
        /// The signature does not match the review's content and the key.
        Invalid => ("review_signature_invalid", "审阅签名不匹配:记录被改动或使用了其他密钥。", "The review's signature does not match: it was altered or signed with another key."),
    }
}

coded_enum! {
    /// Why the artifact could not be rendered.
    RenderErrorKind {
        /// The report has invalid citations; an invalid report is never exported.
        ReportInvalid => ("report_invalid", "报告引用无效,拒绝导出。", "The report has invalid citations; it is not exported."),
        /// The artifact is over 8,000 code points or 24,000 UTF-8 bytes; it is never truncated.
        ArtifactTooLarge => ("artifact_too_large", "产物超过第七篇保存上限;应拆分报告,不能截断引用。", "The artifact is over the storage limit; split the report rather than truncating citations."),
    }
}

coded_enum! {
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

coded_enum! {
    /// Why a clock setting was refused.
    ClockErrorKind {
        /// `now` is not an ISO 8601 date-time with seconds and an offset (`2026-11-29T00:00:00+00:00`).
        InvalidNow => ("invalid_now", "now 必须是带秒和时区偏移的 ISO 8601 时间,例如 2026-11-29T00:00:00+00:00。", "now must be an ISO 8601 date-time with seconds and a UTC offset, such as 2026-11-29T00:00:00+00:00."),
    }
}

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
    }
}

coded_enum! {
    /// Why the document catalogue refused a document or a saved catalogue.
    CatalogErrorKind {
        /// A different body was imported under an id already in the catalogue; nothing was replaced.
        DocumentChanged => ("document_changed", "同一资料标识的正文已变更,拒绝导入;原记录保持不变。", "The document's body changed under the same id; the import is refused and the frozen version stays."),
        /// A saved catalogue records a digest that is not the digest of its body.
        DigestMismatch => ("catalog_digest_mismatch", "资料目录记录的摘要与正文不一致,拒绝加载。", "A saved catalogue records a digest that is not its body's; it is not loaded."),
        /// No document of the catalogue has this id.
        UnknownDocument => ("unknown_document", "资料目录中没有该标识的资料。", "The catalogue has no document with this id."),
    }
}

/// An evidence-store error: a refused operation, or a contract broken by its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The store refused the operation.
    Store(StoreErrorKind),
    /// The store refused the operation; the detail names the subject and the numbers.
    Detailed(StoreErrorKind, Box<Detail>),
    /// The input (a read result, a quoted citation) broke its contract.
    Contract(ContractError),
    /// A quote could not be located (absent or ambiguous), with its source and counts.
    Locate(crate::locate::LocateError),
}

impl StoreError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Store(k) | Self::Detailed(k, _) => k.code(),
            Self::Contract(c) => c.code(),
            Self::Locate(l) => l.code(),
        }
    }
    /// The message (Chinese, naming the subject and the numbers).
    pub fn message(&self) -> String {
        self.message_in(Lang::Zh)
    }
    /// The message in a language, naming the subject and the numbers.
    pub fn message_in(&self, lang: Lang) -> String {
        match self {
            Self::Store(k) => k.message_in(lang).to_owned(),
            Self::Detailed(k, d) => d.message(k.message_in(lang), lang),
            Self::Contract(c) => c.message(),
            Self::Locate(l) => l.message_in(lang),
        }
    }
    /// The kind, for the store's own refusals.
    pub fn kind(&self) -> Option<StoreErrorKind> {
        match self {
            Self::Store(k) | Self::Detailed(k, _) => Some(*k),
            _ => None,
        }
    }
    /// The detail (subject and numbers), when there is one.
    pub fn detail(&self) -> Option<&Detail> {
        match self {
            Self::Detailed(_, d) => Some(d),
            _ => None,
        }
    }
    /// `compat: "reference"`: the reference's code (the split codes are `ref_unavailable`).
    pub fn reference_code(&self) -> &'static str {
        match self.kind() {
            Some(k) => k.reference_kind().code(),
            None => self.code(),
        }
    }
    /// `compat: "reference"`: the reference's message text, without subject or numbers.
    pub fn reference_message(&self) -> String {
        match self.kind() {
            Some(k) => k.reference_kind().message().to_owned(),
            None => self.message(),
        }
    }
}

impl StoreErrorKind {
    /// The reference's kind: the five codes split from `ref_unavailable` are it.
    pub fn reference_kind(self) -> StoreErrorKind {
        match self {
            Self::SourceNotIngested | Self::SourceRemoved | Self::RevisionStale | Self::DigestMismatch | Self::SourceNotInScope => Self::RefUnavailable,
            other => other,
        }
    }

    /// This refusal with its subject and numbers.
    pub fn with(self, detail: Detail) -> StoreError {
        StoreError::Detailed(self, Box::new(detail))
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cited_revision: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_revision: Option<u64>,
    /// The digest the citation or review names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_digest: Option<String>,
    /// The digest found (the current revision's, or the report's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found_digest: Option<String>,
    /// A citation's range and the text's length, in code points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_length: Option<usize>,
}

impl Detail {
    /// A limit: `size` over `limit` counted in `unit`, raised by `policy_field`.
    pub fn limit(size: usize, limit: usize, unit: &'static str, policy_field: &'static str) -> Detail {
        Detail { size: Some(size), limit: Some(limit), unit: Some(unit), policy_field: Some(policy_field), ..Detail::default() }
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
            let unit = self.unit.unwrap_or("");
            parts.push(if zh { format!("{size} {unit},上限 {limit} {unit}") } else { format!("{size} {unit}, over the limit of {limit} {unit}") });
        }
        if let (Some(c), Some(n)) = (self.cited_revision, self.current_revision) {
            parts.push(if zh { format!("引用版本 {c},当前版本 {n}") } else { format!("cited revision {c}, current revision {n}") });
        }
        if let (Some(e), Some(f)) = (&self.expected_digest, &self.found_digest) {
            parts.push(if zh { format!("期望摘要 {e},实际摘要 {f}") } else { format!("expected digest {e}, found {f}") });
        }
        if let (Some(s), Some(e)) = (self.start, self.end) {
            parts.push(if zh { format!("区间 [{s}, {e})") } else { format!("range [{s}, {e})") });
        }
        if let Some(n) = self.text_length {
            parts.push(if zh { format!("正文长度 {n}") } else { format!("text length {n}") });
        }
        if let Some(f) = self.policy_field {
            parts.push(crate::policy::how_to_raise(f, lang));
        }
        if parts.is_empty() {
            return base.to_owned();
        }
        format!("{base} ({})", parts.join("; "))
    }
}

impl Coded for StoreError {
    fn code(&self) -> &'static str {
        StoreError::code(self)
    }
    fn message(&self, lang: Lang) -> String {
        match self {
            Self::Contract(c) => Coded::message(c, lang),
            _ => self.message_in(lang),
        }
    }
    fn issues(&self, lang: Lang) -> Option<(&'static str, Vec<Violation>)> {
        match self {
            Self::Contract(c) => c.issues(lang),
            _ => None,
        }
    }
    /// The locate error's source and counts; a detailed refusal's subject and numbers as `detail`.
    fn details(&self) -> Vec<(&'static str, serde_json::Value)> {
        match self {
            Self::Locate(l) => l.details(),
            Self::Detailed(_, d) => serde_json::to_value(&**d).map(|v| vec![("detail", v)]).unwrap_or_default(),
            _ => Vec::new(),
        }
    }
}

impl From<StoreErrorKind> for StoreError {
    fn from(k: StoreErrorKind) -> Self {
        Self::Store(k)
    }
}
impl From<crate::locate::LocateError> for StoreError {
    fn from(l: crate::locate::LocateError) -> Self {
        Self::Locate(l)
    }
}
impl From<ContractError> for StoreError {
    fn from(c: ContractError) -> Self {
        Self::Contract(c)
    }
}
impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}
impl std::error::Error for StoreError {}

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
    fn message(&self, lang: Lang) -> String {
        self.detail.clone().unwrap_or_else(|| self.kind.message_in(lang).to_owned())
    }
}

impl fmt::Display for BindingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Coded::message(self, Lang::En))
    }
}
impl std::error::Error for BindingError {}

// ---- the codes as TypeScript string-literal unions (the .d.ts is made from these) -----

/// The codes of every refusal other than a broken contract, kind by kind.
pub const EVIDENCE_CODES: &[&[&str]] = &[
    StoreErrorKind::CODES,
    ReviewErrorKind::CODES,
    SignatureProblem::CODES,
    RenderErrorKind::CODES,
    OffsetErrorKind::CODES,
    ClockErrorKind::CODES,
    BindingErrorKind::CODES,
    CatalogErrorKind::CODES,
    crate::policy::PolicyError::CODES,
];

/// The codes of the rules of a contract.
pub const ISSUE_CODES: &[&[&str]] = &[&ViolationCode::CODES];

/// `{head}"a" | "b" | …;` at compile time, and its length (codes are ASCII, so the
/// bytes are UTF-8). Bytes past `N` are not written: `ts_union::<0>` gives the length.
// Evaluated at compile time: an index out of range fails the build, never a run.
#[allow(clippy::indexing_slicing)]
pub const fn ts_union<const N: usize>(head: &str, lists: &[&[&str]]) -> ([u8; N], usize) {
    let mut out = [b' '; N];
    let mut at = 0;
    macro_rules! put {
        ($bytes:expr) => {{
            let b: &[u8] = $bytes;
            let mut k = 0;
            while k < b.len() {
                if at + k < N {
                    out[at + k] = b[k];
                }
                k += 1;
            }
            at += b.len();
        }};
    }
    put!(head.as_bytes());
    let mut i = 0;
    while i < lists.len() {
        let list = lists[i];
        let mut j = 0;
        while j < list.len() {
            if !(i == 0 && j == 0) {
                put!(b" | ");
            }
                let code = list[j];
            put!(b"\"");
            put!(code.as_bytes());
            put!(b"\"");
            j += 1;
        }
        i += 1;
    }
    put!(b";");
    (out, at)
}

const EVIDENCE_HEAD: &str = "/** The codes of every refusal other than a broken contract (see docs/errors.md). */\nexport type EvidenceCode = ";
const ISSUE_HEAD: &str = "/** The code of one broken rule of a contract. */\nexport type IssueCode = ";
const EVIDENCE_TS_BYTES: [u8; ts_union::<0>(EVIDENCE_HEAD, EVIDENCE_CODES).1] = ts_union(EVIDENCE_HEAD, EVIDENCE_CODES).0;
const ISSUE_TS_BYTES: [u8; ts_union::<0>(ISSUE_HEAD, ISSUE_CODES).1] = ts_union(ISSUE_HEAD, ISSUE_CODES).0;

/// `export type EvidenceCode = "catalogue_invalid" | …;`, made from the kinds' code lists.
pub const EVIDENCE_CODE_TS: &str = match core::str::from_utf8(&EVIDENCE_TS_BYTES) {
    Ok(s) => s,
    Err(_) => "export type EvidenceCode = string;",
};

/// `export type IssueCode = "invalid_json" | …;`, made from [`ViolationCode::ALL`].
pub const ISSUE_CODE_TS: &str = match core::str::from_utf8(&ISSUE_TS_BYTES) {
    Ok(s) => s,
    Err(_) => "export type IssueCode = string;",
};
