// Writes tests/data/golden-all.json: every golden case with its expected output, in
// one file that the wasm tests (Node and headless Chromium) embed with include_str!.
// The native test `golden_bundle_is_current` fails when this file is out of date.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const data = join(dirname(fileURLToPath(import.meta.url)), "..", "tests", "data");
// The files' own text is spliced in, not re-serialised: JavaScript would turn the
// float 1.0 of a case into the integer 1 and change what the case tests.
const sets = [];
let count = 0;
for (const set of ["reference", "extra"]) {
  const entries = [];
  for (const name of readdirSync(join(data, set, "cases")).sort()) {
    const raw = (dir) => {
      const text = readFileSync(join(data, set, dir, name), "utf8").trim();
      JSON.parse(text); // must be JSON
      return text;
    };
    entries.push(`${JSON.stringify(name)}:{"case":${raw("cases")},"expected":${raw("expected")}}`);
    count++;
  }
  sets.push(`${JSON.stringify(set)}:{${entries.join(",")}}`);
}
writeFileSync(join(data, "golden-all.json"), `{${sets.join(",")}}\n`);
console.log(`wrote ${count} cases to tests/data/golden-all.json`);
