// One language setting (issue 13 §3): the `lang` of a store, a catalogue or a call carries
// to everything derived from it (the library's default, the locale's, is tested in
// defaults.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NOW, PKG, localeEnv, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const ex = userRequire(userProject())("evidence-check/extras"); // schemas, annotations, excerpts, outcomes, offsets, importers
const bundle = readJson("examples", "demo.bundle.json");
const specs = bundle.sources.map((s) => s.spec);
const scope = bundle.scope;
const dup = { ...bundle.report, claims: [bundle.report.claims[0], bundle.report.claims[0]] };
const EN_DUP = "Two claims share one claim id.";
const ZH_DUP = "论断标识重复。";
const EN_STALE = "The cited revision is not the source's current revision. (source plan_a; cited revision 9, current revision 1)";

function store(lang) {
  const s = new ec.EvidenceStore(specs, lang ? { now: NOW, lang } : { now: NOW });
  for (const src of bundle.sources) s.ingest(scope, src.spec.source_id, src.content);
  return s;
}

test("toWebAnnotations with a store made with lang en throws English; options.lang overrides it", () => {
  const en = store("en");
  assert.throws(() => ec.toWebAnnotations(scope, dup, en), (e) => e.code === "contract" && e.issues[0].message === EN_DUP);
  assert.throws(() => ec.toWebAnnotations(scope, dup, en, { lang: "zh" }), (e) => e.issues[0].message === ZH_DUP);
  assert.throws(() => ec.toWebAnnotations(scope, dup, store("zh")), (e) => e.issues[0].message === ZH_DUP);
  assert.throws(() => ec.toWebAnnotations(scope, dup, store("zh"), { lang: "en" }), (e) => e.issues[0].message === EN_DUP);
});

test("the lang of a store carries into assess, render and locateCitations when the call gives none", () => {
  const en = store("en");
  // A report whose citations name a revision the store does not hold.
  const stale = structuredClone(bundle.report);
  for (const c of stale.claims) for (const cit of c.citations ?? []) cit.ref.revision = 9;
  const a = ec.assess(scope, stale, en);
  assert.equal(a.issues[0].message, EN_STALE);
  assert.notEqual(ec.assess(scope, stale, en, [], { lang: "zh" }).issues[0].message, EN_STALE);
  assert.notEqual(ec.assess(scope, stale, store("zh")).issues[0].message, EN_STALE);
  assert.throws(() => ec.render(scope, stale, en, [], { now: NOW }), (e) => e.code === "report_invalid" && e.message === "The report has invalid citations; it is not exported.");
  assert.throws(() => ec.render(scope, dup, en, [], { now: NOW }), (e) => e.issues[0].message === EN_DUP);
  assert.throws(() => ec.assess(scope, dup, en), (e) => e.issues[0].message === EN_DUP);
  const draft = { title: "t", claims: [{ claim_id: "c", text: "x", kind: "fact", citations: [{ source_id: "plan_a", quote: "no such words anywhere" }] }] };
  const located = ec.locateCitations(scope, draft, en);
  assert.equal(located.issues[0].code, "quote_not_found");
  assert.match(located.issues[0].message, /^The quote does not occur/);
  // The artifact's labels follow the store too.
  assert.ok(ec.render(scope, bundle.report, en, bundle.reviews, { now: NOW }).content.includes("\n## Claims\n"));
});

test("convertOffset takes lang", () => {
  assert.throws(() => ex.convertOffset("abc", 9, "utf16", "code_point", { lang: "en" }), (e) => e.code === "offset_out_of_range" && e.message === "The offset is past the end of the text.");
  assert.throws(() => ex.convertOffset("abc", 9, "utf16", "code_point", { lang: "zh" }), (e) => e.code === "offset_out_of_range" && e.message === "偏移量超出正文末尾。");
  assert.throws(() => ex.convertOffset("abc", 1, "utf16", "code_point", { lang: "fr" }), (e) => e.code === "invalid_argument");
});

test("the lang of a catalogue carries into the functions given it", () => {
  const en = new ex.DocumentCatalog({ lang: "en", documents: [{ id: "d1", title: "t", body: "- a\n" }] });
  assert.throws(() => ex.extractExcerpts(en, "nope"), (e) => e.code === "unknown_document" && e.message.startsWith("The catalogue has no document with this id."));
  const zh = new ex.DocumentCatalog({ lang: "zh", documents: [{ id: "d1", title: "t", body: "- a\n" }] });
  assert.throws(() => ex.extractExcerpts(zh, "nope"), (e) => e.code === "unknown_document" && e.message.startsWith("资料目录中没有该标识的资料。"));
  assert.throws(() => en.import({ id: "d1", title: "t", body: "- b\n" }), (e) => e.code === "document_changed" && e.message.startsWith("The document's body changed"));
});

