// The CLI over many bundles: a directory (`check DIR`) and a stream (`check -`, JSON Lines
// in and out) on the worker pool, in order, in flat memory; a closed stdout.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ROOT, PKG, NOW, exampleBundle, localeEnv, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");

const CLI = join(PKG, "bin", "cli.mjs");
const EXAMPLE = join(ROOT, "examples", "demo.bundle.json");
const ENV = localeEnv("en_US.UTF-8");

const tmp = (prefix) => mkdtempSync(join(tmpdir(), `evidence-check-${prefix}-`));
const jsonLines = (text) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l));

/** The example as one JSON line, its title made `title` (so without its reviews). */
function line(title) {
  const bundle = readJson("examples", "demo.bundle.json");
  bundle.report.title = title;
  bundle.reviews = [];
  return JSON.stringify(bundle);
}

test("check DIR --out DIR writes each bundle's artifact as NAME.md, making the directory", () => {
  const dir = tmp("batch");
  writeFileSync(join(dir, "first.json"), line("first"));
  writeFileSync(join(dir, "second.json"), line("second"));
  writeFileSync(join(dir, "broken.json"), "{");
  const out = join(tmp("out"), "artifacts", "today");
  const r = spawnSync(process.execPath, [CLI, "check", dir, "--out", out, "--now", NOW, "--jobs", "2"], { encoding: "utf8", env: ENV });
  assert.equal(r.status, 4, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ["first.md", "second.md"]);
  assert.match(readFileSync(join(out, "first.md"), "utf8"), /^# first\n/);
  assert.match(readFileSync(join(out, "second.md"), "utf8"), /^# second\n/);
  assert.ok(r.stdout.includes(`artifacts: ${out}\n`), r.stdout);
});

test("an empty directory is unusable input (exit 3), not a pass", () => {
  const dir = tmp("empty");
  writeFileSync(join(dir, "notes.txt"), "no bundle here");
  const r = spawnSync(process.execPath, [CLI, "check", dir], { encoding: "utf8", env: ENV });
  assert.equal(r.status, 3);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, `evidence-check: no_bundles: ${dir} holds no *.json bundle; nothing was checked\n`);
  const empty = spawnSync(process.execPath, [CLI, "check", "-"], { encoding: "utf8", env: ENV, input: "\n\n" });
  assert.equal(empty.status, 3);
  assert.match(empty.stderr, /^evidence-check: no_bundles: stdin held no bundle/);
});

test("check - with --jobs 2: one result line per bundle, in input order, unusable lines included", () => {
  // Bundles of very different cost (a few with a large source), so that the pool finishes them out of order.
  const heavy = exampleBundle(ec, "heavy", "\n" + "填充文字。".repeat(1500));
  const lines = [];
  for (let i = 1; i <= 300; i++) {
    if (i % 50 === 7) lines.push("{ not json");
    else if (i % 3 === 0) lines.push(JSON.stringify({ ...heavy, report: { ...heavy.report, title: `bundle ${i}` } }));
    else lines.push(line(`bundle ${i}`));
  }
  const r = spawnSync(process.execPath, [CLI, "check", "-", "--jobs", "2", "--now", NOW], { encoding: "utf8", env: ENV, input: lines.join("\n") + "\n", maxBuffer: 1 << 30 });
  assert.equal(r.status, 4, r.stderr);
  const out = jsonLines(r.stdout);
  assert.equal(out.length, 300);
  out.forEach((o, k) => {
    assert.equal(o.line, k + 1);
    if ((k + 1) % 50 === 7) assert.equal(o.error.code, "contract");
    else {
      assert.equal(o.assessment.status, "partial");
      assert.ok(o.artifact.content.startsWith(`# bundle ${k + 1}\n`), `line ${k + 1}: ${o.artifact.content.slice(0, 40)}`);
    }
  });
});

/** Runs `check - --json` over `n` lines; resolves to the child's peak RSS (KiB) and how many ordered lines came out. */
async function streamRun(file, n) {
  // A small wrapper reports the CLI's peak RSS (every worker thread included) at exit.
  const probe = join(tmp("probe"), "probe.mjs");
  writeFileSync(probe, `process.on("exit", () => process.stderr.write("maxRSS " + process.resourceUsage().maxRSS + "\\n")); process.argv.splice(1, 1); await import(process.argv[1]);`);
  const input = openSync(file, "r");
  const child = spawn(process.execPath, ["--max-old-space-size=32", "--max-semi-space-size=1", probe, CLI, "check", "-", "--json", "--jobs", "2", "--now", NOW], {
    stdio: [input, "pipe", "pipe"],
    env: ENV,
  });
  closeSync(input);
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  let count = 0;
  for await (const l of createInterface({ input: child.stdout })) {
    const o = JSON.parse(l);
    assert.equal(o.line, count + 1);
    assert.equal(o.assessment.status, "partial");
    count++;
  }
  const code = await new Promise((done) => (child.exitCode !== null ? done(child.exitCode) : child.on("exit", done)));
  assert.equal(code, 1, stderr);
  assert.equal(count, n);
  return Number(/maxRSS (\d+)/.exec(stderr)[1]);
}

test("10,000 JSON Lines through check -: every result, in order, in flat memory", async () => {
  const dir = tmp("stream");
  const one = line("streamed") + "\n";
  const rss = {};
  for (const n of [1000, 10000]) {
    const file = join(dir, `${n}.jsonl`);
    writeFileSync(file, one.repeat(n));
    rss[n] = await streamRun(file, n);
  }
  // 10,000 lines are 27 MB in and 60 MB out; held in memory, the heap limit is hit at once.
  // Flat memory grows by a few MiB here.
  const growth = (rss[10000] - rss[1000]) / 1024;
  assert.ok(growth < 16, `peak RSS grew by ${growth.toFixed(1)} MiB from 1,000 to 10,000 lines (${rss[1000]} → ${rss[10000]} KiB)`);
});

test("a closed stdout ends the command quietly (… --json | head -c1)", () => {
  const dir = tmp("epipe");
  const file = join(dir, "in.jsonl");
  writeFileSync(file, (line("piped") + "\n").repeat(200));
  for (const command of [`${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} check - --json < ${JSON.stringify(file)} | head -c1`, `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} check ${JSON.stringify(EXAMPLE)} --json | head -c1`]) {
    const r = spawnSync("bash", ["-c", `${command}; echo " status \${PIPESTATUS[0]}" >&2`], { encoding: "utf8", env: ENV });
    assert.equal(r.stdout, "{");
    assert.match(r.stderr, /^ status (141|1)\n$/, r.stderr);
  }
});

test("--jobs defaults to the number of available cores (os.availableParallelism())", () => {
  // A preload makes the host report 3 cores and counts the worker threads started.
  const dir = tmp("cores");
  const preload = join(dir, "cores.cjs");
  writeFileSync(preload, `
    const os = require("node:os"), wt = require("node:worker_threads");
    os.availableParallelism = () => 3;
    const Base = wt.Worker;
    let made = 0;
    wt.Worker = class extends Base { constructor(...a) { super(...a); made++; } };
    require("node:module").syncBuiltinESMExports();
    process.on("exit", () => process.stderr.write("workers: " + made + "\\n"));`);
  const run = (args, input) => spawnSync(process.execPath, ["--require", preload, CLI, "check", ...args, "--now", NOW, "--no-render"], { input, encoding: "utf8", env: ENV });
  const input = `${line("one")}\n${line("two")}\n`;
  const stream = run(["-"], input);
  assert.ok(stream.status <= 2, stream.stderr); // the check ran (the exit code is the verdict)
  assert.deepEqual(jsonLines(stream.stdout).map((r) => r.line), [1, 2]);
  assert.match(stream.stderr, /^workers: 3$/m);
  assert.match(run(["-", "--jobs", "1"], input).stderr, /^workers: 1$/m);
  const bundles = join(dir, "bundles");
  mkdirSync(bundles);
  writeFileSync(join(bundles, "one.json"), line("one"));
  const batch = run([bundles]);
  assert.ok(batch.status <= 2, batch.stderr);
  assert.match(batch.stdout, /with 3 jobs/);
  assert.match(batch.stderr, /^workers: 3$/m);
});
