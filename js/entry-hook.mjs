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

/**
 * The ES module entry with its `// @guarded-exports` line replaced by an export of every
 * function and class of the wasm-bindgen module (`glue`) that the entry does not export
 * itself, taken from its `guarded` object: an ES module's exports are named statically.
 */
function guardedExports(entry, glue) {
  const own = new Set([...entry.matchAll(/^export const (\w+)/gm)].map((m) => m[1]));
  const names = [...glue.matchAll(/^export (?:class|function) (\w+)/gm)].map((m) => m[1]).filter((n) => !own.has(n) && !n.startsWith("__"));
  if (!entry.includes("// @guarded-exports\n") || names.length === 0) throw new Error("entry-hook: no // @guarded-exports line in js/entry.mjs, or no export in the module");
  return entry.replace("// @guarded-exports\n", `export const { ${names.join(", ")} } = guarded;\n`);
}

export default function entries(root, pkg, manifest) {
  const src = (f) => join(root, "js", f);
  for (const f of ["errors", "guard"]) {
    copyFileSync(src(`entry-${f}.mjs`), join(pkg, "web", `${f}.js`));
    writeFileSync(join(pkg, "node", `${f}.js`), toCommonJs(readFileSync(src(`entry-${f}.mjs`), "utf8")));
  }
  writeFileSync(join(pkg, "web", "index.js"), guardedExports(readFileSync(src("entry.mjs"), "utf8"), readFileSync(join(pkg, "web", "evidence_check.js"), "utf8")));
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
