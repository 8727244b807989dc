// The CLI's --policy and --lang on every subcommand that reads a report, a bundle or a
// draft, and its usage errors: coded (exit 3), naming the option, never Node's own text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, PKG, NOW, localeEnv } from "./helpers.mjs";

const CLI = join(PKG, "bin", "cli.mjs");
const EXAMPLE = join(ROOT, "examples", "demo.bundle.json");
const GPL = readFileSync("/usr/share/common-licenses/GPL-3", "utf8");

function run(...args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: localeEnv("en_US.UTF-8") });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tmp(name, content) {
  const path = join(mkdtempSync(join(tmpdir(), "evidence-check-options-")), name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

/** A draft bundle: the GPL (35 KB, over the reference's 24,000 bytes a source) and `claims` quote-only claims. */
function draft(claims = 1) {
  return {
    scope: { tenant_id: "acme", user_id: "reader" },
    sources: [{ spec: { source_id: "gpl3", title: "GPL 3", locator: "file:GPL-3", filename: "gpl3.md", kind: "public" }, content: GPL }],
    report: {
      title: "Licences",
      claims: Array.from({ length: claims }, (_, i) => ({
        claim_id: `c${i}`, text: "The GPL is a copyleft licence.", kind: "fact",
        citations: [{ source_id: "gpl3", quote: "The GNU General Public License is a free, copyleft license" }],
      })),
    },
  };
}

test("locate --policy: a preset or a policy file is the policy locateBundle reads the draft under", () => {
  const path = tmp("draft.json", draft());
  // The default is the documents policy; the reference's refuses the 35 KB source.
  for (const flags of [["--policy", "reference"], ["--compat", "reference"]]) {
    const refused = run("locate", path, ...flags);
    assert.equal(refused.code, 3, flags.join(" "));
    assert.match(refused.stderr, /source_too_large/);
  }
  const out = join(mkdtempSync(join(tmpdir(), "evidence-check-options-")), "located.json");
  const ok = run("locate", path, "--out", out);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stderr, "located 1 quote\n");
  assert.equal(run("locate", path, "--policy", "documents").code, 0);
  const checked = run("check", out, "--json", "--now", NOW);
  assert.equal(checked.code, 1, checked.stderr);
  assert.deepEqual(JSON.parse(checked.stdout).assessment.claims, { c0: "pending_review" });
  // A policy file: 15 claims, over the reference's 12, under its own limit.
  const many = tmp("draft.json", draft(15));
  assert.equal(run("locate", many, "--policy", "documents").code, 0);
  const policy = tmp("policy.json", { extends: "documents", max_claims: 14 });
  const over = run("locate", many, "--policy", policy);
  assert.equal(over.code, 3);
  assert.match(over.stderr, /14/);
  assert.equal(run("locate", many, `--policy=${tmp("policy.json", { extends: "documents", max_claims: 15 })}`).code, 0);
  // The policy's vocabularies (any relative filename, any kind) reach locateBundle too.
  const named = draft();
  named.sources[0].spec = { ...named.sources[0].spec, filename: "licences/GPL-3.txt", kind: "licence_text" };
  assert.equal(run("locate", tmp("draft.json", named)).code, 0);
  const vocabulary = run("locate", tmp("draft.json", named), "--policy", "reference");
  assert.equal(vocabulary.code, 3);
  assert.match(vocabulary.stderr, /filename: .*allowed under the documents policy/);
});

test("locate --lang: the messages' language, whatever the locale", () => {
  const path = tmp("draft.json", { ...draft(), sources: [{ ...draft().sources[0], content: "short" }] });
  const zh = run("locate", path, "--lang", "zh");
  assert.equal(zh.code, 1);
  assert.match(zh.stderr, /quote_not_found\(出现 0 次\) — 片段未出现/);
  assert.match(run("locate", path).stderr, /quote_not_found \(0 occurrences\) — [A-Z][a-z]/);
});

test("a missing --policy file says that the file does not exist, on check and locate", () => {
  for (const command of ["check", "locate"]) {
    const r = run(command, EXAMPLE, "--policy", "no/such/policy.json");
    assert.equal(r.code, 3);
    assert.match(r.stderr, /^evidence-check: usage: --policy: the policy file no\/such\/policy\.json does not exist \(the presets are "documents" and "reference"\)\n/);
    const json = run(command, EXAMPLE, "--policy", "nope.json", "--json");
    if (command === "check") assert.deepEqual(JSON.parse(json.stdout).error, { code: "usage", message: '--policy: the policy file nope.json does not exist (the presets are "documents" and "reference")', issues: [] });
  }
  const preset = run("check", EXAMPLE, "--policy", "lenient");
  assert.match(preset.stderr, /^evidence-check: usage: --policy: the policy file lenient does not exist \(the presets are "documents" and "reference"\)\n/);
});

test("a wrong option is a coded usage error naming it, never Node's parseArgs text", () => {
  const path = tmp("draft.json", draft());
  const cases = [
    [["locate", path, "--bogus"], "unknown option --bogus"],
    [["locate", path, "--out"], "--out needs a value"],
    [["locate", path, "--lang", "fr"], '--lang takes "zh" or "en"'],
    [["locate", path, "--compat", "python"], '--compat takes "reference"'],
    [["locate", path, "--policy"], "--policy needs a value"],
    [["check", EXAMPLE, "--compat", "python"], '--compat takes "reference"'],
    [["import", "anthropic", "a.json", "b.json", "--lang", "fr"], '--lang takes "zh" or "en"'],
    [["locate", path, "--whitespace", "wide"], '--whitespace takes "exact" or "loose"'],
    [["import", "anthropic", "a.json", "b.json", "--bogus"], "unknown option --bogus"],
    [["import", "anthropic", "a.json", "b.json", "--tenant"], "--tenant needs a value"],
    [["import", "anthropic", "a.json", "b.json", "--uncited-as-gaps=yes"], "--uncited-as-gaps takes no value"],
    [["check", EXAMPLE, "--json=yes"], "--json takes no value"],
    [["check", EXAMPLE, "--help=1"], "--help takes no value"],
    [["digest", EXAMPLE, "--policy", "documents"], "digest takes no --policy"],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.code, 3, args.join(" "));
    assert.ok(r.stderr.startsWith(`evidence-check: usage: ${message}\n`), `${args.join(" ")}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /To specify a positional argument|ERR_PARSE_ARGS|Option '/);
  }
});

test("import anthropic takes --policy, --compat, --lang and --title: the importer reads under them", () => {
  const fixture = (f) => join(ROOT, "tests", "js", "fixtures", "anthropic", f);
  const imported = (...flags) => run("import", "anthropic", fixture("request.json"), fixture("response.json"), ...flags);
  const ok = imported("--title", "Named", "--user", "ana@acme.com");
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).report.title, "Named");
  // The e-mail user id is the documents policy's (the default); the reference's refuses it, in its language.
  for (const [flags, text] of [[["--policy", "reference"], /allowed under the documents policy/], [["--compat", "reference"], /去掉 compat "reference"/], [["--compat", "reference", "--lang", "en"], /drop compat "reference"/]]) {
    const r = imported("--user", "ana@acme.com", ...flags);
    assert.equal(r.code, 3, flags.join(" "));
    assert.match(r.stderr, /user_id/);
    assert.match(r.stderr, text);
  }
});
