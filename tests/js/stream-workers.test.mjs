// `check - --jobs 2` as a pipeline stage: every result exactly once and in input order,
// whatever goes wrong with a line or a worker (a malformed line, a check that traps, a
// worker that dies), a closed stdout and SIGTERM. Workers are made to trap or die by a
// preload of the test's own (node --require, which worker threads run too), never by a
// hook in the package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PKG, NOW, exampleBundle, localeEnv, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const CLI = join(PKG, "bin", "cli.mjs");
const ENV = localeEnv("en_US.UTF-8");
/** A stage that hangs fails its test instead of stalling the run (a guard, not a measure of speed). */
const HANG = { timeout: 240_000 };
const tmp = (prefix) => mkdtempSync(join(tmpdir(), `evidence-check-${prefix}-`));

/** The example as one JSON line titled `title` (without its reviews: `partial`). */
function line(title) {
  const bundle = readJson("examples", "demo.bundle.json");
  bundle.report.title = title;
  bundle.reviews = [];
  return JSON.stringify(bundle);
}

/** A line whose check costs more (a 22 KB source), so that workers finish out of turn. */
const heavy = exampleBundle(ec, "heavy", "\n" + "填充文字。".repeat(1500));
const heavyLine = (title) => JSON.stringify({ ...heavy, report: { ...heavy.report, title } });

/**
 * A preload that, in worker threads only, wraps the package's checkBundle: a bundle whose
 * bytes hold `__TRAP__` throws a WebAssembly.RuntimeError and leaves the instance broken
 * (every later call traps too, as after a real trap), `__OOM__` the same as the coded
 * `out_of_memory` error, and `__DIE__` ends the worker thread (exit code 70). It also
 * counts, in the main thread, the worker threads started.
 */
function crashPreload(dir) {
  const file = join(dir, "crash.cjs");
  writeFileSync(file, `
    const wt = require("node:worker_threads");
    if (wt.isMainThread) {
      const Base = wt.Worker;
      let made = 0;
      wt.Worker = class extends Base { constructor(...a) { super(...a); made++; } };
      require("node:module").syncBuiltinESMExports();
      process.on("exit", () => process.stderr.write("workers started: " + made + "\\n"));
    } else {
      const Module = require("node:module");
      const load = Module._load;
      let broken = false;
      Module._load = function (...args) {
        const m = load.apply(this, args);
        if (m && typeof m.checkBundle === "function" && !m.checkBundle.wrapped) {
          const real = m.checkBundle;
          m.checkBundle = function (bundle, options) {
            const text = Buffer.from(bundle.buffer, bundle.byteOffset, bundle.byteLength).toString("latin1");
            if (broken) throw new WebAssembly.RuntimeError("unreachable");
            if (text.includes("__DIE__")) process.exit(70);
            if (text.includes("__TRAP__")) { broken = true; throw new WebAssembly.RuntimeError("unreachable"); }
            if (text.includes("__OOM__")) { broken = true; throw Object.assign(new Error("out of memory"), { code: "out_of_memory" }); }
            return real.call(this, bundle, options);
          };
          m.checkBundle.wrapped = true;
        }
        return m;
      };
    }`);
  return file;
}

const jsonLines = (text) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l));

/** Asserts `out` is one result per input line (blank ones aside), each exactly once, in order, with `expect(n)` for line n. */
function assertEveryLineOnce(out, n, expect) {
  assert.deepEqual(out.map((o) => o.line), Array.from({ length: n }, (_, k) => k + 1), "every line's result once, in input order");
  out.forEach((o) => expect(o.line, o));
}

