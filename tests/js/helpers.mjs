// Shared set-up for the Node tests: the built package installed as a user would
// install it (node_modules/evidence-check in a temporary project).
import { mkdtempSync, mkdirSync, symlinkSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const PKG = join(ROOT, "pkg");
export const NOW = "2026-11-29T00:00:00+00:00";

/** A temporary project with node_modules/evidence-check -> pkg/. */
export function userProject() {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-user-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(PKG, join(dir, "node_modules", "evidence-check"), "dir");
  return dir;
}

/** `require` from inside a user's project. */
export function userRequire(dir) {
  return createRequire(join(dir, "index.js"));
}

export function readJson(...parts) {
  return JSON.parse(readFileSync(join(ROOT, ...parts), "utf8"));
}

/** The environment with the locale set to `lang` (LC_ALL and LC_MESSAGES unset unless in `extra`). */
export function localeEnv(lang, extra = {}) {
  const env = { ...process.env, LANG: lang, ...extra };
  for (const k of ["LC_ALL", "LC_MESSAGES"]) if (!(k in extra)) delete env[k];
  return env;
}

/** The example titled `title`, without reviews; `extra` appended to its first source, the
 * citations of that source given the new text's digest (`ec.digestText`). */
export function exampleBundle(ec, title, extra = "") {
  const b = readJson("examples", "demo.bundle.json");
  b.report.title = title;
  b.reviews = [];
  if (extra) {
    const source = b.sources[0];
    source.content += extra;
    const digest = ec.digestText(source.content);
    for (const c of b.report.claims) for (const cit of c.citations) if (cit.ref.source_id === source.spec.source_id) cit.ref.digest = digest;
  }
  return b;
}

/** Everything a caller can see of a thrown value but its stack. */
export function errorShape(e, classes) {
  if (!(e instanceof Error)) return { notAnError: String(e) };
  return {
    name: e.name,
    constructor: e.constructor?.name,
    message: e.message,
    ownKeys: Reflect.ownKeys(e).filter((k) => k !== "stack"),
    props: JSON.parse(JSON.stringify(e)),
    base: e instanceof classes.EvidenceCheckError,
    contract: e instanceof classes.ContractError,
    evidence: e instanceof classes.EvidenceError,
    causeless: !("cause" in e),
  };
}
