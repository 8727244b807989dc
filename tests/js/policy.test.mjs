// Issue 14 through the JS API: the policy option everywhere (presets, custom, limits at
// their edge), the split codes with their subjects, reviews reported instead of thrown
// in checkBundle (and with `reviews: "report"` in assess and render), and a bundle of
// real documents (the system's licence texts, a CRLF file, emoji and CJK).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { ROOT, NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const ex = userRequire(userProject())("evidence-check/extras"); // schemas, annotations, excerpts, outcomes, offsets, importers
const demo = readJson("examples", "demo.bundle.json");
const scope = { tenant_id: "t", user_id: "u" };
const MIB = 1024 * 1024;
const spec = (id, extra = {}) => ({ source_id: id, title: id, locator: `fixture:${id}`, filename: `${id}.md`, kind: "public", ...extra });

/** A store holding `text` as source `a`, and a one-claim report citing `quote`. */
function cited(text, quote, options = {}) {
  const store = new ec.EvidenceStore([spec("a")], { now: NOW, ...options });
  const ref = store.ingest(scope, "a", text);
  const citation = store.quote(scope, ref, quote, "c1");
  const report = { title: "T", claims: [{ claim_id: "k1", text: "claim", kind: "fact", citations: [citation] }] };
  return { store, ref, citation, report };
}

test("parsePolicy: presets, extends, and an unknown field named", () => {
  const documents = ec.parsePolicy("documents");
  assert.equal(documents.max_source_bytes, 16 * MIB);
  assert.equal(documents.max_claims, 2000);
  assert.equal(documents.max_citations, 32);
  assert.equal(documents.max_quote_chars, 20000);
  assert.equal(documents.max_artifact_bytes, 16 * MIB);
  assert.equal(documents.kinds, "any_identifier");
  assert.equal(documents.filename, "relative_path");
  assert.equal(ec.parsePolicy("reference").max_source_bytes, 24000);
  assert.deepEqual(ec.parsePolicy('{"extends": "documents", "max_claims": 5000}'), { ...documents, max_claims: 5000 });
  assert.deepEqual(ec.parsePolicy({ extends: "documents", max_claims: 5000 }), { ...documents, max_claims: 5000 });
  // Without extends: the default preset, documents.
  assert.deepEqual(ec.parsePolicy({ max_claims: 5000 }), { ...documents, max_claims: 5000 });
  assert.throws(() => ec.parsePolicy({ extends: "documents", max_claim: 5000 }), (e) => e.code === "policy_unknown_field" && e.field === "max_claim" && e.message.includes("max_claim"));
  assert.throws(() => ec.checkBundle(demo, { policy: { maxClaims: 3 } }), (e) => e.code === "policy_unknown_field" && e.field === "maxClaims");
  assert.throws(() => ec.checkBundle(demo, { policy: "huge" }), (e) => e.code === "policy_unknown_preset");
});

