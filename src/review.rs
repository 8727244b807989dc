//! Reviews: a trusted reviewer's verdict on one claim, bound to the scope and to the
//! digest of the exact report reviewed. Recording one does no authentication and no
//! semantic judgement; the host's review entry point is trusted.

use serde::Serialize;
use serde_json::Value;

use crate::clock::Clock;
use crate::rules::{is_blank, DIGEST};
use crate::json::{join, Node};
use crate::contract::Checker;
use crate::contract::{rule, Contract, Report, Scope};
use crate::digest::{report_digest, WriteCanonical};

/// A reviewer's verdict on whether the cited passages support a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Verdict {
    Supported,
    Insufficient,
    Contradicted,
}

impl Verdict {
    pub const ALL: [(&'static str, Verdict); 3] =
        [("supported", Verdict::Supported), ("insufficient", Verdict::Insufficient), ("contradicted", Verdict::Contradicted)];

    pub fn parse(s: &str) -> Option<Verdict> {
        Self::ALL.iter().find(|(n, _)| *n == s).map(|(_, v)| *v)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Supported => "supported",
            Self::Insufficient => "insufficient",
            Self::Contradicted => "contradicted",
        }
    }
}

/// A field of a review as a host gives it to [`record_review_value_with`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewField {
    ClaimId,
    Verdict,
    Note,
}

impl ReviewField {
    /// The most UTF-16 units the field's string can have and still be accepted under
    /// `policy`: a claim id's (the policy's identifier rule), the longest verdict's, a
    /// note's at two units a code point. A longer string is refused by the same rule as a
    /// value that is not a string, so a host can give `null` instead of copying it.
    pub fn max_units(self, policy: &crate::policy::Policy) -> usize {
        match self {
            Self::ClaimId => policy.identifier.max_units(),
            Self::Verdict => Verdict::ALL.iter().map(|(name, _)| name.len()).max().unwrap_or(0),
            Self::Note => policy.max_note_chars.saturating_mul(2),
        }
    }
}

/// Maximum note length, in code points, under the reference policy (`max_note_chars`).
pub const MAX_NOTE_CHARS: usize = 1000;

/// A recorded review.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Review {
    pub scope: Scope,
    pub report_digest: String,
    pub claim_id: String,
    pub verdict: Verdict,
    pub note: String,
    pub reviewed_at: String,
    /// HMAC-SHA-256 (hex) over the review's canonical JSON without this field, when the
    /// host signs its reviews (see [`sign_review`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub signature: Option<String>,
}

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// The canonical JSON a review's signature is made over: the review without its signature.
pub fn signed_payload(review: &Review) -> String {
    let mut out = String::with_capacity(review.note.len() + review.claim_id.len() + 256);
    review.write_fields(&mut out, false);
    out
}

impl Review {
    /// Writes the review's canonical JSON, with its signature (when it has one) if `signed`.
    fn write_fields(&self, out: &mut String, signed: bool) {
        use crate::digest::write_object;
        let head: [(&str, &dyn WriteCanonical); 5] = [
            ("claim_id", &self.claim_id),
            ("note", &self.note),
            ("report_digest", &self.report_digest),
            ("reviewed_at", &self.reviewed_at),
            ("scope", &self.scope),
        ];
        match self.signature.as_ref().filter(|_| signed) {
            Some(sig) => {
                let [a, b, c, d, e] = head;
                write_object(out, &[a, b, c, d, e, ("signature", sig), ("verdict", &self.verdict)]);
            }
            None => {
                let [a, b, c, d, e] = head;
                write_object(out, &[a, b, c, d, e, ("verdict", &self.verdict)]);
            }
        }
    }
}

impl WriteCanonical for Verdict {
    fn write_canonical(&self, out: &mut String) {
        crate::digest::write_json_string(out, self.as_str());
    }
}

/// A review as `serde_json` writes it (its signature when it has one), in canonical form.
impl WriteCanonical for Review {
    fn write_canonical(&self, out: &mut String) {
        self.write_fields(out, true);
    }
}

fn mac(review: &Review, key: &[u8]) -> Option<HmacSha256> {
    use hmac::Mac;
    let payload = signed_payload(review);
    let mut m = <HmacSha256 as Mac>::new_from_slice(key).ok()?;
    m.update(payload.as_bytes());
    Some(m)
}

/// Signs a review with the host's key: HMAC-SHA-256 over its canonical JSON (without a
/// signature), so that it can travel through places the host does not trust.
pub fn sign_review(review: &Review, key: &[u8]) -> Review {
    use hmac::Mac;
    let signature = mac(review, key).map(|m| crate::digest::hex(&m.finalize().into_bytes()));
    Review { signature, ..review.clone() }
}


