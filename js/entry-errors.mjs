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

/** `init` and `initSync` of a wasm-bindgen web module (`raw`): each initialises it, then registers these classes with it. */
export function initializers(raw) {
  const register = () => raw.__registerErrorClasses(EvidenceCheckError, ContractError, EvidenceError, utf16 && jsonFromUtf16);
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
