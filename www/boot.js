// The page's start, run from its head as soon as it arrives (an async module: it waits
// for no other script): the .wasm's streaming compile begins while it downloads, not once
// the page's other scripts have run. app.js imports the same module (one instance of it
// per page).

/** The module, compiled as the .wasm preloaded by index.html streams in; the page's thread
 * and every check worker instantiate this one compiled module (it is neither downloaded
 * nor compiled twice). */
export const wasmModule = WebAssembly.compileStreaming(fetch(new URL("pkg/evidence_check_bg.wasm", import.meta.url)));

/** A new check worker (www/check-worker.js), handed the compiled module once it is ready;
 * null where no worker can be made (the page then checks on its own thread). */
export function startWorker() {
  let w;
  try {
    w = new Worker(new URL("check-worker.js", import.meta.url), { type: "module" });
  } catch {
    return null;
  }
  wasmModule.then((module) => w.postMessage({ module }), () => {});
  return w;
}

