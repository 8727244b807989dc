// Excerpt claims, coverage, finalize and gradeTask through the JS API in Node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { ROOT, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const ex = userRequire(userProject())("evidence-check/extras"); // schemas, annotations, excerpts, outcomes, offsets, importers
const body = readFileSync(join(ROOT, "tests", "data", "tasks", "docs", "camera.md"), "utf8");
const camera = { id: "camera", title: "Entry camera", body };
const sha = createHash("sha256").update(body, "utf8").digest("hex");
const TASKS = readJson("tests", "data", "tasks", "tasks.json");

test("four camera facts are extracted and each supported", () => {
  const claims = ex.extractExcerpts(camera);
  assert.deepEqual(claims, [
    { item_id: "camera", sha256: sha, line: 2, quote: "- Item name: entry-level mirrorless camera.", text: "Item name: entry-level mirrorless camera." },
    { item_id: "camera", sha256: sha, line: 3, quote: "- Use: photographing lab set-ups and field notes.", text: "Use: photographing lab set-ups and field notes." },
    { item_id: "camera", sha256: sha, line: 4, quote: "- Borrowing requires: a signed equipment form.", text: "Borrowing requires: a signed equipment form." },
    { item_id: "camera", sha256: sha, line: 5, quote: "- Return: within three days, battery charged.", text: "Return: within three days, battery charged." },
  ]);
  for (const c of claims) assert.deepEqual(ex.checkExcerpt([camera], c), { supported: true, reason: null });
});

test("single-field mutations fail with their reasons", () => {
  const [c] = ex.extractExcerpts(camera);
  const check = (patch) => ex.checkExcerpt([camera], { ...c, ...patch });
  assert.deepEqual(check({ text: "100 in stock" }), { supported: false, reason: "text_does_not_match_quote" });
  assert.deepEqual(check({ sha256: "0".repeat(64) }), { supported: false, reason: "stale_digest" });
  assert.deepEqual(check({ line: 3 }), { supported: false, reason: "quote_not_at_line" });
  assert.deepEqual(check({ line: 9 }), { supported: false, reason: "line_out_of_range" });
  assert.deepEqual(check({ item_id: "tripod" }), { supported: false, reason: "unknown_item" });
  const third = ex.extractExcerpts(camera)[1];
  assert.deepEqual(check({ line: 3, quote: third.quote, text: third.text }), { supported: true, reason: null }, "supported, but another fact");
});

test("coverage: full, empty, one dropped, a duplicate, and not applicable", () => {
  const all = ex.extractExcerpts(camera);
  const ev = (claims, status) => ex.evaluateClaims([camera], "camera", claims, status);
  assert.deepEqual(ev(all, "info"), {
    support_rate: 1, supported: 4, total: 4, covered: 4, required: 4, coverage: 1, duplicates: 0,
    support_pass: true, completeness_pass: true, duplicates_pass: true, passed: true,
  });
  assert.deepEqual(ev([], "info"), {
    support_rate: null, supported: 0, total: 0, covered: 0, required: 4, coverage: 0, duplicates: 0,
    support_pass: true, completeness_pass: false, duplicates_pass: true, passed: false,
  });
  assert.equal(ev(all.slice(1), "reserved").coverage, 0.75);
  const dup = ev([...all.slice(1), all[1]], "insufficient");
  assert.deepEqual([dup.coverage, dup.duplicates, dup.duplicates_pass, dup.passed], [0.75, 1, false, false]);
  for (const status of ["not_found", "denied", "abstain"]) {
    assert.equal(ev([], status).coverage, null);
    assert.equal(ev(all, status).passed, false, `${status} with claims fails`);
  }
  assert.throws(() => ev(all, "done"), (e) => e.code === "invalid_argument");
});

