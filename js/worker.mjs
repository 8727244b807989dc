// One worker of `evidence-check check DIR` and `check -`: its own wasm instance, checking
// a chunk of bundles (files' paths or lines' bytes) per task. It returns the chunk's JSON
// lines already serialised, as one string, and a small summary per bundle: the main
// thread only writes, counts and orders (a result cloned back per bundle cost as much as
// the check). A string, not UTF-8 bytes: the bytes' buffers, outside the heap, piled up
// between collections (check -'s peak memory grew by 23 MiB from 1,000 to 10,000 lines).
import { workerData } from "node:worker_threads";
import { decodeInput, errorData, jsonOut, loadPackage, readInputBytes, SOME_UNREADABLE_EXIT, STATUS_EXIT, withBytes } from "./load.mjs";

let lib;

/** ASCII's white space as String.prototype.trim() takes it: tab, line feed, vertical tab, form feed, carriage return, space. */
const ASCII_SPACE = new Uint8Array(128);
for (const b of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) ASCII_SPACE[b] = 1;

/**
 * Whether a stream's line (its bytes) is white space only, as its decoded text's trim()
 * says: from its bytes while they are ASCII; a line whose first byte that is not ASCII
 * white space is not ASCII (white space such as U+3000 or a BOM, or a character) is
 * decoded to tell, and refused there when it is not UTF-8 (as its decoding was before).
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
 * One bundle's result, `tag` (its path or line number) first: the whole result, or `error`
 * ({code, message, issues}) when it could not be checked; undefined for a line of white
 * space (no bundle). The file's or line's bytes go to checkBundle as they are (a line
 * without the carriage return before its line feed), never decoded into a string here.
 */
function checkOne(item, bytes, options, inputLimit) {
  if (item.error) return { ...item.tag, error: item.error };
  let input;
  try {
    if (item.at === undefined) input = readInputBytes(item.path, inputLimit);
    else {
      const end = item.end > item.at && bytes[item.end - 1] === 0x0d ? item.end - 1 : item.end;
      input = bytes.subarray(item.at, end);
      if (blankLine(input)) return undefined;
    }
    lib ??= loadPackage();
    return { ...item.tag, ...withBytes(lib.checkBundle, input, item.path, options) };
  } catch (err) {
    // A directory's stray JSON file (not a stream's line: every line is meant as a bundle).
    const stray = item.path !== undefined && input !== undefined ? notABundle(input) : undefined;
    if (stray) return { ...item.tag, skipped: { code: "not_a_bundle", message: stray } };
    return { ...item.tag, error: errorData(err) };
  }
}

/**
 * A chunk's results as the main thread takes them: `json`, their JSON lines (with `json`
 * set; else ""), and per bundle `{exit, status, error?: {code, message}, skipped?, artifact?}`
 * (`status` "unusable" for an error, exit 4; "skipped" for a file that is not a bundle,
 * exit 0; the artifact's content only with `artifacts` set).
 */
export function collect(results, { json, artifacts }) {
  let lines = "";
  const bundles = results.map((r) => {
    if (json) lines += jsonOut(r, 0);
    if (r.skipped) return { exit: 0, status: "skipped", skipped: r.skipped };
    if (r.error) return { exit: SOME_UNREADABLE_EXIT, status: "unusable", error: { code: r.error.code, message: r.error.message } };
    const b = { exit: STATUS_EXIT[r.assessment.status], status: r.assessment.status };
    if (artifacts && r.artifact) b.artifact = r.artifact.content;
    return b;
  });
  return { json: lines, bundles };
}

/**
 * Checks a chunk: `items` in order, each `{tag, path}` (a file to read), `{tag, at, end}`
 * (a line, `bytes` from `at` to `end`) or `{tag, error}` (a line already found unusable).
 * What every chunk shares comes once, as the pool's workerData: `{options, inputLimit,
 * json, artifacts}`.
 */
export default function checkChunk({ items, bytes }) {
  const { options, inputLimit } = workerData;
  const results = [];
  for (const item of items) {
    const r = checkOne(item, bytes, options, inputLimit);
    if (r !== undefined) results.push(r);
  }
  return collect(results, workerData);
}
