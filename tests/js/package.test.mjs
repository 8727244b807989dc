// The built package, imported exactly as a user would: CommonJS and ES module.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { userProject, userRequire, readJson, PKG, NOW } from "./helpers.mjs";

const EXPORTS = ["EvidenceStore", "assess", "checkBundle", "digestText", "parseReport", "recordReview", "render", "reportDigest"];

test("CommonJS require('evidence-check') exposes the whole API", () => {
  const ec = userRequire(userProject())("evidence-check");
  for (const name of EXPORTS) assert.equal(typeof ec[name], "function", name);
});

test("ES module import with named exports, in a separate process", () => {
  const dir = userProject();
  writeFileSync(
    join(dir, "main.mjs"),
    `import { checkBundle, digestText } from "evidence-check";
import { readFileSync } from "node:fs";
const r = checkBundle(readFileSync(process.argv[2], "utf8"), { now: "${NOW}" });
console.log(JSON.stringify({ status: r.assessment.status, digest: digestText("a\\r\\nb") }));`,
  );
  const out = execFileSync(process.execPath, [join(dir, "main.mjs"), join(PKG, "..", "examples", "demo.bundle.json")], { encoding: "utf8" });
  assert.deepEqual(JSON.parse(out), {
    status: "partial",
    // CRLF is normalised before hashing.
    digest: createHash("sha256").update("a\nb").digest("hex"),
  });
});

test("the store API round-trips a quote and the same store survives errors", () => {
  const ec = userRequire(userProject())("evidence-check");
  const scope = { tenant_id: "t", user_id: "u" };
  const spec = { source_id: "a", title: "A", locator: "fixture:a", filename: "a.md", kind: "fixture" };
  const store = new ec.EvidenceStore([spec], { now: NOW });
  const ref = store.ingest(scope, "a", "# T\r\nPlan A works offline 😀.\n");
  assert.deepEqual(ref, { source_id: "a", revision: 1, digest: ec.digestText("# T\nPlan A works offline 😀.\n") });
  const citation = store.quote(scope, ref, "offline 😀.", "c1");
  // Offsets are code points: "# T\n" is 4, "Plan A works " 13 more; the emoji counts one.
  assert.deepEqual(citation, { citation_id: "c1", ref, start: 17, end: 27, quote: "offline 😀." });
  assert.deepEqual(store.checkCitation(scope, citation), {
    spec,
    ref,
    content: "# T\nPlan A works offline 😀.\n",
    fetched_at: NOW,
  });
  assert.throws(() => store.ingest(scope, "nope", "x"), (e) => e instanceof Error && e.name === "EvidenceError" && e.code === "unknown_source");
  assert.throws(() => store.ingest({ tenant_id: "t" }, "a", "x"), (e) => {
    assert.equal(e.name, "ContractError");
    assert.equal(e.code, "contract");
    assert.deepEqual(e.issues, [{ path: "/user_id", code: "missing", message: "Field required" }]);
    return true;
  });
  assert.throws(() => store.ingest(scope, "a", "x\ud800"), (e) => e.code === "invalid_unicode");
  assert.throws(() => new ec.EvidenceStore([spec], { maxSource: 1 }), (e) => e.code === "invalid_argument");
  assert.throws(() => new ec.EvidenceStore([spec], { now: "today" }), (e) => e.code === "invalid_now");
  // Still works after every error above.
  assert.equal(store.ingest(scope, "a", "changed").revision, 2);
  assert.throws(() => store.checkCitation(scope, citation), (e) => e.code === "revision_stale");
  store.close();
  assert.throws(() => store.ingest(scope, "a", "x"), (e) => e.code === "store_closed");
  store.free();
});

