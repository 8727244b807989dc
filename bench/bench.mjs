// make bench: the workloads users run, side by side in one run (issue 29, BENCHMARKS.md).
//   W1 the demo bundle through checkBundle, against the Python reference's case 02
//   W2 a real report (5 sources of 20-60 KB, 25 claims, 40 citations, documents policy),
//      against a floor in plain JS
//   W3 a JSON Lines stream of W2 bundles through `check - --jobs 2` (and 1): bundles/s, peak
//      RSS, and CPU against a plain loop calling checkBundle in one process
//   W4 the page in Chromium: from load to the first verdict on a W2 bundle, against a page
//      doing the same work in plain JS (bench/plain-page/); the web .wasm's gzipped size
//   W5 one 20 MB source with 200 citations, against node:crypto of the same text, and the
//      text as a string against the same UTF-8 bytes
//   Q  store.quote() on W2's sources against two indexOf calls, and store.quoteRange() far
//      into a 16 MiB text against a 400 KB one
// BASELINE_PKG=/path/to/pkg times another built package beside this one (W1, W2, W3, W5,
// and W4 when that package's repository is around it). BENCH_QUICK=1 is a short smoke run;
// BENCH_ONLY=w2,w5 runs only those workloads (keys w1-w5 and q).
// Times are reported, never asserted. Each figure is a median of rounds; where two builds
// or a build and a floor are compared, they are timed in turn, round by round (the order
// flips each round), so the machine's drift weighs on both alike. Every timed call gets an
// input no earlier call had (the first source's fetched_at differs), prepared untimed.
import { createRequire } from "node:module";
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { NOW, largeBundle, normalize, rangeText, reportBundle, stamp } from "./workloads.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const QUICK = process.env.BENCH_QUICK === "1";
const ROUNDS = QUICK ? 3 : 7;
const log = (s) => process.stderr.write(s + "\n");

/** A built package (pkg/: node/, web/, bin/): its Node entry as `require("evidence-check")` loads it. */
function loadBuild(name, dir) {
  const pkg = resolve(dir);
  if (!existsSync(join(pkg, "package.json"))) throw new Error(`${name}: no built package at ${pkg} (make build)`);
  return { name, pkg, ec: require(pkg), version: JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version };
}
const builds = [loadBuild("this", join(ROOT, "pkg"))];
if (process.env.BASELINE_PKG) builds.push(loadBuild("baseline", process.env.BASELINE_PKG));
const [self, baseline] = builds;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
let calls = 0;

/**
 * Medians (ms) of `runs` (`[prepare, run]` pairs, `prepare(i)` untimed), timed in turn
 * round by round after `warm` untimed calls each; `batch` calls a measurement.
 */
function interleaved(runs, { rounds = ROUNDS, batch = 1, warm = 1 } = {}) {
  for (const [prepare, run] of runs) for (let i = 0; i < warm; i++) run(prepare(calls++));
  const ms = runs.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const order = runs.map((_, k) => k);
    if (r % 2) order.reverse();
    for (const k of order) {
      const [prepare, run] = runs[k];
      const inputs = Array.from({ length: batch }, () => prepare(calls++));
      const t = performance.now();
      for (const input of inputs) run(input);
      ms[k].push((performance.now() - t) / batch);
    }
  }
  return { ms: ms.map(median), rounds: ms };
}

/** The paired ratio a/b of two rows of `interleaved`'s rounds: the median of each round's ratio. */
const pairedRatio = (a, b) => median(a.map((x, r) => x / b[r]));

/** Throws unless every citation of the result holds (so no figure times a refusal). */
function expectHolds(result, label) {
  const bad = (result.assessment.issues ?? []).filter((i) => /citation|quote|digest|revision|source/.test(i.code ?? ""));
  if (result.assessment.status === "invalid" || bad.length) throw new Error(`${label}: the check did not hold: ${result.assessment.status} ${JSON.stringify(bad[0] ?? result.assessment.issues?.[0])}`);
}

// ---- W1: the demo against the reference ----------------------------------------------

