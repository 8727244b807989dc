// The CLI as shipped in the package (pkg/bin/cli.mjs): output, artifact and exit codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { ROOT, PKG, NOW, localeEnv, readJson, userProject, userRequire } from "./helpers.mjs";

const CLI = join(PKG, "bin", "cli.mjs");
const EXAMPLE = join(ROOT, "examples", "demo.bundle.json");
const ARTIFACT = readFileSync(join(ROOT, "examples", "demo.artifact.md"), "utf8");
const REPORT_DIGEST = "1ce0154968e3344b65321a63ce8082d19a3c2b2960a2cb9ded546a4331090691";
const ec = userRequire(userProject())("evidence-check");

const locale = localeEnv;

/** Runs the CLI in a Chinese locale (the reference's language, which these tests assume). */
function run(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: locale("zh_CN.UTF-8") });
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
      "状态: partial",
      "  每条引用均成立,但报告有缺口,或有论断证据不足、被反驳或存在冲突。",
      `报告摘要: ${REPORT_DIGEST}`,
      "",
      "论断     类型        状态",
      "claim_a  fact        supported",
      "claim_b  fact        supported",
      "choice   inference   supported",
      "",
      "问题:无",
      `产物:${out}(内容摘要 ${createHash("sha256").update(ARTIFACT).digest("hex")})`,
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
  assert.match(r.stdout, /^状态: invalid\n/);
  assert.ok(r.stdout.includes("问题:1 个\n  claim_b / citation_b: quote_mismatch — 引文与原文区间不一致。 (来源 plan_b; 区间 [9, 21); 正文长度 22; 该区间的原文:\"方案 B 需要联网检索。\")\n"), r.stdout);
  assert.ok(r.stdout.includes("产物:未生成 — report_invalid:报告引用无效,拒绝导出。\n"), r.stdout);
});

test("exit 3 for unusable input, with a clear message and no stack trace", () => {
  const cases = [
    [["check", join(ROOT, "no-such-file.json")], /^evidence-check: not_found: .*no-such-file.json 不存在\n/],
    [["check", tmp("bad.json", "{ not json")], /^evidence-check: contract: bundle 不符合契约\(位置 \/\):键必须是字符串\(第 1 行第 3 列\)/],
    [["check", tmp("dup.json", '{"scope": {}, "scope": {}}')], /重复的键 `scope`/],
    [["check", tmp("latin1.json", Buffer.from([0x7b, 0xe9, 0x7d]))], /latin1\.json 不是有效的 UTF-8/],
    [["check", EXAMPLE, "--now", "yesterday"], /^evidence-check: invalid_now: now 必须是带秒和时区偏移的 ISO 8601 时间/],
    [["check", EXAMPLE, "--now", "yesterday", "--lang", "en"], /^evidence-check: invalid_now: now must be an ISO 8601 date-time/],
    [["check", EXAMPLE, "--frobnicate"], /^evidence-check: usage: 未知选项 --frobnicate/],
    [["frobnicate"], /^evidence-check: usage: 未知命令 frobnicate/],
    [[], /没有给出命令/],
    [["check", join(ROOT, "no-such-file.json"), "--lang", "en"], /^evidence-check: not_found: .*no-such-file.json does not exist\n/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.code, 3, `${args.join(" ")}: exit ${r.code}`);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  }
});

/** The hint of a value the default policy allows, under --compat reference, in Chinese. */
const COMPAT_ALLOWS = '默认的 documents 策略允许此值:去掉 compat "reference"(CLI:不加 --compat reference 运行)';

test("a contract error lists every violation with its path", () => {
  const bundle = readJson("examples", "demo.bundle.json");
  bundle.report.claims[0].kind = "opinion";
  bundle.sources[1].spec.filename = "plan_b.txt";
  const r = run("check", tmp("b.json", JSON.stringify(bundle)), "--compat", "reference");
  assert.equal(r.code, 3);
  assert.equal(
    r.stderr,
    [
      // In the locale's language (Chinese); the filename is one the default policy allows: said so.
      `evidence-check: contract: bundle 不符合契约(位置 /sources/1/spec/filename):字符串应匹配模式 '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\\.md$';${COMPAT_ALLOWS}(另有 1 处)`,
      `  /sources/1/spec/filename: 字符串应匹配模式 '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\\.md$';${COMPAT_ALLOWS} (pattern_mismatch)`,
      "  /report/claims/0/kind: 应为 'fact' 或 'inference' (not_allowed)",
      "",
    ].join("\n"),
  );
});

