//! Action outcomes: the executor's side of an agent's "finish". A status is delivered
//! only when the tool observations back it — "reserved" needs a reservation receipt,
//! not a well-cited paragraph — and the delivered text is built from the observations
//! alone, never copied from the policy.
//!
//! Document evidence (excerpt claims bound to a text) and action evidence (receipts
//! bound to an effect) are separate chains: neither can make up for a gap in the other.

use serde::Serialize;
use serde_json::Value;

use crate::contract::validate::{join, sized, Checker, IDENTIFIER};
use crate::contract::Contract;
use crate::error::ViolationCode;
use crate::excerpt::{evaluate_claims, extract_excerpts, AnswerStatus, Document, Evaluation, ExcerptClaim};

/// What a task asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskKind {
    Query,
    Reserve,
}

/// A task given to the agent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Task {
    pub task_id: String,
    pub kind: TaskKind,
    pub item_id: Option<String>,
    pub quantity: Option<u64>,
}

fn opt<T>(c: &mut Checker, m: &serde_json::Map<String, Value>, path: &str, key: &str, f: impl FnOnce(&mut Checker, &Value, &str) -> Option<T>) -> Option<Option<T>> {
    match m.get(key) {
        None | Some(Value::Null) => Some(None),
        Some(v) => f(c, v, &join(path, key)).map(Some),
    }
}

impl Contract for Task {
    const SUBJECT: &'static str = "task";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["task_id", "kind", "item_id", "quantity"])?;
        let task_id = c.string_field(m, path, "task_id", &IDENTIFIER);
        let kind = c.literal_field(m, path, "kind", &[("query", TaskKind::Query), ("reserve", TaskKind::Reserve)]);
        let item_id = opt(c, m, path, "item_id", |c, v, p| c.string(v, p, &IDENTIFIER));
        let quantity = opt(c, m, path, "quantity", |c, v, p| c.int(v, p, 1));
        if c.count() != before {
            return None;
        }
        let task = Task { task_id: task_id?, kind: kind?, item_id: item_id?, quantity: quantity? };
        if task.kind == TaskKind::Reserve {
            if task.item_id.is_none() {
                c.push(&join(path, "item_id"), ViolationCode::Missing, "a reserve task needs item_id");
            }
            if task.quantity.is_none() {
                c.push(&join(path, "quantity"), ViolationCode::Missing, "a reserve task needs quantity");
            }
        }
        (c.count() == before).then_some(task)
    }
}

/// What a reservation tool answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ReserveResult {
    /// The reservation happened; `receipt` is its idempotency key in the ledger.
    Reserved { item_id: String, quantity: u64, remaining: u64, revision: u64, receipt: String },
    /// Not enough stock.
    Insufficient { item_id: String, requested: u64, available: u64 },
    /// Refused (no permission, policy).
    Denied { item_id: String, reason: String },
}

impl Contract for ReserveResult {
    const SUBJECT: &'static str = "reserve_result";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let m = c.object(v, path, &["status", "item_id", "quantity", "remaining", "revision", "receipt", "requested", "available", "reason"])?;
        let status = c.literal_field(m, path, "status", &[("reserved", 0u8), ("insufficient", 1), ("denied", 2)])?;
        let before = c.count();
        let allowed: &[&str] = match status {
            0 => &["status", "item_id", "quantity", "remaining", "revision", "receipt"],
            1 => &["status", "item_id", "requested", "available"],
            _ => &["status", "item_id", "reason"],
        };
        for key in m.keys().filter(|k| !allowed.contains(&k.as_str())) {
            c.push(&join(path, key), ViolationCode::ExtraField, format!("Extra inputs are not permitted for status {}", ["reserved", "insufficient", "denied"].get(usize::from(status)).unwrap_or(&"")));
        }
        let item_id = c.string_field(m, path, "item_id", &IDENTIFIER);
        let r = match status {
            0 => {
                let quantity = c.int_field(m, path, "quantity", 1);
                let remaining = c.int_field(m, path, "remaining", 0);
                let revision = c.int_field(m, path, "revision", 0);
                let receipt = c.string_field(m, path, "receipt", &sized(1, 200));
                (c.count() == before).then(|| -> Option<Self> {
                    Some(Self::Reserved { item_id: item_id?, quantity: quantity?, remaining: remaining?, revision: revision?, receipt: receipt? })
                })
            }
            1 => {
                let requested = c.int_field(m, path, "requested", 1);
                let available = c.int_field(m, path, "available", 0);
                (c.count() == before).then(|| -> Option<Self> { Some(Self::Insufficient { item_id: item_id?, requested: requested?, available: available? }) })
            }
            _ => {
                let reason = c.string_field(m, path, "reason", &sized(0, 1000));
                (c.count() == before).then(|| -> Option<Self> { Some(Self::Denied { item_id: item_id?, reason: reason? }) })
            }
        };
        r.flatten()
    }
}