function w1() {
  const demo = JSON.parse(readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8"));
  const demoText = (i) => JSON.stringify({ ...demo, sources: demo.sources.map((s, k) => (k === 0 ? { ...s, fetched_at: stamp(i) } : s)) });
  const python = process.env.REFERENCE_PYTHON ?? join(ROOT, ".venv", "bin", "python");
  const refDir = process.env.REFERENCE_DIR ?? join(ROOT, "..", "shared", "reference");
  const haveRef = existsSync(python) && existsSync(join(refDir, "reference_cli.py"));
  const seconds = QUICK ? 0.5 : 2;
  const perSlice = QUICK ? 300 : 2000;
  for (const b of builds) expectHolds(b.ec.checkBundle(demoText(0), { now: NOW, policy: "reference" }), `W1 ${b.name}`);
  // The reference's case 02 is the demo: the same sources, report and reviews, rendered.
  const one = mkdtempSync(join(tmpdir(), "evidence-check-case02-"));
  writeFileSync(join(one, "02.json"), readFileSync(join(ROOT, "tests", "data", "reference", "cases", "02_demo_reviewed_render.json")));
  const refSlice = () => JSON.parse(execFileSync(python, [join(ROOT, "bench", "reference_bench.py"), refDir, one, String(seconds), "1", "0.3"], { encoding: "utf8" })).reports_per_sec;
  const slice = (b) => {
    const inputs = Array.from({ length: perSlice }, () => demoText(calls++));
    const t = performance.now();
    for (const input of inputs) b.ec.checkBundle(input, { now: NOW, policy: "reference" });
    return perSlice / ((performance.now() - t) / 1000);
  };
  for (const b of builds) for (const t = performance.now(); performance.now() - t < 1000; ) b.ec.checkBundle(demoText(calls++), { now: NOW, policy: "reference" });
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const row = {};
    const ours = () => builds.forEach((b) => (row[b.name] = slice(b)));
    const theirs = () => haveRef && (row.reference = refSlice());
    if (r % 2) (theirs(), ours());
    else (ours(), theirs());
    rounds.push(row);
  }
  rmSync(one, { recursive: true, force: true });
  const col = (k) => median(rounds.map((x) => x[k]));
  const out = { per_sec: Object.fromEntries(builds.map((b) => [b.name, col(b.name)])) };
  if (baseline) out.vs_baseline = median(rounds.map((x) => x.this / x.baseline));
  if (haveRef) {
    out.per_sec.reference = col("reference");
    out.vs_reference = Object.fromEntries(builds.map((b) => [b.name, median(rounds.map((x) => x[b.name] / x.reference))]));
    out.vs_reference_rounds = rounds.map((x) => +(x.this / x.reference).toFixed(2));
  } else out.reference = `not run: no ${existsSync(python) ? "reference_cli.py in " + refDir : python} (scripts/setup.sh python; REFERENCE_DIR)`;
  return out;
}

// ---- W2: a real report against a floor in plain JS -----------------------------------

/** A canonical JSON text (keys sorted by code point, no spaces), as the report digest takes it. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

/**
 * W2's floor: one JSON.parse, node:crypto SHA-256 of every LF-normalised source and of the
 * canonical report, and per citation a compare of the text at its code-point range with the
 * quote (code points to UTF-16 indices through the list of each source's astral characters).
 */
function reportFloor(text) {
  const b = JSON.parse(text);
  const texts = new Map();
  for (const s of b.sources) {
    const t = normalize(s.content);
    createHash("sha256").update(t).digest("hex");
    // The code-point index of each astral character (two UTF-16 units) of the text.
    const astral = [];
    for (const m of t.matchAll(/[\uD800-\uDBFF]/g)) astral.push(m.index - astral.length);
    texts.set(s.spec.source_id, { t, astral });
  }
  createHash("sha256").update(canonical(b.report)).digest("hex");
  let held = 0;
  for (const c of b.report.claims) {
    for (const x of c.citations) {
      const { t, astral } = texts.get(x.ref.source_id);
      const unit = (cp) => {
        let lo = 0, hi = astral.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (astral[mid] < cp) lo = mid + 1;
          else hi = mid;
        }
        return cp + lo;
      };
      if (t.slice(unit(x.start), unit(x.end)) === x.quote) held++;
    }
  }
  return held;
}

function w2() {
  const w = reportBundle();
  const options = { now: NOW, policy: "documents" };
  for (const b of builds) expectHolds(b.ec.checkBundle(w.vary(0), options), `W2 ${b.name}`);
  if (reportFloor(w.vary(0)) !== w.citations) throw new Error("W2: the floor's slice compare does not hold");
  const runs = [...builds.map((b) => [w.vary, (t) => b.ec.checkBundle(t, options)]), [w.vary, reportFloor]];
  const r = interleaved(runs, { batch: QUICK ? 20 : 100, warm: QUICK ? 50 : 300 });
  const floor = r.rounds[builds.length];
  return {
    input_bytes: Buffer.byteLength(w.vary(0)), citations: w.citations,
    ms: Object.fromEntries(builds.map((b, k) => [b.name, r.ms[k]])), floor_ms: r.ms[builds.length],
    vs_floor: Object.fromEntries(builds.map((b, k) => [b.name, pairedRatio(r.rounds[k], floor)])),
    ...(baseline ? { vs_baseline: pairedRatio(r.rounds[0], r.rounds[1]) } : {}),
  };
}

// ---- W3: a JSON Lines stream through the CLI -----------------------------------------

/**
 * Runs `node SCRIPT ARGS` with `input` as stdin and a file as stdout: seconds, peak RSS (MiB)
 * and CPU (user + system, s) of the process, its worker threads included, the main thread's
 * CPU alone (s), and the output.
 */
