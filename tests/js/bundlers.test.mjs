// The bundler recipes of docs/bundlers.md, run: `npm pack` of pkg/, installed into an
// empty project; the recipe's files (the blocks marked `// @file PATH`) written into it;
// built with Vite, webpack and esbuild; each output served from 127.0.0.1 and opened in
// headless Chromium, which must compute a digest with no request answered 404.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PKG, ROOT } from "./helpers.mjs";
import { serveStatic, launchChromium } from "./browser.mjs";

const DIGEST = createHash("sha256").update("a\nb").digest("hex");

/** The blocks of docs/bundlers.md marked `// @file PATH`, by path. */
function recipeFiles() {
  const doc = readFileSync(join(ROOT, "docs", "bundlers.md"), "utf8");
  const files = {};
  for (const [, code] of doc.matchAll(/```js\n([\s\S]*?)```/g)) {
    const m = /^(?:\/\/ @\S+.*\n)*?\/\/ @file (\S+)/.exec(code);
    if (m) files[m[1]] = code;
  }
  return files;
}

let installed;
let browser;

before(() => {
  const out = mkdtempSync(join(tmpdir(), "evidence-check-bundlers-pack-"));
  execFileSync("npm", ["pack", "--pack-destination", out], { cwd: PKG, stdio: ["ignore", "pipe", "pipe"] });
  const tarball = join(out, readdirSync(out).find((f) => f.endsWith(".tgz")));
  installed = mkdtempSync(join(tmpdir(), "evidence-check-bundlers-"));
  writeFileSync(join(installed, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true }));
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], { cwd: installed, stdio: ["ignore", "pipe", "pipe"] });
});

after(async () => {
  await browser?.close();
});

/** A fresh app: the installed package, the bundler linked from this repository, the recipe's files. */
function app(bundler, files) {
  const dir = mkdtempSync(join(tmpdir(), `evidence-check-${bundler}-`));
  cpSync(installed, dir, { recursive: true });
  symlinkSync(join(ROOT, "node_modules", bundler), join(dir, "node_modules", bundler), "dir");
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), code);
  }
  return dir;
}

function run(dir, code) {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: dir, encoding: "utf8", timeout: 300_000 });
  assert.equal(r.status, 0, `the build failed:\n${r.stdout}\n${r.stderr}`);
}

/** Serves `dir`, opens `page`, and returns the digest the page computed and every 404. */
async function openBuilt(dir, page = "index.html") {
  const server = await serveStatic({ "/": dir });
  browser ??= await launchChromium();
  const tab = await browser.newPage();
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  try {
    await tab.goto(`${server.url}/${page}`);
    const digest = await tab
      .waitForSelector("body[data-digest]", { state: "attached", timeout: 20_000 })
      .then((el) => el.getAttribute("data-digest"))
      .catch(() => null);
    return { digest, errors, missing: server.requests.filter((r) => r.status === 404 && r.path !== "/favicon.ico").map((r) => r.path) };
  } finally {
    await tab.close();
    await server.close();
  }
}

const html = (script) => `<!doctype html><meta charset="utf-8"><title>app</title><body><script type="module" src="${script}"></script></body>`;

test("the recipes hold the app and one configuration per bundler", () => {
  assert.deepEqual(Object.keys(recipeFiles()).sort(), ["build.mjs", "src/extras.js", "src/main.js", "vite.config.js", "webpack.config.js"]);
});

test("Vite: vite build of the app, then the page computes the digest", async () => {
  const files = recipeFiles();
  const dir = app("vite", { "src/main.js": files["src/main.js"], "vite.config.js": files["vite.config.js"], "index.html": html("/src/main.js") });
  run(dir, `import { build } from "vite"; await build({ logLevel: "error" });`);
  const result = await openBuilt(join(dir, "dist"));
  assert.deepEqual(result, { digest: DIGEST, errors: [], missing: [] });
});

test("webpack: the documented configuration, then the page computes the digest", async () => {
  const files = recipeFiles();
  const dir = app("webpack", { "src/main.js": files["src/main.js"], "webpack.config.js": files["webpack.config.js"] });
  run(dir, `import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/");
const webpack = require("webpack");
const stats = await new Promise((ok, fail) => webpack(require("./webpack.config.js"), (e, s) => (e ? fail(e) : ok(s))));
if (stats.hasErrors()) { console.error(stats.toString("errors-only")); process.exit(1); }`);
  writeFileSync(join(dir, "dist", "index.html"), html("main.js"));
  const result = await openBuilt(join(dir, "dist"));
  assert.deepEqual(result, { digest: DIGEST, errors: [], missing: [] });
});

test("esbuild: without the copy step the .wasm is missing (404); with the documented build.mjs the page computes the digest", async () => {
  const files = recipeFiles();
  const bare = app("esbuild", { "src/main.js": files["src/main.js"] });
  run(bare, `import { build } from "esbuild"; await build({ entryPoints: ["src/main.js"], bundle: true, format: "esm", outfile: "dist/main.js", logLevel: "error" });`);
  writeFileSync(join(bare, "dist", "index.html"), html("main.js"));
  const broken = await openBuilt(join(bare, "dist"));
  assert.equal(broken.digest, null);
  assert.deepEqual(broken.missing, ["/evidence_check_bg.wasm"]);

  const dir = app("esbuild", { "src/main.js": files["src/main.js"], "build.mjs": files["build.mjs"] });
  const r = spawnSync(process.execPath, ["build.mjs"], { cwd: dir, encoding: "utf8", timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  writeFileSync(join(dir, "dist", "index.html"), html("main.js"));
  const result = await openBuilt(join(dir, "dist"));
  assert.deepEqual(result, { digest: DIGEST, errors: [], missing: [] });
});

test("evidence-check/extras: Vite and the documented esbuild build emit the one module; the page computes with it", async () => {
  const files = recipeFiles();
  const vite = app("vite", { "src/main.js": files["src/extras.js"], "vite.config.js": files["vite.config.js"], "index.html": html("/src/main.js") });
  run(vite, `import { build } from "vite"; await build({ logLevel: "error" });`);
  const assets = readdirSync(join(vite, "dist", "assets"));
  assert.deepEqual(assets.filter((f) => f.endsWith(".wasm")).map((f) => /^evidence_check_bg.*\.wasm$/.test(f)), [true], assets.join(" "));
  assert.deepEqual(await openBuilt(join(vite, "dist")), { digest: DIGEST, errors: [], missing: [] });

  const esb = app("esbuild", { "src/main.js": files["src/extras.js"], "build.mjs": files["build.mjs"] });
  const r = spawnSync(process.execPath, ["build.mjs"], { cwd: esb, encoding: "utf8", timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  writeFileSync(join(esb, "dist", "index.html"), html("main.js"));
  assert.deepEqual(await openBuilt(join(esb, "dist")), { digest: DIGEST, errors: [], missing: [] });
});