test("an unknown option is refused with the names the call allows", () => {
  assert.throws(
    () => new ec.EvidenceStore(specs, { now: NOW, langue: "en" }),
    (e) => e.code === "invalid_argument" && e.message.includes("langue") && ["now", "maxSources", "maxSourceBytes", "lang"].every((n) => e.message.includes(`\`${n}\``)),
  );
  assert.throws(
    () => ex.convertOffset("abc", 1, "utf16", "code_point", { language: "en" }),
    (e) => e.code === "invalid_argument" && e.message.includes("`lang`"),
  );
  assert.throws(() => ec.checkBundle(bundle, { maxClaims: -1 }), (e) => e.code === "invalid_argument" && e.message.includes("options.maxClaims"));
  assert.throws(() => ec.checkBundle(bundle, { render: "yes" }), (e) => e.code === "invalid_argument" && e.message.includes("options.render"));
});

// ---- the locale reaches the importers' and the annotation reader's texts -----------------

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff]/;

/** `text` without what it quotes (`"…"`, `'…'`, `` `…` ``, `“…”`): the input a message names. */
function unquoted(text) {
  let out = "";
  let close = null;
  for (const c of text) {
    if (close !== null) {
      if (c === close) close = null;
    } else if (c === '"' || c === "'" || c === "`") close = c;
    else if (c === "“") close = "”";
    else out += c;
  }
  return out;
}

