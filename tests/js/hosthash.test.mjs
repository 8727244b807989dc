// Host hashing: in Node, texts from HOST_HASH_MIN_BYTES up are hashed by node:crypto on a
// view of wasm memory (the host's SHA-256, installed once). Every golden case gives the
// same results with a host hasher and with none; the entry registers node:crypto; a host
// hasher that fails or answers nonsense is not believed.
import { test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NOW, PKG, ROOT, readJson } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const NODE = join(PKG, "node");

/** A fresh instance of the Node build (its own wasm memory and registrations). */
function fresh(entry) {
  for (const f of ["index.js", "evidence_check.js", "errors.js", "guard.js"]) delete require.cache[require.resolve(join(NODE, f))];
  return require(join(NODE, entry));
}

/** The raw module with the error classes and `hash` registered as its host hasher for every size (`null`: none). */
function rawWith(hash, minBytes = 0) {
  const ec = fresh("evidence_check.js");
  const classes = require(join(NODE, "errors.js"));
  ec.__registerErrorClasses(classes.EvidenceCheckError, classes.ContractError, classes.EvidenceError);
  ec.__registerHostHasher(hash, minBytes);
  return ec;
}

const sha = (bytes) => crypto.createHash("sha256").update(bytes).digest("hex");
const normalised = (text) => text.replace(/\r\n?/g, "\n");

/** Every output of a golden case replayed through the JS API, errors as their codes. */
function replay(ec, c) {
  const out = [];
  const rec = (f) => {
    try {
      const v = f();
      out.push(v === undefined ? null : v);
      return v;
    } catch (e) {
      out.push({ error: e.code ?? e.message });
      return undefined;
    }
  };
  const store = rec(() => new ec.EvidenceStore(c.specs ?? [], { now: NOW }));
  if (!store) return out;
  out.pop();
  const refs = {};
  for (const step of c.ingest ?? []) {
    const ref = rec(() => (step.remove ? store.remove(c.scope, step.remove) : step.read_result ? store.ingestReadResult(c.scope, step.source_id, step.read_result) : store.ingest(c.scope, step.source_id, step.content)));
    if (ref?.digest) refs[ref.source_id] = ref;
  }
  for (const id of c.remove ?? []) rec(() => store.remove(c.scope, id));
  for (const q of c.quotes ?? []) rec(() => store.quote(c.scope, refs[q.source_id], q.text, q.citation_id));
  if (c.report) {
    const scope = c.report_scope ?? c.scope;
    // parseReport gives a ReportHandle: its parsed report (toJSON) is what is compared.
    const report = rec(() => {
      const handle = ec.parseReport(c.report);
      const parsed = handle.toJSON();
      handle.free?.();
      return parsed;
    });
    const reviews = (c.reviews ?? []).map((r) => rec(() => ec.recordReview(r.scope ?? scope, r.report ?? c.report, r.claim_id, r.verdict, r.note, { now: NOW }))).filter((r) => r && !r.error);
    if (report) {
      rec(() => ec.assess(scope, c.report, store, reviews));
      if (c.render) rec(() => ec.render(scope, c.report, store, reviews, { now: NOW }));
    }
  }
  store.free();
  return out;
}

const golden = readJson("tests", "data", "golden-all.json");
const cases = Object.values(golden).flatMap((set) => Object.entries(set));

test("every golden case gives the same results with a host hasher and with none, the digests its expected ones", () => {
  const seen = [];
  const ec = rawWith((bytes) => {
    seen.push(bytes.length);
    return sha(bytes);
  });
  const plain = rawWith(null);
  assert.ok(cases.length >= 52, `${cases.length} golden cases`);
  let hashed = 0;
  for (const [name, { case: c, expected }] of cases) {
    seen.length = 0;
    const on = replay(ec, c);
    const byHost = seen.length;
    const off = replay(plain, c);
    assert.deepEqual(on, off, name);
    hashed += byHost;
    const refs = on.filter((x) => x && typeof x.digest === "string" && x.source_id);
    for (const [i, entry] of (expected.ingest_log ?? []).entries()) {
      if (entry.digest) assert.ok(refs.some((r) => r.digest === entry.digest), `${name}: ingest ${i} digest ${entry.digest} not among the refs`);
    }
  }
  assert.ok(hashed >= 52, `the host hasher hashed only ${hashed} texts over every case`);
});

