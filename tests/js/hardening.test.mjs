// Hostile input through the JS API: offsets across hosts, lone surrogates, hostile JSON,
// oversize input, memory over many calls, and the trust boundaries.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { PKG, NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const ex = userRequire(userProject())("evidence-check/extras"); // schemas, annotations, excerpts, outcomes, offsets, importers
const bundle = readJson("examples", "demo.bundle.json");
const scope = bundle.scope;
const specs = bundle.sources.map((s) => s.spec);

// A small deterministic generator (no Math.random: failures must be reproducible).
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), (x >>> 0) / 2 ** 32);
}
const PIECES = ["a", "Z", " ", "\r\n", "\r", "\n", "中", "😀", "𝒳", "e\u0301", "🇨🇳", "é", "\u200b", "\t"];
function randomText(next, max = 40) {
  let s = "x";
  const n = Math.floor(next() * max);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}
const splitsPair = (s, i) => i > 0 && i < s.length && /[\ud800-\udbff]/.test(s[i - 1]) && /[\udc00-\udfff]/.test(s[i]);

test("convertOffset agrees with JavaScript's own string indexing", () => {
  const next = rng(7);
  for (let k = 0; k < 400; k++) {
    const s = randomText(next);
    for (let i = 0; i <= s.length; i++) {
      if (splitsPair(s, i)) {
        assert.throws(() => ex.convertOffset(s, i, "utf16", "code_point"), (e) => e.code === "splits_surrogate_pair");
        continue;
      }
      const cp = Array.from(s.slice(0, i)).length;
      const bytes = Buffer.byteLength(s.slice(0, i));
      assert.equal(ex.convertOffset(s, i, "utf16", "code_point"), cp);
      assert.equal(ex.convertOffset(s, i, "utf16", "utf8"), bytes);
      assert.equal(ex.convertOffset(s, cp, "code_point", "utf16"), i);
      assert.equal(ex.convertOffset(s, bytes, "utf8", "utf16"), i);
    }
    assert.throws(() => ex.convertOffset(s, s.length + 1, "utf16", "utf8"), (e) => e.code === "offset_out_of_range");
  }
  assert.throws(() => ex.convertOffset("é", 1, "utf8", "utf16"), (e) => e.code === "splits_utf8_sequence");
  assert.throws(() => ex.convertOffset("a", 0, "bytes", "utf16"), (e) => e.code === "invalid_argument");
});

test("quoteRange takes a JS (UTF-16) range and gives the contract's code points", () => {
  const next = rng(11);
  const spec = { source_id: "s", title: "S", locator: "l", filename: "s.md", kind: "public" };
  for (let k = 0; k < 200; k++) {
    const store = new ec.EvidenceStore([spec]);
    const ref = store.ingest(scope, "s", randomText(next, 60));
    const content = store.get(scope, ref).content;
    const a = Math.floor(next() * content.length);
    const b = a + 1 + Math.floor(next() * (content.length - a));
    if (splitsPair(content, a) || splitsPair(content, b) || !content.slice(a, b).trim()) {
      if (splitsPair(content, a) || splitsPair(content, b)) {
        assert.throws(() => store.quoteRange(scope, ref, a, b, "c"), (e) => e.code === "splits_surrogate_pair");
      }
      store.free();
      continue;
    }
    const c = store.quoteRange(scope, ref, a, b, "c");
    assert.equal(c.quote, content.slice(a, b));
    assert.deepEqual([c.start, c.end], [Array.from(content.slice(0, a)).length, Array.from(content.slice(0, b)).length]);
    assert.deepEqual(store.checkCitation(scope, c).ref, ref);
    store.free();
  }
});

