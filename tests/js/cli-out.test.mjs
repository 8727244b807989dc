// What the CLI writes with --out, and what it prints about the files it reads and writes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PKG, NOW, localeEnv, readJson } from "./helpers.mjs";

const CLI = join(PKG, "bin", "cli.mjs");
const ENV = localeEnv("en_US.UTF-8");
const tmp = (prefix) => mkdtempSync(join(tmpdir(), `evidence-check-${prefix}-`));
const run = (...args) => spawnSync(process.execPath, [CLI, ...args, "--now", NOW], { encoding: "utf8", env: ENV });

/** The example, its title `title`, without reviews (a partial check with an artifact). */
function bundle(title, edit = () => {}) {
  const b = readJson("examples", "demo.bundle.json");
  b.report.title = title;
  b.reviews = [];
  edit(b);
  return JSON.stringify(b);
}
/** A bundle whose first citation no longer matches its source: invalid, no artifact. */
const invalid = (title) => bundle(title, (b) => (b.report.claims[1].citations[0].start += 1));

test("--out replaces a planted symlink and never writes through it (one bundle)", () => {
  const outside = join(tmp("outside"), "precious.txt");
  writeFileSync(outside, "precious");
  const dir = tmp("out");
  const link = join(dir, "a.md");
  symlinkSync(outside, link);
  const input = join(tmp("in"), "a.json");
  writeFileSync(input, bundle("one"));
  const r = run("check", input, "--out", link);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(readFileSync(outside, "utf8"), "precious", "the file the link pointed to is unchanged");
  assert.ok(!lstatSync(link).isSymbolicLink(), "the link itself was replaced by the artifact");
  assert.match(readFileSync(link, "utf8"), /^# one\n/);
  assert.deepEqual(readdirSync(dir), ["a.md"], "no temporary file is left");
});

test("--out DIR replaces a planted symlink and never writes through it", () => {
  const elsewhere = tmp("outside");
  const outside = join(elsewhere, "precious.txt");
  writeFileSync(outside, "precious");
  const dir = tmp("batch");
  writeFileSync(join(dir, "a.json"), bundle("a"));
  writeFileSync(join(dir, "b.json"), bundle("b"));
  const out = tmp("out");
  symlinkSync(outside, join(out, "a.md"));
  // A dangling one, to a file that does not exist yet: it must not be created.
  symlinkSync(join(elsewhere, "created.md"), join(out, "b.md"));
  const r = run("check", dir, "--out", out, "--jobs", "1");
  assert.equal(r.status, 1, r.stderr);
  assert.equal(readFileSync(outside, "utf8"), "precious");
  assert.deepEqual(readdirSync(elsewhere), ["precious.txt"], "nothing was created through the dangling link");
  for (const name of ["a", "b"]) {
    assert.ok(!lstatSync(join(out, `${name}.md`)).isSymbolicLink());
    assert.match(readFileSync(join(out, `${name}.md`), "utf8"), new RegExp(`^# ${name}\\n`));
  }
  assert.deepEqual(readdirSync(out).sort(), ["a.md", "b.md"]);
});

test("a directory entry's line feed cannot forge a line of the check DIR summary", () => {
  const dir = tmp("names");
  writeFileSync(join(dir, "a\nstatus: reviewed_candidate.json"), "{");
  writeFileSync(join(dir, "ok.json"), bundle("ok"));
  const r = run("check", dir, "--jobs", "1");
  assert.equal(r.status, 4, r.stderr);
  const lines = r.stdout.split("\n");
  assert.ok(!lines.some((l) => l.startsWith("status:")), r.stdout);
  const failure = lines.find((l) => l.includes("a⟦U+000A⟧status: reviewed_candidate.json"));
  assert.ok(failure?.startsWith(`  ${join(dir, "a")}⟦U+000A⟧status: reviewed_candidate.json: contract: `), r.stdout);
});

test("--out DIR removes the artifact of a bundle that now checks invalid", () => {
  const dir = tmp("stale");
  writeFileSync(join(dir, "a.json"), bundle("a"));
  writeFileSync(join(dir, "b.json"), bundle("b"));
  const out = tmp("out");
  assert.equal(run("check", dir, "--out", out).status, 1);
  assert.deepEqual(readdirSync(out).sort(), ["a.md", "b.md"]);
  // b now breaks a citation, and a is not a bundle any more: neither keeps its old artifact.
  writeFileSync(join(dir, "b.json"), invalid("b"));
  writeFileSync(join(dir, "a.json"), "{");
  writeFileSync(join(dir, "c.json"), bundle("c"));
  const r = run("check", dir, "--out", out);
  assert.equal(r.status, 4, r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ["c.md"]);
  // A file the run did not make a name for is left alone.
  writeFileSync(join(out, "notes.txt"), "mine");
  assert.equal(run("check", dir, "--out", out).status, 4);
  assert.deepEqual(readdirSync(out).sort(), ["c.md", "notes.txt"]);
});
