//! Action outcomes: the executor's side of an agent's "finish". A status is delivered
//! only when the tool observations back it — "reserved" needs a reservation receipt,
//! not a well-cited paragraph — and the delivered text is built from the observations
//! alone, never copied from the policy.
//!
//! Document evidence (excerpt claims bound to a text) and action evidence (receipts
//! bound to an effect) are separate chains: neither can make up for a gap in the other.

use serde::Serialize;
use serde_json::Value;

use crate::json::{join, Node, Object, Tape};
use crate::rules::{sized, IDENTIFIER};
use crate::contract::Checker;
use crate::contract::Contract;
use crate::error::ViolationCode;
use crate::catalog::DocumentCatalog;
use crate::error::ContractError;
use crate::excerpt::{claims_from_value, evaluate_claims_in, extract_excerpts, AnswerStatus, Document, Evaluation, ExcerptClaim, Library};

/// What a task asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum TaskKind {
    Query,
    Reserve,
}

/// A task given to the agent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(optional_fields = nullable))]
pub struct Task {
    pub task_id: String,
    pub kind: TaskKind,
    pub item_id: Option<String>,
    pub quantity: Option<u64>,
}

fn opt<T>(c: &mut Checker, m: Object<'_>, path: &str, key: &str, f: impl FnOnce(&mut Checker, Node<'_>, &str) -> Option<T>) -> Option<Option<T>> {
    match m.get(key) {
        Some(v) if !v.is_null() => f(c, v, &join(path, key)).map(Some),
        _ => Some(None),
    }
}

impl Contract for Task {
    const SUBJECT: &'static str = "task";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
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
#[cfg_attr(test, derive(ts_rs::TS))]
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
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let m = c.object(v, path, &["status", "item_id", "quantity", "remaining", "revision", "receipt", "requested", "available", "reason"])?;
        let status = c.literal_field(m, path, "status", &[("reserved", 0u8), ("insufficient", 1), ("denied", 2)])?;
        let before = c.count();
        let allowed: &[&str] = match status {
            0 => &["status", "item_id", "quantity", "remaining", "revision", "receipt"],
            1 => &["status", "item_id", "requested", "available"],
            _ => &["status", "item_id", "reason"],
        };
        for key in m.keys().filter(|k| !allowed.contains(k)) {
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
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReserveRequest {
    pub item_id: String,
    pub quantity: u64,
    /// The idempotency key: sending the same key again recovers the same result.
    pub receipt_key: String,
}

/// One tool result the executor observed, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum Observation {
    Search { query: String, hits: Vec<String> },
    Document { document: Document },
    /// `result` is `null` when the request was sent and no reply came back.
    Reserve { request: ReserveRequest, result: Option<ReserveResult> },
}

impl Contract for Observation {
    const SUBJECT: &'static str = "observation";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let m = c.object(v, path, &["tool", "query", "hits", "document", "request", "result"])?;
        let tool = c.literal_field(m, path, "tool", &[("search", 0u8), ("document", 1), ("reserve", 2)])?;
        let before = c.count();
        let allowed: &[&str] = match tool {
            0 => &["tool", "query", "hits"],
            1 => &["tool", "document"],
            _ => &["tool", "request", "result"],
        };
        for key in m.keys().filter(|k| !allowed.contains(k)) {
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
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Finish {
    pub status: AnswerStatus,
    #[cfg_attr(test, ts(optional = nullable))]
    pub claims: Vec<ExcerptClaim>,
}

impl Contract for Finish {
    const SUBJECT: &'static str = "finish";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
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

/// Observations, checked as one list.
pub fn observations_from_value(v: &Value) -> Result<Vec<Observation>, ContractError> {
    crate::contract::list_from_value(v, "observations", Observation::check, |_, _| {})
}

/// Why a finish was not delivered as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
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
    /// A document read is not the catalogue's frozen version of its id (or is not catalogued).
    DocumentChanged,
    /// A status that gives the item's facts, and the item's document was never read.
    DocumentNotRead,
    /// The grader was given no observations of the run (`effects.observations`) to replay.
    NoObservations,
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
            Self::DocumentChanged => "document_changed",
            Self::DocumentNotRead => "document_not_read",
            Self::NoObservations => "no_observations",
        }
    }
}

/// What the executor delivers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Outcome {
    pub task_id: String,
    /// The policy's status when accepted; `unconfirmed` after a lost reply; else `rejected`.
    #[cfg_attr(test, ts(type = "AnswerStatus | \"rejected\""))]
    pub status: String,
    /// The status the policy asked for.
    pub requested: AnswerStatus,
    pub accepted: bool,
    pub reasons: Vec<OutcomeReason>,
    /// Built only from observations: receipt figures, never document text about stock.
    pub text: String,
    /// The item the outcome is about: the task's, else the first document read.
    pub item_id: Option<String>,
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
    /// The observations the outcome was decided from, for a grader to replay.
    pub observations: Vec<Observation>,
}

