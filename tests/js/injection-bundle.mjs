// The injection corpus and the bundle that places one payload in one text field; shared
// by tests/js/injection.test.mjs and tests/gfm/artifacts.mjs (cmark-gfm, in Python).
import { readJson, NOW } from "./helpers.mjs";

export const PAYLOADS = readJson("tests", "data", "injection", "payloads.json");
export const FIELDS = ["title", "claim_text", "rationale", "quote", "conflict_reason", "gap", "review_note", "spec_title", "spec_locator"];
export const LANGS = ["zh", "en"];

/** A valid bundle with `payload` in `field` and harmless text everywhere else. */
export function bundle(ec, field, payload) {
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

/**
 * Every artifact of the corpus: for each language and field, the baseline (harmless
 * text) and each payload's artifact, or `refused` with the code when the contract
 * refuses the payload there (over a length limit, blank text): that is safe.
 */
export function* artifacts(ec) {
  for (const lang of LANGS) for (const field of FIELDS) {
    const baseline = ec.checkBundle(bundle(ec, field, "x"), { now: NOW, lang }).artifact.content;
    for (const [i, payload] of PAYLOADS.entries()) {
      try {
        const artifact = ec.checkBundle(bundle(ec, field, payload), { now: NOW, lang }).artifact.content;
        yield { lang, field, i, payload, baseline, artifact };
      } catch (e) {
        if (e.code !== "contract" && e.code !== "invalid_note") throw new Error(`${field}: ${JSON.stringify(payload)}: ${e.code} ${e.message}`);
        yield { lang, field, i, payload, baseline, refused: e.code };
      }
    }
  }
}
