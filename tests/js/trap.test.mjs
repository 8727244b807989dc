// Issue 33, finding 4: WebAssembly memory running out. In a child process whose module
// instance is its own, the memory is grown from JS until only 48 MiB are left to the
// allocator (pages grown and never touched cost no RAM), then a store, a review list and
// a document catalogue are used until calls fail: the large copies fail softly (a coded
// `out_of_memory`, no trap), the rest trap, and every trap is a coded `out_of_memory`
// whose cause is the RuntimeError. After them the shadow stack pointer is where it was,
// no object is left "in use" by a call that never returned, each is freed by `free()`,
// and once they are, new objects give the results they gave before memory ran out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { PKG, ROOT, NOW } from "./helpers.mjs";

const CHILD = `
// The host's SHA-256 (node:crypto, which the entry loads once it pays) answers, on demand,
// with a string too large to copy back: a trap while the store holds the text it hashes.
const crypto = require("node:crypto");
const hash = crypto.hash;
let huge = false;
crypto.hash = (...args) => (huge ? "f".repeat(64 << 20) : hash(...args));
const Instance = WebAssembly.Instance;
let instance;
WebAssembly.Instance = new Proxy(Instance, { construct(t, args) { instance = Reflect.construct(t, args); return instance; } });
const ec = require(${JSON.stringify(join(PKG, "node", "index.js"))});
WebAssembly.Instance = Instance;
const demo = require(${JSON.stringify(join(ROOT, "examples", "demo.bundle.json"))});
const NOW = ${JSON.stringify(NOW)};
const { memory, __stack_pointer: sp } = instance.exports;
const expected = JSON.stringify(ec.checkBundle(demo, { now: NOW }));
const stack = sp.value;

const specs = [{ source_id: "s", title: "T", locator: "L", filename: "s.md", kind: "public" }];
const scope = (u) => ({ tenant_id: "t", user_id: "u" + u });
const store = new ec.EvidenceStore(specs, { now: NOW, policy: { extends: "documents", max_store_bytes: 4294967295 } });
const reviews = new ec.Reviews();
const catalog = new ec.DocumentCatalog();
const review = (i) => ({ scope: scope(0), report_digest: "0".repeat(64), claim_id: "k" + i, verdict: "supported", note: "n".repeat(200), reviewed_at: NOW });
const tally = {};
store.ingest(scope("warm"), "s", "w".repeat(300000));
memory.grow(65536 - memory.buffer.byteLength / 65536 - 768);
const outcome = (what, f) => {
  let r = "ok";
  try { f(); } catch (e) { r = (e.code ?? e.name) + (e.cause instanceof WebAssembly.RuntimeError ? " (trap)" : "") + (e.code === "out_of_memory" && !/\\d+ bytes/.test(e.message) ? " (no numbers)" : ""); }
  tally[what + ": " + r] = (tally[what + ": " + r] ?? 0) + 1;
  return r;
};
huge = true;
outcome("ingest (hashed)", () => store.ingest(scope("h"), "s", "h".repeat(1000)));
huge = false;
outcome("ingest again", () => store.ingest(scope("h"), "s", "h".repeat(1000)));
// The store, in ever smaller texts (a trap then comes in the copy or, once the
// copy fits, while the store holds its text: each failure leaks a little), each failure
// followed by a call on the same store; then the other objects.
let u = 0;
for (const size of [1 << 20, 1 << 18, 1 << 16, 20000, 4000, 500, 50]) {
  for (let failures = 0; failures < 20; ) {
    const text = String.fromCharCode(97 + (u % 26)).repeat(size) + u;
    if (outcome("ingest " + size, () => store.ingest(scope(u++), "s", text)) === "ok") continue;
    failures++;
    outcome("ingest again", () => store.ingest(scope(0), "s", "again"));
  }
}
for (let k = 0; k < 50; k++) {
  outcome("reviews.add", () => reviews.add(review(k)));
  outcome("catalog.import", () => catalog.import({ id: "d" + k, title: "D", body: "b".repeat(2000) + k }));
  outcome("checkBundle", () => ec.checkBundle(demo, { now: NOW }));
}
const after = {
  stack: sp.value === stack,
  free: [outcome("free", () => store.free()), outcome("free", () => reviews.free()), outcome("free", () => catalog.free())],
  check: JSON.stringify(ec.checkBundle(demo, { now: NOW })) === expected,
  store: outcome("after", () => { const s = new ec.EvidenceStore(specs, { now: NOW }); s.ingest(scope(1), "s", "hello"); s.free(); }),
  big: outcome("after", () => ec.digestText("x".repeat(10_000_000))),
  catalog: outcome("after", () => new ec.DocumentCatalog().import({ id: "d", title: "D", body: "b" })),
};
console.log(JSON.stringify({ tally, after }));
`;

