// Every injection payload in every text field, through checkBundle (hardened default),
// rendered by markdown-it (HTML and linkify on), marked (GFM) and commonmark: the HTML
// has exactly the elements of the same artifact made from harmless text.
import { test } from "node:test";
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { marked } from "marked";
import * as commonmark from "commonmark";
import { readJson, NOW, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const PAYLOADS = readJson("tests", "data", "injection", "payloads.json");
const FIELDS = ["title", "claim_text", "rationale", "quote", "conflict_reason", "gap", "review_note", "spec_title", "spec_locator"];
const md = new MarkdownIt({ html: true, linkify: true });
const cm = { parser: new commonmark.Parser(), renderer: new commonmark.HtmlRenderer() };
const RENDERERS = {
  "markdown-it": (s) => md.render(s),
  "marked (GFM)": (s) => marked.parse(s, { gfm: true, async: false }),
  commonmark: (s) => cm.renderer.render(cm.parser.parse(s)),
};

function bundle(field, payload) {
  const pick = (f, d) => (f === field ? payload : d);
  const quoted = pick("quote", "Passage").replace(/\r\n?/g, "\n");
  const content = `Intro.\n${quoted}\nEnd.\n`;
  const spec = { source_id: "s", title: pick("spec_title", "Source"), locator: pick("spec_locator", "fixture:s"), filename: "s.md", kind: "public" };
  const store = new ec.EvidenceStore([spec], { now: NOW });
  const scope = { tenant_id: "t", user_id: "u" };
  const ref = store.ingest(scope, "s", content);
  const c1 = store.quote(scope, ref, "Intro.", "c1");
  const c2 = { citation_id: "c2", ref, start: 7, end: 7 + [...quoted].length, quote: quoted };
  store.free();
  const report = {
    title: pick("title", "Report"),
    claims: [
      { claim_id: "k1", text: pick("claim_text", "Claim"), kind: "fact", citations: [c1] },
      { claim_id: "k2", text: "Other", kind: "inference", rationale: pick("rationale", "Because"), citations: [c2] },
      { claim_id: "k3", text: "Third", kind: "fact" },
    ],
    conflicts: [{ claim_ids: ["k2", "k3"], reason: pick("conflict_reason", "Reason") }],
    gaps: [pick("gap", "Gap")],
  };
  const reviews = [ec.recordReview(scope, report, "k1", "supported", pick("review_note", "Note"), { now: NOW })];
  return { scope, sources: [{ spec, content }], report, reviews };
}

const tags = (html) => {
  const counts = {};
  for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)\b/g)) counts[m[1].toLowerCase()] = (counts[m[1].toLowerCase()] ?? 0) + 1;
  return counts;
};

test(`${PAYLOADS.length} payloads × ${FIELDS.length} fields make no element under three renderers`, () => {
  assert.ok(PAYLOADS.length >= 200);
  const failures = [];
  let rendered = 0;
  let refused = 0;
  for (const lang of ["zh", "en"]) for (const field of FIELDS) {
    const baseline = ec.checkBundle(bundle(field, "x"), { now: NOW, lang }).artifact.content;
    for (const payload of PAYLOADS) {
      let artifact;
      try {
        artifact = ec.checkBundle(bundle(field, payload), { now: NOW, lang }).artifact.content;
      } catch (e) {
        // Over a field's length limit, or blank text: the contract refuses it; that is safe.
        assert.ok(e.code === "contract" || e.code === "invalid_note", `${field}: ${JSON.stringify(payload)}: ${e.code} ${e.message}`);
        refused++;
        continue;
      }
      rendered++;
      for (const [name, render] of Object.entries(RENDERERS)) {
        const got = tags(render(artifact));
        const want = tags(render(baseline));
        try {
          assert.deepEqual(got, want);
        } catch {
          failures.push(`${name} / ${lang} / ${field}: ${JSON.stringify(payload)} → ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
        }
      }
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(rendered >= 2 * PAYLOADS.length * FIELDS.length * 0.9, `only ${rendered} rendered, ${refused} refused`);
});

test("the reference escaping lets a bare URL autolink, as documented", () => {
  const b = bundle("gap", "see http://evil.example now");
  const ref = ec.checkBundle(b, { now: NOW, compat: "reference" }).artifact.content;
  const hard = ec.checkBundle(b, { now: NOW }).artifact.content;
  assert.ok(md.render(ref).includes('<a href="http://evil'), "the reference's artifact autolinks the URL");
  assert.ok(!md.render(hard).includes('href="http'), "the hardened artifact does not");
});