test("the policy option: a store applies its policy to ingest, quote, assess and render", () => {
  const big = "x".repeat(24000) + "\nThe needle is here.\n";
  const reference = { policy: "reference" };
  assert.throws(() => cited(big, "needle", reference), (e) => e.code === "source_too_large" && e.detail.size === big.length && e.detail.limit === 24000 && e.message.includes("--policy documents"));
  // The default is the documents policy.
  assert.equal(cited(big, "needle").store.ingest(scope, "a", big).revision, 1);
  const { store, report } = cited(big, "needle", { policy: "documents" });
  assert.equal(ec.assess(scope, report, store).status, "needs_review");
  assert.equal(ec.render(scope, report, store, [], { now: NOW }).status, "needs_review");
  // The old maxSourceBytes option still overrides one field.
  assert.equal(cited(big, "needle", { ...reference, maxSourceBytes: 30000 }).store.ingest(scope, "a", big).revision, 1);
  // parseReport and recordReview take a policy.
  const long = { ...report, claims: Array.from({ length: 13 }, (_, i) => ({ ...report.claims[0], claim_id: `k${i}` })) };
  assert.throws(() => ec.parseReport(long, reference), (e) => e.code === "contract");
  assert.equal(ec.parseReport(long, { policy: "documents" }).claims.length, 13);
  assert.equal(ec.parseReport(long).claims.length, 13);
  assert.throws(() => ec.recordReview(scope, report, "k1", "supported", "n".repeat(1001), { now: NOW, ...reference }), (e) => e.code === "invalid_note");
  assert.equal(ec.recordReview(scope, report, "k1", "supported", "n".repeat(1001), { now: NOW, policy: "documents" }).claim_id, "k1");
  // The documents note limit at its edge, and refusals that name their subject and numbers.
  assert.equal(ec.recordReview(scope, report, "k1", "supported", "n".repeat(20000), { now: NOW, policy: "documents" }).note.length, 20000);
  assert.throws(() => ec.recordReview(scope, report, "k1", "supported", "n".repeat(20001), { now: NOW, policy: "documents", lang: "en" }), (e) =>
    e.code === "invalid_note" && e.detail.size === 20001 && e.detail.limit === 20000 && e.message.includes("max_note_chars") && e.message.includes("a policy file that sets"));
  assert.throws(() => ec.recordReview(scope, report, "k9", "supported", "ok", { now: NOW }), (e) => e.code === "unknown_claim" && e.detail.claim_id === "k9" && e.message.includes("k9"));
  assert.throws(() => ec.recordReview(scope, report, "k9", "supported", "ok", { now: NOW, compat: "reference" }), (e) => e.message === "审阅目标不存在。" && e.detail === undefined);
  // Scope ids with @ under documents.
  const mail = { tenant_id: "acme.com", user_id: "ana@acme.com" };
  assert.throws(() => ec.recordReview(mail, report, "k1", "supported", "ok", { now: NOW, ...reference }), (e) => e.code === "contract");
  assert.equal(ec.recordReview(mail, report, "k1", "supported", "ok", { now: NOW }).scope.user_id, "ana@acme.com");
  assert.equal(ec.recordReview(mail, report, "k1", "supported", "ok", { now: NOW, policy: "documents" }).scope.user_id, "ana@acme.com");
});

test("checkBundle: the documents preset's limits at their edge (limit and limit + 1)", () => {
  const text = "Alpha beta gamma.";
  const base = (n) => ({ scope, sources: Array.from({ length: n }, (_, i) => ({ spec: spec(`s${i}`), content: text })), report: cited(text, "beta").report });
  const withA = (n) => {
    const b = base(n);
    b.sources[0].spec = spec("a");
    return b;
  };
  assert.equal(ec.checkBundle(withA(256), { now: NOW, policy: "documents" }).assessment.status, "needs_review");
  assert.throws(() => ec.checkBundle(withA(257), { now: NOW, policy: "documents" }), (e) => e.code === "contract" && e.issues[0].path === "/sources");
  const big = (bytes) => ({ scope, sources: [{ spec: spec("a"), content: text + "x".repeat(bytes - text.length) }], report: cited(text, "beta").report });
  // At the limit the bundle is checked (the citation names the short text's digest: a finding, not a refusal).
  assert.equal(ec.checkBundle(big(16 * MIB), { now: NOW, policy: "documents", render: false }).assessment.issues[0].code, "digest_mismatch");
  assert.throws(() => ec.checkBundle(big(16 * MIB + 1), { now: NOW, policy: "documents", render: false }), (e) => e.code === "source_too_large" && e.message.includes("16777217"));
  // Claims and citations per claim.
  const claims = (n, citations) => {
    const { report } = cited(text, "beta");
    const c = report.claims[0].citations[0];
    return { ...report, claims: Array.from({ length: n }, (_, i) => ({ claim_id: `k${i}`, text: "t", kind: "fact", citations: Array.from({ length: citations }, (_, j) => ({ ...c, citation_id: `c${j}` })) })) };
  };
  const parse = (r) => ec.parseReport(r, { policy: "documents" });
  assert.equal(parse(claims(2000, 1)).claims.length, 2000);
  assert.throws(() => parse(claims(2001, 1)), (e) => e.issues[0].path === "/claims" && e.issues[0].code === "too_long");
  assert.equal(parse(claims(1, 32)).claims[0].citations.length, 32);
  assert.throws(() => parse(claims(1, 33)), (e) => e.issues[0].path === "/claims/0/citations");
  // Quotes.
  const quoted = (n) => {
    const { report } = cited(text, "beta");
    const c = { ...report.claims[0].citations[0], quote: "q".repeat(n), end: n };
    return { ...report, claims: [{ ...report.claims[0], citations: [c] }] };
  };
  assert.equal(parse(quoted(20000)).claims[0].citations[0].quote.length, 20000);
  assert.throws(() => parse(quoted(20001)), (e) => e.issues[0].path === "/claims/0/citations/0/quote");
});

