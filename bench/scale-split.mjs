// checkBundle at scale for two builds side by side in one process (bench/bench.mjs's scale
// fixture: 64 sources × 1.05 MB with CJK, astral characters and CRLF, 1000 claims × 4
// citations, render off). Each round times, for each input form (JSON text, UTF-8 bytes)
// and hashing (node:crypto), one call of each build (the order flips
// each round), every call on an input no earlier call had; and the floors: node:crypto and
// each build's digestText on the sources' texts. Prints medians of rounds, the ratio B/A,
// each check's ratio to its floor, and each build's wasm memory (`memory.buffer.byteLength`
// after the calls: wasm memory never shrinks, so this is its peak). The results of A and B
// are compared once per form (the same JSON). Copy a build first (cp -r pkg /tmp/old/pkg),
// rebuild, then:
//   A=/tmp/old/pkg B=pkg [ROUNDS=7] [SOURCES=64] [CLAIMS=1000] [BYTES=1048576] [TEXT=cjk|ascii] node --expose-gc bench/scale-split.mjs
import { createRequire } from "node:module";
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { makeBundle } from "./scale-fixture.mjs";

const require = createRequire(import.meta.url);
if (!process.env.A || !process.env.B) throw new Error("A=<pkg dir> B=<pkg dir>: two builds to compare");
// Each build's wasm memory: the glue instantiates its module with `new WebAssembly.Instance`.
const memories = [];
const Instance = WebAssembly.Instance;
WebAssembly.Instance = function (module, imports) {
  const instance = new Instance(module, imports);
  if (instance.exports.memory) memories.push(instance.exports.memory);
  return instance;
};
const load = (dir) => {
  const before = memories.length;
  const ec = require(join(resolve(dir), "node", "index.js"));
  return { ec, memory: memories[before] };
};
const builds = { A: load(process.env.A), B: load(process.env.B) };
WebAssembly.Instance = Instance;

const ROUNDS = +(process.env.ROUNDS ?? 7);
const b = makeBundle(+(process.env.SOURCES ?? 64), +(process.env.CLAIMS ?? 1000), +(process.env.BYTES ?? 1024 * 1024), process.env.TEXT ?? "cjk");
const NOW = "2026-11-29T00:00:00+00:00";
const options = { now: NOW, render: false, maxSources: b.sources, maxSourceBytes: b.maxBytes + 64, maxClaims: b.claims, maxInputBytes: b.textLength * 3 };
const forms = {
  text: (i) => b.vary(i),
  bytes: (i) => Buffer.from(b.vary(i), "utf8"),
};
const hashing = { host: {} }; // (the `hostHashing: false` variant went with the option)
let calls = 0;
// Under `node --expose-gc`, garbage is collected before each timed call (untimed), so no
// call pays for the collection of an earlier call's inputs (of either build).
const collect = () => globalThis.gc?.();
const check = (name, form, hash) => {
  const input = forms[form](calls++);
  collect();
  const t = performance.now();
  const r = builds[name].ec.checkBundle(input, { ...options, ...hashing[hash] });
  const ms = performance.now() - t;
  if (r.assessment.status !== "needs_review") throw new Error(`${name}: the scale bundle is ${r.assessment.status}`);
  return ms;
};
const timed = (f) => {
  collect();
  const t = performance.now();
  f();
  return performance.now() - t;
};

// Each build's memory after its first call (text, host hashing), then the same result from both builds, for each form and hashing (one input each).
const first = {};
for (const n of ["A", "B"]) { builds[n].ec.checkBundle(forms.text(calls++), options); first[n] = builds[n].memory.buffer.byteLength; }
for (const form of Object.keys(forms)) {
  for (const hash of Object.keys(hashing)) {
    const input = forms[form](0);
    const [a, c] = ["A", "B"].map((n) => JSON.stringify(builds[n].ec.checkBundle(input, { ...options, ...hashing[hash] })));
    if (a !== c) throw new Error(`A and B differ on ${form}/${hash}`);
  }
}
console.log(`results equal (text and bytes, host hashing on and off); ${b.sources} sources, ${(b.bytes / 1e6).toFixed(1)} MB of text, ${b.claims} claims; load ${(await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ")}`);

const keys = [];
for (const form of Object.keys(forms)) for (const hash of Object.keys(hashing)) keys.push([form, hash]);
const res = { A: {}, B: {} };
const push = (name, k, ms) => ((res[name][k] ??= []).push(ms));
for (let r = -1; r < ROUNDS; r++) {
  const order = r % 2 ? ["A", "B"] : ["B", "A"];
  const texts = b.texts(calls++);
  const cryptoMs = timed(() => { for (const t of texts) createHash("sha256").update(t).digest("hex"); });
  for (const name of order) {
    const digestMs = timed(() => { for (const t of b.texts(calls++)) builds[name].ec.digestText(t); });
    if (r >= 0) push(name, "digestText floor", digestMs);
    for (const [form, hash] of keys) {
      const ms = check(name, form, hash);
      if (r >= 0) push(name, `${form} ${hash}`, ms);
    }
  }
  if (r >= 0) { push("A", "node:crypto floor", cryptoMs); push("B", "node:crypto floor", cryptoMs); }
}
const med = (xs) => { const s = [...xs].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const m = { A: {}, B: {} };
for (const n of ["A", "B"]) for (const k in res[n]) m[n][k] = med(res[n][k]);
// B/A paired by round (the load of a shared machine changes between rounds, less within one).
const paired = (k) => med(res.B[k].map((v, i) => v / res.A[k][i]));
console.log(`ms, median of ${ROUNDS} rounds`.padEnd(22), "A".padStart(9), "B".padStart(9), "B/A".padStart(7), "paired".padStart(7), "A/floor".padStart(8), "B/floor".padStart(8));
for (const k of Object.keys(m.A)) {
  const floor = k.endsWith("host") ? "node:crypto floor" : k.endsWith("module") ? "digestText floor" : null;
  const cells = [m.A[k].toFixed(1).padStart(9), m.B[k].toFixed(1).padStart(9), (m.B[k] / m.A[k]).toFixed(3).padStart(7), paired(k).toFixed(3).padStart(7)];
  if (floor) cells.push((m.A[k] / m.A[floor]).toFixed(2).padStart(8), (m.B[k] / m.B[floor]).toFixed(2).padStart(8));
  console.log(k.padEnd(22), ...cells);
}
const mib = (n) => `${(n / 2 ** 20).toFixed(0)} MiB`;
console.log(`wasm memory after the first call: A ${mib(first.A)}, B ${mib(first.B)}; after every call: A ${mib(builds.A.memory.buffer.byteLength)}, B ${mib(builds.B.memory.buffer.byteLength)}`);
