// End-to-end tests of the page (www/) in Debian's Chromium, driven by playwright-core.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { chromium } from "playwright-core";
import { startServer } from "../../js/serve.mjs";
import { ROOT, exampleBundle, readJson, userProject, userRequire } from "../js/helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const ex = userRequire(userProject())("evidence-check/extras"); // schemas, annotations, excerpts, outcomes, offsets, importers
/** The language the page asks the library for: the browser's (en-US here, see open()). */
const PAGE_LANG = "en";
/** An artifact without its export time (the clock), in either language. */
const stripClock = (s) => s.replace(/导出时间:[^\n]*/, "导出时间:").replace(/exported at: [^\n]*/, "exported at: ");
let server;
let browser;

before(async () => {
  server = await startServer({ port: 0 });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(viewport = { width: 1280, height: 900 }, locale = "en-US") {
  const page = await browser.newPage({ viewport, locale });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]");
  return { page, errors };
}

async function paste(page, bundle) {
  await page.fill("#paste", typeof bundle === "string" ? bundle : JSON.stringify(bundle));
  await page.click("#check");
}

const claimStates = (page) =>
  page.$$eval("[data-claim]", (rows) => Object.fromEntries(rows.map((r) => [r.dataset.claim, r.querySelector("[data-role=state]").textContent])));
const marks = (page) =>
  page.$$eval("article.source", (arts) => Object.fromEntries(arts.map((a) => [a.dataset.source, [...a.querySelectorAll("mark")].map((m) => m.textContent)])));

test("the example: badge, claim states, highlighted passages, artifact", async () => {
  const { page, errors } = await open();
  await page.click("#load-example");
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.textContent("#badge"), "partial");
  assert.equal(await page.textContent("#meaning"), "Every citation holds, but the report has gaps, or a claim is insufficient, contradicted or disputed.");
  assert.deepEqual(await claimStates(page), { claim_a: "supported", claim_b: "supported", choice: "supported" });
  assert.deepEqual(await marks(page), { plan_a: ["方案 A 支持离线整理。"], plan_b: ["方案 B 需要联网检索。"] });
  // Line numbers: the passages are on line 2 of their sources.
  assert.equal(await page.$eval("#passage-1", (m) => [...m.closest("ol").children].indexOf(m.closest("li")) + 1), 2);
  const text = await page.textContent("#artifact-text");
  assert.equal(await page.textContent("#artifact-digest"), createHash("sha256").update(text).digest("hex"));
  const expected = ec.checkBundle(readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8"), { lang: PAGE_LANG }).artifact.content;
  // The page renders the hardened artifact, in its language; only the export time (the clock) differs.
  assert.equal(stripClock(text), stripClock(expected));
  // Clicking a citation scrolls to and flashes its passage.
  await page.click("[data-claim=claim_b] button.cite");
  assert.equal(await page.$eval("#passage-2", (m) => m.classList.contains("flash") && document.activeElement === m), true);
  mkdirSync(join(ROOT, "target"), { recursive: true });
  await page.screenshot({ path: join(ROOT, "target", "www-example.png"), fullPage: true });
  assert.deepEqual(errors, []);
});

const PAYLOAD = '<img src=x onerror="window.__pwned=1"> [x](javascript:window.__pwned=2) <script>window.__pwned=3</script>';

function hostile({ broken }) {
  const scope = { tenant_id: "t", user_id: "u" };
  const spec = { source_id: "web", title: `Page ${PAYLOAD}`, locator: "https://example.org/?q=<b>", filename: "web.md", kind: "public" };
  const old = "Old text.\r\n";
  const content = `Intro 😀 line\r\nQuote: ${PAYLOAD}\r\nThe 𝒳 tool works offline.\nEnd`;
  const store = new ec.EvidenceStore([spec], { now: "2026-11-29T00:00:00+00:00" });
  const r1 = store.ingest(scope, "web", old);
  const staleCitation = store.quote(scope, r1, "Old text.", "c_stale");
  const r2 = store.ingest(scope, "web", content);
  const good = store.quote(scope, r2, `Quote: ${PAYLOAD}`, "c_payload");
  const tool = store.quote(scope, r2, "The 𝒳 tool works offline.", "c_tool");
  const claims = [
    { claim_id: "k_payload", text: `Claim ${PAYLOAD}`, kind: "fact", citations: [good] },
    { claim_id: "k_tool", text: "The tool works offline.", kind: "fact", citations: [tool] },
  ];
  if (broken) {
    claims.push({ claim_id: "k_tampered", text: "Tampered.", kind: "fact", citations: [{ ...tool, citation_id: "c_tampered", quote: "The 𝒳 tool works online." }] });
    claims.push({ claim_id: "k_stale", text: "Stale.", kind: "fact", citations: [staleCitation] });
    // Cites the old revision, but its quote is in the current text: the page says where.
    claims.push({ claim_id: "k_moved", text: "Moved.", kind: "fact", citations: [{ ...staleCitation, citation_id: "c_moved", start: 0, end: 25, quote: "The 𝒳 tool works offline." }] });
  }
  return {
    scope,
    sources: [{ spec, content, revision: 2 }],
    report: { title: `Report ${PAYLOAD}`, claims, gaps: [`Gap ${PAYLOAD}`] },
  };
}

async function assertInert(page) {
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "no payload script ran");
  const found = await page.evaluate(() => ({
    img: document.querySelectorAll("img").length,
    script: [...document.querySelectorAll("script")].map((s) => s.getAttribute("src")),
    a: [...document.querySelectorAll("a")].map((a) => a.getAttribute("href")),
  }));
  assert.deepEqual(found.img, 0);
  assert.deepEqual(found.script.sort(), ["app.js", "boot.js", "vendor/markdown-it.min.js"]); // markdown-it: added by app.js for the preview
  for (const href of found.a) assert.match(href, /^#source-\d+$/, `unexpected link ${href}`);
  return found;
}

test("a hostile bundle: tampered quote, stale revision, injection payloads stay text", async () => {
  const { page, errors } = await open();
  await paste(page, hostile({ broken: true }));
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.textContent("#badge"), "invalid");
  assert.deepEqual(await claimStates(page), { k_payload: "pending review", k_tool: "pending review", k_tampered: "invalid", k_stale: "invalid", k_moved: "invalid" });
  assert.equal(await page.textContent("#report-title"), `Report ${PAYLOAD}`);
  assert.equal(await page.textContent("[data-claim=k_payload] .claim-text"), `Claim ${PAYLOAD}`);
  assert.deepEqual(await marks(page), { web: [`Quote: ${PAYLOAD}`, "The 𝒳 tool works offline."] });
  const why = await page.$$eval(".why", (ps) => ps.map((p) => p.textContent));
  const START = [...`Intro 😀 line\nQuote: ${PAYLOAD}\n`].length;
  // The checker's messages, in the page's language.
  const node = ec.checkBundle(hostile({ broken: true }), { lang: PAGE_LANG });
  const message = Object.fromEntries(node.assessment.issues.map((i) => [i.citation_id, i.message]));
  assert.equal(message.c_tampered, `The quote is not the text at the cited range. (source web; range [${START}, ${START + 25}); text length ${START + 29}; text at the range: "The 𝒳 tool works offline.")`);
  assert.deepEqual(why, [
    `Citation 3 (c_tampered): ${message.c_tampered} (quote_mismatch). At [` +
      `${[...`Intro 😀 line\nQuote: ${PAYLOAD}\n`].length}, ${[...`Intro 😀 line\nQuote: ${PAYLOAD}\n`].length + 25}` +
      ") the text reads “The 𝒳 tool works offline.”. The quoted text does not occur in the current source.",
    `Citation 4 (c_stale): ${message.c_stale} (revision_stale). Stale revision: it cites revision 1, the current one is 2. The quoted text does not occur in the current source.`,
    `Citation 5 (c_moved): ${message.c_moved} (revision_stale). Stale revision: it cites revision 1, the current one is 2. ` +
      `The quoted text occurs once in the current source, at [${[...`Intro 😀 line\nQuote: ${PAYLOAD}\n`].length}, ${[...`Intro 😀 line\nQuote: ${PAYLOAD}\n`].length + 25}) (line 3).`,
  ]);
  assert.equal(await page.textContent("#artifact-none"), `Not rendered: ${node.render_error.message} (report_invalid)`);
  await assertInert(page);
  assert.deepEqual(errors, []);
});

