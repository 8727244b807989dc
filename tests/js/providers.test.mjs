// The provider importers through the package as a user installs it: fromBedrockResponse,
// fromOpenAIResponse, fromGeminiResponse and fromModelResponse on the fixtures of
// tests/data/providers, checked with checkBundle; the CLI's `import <provider>`; and
// store.fromWebAnnotation on Hypothesis-shaped annotations, lone surrogates included.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, PKG, NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const project = userProject();
const ec = userRequire(project)("evidence-check");
const ex = userRequire(project)("evidence-check/extras");
const scope = { tenant_id: "acme", user_id: "ana" };
const CLI = join(PKG, "bin", "cli.mjs");
const fx = (provider, name) => readJson("tests", "data", "providers", provider, `${name}.json`);
const FNS = { bedrock: ex.fromBedrockResponse, openai: ex.fromOpenAIResponse, gemini: ex.fromGeminiResponse };

function imported(provider, kase, response, via = "direct") {
  const request = fx(provider, `${kase}.request`);
  const sources = fx(provider, `${kase}.sources`);
  const res = fx(provider, `${response}.response`);
  const opts = { scope, sources, fetchedAt: NOW, lang: "en" };
  return via === "direct" ? FNS[provider](request, res, opts) : ex.fromModelResponse(request, res, opts);
}
const check = (bundle) => ec.checkBundle(bundle, { now: NOW, lang: "en" }).assessment;

for (const provider of ["bedrock", "openai", "gemini"]) {
  test(`${provider}: every correct citation holds, ascii, CJK + emoji and two documents`, () => {
    for (const kase of ["ascii", "cjk-emoji", "two-docs"]) {
      for (const via of ["direct", "detected"]) {
        const out = imported(provider, kase, kase, via);
        assert.equal(out.provider, provider);
        assert.ok(out.bundle.report.claims.length > 0, kase);
        const a = check(out.bundle);
        assert.deepEqual(a.issues, [], `${provider}/${kase}`);
        assert.equal(a.status, "needs_review");
        // Whatever was not checked is listed with its code.
        for (const i of out.issues) assert.match(i.code, /^(existence_only|no_cited_text)$/, JSON.stringify(i));
      }
    }
  });

  test(`${provider}: a tampered citation makes the bundle invalid, with a coded issue on it`, () => {
    const out = imported(provider, "ascii", "tampered");
    const flagged = out.issues.filter((i) => i.citation_id).map((i) => i.citation_id);
    assert.ok(flagged.length >= 1);
    const a = check(out.bundle);
    assert.equal(a.status, "invalid");
    assert.deepEqual(a.issues.map((i) => i.citation_id).sort(), flagged.sort());
    for (const i of a.issues) assert.match(i.code, /^(quote_mismatch|range_out_of_bounds)$/);
  });

  test(`${provider}: the commonly dropped field left out lists every citation it affects`, () => {
    const kase = provider === "openai" ? "dropped" : "ascii";
    const request = fx(provider, `${kase}.request`);
    const out = FNS[provider](request, fx(provider, "dropped.response"), { scope, sources: fx(provider, "ascii.sources"), lang: "en" });
    assert.ok(out.issues.some((i) => i.code === "no_cited_text"), JSON.stringify(out.issues));
    for (const i of out.issues) assert.ok(i.path.startsWith("/") && i.message.length > 0);
  });
}

test("fromModelResponse refuses an unknown shape, listing the known ones", () => {
  assert.throws(
    () => ex.fromModelResponse({}, { choices: [] }, { scope, sources: {}, lang: "en" }),
    (e) => e.code === "unknown_response_shape" && ["anthropic", "bedrock", "openai", "gemini"].every((p) => e.message.includes(p)),
  );
  assert.throws(() => ex.fromModelResponse({}, {}, { scope, provider: "cohere" }), { code: "unknown_response_shape" });
  assert.throws(() => ex.fromBedrockResponse({}, {}, { scope, sources: { 0: { text: "x" } } }), { code: "invalid_argument" });
  // An Anthropic response is detected too.
  const a = ex.fromModelResponse(readJson("tests", "js", "fixtures", "anthropic", "request.json"), readJson("tests", "js", "fixtures", "anthropic", "response.json"), { scope });
  assert.equal(a.provider, "anthropic");
});

test("Gemini: bytes on CJK + emoji land on the provider's text; offsets written as UTF-16 are caught", () => {
  const res = fx("gemini", "cjk-emoji.response");
  const out = imported("gemini", "cjk-emoji", "cjk-emoji");
  const segs = res.candidates[0].groundingMetadata.groundingSupports.map((s) => s.segment);
  assert.deepEqual(out.bundle.report.claims.map((c) => c.text), segs.map((s) => s.text.trim()));
  const parts = res.candidates[0].content.parts.map((p) => p.text);
  const wrong = structuredClone(res);
  for (const s of wrong.candidates[0].groundingMetadata.groundingSupports) {
    const part = parts[s.segment.partIndex];
    const at = part.indexOf(s.segment.text); // a UTF-16 index: the wrong unit
    s.segment.startIndex = at;
    s.segment.endIndex = at + s.segment.text.length;
  }
  const w = ex.fromGeminiResponse({}, wrong, { scope, sources: fx("gemini", "cjk-emoji.sources"), lang: "en" });
  assert.equal(w.bundle.report.claims.length, 0);
  for (const i of w.issues) {
    assert.match(i.code, /^answer_offsets_(mismatch|out_of_range)$/);
    assert.equal(i.unit, "utf8");
    assert.equal(typeof i.part_index, "number");
  }
});

