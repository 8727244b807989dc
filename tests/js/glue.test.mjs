// The wasm-bindgen glue as js/entry-hook.mjs patches it (issue 15, the step-by-step
// replay): strings passed in are encoded natively, and thrown errors are made in JS.
//
// Thrown errors made in JS: the entries register
// `errorData`, the module throws an error's data, and the glue (patched at assembly by
// js/entry-hook.mjs) makes the error through errors.js's `finishError` once the module has
// returned, so V8 does not capture the wasm frames. Every error is the one the module
// made itself before: the same class, message, code and properties in the same order;
// and the caller's frame is in `stack`, no wasm frame.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NOW, PKG, ROOT, errorShape as shape, readJson } from "./helpers.mjs";
import { ASCII_LOOP, DATA_VIEW, patchGlue } from "../../js/entry-hook.mjs";
import crypto from "node:crypto";

const require = createRequire(import.meta.url);
const NODE = join(PKG, "node");
const FILES = ["index.js", "extras.js", "evidence_check.js", "evidence_check_extras.js", "errors.js", "guard.js"];

/** A fresh instance of a Node entry (its own wasm instance and registrations). */
function fresh(entry) {
  for (const f of FILES) delete require.cache[require.resolve(join(NODE, f))];
  return require(join(NODE, entry));
}

/** The raw modules with the error classes registered as before: errors made inside wasm. */
function inWasm() {
  const main = fresh("evidence_check.js");
  const extras = require(join(NODE, "evidence_check_extras.js"));
  const classes = require(join(NODE, "errors.js"));
  for (const m of [main, extras]) m.__registerErrorClasses(classes.EvidenceCheckError, classes.ContractError, classes.EvidenceError);
  return { main, extras, classes };
}

/** The package's entries, as a user loads them. */
function entries() {
  const main = fresh("index.js");
  return { main, extras: require(join(NODE, "extras.js")), classes: main };
}

/** Every output of a golden case step by step (handles and plain objects), errors as their shapes. */
function replay({ main: ec, classes }, c) {
  const out = [];
  const rec = (f) => {
    try {
      const v = f();
      out.push(v instanceof ec.ReportHandle || v instanceof ec.Reviews || v instanceof ec.EvidenceStore ? "handle" : v ?? null);
      return v;
    } catch (e) {
      out.push({ thrown: shape(e, classes) });
      return undefined;
    }
  };
  const store = rec(() => new ec.EvidenceStore(c.specs ?? [], { now: NOW }));
  if (!store) return out;
  for (const step of c.ingest ?? []) rec(() => (step.remove ? store.remove(c.scope, step.remove) : step.read_result ? store.ingestReadResult(c.scope, step.source_id, step.read_result) : store.ingest(c.scope, step.source_id, step.content)));
  for (const id of c.remove ?? []) rec(() => store.remove(c.scope, id));
  if (c.report !== undefined) {
    const scope = c.report_scope ?? c.scope;
    const handle = rec(() => ec.parseReport(JSON.stringify(c.report)));
    const list = rec(() => new ec.Reviews());
    const plain = [];
    for (const r of c.reviews ?? []) {
      const review = rec(() => ec.recordReview(r.scope ?? scope, r.report ?? handle ?? c.report, r.claim_id, r.verdict, r.note, { now: NOW }));
      if (review) {
        plain.push(review);
        rec(() => list.add(review));
      }
      rec(() => list.add({ ...r, verdict: 7 }));
    }
    for (const [report, reviews] of [[handle ?? c.report, list], [c.report, plain]]) {
      rec(() => ec.assess(scope, report, store, reviews));
      if (c.render) rec(() => ec.render(scope, report, store, reviews, { now: NOW }));
    }
    handle?.free();
    rec(() => handle?.digest);
    rec(() => ec.assess(scope, handle ?? c.report, store, list));
  }
  store.free();
  rec(() => store.ingest(c.scope, "x", "y"));
  return out;
}

const golden = readJson("tests", "data", "golden-all.json");
const cases = Object.values(golden).flatMap((set) => Object.entries(set));

test("every golden case step by step throws the same errors as errors made inside wasm", () => {
  const entry = entries();
  const wasm = inWasm();
  assert.ok(cases.length >= 52, `${cases.length} golden cases`);
  let thrown = 0;
  for (const [name, { case: c }] of cases) {
    const fast = replay(entry, c);
    // As text: deepEqual ignores the order of keys, which the CLI's JSON output shows.
    assert.equal(JSON.stringify(fast), JSON.stringify(replay(wasm, c)), name);
    thrown += fast.filter((x) => x?.thrown).length;
  }
  assert.ok(thrown >= 200, `only ${thrown} errors thrown over every case`);
});