/// What was sent to the reservation tool.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReserveRequest {
    pub item_id: String,
    pub quantity: u64,
    /// The idempotency key: sending the same key again recovers the same result.
    pub receipt_key: String,
}

/// One tool result the executor observed, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
pub enum Observation {
    Search { query: String, hits: Vec<String> },
    Document { document: Document },
    /// `result` is `null` when the request was sent and no reply came back.
    Reserve { request: ReserveRequest, result: Option<ReserveResult> },
}

impl Contract for Observation {
    const SUBJECT: &'static str = "observation";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let m = c.object(v, path, &["tool", "query", "hits", "document", "request", "result"])?;
        let tool = c.literal_field(m, path, "tool", &[("search", 0u8), ("document", 1), ("reserve", 2)])?;
        let before = c.count();
        let allowed: &[&str] = match tool {
            0 => &["tool", "query", "hits"],
            1 => &["tool", "document"],
            _ => &["tool", "request", "result"],
        };
        for key in m.keys().filter(|k| !allowed.contains(&k.as_str())) {
            c.push(&join(path, key), ViolationCode::ExtraField, "Extra inputs are not permitted for this tool");
        }
        let out = match tool {
            0 => {
                let query = c.string_field(m, path, "query", &sized(0, 1000));
                let hits = c.required(m, path, "hits").and_then(|h| c.list(h, &join(path, "hits"), 0, usize::MAX, |c, v, p| c.string(v, p, &IDENTIFIER)));
                (c.count() == before).then(|| -> Option<Self> { Some(Self::Search { query: query?, hits: hits? }) })
            }
            1 => {
                let document = c.required(m, path, "document").and_then(|d| Document::check(c, d, &join(path, "document")));
                (c.count() == before).then(|| -> Option<Self> { Some(Self::Document { document: document? }) })
            }
            _ => {
                let rp = join(path, "request");
                let request = c.required(m, path, "request").and_then(|r| {
                    let m = c.object(r, &rp, &["item_id", "quantity", "receipt_key"])?;
                    let item_id = c.string_field(m, &rp, "item_id", &IDENTIFIER);
                    let quantity = c.int_field(m, &rp, "quantity", 1);
                    let receipt_key = c.string_field(m, &rp, "receipt_key", &sized(1, 200));
                    Some(ReserveRequest { item_id: item_id?, quantity: quantity?, receipt_key: receipt_key? })
                });
                let result = opt(c, m, path, "result", ReserveResult::check);
                if !m.contains_key("result") {
                    c.push(&join(path, "result"), ViolationCode::Missing, "Field required (null when no reply came back)");
                }
                (c.count() == before).then(|| -> Option<Self> { Some(Self::Reserve { request: request?, result: result? }) })
            }
        };
        out.flatten()
    }
}

/// The policy's finish: a status and the claims it offers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finish {
    pub status: AnswerStatus,
    pub claims: Vec<ExcerptClaim>,
}

impl Contract for Finish {
    const SUBJECT: &'static str = "finish";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["status", "claims", "text"])?;
        let status = c.literal_field(m, path, "status", &AnswerStatus::ALL);
        let claims = c.list_or(m, path, "claims", usize::MAX, ExcerptClaim::check);
        // A policy's own text is accepted and ignored: it is never delivered.
        if let Some(t) = m.get("text") {
            c.string(t, &join(path, "text"), &sized(0, usize::MAX));
        }
        (c.count() == before).then(|| -> Option<Self> { Some(Finish { status: status?, claims: claims? }) }).flatten()
    }
}

/// Why a finish was not delivered as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeReason {
    /// A reservation was sent and no reply observed: the effect may or may not have happened.
    ReplyLost,
    /// The status does not fit the task's kind (`reserved` on a query, `info` on a reservation).
    WrongTaskKind,
    /// `reserved` without a reservation receipt for the task's item and quantity.
    NoReserveReceipt,
    /// `info` without exactly one document read.
    InfoNeedsOneDocument,
    /// `insufficient` without an insufficient-stock observation.
    NoInsufficientObservation,
    /// `denied` without a denial.
    NoDenial,
    /// `not_found` without a search that found nothing.
    NoEmptySearch,
    /// `unconfirmed` asked for, but every reservation got its reply.
    NoLostReply,
    /// Some claim is not an exact excerpt of the documents read.
    ClaimsUnsupported,
    /// Some required fact of the item's document is missing.
    FactsMissing,
    /// A claim repeats another.
    DuplicateClaims,
    /// Claims given with a status that needs no document facts.
    ClaimsNotAllowed,
}