test("check - --jobs 2: malformed lines, traps and dead workers mid-stream are an error line each; every other line is checked, once, in order", HANG, () => {
  const dir = tmp("crash");
  const n = 240;
  const special = { 30: "malformed", 61: "trap", 62: "after", 100: "die", 101: "after", 150: "oom", 170: "die", 171: "malformed", 205: "trap" };
  const lines = [];
  for (let i = 1; i <= n; i++) {
    const kind = special[i];
    if (kind === "malformed") lines.push(`{"scope": {"tenant_id": "t", "user_id": "u"}, "sources": [`);
    else if (kind === "trap") lines.push(line(`bundle ${i} __TRAP__`));
    else if (kind === "oom") lines.push(line(`bundle ${i} __OOM__`));
    else if (kind === "die") lines.push(line(`bundle ${i} __DIE__`));
    else lines.push(i % 4 === 0 ? heavyLine(`bundle ${i}`) : line(`bundle ${i}`));
  }
  const r = spawnSync(process.execPath, ["--require", crashPreload(dir), CLI, "check", "-", "--jobs", "2", "--now", NOW], {
    input: lines.join("\n") + "\n", encoding: "utf8", env: ENV, maxBuffer: 1 << 30, timeout: HANG.timeout,
  });
  assert.equal(r.status, 4, r.stderr);
  // Four workers ended (two traps, two deaths): each was replaced, and the lines after them were checked.
  const started = Number(/^workers started: (\d+)$/m.exec(r.stderr)?.[1]);
  assert.ok(started >= 2 + 4, r.stderr);
  assert.equal(r.stderr.replace(/^workers started: \d+\n/m, ""), "", "no stack trace, nothing else on stderr");
  assertEveryLineOnce(jsonLines(r.stdout), n, (i, o) => {
    const kind = special[i];
    if (kind === "malformed") assert.equal(o.error?.code, "contract", `line ${i}`);
    else if (kind === "trap") assert.deepEqual(o.error, { code: "wasm_trap", message: "unreachable", issues: [] }, `line ${i}`);
    else if (kind === "oom") assert.equal(o.error?.code, "out_of_memory", `line ${i}`);
    else if (kind === "die") {
      assert.equal(o.error?.code, "worker_died", `line ${i}`);
      assert.match(o.error.message, /stopped \(exit code 70\)/);
    } else {
      assert.equal(o.assessment?.status, "partial", `line ${i}: ${JSON.stringify(o.error)}`);
      assert.ok(o.artifact.content.startsWith(`# bundle ${i}\n`), `line ${i}`);
    }
  });
});

test("check - --jobs 2: 2,000 lines of different cost come back exactly once each, in input order", HANG, () => {
  const n = 2000;
  const lines = [];
  for (let i = 1; i <= n; i++) lines.push(i % 7 === 3 ? heavyLine(`bundle ${i}`) : line(`bundle ${i}`));
  const r = spawnSync(process.execPath, [CLI, "check", "-", "--jobs", "2", "--now", NOW, "--no-render"], { input: lines.join("\n") + "\n", encoding: "utf8", env: ENV, maxBuffer: 1 << 30, timeout: HANG.timeout });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr, "");
  // --no-render: each result is the assessment only; its claims tell the bundles apart by their report digest.
  const digests = new Map();
  for (let i = 1; i <= n; i++) {
    const b = JSON.parse(lines[i - 1]);
    digests.set(i, ec.reportDigest(b.report));
  }
  assertEveryLineOnce(jsonLines(r.stdout), n, (i, o) => assert.equal(o.assessment.report_digest, digests.get(i), `line ${i}`));
});

