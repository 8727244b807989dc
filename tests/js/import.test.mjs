// Importers through the package as a user installs it: fromAnthropicMessage on the
// hand-built fixtures (tests/js/fixtures/anthropic), locateCitations / locateBundle for
// quote-only citations, quote() options, store.fromWebAnnotation, the CLI, and every
// example of docs/importers.md run as written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { ROOT, PKG, NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const project = userProject();
const ec = userRequire(project)("evidence-check");
const ex = userRequire(project)("evidence-check/extras"); // the importers
const fx = (name) => readJson("tests", "js", "fixtures", "anthropic", name);
const scope = { tenant_id: "acme", user_id: "ana" };
const opts = { scope, fetchedAt: NOW };
const CLI = join(PKG, "bin", "cli.mjs");

function checked(request, response) {
  const bundle = ex.fromAnthropicMessage(request, response, opts);
  return { bundle, result: ec.checkBundle(bundle, { now: NOW, lang: "en" }) };
}

const ALL_PENDING = { "claim-0": "pending_review", "claim-1": "pending_review", "claim-2": "pending_review", "claim-3": "pending_review", "claim-4": "pending_review" };

test("Anthropic fixture: every citation holds, whichever unit it used", () => {
  const { bundle, result } = checked(fx("request.json"), fx("response.json"));
  assert.deepEqual(bundle.import_notes, [
    { importer: "anthropic", source_id: "doc-2", document_index: 2, separator: "" },
    { importer: "anthropic", citation_id: "cite-0", document_index: 0, unit: "code_point" },
    { importer: "anthropic", citation_id: "cite-1", document_index: 0, unit: "code_point" },
    { importer: "anthropic", citation_id: "cite-2", document_index: 1, unit: "utf16" },
    { importer: "anthropic", citation_id: "cite-3", document_index: 1, unit: "code_point" },
    { importer: "anthropic", citation_id: "cite-4", document_index: 2, unit: "block" },
  ]);
  assert.deepEqual(
    bundle.sources.map((s) => s.spec),
    [
      { source_id: "doc-0", title: "Nature facts", locator: "anthropic:document/0", filename: "doc-0.md", kind: "public" },
      { source_id: "doc-1", title: "多语言 facts", locator: "anthropic:document/1", filename: "doc-1.md", kind: "public" },
      { source_id: "doc-2", title: "Blocks", locator: "anthropic:document/2", filename: "doc-2.md", kind: "public" },
    ],
  );
  assert.deepEqual(
    bundle.report.claims.map((c) => c.citations.map((x) => [x.citation_id, x.start, x.end, x.quote])),
    [[["cite-0", 0, 19, "The grass is green."]], [["cite-1", 20, 36, "The sky is blue."]], [["cite-2", 9, 15, "地球是圆的。"]], [["cite-3", 15, 22, "草是绿色的😀。"]], [["cite-4", 13, 39, "Second block. Third block."]]],
  );
  const { artifact, ...rest } = result;
  assert.deepEqual(rest, { assessment: { status: "needs_review", report_digest: ec.reportDigest(bundle.report), claims: ALL_PENDING, issues: [] } });
  assert.equal(artifact.status, "needs_review");
  assert.match(artifact.content, /> 草是绿色的😀。/u);
});

test("an imported bundle, its import notes included, is valid under bundleJsonSchema", () => {
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(ex.bundleJsonSchema());
  const bundle = ex.fromAnthropicMessage(fx("request.json"), fx("response.json"), opts);
  assert.equal(validate(bundle), true, JSON.stringify(validate.errors));
  assert.equal(validate({ ...bundle, import_notes: [{ importer: "anthropic", unit: "bytes" }] }), false);
});

