// Issue 33: how much WebAssembly memory a call takes, as a multiple of its input. Each
// measure is a fresh process (a fresh module instance), so the growth of the memory's
// byteLength from before the call to after it is the call's peak (wasm memory never
// shrinks). Inputs of two sizes are compared: a cost is a ratio of two sizes, never a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { PKG, NOW } from "./helpers.mjs";

const MIB = 1024 * 1024;

// Issue 33 (low): a string under a limit in UTF-16 units but over it in UTF-8 bytes.
const UTF8_CHILD = `
const ec = require(${JSON.stringify(join(PKG, "node", "index.js"))});
const [units, what] = process.argv.slice(1).map((v, i) => (i === 0 ? Number(v) : v));
const text = "é".repeat(units);
const before = ec.wasmMemoryBytes();
let e;
try {
  if (what === "ingest") new ec.EvidenceStore([{ source_id: "s", title: "T", locator: "L", filename: "s.md", kind: "public" }], { policy: "documents" }).ingest({ tenant_id: "t", user_id: "u" }, "s", text);
  else ec.parseReport(JSON.stringify({ title: text, claims: [] }), { policy: { extends: "documents", max_input_bytes: 16 * ${MIB} } });
} catch (err) { e = err; }
console.log(JSON.stringify({ grown: ec.wasmMemoryBytes() - before, code: e?.code, size: e?.detail?.size, message: e?.issues?.[0]?.message ?? e?.message }));`;

test("a string under its limit in UTF-16 units but over it in UTF-8 bytes is refused by its exact size before it is copied", () => {
  for (const what of ["ingest", "parseReport"]) {
    // 10 and 15 million units of é: 20 and 30 MB of UTF-8, over the 16 MiB limit.
    const runs = [10_000_000, 15_000_000].map((units) => {
      const r = spawnSync(process.execPath, ["-e", UTF8_CHILD, String(units), what], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      return { units, ...JSON.parse(r.stdout) };
    });
    for (const r of runs) {
      console.log(`# ${what}: ${r.units} units (${2 * r.units} bytes): ${r.code}, memory grew by ${r.grown}`);
      // Measured before anything is allocated (a string over a third of its limit in units).
      assert.ok(r.grown <= MIB, `${what}: memory grew by ${r.grown} bytes for a refusal`);
      if (what === "ingest") assert.deepEqual([r.code, r.size], ["source_too_large", 2 * r.units]);
      else assert.ok(r.code === "contract" && r.message.includes(`the input is ${2 * r.units + 24} bytes`), r.message);
    }
    // Half again as long costs no more.
    assert.ok(runs[1].grown <= runs[0].grown, `${runs[0].grown} then ${runs[1].grown}`);
  }
});
