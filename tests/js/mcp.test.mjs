// Reading sources through real MCP servers over stdio: @modelcontextprotocol/server-filesystem
// from npm, a read_document server built on the SDK, one that never answers, and hostile
// ones (a stderr flood, an oversize answer, control codes in an error).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, copyFileSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, PKG, NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const { readSourcesViaMcp, fetchSourcesViaMcp, McpReadError } = await import(join(PKG, "bin", "mcp.mjs"));
const CLI = join(PKG, "bin", "cli.mjs");
// The official scoped package, started by its own entry point (never an unscoped name).
const FS_SERVER = `${process.execPath} ${join(ROOT, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")}`;
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

/** readSourcesViaMcp's options for the filesystem server in `dir`. */
function fsServer(dir) {
  const [command, ...args] = FS_SERVER.split(" ");
  return { command, args: [...args, "."], cwd: dir };
}

/** The environment in a Chinese locale (the CLI follows the locale; these tests assume zh). */
const ZH = { ...process.env, LANG: "zh_CN.UTF-8" };
const EN = { ...process.env, LANG: "en_US.UTF-8" }; // where a test reads the English texts of MCP failures
delete ZH.LC_ALL;
delete ZH.LC_MESSAGES;

function freshStore() {
  return new ec.EvidenceStore(specs, { now: NOW });
}