/// Checks a review's signature in constant time.
pub fn verify_review(review: &Review, key: &[u8]) -> Result<(), SignatureProblem> {
    use hmac::Mac;
    let given = review.signature.as_deref().ok_or(SignatureProblem::Missing)?;
    let bytes = decode_hex(given).ok_or(SignatureProblem::Invalid)?;
    mac(review, key).ok_or(SignatureProblem::Invalid)?.verify_slice(&bytes).map_err(|_| SignatureProblem::Invalid)
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok())).collect()
}

impl Review {
    pub(crate) const FIELDS: &'static [&'static str] = &["scope", "report_digest", "claim_id", "verdict", "note", "reviewed_at", "signature"];
}

impl Contract for Review {
    const SUBJECT: &'static str = "review";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, Self::FIELDS)?;
        let scope = c.required(m, path, "scope").and_then(|s| Scope::check(c, s, &join(path, "scope")));
        let report_digest = c.string_field(m, path, "report_digest", &DIGEST);
        let claim_id = c.string_field(m, path, "claim_id", &c.limits.identifier_rule());
        let verdict = c.literal_field(m, path, "verdict", &Verdict::ALL);
        let note = c.string_field(m, path, "note", &rule::note(&c.limits));
        let reviewed_at = c.string_field(m, path, "reviewed_at", &rule::DATE_TIME);
        let signature = match m.get("signature") {
            Some(s) => c.string(s, &join(path, "signature"), &DIGEST).map(Some),
            None => Some(None),
        };
        if c.count() != before {
            return None;
        }
        Some(Review {
            scope: scope?,
            report_digest: report_digest?,
            claim_id: claim_id?,
            verdict: verdict?,
            note: note?,
            reviewed_at: reviewed_at?,
            signature: signature?,
        })
    }
}

/// Records a review of `claim_id` in `report`. The claim must exist, the verdict must
/// be one of the three, and the note must be non-blank and at most 1,000 code points.
pub fn record_review(
    scope: &Scope,
    report: &Report,
    claim_id: &str,
    verdict: &str,
    note: &str,
    clock: &Clock,
) -> Result<Review, ReviewErrorKind> {
    record_review_with(scope, report, claim_id, verdict, note, clock, &crate::policy::Policy::reference())
}

/// [`record_review`] under a policy (its `max_note_chars`).
pub fn record_review_with(
    scope: &Scope,
    report: &Report,
    claim_id: &str,
    verdict: &str,
    note: &str,
    clock: &Clock,
    policy: &crate::policy::Policy,
) -> Result<Review, ReviewErrorKind> {
    let [claim_id, verdict, note] = [claim_id, verdict, note].map(|s| Value::String(s.to_owned()));
    record_review_digested(scope, report, None, &claim_id, &verdict, &note, clock, policy)
}

/// [`record_review`] for untyped input (a host's JSON): a claim id that is not a string
/// names no claim, a verdict that is not a string is invalid, and so is such a note.
pub fn record_review_value(
    scope: &Scope,
    report: &Report,
    claim_id: &Value,
    verdict: &Value,
    note: &Value,
    clock: &Clock,
) -> Result<Review, ReviewErrorKind> {
    record_review_value_with(scope, report, claim_id, verdict, note, clock, &crate::policy::Policy::reference())
}

/// [`record_review_value`] under a policy.
pub fn record_review_value_with(
    scope: &Scope,
    report: &Report,
    claim_id: &Value,
    verdict: &Value,
    note: &Value,
    clock: &Clock,
    policy: &crate::policy::Policy,
) -> Result<Review, ReviewErrorKind> {
    record_review_digested(scope, report, None, claim_id, verdict, note, clock, policy)
}

/// [`record_review_value_with`] given the report's digest when it is already known
/// (`None`: computed here, once the review is accepted).
#[allow(clippy::too_many_arguments)] // record_review_value_with's arguments and the digest
fn record_review_digested(
    scope: &Scope,
    report: &Report,
    digest: Option<&str>,
    claim_id: &Value,
    verdict: &Value,
    note: &Value,
    clock: &Clock,
    policy: &crate::policy::Policy,
) -> Result<Review, ReviewErrorKind> {
    let claim_id = claim_id.as_str().filter(|id| report.claim(id).is_some()).ok_or(ReviewErrorKind::UnknownClaim)?;
    let verdict = verdict.as_str().and_then(Verdict::parse).ok_or(ReviewErrorKind::InvalidVerdict)?;
    let note = note.as_str().ok_or(ReviewErrorKind::InvalidNote)?;
    // (A note has no more code points than bytes: they are counted only when that could matter.)
    if is_blank(note) || (note.len() > policy.max_note_chars && note.chars().count() > policy.max_note_chars) {
        return Err(ReviewErrorKind::InvalidNote);
    }
    Ok(Review {
        scope: scope.clone(),
        report_digest: digest.map_or_else(|| report_digest(report), str::to_owned),
        claim_id: claim_id.to_owned(),
        verdict,
        note: note.to_owned(),
        reviewed_at: clock.now(),
        signature: None,
    })
}