test("twelve long quotes: render refuses the artifact under reference, naming size, limit and flag; documents renders it", () => {
  const text = Array.from({ length: 12 }, (_, i) => `Paragraph ${i}: ${"word ".repeat(150).trim()}`).join("\n\n");
  const make = (policy) => {
    const store = new ec.EvidenceStore([spec("a")], { now: NOW, policy: { extends: policy, max_source_bytes: 100000 } });
    const ref = store.ingest(scope, "a", text);
    const claims = Array.from({ length: 12 }, (_, i) => ({ claim_id: `k${i}`, text: "claim", kind: "fact", citations: [store.quote(scope, ref, `Paragraph ${i}: ${"word ".repeat(150).trim()}`, `c${i}`)] }));
    return { store, report: { title: "T", claims } };
  };
  const ref = make("reference");
  assert.equal(ec.assess(scope, ref.report, ref.store).status, "needs_review");
  assert.throws(() => ec.render(scope, ref.report, ref.store, [], { now: NOW, lang: "en" }), (e) => {
    assert.equal(e.code, "artifact_too_large");
    assert.equal(e.detail.limit, 8000);
    assert.equal(e.detail.policy_field, "max_artifact_chars");
    assert.ok(e.detail.size > 8000 && e.message.includes(`${e.detail.size} code_points`) && e.message.includes("--policy documents"), e.message);
    return true;
  });
  const doc = make("documents");
  assert.equal(ec.render(scope, doc.report, doc.store, [], { now: NOW }).status, "needs_review");
});

test("split codes: each names its subject; compat reference keeps ref_unavailable", () => {
  const { store, citation, report } = cited("Plan A works offline.", "works offline");
  assert.throws(() => store.checkCitation({ tenant_id: "other", user_id: "u" }, citation), (e) => e.code === "source_not_ingested" && e.detail.source_id === "a");
  assert.throws(() => store.checkCitation(scope, { ...citation, ref: { ...citation.ref, source_id: "zz" } }), (e) => e.code === "source_not_in_scope");
  assert.throws(() => store.checkCitation(scope, { ...citation, ref: { ...citation.ref, digest: "0".repeat(64) } }), (e) => e.code === "digest_mismatch" && e.detail.cited_digest === "0".repeat(64) && e.detail.current_digest === citation.ref.digest);
  store.ingest(scope, "a", "Plan A works offline. Also online.");
  assert.throws(() => store.checkCitation(scope, citation), (e) => e.code === "revision_stale" && e.detail.cited_revision === 1 && e.detail.current_revision === 2);
  const a = ec.assess(scope, report, store, [], { lang: "en" });
  assert.deepEqual(
    { code: a.issues[0].code, cited: a.issues[0].cited_revision, current: a.issues[0].current_revision, message: a.issues[0].message },
    { code: "revision_stale", cited: 1, current: 2, message: "The cited revision is not the source's current revision. (source a; cited revision 1, current revision 2)" },
  );
  store.remove(scope, "a");
  assert.throws(() => store.checkCitation(scope, citation), (e) => e.code === "source_removed");
  const reference = new ec.EvidenceStore([spec("a")], { now: NOW, compat: "reference" });
  reference.ingest(scope, "a", "Plan A works offline. Also online.");
  assert.throws(() => reference.checkCitation(scope, citation), (e) => e.code === "ref_unavailable" && e.message === "来源不存在、已撤销、越权或版本失效。");
  assert.deepEqual(Object.keys(ec.assess(scope, report, reference).issues[0]).sort(), ["citation_id", "claim_id", "code", "hint", "message"]);
});

