// Generated from the Rust types by src/ts.rs: do not edit.
// `UPDATE_TYPES=1 cargo test --lib generated_types` rewrites it; the test fails when it is stale.

/**
 * The language of messages and artifact labels. Every code and every label has a
 * Chinese text (the reference's) and an English one. There is no fixed default: a call
 * without `lang` follows the host's locale ([`crate::host::lang`]), and `compat:
 * "reference"` gives Chinese.
 */
export type Lang = "zh" | "en";
/**
 * Whose data this is: one tenant's user never sees another's snapshots or reviews.
 */
export type Scope = { tenant_id: string, user_id: string, };
/**
 * Whether a source is made-up test material or a public document (the reference's
 * two kinds), or another kind a policy allows (`kinds`).
 */
export type SourceKind = "fixture" | "public" | (string & {});
/**
 * One entry of the host's trusted catalogue of sources.
 */
export type SourceSpec = { source_id: string, title: string, locator: string, filename: string, kind: SourceKind, };
/**
 * Names one revision of one source by its digest.
 */
export type SourceRef = { source_id: string, revision: number, digest: string, };
/**
 * The payload of a successful read: the file's name and text.
 */
export type ReadPayload = { filename: string, content: string, };
/**
 * A read tool's business result (`status` is always `ok`; failures never reach ingest).
 */
export type ReadResult = { status: "ok", message?: string, data: ReadPayload, };
/**
 * A passage of one source revision: half-open code-point range `[start, end)` of the
 * LF-normalised text, and the exact text found there.
 */
export type Citation = { citation_id: string, ref: SourceRef, start: number, end: number, quote: string, };
/**
 * Whether a claim restates a source (`fact`) or is derived from sources (`inference`).
 */
export type ClaimKind = "fact" | "inference";
/**
 * One claim of a report.
 */
export type Claim = { claim_id: string, text: string, kind: ClaimKind, rationale?: string, citations?: Array<Citation>, };
/**
 * Claims that the report itself says disagree.
 */
export type Conflict = { claim_ids: Array<string>, reason: string, };
/**
 * A candidate report written by a model: claims with citations, conflicts, gaps.
 */
export type Report = { title: string, claims: Array<Claim>, conflicts?: Array<Conflict>, gaps?: Array<string>, };
/**
 * One revision of one source as the store holds it.
 */
export type Snapshot = { spec: SourceSpec, ref: SourceRef, 
/**
 * The LF-normalised text.
 */
content: string, fetched_at: string, };
/**
 * A reviewer's verdict on whether the cited passages support a claim.
 */
export type Verdict = "supported" | "insufficient" | "contradicted";
/**
 * A recorded review.
 */
export type Review = { scope: Scope, report_digest: string, claim_id: string, verdict: Verdict, note: string, reviewed_at: string, 
/**
 * HMAC-SHA-256 (hex) over the review's canonical JSON without this field, when the
 * host signs its reviews (see [`sign_review`]).
 */
signature?: string, };
/**
 * The state of one claim.
 */
export type ClaimState = "invalid" | "insufficient" | "disputed" | "pending_review" | "supported" | "contradicted";
/**
 * The overall status of a report.
 */
export type Status = "invalid" | "partial" | "needs_review" | "reviewed_candidate";
/**
 * A repair hint for a failed citation.
 */
export type RepairHint = { 
/**
 * The current revision of the cited source (in this scope).
 */
ref: SourceRef, 
/**
 * How many times the exact quote occurs there, overlapping occurrences counted
 * ("aa" occurs twice in "aaa"); at least 1.
 */
occurrences: number, 
/**
 * Its code-point range, when it occurs exactly once.
 */
start?: number, end?: number, };
/**
 * The subject of an error or issue and the numbers involved: which source, claim,
 * citation or review, and size and limit, revisions, digests. Every field is optional;
 * only those that apply are set (and serialized).
 */
