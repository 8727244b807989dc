// The inputs of bench/bench.mjs, generated deterministically (a seeded PRNG): nothing
// large is committed. Every generator returns the bundle's JSON text with a placeholder
// for the first source's `fetched_at`, so that `vary(i)` gives each timed call an input
// no earlier call had.
import { createHash } from "node:crypto";

export const NOW = "2026-11-29T00:00:00+00:00";
const FETCHED = "2026-11-29T00:00:00+00:00";

/** A distinct date-time for call `i`, the same length for every `i`. */
export const stamp = (i) =>
  `2026-11-${String(1 + (Math.floor(i / 86400) % 28)).padStart(2, "0")}T${String(Math.floor(i / 3600) % 24).padStart(2, "0")}:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}+00:00`;

/** A flat copy of a concatenated string, so the timed call does not flatten it. */
const flat = (s) => (s.indexOf("\u0001"), s);

const sha256 = (text) => createHash("sha256").update(text).digest("hex");
export const normalize = (text) => text.replace(/\r\n?/g, "\n");
const cpLength = (s) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** mulberry32: a small seeded PRNG, so every run generates the same texts. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the licence grants each recipient a worldwide royalty free non exclusive right to use copy modify " +
  "merge publish distribute sublicense and sell copies of the software provided that notice appears in " +
  "all copies contributor patent claim warranty liability damages jurisdiction termination section " +
  "service level availability region backup retention encryption audit log access control incident " +
  "report customer data processor controller transfer schedule annex obligation party agreement term"
).split(" ");
// A few words outside ASCII, as real documents have: accents, CJK, an astral character.
const RARE = ["café", "naïve", "Zürich", "résumé", "数据保护", "服务条款", "𝒳-index", "±5 %"];

/** A sentence of 8-40 words, capitalised, ending with a full stop. */
function sentence(rand) {
  const n = 8 + Math.floor(rand() * 33);
  const words = [];
  for (let i = 0; i < n; i++) words.push(rand() < 0.02 ? RARE[Math.floor(rand() * RARE.length)] : WORDS[Math.floor(rand() * WORDS.length)]);
  const s = words.join(" ");
  return s[0].toUpperCase() + s.slice(1) + ".";
}

/**
 * A Markdown document of about `bytes` UTF-8 bytes (headings, paragraphs of sentences), with
 * `eol` line ends, and the sentences a citation can quote, each with its code-point range
 * in the LF-normalised text.
 */
function documentText(rand, title, bytes, eol) {
  const parts = [];
  const sentences = [];
  let cp = 0;
  let size = 0;
  const push = (s, quotable) => {
    if (quotable) sentences.push({ start: cp, end: cp + cpLength(s), quote: s });
    parts.push(s);
    cp += cpLength(normalize(s));
    size += Buffer.byteLength(s);
  };
  push(`# ${title}${eol}${eol}`, false);
  for (let section = 1; size < bytes; section++) {
    push(`## Section ${section}${eol}${eol}`, false);
    for (let p = 0; p < 3 && size < bytes; p++) {
      const n = 3 + Math.floor(rand() * 5);
      for (let k = 0; k < n; k++) {
        push(sentence(rand), true);
        push(k < n - 1 ? " " : `${eol}${eol}`, false);
      }
    }
  }
  return { text: parts.join(""), sentences };
}

/** Splits a bundle's JSON text at the first source's fetched_at: `vary(i)` puts stamp(i) there. */
function varied(bundle) {
  const [head, tail] = JSON.stringify(bundle).split(FETCHED);
  return { bundle, textLength: head.length + FETCHED.length + tail.length, vary: (i) => flat(head + stamp(i) + tail) };
}

/**
 * W2, a real report: 5 sources of 20-60 KB (one saved with CRLF line ends) and 25 claims
 * with 40 citations (15 claims cite two passages, 10 one), each an exact sentence of a
 * source. Checked under the documents policy.
 */
