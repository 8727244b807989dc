// assemble.mjs's hook for the entries: copies js/entry* into pkg/node (CommonJS) and
// pkg/web (ES module) as index.js with its declarations, and points the manifest's
// entries at them, each with its own types: "." gives Node the Node build and every
// other environment (browsers, bundlers) the web build; "./mcp" gets js/mcp.d.ts.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The CommonJS form of an ES module that only declares `export class|function` items. */
function toCommonJs(source) {
  const names = [...source.matchAll(/^export (?:class|function) (\w+)/gm)].map((m) => m[1]);
  return `"use strict";\n${source.replace(/^export (class|function) /gm, "$1 ")}module.exports = { ${names.join(", ")} };\n`;
}

const THROW = /throw takeFromExternrefTable0\((ret\[\d\])\);/g;
const FINISHED = "throw __ecFinishError(takeFromExternrefTable0($1));";

/**
 * Patches a wasm-bindgen glue file (`esm`: the web build's) so that every value an
 * export throws goes through errors.js's `finishError` first: the module throws an
 * error's data, and the error is made there, once the wasm frames are off the stack
 * (see js/entry-errors.mjs). Idempotent; fails when the glue has no throw site of the
 * known shape left to patch (a wasm-bindgen upgrade that changed it).
 */
export function patchGlue(file, esm) {
  const text = readFileSync(file, "utf8");
  if (text.includes("__ecFinishError")) return;
  const sites = text.match(THROW)?.length ?? 0;
  if (sites === 0 || /throw take/.test(text.replace(THROW, ""))) throw new Error(`assemble: ${file} has no throw site of the shape js/entry-hook.mjs patches`);
  const load = esm ? `import { finishError as __ecFinishError } from "./errors.js";` : `const { finishError: __ecFinishError } = require("./errors.js");`;
  const [first, ...rest] = text.replace(THROW, FINISHED).split("\n");
  writeFileSync(file, [first, `// Patched by js/entry-hook.mjs: thrown errors are made by errors.js.`, load, ...rest].join("\n"));
}

export default function entries(root, pkg, manifest) {
  const src = (f) => join(root, "js", f);
  patchGlue(join(pkg, "node", "evidence_check.js"), false);
  patchGlue(join(pkg, "web", "evidence_check.js"), true);
  for (const f of ["errors", "guard"]) {
    copyFileSync(src(`entry-${f}.mjs`), join(pkg, "web", `${f}.js`));
    writeFileSync(join(pkg, "node", `${f}.js`), toCommonJs(readFileSync(src(`entry-${f}.mjs`), "utf8")));
  }
  copyFileSync(src("entry.mjs"), join(pkg, "web", "index.js"));
  copyFileSync(src("entry.cjs"), join(pkg, "node", "index.js"));
  copyFileSync(src("entry-web.d.ts"), join(pkg, "web", "index.d.ts"));
  copyFileSync(src("entry-node.d.ts"), join(pkg, "node", "index.d.ts"));
  copyFileSync(join(root, "js", "mcp.d.ts"), join(pkg, "bin", "mcp.d.ts"));
  const node = { types: "./node/index.d.ts", default: "./node/index.js" };
  const web = { types: "./web/index.d.ts", default: "./web/index.js" };
  Object.assign(manifest, { main: node.default, module: web.default, types: node.types });
  manifest.exports = {
    ...manifest.exports,
    ".": { node, browser: web, default: web },
    "./web": web,
    "./node": node,
    "./mcp": { types: "./bin/mcp.d.ts", default: "./bin/mcp.mjs" },
  };
}
