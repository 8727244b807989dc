// Large string arguments in Node (issue 15): from 64 Ki units, a string with a character
// above U+00FF crosses into the module as UTF-16, a piece of 64 Ki units at a time, and is
// transcoded there (src/transcode.rs), refusing a lone surrogate. Every result and every
// error is the one the UTF-8 path gives: the raw module with the entry's writer registered
// is compared with the raw module without it, on surrogate pairs split by a piece's end and
// lone surrogates at each edge.
import { test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { PKG } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const NODE = join(PKG, "node");
const PIECE = 64 * 1024;
const MIN_UNITS = 64 * 1024;

/** A fresh raw module (its own wasm memory), with the error classes and, if given, `writer` registered. */
function raw(writer) {
  for (const f of ["evidence_check.js", "errors.js"]) delete require.cache[require.resolve(join(NODE, f))];
  const ec = require(join(NODE, "evidence_check.js"));
  const classes = require(join(NODE, "errors.js"));
  ec.__registerErrorClasses(classes.EvidenceCheckError, classes.ContractError, classes.EvidenceError);
  if (writer) ec.__registerUtf16Writer(writer(classes.writeUtf16Buffer));
  return ec;
}

let calls = 0;
const spied = raw((write) => (...args) => {
  calls += 1;
  return write(...args);
});
const utf8 = raw();
const entry = require(join(NODE, "index.js"));

/** What a call gives: its value, or its error's class, code and message. */
function outcome(f) {
  try {
    return { value: f() };
  } catch (e) {
    return { error: [e.constructor.name, e.code, e.message] };
  }
}

const a = (n) => "a".repeat(n);
const CJK = "中文资料，证据检查。";
const texts = {
  "a pair split by the first piece's end": "中" + a(PIECE - 2) + "😀" + CJK.repeat(5000),
  "a pair split by the last piece's end": "中" + a(2 * PIECE - 2) + "😀",
  "CJK only, over two pieces": CJK.repeat(15000),
  "astral only": "😀".repeat(PIECE),
  "just at the threshold": "中" + a(MIN_UNITS - 1),
  "a lone high surrogate ending the first piece": "中" + a(PIECE - 2) + "\uD800" + a(100),
  "a lone low surrogate starting the second piece": "中" + a(PIECE - 1) + "\uDC00" + a(100),
  "a lone high surrogate at the very end": CJK.repeat(7000) + "\uD83D",
  "a lone low surrogate at the start": "\uDE00" + CJK.repeat(7000),
  "a lone low surrogate after a pair": CJK.repeat(7000) + "😀\uDE00",
  "one byte a character (read as UTF-8)": "é".repeat(70000),
};

test("digestText of large texts: the UTF-16 path gives the UTF-8 path's digest or error", () => {
  for (const [name, text] of Object.entries(texts)) {
    calls = 0;
    const got = outcome(() => spied.digestText(text));
    assert.deepEqual(got, outcome(() => utf8.digestText(text)), name);
    assert.deepEqual(outcome(() => entry.digestText(text)), got, name);
    if (text.isWellFormed()) assert.equal(got.value, crypto.createHash("sha256").update(text).digest("hex"), name);
    else assert.deepEqual(got.error, ["EvidenceError", "invalid_unicode", "text contains an unpaired surrogate; it is not valid Unicode"], name);
    // The writer was asked: for every piece of a wide text, once (and declined) for a one-byte text.
    assert.ok(calls >= 1, name);
    if (name.startsWith("one byte")) assert.equal(calls, 1, name);
    else if (text.isWellFormed()) assert.equal(calls, Math.ceil(text.length / PIECE), name);
  }
});

test("a short text does not call the writer", () => {
  calls = 0;
  assert.equal(spied.digestText("中" + a(MIN_UNITS - 2)), utf8.digestText("中" + a(MIN_UNITS - 2)));
  assert.equal(calls, 0);
});

test("JSON text (a report) of a large string: the same report, the same error for a lone surrogate", () => {
  const report = (text) => JSON.stringify({ title: "大", claims: [{ claim_id: "k1", text: "x", kind: "fact", citations: [] }] }).replace('"x"', JSON.stringify(text).replace(/\\u(d[89a-f][0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))));
  for (const [name, text] of Object.entries(texts)) {
    const json = report(text);
    calls = 0;
    const got = outcome(() => JSON.stringify(spied.parseReport(json)));
    assert.deepEqual(got, outcome(() => JSON.stringify(utf8.parseReport(json))), name);
    if (!text.isWellFormed()) assert.equal(got.error[1], "invalid_unicode", name);
    assert.ok(calls >= 1, name);
  }
});

test("a writer that fails or answers nonsense is not believed: the text is read as UTF-8", () => {
  const text = texts["CJK only, over two pieces"];
  for (const writer of [() => () => { throw new Error("no"); }, () => () => 7, () => () => undefined]) {
    assert.equal(raw(writer).digestText(text), utf8.digestText(text));
  }
  assert.throws(() => raw().__registerUtf16Writer(42), /UTF-16 writer must be a function/);
});