test("thrown values are instances of the exported error classes", () => {
  const ec = userRequire(userProject())("evidence-check");
  const { ContractError, EvidenceError, EvidenceCheckError } = ec.errorClasses();
  assert.deepEqual([ContractError.name, EvidenceError.name, EvidenceCheckError.name], ["ContractError", "EvidenceError", "EvidenceCheckError"]);
  assert.throws(() => ec.parseReport("{"), (e) => e instanceof ContractError && e instanceof EvidenceCheckError && e instanceof Error && !(e instanceof EvidenceError));
  assert.throws(() => ec.digestText(1), (e) => e instanceof EvidenceError && e instanceof EvidenceCheckError && !(e instanceof ContractError) && String(e) === "EvidenceError: text must be a string");
});

test("the error classes are exported by name from every entry: require, import, /node, /web", async () => {
  const dir = userProject();
  const req = userRequire(dir);
  const ec = req("evidence-check");
  const check = (m, label) => {
    for (const n of ["EvidenceCheckError", "ContractError", "EvidenceError"]) assert.equal(typeof m[n], "function", `${label}: ${n}`);
    assert.throws(() => m.parseReport("{"), (e) => e instanceof m.ContractError && e instanceof m.EvidenceCheckError && !(e instanceof m.EvidenceError) && e.name === "ContractError", label);
    assert.throws(() => m.digestText(1), (e) => e instanceof m.EvidenceError && e.code === "invalid_argument" && String(e) === "EvidenceError: text must be a string", label);
    assert.equal(m.errorClasses().ContractError, m.ContractError, label);
    assert.equal(m.__registerErrorClasses, undefined, label);
  };
  check(ec, "require");
  check(req("evidence-check/node"), "require /node");
  assert.equal(req("evidence-check/node").ContractError, ec.ContractError);
  // A class made by the caller is one of the library's: it carries a code.
  assert.equal(new ec.EvidenceError("m", "invalid_argument").code, "invalid_argument");
  writeFileSync(
    join(dir, "named.mjs"),
    `import { ContractError, EvidenceError, EvidenceCheckError, parseReport } from "evidence-check";
try { parseReport("{"); } catch (e) { console.log(JSON.stringify([e instanceof ContractError, e instanceof EvidenceCheckError, e instanceof EvidenceError])); }`,
  );
  assert.deepEqual(JSON.parse(execFileSync(process.execPath, [join(dir, "named.mjs")], { encoding: "utf8" })), [true, true, false]);
  // The web entry, initialised with the wasm bytes (as a page would with fetch).
  const web = await import(join(dir, "node_modules", "evidence-check", "web", "index.js"));
  web.initSync({ module: readFileSync(join(PKG, "web", "evidence_check_bg.wasm")) });
  check(web, "web");
});

test("parseReport lists every violation with its path", () => {
  const ec = userRequire(userProject())("evidence-check");
  const bad = { title: "", claims: [{ claim_id: "bad id", text: "t", kind: "opinion", extra: 1 }] };
  assert.throws(() => ec.parseReport(bad), (e) => {
    assert.deepEqual(
      e.issues.map((i) => [i.path, i.code]),
      [
        ["/title", "too_short"],
        ["/claims/0/extra", "extra_field"],
        ["/claims/0/claim_id", "pattern_mismatch"],
        ["/claims/0/kind", "not_allowed"],
      ],
    );
    return true;
  });
  assert.throws(() => ec.parseReport('{"title": "a", "title": "b"}'), (e) => e.issues[0].code === "duplicate_key");
});