test("Anthropic fixture: a tampered cited_text stays as the model gave it and is a quote_mismatch", () => {
  const { bundle, result } = checked(fx("request.json"), fx("response-tampered.json"));
  assert.deepEqual(bundle.report.claims[1].citations[0], { citation_id: "cite-1", ref: bundle.report.claims[0].citations[0].ref, start: 20, end: 36, quote: "The sky is green." });
  assert.deepEqual(result, {
    assessment: {
      status: "invalid",
      report_digest: ec.reportDigest(bundle.report),
      claims: { ...ALL_PENDING, "claim-1": "invalid" },
      issues: [{ claim_id: "claim-1", citation_id: "cite-1", code: "quote_mismatch", message: 'The quote is not the text at the cited range. (source doc-0; range [20, 36); text length 50; text at the range: "The sky is blue.")', source_id: "doc-0", start: 20, end: 36, text_length: 50, text_at_range: "The sky is blue." }],
    },
    render_error: { code: "report_invalid", message: "The report has invalid citations; it is not exported." },
  });
});

test("Anthropic fixture: a document changed after the response makes its citations invalid", () => {
  const { bundle, result } = checked(fx("request-changed.json"), fx("response.json"));
  const ref = bundle.sources[0] && { source_id: "doc-0", revision: 1, digest: ec.digestText(bundle.sources[0].content) };
  const hint = (start, end) => ({ ref, occurrences: 1, start, end });
  assert.deepEqual(result, {
    assessment: {
      status: "invalid",
      report_digest: ec.reportDigest(bundle.report),
      claims: { ...ALL_PENDING, "claim-0": "invalid", "claim-1": "invalid" },
      issues: [
        { claim_id: "claim-0", citation_id: "cite-0", code: "quote_mismatch", message: 'The quote is not the text at the cited range. (source doc-0; range [0, 19); text length 54; text at the range: "The grass is yellow")', source_id: "doc-0", start: 0, end: 19, text_length: 54, text_at_range: "The grass is yellow" },
        { claim_id: "claim-1", citation_id: "cite-1", code: "quote_mismatch", message: 'The quote is not the text at the cited range. (source doc-0; range [20, 36); text length 54; text at the range: "sh. The sky is b")', source_id: "doc-0", start: 20, end: 36, text_length: 54, text_at_range: "sh. The sky is b", hint: hint(24, 40) },
      ],
    },
    render_error: { code: "report_invalid", message: "The report has invalid citations; it is not exported." },
  });
});

