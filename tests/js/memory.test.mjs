// Issue 33: how much WebAssembly memory a check takes, as a multiple of its input. Each
// measure is a fresh process (a fresh module instance), so the growth of the memory's
// byteLength from before the call to after it is the call's peak (wasm memory never
// shrinks). Bundles of n and 2n bytes are compared: a cost is a ratio of two sizes,
// never a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { PKG, NOW } from "./helpers.mjs";

const MIB = 1024 * 1024;

// The child: builds a bundle of one shape and about `bytes` bytes (digests by node:crypto,
// so nothing touches the module before the call), checks it, prints the growth.
const CHILD = `
const { createHash } = require("node:crypto");
const ec = require(${JSON.stringify(join(PKG, "node", "index.js"))});
const [shape, bytes, policyText, render] = process.argv.slice(1);
const policy = JSON.parse(policyText);
const digest = (text) => createHash("sha256").update(text).digest("hex");
const scope = { tenant_id: "t", user_id: "u" };
const spec = (id, title = "T", locator = "L") => ({ source_id: id, title, locator, filename: id + ".md", kind: "public" });
const cite = (id, src, content, d, start, end) => ({ citation_id: id, ref: { source_id: src, revision: 1, digest: d }, start, end, quote: content.slice(start, end) });
const claimsOf = (n, make) => Array.from({ length: Math.ceil(n / 32) }, (_, c) => ({ claim_id: "k" + c, text: "claim", kind: "fact", citations: Array.from({ length: Math.min(32, n - 32 * c) }, (_, j) => make(c, j)) }));
const shapes = {
  // Texts: sources of up to 16 MiB, one citation each.
  sources(n) {
    const per = Math.min(16 * ${MIB} - 16, n), k = Math.max(1, Math.round(n / per)), sources = [], claims = [];
    for (let i = 0; i < k; i++) {
      const content = ("word " + i + " ").repeat(per / 8 + 1).slice(0, per), d = digest(content);
      sources.push({ spec: spec("s" + i), content });
      claims.push({ claim_id: "k" + i, text: "claim", kind: "fact", citations: [cite("c" + i, "s" + i, content, d, 0, 20)] });
    }
    return { scope, sources, report: { title: "R", claims } };
  },
  // A source of line feeds (the artifact numbers the lines of each passage).
  newlines(n) {
    const content = "a" + "\\n".repeat(n / 2) + "b", d = digest(content);
    return { scope, sources: [{ spec: spec("s"), content }], report: { title: "R", claims: [{ claim_id: "k", text: "claim", kind: "fact", citations: [cite("c", "s", content, d, content.length - 1, content.length)] }] } };
  },
  // Many citations of 2,000-character quotes.
  quotes(n) {
    const content = "abcdefghij".repeat(100000), d = digest(content);
    return { scope, sources: [{ spec: spec("s"), content }], report: { title: "R", claims: claimsOf(Math.floor(n / 2200), (c, j) => { const s = (32 * c + j) % 1000; return cite("c" + c + "_" + j, "s", content, d, s, s + 2000); }) } };
  },
  // Many one-character citations of a source whose title and locator are invisible
  // characters: each citation's passage is about 5 KiB of artifact for 160 bytes of input.
  artifact(n) {
    const content = "abcdefghij".repeat(1000), d = digest(content);
    return { scope, sources: [{ spec: spec("s", "\\u200b".repeat(120), "\\u200b".repeat(300)), content }], report: { title: "R", claims: claimsOf(Math.floor(n / 160), (c, j) => cite("c" + c + "_" + j, "s", content, d, j, j + 1)) } };
  },
  // Many claims without citations (the documents policy allows 2,000: the rest are refused).
  claims(n) {
    const content = "abcdefghij".repeat(1000);
    return { scope, sources: [{ spec: spec("s"), content }], report: { title: "R", claims: Array.from({ length: Math.floor(n / 48) }, (_, k) => ({ claim_id: "k" + k, text: "claim", kind: "fact" })) } };
  },
  // Many sources of two characters, each cited once (past 256 sources, refused).
  sources_tiny(n) {
    const d = digest("ab"), count = Math.floor(n / 250);
    return { scope, sources: Array.from({ length: count }, (_, i) => ({ spec: spec("s" + i), content: "ab" })), report: { title: "R", claims: Array.from({ length: count }, (_, i) => ({ claim_id: "k" + i, text: "claim", kind: "fact", citations: [cite("c" + i, "s" + i, "ab", d, 0, 1)] })) } };
  },
  // Claims that are arrays of arrays, or objects of objects: read, then refused.
  nested(n) {
    return { scope, sources: [], report: { title: "R", claims: Array.from({ length: Math.floor(n / 17) }, () => [[[[[[[[]]]]]]]]) } };
  },
  objects(n) {
    return { scope, sources: [], report: { title: "R", claims: Array.from({ length: Math.floor(n / 21) }, () => ({ a: { b: { c: {} } } })) } };
  },
  // Many small reviews.
  reviews(n) {
    const content = "abcdefghij".repeat(1000), d = digest(content);
    const review = { scope, report_digest: "0".repeat(64), claim_id: "k0", verdict: "supported", note: "n", reviewed_at: ${JSON.stringify(NOW)} };
    return { scope, sources: [{ spec: spec("s"), content }], report: { title: "R", claims: claimsOf(1, () => cite("c", "s", content, d, 0, 3)) }, reviews: Array.from({ length: Math.floor(n / 190) }, () => review) };
  },
};
const text = JSON.stringify(shapes[shape](Number(bytes)));
const before = ec.wasmMemoryBytes();
let result;
try {
  const r = ec.checkBundle(text, { now: ${JSON.stringify(NOW)}, policy, render: render === "render" });
  result = r.render_error?.code ?? r.assessment.status;
} catch (e) {
  result = e.code;
}
console.log(JSON.stringify({ input: Buffer.byteLength(text), grown: ec.wasmMemoryBytes() - before, result }));`;

