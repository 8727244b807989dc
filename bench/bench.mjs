// make bench: the benchmark suite on the built package (pkg/node). Prints a table and
// writes target/bench.json. BENCH_QUICK=1 runs a reduced version in under a minute.
// Every figure is a median of repeated runs; every ratio is measured in this run.
// No result can come from a cache: every timed call of the sections below gets an input
// that differs from the previous ones (see `stamp`: a bundle's first source gets a new
// `fetched_at`, a hashed text a new trailing tag), prepared before the clock starts.
import { createRequire } from "node:module";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { makeBundle, stamp } from "./scale-fixture.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
// The Node entry, as `require("evidence-check")` loads it: node:crypto is registered as the
// module's SHA-256 for large sources (host hashing).
const ec = require(join(ROOT, "pkg", "node", "index.js"));
// A second instance of the raw module with no host SHA-256 registered: every text hashed
// in the module (what `hostHashing: false` did).
const moduleOnly = (() => {
  const raw = join(ROOT, "pkg", "node", "evidence_check.js");
  delete require.cache[require.resolve(raw)];
  return require(raw);
})();
const QUICK = process.env.BENCH_QUICK === "1";
const NOW = "2026-11-29T00:00:00+00:00";
const REPEATS = QUICK ? 3 : 7;
const out = { quick: QUICK, machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? "?", memory_gib: Math.round(totalmem() / 2 ** 30), node: process.version }, results: {} };

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Median wall time (ms) of `fn` over `repeats` runs, after one warm-up. */
function time(fn, repeats = REPEATS) {
  fn();
  const ms = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}
const log = (s) => process.stderr.write(s + "\n");

let calls = 0;
/** Medians (ms) of several measurements taken in turn, round by round, each after one
 * untimed warm-up, so a drift of the machine's speed during the run weighs on each alike:
 * `runs` are `[prepare, run]` pairs, each timing `run(prepare(i))` (`prepare` untimed). */
function timeInterleaved(runs, repeats = REPEATS) {
  for (const [prepare, run] of runs) run(prepare(calls++));
  const ms = runs.map(() => []);
  for (let i = 0; i < repeats; i++) {
    runs.forEach(([prepare, run], k) => {
      const input = prepare(calls++);
      const t = performance.now();
      run(input);
      ms[k].push(performance.now() - t);
    });
  }
  return ms.map(median);
}
/** Median wall time (ms) of `run(prepare(i))` over `repeats` runs after one warm-up; `prepare` is not timed. */
const timeVaried = (prepare, run, repeats = REPEATS) => timeInterleaved([[prepare, run]], repeats)[0];

// ---- 1. seed-sized reports: every golden case through the JS API vs the reference ----

/** `now` for iteration `i`: a different second each time, so no result could be reused. */
const nowAt = (i) => {
  const s = i % 86400;
  const two = (n) => String(n).padStart(2, "0");
  return `2026-11-29T${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}+00:00`;
};

/** One golden case step by step, as a host would (true when it got past the store and
 * parseReport, as bench/core-alone's count): `handle` keeps parseReport's
 * ReportHandle and a Reviews list; `plain` passes the report and reviews as objects (each
 * call reads them again). Iteration `i` varies the report's title (a suffix; every title
 * of the cases stays valid) and `now`, so no digest or result could be reused. */
function replay(c, i, handle) {
  const scope = c.scope;
  const now = nowAt(i);
  let store, parsed, reviews;
  try {
    store = new ec.EvidenceStore(c.specs ?? [], { now });
  } catch {
    return;
  }
  try {
    for (const step of c.ingest ?? []) {
      try {
        if (step.remove) store.remove(scope, step.remove);
        else if (step.read_result) store.ingestReadResult(scope, step.source_id, step.read_result);
        else store.ingest(scope, step.source_id, step.content);
      } catch {}
    }
    for (const id of c.remove ?? []) store.remove(scope, id);
    const input = typeof c.report?.title === "string" ? { ...c.report, title: `${c.report.title} #${i}` } : c.report;
    try {
      parsed = ec.parseReport(JSON.stringify(input));
    } catch {
      return;
    }
    const report = handle ? parsed : input;
    const rscope = c.report_scope ?? scope;
    reviews = handle ? new ec.Reviews() : [];
    for (const r of c.reviews ?? []) {
      try {
        const review = ec.recordReview(r.scope ?? rscope, r.report ?? report, r.claim_id, r.verdict, r.note, { now });
        if (handle) reviews.add(review);
        else reviews.push(review);
      } catch {}
    }
    try {
      ec.assess(rscope, report, store, reviews);
    } catch {}
    if (c.render) {
      try {
        ec.render(rscope, report, store, reviews, { now });
      } catch {}
    }
    return true;
  } finally {
    store.close();
    store.free();
    parsed?.free();
    if (handle) reviews?.free();
  }
}