function timedChild(script, args, input, dir, label) {
  const usage = join(dir, "usage.json");
  const outFile = join(dir, "out.jsonl");
  const preload = join(dir, "usage.cjs");
  // Peak RSS and CPU of the whole process (every thread), and the main thread's own CPU
  // (Linux's schedstat, in ns; absent elsewhere), written as it exits.
  const main = `(() => { try { return +require("node:fs").readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0] / 1000; } catch { return undefined; } })()`;
  writeFileSync(preload, `if (require("node:worker_threads").isMainThread) process.on("exit", () => { const u = process.resourceUsage(); require("node:fs").writeFileSync(${JSON.stringify(usage)}, JSON.stringify({ rss: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime, main: ${main} })); });\n`);
  const env = { ...process.env, NODE_OPTIONS: `--require ${preload}` };
  delete env.NODE_EXTRA_CA_CERTS;
  const stdin = openSync(input, "r");
  const stdout = openSync(outFile, "w");
  const t = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: [stdin, stdout, "pipe"], env });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => {
      const seconds = (performance.now() - t) / 1000;
      closeSync(stdin);
      closeSync(stdout);
      if (code > 2) return fail(new Error(`W3 ${label}: exit ${code}: ${err.slice(0, 400)}`));
      const u = JSON.parse(readFileSync(usage, "utf8"));
      const lines = readFileSync(outFile, "utf8").split("\n").filter(Boolean);
      const invalid = lines.filter((l) => JSON.parse(l).assessment?.status !== "needs_review").length;
      done({ seconds, rss_mib: u.rss / 1024, cpu_s: u.cpu / 1e6, main_cpu_s: u.main === undefined ? undefined : u.main / 1e6, lines: lines.length, invalid });
    });
  });
}

/** `node BUILD/bin/cli.mjs check - --jobs N` on `input`. */
const cliStream = (b, input, jobs, dir) => timedChild(join(b.pkg, "bin", "cli.mjs"), ["check", "-", "--jobs", String(jobs), "--policy", "documents", "--now", NOW], input, dir, `${b.name} --jobs ${jobs}`);

/** The same work as a plain loop in one process (bench/plain-loop.mjs). */
const plainLoop = (b, input, dir) => timedChild(join(ROOT, "bench", "plain-loop.mjs"), [b.pkg, NOW, "documents"], input, dir, `${b.name} plain loop`);

/**
 * W3's input, `n` lines of `w.vary(1_000_000 + i)`, written once to target/ and read from
 * there by every run (stdin redirected from the file: no feeding process shares the cores);
 * written again when none has its name (the count and a digest of the first line).
 */
function w3Input(w, n) {
  const dir = join(ROOT, "target", "bench-w3");
  const digest = createHash("sha256").update(w.vary(1_000_000)).digest("hex").slice(0, 12);
  const input = join(dir, `${n}-${digest}.jsonl`);
  if (existsSync(input)) return input;
  mkdirSync(dir, { recursive: true });
  // Inputs of an earlier generator go (a quick run's and a full run's of this one stay).
  for (const f of readdirSync(dir)) if (!f.endsWith(`-${digest}.jsonl`)) rmSync(join(dir, f), { force: true });
  const partial = `${input}.partial`;
  const fd = openSync(partial, "w");
  for (let i = 0; i < n; i++) writeSync(fd, w.vary(1_000_000 + i) + "\n");
  closeSync(fd);
  renameSync(partial, input);
  return input;
}

