// One worker of `evidence-check check DIR` and `check -` (js/pool.mjs runs them): its own
// wasm instance, checking a task of bundles (files' paths, or lines of a shared buffer of
// stdin's bytes) at a time. It hands the task's JSON lines back as UTF-8 bytes in an
// ArrayBuffer it transfers (no copy, no string cloned), with a small summary per bundle:
// the main thread only writes, counts and orders. The buffers go round: the main thread
// gives each back with a later task once it is written, so a task seldom needs a new one.
import { parentPort, workerData } from "node:worker_threads";
import { cliText, decodeInput, errorData, inLang, jsonOut, loadPackage, messageLang, readInputBytes, SOME_UNREADABLE_EXIT, STATUS_EXIT, withBytes } from "./load.mjs";

let lib;

/** ASCII's white space as String.prototype.trim() takes it: tab, line feed, vertical tab, form feed, carriage return, space. */
const ASCII_SPACE = new Uint8Array(128);
for (const b of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) ASCII_SPACE[b] = 1;

/**
 * Whether a stream's line (its bytes) is white space only, as its decoded text's trim()
 * says: from its bytes while they are ASCII; a line whose first byte that is not ASCII
 * white space is not ASCII (white space such as U+3000 or a BOM, or a character) is
 * decoded to tell, and refused there when it is not UTF-8 (as decoding it does).
 */
function blankLine(bytes) {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 0x80) return decodeInput(bytes).trim() === "";
    if (ASCII_SPACE[b] === 0) return false;
  }
  return true;
}

/** A bundle's top-level fields: a JSON file with none of them is not a bundle. */
const BUNDLE_KEYS = ["scope", "sources", "report", "reviews", "import_notes"];

/**
 * Why a directory's file that checkBundle refused is not a bundle at all (a stray
 * package.json): JSON that is not an object, or an object with no bundle field; undefined
 * for anything else (broken JSON, a bundle that breaks its contract).
 */
function notABundle(bytes) {
  let value;
  try {
    value = JSON.parse(decodeInput(bytes));
  } catch {
    return undefined;
  }
  const kind = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value !== "object" ? `a ${typeof value}` : undefined;
  if (kind) return `not a bundle (JSON ${kind}, not an object); skipped`;
  if (!BUNDLE_KEYS.some((k) => Object.hasOwn(value, k))) return `not a bundle (a JSON object without scope, sources or report); skipped`;
  return undefined;
}

/**
 * Whether an error is a trap of the wasm module (a `WebAssembly.RuntimeError`, or the
 * coded `out_of_memory` the package makes of one): after it, the instance is not to be
 * trusted, and its worker is replaced.
 */
export const isTrap = (err) => err instanceof WebAssembly.RuntimeError || err?.code === "out_of_memory";

/** An error as a result line's data; a trap that carries no code gets `wasm_trap`. */
function trapData(err) {
  const data = errorData(err);
  if (err?.code === undefined) data.code = "wasm_trap";
  return data;
}

/**
 * One bundle's result, `tag` (its path or line number) first: the whole result, or `error`
 * ({code, message, issues}) when it could not be checked; undefined for a line of white
 * space (no bundle). `trapped` is set when the check trapped. The file's or line's bytes
 * go to checkBundle as they are (a line without the carriage return before its line
 * feed), never decoded into a string here.
 */
function checkOne(item, bytes, options, inputLimit) {
  // The language of the bundle's messages, read only for an error (not on every good bundle).
  const lang = () => messageLang(options.lang, options.compat);
  if (item.error) return { result: { ...item.tag, error: { ...item.error, message: cliText(item.error.message, lang()) } } };
  let input;
  try {
    if (item.at === undefined) input = readInputBytes(item.path, inputLimit);
    else {
      const end = item.end > item.at && bytes[item.end - 1] === 0x0d ? item.end - 1 : item.end;
      input = bytes.subarray(item.at, end);
      if (blankLine(input)) return { result: undefined };
    }
    lib ??= loadPackage();
    return { result: { ...item.tag, ...withBytes(lib.checkBundle, input, item.path, options) } };
  } catch (err) {
    if (isTrap(err)) return { result: { ...item.tag, error: trapData(err) }, trapped: true };
    // A directory's stray JSON file (not a stream's line: every line is meant as a bundle).
    const stray = item.path !== undefined && input !== undefined ? notABundle(input) : undefined;
    if (stray) return { result: { ...item.tag, skipped: { code: "not_a_bundle", message: cliText(stray, lang()) } } };
    return { result: { ...item.tag, error: errorData(inLang(err, lang())) } };
  }
}

