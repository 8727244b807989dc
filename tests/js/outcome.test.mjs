// Excerpt claims, coverage, finalize and gradeTask through the JS API in Node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { ROOT, readJson, userProject, userRequire } from "./helpers.mjs";

const ec = userRequire(userProject())("evidence-check");
const body = readFileSync(join(ROOT, "tests", "data", "tasks", "docs", "camera.md"), "utf8");
const camera = { id: "camera", title: "Entry camera", body };
const sha = createHash("sha256").update(body, "utf8").digest("hex");
const TASKS = readJson("tests", "data", "tasks", "tasks.json");

test("four camera facts are extracted and each supported", () => {
  const claims = ec.extractExcerpts(camera);
  assert.deepEqual(claims, [
    { item_id: "camera", sha256: sha, line: 2, quote: "- Item name: entry-level mirrorless camera.", text: "Item name: entry-level mirrorless camera." },
    { item_id: "camera", sha256: sha, line: 3, quote: "- Use: photographing lab set-ups and field notes.", text: "Use: photographing lab set-ups and field notes." },
    { item_id: "camera", sha256: sha, line: 4, quote: "- Borrowing requires: a signed equipment form.", text: "Borrowing requires: a signed equipment form." },
    { item_id: "camera", sha256: sha, line: 5, quote: "- Return: within three days, battery charged.", text: "Return: within three days, battery charged." },
  ]);
  for (const c of claims) assert.deepEqual(ec.checkExcerpt([camera], c), { supported: true, reason: null });
});

test("single-field mutations fail with their reasons", () => {
  const [c] = ec.extractExcerpts(camera);
  const check = (patch) => ec.checkExcerpt([camera], { ...c, ...patch });
  assert.deepEqual(check({ text: "100 in stock" }), { supported: false, reason: "text_does_not_match_quote" });
  assert.deepEqual(check({ sha256: "0".repeat(64) }), { supported: false, reason: "stale_digest" });
  assert.deepEqual(check({ line: 3 }), { supported: false, reason: "quote_not_at_line" });
  assert.deepEqual(check({ line: 9 }), { supported: false, reason: "line_out_of_range" });
  assert.deepEqual(check({ item_id: "tripod" }), { supported: false, reason: "unknown_item" });
  const third = ec.extractExcerpts(camera)[1];
  assert.deepEqual(check({ line: 3, quote: third.quote, text: third.text }), { supported: true, reason: null }, "supported, but another fact");
});

test("coverage: full, empty, one dropped, a duplicate, and not applicable", () => {
  const all = ec.extractExcerpts(camera);
  const ev = (claims, status) => ec.evaluateClaims([camera], "camera", claims, status);
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
  const claims = ec.extractExcerpts(camera);
  const read = [{ tool: "search", query: "camera", hits: ["camera"] }, { tool: "document", document: camera }];
  const rejected = ec.finalize(task, read, { status: "reserved", claims, text: "Done! Reserved." });
  assert.deepEqual([rejected.status, rejected.accepted, rejected.reasons, rejected.text], ["rejected", false, ["no_reserve_receipt"], ""]);

  const lost = { tool: "reserve", request: { item_id: "camera", quantity: 1, receipt_key: "rk" }, result: null };
  const unconfirmed = ec.finalize(task, [...read, lost], { status: "reserved", claims });
  assert.deepEqual([unconfirmed.status, unconfirmed.reasons, unconfirmed.recovery_key], ["unconfirmed", ["reply_lost"], "rk"]);

  const receipt = { ...lost, result: { status: "reserved", item_id: "camera", quantity: 1, remaining: 2, revision: 4, receipt: "rk" } };
  const bad = claims.map((c, i) => (i === 0 ? { ...c, sha256: "f".repeat(64) } : c));
  assert.deepEqual(ec.finalize(task, [...read, receipt], { status: "reserved", claims: bad }).reasons, ["claims_unsupported", "facts_missing"]);
  const ok = ec.finalize(task, [...read, receipt], { status: "reserved", claims, text: "policy prose" });
  assert.equal(ok.text, "Reserved 1 × camera; 2 left in stock (receipt rk, stock revision 4).");
  assert.ok(!JSON.stringify(ok).includes("policy prose"), "the policy's text is never delivered");
});

test("every fixture task passes gradeTask; broken runs fail for the right reason", () => {
  assert.ok(TASKS.length >= 17);
  for (const t of TASKS) {
    const grade = ec.gradeTask(t.expected, ec.finalize(t.task, t.observations, t.finish), t.effects);
    assert.deepEqual(grade.failed, [], t.task.task_id);
    assert.equal(grade.passed, true);
  }
  const facts = TASKS.filter((t) => ["info", "reserved", "insufficient"].includes(t.expected.status));
  for (const t of facts) {
    const run = (claims) => ec.gradeTask(t.expected, ec.finalize(t.task, t.observations, { ...t.finish, claims }), t.effects).failed;
    const claims = t.finish.claims;
    assert.deepEqual(run([]), ["status", "completeness"], `${t.task.task_id}: emptied`);
    const dropped = claims.filter((_, i) => i !== 1);
    assert.deepEqual(run(dropped), ["status", "completeness"], `${t.task.task_id}: dropped`);
    assert.deepEqual(run([...dropped, dropped[0]]), ["status", "completeness", "duplicates"], `${t.task.task_id}: duplicate`);
  }
});

test("bad input is a ContractError with paths", () => {
  assert.throws(
    () => ec.finalize({ task_id: "t", kind: "reserve" }, [{ tool: "telepathy" }], { status: "info" }),
    (e) => e.name === "ContractError" && e.issues[0].path === "/item_id" && e.issues[1].path === "/quantity",
  );
  assert.throws(
    () => ec.checkExcerpt([camera, camera], ec.extractExcerpts(camera)[0]),
    (e) => e.issues[0].code === "duplicate_document_id" && e.issues[0].path === "/1/id",
  );
});
