// The scale fixture of bench/bench.mjs (and bench/scale-split.mjs): large generated
// bundles (CJK, astral characters, CRLF) with citations late in their texts, and the
// varied inputs that keep a cache from helping.
import { createHash } from "node:crypto";

/** A distinct date-time for call `i` (same length for every `i`): a bundle's varied `fetched_at`. */
export const stamp = (i) => `2026-11-${String(1 + ((i / 86400) | 0) % 28).padStart(2, "0")}T${String(((i / 3600) | 0) % 24).padStart(2, "0")}:${String(((i / 60) | 0) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}+00:00`;
/** A flat copy of a (concatenated) string, so that the timed call does not flatten it. */
export const flat = (s) => (s.indexOf("\u0001"), s);

/** The line a scale text repeats, and the quote cited in it: CJK, astral characters, CRLF (the bench's), or all ASCII with LF. */
const UNITS = {
  cjk: { unit: "The 𝒳 tool keeps 64 entries; 中文资料 works offline 😀 here.\r\n", quote: "中文资料 works offline 😀" },
  ascii: { unit: "The X tool keeps 64 entries; the data works offline, as cited here.\n", quote: "the data works offline" },
};

const FETCHED = "2026-11-29T00:00:00+00:00";

/** `sources` distinct texts of ~`bytes` (one base text and a trailing tag each), `claims` × 4 citations late in them. */
export function makeBundle(sources, claims, bytes, kind = "cjk") {
  const { unit: UNIT, quote: QUOTE } = UNITS[kind];
  const NORM_UNIT = UNIT.replace(/\r\n/g, "\n");
  const UNIT_CP = [...NORM_UNIT].length;
  const QUOTE_AT = [...NORM_UNIT.slice(0, NORM_UNIT.indexOf(QUOTE))].length;
  const QUOTE_CP = [...QUOTE].length;
  const units = Math.floor(bytes / Buffer.byteLength(UNIT));
  const base = UNIT.repeat(units);
  const tagged = (i, run = "") => `${base}<!-- source ${i}${run} -->\r\n`;
  const contents = Array.from({ length: sources }, (_, i) => tagged(i));
  const digests = contents.map((c) => createHash("sha256").update(c.replace(/\r\n/g, "\n")).digest("hex"));
  const specs = Array.from({ length: sources }, (_, i) => ({ source_id: `s${i}`, title: `Source ${i}`, locator: `fixture:s${i}`, filename: `s${i}.md`, kind: "fixture" }));
  const list = [];
  for (let k = 0; k < claims; k++) {
    const citations = [];
    for (let j = 0; j < 4; j++) {
      const n = k * 4 + j;
      const unit = units - 1 - (n % Math.floor(units / 2)); // late in the text
      const start = unit * UNIT_CP + QUOTE_AT;
      citations.push({ citation_id: `c${n}`, ref: { source_id: `s${n % sources}`, revision: 1, digest: digests[n % sources] }, start, end: start + QUOTE_CP, quote: QUOTE });
    }
    list.push({ claim_id: `k${k}`, text: `Claim ${k}.`, kind: "fact", citations });
  }
  // The first source's fetched_at is FETCHED in the text; `vary(i)` gives the text with stamp(i) there.
  const bundle = { scope: { tenant_id: "t", user_id: "u" }, sources: specs.map((spec, i) => ({ spec, content: contents[i], ...(i === 0 ? { fetched_at: FETCHED } : {}) })), report: { title: "Scale", claims: list } };
  const [head, tail] = JSON.stringify(bundle).split(FETCHED);
  const maxBytes = Buffer.byteLength(contents[sources - 1]);
  return {
    bundle, sources, claims, maxBytes, bytes: contents.reduce((n, c) => n + Buffer.byteLength(c), 0), textLength: head.length + FETCHED.length + tail.length,
    vary: (i) => flat(head + stamp(i) + tail),
    /** The bundle's texts with a trailing tag of run `i` (for the hashing floors). */
    texts: (i) => Array.from({ length: sources }, (_, k) => flat(tagged(k, ` run ${i}`))),
  };
}

