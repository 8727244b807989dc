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
    /** The source's locator when it is an IRI, else `urn:evidence-check:source:<source_id>`. */
    source: string;
    /** The source's locator, when it is not an IRI (`source` is then a `urn:`). */
    locator?: string;
    selector: Array<
      | { type: "TextQuoteSelector"; exact: string; prefix: string; suffix: string }
      | { type: "TextPositionSelector"; start: number; end: number }
    >;
    /** `id`: `urn:evidence-check:revision:<source_id>:<revision>:sha256:<digest>`. */
    state: { id: string; type: "SourceRevision"; source_id: string; revision: number; digest: string };
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
/** A TextQuoteSelector (https://www.w3.org/TR/annotation-model/#text-quote-selector). */
export interface TextQuoteSelector { type: "TextQuoteSelector"; exact: string; prefix?: string; suffix?: string; }
/** A foreign selector beside the quote (Hypothesis sends TextPosition and Range ones); a position only chooses among the quote's occurrences. */
export type ForeignSelector = { type: "TextPositionSelector"; start: number; end: number } | { type: string; [key: string]: unknown };
/** One target of a foreign annotation. */
export interface QuoteTarget { source?: string; locator?: string; selector: TextQuoteSelector | Array<TextQuoteSelector | ForeignSelector>; state?: { type?: "SourceRevision"; source_id: string } }
/** An annotation located quote-first in its source (`state.source_id`, or the catalogue locator equal to `source` or `locator`); Hypothesis's list of one target is read too. */
export interface QuoteOnlyAnnotation {
  id?: string; type?: "Annotation";
  target: QuoteTarget | QuoteTarget[];
  [key: string]: unknown;
}
/** The citation a foreign annotation was located as; `trimmed`, when a context lost a lone surrogate at its outer edge. */
export type LocatedAnnotation = Citation & { trimmed?: ContextTrim[] };
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
/** A report read once by `parseReport`: its fields as getters, `toJSON()` the parsed report. */
export interface ReportHandle extends ParsedReport {}
/** A report: an object, JSON text, or a `ReportHandle` (then nothing is read again). */
export type ReportArg = Report | ReportHandle | string;
/** Reviews: a list, or a `Reviews` handle (each review checked once, when added). */
export type ReviewsArg = Review[] | Reviews;
/** A host's snapshot for a provider importer: the source id it is catalogued under and the text the host holds. */
export interface HostSource { sourceId: string; text: string; title?: string; locator?: string; }
