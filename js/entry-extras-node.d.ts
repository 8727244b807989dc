// The CommonJS entry of evidence-check/extras: the main entry's exports (one module).
export * from "./index.js";
