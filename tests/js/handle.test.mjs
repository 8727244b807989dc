// The Report and Reviews handles (issue 15): every golden case replayed through the plain
// path (objects) and the handle path gives the same results and the same errors, byte for
// byte; a handle is recognised safely, checked again under another policy, and freed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const golden = readJson("tests", "data", "golden-all.json");
const bundle = readJson("examples", "demo.bundle.json");
const scope = bundle.scope;
const specs = bundle.sources.map((s) => s.spec);

/** A thrown value as data: its class name, message and every own enumerable property. */
function describe(e) {
  return { name: e?.name, message: e?.message, isError: e instanceof ec.EvidenceCheckError, ...Object.fromEntries(Object.entries(e ?? {})) };
}

/** Replays a golden case step by step; `mode` "plain" passes objects, "handle" handles. */
function replay(c, mode, options) {
  const log = [];
  const step = (label, f) => {
    try {
      const v = f();
      log.push([label, v === undefined || v instanceof ec.EvidenceStore ? null : JSON.parse(JSON.stringify(v))]);
      return v;
    } catch (e) {
      log.push([label, "threw", describe(e)]);
      return undefined;
    }
  };
  const held = [];
  const parse = (r) => {
    const h = step("parseReport", () => ec.parseReport(JSON.stringify(r), options));
    if (h === undefined) return undefined;
    held.push(h);
    return mode === "handle" ? h : h.toJSON();
  };
  const store = step("store", () => new ec.EvidenceStore(c.specs ?? [], { now: NOW, ...options }));
  if (store === undefined) return log;
  try {
    for (const s of c.ingest ?? []) {
      if (s.remove) step("remove", () => store.remove(c.scope, s.remove));
      else if (s.read_result) step("ingestReadResult", () => store.ingestReadResult(c.scope, s.source_id, s.read_result));
      else step("ingest", () => store.ingest(c.scope, s.source_id, s.content));
    }
    for (const id of c.remove ?? []) step("remove", () => store.remove(c.scope, id));
    if (c.report === undefined) return log;
    const report = parse(c.report);
    if (report === undefined) return log;
    step("reportDigest", () => ec.reportDigest(report));
    const rscope = c.report_scope ?? c.scope;
    const lang = options.lang ? { lang: options.lang } : {};
    const reviews = mode === "handle" ? new ec.Reviews([], lang) : [];
    if (mode === "handle") held.push(reviews);
    for (const r of c.reviews ?? []) {
      const against = r.report === undefined ? report : parse(r.report);
      if (against === undefined) continue;
      const review = step("recordReview", () => ec.recordReview(r.scope ?? rscope, against, r.claim_id, r.verdict, r.note, { now: NOW, ...options }));
      if (review === undefined) continue;
      if (mode === "handle") reviews.add(review);
      else reviews.push(review);
    }
    step("assess", () => ec.assess(rscope, report, store, reviews, lang));
    step("assess report mode", () => ec.assess(rscope, report, store, reviews, { ...lang, reviews: "report" }));
    if (c.render) step("render", () => ec.render(rscope, report, store, reviews, { now: NOW, ...options }));
    step("toWebAnnotations", () => ec.toWebAnnotations(rscope, report, store, lang));
    return log;
  } finally {
    store.free();
    for (const h of held) h.free();
  }
}

const cases = [];
for (const set of ["reference", "extra"]) for (const [name, entry] of Object.entries(golden[set])) cases.push([`${set}/${name}`, entry.case]);

test("every golden case gives the same results and errors through handles as through plain objects", () => {
  assert.ok(cases.length >= 52, `only ${cases.length} cases`);
  let steps = 0;
  let handled = 0;
  for (const options of [{}, { compat: "reference" }, { lang: "en" }]) {
    for (const [name, c] of cases) {
      const plain = replay(c, "plain", options);
      const handle = replay(c, "handle", options);
      assert.deepStrictEqual(handle, plain, `${name} ${JSON.stringify(options)}`);
      steps += plain.length;
      if (plain.some(([label, v]) => label === "assess" && v !== "threw")) handled++;
    }
  }
  assert.ok(steps > 500 && handled > 60, `${steps} steps, ${handled} assessed`);
});

