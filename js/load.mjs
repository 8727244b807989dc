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

export { STATUS_MEANING, STATUS_EXIT } from "./status.mjs";
