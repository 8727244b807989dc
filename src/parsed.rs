//! Reports and reviews read once: what the binding's `ReportHandle` and
//! `Reviews` hold, so that a call given one reads, validates and digests nothing again.
//!
//! A parsed report remembers the policy it was read under. A call under the same policy
//! uses it as it is; a call under another policy reads it again from its JSON under
//! that policy, exactly as the same call given the plain object would, so a handle never
//! lets through what the plain path refuses.


use crate::json::DEFAULT_MAX_INPUT_BYTES;
use crate::contract::{Contract, Report};
use crate::error::ContractError;
use crate::policy::Policy;
use crate::review::{Digested, Review};
use crate::schema::Dialect;

/// A validated report, its digest (computed once, when first needed) and the policy it
/// was read under.
#[derive(Clone, Debug)]
pub struct ParsedReport {
    report: Report,
    digest: std::cell::OnceCell<String>,
    policy: Policy,
}

impl ParsedReport {
    /// A report checked under `policy`.
    pub fn new(report: Report, policy: Policy) -> ParsedReport {
        ParsedReport { report, digest: std::cell::OnceCell::new(), policy }
    }

    /// Reads and checks JSON text in a dialect under a policy (as `parseReport`).
    pub fn from_json_in(text: &str, dialect: Dialect, policy: &Policy) -> Result<ParsedReport, ContractError> {
        Report::from_json_in(text, dialect, policy).map(|r| ParsedReport::new(r, policy.clone()))
    }

    pub fn report(&self) -> &Report {
        &self.report
    }

    /// SHA-256 hex of the report's canonical JSON (`report_digest`), computed on the first
    /// call, by the host's SHA-256 where one is installed: the same digest.
    pub fn digest(&self) -> &str {
        self.digest.get_or_init(|| crate::digest::sha256_hex_hosted(&crate::digest::canonical_report(&self.report)))
    }

    /// The policy the report was read under.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The claim ids, in the report's order.
    pub fn claim_ids(&self) -> Vec<&str> {
        self.report.claims.iter().map(|c| c.claim_id.as_str()).collect()
    }

    /// Checks the report as a call under `policy` checks a report given as an object:
    /// nothing to do under the policy it was read with; under another, its JSON is read
    /// again under that policy (its limits, rules and messages), as the plain path does.
    pub fn check_under(&self, policy: &Policy) -> Result<(), ContractError> {
        if *policy == self.policy {
            return Ok(());
        }
        // Serialising plain structs of strings and integers cannot fail.
        let text = serde_json::to_string(&self.report).unwrap_or_default();
        Report::from_json_with(&text, policy).map(|_| ())
    }
}

impl<'r> From<&'r ParsedReport> for Digested<'r> {
    fn from(parsed: &'r ParsedReport) -> Self {
        Digested { report: &parsed.report, digest: Some(parsed.digest()) }
    }
}

/// Reviews checked one by one as they are added, each as the item it becomes of the list
/// `assess` and `render` read (the same rules, and paths `/0`, `/1`, …).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReviewList {
    reviews: Vec<Review>,
}

impl ReviewList {
    /// Reads a list given as JSON text as `assess` reads it (`null` for none).
    pub fn from_json(text: &str) -> Result<ReviewList, ContractError> {
        crate::review::reviews_from_json(text, DEFAULT_MAX_INPUT_BYTES).map(|reviews| ReviewList { reviews })
    }

    /// Checks one review, given as JSON text, as item `len()` of the list and appends it.
    /// A violation's path is the one the whole list would give it (`/3/note`), under the
    /// subject `reviews`.
    pub fn push_json(&mut self, text: &str) -> Result<(), ContractError> {
        let index = self.reviews.len();
        let mut one = ReviewList::from_json(&format!("[{text}]")).map(|l| l.reviews).map_err(|mut e| {
            for violation in &mut e.violations {
                if let Some(rest) = violation.path.strip_prefix("/0") {
                    violation.path = format!("/{index}{rest}");
                }
            }
            e
        })?;
        self.reviews.append(&mut one);
        Ok(())
    }

    pub fn reviews(&self) -> &[Review] {
        &self.reviews
    }

    pub fn into_reviews(self) -> Vec<Review> {
        self.reviews
    }

    pub fn len(&self) -> usize {
        self.reviews.len()
    }

    pub fn is_empty(&self) -> bool {
        self.reviews.is_empty()
    }
}

