// The copy into wasm memory (issue 15, scale): `checkBundle` and `parseBundle` take a
// bundle as UTF-8 bytes (a Uint8Array or Buffer) as well as JSON text or an object, with
// the same result. Invalid UTF-8 is refused with `invalid_unicode` and its byte offset; a
// leading BOM is dropped (as TextDecoder drops it); a lone surrogate in a string is still
// refused, in short and long strings, ASCII or not (an all-ASCII string skips the U+FFFD
// search).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { NOW, PKG, readJson } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const ec = require(join(PKG, "node", "index.js"));

/** What a call gave: its result, or its error's class, code, message, issues and offset. */
function outcome(f) {
  try {
    return { ok: f() };
  } catch (e) {
    return { error: { name: e.name, code: e.code, message: e.message, issues: e.issues, offset: e.offset } };
  }
}

/** A bundle made of a golden case: its scope, its specs with the last text ingested for each, its report and reviews. */
function bundleOf(c) {
  const content = {};
  for (const step of c.ingest ?? []) if (typeof step.content === "string") content[step.source_id] = step.content;
  const sources = (c.specs ?? []).map((spec) => ({ spec, content: content[spec.source_id] ?? "text" }));
  return { scope: c.scope, sources, report: c.report ?? { title: "t", claims: [] }, ...(c.reviews ? { reviews: c.reviews } : {}) };
}

const golden = readJson("tests", "data", "golden-all.json");
const bundles = Object.entries(golden).flatMap(([set, cases]) => Object.entries(cases).map(([name, e]) => [`${set}/${name}`, bundleOf(e.case)]));
bundles.push(["examples/demo.bundle.json", readJson("examples", "demo.bundle.json")]);
// Long texts (JSON whitespace after the value): thousands of UTF-16 units.
const PAD = " ".repeat(5000);
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

test("every golden bundle and the demo: bytes, long text and a BOM give what the text gives", () => {
  assert.ok(bundles.length >= 53, `${bundles.length} bundles`);
  let checked = 0;
  for (const [name, bundle] of bundles) {
    for (const text of [JSON.stringify(bundle), JSON.stringify(bundle, null, 2).replace(/\n/g, "\r\n")]) {
      for (const [call, options] of [[ec.checkBundle, { now: NOW }], [ec.checkBundle, { now: NOW, lang: "en" }], [ec.parseBundle, undefined]]) {
        const expected = outcome(() => call(text, options));
        if (expected.ok) checked++;
        for (const [form, input] of [
          ["long text", text + PAD],
          ["bytes", Buffer.from(text)],
          ["long bytes", new Uint8Array(Buffer.from(text + PAD))],
          ["bytes after a BOM", Buffer.concat([BOM, Buffer.from(text)])],
        ]) {
          assert.deepEqual(outcome(() => call(input, options)), expected, `${name}, ${call.name}, ${form}`);
        }
      }
    }
  }
  assert.ok(checked >= 60, `only ${checked} calls succeeded`);
});

test("bytes that are not UTF-8 throw invalid_unicode with the offset of the first bad byte", () => {
  const text = Buffer.from(JSON.stringify(readJson("examples", "demo.bundle.json")));
  const at = text.indexOf("方案");
  const cases = [
    ["a stray continuation byte", Buffer.concat([text.subarray(0, at), Buffer.from([0x80]), text.subarray(at)]), at],
    ["0xFF", Buffer.concat([text.subarray(0, at), Buffer.from([0xff]), text.subarray(at)]), at],
    ["a character cut short", Buffer.concat([text.subarray(0, at), text.subarray(at, at + 2), text.subarray(at + 3)]), at],
    ["an encoded surrogate", Buffer.concat([text.subarray(0, at), Buffer.from([0xed, 0xa0, 0x80]), text.subarray(at)]), at],
    ["an overlong encoding", Buffer.concat([text.subarray(0, at), Buffer.from([0xc0, 0xaf]), text.subarray(at)]), at],
    ["a cut character at the end", text.subarray(0, at + 1), at],
    ["after a BOM (counted)", Buffer.concat([BOM, text.subarray(0, at), Buffer.from([0xff]), text.subarray(at)]), at + 3],
  ];
  for (const [what, bytes, offset] of cases) {
    for (const [call, options] of [[ec.checkBundle, { now: NOW, lang: "en" }], [ec.parseBundle, { lang: "en" }]]) {
      const { error } = outcome(() => call(bytes, options));
      assert.ok(error, `${what}: accepted`);
      assert.equal(error.code, "invalid_unicode", what);
      assert.equal(error.name, "EvidenceError", what);
      assert.equal(error.offset, offset, what);
      assert.match(error.message, new RegExp(`^bundle is not valid UTF-8: the bytes from offset ${offset} `), what);
    }
  }
  // The same bytes with a replacement character where the bad byte was are a bundle.
  const fixed = Buffer.concat([text.subarray(0, at), Buffer.from("\ufffd"), text.subarray(at)]);
  assert.equal(outcome(() => ec.parseBundle(fixed)).error?.code, undefined);
});