test("finalize: a cited 'reserved' without a receipt is rejected; a lost reply is unconfirmed", () => {
  const task = { task_id: "t1", kind: "reserve", item_id: "camera", quantity: 1 };
  const claims = ex.extractExcerpts(camera);
  const read = [{ tool: "search", query: "camera", hits: ["camera"] }, { tool: "document", document: camera }];
  const rejected = ex.finalize(task, read, { status: "reserved", claims, text: "Done! Reserved." });
  assert.deepEqual([rejected.status, rejected.accepted, rejected.reasons, rejected.text], ["rejected", false, ["no_reserve_receipt"], ""]);

  const lost = { tool: "reserve", request: { item_id: "camera", quantity: 1, receipt_key: "rk" }, result: null };
  const unconfirmed = ex.finalize(task, [...read, lost], { status: "reserved", claims });
  assert.deepEqual([unconfirmed.status, unconfirmed.reasons, unconfirmed.recovery_key], ["unconfirmed", ["reply_lost"], "rk"]);

  const receipt = { ...lost, result: { status: "reserved", item_id: "camera", quantity: 1, remaining: 2, revision: 4, receipt: "rk" } };
  const bad = claims.map((c, i) => (i === 0 ? { ...c, sha256: "f".repeat(64) } : c));
  assert.deepEqual(ex.finalize(task, [...read, receipt], { status: "reserved", claims: bad }).reasons, ["claims_unsupported", "facts_missing"]);
  const ok = ex.finalize(task, [...read, receipt], { status: "reserved", claims, text: "policy prose" });
  assert.equal(ok.text, "Reserved 1 × camera; 2 left in stock (receipt rk, stock revision 4).");
  assert.ok(!JSON.stringify(ok).includes("policy prose"), "the policy's text is never delivered");
});

test("every fixture task passes gradeTask; broken runs fail for the right reason", () => {
  assert.ok(TASKS.length >= 17);
  for (const t of TASKS) {
    const grade = ex.gradeTask(t.expected, ex.finalize(t.task, t.observations, t.finish), t.effects);
    assert.deepEqual(grade.failed, [], t.task.task_id);
    assert.equal(grade.passed, true);
  }
  const facts = TASKS.filter((t) => ["info", "reserved", "insufficient"].includes(t.expected.status));
  for (const t of facts) {
    const run = (claims) => ex.gradeTask(t.expected, ex.finalize(t.task, t.observations, { ...t.finish, claims }), t.effects).failed;
    const claims = t.finish.claims;
    assert.deepEqual(run([]), ["status", "completeness"], `${t.task.task_id}: emptied`);
    const dropped = claims.filter((_, i) => i !== 1);
    assert.deepEqual(run(dropped), ["status", "completeness"], `${t.task.task_id}: dropped`);
    assert.deepEqual(run([...dropped, dropped[0]]), ["status", "completeness", "duplicates"], `${t.task.task_id}: duplicate`);
  }
});

test("bad input is a ContractError with paths", () => {
  assert.throws(
    () => ex.finalize({ task_id: "t", kind: "reserve" }, [{ tool: "telepathy" }], { status: "info" }),
    (e) => e.name === "ContractError" && e.issues[0].path === "/item_id" && e.issues[1].path === "/quantity",
  );
  assert.throws(
    () => ex.checkExcerpt([camera, camera], ex.extractExcerpts(camera)[0]),
    (e) => e.issues[0].code === "duplicate_document_id" && e.issues[0].path === "/1/id",
  );
});

// ---- the frozen catalogue and the recomputing grader (issue 16) ------------------------

const DOC_IDS = ["camera", "drone", "microphone", "projector", "tripod"];
const cardOf = (id) => ({ id, title: id, body: readFileSync(join(ROOT, "tests", "data", "tasks", "docs", `${id}.md`), "utf8") });
const fullCatalog = () => new ex.DocumentCatalog({ documents: DOC_IDS.map(cardOf) });
const outcomeOf = (t, options) => ex.finalize(t.task, t.observations, t.finish, options);
const byId = (id) => TASKS.find((t) => t.task.task_id === id);