export type Detail = { source_id?: string, 
/**
 * The claim, for a thrown error (an issue names it in its own `claim_id`).
 */
claim_id?: string, 
/**
 * The index of a review in the list given.
 */
review_index?: number, 
/**
 * A size (in `unit`s) over its limit.
 */
size?: number, limit?: number, 
/**
 * What `size` and `limit` count: `bytes`, `sources`, `code_points`.
 */
unit?: string, 
/**
 * The policy field that sets the limit.
 */
policy_field?: string, cited_revision?: number, current_revision?: number, 
/**
 * The digest the citation or review names (cites).
 */
cited_digest?: string, 
/**
 * The current digest: the source's current revision's, or the report's.
 */
current_digest?: string, 
/**
 * A citation's range and the text's length, in code points.
 */
start?: number, end?: number, text_length?: number, 
/**
 * `quote_mismatch`: the source's text at the cited range, its first 80 code points
 * (`…` when cut), with `\n`, `\t`, `"` and `\` escaped and invisible characters as
 * `⟦U+XXXX⟧`.
 */
text_at_range?: string, 
/**
 * `quote_mismatch`: the one range where the quote matches if whitespace is ignored
 * (what `whitespace: "loose"` would locate), when there is one and no exact match.
 */
loose_start?: number, loose_end?: number, };
/**
 * One problem found while assessing: a citation that failed its check.
 */
export type Issue = { claim_id: string, 
/**
 * The failed citation; `null` for a review's problem.
 */
citation_id: string | null, code: EvidenceCode, message: string, 
/**
 * Where the exact quote occurs in the source's current revision, when the
 * citation is stale or its range no longer holds the quote. Never applied: the
 * citation stays invalid until the report is corrected.
 */
hint?: RepairHint, } & Detail;
/**
 * The result of assessing a report.
 */
export type Assessment = { status: Status, report_digest: string, 
/**
 * Every claim's state, in the report's order.
 */
claims: Record<string, ClaimState>, issues: Array<Issue>, };
/**
 * A rendered report.
 */
export type Artifact = { content: string, content_digest: string, report_digest: string, status: Status, };
/**
 * One rule of a contract that an input breaks, with the JSON path where it broke.
 */
export type ContractIssue = { 
/**
 * JSON Pointer (RFC 6901) to the offending value; `""` is the whole input.
 */
path: string, 
/**
 * Stable code of the rule, see [`ViolationCode`].
 */
code: IssueCode, 
/**
 * Human-readable message (for the reference's own rules, its Chinese text).
 */
message: string, };
/**
 * One source of a bundle: its catalogue entry and its text at a known revision.
 */
export type BundleSource = { spec: SourceSpec, content: string, 
/**
 * The revision the host holds this text at (default 1).
 */
revision?: number, 
/**
 * When the host fetched it (default: the clock's time).
 */
fetched_at?: string, };
/**
 * What an importer did for one citation or one source of a bundle.
 */
export type ImportNote = { 
/**
 * `anthropic`, `locate`, `bedrock`, `openai`, `gemini`, `vercel` or `langchain`.
 */
importer: "anthropic" | "locate" | "bedrock" | "openai" | "gemini" | "vercel" | "langchain", 
/**
 * The citation the note is about (or `source_id`).
 */
citation_id?: string, 
/**
 * The source the note is about (or `citation_id`).
 */
source_id?: string, 
/**
 * Anthropic: the document's index in the request.
 */
document_index?: number, 
/**
 * Anthropic, Bedrock: the unit in which the model's range held its cited text
 * (`code_point`, `utf16`, `block` for content documents), or `unmatched`; a quote
 * located in a page, a chunk or the whole snapshot: `page`, `chunk`, `quote`.
 */
unit?: "code_point" | "utf16" | "block" | "unmatched" | "page" | "chunk" | "quote", 
/**
 * Anthropic content documents: the separator the blocks were joined with.
 */
separator?: string, 
/**
 * Quote-only citations: `exact`, or `loose` when located whitespace-insensitively.
 */
whitespace?: Whitespace, 
/**
 * An unlocated quote: the claim whose citation it was (with `source_id`, `code`,
 * `quote`, and `citation_id` when the draft gave one).
 */
claim_id?: string, 
/**
 * An unlocated quote: why (`quote_not_found`, `quote_ambiguous`, `source_not_in_scope`,
 * `source_not_ingested`, `source_removed`, `ref_unavailable`).
 */
code?: "quote_not_found" | "quote_ambiguous" | "source_not_in_scope" | "source_not_ingested" | "source_removed" | "ref_unavailable", 
/**
 * An unlocated quote: the draft's quote, as given.
 */
quote?: string, };
/**
 * Scope, sources, report and reviews (and, from an importer, its notes).
 */