test("citation_id_conflict names the id and both passages", () => {
  const { report } = cited("Plan A works offline.", "works offline");
  const c = report.claims[0].citations[0];
  const conflicting = { ...report, claims: [report.claims[0], { claim_id: "k2", text: "t", kind: "fact", citations: [{ ...c, start: 0, end: 4, quote: "Plan" }] }] };
  assert.throws(() => ec.parseReport(conflicting, { lang: "en" }), (e) => {
    assert.equal(e.issues[0].path, "/claims/1/citations/0");
    assert.match(e.issues[0].message, /'c1' names two passages: a r1 \[7, 20\) at \/claims\/0\/citations\/0 and a r1 \[0, 4\) at \/claims\/1\/citations\/0/);
    return true;
  });
  assert.throws(() => ec.parseReport(conflicting, { compat: "reference" }), (e) => e.issues[0].path === "" && e.issues[0].message === "同一引用标识对应不同片段。");
});

test("ambiguous quotes are reported with their count", () => {
  const { store, ref } = cited("one two one two one three", "three");
  assert.throws(() => store.quote(scope, ref, "one", "c2"), (e) => e.code === "quote_ambiguous" && e.count === 3);
  assert.equal(store.quote(scope, ref, "one", "c2", { occurrence: 2 }).start, 8);
});

/** The demo bundle with its reviews changed by `edit`. */
function reviewed(edit) {
  const b = structuredClone(demo);
  b.reviews = edit(b.reviews, b);
  return b;
}

test("checkBundle: stale, other-scope and duplicate reviews are issues, not throws; the claim stays pending", () => {
  const base = ec.checkBundle(demo, { now: NOW });
  const stale = reviewed((rs) => rs.map((r, i) => (i === 0 ? { ...r, report_digest: "0".repeat(64) } : r)));
  const r = ec.checkBundle(stale, { now: NOW, lang: "zh" });
  const claim = stale.reviews[0].claim_id;
  assert.equal(r.assessment.claims[claim], "pending_review");
  const issue = r.assessment.issues.find((i) => i.code === "review_stale_digest");
  assert.deepEqual(issue, {
    claim_id: claim,
    citation_id: null,
    code: "review_stale_digest",
    message: `审阅绑定的是另一份报告摘要,未计入。 (第 0 条审阅(从 0 计); 引用摘要 ${"0".repeat(64)},当前摘要 ${base.assessment.report_digest})`,
    review_index: 0,
    cited_digest: "0".repeat(64),
    current_digest: base.assessment.report_digest,
  });
  assert.notEqual(r.assessment.status, "invalid", "a review issue does not make the report invalid");
  const other = reviewed((rs) => rs.map((r, i) => (i === 0 ? { ...r, scope: { tenant_id: "x", user_id: "y" } } : r)));
  assert.equal(ec.checkBundle(other, { now: NOW }).assessment.issues[0].code, "review_other_scope");
  const dup = reviewed((rs) => [...rs, rs[0]]);
  const d = ec.checkBundle(dup, { now: NOW }).assessment;
  assert.deepEqual(d.issues.map((i) => [i.code, i.review_index]), [["review_duplicate", dup.reviews.length - 1]]);
  assert.equal(d.status, base.assessment.status);
});