test("the host gets a view of wasm memory, not a copy, holding the LF-normalised UTF-8 bytes", () => {
  const views = [];
  const ec = rawWith((bytes) => {
    views.push({ isView: bytes.buffer.byteLength % 65536 === 0 && bytes.buffer.byteLength > bytes.length, text: Buffer.from(bytes).toString("utf8") });
    return sha(bytes);
  });
  const text = "第一行\r\n😀 second\rthird\n".repeat(300);
  const store = new ec.EvidenceStore([{ source_id: "s", title: "S", locator: "x:s", filename: "s.md", kind: "public" }], { now: NOW, maxSourceBytes: 1 << 20 });
  const ref = store.ingest({ tenant_id: "t", user_id: "u" }, "s", text);
  assert.deepEqual(views, [{ isView: true, text: normalised(text) }]);
  assert.equal(ref.digest, sha(normalised(text)));
  assert.equal(ref.digest, ec.digestText(text));
});

test("a host hasher that throws, returns nothing or no lower-case digest is not believed; one that answers is", () => {
  const text = "x".repeat(5000);
  const spec = [{ source_id: "s", title: "S", locator: "x:s", filename: "s.md", kind: "public" }];
  const digestWith = (hash) => new (rawWith(hash).EvidenceStore)(spec, { now: NOW, maxSourceBytes: 1 << 20 }).ingest({ tenant_id: "t", user_id: "u" }, "s", text).digest;
  const right = sha(Buffer.from(text));
  for (const bad of [() => { throw new Error("no"); }, () => undefined, () => 42, () => right.toUpperCase(), () => right.slice(1)]) assert.equal(digestWith(bad), right);
  // A well-formed digest is taken as the host's answer (which is why only a real SHA-256 may be registered).
  assert.equal(digestWith(() => "0".repeat(64)), "0".repeat(64));
});

test("the Node entry hands node:crypto the texts from 128 bytes up once they reach 256 KiB together (the module hashes the ones before), the results a module's without one", () => {
  const real = crypto.hash;
  const sizes = [];
  crypto.hash = (algorithm, bytes, encoding) => {
    sizes.push(bytes.length);
    return real(algorithm, bytes, encoding);
  };
  try {
    const plain = rawWith(null);
    const ec = fresh("index.js");
    assert.equal(ec.__registerHostHasher, undefined);
    const bundle = readJson("examples", "demo.bundle.json");
    const options = { now: NOW, maxSourceBytes: 1 << 20 };
    // Under 256 KiB so far: the 6 KB source and the report's canonical JSON stay in the module.
    bundle.sources[0].content += "大".repeat(2000) + "\r\n"; // 6002 UTF-8 bytes
    assert.deepEqual(ec.checkBundle(bundle, options), plain.checkBundle(bundle, options));
    assert.deepEqual(sizes, []);
    // A 300 KB source: node:crypto is loaded (the spy is what it finds) and hashes from then on.
    bundle.sources[0].content += "大".repeat(100000) + "\r\n";
    const on = ec.checkBundle(bundle, options);
    // The long source (the two others have 52 bytes, under 128) and the report's canonical JSON.
    const sourceBytes = Buffer.byteLength(normalised(bundle.sources[0].content));
    assert.equal(sizes[0], sourceBytes);
    assert.equal(sizes.length, 2);
    assert.ok(sizes.every((n) => n >= 128), String(sizes));
    const off = plain.checkBundle(bundle, options);
    assert.equal(sizes.length, 2);
    assert.deepEqual(on, off);
    const store = new plain.EvidenceStore(bundle.sources.map((s) => s.spec), options);
    store.ingest(bundle.scope, bundle.sources[0].spec.source_id, bundle.sources[0].content);
    assert.equal(sizes.length, 2);
    const hosted = new ec.EvidenceStore(bundle.sources.map((s) => s.spec), options);
    const ref = hosted.ingest(bundle.scope, bundle.sources[0].spec.source_id, bundle.sources[0].content);
    assert.deepEqual(sizes.slice(2), [sourceBytes]);
    assert.equal(ref.digest, sha(Buffer.from(normalised(bundle.sources[0].content))));
    // A text of a few hundred bytes goes to node:crypto too (it is faster from ~100 bytes).
    const short = hosted.ingest(bundle.scope, bundle.sources[1].spec.source_id, "x".repeat(200));
    assert.deepEqual(sizes.slice(3), [200]);
    assert.equal(short.digest, sha(Buffer.from("x".repeat(200))));
  } finally {
    crypto.hash = real;
  }
});