test("the same payloads in a valid report render an inert artifact preview", async () => {
  const { page, errors } = await open();
  await paste(page, hostile({ broken: false }));
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.textContent("#badge"), "partial");
  const found = await assertInert(page);
  assert.deepEqual(found.a, ["#source-1", "#source-2"], "only the artifact's own citation links");
  const preview = await page.textContent("#preview");
  assert.ok(preview.includes("<img src=x onerror=\"window.__pwned=1\">"), "the payload shows as text");
  assert.deepEqual(errors, []);
});

test("invisible characters are marked as ⟦U+XXXX⟧ where the page shows report and source text", async () => {
  const { page, errors } = await open();
  const scope = { tenant_id: "t", user_id: "u" };
  const spec = { source_id: "s", title: "T\u3164itle", locator: "fixture:s", filename: "s.md", kind: "public" };
  const smuggled = "👍\u{E0131}\u{E0142}";
  const content = `Price \u202E46\u202C dollars.\nOK 👍\uFE0F and ${smuggled}.\n`;
  const store = new ec.EvidenceStore([spec], { now: "2026-11-29T00:00:00+00:00" });
  const ref = store.ingest(scope, "s", content);
  const c1 = store.quote(scope, ref, "Price \u202E46\u202C dollars.", "c1");
  store.free();
  const bundle = { scope, sources: [{ spec, content }], report: { title: "R", claims: [
    { claim_id: "k1", text: "It costs \u202E46\u202C.", kind: "fact", citations: [c1] },
    { claim_id: "k2", text: `Fine 👍\uFE0F but ${smuggled}\u2800`, kind: "fact" },
  ] } };
  await paste(page, bundle);
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.textContent("[data-claim=k1] .claim-text"), "It costs ⟦U+202E⟧46⟦U+202C⟧.");
  assert.equal(await page.textContent("[data-claim=k2] .claim-text"), "Fine 👍\uFE0F but 👍⟦U+E0131⟧⟦U+E0142⟧⟦U+2800⟧");
  assert.deepEqual(await marks(page), { s: ["Price ⟦U+202E⟧46⟦U+202C⟧ dollars."] });
  const lines = await page.$$eval("article.source ol.lines li", (lis) => lis.map((l) => l.textContent));
  assert.deepEqual(lines, ["Price ⟦U+202E⟧46⟦U+202C⟧ dollars.", "OK 👍\uFE0F and 👍⟦U+E0131⟧⟦U+E0142⟧."]);
  assert.equal(await page.textContent("article.source h3"), "T⟦U+3164⟧itle");
  assert.ok((await page.textContent("#artifact-text")).includes("It costs ⟦U+202E⟧46⟦U+202C⟧\\."), "the artifact shows the same");
  assert.deepEqual(errors, []);
});

