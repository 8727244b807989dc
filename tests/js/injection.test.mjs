// Every injection payload in every text field, through checkBundle (hardened default),
// rendered by markdown-it (HTML and linkify on), marked (GFM) and commonmark: the HTML
// has exactly the elements of the same artifact made from harmless text, apart from the
// escaping's code spans.
import { test } from "node:test";
import assert from "node:assert/strict";
import MarkdownIt from "markdown-it";
import { marked } from "marked";
import * as commonmark from "commonmark";
import { NOW, userProject, userRequire } from "./helpers.mjs";
import { PAYLOADS, FIELDS, bundle as bundleOf, artifacts } from "./injection-bundle.mjs";

const ec = userRequire(userProject())("evidence-check");
const md = new MarkdownIt({ html: true, linkify: true });
const cm = { parser: new commonmark.Parser(), renderer: new commonmark.HtmlRenderer() };
const RENDERERS = {
  "markdown-it": (s) => md.render(s),
  "marked (GFM)": (s) => marked.parse(s, { gfm: true, async: false }),
  commonmark: (s) => cm.renderer.render(cm.parser.parse(s)),
};
const bundle = (field, payload) => bundleOf(ec, field, payload);

// Code elements are left out: the hardened escaping writes a word GitHub could link
// (an e-mail address, a URL, `@name`, `#123`, a commit SHA) as a code span.
const tags = (html) => {
  const counts = {};
  for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9]*)\b/g)) {
    const tag = m[1].toLowerCase();
    if (tag !== "code") counts[tag] = (counts[tag] ?? 0) + 1;
  }
  return counts;
};

test(`${PAYLOADS.length} payloads × ${FIELDS.length} fields make no element under three renderers`, () => {
  assert.ok(PAYLOADS.length >= 200);
  const failures = [];
  let rendered = 0;
  let refused = 0;
  for (const { lang, field, payload, baseline, artifact } of artifacts(ec)) {
    if (artifact === undefined) {
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