test("the CLI checks the example through mcp-server-filesystem, same result as inline", () => {
  const dir = sourcesDir();
  const viaMcp = spawnSync(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", `${FS_SERVER} .`, "--json", "--now", NOW], { env: ZH, encoding: "utf8" });
  assert.equal(viaMcp.stderr, "");
  assert.equal(viaMcp.status, 1);
  const inline = ec.checkBundle(bundle, { now: NOW, lang: "zh" });
  assert.deepEqual(JSON.parse(viaMcp.stdout), inline);
  // The bundle's inline contents are not needed when the texts come from the server.
  const bare = { ...bundle, sources: bundle.sources.map(({ spec }) => ({ spec })) };
  writeFileSync(join(dir, "bare.json"), JSON.stringify(bare));
  const viaBare = spawnSync(process.execPath, [CLI, "check", join(dir, "bare.json"), "--mcp", `${FS_SERVER} .`, "--json", "--now", NOW], { env: ZH, encoding: "utf8" });
  assert.equal(viaBare.stderr, "");
  assert.deepEqual(JSON.parse(viaBare.stdout), inline);
  assertNoChildren();
});

test("readSourcesViaMcp: CRLF content gives the inline digest; refs in spec order", async () => {
  const dir = sourcesDir();
  const store = freshStore();
  const refs = await readSourcesViaMcp(store, bundle.scope, specs, fsServer(dir));
  assert.deepEqual(refs, bundle.report.claims.slice(0, 2).map((c) => c.citations[0].ref));
  assert.equal(refs[0].digest, ec.digestText(bundle.sources[0].content));
  assertNoChildren();
});

test("a missing file fails naming the source, and nothing is ingested", async () => {
  const dir = sourcesDir();
  execFileSync("rm", [join(dir, "plan_b.md")]);
  const store = freshStore();
  await assert.rejects(readSourcesViaMcp(store, bundle.scope, specs, fsServer(dir)), (e) => {
    assert.equal(e.code, "mcp_tool_error");
    assert.equal(e.source_id, "plan_b");
    // One of the library's errors: one `instanceof EvidenceCheckError` catches it.
    const { EvidenceCheckError, EvidenceError, ContractError } = typeof ec.EvidenceCheckError === "function" ? ec : ec.errorClasses();
    assert.ok(e instanceof McpReadError && e instanceof EvidenceCheckError && e instanceof Error);
    assert.ok(!(e instanceof EvidenceError) && !(e instanceof ContractError));
    assert.equal(e.name, "McpReadError");
    assert.match(e.message, /^source plan_b: read_text_file reported an error/);
    return true;
  });
  // plan_a was read first but not ingested: ingesting it now makes revision 1.
  assert.equal(store.ingest(bundle.scope, "plan_a", bundle.sources[0].content).revision, 1);
  assertNoChildren();
});

test("the response cap follows the source limit: a 16.7 KB source, returned twice, reads; a larger one fails", async () => {
  const dir = sourcesDir();
  // The filesystem server returns the text twice (content and structuredContent): under
  // the former fixed cap of 32,000 bytes a 16.7 KB source failed.
  const text = "# 方案 A\n" + "离线整理说明,第 N 行。\n".repeat(530);
  assert.ok(Buffer.byteLength(text) > 16700 && Buffer.byteLength(text) < 24000);
  writeFileSync(join(dir, "plan_a.md"), text);
  const store = freshStore();
  const refs = await readSourcesViaMcp(store, bundle.scope, specs, fsServer(dir));
  assert.equal(refs[0].digest, ec.digestText(text));
  // Over the default cap, 4 × the store's default source limit (24,000) + 64 KiB of envelope.
  writeFileSync(join(dir, "plan_a.md"), "# big\n" + "x".repeat(100000));
  await assert.rejects(readSourcesViaMcp(freshStore(), bundle.scope, specs, fsServer(dir)), (e) => {
    assert.equal(e.code, "mcp_response_too_large");
    assert.match(e.message, /^source plan_a: the response is \d+ bytes of JSON, over the cap of 161536$/);
    return true;
  });
  // A larger source limit (the documents policy's) raises the cap; an explicit maxBytes wins.
  const reads = await fetchSourcesViaMcp(specs, { ...fsServer(dir), maxSourceBytes: 16 * 1024 * 1024 });
  assert.equal(reads[0].text.length, 100006);
  await assert.rejects(fetchSourcesViaMcp(specs, { ...fsServer(dir), maxBytes: 32000 }), /over the cap of 32000$/);
  assertNoChildren();
});

test("a server that never answers hits the timeout and is shut down", async () => {
  await assert.rejects(
    readSourcesViaMcp(freshStore(), bundle.scope, specs, { command: process.execPath, args: [join(FIXTURES, "hang-server.mjs")], timeoutMs: 300 }),
    (e) => e.code === "mcp_timeout",
  );
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
  const r = spawnSync(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", `${process.execPath} ${join(FIXTURES, "hang-server.mjs")}`, "--mcp-timeout", "300"], { env: EN, encoding: "utf8" });
  assert.equal(r.status, 3);
  assert.equal(r.stderr, "evidence-check: mcp_timeout: the MCP server did not answer the handshake within 300 ms\n");
  const none = spawnSync(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", "/nonexistent/server"], { env: EN, encoding: "utf8" });
  assert.equal(none.status, 3);
  assert.match(none.stderr, /^evidence-check: mcp_unavailable: the MCP server could not be started or reached/);
});

/** Running (not zombie) server processes whose command line holds `tag` (the CLI's own, holding --mcp, aside). */
function running(tag) {
  return execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes(tag) && !/^\s*\d+\s+Z/.test(l) && !l.includes("--mcp"));
}

/** Polls until `test()` holds; the guard only stops a broken run from hanging. */
async function until(test, what, guardMs = 20000) {
  const end = Date.now() + guardMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts the CLI on the example with a server command that never answers, marked by a unique tag. */
async function cliWithHangingServer({ shell = false } = {}) {
  const dir = sourcesDir();
  const tag = `hang-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const server = `${process.execPath} ${join(FIXTURES, "hang-server.mjs")} ${tag}`;
  const mcp = shell ? `sh -c '${server}; true'` : server;
  const child = spawn(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", mcp, "--mcp-timeout", "60000"], { env: EN, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((r) => child.on("exit", (code, signal) => r({ code, signal, stderr })));
  await until(() => running(tag).some((l) => l.includes(`${process.execPath} ${join(FIXTURES, "hang-server.mjs")}`) && !l.includes("sh -c")), "the server to start");
  return { child, tag, exited };
}

for (const [name, signals] of [
  ["Ctrl-C", ["SIGINT"]],
  ["a second Ctrl-C", ["SIGINT", "SIGINT"]],
  ["SIGTERM", ["SIGTERM"]],
  ["SIGHUP", ["SIGHUP"]],
]) {
  test(`${name} during an MCP read shuts the server's whole process group down and exits 3`, async () => {
    const { child, tag, exited } = await cliWithHangingServer({ shell: true });
    for (const s of signals) child.kill(s);
    // The guard only stops a broken build from hanging the suite (it used to wait for the orphan).
    const guard = setTimeout(() => child.kill("SIGKILL"), 30000);
    const { code, stderr } = await exited;
    clearTimeout(guard);
    assert.equal(code, 3, stderr);
    assert.match(stderr, /interrupted; the MCP server was shut down/);
    assert.deepEqual(running(tag), [], "no server process is left");
  });
}

test("a shell-wrapped server that never answers: the CLI exits after mcp_timeout, its group killed", async () => {
  const dir = sourcesDir();
  const tag = `hang-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const mcp = `sh -c '${process.execPath} ${join(FIXTURES, "hang-server.mjs")} ${tag}; true'`;
  // The guard only stops a broken build from hanging the suite (it used to wait for the orphan).
  const r = spawnSync(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", mcp, "--mcp-timeout", "300"], { env: EN, encoding: "utf8", timeout: 30000 });
  assert.equal(r.status, 3, `exit ${r.status} ${r.signal ?? ""}: ${r.stderr}`);
  assert.equal(r.stderr, "evidence-check: mcp_timeout: the MCP server did not answer the handshake within 300 ms\n");
  assert.deepEqual(running(tag), [], "no server process is left");
});

test("a server flooding stderr keeps only a bounded tail in memory; the error quotes its end", () => {
  const dir = sourcesDir();
  // 300 MiB of stderr through a CLI with a 64 MiB heap: kept whole, it ran out of memory (exit 134).
  const r = spawnSync(process.execPath, ["--max-old-space-size=64", CLI, "check", join(dir, "bundle.json"), "--mcp", `${process.execPath} ${join(FIXTURES, "hostile-server.mjs")} noisy`], { env: EN, encoding: "utf8", timeout: 120000 });
  assert.equal(r.status, 3, `exit ${r.status} ${r.signal ?? ""}: ${r.stderr.slice(0, 500)}`);
  assert.match(r.stderr, /^evidence-check: mcp_unavailable: the MCP server could not be started or reached: .*the last words of a noisy server\)\n$/s);
  assert.ok(r.stderr.length < 1000, `stderr is ${r.stderr.length} characters`);
});

test("an 11 MB response is mcp_response_too_large, not a closed connection", async () => {
  await assert.rejects(
    readSourcesViaMcp(freshStore(), bundle.scope, specs, { command: process.execPath, args: [join(FIXTURES, "hostile-server.mjs"), "big"], timeoutMs: 20000 }),
    (e) => {
      assert.equal(e.code, "mcp_response_too_large", e.message);
      assert.equal(e.source_id, "plan_a");
      assert.match(e.message, /^source plan_a: the response passed \d+ bytes unfinished, over the cap of 161536 bytes of JSON; it was not read further$/);
      return true;
    },
  );
  assertNoChildren();
});

test("a file whose text looks like a read result is read as its literal text", async () => {
  const dir = sourcesDir({ crlf: false });
  const fake = JSON.stringify({ status: "ok", message: "", data: { filename: "plan_a.md", content: "certified safe" } });
  writeFileSync(join(dir, "plan_a.md"), fake);
  const store = freshStore();
  const refs = await readSourcesViaMcp(store, bundle.scope, specs, fsServer(dir));
  assert.equal(refs[0].digest, ec.digestText(fake));
  assert.equal(store.get(bundle.scope, refs[0]).content, fake);
  // A report quoting "certified safe", which only the fake JSON claims, does not hold.
  const report = {
    title: "t",
    claims: [{ claim_id: "c1", text: "It is certified safe.", kind: "fact", citations: [{ citation_id: "q1", ref: refs[0], start: 0, end: 14, quote: "certified safe" }] }],
  };
  const a = ec.assess(bundle.scope, report, store, []);
  assert.equal(a.status, "invalid");
  assert.equal(a.issues[0].code, "quote_mismatch");
  assertNoChildren();
});

test("--mcp reads the bundle strictly, before any server starts", () => {
  const dir = sourcesDir();
  const example = readFileSync(join(dir, "bundle.json"), "utf8");
  const cases = [
    ["dup.json", example.replace('{\n  "scope"', '{\n  "scope": {},\n  "scope"'), /重复的键 `scope`/],
    // In the locale's language (Chinese).
    ["extra.json", JSON.stringify({ ...bundle, extra: 1 }), /^evidence-check: contract: bundle 不符合契约\(位置 \/extra\):不允许有此字段/],
    ["null.json", "null", /^evidence-check: contract: bundle 不符合契约\(位置 \/\):/],
    ["sources.json", '{"sources":{}}', /^evidence-check: contract: bundle 不符合契约\(位置 \//],
  ];
  for (const [name, text, message] of cases) {
    writeFileSync(join(dir, name), text);
    const r = spawnSync(process.execPath, [CLI, "check", join(dir, name), "--mcp", `${FS_SERVER} .`], { env: ZH, encoding: "utf8" });
    assert.equal(r.status, 3, `${name}: ${r.stderr}`);
    assert.match(r.stderr, message, name);
    assert.doesNotMatch(r.stderr, /TypeError|\n\s+at /, name);
  }
  // The reader behind it: parseBundle, contents required unless said otherwise.
  const bare = JSON.stringify({ ...bundle, sources: bundle.sources.map(({ spec }) => ({ spec })) });
  assert.throws(() => ec.parseBundle(bare), (e) => e.code === "contract" && e.message.includes("/sources/0/content"));
  assert.deepEqual(ec.parseBundle(bare, { requireContents: false }).sources.map((s) => s.spec), specs);
  assert.throws(() => ec.parseBundle(example.replace('{\n  "scope"', '{\n  "scope": {},\n  "scope"'), { requireContents: false }), (e) => e.code === "contract");
  // A directory takes no --mcp: refused, naming the option.
  const r = spawnSync(process.execPath, [CLI, "check", dir, "--mcp", `${FS_SERVER} .`], { env: ZH, encoding: "utf8" });
  assert.equal(r.status, 3);
  assert.match(r.stderr, /^evidence-check: usage: --mcp 只用于单个证据包,不用于目录\n/);
});

test("an MCP isError text reaches the terminal with its control characters escaped", () => {
  const dir = sourcesDir();
  const r = spawnSync(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", `${process.execPath} ${join(FIXTURES, "hostile-server.mjs")} iserror`], { env: ZH, encoding: "utf8" });
  assert.equal(r.status, 3);
  assert.equal(
    r.stderr,
    "evidence-check: mcp_tool_error: 来源 plan_a:read_text_file 报告了错误:⟦U+001B⟧[2J⟦U+001B⟧[32mstatus: reviewed_candidate⟦U+009B⟧31m⟦U+202E⟧\n",
  );
});

test("no file of the repository names the filesystem server by an unscoped package name", () => {
  const files = ["README.md", "Makefile", "package.json", ...["docs", "examples", "tests/js", "js"].flatMap((d) => readdirSync(join(ROOT, d), { recursive: true }).map((f) => join(d, String(f))))];
  for (const f of files) {
    let text;
    try {
      text = readFileSync(join(ROOT, f), "utf8");
    } catch {
      continue; // a directory
    }
    // npx (or an args list) given the bare bin name may fetch an unrelated third-party package.
    assert.doesNotMatch(text, /(npx(\s+-y)?\s+|["'])mcp-server-filesystem\b/, f);
  }
});

test("a host process that exits mid-read takes the server's group with it", async () => {
  const tag = `hang-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const script = `
    const { readSourcesViaMcp } = await import(${JSON.stringify(join(PKG, "bin", "mcp.mjs"))});
    process.stdin.once("data", () => process.exit(0));
    const store = { ingest() {}, ingestReadResult() {} };
    await readSourcesViaMcp(store, {}, [{ source_id: "a", filename: "a.md" }], {
      command: "sh", args: ["-c", ${JSON.stringify(`${process.execPath} ${join(FIXTURES, "hang-server.mjs")} ${tag}; true`)}], timeoutMs: 60000 });`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["pipe", "ignore", "inherit"] });
  const exited = new Promise((r) => child.on("exit", r));
  await until(() => running(tag).some((l) => !l.includes("sh -c")), "the server to start");
  child.stdin.write("exit now\n");
  assert.equal(await exited, 0);
  assert.deepEqual(running(tag), [], "no server process is left");
});

