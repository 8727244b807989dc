use crate::*;

/// What the Rust types do not describe: the parsed forms (every default filled in, made
/// from the generated input types), the policy input, the W3C annotation, and the JS-side
/// classes.
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** A report as parsed: every default filled in. */
export type ParsedReport = Required<Omit<Report, "claims">> & { claims: Required<Claim>[] };
/** A bundle as parsed: every default filled in (an absent content reads as ""). */
export type ParsedBundle = Omit<Bundle, "sources" | "report" | "reviews"> & { sources: Array<BundleSource & { revision: number }>; report: ParsedReport; reviews: Review[] };
/** A policy: a preset's name, or an object that starts from one (`{ extends: "documents", max_claims: 5000 }`). */
export type PolicyInput = "reference" | "documents" | ({ extends?: "reference" | "documents" } & Partial<Policy>);
/** A list of documents, or a frozen catalogue. */
export type DocumentSource = Document[] | DocumentCatalog;
export interface FinalizeOptions { catalog?: DocumentCatalog; }
export interface GradeOptions { catalog?: DocumentCatalog; }
/** A catalogue refusal: "document_changed", "catalog_digest_mismatch" or "unknown_document". */
export interface CatalogError extends EvidenceError { item_id: string; expected_sha256?: string; actual_sha256?: string; }
/** A JSON Schema (draft 2020-12) document. */
export type JsonSchema = { [keyword: string]: unknown };
/** A W3C Web Annotation of one citation (https://www.w3.org/TR/annotation-model/). */
export interface WebAnnotation {
  "@context": Array<string | Record<string, string>>;
  id: string;
  type: "Annotation";
  motivation: "describing";
  body: Array<{ type: "TextualBody"; value: string; format: "text/plain"; purpose: "describing" }>;
  target: {
    source: string;
    selector: Array<
      | { type: "TextQuoteSelector"; exact: string; prefix: string; suffix: string }
      | { type: "TextPositionSelector"; start: number; end: number }
    >;
    state: { type: "SourceRevision"; source_id: string; revision: number; digest: string };
  };
}
/** Every stable code of a thrown error or an assessment issue. */
export type ErrorCode = ContractCode | EvidenceCode;
/** The code of every broken contract. */
export type ContractCode = "contract";
/** What every function throws: an `Error` subclass with a stable `code`. Exported by
 * name from every entry (`import { ContractError } from "evidence-check"`). The
 * library's own errors are `ContractError` or `EvidenceError` (their codes are
 * `ErrorCode`); the JS side's (`McpReadError`, the CLI's) subclass it with codes of their own. */
export declare class EvidenceCheckError extends Error {
  constructor(message: string, code?: string, options?: { cause?: unknown });
  code: string;
}
/** A broken contract: `code` is "contract", `issues` lists every violation. */
export declare class ContractError extends EvidenceCheckError {
  name: "ContractError";
  code: ContractCode;
  issues: ContractIssue[];
  subject: string;
}
/** Any other refusal, with its own `code`; `detail`: its subject and numbers when known
 * (absent under `compat: "reference"`), `field`: the policy field of a policy refusal. */
