// Hostile input at two edges (round 11): JSON nested past the reader's depth limit, as
// text and as JS objects deep enough to run JSON.stringify out of stack; and a handle
// (ReportHandle, Reviews, EvidenceStore, DocumentCatalog) freed by the caller's own code
// while the library reads another argument of the same call, or used after free().
// Every case must be a coded error that names its subject, never an internal message
// (serde_json's "recursion limit exceeded", wasm-bindgen's "null pointer passed to rust"),
// and the instance must keep working after it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const ex = userRequire(userProject())("evidence-check/extras");
const bundle = readJson("examples", "demo.bundle.json");
const scope = bundle.scope;
const specs = bundle.sources.map((s) => s.spec);

function liveStore() {
  const store = new ec.EvidenceStore(specs, { now: NOW, lang: "en" });
  for (const s of bundle.sources) store.ingest(scope, s.spec.source_id, s.content);
  return store;
}

/** A full check in this instance still gives the demo's result. */
const STATUS = ec.checkBundle(bundle, { now: NOW }).status;
function stillWorks() {
  assert.equal(ec.checkBundle(bundle, { now: NOW }).status, STATUS);
  const store = liveStore();
  assert.equal(ec.assess(scope, bundle.report, store, bundle.reviews).report_digest, ec.reportDigest(bundle.report));
  store.free();
}

