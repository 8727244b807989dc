// The CommonJS entry of evidence-check/extras (Node): the same module as the main entry
// (one WebAssembly module holds every export); kept as a subpath so that imports of it work.
"use strict";
module.exports = require("./index.js");
