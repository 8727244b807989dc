// The ES module entry of evidence-check/extras (browsers, bundlers): the second wasm
// module, with what most users never call (JSON Schemas, Web Annotations from JSON,
// excerpts and outcomes, the document catalogue, offset conversions, importers). It has
// its own `init`; its errors are instances of the same classes as the main entry's
// (errors.js, one module for both entries).
import * as raw from "./evidence_check_extras.js";
import { EvidenceCheckError, ContractError, EvidenceError, initializers } from "./errors.js";

export * from "./evidence_check_extras.js";
export { EvidenceCheckError, ContractError, EvidenceError };

/** `init` initialises this module (the main entry's `init` is separate), then registers the error classes; `initSync` likewise. */
const { init, initSync } = initializers(raw);
export { init as default, initSync };

export const __registerErrorClasses = undefined;
