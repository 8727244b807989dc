// The ES module entry of evidence-check/extras: the main entry's exports and its `init` (one module).
export * from "./index.js";
export { default } from "./index.js";
