/// <reference lib="esnext.disposable" />
// DocumentCatalog declares `[Symbol.dispose]` (see entry-node.d.ts).
// The ES module entry of evidence-check/extras: its functions, DocumentCatalog and its own
// `init`, the same data types and error classes as the main entry (declared once, there).
export * from "./evidence_check_extras.js";
export { default, initSync, start, wasmMemoryBytes } from "./evidence_check_extras.js"; // in both modules: this one's
export type { InitInput, InitOutput, SyncInitInput } from "./evidence_check_extras.js";
export type * from "./evidence_check.js";
export { EvidenceCheckError, ContractError, EvidenceError } from "./evidence_check.js";