const CORE_ALONE = join(ROOT, "target", "core-alone", "pkg", "evidence_check_core_alone.js");

/** bench/core-alone's module with `cases` loaded, or null when it is not built:
 * `run(start, rounds, host)` replays every case `rounds` times and returns how many got
 * through (`through`: of one round; `seed` checks it against the JS replay's). */
function coreAlone(cases) {
  if (!existsSync(CORE_ALONE)) return null;
  const { hash } = require("node:crypto");
  globalThis.__evidenceCheckCoreAloneHash = typeof hash === "function" ? (bytes) => hash("sha256", bytes, "hex") : (bytes) => createHash("sha256").update(bytes).digest("hex");
  const m = require(CORE_ALONE);
  const n = m.load(JSON.stringify(cases));
  if (n !== cases.length) throw new Error(`bench/core-alone read ${n} cases of ${cases.length}`);
  const through = m.run(0, 1, true);
  if (through === 0) throw new Error("bench/core-alone: no case got through");
  return { run: m.run, cases: n, through };
}

function seed() {
  const dir = join(ROOT, "tests", "data", "reference", "cases");
  const cases = readdirSync(dir).sort().map((f) => JSON.parse(readFileSync(join(dir, f), "utf8"))).filter((c) => c.op !== "quote");
  const seconds = QUICK ? 0.5 : 2;
  let i = 0;
  /** Cases per second of one `seconds`-long slice of the replay. */
  const replaySlice = (handle) => {
    let n = 0;
    const t = performance.now();
    while (performance.now() - t < seconds * 1000) {
      for (const c of cases) replay(c, i++, handle);
      n += cases.length;
    }
    return n / ((performance.now() - t) / 1000);
  };
  // The demo as one checkBundle call (what a pipeline does), against the reference on
  // the same inputs (its case 02: same sources, report and reviews, rendered).
  // Each call's demo text differs in its first source's fetched_at (prepared before the
  // clock starts), so no cache could help.
  const demo = JSON.parse(readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8"));
  const demoText = (i) => JSON.stringify({ ...demo, sources: demo.sources.map((s, k) => (k === 0 ? { ...s, fetched_at: stamp(i) } : s)) });
  // The same replay inside the module (bench/core-alone, built by `make bench`): the cases
  // go in once, then each call replays them all with run numbers from `i` (each run gives
  // every report its own title and the store its own clock, as `replay` above does), with
  // node:crypto hashing texts of 128 bytes or more, as the Node entry has it. No JS runs
  // between the steps: what the module's own work costs, the ceiling of the replay's ratio.
  const inside = coreAlone(cases);
  if (inside) {
    const through = cases.filter((c) => replay(c, i++, true) === true).length;
    if (through !== inside.through) throw new Error(`bench/core-alone: ${inside.through} cases got through, the JS replay ${through}`);
  }
  const insideSlice = () => {
    let n = 0;
    const t = performance.now();
    while (performance.now() - t < seconds * 1000) {
      inside.run(i, 1, true);
      i += inside.cases;
      n += inside.cases;
    }
    return n / ((performance.now() - t) / 1000);
  };
  const perSlice = QUICK ? 500 : 2000;
  /** Calls per second of `run` over `perSlice` demo texts made before the clock starts. */
  const demoSlice = (run) => {
    const inputs = Array.from({ length: perSlice }, () => demoText(calls++));
    const t = performance.now();
    for (const input of inputs) run(input);
    return perSlice / ((performance.now() - t) / 1000);
  };
  const checkBundleSlice = () => demoSlice((text) => ec.checkBundle(text, { now: NOW }));
  // The demo's floor as issue 15 names it (`demoFloor`), timed in the same rounds as the
  // reference's case: the ratio a call at its floor would have.
  const floorSlice = () => demoSlice(demoFloor);
  // The reference, one slice a process (`seconds` after a warm-up of its own, untimed).
  const python = process.env.REFERENCE_PYTHON ?? join(ROOT, ".venv", "bin", "python");
  const refDir = process.env.REFERENCE_DIR ?? join(ROOT, "..", "shared", "reference");
  const haveRef = existsSync(python) && existsSync(join(refDir, "reference_cli.py"));
  const one = mkdtempSync(join(tmpdir(), "evidence-check-case02-"));
  writeFileSync(join(one, "02.json"), readFileSync(join(dir, "02_demo_reviewed_render.json")));
  const refSlice = (casesDir) => JSON.parse(execFileSync(python, [join(ROOT, "bench", "reference_bench.py"), refDir, casesDir, String(seconds), "1", "0.3"], { encoding: "utf8" })).reports_per_sec;
  // Warm up first (the module's code is optimised after its first calls), untimed.
  for (const t = performance.now(); performance.now() - t < 1000; ) ec.checkBundle(demoText(calls++), { now: NOW });
  for (const handle of [true, false]) for (const t = performance.now(); performance.now() - t < 300; ) for (const c of cases) replay(c, i++, handle);
  if (inside) for (const t = performance.now(); performance.now() - t < 300; i += inside.cases) inside.run(i, 1, true);
  // Every figure is taken in slices, in turn with the reference's, round by round (the
  // order flips each round), and each ratio is the median of the rounds' ratios: this
  // machine's speed drifts within minutes, and a ratio of two figures taken minutes apart
  // measured the drift as much as the code.
  const rounds = [];
  for (let r = 0; r < REPEATS; r++) {
    const ours = () => ({ handle: replaySlice(true), plain: replaySlice(false), demo: checkBundleSlice(), demoFloor: floorSlice(), ...(inside ? { inside: insideSlice() } : {}) });
    const theirs = () => (haveRef ? { ref: refSlice(dir), refDemo: refSlice(one) } : {});
    rounds.push(r % 2 ? { ...theirs(), ...ours() } : { ...ours(), ...theirs() });
  }
  rmSync(one, { recursive: true, force: true });
  const col = (f) => median(rounds.map(f));
  const result = { cases: cases.length, check_bundle_per_sec: col((x) => x.demo), js_reports_per_sec: col((x) => x.handle), js_plain_reports_per_sec: col((x) => x.plain) };
  if (inside) {
    result.inside_module_reports_per_sec = col((x) => x.inside);
    result.js_api_over_inside_module = col((x) => x.inside / x.handle);
  } else {
    result.inside_module = `not run: no ${CORE_ALONE} (make bench builds it)`;
  }
  // The replay's floor as issue 15 names it: per case, one parse of the report's JSON text
  // (V8's JSON.parse) and the SHA-256 digests the contract requires (each ingested text and
  // the report, by node:crypto), with the same varied titles.
  const floorCase = (c, i) => {
    for (const step of c.ingest ?? []) if (typeof step.content === "string") createHash("sha256").update(step.content).digest("hex");
    if (c.report === undefined) return;
    const text = JSON.stringify(typeof c.report?.title === "string" ? { ...c.report, title: `${c.report.title} #${i}` } : c.report);
    JSON.parse(text);
    createHash("sha256").update(text).digest("hex");
  };
  result.floor_reports_per_sec = rate(() => null, () => cases.forEach((c) => floorCase(c, calls++)), QUICK ? 50 : 200) * cases.length;
  if (haveRef) {
    result.reference_reports_per_sec = col((x) => x.ref);
    result.ratio = col((x) => x.handle / x.ref);
    result.plain_ratio = col((x) => x.plain / x.ref);
    result.reference_demo_per_sec = col((x) => x.refDemo);
    result.check_bundle_ratio = col((x) => x.demo / x.refDemo);
    result.ratio_rounds = rounds.map((x) => +(x.handle / x.ref).toFixed(2));
    result.check_bundle_ratio_rounds = rounds.map((x) => +(x.demo / x.refDemo).toFixed(2));
    result.demo_floor_ratio = col((x) => x.demoFloor / x.refDemo);
    if (inside) {
      result.inside_module_ratio = col((x) => x.inside / x.ref);
      result.inside_module_ratio_rounds = rounds.map((x) => +(x.inside / x.ref).toFixed(2));
    }
  } else {
    result.reference = `not run: no ${existsSync(python) ? "reference at " + refDir : "Python at " + python}`;
  }
  return result;
}

// ---- 2. scale: large generated bundles against the hashing floors ---------------------

function scaleRun(b) {
  const options = { now: NOW, render: false, maxSources: b.sources, maxSourceBytes: b.maxBytes + 64, maxClaims: b.claims, maxInputBytes: b.textLength * 3 };
  const check = (m) => (text) => {
    const r = m.checkBundle(text, options);
    if (r.assessment.status !== "needs_review") throw new Error(`scale bundle is ${r.assessment.status}: ${JSON.stringify(r.assessment.issues[0])}`);
  };
  // The check and its floors in turn, round by round (see timeInterleaved).
  // The last floor is one parse of the same bundle text, as V8's own JSON.parse costs
  // (issue 15: a miss is to be shown against "the SHA-256 digests the contract requires,
  // and one parse"); the check must also copy the text into wasm memory, JSON.parse not.
  const [hosted, inModule, cryptoFloor, digestFloor, parseFloor] = timeInterleaved([
    [b.vary, check(ec)],
    [b.vary, check(moduleOnly)],
    [b.texts, (texts) => texts.forEach((t) => createHash("sha256").update(t).digest("hex"))],
    [b.texts, (texts) => texts.forEach((t) => ec.digestText(t))],
    [b.vary, (text) => JSON.parse(text)],
  ]);
  return {
    sources: b.sources, claims: b.claims, source_bytes: b.bytes,
    check_ms: hosted, check_module_hashing_ms: inModule, node_crypto_ms: cryptoFloor, digest_text_ms: digestFloor, json_parse_ms: parseFloor,
    vs_node_crypto: hosted / cryptoFloor, vs_digest_text: inModule / digestFloor,
    vs_node_crypto_and_parse: hosted / (cryptoFloor + parseFloor),
    mb_per_sec: b.bytes / 1e6 / (hosted / 1000),
  };
}

function scale() {
  const [S, C, B] = QUICK ? [8, 100, 256 * 1024] : [64, 1000, 1024 * 1024];
  const base = scaleRun(makeBundle(S, C, B));
  log(`  scale base: ${JSON.stringify(base)}`);
  const twice = scaleRun(makeBundle(S * 2, C, B));
  log(`  scale sources x2: ${JSON.stringify(twice)}`);
  const tenfold = scaleRun(makeBundle(S, C * 10, B));
  log(`  scale claims x10: ${JSON.stringify(tenfold)}`);
  // The non-hashing part: the check less its own floor (node:crypto with host hashing,
  // digestText without).
  const nonHash = (r) => r.check_ms - r.node_crypto_ms;
  const nonHashModule = (r) => r.check_module_hashing_ms - r.digest_text_ms;
  return {
    base, sources_x2: twice, claims_x10: tenfold,
    growth_sources_x2: twice.check_ms / base.check_ms,
    growth_sources_x2_module_hashing: twice.check_module_hashing_ms / base.check_module_hashing_ms,
    growth_claims_x10_non_hashing: nonHash(tenfold) / nonHash(base),
    growth_claims_x10_non_hashing_module_hashing: nonHashModule(tenfold) / nonHashModule(base),
  };
}

// ---- 2b. host hashing and the boundary, on the demo and on a scale bundle -------------

/** Calls per second of `run` over prepared varied inputs (medians of REPEATS rounds). */
function rate(prepare, run, perRound) {
  const rounds = [];
  // Warm-up: V8 first runs wasm in its baseline tier and moves hot functions to the
  // optimising tier in the background; without this the first figure of a run is about
  // half the steady state.
  for (const t = performance.now(); performance.now() - t < (QUICK ? 300 : 1000); ) run(prepare(calls++));
  for (let r = 0; r < REPEATS; r++) {
    const inputs = Array.from({ length: perRound }, () => prepare(calls++));
    const t = performance.now();
    for (const input of inputs) run(input);
    rounds.push(perRound / ((performance.now() - t) / 1000));
  }
  return median(rounds);
}

/** The demo's floor as issue 15 names it: one parse of the bundle text (V8's JSON.parse)
 * and the SHA-256 digests the contract requires (each source's text and the report's JSON,
 * by node:crypto). */
function demoFloor(text) {
  const b = JSON.parse(text);
  for (const s of b.sources) createHash("sha256").update(s.content).digest("hex");
  createHash("sha256").update(JSON.stringify(b.report)).digest("hex");
}

function boundary() {
  const demo = JSON.parse(readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8"));
  // Each call's demo differs in its first source's fetched_at.
  const demoObject = (i) => ({ ...demo, sources: demo.sources.map((s, k) => (k === 0 ? { ...s, fetched_at: stamp(i) } : s)) });
  const demoText = (i) => JSON.stringify(demoObject(i));
  const n = QUICK ? 300 : 2000;
  const result = {
    demo_text_per_sec: rate(demoText, (t) => ec.checkBundle(t, { now: NOW }), n),
    demo_text_module_hashing_per_sec: rate(demoText, (t) => moduleOnly.checkBundle(t, { now: NOW }), n),
    demo_object_per_sec: rate(demoObject, (o) => ec.checkBundle(o, { now: NOW }), n),
  };
  // Results cross as JSON text that the glue parses (`to_js`): the parse of the same text in JS.
  const sample = ec.checkBundle(demoText(calls++), { now: NOW });
  const sampleText = JSON.stringify(sample);
  result.demo_result_json_bytes = Buffer.byteLength(sampleText);
  result.demo_result_json_parse_us = (1e6 / rate(() => sampleText, (t) => JSON.parse(t), n * 5));
  result.demo_call_us = 1e6 / result.demo_text_per_sec;
  // The demo's floor (`demoFloor`), per call, on the same varied inputs.
  result.demo_floor_us = 1e6 / rate(demoText, demoFloor, n);
  // Inputs on a scale bundle: JSON text vs the same bundle as an object (JSON.stringify in
  // the module's glue, then the one copy of the text).
  const [S, C, B] = QUICK ? [8, 100, 256 * 1024] : [32, 1000, 1024 * 1024];
  const b = makeBundle(S, C, B);
  const options = { now: NOW, render: false, maxSources: S, maxSourceBytes: b.maxBytes + 64, maxClaims: C, maxInputBytes: b.textLength * 3 };
  result.scale_sources = S;
  result.scale_text_ms = timeVaried(b.vary, (t) => ec.checkBundle(t, options));
  // The same bundle as UTF-8 bytes (what a host that reads a file holds): one copy into
  // wasm memory and a UTF-8 check, no UTF-16 -> UTF-8 encode. Encoded before the clock.
  result.scale_bytes_ms = timeVaried((i) => Buffer.from(b.vary(i), "utf8"), (u) => ec.checkBundle(u, options));
  result.scale_object_ms = timeVaried((i) => ({ ...b.bundle, sources: b.bundle.sources.map((s, k) => (k === 0 ? { ...s, fetched_at: stamp(i) } : s)) }), (o) => ec.checkBundle(o, options));
  result.scale_stringify_ms = timeVaried(() => b.bundle, (o) => JSON.stringify(o));
  const ref = out.results.seed?.reference_demo_per_sec;
  if (typeof ref === "number") {
    result.demo_ratio_to_reference = result.demo_text_per_sec / ref;
    result.demo_module_hashing_ratio_to_reference = result.demo_text_module_hashing_per_sec / ref;
  }
  return result;
}

// ---- 3. start-up and size -------------------------------------------------------------

const SIZE_FLOOR = join(ROOT, "target", "size-floor", "pkg", "evidence_check_size_floor.js");

/** bench/size-floor's module (checkBundle alone, JSON text in and out, no binding), when
 * built: its size, once its result on the demo is checked to be the package's. */
function sizeFloor() {
  if (!existsSync(SIZE_FLOOR)) return { size_floor: `not built: no ${SIZE_FLOOR} (make bench builds it)` };
  const demo = readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8");
  const theirs = JSON.parse(require(SIZE_FLOOR).check(demo, NOW));
  const ours = ec.checkBundle(demo, { now: NOW });
  if (JSON.stringify(theirs.assessment) !== JSON.stringify(ours.assessment) || theirs.artifact?.content !== ours.artifact?.content) throw new Error("bench/size-floor: its check of the demo differs from checkBundle's");
  const wasm = readFileSync(SIZE_FLOOR.replace(/\.js$/, "_bg.wasm"));
  return { size_floor_wasm_bytes: wasm.length, size_floor_wasm_gzip_bytes: gzipSync(wasm, { level: 9 }).length };
}

function startup() {
  const wasm = readFileSync(join(ROOT, "pkg", "node", "evidence_check_bg.wasm"));
  const example = join(ROOT, "examples", "demo.bundle.json");
  // What `require("evidence-check")` loads in Node (pkg/node/index.js: the module, the error
  // classes, node:crypto registered as the host hasher), from a script file, as an application
  // runs it. Not `node -e`: it loads node:crypto's modules before the script runs (see
  // process.moduleLoadList), so an `-e` pair hides their ~3 ms; nor the bare wasm-bindgen glue.
  const entry = join(ROOT, "pkg", "node", "index.js");
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-startup-"));
  const script = (name, code) => {
    writeFileSync(join(dir, name), code);
    return join(dir, name);
  };
  const read = `require("fs").readFileSync(${JSON.stringify(example)}, "utf8")`;
  const empty = script("empty.js", "");
  const first = script("first.js", `const ec = require(${JSON.stringify(entry)}); ec.checkBundle(${read});`);
  // Inside the process: require (read, compile and instantiate the module, load node:crypto)
  // and the first and second checkBundle (the first compiles, lazily, the functions one check
  // reaches); the second gets other input.
  const inside = script("inside.js", `const t0 = performance.now(); const ec = require(${JSON.stringify(entry)}); const t1 = performance.now(); ec.checkBundle(${read}); const t2 = performance.now(); ec.checkBundle(${read}.replace("2026-", "2025-")); const t3 = performance.now(); process.stdout.write(JSON.stringify([t1 - t0, t2 - t1, t3 - t2]));`);
  // The children run without NODE_EXTRA_CA_CERTS: where it is set, every node parses those
  // certificates as it starts (~50 ms on this machine for the system bundle), the same in both
  // runs of a pair but the largest part of their noise.
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  // An empty node and the first result alternate, and the figure is the median of the
  // paired differences: the start of an empty node itself moves by tens of ms on a busy
  // machine, and pairs cancel the slow drift a separate median of each would carry.
  const runs = QUICK ? 5 : 31;
  const once = (file) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, [file], { env });
    if (r.status !== 0) throw new Error(String(r.stderr));
    return performance.now() - t;
  };
  const emptyMs = [], firstMs = [], diffs = [];
  for (let i = 0; i < runs; i++) {
    const e = once(empty);
    const f = once(first);
    emptyMs.push(e);
    firstMs.push(f);
    diffs.push(f - e);
  }
  const parts = [];
  for (let i = 0; i < (QUICK ? 3 : 11); i++) {
    const r = spawnSync(process.execPath, [inside], { encoding: "utf8", env });
    if (r.status !== 0) throw new Error(String(r.stderr));
    parts.push(JSON.parse(r.stdout));
  }
  rmSync(dir, { recursive: true, force: true });
  const col = (k) => median(parts.map((p) => p[k]));
  // evidence-check/extras has its own module, loaded only where it is imported.
  const extras = readFileSync(join(ROOT, "pkg", "node", "evidence_check_extras_bg.wasm"));
  const web = readFileSync(join(ROOT, "pkg", "web", "evidence_check_bg.wasm"));
  return { ...sizeFloor(), web_wasm_bytes: web.length, web_wasm_gzip_bytes: gzipSync(web, { level: 9 }).length, wasm_bytes: wasm.length, wasm_gzip_bytes: gzipSync(wasm, { level: 9 }).length, extras_wasm_bytes: extras.length, extras_wasm_gzip_bytes: gzipSync(extras, { level: 9 }).length, empty_node_ms: median(emptyMs), first_result_ms: median(firstMs), first_result_beyond_node_ms: median(diffs), in_process_require_ms: col(0), in_process_first_check_ms: col(1), in_process_second_check_ms: col(2) };
}