export type Bundle = { scope: Scope, sources: Array<BundleSource>, report: Report, reviews?: Array<Review>, 
/**
 * What an importer recorded per citation or source (see [`crate::import`]); not checked.
 */
import_notes?: Array<ImportNote>, };
/**
 * A refused render, as data.
 */
export type RenderIssue = { code: EvidenceCode, message: string, } & Detail;
/**
 * What a bundle check found.
 */
export type BundleResult = { assessment: Assessment, 
/**
 * The artifact, when rendering was asked for and succeeded.
 */
artifact?: Artifact, 
/**
 * Why rendering was refused (an invalid report, an oversize artifact).
 */
render_error?: RenderIssue, };
/**
 * Whether whitespace must match exactly.
 */
export type Whitespace = "exact" | "loose";
/**
 * One located passage: a code-point range and the source's exact text there.
 */
export type Located = { start: number, end: number, text: string, whitespace: Whitespace, };
/**
 * A citation located from its quote.
 */
export type LocatedCitation = { claim_id: string, citation_id: string, source_id: string, start: number, end: number, 
/**
 * The source's exact text at the range (the citation's quote).
 */
quote: string, whitespace: Whitespace, };
/**
 * A quote that was not located; its citation was left out of its claim.
 */
export type LocateIssue = { claim_id: string, 
/**
 * The draft citation's id, when it had one.
 */
citation_id: string | null, source_id: string, 
/**
 * The draft's quote, as given.
 */
quote: string, 
/**
 * `quote_not_found`, `quote_ambiguous`, or why the source has no current snapshot in
 * the scope: `source_not_in_scope` (not catalogued), `source_not_ingested`,
 * `source_removed` (`ref_unavailable` for all three under `compat: "reference"`).
 */
code: "quote_not_found" | "quote_ambiguous" | "source_not_in_scope" | "source_not_ingested" | "source_removed" | "ref_unavailable", message: string, 
/**
 * How many times the quote occurs (after context filtering for an ambiguity).
 */
count?: number, 
/**
 * The first code-point ranges of an ambiguous quote.
 */
ranges?: Array<[number, number]>, };
/**
 * What [`locate_citations`] found.
 */
export type LocateResult = { report: ParsedReport, located: Array<LocatedCitation>, issues: Array<LocateIssue>, };
/**
 * What [`locate_bundle`] made: the bundle with located citations, and what was found.
 */
export type LocatedBundle = { bundle: ParsedBundle, located: Array<LocatedCitation>, issues: Array<LocateIssue>, };
/**
 * A context that lost a lone surrogate at its outer edge.
 */
export type ContextTrim = { 
/**
 * `prefix` (its first UTF-16 unit) or `suffix` (its last).
 */
field: "prefix" | "suffix", 
/**
 * The dropped unit, as its JSON escape (`\udc00`).
 */
unit: string, message: string, };
/**
 * What [`import_web_annotation`] made: the citation, and each context it trimmed.
 */
export type AnnotationImport = { citation: Citation, trimmed: Array<ContextTrim>, };
/** Why a provider's citation was not checked, or was flagged. */
export type ImportIssueCode = "existence_only" | "no_cited_text" | "source_not_supplied" | "cited_text_not_found" | "cited_text_ambiguous" | "answer_offsets_mismatch" | "answer_offsets_out_of_range" | "location_not_checkable";
/**
 * One citation that was not checked, or that was flagged: its code, why, and where it
 * is in the response.
 */
