/// <reference lib="esnext.disposable" />
// The classes declare `[Symbol.dispose]`: the reference above brings its types to a project
// whose `lib` lacks esnext.disposable (TypeScript 5.2+).
// The CommonJS entry: everything of the Node build, and the error classes.
export * from "./evidence_check.js";