// ---- 4. batch: the CLI on a directory of seed-sized bundles ---------------------------

function batch() {
  const n = QUICK ? 1000 : 10000;
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-bench-"));
  // Every bundle differs in its first source's fetched_at, so no cache could help.
  const example = JSON.parse(readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8"));
  const varied = (i) => JSON.stringify({ ...example, sources: example.sources.map((s, k) => (k === 0 ? { ...s, fetched_at: stamp(i) } : s)) });
  for (let i = 0; i < n; i++) writeFileSync(join(dir, `b${String(i).padStart(5, "0")}.json`), varied(i));
  const run = (jobs) => {
    const ms = [];
    for (let i = 0; i < (QUICK ? 1 : 3); i++) {
      // `check DIR --json` writes one JSON line per bundle (its whole result); the time is
      // the whole command's, process start-up included.
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [join(ROOT, "js", "cli.mjs"), "check", dir, "--jobs", String(jobs), "--json", "--now", NOW], { encoding: "utf8", maxBuffer: 1 << 30 });
      const elapsed = performance.now() - t0;
      if (r.status !== 1) throw new Error(`batch exit ${r.status}: ${r.stderr}`);
      const lines = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
      if (lines.length !== n || lines.some((l) => l.assessment?.status !== "partial")) throw new Error(`batch: ${lines.length} result lines for ${n} bundles`);
      ms.push(elapsed);
    }
    return median(ms);
  };
  const one = run(1);
  const two = run(2);
  rmSync(dir, { recursive: true, force: true });
  return { bundles: n, jobs1_per_sec: n / (one / 1000), jobs2_per_sec: n / (two / 1000), speedup_2_jobs: one / two };
}