test("a stale review of an otherwise clean report: needs_review, not invalid", () => {
  const { report, store } = cited("Plan A works offline.", "works offline");
  const review = ec.recordReview(scope, report, "k1", "supported", "checked", { now: NOW });
  const edited = { ...report, title: "Edited" };
  const bundle = { scope, sources: [{ spec: spec("a"), content: "Plan A works offline." }], report: edited, reviews: [review] };
  const r = ec.checkBundle(bundle, { now: NOW });
  assert.equal(r.assessment.status, "needs_review");
  assert.equal(r.assessment.claims.k1, "pending_review");
  assert.equal(r.assessment.issues[0].code, "review_stale_digest");
  // assess and render keep the reference's throw, and report when asked.
  assert.throws(() => ec.assess(scope, edited, store, [review]), (e) => e.code === "review_mismatch");
  assert.throws(() => ec.render(scope, edited, store, [review], { now: NOW }), (e) => e.code === "review_mismatch");
  assert.equal(ec.assess(scope, edited, store, [review], { reviews: "report" }).issues[0].code, "review_stale_digest");
  assert.equal(ec.render(scope, edited, store, [review], { now: NOW, reviews: "report" }).status, "needs_review");
  assert.throws(() => ec.assess(scope, edited, store, [review], { reviews: "ignore" }), (e) => e.code === "invalid_argument");
});

test("reportJsonSchema states the policy, blank text and the inference rule", () => {
  const s = ex.reportJsonSchema({ policy: "documents" });
  assert.equal(s.properties.claims.maxItems, 2000);
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(ex.reportJsonSchema());
  const { report } = cited("Plan A works offline.", "works offline");
  assert.equal(validate(report), true, JSON.stringify(validate.errors));
  assert.equal(validate({ ...report, claims: [{ ...report.claims[0], text: "   " }] }), false, "whitespace-only text");
  assert.equal(validate({ ...report, claims: [{ ...report.claims[0], kind: "inference" }] }), false, "an inference without a rationale");
  assert.equal(validate({ ...report, claims: [{ ...report.claims[0], kind: "inference", rationale: " \n" }] }), false, "a blank rationale");
  assert.equal(validate({ ...report, claims: [{ ...report.claims[0], kind: "inference", rationale: "because" }] }), true);
  const strict = ex.reportJsonSchema({ dialect: "openai-strict" });
  assert.match(strict.$defs.Claim.properties.rationale.description, /when kind is inference/);
  assert.match(strict.$defs.Claim.properties.text.description, /not whitespace/);
});

const LICENCES = ["GPL-3", "Apache-2.0", "MPL-2.0"].map((f) => join("/usr/share/common-licenses", f));

test("a bundle of real documents checks under the default policy (documents); the reference's refuses it naming source, size, limit and flag", () => {
  // Debian's base-files ships these licence texts; a machine without them fails here, never skips.
  assert.deepEqual(LICENCES.filter((f) => !existsSync(f)), [], "the system's licence texts (base-files)");
  const docs = [
    ["gpl-3", readFileSync(LICENCES[0], "utf8"), ["The GNU General Public License is a free, copyleft license for\nsoftware and other kinds of works.", "THERE IS NO WARRANTY FOR THE PROGRAM"]],
    ["apache-2", readFileSync(LICENCES[1], "utf8"), ["Grant of Copyright License."]],
    ["mpl-2", readFileSync(LICENCES[2], "utf8"), ["Distribution of Executable Form"]],
    ["release-notes", readFileSync(join(ROOT, "tests/data/documents/release-notes-crlf.txt"), "utf8"), ["The sync daemon now retries three times\r\nbefore it reports a failure."]],
    ["unicode-notes", readFileSync(join(ROOT, "tests/data/documents/unicode-notes.md"), "utf8"), ["👩🏽‍💻 writes code", "証拠は引用と一致しなければならない"]],
  ];
  const specs = docs.map(([id]) => ({ ...spec(id), filename: id === "release-notes" ? "notes/release-notes.txt" : `${id}.md` }));
  const store = new ec.EvidenceStore(specs, { now: NOW, policy: "documents" });
  const claims = docs.map(([id, text, quotes]) => {
    const ref = store.ingest(scope, id, text);
    return { claim_id: `claim-${id}`, text: `What ${id} says.`, kind: "fact", citations: quotes.map((q, i) => store.quote(scope, ref, q, `${id}-${i}`)) };
  });
  const bundle = { scope, sources: docs.map(([id, text], i) => ({ spec: specs[i], content: text })), report: { title: "What the licences say", claims } };
  const r = ec.checkBundle(bundle, { now: NOW });
  assert.deepEqual(r, ec.checkBundle(bundle, { now: NOW, policy: "documents" }));
  assert.deepEqual(r.assessment.issues, []);
  assert.equal(r.assessment.status, "needs_review");
  assert.deepEqual(Object.values(r.assessment.claims), Array(5).fill("pending_review"));
  assert.ok(r.artifact.content.includes("証拠は引用と一致しなければならない"));
  assert.equal(claims[3].citations[0].quote, "The sync daemon now retries three times\nbefore it reports a failure.");
  // The reference policy: the .txt filename is refused by its *.md rule, so give it one; then GPL-3's size.
  const md = { ...bundle, sources: bundle.sources.map((s) => ({ ...s, spec: { ...s.spec, filename: `${s.spec.source_id}.md` } })) };
  const size = Buffer.byteLength(docs[0][1]);
  assert.throws(() => ec.checkBundle(md, { now: NOW, lang: "en", policy: "reference" }), (e) => {
    assert.equal(e.code, "source_too_large");
    for (const part of ["source gpl-3", `${size} bytes`, "limit of 24000 bytes", "max_source_bytes", "--policy documents"]) assert.ok(e.message.includes(part), `${part} missing from ${e.message}`);
    return true;
  });
});