test("a lone surrogate in any string argument is refused with invalid_unicode", () => {
  const lone = "x\ud800y";
  const store = new ec.EvidenceStore(specs, { now: NOW });
  const ref = store.ingest(scope, "plan_a", bundle.sources[0].content);
  const calls = {
    "ingest sourceId": () => store.ingest(scope, lone, "text"),
    "ingest content": () => store.ingest(scope, "plan_a", lone),
    "quote text": () => store.quote(scope, ref, lone, "c"),
    "quote citationId": () => store.quote(scope, ref, "方案", lone),
    "remove sourceId": () => store.remove(scope, lone),
    "digestText": () => ec.digestText(lone),
    "parseReport text": () => ec.parseReport(lone),
    "parseReport object": () => ec.parseReport({ ...bundle.report, title: lone }),
    "scope object": () => store.get({ tenant_id: lone, user_id: "u" }, ref),
    "recordReview claimId": () => ec.recordReview(scope, bundle.report, lone, "supported", "n"),
    "recordReview note": () => ec.recordReview(scope, bundle.report, "claim_a", "supported", lone),
    "checkBundle object": () => ec.checkBundle({ ...bundle, sources: [{ ...bundle.sources[0], content: lone }, bundle.sources[1]] }),
    "convertOffset text": () => ex.convertOffset(lone, 0, "utf16", "utf8"),
    "extractExcerpts": () => ex.extractExcerpts({ id: "d", title: "t", body: lone }),
    "ingestReadResult object": () => store.ingestReadResult(scope, "plan_a", { status: "ok", data: { filename: "plan_a.md", content: lone } }),
    "ingestReadResult sourceId": () => store.ingestReadResult(scope, lone, { status: "ok", data: { filename: "plan_a.md", content: "x" } }),
    "quoteRange citationId": () => store.quoteRange(scope, ref, 0, 1, lone),
    "recordReview verdict": () => ec.recordReview(scope, bundle.report, "claim_a", lone, "n"),
    "assess reviews": () => ec.assess(scope, bundle.report, store, [{ ...bundle.reviews[0], note: lone }]),
    "render options.now": () => ec.render(scope, bundle.report, store, [], { now: lone }),
    "evaluateClaims itemId": () => ex.evaluateClaims([], lone, [], "info"),
    "checkExcerpt claim": () => ex.checkExcerpt([], { item_id: lone, sha256: "", line: 1, quote: "", text: "" }),
    "finalize task": () => ex.finalize({ task_id: lone, kind: "query" }, [], { status: "abstain" }),
  };
  for (const [name, call] of Object.entries(calls)) {
    assert.throws(call, (e) => e instanceof Error && e.code === "invalid_unicode", name);
  }
  // A real U+FFFD is fine, and so is the text "\\ud800" (a backslash, not a surrogate).
  assert.equal(store.ingest(scope, "plan_b", "a\ufffdb").revision, 1);
  assert.equal(ec.parseReport({ ...bundle.report, title: "\\ud800" }).title, "\\ud800");
});

test("text with a real U+FFFD gets its verdict, and a lone surrogate is still refused", () => {
  const store = new ec.EvidenceStore(specs, { now: NOW });
  const text = "The 𝒳 tool 😀 keeps \ufffd 中文资料.\r\nnext";
  const ref = store.ingest(scope, "plan_b", text);
  assert.equal(store.quote(scope, ref, "\ufffd 中文", "c").start, 19);
  // A U+FFFD in a bundle's text (string and object input) changes nothing of its verdict.
  const plain = ec.checkBundle(bundle, { now: NOW }).assessment.status;
  const marked = { ...bundle, report: { ...bundle.report, title: `${bundle.report.title} \ufffd` } };
  assert.equal(ec.checkBundle(marked, { now: NOW }).assessment.status, plain);
  assert.equal(ec.checkBundle(JSON.stringify(marked), { now: NOW }).assessment.status, plain);
  for (const lone of ["😀\ufffd\ud800", "\ud800\ufffd", "𝒳\udc00"]) {
    assert.throws(() => store.ingest(scope, "plan_b", lone), (e) => e.code === "invalid_unicode", JSON.stringify(lone));
  }
  store.free();
});

