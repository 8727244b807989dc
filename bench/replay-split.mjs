// The step-by-step replay of bench/bench.mjs (handles), split per call, for two builds
// side by side in one process: rounds alternate between them (the order flips each
// round), and each call's median of rounds is printed with the ratio B/A. Copy a build
// first (cp -r pkg /tmp/old-pkg), rebuild, then:
//   A=/tmp/old-pkg B=pkg [ROUNDS=40] [MS=250] node bench/replay-split.mjs
// Two copies of one build (A and B in different directories) show the machine's noise.
import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DATA = join(ROOT, "tests", "data", "reference", "cases");
if (!process.env.A || !process.env.B) throw new Error("A=<pkg dir> B=<pkg dir>: two builds to compare");
const builds = { A: require(join(resolve(process.env.A), "node", "index.js")), B: require(join(resolve(process.env.B), "node", "index.js")) };
const files = readdirSync(DATA).sort();
const cases = files.map((f) => ({ f, ...JSON.parse(readFileSync(join(DATA, f), "utf8")) })).filter((c) => c.op !== "quote");
const nowAt = (i) => { const s = i % 86400; const two = (n) => String(n).padStart(2, "0"); return `2026-11-29T${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}+00:00`; };
let acc;
const T = (k, f) => { const t = performance.now(); try { return f(); } finally { acc[k] = (acc[k] ?? 0) + performance.now() - t; } };
function replay(ec, c, i) {
  const scope = c.scope, now = nowAt(i); let store, parsed, reviews;
  try { store = T("store.new", () => new ec.EvidenceStore(c.specs ?? [], { now })); } catch { return; }
  try {
    for (const step of c.ingest ?? []) { try { T("ingest", () => { if (step.remove) store.remove(scope, step.remove); else if (step.read_result) store.ingestReadResult(scope, step.source_id, step.read_result); else store.ingest(scope, step.source_id, step.content); }); } catch {} }
    for (const id of c.remove ?? []) T("remove", () => store.remove(scope, id));
    const input = typeof c.report?.title === "string" ? { ...c.report, title: `${c.report.title} #${i}` } : c.report;
    try { parsed = T("parseReport", () => ec.parseReport(JSON.stringify(input))); } catch { return; }
    const rscope = c.report_scope ?? scope;
    reviews = T("reviews.new", () => new ec.Reviews());
    for (const r of c.reviews ?? []) { try { const review = T("recordReview", () => ec.recordReview(r.scope ?? rscope, r.report ?? parsed, r.claim_id, r.verdict, r.note, { now })); T("reviews.add", () => reviews.add(review)); } catch {} }
    try { T("assess", () => ec.assess(rscope, parsed, store, reviews)); } catch {}
    if (c.render) { try { T("render", () => ec.render(rscope, parsed, store, reviews, { now })); } catch {} }
  } finally { T("free", () => { store.close(); store.free(); parsed?.free(); reviews?.free(); }); }
}
const ROUNDS = +(process.env.ROUNDS ?? 40), MS = +(process.env.MS ?? 250);
const res = { A: [], B: [] }; let i = 0;
const round = (name) => { acc = {}; let reps = 0; const t0 = performance.now(); while (performance.now() - t0 < MS) { for (const c of cases) replay(builds[name], c, i++); reps++; } const tot = performance.now() - t0; const per = {}; for (const k in acc) per[k] = acc[k] * 1000 / (reps * cases.length); per.total = tot * 1000 / (reps * cases.length); res[name].push(per); };
for (let w = 0; w < 4; w++) { round("A"); round("B"); }
res.A = []; res.B = [];
for (let r = 0; r < ROUNDS; r++) { if (r % 2) { round("A"); round("B"); } else { round("B"); round("A"); } }
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const keys = Object.keys(res.A[0]);
console.log("µs per case (median of", ROUNDS, "rounds)   A          B      B/A");
for (const k of keys) { const a = med(res.A.map((x) => x[k] ?? 0)), b = med(res.B.map((x) => x[k] ?? 0)); console.log(k.padEnd(14), a.toFixed(1).padStart(8), b.toFixed(1).padStart(8), (b / a).toFixed(3).padStart(8)); }
// paired ratio of totals
const ratios = res.A.map((a, j) => res.B[j].total / a.total); console.log("paired total ratio B/A median", med(ratios).toFixed(3));
