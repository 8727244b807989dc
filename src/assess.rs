//! Assessment: per-claim states and the overall status, with the reference's
//! precedence, and the list of issues. Existence (the quote is at that range of that
//! revision) and support (a reviewer's verdict) are checked separately.

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::contract::{Citation, Report, Scope};
use crate::review::ReviewErrorKind;
use crate::store::StoreError;
use crate::review::{Review, Verdict};
use crate::store::{EvidenceStore, Snapshot};

/// The state of one claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum ClaimState {
    /// A citation failed its check.
    Invalid,
    /// No citations, or a reviewer found them insufficient.
    Insufficient,
    /// The report lists the claim in a conflict.
    Disputed,
    /// Citations hold; no reviewer has looked yet.
    PendingReview,
    /// A reviewer found the citations support the claim.
    Supported,
    /// A reviewer found the citations contradict the claim.
    Contradicted,
}

impl ClaimState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Invalid => "invalid",
            Self::Insufficient => "insufficient",
            Self::Disputed => "disputed",
            Self::PendingReview => "pending_review",
            Self::Supported => "supported",
            Self::Contradicted => "contradicted",
        }
    }
}

impl From<Verdict> for ClaimState {
    fn from(v: Verdict) -> Self {
        match v {
            Verdict::Supported => Self::Supported,
            Verdict::Insufficient => Self::Insufficient,
            Verdict::Contradicted => Self::Contradicted,
        }
    }
}

/// The overall status of a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Status {
    /// Some citation is invalid; the report is never exported.
    Invalid,
    /// Gaps, or a claim that is insufficient, contradicted or disputed.
    Partial,
    /// Every citation holds, some claim waits for review.
    NeedsReview,
    /// Every claim is reviewed as supported and nothing is missing: still a candidate,
    /// not a proof.
    ReviewedCandidate,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Invalid => "invalid",
            Self::Partial => "partial",
            Self::NeedsReview => "needs_review",
            Self::ReviewedCandidate => "reviewed_candidate",
        }
    }
}

/// One problem found while assessing: a citation that failed its check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Issue {
    pub claim_id: String,
    /// The failed citation; `null` for a review's problem.
    pub citation_id: Option<String>,
    #[cfg_attr(test, ts(type = "EvidenceCode"))]
    pub code: &'static str,
    pub message: String,
    /// Where the exact quote occurs in the source's current revision, when the
    /// citation is stale or its range no longer holds the quote. Never applied: the
    /// citation stays invalid until the report is corrected.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub hint: Option<Box<RepairHint>>,
    /// The subject and numbers (source id, review index, revisions, digests, range and
    /// text length); absent under `compat: "reference"`.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(skip))] // flattened: src/ts.rs declares the type `& Detail`
    pub detail: Option<Box<crate::error::Detail>>,
}

/// A repair hint for a failed citation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RepairHint {
    /// The current revision of the cited source (in this scope).
    #[serde(rename = "ref")]
    pub current_ref: crate::contract::SourceRef,
    /// How many times the exact quote occurs there, overlapping occurrences counted
    /// ("aa" occurs twice in "aaa"); at least 1.
    pub occurrences: usize,
    /// Its code-point range, when it occurs exactly once.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub start: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub end: Option<u64>,
}

/// Looks for the quote of a failed citation in its source's current revision.
fn repair_hint(scope: &Scope, store: &EvidenceStore, citation: &Citation) -> Option<Box<RepairHint>> {
    let snapshot = store.current(scope, &citation.source_ref.source_id)?;
    let starts = crate::store::locate::occurrences(&snapshot.index, &snapshot.content, &citation.quote, crate::store::locate::Counting::Overlapping);
    let occurrences = starts.len();
    if occurrences == 0 {
        return None;
    }
    let unique = match starts.as_slice() {
        [s] => Some((*s as u64, (*s + citation.quote.chars().count()) as u64)),
        _ => None,
    };
    Some(Box::new(RepairHint { current_ref: snapshot.source_ref.clone(), occurrences, start: unique.map(|u| u.0), end: unique.map(|u| u.1) }))
}

/// The result of assessing a report.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Assessment {
    pub status: Status,
    pub report_digest: String,
    /// Every claim's state, in the report's order.
    #[cfg_attr(test, ts(type = "Record<string, ClaimState>"))]
    pub claims: Vec<(String, ClaimState)>,
    pub issues: Vec<Issue>,
}