test("Anthropic: page_location is refused naming the document; a scope is required", () => {
  const request = { messages: [{ role: "user", content: [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0=" }, title: "Annual report" }] }] };
  const response = { content: [{ type: "text", text: "Revenue grew", citations: [{ type: "page_location", cited_text: "Revenue grew", document_index: 0, document_title: "Annual report", start_page_number: 2, end_page_number: 3 }] }] };
  assert.throws(() => ex.fromAnthropicMessage(request, response, opts), (e) => {
    assert.equal(e.code, "contract");
    assert.deepEqual(e.issues, [{ path: "/response/content/0/citations/0", code: "not_allowed", message: 'page_location cites PDF pages of document 0 ("Annual report", /request/messages/0/content/0): PDF text is not ours to extract; send the document as text' }]);
    return true;
  });
  assert.throws(() => ex.fromAnthropicMessage(request, response, {}), { code: "invalid_argument" });
  assert.throws(() => ex.fromAnthropicMessage(request, response), { code: "invalid_argument", message: "options.scope is required" });
});

function store(texts) {
  const specs = Object.keys(texts).map((id) => ({ source_id: id, title: id, locator: `fixture:${id}`, filename: `${id}.md`, kind: "fixture" }));
  const st = new ec.EvidenceStore(specs, { now: NOW, lang: "en" });
  const refs = Object.fromEntries(Object.entries(texts).map(([id, t]) => [id, st.ingest(scope, id, t)]));
  return { st, refs };
}

test("quote(): overlapping occurrences, not found vs ambiguous with count and ranges, prefix/suffix, occurrence, CRLF, compat", () => {
  const { st, refs } = store({ a: "xyxyx and one two one\r\nend" });
  assert.throws(() => st.quote(scope, refs.a, "xyx", "q"), (e) => {
    assert.deepEqual([e.code, e.sourceId, e.count, e.ranges], ["quote_ambiguous", "a", 2, [[0, 3], [2, 5]]]);
    assert.equal(e.message, "The quote occurs 2 times in source a (code points [0, 3), [2, 5)); give a prefix and suffix or an occurrence to pick one.");
    return true;
  });
  assert.throws(() => st.quote(scope, refs.a, "three", "q"), { code: "quote_not_found", sourceId: "a", count: 0 });
  assert.deepEqual(st.quote(scope, refs.a, "xyx", "q", { occurrence: 2 }), { citation_id: "q", ref: refs.a, start: 2, end: 5, quote: "xyx" });
  assert.equal(st.quote(scope, refs.a, "one", "q", { prefix: "two " }).start, 18);
  assert.equal(st.quote(scope, refs.a, "one\r\nend", "q").quote, "one\nend");
  // The reference's count and code under compat "reference": "xyx" is unique there.
  assert.equal(st.quote(scope, refs.a, "xyx", "q", { compat: "reference" }).start, 0);
  assert.throws(() => st.quote(scope, refs.a, "one", "q", { compat: "reference" }), { code: "quote_not_unique", message: "The passage is missing or occurs more than once; it cannot be located uniquely." });
  assert.throws(() => st.quote(scope, refs.a, "one", "q", { occurrence: 0 }), { code: "invalid_argument" });
  st.free();
});

test("locateCitations: unique, ambiguous, disambiguated, absent, CRLF; loose only on request", () => {
  const { st, refs } = store({ a: "one two one two one\r\nthe end", b: "Plan A  works\n offline." });
  const draft = {
    title: "Draft",
    claims: [
      { claim_id: "unique", text: "u", kind: "fact", citations: [{ source_id: "a", quote: "two one\r\nthe" }] },
      { claim_id: "ambiguous", text: "a", kind: "fact", citations: [{ citation_id: "amb", source_id: "a", quote: "one" }] },
      { claim_id: "context", text: "c", kind: "fact", citations: [{ source_id: "a", quote: "one", prefix: "two ", suffix: " two" }] },
      { claim_id: "absent", text: "x", kind: "fact", citations: [{ source_id: "a", quote: "three" }] },
      { claim_id: "loose", text: "l", kind: "fact", citations: [{ source_id: "b", quote: "Plan A works offline." }] },
    ],
  };
  const exact = ec.locateCitations(scope, draft, st);
  assert.deepEqual(exact.located, [
    { claim_id: "unique", citation_id: "q1", source_id: "a", start: 12, end: 23, quote: "two one\nthe", whitespace: "exact" },
    { claim_id: "context", citation_id: "q2", source_id: "a", start: 8, end: 11, quote: "one", whitespace: "exact" },
  ]);
  assert.deepEqual(exact.issues, [
    { claim_id: "ambiguous", citation_id: "amb", source_id: "a", quote: "one", code: "quote_ambiguous", count: 3, ranges: [[0, 3], [8, 11], [16, 19]], message: "The quote occurs 3 times in source a (code points [0, 3), [8, 11), [16, 19)); give a prefix and suffix or an occurrence to pick one." },
    { claim_id: "absent", citation_id: null, source_id: "a", quote: "three", code: "quote_not_found", count: 0, message: "The quote does not occur in the current revision of source a." },
    { claim_id: "loose", citation_id: null, source_id: "b", quote: "Plan A works offline.", code: "quote_not_found", count: 0, message: "The quote does not occur in the current revision of source b." },
  ]);
  // Each unlocated quote is a gap that names it (no loose match without the option).
  const ambiguousGap = 'Claim ambiguous, citation amb: cited text is ambiguous in source a: it occurs more than once, so the citation was not located (give a prefix, suffix or occurrence) (quote_ambiguous); quote: "one"';
  const absentGap = 'Claim absent: cited text not found in source a: the citation was not located (quote_not_found); quote: "three"';
  assert.deepEqual(exact.report.gaps, [ambiguousGap, absentGap, 'Claim loose: cited text not found in source b: the citation was not located (quote_not_found); quote: "Plan A works offline."']);
  assert.deepEqual(exact.report.claims[0].citations, [{ citation_id: "q1", ref: refs.a, start: 12, end: 23, quote: "two one\nthe" }]);
  const a = ec.assess(scope, exact.report, st);
  assert.deepEqual(a.claims, { unique: "pending_review", ambiguous: "insufficient", context: "pending_review", absent: "insufficient", loose: "insufficient" });

  const loose = ec.locateCitations(scope, draft, st, { whitespace: "loose" });
  assert.deepEqual(loose.located[2], { claim_id: "loose", citation_id: "q3", source_id: "b", start: 0, end: 23, quote: "Plan A  works\n offline.", whitespace: "loose" });
  assert.deepEqual(loose.report.gaps, [ambiguousGap, absentGap, "Citation q3 was located in source b ignoring whitespace: the draft's quote differs from the source in whitespace; the source's exact text is quoted."]);
  const artifact = ec.render(scope, loose.report, st, [], { now: NOW, lang: "en" }).content;
  assert.match(artifact, /- Gap: Citation q3 was located in source b ignoring whitespace/);
  st.free();
});

test("store.fromWebAnnotation locates a quote-only annotation with the same locator", () => {
  const { st, refs } = store({ a: "one two one two one" });
  const annotation = (selector, extra = {}) => ({ id: "urn:evidence-check:citation:w1", type: "Annotation", target: { source: "fixture:a", selector, ...extra } });
  assert.deepEqual(st.fromWebAnnotation(scope, annotation({ type: "TextQuoteSelector", exact: "one", prefix: "two ", suffix: " two" })), { citation_id: "w1", ref: refs.a, start: 8, end: 11, quote: "one" });
  assert.throws(() => st.fromWebAnnotation(scope, annotation([{ type: "TextQuoteSelector", exact: "one" }])), { code: "quote_ambiguous", count: 3 });
  assert.throws(() => st.fromWebAnnotation(scope, annotation({ type: "TextQuoteSelector", exact: "six" }, { state: { type: "SourceRevision", source_id: "a" } })), { code: "quote_not_found" });
  // Without the store it is refused, as before.
  assert.throws(() => ex.fromWebAnnotation(annotation({ type: "TextQuoteSelector", exact: "one" })), { code: "contract" });
  st.free();
});

/** Runs the CLI in a Chinese locale (it follows the locale; these tests assume zh). */
function run(...args) {
  const env = { ...process.env, LANG: "zh_CN.UTF-8" };
  delete env.LC_ALL;
  delete env.LC_MESSAGES;
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("CLI: import anthropic, then check; locate a draft bundle", () => {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-import-"));
  const F = join(ROOT, "tests", "js", "fixtures", "anthropic");
  const out = join(dir, "nested", "bundle.json");
  let r = run("import", "anthropic", join(F, "request.json"), join(F, "response.json"), "--out", out, "--tenant", "acme", "--user", "ana");
  assert.deepEqual(r, { code: 0, stdout: "", stderr: "已导入 3 份文档、5 条论断、5 条引用\n" });
  assert.deepEqual(JSON.parse(readFileSync(out, "utf8")).scope, scope);
  r = run("check", out, "--json", "--now", NOW);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.stdout).assessment.status, "needs_review");
  r = run("import", "anthropic", join(F, "request.json"), join(F, "response-tampered.json"));
  assert.equal(r.code, 0);
  assert.equal(JSON.parse(r.stdout).import_notes[2].unit, "unmatched");
  assert.match(r.stderr, /在任何计数单位下都不含其 cited_text\(按模型给出的保留,检查时会报告\):cite-1/);
  r = run("import", "pdf", "a", "b");
  assert.equal(r.code, 3);
  assert.match(r.stderr, /import 接受 anthropic、bedrock、openai 或 gemini,而不是 pdf/);

  const draft = {
    scope,
    sources: [{ spec: { source_id: "a", title: "A", locator: "fixture:a", filename: "a.md", kind: "fixture" }, content: "one two one\r\nPlan  B", revision: 2 }],
    report: { title: "D", claims: [{ claim_id: "k1", text: "t", kind: "fact", citations: [{ source_id: "a", quote: "two" }] }, { claim_id: "k2", text: "t", kind: "fact", citations: [{ source_id: "a", quote: "one" }, { source_id: "a", quote: "Plan B" }] }] },
  };
  const draftPath = join(dir, "draft.json");
  writeFileSync(draftPath, JSON.stringify(draft));
  r = run("locate", draftPath, "--out", join(dir, "located.json"));
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    "已定位 1 处引文\n  k2: quote_ambiguous(出现 2 次,位于 [0, 3), [8, 11)) — 片段在来源 a 中出现 2 次(字符区间 [0, 3), [8, 11)),无法唯一定位;请给出前后文或指定第几处。\n  k2: quote_not_found(出现 0 次) — 片段未出现在来源 a 的当前版本中。\n",
  );
  const located = JSON.parse(readFileSync(join(dir, "located.json"), "utf8"));
  assert.deepEqual(located.report.claims[0].citations, [{ citation_id: "q1", ref: { source_id: "a", revision: 2, digest: ec.digestText(draft.sources[0].content) }, start: 4, end: 7, quote: "two" }]);
  assert.deepEqual(located.import_notes, [
    { importer: "locate", citation_id: "q1", whitespace: "exact" },
    // The unlocated quotes stay in the bundle, and the check reports them.
    { importer: "locate", source_id: "a", claim_id: "k2", code: "quote_ambiguous", quote: "one" },
    { importer: "locate", source_id: "a", claim_id: "k2", code: "quote_not_found", quote: "Plan B" },
  ]);
  r = run("check", join(dir, "located.json"), "--json", "--now", NOW);
  assert.deepEqual(JSON.parse(r.stdout).assessment.claims, { k1: "pending_review", k2: "insufficient" });
  assert.deepEqual(JSON.parse(r.stdout).assessment.issues.map((i) => [i.claim_id, i.code]), [["k2", "quote_ambiguous"], ["k2", "quote_not_found"]]);
  r = run("locate", draftPath, "--whitespace", "loose", "--lang", "en");
  assert.equal(r.code, 1);
  const loose = JSON.parse(r.stdout);
  assert.deepEqual(loose.import_notes.map((n) => n.whitespace ?? n.code), ["exact", "loose", "quote_ambiguous"]);
  assert.equal(loose.report.claims[1].citations[0].quote, "Plan  B");
});

test("docs/importers.md: every js example runs and prints what the page shows", () => {
  const doc = readFileSync(join(ROOT, "docs", "importers.md"), "utf8");
  const blocks = [...doc.matchAll(/```js\n([\s\S]*?)```\n+```text\n([\s\S]*?)```/g)];
  assert.ok(blocks.length >= 3, `found ${blocks.length} examples`);
  for (const [i, [, code, expected]] of blocks.entries()) {
    const file = join(project, `example-${i}.mjs`);
    writeFileSync(file, code);
    const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: "utf8" });
    assert.equal(r.stderr, "", `example ${i}`);
    assert.equal(r.stdout, expected, `example ${i} prints what docs/importers.md shows`);
  }
});

