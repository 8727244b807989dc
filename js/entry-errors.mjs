// The error classes of evidence-check, for the ES module entry (pkg/web/index.js). Every
// error the library throws is an instance of one of them; `code` is stable.
export class EvidenceCheckError extends Error {
  constructor(message, code = "invalid_argument", options) {
    super(message, options);
    this.code = code;
  }
}
export class ContractError extends EvidenceCheckError {}
export class EvidenceError extends EvidenceCheckError {}
for (const c of [EvidenceCheckError, ContractError, EvidenceError]) {
  Object.defineProperty(c.prototype, "name", { value: c.name, writable: true, configurable: true });
}

// A thrown error is made here, not inside the wasm module: an Error made while the
// module's frames are on the stack costs V8 15–30 µs to capture them. The entries register
// `errorData`; the module then throws its error's data (`[message, code, [[property,
// value], …]]`, see `thrown_json` in src/error.rs), and the glue, patched at assembly
// (js/entry-hook.mjs), passes every thrown value through `finishError` once the module
// has returned: the same class, code, message and properties, in the same order, with
// the caller's frames in `stack`.
class ErrorData {
  constructor(contract, json) {
    this.contract = contract;
    this.json = json;
  }
}

/** What the module throws when the entry registered it: an error's data (internal). */
export function errorData(contract, json) {
  return new ErrorData(contract, json);
}

// The engine's own Error constructor, as the classes above extend it.
const NativeError = Error;

/**
 * The error a thrown value stands for: made from the module's data, else the value itself (internal).
 * The error is a native `Error` given its class's prototype, with `message`, `code` and the
 * properties in the order the class's constructor gives them: what `new ContractError(message,
 * code)` here would make, with the same frames in `stack` (from this function's on), but V8
 * then walks the two constructors' frames to skip them while it captures the stack, ~2 µs an
 * error (measured side by side on the golden contract errors).
 */
export function finishError(thrown) {
  if (!(thrown instanceof ErrorData)) return thrown;
  const [message, code, props] = JSON.parse(thrown.json);
  const error = new NativeError(message);
  Object.setPrototypeOf(error, (thrown.contract ? ContractError : EvidenceError).prototype);
  error.code = code;
  for (const [key, value] of props) error[key] = value;
  return error;
}

// A result whose JSON text has non-ASCII characters (Chinese messages, an artifact's
// Markdown) crosses as UTF-16 code units, a view of the module's memory read here at once:
// engines make a string of UTF-16 at memcpy speed, of UTF-8 with CJK text at ~4 ns a byte
// (V8: 12 µs for a 2.4 KB artifact). ASCII text still crosses as UTF-8 (a one-byte string).
const utf16 = typeof TextDecoder === "function" ? new TextDecoder("utf-16le", { ignoreBOM: true }) : undefined;

/**
 * `JSON.parse` of JSON text given as UTF-16 code units, or with `asText` the text itself
 * (internal). With `at`, the units from `at` on are an artifact's Markdown, set as the
 * parsed value's `content` (its `artifact`'s when `nested`), where its JSON holds "".
 */
export function jsonFromUtf16(units, asText, at, nested) {
  if (at === undefined) {
    const text = utf16.decode(units);
    return asText === true ? text : JSON.parse(text);
  }
  const value = JSON.parse(utf16.decode(units.subarray(0, at)));
  (nested === true ? value.artifact : value).content = utf16.decode(units.subarray(at));
  return value;
}

/** `jsonFromUtf16` for Node: its `Buffer` decodes UTF-16 faster than `TextDecoder` (internal). */
export function jsonFromUtf16Buffer(units, asText, at, nested) {
  const bytes = Buffer.from(units.buffer, units.byteOffset, units.byteLength);
  if (at === undefined) {
    const text = bytes.toString("utf16le");
    return asText === true ? text : JSON.parse(text);
  }
  const value = JSON.parse(bytes.toString("utf16le", 0, 2 * at));
  (nested === true ? value.artifact : value).content = bytes.toString("utf16le", 2 * at);
  return value;
}

/** `init` and `initSync` of a wasm-bindgen web module (`raw`): each initialises it, then registers these classes with it. */
export function initializers(raw) {
  const register = () => raw.__registerErrorClasses(EvidenceCheckError, ContractError, EvidenceError, errorData, utf16 && jsonFromUtf16);
  return {
    init: async (...args) => {
      const out = await raw.default(...args);
      register();
      return out;
    },
    initSync: (...args) => {
      const out = raw.initSync(...args);
      register();
      return out;
    },
  };
}