test("digest prints the SHA-256 of the LF-normalised text", () => {
  const r = run("digest", tmp("s.md", "# T\r\n方案 A\rend\n"));
  assert.equal(r.code, 0);
  assert.equal(r.stdout, createHash("sha256").update("# T\n方案 A\nend\n").digest("hex") + "\n");
});

test("--help and --version; the version is Cargo.toml's, written nowhere else", () => {
  assert.match(run("--help").stdout, /^usage:\n  evidence-check check BUNDLE.json/);
  const version = /^version\s*=\s*"([^"]+)"/m.exec(readFileSync(join(ROOT, "Cargo.toml"), "utf8"))[1];
  assert.equal(run("--version").stdout, `evidence-check ${version}\n`);
  assert.equal(readJson("pkg", "package.json").version, version);
  for (const f of readdirSync(join(ROOT, "js"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile())) {
    const path = join(f.parentPath, f.name);
    assert.ok(!readFileSync(path, "utf8").includes(`"${version}"`), `${path} holds the version ${version}`);
  }
  assert.equal(readJson("package.json").version, undefined, "the workspace's package.json holds no version of its own");
});

/** JSON Lines output, parsed. */
const jsonLines = (text) => text.split("\n").filter(Boolean).map((l) => JSON.parse(l));

test("check DIR --jobs 2 checks every bundle and exits with the worst code", () => {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-batch-"));
  const example = readFileSync(EXAMPLE, "utf8");
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `ok-${i}.json`), example);
  writeFileSync(join(dir, "invalid.json"), readFileSync(variant((b) => (b.report.claims[1].citations[0].start += 1))));
  writeFileSync(join(dir, "notes.txt"), "not a bundle, not read");
  let r = run("check", dir, "--jobs", "2", "--json", "--now", NOW);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, "");
  // One JSON line per bundle, in name order, with its whole result.
  const lines = jsonLines(r.stdout);
  assert.deepEqual(lines.map((l) => [l.path, l.assessment.status, l.assessment.issues.length]), [
    [join(dir, "invalid.json"), "invalid", 1],
    ...[0, 1, 2, 3, 4].map((i) => [join(dir, `ok-${i}.json`), "partial", 0]),
  ]);
  assert.deepEqual(lines[0].assessment.issues.map((i) => i.code), ["quote_mismatch"]);
  assert.equal(lines[0].render_error.code, "report_invalid");
  assert.deepEqual(lines[1], { path: join(dir, "ok-0.json"), ...ec.checkBundle(example, { now: NOW, lang: "zh" }) });
  writeFileSync(join(dir, "zz-broken.json"), "{");
  r = run("check", dir, "--jobs", "1");
  assert.equal(r.code, 4);
  assert.match(r.stdout, /^已检查 .* 中的 7 个证据包,1 个并行任务,用时 /);
  assert.ok(r.stdout.includes("  partial: 5\n  invalid: 1\n  unusable: 1\n"), r.stdout);
  assert.equal(run("check", dir, "--jobs", "0").code, 3);
  // An unusable bundle's line holds the contract's violations.
  const broken = jsonLines(run("check", dir, "--json").stdout).at(-1);
  assert.equal(broken.path, join(dir, "zz-broken.json"));
  assert.equal(broken.error.code, "contract");
  assert.deepEqual(broken.error.issues.map((i) => i.code), ["invalid_json"]);
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
  assert.equal(batch.code, 4);
  assert.doesNotMatch(batch.stdout, /[\u009b\u202e]/);
  assert.equal(jsonLines(batch.stdout)[0].path, join(dir, name));
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
  // The reference policy's limit (16 MiB; the default's is larger).
  const big = tmp("big.json", Buffer.alloc(16 * 1024 * 1024 + 1, 0x20));
  const r = run("check", big, "--policy", "reference");
  assert.equal(r.code, 3);
  assert.equal(r.stderr, `evidence-check: input_too_large: ${big} 有 16777217 字节,超过 16777216 字节的上限;未读取\n`);
  // In a directory, such a file is one unusable bundle among the others.
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-batch-"));
  spawnSync("mkfifo", [join(dir, "fifo.json")]);
  writeFileSync(join(dir, "ok.json"), readFileSync(EXAMPLE));
  const batch = spawnSync(process.execPath, [CLI, "check", dir, "--jobs", "1", "--json"], { encoding: "utf8", timeout: 30000 });
  assert.equal(batch.status, 4, batch.stderr);
  assert.deepEqual(jsonLines(batch.stdout).map((x) => x.error?.code ?? x.assessment.status), ["not_a_file", "partial"]);
});