async function w3() {
  const n = QUICK ? 200 : 5000;
  const w = reportBundle();
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-w3-"));
  const input = w3Input(w, n);
  const out = { bundles: n, input_mib: (Buffer.byteLength(w.vary(0)) + 1) * n / 2 ** 20, feeder: "a file on disk as stdin (no feeding process)" };
  // Each round runs this build's --jobs 2, --jobs 1 and plain loop, and the baseline's
  // --jobs 2 beside this one's, the order flipping each round.
  const rounds = QUICK ? 1 : 3;
  const runs = {};
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...builds].reverse() : builds;
    const kinds = r % 2 ? ["loop", 1, 2] : [2, 1, "loop"];
    for (const kind of kinds) {
      for (const b of order) {
        if (b !== self && kind !== 2) continue;
        const x = kind === "loop" ? await plainLoop(b, input, dir) : await cliStream(b, input, kind, dir);
        if (x.lines !== n || x.invalid) throw new Error(`W3 ${b.name} ${kind}: ${x.lines} result lines for ${n} bundles, ${x.invalid} not needs_review`);
        (runs[`${b.name}/${kind}`] ??= []).push(x);
        x.load = loadavg()[0];
        const mainCpu = x.main_cpu_s === undefined ? "" : `, main thread ${((x.main_cpu_s / n) * 1000).toFixed(3)} ms a bundle`;
        log(`  W3 ${b.name} ${kind === "loop" ? "plain loop" : `--jobs ${kind}`}: ${(n / x.seconds).toFixed(0)} bundles/s, CPU ${x.cpu_s.toFixed(2)} s (${((x.cpu_s / n) * 1000).toFixed(3)} ms a bundle${mainCpu}), ${(x.cpu_s / x.seconds).toFixed(2)} cores busy, ${x.rss_mib.toFixed(0)} MiB, load ${x.load.toFixed(1)}`);
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
  for (const [key, xs] of Object.entries(runs)) {
    out[key] = {
      bundles_per_sec: median(xs.map((x) => n / x.seconds)), cpu_s: median(xs.map((x) => x.cpu_s)), cpu_ms_per_bundle: median(xs.map((x) => (x.cpu_s / n) * 1000)),
      main_cpu_ms_per_bundle: xs[0].main_cpu_s === undefined ? undefined : median(xs.map((x) => (x.main_cpu_s / n) * 1000)),
      cores_busy: median(xs.map((x) => x.cpu_s / x.seconds)),
      peak_rss_mib: Math.max(...xs.map((x) => x.rss_mib)), load: xs.map((x) => +x.load.toFixed(2)),
    };
  }
  // Paired ratios: the median of each round's ratio.
  const paired = (a, b, f) => median(runs[a].map((x, r) => f(x) / f(runs[b][r])));
  out["this/speedup"] = paired("this/1", "this/2", (x) => x.seconds);
  out["this/vs_loop"] = paired("this/loop", "this/2", (x) => x.seconds);
  out["this/cpu_vs_loop"] = { 2: paired("this/2", "this/loop", (x) => x.cpu_s), 1: paired("this/1", "this/loop", (x) => x.cpu_s) };
  // What --jobs 2 could reach on the machine's cores, given the CPU each run takes: --jobs 1
  // already keeps more than one core busy (its main thread, V8's threads), and a run can
  // keep no more than every core busy: cores / (cores busy of --jobs 1) × (CPU a bundle of
  // --jobs 1 / of --jobs 2), the median of the rounds.
  const cores = Math.min(2, machine.cores);
  out["this/speedup_ceiling"] = median(runs["this/1"].map((x, r) => (cores / (x.cpu_s / x.seconds)) * (x.cpu_s / runs["this/2"][r].cpu_s)));
  if (baseline) out["vs_baseline/2"] = paired("baseline/2", "this/2", (x) => x.seconds);
  return out;
}

// ---- W4: the page ----------------------------------------------------------------------

/** The gzipped sizes of a build's web .wasm modules. */
function webWasm(b) {
  const dir = join(b.pkg, "web");
  const files = readdirSync(dir).filter((f) => f.endsWith(".wasm")).sort();
  return Object.fromEntries(files.map((f) => {
    const bytes = readFileSync(join(dir, f));
    return [f, { bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }];
  }));
}

/** A static server for bench/plain-page/ (the plain-JS page), with the headers js/serve.mjs sends. */
function servePlainPage() {
  const dir = join(ROOT, "bench", "plain-page");
  const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8" };
  const server = createServer((req, res) => {
    const name = new URL(req.url ?? "/", "http://localhost").pathname.slice(1) || "index.html";
    if (!(name in { "index.html": 1, "plain.js": 1 })) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": types[extname(name)], "cache-control": "no-store", "x-content-type-options": "nosniff" }).end(readFileSync(join(dir, name)));
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((done) => (server.close(done), server.closeIdleConnections())) })));
}

/**
 * W4: from navigation to the first verdict on a W2 bundle, given at DOMContentLoaded (the
 * policy set to documents first), in a new browser context each time (an empty cache);
 * each build's page (served by the js/serve.mjs of the repository its pkg/ sits in)
 * against the plain-JS page of bench/plain-page/, visited in turn.
 */
async function w4() {
  const out = { wasm: Object.fromEntries(builds.map((b) => [b.name, webWasm(b)])) };
  let chromium;
  try {
    ({ chromium } = require(join(ROOT, "node_modules", "playwright-core")));
  } catch {
    return { ...out, page: "not run: no playwright-core (npm ci)" };
  }
  const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
  if (!existsSync(executablePath)) return { ...out, page: `not run: no ${executablePath} (scripts/setup.sh browser)` };
  const w = reportBundle();
  const pages = [];
  for (const b of builds) {
    const serve = join(b.pkg, "..", "js", "serve.mjs");
    if (existsSync(serve)) pages.push({ name: b.name, server: await (await import(pathToFileURL(serve).href)).startServer({ port: 0 }) });
  }
  pages.push({ name: "plain", server: await servePlainPage() });
  const browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-dev-shm-usage", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
  // Runs in the page before its own scripts: at DOMContentLoaded (the page's module has
  // run, the .wasm may still be compiling) it sets the policy and gives the file, as a user
  // dropping it at once would; the verdict's time is the page's clock (from navigation
  // start) at the first task after the frame that shows #overview.
  const deliver = ({ text }) => {
    document.addEventListener("DOMContentLoaded", () => {
      const policy = document.getElementById("policy");
      policy.value = "documents";
      policy.dispatchEvent(new Event("change"));
      const input = document.getElementById("file");
      const files = new DataTransfer();
      files.items.add(new File([text], "w2.bundle.json", { type: "application/json" }));
      input.files = files.files;
      input.dispatchEvent(new Event("change"));
      const overview = document.getElementById("overview");
      new MutationObserver((_, observer) => {
        if (overview.hidden) return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => (window.__verdict = { ms: performance.now(), badge: document.getElementById("badge").textContent })));
      }).observe(overview, { attributes: true, attributeFilter: ["hidden"] });
    }, { once: true });
  };
  const visit = async (url, i) => {
    const context = await browser.newContext();
    await context.addInitScript(deliver, { text: w.vary(2_000_000 + i) });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "commit" });
    const { ms, badge } = await (await page.waitForFunction(() => window.__verdict, null, { timeout: 20_000 })).jsonValue();
    await context.close();
    if (!/^needs.review$/.test(badge)) throw new Error(`W4: the verdict of ${url} on W2 is ${badge}`);
    return ms;
  };
  const times = pages.map(() => []);
  const failed = {};
  try {
    // One untimed visit each; a page that gives no verdict (one that drops a file given
    // before it is ready) is reported, not timed.
    for (const [k, p] of pages.entries()) {
      try {
        await visit(p.server.url, calls++);
      } catch (e) {
        failed[p.name] = String(e.message).split("\n")[0];
        times[k] = null;
      }
    }
    const live = pages.map((_, k) => k).filter((k) => times[k]);
    for (let r = 0; r < (QUICK ? 3 : 15); r++) {
      const order = r % 2 ? [...live].reverse() : live;
      for (const k of order) times[k].push(await visit(pages[k].server.url, calls++));
    }
  } finally {
    await browser.close();
    for (const { server } of pages) await server.close();
  }
  const plain = times[pages.length - 1];
  out.page = Object.fromEntries(pages.map(({ name }, k) => [name, times[k] ? { verdict_ms: median(times[k]), ...(k < pages.length - 1 && plain ? { vs_plain: pairedRatio(times[k], plain) } : {}) } : { not_run: failed[name] }]));
  return out;
}

