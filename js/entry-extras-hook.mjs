// assemble.mjs's hook for evidence-check/extras: copies the extras wasm builds
// (pkg/extras/node, pkg/extras/web) next to the main ones, with their entries
// (js/entry-extras*), links the two modules' declarations (each imports the types the
// other declares: the data types and error classes are declared once, by the main
// build), and adds the "./extras" export.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { patchGlue } from "./entry-hook.mjs";

const BUILD = ["evidence_check_extras.js", "evidence_check_extras_bg.wasm", "evidence_check_extras.d.ts", "evidence_check_extras_bg.wasm.d.ts"];

/** The names of the classes, interfaces and types a declaration file declares. */
const declared = (dts) => new Set([...dts.matchAll(/^[ \t]*export (?:declare )?(?:class|interface|type|enum) (\w+)/gm)].map((m) => m[1]));

/** `dts` with a type-only import of what `other` declares and it does not. */
function linked(linkedBefore, other, from) {
  const marker = "// linked by js/entry-extras-hook.mjs\n";
  // Assembling again relinks: the previous import line goes first.
  const dts = linkedBefore.startsWith(marker) ? linkedBefore.slice(linkedBefore.indexOf("\n", marker.length) + 1) : linkedBefore;
  const own = declared(dts);
  const names = [...declared(other)].filter((n) => !own.has(n) && new RegExp(`\\b${n}\\b`).test(dts));
  return names.length === 0 ? dts : `${marker}import type { ${names.join(", ")} } from "${from}";\n${dts}`;
}

export default function extras(root, pkg, manifest) {
  for (const target of ["node", "web"]) {
    const built = join(pkg, "extras", target);
    if (!existsSync(join(built, BUILD[0]))) throw new Error(`assemble: pkg/extras/${target} is missing; build it with \`make wasm\``);
    for (const f of BUILD) copyFileSync(join(built, f), join(pkg, target, f));
    patchGlue(join(pkg, target, BUILD[0]), target === "web");
    const dir = join(pkg, target);
    const main = readFileSync(join(dir, "evidence_check.d.ts"), "utf8");
    const more = readFileSync(join(dir, "evidence_check_extras.d.ts"), "utf8");
    writeFileSync(join(dir, "evidence_check_extras.d.ts"), linked(more, main, "./evidence_check.js"));
    writeFileSync(join(dir, "evidence_check.d.ts"), linked(main, more, "./evidence_check_extras.js"));
  }
  copyFileSync(join(root, "js", "entry-extras.mjs"), join(pkg, "web", "extras.js"));
  copyFileSync(join(root, "js", "entry-extras.cjs"), join(pkg, "node", "extras.js"));
  copyFileSync(join(root, "js", "entry-extras-web.d.ts"), join(pkg, "web", "extras.d.ts"));
  copyFileSync(join(root, "js", "entry-extras-node.d.ts"), join(pkg, "node", "extras.d.ts"));
  const node = { types: "./node/extras.d.ts", default: "./node/extras.js" };
  const web = { types: "./web/extras.d.ts", default: "./web/extras.js" };
  manifest.exports = {
    ...manifest.exports,
    "./extras": { node, browser: web, default: web },
    "./web/extras": web,
    "./node/extras": node,
  };
}
