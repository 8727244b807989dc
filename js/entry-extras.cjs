// The CommonJS entry of evidence-check/extras (Node): the second wasm module, and the
// error classes of the main entry (the same errors.js), registered with it at once.
"use strict";
const classes = require("./errors.js");
module.exports = require("./evidence_check_extras.js");
module.exports.__registerErrorClasses(classes.EvidenceCheckError, classes.ContractError, classes.EvidenceError, classes.errorData, classes.jsonFromUtf16Buffer);
delete module.exports.__registerErrorClasses;
module.exports.EvidenceCheckError = classes.EvidenceCheckError;
module.exports.ContractError = classes.ContractError;
module.exports.EvidenceError = classes.EvidenceError;