/** The longest run of English words (letters only, two or more) outside quotes. */
function englishRun(text) {
  let best = 0;
  let run = 0;
  for (const token of unquoted(text).split(/[\s(),;:。,;:()—]+/)) {
    if (token === "") continue;
    run = /^[A-Za-z]{2,}$/.test(token) ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

/** Whether a message is all in `lang`: English has no Chinese outside quotes; Chinese has
 * Chinese and no English sentence beside it. */
const inOneLanguage = (text, lang) => (lang === "zh" ? CJK.test(text) && englishRun(text) < 3 : !CJK.test(unquoted(text)));

const bedrock = (name) => readJson("tests", "data", "providers", "bedrock", `${name}.json`);
const anthropicRequest = readJson("tests", "js", "fixtures", "anthropic", "request.json");
const brokenCitations = {
  type: "message",
  content: [
    { type: "text", text: "x", citations: [1, { type: "char_location", cited_text: "a", document_index: 9, start_char_index: 0, end_char_index: 1 }] },
    { type: "text", text: "y", citations: [{ type: "page_location", cited_text: "a", document_index: 0, start_page_number: 1, end_page_number: 2 }] },
  ],
};

/** Every importer's and annotation reader's message a call in the locale meets, with no lang given. */
const IMPORTS = `
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/index.js");
const ec = require("evidence-check");
const ex = require("evidence-check/extras");
const scope = { tenant_id: "t", user_id: "u" };
const messages = [];
const caught = (what, f) => { try { f(); messages.push([what, "no error"]); } catch (e) { messages.push([what, e.message], ...(e.issues ?? []).map((i) => [what + " " + i.path, i.message])); } };
caught("anthropic shapes", () => ex.fromAnthropicMessage({}, {}, { scope }));
caught("anthropic citations", () => ex.fromAnthropicMessage(${JSON.stringify(anthropicRequest)}, ${JSON.stringify(brokenCitations)}, { scope }));
caught("bedrock shape", () => ex.fromBedrockResponse({}, {}, { scope, sources: { 0: { sourceId: "not an id", text: "x" } } }));
const imported = ex.fromBedrockResponse(${JSON.stringify(bedrock("ascii.request"))}, ${JSON.stringify(bedrock("ascii.response"))}, { scope, sources: {} });
messages.push(...imported.issues.map((i) => ["bedrock " + i.code, i.message]));
caught("annotation", () => ex.fromWebAnnotation({ id: "x" }));
const store = new ec.EvidenceStore([{ source_id: "a", title: "A", locator: "fixture:a", filename: "a.md", kind: "public" }], { now: "${NOW}" });
store.ingest(scope, "a", "Plan A. Plan B. Plan A.");
const quote = (exact) => ({ type: "TextQuoteSelector", exact });
const at = (start, end) => ({ type: "TextPositionSelector", start, end });
caught("no source", () => store.fromWebAnnotation(scope, { id: "x", target: { selector: quote("Plan B.") } }));
caught("ambiguous", () => store.fromWebAnnotation(scope, { id: "x", target: { source: "fixture:a", selector: quote("Plan A.") } }));
caught("conflict", () => store.fromWebAnnotation(scope, { id: "x", target: { source: "fixture:a", selector: [quote("Plan B."), at(0, 7), at(16, 23)] } }));
caught("refinement", () => store.fromWebAnnotation(scope, { id: "x", target: { source: "fixture:a", selector: { ...quote("Plan B."), refinedBy: { type: "CssSelector", value: "p" } } } }));
const trimmed = store.fromWebAnnotation(scope, { id: "x", target: { source: "fixture:a", selector: { ...quote("Plan B."), prefix: "\\udc00A. " } } });
messages.push(...(trimmed.trimmed ?? []).map((t) => ["trimmed", t.message]));
process.stdout.write(JSON.stringify(messages));
`;

function inLocale(locale, program) {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", program], { cwd: userProject(), encoding: "utf8", env: localeEnv(locale) });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** The messages `program` meets under en_US and zh_CN (at least `min`, none missing), each wholly in its locale's language. */
function inBothLocales(program, min) {
  const en = inLocale("en_US.UTF-8", program);
  const zh = inLocale("zh_CN.UTF-8", program);
  assert.deepEqual(en.map(([what]) => what), zh.map(([what]) => what));
  assert.ok(en.length >= min, en.join("\n"));
  assert.ok(!en.some(([, m]) => m === "no error"), en.join("\n"));
  for (const [lang, messages] of [["en", en], ["zh", zh]]) {
    const mixed = messages.filter(([, m]) => !inOneLanguage(m, lang));
    assert.deepEqual(mixed, [], `${lang}: ${mixed.join("\n")}`);
  }
  return en;
}

test("with LANG=en_US.UTF-8 or zh_CN.UTF-8 and no lang, every importer and annotation message is in that language", () => {
  const en = inBothLocales(IMPORTS, 20);
  assert.ok(en.some(([what]) => what === "trimmed"), "no context was trimmed");
});

test("the CLI's import, locate and check speak the locale's language on every line, errors included", () => {
  const dir = mkdtempSync(join(tmpdir(), "ec-lang-"));
  const file = (name, value) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
    return path;
  };
  const request = file("request.json", bedrock("ascii.request"));
  const response = file("response.json", bedrock("ascii.response"));
  const none = file("sources.json", {});
  const empty = file("empty.json", {});
  const draft = file("draft.json", {
    scope: { tenant_id: "t", user_id: "u" },
    sources: [{ spec: { source_id: "a", title: "A", locator: "fixture:a", filename: "a.md", kind: "public" }, content: "Plan A. Plan B. Plan A." }],
    report: { title: "T", claims: [{ claim_id: "k1", text: "x", kind: "fact", citations: [{ source_id: "a", quote: "Plan A." }, { source_id: "a", quote: "Plan C." }] }] },
  });
  // The example with a quote that is not at its range: the table, an issue and no artifact.
  const invalid = structuredClone(bundle);
  invalid.report.claims[1].citations[0].quote = "方案 B 不需要联网。";
  const claimRows = new RegExp(`^(${bundle.report.claims.map((c) => c.claim_id).join("|")}) `);
  const runs = {
    "import bedrock": [["import", "bedrock", request, response, "--sources", none, "--out", join(dir, "b1.json")], 1],
    "import anthropic (broken)": [["import", "anthropic", empty, empty, "--out", join(dir, "b2.json")], 3],
    "import anthropic (citations)": [["import", "anthropic", file("areq.json", anthropicRequest), file("aresp.json", brokenCitations)], 3],
    locate: [["locate", draft, "--out", join(dir, "b3.json")], 1],
    check: [["check", file("invalid.json", invalid), "--now", NOW], 2],
  };
  for (const locale of ["en_US.UTF-8", "zh_CN.UTF-8"]) {
    const lang = locale.startsWith("zh") ? "zh" : "en";
    for (const [what, [args, status]] of Object.entries(runs)) {
      const r = spawnSync(process.execPath, [join(PKG, "bin", "cli.mjs"), ...args], { encoding: "utf8", env: localeEnv(locale) });
      assert.equal(r.status, status, `${what}: ${r.stderr}`);
      // What the CLI says (the import writes its bundle to --out): every line but the
      // table's rows of claim ids, kinds and states, which are codes.
      const said = what === "check" ? r.stdout + r.stderr : r.stderr;
      const lines = said.split("\n").filter((l) => l.trim() !== "" && !claimRows.test(l));
      assert.ok(lines.length >= 2, `${what}: ${said}`);
      const mixed = lines.filter((l) => !inOneLanguage(l, lang));
      assert.deepEqual(mixed, [], `${what} under ${locale}:\n${said}`);
    }
  }
});

test("the CLI's usage errors and refusals follow the locale, and --lang over it", () => {
  const dir = mkdtempSync(join(tmpdir(), "ec-lang-usage-"));
  const file = (name, text) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const good = file("good.json", JSON.stringify(bundle));
  const request = file("request.json", JSON.stringify(bedrock("ascii.request")));
  const response = file("response.json", JSON.stringify(bedrock("ascii.response")));
  const notJson = file("sources.json", "{nope");
  const notUtf8 = file("latin1.json", Buffer.from([0x7b, 0xe9, 0x7d]));
  const empty = mkdtempSync(join(dir, "empty-"));
  const missing = join(dir, "missing.json");
  const badPolicy = file("bad-policy.json", JSON.stringify({ extends: "documents", max_clams: 1 }));
  const runs = {
    "unknown option": ["check", good, "--nope"],
    "option without its value": ["check", good, "--out"],
    "unknown command": ["frobnicate"],
    "no command": [],
    "bad --jobs": ["check", empty, "--jobs", "0"],
    "bad --lang": ["check", good, "--lang", "fr"],
    "bad --compat": ["check", good, "--compat", "x"],
    "missing file": ["check", missing],
    "not UTF-8": ["check", notUtf8],
    "not a regular file": ["digest", dir],
    "two bundles": ["check", good, good],
    "missing policy file": ["check", good, "--policy", join(dir, "policy.json")],
    "policy file with an unknown field": ["check", good, "--policy", badPolicy],
    "import's policy file with an unknown field": ["import", "bedrock", request, response, "--sources", file("none.json", "{}"), "--policy", badPolicy],
    "no bundles": ["check", empty],
    "--out with --no-render": ["check", good, "--out", join(dir, "a.md"), "--no-render"],
    "review key unset": ["check", good, "--review-key-env", "EC_LANG_TEST_UNSET"],
    "--jobs of one bundle": ["check", good, "--jobs", "2"],
    "stray option": ["digest", good, "--out", "x"],
    "digest": ["digest"],
    "serve": ["serve", "x"],
    "import of nothing": ["import"],
    "import of an unknown provider": ["import", "nope", request, response],
    "import without --sources": ["import", "bedrock", request, response],
    "--sources not JSON": ["import", "bedrock", request, response, "--sources", notJson],
    "--sources missing": ["import", "bedrock", request, response, "--sources", missing],
    "locate of nothing": ["locate"],
    "bad --whitespace": ["locate", good, "--whitespace", "x"],
  };
  const run = (locale, args) => spawnSync(process.execPath, [join(PKG, "bin", "cli.mjs"), ...args], { encoding: "utf8", env: { ...localeEnv(locale), EC_LANG_TEST_UNSET: "" } });
  for (const locale of ["en_US.UTF-8", "zh_CN.UTF-8"]) {
    const lang = locale.startsWith("zh") ? "zh" : "en";
    const other = lang === "zh" ? "en" : "zh";
    for (const [what, args] of Object.entries(runs)) {
      // In the locale's language; with --lang (when it is not the flag refused), in the other.
      const cases = [[args, lang], ...(what === "bad --lang" || args.length === 0 ? [] : [[[...args, `--lang=${other}`], other]])];
      for (const [argv, want] of cases) {
        const r = run(locale, argv);
        assert.equal(r.status, 3, `${what} under ${locale}: ${r.stdout}${r.stderr}`);
        // The error's line.
        const lines = r.stderr.split("\n").filter((l) => l.startsWith("evidence-check:"));
        assert.equal(lines.length, 1, `${what} under ${locale}:\n${r.stderr}`);
        assert.ok(inOneLanguage(lines[0], want), `${what} under ${locale} ${argv.join(" ")} (${want}):\n${lines[0]}`);
        // Every line on stderr (the usage after a usage error: English, or in Chinese a pointer to --help).
        const said = r.stderr.split("\n").filter((l) => l.trim() !== "");
        assert.deepEqual(said.filter((l) => !inOneLanguage(l, want)), [], `${what} under ${locale} ${argv.join(" ")} (${want}):\n${r.stderr}`);
      }
    }
  }
});

/** Every refusal of an argument, an option or a policy a call in the locale meets, with no lang given. */
const REFUSALS = `
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/index.js");
const ec = require("evidence-check");
const ex = require("evidence-check/extras");
const bundle = ${JSON.stringify(bundle)};
const scope = { tenant_id: "t", user_id: "u" };
const messages = [];
const caught = (what, f) => { try { f(); messages.push([what, "no error"]); } catch (e) { messages.push([what, e.message], ...(e.issues ?? []).map((i) => [what + " " + i.path, i.message])); } };
caught("unknown option", () => ec.checkBundle(bundle, { langue: "en" }));
caught("wrong type", () => ec.checkBundle(bundle, { maxClaims: -1 }));
caught("wrong value", () => ec.checkBundle(bundle, { render: "yes" }));
caught("unknown variant", () => ec.checkBundle(bundle, { compat: "x" }));
caught("lone surrogate", () => ec.checkBundle(bundle, { now: "\\ud800" + "x".repeat(3) }));
caught("lone surrogate in a key", () => ec.checkBundle(bundle, { ["\\udc00"]: 1 }));
caught("not an object", () => ec.checkBundle(bundle, []));
caught("scope required", () => ex.fromAnthropicMessage({}, {}, {}));
caught("sources", () => ex.fromBedrockResponse({}, {}, { scope, sources: [] }));
caught("sources entry", () => ex.fromBedrockResponse({}, {}, { scope, sources: { 0: { sourceId: "a" } } }));
caught("occurrence", () => new ec.EvidenceStore([], {}).quote(scope, "a", "x", { occurrence: 0 }));
caught("unknown preset", () => ec.checkBundle(bundle, { policy: "nope" }));
caught("unknown policy field", () => ec.checkBundle(bundle, { policy: { max_clams: 1 } }));
caught("policy field type", () => ec.checkBundle(bundle, { policy: { max_claims: "x" } }));
caught("policy extends", () => ec.checkBundle(bundle, { policy: { extends: 1 } }));
caught("policy text", () => ex.parsePolicy ? ex.parsePolicy("{") : ec.parsePolicy("{"));
process.stdout.write(JSON.stringify(messages));
`;

test("with LANG=en_US.UTF-8 or zh_CN.UTF-8 and no lang, every argument, option and policy refusal is in that language", () => {
  inBothLocales(REFUSALS, 16);
});

test("check - and check DIR give their line and file errors, and the skipped files, in the locale's language", () => {
  const dir = mkdtempSync(join(tmpdir(), "ec-lang-stream-"));
  const policy = join(dir, "policy.json");
  writeFileSync(policy, JSON.stringify({ extends: "documents", max_input_bytes: 50000 }));
  // A good line, a line that is not JSON, one not UTF-8, and one over the policy's input limit.
  const stdin = Buffer.concat([
    Buffer.from(JSON.stringify(bundle) + "\n{nope\n"),
    Buffer.from([0x7b, 0xe9, 0x7d, 0x0a]),
    Buffer.from(`"${"x".repeat(60000)}"\n`),
  ]);
  const bundles = mkdtempSync(join(dir, "bundles-"));
  writeFileSync(join(bundles, "good.json"), JSON.stringify(bundle));
  writeFileSync(join(bundles, "package.json"), JSON.stringify({ name: "x" }));
  writeFileSync(join(bundles, "list.json"), "[1]");
  writeFileSync(join(bundles, "broken.json"), "{nope");
  for (const locale of ["en_US.UTF-8", "zh_CN.UTF-8"]) {
    const lang = locale.startsWith("zh") ? "zh" : "en";
    const run = (args, input) => spawnSync(process.execPath, [join(PKG, "bin", "cli.mjs"), ...args], { encoding: "utf8", input, env: localeEnv(locale) });
    const stream = run(["check", "-", "--policy", policy, "--now", NOW, "--jobs", "2"], stdin);
    assert.equal(stream.status, 4, stream.stderr);
    const errors = stream.stdout.trim().split("\n").map((l) => JSON.parse(l)).filter((r) => r.error);
    assert.deepEqual(errors.map((r) => r.error.code).sort(), ["contract", "input_too_large", "invalid_utf8"], stream.stdout.slice(0, 2000));
    for (const r of errors) assert.ok(inOneLanguage(r.error.message, lang), `check - under ${locale}: ${r.error.message}`);
    const table = run(["check", bundles, "--now", NOW]);
    assert.equal(table.status, 4, table.stderr);
    const said = (table.stdout + table.stderr).split("\n").filter((l) => /package\.json|list\.json|broken\.json/.test(l));
    assert.equal(said.length, 3, table.stdout + table.stderr);
    for (const l of said) assert.ok(inOneLanguage(l.replace(/\S*\.json/g, ""), lang), `check DIR under ${locale}: ${l}`);
  }
});
