// The ES module entry of evidence-check (browsers, bundlers, `evidence-check/web`): the
// wasm-bindgen module, plus the error classes exported by name (registered with the wasm
// module when it is initialised), plus a coded `invalid_argument` when something that is
// not an EvidenceStore is given where one is expected.
import * as raw from "./evidence_check.js";
import { EvidenceCheckError, ContractError, EvidenceError, initializers } from "./errors.js";
import { guardStore, guardTraps } from "./guard.js";

export * from "./evidence_check.js";
export { EvidenceCheckError, ContractError, EvidenceError };

const classes = { EvidenceCheckError, ContractError, EvidenceError };
/** `init` initialises the module (as wasm-bindgen's `init`), then registers the error classes; `initSync` likewise. */
const { init, initSync } = initializers(raw);
export { init as default, initSync };

// Every function and class guarded against a trap (js/entry-guard.mjs); the line below
// is replaced by js/entry-hook.mjs with the names of every other function and class.
const guarded = guardTraps(raw, classes);
// @guarded-exports

export const assess = guardStore(guarded.assess, 2, classes, raw.EvidenceStore);
export const render = guardStore(guarded.render, 2, classes, raw.EvidenceStore);
export const toWebAnnotations = guardStore(guarded.toWebAnnotations, 2, classes, raw.EvidenceStore);
export const locateCitations = guardStore(guarded.locateCitations, 2, classes, raw.EvidenceStore);
export const __registerErrorClasses = undefined;
export const __stackPointer = undefined;
export const __afterTrap = undefined;
export const __trapCause = undefined;
// The web build keeps the module's SHA-256 (WebCrypto's is asynchronous).
export const __registerHostHasher = undefined;