test("a malformed file and a contract error show every violation with its path", async () => {
  const { page } = await open();
  await page.setInputFiles("#file", { name: "bad.json", mimeType: "application/json", buffer: Buffer.from("{ not json") });
  await page.waitForSelector("#errors:not([hidden])");
  const items = await page.$$eval("#errors-list li", (lis) => lis.map((l) => l.textContent));
  assert.deepEqual(items, ["/: key must be a string at line 1 column 3 (invalid_json)"]);
  assert.equal(await page.isHidden("#overview"), true);

  const bundle = readJson("examples", "demo.bundle.json");
  bundle.report.claims[0].kind = "opinion";
  delete bundle.scope.user_id;
  await paste(page, bundle);
  await page.waitForSelector("#errors:not([hidden])");
  assert.deepEqual(await page.$$eval("#errors-list li", (lis) => lis.map((l) => l.textContent)), [
    "/scope/user_id: Field required (missing)",
    "/report/claims/0/kind: Input should be 'fact' or 'inference' (not_allowed)",
  ]);
});

test("phone width: nothing overflows sideways", async () => {
  const { page } = await open({ width: 390, height: 844 });
  await page.click("#load-example");
  await page.waitForSelector("body[data-shown]");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: join(ROOT, "target", "www-phone.png"), fullPage: true });
});

test("in Chromium: the schema and the web-annotation round trip equal Node's", async () => {
  const { page, errors } = await open();
  const text = readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8");
  const inBrowser = await page.evaluate(async (text) => {
    const m = await import("/pkg/evidence_check.js");
    const x = await import("/pkg/extras.js"); // evidence-check/extras: the same module
    await m.default();
    const b = JSON.parse(text);
    const store = new m.EvidenceStore(b.sources.map((s) => s.spec), { now: "2026-11-29T00:00:00+00:00" });
    for (const s of b.sources) store.ingest(b.scope, s.spec.source_id, s.content);
    const annotations = m.toWebAnnotations(b.scope, b.report, store);
    return {
      schema: x.reportJsonSchema(),
      strict: x.reportJsonSchema({ dialect: "openai-strict" }),
      annotations,
      back: annotations.map((a) => x.fromWebAnnotation(a)),
      errorIsContractError: (() => {
        try {
          m.parseReport("{");
        } catch (e) {
          return e instanceof m.errorClasses().ContractError && e instanceof Error && e.code === "contract";
        }
        return false;
      })(),
    };
  }, text);
  const b = JSON.parse(text);
  const store = new ec.EvidenceStore(b.sources.map((s) => s.spec), { now: "2026-11-29T00:00:00+00:00" });
  for (const s of b.sources) store.ingest(b.scope, s.spec.source_id, s.content);
  assert.deepEqual(inBrowser, {
    schema: ex.reportJsonSchema(),
    strict: ex.reportJsonSchema({ dialect: "openai-strict" }),
    annotations: ec.toWebAnnotations(b.scope, b.report, store),
    back: [b.report.claims[0].citations[0], b.report.claims[1].citations[0]],
    errorIsContractError: true,
  });
  assert.deepEqual(errors, []);
});

test("an error always replaces the previous result, and a huge violation list is capped", async () => {
  const { page, errors } = await open();
  await page.click("#load-example");
  await page.waitForSelector("body[data-shown]");
  // 70,000 empty claims: about 211 KB of JSON and 210,000 violations.
  const bundle = readJson("examples", "demo.bundle.json");
  bundle.report.claims = Array.from({ length: 70000 }, () => ({}));
  const text = JSON.stringify(bundle);
  assert.ok(text.length > 200_000);
  await paste(page, text);
  await page.waitForSelector("#errors:not([hidden])", { timeout: 10_000 });
  for (const id of ["overview", "claims", "sources", "artifact"]) assert.equal(await page.isHidden(`#${id}`), true, id);
  const items = await page.$$eval("#errors-list li", (lis) => lis.map((l) => l.textContent));
  assert.ok(items.length >= 1 && items.length <= 101, `${items.length} items listed`);
  if (items.length === 101) assert.match(items[100], /^… and \d+ more$/);
  assert.match(await page.textContent("#errors-summary"), /^the pasted JSON: /);
  // A good bundle brings the result back and hides the errors; a bad one hides it again.
  await page.click("#load-example");
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.isHidden("#errors"), true);
  await paste(page, "{ not json");
  await page.waitForSelector("#errors:not([hidden])");
  assert.equal(await page.isHidden("#overview"), true);
  assert.deepEqual(errors, []);
});

test("served without a header (a static host), the page's own Content-Security-Policy applies", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.route("**/*", async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers["content-security-policy"];
    await route.fulfill({ response, headers });
  });
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]");
  const meta = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content);
  assert.match(meta, /script-src 'self' 'wasm-unsafe-eval'/);
  // The page still works under it (wasm needs 'wasm-unsafe-eval') …
  await page.click("#load-example");
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.textContent("#badge"), "partial");
  // … and an injected inline script does not run.
  const ran = await page.evaluate(() => {
    const s = document.createElement("script");
    s.textContent = "window.__inline = 1";
    document.body.append(s);
    return window.__inline === 1;
  });
  assert.equal(ran, false);
  assert.deepEqual(errors, []);
});