impl OutcomeReason {
    pub fn code(self) -> &'static str {
        match self {
            Self::ReplyLost => "reply_lost",
            Self::WrongTaskKind => "wrong_task_kind",
            Self::NoReserveReceipt => "no_reserve_receipt",
            Self::InfoNeedsOneDocument => "info_needs_one_document",
            Self::NoInsufficientObservation => "no_insufficient_observation",
            Self::NoDenial => "no_denial",
            Self::NoEmptySearch => "no_empty_search",
            Self::NoLostReply => "no_lost_reply",
            Self::ClaimsUnsupported => "claims_unsupported",
            Self::FactsMissing => "facts_missing",
            Self::DuplicateClaims => "duplicate_claims",
            Self::ClaimsNotAllowed => "claims_not_allowed",
        }
    }
}

/// What the executor delivers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub task_id: String,
    /// The policy's status when accepted; `unconfirmed` after a lost reply; else `rejected`.
    pub status: String,
    /// The status the policy asked for.
    pub requested: AnswerStatus,
    pub accepted: bool,
    pub reasons: Vec<OutcomeReason>,
    /// Built only from observations: receipt figures, never document text about stock.
    pub text: String,
    /// The excerpt claims of the document read (the executor's own, never the policy's).
    pub claims: Vec<ExcerptClaim>,
    /// Support and completeness of the policy's claims.
    pub evaluation: Evaluation,
    /// The reservation receipt, when one backs the outcome.
    pub receipt: Option<String>,
    /// Remaining stock as the receipt reports it.
    pub remaining: Option<u64>,
    /// The key to recover an unconfirmed reservation with.
    pub recovery_key: Option<String>,
}

fn documents_read(observations: &[Observation]) -> Vec<Document> {
    observations
        .iter()
        .filter_map(|o| match o {
            Observation::Document { document } => Some(document.clone()),
            _ => None,
        })
        .collect()
}

fn results(observations: &[Observation]) -> impl Iterator<Item = &ReserveResult> {
    observations.iter().filter_map(|o| match o {
        Observation::Reserve { result: Some(r), .. } => Some(r),
        _ => None,
    })
}

/// A reservation sent whose key never got a reply.
fn lost_reply(observations: &[Observation]) -> Option<&ReserveRequest> {
    let answered = |key: &str| {
        observations.iter().any(|o| matches!(o, Observation::Reserve { request, result: Some(_) } if request.receipt_key == key))
    };
    observations.iter().find_map(|o| match o {
        Observation::Reserve { request, result: None } if !answered(&request.receipt_key) => Some(request),
        _ => None,
    })
}