export type ImportIssue = { code: ImportIssueCode, message: string, 
/**
 * The JSON Pointer of the citation in the response (`/output/message/content/0/…`).
 */
path: string, 
/**
 * The answer text the citation supports, when known.
 */
claim?: string, 
/**
 * The bundle's citation, when it was kept (flagged) so that the check reports it.
 */
citation_id?: string, 
/**
 * The host's source it names, when there is one.
 */
source_id?: string, 
/**
 * The unit of the offsets concerned (`code_point`, `utf16`, `utf8`).
 */
unit?: string, 
/**
 * Gemini: the part of the answer the offsets are in.
 */
part_index?: number, };
/**
 * What a provider importer made: the bundle (check it with `check_bundle`) and every
 * citation it could not check or flagged.
 */
export type ProviderImport = { provider: "anthropic" | "bedrock" | "openai" | "gemini" | "vercel" | "langchain", bundle: ParsedBundle, issues: Array<ImportIssue>, };
/**
 * The JSON spelling of [`KindRule::Any`].
 */
export type AnyIdentifier = "any_identifier";
/**
 * Which `kind` values a source spec may have.
 */
export type KindRule = AnyIdentifier | Array<string>;
/**
 * The rule a source spec's `filename` must meet.
 */
export type FilenameRule = "markdown" | "relative_path";
/**
 * An identifier pattern.
 */
export type IdRule = "reference" | "extended";
/**
 * Every limit and vocabulary. Lengths of texts are in Unicode code points; sizes in
 * UTF-8 bytes.
 */
export type Policy = { 
/**
 * Specs in a store's catalogue (and sources in a bundle).
 */
max_sources: number, 
/**
 * Bytes of one source's text, before newline normalisation (also the code-point
 * limit of a read result's content).
 */
max_source_bytes: number, 
/**
 * Claims in a report.
 */
max_claims: number, 
/**
 * Citations in one claim.
 */
max_citations: number, 
/**
 * Gaps in a report.
 */
max_gaps: number, 
/**
 * Conflicts in a report.
 */
max_conflicts: number, 
/**
 * Code points of a citation's quote.
 */
max_quote_chars: number, 
/**
 * Code points of a claim's text.
 */
max_claim_chars: number, 
/**
 * Code points of an inference's rationale.
 */
max_rationale_chars: number, 
/**
 * Code points of the rendered artifact.
 */
max_artifact_chars: number, 
/**
 * Bytes of the rendered artifact.
 */
max_artifact_bytes: number, 
/**
 * Bytes of a JSON input, checked before parsing.
 */
max_input_bytes: number, 
/**
 * Bytes of text one store holds at once (every scope's current snapshots, and so a
 * bundle's sources, together): keeps a store well inside wasm32's 4 GiB.
 */
max_store_bytes: number, 
/**
 * The allowed `kind` values of a source spec.
 */
kinds: KindRule, 
/**
 * The rule of a source spec's `filename`.
 */
filename: FilenameRule, 
/**
 * The pattern of source, claim and citation ids.
 */
identifier: IdRule, 
/**
 * The pattern of `tenant_id` and `user_id`.
 */
scope_id: IdRule, 
/**
 * Code points of a review's note.
 */
max_note_chars: number, 
/**
 * Citations in one model response an importer reads (Anthropic's Messages API):
 * a response with more is refused before its citations are read.
 */
max_response_citations: number, };
/**
 * A frozen document: an item card.
 */
export type Document = { id: string, title: string, body: string, };
/**
 * A claim that quotes one line of one document version.
 */
export type ExcerptClaim = { item_id: string, sha256: string, 
/**
 * 1-based line number.
 */
line: number, 
/**
 * The whole line, `"- "` included.
 */
quote: string, 
/**
 * The line without its `"- "`.
 */
text: string, };
/**
 * Why an excerpt claim is not supported.
 */
export type ExcerptReason = "unknown_item" | "stale_digest" | "line_out_of_range" | "quote_not_at_line" | "text_does_not_match_quote";
/**
 * The result of checking one excerpt claim.
 */