/// The documents read, each once: the same id and body read twice is one document
/// (docs/outcomes.md, reading 2); the same id with another body is two.
fn documents_read(observations: &[Observation]) -> Vec<&Document> {
    let mut docs: Vec<&Document> = Vec::new();
    for o in observations {
        if let Observation::Document { document } = o {
            if !docs.iter().any(|d| d.id == document.id && d.body == document.body) {
                docs.push(document);
            }
        }
    }
    docs
}

/// The one document an `info` answer rests on.
fn one_document(observations: &[Observation]) -> Option<&Document> {
    match documents_read(observations).as_slice() {
        [doc] => Some(*doc),
        _ => None,
    }
}

fn results(observations: &[Observation]) -> impl Iterator<Item = &ReserveResult> {
    observations.iter().filter_map(|o| match o {
        Observation::Reserve { result: Some(r), .. } => Some(r),
        _ => None,
    })
}

/// A reservation result's figures.
struct Reservation<'o> {
    item_id: &'o str,
    quantity: u64,
    remaining: u64,
    revision: u64,
    receipt: &'o str,
}

/// The first reservation receipt for `item` and `quantity` (and `receipt`, when given).
fn reservation<'o>(observations: &'o [Observation], item: &str, quantity: Option<u64>, receipt: Option<&str>) -> Option<Reservation<'o>> {
    results(observations).find_map(|r| match r {
        ReserveResult::Reserved { item_id, quantity: q, remaining, revision, receipt: key }
            if item_id == item && quantity.is_none_or(|n| n == *q) && receipt.is_none_or(|k| k == key) =>
        {
            Some(Reservation { item_id, quantity: *q, remaining: *remaining, revision: *revision, receipt: key })
        }
        _ => None,
    })
}

/// The text of a shortage of `item` (of any item when `None`).
fn shortage(observations: &[Observation], item: Option<&str>) -> Option<String> {
    results(observations).find_map(|r| match r {
        ReserveResult::Insufficient { item_id, requested, available } if item.is_none_or(|t| t == item_id) => {
            Some(format!("Not enough stock of {item_id}: {requested} requested, {available} available."))
        }
        _ => None,
    })
}

fn denial(observations: &[Observation]) -> Option<String> {
    results(observations).find_map(|r| match r {
        ReserveResult::Denied { item_id, reason } => Some(format!("The reservation of {item_id} was denied: {reason}")),
        _ => None,
    })
}