test("--flag=value works as --flag value", () => {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-cli-"));
  const r = run("check", EXAMPLE, `--out=${join(dir, "a.md")}`, `--now=${NOW}`, "--compat=reference");
  assert.equal(r.code, 1, r.stderr);
  assert.equal(readFileSync(join(dir, "a.md"), "utf8"), ARTIFACT);
  const missing = run("check", EXAMPLE, "--out");
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /^evidence-check: usage: --out 需要一个值\n/);
  const flag = run("check", EXAMPLE, "--json=yes");
  assert.equal(flag.code, 3);
  assert.match(flag.stderr, /^evidence-check: usage: .*--json/);
});

test("--out makes missing parent directories", () => {
  const out = join(mkdtempSync(join(tmpdir(), "evidence-check-cli-")), "a", "b", "artifact.md");
  const r = run("check", EXAMPLE, "--out", out, "--now", NOW, "--compat", "reference");
  assert.equal(r.code, 1, r.stderr);
  assert.equal(readFileSync(out, "utf8"), ARTIFACT);
});

test("the language follows LC_ALL, then LC_MESSAGES, then LANG (zh* Chinese, else English); --lang wins", () => {
  const say = (env, ...extra) => {
    const r = spawnSync(process.execPath, [CLI, "check", EXAMPLE, "--now", "yesterday", ...extra], { encoding: "utf8", env });
    assert.equal(r.status, 3);
    return /必须是/.test(r.stderr) ? "zh" : /must be an ISO 8601/.test(r.stderr) ? "en" : r.stderr;
  };
  assert.equal(say(locale("zh_CN.UTF-8")), "zh");
  assert.equal(say(locale("zh_TW")), "zh");
  assert.equal(say(locale("en_US.UTF-8")), "en");
  assert.equal(say(locale("C")), "en");
  assert.equal(say(locale("")), "en");
  assert.equal(say(locale("en_US.UTF-8", { LC_MESSAGES: "zh_CN.UTF-8" })), "zh");
  assert.equal(say(locale("zh_CN.UTF-8", { LC_MESSAGES: "en_GB.UTF-8" })), "en");
  assert.equal(say(locale("en_US.UTF-8", { LC_MESSAGES: "en_GB.UTF-8", LC_ALL: "zh_CN.UTF-8" })), "zh");
  assert.equal(say(locale("zh_CN.UTF-8", { LC_ALL: "" })), "zh", "an empty LC_ALL is unset");
  assert.equal(say(locale("zh_CN.UTF-8"), "--lang", "en"), "en");
  assert.equal(say(locale("en_US.UTF-8"), "--lang=zh"), "zh");
  // The artifact's labels follow too.
  const r = spawnSync(process.execPath, [CLI, "check", EXAMPLE, "--json", "--now", NOW], { encoding: "utf8", env: locale("en_US.UTF-8") });
  assert.match(JSON.parse(r.stdout).artifact.content, /^> Candidate artifact/m);
});

test("--review-key-env: the HMAC key comes from the environment, never from argv", () => {
  const bundle = readJson("examples", "demo.bundle.json");
  delete bundle.report.gaps;
  bundle.reviews = bundle.report.claims.map((c) => ec.recordReview(bundle.scope, bundle.report, c.claim_id, "supported", "checked", { now: NOW, key: "s3cret" }));
  const path = tmp("signed.json", JSON.stringify(bundle));
  const withKey = (key, ...args) => {
    const env = locale("en_US.UTF-8");
    delete env.EC_REVIEW_KEY;
    if (key !== undefined) env.EC_REVIEW_KEY = key;
    const r = spawnSync(process.execPath, [CLI, "check", path, "--json", "--now", NOW, ...args], { encoding: "utf8", env });
    return { code: r.status, out: JSON.parse(r.stdout || "null"), stderr: r.stderr };
  };
  let r = withKey("s3cret", "--review-key-env", "EC_REVIEW_KEY");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.out.assessment.status, "reviewed_candidate");
  // Another key: the signatures do not hold.
  r = withKey("other", "--review-key-env", "EC_REVIEW_KEY");
  assert.equal(r.code, 2);
  assert.deepEqual([...new Set(r.out.assessment.issues.map((i) => i.code))], ["review_signature_invalid"]);
  // The variable missing or empty: unusable, naming it.
  for (const key of [undefined, ""]) {
    r = withKey(key, "--review-key-env", "EC_REVIEW_KEY");
    assert.equal(r.code, 3);
    assert.equal(r.out.error.code, "review_key_missing");
    assert.match(r.stderr, /^evidence-check: review_key_missing: the environment variable EC_REVIEW_KEY \(--review-key-env\) is not set or empty\n/);
  }
  // There is no flag that takes the key itself.
  assert.equal(withKey(undefined, "--review-key", "s3cret").code, 3);
});

