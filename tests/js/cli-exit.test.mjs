// Exit codes a pipeline can branch on: 4 for a directory or a stream in which some bundles
// could not be read (the others' results still written), a stray non-bundle file skipped,
// and --no-render's status-only results.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, PKG, NOW, localeEnv } from "./helpers.mjs";

const CLI = join(PKG, "bin", "cli.mjs");
const EXAMPLE = readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8");
const jsonLines = (text) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l));

function run(args, input) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: localeEnv("en_US.UTF-8"), input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function dir(files) {
  const d = mkdtempSync(join(tmpdir(), "evidence-check-exit-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(d, name), content);
  return d;
}

const STRAY = JSON.stringify({ name: "app", version: "1.0.0", private: true });

test("a directory with an unreadable bundle exits 4, every good bundle's result written", () => {
  const d = dir({ "a.json": EXAMPLE, "b-broken.json": "{", "c.json": EXAMPLE });
  const r = run(["check", d, "--json", "--now", NOW, "--jobs", "2"]);
  assert.equal(r.code, 4, r.stderr);
  const lines = jsonLines(r.stdout);
  assert.deepEqual(lines.map((l) => [l.path, l.assessment?.status ?? l.error.code]), [
    [join(d, "a.json"), "partial"], [join(d, "b-broken.json"), "contract"], [join(d, "c.json"), "partial"],
  ]);
  assert.ok(lines[0].artifact.content.length > 0);
  const summary = run(["check", d, "--now", NOW]);
  assert.equal(summary.code, 4);
  assert.match(summary.stdout, /\n {2}unusable: 1\n/);
});

test("a stream with an unreadable line exits 4, every good line's result written", () => {
  const line = JSON.stringify(JSON.parse(EXAMPLE));
  const r = run(["check", "-", "--now", NOW], `${line}\n{ not json\n${line}\n`);
  assert.equal(r.code, 4, r.stderr);
  assert.deepEqual(jsonLines(r.stdout).map((l) => [l.line, l.assessment?.status ?? l.error.code]), [[1, "partial"], [2, "contract"], [3, "partial"]]);
  // Only unusable lines: still 4, not a usage error.
  assert.equal(run(["check", "-"], "{\n").code, 4);
  // Usage errors and unreadable input as a whole stay 3.
  assert.equal(run(["check", "-", "--jobs", "x"], "").code, 3);
  assert.equal(run(["check", "-"], "\n").code, 3);
  assert.equal(run(["check", join(tmpdir(), "no-such-dir-evidence-check")]).code, 3);
});

test("a stray non-bundle file in a directory is reported and skipped, not fatal", () => {
  const d = dir({ "a.json": EXAMPLE, "package.json": STRAY, "tsconfig.json": "[1, 2]" });
  const r = run(["check", d, "--json", "--now", NOW]);
  assert.equal(r.code, 1, r.stderr);
  const lines = jsonLines(r.stdout);
  assert.deepEqual(lines.map((l) => l.path), ["a.json", "package.json", "tsconfig.json"].map((f) => join(d, f)));
  assert.equal(lines[0].assessment.status, "partial");
  assert.equal(lines[1].skipped.code, "not_a_bundle");
  assert.match(lines[1].skipped.message, /not a bundle/);
  assert.equal(lines[2].skipped.code, "not_a_bundle");
  const summary = run(["check", d, "--now", NOW]);
  assert.equal(summary.code, 1);
  assert.match(summary.stdout, /^checked 1 bundle in /);
  assert.ok(summary.stdout.includes(`  skipped: 2\n`), summary.stdout);
  assert.ok(summary.stdout.includes(`  ${join(d, "package.json")}: skipped: not_a_bundle: `), summary.stdout);
  // Nothing but stray files: no bundle was checked.
  const none = run(["check", dir({ "package.json": STRAY })]);
  assert.equal(none.code, 3);
  assert.match(none.stderr, /no_bundles: .* holds no bundle/);
});

test("--no-render gives status-only results for streams and directories", () => {
  const line = JSON.stringify(JSON.parse(EXAMPLE));
  const stream = run(["check", "-", "--no-render", "--now", NOW], `${line}\n`);
  assert.equal(stream.code, 1, stream.stderr);
  const [result] = jsonLines(stream.stdout);
  assert.deepEqual(Object.keys(result), ["line", "assessment"]);
  assert.equal(result.assessment.status, "partial");
  const d = dir({ "a.json": EXAMPLE });
  const listed = jsonLines(run(["check", d, "--no-render", "--json", "--now", NOW]).stdout);
  assert.deepEqual(Object.keys(listed[0]), ["path", "assessment"]);
  const one = JSON.parse(run(["check", join(d, "a.json"), "--no-render", "--json"]).stdout);
  assert.deepEqual(Object.keys(one), ["assessment"]);
  const out = run(["check", d, "--no-render", "--out", join(d, "artifacts")]);
  assert.equal(out.code, 3);
  assert.match(out.stderr, /^evidence-check: usage: --out writes artifacts; --no-render makes none\n/);
});