/// The message of an issue's code in a language: the codes an assessment's issues
/// carry are the store's, the reviews' and the contract's.
fn issue_message(code: &str, lang: crate::error::Lang) -> Option<&'static str> {
    use crate::citation::OffsetErrorKind;
    use crate::clock::ClockErrorKind;
    use crate::error::ViolationCode;
    use crate::review::SignatureProblem;
    use crate::store::StoreErrorKind;
    StoreErrorKind::ALL
        .iter()
        .find(|k| k.code() == code)
        .map(|k| k.message_in(lang))
        .or_else(|| ReviewErrorKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| SignatureProblem::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| OffsetErrorKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| ClockErrorKind::ALL.iter().find(|k| k.code() == code).map(|k| k.message_in(lang)))
        .or_else(|| ViolationCode::ALL.iter().find(|k| k.code() == code).and_then(|k| k.reference_message_in(lang)))
}

/// A message held by an issue, in no more room than its text: a list of issues may be one
/// per review, and a message written piece by piece has room to grow.
fn fitted(mut message: String) -> String {
    message.shrink_to_fit();
    message
}

impl Assessment {
    /// Rewrites the issues' messages in `lang` (they are made in the reference's Chinese).
    pub fn localize(&mut self, lang: crate::error::Lang) {
        for issue in &mut self.issues {
            if let Some(m) = issue_message(issue.code, lang) {
                issue.message = match &issue.detail {
                    Some(d) => fitted(d.message(m, lang)),
                    None => m.to_owned(),
                };
            }
        }
    }

    pub fn state(&self, claim_id: &str) -> Option<ClaimState> {
        self.claims.iter().find(|(id, _)| id == claim_id).map(|(_, s)| *s)
    }
}

struct ClaimStates<'a>(&'a [(String, ClaimState)]);

impl Serialize for ClaimStates<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (id, state) in self.0 {
            m.serialize_entry(id, state)?;
        }
        m.end()
    }
}

impl Serialize for Assessment {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Assessment", 4)?;
        st.serialize_field("status", &self.status)?;
        st.serialize_field("report_digest", &self.report_digest)?;
        st.serialize_field("claims", &ClaimStates(&self.claims))?;
        st.serialize_field("issues", &self.issues)?;
        st.end()
    }
}

/// An assessment with what rendering needs: the valid citations in first-seen order
/// with their snapshots, and the reviews by claim.
pub struct Checked<'r> {
    pub assessment: Assessment,
    pub citations: Vec<(&'r Citation, Arc<Snapshot>)>,
    pub reviews: BTreeMap<&'r str, &'r Review>,
    /// The store's policy (the artifact's limits).
    pub policy: crate::policy::Policy,
}

/// What to do with a review bound to another report digest or scope, or a second
/// review of one claim.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ReviewMode {
    /// The reference's: refuse the whole call (`review_mismatch`).
    #[default]
    Throw,
    /// Report it as an issue of the assessment (`review_stale_digest`,
    /// `review_other_scope`, `review_duplicate`) and do not count it; the claim stays
    /// `pending_review`. `checkBundle` and the CLI do this.
    Report,
}

/// How to check a report (see [`check_opts`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions<'k> {
    /// When set, every review must carry a valid HMAC signature made with this key.
    pub review_key: Option<&'k [u8]>,
    pub reviews: ReviewMode,
    /// The report's digest when the caller already has it (a parsed report handle
    /// computed it once, see [`crate::parsed::ParsedReport`]); it must be the report's.
    pub report_digest: Option<&'k str>,
}

/// Checks that every review belongs to this scope and this exact report and that no
/// claim is reviewed twice. In [`ReviewMode::Report`] each such review is an issue and
/// is left out; a review of a claim the report does not have still throws.
fn review_map<'r>(
    scope: &Scope,
    report: &Report,
    digest: &str,
    reviews: Vec<(usize, &'r Review)>,
    mode: ReviewMode,
    reference: bool,
    issues: &mut Vec<Issue>,
) -> Result<BTreeMap<&'r str, &'r Review>, ReviewFailure> {
    let mut map: BTreeMap<&str, &Review> = BTreeMap::default();
    for (index, review) in reviews {
        let problem = if review.scope != *scope {
            Some(ReviewErrorKind::ReviewOtherScope)
        } else if review.report_digest != digest {
            Some(ReviewErrorKind::ReviewStaleDigest)
        } else if map.contains_key(review.claim_id.as_str()) {
            Some(ReviewErrorKind::ReviewDuplicate)
        } else {
            None
        };
        if let Some(kind) = problem {
            if mode == ReviewMode::Throw {
                return Err((ReviewErrorKind::ReviewMismatch, None));
            }
            let mut detail = crate::error::Detail { review_index: Some(index), ..Default::default() };
            if kind == ReviewErrorKind::ReviewStaleDigest {
                // The review cites a report digest; the report's own is the current one.
                detail.cited_digest = Some(review.report_digest.clone());
                detail.current_digest = Some(digest.to_owned());
            }
            issues.push(Issue {
                claim_id: review.claim_id.clone(),
                citation_id: None,
                code: kind.code(),
                message: fitted(detail.message(kind.message(), crate::error::Lang::Zh)),
                hint: None,
                detail: Some(Box::new(detail)),
            });
            continue;
        }
        if report.claim(&review.claim_id).is_none() {
            // The review's index in the list given, and the claim it names.
            let detail = (!reference).then(|| Box::new(crate::error::Detail { review_index: Some(index), claim_id: Some(review.claim_id.clone()), ..Default::default() }));
            return Err((ReviewErrorKind::ReviewTargetMissing, detail));
        }
        map.insert(&review.claim_id, review);
    }
    Ok(map)
}

