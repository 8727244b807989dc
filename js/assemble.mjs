// Assembles pkg/ into one npm package for every runtime: pkg/node (CommonJS, Node),
// pkg/web (ES module, browsers), the CLI in pkg/bin, one package.json with
// conditional exports and the types.
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "pkg");
for (const target of ["node", "web"]) {
  if (!existsSync(join(pkg, target, "evidence_check.js"))) {
    console.error(`assemble: pkg/${target} is missing; build it with make wasm first`);
    process.exit(1);
  }
}
// The version is kept in one place, Cargo.toml; the CLI and the MCP client read it from
// the package.json written here.
const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
const workspace = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const SDK = "@modelcontextprotocol/sdk";
const version = /^version\s*=\s*"([^"]+)"/m.exec(cargo)?.[1] ?? "0.0.0";
const manifest = {
  name: "evidence-check",
  version,
  description: "Checks an agent's cited report against source snapshots, offline, in WebAssembly.",
  license: "MIT",
  repository: { type: "git", url: "https://example.invalid/evidence-check.git" },
  keywords: ["citations", "evidence", "agents", "verification", "webassembly"],
  type: "commonjs",
  main: "./node/evidence_check.js",
  module: "./web/evidence_check.js",
  types: "./node/evidence_check.d.ts",
  exports: {
    ".": {
      types: "./node/evidence_check.d.ts",
      node: "./node/evidence_check.js",
      browser: "./web/evidence_check.js",
      default: "./web/evidence_check.js",
    },
    "./web": { types: "./web/evidence_check.d.ts", default: "./web/evidence_check.js" },
    "./node": { types: "./node/evidence_check.d.ts", default: "./node/evidence_check.js" },
    "./mcp": "./bin/mcp.mjs",
    "./package.json": "./package.json",
  },
  bin: { "evidence-check": "./bin/cli.mjs" },
  files: ["node/", "web/", "bin/", "www/", "examples/", "docs/", "README.md", "BENCHMARKS.md", "LICENSE"],
  engines: { node: ">=20" },
  // The MCP reader (evidence-check/mcp, check --mcp) needs the MCP SDK; only its users install it.
  peerDependencies: { [SDK]: workspace.devDependencies[SDK] },
  peerDependenciesMeta: { [SDK]: { optional: true } },
  sideEffects: false,
};
// wasm-pack writes a .gitignore of "*" into each build; npm pack would honour it and
// ship nothing. The repository's own .gitignore keeps pkg/ out of git.
for (const target of ["node", "web"]) rmSync(join(pkg, target, ".gitignore"), { force: true });
// The web build is an ES module, the Node build CommonJS; say so where Node looks.
writeFileSync(join(pkg, "web", "package.json"), JSON.stringify({ type: "module" }) + "\n");
writeFileSync(join(pkg, "node", "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
mkdirSync(join(pkg, "bin"), { recursive: true });
for (const f of ["cli.mjs", "load.mjs", "status.mjs", "worker.mjs", "pool.mjs", "mcp.mjs", "importers.mjs", "serve.mjs"]) copyFileSync(join(root, "js", f), join(pkg, "bin", f));
for (const f of ["README.md", "BENCHMARKS.md", "LICENSE"]) if (existsSync(join(root, f))) copyFileSync(join(root, f), join(pkg, f));
// The entries first: the page's scripts below bundle the web entry (pkg/web/index.js).
(await import("./entry-hook.mjs")).default(root, pkg, manifest); // the entries and their types (js/entry*)
(await import("./entry-extras-hook.mjs")).default(root, pkg, manifest); // evidence-check/extras, its own wasm
// The package stands on its own: the page (`evidence-check serve`, js/serve.mjs) with the
// Markdown library it loads (and its licence), the demo bundle of both quick starts, and
// every file the README links to (docs/…), so that no link of the shipped README is dead.
for (const d of ["www", "examples", "docs"]) rmSync(join(pkg, d), { recursive: true, force: true });
cpSync(join(root, "www"), join(pkg, "www"), { recursive: true });
// The page's scripts, each entry with every module it imports in one file (esbuild): the
// page fetches app.js and its worker check-worker.js, not each module they import (the
// package's web entry, its glue, the page's words, the status meanings). boot.js, run
// from the head before the rest, stays its own file.
const { build } = await import("esbuild");
await build({
  entryPoints: ["app", "check-worker"].map((name) => join(root, "www", `${name}.js`)),
  outdir: join(pkg, "www"),
  bundle: true,
  format: "esm",
  external: ["./boot.js"],
  logLevel: "error",
  plugins: [{
    name: "page-imports",
    setup(b) {
      b.onResolve({ filter: /^\.\/pkg\// }, ({ path }) => ({ path: join(pkg, "web", path.slice("./pkg/".length)) }));
      b.onResolve({ filter: /^\.\/status\.mjs$/ }, () => ({ path: join(root, "js", "status.mjs") }));
    },
  }],
});
rmSync(join(pkg, "www", "i18n.js"));
mkdirSync(join(pkg, "www", "vendor"), { recursive: true });
const markdownIt = join(root, "node_modules", "markdown-it");
copyFileSync(join(markdownIt, "dist", "markdown-it.min.js"), join(pkg, "www", "vendor", "markdown-it.min.js"));
copyFileSync(join(markdownIt, "LICENSE"), join(pkg, "www", "vendor", "markdown-it.LICENSE"));
mkdirSync(join(pkg, "examples"), { recursive: true });
for (const f of ["demo.bundle.json", "demo.artifact.md", "plan_a.md", "plan_b.md"]) copyFileSync(join(root, "examples", f), join(pkg, "examples", f));
const readme = readFileSync(join(root, "README.md"), "utf8");
for (const [, link] of readme.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
  if (/^[a-z]+:/i.test(link) || !link.startsWith("docs/")) continue;
  mkdirSync(dirname(join(pkg, link)), { recursive: true });
  copyFileSync(join(root, link), join(pkg, link));
}
writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
console.log(`assembled pkg/ (evidence-check ${version})`);