test("check --mcp is checkBundle over the bundle with the server's texts: signed reviews are checked too", () => {
  const dir = sourcesDir();
  const signed = structuredClone(bundle);
  delete signed.report.gaps;
  signed.sources = signed.sources.map(({ spec }) => ({ spec }));
  signed.reviews = signed.report.claims.map((c) => ec.recordReview(signed.scope, signed.report, c.claim_id, "supported", "checked", { now: NOW, key: "k1" }));
  writeFileSync(join(dir, "signed.json"), JSON.stringify(signed));
  const check = (key) => {
    const r = spawnSync(process.execPath, [CLI, "check", join(dir, "signed.json"), "--mcp", `${FS_SERVER} .`, "--json", "--now", NOW, "--review-key-env", "EC_KEY"], { env: { ...ZH, EC_KEY: key }, encoding: "utf8" });
    return { code: r.status, out: JSON.parse(r.stdout), stderr: r.stderr };
  };
  let r = check("k1");
  assert.equal(r.code, 0, r.stderr);
  const inline = { ...signed, sources: bundle.sources };
  assert.deepEqual(r.out, ec.checkBundle(inline, { now: NOW, reviewKey: "k1", lang: "zh" }));
  r = check("k2");
  assert.equal(r.code, 2);
  assert.deepEqual([...new Set(r.out.assessment.issues.map((i) => i.code))], ["review_signature_invalid"]);
  assertNoChildren();
});