test("finishError makes what its class's constructor makes at the same place: the prototype, every own property and descriptor in order, the same stack", () => {
  const classes = require(join(NODE, "errors.js"));
  const madeAt = (make) => make();
  for (const [contract, Class, props] of [
    [true, classes.ContractError, [["issues", [{ path: "/claims", code: "too_long", message: "m" }]], ["subject", "report"]]],
    [false, classes.EvidenceError, [["source_id", "s"], ["offset", 3]]],
  ]) {
    const data = classes.errorData(contract, JSON.stringify(["the message", "some_code", props]));
    const viaFinish = () => classes.finishError(data);
    const viaClass = () => {
      const e = new Class("the message", "some_code");
      for (const [k, v] of props) e[k] = v;
      return e;
    };
    // Both made one call below the same frame (`madeAt`, from the same call site), every frame kept.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Infinity;
    let made, expected;
    try {
      [made, expected] = [viaFinish, viaClass].map((make) => madeAt(make));
    } finally {
      Error.stackTraceLimit = limit;
    }
    assert.equal(Object.getPrototypeOf(made), Class.prototype);
    const described = (e) => Reflect.ownKeys(e).map((k) => {
      const { value, ...rest } = Object.getOwnPropertyDescriptor(e, k);
      return [k, k === "stack" ? typeof value : value, rest];
    });
    assert.deepEqual(described(made), described(expected));
    assert.equal(made.toString(), expected.toString());
    // The frames below the maker's own: the same lines, nothing of the constructors.
    const below = (e, maker) => e.stack.split("\n").filter((l) => !l.includes(maker) && !l.includes("finishError"));
    assert.deepEqual(below(made, "viaFinish"), below(expected, "viaClass"));
    assert.match(made.stack, /^ContractError: the message\n|^EvidenceError: the message\n/);
    assert.match(made.stack, /\n\s+at (Object\.)?finishError .*\n\s+at viaFinish .*\n\s+at madeAt /);
  }
});

/** Calls of every kind that throw: functions, methods, constructors, getters, both entries. */
const throwers = {
  "parseReport (contract)": ({ main }) => main.parseReport('{"title": 1, "claims": []}'),
  "parseReport (JSON)": ({ main }) => main.parseReport("{"),
  "an option": ({ main }) => main.parseReport("{}", { lang: "fr" }),
  "a constructor": ({ main }) => new main.EvidenceStore(Array.from({ length: 17 }, (_, i) => ({ source_id: `s${i}`, title: "T", locator: "x:y", filename: "a.md", kind: "public" }))),
  "a method (detail)": ({ main }) => new main.EvidenceStore([{ source_id: "s", title: "T", locator: "x:y", filename: "a.md", kind: "public" }], { maxSourceBytes: 4 }).ingest({ tenant_id: "t", user_id: "u" }, "s", "too long"),
  "a getter": ({ main }) => {
    const h = main.parseReport(JSON.stringify(readJson("tests", "data", "reference", "cases", "02_demo_reviewed_render.json").report));
    h.free();
    return h.digest;
  },
  "Reviews.add": ({ main }) => new main.Reviews().add({ claim_id: "c" }),
  "extras: a function": ({ extras }) => extras.reportJsonSchema({ dialect: "nope" }),
  "extras: a constructor": ({ extras }) => new extras.DocumentCatalog(5),
};

test("an error made in JS has its class, code, message, properties and the caller's frame in its stack, no wasm frame", () => {
  const entry = entries();
  const wasm = inWasm();
  for (const [name, call] of Object.entries(throwers)) {
    let caught;
    // A named caller whose frame the stack must show.
    const theCallersOwnFrame = () => call(entry);
    try {
      theCallersOwnFrame();
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof entry.main.EvidenceCheckError, `${name}: ${caught}`);
    assert.match(caught.code, /^[a-z_]+$/, name);
    assert.match(caught.stack, new RegExp(`^${caught.name}: `), name);
    assert.match(caught.stack, /theCallersOwnFrame/, `${name}: the caller's frame is not in the stack`);
    assert.doesNotMatch(caught.stack, /wasm/, `${name}: the stack has wasm frames: the error was made inside the module`);
    let before;
    try {
      call(wasm);
    } catch (e) {
      before = e;
    }
    assert.deepEqual(shape(caught, entry.classes), shape(before, wasm.classes), name);
    if (caught instanceof entry.main.ContractError) assert.ok(Array.isArray(caught.issues) && typeof caught.subject === "string", name);
  }
});