test("--json prints one JSON document on stdout for unusable input too", () => {
  const cases = [
    [["check", tmp("bad.json", "{ not json")], "contract", ["invalid_json"]],
    [["check", join(ROOT, "no-such-file.json")], "not_found", []],
    [["check", EXAMPLE, "--now", "yesterday"], "invalid_now", []],
    [["check", EXAMPLE, "--frobnicate"], "usage", []],
    [["check", mkdtempSync(join(tmpdir(), "evidence-check-empty-"))], "no_bundles", []],
  ];
  for (const [args, code, issues] of cases) {
    const r = run(...args, "--json");
    assert.equal(r.code, 3, args.join(" "));
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(doc), ["error"]);
    assert.equal(doc.error.code, code);
    assert.equal(typeof doc.error.message, "string");
    assert.deepEqual(doc.error.issues.map((i) => i.code), issues);
  }
});

test("import and locate read files as check does and escape control characters in what they print", () => {
  // A device is refused unread (it was read to the end: /dev/zero without bound).
  let r = run("locate", "/dev/zero");
  assert.equal(r.code, 3);
  assert.equal(r.stderr, "evidence-check: not_a_file: /dev/zero 是字符设备,不是普通文件;未读取\n");
  r = run("import", "anthropic", "/dev/zero", "/dev/zero");
  assert.equal(r.code, 3);
  assert.match(r.stderr, /^evidence-check: not_a_file: \/dev\/zero 是字符设备/);
  // A file name holding control codes reaches the terminal escaped.
  r = run("locate", join(tmpdir(), "\u001b]0;owned\u0007\u202e.json"));
  assert.equal(r.code, 3);
  assert.ok(r.stderr.includes("⟦U+001B⟧]0;owned⟦U+0007⟧⟦U+202E⟧.json 不存在"), r.stderr);
  assert.doesNotMatch(r.stderr, /[\u001b\u0007\u202e]/);
  // locate's messages follow the locale too.
  const draft = readJson("examples", "demo.bundle.json");
  draft.report.claims = [{ claim_id: "k1", text: "t", kind: "fact", citations: [{ source_id: "plan_a", quote: "no such passage" }] }];
  delete draft.report.gaps;
  draft.reviews = [];
  const path = tmp("draft.json", JSON.stringify(draft));
  const en = spawnSync(process.execPath, [CLI, "locate", path], { encoding: "utf8", env: locale("en_US.UTF-8") });
  assert.equal(en.status, 1, en.stderr);
  assert.match(en.stderr, /k1: quote_not_found \(0 occurrences\) — [A-Za-z]/);
  assert.match(run("locate", path).stderr, /k1: quote_not_found\(出现 0 次\) — 片段/);
});

/**
 * A bundle of real documents (licence texts, a CRLF file, emoji and CJK), each cited once
 * via quote(); with `vocabulary`, the documents policy's names too (a scope id with "@",
 * relative paths as file names, any `kind`), else names the reference allows.
 */
