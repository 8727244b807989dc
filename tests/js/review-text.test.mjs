// Reviews.add serialises its review in JS and passes the text (issue 15, r10-args): the
// glue, patched by js/entry-hook.mjs, calls js/entry-args.mjs's `reviewText` and passes
// the JSON text to the module, which read it before through eight imports. Every result
// and error must be the one the module's own reading gives: that reading is still the
// glue's path when `reviewText` says so (null), so a stub that always says so is the
// reference here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NOW, PKG, errorShape as shape, readJson } from "./helpers.mjs";
import { ASCII_LOOP, DATA_VIEW, patchGlue } from "../../js/entry-hook.mjs";

const require = createRequire(import.meta.url);
const NODE = join(PKG, "node");
const FILES = ["index.js", "extras.js", "evidence_check.js", "evidence_check_extras.js", "errors.js", "guard.js", "args.js"];

/** A fresh Node entry; with `asBefore`, its glue never takes the text path (`reviewText` always null). */
function load(asBefore) {
  for (const f of FILES) delete require.cache[require.resolve(join(NODE, f))];
  const args = require(join(NODE, "args.js"));
  const real = args.reviewText;
  let calls = 0;
  args.reviewText = (list, review) => {
    calls++;
    return asBefore ? null : real(list, review);
  };
  const ec = require(join(NODE, "index.js"));
  args.reviewText = real;
  return { ec, calls: () => calls };
}

const c = readJson("tests", "data", "reference", "cases", "02_demo_reviewed_render.json");
const scope = c.report_scope ?? c.scope;

/** Every kind of review: each made afresh per run (`ec`, a handle, a log of the caller's code run). */
function reviews(ec, report, log) {
  const made = c.reviews.map((r) => ec.recordReview(scope, report, r.claim_id, r.verdict, r.note, { now: NOW }));
  const [first] = made;
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  return {
    recorded: made[0],
    "recorded (second)": made[1],
    "recorded, changed": { ...first, note: `${first.note}!` },
    "recorded, keys reordered": Object.fromEntries(Object.entries(first).reverse()),
    "a bad verdict": { ...first, verdict: 7 },
    "a lone surrogate in the note": { ...first, note: "a\uD800b" },
    "an unknown field": { ...first, extra: 1 },
    undefined: undefined,
    null: null,
    "a number": 5,
    "a string (JSON text)": JSON.stringify(first),
    "a function": () => first,
    "a function with toJSON": Object.assign(() => 0, { toJSON: () => first }),
    "a symbol": Symbol("r"),
    "a bigint": 5n,
    "an array": [first],
    "toJSON throws": { toJSON() { log.push("toJSON throws"); throw new Error("no"); } },
    "toJSON gives nothing": { toJSON() { log.push("toJSON nothing"); } },
    "toJSON gives the review": { toJSON() { log.push("toJSON review"); return first; } },
    "a getter that throws": { ...first, get note() { log.push("getter"); throw new Error("no"); } },
    "a proxy": new Proxy(first, { ownKeys(t) { log.push("ownKeys"); return Reflect.ownKeys(t); } }),
    "a proxy whose keys throw": new Proxy({}, { ownKeys() { log.push("ownKeys throws"); throw new Error("no"); } }),
    "a revoked proxy": revoked.proxy,
    "over the input limit": { ...first, note: "x".repeat(16 * 1024 * 1024) },
  };
}

/** Adds every kind of review to a list in `ec`, and to a freed one, and off a list: every length, error and the caller's code run. */
function run(ec) {
  const report = ec.parseReport(JSON.stringify(c.report));
  const log = [];
  const out = {};
  const list = new ec.Reviews(undefined, { lang: "en" });
  const freed = new ec.Reviews();
  freed.free();
  const attempt = (f) => {
    try {
      return { value: f() };
    } catch (e) {
      return { thrown: shape(e, ec) };
    }
  };
  for (const [name, review] of Object.entries(reviews(ec, report, log))) {
    out[name] = [attempt(() => list.add(review)), attempt(() => freed.add(review)), attempt(() => ec.Reviews.prototype.add.call({}, review))];
  }
  out.assessment = attempt(() => ec.assess(scope, report, new ec.EvidenceStore(c.specs, { now: NOW }), list));
  out.list = JSON.stringify(list);
  out.log = log;
  return out;
}

test("Reviews.add gives the same lengths, lists, errors and runs the caller's code as often, as the module's own reading of every kind of review", () => {
  const fast = load(false);
  const got = run(fast.ec);
  assert.ok(fast.calls() > 40, `reviewText was called ${fast.calls()} times`);
  const before = load(true);
  const expected = run(before.ec);
  assert.ok(before.calls() > 40);
  for (const name of Object.keys(expected)) assert.equal(JSON.stringify(got[name]), JSON.stringify(expected[name]), name);
  // What the cases cover: reviews added, contract errors, each argument error.
  const seen = JSON.stringify(expected);
  for (const code of ['"value":', "invalid_argument", "invalid_unicode", "contract", "handle_freed", "input_too_large"]) assert.ok(seen.includes(code), code);
  assert.ok(got.recorded[0].value === 1 && got.list.length > 100);
});

