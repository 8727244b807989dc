// The CLI as shipped in the package (pkg/bin/cli.mjs): output, artifact and exit codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { ROOT, PKG, NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const CLI = join(PKG, "bin", "cli.mjs");
const EXAMPLE = join(ROOT, "examples", "demo.bundle.json");
const ARTIFACT = readFileSync(join(ROOT, "examples", "demo.artifact.md"), "utf8");
const REPORT_DIGEST = "1ce0154968e3344b65321a63ce8082d19a3c2b2960a2cb9ded546a4331090691";
const ec = userRequire(userProject())("evidence-check");

function run(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tmp(name, content) {
  const path = join(mkdtempSync(join(tmpdir(), "evidence-check-cli-")), name);
  writeFileSync(path, content);
  return path;
}

/** The example with its report changed by `edit`, reviews recorded anew for every claim. */
function variant(edit, verdict = "supported") {
  const bundle = readJson("examples", "demo.bundle.json");
  edit(bundle);
  bundle.reviews = bundle.report.claims.map((c) => ec.recordReview(bundle.scope, bundle.report, c.claim_id, verdict, "checked", { now: NOW }));
  return tmp("bundle.json", JSON.stringify(bundle));
}

test("check --json prints the whole result; exit 1 for partial", () => {
  const r = run("check", EXAMPLE, "--json", "--now", NOW, "--compat", "reference");
  assert.equal(r.stderr, "");
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.stdout), {
    assessment: {
      status: "partial",
      report_digest: REPORT_DIGEST,
      claims: { claim_a: "supported", claim_b: "supported", choice: "supported" },
      issues: [],
    },
    artifact: {
      content: ARTIFACT,
      content_digest: createHash("sha256").update(ARTIFACT).digest("hex"),
      report_digest: REPORT_DIGEST,
      status: "partial",
    },
  });
});

test("check prints a readable table and writes the artifact with --out", () => {
  const out = tmp("artifact.md", "");
  const r = run("check", EXAMPLE, "--out", out, "--now", NOW, "--compat", "reference");
  assert.equal(r.code, 1);
  assert.equal(readFileSync(out, "utf8"), ARTIFACT);
  assert.equal(
    r.stdout,
    [
      "status: partial",
      "  Every citation holds, but the report has gaps, or a claim is insufficient, contradicted or disputed.",
      `report digest: ${REPORT_DIGEST}`,
      "",
      "claim    kind        state",
      "claim_a  fact        supported",
      "claim_b  fact        supported",
      "choice   inference   supported",
      "",
      "issues: none",
      `artifact: ${out} (content digest ${createHash("sha256").update(ARTIFACT).digest("hex")})`,
      "",
    ].join("\n"),
  );
});

test("exit 0 for a reviewed candidate", () => {
  const r = run("check", variant((b) => delete b.report.gaps), "--json", "--now", NOW);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).assessment.status, "reviewed_candidate");
});

test("exit 2 for an invalid report, with its issues and no artifact", () => {
  const path = variant((b) => {
    b.report.claims[1].citations[0].quote = "方案 B 不需要联网。";
  });
  const never = tmp("never.md", "untouched");
  const r = run("check", path, "--now", NOW, "--out", never);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(readFileSync(never, "utf8"), "untouched", "no artifact is written for an invalid report");
  assert.match(r.stdout, /^status: invalid\n/);
  assert.ok(r.stdout.includes("issues: 1\n  claim_b / citation_b: quote_mismatch — 引文与原文区间不一致。 (来源 plan_b; 区间 [9, 21); 正文长度 22)\n"), r.stdout);
  assert.ok(r.stdout.includes("artifact: not rendered — report_invalid: 报告引用无效,拒绝导出。\n"), r.stdout);
});