test("without String.prototype.isWellFormed the check asks the host once per U+FFFD, not once per character", () => {
  // In a child process whose host lacks isWellFormed: count String.prototype.indexOf
  // calls for one text and for one 33 times longer, each with one U+FFFD.
  const script = `
    delete String.prototype.isWellFormed;
    const indexOf = String.prototype.indexOf;
    let calls = 0;
    String.prototype.indexOf = function (s, i) { calls++; return indexOf.call(this, s, i); };
    const ec = require(${JSON.stringify(join(PKG, "node", "evidence_check.js"))});
    const specs = ${JSON.stringify(specs)}, scope = ${JSON.stringify(scope)};
    const store = new ec.EvidenceStore(specs, { now: ${JSON.stringify(NOW)}, policy: "documents" });
    const unit = "中 The 𝒳 tool keeps 64 entries; works offline 😀 here.\\r\\n";
    const count = (n) => { const t = unit.repeat(n) + "\\ufffd" + unit.repeat(n); calls = 0; store.ingest(scope, "plan_b", t); return calls; };
    const refused = (t) => { try { store.ingest(scope, "plan_b", t); return "accepted"; } catch (e) { return e.code; } };
    const many = "\\ufffd".repeat(40);
    console.log(JSON.stringify({ small: count(300), large: count(10000), lone: ["😀\\ufffd\\ud800", "\\ud800\\ufffd", "𝒳\\udc00", many + "\\ud800" + many].map(refused), real: [refused("😀\\ufffd𝒳"), refused(many + "𝒳" + many)] }));`;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(out.small > 0, "the fallback path asked the host");
  assert.equal(out.large, out.small, "host calls grew with the text's length");
  assert.deepEqual(out.lone, ["invalid_unicode", "invalid_unicode", "invalid_unicode", "invalid_unicode"]);
  assert.deepEqual(out.real, ["accepted", "accepted"]);
});

test("hostile JSON: duplicate keys, floats, huge and negative numbers", () => {
  const citation = bundle.report.claims[0].citations[0];
  const withCitation = (patch) => ({ ...bundle.report, claims: [{ ...bundle.report.claims[0], citations: [{ ...citation, ...patch }] }] });
  const issue = (input) => {
    try {
      ec.parseReport(input);
    } catch (e) {
      assert.equal(e.name, "ContractError");
      return e.issues.map((i) => [i.path, i.code]);
    }
    assert.fail("accepted");
  };
  assert.deepEqual(issue('{"title": "a", "title": "b", "claims": []}'), [["", "duplicate_key"]]);
  assert.deepEqual(issue(withCitation({ start: 1.5 })), [["/claims/0/citations/0/start", "wrong_type"]]);
  assert.deepEqual(issue(withCitation({ start: 1e300 })), [["/claims/0/citations/0/start", "wrong_type"]]);
  assert.deepEqual(issue(JSON.stringify(withCitation({})).replace('"start":9', '"start":18446744073709551616')), [["/claims/0/citations/0/start", "wrong_type"]]);
  assert.deepEqual(issue(withCitation({ start: -1 })), [["/claims/0/citations/0/start", "too_small"]]);
  assert.deepEqual(issue(withCitation({ start: "9" })), [["/claims/0/citations/0/start", "wrong_type"]]);
  assert.deepEqual(issue(withCitation({ start: true })), [["/claims/0/citations/0/start", "wrong_type"]]);
  assert.deepEqual(issue("[".repeat(100000) + "]".repeat(100000)), [["", "too_deep"]]);
});

test("a 50 MB report is refused before it is read, and memory stays flat", () => {
  // The reference policy's 16 MiB of JSON.
  const reference = { policy: "reference" };
  const big = JSON.stringify({ ...bundle.report, title: "x".repeat(50 * 1024 * 1024) });
  const before = ec.wasmMemoryBytes();
  assert.throws(() => ec.parseReport(big, reference), (e) => e.issues[0].code === "input_too_large");
  assert.throws(() => ec.checkBundle({ ...bundle, report: JSON.parse(big) }, reference), (e) => e.issues[0].code === "input_too_large");
  assert.equal(ec.wasmMemoryBytes(), before, "the text was not copied into wasm memory");
  // Raised explicitly, the same limit admits it (and the title rule then refuses it).
  assert.throws(() => ec.checkBundle({ ...bundle, report: JSON.parse(big) }, { ...reference, maxInputBytes: 60 * 1024 * 1024 }), (e) => e.issues[0].path === "/report/title");
});

