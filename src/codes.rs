//! Every code the crate can raise, in one place: the message of any code in a language,
//! and the codes as TypeScript string-literal unions (the .d.ts is made from these). It
//! sits above every module that owns a kind of error.

use crate::catalog::CatalogErrorKind;
use crate::citation::OffsetErrorKind;
use crate::clock::ClockErrorKind;
use crate::error::{BindingErrorKind, Lang, ViolationCode};
use crate::render::RenderErrorKind;
use crate::review::{ReviewErrorKind, SignatureProblem};
use crate::store::StoreErrorKind;
use crate::import::provider::ImportIssueKind;

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
        .or_else(|| ImportIssueKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| ViolationCode::ALL.iter().find(|k| k.code() == code).and_then(|k| k.reference_message_in(lang)))
}

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
    crate::import::ModelResponseError::CODES,
    crate::annotation::AnnotationError::CODES,
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