// ---- W5: one large source against node:crypto ----------------------------------------

function w5() {
  const w = largeBundle(QUICK ? 2e6 : 20e6, 50);
  // The documents policy allows 16 MiB a source: this one is raised for the 20 MB text.
  const options = { now: NOW, policy: { extends: "documents", max_source_bytes: w.bytes + 1024, max_input_bytes: w.textLength * 3 + 1024 } };
  // The same text with one U+FFFD: the lone-surrogate check must not take a slower path.
  const wr = largeBundle(QUICK ? 2e6 : 20e6, 50, { replacement: true });
  for (const b of builds) expectHolds(b.ec.checkBundle(w.vary(0), options), `W5 ${b.name}`);
  for (const b of builds) expectHolds(b.ec.checkBundle(wr.vary(0), options), `W5 U+FFFD ${b.name}`);
  // The same texts as UTF-8 bytes (encoded untimed): a string must cost what its bytes cost.
  const asBytes = (vary) => (i) => Buffer.from(vary(i));
  const check = (b) => (t) => b.ec.checkBundle(t, options);
  const encoder = new TextEncoder();
  const encoded = new Uint8Array(w.textLength * 3);
  const runs = [
    ...builds.map((b) => [w.vary, check(b)]),
    [w.text, (t) => createHash("sha256").update(t).digest("hex")],
    ...builds.map((b) => [wr.vary, check(b)]),
    ...builds.map((b) => [asBytes(w.vary), check(b)]),
    ...builds.map((b) => [asBytes(wr.vary), check(b)]),
    // What a string costs before any check: its transcoding to UTF-8, into a buffer made once.
    [w.vary, (t) => encoder.encodeInto(t, encoded)],
    // The same with the U+FFFD: V8 then holds the text as two bytes a unit, which transcodes slower.
    [wr.vary, (t) => encoder.encodeInto(t, encoded)],
  ];
  const r = interleaved(runs, { rounds: QUICK ? 3 : 9, warm: 2 });
  const floor = r.rounds[builds.length];
  const fffd = (k) => builds.length + 1 + k;
  const bytes = (k) => 2 * builds.length + 1 + k;
  const fffdBytes = (k) => 3 * builds.length + 1 + k;
  const encode = 4 * builds.length + 1;
  const fffdEncode = encode + 1;
  return {
    source_mb: w.bytes / 1e6, citations: w.citations,
    ms: Object.fromEntries(builds.map((b, k) => [b.name, r.ms[k]])), node_crypto_ms: r.ms[builds.length],
    vs_node_crypto: Object.fromEntries(builds.map((b, k) => [b.name, pairedRatio(r.rounds[k], floor)])),
    fffd_ms: Object.fromEntries(builds.map((b, k) => [b.name, r.ms[fffd(k)]])),
    fffd_vs_plain: Object.fromEntries(builds.map((b, k) => [b.name, pairedRatio(r.rounds[fffd(k)], r.rounds[k])])),
    bytes_ms: Object.fromEntries(builds.map((b, k) => [b.name, r.ms[bytes(k)]])),
    fffd_bytes_ms: Object.fromEntries(builds.map((b, k) => [b.name, r.ms[fffdBytes(k)]])),
    encode_ms: r.ms[encode],
    fffd_encode_ms: r.ms[fffdEncode],
    fffd_string_vs_bytes_floor: Object.fromEntries(builds.map((b, k) => [b.name, median(r.rounds[fffdBytes(k)].map((x, i) => (x + r.rounds[fffdEncode][i]) / x))])),
    string_vs_bytes_floor: Object.fromEntries(builds.map((b, k) => [b.name, median(r.rounds[bytes(k)].map((x, i) => (x + r.rounds[encode][i]) / x))])),
    string_vs_bytes: Object.fromEntries(builds.map((b, k) => [b.name, pairedRatio(r.rounds[k], r.rounds[bytes(k)])])),
    fffd_string_vs_bytes: Object.fromEntries(builds.map((b, k) => [b.name, pairedRatio(r.rounds[fffd(k)], r.rounds[fffdBytes(k)])])),
    ...(baseline ? { vs_baseline: pairedRatio(r.rounds[0], r.rounds[1]) } : {}),
  };
}

