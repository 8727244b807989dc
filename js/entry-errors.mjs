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
