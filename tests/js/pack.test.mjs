// The npm package as a user gets it: `npm pack` of pkg/, installed into an empty
// project, then required, imported and run as a command.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { createHash } from "node:crypto";
import { PKG, ROOT } from "./helpers.mjs";

const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** A free loopback port (found by listening on port 0, then closing). */
function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/** Waits for `pattern` on the child's stdout; rejects when it exits first or after 30 s. */
function waitFor(child, pattern) {
  return new Promise((ok, fail) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => fail(new Error(`no ${pattern} within 30 s: ${out} ${err}`)), 30000);
    child.stderr.on("data", (d) => (err += d));
    child.stdout.on("data", (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${code}: ${out} ${err}`));
    });
  });
}

let installed;

test("npm pack, npm install into an empty directory, then require, import and the bin", () => {
  const out = mkdtempSync(join(tmpdir(), "evidence-check-pack-"));
  npm(["pack", "--pack-destination", out], PKG);
  const tarball = readdirSync(out).find((f) => f.endsWith(".tgz"));
  assert.equal(tarball, "evidence-check-0.1.0.tgz");
  const listing = execFileSync("tar", ["-tzf", join(out, tarball)], { encoding: "utf8" }).split("\n").filter(Boolean).sort();
  for (const f of ["package/package.json", "package/node/evidence_check.js", "package/node/evidence_check_bg.wasm", "package/node/evidence_check.d.ts",
    "package/web/evidence_check.js", "package/web/evidence_check_bg.wasm", "package/bin/cli.mjs", "package/bin/mcp.mjs", "package/LICENSE", "package/README.md",
    "package/node/extras.js", "package/node/extras.d.ts", "package/web/extras.js", "package/web/extras.d.ts"]) {
    assert.ok(listing.includes(f), `${f} is not in the tarball`);
  }
  // One module a target.
  assert.deepEqual(listing.filter((f) => f.endsWith(".wasm")).sort(), ["package/node/evidence_check_bg.wasm", "package/web/evidence_check_bg.wasm"]);
  // The package stands on its own: the demo bundle, the page and the docs the README links to.
  for (const f of ["package/examples/demo.bundle.json", "package/www/index.html", "package/www/app.js", "package/bin/serve.mjs", "package/www/vendor/markdown-it.min.js"]) {
    assert.ok(listing.includes(f), `${f} is not in the tarball`);
  }
  const app = mkdtempSync(join(tmpdir(), "evidence-check-app-"));
  installed = { app, out };
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true }));
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund", join(out, tarball)], app);
  writeFileSync(join(app, "cjs.cjs"), `const ec = require("evidence-check"); console.log(ec.digestText("a\\r\\nb"));`);
  writeFileSync(join(app, "esm.mjs"), `import { digestText } from "evidence-check"; import { readSourcesViaMcp } from "evidence-check/mcp"; console.log(digestText("a\\r\\nb"), typeof readSourcesViaMcp);`);
  writeFileSync(join(app, "extras.cjs"), `const { convertOffset, ContractError } = require("evidence-check/extras"); console.log(convertOffset("😀a", 2, "utf16", "code_point"), ContractError === require("evidence-check").ContractError);`);
  const digest = execFileSync(process.execPath, [join(app, "cjs.cjs")], { encoding: "utf8" }).trim();
  assert.equal(digest, createHash("sha256").update("a\nb").digest("hex"));
  assert.equal(execFileSync(process.execPath, [join(app, "esm.mjs")], { encoding: "utf8" }).trim(), `${digest} function`);
  assert.equal(execFileSync(process.execPath, [join(app, "extras.cjs")], { encoding: "utf8" }).trim(), "1 true");
  const bin = spawnSync(join(app, "node_modules", ".bin", "evidence-check"), ["check", join(ROOT, "examples", "demo.bundle.json"), "--json"], { encoding: "utf8" });
  assert.equal(bin.status, 1, bin.stderr);
  assert.equal(JSON.parse(bin.stdout).assessment.status, "partial");

  // The install brings no dependency (the CLI's worker pool is node:worker_threads), never
  // an HTTP server framework: the MCP SDK (which brings express, hono, cors) is an optional
  // peer, not installed.
  const tree = JSON.parse(npm(["ls", "--omit=dev", "--all", "--json"], app));
  const names = new Set();
  const walk = (deps) => {
    // An unmet optional dependency is listed as {} (no version): not installed.
    for (const [name, d] of Object.entries(deps ?? {})) {
      if (d.version !== undefined) names.add(name);
      walk(d.dependencies);
    }
  };
  walk(tree.dependencies);
  for (const framework of ["express", "hono", "@hono/node-server", "cors", "koa", "fastify", "@modelcontextprotocol/sdk"]) {
    assert.ok(!names.has(framework), `npm ls shows ${framework}: ${[...names].join(", ")}`);
  }
  assert.deepEqual([...names].filter((n) => n !== "evidence-check"), [], "the install brings no dependency");
  assert.equal(readdirSync(join(app, "node_modules")).includes("express"), false);
  // Without the SDK, the MCP reader says which package to install; the entry still imports.
  const { dir, bundle } = (() => {
    const d = mkdtempSync(join(tmpdir(), "evidence-check-nosdk-"));
    writeFileSync(join(d, "bundle.json"), readFileSync(join(ROOT, "examples", "demo.bundle.json")));
    return { dir: d, bundle: join(d, "bundle.json") };
  })();
  const mcp = spawnSync(join(app, "node_modules", ".bin", "evidence-check"), ["check", bundle, "--mcp", "some-server"], { encoding: "utf8", cwd: dir });
  assert.equal(mcp.status, 3);
  assert.equal(
    mcp.stderr,
    "evidence-check: mcp_sdk_missing: reading sources through MCP needs the package @modelcontextprotocol/sdk, an optional peer dependency that is not installed: npm install @modelcontextprotocol/sdk\n",
  );
});

test("the installed package's README links only to files in the package", () => {
  assert.ok(installed, "the pack test ran first");
  const root = join(installed.app, "node_modules", "evidence-check");
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/i.test(l) && !l.startsWith("#"));
  assert.ok(links.length > 10, `only ${links.length} relative links`);
  const missing = links.filter((l) => {
    const file = normalize(join(root, decodeURIComponent(l.split("#")[0])));
    return !file.startsWith(root) || !existsSync(file);
  });
  assert.deepEqual(missing, [], "relative links of the shipped README without their file in the package");
});

test("the README's quick starts from the installed package alone: npx evidence-check check, and serve", async () => {
  assert.ok(installed, "the pack test ran first");
  const { app } = installed;
  const npx = (args, opts = {}) => spawnSync("npx", ["--no-install", "evidence-check", ...args], { cwd: app, encoding: "utf8", ...opts });
  const demo = join("node_modules", "evidence-check", "examples", "demo.bundle.json");
  const r = npx(["check", demo]);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /^status: partial\n/);
  assert.match(r.stdout, /claim_a +fact +supported/);
  const port = await freePort();
  // Its own process group, so that npx and the node it starts are stopped together.
  const child = spawn("npx", ["--no-install", "evidence-check", "serve", "--port", String(port)], { cwd: app, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  try {
    const [, url] = await waitFor(child, /(http:\/\/127\.0\.0\.1:\d+\/)/);
    assert.equal(url, `http://127.0.0.1:${port}/`);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type"), /^text\/html/);
    const html = await page.text();
    // Every file the page names, the module it imports (app.js bundles the rest), its
    // worker and the example it loads.
    const named = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((u) => !/^[a-z]+:/i.test(u));
    const app_js = await (await fetch(new URL("app.js", url))).text();
    const imported = [...app_js.matchAll(/from "\.\/([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(imported, ["boot.js"]);
    for (const path of new Set([...named, ...imported, "check-worker.js", "pkg/evidence_check_bg.wasm", "examples/demo.bundle.json"])) {
      const res = await fetch(new URL(path, url));
      assert.equal(res.status, 200, path);
      await res.arrayBuffer();
    }
    const module = await (await fetch(new URL("pkg/evidence_check.js", url))).text();
    assert.equal(module, readFileSync(join(app, "node_modules", "evidence-check", "web", "evidence_check.js"), "utf8"));
    const bundle = await (await fetch(new URL("examples/demo.bundle.json", url))).json();
    assert.equal(bundle.report.claims.length, 3);
    assert.equal((await fetch(new URL("../package.json", url))).status, 404);
  } finally {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  }
  await new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.on("exit", done)));
});
