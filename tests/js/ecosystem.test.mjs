// Fitting the ecosystem: JSON Schemas validated with ajv, W3C Web Annotations round
// trips, repair hints, and signed reviews — through the JS API.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { ROOT, NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const ex = userRequire(userProject())("evidence-check/extras"); // schemas, annotations, excerpts, outcomes, offsets, importers
const bundle = readJson("examples", "demo.bundle.json");
const ajv = () => new Ajv2020({ strict: true, allErrors: true });

function goldenReports() {
  const out = [];
  for (const set of ["reference", "extra"]) {
    const dir = join(ROOT, "tests", "data", set, "cases");
    for (const f of readdirSync(dir)) {
      const c = JSON.parse(readFileSync(join(dir, f), "utf8"));
      if (c.report) out.push([`${set}/${f}`, c.report]);
    }
  }
  return out;
}

test("every golden report the contract accepts validates against the schema; every one it refuses on a schema rule does not", () => {
  const validate = ajv().compile(ex.reportJsonSchema());
  let accepted = 0;
  for (const [name, report] of goldenReports()) {
    let ok = true;
    let issues = [];
    try {
      ec.parseReport(JSON.stringify(report));
    } catch (e) {
      ok = false;
      issues = e.issues;
    }
    if (ok) {
      accepted++;
      assert.equal(validate(report), true, `${name}: ${JSON.stringify(validate.errors)}`);
    } else if (issues.every((i) => ["missing", "extra_field", "not_allowed", "too_long", "pattern_mismatch", "too_short", "too_small"].includes(i.code))) {
      assert.equal(validate(report), false, `${name}: the schema accepts what the contract refuses: ${JSON.stringify(issues)}`);
    }
  }
  assert.ok(accepted >= 20, `only ${accepted} golden reports accepted`);
});

test("schema-valid samples are accepted by the contract (standard and openai-strict)", () => {
  const claim = bundle.report.claims[0];
  const samples = [
    bundle.report,
    { title: "t", claims: [{ claim_id: "a", text: "x", kind: "fact" }] },
    { title: "😀".repeat(120), claims: [{ claim_id: "A-1_z", text: "x", kind: "inference", rationale: "because", citations: [] }], conflicts: [], gaps: ["g"] },
    { ...bundle.report, conflicts: [{ claim_ids: ["claim_a", "claim_b"], reason: "r" }] },
  ];
  const standard = ajv().compile(ex.reportJsonSchema());
  for (const s of samples) {
    assert.equal(standard(s), true, JSON.stringify(standard.errors));
    assert.equal(ec.parseReport(s).title, s.title);
  }
  const strictSchema = ex.reportJsonSchema({ dialect: "openai-strict" });
  const strict = ajv().compile(strictSchema);
  const strictSample = {
    title: "t",
    claims: [{ claim_id: "a", text: "x", kind: "fact", rationale: null, citations: [claim.citations[0]] }],
    conflicts: null,
    gaps: null,
  };
  assert.equal(strict(strictSample), true, JSON.stringify(strict.errors));
  // parseReport returns a ReportHandle; its toJSON() is the parsed report.
  assert.deepEqual(ec.parseReport(strictSample, { dialect: "openai-strict" }).toJSON(), {
    title: "t", claims: [{ claim_id: "a", text: "x", kind: "fact", rationale: "", citations: [claim.citations[0]] }], conflicts: [], gaps: [],
  });
  // Strict mode: every object lists every property as required, and nothing else is allowed.
  const walk = (s) => {
    if (s && typeof s === "object") {
      if (s.type === "object") {
        assert.deepEqual([...s.required].sort(), Object.keys(s.properties).sort());
        assert.equal(s.additionalProperties, false);
      }
      assert.ok(!("minLength" in s) && !("maxLength" in s));
      Object.values(s).forEach(walk);
    }
  };
  walk(strictSchema);
  assert.match(strictSchema.description, /start < end/);
  for (const f of ["citationJsonSchema", "claimJsonSchema", "bundleJsonSchema"]) ajv().compile(ex[f]());
  assert.equal(ajv().compile(ex.bundleJsonSchema())(bundle), true);
});

test("web annotations round-trip every citation of the example", () => {
  const store = new ec.EvidenceStore(bundle.sources.map((s) => s.spec), { now: NOW });
  for (const s of bundle.sources) store.ingest(bundle.scope, s.spec.source_id, s.content);
  const annotations = ec.toWebAnnotations(bundle.scope, bundle.report, store);
  assert.deepEqual(annotations.map((a) => a.id), ["urn:evidence-check:citation:citation_a", "urn:evidence-check:citation:citation_b"]);
  assert.deepEqual(annotations[0].target.selector[0], { type: "TextQuoteSelector", exact: "方案 A 支持离线整理。", prefix: "# 人工测试资料\n", suffix: "\n" });
  assert.deepEqual(annotations[0].body.map((b) => b.value), [bundle.report.claims[0].text, bundle.report.claims[2].text]);
  const citations = annotations.map((a) => ex.fromWebAnnotation(a));
  assert.deepEqual(citations, [bundle.report.claims[0].citations[0], bundle.report.claims[1].citations[0]]);
  assert.throws(() => ex.fromWebAnnotation({ ...annotations[0], target: { source: "x" } }), (e) => e.name === "ContractError" && e.issues[0].path === "/target/selector");
});