/// Assesses `report` against the store's current snapshots in `scope`.
pub fn assess(scope: &Scope, report: &Report, store: &EvidenceStore, reviews: &[Review]) -> Result<Assessment, ReviewErrorKind> {
    check(scope, report, store, reviews).map(|c| c.assessment)
}

/// [`check_opts`]'s assessment with its issues' messages in a language.
pub fn assess_in(scope: &Scope, report: &Report, store: &EvidenceStore, reviews: &[Review], options: CheckOptions<'_>, lang: crate::error::Lang) -> Result<Assessment, ReviewErrorKind> {
    assess_detailed_in(scope, report, store, reviews, options, lang).map_err(|r| r.kind)
}

/// [`assess_in`], a refusal with its subject ([`ReviewRefusal`]).
pub fn assess_detailed_in(scope: &Scope, report: &Report, store: &EvidenceStore, reviews: &[Review], options: CheckOptions<'_>, lang: crate::error::Lang) -> Result<Assessment, ReviewRefusal> {
    let mut a = check_detailed(scope, report, store, reviews, options).map_err(|(kind, detail)| ReviewRefusal { kind, detail })?.assessment;
    a.localize(lang);
    Ok(a)
}

/// A [`ReviewFailure`] as an error: `review_target_missing` names the review's index and
/// its claim in the message (with the path `/reviews/INDEX`) and as `detail`; without a
/// subject (under `compat: "reference"`) it is the kind's message alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRefusal {
    pub kind: ReviewErrorKind,
    pub detail: Option<Box<crate::error::Detail>>,
}

/// The message of a refusal of the reviews with its subject, at `/reviews/INDEX`.
pub fn review_refusal_message(kind: ReviewErrorKind, detail: &crate::error::Detail, lang: crate::error::Lang) -> String {
    let at = detail.review_index.map_or_else(|| "/reviews".to_owned(), |i| format!("/reviews/{i}"));
    format!("{} ({at})", detail.message(kind.message_in(lang), lang))
}

impl crate::error::Coded for ReviewRefusal {
    fn code(&self) -> &'static str {
        self.kind.code()
    }
    fn message(&self, lang: crate::error::Lang) -> String {
        match &self.detail {
            Some(d) => review_refusal_message(self.kind, d, lang),
            None => self.kind.message_in(lang).to_owned(),
        }
    }
    fn details(&self) -> Vec<(&'static str, serde_json::Value)> {
        self.detail.as_ref().and_then(|d| serde_json::to_value(&**d).ok()).map(|v| vec![("detail", v)]).unwrap_or_default()
    }
}

/// [`assess`], keeping what rendering needs.
pub fn check<'r>(scope: &Scope, report: &'r Report, store: &EvidenceStore, reviews: &'r [Review]) -> Result<Checked<'r>, ReviewErrorKind> {
    check_with(scope, report, store, reviews, None)
}

/// [`check`] with a review key: a review whose signature is missing or wrong is not
/// used, and is an issue of the assessment.
pub fn check_with<'r>(
    scope: &Scope,
    report: &'r Report,
    store: &EvidenceStore,
    reviews: &'r [Review],
    review_key: Option<&[u8]>,
) -> Result<Checked<'r>, ReviewErrorKind> {
    check_opts(scope, report, store, reviews, CheckOptions { review_key, reviews: ReviewMode::Throw, report_digest: None })
}

/// [`check_with`] with every option. The store's policy decides the codes and messages:
/// under `compat: "reference"` ([`crate::policy::Policy::reference_messages`]) issues
/// have the reference's codes and texts and no subject fields.
pub fn check_opts<'r>(scope: &Scope, report: &'r Report, store: &EvidenceStore, reviews: &'r [Review], options: CheckOptions<'_>) -> Result<Checked<'r>, ReviewErrorKind> {
    check_detailed(scope, report, store, reviews, options).map_err(|(k, _)| k)
}

/// A refusal of the reviews, and its subject when it has one: `review_target_missing`
/// names the review's index and its claim (none under `compat: "reference"`).
pub type ReviewFailure = (ReviewErrorKind, Option<Box<crate::error::Detail>>);

