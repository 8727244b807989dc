#!/usr/bin/env bash
# Seeds the fuzz corpora from the project's own test data (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p fuzz/corpus/parse_report fuzz/corpus/check_bundle fuzz/corpus/store_ops fuzz/corpus/excerpt_outcome
for f in tests/data/reference/cases/*.json tests/data/extra/cases/*.json; do
  node -e 'const c=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); if (c.report) process.stdout.write(JSON.stringify(c.report))' "$f" > "fuzz/corpus/parse_report/$(basename "$f")"
done
cp examples/demo.bundle.json fuzz/corpus/check_bundle/demo.json
# The demo with CRLF, lone CR and escaped contents.
node -e 'const b=JSON.parse(require("fs").readFileSync("examples/demo.bundle.json","utf8")); b.sources.forEach((s,i)=>{s.content=s.content.replace(/\n/g, i%2?"\r":"\r\n")+"\t\u00e9\u{1F600}\"\\"}); process.stdout.write(JSON.stringify(b))' > fuzz/corpus/check_bundle/demo-crlf.json
printf '\x01\x02\x03\x04# T\r\n方案 A 😀 offline.\n' > fuzz/corpus/store_ops/seed
node -e '
const t = JSON.parse(require("fs").readFileSync("tests/data/tasks/tasks.json", "utf8"));
t.slice(0, 6).forEach((e, i) => require("fs").writeFileSync(`fuzz/corpus/excerpt_outcome/task${i}.json`, JSON.stringify({
  documents: e.observations.filter((o) => o.tool === "document").map((o) => o.document), claims: e.finish.claims,
  item: e.task.item_id ?? "", task: e.task, observations: e.observations, finish: e.finish, expected: e.expected, effects: e.effects })));'
