// Docs that are run: every JavaScript/TypeScript code block of README.md and docs/*.md is
// executed against the built package (pkg/), each in a fresh Node process or a fresh
// Chromium page, from the repository root (so `examples/…` paths hold). A ```text block
// right after a run block is its expected output. The conventions are in
// docs/CONTRIBUTING.md ("Docs that are run"). Also: every error code of the library is
// documented in docs/errors.md.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { transformSync } from "esbuild";
import { ROOT, PKG, userProject } from "./helpers.mjs";
import { serveStatic, launchChromium } from "./browser.mjs";

/** Languages whose blocks are run; every other fence (sh, text, ts-signature…) is not. */
const RUN = new Set(["js", "javascript", "mjs", "cjs", "ts", "typescript"]);
const DIRECTIVES = new Set(["browser", "name", "after", "file"]);
const MARK = "\u241edocs-block\u241e";

function docFiles() {
  return ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)];
}

/** The fenced blocks of a Markdown text: {lang, code, line, expected?, directives}. */
function extractBlocks(markdown) {
  const lines = markdown.split("\n");
  const fences = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+|~~~+)\s*([^\s`]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let j = i + 1;
    while (j < lines.length && !(lines[j].startsWith(indent + fence) && lines[j].trim() === fence)) j++;
    fences.push({ lang: lang.toLowerCase(), code: lines.slice(i + 1, j).map((l) => l.slice(indent.length)).join("\n") + "\n", line: i + 1, end: j + 1 });
    i = j;
  }
  const blocks = [];
  for (const [k, f] of fences.entries()) {
    if (!RUN.has(f.lang)) continue;
    const next = fences[k + 1];
    const between = next ? lines.slice(f.end, next.line - 1) : [];
    const expected = next && next.lang === "text" && between.every((l) => l.trim() === "") ? next.code : undefined;
    const directives = new Map();
    for (const l of f.code.split("\n")) {
      const d = /^\/\/ @([a-z-]+)(?: (\S+))?/.exec(l);
      if (!d) break;
      assert.ok(DIRECTIVES.has(d[1]), `line ${f.line}: unknown directive // @${d[1]}`);
      directives.set(d[1], d[2] ?? true);
    }
    blocks.push({ ...f, expected, directives });
  }
  return blocks;
}