function thrown(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

// ---- depth ------------------------------------------------------------------------------

const LIMIT = 127; // the deepest nesting read (src/contract/json.rs MAX_DEPTH)
const TOO_DEEP = /^the JSON nests deeper than 127 levels \((at line \d+ column \d+|JSON\.stringify of [\w.]+ ran out of stack)\); it was not read$/;

// One chain of nested arrays; level n is `n` arrays deep (levels[1] is `[]`).
const MAX = 100_000;
const levels = [undefined, []];
for (let n = 2; n <= MAX; n++) levels.push([levels[n - 1]]);
const deepText = (n) => "[".repeat(n) + "]".repeat(n);

// Each JSON argument: how to give it `deep` (a value nested `extra` levels inside it, so
// the whole argument nests n levels), and the subject its errors name.
function cases(store) {
  const reviews = new ec.Reviews([]);
  return [
    { name: "parseReport report", subject: "report", text: true, call: (d) => ec.parseReport(d) },
    { name: "parseReport report.title", subject: "report", extra: 1, call: (d) => ec.parseReport({ ...bundle.report, title: d }) },
    { name: "reportDigest report", subject: "report", text: true, call: (d) => ec.reportDigest(d) },
    { name: "assess scope", subject: "scope", call: (d) => ec.assess(d, bundle.report, store) },
    { name: "assess report", subject: "report", text: true, call: (d) => ec.assess(scope, d, store) },
    { name: "assess reviews", subject: "reviews", call: (d) => ec.assess(scope, bundle.report, store, d) },
    { name: "assess reviews[0]", subject: "reviews", extra: 1, call: (d) => ec.assess(scope, bundle.report, store, [d]) },
    { name: "assess options.lang", subject: "options", extra: 1, call: (d) => ec.assess(scope, bundle.report, store, [], { lang: d }) },
    { name: "render reviews", subject: "reviews", call: (d) => ec.render(scope, bundle.report, store, d, { now: NOW }) },
    { name: "toWebAnnotations report", subject: "report", text: true, call: (d) => ec.toWebAnnotations(scope, d, store) },
    { name: "recordReview scope", subject: "scope", call: (d) => ec.recordReview(d, bundle.report, "claim_a", "supported", "n") },
    { name: "new Reviews", subject: "reviews", call: (d) => new ec.Reviews(d) },
    { name: "new Reviews [review]", subject: "reviews", extra: 1, call: (d) => new ec.Reviews([d]) },
    // A review is read as the next item of the list: one level deeper.
    { name: "Reviews.add", subject: "reviews", extra: 1, call: (d) => reviews.add(d) },
    { name: "new EvidenceStore specs", subject: "specs", call: (d) => new ec.EvidenceStore(d) },
    { name: "new EvidenceStore options.policy", subject: "options", extra: 1, call: (d) => new ec.EvidenceStore(specs, { policy: d }) },
    { name: "ingestReadResult", subject: "read_result", call: (d) => store.ingestReadResult(scope, specs[0].source_id, d) },
    { name: "get ref", subject: "source_ref", call: (d) => store.get(scope, d) },
    { name: "checkCitation", subject: "citation", call: (d) => store.checkCitation(scope, d) },
    { name: "store.fromWebAnnotation", subject: "web_annotation", call: (d) => store.fromWebAnnotation(scope, d) },
    { name: "checkBundle", subject: "bundle", text: true, call: (d) => ec.checkBundle(d) },
    { name: "checkBundle report", subject: "bundle", extra: 1, call: (d) => ec.checkBundle({ ...bundle, report: d }) },
    { name: "parseBundle", subject: "bundle", text: true, call: (d) => ec.parseBundle(d) },
    { name: "parsePolicy", subject: "policy", call: (d) => ec.parsePolicy(d) },
    { name: "locateCitations draft", subject: "draft", text: true, call: (d) => ec.locateCitations(scope, d, store) },
    { name: "extras fromWebAnnotation", subject: "web_annotation", call: (d) => ex.fromWebAnnotation(d) },
    { name: "extras locateBundle", subject: "draft", text: true, call: (d) => ex.locateBundle(d) },
    { name: "extras checkExcerpt documents", subject: "documents", call: (d) => ex.checkExcerpt(d, { item_id: "x", sha256: "", line: 1, quote: "- a", text: "a" }) },
    { name: "extras evaluateClaims claims", subject: "claims", call: (d) => ex.evaluateClaims([], "x", d, "info") },
    { name: "extras finalize observations", subject: "observations", call: (d) => ex.finalize({ task_id: "t", kind: "query" }, d, { status: "abstain" }) },
    { name: "extras DocumentCatalog.fromJSON", subject: "catalog", text: true, call: (d) => ex.DocumentCatalog.fromJSON(d) },
    { name: "extras fromAnthropicMessage request", subject: "request", text: true, call: (d) => ex.fromAnthropicMessage(d, {}, { scope }) },
  ];
}

// Depths: the edge, the range where JSON.stringify runs out of stack in these calls
// (about 4,000 to 5,000 levels in Node 20), and far past it; and, per argument, the depths
// either side of the first where it does (found by bisection). A stringify that deep
// costs milliseconds, so the range is sampled, not swept (/tmp/r11-f1/depth.mjs swept it).
const DEPTHS = [LIMIT + 1, LIMIT + 2, 256, 1000, 2048, 3000];
for (let n = 3500; n <= 5200; n += 100) DEPTHS.push(n);
DEPTHS.push(8192, 20_000, MAX);

/** The least depth at which giving `call` a value that deep runs JSON.stringify out of stack. */
function stackEdge(call, extra) {
  const outOfStack = (n) => /ran out of stack/.test(thrown(() => call(levels[n - extra]))?.issues?.[0]?.message ?? "");
  let [lo, hi] = [LIMIT + 1, MAX];
  assert.ok(outOfStack(hi) && !outOfStack(lo), String(call));
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (outOfStack(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

test("JSON nested past 127 levels: every JSON argument, as text or as an object, at every depth, is too_deep naming its subject", () => {
  const store = liveStore();
  for (const c of cases(store)) {
    const extra = c.extra ?? 0;
    const forms = c.text ? ["object", "text"] : ["object"];
    for (const form of forms) {
      // At the limit the reader reads it (whatever else it then refuses).
      const atLimit = thrown(() => c.call(form === "text" ? deepText(LIMIT) : levels[LIMIT - extra]));
      assert.notEqual(atLimit?.issues?.[0]?.code, "too_deep", `${c.name} (${form}) at ${LIMIT}`);
      let depths = [LIMIT + 1, 4097, MAX];
      if (form === "object") {
        const edge = stackEdge(c.call, extra);
        depths = [...DEPTHS, edge - 2, edge - 1, edge, edge + 1, edge + 2];
      }
      for (const n of depths) {
        const e = thrown(() => c.call(form === "text" ? deepText(n) : levels[n - extra]));
        const what = `${c.name} (${form}) at ${n}: ${e?.name} ${e?.code} ${e?.message}`;
        assert.ok(e instanceof ec.ContractError, what);
        assert.equal(e.code, "contract", what);
        assert.equal(e.subject, c.subject, what);
        assert.equal(e.issues.length, 1, what);
        assert.equal(e.issues[0].code, "too_deep", what);
        assert.equal(e.issues[0].path, "", what);
        assert.match(e.issues[0].message, TOO_DEEP, what);
        assert.doesNotMatch(e.message, /recursion limit/, what);
      }
    }
  }
  store.free();
  stillWorks();
});

test("a value deep enough to run JSON.stringify out of stack is too_deep; anything else its toJSON throws stays invalid_argument", () => {
  const e = thrown(() => ec.parseReport(levels[MAX]));
  assert.equal(e.issues[0].message, "the JSON nests deeper than 127 levels (JSON.stringify of report ran out of stack); it was not read");
  // A toJSON that throws, even a RangeError of another kind, is the caller's exception.
  for (const error of [new Error("boom"), new RangeError("Invalid string length"), "a string"]) {
    const e = thrown(() => ec.parseReport({ toJSON() { throw error; } }));
    assert.ok(e instanceof ec.EvidenceError, String(error));
    assert.equal(e.code, "invalid_argument");
    assert.equal(e.message, "report cannot be serialised as JSON: reading it threw an exception");
  }
  // A thrown Proxy whose traps throw is read through catching calls only.
  const hostile = new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); } });
  assert.equal(thrown(() => ec.parseReport({ toJSON() { throw hostile; } })).code, "invalid_argument");
  stillWorks();
});