export type ExcerptCheck = { supported: boolean, 
/**
 * `null` when supported.
 */
reason: ExcerptReason | null, };
/**
 * What an answer's status asks of its claims.
 */
export type AnswerStatus = "info" | "reserved" | "insufficient" | "not_found" | "denied" | "abstain" | "unconfirmed";
/**
 * Support and completeness of an answer's claims, as separate gates.
 */
export type Evaluation = { 
/**
 * `supported / total`; `null` for an empty list, never 1.
 */
support_rate: number | null, supported: number, total: number, 
/**
 * Required facts given by a supported claim (after de-duplication).
 */
covered: number, required: number, 
/**
 * `covered / required`; `null` when the status needs no document facts.
 */
coverage: number | null, 
/**
 * Claims repeating an earlier `(item_id, line, quote)`.
 */
duplicates: number, support_pass: boolean, completeness_pass: boolean, duplicates_pass: boolean, passed: boolean, };
/**
 * What an import recorded: the frozen digest and the number of lines.
 */
export type Imported = { item_id: string, sha256: string, lines: number, };
/**
 * One catalogued document as saved: the document and its frozen digest.
 */
export type CatalogEntry = { id: string, title: string, body: string, sha256: string, };
/**
 * The saved form of a catalogue.
 */
export type CatalogJson = { documents: Array<CatalogEntry>, };
/**
 * What a task asks for.
 */
export type TaskKind = "query" | "reserve";
/**
 * A task given to the agent.
 */
export type Task = { task_id: string, kind: TaskKind, item_id?: string | null, quantity?: number | null, };
/**
 * What a reservation tool answered.
 */
export type ReserveResult = { "status": "reserved", item_id: string, quantity: number, remaining: number, revision: number, receipt: string, } | { "status": "insufficient", item_id: string, requested: number, available: number, } | { "status": "denied", item_id: string, reason: string, };
/**
 * What was sent to the reservation tool.
 */
export type ReserveRequest = { item_id: string, quantity: number, 
/**
 * The idempotency key: sending the same key again recovers the same result.
 */
receipt_key: string, };
/**
 * One tool result the executor observed, in order.
 */
export type Observation = { "tool": "search", query: string, hits: Array<string>, } | { "tool": "document", document: Document, } | { "tool": "reserve", request: ReserveRequest, result: ReserveResult | null, };
/**
 * The policy's finish: a status and the claims it offers.
 */
export type Finish = { status: AnswerStatus, claims?: Array<ExcerptClaim>, };
/**
 * Why a finish was not delivered as asked.
 */
export type OutcomeReason = "reply_lost" | "wrong_task_kind" | "no_reserve_receipt" | "info_needs_one_document" | "no_insufficient_observation" | "no_denial" | "no_empty_search" | "no_lost_reply" | "claims_unsupported" | "facts_missing" | "duplicate_claims" | "claims_not_allowed" | "document_changed" | "document_not_read" | "no_observations";
/**
 * What the executor delivers.
 */
export type Outcome = { task_id: string, 
/**
 * The policy's status when accepted; `unconfirmed` after a lost reply; else `rejected`.
 */
status: AnswerStatus | "rejected", 
/**
 * The status the policy asked for.
 */
requested: AnswerStatus, accepted: boolean, reasons: Array<OutcomeReason>, 
/**
 * Built only from observations: receipt figures, never document text about stock.
 */
text: string, 
/**
 * The item the outcome is about: the task's, else the first document read.
 */
item_id: string | null, 
/**
 * The excerpt claims of the document read (the executor's own, never the policy's).
 */
claims: Array<ExcerptClaim>, 
/**
 * Support and completeness of the policy's claims.
 */
evaluation: Evaluation, 
/**
 * The reservation receipt, when one backs the outcome.
 */
receipt: string | null, 
/**
 * Remaining stock as the receipt reports it.
 */
remaining: number | null, 
/**
 * The key to recover an unconfirmed reservation with.
 */
recovery_key: string | null, 
/**
 * The observations the outcome was decided from, for a grader to replay.
 */
observations: Array<Observation>, };
/**
 * What an evaluation run expects of one task.
 */