test("CLI: import bedrock|openai|gemini writes a bundle that check takes, and lists what it could not check", () => {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-providers-"));
  const D = join(ROOT, "tests", "data", "providers");
  for (const provider of ["bedrock", "openai", "gemini"]) {
    const out = join(dir, `${provider}.json`);
    const r = spawnSync(process.execPath, [CLI, "import", provider, join(D, provider, "ascii.request.json"), join(D, provider, "ascii.response.json"), "--sources", join(D, provider, "ascii.sources.json"), "--out", out, "--tenant", "acme", "--user", "ana", "--title", `From ${provider}`, "--lang", "en"], { encoding: "utf8" });
    assert.equal(r.status, 1, r.stderr); // each ascii fixture has one web / URL citation
    assert.match(r.stderr, /existence_only/);
    const bundle = JSON.parse(readFileSync(out, "utf8"));
    assert.equal(bundle.report.title, `From ${provider}`);
    const c = spawnSync(process.execPath, [CLI, "check", out, "--lang", "en", "--json"], { encoding: "utf8" });
    assert.equal(JSON.parse(c.stdout).assessment.status, "needs_review", c.stdout);
  }
  // Snapshots by file, relative to the sources file.
  writeFileSync(join(dir, "atlas.txt"), fx("openai", "ascii.sources")["file-atlas"].text);
  writeFileSync(join(dir, "sources.json"), JSON.stringify({ "file-atlas": { sourceId: "atlas", file: "atlas.txt" } }));
  const r = spawnSync(process.execPath, [CLI, "import", "openai", join(D, "openai", "ascii.request.json"), join(D, "openai", "ascii.response.json"), "--sources", join(dir, "sources.json")], { encoding: "utf8" });
  assert.equal(JSON.parse(r.stdout).sources[0].content, fx("openai", "ascii.sources")["file-atlas"].text);
  const bad = spawnSync(process.execPath, [CLI, "import", "gemini", join(D, "gemini", "ascii.request.json"), join(D, "gemini", "ascii.response.json")], { encoding: "utf8" });
  assert.equal(bad.status, 3);
  assert.match(bad.stderr, /--sources/);
});

test("store.fromWebAnnotation: a Hypothesis annotation is located quote-first; a lone surrogate at a context's edge is trimmed", () => {
  const spec = { source_id: "page", title: "Page", locator: "https://example.org/page", filename: "page.md", kind: "public" };
  const st = new ec.EvidenceStore([spec], { lang: "en", now: NOW });
  const text = "Camp 🏕 here. Plan A works 🔥 offline. Plan A works.";
  const ref = st.ingest(scope, "page", text);
  const exact = "Plan A works";
  const at = text.indexOf(exact); // UTF-16
  // Hypothesis's 32 UTF-16 units of context, cut through the emoji on either side.
  const prefix = text.slice(Math.max(0, at - 8), at);
  const suffix = text.slice(at + exact.length, at + exact.length + 2);
  assert.equal(prefix.charCodeAt(0) >= 0xdc00 && prefix.charCodeAt(0) < 0xe000, true, "the prefix starts with a lone low surrogate");
  assert.equal(suffix.charCodeAt(suffix.length - 1) >= 0xd800 && suffix.charCodeAt(suffix.length - 1) < 0xdc00, true, "the suffix ends with a lone high surrogate");
  const annotation = {
    id: "Zx1aBc2dEe",
    uri: "https://example.org/page",
    target: [{ source: "https://example.org/page", selector: [
      { type: "RangeSelector", startContainer: "/main[1]/p[1]", startOffset: 0, endContainer: "/main[1]/p[1]", endOffset: 12 },
      { type: "TextPositionSelector", start: at, end: at + exact.length },
      { type: "TextQuoteSelector", exact, prefix, suffix },
    ] }],
  };
  const c = st.fromWebAnnotation(scope, annotation);
  assert.deepEqual({ start: c.start, end: c.end, quote: c.quote, ref: c.ref, id: c.citation_id }, { start: 13, end: 25, quote: exact, ref, id: "annotation" });
  assert.deepEqual(c.trimmed.map((t) => t.field), ["prefix", "suffix"]);
  // Without a lone surrogate there is nothing to say; a lone one inside a context is refused.
  const clean = structuredClone(annotation);
  clean.target[0].selector[2] = { type: "TextQuoteSelector", exact, prefix: " here. " };
  assert.equal(st.fromWebAnnotation(scope, clean).trimmed, undefined);
  const inner = structuredClone(annotation);
  inner.target[0].selector[2].prefix = "x" + prefix;
  assert.throws(() => st.fromWebAnnotation(scope, inner), { code: "invalid_unicode" });
  st.free();
});

test("thin adapters: a Vercel AI SDK result and a LangChain message", () => {
  const v = ex.fromVercelResult(fx("vercel", "anthropic.response"), { scope, sources: fx("vercel", "anthropic.sources"), lang: "en" });
  assert.equal(v.provider, "vercel");
  assert.deepEqual(check(v.bundle).issues, []);
  assert.deepEqual(v.issues.map((i) => i.code), ["existence_only"]);
  const g = ex.fromVercelResult(fx("vercel", "google.response"), { scope, sources: fx("vercel", "google.sources"), lang: "en" });
  assert.equal(g.bundle.report.claims.length, 2);
  assert.deepEqual(check(g.bundle).issues, []);
  const l = ex.fromLangChainMessage(fx("langchain", "anthropic.response"), { scope, sources: fx("langchain", "anthropic.sources"), lang: "en" });
  assert.deepEqual(check(l.bundle).issues, []);
  const t = ex.fromLangChainMessage(fx("langchain", "tampered.response"), { scope, sources: fx("langchain", "anthropic.sources"), lang: "en" });
  assert.equal(check(t.bundle).status, "invalid");
});