fn empty_search(observations: &[Observation]) -> Option<String> {
    observations.iter().find_map(|o| match o {
        Observation::Search { query, hits } if hits.is_empty() => Some(format!("No item matches the search \"{query}\".")),
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

/// The reason a status lacks its observation.
fn missing_backing(status: AnswerStatus) -> Option<OutcomeReason> {
    match status {
        AnswerStatus::Reserved => Some(OutcomeReason::NoReserveReceipt),
        AnswerStatus::Info => Some(OutcomeReason::InfoNeedsOneDocument),
        AnswerStatus::Insufficient => Some(OutcomeReason::NoInsufficientObservation),
        AnswerStatus::Denied => Some(OutcomeReason::NoDenial),
        AnswerStatus::NotFound => Some(OutcomeReason::NoEmptySearch),
        AnswerStatus::Unconfirmed => Some(OutcomeReason::NoLostReply),
        AnswerStatus::Abstain => None,
    }
}

/// Decides what to deliver for `finish`, from `task` and the ordered `observations`.
pub fn finalize(task: &Task, observations: &[Observation], finish: &Finish) -> Outcome {
    finalize_in(task, observations, finish, None)
}

/// [`finalize`], with the claims checked against a frozen catalogue instead of the
/// documents read; a document read that is not the catalogue's version of its id is
/// `document_changed`.
pub fn finalize_in(task: &Task, observations: &[Observation], finish: &Finish, catalog: Option<&DocumentCatalog>) -> Outcome {
    let documents = documents_read(observations);
    let item = task
        .item_id
        .clone()
        .or_else(|| documents.first().map(|d| d.id.clone()))
        .unwrap_or_default();
    let evaluation = match catalog {
        Some(c) => evaluate_claims_in(&c.library(), &item, &finish.claims, finish.status),
        None => evaluate_claims_in(&Library::new(documents.iter().copied()), &item, &finish.claims, finish.status),
    };
    let item_id = (!item.is_empty()).then(|| item.clone());
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
            item_id,
            claims: Vec::new(),
            evaluation,
            receipt: None,
            remaining: None,
            recovery_key: Some(lost.receipt_key.clone()),
            observations: observations.to_vec(),
        };
    }

    let backed = match finish.status {
        AnswerStatus::Reserved => {
            if task.kind != TaskKind::Reserve {
                reasons.push(OutcomeReason::WrongTaskKind);
            }
            let found = match (task.item_id.as_deref(), task.quantity) {
                (Some(i), Some(q)) => reservation(observations, i, Some(q), None),
                _ => None,
            };
            found.map(|r| {
                receipt = Some(r.receipt.to_owned());
                remaining = Some(r.remaining);
                format!("Reserved {} × {}; {} left in stock (receipt {}, stock revision {}).", r.quantity, r.item_id, r.remaining, r.receipt, r.revision)
            })
        }
        AnswerStatus::Info => {
            if task.kind != TaskKind::Query {
                reasons.push(OutcomeReason::WrongTaskKind);
            }
            one_document(observations)
                .filter(|doc| doc.id == item)
                .map(|doc| format!("{} ({}), document version {}.", doc.title, doc.id, doc.sha256()))
        }
        AnswerStatus::Insufficient => shortage(observations, task.item_id.as_deref()),
        AnswerStatus::Denied => denial(observations),
        AnswerStatus::NotFound => empty_search(observations),
        AnswerStatus::Abstain => Some("The agent abstained; nothing was done.".to_owned()),
        AnswerStatus::Unconfirmed => None,
    };
    match backed {
        Some(t) => text = t,
        None => reasons.extend(missing_backing(finish.status)),
    }

    if finish.status.needs_facts() {
        // The facts come from the item's document as read, not from the catalogue alone.
        if !item.is_empty() && !documents.iter().any(|d| d.id == item) {
            reasons.push(OutcomeReason::DocumentNotRead);
        }
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
    if let Some(c) = catalog {
        if documents.iter().any(|d| !c.holds(d)) {
            reasons.push(OutcomeReason::DocumentChanged);
        }
    }

    let accepted = reasons.is_empty();
    let claims = if accepted && finish.status.needs_facts() {
        documents.iter().find(|d| d.id == item).map(|d| extract_excerpts(d)).unwrap_or_default()
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
        item_id,
        claims,
        evaluation,
        receipt: if accepted { receipt } else { None },
        remaining: if accepted { remaining } else { None },
        recovery_key: None,
        observations: observations.to_vec(),
    }
}

// ---- grading ------------------------------------------------------------------------

/// What an evaluation run expects of one task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(optional_fields = nullable))]
pub struct Expected {
    pub status: String,
    /// Ledger entries the run must write: 0 for read-only tasks, 1 for a reservation.
    pub ledger: u64,
    /// The item's stock after the run, when the task touches stock.
    pub remaining: Option<u64>,
    /// The item whose facts the answer must give (else the outcome's `item_id`).
    pub item_id: Option<String>,
    /// The quantity a reservation must take from stock (else the receipt's).
    pub quantity: Option<u64>,
}

impl Contract for Expected {
    const SUBJECT: &'static str = "expected";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["status", "ledger", "remaining", "item_id", "quantity"])?;
        let status = c.string_field(m, path, "status", &sized(1, 64));
        let ledger = c.int_field(m, path, "ledger", 0);
        let remaining = opt(c, m, path, "remaining", |c, v, p| c.int(v, p, 0));
        let item_id = opt(c, m, path, "item_id", |c, v, p| c.string(v, p, &IDENTIFIER));
        let quantity = opt(c, m, path, "quantity", |c, v, p| c.int(v, p, 1));
        (c.count() == before)
            .then(|| -> Option<Self> { Some(Expected { status: status?, ledger: ledger?, remaining: remaining?, item_id: item_id?, quantity: quantity? }) })
            .flatten()
    }
}

/// What the environment measured after the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(optional_fields = nullable))]
pub struct Effects {
    /// Ledger rows the run wrote.
    pub ledger: u64,
    /// The item's stock after the run.
    pub remaining: Option<u64>,
    /// The item's stock before the run; with it the stock rule of the status is checked.
    pub stock_before: Option<u64>,
    /// The observations of the run, in order, as the environment recorded them: the
    /// receipts are replayed from these, never from the outcome's own copy. Without
    /// them `receipts` fails (`no_observations`).
    pub observations: Option<Vec<Observation>>,
    /// The task the run was given: its item and quantity bind the receipt when
    /// `expected` names none.
    pub task: Option<Task>,
}

impl Contract for Effects {
    const SUBJECT: &'static str = "effects";
    fn check(c: &mut Checker, v: Node<'_>, path: &str) -> Option<Self> {
        let before = c.count();
        let m = c.object(v, path, &["ledger", "remaining", "stock_before", "observations", "task"])?;
        let ledger = c.int_field(m, path, "ledger", 0);
        let remaining = opt(c, m, path, "remaining", |c, v, p| c.int(v, p, 0));
        let stock_before = opt(c, m, path, "stock_before", |c, v, p| c.int(v, p, 0));
        let observations = opt(c, m, path, "observations", |c, v, p| c.list(v, p, 0, usize::MAX, Observation::check));
        let task = opt(c, m, path, "task", Task::check);
        (c.count() == before)
            .then(|| -> Option<Self> {
                Some(Effects { ledger: ledger?, remaining: remaining?, stock_before: stock_before?, observations: observations?, task: task? })
            })
            .flatten()
    }
}

/// The checks of a grade. `stock` is `null` when it cannot be checked (no
/// `stock_before`, or no quantity known for a write).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GradeChecks {
    /// The outcome's status is the expected one.
    pub status: bool,
    /// Every claim of the outcome is an exact excerpt.
    pub support: bool,
    /// The claims give every required fact (none for a status that needs none).
    pub completeness: bool,
    /// No claim repeats another.
    pub duplicates: bool,
    /// The observations back the outcome's status (its receipt, its document, its lost reply).
    pub receipts: bool,
    /// The ledger count measured is the one expected.
    pub ledger: bool,
    /// The ledger count measured is the one the status allows.
    pub ledger_rule: bool,
    /// The stock measured is the one expected and the one the answer reports.
    pub remaining: bool,
    /// The stock moved as the status says: down by the quantity for a write, not at all otherwise.
    pub stock: Option<bool>,
}

