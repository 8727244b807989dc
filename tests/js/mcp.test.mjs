// Reading sources through real MCP servers over stdio: @modelcontextprotocol/server-filesystem
// from npm, a read_document server built on the SDK, and one that never answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, PKG, NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const { readSourcesViaMcp } = await import(join(PKG, "bin", "mcp.mjs"));
const CLI = join(PKG, "bin", "cli.mjs");
const FS_SERVER = join(ROOT, "node_modules", ".bin", "mcp-server-filesystem");
const FIXTURES = join(ROOT, "tests", "js", "fixtures");
const bundle = readJson("examples", "demo.bundle.json");
const specs = bundle.sources.map((s) => s.spec);

/** A directory with the example's sources as files; plan_a with CRLF line ends. */
function sourcesDir({ crlf = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-mcp-"));
  for (const s of bundle.sources) writeFileSync(join(dir, s.spec.filename), crlf && s.spec.source_id === "plan_a" ? s.content.replace(/\n/g, "\r\n") : s.content);
  copyFileSync(join(ROOT, "examples", "demo.bundle.json"), join(dir, "bundle.json"));
  return dir;
}

/** No process started by this test process is left running. */
function assertNoChildren() {
  const out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.trim() && !l.includes(" ps -o"));
  assert.deepEqual(out, [], "a server process is still running");
}

function freshStore() {
  return new ec.EvidenceStore(specs, { now: NOW });
}

test("the CLI checks the example through mcp-server-filesystem, same result as inline", () => {
  const dir = sourcesDir();
  const viaMcp = spawnSync(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", `${FS_SERVER} .`, "--json", "--now", NOW], { encoding: "utf8" });
  assert.equal(viaMcp.stderr, "");
  assert.equal(viaMcp.status, 1);
  const inline = ec.checkBundle(bundle, { now: NOW });
  assert.deepEqual(JSON.parse(viaMcp.stdout), inline);
  // The bundle's inline contents are not needed when the texts come from the server.
  const bare = { ...bundle, sources: bundle.sources.map(({ spec }) => ({ spec })) };
  writeFileSync(join(dir, "bare.json"), JSON.stringify(bare));
  const viaBare = spawnSync(process.execPath, [CLI, "check", join(dir, "bare.json"), "--mcp", `${FS_SERVER} .`, "--json", "--now", NOW], { encoding: "utf8" });
  assert.equal(viaBare.stderr, "");
  assert.deepEqual(JSON.parse(viaBare.stdout), inline);
  assertNoChildren();
});

test("readSourcesViaMcp: CRLF content gives the inline digest; refs in spec order", async () => {
  const dir = sourcesDir();
  const store = freshStore();
  const refs = await readSourcesViaMcp(store, bundle.scope, specs, { command: FS_SERVER, args: ["."], cwd: dir });
  assert.deepEqual(refs, bundle.report.claims.slice(0, 2).map((c) => c.citations[0].ref));
  assert.equal(refs[0].digest, ec.digestText(bundle.sources[0].content));
  assertNoChildren();
});

test("a missing file fails naming the source, and nothing is ingested", async () => {
  const dir = sourcesDir();
  execFileSync("rm", [join(dir, "plan_b.md")]);
  const store = freshStore();
  await assert.rejects(readSourcesViaMcp(store, bundle.scope, specs, { command: FS_SERVER, args: ["."], cwd: dir }), (e) => {
    assert.equal(e.code, "mcp_tool_error");
    assert.equal(e.source_id, "plan_b");
    assert.match(e.message, /^source plan_b: read_text_file reported an error/);
    return true;
  });
  // plan_a was read first but not ingested: ingesting it now makes revision 1.
  assert.equal(store.ingest(bundle.scope, "plan_a", bundle.sources[0].content).revision, 1);
  assertNoChildren();
});

test("a response over the byte cap fails", async () => {
  const dir = sourcesDir();
  writeFileSync(join(dir, "plan_a.md"), "# big\n" + "x".repeat(40000));
  await assert.rejects(readSourcesViaMcp(freshStore(), bundle.scope, specs, { command: FS_SERVER, args: ["."], cwd: dir }), (e) => {
    assert.equal(e.code, "mcp_response_too_large");
    assert.match(e.message, /^source plan_a: the response is \d+ bytes of JSON, over the cap of 32000$/);
    return true;
  });
  assertNoChildren();
});

test("a server that never answers hits the timeout and is shut down", async () => {
  const started = Date.now();
  await assert.rejects(
    readSourcesViaMcp(freshStore(), bundle.scope, specs, { command: process.execPath, args: [join(FIXTURES, "hang-server.mjs")], timeoutMs: 300 }),
    (e) => e.code === "mcp_timeout",
  );
  assert.ok(Date.now() - started < 5000);
  assertNoChildren();
});

test("a structured read_document result is checked against the spec's filename", async () => {
  const dir = sourcesDir({ crlf: false });
  const opts = (mode) => ({ command: process.execPath, args: [join(FIXTURES, "read-document-server.mjs"), mode], cwd: dir, tool: "read_document", argument: "filename" });
  const store = freshStore();
  const refs = await readSourcesViaMcp(store, bundle.scope, specs, opts("ok"));
  assert.deepEqual(refs.map((r) => r.revision), [1, 1]);
  await assert.rejects(readSourcesViaMcp(freshStore(), bundle.scope, specs, opts("mismatch")), (e) => e.code === "read_mismatch" && e.source_id === "plan_a");
  assertNoChildren();
});

test("the CLI reports MCP failures as unusable input (exit 3)", () => {
  const dir = sourcesDir();
  const r = spawnSync(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", `${process.execPath} ${join(FIXTURES, "hang-server.mjs")}`, "--mcp-timeout", "300"], { encoding: "utf8" });
  assert.equal(r.status, 3);
  assert.equal(r.stderr, "evidence-check: mcp_timeout: the MCP server did not answer the handshake within 300 ms\n");
  const none = spawnSync(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", "/nonexistent/server"], { encoding: "utf8" });
  assert.equal(none.status, 3);
  assert.match(none.stderr, /^evidence-check: mcp_unavailable: the MCP server could not be started or reached/);
});

test("Ctrl-C during an MCP read shuts the server down and exits 3", async () => {
  const dir = sourcesDir();
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", `${process.execPath} ${join(FIXTURES, "hang-server.mjs")}`, "--mcp-timeout", "60000"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  await new Promise((r) => setTimeout(r, 800));
  child.kill("SIGINT");
  const code = await new Promise((r) => child.on("exit", r));
  assert.equal(code, 3);
  assert.match(stderr, /interrupted; the MCP server was shut down/);
  await new Promise((r) => setTimeout(r, 200));
  const left = execFileSync("ps", ["-eo", "args="], { encoding: "utf8" }).split("\n").filter((l) => l.includes(join(FIXTURES, "hang-server.mjs")));
  assert.deepEqual(left, [], "the hanging server is gone");
});