// ---- handles freed during a call ----------------------------------------------------------

// The caller's code the library runs while it reads an argument.
const HOOKS = {
  toJSON: (free) => ({ toJSON() { free(); return scope; } }),
  getter: (free) => ({ ...scope, get user_id() { free(); return scope.user_id; } }),
  "Proxy get": (free) => new Proxy({ ...scope }, { get(t, k, r) { free(); return Reflect.get(t, k, r); } }),
  "Proxy ownKeys": (free) => new Proxy({ ...scope }, { ownKeys(t) { free(); return Reflect.ownKeys(t); } }),
};

test("a handle freed by the caller's code while another argument is read: handle_freed or store_freed naming it", () => {
  const calls = {
    assess: (a) => ec.assess(a.scope, a.report, a.store, a.reviews),
    render: (a) => ec.render(a.scope, a.report, a.store, a.reviews, { now: NOW }),
    toWebAnnotations: (a) => ec.toWebAnnotations(a.scope, a.report, a.store),
    recordReview: (a) => ec.recordReview(a.scope, a.report, "claim_a", "supported", "n"),
  };
  // What each call reads after the scope (a handle it does not read cannot be missed).
  const reads = { assess: ["report", "reviews", "store"], render: ["report", "reviews", "store"], toWebAnnotations: ["report", "store"], recordReview: ["report"] };
  const codes = { report: "handle_freed", reviews: "handle_freed", store: "store_freed" };
  for (const [hook, make] of Object.entries(HOOKS)) {
    for (const [call, f] of Object.entries(calls)) {
      for (const victim of ["report", "reviews", "store"]) {
        const a = { report: ec.parseReport(bundle.report), reviews: new ec.Reviews(bundle.reviews), store: liveStore() };
        a.scope = make(() => a[victim].free());
        const e = thrown(() => f(a));
        const what = `${hook} frees ${victim} in ${call}: ${e?.code} ${e?.message}`;
        if (reads[call].includes(victim)) {
          assert.ok(e instanceof ec.EvidenceError, what);
          assert.equal(e.code, codes[victim], what);
          assert.ok(e.message.startsWith(`${victim}: `), what);
          assert.doesNotMatch(e.message, /null pointer|recursive use|unreachable/, what);
        } else {
          assert.equal(e, undefined, what);
        }
        for (const h of [a.report, a.reviews, a.store]) h.free();
      }
    }
  }
  // An option's getter runs before the handles are read: the same.
  const a = { report: ec.parseReport(bundle.report), store: liveStore() };
  const e = thrown(() => ec.render(scope, a.report, a.store, [], { now: NOW, get lang() { a.report.free(); return "en"; } }));
  assert.equal(e.code, "handle_freed");
  assert.equal(e.message, "report: The handle (a ReportHandle, Reviews or DocumentCatalog) was freed; it cannot be used any more.");
  // A string parameter is never coerced: Symbol.toPrimitive does not run (a claim id that
  // is not a string is no claim of the report).
  const live = ec.parseReport(bundle.report);
  const claimId = { [Symbol.toPrimitive]() { live.free(); return "claim_a"; } };
  assert.equal(thrown(() => ec.recordReview(scope, live, claimId, "supported", "n")).code, "unknown_claim");
  assert.equal(live.claimIds.length, bundle.report.claims.length, "the report was not freed");
  live.free();
  // A method whose own handle is freed while it reads its argument.
  const reviews = new ec.Reviews([]);
  assert.equal(thrown(() => reviews.add({ toJSON() { reviews.free(); return bundle.reviews[0]; } })).code, "handle_freed");
  const store = liveStore();
  assert.equal(thrown(() => store.ingest({ toJSON() { store.free(); return scope; } }, specs[0].source_id, "x")).code, "store_freed");
  a.report.free();
  a.store.free();
  stillWorks();
});

