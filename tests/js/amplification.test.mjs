// Issue 12, finding 1: bundles whose report holds millions of `{}` claims (1, 2 and
// 12.6 MB, under the 16 MiB input limit) end in a coded contract error that gives the
// real count, with at most 100 violations plus one counting the rest, a small stderr,
// and a peak RSS that grows by less than 10× the input. Each run is a child process
// that reports its own peak RSS (process.resourceUsage().maxRSS); the growth is
// measured against the same child checking a tiny bundle. No timing is asserted.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PKG, userProject } from "./helpers.mjs";

const CLI = join(PKG, "bin", "cli.mjs");
const MAX_LISTED = 100;
let dir;
let project;

before(() => {
  dir = mkdtempSync(join(tmpdir(), "evidence-check-amp-"));
  project = userProject();
});
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The red-team's repro: about `bytes` bytes of JSON whose report holds `{}` claims, as
 * a bundle or (`report`) as the report alone.
 */
function write(name, bytes, report = false) {
  const head = `${report ? "" : '{"scope":{"tenant_id":"t","user_id":"u"},"sources":[],"report":'}{"title":"x","claims":[`;
  const tail = report ? "]}" : "]}}";
  const n = Math.max(1, Math.floor((bytes - head.length - tail.length + 1) / 3));
  const text = `${head}${"{},".repeat(n - 1)}{}${tail}`;
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, n, bytes: text.length };
}

// Writes the peak RSS (bytes) to $EC_RSS_OUT when the process exits.
const RSS_HOOK = `process.on("exit", () => require("node:fs").writeFileSync(process.env.EC_RSS_OUT, String(process.resourceUsage().maxRSS * 1024)));`;

function run(args, rssName) {
  const hook = join(dir, "rss-hook.cjs");
  writeFileSync(hook, RSS_HOOK);
  const out = join(dir, `${rssName}.rss`);
  const r = spawnSync(process.execPath, ["--require", hook, ...args], {
    cwd: project, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, env: { ...process.env, EC_RSS_OUT: out },
  });
  const rss = Number(spawnSync("cat", [out], { encoding: "utf8" }).stdout);
  return { ...r, rss };
}

// The API in a child: checkBundle or parseReport on the file's text; prints the error.
const API = `
const ec = require("evidence-check");
const text = require("node:fs").readFileSync(process.argv[1], "utf8");
const call = process.argv[2];
// The reference policy (12 claims), in Chinese.
const options = { policy: "reference", lang: "zh" };
try {
  if (call === "checkBundle") ec.checkBundle(text, options);
  else ec.parseReport(text, options);
  console.log(JSON.stringify({ ok: true }));
} catch (e) {
  const issues = e.issues ?? [];
  console.log(JSON.stringify({ code: e.code, name: e.name, message: e.message, count: issues.length, first: issues[0], last: issues.at(-1) }));
}`;

function api(call, file) {
  const r = run(["-e", API, file.path, call], `${call}-${file.n}`);
  console.log(`# ${call}: ${file.bytes} bytes of input, peak RSS ${r.rss} bytes`);
  assert.equal(r.status, 0, r.stderr);
  return { ...JSON.parse(r.stdout), rss: r.rss, stderr: r.stderr };
}

const SIZES = [["1 MB", 1 << 20], ["2 MB", 2 << 20], ["12.6 MB", 12_600_000]];

for (const [label, bytes] of SIZES) {
  test(`${label} of empty claims: a coded contract error with the real count, bounded memory, through the API and the CLI`, () => {
    const tiny = write("tiny.json", 200);
    const file = write(`amp-${bytes}.json`, bytes);
    const limit = 10 * file.bytes;
    for (const call of ["checkBundle", "parseReport"]) {
      const report = call === "parseReport";
      const baseline = api(call, write(`tiny-${call}.json`, 200, report)).rss;
      const input = report ? write(`amp-report-${bytes}.json`, bytes, true) : file;
      const got = api(call, input);
      assert.equal(got.code, "contract", `${call}: ${JSON.stringify(got)}`);
      const path = call === "checkBundle" ? "/report/claims" : "/claims";
      // How to raise the limit is in the error's language.
      assert.deepEqual(
        { path: got.first.path, code: got.first.code, message: got.first.message },
        { path, code: "too_long", message: `列表至多 12 项,实有 ${input.n} 项;可通过策略字段 max_claims 提高上限(CLI:--policy documents,或在策略文件中设置 "max_claims")` },
      );
      assert.ok(got.count <= MAX_LISTED + 1, `${call}: ${got.count} violations`);
      assert.ok(got.rss - baseline < 10 * input.bytes, `${call}: peak RSS grew by ${got.rss - baseline} bytes for ${input.bytes} bytes of input`);
    }
    const baseline = run([CLI, "check", tiny.path, "--policy", "reference"], "cli-tiny").rss;
    const cli = run([CLI, "check", file.path, "--policy", "reference"], `cli-${file.n}`);
    console.log(`# CLI: ${file.bytes} bytes of input, peak RSS ${cli.rss} bytes (tiny bundle: ${baseline}), stderr ${cli.stderr.length} bytes`);
    assert.notEqual(cli.status, 0);
    assert.ok(cli.stderr.length < 64 * 1024, `stderr is ${cli.stderr.length} bytes`);
    assert.match(cli.stderr, /contract/);
    assert.match(cli.stderr, new RegExp(`not ${file.n}`));
    assert.ok(!/unreachable|RuntimeError/.test(cli.stderr), cli.stderr.slice(0, 500));
    assert.ok(cli.rss - baseline < limit, `CLI: peak RSS grew by ${cli.rss - baseline} bytes for ${file.bytes} bytes of input`);
  });
}
