// One worker of `evidence-check check DIR` and `check -`: its own wasm instance, checking
// a chunk of bundles (files' paths or lines' texts) per task. It returns the chunk's JSON
// lines already serialised, as one string, and a small summary per bundle: the main
// thread only writes, counts and orders (a result cloned back per bundle cost as much as
// the check). A string, not UTF-8 bytes: the bytes' buffers, outside the heap, piled up
// between collections (check -'s peak memory grew by 23 MiB from 1,000 to 10,000 lines).
import { workerData } from "node:worker_threads";
import { errorData, jsonOut, loadPackage, readInputFile, STATUS_EXIT } from "./load.mjs";

let lib;
const UNUSABLE = 3;
const decoder = new TextDecoder("utf-8", { fatal: true });

/** A stream's line: its text (a carriage return before the line feed dropped); an error when it is not UTF-8. */
function lineText(bytes) {
  try {
    return decoder.decode(bytes).replace(/\r$/, "");
  } catch {
    throw Object.assign(new Error("the line is not valid UTF-8"), { code: "invalid_utf8" });
  }
}

/**
 * One bundle's result, `tag` (its path or line number) first: the whole result, or `error`
 * ({code, message, issues}) when it could not be checked; undefined for a line of white
 * space (no bundle).
 */
function checkOne(item, bytes, options, inputLimit) {
  if (item.error) return { ...item.tag, error: item.error };
  try {
    const text = item.at === undefined ? readInputFile(item.path, inputLimit) : lineText(bytes.subarray(item.at, item.end));
    if (item.at !== undefined && text.trim() === "") return undefined;
    lib ??= loadPackage();
    return { ...item.tag, ...lib.checkBundle(text, options) };
  } catch (err) {
    return { ...item.tag, error: errorData(err) };
  }
}

/**
 * A chunk's results as the main thread takes them: `json`, their JSON lines (with `json`
 * set; else ""), and per bundle `{exit, status, error?: {code, message}, artifact?}`
 * (`status` "unusable" for an error; the artifact's content only with `artifacts` set).
 */
export function collect(results, { json, artifacts }) {
  let lines = "";
  const bundles = results.map((r) => {
    if (json) lines += jsonOut(r, 0);
    if (r.error) return { exit: UNUSABLE, status: "unusable", error: { code: r.error.code, message: r.error.message } };
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
