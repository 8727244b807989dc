// The CommonJS entry: everything of the Node build, and the error classes.
export * from "./evidence_check.js";