test("memory running out: soft failures and traps are coded out_of_memory, and nothing is left unusable", () => {
  const r = spawnSync(process.execPath, ["-e", CHILD], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  const { tally, after } = JSON.parse(r.stdout);
  console.log(`# ${JSON.stringify(tally)}`);
  const outcomes = Object.keys(tally).map((k) => k.split(": ")[1]);
  // Every failure is out_of_memory, with numbers in its message: never a code-less
  // RuntimeError, never "in use by a call in progress" (invalid_argument).
  assert.deepEqual([...new Set(outcomes)].sort(), ["ok", "out_of_memory", "out_of_memory (trap)"]);
  // A trap while the store held its text, then the store's next call.
  assert.equal(tally["ingest (hashed): out_of_memory (trap)"], 1);
  assert.ok(tally["ingest again: ok"] >= 1);
  // The large copies fail softly; calls that allocate little trap, and are recovered.
  assert.ok(tally["ingest 1048576: out_of_memory"] >= 1, "a 1 MiB text's copy failed softly");
  for (const what of ["ingest 50", "reviews.add", "catalog.import", "checkBundle"]) {
    assert.ok(tally[`${what}: out_of_memory (trap)`] >= 1, `${what} trapped`);
  }
  assert.deepEqual(after, { stack: true, free: ["ok", "ok", "ok"], check: true, store: "ok", big: "ok", catalog: "ok" });
});

test("the web build's entry guards its functions and classes alike", () => {
  const child = `
    const Instance = WebAssembly.Instance;
    let instance;
    WebAssembly.Instance = new Proxy(Instance, { construct(t, args) { instance = Reflect.construct(t, args); return instance; } });
    const web = await import(${JSON.stringify(join(PKG, "web", "index.js"))});
    const raw = await import(${JSON.stringify(join(PKG, "web", "evidence_check.js"))});
    web.initSync({ module: (await import("node:fs")).readFileSync(${JSON.stringify(join(PKG, "web", "evidence_check_bg.wasm"))}) });
    const demo = JSON.parse((await import("node:fs")).readFileSync(${JSON.stringify(join(ROOT, "examples", "demo.bundle.json"))}, "utf8"));
    const { memory, __stack_pointer: sp } = instance.exports;
    const stack = sp.value;
    memory.grow(65536 - memory.buffer.byteLength / 65536);
    const codes = new Set();
    for (let k = 0; k < 2000 && !codes.has("out_of_memory"); k++) {
      try { new web.EvidenceStore(demo.sources.map((s) => s.spec)); web.checkBundle(demo, { now: ${JSON.stringify(NOW)} }); } catch (e) { codes.add(e.code ?? e.name); }
    }
    console.log(JSON.stringify({ codes: [...codes], stack: sp.value === stack, wrapped: web.checkBundle !== raw.checkBundle && web.EvidenceStore !== raw.EvidenceStore, internals: [web.__afterTrap, web.__trapCause, web.__stackPointer] }));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", child], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { codes: ["out_of_memory"], stack: true, wrapped: true, internals: [null, null, null] });
});
