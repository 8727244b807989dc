/// <reference lib="esnext.disposable" />
// The classes declare `[Symbol.dispose]`: the reference above brings its types to a project
// whose `lib` lacks esnext.disposable (TypeScript 5.2+).
// The ES module entry: everything of the web build, its `init`, and the error classes.
export * from "./evidence_check.js";
export { default } from "./evidence_check.js";
