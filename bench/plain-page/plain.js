// bench W4's yardstick (not shipped): what the page's first verdict needs, in plain JS and
// the browser's own SHA-256: read the file (UTF-8, fatal), JSON.parse, crypto.subtle
// SHA-256 of every LF-normalised source and of the canonical report, and per citation its
// digest and a compare of the text at its code-point range with the quote; then the
// verdict and each claim's state on the page.
const $ = (id) => document.getElementById(id);
const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
const sha256 = async (text) => hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));

/** A canonical JSON text (keys sorted by code point, no spaces), as the report digest takes it. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

/** The UTF-16 index of code point `cp`, through the sorted code-point indices of the text's astral characters. */
function unit(astral, cp) {
  let lo = 0;
  let hi = astral.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (astral[mid] < cp) lo = mid + 1;
    else hi = mid;
  }
  return cp + lo;
}

async function check(file) {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  const bundle = JSON.parse(text);
  const texts = bundle.sources.map((s) => s.content.replace(/\r\n?/g, "\n"));
  const digests = await Promise.all(texts.map(sha256));
  const sources = new Map();
  bundle.sources.forEach((s, k) => {
    const t = texts[k];
    const astral = [];
    for (const m of t.matchAll(/[\uD800-\uDBFF]/g)) astral.push(m.index - astral.length);
    sources.set(s.spec.source_id, { t, astral, digest: digests[k] });
  });
  const reportDigest = await sha256(canonical(bundle.report));
  const states = bundle.report.claims.map((claim) => {
    const held = (claim.citations ?? []).every((c) => {
      const src = sources.get(c.ref.source_id);
      return src && src.digest === c.ref.digest && src.t.slice(unit(src.astral, c.start), unit(src.astral, c.end)) === c.quote;
    });
    return [claim.claim_id, held ? "pending_review" : "invalid"];
  });
  const status = states.some(([, s]) => s === "invalid") ? "invalid" : "needs_review";
  $("badge").textContent = status;
  $("report-digest").textContent = reportDigest;
  $("claim-list").replaceChildren(...states.map(([id, s]) => Object.assign(document.createElement("li"), { textContent: `${id}: ${s}` })));
  $("overview").hidden = false;
}

$("file").addEventListener("change", () => $("file").files[0] && check($("file").files[0]));
if ($("file").files[0]) check($("file").files[0]);