test("reviews, assess and render through the API equal checkBundle's result", () => {
  const ec = userRequire(userProject())("evidence-check");
  const bundle = readJson("examples", "demo.bundle.json");
  // Under compat "reference" throughout: its policy, language and escaping.
  const store = new ec.EvidenceStore(bundle.sources.map((s) => s.spec), { now: NOW, compat: "reference" });
  for (const s of bundle.sources) store.ingest(bundle.scope, s.spec.source_id, s.content);
  const reviews = bundle.report.claims.map((c) =>
    ec.recordReview(bundle.scope, bundle.report, c.claim_id, "supported", "教学审阅替身:仅核对本例说明,未验证现实能力。", { now: NOW, compat: "reference" }),
  );
  assert.deepEqual(reviews, bundle.reviews);
  const assessment = ec.assess(bundle.scope, JSON.stringify(bundle.report), store, reviews);
  const artifact = ec.render(bundle.scope, bundle.report, store, reviews, { now: NOW, compat: "reference" });
  assert.deepEqual({ assessment, artifact }, ec.checkBundle(bundle, { now: NOW, compat: "reference" }));
  assert.equal(artifact.content, readFileSync(join(PKG, "..", "examples", "demo.artifact.md"), "utf8"));
});

test("the package's .d.ts declares real types, never any", () => {
  for (const target of ["node", "web"]) {
    const full = readFileSync(join(PKG, target, "evidence_check.d.ts"), "utf8");
    // The web build also declares `InitOutput`, wasm-bindgen's raw ABI of the module's
    // exports (pointers and externrefs); everything a user calls must be typed.
    const dts = full.replace(/export interface InitOutput \{[^}]*\}/, "");
    assert.equal(target === "web", dts !== full, "InitOutput is only in the web build");
    assert.doesNotMatch(dts, /\bany\b/, `${target}: 'any' in the .d.ts`);
    for (const decl of [
      "constructor(specs: SourceSpec[], options?: StoreOptions | null);",
      "ingest(scope: Scope, sourceId: string, content: string): SourceRef;",
      "ingestReadResult(scope: Scope, sourceId: string, result: ReadResult): SourceRef;",
      "get(scope: Scope, ref: SourceRef): Snapshot;",
      "checkCitation(scope: Scope, citation: Citation): Snapshot;",
      "quote(scope: Scope, ref: SourceRef, text: string, citationId: string, options?: QuoteOptions | null): Citation;",
      "fromWebAnnotation(scope: Scope, annotation: WebAnnotation | QuoteOnlyAnnotation, options?: WhitespaceOptions | null): LocatedAnnotation;",
      "export function locateCitations(scope: Scope, draft: DraftReport | string, store: EvidenceStore, options?: LocateOptions | null): LocateResult;",
      "export function parseReport(input: Report | string, options?: ParseOptions | null): ReportHandle;",
      "export function reportDigest(report: ReportArg, options?: ReportDigestOptions | null): string;",
      "export function digestText(text: string): string;",
      "export function assess(scope: Scope, report: ReportArg, store: EvidenceStore, reviews?: ReviewsArg | null, options?: AssessOptions | null): Assessment;",
      "export function checkBundle(bundle: Bundle | string | Uint8Array, options?: CheckBundleOptions | null): BundleResult;",
    ]) {
      assert.ok(dts.includes(decl), `${target}: missing ${decl}`);
    }
  }
});

// ---- evidence-check/extras: a subpath of the one module -------------------------------

const EXTRAS = ["reportJsonSchema", "citationJsonSchema", "claimJsonSchema", "bundleJsonSchema", "fromWebAnnotation", "convertOffset", "DocumentCatalog",
  "extractExcerpts", "checkExcerpt", "evaluateClaims", "finalize", "gradeTask", "fromAnthropicMessage", "locateBundle"];

test("evidence-check/extras gives the very functions of the main entry: one wasm module a target", async () => {
  const req = userRequire(userProject());
  const ec = req("evidence-check");
  const ex = req("evidence-check/extras");
  for (const name of [...EXTRAS, ...EXPORTS, "toWebAnnotations", "locateCitations", "parseBundle", "parsePolicy", "showInvisible"]) {
    assert.equal(typeof ex[name], "function", `extras: ${name}`);
    assert.equal(ex[name], ec[name], `extras: ${name} is the main entry's`);
  }
  for (const target of ["node", "web"]) {
    const wasm = readdirSync(join(PKG, target)).filter((f) => f.endsWith(".wasm"));
    assert.deepEqual(wasm, ["evidence_check_bg.wasm"], target);
    const names = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(PKG, target, wasm[0])))).map((e) => e.name);
    assert.ok(names.includes("checkBundle") && names.includes("convertOffset") && names.includes("documentcatalog_new"), `${target}: ${names.join(" ")}`);
  }
});