test("the glue patch makes every throw site go through finishError, once, and refuses glue it does not know", () => {
  for (const f of ["evidence_check.js", "evidence_check_extras.js"]) {
    for (const target of ["node", "web"]) {
      const text = readFileSync(join(PKG, target, f), "utf8");
      assert.equal((text.match(/throw take/g) ?? []).length, 0, `${target}/${f} has an unpatched throw site`);
      assert.ok(!text.includes(ASCII_LOOP) && text.includes("const head = cachedTextEncoder.encodeInto("), `${target}/${f}: passStringToWasm0 is not patched`);
      assert.ok(!text.includes(DATA_VIEW) && text.includes("cachedDataViewBuffer0.byteLength === 0"), `${target}/${f}: getDataViewMemory0 is not patched`);
      assert.ok((text.match(/throw __ecFinishError\(takeFromExternrefTable0\(ret\[\d\]\)\);/g) ?? []).length >= 10, `${target}/${f}`);
    }
  }
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-glue-"));
  const glue = join(dir, "glue.js");
  const original = `/* header */\nfunction f() {\n    if (ret[2]) {\n        throw takeFromExternrefTable0(ret[1]);\n    }\n}\nfunction passStringToWasm0() {\n${ASCII_LOOP}\n    }\n}\n${DATA_VIEW}\n`;
  writeFileSync(glue, original);
  patchGlue(glue, false);
  const once = readFileSync(glue, "utf8");
  assert.match(once, /^\/\* header \*\/\n.*\nconst \{ finishError: __ecFinishError \} = require\("\.\/errors\.js"\);\n/);
  assert.match(once, /throw __ecFinishError\(takeFromExternrefTable0\(ret\[1\]\)\);/);
  assert.match(once, /cachedTextEncoder\.encodeInto\(arg, mem\.subarray\(ptr, ptr \+ len\)\)/);
  patchGlue(glue, false);
  assert.equal(readFileSync(glue, "utf8"), once, "patching twice changed the glue");
  writeFileSync(glue, original.replace("takeFromExternrefTable0(ret[1])", "takeObject(ret[1])"));
  assert.throws(() => patchGlue(glue, true), /no throw site/);
  writeFileSync(glue, original.replace("if (code > 0x7F) break;", "if (code >= 0x80) break;"));
  assert.throws(() => patchGlue(glue, true), /no passStringToWasm0/);
  writeFileSync(glue, original.replace("cachedDataViewMemory0.buffer !== wasm.memory.buffer", "true"));
  assert.throws(() => patchGlue(glue, true), /no getDataViewMemory0/);
  writeFileSync(glue, once.replace("strings are encoded natively", "an older patch"));
  assert.throws(() => patchGlue(glue, true), /another version/);
  assert.ok(ROOT);
});

test("the data view of the glue follows the memory as it grows (strings and numbers passed after each growth)", async () => {
  // Each call passes strings through the view (their pointers and lengths); a view of the
  // buffer the memory outgrew would throw on a detached buffer or write where no one reads.
  const check = (ec, label) => {
    const spec = { source_id: "s", title: "T", locator: "x:y", filename: "a.md", kind: "public" };
    const store = new ec.EvidenceStore([spec], { maxSourceBytes: 64 << 20, now: NOW });
    const scope = { tenant_id: "t", user_id: "u" };
    for (let round = 0; round < 3; round++) {
      const before = ec.wasmMemoryBytes();
      // As long as the whole memory: it grows in steps of a quarter of itself or more
      // (src/alloc.rs), so what the last step left free may hold half of it.
      const text = `${round}`.repeat(before + 4096);
      store.ingest(scope, "s", text);
      assert.ok(ec.wasmMemoryBytes() > before, `${label}: round ${round}: the memory did not grow`);
      const digest = crypto.createHash("sha256").update(`é${round}`).digest("hex");
      assert.equal(ec.digestText(`é${round}`), digest, `${label}: round ${round}`);
      assert.equal(store.quoteRange(scope, store.ingest(scope, "s", `ab${round}cd`), 2, 3, "c1").quote, `${round}`, `${label}: round ${round}`);
    }
    store.free();
  };
  check(entries().main, "node");
  const web = await import(join(PKG, "web", "index.js"));
  web.initSync({ module: readFileSync(join(PKG, "web", "evidence_check_bg.wasm")) });
  check(web, "web");
});