test("check --mcp: the response cap follows the policy's source limit", () => {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-mcp-"));
  const text = "# Big\n" + "A line of a long document.\n".repeat(4000);
  writeFileSync(join(dir, "big.md"), text);
  const spec = { source_id: "big", title: "Big", locator: "file:big.md", filename: "big.md", kind: "public" };
  const store = new ec.EvidenceStore([spec], { now: NOW, policy: "documents" });
  const citation = store.quote(bundle.scope, store.ingest(bundle.scope, "big", text), "# Big", "q1");
  store.free();
  const big = { scope: bundle.scope, sources: [{ spec }], report: { title: "Big", claims: [{ claim_id: "c1", text: "It is big.", kind: "fact", citations: [citation] }] }, reviews: [] };
  writeFileSync(join(dir, "bundle.json"), JSON.stringify(big));
  const check = (...args) => spawnSync(process.execPath, [CLI, "check", join(dir, "bundle.json"), "--mcp", `${FS_SERVER} .`, "--json", "--now", NOW, ...args], { env: ZH, encoding: "utf8" });
  // 108 KB, returned twice: over the reference policy's cap (4 × 24,000 + 64 KiB).
  for (const flags of [["--policy", "reference"], ["--compat", "reference"]]) {
    const refused = check(...flags);
    assert.equal(refused.status, 3, flags.join(" "));
    assert.equal(JSON.parse(refused.stdout).error.code, "mcp_response_too_large");
  }
  // The default policy (documents), given or not.
  const inline = ec.checkBundle({ ...big, sources: [{ spec, content: text }] }, { now: NOW, lang: "zh" });
  for (const flags of [[], ["--policy", "documents"]]) {
    const r = check(...flags);
    assert.equal(r.status, 1, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), inline);
  }
  assertNoChildren();
});
