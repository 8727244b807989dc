// Typed usage from Node: the store, a check, the error classes by name and `instanceof`
// narrowing, code unions, and the Node entry. Compiled by `make test-types`, never run.
import { EvidenceStore, checkBundle, parseReport, convertOffset, toWebAnnotations, ContractError, EvidenceError, EvidenceCheckError, errorClasses } from "evidence-check";
import type { Bundle, ContractIssue, ErrorCode, IssueCode, Assessment, ClaimState, Lang } from "evidence-check";
import * as nodeEntry from "evidence-check/node";

declare const bundle: Bundle;
const lang: Lang = "en";
const store = new EvidenceStore(bundle.sources.map((s) => s.spec), { now: "2026-11-29T00:00:00+00:00", lang });
const result = checkBundle(bundle, { lang, render: false });
const a: Assessment = result.assessment;
const states: ClaimState[] = Object.values(a.claims);
const offset: number = convertOffset("abc", 1, "utf16", "code_point", { lang: "en" });
toWebAnnotations(bundle.scope, bundle.report, store, { lang: "zh" });

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
console.log(states, offset, same);