test("start-up: the .wasm and the scripts that load it are fetched from the head, each once", async () => {
  const html = readFileSync(join(ROOT, "www", "index.html"), "utf8");
  const head = html.slice(0, html.indexOf("</head>"));
  const fromHead = [...head.matchAll(/<(?:link rel="(?:module)?preload" href|script type="module"(?: async)? src)="([^"]+)"/g)].map((m) => new URL(m[1], server.url).href);
  assert.ok(fromHead.some((u) => u.endsWith("/pkg/evidence_check_bg.wasm")), String(fromHead));
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]");
  // Each is the one request for its file: a preload the page does not take (a credentials
  // mode that does not match the fetch, a stale path) is a second download.
  for (const url of new Set(fromHead)) assert.equal(requests.filter((u) => u === url).length, 1, `${url}: ${requests.join(", ")}`);
  // Every script the page's start fetches is named in the head: the .wasm and two scripts
  // (app.js bundles the modules it imports), and the page's thread checks without a worker.
  const scripts = requests.filter((u) => /\.(m?js|wasm)$/.test(u) && !u.includes("/vendor/"));
  for (const url of scripts) assert.ok(fromHead.includes(url), `${url} is not fetched from the head`);
  assert.deepEqual(scripts.map((u) => new URL(u).pathname).sort(), ["/app.js", "/boot.js", "/pkg/evidence_check_bg.wasm"]);
  await page.close();
  assert.deepEqual(errors, []);
});

test("the served header forbids framing and matches the page's policy", async () => {
  const response = await fetch(server.url);
  const header = response.headers.get("content-security-policy");
  assert.match(header, /(^|; )frame-ancestors 'none'(;|$)/);
  const html = await response.text();
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  // frame-ancestors is ignored in a <meta>; everything else is the same policy.
  assert.equal(header.split("; ").filter((d) => !d.startsWith("frame-ancestors")).join("; "), meta);
});

test("an Anthropic request + response pair opens checked; a tampered one shows the invalid citation", async () => {
  const { page, errors } = await open();
  // One module holds the importers too: nothing more is fetched for an import.
  const wasm = () => page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname).filter((p) => p.endsWith(".wasm")));
  assert.deepEqual(await wasm(), ["/pkg/evidence_check_bg.wasm"]);
  const fixture = (name) => ({ name, mimeType: "application/json", buffer: readFileSync(join(ROOT, "tests", "js", "fixtures", "anthropic", name)) });
  // The order of the files does not matter: the request is the one with messages.
  await page.setInputFiles("#anthropic-files", [fixture("response.json"), fixture("request.json")]);
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.textContent("#badge"), "needs review");
  assert.deepEqual(await claimStates(page), { "claim-0": "pending review", "claim-1": "pending review", "claim-2": "pending review", "claim-3": "pending review", "claim-4": "pending review" });
  assert.deepEqual(await marks(page), {
    "doc-0": ["The grass is green.", "The sky is blue."],
    "doc-1": ["地球是圆的。", "草是绿色的😀。"],
    "doc-2": ["Second block. Third block."],
  });
  assert.equal(await page.textContent("#import-status"), "Imported 3 documents and 5 cited claims (ranges matched in cite-0: code_point, cite-1: code_point, cite-2: utf16, cite-3: code_point, cite-4: block).");
  assert.equal(await page.isHidden("#errors"), true);
  assert.deepEqual(await wasm(), ["/pkg/evidence_check_bg.wasm"]);

  await page.setInputFiles("#anthropic-files", [fixture("request.json"), fixture("response-tampered.json")]);
  // The verdict is painted before the claims are made: wait for the whole of the new result.
  await page.waitForFunction(() => document.getElementById("badge").textContent === "invalid" && document.body.dataset.shown === "true");
  assert.equal((await claimStates(page))["claim-1"], "invalid");
  assert.match(await page.textContent("#why-cite-1"), /quote_mismatch/);

  await page.setInputFiles("#anthropic-files", [fixture("request.json")]);
  await page.waitForSelector("#errors:not([hidden])");
  assert.match(await page.textContent("#errors-summary"), /pick two files/);
  assert.deepEqual(errors, []);
});

test("the policy selector: a 30 KB source is refused under reference, naming it, and checked under documents", async () => {
  const { page } = await open();
  const bundle = readJson("examples", "demo.bundle.json");
  bundle.sources[1].content += "\n" + "padding line\n".repeat(2400);
  await page.selectOption("#policy", "reference");
  await paste(page, bundle);
  await page.waitForSelector("#errors:not([hidden])");
  const summary = await page.textContent("#errors-summary");
  assert.match(summary, /The source is over the byte limit/);
  assert.match(summary, /plan_b/);
  assert.match(summary, /--policy documents/);
  await page.selectOption("#policy", "documents");
  await page.click("#check");
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.isHidden("#errors"), true);
  assert.equal(await page.textContent("#badge"), "invalid", "the bigger plan_b has another digest: checked, not refused");
});