export declare class EvidenceError extends EvidenceCheckError {
  name: "EvidenceError";
  code: EvidenceCode;
  detail?: Detail;
  field?: string;
}
/** The classes behind the thrown errors, for `instanceof` checks. */
export interface ErrorClasses {
  EvidenceCheckError: typeof EvidenceCheckError;
  ContractError: typeof ContractError;
  EvidenceError: typeof EvidenceError;
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "Scope")]
    pub type JsScope;
    #[wasm_bindgen(typescript_type = "SourceSpec[]")]
    pub type JsSpecs;
    #[wasm_bindgen(typescript_type = "SourceRef")]
    pub type JsSourceRef;
    #[wasm_bindgen(typescript_type = "ReadResult")]
    pub type JsReadResult;
    #[wasm_bindgen(typescript_type = "Citation")]
    pub type JsCitation;
    #[wasm_bindgen(typescript_type = "Report | string")]
    pub type JsReportInput;
    #[wasm_bindgen(typescript_type = "ParsedReport")]
    pub type JsParsedReport;
    #[wasm_bindgen(typescript_type = "Snapshot")]
    pub type JsSnapshot;
    #[wasm_bindgen(typescript_type = "Verdict")]
    pub type JsVerdict;
    #[wasm_bindgen(typescript_type = "Review")]
    pub type JsReview;
    #[wasm_bindgen(typescript_type = "Review[]")]
    pub type JsReviews;
    #[wasm_bindgen(typescript_type = "Assessment")]
    pub type JsAssessment;
    #[wasm_bindgen(typescript_type = "Artifact")]
    pub type JsArtifact;
    #[wasm_bindgen(typescript_type = "Bundle | string | Uint8Array")]
    pub type JsBundleInput;
    #[wasm_bindgen(typescript_type = "BundleResult")]
    pub type JsBundleResult;
    #[wasm_bindgen(typescript_type = "StoreOptions")]
    pub type JsStoreOptions;
    #[wasm_bindgen(typescript_type = "RenderOptions")]
    pub type JsRenderOptions;
    #[wasm_bindgen(typescript_type = "RangeOptions")]
    pub type JsRangeOptions;
    #[wasm_bindgen(typescript_type = "LangOptions")]
    pub type JsLangOptions;
    #[wasm_bindgen(typescript_type = "ReviewOptions")]
    pub type JsReviewOptions;
    #[wasm_bindgen(typescript_type = "JsonSchema")]
    pub type JsJsonSchema;
    #[wasm_bindgen(typescript_type = "SchemaOptions")]
    pub type JsSchemaOptions;
    #[wasm_bindgen(typescript_type = "ParseOptions")]
    pub type JsParseOptions;
    #[wasm_bindgen(typescript_type = "ErrorClasses")]
    pub type JsErrorClasses;
    #[wasm_bindgen(typescript_type = "WebAnnotation")]
    pub type JsWebAnnotation;
    #[wasm_bindgen(typescript_type = "WebAnnotation[]")]
    pub type JsWebAnnotations;
    #[wasm_bindgen(typescript_type = "AssessOptions")]
    pub type JsAssessOptions;
    #[wasm_bindgen(typescript_type = "OffsetUnit")]
    pub type JsOffsetUnit;
    #[wasm_bindgen(typescript_type = "CheckBundleOptions")]
    pub type JsCheckBundleOptions;
    #[wasm_bindgen(typescript_type = "Document")]
    pub type JsDocument;
    #[wasm_bindgen(typescript_type = "Document[]")]
    pub type JsDocuments;
    #[wasm_bindgen(typescript_type = "ExcerptClaim")]
    pub type JsExcerptClaim;
    #[wasm_bindgen(typescript_type = "ExcerptClaim[]")]
    pub type JsExcerptClaims;
    #[wasm_bindgen(typescript_type = "ExcerptCheck")]
    pub type JsExcerptCheck;
    #[wasm_bindgen(typescript_type = "AnswerStatus")]
    pub type JsAnswerStatus;
    #[wasm_bindgen(typescript_type = "Evaluation")]
    pub type JsEvaluation;
    #[wasm_bindgen(typescript_type = "Task")]
    pub type JsTask;
    #[wasm_bindgen(typescript_type = "Observation[]")]
    pub type JsObservations;
    // The reader accepts a `text` and ignores it (never delivered).
    #[wasm_bindgen(typescript_type = "Finish & { text?: string }")]
    pub type JsFinish;
    #[wasm_bindgen(typescript_type = "Outcome")]
    pub type JsOutcome;
    #[wasm_bindgen(typescript_type = "Expected")]
    pub type JsExpected;
    #[wasm_bindgen(typescript_type = "Effects")]
    pub type JsEffects;
    #[wasm_bindgen(typescript_type = "Grade")]
    pub type JsGrade;
    #[wasm_bindgen(typescript_type = "DocumentSource")]
    pub type JsDocumentSource;
    #[wasm_bindgen(typescript_type = "Document | DocumentCatalog")]
    pub type JsDocumentOrCatalog;
    #[wasm_bindgen(typescript_type = "FinalizeOptions")]
    pub type JsFinalizeOptions;
    #[wasm_bindgen(typescript_type = "GradeOptions")]
    pub type JsGradeOptions;
    #[wasm_bindgen(typescript_type = "Imported")]
    pub type JsImported;
    #[wasm_bindgen(typescript_type = "Document | undefined")]
    pub type JsMaybeDocument;
    #[wasm_bindgen(typescript_type = "string[]")]
    pub type JsIds;
    #[wasm_bindgen(typescript_type = "CatalogJson")]
    pub type JsCatalogJson;
    #[wasm_bindgen(typescript_type = "CatalogJson | string")]
    pub type JsCatalogJsonInput;
    #[wasm_bindgen(typescript_type = "DocumentCatalogOptions")]
    pub type JsDocumentCatalogOptions;
}

