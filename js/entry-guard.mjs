// `guardStore(f, i, classes, EvidenceStore)`: `f` whose argument `i` must be an
// EvidenceStore. wasm-bindgen's generated code checks that argument itself and throws a
// plain Error (or runs a Proxy's traps); here anything that is not a live store instance
// becomes a coded `invalid_argument` before the call, and an exception from the caller's
// own code (a Proxy trap) while the generated code reads it becomes one too.
export function guardStore(f, i, { EvidenceCheckError, EvidenceError }, EvidenceStore) {
  const invalid = (cause) => new EvidenceError(`argument ${i + 1} must be an EvidenceStore`, "invalid_argument", cause === undefined ? undefined : { cause });
  const ours = (e) => {
    try {
      return e instanceof EvidenceCheckError || e instanceof WebAssembly.RuntimeError;
    } catch {
      return false;
    }
  };
  return function (...args) {
    let isStore = false;
    try {
      isStore = args[i] instanceof EvidenceStore;
    } catch (e) {
      throw invalid(e);
    }
    if (!isStore) throw invalid();
    try {
      return f(...args);
    } catch (e) {
      throw ours(e) ? e : invalid(e);
    }
  };
}