test("assess: review_target_missing names the review index and the claim, as checkBundle does", () => {
  const { store, report } = cited("Plan A works offline.", "Plan A", { lang: "en" });
  const review = ec.recordReview(scope, report, "k1", "supported", "checked", { now: NOW });
  const missing = { ...review, claim_id: "k9" };
  const expected = "The reviewed claim is not in the report. (claim k9; review 1 (0-based)) (/reviews/1)";
  assert.throws(() => ec.assess(scope, report, store, [review, missing]), (e) =>
    e.code === "review_target_missing" && e.message === expected && e.detail.review_index === 1 && e.detail.claim_id === "k9");
  assert.throws(() => ec.render(scope, report, store, [review, missing], { now: NOW }), (e) => e.code === "review_target_missing" && e.detail.review_index === 1);
  const bundle = { scope, sources: [{ spec: spec("a"), content: "Plan A works offline.", fetched_at: NOW }], report, reviews: [review, missing] };
  assert.throws(() => ec.checkBundle(bundle, { lang: "en" }), (e) => e.code === "review_target_missing" && e.message === expected);
  store.free();
});

test("a store under the extended identifier rule takes ids of up to 128 units in every call, and refuses longer ones", () => {
  const long = (c, n) => c + "x".repeat(n - 1);
  const id = long("s", 128);
  const store = new ec.EvidenceStore([spec(id, { title: "long", filename: "long.md" })], { now: NOW, policy: { extends: "documents", identifier: "extended" } });
  const ref = store.ingest(scope, id, "hello world");
  assert.equal(ref.source_id, id);
  const cid = long("c", 128);
  assert.equal(store.quote(scope, ref, "hello", cid).citation_id, cid);
  assert.equal(store.quoteRange(scope, ref, 0, 5, cid).citation_id, cid);
  store.remove(scope, id);
  // One unit more: not copied, and refused as the stand-in no catalogue entry has.
  assert.throws(() => store.ingest(scope, long("s", 129), "x"), (e) => e.code === "unknown_source");
  // The reference rule's store keeps its 64.
  const ref64 = new ec.EvidenceStore([spec(long("s", 64), { title: "long", filename: "long.md" })], { now: NOW });
  assert.equal(ref64.ingest(scope, long("s", 64), "x").source_id.length, 64);
  assert.throws(() => ref64.ingest(scope, long("s", 65), "x"), (e) => e.code === "unknown_source");
});
