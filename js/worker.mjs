// One worker of `evidence-check check --jobs N DIR`: its own wasm instance, checking
// one bundle file per task.
import { loadPackage, readInputFile } from "./load.mjs";

const lib = loadPackage();

/** Checks one bundle; returns its status, or the reason it could not be checked. */
export default function checkFile({ path, now, compat, lang }) {
  try {
    const text = readInputFile(path);
    const options = { render: true };
    if (now !== undefined) options.now = now;
    if (compat !== undefined) options.compat = compat;
    if (lang !== undefined) options.lang = lang;
    const result = lib.checkBundle(text, options);
    return { path, status: result.assessment.status, issues: result.assessment.issues.length };
  } catch (err) {
    return { path, error: { code: err?.code ?? "error", message: String(err?.message ?? err) } };
  }
}
