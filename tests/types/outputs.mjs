// Real outputs against the generated types: runs the built package over the golden cases,
// the demo bundle and the task fixtures, and writes tests/types/outputs.generated.ts, where
// each result is an object literal assigned to its declared type. `make test-types` then
// compiles it with tsc --strict: a field the types lack (an excess property), a field they
// require and the output lacks, or a value outside a literal union fails the build, so the
// .d.ts cannot drift from what the Rust types serialize.
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const ec = createRequire(import.meta.url)(join(root, "pkg"));
const json = (...p) => JSON.parse(readFileSync(join(root, ...p), "utf8"));
const NOW = "2026-11-29T00:00:00+00:00";

const out = [];
const seen = new Set();
/** Every path in a value with the type (and, for strings in a literal-union field, the value) there. */
function shape(v, path = "", acc = new Set()) {
  if (Array.isArray(v)) v.forEach((x) => shape(x, `${path}[]`, acc));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) shape(x, `${path}.${k}`, acc);
  else acc.add(`${path}:${v === null ? "null" : typeof v}${(path === "" || /(code|status|kind|reason|verdict|unit|whitespace)$/.test(path)) ? `=${v}` : ""}`);
  return acc;
}
/** Records one output under its declared type when its shape is new. */
function keep(type, value) {
  if (value === undefined) return value;
  const key = `${type} ${[...shape(value)].sort().join(" ")}`;
  if (seen.has(key)) return value;
  seen.add(key);
  out.push(`export const v${out.length}: T.${type} = ${JSON.stringify(value)};`);
  return value;
}
const attempt = (f) => {
  try {
    return f();
  } catch (e) {
    if (e instanceof ec.ContractError) keep("ContractIssue[]", e.issues);
    else if (e instanceof ec.EvidenceError) {
      keep("EvidenceCode", e.code);
      keep("Detail", e.detail);
    }
    return undefined;
  }
};

// The golden cases through the store, both languages, with and without the reference's texts.
const golden = json("tests", "data", "golden-all.json");
for (const { case: c } of [...Object.values(golden.reference), ...Object.values(golden.extra)]) {
  for (const options of [{ now: NOW }, { now: NOW, lang: "en" }, { now: NOW, compat: "reference" }]) {
    const store = attempt(() => new ec.EvidenceStore(c.specs, options));
    if (!store) continue;
    const contents = {};
    for (const step of c.ingest ?? []) {
      const ref = attempt(() => store.ingestReadResult(c.scope, step.source_id, step.read_result));
      keep("SourceRef", ref);
      if (ref) {
        keep("Snapshot", attempt(() => store.get(c.scope, ref)));
        contents[step.source_id] = step.read_result?.data?.content;
      }
    }
    const report = c.report;
    keep("ParsedReport", attempt(() => ec.parseReport(report, { lang: options.lang })));
    const reviews = (c.reviews ?? []).map((r) =>
      attempt(() => ec.recordReview(c.scope, report, r.claim_id, r.verdict, r.note ?? "", { now: NOW, key: "k" })),
    ).filter(Boolean);
    reviews.forEach((r) => keep("Review", r));
    keep("Assessment", attempt(() => ec.assess(c.scope, report, store, reviews, { lang: options.lang, reviewKey: "k", reviews: "report" })));
    keep("Artifact", attempt(() => ec.render(c.scope, report, store, reviews, { now: NOW, lang: options.lang, reviewKey: "k" })));
    keep("WebAnnotation[]", attempt(() => ec.toWebAnnotations(c.scope, report, store, { lang: options.lang })));
    const sources = (c.specs ?? []).filter((s) => contents[s.source_id]).map((spec) => ({ spec, content: contents[spec.source_id] }));
    const bundle = { scope: c.scope, sources, report, reviews };
    keep("BundleResult", attempt(() => ec.checkBundle(bundle, { ...options, render: true, reviewKey: "k" })));
    keep("ParsedBundle", attempt(() => ec.parseBundle(bundle, { lang: options.lang })));
    store.free();
  }
}