test("parseReport's handle: the same JSON as the parsed report, its digest, claim ids and fields as getters", () => {
  const text = JSON.stringify(bundle.report);
  const h = ec.parseReport(text);
  assert.ok(h instanceof ec.ReportHandle);
  const parsed = h.toJSON();
  assert.equal(JSON.stringify(h), JSON.stringify(parsed));
  assert.deepEqual(parsed.claims.map((c) => c.claim_id), h.claimIds);
  assert.deepEqual([h.title, h.claims, h.conflicts, h.gaps], [parsed.title, parsed.claims, parsed.conflicts, parsed.gaps]);
  assert.equal(h.digest, ec.reportDigest(bundle.report));
  assert.equal(ec.reportDigest(h), h.digest);
  // Defaults filled in, as before: rationale "" and citations [] on every claim.
  assert.ok(parsed.claims.every((c) => typeof c.rationale === "string" && Array.isArray(c.citations)));
  h.free();
});

test("a handle read under one policy is checked again under a call's other policy, as the object would be", () => {
  const claim = bundle.report.claims[0];
  const long = { ...bundle.report, claims: Array.from({ length: 13 }, (_, i) => ({ ...claim, claim_id: `k${i}`, citations: [] })), conflicts: [] };
  const documents = ec.parseReport(long, { policy: "documents" });
  const store = new ec.EvidenceStore(specs, { now: NOW, policy: "reference" });
  const viaHandle = (() => { try { ec.assess(scope, documents, store); } catch (e) { return describe(e); } })();
  const viaObject = (() => { try { ec.assess(scope, documents.toJSON(), store); } catch (e) { return describe(e); } })();
  assert.equal(viaHandle.code, "contract");
  assert.deepStrictEqual(viaHandle, viaObject);
  // Under the documents policy the same handle is accepted.
  const roomy = new ec.EvidenceStore(specs, { now: NOW, policy: "documents" });
  assert.deepStrictEqual(ec.assess(scope, documents, roomy), ec.assess(scope, documents.toJSON(), roomy));
  // And recordReview under the reference policy refuses it as it refuses the object.
  const r = (report) => { try { return ec.recordReview(scope, report, "k0", "supported", "n", { now: NOW, policy: "reference" }); } catch (e) { return describe(e); } };
  assert.deepStrictEqual(r(documents), r(documents.toJSON()));
  assert.equal(r(documents).code, "contract");
  // Without a policy the handle's own applies.
  assert.equal(ec.recordReview(scope, documents, "k0", "supported", "n", { now: NOW }).claim_id, "k0");
  for (const x of [documents, store, roomy]) x.free();
});

test("only a genuine handle is taken as one: look-alikes are read as plain objects, with the same errors as before", () => {
  const store = new ec.EvidenceStore(specs, { now: NOW });
  for (const s of bundle.sources) store.ingest(scope, s.spec.source_id, s.content);
  const attempt = (report, reviews) => { try { return ec.assess(scope, report, store, reviews); } catch (e) { return describe(e); } };
  // A property of the internal getter's name is data: an extra field, as it always was.
  const fake = attempt({ __handle: true, ...bundle.report });
  assert.equal(fake.code, "contract");
  assert.equal(fake.issues[0].path, "/__handle");
  const fakeReviews = attempt(bundle.report, { __handle: true, length: 0 });
  assert.equal(fakeReviews.code, "contract");
  // A catalogue look-alike (the id a real one has, under the getter's name or the old
  // `__catalogHandle`) is not a catalogue either.
  const ex = userRequire(userProject())("evidence-check/extras");
  const real = new ex.DocumentCatalog();
  for (const forged of [{ __handle: true }, { __catalogHandle: 1 }, { __handle: 1, __catalogHandle: 1 }]) {
    try {
      ex.finalize({ task_id: "t", kind: "query" }, [], { status: "abstain" }, { catalog: forged });
      assert.fail("a forged catalogue was taken");
    } catch (e) {
      assert.equal(e.code, "invalid_argument", JSON.stringify(forged));
      assert.equal(e.message, "options.catalog must be a DocumentCatalog");
    }
  }
  assert.doesNotThrow(() => ex.finalize({ task_id: "t", kind: "query" }, [], { status: "abstain" }, { catalog: real }));
  real.free();
  // An object made from the class's prototype holds no report: a coded invalid_argument.
  for (const forged of [Object.create(ec.ReportHandle.prototype), Object.assign(Object.create(ec.ReportHandle.prototype), { __wbg_ptr: 0 })]) {
    const e = attempt(forged);
    assert.equal(e.isError, true, JSON.stringify(e));
    assert.equal(e.code, "invalid_argument");
  }
  const e = attempt(bundle.report, Object.create(ec.Reviews.prototype));
  assert.equal(e.code, "invalid_argument");
  // A Proxy whose traps throw, or a revoked one: the errors of the plain path.
  const throwing = new Proxy({}, { get() { throw new Error("trap"); } });
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  for (const hostile of [throwing, revoked]) {
    const viaNew = attempt(hostile);
    assert.equal(viaNew.code, "invalid_argument");
    assert.match(viaNew.message, /^report /);
  }
  // A Proxy over a real handle forwards to it.
  const h = ec.parseReport(bundle.report);
  assert.deepStrictEqual(attempt(new Proxy(h, {})), attempt(h));
  // The store and the module keep working.
  assert.equal(attempt(h).report_digest, h.digest);
  h.free();
  store.free();
});