test("bytes over the input limit are refused before they are read, counted without a BOM", () => {
  const text = Buffer.from(JSON.stringify(readJson("examples", "demo.bundle.json")));
  const refused = outcome(() => ec.checkBundle(text, { now: NOW, maxInputBytes: text.length - 1 }));
  assert.equal(refused.error?.issues?.[0]?.code, "input_too_large");
  assert.match(refused.error.issues[0].message, new RegExp(`${text.length} bytes`));
  assert.ok(outcome(() => ec.checkBundle(Buffer.concat([BOM, text]), { now: NOW, maxInputBytes: text.length })).ok);
  // The same refusal as the same bundle given as text: subject, message, hint.
  const asText = outcome(() => ec.checkBundle(text.toString("utf8"), { now: NOW, maxInputBytes: text.length - 1 }));
  assert.deepEqual({ ...refused.error, offset: undefined }, { ...asText.error, offset: undefined });
  for (const bytes of [text, Buffer.concat([BOM, text])]) {
    const e = (() => { try { ec.parseBundle(bytes, { maxInputBytes: text.length - 1 }); } catch (err) { return err; } })();
    assert.equal(e?.subject, "bundle");
  }
});

test("a hostile or foreign view: read by its internal slots or refused with a code; the instance survives", async () => {
  const { runInNewContext } = await import("node:vm");
  const demo = Buffer.from(JSON.stringify(readJson("examples", "demo.bundle.json")));
  const expected = ec.checkBundle(demo, { now: NOW });
  // A Uint8Array of another realm (a vm context, as test runners make) is bytes too.
  const foreign = runInNewContext("new Uint8Array(n)", { n: demo.length });
  foreign.set(demo);
  assert.deepEqual(ec.checkBundle(foreign, { now: NOW }), expected);
  // A view with a byteOffset into a larger buffer reads only its own bytes.
  const big = new Uint8Array(demo.length + 20).fill(0x7b);
  big.set(demo, 10);
  assert.deepEqual(ec.checkBundle(big.subarray(10, 10 + demo.length), { now: NOW }), expected);
  // Own properties that shadow the view's getters are not what is read.
  const shadowed = new Uint8Array(demo);
  for (const key of ["length", "byteLength", "byteOffset", "buffer", "subarray"]) Object.defineProperty(shadowed, key, { get() { throw new Error("boom"); } });
  Object.defineProperty(shadowed, Symbol.toStringTag, { value: "Uint16Array" });
  assert.deepEqual(ec.checkBundle(shadowed, { now: NOW }), expected);
  // Other views are refused as such, naming what was given.
  for (const [view, kind] of [[new Uint16Array(4), "Uint16Array"], [new Uint8ClampedArray(demo), "Uint8ClampedArray"], [new DataView(demo.buffer), "DataView"]]) {
    const e = outcome(() => ec.checkBundle(view, { now: NOW })).error;
    assert.equal(e?.code, "invalid_argument", kind);
    assert.match(e.message, new RegExp(`not a ${kind}`));
  }
  // A detached buffer reads as no bytes (a coded contract error), thousands of times,
  // and the instance still checks, with its memory unchanged.
  const detached = () => {
    const u = new Uint8Array(8);
    structuredClone(u.buffer, { transfer: [u.buffer] });
    return u;
  };
  const before = ec.wasmMemoryBytes();
  for (let i = 0; i < 3000; i++) assert.equal(outcome(() => ec.checkBundle(detached(), { now: NOW })).error?.code, "contract");
  assert.deepEqual(ec.checkBundle(demo, { now: NOW }), expected);
  assert.equal(ec.wasmMemoryBytes(), before);
});