// ---- Q: making citations in a store ----------------------------------------------------

/**
 * `store.quote()` on W2's sources (every citation's quote, by its text) against two
 * `indexOf` calls on the same normalised text (found, and found once); `store.quoteRange()`
 * at the end of a 16 MiB text against the end of a 400 KB one (the cost of a position far
 * into a text).
 */
function wq() {
  const w = reportBundle();
  const { scope, sources, report } = w.bundle;
  const cites = report.claims.flatMap((c) => c.citations);
  const storeOf = (b, specs, contents) => {
    const store = new b.ec.EvidenceStore(specs, { now: NOW, policy: "documents" });
    return { store, refs: contents.map(([id, text]) => [id, store.ingest(scope, id, text)]) };
  };
  const quoting = builds.map((b) => {
    const { store, refs } = storeOf(b, sources.map((s) => s.spec), sources.map((s) => [s.spec.source_id, s.content]));
    const ref = new Map(refs);
    return (i) => { for (const c of cites) store.quote(scope, ref.get(c.ref.source_id), c.quote, `q${i}_${c.citation_id}`); };
  });
  const texts = new Map(sources.map((s) => [s.spec.source_id, normalize(s.content)]));
  const indexOf = () => {
    let found = 0;
    for (const c of cites) {
      const t = texts.get(c.ref.source_id);
      const at = t.indexOf(c.quote);
      if (at !== -1 && t.indexOf(c.quote, at + 1) === -1) found++;
    }
    if (found !== cites.length) throw new Error(`Q: ${cites.length - found} of W2's quotes are not found once`);
  };
  const id = (i) => i;
  const q = interleaved([...quoting.map((run) => [id, run]), [id, indexOf]], { batch: QUICK ? 20 : 200, warm: QUICK ? 20 : 200 });
  // quoteRange: a store per size, the range in the text's last line.
  const sizes = { small: rangeText(400_000), large: rangeText(16 * 2 ** 20 - 4096) };
  const specs = Object.keys(sizes).map((k) => ({ source_id: k, title: k, locator: `fixture:${k}`, filename: `${k}.md`, kind: "fixture" }));
  const ranging = builds.flatMap((b) => {
    const { store, refs } = storeOf(b, specs, Object.entries(sizes).map(([k, x]) => [k, x.text]));
    return refs.map(([k, ref]) => {
      const { start, end, quote } = sizes[k];
      if (store.quoteRange(scope, ref, start, end, "r").quote !== quote) throw new Error(`Q ${b.name}: quoteRange on the ${k} text`);
      return (i) => store.quoteRange(scope, ref, start, end, `r${i}`);
    });
  });
  const r = interleaved(ranging.map((run) => [id, run]), { rounds: QUICK ? 3 : 21, batch: QUICK ? 2 : 200, warm: QUICK ? 2 : 200 });
  const us = (ms) => ms * 1000;
  return {
    citations: cites.length,
    quote_us: Object.fromEntries(builds.map((b, k) => [b.name, us(q.ms[k]) / cites.length])),
    index_of_us: us(q.ms[builds.length]) / cites.length,
    quote_vs_index_of: Object.fromEntries(builds.map((b, k) => [b.name, pairedRatio(q.rounds[k], q.rounds[builds.length])])),
    text_bytes: { small: sizes.small.bytes, large: sizes.large.bytes },
    range_us: Object.fromEntries(builds.map((b, k) => [b.name, { small: us(r.ms[2 * k]), large: us(r.ms[2 * k + 1]) }])),
    range_large_vs_small: Object.fromEntries(builds.map((b, k) => [b.name, pairedRatio(r.rounds[2 * k + 1], r.rounds[2 * k])])),
  };
}

// ---- the run ---------------------------------------------------------------------------