test("a freed handle throws handle_freed from its getters and from every call given it; freeing twice does nothing", () => {
  const store = new ec.EvidenceStore(specs, { now: NOW, lang: "en" });
  for (const s of bundle.sources) store.ingest(scope, s.spec.source_id, s.content);
  const h = ec.parseReport(bundle.report, { lang: "en" });
  const reviews = new ec.Reviews(bundle.reviews, { lang: "en" });
  assert.equal(reviews.length, bundle.reviews.length);
  h.free();
  h.free();
  const freed = (f, label) => assert.throws(f, (e) => e instanceof ec.EvidenceError && e.code === "handle_freed", label);
  freed(() => h.digest, "digest");
  freed(() => h.claimIds, "claimIds");
  freed(() => h.title, "title");
  freed(() => h.toJSON(), "toJSON");
  freed(() => JSON.stringify(h), "stringify");
  freed(() => ec.assess(scope, h, store), "assess");
  freed(() => ec.render(scope, h, store, [], { now: NOW }), "render");
  freed(() => ec.recordReview(scope, h, "claim_a", "supported", "n"), "recordReview");
  freed(() => ec.toWebAnnotations(scope, h, store), "toWebAnnotations");
  freed(() => ec.reportDigest(h), "reportDigest");
  assert.throws(() => h.digest, (e) => e.message === "The handle (a ReportHandle, Reviews or DocumentCatalog) was freed; it cannot be used any more.");
  const live = ec.parseReport(bundle.report);
  reviews[Symbol.dispose]();
  freed(() => reviews.length, "length");
  freed(() => reviews.add(bundle.reviews[0]), "add");
  freed(() => ec.assess(scope, live, store, reviews), "assess with freed reviews");
  // The store still works.
  assert.equal(ec.assess(scope, live, store, bundle.reviews).report_digest, live.digest);
  live.free();
  store.free();
});

test("Reviews: each review is checked once, as the item it becomes of the list assess reads", () => {
  const store = new ec.EvidenceStore(specs, { now: NOW });
  for (const s of bundle.sources) store.ingest(scope, s.spec.source_id, s.content);
  const reviews = new ec.Reviews();
  for (const r of bundle.reviews) reviews.add(r);
  assert.equal(reviews.length, bundle.reviews.length);
  assert.equal(JSON.stringify(reviews), JSON.stringify(bundle.reviews));
  assert.deepStrictEqual(ec.assess(scope, bundle.report, store, reviews), ec.assess(scope, bundle.report, store, bundle.reviews));
  // A broken review: the ContractError assess throws for the list, with the same path.
  const broken = { ...bundle.reviews[0], note: "" };
  const viaAdd = (() => { try { reviews.add(broken); } catch (e) { return describe(e); } })();
  const viaList = (() => { try { ec.assess(scope, bundle.report, store, [...bundle.reviews, broken]); } catch (e) { return describe(e); } })();
  assert.equal(viaAdd.code, "contract");
  assert.deepStrictEqual(viaAdd, viaList);
  assert.equal(viaAdd.issues[0].path, `/${bundle.reviews.length}/note`);
  assert.equal(reviews.length, bundle.reviews.length, "a refused review is not added");
  // The constructor reads a list as assess does.
  const ctor = (() => { try { new ec.Reviews([bundle.reviews[0], broken]); } catch (e) { return describe(e); } })();
  const list = (() => { try { ec.assess(scope, bundle.report, store, [bundle.reviews[0], broken]); } catch (e) { return describe(e); } })();
  assert.deepStrictEqual(ctor, list);
  reviews.free();
  store.free();
});

