// Every annotation toWebAnnotations exports, for every golden case and the example, is
// valid under the 54 "must" JSON Schemas of the W3C's web-annotation-tests
// (tests/data/w3c, vendored with its origin and licence).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { ROOT, NOW, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const W3C = join(ROOT, "tests", "data", "w3c");

/** A draft-04 schema as ajv's draft-07 reads it: the root `id` as `$id`, no `$schema`. */
function draft07(schema) {
  const strip = (v) => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== "object") return v;
    const out = {};
    for (const [k, x] of Object.entries(v)) if (k !== "$schema") out[k] = strip(x);
    return out;
  };
  const { id, ...rest } = strip(schema);
  return { $id: id, ...rest };
}

function files(dir) {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
for (const f of files(join(W3C, "definitions")).filter((f) => f.endsWith(".json"))) ajv.addSchema(draft07(JSON.parse(readFileSync(f, "utf8"))));
const musts = JSON.parse(readFileSync(join(W3C, "annotations", "annotationMusts.test"), "utf8")).assertions;
const validators = musts.map((path) => {
  const schema = JSON.parse(readFileSync(join(W3C, path), "utf8"));
  assert.equal(schema.assertionType, "must", path);
  return [path, schema.expectedResult, ajv.compile(draft07(schema))];
});

/** The annotations exported for a golden case (none when its steps fail before). */
function exported(c) {
  let store;
  try {
    store = new ec.EvidenceStore(c.specs ?? [], { now: NOW });
    for (const s of c.ingest ?? []) {
      if (s.remove) store.remove(c.scope, s.remove);
      else if (s.read_result) store.ingestReadResult(c.scope, s.source_id, s.read_result);
      else store.ingest(c.scope, s.source_id, s.content);
    }
    for (const id of c.remove ?? []) store.remove(c.scope, id);
    if (c.report === undefined) return [];
    return ec.toWebAnnotations(c.report_scope ?? c.scope, c.report, store);
  } catch {
    return [];
  } finally {
    store?.free();
  }
}

function everyAnnotation() {
  const out = [];
  const golden = readJson("tests", "data", "golden-all.json");
  for (const set of ["reference", "extra"]) for (const [name, entry] of Object.entries(golden[set])) for (const a of exported(entry.case)) out.push([`${set}/${name}`, a]);
  const demo = readJson("examples", "demo.bundle.json");
  const store = new ec.EvidenceStore(demo.sources.map((s) => s.spec), { now: NOW });
  for (const s of demo.sources) store.ingest(demo.scope, s.spec.source_id, s.content);
  for (const a of ec.toWebAnnotations(demo.scope, demo.report, store)) out.push(["examples/demo", a]);
  store.free();
  // A source whose locator is not an IRI, and one that is a Markdown link.
  for (const locator of ["Spec, section 3", "[notes](https://example.org/notes)", "file:方案 A.md"]) {
    const spec = { source_id: "notes", title: "Notes", locator, filename: "notes.md", kind: "public" };
    const s = new ec.EvidenceStore([spec], { now: NOW });
    const ref = s.ingest(demo.scope, "notes", "Plan A works offline.");
    const report = { title: "R", claims: [{ claim_id: "k", text: "Plan A works offline.", kind: "fact", citations: [s.quote(demo.scope, ref, "works offline.", "c1")] }] };
    for (const a of ec.toWebAnnotations(demo.scope, report, s)) out.push([`locator ${JSON.stringify(locator)}`, a]);
    s.free();
  }
  return out;
}

test("the vendored suite is the 54 must schemas", () => {
  assert.equal(validators.length, 54);
});

test("every exported annotation passes every must schema of the W3C suite", () => {
  const all = everyAnnotation();
  // The golden cases that export any (61 annotations), the example (2) and the three locators.
  assert.ok(all.length >= 60, `only ${all.length} annotations: the extraction broke`);
  const failures = [];
  for (const [where, a] of all) {
    for (const [path, expected, validate] of validators) {
      const ok = validate(a);
      if (ok !== (expected === "valid")) failures.push(`${where} ${a.id}: ${relative(W3C, join(W3C, path))} ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    }
  }
  assert.deepEqual(failures.slice(0, 10), [], `${failures.length} failures of ${all.length} annotations`);
});

test("the schemas catch what the export used to write", () => {
  const [, a] = everyAnnotation().find(([w]) => w === "examples/demo");
  const stateless = structuredClone(a);
  delete stateless.target.state.id;
  const nonIri = structuredClone(a);
  nonIri.target.source = "Spec, section 3";
  const by = (path) => validators.find(([p]) => p.endsWith(path))[2];
  assert.equal(by("4.3-stateValidIfPresent.json")(a), true);
  assert.equal(by("4.3-stateValidIfPresent.json")(stateless), false);
  assert.equal(validators.every(([, , v]) => v(nonIri)), false);
});
