// `check DIR` and `check -` run chunks of bundles per worker task (js/worker.mjs): the
// output must be byte for byte what checking each bundle on its own gives, in order,
// whatever the chunk edges (bundles of different cost so that chunks finish out of order,
// unusable inputs inside a chunk, more jobs than bundles, lines across the stream's reads).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, PKG, NOW, exampleBundle, localeEnv, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const { errorData, jsonOut, readInputFile } = await import(join(PKG, "bin", "load.mjs"));

const CLI = join(PKG, "bin", "cli.mjs");
const ENV = localeEnv("en_US.UTF-8");
const OPTIONS = { render: true, lang: "en", now: NOW };

const tmp = (prefix) => mkdtempSync(join(tmpdir(), `evidence-check-${prefix}-`));

/** The example titled `title`, without reviews; `heavy` adds 22 KB to a source (a slower check). */
function bundle(title, heavy = false) {
  return JSON.stringify(exampleBundle(ec, title, heavy ? "\n" + "填充文字。".repeat(1500) : ""));
}

/** One result line as the CLI must print it: `tag` and the bundle's result, or its error. */
function expected(tag, read, options = OPTIONS) {
  try {
    return jsonOut({ ...tag, ...ec.checkBundle(read(), options) }, 0);
  } catch (e) {
    return jsonOut({ ...tag, error: errorData(e) }, 0);
  }
}

const cli = (args, input) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: ENV, input, maxBuffer: 1 << 30 });

test("check DIR: every line byte for byte, in name order, across chunk edges, unusable files inside chunks", () => {
  const dir = tmp("chunks");
  const names = [];
  for (let i = 0; i < 150; i++) {
    const name = `b${String(i).padStart(3, "0")}.json`;
    names.push(name);
    if (i === 37) writeFileSync(join(dir, name), "{");
    else if (i === 75) spawnSync("mkfifo", [join(dir, name)]);
    else if (i === 101) mkdirSync(join(dir, name));
    else writeFileSync(join(dir, name), bundle(`bundle ${i}`, i % 4 === 1));
  }
  const want = names.map((n) => expected({ path: join(dir, n) }, () => readInputFile(join(dir, n)))).join("");
  assert.match(want, /"path":"[^"]*b075\.json","error":\{"code":"not_a_file"/);
  assert.match(want, /"path":"[^"]*b101\.json","error":\{"code":"not_a_file"/);
  for (const jobs of ["1", "2", "3"]) {
    const r = cli(["check", dir, "--jobs", jobs, "--json", "--now", NOW]);
    assert.equal(r.status, 4, r.stderr);
    assert.equal(r.stderr, "");
    assert.ok(r.stdout === want, `--jobs ${jobs}: the output differs from checking each bundle alone`);
  }
  // The summary: the counts, and each unusable file named with its error, in name order.
  const r = cli(["check", dir, "--jobs", "2", "--now", NOW]);
  assert.equal(r.status, 4, r.stderr);
  const errors = [37, 75, 101].map((i) => JSON.parse(want.split("\n")[i]));
  assert.deepEqual(r.stdout.split("\n").slice(1), [
    "  partial: 147",
    "  unusable: 3",
    ...errors.map((e) => `  ${e.path}: ${e.error.code}: ${e.error.message}`),
    "",
  ]);
});

test("check DIR: more jobs than bundles, and --out writes every artifact", () => {
  const dir = tmp("few");
  const names = ["a.json", "b.json", "c.json"];
  names.forEach((n, i) => writeFileSync(join(dir, n), bundle(`few ${i}`, i === 0)));
  const want = names.map((n) => expected({ path: join(dir, n) }, () => readInputFile(join(dir, n)))).join("");
  for (const jobs of ["1", "8"]) {
    const out = join(tmp("out"), "md");
    const r = cli(["check", dir, "--jobs", jobs, "--json", "--now", NOW, "--out", out]);
    assert.equal(r.status, 1, r.stderr);
    assert.ok(r.stdout === want, `--jobs ${jobs}: the output differs from checking each bundle alone`);
    names.forEach((n, i) => assert.equal(readFileSync(join(out, n.replace(".json", ".md")), "utf8"), JSON.parse(want.split("\n")[i]).artifact.content));
  }
});