/// The subject and numbers of a refused review: the claim id it names, or
/// the note's length against the policy's limit (`note_chars`, when the note is a string).
pub fn refusal_detail(kind: ReviewErrorKind, claim_id: &Value, note_chars: Option<usize>, policy: &crate::policy::Policy) -> Option<crate::error::Detail> {
    use crate::error::Detail;
    match kind {
        ReviewErrorKind::UnknownClaim => claim_id.as_str().map(|c| Detail { claim_id: Some(c.to_owned()), ..Detail::default() }),
        ReviewErrorKind::InvalidNote => note_chars
            .filter(|n| *n > policy.max_note_chars)
            .map(|n| policy.limit_detail(n, "code_points", "max_note_chars")),
        _ => None,
    }
}

/// Review records as a host gives them (a JSON array, `null` for none), checked as one
/// list with paths `/0`, `/1`, …
pub fn reviews_from_value(v: &Value) -> Result<Vec<Review>, crate::error::ContractError> {
    if v.is_null() {
        return Ok(Vec::new());
    }
    crate::contract::list_from_value(v, "reviews", <Review as crate::contract::Contract>::check, |_, _| {})
}

/// Review records as JSON text (`null` for none), read as a JSON argument is (strict
/// JSON under `max_bytes`) and checked as [`reviews_from_value`] checks them: errors of
/// the JSON text and of the records both name the `reviews`.
pub fn reviews_from_json(text: &str, max_bytes: usize) -> Result<Vec<Review>, crate::error::ContractError> {
    reviews_from_value(&crate::json::parse_strict(text, max_bytes, "reviews")?)
}

/// [`record_review_value_with`], then signed with `key` when one is given (HMAC-SHA-256 over
/// the review's canonical JSON, see [`sign_review`]). A refusal names the claim, or the
/// note's length against the policy's limit: its code points, or, for a note the host did
/// not copy (`note` is then `null`), `host_note_len`, the host's own length of it.
/// `report`: a `&Report`, or a [`Digested`] whose digest is already known
/// (then it is not computed again).
#[allow(clippy::too_many_arguments)] // the review's fields, its context and the key, as the JS call takes them
pub fn record_review_signed<'r>(
    scope: &Scope,
    report: impl Into<Digested<'r>>,
    claim_id: &Value,
    verdict: &Value,
    note: &Value,
    clock: &Clock,
    host_note_len: Option<usize>,
    policy: &crate::policy::Policy,
    key: Option<&[u8]>,
) -> Result<Review, ReviewRefusal> {
    let report = report.into();
    let review = record_review_digested(scope, report.report, report.digest, claim_id, verdict, note, clock, policy).map_err(|kind| {
        let note_chars = note.as_str().map(|n| n.chars().count()).or(host_note_len);
        ReviewRefusal { kind, detail: refusal_detail(kind, claim_id, note_chars, policy).filter(|_| !policy.reference_messages).map(Box::new) }
    })?;
    Ok(match key {
        Some(k) => sign_review(&review, k),
        None => review,
    })
}

/// A refused review: its kind, and its subject and numbers when known (see [`refusal_detail`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRefusal {
    pub kind: ReviewErrorKind,
    pub detail: Option<Box<crate::error::Detail>>,
}

impl crate::error::Coded for ReviewRefusal {
    fn code(&self) -> &'static str {
        self.kind.code()
    }
    fn message(&self, lang: crate::error::Lang) -> String {
        let base = self.kind.message_in(lang);
        self.detail.as_ref().map_or_else(|| base.to_owned(), |d| d.message(base, lang))
    }
    /// The claim or the note's length and limit as `detail`.
    fn details(&self) -> Vec<(&'static str, Value)> {
        self.detail.as_ref().and_then(|d| serde_json::to_value(&**d).ok()).map(|v| vec![("detail", v)]).unwrap_or_default()
    }
}

/// A report and its digest when it is already known (`None`: computed where needed).
#[derive(Clone, Copy, Debug)]
pub struct Digested<'r> {
    pub report: &'r Report,
    pub digest: Option<&'r str>,
}

impl<'r> From<&'r Report> for Digested<'r> {
    fn from(report: &'r Report) -> Self {
        Digested { report, digest: None }
    }
}


// ---- the review's errors ------------------------------------------------------------

crate::error::coded_enum! {
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

crate::error::coded_enum! {
    /// Why a review was refused under a review key (an issue of the assessment).
    SignatureProblem {
        /// The review carries no signature.
        Missing => ("review_signature_missing", "审阅记录没有签名;设置审阅密钥时每条审阅都必须签名。", "The review is not signed; with a review key every review must carry a signature."),
        /// The signature does not match the review's content and the key.
        Invalid => ("review_signature_invalid", "审阅签名不匹配:记录被改动或使用了其他密钥。", "The review's signature does not match: it was altered or signed with another key."),
    }
}
