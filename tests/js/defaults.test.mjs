// The defaults (issue 30): the documents policy and the host's language unless a call
// says otherwise; `compat: "reference"` for the reference's behaviour; the policy and
// language of a store, a handle or a catalogue in every call given it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, PKG, NOW, localeEnv, readJson, userProject, userRequire } from "./helpers.mjs";

const project = userProject();
const ec = userRequire(project)("evidence-check");
const ex = userRequire(project)("evidence-check/extras");
const CLI = join(PKG, "bin", "cli.mjs");
const CJK = /[\u3400-\u4dbf\u4e00-\u9fff]/;
/** Whether a message is in `lang`: Chinese has Chinese text, English none. */
const inLang = (message, lang) => (lang === "zh" ? CJK.test(message) : !CJK.test(message));

function tmp(name, content) {
  const path = join(mkdtempSync(join(tmpdir(), "evidence-check-defaults-")), name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

function cli(args, locale = "en_US.UTF-8") {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: localeEnv(locale) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// ---- three licence texts, as a user has them ---------------------------------------------

const LICENCES = ["GPL-3", "LGPL-2.1", "GFDL-1.3"].map((name) => [name, readFileSync(join(ROOT, "tests", "data", "licences", `${name}.txt`), "utf8")]);

/** Lines of `text` that occur once in it, long enough to be a quote. */
const uniqueLines = (text) => text.split("\n").map((l) => l.trim()).filter((l, _, all) => l.length > 40 && all.filter((m) => m === l).length === 1 && text.split(l).length === 2);

/**
 * A draft bundle of the three licences: `.txt` file names, a kind of its own, an e-mail
 * user id, and `claims` claims written the way models write them (quote-only citations,
 * some with two).
 */
function licenceDraft(claims = 15) {
  const quotes = LICENCES.flatMap(([name, text]) => uniqueLines(text).slice(0, 5).map((q) => [name, q]));
  return {
    scope: { tenant_id: "acme", user_id: "ana@acme.com" },
    sources: LICENCES.map(([name, text]) => ({
      spec: { source_id: name.toLowerCase().replace(".", "-"), title: name, locator: `file:licences/${name}.txt`, filename: `licences/${name}.txt`, kind: "licence_text" },
      content: text,
    })),
    report: {
      title: "What the licences say",
      claims: Array.from({ length: claims }, (_, i) => {
        const [name, quote] = quotes[i % quotes.length];
        const cite = (q) => ({ source_id: name.toLowerCase().replace(".", "-"), quote: q });
        const citations = i % 4 === 0 && quotes[i + 1]?.[0] === name ? [cite(quote), cite(quotes[i + 1][1])] : [cite(quote)];
        return { claim_id: `c${i + 1}`, text: `What ${name} says, point ${i + 1}.`, kind: "fact", citations };
      }),
    },
  };
}

test("the licence fixture is what the issue describes: three texts over 24 KB, .txt names, a custom kind, an e-mail user id", () => {
  const draft = licenceDraft();
  const bytes = LICENCES.map(([, text]) => Buffer.byteLength(text));
  assert.ok(bytes.reduce((a, b) => a + b) > 24_000 && bytes.filter((b) => b > 24_000).length >= 2, String(bytes));
  assert.ok(draft.sources.every((s) => s.spec.filename.endsWith(".txt") && s.spec.kind === "licence_text"));
  assert.equal(draft.report.claims.length, 15);
  assert.ok(draft.report.claims.some((c) => c.citations.length === 2));
});

test("locate and check succeed on the licence draft with no flags; with --compat reference they refuse it, saying the default allows it", () => {
  const draft = tmp("draft.json", licenceDraft());
  const out = join(mkdtempSync(join(tmpdir(), "evidence-check-defaults-")), "bundle.json");
  const located = cli(["locate", draft, "--out", out]);
  assert.equal(located.code, 0, located.stderr);
  const quotes = licenceDraft().report.claims.reduce((n, c) => n + c.citations.length, 0);
  assert.equal(located.stderr, `located ${quotes} quotes\n`);
  const checked = cli(["check", out, "--json", "--now", NOW]);
  assert.equal(checked.code, 1, checked.stderr);
  const result = JSON.parse(checked.stdout);
  assert.equal(result.assessment.status, "needs_review");
  assert.deepEqual(result.assessment.issues, []);
  assert.equal(Object.keys(result.assessment.claims).length, 15);
  assert.ok(result.artifact.content.includes("## Claims"), "English labels under an English locale");

  // The reference's behaviour: the same calls refuse, in Chinese, and say how to get past it.
  for (const [args, file] of [[["locate", draft], "draft"], [["check", out], "bundle"]]) {
    const r = cli([...args, "--compat", "reference"]);
    assert.equal(r.code, 3, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /^evidence-check: contract: /);
    for (const path of ["/sources/0/spec/filename", "/sources/0/spec/kind", "/scope/user_id"]) {
      assert.match(r.stderr, new RegExp(`\\n  ${path}: .*默认的 documents 策略允许此值:去掉 compat "reference"`), `${args[0]} ${path} (${file}): ${r.stderr}`);
    }
    const en = cli([...args, "--compat", "reference", "--lang", "en"]);
    assert.match(en.stderr, /\/sources\/0\/spec\/kind: Input should be 'fixture' or 'public'; allowed under the documents policy, the default: drop compat "reference"/);
    const reference = cli([...args, "--policy", "reference"]);
    assert.equal(reference.code, 3);
    assert.match(reference.stderr, /\/scope\/user_id: String should match pattern .*; allowed under the documents policy \(policy: "documents"; CLI: --policy documents\)/);
  }
  // With names the reference allows, its size limit: source_too_large, the reference's bare text.
  const md = licenceDraft();
  md.scope.user_id = "ana";
  for (const s of md.sources) Object.assign(s.spec, { filename: `${s.spec.source_id}.md`, kind: "public" });
  const size = cli(["locate", tmp("md.json", md), "--compat", "reference"]);
  assert.equal(size.code, 3);
  assert.match(size.stderr, /^evidence-check: source_too_large: /);
});

// ---- the brief's frictions, each through the API --------------------------------------------

test("locateBundle takes the policy: the licence draft is located by default and refused under reference", () => {
  const draft = licenceDraft();
  const { bundle, located, issues } = ex.locateBundle(draft);
  assert.deepEqual(issues, []);
  assert.equal(located.length, draft.report.claims.reduce((n, c) => n + c.citations.length, 0));
  assert.deepEqual(ex.locateBundle(draft, { policy: "documents" }).bundle, bundle);
  assert.throws(() => ex.locateBundle(draft, { policy: "reference" }), (e) => e.code === "contract" && e.issues.some((i) => i.path === "/sources/0/spec/filename"));
  assert.throws(() => ex.locateBundle(draft, { compat: "reference" }), (e) => e.code === "contract" && CJK.test(e.message));
  assert.equal(ec.checkBundle(bundle, { now: NOW }).assessment.status, "needs_review");
});

test("reportDigest of 15 claims: by default, and from a handle read under documents; the reference refuses it", () => {
  const { bundle } = ex.locateBundle(licenceDraft());
  const report = bundle.report;
  assert.equal(report.claims.length, 15);
  const digest = ec.reportDigest(report);
  assert.match(digest, /^[0-9a-f]{64}$/);
  const handle = ec.parseReport(report, { policy: "documents" });
  assert.equal(ec.reportDigest(handle), digest);
  assert.equal(handle.digest, digest);
  assert.throws(() => ec.reportDigest(report, { policy: "reference" }), (e) => e.code === "contract" && e.issues[0].path === "/claims");
  assert.throws(() => ec.reportDigest(handle, { policy: "reference" }), (e) => e.code === "contract");
  const reference = ec.parseReport({ ...report, claims: report.claims.slice(0, 12) }, { policy: "reference" });
  assert.equal(ec.reportDigest(reference), ec.reportDigest({ ...report, claims: report.claims.slice(0, 12) }));
});

test("locateCitations follows the store's policy (15 claims), unless the call gives one", () => {
  const draft = licenceDraft();
  const specs = draft.sources.map((s) => s.spec);
  const store = (options) => {
    const s = new ec.EvidenceStore(specs, { now: NOW, ...options });
    for (const src of draft.sources) s.ingest(draft.scope, src.spec.source_id, src.content);
    return s;
  };
  const documents = store({ policy: "documents" });
  const located = ec.locateCitations(draft.scope, draft.report, documents);
  assert.deepEqual(located.issues, []);
  assert.equal(located.report.claims.length, 15);
  // The store's reference limits (relaxed for the texts' size and names) apply to the report: 12 claims.
  const tight = store({ policy: { extends: "documents", max_claims: 12 } });
  assert.throws(() => ec.locateCitations(draft.scope, draft.report, tight), (e) => e.code === "contract" && e.issues[0].path === "/claims" && e.issues[0].code === "too_long");
  assert.equal(ec.locateCitations(draft.scope, draft.report, tight, { policy: "documents" }).report.claims.length, 15);
  for (const s of [documents, tight]) s.free();
});

// ---- one policy and one language reach every call given a store, a handle or a catalogue ------

/** The host's language in this process (what a call without `lang` gives), and the other one. */
const HOST = (() => {
  try {
    ex.convertOffset("a", 9, "utf16", "code_point");
  } catch (e) {
    return CJK.test(e.message) ? "zh" : "en";
  }
  return assert.fail("convertOffset did not throw");
})();
const LANG = HOST === "zh" ? "en" : "zh";

const SCOPE = { tenant_id: "t", user_id: "u" };
const SPECS = [{ source_id: "a", title: "A", locator: "fixture:a", filename: "a.md", kind: "public" }];
const TEXT = "Alpha beta gamma.\n".repeat(4);
const claim = (i, citations = []) => ({ claim_id: `k${i}`, text: "x", kind: "fact", citations });
/** A report of `n` claims: over the reference's 12 when `n` is 13 or more. */
const reportOf = (n) => ({ title: "T", claims: Array.from({ length: n }, (_, i) => claim(i)) });

/** A store made with the reference policy (not the default) and LANG (not the host's). */
function carryingStore() {
  const store = new ec.EvidenceStore(SPECS, { now: NOW, policy: "reference", lang: LANG });
  const ref = store.ingest(SCOPE, "a", TEXT);
  return { store, ref };
}

/** `call` throws, with `code`, in LANG. */
function throwsIn(call, code, what) {
  assert.throws(call, (e) => {
    assert.equal(e.code, code, `${what}: ${e.message}`);
    assert.ok(inLang(e.message, LANG), `${what}: not in ${LANG}: ${e.message}`);
    for (const i of e.issues ?? []) assert.ok(inLang(i.message, LANG), `${what}: issue not in ${LANG}: ${i.message}`);
    return true;
  }, what);
}

/** A catalogue made in LANG. */
const catalogue = () => new ex.DocumentCatalog({ lang: LANG, documents: [{ id: "d1", title: "t", body: "- a\n" }] });

/** Every function and method that takes a store or a handle, and how it shows that it got the object's policy and language. */
const CARRIES = {
  // functions given a store: its policy (12 claims) and its language
  assess: () => throwsIn(() => ec.assess(SCOPE, reportOf(13), carryingStore().store), "contract", "assess"),
  render: () => throwsIn(() => ec.render(SCOPE, reportOf(13), carryingStore().store, [], { now: NOW }), "contract", "render"),
  toWebAnnotations: () => throwsIn(() => ec.toWebAnnotations(SCOPE, reportOf(13), carryingStore().store), "contract", "toWebAnnotations"),
  locateCitations: () => throwsIn(() => ec.locateCitations(SCOPE, reportOf(13), carryingStore().store), "contract", "locateCitations"),
  // functions given a report handle: its policy (documents: 15 claims) and its language
  reportDigest: () => {
    const handle = ec.parseReport(reportOf(15), { policy: "documents", lang: LANG });
    assert.match(ec.reportDigest(handle), /^[0-9a-f]{64}$/);
    throwsIn(() => ec.reportDigest(handle, { policy: "reference" }), "contract", "reportDigest");
    handle.free();
    throwsIn(() => ec.reportDigest(handle), "handle_freed", "reportDigest of a freed handle");
  },
  recordReview: () => {
    const handle = ec.parseReport(reportOf(15), { policy: "documents", lang: LANG });
    assert.equal(ec.recordReview(SCOPE, handle, "k14", "supported", "n", { now: NOW }).claim_id, "k14");
    throwsIn(() => ec.recordReview(SCOPE, handle, "k99", "supported", "n", { now: NOW }), "unknown_claim", "recordReview");
  },
  // functions given a catalogue: its language
  extractExcerpts: () => throwsIn(() => ex.extractExcerpts(catalogue(), "nope"), "unknown_document", "extractExcerpts"),
  checkExcerpt: () => throwsIn(() => ex.checkExcerpt(catalogue(), {}), "contract", "checkExcerpt"),
  evaluateClaims: () => throwsIn(() => ex.evaluateClaims(catalogue(), "d1", [{}], "info"), "contract", "evaluateClaims"),
  finalize: () => throwsIn(() => ex.finalize({}, [], { status: "info" }, { catalog: catalogue() }), "contract", "finalize"),
  gradeTask: () => throwsIn(() => ex.gradeTask({}, {}, {}, { catalog: catalogue() }), "contract", "gradeTask"),
  // the store's own methods
  "EvidenceStore.constructor": () => throwsIn(() => new ec.EvidenceStore(SPECS, { policy: "reference", lang: LANG }).ingest(SCOPE, "a", "x".repeat(24_001)), "source_too_large", "ingest"),
  "EvidenceStore.ingest": () => throwsIn(() => carryingStore().store.ingest(SCOPE, "nope", "x"), "unknown_source", "ingest"),
  "EvidenceStore.ingestReadResult": () => {
    const { store } = carryingStore();
    throwsIn(() => store.ingestReadResult(SCOPE, "nope", { status: "ok", data: { filename: "a.md", content: "x" } }), "read_mismatch", "ingestReadResult");
    // The reference's 24,000 code points of content are the store's.
    throwsIn(() => store.ingestReadResult(SCOPE, "a", { status: "ok", data: { filename: "a.md", content: "x".repeat(24_001) } }), "contract", "ingestReadResult of 24,001 code points");
  },
  "EvidenceStore.get": () => throwsIn(() => carryingStore().store.get(SCOPE, { source_id: "a", revision: 7, digest: "0".repeat(64) }), "revision_stale", "get"),
  "EvidenceStore.checkCitation": () => {
    const { store, ref } = carryingStore();
    throwsIn(() => store.checkCitation(SCOPE, { citation_id: "c", ref, start: 0, end: 5, quote: "Gamma" }), "quote_mismatch", "checkCitation");
  },
  "EvidenceStore.quote": () => {
    const { store, ref } = carryingStore();
    throwsIn(() => store.quote(SCOPE, ref, "no such words", "c"), "quote_not_found", "quote");
  },
  "EvidenceStore.quoteRange": () => {
    const { store, ref } = carryingStore();
    throwsIn(() => store.quoteRange(SCOPE, ref, 0, 9999, "c"), "offset_out_of_range", "quoteRange");
  },
  // The reference's scope ids (no "@") are the store's.
  "EvidenceStore.remove": () => throwsIn(() => carryingStore().store.remove({ tenant_id: "t", user_id: "ana@acme.com" }, "a"), "contract", "remove"),
  "EvidenceStore.close": () => {
    const { store } = carryingStore();
    store.close();
    throwsIn(() => store.ingest(SCOPE, "a", "x"), "store_closed", "after close");
  },
  "EvidenceStore.free": () => {
    const { store, ref } = carryingStore();
    store.free();
    throwsIn(() => store.get(SCOPE, ref), "store_freed", "after free");
  },
  "EvidenceStore.[Symbol.dispose]": () => {
    const { store, ref } = carryingStore();
    store[Symbol.dispose]();
    throwsIn(() => store.get(SCOPE, ref), "store_freed", "after dispose");
  },
  "EvidenceStore.fromWebAnnotation": () => {
    const quoteOnly = { target: { source: "fixture:a", selector: { type: "TextQuoteSelector", exact: "no such words" } } };
    throwsIn(() => carryingStore().store.fromWebAnnotation(SCOPE, quoteOnly), "quote_not_found", "fromWebAnnotation");
  },
  // the handles' own methods
  "ReportHandle.toJSON": () => freedReport((h) => h.toJSON()),
  "ReportHandle.claimIds": () => freedReport((h) => h.claimIds),
  "ReportHandle.digest": () => freedReport((h) => h.digest),
  "ReportHandle.free": () => freedReport((h) => h.digest),
  "ReportHandle.[Symbol.dispose]": () => freedReport((h) => h.digest, (h) => h[Symbol.dispose]()),
  "Reviews.constructor": () => throwsIn(() => new ec.Reviews([{}], { lang: LANG }), "contract", "new Reviews"),
  "Reviews.add": () => throwsIn(() => new ec.Reviews([], { lang: LANG }).add({}), "contract", "Reviews.add"),
  "Reviews.length": () => freedReviews((r) => r.length),
  "Reviews.toJSON": () => freedReviews((r) => r.toJSON()),
  "Reviews.free": () => freedReviews((r) => r.length),
  "Reviews.[Symbol.dispose]": () => freedReviews((r) => r.length, (r) => r[Symbol.dispose]()),
  "DocumentCatalog.constructor": () => throwsIn(() => catalogue().import({ id: "d1", title: "t", body: "- b\n" }), "document_changed", "DocumentCatalog.import"),
  "DocumentCatalog.fromJSON": () => {
    const saved = catalogue().toJSON();
    throwsIn(() => ex.DocumentCatalog.fromJSON(saved, { lang: LANG }).import({ id: "d1", title: "t", body: "- b\n" }), "document_changed", "fromJSON");
  },
  "DocumentCatalog.import": () => throwsIn(() => catalogue().import({ id: "d1", title: "t", body: "- b\n" }), "document_changed", "import"),
  "DocumentCatalog.get": () => freedCatalogue((c) => c.get("d1")),
  "DocumentCatalog.ids": () => freedCatalogue((c) => c.ids()),
  "DocumentCatalog.toJSON": () => freedCatalogue((c) => c.toJSON()),
  "DocumentCatalog.free": () => freedCatalogue((c) => c.ids()),
  "DocumentCatalog.[Symbol.dispose]": () => freedCatalogue((c) => c.ids(), (c) => c[Symbol.dispose]()),
};

function freedReport(use, free = (h) => h.free()) {
  const handle = ec.parseReport(reportOf(1), { lang: LANG });
  free(handle);
  throwsIn(() => use(handle), "handle_freed", "a freed ReportHandle");
}
function freedReviews(use, free = (r) => r.free()) {
  const reviews = new ec.Reviews([], { lang: LANG });
  free(reviews);
  throwsIn(() => use(reviews), "handle_freed", "freed Reviews");
}
function freedCatalogue(use, free = (c) => c.free()) {
  const c = catalogue();
  free(c);
  throwsIn(() => use(c), "handle_freed", "a freed DocumentCatalog");
}

/** Every export of the .d.ts that takes a store, a handle or a catalogue, and every method of those classes. */
function carrierExports() {
  const dts = readFileSync(join(PKG, "node", "evidence_check.d.ts"), "utf8");
  const CARRIER = /\b(EvidenceStore|ReportArg|ReviewsArg|ReportHandle|Reviews|DocumentCatalog|DocumentSource|FinalizeOptions|GradeOptions)\b/;
  const names = new Set();
  for (const [, name, params] of dts.matchAll(/^\s*export function (\w+)\(([^)]*)\)/gm)) if (CARRIER.test(params)) names.add(name);
  for (const [, cls, body] of dts.matchAll(/export class (EvidenceStore|ReportHandle|Reviews|DocumentCatalog) \{([\s\S]*?)\n\s*\}/g)) {
    const members = body.replace(/\/\*\*[\s\S]*?\*\//g, "").split("\n").map((l) => l.trim()).filter(Boolean);
    for (const m of members) {
      const name = /^(?:static |readonly |private )*(\[Symbol\.dispose\]|[\w]+)/.exec(m)?.[1];
      if (name && !(name === "constructor" && m.startsWith("private"))) names.add(`${cls}.${name}`);
    }
  }
  return [...names].sort();
}

test("the policy and language of a store, a handle or a catalogue reach every function and method given it", () => {
  const exported = carrierExports();
  assert.ok(exported.length >= 40, `only ${exported.length}: ${exported}`);
  const missing = exported.filter((name) => !(name in CARRIES));
  assert.deepEqual(missing, [], "exports that take a store, handle or catalogue without a case here");
  for (const name of exported) CARRIES[name]();
  // And the reverse: the options win over the object's.
  const { store } = carryingStore();
  assert.ok(inLang(ec.assess(SCOPE, { title: "T", claims: [claim(0, [{ citation_id: "c", ref: { source_id: "a", revision: 9, digest: "0".repeat(64) }, start: 0, end: 1, quote: "A" }])] }, store, [], { lang: HOST }).issues[0].message, HOST));
});

// ---- the host's language: LANG, LC_MESSAGES, LC_ALL ---------------------------------------

/** A child process in a locale: a Node program run in the user's project, printing JSON. */
function inLocale(locale, program, extra = {}) {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", program], { cwd: project, encoding: "utf8", env: localeEnv(locale, extra) });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** Every label and message a user meets without naming a language: a bundle's issues and artifact, and errors of every kind. */
const EVERYTHING = `
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/index.js");
const ec = require("evidence-check");
const ex = require("evidence-check/extras");
const bundle = ${JSON.stringify(readJson("examples", "demo.bundle.json"))};
const out = { messages: [], artifact: "" };
const caught = (f) => { try { f(); out.messages.push("no error"); } catch (e) { out.messages.push(e.message, ...(e.issues ?? []).map((i) => i.message)); } };
// English content, so that only the library's words can be Chinese.
const text = "Plan A works offline.\\nPlan B needs a network.\\n";
const spec = { ...bundle.sources[0].spec, source_id: "a", title: "Plan A" };
const store = new ec.EvidenceStore([spec], { now: "${NOW}" });
const ref = store.ingest(bundle.scope, "a", text);
const c = store.quote(bundle.scope, ref, "works offline", "c1");
const report = { title: "R", claims: [{ claim_id: "k1", text: "x", kind: "fact", citations: [c] }, { claim_id: "k2", text: "y", kind: "fact", citations: [{ ...c, citation_id: "c2", ref: { ...c.ref, revision: 5 } }] }, { claim_id: "k3", text: "z", kind: "fact", citations: [{ ...c, citation_id: "c3", quote: "works online" }] }], gaps: ["g"] };
const review = ec.recordReview(bundle.scope, report, "k1", "supported", "n", { now: "${NOW}" });
const checked = ec.checkBundle({ scope: bundle.scope, sources: [{ spec, content: text }], report, reviews: [review, review] }, { now: "${NOW}" });
out.messages.push(...checked.assessment.issues.map((i) => i.message), checked.render_error?.message ?? "");
const clean = ec.checkBundle({ scope: bundle.scope, sources: [{ spec, content: text }], report: { ...report, claims: report.claims.slice(0, 1) }, reviews: [review] }, { now: "${NOW}" });
out.artifact = clean.artifact.content;
caught(() => store.ingest(bundle.scope, "nope", "x"));
caught(() => store.quote(bundle.scope, ref, "absent words", "q"));
caught(() => ec.parseReport({ ...report, claims: [report.claims[0], report.claims[0]] }));
caught(() => ec.parseReport({ title: "", claims: "no" }));
caught(() => ec.checkBundle({ ...bundle, report: { ...bundle.report, claims: [{ ...bundle.report.claims[0], kind: "opinion" }] } }, { policy: "reference" }));
caught(() => ex.convertOffset("a", 9, "utf16", "code_point"));
caught(() => new ex.DocumentCatalog().import({ id: "d", title: "t" }));
caught(() => ec.parsePolicy({ nope: 1 }));
caught(() => ex.locateBundle({ scope: bundle.scope, sources: [{ spec, content: "x".repeat(30000) }], report: { title: "t", claims: [] } }, { policy: "reference" }));
process.stdout.write(JSON.stringify(out));
`;

test("in Node, the language follows LC_ALL, LC_MESSAGES or LANG: every label and message English under en_US, Chinese under zh_CN", () => {
  const en = inLocale("en_US.UTF-8", EVERYTHING);
  const zh = inLocale("zh_CN.UTF-8", EVERYTHING);
  assert.equal(en.messages.length, zh.messages.length);
  assert.ok(en.messages.length >= 14, en.messages.join("\n"));
  for (const m of en.messages) assert.ok(!CJK.test(m), `English locale, Chinese text: ${m}`);
  for (const m of zh.messages.filter((m) => m !== "")) assert.ok(CJK.test(m), `Chinese locale, no Chinese text: ${m}`);
  assert.ok(!CJK.test(en.artifact), en.artifact);
  assert.match(en.artifact, /\n## Claims\n/);
  assert.match(zh.artifact, /\n## 逐项论断\n/);
  // The first set of LC_ALL, LC_MESSAGES and LANG decides; an empty one is skipped; anything not zh* is English.
  const first = (locale, extra) => inLocale(locale, EVERYTHING, extra).artifact.includes("## 逐项论断") ? "zh" : "en";
  assert.equal(first("en_US.UTF-8", { LC_ALL: "zh_TW.UTF-8" }), "zh");
  assert.equal(first("zh_CN.UTF-8", { LC_MESSAGES: "C" }), "en");
  assert.equal(first("zh_CN.UTF-8", { LC_ALL: "" }), "zh");
  assert.equal(first("C.UTF-8"), "en");
  assert.equal(first("zh"), "zh");
  // compat "reference" gives Chinese whatever the locale, and an explicit lang wins over both.
  const compat = inLocale("en_US.UTF-8", `${EVERYTHING.split("process.stdout.write")[0]}
const r = ec.checkBundle(bundle, { now: "${NOW}", compat: "reference" });
const l = ec.checkBundle(bundle, { now: "${NOW}", compat: "reference", lang: "en" });
process.stdout.write(JSON.stringify({ compat: r.artifact.content, lang: l.artifact.content }));`);
  assert.equal(compat.compat, readFileSync(join(ROOT, "examples", "demo.artifact.md"), "utf8"));
  assert.match(compat.lang, /\n## Claims\n/);
});

test("the CLI follows the locale too, and --lang and --compat reference override it", () => {
  const bundle = tmp("b.json", readJson("examples", "demo.bundle.json"));
  const json = (locale, ...flags) => JSON.parse(cli(["check", bundle, "--json", "--now", NOW, ...flags], locale).stdout);
  assert.match(json("en_US.UTF-8").artifact.content, /\n## Claims\n/);
  assert.match(json("zh_CN.UTF-8").artifact.content, /\n## 逐项论断\n/);
  assert.match(json("zh_CN.UTF-8", "--lang", "en").artifact.content, /\n## Claims\n/);
  assert.equal(json("en_US.UTF-8", "--compat", "reference").artifact.content, readFileSync(join(ROOT, "examples", "demo.artifact.md"), "utf8"));
});