log(`bench (${QUICK ? "quick" : "full"}) on ${out.machine.cpus} × ${out.machine.cpu}`);
log("1/4 seed-sized reports…");
out.results.seed = seed();
log("2/4 scale…");
out.results.scale = scale();
log("   host hashing and the boundary…");
out.results.boundary = boundary();
log("3/4 start-up and size…");
out.results.startup = startup();
log("4/4 batch…");
out.results.batch = batch();

const r = out.results;
const f = (x, d = 1) => (typeof x === "number" ? x.toFixed(d) : String(x));
const rows = [
  ["seed-sized: reports/s through the JS API (ReportHandle, Reviews)", f(r.seed.js_reports_per_sec, 0), ""],
  ["seed-sized: reports/s through the JS API, plain objects", f(r.seed.js_plain_reports_per_sec, 0), ""],
  ["seed-sized: reports/s, Python reference", f(r.seed.reference_reports_per_sec ?? r.seed.reference, 0), ""],
  ["seed-sized: ratio to the reference (median of the rounds' paired ratios; each round's)", `${f(r.seed.ratio)}× (${(r.seed.ratio_rounds ?? []).join(", ")})`, "≥ 8×"],
  ["seed-sized: the same replay inside the module, no JS between the steps (bench/core-alone; node:crypto hashing as the API's): reports/s, and its ratio to the reference, the ceiling of the ratio above", r.seed.inside_module_reports_per_sec === undefined ? String(r.seed.inside_module) : `${f(r.seed.inside_module_reports_per_sec, 0)}: ${f(r.seed.inside_module_ratio)}× (${(r.seed.inside_module_ratio_rounds ?? []).join(", ")}); the JS API's replay takes ${f(r.seed.js_api_over_inside_module, 2)}× its time`, ""],
  ["seed-sized: the replay's floor (per case one JSON.parse of the report, node:crypto SHA-256 of each text and the report), per second", `${f(r.seed.floor_reports_per_sec, 0)} (the replay is ${f(r.seed.floor_reports_per_sec / r.seed.js_reports_per_sec)}× it${r.seed.reference_reports_per_sec ? `; the floor alone is ${f(r.seed.floor_reports_per_sec / r.seed.reference_reports_per_sec)}× the reference` : ""})`, ""],
  ["seed-sized: ratio to the reference, plain objects", `${f(r.seed.plain_ratio)}×`, ""],
  ["seed-sized: the demo as one checkBundle call, per second", f(r.seed.check_bundle_per_sec, 0), ""],
  ["seed-sized: the same through the reference (its case 02), per second", f(r.seed.reference_demo_per_sec ?? r.seed.reference, 0), ""],
  ["seed-sized: checkBundle ratio to the reference, host hashing (median of paired ratios; each round's)", `${f(r.seed.check_bundle_ratio)}× (${(r.seed.check_bundle_ratio_rounds ?? []).join(", ")})`, "≥ 15× (host hashing, as here; ≥ 10× without)"],
  [`scale: checkBundle, ${r.scale.base.sources} sources × ${(r.scale.base.source_bytes / r.scale.base.sources / 1e6).toFixed(2)} MB, ${r.scale.base.claims} claims × 4 citations`, `${f(r.scale.base.check_ms)} ms`, ""],
  ["scale: floor, node:crypto SHA-256 of the same bytes", `${f(r.scale.base.node_crypto_ms)} ms`, ""],
  ["scale: floor, the module's digestText on them", `${f(r.scale.base.digest_text_ms)} ms`, ""],
  ["scale: checkBundle with host hashing / node:crypto", `${f(r.scale.base.vs_node_crypto, 2)}×`, "≤ 1.3×"],
  ["scale: one parse of the same bundle text (V8's JSON.parse)", `${f(r.scale.base.json_parse_ms)} ms`, ""],
  ["scale: checkBundle with host hashing / (node:crypto + one JSON.parse); one JSON.parse alone / node:crypto", `${f(r.scale.base.vs_node_crypto_and_parse, 2)}×; ${f(r.scale.base.json_parse_ms / r.scale.base.node_crypto_ms, 2)}×`, ""],
  ["scale: checkBundle, module hashing only", `${f(r.scale.base.check_module_hashing_ms)} ms`, ""],
  ["scale: checkBundle, module hashing only / digestText", `${f(r.scale.base.vs_digest_text, 2)}×`, "≤ 1.3×"],
  ["scale: growth, sources ×2 (host hashing / in the module)", `${f(r.scale.growth_sources_x2, 2)}× / ${f(r.scale.growth_sources_x2_module_hashing, 2)}×`, "≤ 2.1×"],
  ["scale: growth of the non-hashing part, claims ×10 (host / module)", `${f(r.scale.growth_claims_x10_non_hashing, 2)}× / ${f(r.scale.growth_claims_x10_non_hashing_module_hashing, 2)}×`, "≤ 10.5×"],
  ["demo checkBundle per second: host hashing / module hashing only", `${f(r.boundary.demo_text_per_sec, 0)} / ${f(r.boundary.demo_text_module_hashing_per_sec, 0)}`, ""],
  ["demo checkBundle ratio to the reference: host hashing / off", `${f(r.boundary.demo_ratio_to_reference)}× / ${f(r.boundary.demo_module_hashing_ratio_to_reference)}×`, "≥ 15× / ≥ 10×"],
  ["boundary, input: demo as JSON text / as an object, per second", `${f(r.boundary.demo_text_per_sec, 0)} / ${f(r.boundary.demo_object_per_sec, 0)}`, ""],
  [`boundary, input: scale (${r.boundary.scale_sources} sources) as text / as UTF-8 bytes / as an object (JSON.stringify alone)`, `${f(r.boundary.scale_text_ms)} ms / ${f(r.boundary.scale_bytes_ms)} ms / ${f(r.boundary.scale_object_ms)} ms (${f(r.boundary.scale_stringify_ms)} ms)`, ""],
  ["demo checkBundle: its floor (one JSON.parse, node:crypto SHA-256 of the sources and the report) / the call", `${f(r.boundary.demo_floor_us)} µs / ${f(r.boundary.demo_call_us)} µs (${f(r.boundary.demo_call_us / r.boundary.demo_floor_us)}× the floor${r.seed.demo_floor_ratio ? `; the floor alone, timed in turn with the reference's case, is ${f(r.seed.demo_floor_ratio)}× it` : ""})`, ""],
  ["boundary, result: JSON.parse of the demo's result / the whole call", `${f(r.boundary.demo_result_json_parse_us)} µs / ${f(r.boundary.demo_call_us)} µs (${r.boundary.demo_result_json_bytes} B)`, ""],
  [".wasm size raw / gzipped (the main entry's)", `${(r.startup.wasm_bytes / 1024).toFixed(0)} KiB / ${(r.startup.wasm_gzip_bytes / 1024).toFixed(0)} KiB`, "< 100 KB gzipped"],
  ["the web build's main .wasm (the page's), bytes raw / gzipped", `${r.startup.web_wasm_bytes} / ${r.startup.web_wasm_gzip_bytes}`, "< 100 KB gzipped"],
  ["the floor of the size: checkBundle alone, JSON text in and out, no binding (bench/size-floor, built as the web module), bytes raw / gzipped", r.startup.size_floor_wasm_gzip_bytes === undefined ? String(r.startup.size_floor) : `${r.startup.size_floor_wasm_bytes} / ${r.startup.size_floor_wasm_gzip_bytes}`, ""],
  ["evidence-check/extras .wasm raw / gzipped", `${(r.startup.extras_wasm_bytes / 1024).toFixed(0)} KiB / ${(r.startup.extras_wasm_gzip_bytes / 1024).toFixed(0)} KiB`, ""],
  ["start-up: first result beyond an empty node", `${f(r.startup.first_result_beyond_node_ms)} ms`, "< 25 ms"],
  ["start-up in the process: require / first checkBundle / second", `${f(r.startup.in_process_require_ms)} / ${f(r.startup.in_process_first_check_ms)} / ${f(r.startup.in_process_second_check_ms)} ms`, ""],
  [`batch: ${r.batch.bundles} bundles, 1 job`, `${f(r.batch.jobs1_per_sec, 0)} /s`, ""],
  [`batch: 2 jobs`, `${f(r.batch.jobs2_per_sec, 0)} /s (${f(r.batch.speedup_2_jobs, 2)}×)`, "≥ 1.7×"],
];
const table = ["| figure | measured | target |", "|---|---|---|", ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
console.log(table);
mkdirSync(join(ROOT, "target"), { recursive: true });
writeFileSync(join(ROOT, "target", "bench.json"), JSON.stringify({ ...out, table }, null, 2) + "\n");
log("wrote target/bench.json");