/**
 * What the main thread takes of one bundle's result: `{exit, status, error?: {code,
 * message}, skipped?, artifact?}` (`status` "unusable" for an error, exit 4; "skipped" for
 * a file that is not a bundle, exit 0; the artifact's content only with `artifacts` set).
 */
export function summary(r, artifacts) {
  if (r.skipped) return { exit: 0, status: "skipped", skipped: r.skipped };
  if (r.error) return { exit: SOME_UNREADABLE_EXIT, status: "unusable", error: { code: r.error.code, message: r.error.message } };
  const b = { exit: STATUS_EXIT[r.assessment.status], status: r.assessment.status };
  if (artifacts && r.artifact) b.artifact = r.artifact.content;
  return b;
}

const encoder = new TextEncoder();

/** UTF-8 bytes appended to an ArrayBuffer (a spare one handed back, or a new one), grown as needed. */
class Bytes {
  constructor(buffer) {
    this.buffer = buffer ?? new ArrayBuffer(64 * 1024);
    this.view = new Uint8Array(this.buffer);
    this.length = 0;
  }

  append(text) {
    let { read, written } = encoder.encodeInto(text, this.view.subarray(this.length));
    this.length += written;
    while (read < text.length) {
      const rest = text.slice(read);
      const next = new ArrayBuffer(Math.max(this.buffer.byteLength * 2, this.length + rest.length * 3));
      new Uint8Array(next).set(this.view.subarray(0, this.length));
      this.buffer = next;
      this.view = new Uint8Array(next);
      ({ read, written } = encoder.encodeInto(rest, this.view.subarray(this.length)));
      this.length += written;
      text = rest;
    }
  }
}

/** Result buffers handed back by the main thread, for the next tasks' lines. */
const spares = [];

/**
 * Checks a task: `items` in order, each `{tag, path}` (a file to read), `{tag, at, end}`
 * (a line: the bytes of `slab`, a SharedArrayBuffer, from `at` to `end`) or `{tag, error}`
 * (a line already found unusable). What every task shares comes once, as workerData:
 * `{options, inputLimit, json, artifacts}`. The reply: `{id, done, out, length, bundles,
 * retire}`: `done` items were checked (all of them, unless one trapped: then it is the
 * last, and `retire` says this worker is done for), their JSON lines the first `length`
 * bytes of `out` (with `json` set), and a summary per bundle.
 */
export function runTask({ id, items, slab, spare }, shared = workerData) {
  if (spare && spares.length < 2) spares.push(spare);
  const { options, inputLimit, json, artifacts } = shared;
  const bytes = slab && new Uint8Array(slab);
  const out = json ? new Bytes(spares.pop()) : undefined;
  const bundles = [];
  let done = 0;
  let retire = false;
  for (const item of items) {
    const { result, trapped } = checkOne(item, bytes, options, inputLimit);
    done++;
    if (result !== undefined) {
      out?.append(jsonOut(result, 0));
      bundles.push(summary(result, artifacts));
    }
    if (trapped) {
      retire = true;
      break;
    }
  }
  return { id, done, out: out?.buffer, length: out?.length ?? 0, bundles, retire };
}

// A worker of the pool (js/pool.mjs) takes its tasks from its port, one after another; once
// a check trapped it replies no more (the pool ends it, and hands what it held to another).
if (workerData?.evidenceCheckPool && parentPort) {
  let retired = false;
  parentPort.on("message", (task) => {
    if (retired) return;
    const reply = runTask(task);
    retired = reply.retire;
    parentPort.postMessage(reply, reply.out ? [reply.out] : []);
  });
}
