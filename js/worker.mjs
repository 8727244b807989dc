// One worker of `evidence-check check DIR` and `check -`: its own wasm instance,
// checking one bundle (a file's path or a line's text) per task.
import { errorData, loadPackage, readInputFile } from "./load.mjs";

const lib = loadPackage();

/**
 * Checks one bundle; returns `tag` (its path or line number) with the whole result, or
 * with `error` ({code, message, issues}) when it could not be checked.
 */
export default function checkOne({ path, text, tag, options, inputLimit }) {
  try {
    return { ...tag, ...lib.checkBundle(text ?? readInputFile(path, inputLimit), options) };
  } catch (err) {
    return { ...tag, error: errorData(err) };
  }
}