function documentsBundle(vocabulary) {
  const files = [
    ["gpl3", "licenses/GPL-3.txt", readFileSync("/usr/share/common-licenses/GPL-3", "utf8"), "The GNU General Public License is a free, copyleft license"],
    ["apache2", "licenses/Apache-2.0.txt", readFileSync("/usr/share/common-licenses/Apache-2.0", "utf8"), "Grant of Copyright License."],
    ["mpl2", "licenses/MPL-2.0.txt", readFileSync("/usr/share/common-licenses/MPL-2.0", "utf8"), "Mozilla Public License Version 2.0"],
    ["crlf", "notes/windows.txt", "first line\r\nsecond line\r\nthird line\r\n", "second line\nthird"],
    ["emoji", "notes/日本語.txt", "标题 🎉\n内容:中文与 emoji 👩‍💻 混排。\n", "中文与 emoji 👩‍💻"],
  ];
  const specs = files.map(([id, filename]) =>
    vocabulary ? { source_id: id, title: id, locator: `file:${filename}`, filename, kind: "licence_text" } : { source_id: id, title: id, locator: `file:${id}`, filename: `${id}.md`, kind: "public" },
  );
  const scope = { tenant_id: "acme", user_id: "reader" };
  const store = new ec.EvidenceStore(specs, { now: NOW, policy: "documents" });
  const claims = files.map(([id, , content, passage], i) => {
    const ref = store.ingest(scope, id, content);
    return { claim_id: `c${i}`, text: `The source ${id} says so.`, kind: "fact", citations: [store.quote(scope, ref, passage, `q${i}`)] };
  });
  store.free();
  return {
    // Citations do not depend on the scope.
    scope: vocabulary ? { tenant_id: "ana@acme.com", user_id: "reader" } : scope,
    sources: files.map(([, , content], i) => ({ spec: specs[i], content })),
    report: { title: "Licences", claims },
    reviews: [],
  };
}

test("the default (documents) policy checks real documents that the reference policy refuses, naming the source, size, limit and flag", () => {
  const path = tmp("documents.json", JSON.stringify(documentsBundle(false)));
  const gpl = Buffer.byteLength(readFileSync("/usr/share/common-licenses/GPL-3", "utf8"));
  const refused = run("check", path, "--policy", "reference", "--lang", "en");
  assert.equal(refused.code, 3);
  for (const part of ["gpl3", String(gpl), "24000", "--policy"]) assert.ok(refused.stderr.replace(/(\d),(\d{3})/g, "$1$2").includes(part), `${part} is not in: ${refused.stderr}`);
  const compat = run("check", path, "--compat", "reference");
  assert.equal(compat.code, 3);
  assert.match(compat.stderr, /source_too_large/);
  const ok = run("check", path, "--json", "--now", NOW);
  assert.equal(ok.code, 1, ok.stderr);
  const result = JSON.parse(ok.stdout);
  assert.equal(result.assessment.status, "needs_review");
  assert.deepEqual(result.assessment.issues, []);
  assert.deepEqual(Object.values(result.assessment.claims), ["pending_review", "pending_review", "pending_review", "pending_review", "pending_review"]);
  assert.deepEqual(JSON.parse(run("check", path, "--policy", "documents", "--json", "--now", NOW).stdout), result);
  // The documents policy's names: refused by the reference's, checked by default.
  const named = tmp("named.json", JSON.stringify(documentsBundle(true)));
  assert.equal(run("check", named, "--policy", "reference").code, 3);
  assert.equal(run("check", named, "--compat", "reference").code, 3);
  const checked = run("check", named, "--json", "--now", NOW);
  assert.equal(checked.code, 1, checked.stderr);
  assert.deepEqual(JSON.parse(checked.stdout).assessment.issues, []);
  // A policy file: a preset and its changes; an unknown field is refused, named.
  const custom = tmp("policy.json", JSON.stringify({ extends: "documents", max_claims: 5000 }));
  assert.deepEqual(JSON.parse(run("check", path, `--policy=${custom}`, "--json", "--now", NOW).stdout), result);
  const tight = tmp("policy.json", JSON.stringify({ extends: "documents", max_claims: 2 }));
  const over = run("check", path, "--policy", tight, "--json");
  assert.equal(over.code, 3);
  assert.equal(JSON.parse(over.stdout).error.code, "contract");
  const unknown = run("check", path, "--policy", tmp("policy.json", JSON.stringify({ extends: "documents", max_clams: 1 })));
  assert.equal(unknown.code, 3);
  assert.match(unknown.stderr, /policy_unknown_field: .*policy\.json: .*max_clams/);
  const bogus = run("check", path, "--policy", "lenient");
  assert.equal(bogus.code, 3);
  assert.match(bogus.stderr, /^evidence-check: usage: --policy:策略文件 lenient 不存在\(预设为 "documents" 和 "reference"\)\n/);
});
