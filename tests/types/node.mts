// Typed usage from Node: the store, a check, the error classes by name and `instanceof`
// narrowing, code unions, and the Node entry. Compiled by `make test-types`, never run.
import { EvidenceStore, checkBundle, parseReport, toWebAnnotations, ContractError, EvidenceError, EvidenceCheckError, errorClasses } from "evidence-check";
import { assess, render, recordReview, reportDigest, ReportHandle, Reviews } from "evidence-check";
// The second entry: its own functions, the same data types and error classes.
import { convertOffset, DocumentCatalog, fromWebAnnotation, ContractError as ExtrasContractError } from "evidence-check/extras";
import type { Citation as ExtrasCitation, WebAnnotation } from "evidence-check/extras";
import type { Bundle, ContractIssue, ErrorCode, IssueCode, Assessment, ClaimState, Lang, ParsedReport, Review, Claim } from "evidence-check";
import * as nodeEntry from "evidence-check/node";

declare const bundle: Bundle;
const lang: Lang = "en";
const store = new EvidenceStore(bundle.sources.map((s) => s.spec), { now: "2026-11-29T00:00:00+00:00", lang });
const result = checkBundle(bundle, { lang, render: false });
const a: Assessment = result.assessment;
const states: ClaimState[] = Object.values(a.claims);
const offset: number = convertOffset("abc", 1, "utf16", "code_point", { lang: "en" });
const annotations: WebAnnotation[] = toWebAnnotations(bundle.scope, bundle.report, store, { lang: "zh" });
const cited: ExtrasCitation = fromWebAnnotation(annotations[0]);
const sameError: typeof ContractError = ExtrasContractError;
const catalog: DocumentCatalog = new DocumentCatalog({ lang });
console.log(cited.ref satisfies import("evidence-check").SourceRef, sameError, catalog.ids());

try {
  parseReport("{");
} catch (e) {
  if (e instanceof ContractError) {
    const issues: ContractIssue[] = e.issues;
    const code: IssueCode = issues[0].code;
    const subject: string = e.subject;
    console.log(code, subject, e.code satisfies "contract");
  } else if (e instanceof EvidenceError) {
    const code: ErrorCode = e.code;
    const limit: number | undefined = e.detail?.limit;
    if (e.code === "policy_unknown_field") console.log(e.field, limit);
    if (e.code === "store_freed" || e.code === "invalid_argument") console.log(code);
  } else if (e instanceof EvidenceCheckError) {
    const code: string = e.code;
    console.log(e.name, e.message, code);
  }
}

const classes = errorClasses();
const same: typeof ContractError = classes.ContractError;
{
  using scoped = new nodeEntry.EvidenceStore([], {});
  scoped.close();
}
// The handles: a report read once, reviews checked once; plain objects stay accepted.
{
  using report: ReportHandle = parseReport(JSON.stringify(bundle.report), { lang });
  const digest: string = report.digest;
  const ids: string[] = report.claimIds;
  const claims: Claim[] = report.claims;
  const title: string = report.title;
  const plain: ParsedReport = report.toJSON();
  using reviews = new Reviews([], { lang });
  const review: Review = recordReview(bundle.scope, report, ids[0], "supported", "ok");
  const length: number = reviews.add(review);
  const fromHandles: Assessment = assess(bundle.scope, report, store, reviews);
  const fromObjects: Assessment = assess(bundle.scope, plain, store, [review]);
  render(bundle.scope, report, store, reviews, { now: "2026-11-29T00:00:00+00:00" });
  // reportDigest reads a plain report under a policy and language; compat is one of them.
  const under: string = reportDigest(plain, { policy: "documents", lang, compat: "reference" });
  console.log(digest === reportDigest(report), digest === under, claims.length, title, length, reviews.length, fromHandles.status, fromObjects.status);
  // @ts-expect-error a handle is read-only
  report.digest = "x";
}
console.log(states, offset, same);