const machine = { cpu: cpus()[0]?.model ?? "?", cores: cpus().length, memory_gib: Math.round(totalmem() / 2 ** 30), node: process.version, load_average: loadavg().map((x) => +x.toFixed(2)) };
log(`bench (${QUICK ? "quick" : "full"}) on ${machine.cores} × ${machine.cpu}, node ${machine.node}; builds: ${builds.map((b) => `${b.name} ${b.pkg}`).join(", ")}`);
const ONLY = process.env.BENCH_ONLY?.split(",");
const results = {};
// The load average as each workload starts and ends: other work on the machine weighs on every figure.
const load = {};
const workloads = [["w1", "the demo against the reference", w1], ["w2", "a real report", w2], ["q", "making citations in a store", wq], ["w5", "one large source", w5], ["w3", "a JSON Lines stream through the CLI", w3], ["w4", "the page", w4]];
for (const [key, label, run] of workloads) {
  if (ONLY && !ONLY.includes(key)) continue;
  log(`${key.toUpperCase()} ${label}…`);
  const start = loadavg()[0];
  results[key] = await run();
  load[key] = [+start.toFixed(2), +loadavg()[0].toFixed(2)];
}
const f = (x, d = 1) => (typeof x === "number" ? x.toFixed(d) : String(x ?? "—"));
const side = (fmt) => builds.map((b) => fmt(b.name)).join(" | ");
/** A row only this build has (W3's --jobs 1 and plain loop): the baseline's column left empty. */
const only = (fmt) => [fmt(self.name), ...builds.slice(1).map(() => "")].join(" | ");
const gz = (name) => Object.entries(r4.wasm[name]).map(([file, x]) => `${file} ${(x.gzip / 1000).toFixed(1)} KB`).join(" + ");
const page = (name, k) => (typeof r4.page === "string" ? r4.page : r4.page[name]?.[k] !== undefined ? f(r4.page[name][k], 0) : `not run${r4.page[name]?.not_run ? `: ${r4.page[name].not_run}` : ""}`);
const { w1: r1, w2: r2, w3: r3, w4: r4, w5: r5, q: rq } = results;
const rows = [
  ...(r1 ? [
    ["W1 demo checkBundle, calls/s", side((n) => f(r1.per_sec[n], 0)), ""],
    ["W1 the reference's case 02, reports/s", side(() => f(r1.per_sec.reference ?? r1.reference, 0)), ""],
    ["W1 checkBundle / reference (median of paired rounds)", side((n) => `${f(r1.vs_reference?.[n])}×`), "≥ 8×"],
  ] : []),
  ...(r2 ? [
    [`W2 real report (${(r2.input_bytes / 1000).toFixed(0)} KB, ${r2.citations} citations, documents policy), ms`, side((n) => f(r2.ms[n], 2)), ""],
    ["W2 floor in plain JS, ms", side(() => f(r2.floor_ms, 2)), ""],
    ["W2 checkBundle / floor", side((n) => `${f(r2.vs_floor[n], 2)}×`), ""],
  ] : []),
  ...(r3 ? [
    [`W3 stream of ${r3.bundles} W2 bundles (${f(r3.input_mib, 0)} MiB), --jobs 2, bundles/s`, side((n) => f(r3[`${n}/2`].bundles_per_sec, 0)), ""],
    ["W3 --jobs 1, bundles/s", only(() => f(r3["this/1"].bundles_per_sec, 0)), ""],
    ["W3 --jobs 2 / --jobs 1, bundles/s (paired rounds)", only(() => `${f(r3["this/speedup"], 2)}×`), "≥ 1.8×"],
    [`W3 cores busy (CPU / wall), --jobs 2 / --jobs 1 / the plain loop`, only(() => ["2", "1", "loop"].map((k) => f(r3[`this/${k}`].cores_busy, 2)).join(" / ")), ""],
    [`W3 ceiling of --jobs 2 / --jobs 1 on ${Math.min(2, machine.cores)} cores: cores / cores busy of --jobs 1 × its CPU a bundle / that of --jobs 2`, only(() => `${f(r3["this/speedup_ceiling"], 2)}×`), ""],
    ["W3 peak RSS, --jobs 2 / --jobs 1 / the plain loop", only(() => ["2", "1", "loop"].map((k) => f(r3[`this/${k}`].peak_rss_mib, 0)).join(" / ") + " MiB"), ""],
    ["W3 --jobs 2 / the plain loop (one thread), bundles/s (paired rounds)", only(() => `${f(r3["this/vs_loop"], 2)}×`), ""],
    ["W3 CPU (user + sys), --jobs 2 / --jobs 1 / a plain loop, s", only(() => ["2", "1", "loop"].map((k) => f(r3[`this/${k}`].cpu_s, 2)).join(" / ")), ""],
    ["W3 CPU a bundle, --jobs 2 / --jobs 1 / a plain loop, ms (stdin a file: no feeder)", only(() => ["2", "1", "loop"].map((k) => f(r3[`this/${k}`].cpu_ms_per_bundle, 3)).join(" / ")), ""],
    ["W3 of which the main thread (reading, splitting, dispatch, writing), --jobs 2 / --jobs 1, ms a bundle", only(() => ["2", "1"].map((k) => f(r3[`this/${k}`].main_cpu_ms_per_bundle, 3)).join(" / ")), ""],
    ["W3 CPU of check - --jobs 2 / the plain loop", only(() => `${f(r3["this/cpu_vs_loop"][2], 2)}×`), "≤ 1.15×"],
    ["W3 CPU of check - --jobs 1 / the plain loop", only(() => `${f(r3["this/cpu_vs_loop"][1], 2)}×`), ""],
    ...(baseline ? [["W3 peak RSS, --jobs 2", side((n) => `${f(r3[`${n}/2`].peak_rss_mib, 0)} MiB`), ""], ["W3 CPU a bundle, --jobs 2, ms", side((n) => f(r3[`${n}/2`].cpu_ms_per_bundle, 3)), ""]] : []),
  ] : []),
  ...(rq ? [
    [`Q quote() of each of W2's ${rq.citations} quotes, µs a call`, side((n) => f(rq.quote_us[n], 1)), ""],
    ["Q two indexOf calls on the same text, µs", side(() => f(rq.index_of_us, 1)), ""],
    ["Q quote() / two indexOf calls", side((n) => `${f(rq.quote_vs_index_of[n], 2)}×`), "≤ 3×"],
    ["Q quoteRange() at the end of 400 KB / of 16 MiB, µs", side((n) => `${f(rq.range_us[n].small, 0)} / ${f(rq.range_us[n].large, 0)}`), ""],
    ["Q quoteRange() at 16 MiB / at 400 KB", side((n) => `${f(rq.range_large_vs_small[n], 2)}×`), "≤ 2×"],
  ] : []),
  ...(r4 ? [
    ["W4 page: load to the first verdict on W2 (Chromium), ms", side((n) => page(n, "verdict_ms")), ""],
    ["W4 plain-JS page (bench/plain-page/), ms", side(() => page("plain", "verdict_ms")), ""],
    ["W4 page / plain-JS page (median of paired rounds)", side((n) => (typeof r4.page === "object" && r4.page[n]?.vs_plain ? `${f(r4.page[n].vs_plain, 2)}×` : "—")), "≤ 1.8×"],
    ["W4 web .wasm, gzipped", side(gz), "one module ≤ 250 KB"],
  ] : []),
  ...(r5 ? [
    [`W5 one ${f(r5.source_mb, 0)} MB source, ${r5.citations} citations, ms`, side((n) => f(r5.ms[n], 0)), ""],
    ["W5 node:crypto SHA-256 of the same text, ms", side(() => f(r5.node_crypto_ms, 0)), ""],
    ["W5 checkBundle / node:crypto", side((n) => `${f(r5.vs_node_crypto[n], 2)}×`), ""],
    ["W5 with one U+FFFD in the text, ms", side((n) => f(r5.fffd_ms[n], 0)), ""],
    ["W5 with one U+FFFD / without", side((n) => `${f(r5.fffd_vs_plain[n], 2)}×`), "≤ 1.3×"],
    ["W5 the same text as UTF-8 bytes, ms (without / with the U+FFFD)", side((n) => `${f(r5.bytes_ms[n], 0)} / ${f(r5.fffd_bytes_ms[n], 0)}`), ""],
    ["W5 TextEncoder.encodeInto of the same text alone, ms (without / with the U+FFFD)", side(() => `${f(r5.encode_ms, 0)} / ${f(r5.fffd_encode_ms, 0)}`), ""],
    ["W5 (as bytes + encodeInto) / as bytes: what a string adds before any check", side((n) => `${f(r5.string_vs_bytes_floor[n], 2)}×`), ""],
    ["W5 as a string / as bytes", side((n) => `${f(r5.string_vs_bytes[n], 2)}×`), "≤ 1.3×"],
    ["W5 with one U+FFFD, (as bytes + encodeInto) / as bytes", side((n) => `${f(r5.fffd_string_vs_bytes_floor[n], 2)}×`), ""],
    ["W5 with one U+FFFD, as a string / as bytes", side((n) => `${f(r5.fffd_string_vs_bytes[n], 2)}×`), "≤ 1.3×"],
  ] : []),
];
const ratios = [
  r1?.vs_baseline && ["W1 calls/s, this / baseline", f(r1.vs_baseline, 2)],
  r2?.vs_baseline && ["W2 time, this / baseline", f(r2.vs_baseline, 2)],
  r3?.["vs_baseline/2"] && ["W3 bundles/s, --jobs 2, this / baseline", f(r3["vs_baseline/2"], 2)],
  r5?.vs_baseline && ["W5 time, this / baseline", f(r5.vs_baseline, 2)],
].filter(Boolean);
const table = [
  `| workload | ${builds.map((b) => `${b.name} (${b.version})`).join(" | ")} | target |`,
  `|---|${builds.map(() => "---|").join("")}---|`,
  ...rows.map(([a, b, c]) => `| ${a} | ${b} | ${c} |`),
  ...(ratios.length ? ["", "| ratio (paired, same run) | |", "|---|---|", ...ratios.map(([a, b]) => `| ${a} | ${b} |`)] : []),
  "",
  `Machine: ${machine.cores} × ${machine.cpu}, ${machine.memory_gib} GiB, node ${machine.node}, load average at start ${machine.load_average.join(" ")}${QUICK ? " (BENCH_QUICK=1)" : ""}.`,
  `Load average (1 min) at each workload's start and end: ${Object.entries(load).map(([k, [a, b]]) => `${k.toUpperCase()} ${a} → ${b}`).join(", ")}.`,
].join("\n");
console.log(table);
mkdirSync(join(ROOT, "target"), { recursive: true });
writeFileSync(join(ROOT, "target", "bench.json"), JSON.stringify({ quick: QUICK, machine, load, builds: builds.map(({ name, pkg, version }) => ({ name, pkg, version })), results, table }, null, 2) + "\n");
log("wrote target/bench.json");
