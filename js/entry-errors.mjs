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

/** `init` and `initSync` of a wasm-bindgen web module (`raw`): each initialises it, then registers these classes with it. */
export function initializers(raw) {
  const register = () => raw.__registerErrorClasses(EvidenceCheckError, ContractError, EvidenceError);
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
