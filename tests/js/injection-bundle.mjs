// The injection corpus and the bundle that places one payload in one text field; shared
// by tests/js/injection.test.mjs and tests/gfm/artifacts.mjs (cmark-gfm, in Python).
import { readJson, NOW } from "./helpers.mjs";

export const PAYLOADS = readJson("tests", "data", "injection", "payloads.json");
export const FIELDS = ["title", "claim_text", "rationale", "quote", "conflict_reason", "gap", "review_note", "spec_title", "spec_locator"];
export const LANGS = ["zh", "en"];
/** The harmless text of the baselines, a word found nowhere else in an artifact. */
export const SENTINEL = "Zqxjv";
/**
 * A spec's `kind` is an identifier: it is tried with the payloads that a policy with
 * extended identifiers (`.`, `@`, `+`) allows there.
 */
export const KIND_POLICY = { extends: "documents", identifier: "extended" };
export const KIND_PAYLOADS = PAYLOADS.filter((p) => /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/.test(p));
const PYTHON_SPACE = /[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/**
 * The text a reader should see of `payload` in the artifact: whitespace collapsed as the
 * reference does, and the characters that would hide content as ⟦U+XXXX⟧.
 */
export const expectedText = (ec, payload) =>
  payload.split(PYTHON_SPACE).filter((w) => w !== "").map((w) => ec.showInvisible(w)).join(" ");

/** A valid bundle with `payload` in `field` and harmless text everywhere else. */
export function bundle(ec, field, payload) {
  const pick = (f, d) => (f === field ? payload : d);
  const quoted = pick("quote", "Passage").replace(/\r\n?/g, "\n");
  const content = `Intro.\n${quoted}\nEnd.\n`;
  const spec = { source_id: "s", title: pick("spec_title", "Source"), locator: pick("spec_locator", "fixture:s"), filename: "s.md", kind: pick("spec_kind", "public") };
  const policy = field === "spec_kind" ? KIND_POLICY : undefined;
  const store = new ec.EvidenceStore([spec], { now: NOW, policy });
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
 * Every artifact of the corpus: for each language and field (and `spec_kind`, with the
 * payloads that are identifiers), the baseline (the field is SENTINEL), each payload's
 * artifact and the text it should display (`expected`), or `refused` with the code when the contract
 * refuses the payload there (over a length limit, blank text): that is safe.
 */
export function* artifacts(ec) {
  for (const lang of LANGS) for (const field of [...FIELDS, "spec_kind"]) {
    const policy = field === "spec_kind" ? KIND_POLICY : undefined;
    const check = (payload) => ec.checkBundle(bundle(ec, field, payload), { now: NOW, lang, policy }).artifact.content;
    const baseline = check(SENTINEL);
    for (const [i, payload] of (field === "spec_kind" ? KIND_PAYLOADS : PAYLOADS).entries()) {
      try {
        const artifact = check(payload);
        yield { lang, field, i, payload, baseline, artifact, expected: expectedText(ec, payload) };
      } catch (e) {
        if (e.code !== "contract" && e.code !== "invalid_note") throw new Error(`${field}: ${JSON.stringify(payload)}: ${e.code} ${e.message}`);
        yield { lang, field, i, payload, baseline, refused: e.code };
      }
    }
  }
}