test("CLI: check on a draft that was not located says once how many citations have no range", () => {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-draft-"));
  const draft = {
    scope,
    sources: [{ spec: { source_id: "a", title: "A", locator: "fixture:a", filename: "a.md", kind: "fixture" }, content: "one two one" }],
    report: { title: "D", claims: [
      { claim_id: "k1", text: "t", kind: "fact", citations: [{ citation_id: "x1", source_id: "a", quote: "two" }] },
      { claim_id: "k2", text: "t", kind: "fact", citations: [{ source_id: "a", quote: "one" }] },
    ] },
  };
  const draftPath = join(dir, "draft.json");
  writeFileSync(draftPath, JSON.stringify(draft));
  const subjects = "/report/claims/0/citations/0 (x1), /report/claims/1/citations/0";
  let r = run("check", draftPath, "--lang", "en");
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /2 citations have no range: run `evidence-check locate` first: \/report\/claims\/0\/citations\/0 \(x1\), \/report\/claims\/1\/citations\/0/);
  assert.doesNotMatch(r.stderr, /extra_field|Field required|Extra inputs/);
  r = run("check", draftPath, "--lang", "zh");
  assert.ok(r.stderr.includes(`2 条引用没有区间:请先运行 \`evidence-check locate\`:${subjects}`), r.stderr);
  assert.throws(() => ec.checkBundle(draft, { lang: "en" }), (e) =>
    e.code === "contract" && e.issues.length === 1 && e.issues[0].code === "quote_only_citations" && e.issues[0].path === "/report/claims/0/citations/0");
});