test("DocumentCatalog: an import freezes the digest; the same body is a no-op; a changed body is refused", () => {
  const catalog = new ex.DocumentCatalog();
  assert.deepEqual(catalog.import(camera), { item_id: "camera", sha256: sha, lines: 5 });
  assert.deepEqual(catalog.import({ ...camera, title: "renamed" }), { item_id: "camera", sha256: sha, lines: 5 });
  const edited = { ...camera, body: body.replace(/\n/g, "\r\n") };
  const editedSha = createHash("sha256").update(edited.body, "utf8").digest("hex");
  assert.throws(
    () => catalog.import(edited),
    (e) =>
      e.name === "EvidenceError" && e.code === "document_changed" && e.item_id === "camera" &&
      e.expected_sha256 === sha && e.actual_sha256 === editedSha && e.message.includes(sha) && e.message.includes(editedSha),
  );
  assert.deepEqual(catalog.get("camera"), camera, "nothing was replaced");
  assert.equal(catalog.get("drone"), undefined);
  assert.deepEqual(catalog.ids(), ["camera"]);
  catalog.free();
  assert.throws(() => catalog.ids());
});

test("DocumentCatalog: round-trips through JSON with every digest verified; a tampered JSON is refused", () => {
  const catalog = fullCatalog();
  const saved = catalog.toJSON();
  assert.deepEqual(saved.documents.map((d) => d.id), DOC_IDS);
  assert.equal(saved.documents[0].sha256, sha);
  const loaded = ex.DocumentCatalog.fromJSON(JSON.stringify(catalog));
  assert.deepEqual(loaded.toJSON(), saved);
  assert.deepEqual(ex.DocumentCatalog.fromJSON(saved).ids(), DOC_IDS);
  const tampered = structuredClone(saved);
  tampered.documents[1].body += "- Stock: 100 drones.\n";
  assert.throws(
    () => ex.DocumentCatalog.fromJSON(tampered),
    (e) => e.code === "catalog_digest_mismatch" && e.item_id === "drone" && e.expected_sha256 === saved.documents[1].sha256 && e.actual_sha256 !== e.expected_sha256,
  );
  const dup = structuredClone(saved);
  dup.documents[1] = dup.documents[0];
  assert.throws(() => ex.DocumentCatalog.fromJSON(dup), (e) => e.name === "ContractError" && e.issues[0].path === "/documents/1/id");
  assert.throws(() => ex.DocumentCatalog.fromJSON(saved, { lang: "en", extra: 1 }), (e) => e.code === "invalid_argument");
  for (const c of [catalog, loaded]) c.free();
});

test("a catalogue goes wherever a document list goes", () => {
  const catalog = fullCatalog();
  const claims = ex.extractExcerpts(catalog, "camera");
  assert.deepEqual(claims, ex.extractExcerpts(camera));
  assert.throws(() => ex.extractExcerpts(catalog, "telescope"), (e) => e.code === "unknown_document" && e.item_id === "telescope");
  assert.throws(() => ex.extractExcerpts(catalog), (e) => e.code === "invalid_argument", "a catalogue needs the item id");
  assert.deepEqual(ex.checkExcerpt(catalog, claims[0]), { supported: true, reason: null });
  assert.deepEqual(ex.checkExcerpt(catalog, { ...claims[0], sha256: "0".repeat(64) }), { supported: false, reason: "stale_digest" });
  assert.deepEqual(ex.evaluateClaims(catalog, "camera", claims, "info"), ex.evaluateClaims([camera], "camera", claims, "info"));
  // finalize against the catalogue refuses a document that changed after import.
  const edited = { ...camera, body: body + "- Stock: 100 cameras.\n" };
  const query = { task_id: "q", kind: "query" };
  const finish = { status: "info", claims: ex.extractExcerpts(edited) };
  assert.equal(ex.finalize(query, [{ tool: "document", document: edited }], finish).accepted, true, "a list believes it");
  assert.ok(ex.finalize(query, [{ tool: "document", document: edited }], finish, { catalog }).reasons.includes("document_changed"));
  assert.throws(() => ex.finalize(query, [], finish, { catalog: [camera] }), (e) => e.code === "invalid_argument");
  catalog.free();
  assert.throws(() => ex.checkExcerpt(catalog, claims[0]), (e) => e.code === "handle_freed" && e.message.startsWith("documents: "));
});

test("gradeTask: an info outcome with its claims emptied passes only when trusted", () => {
  const catalog = fullCatalog();
  const t = byId("q-camera");
  const emptied = { ...outcomeOf(t), claims: [] };
  const trusted = ex.gradeTask(t.expected, emptied, t.effects);
  assert.deepEqual([trusted.passed, trusted.evaluation, trusted.from_caller], [true, "trusted", ["support", "completeness", "duplicates"]]);
  const g = ex.gradeTask(t.expected, emptied, t.effects, { catalog });
  assert.deepEqual([g.passed, g.evaluation, g.failed, g.from_caller], [false, "recomputed", ["completeness"], []]);
  assert.deepEqual([g.claim_evaluation.covered, g.claim_evaluation.required], [0, 4]);
  catalog.free();
});