export type Expected = { status: string, 
/**
 * Ledger entries the run must write: 0 for read-only tasks, 1 for a reservation.
 */
ledger: number, 
/**
 * The item's stock after the run, when the task touches stock.
 */
remaining?: number | null, 
/**
 * The item whose facts the answer must give (else the outcome's `item_id`).
 */
item_id?: string | null, 
/**
 * The quantity a reservation must take from stock (else the receipt's).
 */
quantity?: number | null, };
/**
 * What the environment measured after the run.
 */
export type Effects = { 
/**
 * Ledger rows the run wrote.
 */
ledger: number, 
/**
 * The item's stock after the run.
 */
remaining?: number | null, 
/**
 * The item's stock before the run; with it the stock rule of the status is checked.
 */
stock_before?: number | null, 
/**
 * The observations of the run, in order, as the environment recorded them: the
 * receipts are replayed from these, never from the outcome's own copy. Without
 * them `receipts` fails (`no_observations`).
 */
observations?: Array<Observation> | null, 
/**
 * The task the run was given: its item and quantity bind the receipt when
 * `expected` names none.
 */
task?: Task | null, };
/**
 * The checks of a grade. `stock` is `null` when it cannot be checked (no
 * `stock_before`, or no quantity known for a write).
 */
export type GradeChecks = { 
/**
 * The outcome's status is the expected one.
 */
status: boolean, 
/**
 * Every claim of the outcome is an exact excerpt.
 */
support: boolean, 
/**
 * The claims give every required fact (none for a status that needs none).
 */
completeness: boolean, 
/**
 * No claim repeats another.
 */
duplicates: boolean, 
/**
 * The observations back the outcome's status (its receipt, its document, its lost reply).
 */
receipts: boolean, 
/**
 * The ledger count measured is the one expected.
 */
ledger: boolean, 
/**
 * The ledger count measured is the one the status allows.
 */
ledger_rule: boolean, 
/**
 * The stock measured is the one expected and the one the answer reports.
 */
remaining: boolean, 
/**
 * The stock moved as the status says: down by the quantity for a write, not at all otherwise.
 */
stock: boolean | null, };
/**
 * Whether the claims' checks were recomputed from a catalogue or taken from the outcome.
 */
export type GradeMode = "recomputed" | "trusted";
/**
 * The grade of one task.
 */
export type Grade = { passed: boolean, 
/**
 * `recomputed` with a catalogue; `trusted` when support, completeness and
 * duplicates are the outcome's own word.
 */
evaluation: GradeMode, checks: GradeChecks, 
/**
 * The names of the failed checks.
 */
failed: GradeCheck[], 
/**
 * The checks the grader decided itself (from the catalogue, the observations,
 * `expected` and `effects`).
 */
recomputed: GradeCheck[], 
/**
 * The checks taken from the outcome's own verdict.
 */
from_caller: GradeCheck[], 
/**
 * The recomputed evaluation of the outcome's claims; `null` when trusted.
 */
claim_evaluation: Evaluation | null, 
/**
 * Why the observations do not back the outcome's status.
 */
receipt_reasons: Array<OutcomeReason>, };
/** A check of a grade. */
export type GradeCheck = "status" | "support" | "completeness" | "duplicates" | "receipts" | "ledger" | "ledger_rule" | "remaining" | "stock";
/**
 * `compat: "reference"`: the reference's behaviour, byte for byte: its policy and its
 * language (Chinese) unless `policy` or `lang` is given beside it, its (weaker) escaping,
 * its quote counting and its codes and message texts.
 */
export type Compat = "reference";
/**
 * `dialect`: the schema flavour, or how `null` in optional fields is read.
 */
export type DialectName = "standard" | "openai-strict";
/**
 * `whitespace`: exact matching (the default) or loose matching of whitespace runs.
 */
export type WhitespaceName = "exact" | "loose";
/**
 * How a host counts offsets: `code_point`, `utf16` or `utf8`.
 */