test("Reviews.add of recordReview's result: the review as made; changed in any way, read as any other review", () => {
  const h = ec.parseReport(bundle.report);
  const reviews = new ec.Reviews();
  const made = () => ec.recordReview(scope, h, "claim_a", "supported", "教学审阅替身:核对本例。", { now: NOW });
  const same = made();
  assert.equal(reviews.add(same), 1);
  assert.deepStrictEqual(reviews.toJSON(), [same]);
  // Each change is the review the list reads from the object, or the error it throws.
  const changes = [
    (r) => ({ ...r, note: "another note" }),
    (r) => ({ ...r, note: "" }),
    (r) => ({ ...r, extra: 1 }),
    (r) => ({ ...r, verdict: "maybe" }),
    (r) => ({ toJSON: () => ({ ...r, claim_id: "claim_b" }) }),
    (r) => Object.assign(r, { reviewed_at: "2026-11-29T01:00:00Z" }),
    (r) => { delete r.scope; return r; },
  ];
  for (const [i, change] of changes.entries()) {
    const changed = change(made());
    const viaAdd = (() => { try { reviews.add(changed); return reviews.toJSON().at(-1); } catch (e) { return describe(e); } })();
    const fresh = new ec.Reviews(reviews.toJSON().slice(0, reviews.length - (viaAdd?.code ? 0 : 1)));
    const viaFresh = (() => { try { fresh.add(changed); return fresh.toJSON().at(-1); } catch (e) { return describe(e); } })();
    assert.deepStrictEqual(viaAdd, viaFresh, `change ${i}`);
    assert.deepStrictEqual(viaAdd, viaAdd?.code ? viaAdd : JSON.parse(JSON.stringify(changed)), `change ${i}`);
    fresh.free();
  }
  reviews.free();
  h.free();
});

test("recordReview's result: the review's JSON as written, key order and note included, whatever the note holds", () => {
  const h = ec.parseReport(bundle.report);
  const notes = [
    "教学审阅替身:仅核对本例说明。",
    'ascii "quoted" \\ note',
    '笔记 with ","reviewed_at":"2026 and ,"note":"" inside',
    "控制字符\u0001\u001f\u007f\n\t and \u2028 and 😀 and \\\"",
    "笔".repeat(1000),
  ];
  for (const note of notes) {
    const review = ec.recordReview(scope, h, "claim_a", "supported", note, { now: NOW });
    const expected = { scope, report_digest: h.digest, claim_id: "claim_a", verdict: "supported", note, reviewed_at: NOW };
    assert.equal(JSON.stringify(review), JSON.stringify(expected));
    assert.deepStrictEqual(Object.keys(review), Object.keys(expected));
    assert.deepStrictEqual(Object.getOwnPropertyDescriptor(review, "note"), { value: note, writable: true, enumerable: true, configurable: true });
    assert.equal(Object.getPrototypeOf(review), Object.prototype);
    const signed = ec.recordReview(scope, h, "claim_a", "supported", note, { now: NOW, key: "k" });
    assert.deepStrictEqual(Object.keys(signed), [...Object.keys(expected), "signature"]);
    assert.equal(signed.note, note);
  }
  h.free();
});

test("a freed handle releases its report at once (what stays until the finalizer runs is a small tombstone)", () => {
  const text = JSON.stringify(bundle.report);
  const round = () => {
    const h = ec.parseReport(text);
    const reviews = new ec.Reviews(bundle.reviews);
    h.free();
    reviews.free();
  };
  for (let i = 0; i < 500; i++) round();
  const before = ec.wasmMemoryBytes();
  for (let i = 0; i < 5000; i++) round();
  // 5,000 reports kept would be over 10 MB; 5,000 tombstones are well under 1 MB.
  assert.ok(ec.wasmMemoryBytes() - before < 1 << 20, `grew ${ec.wasmMemoryBytes() - before} bytes`);
});