test("the web entries (ES modules) make their errors in JS too", async () => {
  const main = await import(join(PKG, "web", "index.js"));
  main.initSync({ module: readFileSync(join(PKG, "web", "evidence_check_bg.wasm")) });
  const extras = await import(join(PKG, "web", "extras.js"));
  extras.initSync({ module: readFileSync(join(PKG, "web", "evidence_check_extras_bg.wasm")) });
  for (const [name, call] of Object.entries(throwers)) {
    let caught;
    const theCallersOwnFrame = () => call({ main, extras });
    try {
      theCallersOwnFrame();
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof main.EvidenceCheckError && caught instanceof extras.EvidenceCheckError, `${name}: ${caught}`);
    assert.match(caught.stack, /theCallersOwnFrame/, name);
    assert.doesNotMatch(caught.stack, /wasm/, name);
  }
});

test("a string passed into the module arrives as its UTF-8 bytes, whatever its characters and where they fall", () => {
  const { main: ec } = entries();
  const wasm = inWasm().main;
  const pieces = ["a", "é", "中", "😀", "\u0000", "\uFFFD", "\u2028"];
  let n = 0;
  // A non-ASCII character at every position of texts up to 160 units, so that the native
  // encoder's first pass stops at every offset of the first allocation (one byte a unit).
  for (let len = 0; len < 160; len += 3) {
    for (const piece of pieces) {
      for (let at = 0; at <= len; at += 5) {
        const text = "y".repeat(at) + piece + "z".repeat(len - at) + (len % 2 ? "中😀" : "");
        const digest = ec.digestText(text);
        assert.equal(digest, crypto.createHash("sha256").update(text, "utf8").digest("hex"), JSON.stringify(text));
        n++;
      }
    }
    const title = "标题 ".repeat(len % 40) + "😀";
    assert.equal(ec.parseReport(JSON.stringify({ title, claims: [{ claim_id: "c", text: "t", kind: "fact", citations: [] }] })).title, title);
  }
  assert.ok(n > 1000);
  // A lone surrogate is still refused, as without the patch.
  for (const text of ["a\uD800b", "中\uDC00", "\uD83D"]) {
    for (const m of [ec, wasm]) assert.throws(() => m.digestText(text), (e) => e.code === "invalid_unicode", JSON.stringify(text));
  }
});

/** A golden case's store, report handle and reviews in module `ec`, for one render. */
function rendered(ec, name) {
  const c = readJson("tests", "data", "reference", "cases", name);
  const store = new ec.EvidenceStore(c.specs ?? [], { now: NOW });
  for (const step of c.ingest ?? []) store.ingest(c.scope, step.source_id, step.content);
  const scope = c.report_scope ?? c.scope;
  const report = ec.parseReport(JSON.stringify(c.report));
  return { artifact: ec.render(scope, report, store, undefined, { now: NOW }), assessment: ec.assess(scope, report, store) };
}

/** The Node entry loaded afresh with errors.js's `jsonFromUtf16Buffer` (the reader it
 * registers) counted: `seen` gets `[units, asText, at, nested]` for each call. */
function entryCountingUtf16() {
  fresh("index.js");
  const classes = require(join(NODE, "errors.js"));
  const reader = classes.jsonFromUtf16Buffer;
  const seen = [];
  classes.jsonFromUtf16Buffer = (units, asText, at, nested) => {
    seen.push([units.length, asText, at, nested]);
    return reader(units, asText, at, nested);
  };
  for (const f of FILES.filter((f) => f !== "errors.js")) delete require.cache[require.resolve(join(NODE, f))];
  const ec = require(join(NODE, "index.js"));
  classes.jsonFromUtf16Buffer = reader;
  return { ec, classes, seen };
}