test("a file and a policy given before the module is ready: checked as soon as it is, under that policy", async () => {
  const bundle = readJson("examples", "demo.bundle.json");
  bundle.sources[1].content += "\n" + "padding line\n".repeat(2400);
  // One visit per policy: whichever is the library's default, the other one is a choice the
  // page must keep (documents checks the 30 KB source, reference refuses it).
  for (const [policy, shown] of [["documents", "body[data-shown]"], ["reference", "#errors:not([hidden])"]]) {
    const context = await browser.newContext();
    // At DOMContentLoaded the page's script has run and the .wasm is still compiling.
    await context.addInitScript(({ policy, text }) => {
      document.addEventListener("DOMContentLoaded", () => {
        window.__readyAtDcl = document.body.dataset.ready === "true";
        const select = document.getElementById("policy");
        select.value = policy;
        select.dispatchEvent(new Event("change"));
        const files = new DataTransfer();
        files.items.add(new File([text], "early.json", { type: "application/json" }));
        const input = document.getElementById("file");
        input.files = files.files;
        input.dispatchEvent(new Event("change"));
      }, { once: true });
    }, { policy, text: JSON.stringify(bundle) });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(server.url);
    await page.waitForSelector(shown);
    await page.waitForSelector("body[data-ready=true]");
    assert.equal(await page.evaluate(() => window.__readyAtDcl), false, "the file came before the module was ready");
    if (policy === "documents") assert.equal(await page.textContent("#badge"), "invalid", "checked under documents");
    else assert.match(await page.textContent("#errors-summary"), /over the byte limit/);
    assert.equal(await page.inputValue("#policy"), policy, "the choice is kept");
    assert.deepEqual(errors, []);
    await context.close();
  }
});

/** The example with its three reviews and three the checker refuses, each of them
 * "contradicted": a second review of claim_a, another tenant's review of claim_b, and a
 * review of choice bound to another report digest (the only one choice has). */
function refusedReviewsBundle() {
  const bundle = readJson("examples", "demo.bundle.json");
  const [a, b, choice] = bundle.reviews;
  bundle.reviews = [
    a,
    b,
    { ...a, verdict: "contradicted", note: "a second review of claim_a" },
    { ...b, scope: { tenant_id: "other", user_id: "reader" }, verdict: "contradicted", note: "another tenant's" },
    { ...choice, report_digest: "0".repeat(64), verdict: "contradicted", note: "bound to another report" },
  ];
  return bundle;
}

/** Each card's review lines ("Review: …"), by claim. */
const reviewLines = (page) =>
  page.$$eval("[data-claim]", (rows) => Object.fromEntries(rows.map((r) => [r.dataset.claim, [...r.querySelectorAll("p")].map((p) => p.textContent).filter((t) => /^(Review|审阅)/.test(t))])));

test("a claim card shows only the reviews the checker counted", async () => {
  const { page, errors } = await open();
  const bundle = refusedReviewsBundle();
  await paste(page, bundle);
  await page.waitForSelector("body[data-shown]");
  // The checker counts the first review of claim_a and of claim_b and none of choice.
  const node = ec.checkBundle(JSON.stringify(bundle), { lang: PAGE_LANG });
  assert.deepEqual(node.assessment.claims, { claim_a: "supported", claim_b: "supported", choice: "pending_review" });
  assert.deepEqual(await claimStates(page), { claim_a: "supported", claim_b: "supported", choice: "pending review" });
  const lines = await reviewLines(page);
  assert.equal(lines.claim_a.length, 1, JSON.stringify(lines));
  assert.match(lines.claim_a[0], /supported/);
  assert.doesNotMatch(lines.claim_a[0], /contradicted/);
  assert.equal(lines.claim_b.length, 1, JSON.stringify(lines));
  assert.doesNotMatch(lines.claim_b[0], /contradicted/);
  assert.deepEqual(lines.choice, [], "choice's only review was refused");
  assert.deepEqual(errors, []);
});

test("refused reviews are listed with their code, index and reason", async () => {
  const { page, errors } = await open();
  const bundle = refusedReviewsBundle();
  await paste(page, bundle);
  await page.waitForSelector("body[data-shown]");
  const node = ec.checkBundle(JSON.stringify(bundle), { lang: PAGE_LANG });
  const expected = node.assessment.issues.filter((i) => i.citation_id === null);
  assert.deepEqual(expected.map((i) => [i.code, i.review_index, i.claim_id]), [
    ["review_duplicate", 2, "claim_a"],
    ["review_other_scope", 3, "claim_b"],
    ["review_stale_digest", 4, "choice"],
  ]);
  const listed = await page.$$eval("#review-issues li", (lis) => lis.map((l) => ({ code: l.dataset.code, index: Number(l.dataset.index), text: l.textContent })));
  assert.deepEqual(listed.map(({ code, index }) => [code, index]), expected.map((i) => [i.code, i.review_index]));
  for (const [k, item] of listed.entries()) {
    const i = expected[k];
    for (const part of [i.code, `${i.review_index}`, i.claim_id, i.message]) assert.ok(item.text.includes(part), `${JSON.stringify(item.text)} lacks ${part}`);
  }
  assert.equal(await page.isVisible("#review-issues"), true);
  // The example's own reviews are all counted: no list.
  await page.click("#load-example");
  await page.waitForFunction(() => document.querySelectorAll("#review-issues li").length === 0);
  assert.equal(await page.isVisible("#review-issues"), false);
  assert.deepEqual(errors, []);
});

