// The ES module entry: everything of the web build, its `init`, and the error classes.
export * from "./evidence_check.js";
export { default } from "./evidence_check.js";