test("a result with 1 KiB or more of JSON and non-ASCII text crosses as UTF-16 code units, and is the same value", async () => {
  // The Node entry registers errors.js's `jsonFromUtf16Buffer`: count its calls.
  const { ec, classes, seen } = entryCountingUtf16();
  const name = "06_all_supported_render.json";
  const fast = rendered(ec, name);
  assert.match(fast.artifact.content, /逐项论断/);
  // The artifact's Markdown (2.4 KB of UTF-8, Chinese) crossed as UTF-16 in one call
  // with the JSON text of the rest of the artifact (`at` its length, the Markdown set as
  // `content`); the assessment is shorter.
  assert.equal(seen.length, 1, `jsonFromUtf16Buffer calls: ${seen}`);
  const rest = JSON.stringify({ ...fast.artifact, content: "" }).length;
  assert.deepEqual(seen[0], [rest + fast.artifact.content.length, false, rest, false]);
  assert.ok(fast.artifact.content.length >= 1024);
  // The same value, key order included, as the module's own JSON.parse of UTF-8 (the raw
  // module, nothing registered) and as the web entry's TextDecoder reader.
  const utf8 = rendered(inWasm().main, name);
  assert.equal(JSON.stringify(fast), JSON.stringify(utf8));
  const web = await import(join(PKG, "web", "index.js"));
  web.initSync({ module: readFileSync(join(PKG, "web", "evidence_check_bg.wasm")) });
  assert.equal(JSON.stringify(rendered(web, name)), JSON.stringify(utf8));
  // Both readers, on every kind of character: astral (a surrogate pair), U+2028, U+FEFF
  // in strings, the last code point; and on a view that starts inside its buffer.
  const text = JSON.stringify({ "\uFEFF键": ["\uFEFF", "😀 𝄞", "\u2028", "\u{10FFFF}", "中".repeat(600)] });
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  for (const read of [classes.jsonFromUtf16, classes.jsonFromUtf16Buffer]) {
    assert.equal(JSON.stringify(read(units.subarray(0))), text);
    assert.equal(JSON.stringify(read(new Uint16Array(units.buffer, 2 * text.indexOf("["), text.length - text.indexOf("[") - 1))), text.slice(text.indexOf("["), -1));
  }
});

test("checkBundle's artifact Markdown crosses as a string of its own (UTF-16, not in the JSON), and the result is the same value", async () => {
  const { ec, classes, seen } = entryCountingUtf16();
  // The demo, and a bundle whose artifact has astral characters, U+2028 and U+FEFF.
  const demo = readFileSync(join(ROOT, "examples", "demo.bundle.json"), "utf8");
  const odd = JSON.parse(demo);
  odd.report.title = `\uFEFF😀 𝄞 \u2028 \u{10FFFF} ${odd.report.title}`;
  for (const bundle of [demo, JSON.stringify(odd)]) {
    seen.length = 0;
    const fast = ec.checkBundle(bundle, { now: NOW });
    // One call: the JSON text of the rest of the result (holding the Markdown as "", its
    // length that of the result without it) and the Markdown after it, both as UTF-16; the
    // reader set the Markdown as the artifact's `content`.
    const rest = JSON.stringify({ ...fast, artifact: { ...fast.artifact, content: "" } }).length;
    assert.deepEqual(seen, [[rest + fast.artifact.content.length, false, rest, true]]);
    assert.match(fast.artifact.content, /逐项论断/);
    // The same value, key order included, as the raw module's (nothing registered: all
    // of it in one JSON text) and the web entry's (TextDecoder).
    const utf8 = inWasm().main.checkBundle(bundle, { now: NOW });
    assert.equal(JSON.stringify(fast), JSON.stringify(utf8));
    assert.deepEqual(Object.keys(fast.artifact), ["content", "content_digest", "report_digest", "status"]);
    const web = await import(join(PKG, "web", "index.js"));
    web.initSync({ module: readFileSync(join(PKG, "web", "evidence_check_bg.wasm")) });
    assert.equal(JSON.stringify(web.checkBundle(bundle, { now: NOW })), JSON.stringify(utf8));
  }
  assert.ok(ec.checkBundle(JSON.stringify(odd), { now: NOW }).artifact.content.startsWith("# ⟦U+FEFF⟧😀 𝄞 \u{10FFFF} "));
  // Both readers give the text itself with `asText`.
  const text = "\uFEFF键 😀 𝄞 \u2028 \u{10FFFF} " + "中".repeat(600);
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  for (const read of [classes.jsonFromUtf16, classes.jsonFromUtf16Buffer]) assert.equal(read(units, true), text);
  // And with `at`, the JSON text before it parsed and the text after it set as `content`
  // (of `artifact` when `nested`), on a view that starts inside its buffer.
  const json = JSON.stringify({ a: "\u2028键", artifact: { content: "", b: 1 }, content: "" });
  const both = new Uint16Array(3 + json.length + text.length);
  for (let i = 0; i < json.length; i++) both[3 + i] = json.charCodeAt(i);
  for (let i = 0; i < text.length; i++) both[3 + json.length + i] = text.charCodeAt(i);
  for (const read of [classes.jsonFromUtf16, classes.jsonFromUtf16Buffer]) {
    const view = both.subarray(3);
    const nested = read(view, false, json.length, true);
    assert.equal(JSON.stringify(nested), JSON.stringify({ a: "\u2028键", artifact: { content: text, b: 1 }, content: "" }));
    const top = read(view, false, json.length, false);
    assert.equal(JSON.stringify(top), JSON.stringify({ a: "\u2028键", artifact: { content: "", b: 1 }, content: text }));
  }
});