/// Decides what to deliver for `finish`, from `task` and the ordered `observations`.
pub fn finalize(task: &Task, observations: &[Observation], finish: &Finish) -> Outcome {
    let documents = documents_read(observations);
    let item = task
        .item_id
        .clone()
        .or_else(|| documents.first().map(|d| d.id.clone()))
        .unwrap_or_default();
    let evaluation = evaluate_claims(&documents, &item, &finish.claims, finish.status);
    let mut reasons = Vec::new();
    let mut receipt = None;
    let mut remaining = None;
    let mut text = String::new();

    if let Some(lost) = lost_reply(observations) {
        return Outcome {
            task_id: task.task_id.clone(),
            status: AnswerStatus::Unconfirmed.as_str().to_owned(),
            requested: finish.status,
            accepted: false,
            reasons: vec![OutcomeReason::ReplyLost],
            text: format!(
                "A reservation of {} × {} was sent but no reply was observed; its outcome is unconfirmed. Recover it with receipt key {}.",
                lost.quantity, lost.item_id, lost.receipt_key
            ),
            claims: Vec::new(),
            evaluation,
            receipt: None,
            remaining: None,
            recovery_key: Some(lost.receipt_key.clone()),
        };
    }

    match finish.status {
        AnswerStatus::Reserved => {
            if task.kind != TaskKind::Reserve {
                reasons.push(OutcomeReason::WrongTaskKind);
            }
            let found = results(observations).find_map(|r| match r {
                ReserveResult::Reserved { item_id, quantity, remaining, revision, receipt }
                    if Some(item_id) == task.item_id.as_ref() && Some(*quantity) == task.quantity =>
                {
                    Some((item_id, quantity, remaining, revision, receipt))
                }
                _ => None,
            });
            match found {
                Some((item_id, quantity, left, revision, r)) => {
                    text = format!("Reserved {quantity} × {item_id}; {left} left in stock (receipt {r}, stock revision {revision}).");
                    receipt = Some(r.clone());
                    remaining = Some(*left);
                }
                None => reasons.push(OutcomeReason::NoReserveReceipt),
            }
        }
        AnswerStatus::Info => {
            if task.kind != TaskKind::Query {
                reasons.push(OutcomeReason::WrongTaskKind);
            }
            match documents.as_slice() {
                [doc] => text = format!("{} ({}), document version {}.", doc.title, doc.id, doc.sha256()),
                _ => reasons.push(OutcomeReason::InfoNeedsOneDocument),
            }
        }
        AnswerStatus::Insufficient => {
            let found = results(observations).find_map(|r| match r {
                ReserveResult::Insufficient { item_id, requested, available } if task.item_id.as_ref().is_none_or(|t| t == item_id) => {
                    Some(format!("Not enough stock of {item_id}: {requested} requested, {available} available."))
                }
                _ => None,
            });
            match found {
                Some(t) => text = t,
                None => reasons.push(OutcomeReason::NoInsufficientObservation),
            }
        }
        AnswerStatus::Denied => {
            let found = results(observations).find_map(|r| match r {
                ReserveResult::Denied { item_id, reason } => Some(format!("The reservation of {item_id} was denied: {reason}")),
                _ => None,
            });
            match found {
                Some(t) => text = t,
                None => reasons.push(OutcomeReason::NoDenial),
            }
        }
        AnswerStatus::NotFound => {
            let found = observations.iter().find_map(|o| match o {
                Observation::Search { query, hits } if hits.is_empty() => Some(format!("No item matches the search \"{query}\".")),
                _ => None,
            });
            match found {
                Some(t) => text = t,
                None => reasons.push(OutcomeReason::NoEmptySearch),
            }
        }
        AnswerStatus::Abstain => text = "The agent abstained; nothing was done.".to_owned(),
        AnswerStatus::Unconfirmed => reasons.push(OutcomeReason::NoLostReply),
    }

    if finish.status.needs_facts() {
        if !evaluation.support_pass {
            reasons.push(OutcomeReason::ClaimsUnsupported);
        }
        if !evaluation.completeness_pass {
            reasons.push(OutcomeReason::FactsMissing);
        }
        if !evaluation.duplicates_pass {
            reasons.push(OutcomeReason::DuplicateClaims);
        }
    } else if !finish.claims.is_empty() {
        reasons.push(OutcomeReason::ClaimsNotAllowed);
    }

    let accepted = reasons.is_empty();
    let claims = if accepted && finish.status.needs_facts() {
        documents.iter().find(|d| d.id == item).map(extract_excerpts).unwrap_or_default()
    } else {
        Vec::new()
    };
    Outcome {
        task_id: task.task_id.clone(),
        status: if accepted { finish.status.as_str().to_owned() } else { "rejected".to_owned() },
        requested: finish.status,
        accepted,
        reasons,
        text: if accepted { text } else { String::new() },
        claims,
        evaluation,
        receipt: if accepted { receipt } else { None },
        remaining: if accepted { remaining } else { None },
        recovery_key: None,
    }
}

/// What an evaluation run expects of one task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Expected {
    pub status: String,
    /// Ledger entries the run must write: 0 for read-only tasks, 1 for a reservation.
    pub ledger: u64,
    /// The item's stock after the run, when the task touches stock.
    pub remaining: Option<u64>,
}

impl Contract for Expected {
    const SUBJECT: &'static str = "expected";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["status", "ledger", "remaining"])?;
        let status = c.string_field(m, path, "status", &sized(1, 64));
        let ledger = c.int_field(m, path, "ledger", 0);
        let remaining = opt(c, m, path, "remaining", |c, v, p| c.int(v, p, 0));
        (c.count() == before).then(|| -> Option<Self> { Some(Expected { status: status?, ledger: ledger?, remaining: remaining? }) }).flatten()
    }
}

/// What the environment measured after the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Effects {
    pub ledger: u64,
    pub remaining: Option<u64>,
}