test("the page follows the browser's language, switches between English and Chinese, and defaults to the library's policy", async () => {
  const example = readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8");
  const broken = readJson("examples", "demo.bundle.json");
  broken.report.claims[0].kind = "opinion";
  const violations = (lang) => {
    try {
      ec.checkBundle(JSON.stringify(broken), { lang });
    } catch (e) {
      return e.issues.map((i) => `${i.path}: ${i.message} (${i.code})`);
    }
    assert.fail("the broken bundle checked");
  };
  const errorItems = (page) => page.$$eval("#errors-list li", (lis) => lis.map((l) => l.textContent));

  // A Chinese browser: the page's labels, the checker's messages and the artifact are Chinese.
  const { page: zh, errors } = await open(undefined, "zh-CN");
  assert.equal(await zh.getAttribute("html", "lang"), "zh");
  assert.equal(await zh.inputValue("#lang"), "zh");
  assert.equal(await zh.textContent("#load-example"), "载入示例");
  await zh.click("#load-example");
  await zh.waitForSelector("body[data-shown]");
  assert.equal(await zh.textContent("#badge"), "部分成立");
  assert.deepEqual(await claimStates(zh), { claim_a: "审阅认为支持", claim_b: "审阅认为支持", choice: "审阅认为支持" });
  assert.equal(stripClock(await zh.textContent("#artifact-text")), stripClock(ec.checkBundle(example, { lang: "zh" }).artifact.content));
  await paste(zh, broken);
  await zh.waitForSelector("#errors:not([hidden])");
  assert.deepEqual(await errorItems(zh), violations("zh"));
  assert.match(await zh.textContent("#errors-summary"), /^粘贴的 JSON: /);

  // The switch: what is shown is shown again in English, labels included.
  await zh.selectOption("#lang", "en");
  await zh.waitForFunction(() => document.documentElement.lang === "en");
  assert.equal(await zh.textContent("#load-example"), "Load the example");
  await zh.waitForFunction((first) => document.querySelector("#errors:not([hidden]) #errors-list li")?.textContent === first, violations("en")[0]);
  assert.deepEqual(await errorItems(zh), violations("en"));
  await zh.click("#load-example");
  await zh.waitForSelector("body[data-shown]");
  assert.equal(stripClock(await zh.textContent("#artifact-text")), stripClock(ec.checkBundle(example, { lang: "en" }).artifact.content));
  assert.deepEqual(errors, []);

  // Any other browser language gives English.
  const { page: de } = await open(undefined, "de-DE");
  assert.equal(await de.getAttribute("html", "lang"), "en");
  await de.click("#load-example");
  await de.waitForSelector("body[data-shown]");
  assert.equal(await de.textContent("#badge"), "partial");
  assert.equal(stripClock(await de.textContent("#artifact-text")), stripClock(ec.checkBundle(example, { lang: "en" }).artifact.content));

  // The policy selector starts at the library's default: found here by what checkBundle
  // does, with no policy, with 13 claims (over the reference's 12, within documents').
  const many = readJson("examples", "demo.bundle.json");
  many.reviews = [];
  many.report.claims = Array.from({ length: 13 }, (_, k) => ({ ...many.report.claims[0], claim_id: `c${k}` }));
  let libraryDefault = "documents";
  try {
    ec.checkBundle(JSON.stringify(many));
  } catch (e) {
    assert.equal(e.issues?.[0]?.code, "too_long");
    libraryDefault = "reference";
  }
  assert.equal(libraryDefault, "documents");
  assert.equal(await de.inputValue("#policy"), libraryDefault);
  assert.match(await de.textContent(`#policy option[value=${libraryDefault}]`), /\(default\)/);
});

test("index.html is written in the page's English words (the page does not rewrite them at start in English)", async () => {
  const texts = (page) => page.evaluate(() => [document.title, ...[...document.querySelectorAll("[data-t]")].map((n) => n.innerHTML), ...[...document.querySelectorAll("#policy option")].map((o) => o.textContent)]);
  const context = await browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  await page.route(/\/app\.js$/, (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: "" }));
  await page.goto(server.url);
  const html = await texts(page);
  const { page: written } = await open();
  // The words applyLang writes in English (the selector's "(default)" mark set aside).
  await written.evaluate(() => document.getElementById("lang").dispatchEvent(new Event("change")));
  const words = (await texts(written)).map((t) => t.replace(/ \(default\)$/, ""));
  assert.deepEqual(html, words);
  await written.close();
  await context.close();
});