export type OffsetUnit = "code_point" | "utf16" | "utf8";
/**
 * `reviews`: what a stale, foreign or second review does.
 */
export type ReviewsName = "throw" | "report";
/**
 * `new EvidenceStore(specs, options)`: a fixed clock (`now`), the catalogue and
 * source-size limits, the language of messages and labels, the policy, `compat`.
 */
export type StoreOptions = { now?: string, maxSources?: number, maxSourceBytes?: number, lang?: Lang, policy?: PolicyInput, compat?: Compat, };
/**
 * `store.quote(…, options)`: picks one occurrence of a quote by W3C TextQuoteSelector
 * context (the text right before and after) or the n-th occurrence (1-based);
 * `whitespace: "loose"` matches whitespace runs loosely, only when asked;
 * `compat: "reference"`: the reference's count (non-overlapping) and its one code
 * `quote_not_unique`.
 */
export type QuoteOptions = { prefix?: string, suffix?: string, occurrence?: number, whitespace?: WhitespaceName, compat?: Compat, };
/**
 * `store.quoteRange(…, options)`: the unit the host counts its offsets in.
 */
export type RangeOptions = { unit?: OffsetUnit, };
/**
 * `parseReport(input, options)`. `dialect: "openai-strict"`: `null` in an optional
 * field means absent (strict-mode output).
 */
export type ParseOptions = { dialect?: DialectName, lang?: Lang, policy?: PolicyInput, compat?: Compat, };
/**
 * The schema functions. `dialect: "openai-strict"`: every property required, optional
 * ones nullable, no string lengths.
 */
export type SchemaOptions = { dialect?: DialectName, policy?: PolicyInput, compat?: Compat, };
/**
 * `reportDigest(report, options)`: the policy and language a report given as an
 * object or text is read under (a handle's own, unless given).
 */
export type ReportDigestOptions = { lang?: Lang, policy?: PolicyInput, compat?: Compat, };
/**
 * `recordReview(…, options)`. `key`: the host's secret; the review gets an
 * HMAC-SHA-256 `signature` over its canonical JSON.
 */
export type ReviewOptions = { now?: string, key?: string, lang?: Lang, policy?: PolicyInput, compat?: Compat, };
/**
 * `assess(…, options)`. `reviewKey`: every review must carry a valid signature made
 * with this key; `reviews: "report"` lists a stale, foreign or second review as an
 * issue instead of throwing.
 */
export type AssessOptions = { reviewKey?: string, lang?: Lang, reviews?: ReviewsName, };
/**
 * `render(…, options)`. `compat: "reference"`: the reference's escaping,
 * byte-identical to it and weaker (bare URLs autolink).
 */
export type RenderOptions = { now?: string, compat?: Compat, reviewKey?: string, lang?: Lang, reviews?: ReviewsName, };
/**
 * `checkBundle(bundle, options)`. `policy` sets every limit and vocabulary (default
 * "documents"; "reference" under `compat: "reference"`); the `max*` options override
 * single fields of it.
 */
export type CheckBundleOptions = { now?: string, render?: boolean, maxSources?: number, maxSourceBytes?: number, maxClaims?: number, maxCitations?: number, maxInputBytes?: number, compat?: Compat, reviewKey?: string, lang?: Lang, policy?: PolicyInput, };
/**
 * `store.fromWebAnnotation(…, options)`.
 */
export type WhitespaceOptions = { whitespace?: WhitespaceName, };
/**
 * `locateCitations(…, options)`: the store's policy and language unless given.
 */
export type LocateOptions = { whitespace?: WhitespaceName, lang?: Lang, policy?: PolicyInput, compat?: Compat, maxClaims?: number, maxCitations?: number, };
/**
 * `locateBundle(draft, options)`: the policy the draft and its sources are read under.
 */