impl Contract for Effects {
    const SUBJECT: &'static str = "effects";
    fn check(c: &mut Checker, v: &Value, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["ledger", "remaining"])?;
        let ledger = c.int_field(m, path, "ledger", 0);
        let remaining = opt(c, m, path, "remaining", |c, v, p| c.int(v, p, 0));
        (c.count() == before).then(|| -> Option<Self> { Some(Effects { ledger: ledger?, remaining: remaining? }) }).flatten()
    }
}

/// One check of a grade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GradeChecks {
    pub status: bool,
    pub support: bool,
    pub completeness: bool,
    pub duplicates: bool,
    pub ledger: bool,
    pub remaining: bool,
}

/// The grade of one task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Grade {
    pub passed: bool,
    pub checks: GradeChecks,
    /// The names of the failed checks.
    pub failed: Vec<&'static str>,
}

/// What a grade reads of an [`Outcome`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graded {
    pub status: String,
    pub support_pass: bool,
    pub completeness_pass: bool,
    pub duplicates_pass: bool,
    pub remaining: Option<u64>,
}

impl From<&Outcome> for Graded {
    fn from(o: &Outcome) -> Self {
        Graded {
            status: o.status.clone(),
            support_pass: o.evaluation.support_pass,
            completeness_pass: o.evaluation.completeness_pass,
            duplicates_pass: o.evaluation.duplicates_pass,
            remaining: o.remaining,
        }
    }
}

impl Graded {
    /// Reads the fields a grade needs from an outcome as JSON (the object `finalize`
    /// returned); its other fields are not looked at.
    pub fn from_outcome_value(v: &Value) -> Result<Graded, crate::error::ContractError> {
        let mut c = Checker::default();
        let flag = |c: &mut Checker, m: &serde_json::Map<String, Value>, path: &str, key: &str| match m.get(key) {
            Some(Value::Bool(b)) => Some(*b),
            _ => {
                c.push(&join(path, key), ViolationCode::WrongType, "Input should be a boolean");
                None
            }
        };
        let graded = (|| {
            let Value::Object(m) = v else {
                c.push("", ViolationCode::WrongType, "Input should be an object");
                return None;
            };
            let status = c.string_field(m, "", "status", &sized(1, 64));
            let remaining = opt(&mut c, m, "", "remaining", |c, v, p| c.int(v, p, 0));
            let e = match m.get("evaluation") {
                Some(Value::Object(e)) => Some(e),
                _ => {
                    c.push("/evaluation", ViolationCode::WrongType, "Input should be an object");
                    None
                }
            }?;
            let support_pass = flag(&mut c, e, "/evaluation", "support_pass");
            let completeness_pass = flag(&mut c, e, "/evaluation", "completeness_pass");
            let duplicates_pass = flag(&mut c, e, "/evaluation", "duplicates_pass");
            Some(Graded {
                status: status?,
                support_pass: support_pass?,
                completeness_pass: completeness_pass?,
                duplicates_pass: duplicates_pass?,
                remaining: remaining?,
            })
        })();
        match graded {
            Some(g) if c.violations.is_empty() => Ok(g),
            _ => Err(crate::error::ContractError { subject: "outcome", violations: c.violations }),
        }
    }
}

/// Passes only when status, claim support, completeness, duplicates, the ledger count
/// and the remaining stock (as expected, as measured, and as the receipt says) agree.
pub fn grade_task(expected: &Expected, outcome: &Outcome, effects: &Effects) -> Grade {
    grade(expected, &Graded::from(outcome), effects)
}

/// [`grade_task`] over the fields it reads.
pub fn grade(expected: &Expected, outcome: &Graded, effects: &Effects) -> Grade {
    let remaining_ok = expected.remaining.is_none_or(|r| effects.remaining == Some(r))
        && outcome.remaining.is_none_or(|r| effects.remaining == Some(r));
    let checks = GradeChecks {
        status: outcome.status == expected.status,
        support: outcome.support_pass,
        completeness: outcome.completeness_pass,
        duplicates: outcome.duplicates_pass,
        ledger: effects.ledger == expected.ledger,
        remaining: remaining_ok,
    };
    let failed: Vec<&'static str> = [
        ("status", checks.status),
        ("support", checks.support),
        ("completeness", checks.completeness),
        ("duplicates", checks.duplicates),
        ("ledger", checks.ledger),
        ("remaining", checks.remaining),
    ]
    .into_iter()
    .filter(|(_, ok)| !ok)
    .map(|(n, _)| n)
    .collect();
    Grade { passed: failed.is_empty(), checks, failed }
}