test("in Chromium the library itself follows navigator.language: English labels and messages under en-US, Chinese under zh-CN", async () => {
  const bundle = readJson("examples", "demo.bundle.json");
  bundle.reviews = [];
  const broken = structuredClone(bundle);
  broken.report.claims[1].citations[0].ref.revision = 7;
  // The web build in the page, called without a language.
  const run = (page) =>
    page.evaluate(async ([bundle, broken]) => {
      const ec = await import("./pkg/evidence_check.js");
      await ec.default();
      const messages = [];
      const caught = (f) => {
        try {
          f();
        } catch (e) {
          messages.push(e.message, ...(e.issues ?? []).map((i) => i.message));
        }
      };
      const result = ec.checkBundle(broken, { now: "2026-11-29T00:00:00+00:00" });
      messages.push(...result.assessment.issues.map((i) => i.message), result.render_error?.message);
      caught(() => ec.checkBundle({ ...bundle, report: { ...bundle.report, claims: [bundle.report.claims[0], bundle.report.claims[0]] } }));
      caught(() => new ec.EvidenceStore([]).ingest(bundle.scope, "nope", "x"));
      caught(() => ec.parseReport({ title: "", claims: [] }));
      const english = { ...bundle, sources: bundle.sources.map((s) => ({ ...s, spec: { ...s.spec, title: s.spec.source_id } })) };
      const artifact = ec.checkBundle({ ...english, report: { title: "t", claims: [{ claim_id: "k", text: "t", kind: "inference", rationale: "r", citations: [] }], gaps: ["g"] } }, { now: "2026-11-29T00:00:00+00:00" }).artifact.content;
      return { messages, artifact, language: navigator.language };
    }, [bundle, broken]);
  const CJK = /[\u4e00-\u9fff]/;
  const { page: en } = await open(undefined, "en-US");
  const e = await run(en);
  assert.equal(e.language, "en-US");
  assert.ok(e.messages.length >= 5, e.messages.join("\n"));
  for (const m of e.messages) assert.ok(!CJK.test(m), `en-US: ${m}`);
  assert.ok(!CJK.test(e.artifact), e.artifact);
  const { page: zh } = await open(undefined, "zh-CN");
  const z = await run(zh);
  assert.equal(z.language, "zh-CN");
  for (const m of z.messages) assert.ok(CJK.test(m), `zh-CN: ${m}`);
  assert.match(z.artifact, /\n- 缺口:|\n## /);
  assert.ok(CJK.test(z.artifact));
});

test("an importer's and the annotation reader's messages follow navigator.language, on the page and in the web build", async () => {
  const CJK = /[\u3400-\u4dbf\u4e00-\u9fff]/;
  const request = readFileSync(join(ROOT, "tests", "js", "fixtures", "anthropic", "request.json"));
  // A response whose citations the importer refuses: not an object, a document not in the
  // request, PDF pages of a text document.
  const broken = {
    type: "message",
    content: [
      { type: "text", text: "x", citations: [1, { type: "char_location", cited_text: "a", document_index: 9, start_char_index: 0, end_char_index: 1 }] },
      { type: "text", text: "y", citations: [{ type: "page_location", cited_text: "a", document_index: 0, start_page_number: 1, end_page_number: 2 }] },
    ],
  };
  const file = (name, buffer) => ({ name, mimeType: "application/json", buffer });
  // The web build without a language: an importer's and an annotation's errors.
  const library = (page) =>
    page.evaluate(async (broken) => {
      const ec = await import("./pkg/evidence_check.js");
      await ec.default();
      const messages = [];
      for (const f of [() => ec.fromAnthropicMessage({}, broken, { scope: { tenant_id: "t", user_id: "u" } }), () => ec.fromWebAnnotation({ id: "x" })]) {
        try {
          f();
          messages.push("no error");
        } catch (e) {
          messages.push(e.message, ...(e.issues ?? []).map((i) => i.message));
        }
      }
      return messages;
    }, broken);
  for (const [locale, lang] of [["en-US", "en"], ["zh-CN", "zh"]]) {
    const { page, errors } = await open(undefined, locale);
    await page.setInputFiles("#anthropic-files", [file("request.json", request), file("response.json", Buffer.from(JSON.stringify(broken)))]);
    await page.waitForSelector("#errors:not([hidden])");
    // The summary names the importer (a page label) before the library's message.
    const shown = [await page.textContent("#errors-summary"), ...(await page.$$eval("#errors-list li", (items) => items.map((li) => li.textContent)))];
    const called = await library(page);
    assert.ok(shown.length >= 4 && called.length >= 5 && !called.includes("no error"), [...shown, ...called].join("\n"));
    for (const m of [...shown, ...called]) {
      // Only the library's and the page's words are checked: the quoted input and the code stay.
      const words = m.replace(/"[^"]*"/g, "").replace(/\([a-z_]+\)$/, "");
      assert.ok(lang === "zh" ? CJK.test(words) && !/[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}/.test(words) : !CJK.test(words), `${locale}: ${m}`);
    }
    assert.deepEqual(errors, []);
  }
});

test("a large source: the check runs off the page's thread and only the lines in view become DOM nodes", { timeout: 180_000 }, async () => {
  const { page, errors } = await open();
  // The example with 200,000 more lines (about 5 MB) in plan_a, and a third claim citing
  // line 150,002 of it.
  const LINES = 200_000;
  const bundle = exampleBundle(ec, "large", Array.from({ length: LINES }, (_, k) => `padding line ${k + 1} of the large source\n`).join(""));
  const content = bundle.sources[0].content;
  const far = "padding line 150000 of the large source";
  const start = [...content.slice(0, content.indexOf(`${far}\n`))].length;
  const [cited] = bundle.report.claims[0].citations;
  bundle.report.claims.push({ claim_id: "far", text: "Far down.", kind: "fact", citations: [{ ...cited, citation_id: "c_far", start, end: start + far.length, quote: far }] });
  const text = JSON.stringify(bundle);
  assert.ok(text.length > 5_000_000, `${text.length} characters`);
  const node = ec.checkBundle(text, { policy: "documents", lang: PAGE_LANG });
  await page.selectOption("#policy", "documents");
  // Set at once (page.fill inserts 5.9 M characters as typed input: past its 30 s timeout
  // on a loaded machine).
  await page.$eval("#paste", (area, value) => (area.value = value), text);
  // The page's thread stays free while the bundle is checked: a timer set right after the
  // click fires before the verdict is shown (a check on this thread shows it first).
  const order = await page.evaluate(() => new Promise((done) => {
    const seen = [];
    const overview = document.getElementById("overview");
    const watch = new MutationObserver(() => {
      if (!overview.hidden) {
        watch.disconnect();
        seen.push("verdict");
        done(seen);
      }
    });
    watch.observe(overview, { attributes: true });
    document.getElementById("check").click();
    seen.push("clicked");
    setTimeout(() => seen.push("timer"), 0);
  }));
  assert.deepEqual(order, ["clicked", "timer", "verdict"]);
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.textContent("#badge"), "partial");
  assert.equal(node.assessment.status, "partial");
  assert.deepEqual(await claimStates(page), { claim_a: "pending review", claim_b: "pending review", choice: "pending review", far: "pending review" });
  // Lines as DOM nodes: a bounded window, not one per line of the source.
  const count = () => page.evaluate(() => ({ all: document.getElementsByTagName("*").length, lines: document.querySelectorAll("ol.lines > li").length }));
  const shown = await count();
  assert.ok(shown.lines <= 1_000, `${shown.lines} lines rendered of ${LINES}`);
  assert.ok(shown.all <= 5_000, `${shown.all} elements`);
  // On demand: the far citation's button brings its passage (and the lines around it) into view.
  await page.click("[data-claim=far] button.cite");
  await page.waitForSelector("#passage-3");
  assert.equal(await page.$eval("#passage-3", (m) => [m.textContent, document.activeElement === m, m.closest("ol").start + [...m.closest("ol").children].indexOf(m.closest("li"))]).then(String), [far, true, 150_002].map(String).join(","));
  const after = await count();
  assert.ok(after.lines <= 2_000 && after.all <= 6_000, JSON.stringify(after));
  // The digest shown is the whole source's.
  assert.equal(await page.textContent("article.source[data-source=plan_a] dl dd:last-of-type code"), ec.digestText(content));
  assert.deepEqual(errors, []);
});

