// assemble.mjs's hook for the entries: copies js/entry* into pkg/node (CommonJS) and
// pkg/web (ES module) as index.js with its declarations, and points the manifest's
// entries at them, each with its own types: "." gives Node the Node build and every
// other environment (browsers, bundlers) the web build; "./mcp" gets js/mcp.d.ts.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The CommonJS form of an ES module that only declares `export class|function` items. */
function toCommonJs(source) {
  const names = [...source.matchAll(/^export (?:class|function) (\w+)/gm)].map((m) => m[1]);
  return `"use strict";\n${source.replace(/^export (class|function) /gm, "$1 ")}module.exports = { ${names.join(", ")} };\n`;
}

const MARK = "// Patched by js/entry-hook.mjs";
const THROW = /throw takeFromExternrefTable0\((ret\[\d\])\);/g;
const FINISHED = "throw __ecFinishError(takeFromExternrefTable0($1));";
// passStringToWasm0's copy of a string's leading ASCII, one UTF-16 unit at a time in JS
// (~5 ns a unit: 12 µs for 2,000 units, where the native encoder takes 0.2 µs).
export const ASCII_LOOP = `    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }`;
const NATIVE_HEAD = `    let offset = 0;
    let read = 0;
    if (__ecNativeEncodeInto) {
        ${MARK}: as much of the text as fits \`len\` bytes, natively.
        const head = cachedTextEncoder.encodeInto(arg, mem.subarray(ptr, ptr + len));
        offset = head.written;
        read = head.read;
    } else {
        for (; offset < len; offset++) {
            const code = arg.charCodeAt(offset);
            if (code > 0x7F) break;
            mem[ptr + offset] = code;
        }
        read = offset;
    }
    if (read !== len) {
        if (read !== 0) {
            arg = arg.slice(read);
        }`;

// The glue's view for the values a call passes through memory (a string's pointer and
// length, a number): on every use it asks whether the memory grew by reading its
// buffer's `detached` (absent before Node 22) and else comparing `buffer` with
// `wasm.memory.buffer`, three accessor calls, one of them into the engine's C++ (two
// uses for each string passed into the module). A buffer the memory outgrew is detached,
// and a detached buffer's `byteLength` is 0: the same test as the glue's own byte view's.
export const DATA_VIEW = `function getDataViewMemory0() {
    if (cachedDataViewMemory0 === null || cachedDataViewMemory0.buffer.detached === true || (cachedDataViewMemory0.buffer.detached === undefined && cachedDataViewMemory0.buffer !== wasm.memory.buffer)) {
        cachedDataViewMemory0 = new DataView(wasm.memory.buffer);
    }
    return cachedDataViewMemory0;
}`;
const DATA_VIEW_CACHED = `${MARK}: the buffer kept, its byteLength tested (0 once detached).
let cachedDataViewBuffer0 = null;
function getDataViewMemory0() {
    if (cachedDataViewMemory0 === null || cachedDataViewBuffer0.byteLength === 0) {
        cachedDataViewBuffer0 = wasm.memory.buffer;
        cachedDataViewMemory0 = new DataView(cachedDataViewBuffer0);
    }
    return cachedDataViewMemory0;
}`;

// `Reviews.add` of the main module's glue, and the method the module exports for it to
// call with the review's JSON text (src/wasm.rs, section "r10-args").
const ADD = "    add(review) {\n";
const ADD_TEXT = /\n    \/\*\*\n(?:     \*.*\n)*?     \*\/\n    __addText\(text, units\) \{\n((?:        .*\n|\n)*?)    \}(?=\n)/;

/**
 * `text` with `Reviews.add` made to serialise its review in JS (js/entry-args.mjs's
 * `reviewText`) and pass the text as `__addText` does, inline (no frame more in an error's
 * `stack`); `__addText` itself removed from the class. Text without `__addText` (the
 * extras' glue) is returned as it is. Fails on a glue of another shape.
 */
function patchReviewAdd(text, file) {
  const found = text.match(ADD_TEXT);
  if (!found) {
    if (text.includes("__addText")) throw new Error(`assemble: ${file} has no __addText of the shape js/entry-hook.mjs patches`);
    return text;
  }
  if (text.split(ADD).length !== 2) throw new Error(`assemble: ${file} has no Reviews.add of the shape js/entry-hook.mjs patches`);
  const copy = "passStringToWasm0(text, ";
  if (found[1].split(copy).length !== 2) throw new Error(`assemble: ${file} has no __addText of the shape js/entry-hook.mjs patches`);
  const body = found[1].replace(copy, "passStringToWasm0(__ecCopiedText(text), ").replace(/^(?=.)/gm, "    ");
  const prologue = `${ADD}        ${MARK}: the review is serialised here and passes as text (js/entry-args.mjs).
        const text = __ecReviewText(this, review);
        if (typeof text === "string") {
            const units = text.length;
${body}        }
        if (text !== null) review = text;
`;
  return text.replace(ADD_TEXT, "").replace(ADD, () => prologue);
}