/// The names of the checks, in order.
pub const CHECK_NAMES: [&str; 9] = ["status", "support", "completeness", "duplicates", "receipts", "ledger", "ledger_rule", "remaining", "stock"];

/// Whether the claims' checks were recomputed from a catalogue or taken from the outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum GradeMode {
    Recomputed,
    Trusted,
}

/// The grade of one task.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Grade {
    pub passed: bool,
    /// `recomputed` with a catalogue; `trusted` when support, completeness and
    /// duplicates are the outcome's own word.
    pub evaluation: GradeMode,
    pub checks: GradeChecks,
    /// The names of the failed checks.
    #[cfg_attr(test, ts(type = "GradeCheck[]"))]
    pub failed: Vec<&'static str>,
    /// The checks the grader decided itself (from the catalogue, the observations,
    /// `expected` and `effects`).
    #[cfg_attr(test, ts(type = "GradeCheck[]"))]
    pub recomputed: Vec<&'static str>,
    /// The checks taken from the outcome's own verdict.
    #[cfg_attr(test, ts(type = "GradeCheck[]"))]
    pub from_caller: Vec<&'static str>,
    /// The recomputed evaluation of the outcome's claims; `null` when trusted.
    pub claim_evaluation: Option<Evaluation>,
    /// Why the observations do not back the outcome's status.
    pub receipt_reasons: Vec<OutcomeReason>,
}

/// The outcome's own verdict on its claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnEvaluation {
    pub support_pass: bool,
    pub completeness_pass: bool,
    pub duplicates_pass: bool,
}

/// What a grade reads of an [`Outcome`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graded {
    pub status: String,
    pub item_id: Option<String>,
    pub claims: Vec<ExcerptClaim>,
    /// `None` when the outcome carries no `evaluation`.
    pub evaluation: Option<OwnEvaluation>,
    /// `None` when the outcome carries no `observations`.
    pub observations: Option<Vec<Observation>>,
    pub receipt: Option<String>,
    pub remaining: Option<u64>,
    pub recovery_key: Option<String>,
}