// The demo bundle: an oversize artifact, quote-only citations, policies.
const demo = json("examples", "demo.bundle.json");
keep("BundleResult", ec.checkBundle(demo, { now: NOW, render: true, policy: { extends: "reference", max_artifact_chars: 10 } }));
keep("ParsedBundle", ec.parseBundle(demo));
const draft = {
  ...demo,
  report: {
    ...demo.report,
    claims: demo.report.claims.map((cl) => ({
      ...cl,
      citations: (cl.citations ?? []).map((ct, i) => (i === 0 ? { source_id: ct.ref.source_id, quote: ct.quote } : { source_id: ct.ref.source_id, quote: "not in the source" })),
    })),
  },
};
keep("LocatedBundle", ec.locateBundle(draft, { now: NOW }));
const store = new ec.EvidenceStore(demo.sources.map((s) => s.spec), { now: NOW });
for (const s of demo.sources) store.ingest(demo.scope, s.spec.source_id, s.content);
keep("LocateResult", ec.locateCitations(demo.scope, draft.report, store));
// Stale citations (a repair hint, revisions) and a range past the text (its length).
const first = demo.sources[0];
store.ingest(demo.scope, first.spec.source_id, `${first.content}\nA later line.\n`);
const far = structuredClone(demo.report);
const cited = far.claims.find((cl) => cl.citations?.length);
cited.citations.push({ ...cited.citations[0], citation_id: "far", start: 100000, end: 100005 });
for (const lang of ["zh", "en"]) keep("Assessment", ec.assess(demo.scope, far, store, [], { lang }));
for (const name of ["reference", "documents"]) keep("Policy", ec.parsePolicy(name));
// Thrown codes and details: a policy's three refusals, an oversize source, a stale review.
for (const policy of [{ extends: "documents", bogus: 1 }, { extends: "nope" }, { max_claims: "many" }]) attempt(() => ec.parsePolicy(policy));
attempt(() => store.ingest(demo.scope, first.spec.source_id, "x".repeat(30000)));
attempt(() => ec.recordReview(demo.scope, demo.report, "nope", "supported", ""));
attempt(() => ec.recordReview(demo.scope, demo.report, demo.report.claims[0].claim_id, "supported", "n".repeat(1500)));

// Excerpts, outcomes and grades from the task fixtures, with and without a catalogue.
const tasks = json("tests", "data", "tasks", "tasks.json");
const catalog = new ec.DocumentCatalog();
for (const t of tasks) {
  for (const o of t.observations) if (o.tool === "document") keep("Imported", attempt(() => catalog.import(o.document)));
}
keep("CatalogJson", catalog.toJSON());
for (const t of tasks) {
  const docs = t.observations.filter((o) => o.tool === "document").map((o) => o.document);
  const outcome = keep("Outcome", ec.finalize(t.task, t.observations, t.finish));
  keep("Outcome", ec.finalize(t.task, t.observations, { ...t.finish, claims: [] }, { catalog }));
  keep("Grade", ec.gradeTask(t.expected, outcome, t.effects));
  keep("Grade", ec.gradeTask(t.expected, outcome, t.effects, { catalog }));
  keep("Grade", ec.gradeTask({ ...t.expected, ledger: 7 }, outcome, { ...t.effects, stock_before: 3 }, { catalog }));
  for (const claim of t.finish.claims ?? []) {
    keep("ExcerptCheck", ec.checkExcerpt(docs, claim));
    keep("ExcerptCheck", ec.checkExcerpt(docs, { ...claim, line: 1 }));
  }
  if (docs[0]) {
    keep("ExcerptClaim[]", ec.extractExcerpts(docs[0]));
    keep("Evaluation", ec.evaluateClaims(docs, docs[0].id, t.finish.claims ?? [], t.finish.status));
  }
}

const text = [
  "// Written by tests/types/outputs.mjs from real outputs of the built package; compiled by `make test-types`.",
  'import type * as T from "evidence-check";',
  ...out,
  "",
].join("\n");
writeFileSync(join(here, "outputs.generated.ts"), text);
console.log(`outputs: ${out.length} results of ${new Set(out.map((l) => l.split(" ")[3])).size} types written to tests/types/outputs.generated.ts`);