export function reportBundle() {
  const rand = prng(29);
  const sizes = [20, 30, 40, 50, 60].map((kb) => kb * 1000);
  const docs = sizes.map((bytes, k) => documentText(rand, `Handbook, part ${k + 1}`, bytes, k === 2 ? "\r\n" : "\n"));
  const sources = docs.map((d, k) => ({
    spec: { source_id: `handbook_${k + 1}`, title: `Handbook, part ${k + 1}`, locator: `https://example.org/handbook/${k + 1}`, filename: `handbook/part-${k + 1}.md`, kind: "web" },
    content: d.text,
    revision: 1,
    ...(k === 0 ? { fetched_at: FETCHED } : {}),
  }));
  const digests = docs.map((d) => sha256(normalize(d.text)));
  const claims = [];
  let n = 0;
  for (let c = 0; c < 25; c++) {
    const citations = [];
    for (let j = 0; j < (c < 15 ? 2 : 1); j++, n++) {
      const k = Math.floor(rand() * docs.length);
      const s = docs[k].sentences[Math.floor(rand() * docs[k].sentences.length)];
      citations.push({ citation_id: `c${n + 1}`, ref: { source_id: `handbook_${k + 1}`, revision: 1, digest: digests[k] }, start: s.start, end: s.end, quote: s.quote });
    }
    claims.push({ claim_id: `claim_${c + 1}`, text: `The handbook states point ${c + 1}.`, kind: "fact", citations });
  }
  const bundle = { scope: { tenant_id: "acme", user_id: "analyst" }, sources, report: { title: "Handbook review", claims } };
  return { ...varied(bundle), citations: n, sourceBytes: sizes.reduce((a, b) => a + b, 0) };
}

/**
 * W5, one large source: about `bytes` UTF-8 bytes of CJK, astral characters and CRLF, and
 * `claims` claims of 4 citations each, late in the text. With `replacement`, the text's last
 * line holds one U+FFFD, as real text sometimes does.
 */
export function largeBundle(bytes, claims, { replacement = false } = {}) {
  const UNIT = "The 𝒳 tool keeps 64 entries; 中文资料 works offline 😀 here.\r\n";
  const QUOTE = "中文资料 works offline 😀";
  const norm = normalize(UNIT);
  const unitCp = cpLength(norm);
  const quoteAt = cpLength(norm.slice(0, norm.indexOf(QUOTE)));
  const units = Math.floor(bytes / Buffer.byteLength(UNIT));
  const base = UNIT.repeat(units);
  const content = `${base}<!-- the large source${replacement ? " \ufffd" : ""} -->\r\n`;
  const digest = sha256(normalize(content));
  const list = [];
  for (let k = 0; k < claims; k++) {
    const citations = [];
    for (let j = 0; j < 4; j++) {
      const n = k * 4 + j;
      const start = (units - 1 - (n % Math.floor(units / 2))) * unitCp + quoteAt;
      citations.push({ citation_id: `c${n}`, ref: { source_id: "large", revision: 1, digest }, start, end: start + cpLength(QUOTE), quote: QUOTE });
    }
    list.push({ claim_id: `k${k}`, text: `Claim ${k}.`, kind: "fact", citations });
  }
  const spec = { source_id: "large", title: "The large source", locator: "fixture:large", filename: "large.md", kind: "fixture" };
  const bundle = { scope: { tenant_id: "t", user_id: "u" }, sources: [{ spec, content, revision: 1, fetched_at: FETCHED }], report: { title: "Large", claims: list } };
  return {
    ...varied(bundle),
    bytes: Buffer.byteLength(content),
    citations: claims * 4,
    /** The source's text with a tag of run `i`, for the node:crypto floor. */
    text: (i) => flat(`${base}<!-- run ${i} -->\r\n`),
  };
}

/**
 * The quoteRange() workload: a text of about `bytes` UTF-8 bytes of CJK and astral
 * characters (LF line ends, so a string index is the stored text's), and the UTF-16 range
 * of a quote in its last line, as far into the text as it goes.
 */
export function rangeText(bytes) {
  const UNIT = "The 𝒳 tool keeps 64 entries; 中文资料 works offline 😀 here.\n";
  const QUOTE = "中文资料 works offline 😀";
  const units = Math.floor(bytes / Buffer.byteLength(UNIT));
  const start = (units - 1) * UNIT.length + UNIT.indexOf(QUOTE);
  return { text: UNIT.repeat(units), start, end: start + QUOTE.length, quote: QUOTE, bytes: units * Buffer.byteLength(UNIT) };
}
