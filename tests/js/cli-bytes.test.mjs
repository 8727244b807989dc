// The CLI hands each file's (and each stdin line's) bytes to checkBundle without decoding
// them into a string first. Every line it prints must stay what it printed when it
// decoded them (TextDecoder("utf-8", {fatal: true}): a leading BOM dropped, invalid
// bytes refused as `invalid_utf8` with the CLI's own message), here rebuilt in-process:
// each bundle decoded as before and checked as text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PKG, NOW, exampleBundle, localeEnv, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const { describeError, errorData, jsonOut } = await import(join(PKG, "bin", "load.mjs"));

const CLI = join(PKG, "bin", "cli.mjs");
const ENV = localeEnv("en_US.UTF-8");
const OPTIONS = { render: true, lang: "en", now: NOW };
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const decoder = new TextDecoder("utf-8", { fatal: true });

/** The example titled `title`, without reviews; `cjk` adds Chinese text to a source (digests fixed). */
function bundle(title, { cjk = false, indent } = {}) {
  return JSON.stringify(exampleBundle(ec, title, cjk ? "\n" + "中文填充,一段原文。".repeat(300) : ""), null, indent);
}

/** `bytes` with `bad` put in at byte `at`. */
const spliced = (bytes, at, bad) => Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]);

/** Files (name → bytes): a BOM, CRLF, CJK, invalid UTF-8 at several offsets and a few edges. */
function files() {
  const plain = Buffer.from(bundle("same"));
  const cjk = Buffer.from(bundle("中文报告", { cjk: true }));
  const cjkAt = cjk.indexOf("中文填充");
  return {
    "a-plain.json": plain,
    "b-bom.json": Buffer.concat([BOM, plain]),
    "c-crlf.json": Buffer.from(bundle("same", { indent: 2 }).replace(/\n/g, "\r\n")),
    "d-bom-crlf.json": Buffer.concat([BOM, Buffer.from(bundle("same", { indent: 2 }).replace(/\n/g, "\r\n"))]),
    "e-cjk.json": cjk,
    "f-bom-cjk.json": Buffer.concat([BOM, cjk]),
    "g-bad-at-0.json": spliced(plain, 0, [0xff]),
    "h-bad-middle.json": spliced(plain, 50, [0xc3, 0x28]),
    "i-bad-truncated-end.json": Buffer.concat([cjk, Buffer.from([0xe6, 0x96])]),
    "j-bad-after-bom.json": Buffer.concat([BOM, Buffer.from([0x80]), plain]),
    "k-bad-half-cjk-char.json": spliced(cjk, cjkAt + 1, [0x7b]),
    "l-bad-surrogate.json": spliced(cjk, cjkAt, [0xed, 0xa0, 0x80]),
    "m-bad-overlong.json": spliced(cjk, cjk.length - 2, [0xc0, 0xaf]),
    "n-two-boms.json": Buffer.concat([BOM, BOM, plain]),
    "o-empty.json": Buffer.alloc(0),
    "p-bom-only.json": BOM,
    "q-space.json": Buffer.from("  \r\n"),
    "r-not-json.json": Buffer.from("{"),
  };
}

/** A result line: `tag` and the result of checking `text`, or its error. */
function checked(tag, text, options) {
  try {
    return jsonOut({ ...tag, ...ec.checkBundle(text, options) }, 0);
  } catch (e) {
    return jsonOut({ ...tag, error: errorData(e) }, 0);
  }
}

/** The result line the CLI printed for `bytes` before: their text checked, or `refusal` when they are not UTF-8. */
function before(tag, bytes, options, refusal) {
  let text;
  try {
    text = decoder.decode(bytes);
  } catch {
    return jsonOut({ ...tag, error: { code: "invalid_utf8", message: refusal, issues: [] } }, 0);
  }
  return checked(tag, text, options);
}

const cli = (args, input) => spawnSync(process.execPath, [CLI, ...args], { env: ENV, input, maxBuffer: 1 << 30 });

function writeFiles() {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-bytes-"));
  const all = files();
  for (const [name, bytes] of Object.entries(all)) writeFileSync(join(dir, name), bytes);
  return { dir, all };
}