/**
 * Patches a wasm-bindgen glue file (`esm`: the web build's):
 * - every value an export throws goes through errors.js's `finishError` first: the
 *   module throws an error's data, and the error is made there, once the wasm frames
 *   are off the stack (see js/entry-errors.mjs);
 * - a string passed into the module is encoded by the native `TextEncoder.encodeInto`
 *   as far as it fits the first allocation (one byte a UTF-16 unit), instead of a JS loop
 *   over its leading ASCII; the rest as before. The same bytes: UTF-8 is one encoding;
 * - the view of memory that passes a call's values is checked by its buffer's length
 *   (see DATA_VIEW above);
 * - `Reviews.add` (the main module's) serialises its review in JS (see `patchReviewAdd`).
 * Idempotent; fails when the glue is not of the shape patched here (a wasm-bindgen
 * upgrade that changed it).
 */
export function patchGlue(file, esm) {
  const text = readFileSync(file, "utf8");
  const header = `${MARK}: thrown errors are made by errors.js; strings are encoded natively; the data view is checked by length; a review is added as text.`;
  if (text.includes(header)) return;
  if (text.includes(MARK)) throw new Error(`assemble: ${file} was patched by another version of js/entry-hook.mjs; build it again (make -B wasm)`);
  const sites = text.match(THROW)?.length ?? 0;
  if (sites === 0 || /throw take/.test(text.replace(THROW, ""))) throw new Error(`assemble: ${file} has no throw site of the shape js/entry-hook.mjs patches`);
  if (text.split(ASCII_LOOP).length !== 2) throw new Error(`assemble: ${file} has no passStringToWasm0 of the shape js/entry-hook.mjs patches`);
  if (text.split(DATA_VIEW).length !== 2) throw new Error(`assemble: ${file} has no getDataViewMemory0 of the shape js/entry-hook.mjs patches`);
  const load = esm ? `import { finishError as __ecFinishError } from "./errors.js";` : `const { finishError: __ecFinishError } = require("./errors.js");`;
  const native = `const __ecNativeEncodeInto = typeof TextEncoder === "function" && typeof TextEncoder.prototype.encodeInto === "function";`;
  const common = text.replace(THROW, FINISHED).replace(ASCII_LOOP, NATIVE_HEAD).replace(DATA_VIEW, DATA_VIEW_CACHED);
  const patched = patchReviewAdd(common, file);
  const args = patched === common ? [] : [esm ? `import { reviewText as __ecReviewText, copiedText as __ecCopiedText } from "./args.js";` : `const { reviewText: __ecReviewText, copiedText: __ecCopiedText } = require("./args.js");`];
  const [first, ...rest] = patched.split("\n");
  writeFileSync(file, [first, header, load, ...args, native, ...rest].join("\n"));
}

export default function entries(root, pkg, manifest) {
  const src = (f) => join(root, "js", f);
  patchGlue(join(pkg, "node", "evidence_check.js"), false);
  patchGlue(join(pkg, "web", "evidence_check.js"), true);
  for (const f of ["errors", "guard", "args"]) {
    copyFileSync(src(`entry-${f}.mjs`), join(pkg, "web", `${f}.js`));
    writeFileSync(join(pkg, "node", `${f}.js`), toCommonJs(readFileSync(src(`entry-${f}.mjs`), "utf8")));
  }
  copyFileSync(src("entry.mjs"), join(pkg, "web", "index.js"));
  copyFileSync(src("entry.cjs"), join(pkg, "node", "index.js"));
  copyFileSync(src("entry-web.d.ts"), join(pkg, "web", "index.d.ts"));
  copyFileSync(src("entry-node.d.ts"), join(pkg, "node", "index.d.ts"));
  copyFileSync(join(root, "js", "mcp.d.ts"), join(pkg, "bin", "mcp.d.ts"));
  const node = { types: "./node/index.d.ts", default: "./node/index.js" };
  const web = { types: "./web/index.d.ts", default: "./web/index.js" };
  Object.assign(manifest, { main: node.default, module: web.default, types: node.types });
  manifest.exports = {
    ...manifest.exports,
    ".": { node, browser: web, default: web },
    "./web": web,
    "./node": node,
    "./mcp": { types: "./bin/mcp.d.ts", default: "./bin/mcp.mjs" },
  };
}
