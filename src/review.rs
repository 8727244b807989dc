//! Reviews: a trusted reviewer's verdict on one claim, bound to the scope and to the
//! digest of the exact report reviewed. Recording one does no authentication and no
//! semantic judgement; the host's review entry point is trusted.

use serde::Serialize;
use serde_json::Value;

use crate::clock::Clock;
use crate::contract::validate::{self, is_blank, join, sized, Checker, DIGEST};
use crate::contract::{Contract, Report, Scope};
use crate::digest::report_digest;
use crate::error::ReviewErrorKind;

/// A reviewer's verdict on whether the cited passages support a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
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

/// Maximum note length, in code points.
pub const MAX_NOTE_CHARS: usize = 1000;

/// A recorded review.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Review {
    pub scope: Scope,
    pub report_digest: String,
    pub claim_id: String,
    pub verdict: Verdict,
    pub note: String,
    pub reviewed_at: String,
}

impl Contract for Review {
    const SUBJECT: &'static str = "review";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["scope", "report_digest", "claim_id", "verdict", "note", "reviewed_at"])?;
        let scope = c.required(m, path, "scope").and_then(|s| Scope::check(c, s, &join(path, "scope")));
        let report_digest = c.string_field(m, path, "report_digest", &DIGEST);
        let claim_id = c.string_field(m, path, "claim_id", &validate::IDENTIFIER);
        let verdict = c.literal_field(m, path, "verdict", &Verdict::ALL);
        let note = c.string_field(m, path, "note", &sized(1, MAX_NOTE_CHARS));
        let reviewed_at = c.string_field(m, path, "reviewed_at", &sized(1, 64));
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
    if report.claim(claim_id).is_none() {
        return Err(ReviewErrorKind::UnknownClaim);
    }
    let verdict = Verdict::parse(verdict).ok_or(ReviewErrorKind::InvalidVerdict)?;
    if is_blank(note) || note.chars().count() > MAX_NOTE_CHARS {
        return Err(ReviewErrorKind::InvalidNote);
    }
    Ok(Review {
        scope: scope.clone(),
        report_digest: report_digest(report),
        claim_id: claim_id.to_owned(),
        verdict,
        note: note.to_owned(),
        reviewed_at: clock.now(),
    })
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
    let claim_id = claim_id.as_str().ok_or(ReviewErrorKind::UnknownClaim)?;
    if report.claim(claim_id).is_none() {
        return Err(ReviewErrorKind::UnknownClaim);
    }
    let verdict = verdict.as_str().ok_or(ReviewErrorKind::InvalidVerdict)?;
    Verdict::parse(verdict).ok_or(ReviewErrorKind::InvalidVerdict)?;
    let note = note.as_str().ok_or(ReviewErrorKind::InvalidNote)?;
    record_review(scope, report, claim_id, verdict, note, clock)
}
