// Typed usage from a CommonJS module: `require("evidence-check")` gets the Node build.
import ec = require("evidence-check");
import ex = require("evidence-check/extras");

const err: unknown = new Error("x");
if (err instanceof ec.ContractError) {
  console.log(err.issues.map((i) => i.path));
}
console.log(ec.digestText("abc").length, ex.reportJsonSchema({ dialect: "openai-strict" }));