impl From<&Outcome> for Graded {
    fn from(o: &Outcome) -> Self {
        Graded {
            status: o.status.clone(),
            item_id: o.item_id.clone(),
            claims: o.claims.clone(),
            evaluation: Some(OwnEvaluation {
                support_pass: o.evaluation.support_pass,
                completeness_pass: o.evaluation.completeness_pass,
                duplicates_pass: o.evaluation.duplicates_pass,
            }),
            observations: Some(o.observations.clone()),
            receipt: o.receipt.clone(),
            remaining: o.remaining,
            recovery_key: o.recovery_key.clone(),
        }
    }
}

impl Graded {
    /// Reads the fields a grade needs from an outcome as JSON (the object `finalize`
    /// returned); its other fields are not looked at. `evaluation` is required when
    /// `trusted` (no catalogue to recompute it from).
    pub fn from_outcome_value(v: &Value, trusted: bool) -> Result<Graded, ContractError> {
        let mut c = Checker::default();
        let node = Tape::from_value(v);
        let flag = |c: &mut Checker, m: Object<'_>, path: &str, key: &str| match m.get(key).and_then(Node::as_bool) {
            Some(b) => Some(b),
            _ => {
                c.push(&join(path, key), ViolationCode::WrongType, "Input should be a boolean");
                None
            }
        };
        let any = sized(0, usize::MAX);
        let graded = (|| {
            let Some(m) = node.root().as_object() else {
                c.push("", ViolationCode::WrongType, "Input should be an object");
                return None;
            };
            let status = c.string_field(m, "", "status", &sized(1, 64));
            let remaining = opt(&mut c, m, "", "remaining", |c, v, p| c.int(v, p, 0));
            let item_id = opt(&mut c, m, "", "item_id", |c, v, p| c.string(v, p, &any));
            let receipt = opt(&mut c, m, "", "receipt", |c, v, p| c.string(v, p, &any));
            let recovery_key = opt(&mut c, m, "", "recovery_key", |c, v, p| c.string(v, p, &any));
            let claims = match v.get("claims") {
                None | Some(Value::Null) => Some(Vec::new()),
                Some(v) => claims_from_value(v).map_err(|e| prefix(&mut c, e, "/claims")).ok(),
            };
            let observations = match v.get("observations") {
                None | Some(Value::Null) => Some(None),
                Some(v) => observations_from_value(v).map(Some).map_err(|e| prefix(&mut c, e, "/observations")).ok(),
            };
            let evaluation = match m.get("evaluation").map(|e| (e.is_null(), e.as_object())) {
                Some((_, Some(e))) => {
                    let support_pass = flag(&mut c, e, "/evaluation", "support_pass");
                    let completeness_pass = flag(&mut c, e, "/evaluation", "completeness_pass");
                    let duplicates_pass = flag(&mut c, e, "/evaluation", "duplicates_pass");
                    Some(Some(OwnEvaluation { support_pass: support_pass?, completeness_pass: completeness_pass?, duplicates_pass: duplicates_pass? }))
                }
                None | Some((true, _)) if !trusted => Some(None),
                _ => {
                    c.push("/evaluation", ViolationCode::WrongType, "Input should be an object (without a catalogue the grade reads the outcome's own evaluation)");
                    None
                }
            };
            Some(Graded {
                status: status?,
                item_id: item_id?,
                claims: claims?,
                evaluation: evaluation?,
                observations: observations?,
                receipt: receipt?,
                remaining: remaining?,
                recovery_key: recovery_key?,
            })
        })();
        match graded {
            Some(g) if c.violations.is_empty() => Ok(g),
            _ => Err(ContractError { subject: "outcome", violations: c.violations }),
        }
    }
}

/// Moves a nested list's violations under `path`.
fn prefix(c: &mut Checker, e: ContractError, path: &str) {
    for v in e.violations {
        c.push(&format!("{path}{}", v.path), v.code, v.message);
    }
}

/// Passes only when status, claim support, completeness, duplicates, the ledger count
/// and the remaining stock (as expected, as measured, and as the receipt says) agree,
/// and the ledger and stock rules of the status hold. Without a catalogue the claims'
/// checks are the outcome's own (`evaluation: "trusted"`).
pub fn grade_task(expected: &Expected, outcome: &Outcome, effects: &Effects) -> Grade {
    grade(expected, &Graded::from(outcome), effects, None)
}