test("exit 3 for unusable input, with a clear message and no stack trace", () => {
  const cases = [
    [["check", join(ROOT, "no-such-file.json")], /^evidence-check: ENOENT: no such file or directory/],
    [["check", tmp("bad.json", "{ not json")], /^evidence-check: contract: bundle breaks its contract at \/: key must be a string/],
    [["check", tmp("dup.json", '{"scope": {}, "scope": {}}')], /duplicate key `scope`/],
    [["check", tmp("latin1.json", Buffer.from([0x7b, 0xe9, 0x7d]))], /is not valid UTF-8/],
    [["check", EXAMPLE, "--now", "yesterday"], /^evidence-check: invalid_now: now 必须是带秒和时区偏移的 ISO 8601 时间/],
    [["check", EXAMPLE, "--now", "yesterday", "--lang", "en"], /^evidence-check: invalid_now: now must be an ISO 8601 date-time/],
    [["check", EXAMPLE, "--frobnicate"], /^evidence-check: usage: unknown option --frobnicate/],
    [["frobnicate"], /^evidence-check: usage: unknown command frobnicate/],
    [[], /no command given/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.code, 3, `${args.join(" ")}: exit ${r.code}`);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  }
});

test("a contract error lists every violation with its path", () => {
  const bundle = readJson("examples", "demo.bundle.json");
  bundle.report.claims[0].kind = "opinion";
  bundle.sources[1].spec.filename = "plan_b.txt";
  const r = run("check", tmp("b.json", JSON.stringify(bundle)));
  assert.equal(r.code, 3);
  assert.equal(
    r.stderr,
    [
      "evidence-check: contract: bundle breaks its contract at /sources/1/spec/filename: String should match pattern '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\\.md$' (and 1 more)",
      "  /sources/1/spec/filename: String should match pattern '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\\.md$' (pattern_mismatch)",
      "  /report/claims/0/kind: Input should be 'fact' or 'inference' (not_allowed)",
      "",
    ].join("\n"),
  );
});

test("digest prints the SHA-256 of the LF-normalised text", () => {
  const r = run("digest", tmp("s.md", "# T\r\n方案 A\rend\n"));
  assert.equal(r.code, 0);
  assert.equal(r.stdout, createHash("sha256").update("# T\n方案 A\nend\n").digest("hex") + "\n");
});

test("--help and --version", () => {
  assert.match(run("--help").stdout, /^usage:\n  evidence-check check BUNDLE.json/);
  assert.equal(run("--version").stdout, "evidence-check 0.1.0\n");
});

test("check DIR --jobs 2 checks every bundle and exits with the worst code", () => {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-batch-"));
  const example = readFileSync(EXAMPLE, "utf8");
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `ok-${i}.json`), example);
  writeFileSync(join(dir, "invalid.json"), readFileSync(variant((b) => (b.report.claims[1].citations[0].start += 1))));
  writeFileSync(join(dir, "notes.txt"), "not a bundle, not read");
  let r = run("check", dir, "--jobs", "2", "--json", "--now", NOW);
  assert.equal(r.code, 2, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    { jobs: out.jobs, bundles: out.bundles, counts: out.counts, results: out.results },
    {
      jobs: 2,
      bundles: 6,
      counts: { reviewed_candidate: 0, needs_review: 0, partial: 5, invalid: 1, unusable: 0 },
      results: [
        { path: join(dir, "invalid.json"), status: "invalid", issues: 1 },
        ...[0, 1, 2, 3, 4].map((i) => ({ path: join(dir, `ok-${i}.json`), status: "partial", issues: 0 })),
      ],
    },
  );
  writeFileSync(join(dir, "zz-broken.json"), "{");
  r = run("check", dir, "--jobs", "1");
  assert.equal(r.code, 3);
  assert.match(r.stdout, /^checked 7 bundles in .* with 1 job in /);
  assert.ok(r.stdout.includes("  partial: 5\n  invalid: 1\n  unusable: 1\n"), r.stdout);
  assert.equal(run("check", dir, "--jobs", "0").code, 3);
});

test("the default artifact is hardened; --compat reference is the reference's bytes", () => {
  const out = tmp("hardened.md", "");
  assert.equal(run("check", EXAMPLE, "--out", out, "--now", NOW).code, 1);
  const hardened = readFileSync(out, "utf8");
  // Same layout, line for line; only escaping differs (the reference leaves ':' and '+' alone).
  assert.equal(hardened.split("\n").length, ARTIFACT.split("\n").length);
  assert.ok(hardened.includes("2026\\-11\\-29T00\\:00\\:00\\+00\\:00"), hardened);
  assert.ok(ARTIFACT.includes("2026\\-11\\-29T00:00:00\\+00:00"));
  assert.equal(run("check", EXAMPLE, "--compat", "html").code, 3);
});

