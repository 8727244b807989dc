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

// `guardTraps(raw, classes)`: every function and class of the wasm-bindgen module `raw`,
// each call guarded against a trap (a `WebAssembly.RuntimeError`: memory ran out where
// an allocation cannot fail softly, or a panic). wasm-bindgen's output is not edited:
// its functions are wrapped, its classes' methods, getters and setters are wrapped in
// place, and each class is given as a Proxy whose constructor is guarded. Around each call
// the module's shadow stack pointer (`__stackPointer()`) is saved and, when the call does
// not return, put back (the frames the trap ended had lowered it); once no call of the
// module is on the stack, `__afterTrap()` releases the borrows those frames held; and the
// trap is thrown as a coded `out_of_memory` (`internal` when a panic caused it), the
// RuntimeError as its `cause`. Returns `{ name: guarded }`.
export function guardTraps(raw, { EvidenceError }) {
  // Taken now: the entries then remove these internals from the package's exports.
  const { __stackPointer, __afterTrap, __trapCause, wasmMemoryBytes } = raw;
  let stack; // the WebAssembly.Global, null when the module has none, undefined until read
  const stackPointer = () => {
    if (stack === undefined) {
      try {
        const g = __stackPointer();
        stack = g instanceof WebAssembly.Global ? g : null;
      } catch {
        return null; // not initialised yet (the web build before `init`): read it next time
      }
    }
    return stack;
  };
  const isTrap = (e) => {
    try {
      return e instanceof WebAssembly.RuntimeError;
    } catch {
      return false;
    }
  };
  const coded = (trap) => {
    let panicked = false, bytes = 0;
    try {
      panicked = __trapCause();
      bytes = wasmMemoryBytes();
    } catch {}
    return panicked
      ? new EvidenceError("internal error: the WebAssembly module panicked (a bug: please report it); the call did not complete, and later calls work", "internal", { cause: trap })
      : new EvidenceError(`out of memory: the call ran out of WebAssembly memory (${bytes} bytes in use) and did not complete; later calls work, and the memory it had taken stays in use`, "out_of_memory", { cause: trap });
  };
  let depth = 0;
  let unwound = false;
  const run = (call) => {
    const sp = stackPointer();
    const saved = sp?.value;
    depth++;
    try {
      return call();
    } catch (e) {
      const thrown = isTrap(e) ? coded(e) : e;
      // Only a call that did not return leaves the pointer lowered; putting back the
      // value it had is right for any call (and after `coded`, whose calls may trap too).
      if (sp) sp.value = saved;
      unwound = true;
      throw thrown;
    } finally {
      depth--;
      if (depth === 0 && unwound) {
        unwound = false;
        __afterTrap();
      }
    }
  };
  const guard = (f) => {
    const g = function (...args) {
      return run(() => Reflect.apply(f, this, args));
    };
    Object.defineProperty(g, "name", { value: f.name });
    return g;
  };
  const guardMembers = (target) => {
    for (const key of Reflect.ownKeys(target)) {
      if (key === "constructor" || key === "prototype" || key === "length" || key === "name") continue;
      const d = Object.getOwnPropertyDescriptor(target, key);
      if (!d.configurable) continue;
      if (typeof d.value === "function") d.value = guard(d.value);
      if (d.get) d.get = guard(d.get);
      if (d.set) d.set = guard(d.set);
      Object.defineProperty(target, key, d);
    }
  };
  const out = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== "function" || name.startsWith("__") || name === "default" || name === "initSync") continue;
    if (/^class\b/.test(Function.prototype.toString.call(value))) {
      guardMembers(value.prototype);
      guardMembers(value);
      out[name] = new Proxy(value, { construct: (target, args, newTarget) => run(() => Reflect.construct(target, args, newTarget)) });
    } else {
      out[name] = guard(value);
    }
  }
  return out;
}
