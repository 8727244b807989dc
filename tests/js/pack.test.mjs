// The npm package as a user gets it: `npm pack` of pkg/, installed into an empty
// project, then required, imported and run as a command.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { PKG, ROOT } from "./helpers.mjs";

const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

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
  const app = mkdtempSync(join(tmpdir(), "evidence-check-app-"));
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

  // The install brings piscina and its own dependencies, never an HTTP server framework:
  // the MCP SDK (which brings express, hono, cors) is an optional peer, not installed.
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
  assert.ok(names.has("piscina"));
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