test("check - --jobs 2: a closed stdout ends the command quietly, exit 141, with stdin still open", HANG, async () => {
  const child = spawn(process.execPath, [CLI, "check", "-", "--jobs", "2", "--now", NOW], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.on("error", () => {});
  const exited = new Promise((done) => child.on("exit", (code, signal) => done({ code, signal })));
  for (let i = 1; i <= 5; i++) child.stdin.write(line(`bundle ${i}`) + "\n");
  // The first output read, then this end of stdout closed (as `| head -c1` does), and one
  // more line: its result meets the closed pipe while the CLI waits for more input.
  const first = await new Promise((done) => child.stdout.once("data", done));
  child.stdout.destroy();
  assert.equal(String(first)[0], "{");
  child.stdin.write(line("bundle 6") + "\n");
  assert.deepEqual(await exited, { code: 141, signal: null });
  child.stdin.destroy();
  assert.equal(stderr, "", "no stack trace");
});

test("check - --jobs 2: SIGTERM stops it with stdin still open; the lines written are whole, in order", HANG, async () => {
  const child = spawn(process.execPath, [CLI, "check", "-", "--jobs", "2", "--now", NOW, "--policy", "documents"], { env: ENV, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.on("error", () => {}); // the lines it never read
  const exited = new Promise((done) => child.on("exit", (code, signal) => done({ code, signal })));
  // Results of 130 KB each (long claims), written in pieces larger than the pipe holds: a
  // write cut off by the exit would leave a line's head in the output.
  const n = 60;
  const long = readJson("examples", "demo.bundle.json");
  long.reviews = [];
  for (const c of long.report.claims) c.text = "长".repeat(15000);
  for (let i = 1; i <= n; i++) child.stdin.write(JSON.stringify({ ...long, report: { ...long.report, title: `bundle ${i}` } }) + "\n");
  // Read the first output, then stop reading: the CLI's writes back up, one stays under way.
  const chunks = [await new Promise((done) => child.stdout.once("data", done))];
  child.stdout.pause();
  await new Promise((done) => setTimeout(done, 500));
  child.kill("SIGTERM");
  child.stdout.on("data", (d) => chunks.push(d));
  child.stdout.resume();
  const { code, signal } = await exited;
  await new Promise((done) => (child.stdout.readableEnded ? done() : child.stdout.on("end", done)));
  child.stdin.destroy();
  assert.deepEqual({ code, signal }, { code: 143, signal: null }, stderr);
  assert.equal(stderr, "");
  const out = Buffer.concat(chunks).toString("utf8");
  assert.ok(out.endsWith("\n"), `the output ends inside a line: …${out.slice(-80)}`);
  const results = jsonLines(out);
  assert.ok(results.length >= 1 && results.length < n, `${results.length} results`);
  results.forEach((o, k) => {
    assert.equal(o.line, k + 1);
    assert.ok(o.artifact.content.startsWith(`# bundle ${k + 1}\n`));
  });
});

test("check - reads a stdin it was handed non-blocking (EAGAIN) to its end", () => {
  // A non-blocking pipe as fd 0 (a parent that left O_NONBLOCK set): reads that would block
  // fail with EAGAIN, and the CLI reads on through process.stdin.
  const python = ["python3", join(PKG, "..", ".venv", "bin", "python")].find((p) => spawnSync(p, ["-c", "0"]).status === 0);
  if (!python) return;
  const dir = tmp("nonblock");
  const script = join(dir, "run.py");
  writeFileSync(script, `
import os, subprocess, sys, time
r, w = os.pipe()
os.set_blocking(r, False)
child = subprocess.Popen(sys.argv[1:], stdin=r)
os.close(r)
lines = open(${JSON.stringify(join(dir, "in.jsonl"))}, "rb").read().splitlines(True)
for k, l in enumerate(lines):
    os.write(w, l)
    if k % 10 == 0: time.sleep(0.05)
os.close(w)
sys.exit(child.wait())
`);
  writeFileSync(join(dir, "in.jsonl"), Array.from({ length: 40 }, (_, k) => line(`bundle ${k + 1}`) + "\n").join(""));
  const r = spawnSync(python, [script, process.execPath, CLI, "check", "-", "--jobs", "2", "--now", NOW, "--no-render"], { encoding: "utf8", env: ENV });
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr, "");
  assert.deepEqual(jsonLines(r.stdout).map((o) => o.line), Array.from({ length: 40 }, (_, k) => k + 1));
});

test("the pool's worker takes lines from a SharedArrayBuffer and hands back bytes it transfers", async () => {
  // Not through the CLI: runTask on its own, as a worker runs it.
  const { runTask } = await import(join(PKG, "bin", "worker.mjs"));
  const text = Buffer.from(`${line("one")}\n\n${line("two")}\r\n`);
  const slab = new SharedArrayBuffer(text.length);
  new Uint8Array(slab).set(text);
  const first = text.indexOf(0x0a);
  const second = text.indexOf(0x0a, first + 1) + 1;
  const items = [{ tag: { line: 1 }, at: 0, end: first }, { tag: { line: 3 }, at: second, end: text.length - 1 }];
  const reply = runTask({ id: 7, items, slab }, { options: { now: NOW, lang: "en" }, inputLimit: 1 << 20, json: true, artifacts: false });
  assert.equal(reply.id, 7);
  assert.equal(reply.done, 2);
  assert.equal(reply.retire, false);
  assert.ok(reply.out instanceof ArrayBuffer);
  const lines = jsonLines(Buffer.from(reply.out, 0, reply.length).toString("utf8"));
  assert.deepEqual(lines.map((o) => [o.line, o.artifact.content.split("\n")[0]]), [[1, "# one"], [3, "# two"]]);
  assert.deepEqual(reply.bundles, [{ exit: 1, status: "partial" }, { exit: 1, status: "partial" }]);
});
