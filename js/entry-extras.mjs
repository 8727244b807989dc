// The ES module entry of evidence-check/extras (browsers, bundlers): the same module as the
// main entry (one WebAssembly module holds every export, one `init` initialises it); kept as
// a subpath so that imports of it work.
export * from "./index.js";
export { default } from "./index.js";