test("a lone surrogate in a string is refused, short or long; a real U+FFFD is text", () => {
  const bundle = readJson("examples", "demo.bundle.json");
  for (const pad of ["", PAD]) {
    for (const bad of ["\ud800", "\udc00x", "a\ud83d"]) {
      const b = structuredClone(bundle);
      b.sources[0].content += bad;
      // JSON.stringify escapes a lone surrogate; put it in the text raw.
      const text = JSON.stringify(b).replace(/\\ud[89a-f][0-9a-f]{2}/g, (m) => JSON.parse(`"${m}"`)) + pad;
      assert.ok(!text.isWellFormed(), "the text holds a lone surrogate");
      for (const [call, options] of [[ec.checkBundle, { now: NOW }], [ec.parseBundle, {}], [ec.digestText]]) {
        const { error } = outcome(() => call(text, options));
        assert.equal(error?.code, "invalid_unicode", `${JSON.stringify(bad)}, ${pad.length} padding, ${call.name}`);
      }
    }
    // An otherwise all-ASCII string with a lone surrogate, or a real U+FFFD.
    for (const bad of ["\ud800", "x\udfff", "\ud83d"]) {
      assert.equal(outcome(() => ec.digestText("a".repeat(pad.length) + bad)).error?.code, "invalid_unicode", `${JSON.stringify(bad)} after ASCII`);
    }
    assert.equal(ec.digestText("a".repeat(pad.length) + "\ufffd"), ec.digestText(Buffer.from("a".repeat(pad.length) + "\ufffd").toString()));
    const b = structuredClone(bundle);
    b.sources[0].content += "\ufffd";
    assert.ok(outcome(() => ec.checkBundle(JSON.stringify(b) + pad, { now: NOW })).ok);
    assert.equal(ec.digestText("\ufffd" + pad), ec.digestText(Buffer.from("\ufffd" + pad).toString()));
  }
});

test("a long text is read whole: ASCII, non-ASCII and astral, at lengths around 4096 units", () => {
  const crypto = require("node:crypto");
  for (const unit of ["a", "é", "中", "😀", "a\r\n"]) {
    for (const n of [4095, 4096, 4097, 50000]) {
      const text = unit.repeat(Math.ceil(n / unit.length)).slice(0, n).replace(/[\ud800-\udbff]$/, "x");
      const lf = text.replace(/\r\n?/g, "\n");
      assert.equal(ec.digestText(text), crypto.createHash("sha256").update(lf).digest("hex"), `${JSON.stringify(unit)} × ${n}`);
    }
  }
});

test("the web build reads long text and bytes as the Node build does", async () => {
  const { readFileSync } = await import("node:fs");
  const web = await import(join(PKG, "web", "index.js"));
  web.initSync({ module: readFileSync(join(PKG, "web", "evidence_check_bg.wasm")) });
  for (const [name, bundle] of bundles.slice(0, 12).concat(bundles.slice(-1))) {
    const text = JSON.stringify(bundle, null, 2) + PAD;
    const expected = outcome(() => ec.checkBundle(text, { now: NOW }));
    for (const input of [text, Buffer.from(text), Buffer.concat([BOM, Buffer.from(text)])]) {
      assert.deepEqual(outcome(() => web.checkBundle(input, { now: NOW })), expected, name);
    }
  }
  const lone = JSON.stringify(readJson("examples", "demo.bundle.json")).replace("方案", "\ud800") + PAD;
  assert.equal(outcome(() => web.checkBundle(lone, { now: NOW })).error?.code, "invalid_unicode");
});
