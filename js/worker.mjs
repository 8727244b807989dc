// One worker of `evidence-check check DIR` and `check -`: its own wasm instance,
// checking one bundle (a file's path or a line's text) per task.
import { errorData, loadPackage, readInputFile } from "./load.mjs";

const lib = loadPackage();

/**
 * Checks one bundle; returns `tag` (its path or line number) with the whole result, or
 * with `error` ({code, message, issues}) when it could not be checked.
 */
export default function checkOne({ path, text, tag, options }) {
  try {
    return { ...tag, ...lib.checkBundle(text ?? readInputFile(path), options) };
  } catch (err) {
    return { ...tag, error: errorData(err) };
  }
}