test("control characters in report keys and file names reach the terminal escaped", () => {
  const bundle = readJson("examples", "demo.bundle.json");
  bundle.report["\u001b[2J\u001b[32mstatus: reviewed_candidate"] = 1;
  const r = run("check", tmp("hostile.json", JSON.stringify(bundle)));
  assert.equal(r.code, 3);
  assert.doesNotMatch(r.stderr, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, "no raw control character");
  assert.ok(r.stderr.includes("/report/⟦U+001B⟧[2J⟦U+001B⟧[32mstatus: reviewed_candidate"), r.stderr);
  const missing = run("check", join(tmpdir(), "\u001b]0;owned\u0007\u202e.json"));
  assert.equal(missing.code, 3);
  assert.ok(missing.stderr.includes("⟦U+001B⟧]0;owned⟦U+0007⟧⟦U+202E⟧.json"), missing.stderr);
  assert.doesNotMatch(missing.stderr, /[\u001b\u0007\u202e]/);
});

test("--json output escapes DEL, C1 and bidi controls too, and parses back to the same value", () => {
  // The reference's escaping leaves them raw in the artifact; JSON.stringify escapes only C0.
  const title = "report \u009b31m \u007f \u202eevil\u202c \u2066x\u2069";
  const path = variant((b) => (b.report.title = title));
  const r = run("check", path, "--json", "--now", NOW, "--compat", "reference");
  assert.equal(r.code, 1, r.stderr);
  assert.doesNotMatch(r.stdout, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, "no raw control character");
  assert.ok(r.stdout.includes("\\u009B31m"), "escaped as \\uXXXX");
  assert.deepEqual(JSON.parse(r.stdout), ec.checkBundle(readFileSync(path, "utf8"), { now: NOW, compat: "reference" }));
  // A directory's summary names its files: escaped in JSON, shown as ⟦U+XXXX⟧ in text.
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-batch-"));
  const name = "a\u009b31m\u202e.json";
  writeFileSync(join(dir, name), "{");
  const batch = run("check", dir, "--json");
  assert.equal(batch.code, 3);
  assert.doesNotMatch(batch.stdout, /[\u009b\u202e]/);
  assert.equal(JSON.parse(batch.stdout).results[0].path, join(dir, name));
  const text = run("check", dir);
  assert.ok(text.stdout.includes("a⟦U+009B⟧31m⟦U+202E⟧.json: contract:"), text.stdout);
});

test("only regular files are read, and never past the input limit", () => {
  // A device and a FIFO are refused unread: /dev/zero grew without bound, a FIFO hung.
  const fifo = join(mkdtempSync(join(tmpdir(), "evidence-check-fifo-")), "bundle.json");
  spawnSync("mkfifo", [fifo]);
  for (const [path, kind] of [["/dev/zero", "a character device"], [fifo, "a FIFO"]]) {
    for (const cmd of ["check", "digest"]) {
      const r = spawnSync(process.execPath, [CLI, cmd, path], { encoding: "utf8", timeout: 30000 });
      assert.equal(r.status, 3, `${cmd} ${path}: exit ${r.status} ${r.signal ?? ""}`);
      assert.equal(r.stderr, `evidence-check: not_a_file: ${path} is ${kind}, not a regular file; it was not read\n`);
    }
  }
  const big = tmp("big.json", Buffer.alloc(16 * 1024 * 1024 + 1, 0x20));
  const r = run("check", big);
  assert.equal(r.code, 3);
  assert.equal(r.stderr, `evidence-check: input_too_large: ${big} is 16777217 bytes, over the limit of 16777216 bytes; it was not read\n`);
  // In a directory, such a file is one unusable bundle among the others.
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-batch-"));
  spawnSync("mkfifo", [join(dir, "fifo.json")]);
  writeFileSync(join(dir, "ok.json"), readFileSync(EXAMPLE));
  const batch = spawnSync(process.execPath, [CLI, "check", dir, "--jobs", "1", "--json"], { encoding: "utf8", timeout: 30000 });
  assert.equal(batch.status, 3, batch.stderr);
  assert.deepEqual(JSON.parse(batch.stdout).results.map((x) => x.error?.code ?? x.status), ["not_a_file", "partial"]);
});
