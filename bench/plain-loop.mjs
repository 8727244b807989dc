// W3's floor (bench/bench.mjs): what `check -` does, as a plain loop in one process. It
// reads stdin (a JSON Lines file) in large reads, hands each line's bytes to checkBundle
// with the CLI's options, and writes `JSON.stringify({line, ...result})` lines to stdout.
//   node bench/plain-loop.mjs PKG NOW POLICY < in.jsonl > out.jsonl
import { createRequire } from "node:module";
import { readSync, writeSync } from "node:fs";

const [pkg, now, policy] = process.argv.slice(2);
const ec = createRequire(import.meta.url)(pkg);
const options = { render: true, lang: "en", now, policy: ec.parsePolicy(policy) };
const buffer = Buffer.allocUnsafe(64 * 1024 * 1024);
let fill = 0;
let line = 0;
const take = (bytes) => {
  line++;
  if (bytes.length === 0) return;
  const out = Buffer.from(JSON.stringify({ line, ...ec.checkBundle(bytes, options) }) + "\n");
  for (let at = 0; at < out.length; ) at += writeSync(1, out, at, out.length - at);
};
for (;;) {
  const n = readSync(0, buffer, fill, buffer.length - fill, null);
  if (n === 0) break;
  const region = buffer.subarray(0, fill + n);
  let start = 0;
  let at = region.indexOf(0x0a, fill);
  fill += n;
  while (at !== -1) {
    take(region.subarray(start, at));
    start = at + 1;
    at = region.indexOf(0x0a, start);
  }
  buffer.copy(buffer, 0, start, fill);
  fill -= start;
}
if (fill > 0) take(buffer.subarray(0, fill));