test("a freed ReportHandle: toJSON, claimIds and digest throw handle_freed; freeing twice does nothing", () => {
  const h = ec.parseReport(bundle.report, { lang: "en" });
  h.free();
  h.free();
  h[Symbol.dispose]();
  for (const [label, f] of [["toJSON", () => h.toJSON()], ["claimIds", () => h.claimIds], ["digest", () => h.digest], ["stringify", () => JSON.stringify(h)]]) {
    const e = thrown(f);
    assert.ok(e instanceof ec.EvidenceError, label);
    assert.equal(e.code, "handle_freed", label);
    assert.equal(e.message, "The handle (a ReportHandle, Reviews or DocumentCatalog) was freed; it cannot be used any more.", label);
  }
  stillWorks();
});

test("a DocumentCatalog: freed twice, used after free, or freed while its own call or another reads an argument: handle_freed, never a wasm-bindgen error", () => {
  const doc = { id: "doc1", title: "Doc", body: "- one\n- two\n" };
  const freedError = (f, label, name) => {
    const e = thrown(f);
    const what = `${label}: ${e?.name} ${e?.code} ${e?.message}`;
    assert.ok(e instanceof ex.EvidenceError, what);
    assert.equal(e.code, "handle_freed", what);
    assert.ok(name ? e.message.startsWith(`${name}: `) : !e.message.includes(":"), what);
  };
  const c = new ex.DocumentCatalog();
  c.import(doc);
  c.free();
  c.free();
  c[Symbol.dispose]();
  freedError(() => c.ids(), "ids");
  freedError(() => c.get("doc1"), "get");
  freedError(() => c.toJSON(), "toJSON");
  freedError(() => c.import(doc), "import");
  freedError(() => ex.extractExcerpts(c, "doc1"), "extractExcerpts", "document");
  freedError(() => ex.checkExcerpt(c, { item_id: "doc1", sha256: "", line: 1, quote: "- one", text: "one" }), "checkExcerpt", "documents");
  freedError(() => ex.finalize({ task_id: "t", kind: "query" }, [], { status: "abstain" }, { catalog: c }), "finalize", "options.catalog");
  // Freed from inside a read of the same call.
  const fresh = () => {
    const d = new ex.DocumentCatalog();
    d.import(doc);
    return d;
  };
  const own = fresh();
  freedError(() => own.import({ toJSON() { own.free(); return { ...doc, id: "doc2" }; } }), "import freeing itself");
  freedError(() => own.ids(), "ids after");
  const d1 = fresh();
  const claims = ex.extractExcerpts(d1, "doc1");
  freedError(() => ex.evaluateClaims(d1, "doc1", { toJSON() { d1.free(); return claims; } }, "info"), "evaluateClaims", "documents");
  const d2 = fresh();
  freedError(() => ex.checkExcerpt(d2, { toJSON() { d2.free(); return claims[0]; } }), "checkExcerpt", "documents");
  const d3 = fresh();
  freedError(() => ex.finalize({ task_id: "t", kind: "query" }, [], { toJSON() { d3.free(); return { status: "abstain" }; } }, { catalog: d3 }), "finalize", "options.catalog");
  // The extras instance keeps working.
  const live = fresh();
  assert.equal(ex.extractExcerpts(live, "doc1").length, 2);
  assert.deepEqual(live.ids(), ["doc1"]);
  live.free();
  stillWorks();
});
