// One language setting (issue 13 §3): the `lang` of a store, a catalogue or a call carries
// to everything derived from it (the library's default, the locale's, is tested in
// defaults.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const ex = userRequire(userProject())("evidence-check/extras"); // schemas, annotations, excerpts, outcomes, offsets, importers
const bundle = readJson("examples", "demo.bundle.json");
const specs = bundle.sources.map((s) => s.spec);
const scope = bundle.scope;
const dup = { ...bundle.report, claims: [bundle.report.claims[0], bundle.report.claims[0]] };
const EN_DUP = "Two claims share one claim id.";
const ZH_DUP = "论断标识重复。";
const EN_STALE = "The cited revision is not the source's current revision. (source plan_a; cited revision 9, current revision 1)";

function store(lang) {
  const s = new ec.EvidenceStore(specs, lang ? { now: NOW, lang } : { now: NOW });
  for (const src of bundle.sources) s.ingest(scope, src.spec.source_id, src.content);
  return s;
}

test("toWebAnnotations with a store made with lang en throws English; options.lang overrides it", () => {
  const en = store("en");
  assert.throws(() => ec.toWebAnnotations(scope, dup, en), (e) => e.code === "contract" && e.issues[0].message === EN_DUP);
  assert.throws(() => ec.toWebAnnotations(scope, dup, en, { lang: "zh" }), (e) => e.issues[0].message === ZH_DUP);
  assert.throws(() => ec.toWebAnnotations(scope, dup, store("zh")), (e) => e.issues[0].message === ZH_DUP);
  assert.throws(() => ec.toWebAnnotations(scope, dup, store("zh"), { lang: "en" }), (e) => e.issues[0].message === EN_DUP);
});

test("the lang of a store carries into assess, render and locateCitations when the call gives none", () => {
  const en = store("en");
  // A report whose citations name a revision the store does not hold.
  const stale = structuredClone(bundle.report);
  for (const c of stale.claims) for (const cit of c.citations ?? []) cit.ref.revision = 9;
  const a = ec.assess(scope, stale, en);
  assert.equal(a.issues[0].message, EN_STALE);
  assert.notEqual(ec.assess(scope, stale, en, [], { lang: "zh" }).issues[0].message, EN_STALE);
  assert.notEqual(ec.assess(scope, stale, store("zh")).issues[0].message, EN_STALE);
  assert.throws(() => ec.render(scope, stale, en, [], { now: NOW }), (e) => e.code === "report_invalid" && e.message === "The report has invalid citations; it is not exported.");
  assert.throws(() => ec.render(scope, dup, en, [], { now: NOW }), (e) => e.issues[0].message === EN_DUP);
  assert.throws(() => ec.assess(scope, dup, en), (e) => e.issues[0].message === EN_DUP);
  const draft = { title: "t", claims: [{ claim_id: "c", text: "x", kind: "fact", citations: [{ source_id: "plan_a", quote: "no such words anywhere" }] }] };
  const located = ec.locateCitations(scope, draft, en);
  assert.equal(located.issues[0].code, "quote_not_found");
  assert.match(located.issues[0].message, /^The quote does not occur/);
  // The artifact's labels follow the store too.
  assert.ok(ec.render(scope, bundle.report, en, bundle.reviews, { now: NOW }).content.includes("\n## Claims\n"));
});

test("convertOffset takes lang", () => {
  assert.throws(() => ex.convertOffset("abc", 9, "utf16", "code_point", { lang: "en" }), (e) => e.code === "offset_out_of_range" && e.message === "The offset is past the end of the text.");
  assert.throws(() => ex.convertOffset("abc", 9, "utf16", "code_point", { lang: "zh" }), (e) => e.code === "offset_out_of_range" && e.message === "偏移量超出正文末尾。");
  assert.throws(() => ex.convertOffset("abc", 1, "utf16", "code_point", { lang: "fr" }), (e) => e.code === "invalid_argument");
});

test("the lang of a catalogue carries into the functions given it", () => {
  const en = new ex.DocumentCatalog({ lang: "en", documents: [{ id: "d1", title: "t", body: "- a\n" }] });
  assert.throws(() => ex.extractExcerpts(en, "nope"), (e) => e.code === "unknown_document" && e.message.startsWith("The catalogue has no document with this id."));
  const zh = new ex.DocumentCatalog({ lang: "zh", documents: [{ id: "d1", title: "t", body: "- a\n" }] });
  assert.throws(() => ex.extractExcerpts(zh, "nope"), (e) => e.code === "unknown_document" && e.message.startsWith("资料目录中没有该标识的资料。"));
  assert.throws(() => en.import({ id: "d1", title: "t", body: "- b\n" }), (e) => e.code === "document_changed" && e.message.startsWith("The document's body changed"));
});

test("an unknown option is refused with the names the call allows", () => {
  assert.throws(
    () => new ec.EvidenceStore(specs, { now: NOW, langue: "en" }),
    (e) => e.code === "invalid_argument" && e.message.includes("langue") && ["now", "maxSources", "maxSourceBytes", "lang"].every((n) => e.message.includes(`\`${n}\``)),
  );
  assert.throws(
    () => ex.convertOffset("abc", 1, "utf16", "code_point", { language: "en" }),
    (e) => e.code === "invalid_argument" && e.message.includes("`lang`"),
  );
  assert.throws(() => ec.checkBundle(bundle, { maxClaims: -1 }), (e) => e.code === "invalid_argument" && e.message.includes("options.maxClaims"));
  assert.throws(() => ec.checkBundle(bundle, { render: "yes" }), (e) => e.code === "invalid_argument" && e.message.includes("options.render"));
});