test("check -: every line byte for byte, in order; blank, CRLF, non-UTF-8 and over-limit lines inside chunks", () => {
  const dir = tmp("stream");
  const policyFile = join(dir, "policy.json");
  writeFileSync(policyFile, JSON.stringify({ extends: "reference", max_input_bytes: 100000 }));
  const options = { ...OPTIONS, policy: ec.parsePolicy(readFileSync(policyFile, "utf8")) };
  const parts = [];
  const want = [];
  for (let line = 1; line <= 400; line++) {
    const text = bundle(`line ${line}`, line % 5 === 2);
    let bytes;
    if (line % 41 === 0) bytes = Buffer.from("");
    else if (line % 43 === 0) bytes = Buffer.from(" \t\u00a0\u3000\u2028");
    else if (line % 47 === 0) bytes = Buffer.concat([Buffer.from(text.slice(0, 50)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(50))]);
    else if (line % 53 === 0) bytes = Buffer.from(text + " ".repeat(100000));
    else if (line % 7 === 0) bytes = Buffer.from(text + "\r");
    else bytes = Buffer.from(text);
    parts.push(bytes);
    if (line % 41 === 0 || line % 43 === 0) continue;
    const tag = { line };
    if (line % 47 === 0) want.push(jsonOut({ ...tag, error: { code: "invalid_utf8", message: "the line is not valid UTF-8", issues: [] } }, 0));
    else if (line % 53 === 0) want.push(jsonOut({ ...tag, error: { code: "input_too_large", message: "the line is over the limit of 100000 bytes; it was not read", issues: [] } }, 0));
    else want.push(expected(tag, () => text, options));
  }
  assert.equal(want.filter((l) => l.includes('"error":')).length, 15, "only the non-UTF-8 and over-limit lines are errors");
  // The last line has no line feed.
  const input = Buffer.concat(parts.flatMap((p, k) => (k === parts.length - 1 ? [p] : [p, Buffer.from("\n")])));
  for (const jobs of ["1", "2", "3"]) {
    const r = spawnSync(process.execPath, [CLI, "check", "-", "--jobs", jobs, "--now", NOW, "--policy", policyFile], { env: ENV, input, maxBuffer: 1 << 30 });
    assert.equal(r.status, 4, String(r.stderr));
    assert.equal(String(r.stderr), "");
    const out = r.stdout.toString("utf8");
    assert.equal(out.split("\n").length - 1, want.length);
    assert.ok(out === want.join(""), `--jobs ${jobs}: the output differs from checking each line alone`);
  }
});

test("readInputFile: files of every size in turn, each exactly (read buffers are kept across calls), and files stat'ed as empty", () => {
  const dir = tmp("read");
  const sizes = [5000, 3, 2 * 1024 * 1024 + 7, 10, 100000, 0, 70000, 1];
  sizes.forEach((size, k) => writeFileSync(join(dir, `f${k}`), "é".repeat(size >> 1) + "x".repeat(size & 1)));
  for (let round = 0; round < 2; round++) {
    sizes.forEach((_, k) => assert.ok(readInputFile(join(dir, `f${k}`)) === readFileSync(join(dir, `f${k}`), "utf8"), `f${k}`));
  }
  // procfs files are regular files of size 0 with content: read on to their end.
  assert.equal(readInputFile("/proc/self/mountinfo"), readFileSync("/proc/self/mountinfo", "utf8"));
  // One of megabytes, so read in many reads after the first.
  if (existsSync("/proc/kallsyms")) assert.ok(readInputFile("/proc/kallsyms") === readFileSync("/proc/kallsyms", "utf8"), "/proc/kallsyms");
  assert.throws(() => readInputFile("/proc/self/mountinfo", 10), { code: "input_too_large", message: /is more than 10 bytes/ });
  assert.throws(() => readInputFile(join(dir, "f0"), 4999), { code: "input_too_large", message: /is 5000 bytes/ });
});
