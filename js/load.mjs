// Loads the Node build of the package: ../node/ inside the npm package, ../pkg/node/ in
// the repository.
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export function loadPackage() {
  const candidates = [join(here, "..", "node", "evidence_check.js"), join(here, "..", "pkg", "node", "evidence_check.js")];
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    const err = new Error("the WebAssembly package is not built (looked for " + candidates.join(", ") + "); run `make build`");
    err.code = "package_missing";
    throw err;
  }
  return require(found);
}

/** One sentence per status, for people. */
export const STATUS_MEANING = {
  reviewed_candidate: "Every citation holds and every claim was reviewed as supported; still a candidate, not a proof.",
  needs_review: "Every citation holds, but some claims still wait for a reviewer.",
  partial: "Every citation holds, but the report has gaps, or a claim is insufficient, contradicted or disputed.",
  invalid: "Some citation does not hold: a changed or removed source, a wrong digest, or a quote not at its range.",
};

/** The CLI's exit code for a status. */
export const STATUS_EXIT = { reviewed_candidate: 0, needs_review: 1, partial: 1, invalid: 2 };