test("a review passes to the module as its JSON text, once serialised", () => {
  const { ec } = load(false);
  const args = require(join(NODE, "args.js"));
  const report = ec.parseReport(JSON.stringify(c.report));
  const review = ec.recordReview(scope, report, c.reviews[0].claim_id, c.reviews[0].verdict, c.reviews[0].note, { now: NOW });
  const list = new ec.Reviews();
  assert.equal(args.reviewText(list, review), JSON.stringify(review));
  let calls = 0;
  assert.equal(list.add({ toJSON: () => (calls++, review) }), 1);
  assert.equal(calls, 1);
  assert.equal(args.reviewText(list, undefined), null);
  assert.equal(args.reviewText({}, review), null);
  assert.equal(args.copiedText("abc"), "abc");
  assert.equal(args.copiedText("x".repeat(16 * 1024 * 1024 + 1)), "");
});

test("the glue patch makes Reviews.add pass its review as text inline, drops __addText, and refuses glue it does not know", () => {
  for (const target of ["node", "web"]) {
    const text = readFileSync(join(PKG, target, "evidence_check.js"), "utf8");
    assert.ok(text.includes("const text = __ecReviewText(this, review);"), target);
    assert.ok(!text.includes("    __addText("), `${target}: __addText is still a method`);
    assert.ok(text.includes("passStringToWasm0(__ecCopiedText(text), "), target);
    const extras = readFileSync(join(PKG, target, "evidence_check_extras.js"), "utf8");
    assert.ok(!extras.includes("__ecReviewText") && !extras.includes("args.js"), `${target}: extras glue`);
  }
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-add-"));
  const glue = join(dir, "glue.js");
  const addText = (copy) => `    /**\n     * x\n     * @returns {number}\n     */\n    __addText(text, units) {\n        const val2 = +units;\n        const ptr0 = ${copy}(text, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);\n        const len0 = WASM_VECTOR_LEN;\n        const ret = wasm.reviews___addText(this.__wbg_ptr, ptr0, len0, val2);\n        if (ret[2]) {\n            throw takeFromExternrefTable0(ret[1]);\n        }\n\n        return ret[0] >>> 0;\n    }\n`;
  const add = "    add(review) {\n        const ret = wasm.reviews_add(this.__wbg_ptr, review);\n        return ret[0] >>> 0;\n    }\n";
  const glueWith = (methods) => `/* header */\nclass Reviews {\n${methods}}\nfunction passStringToWasm0(arg) {\n${ASCII_LOOP}\n    }\n}\n${DATA_VIEW}\n`;
  writeFileSync(glue, glueWith(addText("passStringToWasm0") + add));
  patchGlue(glue, false);
  const patched = readFileSync(glue, "utf8");
  assert.match(patched, /\nconst \{ reviewText: __ecReviewText, copiedText: __ecCopiedText \} = require\("\.\/args\.js"\);\n/);
  assert.ok(!patched.includes("    __addText(") && !patched.includes("* x\n"), patched);
  const method = patched.slice(patched.indexOf("    add(review) {"), patched.indexOf("\n}\nfunction passStringToWasm0"));
  assert.equal(method.split("\n").filter((l) => !l.includes("Patched by")).join("\n"), [
    "    add(review) {",
    "        const text = __ecReviewText(this, review);",
    '        if (typeof text === "string") {',
    "            const units = text.length;",
    "            const val2 = +units;",
    "            const ptr0 = passStringToWasm0(__ecCopiedText(text), wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);",
    "            const len0 = WASM_VECTOR_LEN;",
    "            const ret = wasm.reviews___addText(this.__wbg_ptr, ptr0, len0, val2);",
    "            if (ret[2]) {",
    "                throw __ecFinishError(takeFromExternrefTable0(ret[1]));",
    "            }",
    "",
    "            return ret[0] >>> 0;",
    "        }",
    "        if (text !== null) review = text;",
    "        const ret = wasm.reviews_add(this.__wbg_ptr, review);",
    "        return ret[0] >>> 0;",
    "    }",
  ].join("\n"));
  // Glue of another shape is refused, not half patched; glue without __addText is left as it is.
  writeFileSync(glue, glueWith(addText("copy") + add));
  assert.throws(() => patchGlue(glue, false), /no __addText/);
  writeFileSync(glue, glueWith(addText("passStringToWasm0")));
  assert.throws(() => patchGlue(glue, false), /no Reviews\.add/);
  writeFileSync(glue, glueWith(add.replace("        return", "        if (ret[2]) {\n            throw takeFromExternrefTable0(ret[1]);\n        }\n        return")));
  patchGlue(glue, true);
  assert.match(readFileSync(glue, "utf8"), /throw __ecFinishError/);
  assert.ok(!readFileSync(glue, "utf8").includes("args.js"));
});