/// [`grade_task`], recomputing support and coverage against `catalog` when given.
pub fn grade_task_in(expected: &Expected, outcome: &Outcome, effects: &Effects, catalog: Option<&DocumentCatalog>) -> Grade {
    grade(expected, &Graded::from(outcome), effects, catalog)
}

/// Whether the run's observations back `status` as the outcome states it.
fn replay(status: AnswerStatus, item: Option<&str>, quantity: Option<u64>, g: &Graded, observations: &[Observation], catalog: Option<&DocumentCatalog>) -> Vec<OutcomeReason> {
    let mut reasons = Vec::new();
    if let Some(c) = catalog {
        if documents_read(observations).iter().any(|d| !c.holds(d)) {
            reasons.push(OutcomeReason::DocumentChanged);
        }
    }
    if status.needs_facts() && item.is_some_and(|i| !documents_read(observations).iter().any(|d| d.id == i)) {
        reasons.push(OutcomeReason::DocumentNotRead);
    }
    reasons.extend(backing(status, item, quantity, g, observations));
    reasons
}

/// The receipt rule of `status` over the run's observations.
fn backing(status: AnswerStatus, item: Option<&str>, quantity: Option<u64>, g: &Graded, observations: &[Observation]) -> Vec<OutcomeReason> {
    let lost = lost_reply(observations);
    let backed = match status {
        // Resolved only by replaying the same key: a reply under another key leaves it lost.
        AnswerStatus::Unconfirmed => return lost.filter(|r| g.recovery_key.as_deref() == Some(r.receipt_key.as_str())).map_or(vec![OutcomeReason::NoLostReply], |_| Vec::new()),
        _ if lost.is_some() => return vec![OutcomeReason::ReplyLost],
        AnswerStatus::Reserved => match (item, g.receipt.as_deref()) {
            // A reservation reports its quantity and remaining: a `null` remaining is no receipt.
            (Some(i), Some(key)) => reservation(observations, i, quantity, Some(key)).is_some_and(|r| g.remaining == Some(r.remaining)),
            _ => false,
        },
        AnswerStatus::Info => one_document(observations).is_some_and(|d| item.is_none_or(|i| i == d.id)),
        AnswerStatus::Insufficient => shortage(observations, item).is_some(),
        AnswerStatus::Denied => denial(observations).is_some(),
        AnswerStatus::NotFound => empty_search(observations).is_some(),
        AnswerStatus::Abstain => true,
    };
    if backed {
        Vec::new()
    } else {
        missing_backing(status).into_iter().collect()
    }
}

/// The quantity a write took: the expected one, else the receipt's (or the lost request's).
fn write_quantity(status: AnswerStatus, quantity: Option<u64>, g: &Graded, observations: Option<&[Observation]>) -> Option<u64> {
    if quantity.is_some() {
        return quantity;
    }
    let observations = observations?;
    match status {
        AnswerStatus::Reserved => {
            let key = g.receipt.as_deref()?;
            results(observations).find_map(|r| match r {
                ReserveResult::Reserved { quantity, receipt, .. } if receipt == key => Some(*quantity),
                _ => None,
            })
        }
        AnswerStatus::Unconfirmed => lost_reply(observations).map(|r| r.quantity),
        _ => None,
    }
}

/// The stock rule: a write lowers the stock by its quantity, anything else leaves it.
fn stock_rule(status: Option<AnswerStatus>, quantity: Option<u64>, effects: &Effects) -> Option<bool> {
    let before = effects.stock_before?;
    let Some(after) = effects.remaining else { return Some(false) };
    let wrote = match status? {
        AnswerStatus::Reserved => true,
        AnswerStatus::Unconfirmed => effects.ledger > 0,
        _ => false,
    };
    if wrote {
        quantity.map(|q| before.checked_sub(q) == Some(after))
    } else {
        Some(after == before)
    }
}