/** The program a block runs: the blocks it comes after (`// @after NAME`, a block of any doc), then a mark, then itself. */
function program(block) {
  const chain = [block];
  while (chain[0].directives.has("after")) {
    const name = chain[0].directives.get("after");
    const before = named.get(name);
    assert.ok(before && !chain.includes(before), `line ${chain[0].line}: no block before it is named ${name}`);
    chain.unshift(before);
  }
  const parts = chain.map((b) => (b.lang === "ts" || b.lang === "typescript" ? transformSync(b.code, { loader: "ts", format: "esm" }).code : b.code));
  parts.splice(parts.length - 1, 0, `console.log(${JSON.stringify(MARK)});\n`);
  const code = parts.join("\n");
  const cjs = /\brequire\(/.test(code) && !/^\s*import\s/m.test(code);
  return { code, cjs, browser: chain.some((b) => b.directives.has("browser")) };
}

/** What the block itself printed (after the mark). */
const ownOutput = (stdout) => stdout.slice(stdout.lastIndexOf(MARK + "\n") + MARK.length + 1);

const docs = docFiles().map((file) => ({ file, blocks: extractBlocks(readFileSync(join(ROOT, file), "utf8")) }));
const named = new Map();
for (const { file, blocks } of docs) {
  for (const b of blocks.filter((b) => b.directives.has("name"))) {
    assert.ok(!named.has(b.directives.get("name")), `${file}:${b.line}: a second block named ${b.directives.get("name")}`);
    named.set(b.directives.get("name"), b);
  }
}
const project = userProject();
let server;
let browser;

/** The file a browser gets for an entry of the package: its `browser` (else `import`, else `default`) condition. */
function browserEntry(entry) {
  const target = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8")).exports[entry];
  const pick = (t) => (typeof t === "string" ? t : t && pick(t.browser ?? t.import ?? t.default));
  return "/node_modules/evidence-check/" + pick(target).replace(/^\.\//, "");
}

before(async () => {
  const imports = { "evidence-check": browserEntry("."), "evidence-check/web": browserEntry("./web"), "evidence-check/extras": browserEntry("./extras") };
  server = await serveStatic({
    "/": { type: "text/html; charset=utf-8", body: `<!doctype html><meta charset="utf-8"><title>docs</title>
<script type="importmap">${JSON.stringify({ imports })}</script><body></body>` },
    "/node_modules/evidence-check/": PKG,
    "/examples/": join(ROOT, "examples"),
    "/favicon.ico": { type: "image/x-icon", body: "" },
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function runInChromium(code) {
  browser ??= await launchChromium();
  const page = await browser.newPage();
  const logs = [];
  const errors = [];
  page.on("console", (m) => (m.type() === "log" ? logs.push(m.text()) : m.type() === "error" ? errors.push(m.text()) : null));
  page.on("pageerror", (e) => errors.push(String(e)));
  try {
    await page.goto(server.url + "/");
    await page.evaluate(async (source) => {
      const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      await import(url);
    }, code);
    return { stdout: logs.map((l) => l + "\n").join(""), errors };
  } catch (e) {
    errors.push(String(e?.message ?? e));
    return { stdout: logs.map((l) => l + "\n").join(""), errors };
  } finally {
    await page.close();
  }
}

for (const { file, blocks } of docs) {
  test(`${file}: every code block is run`, async (t) => {
    for (const block of blocks) {
      // A project file of a bundler recipe is run by tests/js/bundlers.test.mjs.
      if (block.directives.has("file") && !block.directives.has("browser")) continue;
      await t.test(`${file}:${block.line} (${block.lang}${[...block.directives.keys()].map((d) => " @" + d).join("")})`, async () => {
        const { code, cjs, browser: inBrowser } = program(block);
        const name = `${file.replace(/\W/g, "_")}_${block.line}`;
        let stdout;
        if (inBrowser) {
          const r = await runInChromium(code);
          assert.deepEqual(r.errors, [], `${file}:${block.line} threw in Chromium`);
          stdout = r.stdout;
        } else {
          const path = join(project, `${name}.${cjs ? "cjs" : "mjs"}`);
          writeFileSync(path, code);
          const r = spawnSync(process.execPath, [path], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
          assert.equal(r.status, 0, `${file}:${block.line} exited ${r.status}${r.signal ? ` (${r.signal})` : ""}:\n${r.stderr}`);
          assert.equal(r.stderr, "", `${file}:${block.line} wrote to stderr`);
          stdout = r.stdout;
        }
        if (block.expected !== undefined) assert.equal(ownOutput(stdout), block.expected, `${file}:${block.line} prints what the text block after it shows`);
      });
    }
  });
}

test("the extractor finds blocks, directives and expected output (and a directive it does not know fails)", () => {
  const md = "# t\n```js\n// @browser\n// @name one\nconsole.log(1)\n```\n\n```text\n1\n```\n```sh\nls\n```\n```ts-signature\nf(): void\n```\n";
  const blocks = extractBlocks(md);
  assert.equal(blocks.length, 1);
  assert.deepEqual([blocks[0].line, blocks[0].expected, [...blocks[0].directives]], [2, "1\n", [["browser", true], ["name", "one"]]]);
  assert.throws(() => extractBlocks("```js\n// @nope\n```\n"), /unknown directive/);
});

/** Every error code the library can throw or report, from the sources. */
function libraryCodes() {
  const codes = new Set();
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  for (const file of walk(join(ROOT, "src")).filter((f) => f.endsWith(".rs"))) {
    const text = readFileSync(file, "utf8");
    // coded_enum! tables: `Variant => ("code", "消息", "message")`.
    for (const m of text.matchAll(/=>\s*\(\s*"([a-z][a-z0-9_]*)"\s*,\s*"[^"]*"\s*,\s*"/g)) codes.add(m[1]);
    // `fn code(…) -> &'static str { match self { … => "code", … } }`.
    for (const body of text.matchAll(/fn code\([^)]*\)\s*->\s*&'static str\s*\{([\s\S]*?)\n    \}/g)) {
      for (const m of body[1].matchAll(/=>\s*"([a-z][a-z0-9_]*)"/g)) codes.add(m[1]);
      for (const m of body[1].matchAll(/^\s*"([a-z][a-z0-9_]*)"\s*$/gm)) codes.add(m[1]);
    }
    // Errors made in the binding with a literal code.
    for (const m of text.matchAll(/(?:evidence_error|coded_error|js_error)\(\s*"([a-z][a-z0-9_]*)"/g)) codes.add(m[1]);
  }
  for (const f of readdirSync(join(ROOT, "js")).filter((f) => f.endsWith(".mjs"))) {
    const text = readFileSync(join(ROOT, "js", f), "utf8");
    // A code handed to an error maker with its message: `new McpReadError("code", "…")`,
    // `inputError("code", `…`)`, `refusal(cond ? "a" : "b", …)`.
    for (const m of text.matchAll(/\b(\w*Error|refusal|fail\w*)\(\s*(?:[\w.]+ \? "([a-z][a-z0-9_]*)" : )?"([a-z][a-z0-9_]*)"\s*,/g)) {
      if (m[2]) codes.add(m[2]);
      codes.add(m[3]);
    }
    for (const m of text.matchAll(/\.code = (?:[^;\n]*\? )?"([a-z][a-z0-9_]*)"(?: : "([a-z][a-z0-9_]*)")?/g)) {
      codes.add(m[1]);
      if (m[2]) codes.add(m[2]);
    }
  }
  return codes;
}

test("docs/errors.md names every error code of the library", () => {
  const codes = libraryCodes();
  assert.ok(codes.size >= 60, `found only ${codes.size} codes: the extraction broke`);
  for (const c of ["contract", "ref_unavailable", "quote_mismatch", "too_many_values", "mcp_timeout", "document_changed", "invalid_now"]) {
    assert.ok(codes.has(c), `the extraction misses ${c}`);
  }
  const doc = readFileSync(join(ROOT, "docs", "errors.md"), "utf8");
  const documented = new Set([...doc.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]));
  const missing = [...codes].filter((c) => !documented.has(c)).sort();
  assert.deepEqual(missing, [], `docs/errors.md does not name: ${missing.join(", ")}`);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");

test("every relative link of the README and docs/ names a file that exists, and an anchor that its headings make", () => {
  const broken = [];
  for (const { file } of docs) {
    const text = readFileSync(join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split("#");
      const resolved = path ? join(dirname(join(ROOT, file)), path) : join(ROOT, file);
      if (!existsSync(resolved)) {
        broken.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (anchor && resolved.endsWith(".md")) {
        const headings = [...readFileSync(resolved, "utf8").replace(/```[\s\S]*?```/g, "").matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1]));
        if (!headings.includes(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test("docs/api.md names every export of the package: the Node build, the web build, evidence-check/extras and evidence-check/mcp", async () => {
  const api = readFileSync(join(ROOT, "docs", "api.md"), "utf8");
  const web = await import(join(PKG, "web", "evidence_check.js"));
  const mcp = await import(join(PKG, "bin", "mcp.mjs"));
  const require = createRequire(import.meta.url);
  const node = Object.keys(require(join(PKG, "node", "evidence_check.js")));
  const names = new Set([...node, ...Object.keys(web), ...Object.keys(mcp)]);
  names.delete("default");
  names.add("init");
  const missing = [...names].filter((n) => !n.startsWith("__") && !new RegExp(`\\b${n}\\b`).test(api)).sort();
  assert.ok(names.size >= 30, `found only ${names.size} exports`);
  assert.deepEqual(missing, [], `docs/api.md does not name: ${missing.join(", ")}`);
});