export type LocateBundleOptions = { whitespace?: WhitespaceName, lang?: Lang, policy?: PolicyInput, compat?: Compat, maxClaims?: number, maxCitations?: number, now?: string, maxSources?: number, maxSourceBytes?: number, };
/**
 * `fromAnthropicMessage(request, response, options)`: `sourceIds[i]` names document i
 * (default `doc-<i>`); `uncitedAsGaps` keeps uncited text blocks as gaps; `title`
 * names the report; `policy` and `lang` as every call's.
 */
export type AnthropicOptions = { scope: Scope, sourceIds?: Array<string>, fetchedAt?: string, uncitedAsGaps?: boolean, title?: string, lang?: Lang, policy?: PolicyInput, compat?: Compat, };
/**
 * `fromBedrockResponse`, `fromOpenAIResponse`, `fromGeminiResponse(request, response,
 * options)`: `sources` maps the provider's key (a Bedrock document index or name, an
 * OpenAI file id, a Gemini URI) to the host's snapshot; `title` names the report.
 */
export type ProviderOptions = { scope: Scope, sources: Record<string, HostSource>, lang?: Lang, policy?: PolicyInput, compat?: Compat, title?: string, fetchedAt?: string, };
/**
 * `fromModelResponse(request, response, options)`: `provider`, or detected by shape.
 */
export type ModelResponseOptions = { scope: Scope, sources: Record<string, HostSource>, lang?: Lang, policy?: PolicyInput, compat?: Compat, title?: string, fetchedAt?: string, provider: "anthropic" | "bedrock" | "openai" | "gemini", };
/**
 * `new DocumentCatalog(options)`: `documents` are imported in order.
 */
export type DocumentCatalogOptions = { lang?: Lang, documents?: Document[], };
/**
 * `DocumentCatalog.fromJSON(json, options)`, `convertOffset` and `toWebAnnotations`.
 */
export type LangOptions = { lang?: Lang, };
/**
 * `parseBundle(bundle, options)`: `requireContents: false` lets sources leave out
 * `content`; the limits as `checkBundle`'s.
 */
export type ParseBundleOptions = { requireContents?: boolean, maxClaims?: number, maxCitations?: number, maxInputBytes?: number, lang?: Lang, policy?: PolicyInput, compat?: Compat, };
/** The codes of every refusal other than a broken contract (see docs/errors.md). */
export type EvidenceCode = "catalogue_invalid" | "store_closed" | "unknown_source" | "empty_content" | "source_too_large" | "read_result_not_object" | "read_mismatch" | "ref_unavailable" | "range_out_of_bounds" | "quote_mismatch" | "quote_not_unique" | "quote_not_found" | "quote_ambiguous" | "revision_not_newer" | "source_not_ingested" | "source_removed" | "revision_stale" | "digest_mismatch" | "source_not_in_scope" | "over_capacity" | "out_of_memory" | "unknown_claim" | "invalid_verdict" | "invalid_note" | "review_mismatch" | "review_target_missing" | "review_stale_digest" | "review_other_scope" | "review_duplicate" | "review_signature_missing" | "review_signature_invalid" | "report_invalid" | "artifact_too_large" | "out_of_memory" | "offset_out_of_range" | "splits_surrogate_pair" | "splits_utf8_sequence" | "empty_range" | "invalid_now" | "invalid_argument" | "invalid_unicode" | "store_freed" | "handle_freed" | "out_of_memory" | "document_changed" | "catalog_digest_mismatch" | "unknown_document" | "policy_unknown_field" | "policy_unknown_preset" | "policy_invalid" | "unknown_response_shape" | "annotation_source_conflict" | "selector_conflict" | "refinement_unsupported";
/** The code of one broken rule of a contract. */
export type IssueCode = "invalid_json" | "input_too_large" | "too_deep" | "duplicate_key" | "missing" | "extra_field" | "wrong_type" | "too_small" | "too_short" | "too_long" | "pattern_mismatch" | "not_allowed" | "empty_range" | "blank_claim" | "duplicate_claim_id" | "duplicate_citation_in_claim" | "citation_id_conflict" | "duplicate_conflict_member" | "unknown_conflict_member" | "duplicate_document_id" | "too_many_violations" | "too_many_values" | "bom" | "quote_only_citations";