/// [`grade_task`] over the fields it reads.
pub fn grade(expected: &Expected, g: &Graded, effects: &Effects, catalog: Option<&DocumentCatalog>) -> Grade {
    let own_status = AnswerStatus::parse(&g.status);
    // The rules of the outcome's status; of the expected one when the outcome was rejected.
    let rule_status = own_status.or_else(|| AnswerStatus::parse(&expected.status));
    let task = effects.task.as_ref();
    // The item and quantity come from the grader's own inputs first; the outcome's
    // `item_id` only when neither `expected` nor the run's task names one.
    let bound_item = expected.item_id.as_deref().or(task.and_then(|t| t.item_id.as_deref()));
    let item = bound_item.or(g.item_id.as_deref());
    let task_quantity = expected.quantity.or(task.and_then(|t| t.quantity));
    // The run's observations, as the grader was given them; the outcome's own copy is
    // never read (an outcome is not its own witness).
    let observations = effects.observations.as_deref();
    let mut from_caller = Vec::new();

    let claim_evaluation = catalog.map(|c| evaluate_claims_in(&c.library(), item.unwrap_or(""), &g.claims, rule_status.unwrap_or(AnswerStatus::Abstain)));
    let (support, completeness, duplicates) = match (&claim_evaluation, g.evaluation) {
        (Some(e), _) => (e.support_pass, e.completeness_pass, e.duplicates_pass),
        (None, own) => {
            from_caller.extend(["support", "completeness", "duplicates"]);
            own.map_or((false, false, false), |e| (e.support_pass, e.completeness_pass, e.duplicates_pass))
        }
    };

    let quantity = rule_status.and_then(|s| write_quantity(s, task_quantity, g, observations));
    let receipt_reasons = match (observations, own_status) {
        (None, _) => vec![OutcomeReason::NoObservations],
        (Some(obs), Some(s)) => {
            // A receipt is for the task's item and quantity: the outcome cannot name them.
            let reasons_item = if s == AnswerStatus::Reserved { bound_item.filter(|_| task_quantity.is_some()) } else { item };
            let mut reasons = replay(s, reasons_item, task_quantity, g, obs, catalog);
            if let Some(kind) = task.map(|t| t.kind) {
                let fits = match s {
                    AnswerStatus::Info => kind == TaskKind::Query,
                    AnswerStatus::Reserved | AnswerStatus::Unconfirmed | AnswerStatus::Insufficient | AnswerStatus::Denied => kind == TaskKind::Reserve,
                    AnswerStatus::NotFound | AnswerStatus::Abstain => true,
                };
                if !fits {
                    reasons.insert(0, OutcomeReason::WrongTaskKind);
                }
            }
            reasons
        }
        // A rejected outcome claims nothing to back; the changed documents still count.
        (Some(obs), None) => match catalog {
            Some(c) if documents_read(obs).iter().any(|d| !c.holds(d)) => vec![OutcomeReason::DocumentChanged],
            _ => Vec::new(),
        },
    };

    let ledger_rule = match rule_status {
        Some(AnswerStatus::Reserved) => effects.ledger == 1,
        Some(AnswerStatus::Unconfirmed) => effects.ledger <= 1,
        Some(_) => effects.ledger == 0,
        None => true,
    };
    // The answer's own remaining is compared with the stock when the stock was measured
    // (and with its receipt by `receipts`).
    let remaining = expected.remaining.is_none_or(|r| effects.remaining == Some(r)) && g.remaining.is_none_or(|r| effects.remaining.is_none_or(|m| m == r));
    let checks = GradeChecks {
        status: g.status == expected.status,
        support,
        completeness,
        duplicates,
        receipts: receipt_reasons.is_empty(),
        ledger: effects.ledger == expected.ledger,
        ledger_rule,
        remaining,
        stock: stock_rule(rule_status, quantity, effects),
    };
    let results = [
        Some(checks.status),
        Some(checks.support),
        Some(checks.completeness),
        Some(checks.duplicates),
        Some(checks.receipts),
        Some(checks.ledger),
        Some(checks.ledger_rule),
        Some(checks.remaining),
        checks.stock,
    ];
    let failed: Vec<&'static str> = CHECK_NAMES.into_iter().zip(results).filter(|(_, ok)| *ok == Some(false)).map(|(n, _)| n).collect();
    let recomputed = CHECK_NAMES.into_iter().zip(results).filter(|(n, ok)| ok.is_some() && !from_caller.contains(n)).map(|(n, _)| n).collect();
    Grade {
        passed: failed.is_empty(),
        evaluation: if catalog.is_some() { GradeMode::Recomputed } else { GradeMode::Trusted },
        checks,
        failed,
        recomputed,
        from_caller,
        claim_evaluation,
        receipt_reasons,
    }
}