test("both subpaths throw instances of the same error classes: require, import, /node/extras, /web/extras", async () => {
  const dir = userProject();
  const req = userRequire(dir);
  const ec = req("evidence-check");
  const check = (ex, label) => {
    for (const n of ["EvidenceCheckError", "ContractError", "EvidenceError"]) assert.equal(ex[n], ec[n], `${label}: ${n}`);
    assert.throws(() => ex.fromWebAnnotation({}), (e) => e instanceof ec.ContractError && e instanceof ec.EvidenceCheckError && !(e instanceof ec.EvidenceError) && e.code === "contract", label);
    assert.throws(
      () => ex.convertOffset("😀", 1, "utf16", "code_point", { lang: "en" }),
      (e) => e instanceof ec.EvidenceError && e.code === "splits_surrogate_pair" && e.name === "EvidenceError",
      label,
    );
    assert.throws(() => ex.reportJsonSchema({ nope: 1 }), (e) => e instanceof ec.EvidenceError && e.code === "invalid_argument", label);
    assert.equal(ex.__registerErrorClasses, undefined, label);
  };
  check(req("evidence-check/extras"), "require");
  check(req("evidence-check/node/extras"), "require /node/extras");
  writeFileSync(
    join(dir, "extras.mjs"),
    `import { ContractError } from "evidence-check";
import { fromWebAnnotation, convertOffset, ContractError as Same } from "evidence-check/extras";
try { fromWebAnnotation({}); } catch (e) { console.log(JSON.stringify([e instanceof ContractError, Same === ContractError, convertOffset("😀a", 2, "utf16", "code_point")])); }`,
  );
  assert.deepEqual(JSON.parse(execFileSync(process.execPath, [join(dir, "extras.mjs")], { encoding: "utf8" })), [true, true, 1]);
  // The web subpath, initialised through its own `init` (the main entry's: one module).
  const web = await import(join(dir, "node_modules", "evidence-check", "web", "index.js"));
  const webExtras = await import(join(dir, "node_modules", "evidence-check", "web", "extras.js"));
  webExtras.initSync({ module: readFileSync(join(PKG, "web", "evidence_check_bg.wasm")) });
  assert.equal(webExtras.ContractError, web.ContractError);
  assert.throws(() => webExtras.fromWebAnnotation({}), (e) => e instanceof web.ContractError && e.code === "contract");
  assert.equal(webExtras.convertOffset("😀a", 2, "utf16", "code_point"), 1);
  assert.equal(web.convertOffset("😀a", 2, "utf16", "code_point"), 1, "initialised once for both");
});

test("the extras .d.ts re-exports the main entry's declarations", () => {
  for (const target of ["node", "web"]) {
    const entry = readFileSync(join(PKG, target, "extras.d.ts"), "utf8");
    assert.match(entry, /^export \* from "\.\/index\.js";$/m, target);
    const dts = readFileSync(join(PKG, target, "evidence_check.d.ts"), "utf8");
    for (const decl of [
      "export function convertOffset(text: string, offset: number, from: OffsetUnit, to: OffsetUnit, options?: LangOptions | null): number;",
      "export function fromWebAnnotation(annotation: WebAnnotation): Citation;",
      "export function fromAnthropicMessage(request: AnthropicRequest | string, response: AnthropicResponse | string, options: AnthropicOptions): Bundle;",
      "export class DocumentCatalog {",
    ]) {
      assert.ok(dts.includes(decl), `${target}: missing ${decl}`);
    }
  }
});