test("memory: 100,000 checkBundle calls and 10,000 stores leave wasm memory flat", () => {
  const text = JSON.stringify(bundle);
  for (let i = 0; i < 2000; i++) ec.checkBundle(text, { now: NOW });
  const before = ec.wasmMemoryBytes();
  for (let i = 0; i < 100000; i++) ec.checkBundle(text, { now: NOW });
  for (let i = 0; i < 10000; i++) {
    const s = new ec.EvidenceStore(specs, { now: NOW });
    s.ingest(scope, "plan_a", bundle.sources[0].content);
    s.free();
  }
  const grown = ec.wasmMemoryBytes() - before;
  assert.ok(grown < 1024 * 1024, `wasm memory grew by ${grown} bytes`);
});

test("stores dropped without free() are released by the finalizer", () => {
  const script = `
    const ec = require(${JSON.stringify(join(PKG, "node", "evidence_check.js"))});
    const specs = ${JSON.stringify(specs)}, scope = ${JSON.stringify(scope)}, content = ${JSON.stringify(bundle.sources[0].content.repeat(200))};
    const round = () => { for (let i = 0; i < 2000; i++) new ec.EvidenceStore(specs).ingest(scope, "plan_a", content); };
    (async () => {
      round(); global.gc(); await new Promise((r) => setTimeout(r, 50)); global.gc(); await new Promise((r) => setTimeout(r, 50));
      const before = ec.wasmMemoryBytes();
      for (let k = 0; k < 5; k++) { round(); global.gc(); await new Promise((r) => setTimeout(r, 50)); }
      console.log(ec.wasmMemoryBytes() - before);
    })();`;
  const r = spawnSync(process.execPath, ["--expose-gc", "-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const grown = Number(r.stdout.trim());
  assert.ok(grown < 1024 * 1024, `wasm memory grew by ${grown} bytes over 10,000 dropped stores`);
});

test("trust boundaries: another tenant, a report that carries its own review state, a review of an edited report", () => {
  const store = new ec.EvidenceStore(specs, { now: NOW });
  const ref = store.ingest(scope, "plan_a", bundle.sources[0].content);
  const other = { tenant_id: "other", user_id: scope.user_id };
  // Another tenant is told only that this scope has no snapshot: the same answer as for a source nobody ingested.
  assert.throws(() => store.get(other, ref), (e) => e.code === "source_not_ingested" && e.detail.source_id === "plan_a");
  const cite = bundle.report.claims[0].citations[0];
  assert.throws(() => store.checkCitation({ ...scope, user_id: "someone" }, cite), (e) => e.code === "source_not_ingested");
  // A model cannot mark its own claims reviewed: unknown fields are refused.
  assert.throws(
    () => ec.parseReport({ ...bundle.report, status: "reviewed_candidate", claims: bundle.report.claims.map((c) => ({ ...c, state: "supported", review: { verdict: "supported" } })) }),
    (e) => e.issues.some((i) => i.path === "/status" && i.code === "extra_field") && e.issues.some((i) => i.path === "/claims/0/state"),
  );
  // Reviews recorded for the report do not carry over to an edited one.
  const edited = { ...bundle.report, claims: [{ ...bundle.report.claims[0], text: "教学说明称方案 A 完全支持离线整理。" }, ...bundle.report.claims.slice(1)] };
  // checkBundle reports them (issue 14) and counts none: every reviewed claim is pending again.
  const reported = ec.checkBundle({ ...bundle, report: edited }).assessment;
  assert.ok(reported.issues.length > 0 && reported.issues.every((i) => i.code === "review_stale_digest"), JSON.stringify(reported.issues));
  assert.ok(!Object.values(reported.claims).some((s) => s === "supported" || s === "contradicted"));
  assert.throws(() => ec.assess(scope, edited, store, bundle.reviews), (e) => e.code === "review_mismatch");
});

// ---- poisoned arguments: the caller's code throwing inside a binding call ----------------

const throwing = () => new Proxy({}, { get() { throw new Error("trap"); }, ownKeys() { throw 1; }, getOwnPropertyDescriptor() { throw 1; }, getPrototypeOf() { throw 1; } });
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const baseline = JSON.stringify(ec.checkBundle(bundle, { now: NOW }));
const instanceWorks = () => JSON.stringify(ec.checkBundle(bundle, { now: NOW })) === baseline;
const coded = (call, label) => {
  try {
    call();
  } catch (e) {
    assert.ok(e instanceof Error && e.code === "invalid_argument", `${label}: ${e?.name}/${e?.code}: ${e?.message ?? e}`);
    return e;
  }
  assert.fail(`${label}: accepted`);
};

test("5,000 poisoned calls of each kind leave the instance and the store working", () => {
  const store = new ec.EvidenceStore(specs, { now: NOW });
  const ref = store.ingest(scope, "plan_a", bundle.sources[0].content);
  const undef = { toJSON() { return undefined; } };
  const kinds = {
    "store.get with toJSON -> undefined": () => store.get(undef, ref),
    "parseReport with toJSON -> undefined": () => ec.parseReport(undef),
    "checkBundle with a Proxy whose ownKeys throws as options": () => ec.checkBundle(bundle, new Proxy({}, { ownKeys() { throw 1; } })),
    "a toJSON that throws": () => ec.reportDigest({ toJSON() { throw new Error("no"); } }),
    "a toJSON that returns a symbol": () => store.checkCitation(scope, { toJSON() { return Symbol("s"); } }),
    "a getter that throws in the report": () => ec.parseReport({ ...bundle.report, get title() { throw new Error("getter"); } }),
    "a getter that throws in the options": () => ec.checkBundle(bundle, { get now() { throw new Error("getter"); } }),
    "a getter that throws in the store's options": () => new ec.EvidenceStore(specs, { get lang() { throw 1; } }),
    "a Proxy as scope of ingest": () => store.ingest(throwing(), "plan_a", "x"),
    "a Proxy as read result": () => store.ingestReadResult(scope, "plan_a", throwing()),
    "a Proxy as specs": () => new ec.EvidenceStore(throwing()),
    "a Proxy as reviews": () => ec.assess(scope, bundle.report, store, throwing()),
    "a Proxy as render options": () => ec.render(scope, bundle.report, store, [], throwing()),
    "a Proxy whose ownKeys throws as render options": () => ec.render(scope, bundle.report, store, [], new Proxy({}, { ownKeys() { throw 1; } })),
    "a Proxy whose get throws as record options": () => ec.recordReview(scope, bundle.report, "claim_a", "supported", "n", new Proxy({ now: NOW }, { get() { throw 1; } })),
    "a Proxy whose get throws as report": () => ec.parseReport(new Proxy({}, { get() { throw 1; } })),
    "a revoked Proxy as report": () => ec.parseReport(revoked()),
    "a revoked Proxy as options": () => ec.checkBundle(bundle, revoked()),
    "a revoked Proxy as a catalogue": () => ex.checkExcerpt(revoked(), { item_id: "i", sha256: "", line: 1, quote: "", text: "" }),
    "a Proxy as quoteRange options": () => store.quoteRange(scope, ref, 0, 1, "c", throwing()),
    "a Proxy as review options": () => ec.recordReview(scope, bundle.report, "claim_a", "supported", "n", throwing()),
    "a Proxy as a document list": () => ex.checkExcerpt(throwing(), { item_id: "i", sha256: "", line: 1, quote: "", text: "" }),
    "a Proxy as a task": () => ex.finalize(throwing(), [], { status: "abstain" }),
    "a Proxy as an annotation": () => ex.fromWebAnnotation(throwing()),
    "a Proxy as schema options": () => ex.reportJsonSchema(throwing()),
    "an offset whose valueOf throws": () => ex.convertOffset("abc", { valueOf() { throw new Error("valueOf"); } }, "utf16", "utf8"),
    "a range start whose valueOf throws": () => store.quoteRange(scope, ref, { valueOf() { throw 1; } }, 2, "c"),
  };
  for (const [label, call] of Object.entries(kinds)) {
    for (let i = 0; i < 5000; i++) coded(call, label);
    // The instance and this store still work after each kind.
    assert.ok(instanceWorks(), label);
    assert.deepEqual(store.get(scope, ref).ref, ref, label);
  }
  // Something else passed where a store is expected is refused in JavaScript, before
  // wasm is entered, with a coded invalid_argument: it cannot poison anything either.
  const notStores = {
    "a throwing Proxy": throwing(),
    "a revoked Proxy": revoked(),
    "a plain object": {},
    "a Proxy of the store whose get throws": new Proxy(store, { get() { throw 1; } }),
    "a Proxy whose getPrototypeOf throws": new Proxy({}, { getPrototypeOf() { throw 1; } }),
    "undefined": undefined,
  };
  const storeCalls = {
    assess: (s) => ec.assess(scope, bundle.report, s),
    render: (s) => ec.render(scope, bundle.report, s, [], { now: NOW }),
    toWebAnnotations: (s) => ec.toWebAnnotations(scope, bundle.report, s),
    locateCitations: (s) => ec.locateCitations(scope, bundle.report, s),
  };
  for (const [what, s] of Object.entries(notStores)) {
    for (const [name, call] of Object.entries(storeCalls)) {
      for (let i = 0; i < 500; i++) coded(() => call(s), `${name} given ${what}`);
    }
  }
  assert.ok(instanceWorks());
  assert.equal(ec.assess(scope, bundle.report, store).report_digest, ec.reportDigest(bundle.report));
  // The store can still be written, closed and freed.
  const ref2 = store.ingest(scope, "plan_b", bundle.sources[1].content);
  assert.equal(store.quote(scope, ref2, bundle.sources[1].content.slice(0, 12), "c").quote, bundle.sources[1].content.slice(0, 12));
  store.close();
  assert.throws(() => store.ingest(scope, "plan_a", "x"), (e) => e.code === "store_closed");
  store.free();
  assert.throws(() => store.get(scope, ref), (e) => e.code === "store_freed");
});

test("the caller's code may call the same store while an argument is read", () => {
  const store = new ec.EvidenceStore(specs, { now: NOW });
  const ref = store.ingest(scope, "plan_a", bundle.sources[0].content);
  let inner;
  const sneaky = { get tenant_id() { inner = store.get(scope, ref); store.ingest(scope, "plan_b", "b"); return scope.tenant_id; }, user_id: scope.user_id };
  for (let i = 0; i < 5000; i++) assert.deepEqual(store.get(sneaky, ref).ref, ref);
  assert.deepEqual(inner.ref, ref);
  // Freed from inside a getter, the outer call reports it with its code.
  const freeing = { get tenant_id() { store.free(); return scope.tenant_id; }, user_id: scope.user_id };
  assert.throws(() => store.ingest(freeing, "plan_a", "x"), (e) => e.code === "store_freed");
  assert.ok(instanceWorks());
});

test("every call after free() throws a coded store_freed; free() twice does nothing", () => {
  const store = new ec.EvidenceStore(specs, { now: NOW });
  const ref = store.ingest(scope, "plan_a", bundle.sources[0].content);
  store.free();
  store.free();
  const cite = bundle.report.claims[0].citations[0];
  const calls = {
    ingest: () => store.ingest(scope, "plan_a", "x"),
    ingestReadResult: () => store.ingestReadResult(scope, "plan_a", { status: "ok", data: { filename: "plan_a.md", content: "x" } }),
    get: () => store.get(scope, ref),
    checkCitation: () => store.checkCitation(scope, cite),
    quote: () => store.quote(scope, ref, "x", "c"),
    quoteRange: () => store.quoteRange(scope, ref, 0, 1, "c"),
    remove: () => store.remove(scope, "plan_a"),
    close: () => store.close(),
    assess: () => ec.assess(scope, bundle.report, store),
    render: () => ec.render(scope, bundle.report, store, [], { now: NOW }),
    toWebAnnotations: () => ec.toWebAnnotations(scope, bundle.report, store),
  };
  for (const [name, call] of Object.entries(calls)) {
    for (let i = 0; i < 500; i++) {
      assert.throws(call, (e) => e instanceof ec.errorClasses().EvidenceError && e.code === "store_freed", name);
    }
  }
  const zh = new ec.EvidenceStore(specs, { lang: "zh" });
  zh.free();
  assert.throws(() => zh.get(scope, ref), (e) => e.message === "证据存储已释放(free),不能再使用。");
  const en = new ec.EvidenceStore(specs, { lang: "en" });
  en.free();
  assert.throws(() => en.close(), (e) => e.message === "The evidence store was freed; it cannot be used any more.");
  if (Symbol.dispose) {
    const s = new ec.EvidenceStore(specs);
    s[Symbol.dispose]();
    assert.throws(() => s.get(scope, ref), (e) => e.code === "store_freed");
  }
});

test("ingest refuses an oversize text before copying it into wasm memory", () => {
  // The reference policy's 24,000 bytes a source.
  const store = new ec.EvidenceStore(specs, { now: NOW, policy: "reference" });
  const refusals = (mb) => {
    const huge = "x".repeat(mb * 1024 * 1024);
    const blank = " ".repeat((mb / 10) * 1024 * 1024);
    assert.throws(() => store.ingest(scope, "plan_a", huge), (e) => e.code === "source_too_large");
    // The core's order holds: an unknown source, then a blank text, before the size.
    assert.throws(() => store.ingest(scope, "nope", huge), (e) => e.code === "unknown_source");
    assert.throws(() => store.ingest(scope, "plan_a", blank), (e) => e.code === "empty_content");
    assert.throws(() => store.ingest(scope, "plan_a", blank + "y"), (e) => e.code === "source_too_large");
    return huge;
  };
  // Warmed up on texts of 1 MB (a blank text is read in bounded pieces, which may take
  // a page of memory once), then 300 MB: wasm memory does not grow.
  refusals(1);
  const before = ec.wasmMemoryBytes();
  const huge = refusals(300);
  assert.equal(ec.wasmMemoryBytes(), before, "the text was not copied into wasm memory");
  // Just over the limit in bytes but not in UTF-16 units: copied, then refused by the core.
  assert.throws(() => store.ingest(scope, "plan_a", "é".repeat(12001)), (e) => e.code === "source_too_large");
  store.close();
  assert.throws(() => store.ingest(scope, "plan_a", huge), (e) => e.code === "store_closed");
});

test("every string argument with a size limit is refused alike, and before it is copied", () => {
  // The reference policy's limits (notes of 1,000 code points).
  const store = new ec.EvidenceStore(specs, { now: NOW, policy: "reference" });
  const ref = store.ingest(scope, "plan_a", bundle.sources[0].content);
  const quote = bundle.report.claims[0].citations[0].quote;
  const calls = {
    "ingest sourceId": (v) => store.ingest(scope, v, "text"),
    "ingestReadResult sourceId": (v) => store.ingestReadResult(scope, v, { status: "ok", data: { filename: "plan_a.md", content: "x" } }),
    "remove sourceId": (v) => store.remove(scope, v),
    "quote citationId": (v) => store.quote(scope, ref, quote, v),
    "quoteRange citationId": (v) => store.quoteRange(scope, ref, 0, 1, v),
    "recordReview claimId": (v) => ec.recordReview(scope, bundle.report, v, "supported", "n", { now: NOW, policy: "reference" }),
    "recordReview verdict": (v) => ec.recordReview(scope, bundle.report, "claim_a", v, "n", { now: NOW, policy: "reference" }),
    "recordReview note": (v) => ec.recordReview(scope, bundle.report, "claim_a", "supported", v, { now: NOW, policy: "reference" }),
    "checkBundle options.now": (v) => ec.checkBundle(bundle, { now: v }),
    "store options.now": (v) => new ec.EvidenceStore(specs, { now: v }),
  };
  const outcome = (call, v) => {
    try {
      return ["accepted", JSON.stringify(call(v))];
    } catch (e) {
      return [e.code, JSON.stringify(e.issues ?? null)];
    }
  };
  // Just over every limit (ids 64 units, verdicts 12, notes 1,000 code points, now) …
  const small = Object.fromEntries(Object.entries(calls).map(([name, call]) => [name, outcome(call, "y".repeat(2003))]));
  // … and 300 MB: the same refusal, and nothing copied into wasm memory.
  const huge = "y".repeat(300 * 1024 * 1024);
  const before = ec.wasmMemoryBytes();
  for (const [name, call] of Object.entries(calls)) assert.deepEqual(outcome(call, huge), small[name], name);
  assert.equal(ec.wasmMemoryBytes(), before, "no argument was copied into wasm memory");
  assert.deepEqual(small["recordReview note"][0], "invalid_note");
});