#[wasm_bindgen(typescript_custom_section)]
const IMPORT_TYPES: &str = r#"
/** A TextQuoteSelector (https://www.w3.org/TR/annotation-model/#text-quote-selector). */
export interface TextQuoteSelector { type: "TextQuoteSelector"; exact: string; prefix?: string; suffix?: string; }
/** An annotation that carries only a quote: located in its source (`state.source_id`, or the catalogue locator equal to `source`). */
export interface QuoteOnlyAnnotation {
  id?: string; type?: "Annotation";
  target: { source?: string; selector: TextQuoteSelector | TextQuoteSelector[]; state?: { type?: "SourceRevision"; source_id: string } };
}
/** A citation a model wrote without offsets. */
export interface DraftCitation { citation_id?: string; source_id: string; quote: string; prefix?: string; suffix?: string; occurrence?: number; }
/** A claim whose citations may be quote-only. */
export type DraftClaim = Omit<Claim, "citations"> & { citations?: Array<Citation | DraftCitation> };
/** A report whose citations may be quote-only. */
export type DraftReport = Omit<Report, "claims"> & { claims: DraftClaim[] };
/** A bundle whose report is a draft. */
export type DraftBundle = Omit<Bundle, "report"> & { report: DraftReport };
/** A Messages API request (the documents are its `document` blocks). */
export interface AnthropicRequest { messages: Array<{ role: string; content: string | Array<{ type: string; [key: string]: unknown }> }>; [key: string]: unknown; }
/** A Messages API response with citations. */
export interface AnthropicResponse {
  content: Array<{ type: string; text?: string; citations?: Array<{ type: string; cited_text: string; document_index: number; [key: string]: unknown }> | null; [key: string]: unknown }>;
  [key: string]: unknown;
}
/** A locate error also says where and how often: `sourceId`, `count`, `ranges`. */
export interface LocateError extends EvidenceError { sourceId: string; count?: number; ranges?: Array<[number, number]>; }
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "QuoteOptions")]
    pub type JsQuoteOptions;
    #[wasm_bindgen(typescript_type = "WebAnnotation | QuoteOnlyAnnotation")]
    pub type JsQuoteAnnotation;
    #[wasm_bindgen(typescript_type = "DraftReport | string")]
    pub type JsDraftReport;
    #[wasm_bindgen(typescript_type = "LocateOptions")]
    pub type JsLocateOptions;
    #[wasm_bindgen(typescript_type = "WhitespaceOptions")]
    pub type JsWhitespaceOptions;
    #[wasm_bindgen(typescript_type = "LocateResult")]
    pub type JsLocateResult;
    #[wasm_bindgen(typescript_type = "DraftBundle | string")]
    pub type JsDraftBundle;
    #[wasm_bindgen(typescript_type = "LocateBundleOptions")]
    pub type JsLocateBundleOptions;
    #[wasm_bindgen(typescript_type = "LocatedBundle")]
    pub type JsLocatedBundle;
    #[wasm_bindgen(typescript_type = "AnthropicRequest | string")]
    pub type JsAnthropicRequest;
    #[wasm_bindgen(typescript_type = "AnthropicResponse | string")]
    pub type JsAnthropicResponse;
    #[wasm_bindgen(typescript_type = "AnthropicOptions")]
    pub type JsAnthropicOptions;
    #[wasm_bindgen(typescript_type = "Bundle")]
    pub type JsImportedBundle;
}

/// Locates the quote-only citations of a draft report (`{source_id, quote, prefix?,
/// suffix?, occurrence?}`) in the store's current snapshots. Absent or ambiguous quotes
/// are issues and their citations are left out, so their claims can only be insufficient.

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "ParseBundleOptions")]
    pub type JsParseBundleOptions;
    #[wasm_bindgen(typescript_type = "ParsedBundle")]
    pub type JsParsedBundle;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "Policy")]
    pub type JsPolicy;
}

#[wasm_bindgen(typescript_custom_section)]
const HANDLE_TYPES: &str = r#"
/** A report read once by `parseReport`: its fields as getters, `toJSON()` the parsed report. */
export interface ReportHandle extends ParsedReport {}
/** A report: an object, JSON text, or a `ReportHandle` (then nothing is read again). */
export type ReportArg = Report | ReportHandle | string;
/** Reviews: a list, or a `Reviews` handle (each review checked once, when added). */
export type ReviewsArg = Review[] | Reviews;
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "ReportArg")]
    pub type JsReportArg;
    #[wasm_bindgen(typescript_type = "ReviewsArg")]
    pub type JsReviewsArg;
    #[wasm_bindgen(typescript_type = "Claim[]")]
    pub type JsClaims;
    #[wasm_bindgen(typescript_type = "Conflict[]")]
    pub type JsConflicts;
}