function measure(shape, bytes, { policy = "documents", render = true } = {}) {
  const r = spawnSync(process.execPath, ["-e", CHILD, shape, String(bytes), JSON.stringify(policy), render ? "render" : "no"], { encoding: "utf8", maxBuffer: 1 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** n and 2n: the growth of each, and the slope between them (bytes of memory per byte of input). */
function pair(shape, bytes, options) {
  const [a, b] = [measure(shape, bytes, options), measure(shape, 2 * bytes, options)];
  const slope = (b.grown - a.grown) / (b.input - a.input);
  console.log(`# ${shape}: ${a.input} bytes -> ${a.grown} (${(a.grown / a.input).toFixed(2)}x), ${b.input} -> ${b.grown} (${(b.grown / b.input).toFixed(2)}x); slope ${slope.toFixed(2)}; ${a.result}, ${b.result}`);
  return { a, b, slope };
}

// The quotes' artifacts are rendered whole at both sizes (under a larger artifact limit):
// for small bundles the read takes the most, for large ones the render, and a pair on
// each side of that point would measure the change of phase, not what a byte adds.
const WHOLE_ARTIFACTS = { extends: "documents", max_artifact_bytes: 48 * MIB, max_artifact_chars: 48 * MIB };
for (const [shape, bytes, policy] of [["sources", 4 * MIB], ["newlines", 8 * MIB], ["quotes", 8 * MIB, WHOLE_ARTIFACTS]]) {
  test(`texts (${shape}): peak wasm memory is under 4x the input, and so is each added byte's`, () => {
    const { a, b, slope } = pair(shape, bytes, { policy });
    for (const m of [a, b]) {
      assert.equal(m.result, "needs_review");
      assert.ok(m.grown <= 4 * m.input + 2 * MIB, `${m.grown} bytes for ${m.input} bytes of input`);
    }
    assert.ok(slope <= 4, `slope ${slope}`);
  });
}

test("an oversize artifact takes no more memory than its limit: rendering it adds the limit, not 30x the input", () => {
  // Checked with and without rendering; the artifact would be about 30 times the input.
  const policy = { extends: "documents", max_artifact_bytes: MIB, max_artifact_chars: MIB };
  for (const bytes of [2 * MIB, 4 * MIB]) {
    const [read, rendered] = [measure("artifact", bytes, { policy, render: false }), measure("artifact", bytes, { policy })];
    console.log(`# artifact: ${read.input} bytes of input, ${read.grown} bytes read, ${rendered.grown} read and rendered (${rendered.result})`);
    assert.equal(rendered.result, "artifact_too_large");
    assert.ok(rendered.grown - read.grown <= 2 * MIB, `rendering added ${rendered.grown - read.grown} bytes under a limit of ${MIB}`);
  }
});

// The multiple of the input that a check of many small objects may take (docs/security.md).
const SMALL_OBJECTS = 4;

test(`many small objects (citations, claims, sources, reviews; nested lists and objects refused): peak wasm memory is under ${SMALL_OBJECTS}x the input, and so is each added byte's`, () => {
  // The JSON reader keeps 12 bytes per value and key (src/json.rs), and at most one
  // value per 12 bytes of input beyond its first budget.
  for (const shape of ["artifact", "claims", "sources_tiny", "nested", "objects"]) smallObjectsWithin(shape, SMALL_OBJECTS);
});

// Each stale review is an issue holding its subject, its message and both digests (src/assess.rs).
const REVIEW_ISSUES = 5.5;

test(`reviews that are each an issue of the assessment take what the issues take, under ${REVIEW_ISSUES}x`, () => {
  smallObjectsWithin("reviews", REVIEW_ISSUES);
});

function smallObjectsWithin(shape, multiple) {
  const { a, b, slope } = pair(shape, 2 * MIB, { render: false });
  for (const m of [a, b]) assert.ok(m.grown <= multiple * m.input + 2 * MIB, `${shape}: ${m.grown} bytes for ${m.input}`);
  assert.ok(slope <= multiple, `${shape}: slope ${slope}`);
}

// Issue 33 (low): a string under a limit in UTF-16 units but over it in UTF-8 bytes.
const UTF8_CHILD = `
const ec = require(${JSON.stringify(join(PKG, "node", "index.js"))});
const [units, what] = process.argv.slice(1).map((v, i) => (i === 0 ? Number(v) : v));
const text = "é".repeat(units);
const before = ec.wasmMemoryBytes();
let e;
try {
  if (what === "ingest") new ec.EvidenceStore([{ source_id: "s", title: "T", locator: "L", filename: "s.md", kind: "public" }], { policy: "documents" }).ingest({ tenant_id: "t", user_id: "u" }, "s", text);
  else ec.parseReport(JSON.stringify({ title: text, claims: [] }), { policy: { extends: "documents", max_input_bytes: 16 * ${MIB} } });
} catch (err) { e = err; }
console.log(JSON.stringify({ grown: ec.wasmMemoryBytes() - before, code: e?.code, size: e?.detail?.size, message: e?.issues?.[0]?.message ?? e?.message }));`;

test("a string under its limit in UTF-16 units but over it in UTF-8 bytes is refused by its exact size before it is copied", () => {
  for (const what of ["ingest", "parseReport"]) {
    // 10 and 15 million units of é: 20 and 30 MB of UTF-8, over the 16 MiB limit.
    const runs = [10_000_000, 15_000_000].map((units) => {
      const r = spawnSync(process.execPath, ["-e", UTF8_CHILD, String(units), what], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      return { units, ...JSON.parse(r.stdout) };
    });
    for (const r of runs) {
      console.log(`# ${what}: ${r.units} units (${2 * r.units} bytes): ${r.code}, memory grew by ${r.grown}`);
      // Measured before anything is allocated (a string over a third of its limit in units).
      assert.ok(r.grown <= MIB, `${what}: memory grew by ${r.grown} bytes for a refusal`);
      if (what === "ingest") assert.deepEqual([r.code, r.size], ["source_too_large", 2 * r.units]);
      else assert.ok(r.code === "contract" && r.message.includes(`the input is ${2 * r.units + 24} bytes`), r.message);
    }
    // Half again as long costs no more.
    assert.ok(runs[1].grown <= runs[0].grown, `${runs[0].grown} then ${runs[1].grown}`);
  }
});