/** The page's worker as this test serves it: www/check-worker.js itself, after a module
 * that, when a bundle holding SQUEEZE arrives, grows the worker's WebAssembly memory until
 * only the bundle's size and 256 KiB are left (pages grown and never touched cost no RAM).
 * The bundle's copy then fits and the check runs out of memory inside the module: a real
 * trap, through the worker's real imports. */
const SQUEEZE = "__squeeze_this_worker__";
const SQUEEZE_HOOK = `
const instantiate = WebAssembly.instantiate;
let memory;
let leave = null; // bytes to leave once the memory is there (a check may come before the module)
const squeeze = () => memory.grow(65536 - memory.buffer.byteLength / 65536 - Math.ceil(leave / 65536));
WebAssembly.instantiate = async function (...args) {
  const out = await instantiate.apply(this, args);
  memory = (out instanceof WebAssembly.Instance ? out : out.instance).exports.memory;
  if (leave !== null) squeeze();
  return out;
};
self.addEventListener("message", ({ data }) => {
  if (leave !== null || typeof data?.text !== "string" || !data.text.includes(${JSON.stringify(SQUEEZE)})) return;
  leave = data.text.length + (256 << 10);
  if (memory) squeeze();
});`;

test("a trap in the check's worker: a coded out_of_memory on the page, the worker replaced, the next bundle checked", { timeout: 180_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const worker = readFileSync(join(ROOT, "pkg", "www", "check-worker.js"), "utf8"); // as served
  const js = (body) => ({ status: 200, contentType: "text/javascript", body });
  await context.route(/\/check-worker\.js$/, (route) => route.fulfill(js('import "./squeeze-hook.js";\nimport "./check-worker.real.js";\n')));
  await context.route(/\/squeeze-hook\.js$/, (route) => route.fulfill(js(SQUEEZE_HOOK)));
  await context.route(/\/check-worker\.real\.js$/, (route) => route.fulfill(js(worker)));
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const workers = [];
  page.on("worker", (w) => {
    const seen = { closed: false };
    w.on("close", () => (seen.closed = true));
    workers.push(seen);
  });
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]");
  await page.selectOption("#policy", "documents");
  // Over the size the page checks on its own thread (about 1.3 M characters).
  const padding = Array.from({ length: 60_000 }, (_, k) => `padding line ${k + 1} of a source\n`).join("");
  const valid = exampleBundle(ec, "large", padding);
  const squeezed = { ...valid, report: { ...valid.report, gaps: [SQUEEZE] } };
  assert.ok(JSON.stringify(valid).length > 1 << 20);

  await paste(page, squeezed);
  await page.waitForSelector("#errors:not([hidden])");
  const listed = await page.$$eval("#errors-list li", (items) => items.map((li) => [li.dataset.code, li.textContent]));
  assert.equal(listed.length, 1, JSON.stringify(listed));
  assert.equal(listed[0][0], "out_of_memory", JSON.stringify(listed));
  assert.match(listed[0][1], /out of memory.*\(out_of_memory\)$/);
  assert.match(await page.textContent("#errors-summary"), /^the pasted JSON: out of memory/);

  // The same size again, valid: checked in a new worker (the trapped one, its memory
  // taken, would refuse to copy it).
  await paste(page, valid);
  await page.waitForSelector("body[data-shown]");
  assert.equal(await page.isHidden("#errors"), true);
  assert.equal(await page.textContent("#badge"), ec.checkBundle(JSON.stringify(valid), { policy: "documents", lang: PAGE_LANG }).assessment.status);
  assert.equal(workers.length, 2, "the trapped worker was replaced");
  assert.equal(workers[0].closed, true, "and ended");
  assert.deepEqual(errors, []);
  await context.close();
});
