// The check, off the page's thread: the page posts the compiled module once (the worker
// starts before the module is ready, so a check may arrive first and waits for it), then
// bundle texts with their options; each answer is the result, the parsed bundle and each
// source's digest, or the error's message, code and issues, and whether the call trapped
// (the page then replaces this worker: a trap's memory stays in use). The package's entry
// (pkg/index.js) is what is imported: every trap is a coded error there. Nothing here
// touches the DOM.
import init, { checkBundle, digestText } from "./pkg/index.js";

let instantiate;
const ready = new Promise((done) => (instantiate = done));

self.onmessage = async ({ data }) => {
  if (data.module) {
    instantiate(init({ module_or_path: data.module }));
    return;
  }
  const { id, text, options } = data;
  try {
    await ready;
    const result = checkBundle(text, options);
    const bundle = JSON.parse(text);
    const digests = bundle.sources.map((s) => digestText(s.content));
    self.postMessage({ id, result, bundle, digests });
  } catch (e) {
    const issues = Array.isArray(e?.issues) ? e.issues.map((i) => ({ path: i.path, code: i.code, message: i.message })) : undefined;
    const trapped = e?.cause instanceof WebAssembly.RuntimeError;
    self.postMessage({ id, error: { message: String(e?.message ?? e), code: e?.code, issues }, trapped });
  }
};
