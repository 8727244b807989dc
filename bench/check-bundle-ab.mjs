// checkBundle on the demo bundle for two builds side by side in one process: rounds
// alternate between them (the order flips each round), each call's input differs in its
// first source's fetched_at (no cache could help), medians of rounds and the paired
// ratio B/A by round. Copy a build first (cp -r pkg /tmp/old-pkg), rebuild, then:
//   A=/tmp/old-pkg B=pkg node bench/check-bundle-ab.mjs [ROUNDS]
// "same result" compares the two builds' results as JSON text (key order included).
import { createRequire } from "node:module"; import { readFileSync } from "node:fs"; import { join, resolve } from "node:path";
const require = createRequire(import.meta.url);
const builds = { A: require(join(resolve(process.env.A), "node", "index.js")), B: require(join(resolve(process.env.B), "node", "index.js")) };
const demo = JSON.parse(readFileSync(new URL("../examples/demo.bundle.json", import.meta.url), "utf8"));
const NOW = "2026-11-29T00:00:00+00:00";
const stamp = (i) => { const s = i % 86400; const two = (n) => String(n).padStart(2, "0"); return `2026-11-28T${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}+00:00`; };
const N = 4000; const texts = Array.from({ length: N }, (_, i) => JSON.stringify({ ...demo, sources: demo.sources.map((s, k) => (k === 0 ? { ...s, fetched_at: stamp(i) } : s)) }));
const same = JSON.stringify(builds.A.checkBundle(texts[7], { now: NOW })) === JSON.stringify(builds.B.checkBundle(texts[7], { now: NOW }));
const cases = { "text {now}": (ec, i) => ec.checkBundle(texts[i % N], { now: NOW }) };
const ROUNDS = +(process.argv[2] ?? 30), MS = 120; let k = 0; const res = {};
const round = (name, c, keep) => { const f = cases[c]; let n = 0; const s = performance.now(); let e; do { for (let j = 0; j < 25; j++) f(builds[name], k++); n += 25; e = performance.now(); } while (e - s < MS); if (keep) ((res[c] ??= { A: [], B: [] })[name]).push((e - s) * 1000 / n); };
for (let r = 0; r < ROUNDS + 3; r++) for (const c of Object.keys(cases)) { const order = r % 2 ? ["A", "B"] : ["B", "A"]; for (const b of order) round(b, c, r >= 3); }
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
console.log("same result:", same);
for (const [c, { A, B }] of Object.entries(res)) { const pr = med(A.map((a, j) => B[j] / a)); console.log(c.padEnd(30), "A", med(A).toFixed(2), "µs  B", med(B).toFixed(2), "µs  B/A", (med(B) / med(A)).toFixed(3), " paired", pr.toFixed(3)); }
