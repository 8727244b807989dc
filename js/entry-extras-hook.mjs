// assemble.mjs's hook for evidence-check/extras: a subpath of the one module (its entries
// re-export the main entry's), and the "./extras" export.
import { copyFileSync } from "node:fs";
import { join } from "node:path";

export default function extras(root, pkg, manifest) {
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