test("check DIR and check FILE on bytes: BOM, CRLF, CJK and invalid UTF-8 give the lines of the decoded text", () => {
  const { dir, all } = writeFiles();
  const names = Object.keys(all);
  // With a --now that checkBundle refuses too: a file that is not UTF-8 is still refused as such.
  for (const now of [NOW, "yesterday"]) {
    const options = { ...OPTIONS, now };
    const want = names.map((n) => before({ path: join(dir, n) }, all[n], options, `${join(dir, n)} is not valid UTF-8`));
    assert.equal(want.filter((l) => l.includes('"code":"invalid_utf8"')).length, 7, "the seven files that are not UTF-8");
    if (now === NOW) assert.equal(want.filter((l) => l.includes('"error"')).length, 12, "the not-UTF-8 files and the five edges");
    for (const jobs of ["1", "2"]) {
      const r = cli(["check", dir, "--jobs", jobs, "--json", "--now", now]);
      assert.equal(r.status, 4, String(r.stderr));
      assert.equal(String(r.stderr), "");
      assert.ok(r.stdout.toString("utf8") === want.join(""), `--now ${now} --jobs ${jobs}: the output differs from checking the decoded text`);
    }
    // One file at a time: its JSON document, or its error on stdout and stderr.
    for (const [k, n] of names.entries()) {
      const path = join(dir, n);
      const line = JSON.parse(want[k]);
      delete line.path;
      const r = cli(["check", path, "--json", "--now", now]);
      assert.ok(r.stdout.toString("utf8") === jsonOut(line.error ? { error: line.error } : line), `${n} --now ${now}: --json differs`);
      if (line.error) {
        assert.equal(r.status, 3, n);
        assert.equal(String(r.stderr), describeError(line.error) + "\n", n);
      } else assert.equal(r.status, 1, n);
    }
  }
  // The table (it reads the claims' kinds from the text): a BOM or CRLF changes nothing.
  const table = cli(["check", join(dir, "a-plain.json"), "--now", NOW]);
  assert.equal(table.status, 1);
  assert.match(String(table.stdout), /^status: partial\n[^]*claim_a +fact +/);
  for (const n of ["b-bom.json", "c-crlf.json", "d-bom-crlf.json"]) {
    const r = cli(["check", join(dir, n), "--now", NOW]);
    assert.equal(r.status, 1, n);
    assert.ok(String(r.stdout) === String(table.stdout), `${n}: the table differs`);
  }
  const bad = cli(["check", join(dir, "h-bad-middle.json"), "--now", NOW]);
  assert.equal(bad.status, 3);
  assert.equal(String(bad.stdout), "");
  assert.equal(String(bad.stderr), `evidence-check: invalid_utf8: ${join(dir, "h-bad-middle.json")} is not valid UTF-8\n`);
});

test("check - on bytes: BOM, CRLF, CJK, invalid UTF-8 and blank lines give the lines of the decoded text, numbered as before", () => {
  const plain = Buffer.from(bundle("line"));
  const cjk = Buffer.from(bundle("中文行", { cjk: true }));
  const cjkAt = cjk.indexOf("中文填充");
  const cr = Buffer.from("\r");
  const lines = [
    plain,
    Buffer.concat([BOM, plain]),
    Buffer.concat([plain, cr]),
    Buffer.concat([BOM, cjk, cr]),
    cjk,
    Buffer.from(""),
    Buffer.from(" \t\v\f"),
    Buffer.from("\u00a0\u3000\u2028"),
    BOM,
    Buffer.concat([BOM, Buffer.from("  "), cr]),
    Buffer.from("  \ufeff"),
    Buffer.from([0x20, 0x20, 0xff]),
    Buffer.from([0x20, 0xe3, 0x80]),
    spliced(plain, 0, [0xff]),
    spliced(plain, 50, [0xc3, 0x28]),
    Buffer.concat([cjk, Buffer.from([0xe6, 0x96]), cr]),
    Buffer.concat([BOM, Buffer.from([0x80]), plain]),
    spliced(cjk, cjkAt + 1, [0x7b]),
    spliced(cjk, cjkAt, [0xed, 0xa0, 0x80]),
    Buffer.concat([Buffer.from("\u3000"), plain]),
    Buffer.concat([Buffer.from("\t "), cjk]),
    Buffer.concat([BOM, BOM, plain]),
    Buffer.concat([plain, cr, cr]),
    Buffer.from("{"),
    Buffer.from("{\r"),
    Buffer.concat([plain.subarray(0, 100), cr]),
  ];
  const want = [];
  lines.forEach((bytes, k) => {
    let text;
    try {
      text = decoder.decode(bytes).replace(/\r$/, "");
    } catch {
      want.push(jsonOut({ line: k + 1, error: { code: "invalid_utf8", message: "the line is not valid UTF-8", issues: [] } }, 0));
      return;
    }
    if (text.trim() !== "") want.push(checked({ line: k + 1 }, text, OPTIONS));
  });
  assert.equal(want.length, lines.length - 6, "six blank lines skipped");
  assert.equal(want.filter((l) => l.includes('"code":"invalid_utf8"')).length, 8);
  const input = Buffer.concat(lines.flatMap((p) => [p, Buffer.from("\n")]));
  for (const jobs of ["1", "2"]) {
    const r = cli(["check", "-", "--jobs", jobs, "--now", NOW], input);
    assert.equal(r.status, 4, String(r.stderr));
    assert.equal(String(r.stderr), "");
    assert.ok(r.stdout.toString("utf8") === want.join(""), `--jobs ${jobs}: the output differs from checking each decoded line`);
  }
});