test("an artifact's and a ReportHandle's digests are hashed by the host too, the same digests as a module's without one", () => {
  const hashed = [];
  const ec = rawWith((bytes) => {
    hashed.push(Buffer.from(bytes).toString("utf8"));
    return sha(bytes);
  });
  const plain = rawWith(null);
  let artifacts = 0;
  for (const [name, { case: c }] of cases) {
    if (!c.render || !c.report) continue;
    const run = (ec) => {
      hashed.length = 0;
      const scope = c.report_scope ?? c.scope;
      let store;
      try {
        store = new ec.EvidenceStore(c.specs ?? [], { now: NOW });
      } catch {
        return null;
      }
      for (const step of c.ingest ?? []) {
        try {
          if (step.content !== undefined) store.ingest(c.scope, step.source_id, step.content);
        } catch {}
      }
      let handle;
      try {
        handle = ec.parseReport(JSON.stringify(c.report));
      } catch {
        return null;
      }
      const reviews = new ec.Reviews();
      for (const r of c.reviews ?? []) {
        try {
          reviews.add(ec.recordReview(r.scope ?? scope, handle, r.claim_id, r.verdict, r.note, { now: NOW }));
        } catch {}
      }
      let artifact;
      try {
        artifact = ec.render(scope, handle, store, reviews, { now: NOW });
      } catch (e) {
        artifact = { error: e.code };
      }
      return { artifact, digest: handle.digest, hashed: [...hashed] };
    };
    const on = run(ec);
    const off = run(plain);
    if (!on) continue;
    assert.deepEqual(on.artifact, off.artifact, name);
    assert.equal(on.digest, off.digest, name);
    if (on.artifact.content !== undefined) {
      artifacts++;
      assert.equal(on.artifact.content_digest, sha(Buffer.from(on.artifact.content)), name);
      assert.ok(on.hashed.includes(on.artifact.content), `${name}: the artifact was not hashed by the host`);
    }
    // The handle's canonical JSON went to the host (recordReview has no store to ask).
    assert.ok(on.hashed.some((t) => t.startsWith('{"claims":')), `${name}: the report's canonical JSON was not hashed by the host`);
  }
  assert.ok(artifacts >= 10, `${artifacts} artifacts`);
});

test("the web entry registers no host hasher (WebCrypto is asynchronous)", async () => {
  const web = await import(join(PKG, "web", "index.js"));
  assert.equal(web.__registerHostHasher, undefined);
});

// ---- start-up: node:crypto only when it pays --------------------------------------------

const DEMO = join(ROOT, "examples", "demo.bundle.json");

/** A first checkBundle in a new Node process (a script file, as an application runs one:
 * `node -e` loads node:crypto before the script), `/dev/urandom` failing if `noUrandom`:
 * the crypto modules loaded, how often `/dev/urandom` was opened, the result. */
function firstCheckInChild(noUrandom) {
  const dir = mkdtempSync(join(tmpdir(), "evidence-check-start-"));
  const script = join(dir, "first.js");
  writeFileSync(
    script,
    `const fs = require("node:fs");
const open = fs.openSync;
let urandom = 0;
fs.openSync = (path, ...rest) => {
  if (path === "/dev/urandom") {
    urandom++;
    if (${noUrandom}) throw new Error("ENOENT: no /dev/urandom");
  }
  return open(path, ...rest);
};
const ec = require(${JSON.stringify(join(NODE, "index.js"))});
const result = ec.checkBundle(fs.readFileSync(${JSON.stringify(DEMO)}, "utf8"), { now: ${JSON.stringify(NOW)} });
process.stdout.write(JSON.stringify({ crypto: process.moduleLoadList.filter((m) => /crypto/.test(m)), urandom, result }));`,
  );
  const run = spawnSync(process.execPath, [script], { encoding: "utf8" });
  rmSync(dir, { recursive: true, force: true });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

test("start-up: requiring the Node entry and a first checkBundle load no node:crypto and read no random bytes", () => {
  const first = firstCheckInChild(false);
  assert.deepEqual(first.crypto, [], "node:crypto (or the global crypto, which loads it) was loaded");
  assert.equal(first.urandom, 0, "the maps are ordered: no random keys are needed");
  const ec = fresh("index.js");
  assert.deepEqual(ec.checkBundle(readJson("examples", "demo.bundle.json"), { now: NOW }), first.result);
});