test("gradeTask: each status's ledger rule, kept and broken, with and without the catalogue", () => {
  const catalog = fullCatalog();
  const cases = [
    ["q-camera", { ledger: 1 }, { ledger: 1 }, ["ledger_rule"]],
    ["r-camera-1", { ledger: 2 }, { ledger: 2 }, ["ledger_rule"]],
    ["r-camera-1", { remaining: 1 }, { remaining: 1 }, ["remaining", "stock"]],
    ["s-camera-4", { ledger: 1 }, { ledger: 1 }, ["ledger_rule"]],
    ["s-camera-4", { remaining: 2 }, { remaining: 2 }, ["stock"]],
    ["d-drone-1", { ledger: 1 }, { ledger: 1 }, ["ledger_rule"]],
    ["n-laptop", { ledger: 1 }, { ledger: 1 }, ["ledger_rule"]],
    ["a-borrowing", { ledger: 1, remaining: 2 }, { ledger: 1, remaining: 2 }, ["ledger_rule", "stock"]],
    ["u-tripod-1", { ledger: 2, remaining: 3 }, { ledger: 2, remaining: 3 }, ["ledger_rule", "stock"]],
  ];
  for (const [id, x, f, failed] of cases) {
    const t = byId(id);
    const outcome = outcomeOf(t);
    for (const options of [undefined, { catalog }]) {
      assert.deepEqual(ex.gradeTask(t.expected, outcome, t.effects, options).failed, [], `${id} as run`);
      assert.deepEqual(ex.gradeTask({ ...t.expected, ...x }, outcome, { ...t.effects, ...f }, options).failed, failed, `${id} broken`);
    }
  }
  // The issue's repro: an info answer expected and measured with one ledger row.
  const info = outcomeOf(byId("q-camera"));
  assert.deepEqual(ex.gradeTask({ status: "info", ledger: 1 }, info, { ...byId("q-camera").effects, ledger: 1 }).failed, ["ledger_rule"]);
  // Without the run's observations (effects.observations) the receipts fail.
  assert.deepEqual(ex.gradeTask({ status: "info", ledger: 0 }, info, { ledger: 0 }).receipt_reasons, ["no_observations"]);
  // unconfirmed is resolved only with the same key: another recovery key fails the receipts.
  const u = byId("u-tripod-1");
  const g = ex.gradeTask(u.expected, { ...outcomeOf(u), recovery_key: "rk-other" }, u.effects, { catalog });
  assert.deepEqual([g.failed, g.receipt_reasons], [["receipts"], ["no_lost_reply"]]);
  catalog.free();
});

test("the fixture set passes a recomputed grade; tampered outcomes fail for their reason", () => {
  const catalog = fullCatalog();
  for (const t of TASKS) {
    const outcome = outcomeOf(t, { catalog });
    assert.deepEqual(outcome, outcomeOf(t), `${t.task.task_id}: the catalogue decides the same`);
    const grade = (o) => ex.gradeTask(t.expected, o, t.effects, { catalog });
    const g = grade(outcome);
    assert.deepEqual([g.failed, g.evaluation, g.from_caller], [[], "recomputed", []], t.task.task_id);
    if (!["info", "reserved", "insufficient"].includes(t.expected.status)) continue;
    const claims = outcome.claims;
    const dropped = claims.filter((_, i) => i !== 1);
    assert.deepEqual(grade({ ...outcome, claims: [] }).failed, ["completeness"], `${t.task.task_id}: emptied`);
    assert.deepEqual(grade({ ...outcome, claims: dropped }).failed, ["completeness"], `${t.task.task_id}: dropped`);
    assert.deepEqual(grade({ ...outcome, claims: [...dropped, dropped[0]] }).failed, ["completeness", "duplicates"], `${t.task.task_id}: duplicate`);
  }
  catalog.free();
});