test("a stale citation carries a repair hint and stays invalid", () => {
  const store = new ec.EvidenceStore(bundle.sources.map((s) => s.spec), { now: NOW, lang: "zh" });
  store.ingest(bundle.scope, "plan_a", "# 更新\n前言。\n" + bundle.sources[0].content);
  store.ingest(bundle.scope, "plan_b", bundle.sources[1].content);
  const a = ec.assess(bundle.scope, bundle.report, store);
  assert.equal(a.status, "invalid");
  const cited = bundle.report.claims[0].citations[0].ref.digest;
  const found = ec.digestText("# 更新\n前言。\n" + bundle.sources[0].content);
  assert.deepEqual(a.issues[0], {
    claim_id: "claim_a",
    citation_id: "citation_a",
    code: "digest_mismatch",
    message: `引用的摘要与来源当前版本的摘要不一致。 (来源 plan_a; 引用摘要 ${cited},当前摘要 ${found})`,
    source_id: "plan_a",
    cited_digest: cited,
    current_digest: found,
    hint: { ref: { source_id: "plan_a", revision: 1, digest: found }, occurrences: 1, start: 18, end: 30 },
  });
});

test("signed reviews: a forged or unsigned review is refused with a clear issue", () => {
  const key = "host-secret";
  const reviews = bundle.report.claims.map((c) => ec.recordReview(bundle.scope, bundle.report, c.claim_id, "supported", "checked", { now: NOW, key }));
  assert.ok(reviews.every((r) => /^[0-9a-f]{64}$/.test(r.signature)));
  const ok = ec.checkBundle({ ...bundle, reviews }, { now: NOW, reviewKey: key });
  assert.deepEqual([ok.assessment.status, ok.assessment.issues], ["partial", []]);
  const forged = [{ ...reviews[0], verdict: "contradicted" }, reviews[1], { ...reviews[2], signature: undefined }];
  const bad = ec.checkBundle({ ...bundle, reviews: forged }, { now: NOW, reviewKey: key });
  assert.equal(bad.assessment.status, "invalid");
  assert.deepEqual(bad.assessment.issues.map((i) => [i.claim_id, i.citation_id, i.code]), [
    ["claim_a", null, "review_signature_invalid"],
    ["choice", null, "review_signature_missing"],
  ]);
  assert.deepEqual(bad.assessment.claims, { claim_a: "pending_review", claim_b: "supported", choice: "pending_review" });
  assert.throws(() => ec.checkBundle(bundle, { reviewKey: "" }), (e) => e.code === "invalid_argument");
});

test("lang: English messages and artifact labels, Chinese ones (the locale's or compat's by default)", () => {
  const store = new ec.EvidenceStore(bundle.sources.map((s) => s.spec), { now: NOW, lang: "en" });
  assert.throws(() => store.ingest(bundle.scope, "nope", "x"), (e) => e.code === "unknown_source" && e.message === "The source is not in the trusted catalogue. (source nope)");
  const zhStore = new ec.EvidenceStore(bundle.sources.map((s) => s.spec), { now: NOW, lang: "zh" });
  assert.throws(() => zhStore.ingest(bundle.scope, "nope", "x"), (e) => e.message === "来源未在可信目录中登记。 (来源 nope)");
  const dup = { ...bundle.report, claims: [bundle.report.claims[0], bundle.report.claims[0]] };
  assert.throws(() => ec.parseReport(dup, { lang: "en" }), (e) => e.issues[0].message === "Two claims share one claim id.");
  assert.throws(() => ec.parseReport(dup, { lang: "zh" }), (e) => e.issues[0].message === "论断标识重复。");
  const en = ec.checkBundle(bundle, { now: NOW, lang: "en" });
  const zh = ec.checkBundle(bundle, { now: NOW, lang: "zh" });
  assert.equal(en.artifact.content.split("\n").length, zh.artifact.content.split("\n").length);
  assert.ok(en.artifact.content.includes("\n## Claims\n"));
  assert.ok(en.artifact.content.includes("**claim\\_a / sourced fact / reviewed as supported**: "));
  assert.ok(en.artifact.content.includes("\n- Gap: "));
  const stale = { ...bundle, sources: [{ ...bundle.sources[0], content: "changed", revision: 2 }, bundle.sources[1]] };
  assert.equal(ec.checkBundle(stale, { lang: "en" }).assessment.issues[0].message, "The cited revision is not the source's current revision. (source plan_a; cited revision 1, current revision 2)");
  assert.equal(ec.checkBundle(stale, { lang: "en", compat: "reference" }).assessment.issues[0].message, "The source does not exist, was removed, belongs to another scope, or the revision is stale.");
  assert.equal(ec.checkBundle(stale, { lang: "en" }).render_error.message, "The report has invalid citations; it is not exported.");
  assert.throws(() => ec.checkBundle(bundle, { lang: "fr" }), (e) => e.code === "invalid_argument");
});