/// [`check_opts`], a refusal with its subject ([`ReviewFailure`]).
pub fn check_detailed<'r>(scope: &Scope, report: &'r Report, store: &EvidenceStore, reviews: &'r [Review], options: CheckOptions<'_>) -> Result<Checked<'r>, ReviewFailure> {
    let reference = store.policy().reference_messages;
    let digest = options.report_digest.map_or_else(|| store.report_digest(report), str::to_owned);
    // Each review is at most one issue (its signature's or its own), and a review that is
    // none is counted for one claim: room for every review spares the list's regrowth.
    let review_issues = options.reviews == ReviewMode::Report || options.review_key.is_some();
    let mut issues = Vec::with_capacity(if review_issues { reviews.len() } else { 0 });
    let signed: Vec<(usize, &Review)> = reviews
        .iter()
        .enumerate()
        .filter(|(index, r)| match options.review_key.map(|k| crate::review::verify_review(r, k)) {
            Some(Err(problem)) => {
                let detail = (!reference).then(|| Box::new(crate::error::Detail { review_index: Some(*index), ..Default::default() }));
                issues.push(Issue {
                    claim_id: r.claim_id.clone(),
                    citation_id: None,
                    code: problem.code(),
                    message: detail.as_ref().map_or_else(|| problem.message().to_owned(), |d| d.message(problem.message(), crate::error::Lang::Zh)),
                    hint: None,
                    detail,
                });
                false
            }
            _ => true,
        })
        .collect();
    let reviews = review_map(scope, report, &digest, signed, options.reviews, reference, &mut issues)?;
    // Extended, not collected: a set collected from an iterator compiles a sort of its own.
    let mut disputed = BTreeSet::new();
    disputed.extend(report.conflicts.iter().flat_map(|c| c.claim_ids.iter().map(String::as_str)));
    let mut valid: BTreeMap<&str, usize> = BTreeMap::default();
    let mut citations: Vec<(&Citation, Arc<Snapshot>)> = Vec::new();
    let mut states = Vec::with_capacity(report.claims.len());
    for claim in &report.claims {
        let mut invalid = false;
        for citation in &claim.citations {
            if valid.contains_key(citation.citation_id.as_str()) {
                continue;
            }
            match store.check_citation(scope, citation) {
                Ok(snapshot) => {
                    valid.insert(&citation.citation_id, citations.len());
                    citations.push((citation, Arc::clone(snapshot)));
                }
                Err(e) => {
                    let mut found = issue(&claim.claim_id, &citation.citation_id, &e, reference);
                    if matches!(e.reference_code(), "ref_unavailable" | "quote_mismatch" | "range_out_of_bounds") {
                        found.hint = repair_hint(scope, store, citation);
                    }
                    issues.push(found);
                    invalid = true;
                }
            }
        }
        let state = if invalid {
            ClaimState::Invalid
        } else if claim.citations.is_empty() {
            ClaimState::Insufficient
        } else if disputed.contains(claim.claim_id.as_str()) {
            ClaimState::Disputed
        } else {
            match reviews.get(claim.claim_id.as_str()) {
                Some(r) => r.verdict.into(),
                None => ClaimState::PendingReview,
            }
        };
        states.push((claim.claim_id.clone(), state));
    }
    // Review issues are findings about the reviews, not about the citations: the claims
    // they concern stay pending_review and the status follows the claims.
    let status = if issues.iter().any(|i| !is_uncounted_review(i.code)) {
        Status::Invalid
    } else if !report.gaps.is_empty()
        || states.iter().any(|(_, s)| matches!(s, ClaimState::Insufficient | ClaimState::Contradicted | ClaimState::Disputed))
    {
        Status::Partial
    } else if states.iter().any(|(_, s)| *s == ClaimState::PendingReview) {
        Status::NeedsReview
    } else {
        Status::ReviewedCandidate
    };
    Ok(Checked {
        assessment: Assessment { status, report_digest: digest, claims: states, issues },
        citations,
        reviews,
        policy: store.policy().clone(),
    })
}

/// The codes of reviews left out in [`ReviewMode::Report`]: they do not make the report invalid.
pub fn is_uncounted_review(code: &str) -> bool {
    matches!(code, "review_stale_digest" | "review_other_scope" | "review_duplicate")
}

fn issue(claim_id: &str, citation_id: &str, e: &StoreError, reference: bool) -> Issue {
    let (code, message, detail) = if reference {
        (e.reference_code(), e.reference_message(), None)
    } else {
        (e.code(), e.message(), e.detail().cloned().map(Box::new))
    };
    Issue { claim_id: claim_id.to_owned(), citation_id: Some(citation_id.to_owned()), code, message, hint: None, detail }
}
