// The CommonJS entry of evidence-check (Node, `evidence-check/node`): the wasm-bindgen
// module with node:crypto registered as its SHA-256 for large sources, the error classes
// exported by name (registered with the module at once), and a
// coded `invalid_argument` when something that is not an EvidenceStore is given where one
// is expected. The same as index.mjs, for `require`. Written so that Node's ES module
// import sees every name (`module.exports = require(…)` and `module.exports.name = …`).
"use strict";
const classes = require("./errors.js");
const { guardStore, guardTraps } = require("./guard.js");
module.exports = require("./evidence_check.js");
const raw = module.exports;
raw.__registerErrorClasses(classes.EvidenceCheckError, classes.ContractError, classes.EvidenceError);
delete raw.__registerErrorClasses;
// Host hashing: texts of 128 bytes or more are hashed by node:crypto (OpenSSL) instead of the
// module's SHA-256, on a view of wasm memory (no copy); the digests are the same.
// Registered once, here, for every call.
// node:crypto is loaded once it pays (loading it is a large part of the start-up): until
// the texts it was handed reach HOST_LOAD_BYTES together (at once for a text that long),
// the hasher answers nothing and the module hashes them.
const HOST_LOAD_BYTES = 256 * 1024;
let sha256 = null;
let deferredBytes = 0;
raw.__registerHostHasher((bytes) => {
  if (sha256 === null) {
    deferredBytes += bytes.length;
    if (deferredBytes < HOST_LOAD_BYTES) return undefined;
    const { createHash, hash: oneShot } = require("node:crypto");
    sha256 = typeof oneShot === "function" ? (b) => oneShot("sha256", b, "hex") : (b) => createHash("sha256").update(b).digest("hex");
  }
  return sha256(bytes);
});
delete raw.__registerHostHasher;
// Every function and class guarded against a trap (js/entry-guard.mjs), its internals
// removed.
Object.assign(module.exports, guardTraps(raw, classes));
for (const internal of ["__stackPointer", "__afterTrap", "__trapCause"]) delete raw[internal];
module.exports.EvidenceCheckError = classes.EvidenceCheckError;
module.exports.ContractError = classes.ContractError;
module.exports.EvidenceError = classes.EvidenceError;
module.exports.assess = guardStore(raw.assess, 2, classes, raw.EvidenceStore);
module.exports.render = guardStore(raw.render, 2, classes, raw.EvidenceStore);
module.exports.toWebAnnotations = guardStore(raw.toWebAnnotations, 2, classes, raw.EvidenceStore);
module.exports.locateCitations = guardStore(raw.locateCitations, 2, classes, raw.EvidenceStore);
