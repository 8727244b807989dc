// The CLI's importers: `import anthropic` (a Messages API request and its response with
// citations → a bundle) and `locate` (a draft bundle with quote-only citations → a
// bundle). Both write a bundle that `evidence-check check` takes.
import { parseArgs } from "node:util";
import { describeError, errorClass, loadExtras, localeLang, readInputFile, terminalSafe, writeFileNoFollow } from "./load.mjs";

export const IMPORT_USAGE = `usage:
  evidence-check import anthropic REQUEST.json RESPONSE.json [--out BUNDLE.json]
                 [--tenant T] [--user U] [--fetched-at ISO-8601] [--source-ids ID,ID,…] [--uncited-as-gaps]
  evidence-check locate DRAFT_BUNDLE.json [--out BUNDLE.json] [--whitespace exact|loose] [--lang zh|en]

import anthropic  makes a bundle from a Messages API request (its document blocks are the
                  sources) and its response (each cited text block a claim). The scope is
                  --tenant/--user (default "local"/"local"). Check it with \`check\`.
locate            locates every quote-only citation ({source_id, quote, prefix?, suffix?,
                  occurrence?}) of the draft's report in its sources, by exact match;
                  absent or ambiguous quotes are listed and left out (their claims can
                  only be insufficient). --whitespace loose matches whitespace runs
                  loosely (the report then says so in a gap).
Both write the bundle to --out (or stdout) and what they found to stderr.
Exit code: 0 done, 1 some quotes were not located (locate), 3 unusable input.`;

const usage = (message) => new (errorClass("UsageError"))("usage", message);

function write(out, bundle) {
  const text = JSON.stringify(bundle, null, 2) + "\n";
  if (out === undefined) process.stdout.write(text);
  else writeFileNoFollow(out, text);
}

function options(argv, spec) {
  try {
    return parseArgs({ args: argv, options: spec, allowPositionals: true, strict: true });
  } catch (e) {
    throw usage(e.message);
  }
}

/** `import anthropic REQUEST RESPONSE`: the bundle, and a summary on stderr. */
export function importAnthropic(lib, argv) {
  const { values, positionals } = options(argv, {
    out: { type: "string" },
    tenant: { type: "string", default: "local" },
    user: { type: "string", default: "local" },
    "fetched-at": { type: "string" },
    "source-ids": { type: "string" },
    "uncited-as-gaps": { type: "boolean", default: false },
  });
  if (positionals[0] !== "anthropic") throw usage(`import takes "anthropic", not ${positionals[0] ?? "nothing"}`);
  if (positionals.length !== 3) throw usage("import anthropic takes REQUEST.json and RESPONSE.json");
  const opts = { scope: { tenant_id: values.tenant, user_id: values.user }, uncitedAsGaps: values["uncited-as-gaps"] };
  if (values["fetched-at"] !== undefined) opts.fetchedAt = values["fetched-at"];
  if (values["source-ids"] !== undefined) opts.sourceIds = values["source-ids"].split(",");
  const bundle = lib.fromAnthropicMessage(readInputFile(positionals[1]), readInputFile(positionals[2]), opts);
  write(values.out, bundle);
  const citations = bundle.report.claims.reduce((n, c) => n + c.citations.length, 0);
  const unmatched = (bundle.import_notes ?? []).filter((n) => n.unit === "unmatched").map((n) => n.citation_id);
  const lines = [`imported ${bundle.sources.length} documents, ${bundle.report.claims.length} claims, ${citations} citations`];
  if (unmatched.length) lines.push(`  ranges that hold their cited_text in no unit (kept as the model gave them; the check will report them): ${unmatched.join(", ")}`);
  process.stderr.write(terminalSafe(lines.join("\n")) + "\n");
  return 0;
}

/** `locate DRAFT_BUNDLE`: the located bundle; the issues on stderr; exit 1 when any. */
export function locate(lib, argv) {
  const { values, positionals } = options(argv, {
    out: { type: "string" },
    whitespace: { type: "string", default: "exact" },
    lang: { type: "string" },
  });
  if (positionals.length !== 1) throw usage("locate takes one DRAFT_BUNDLE.json");
  const opts = { whitespace: values.whitespace, lang: values.lang ?? localeLang() };
  const { bundle, located, issues } = lib.locateBundle(readInputFile(positionals[0]), opts);
  write(values.out, bundle);
  const lines = [`located ${located.length} quote${located.length === 1 ? "" : "s"}${located.some((l) => l.whitespace === "loose") ? " (some loosely: see the report's gaps)" : ""}`];
  for (const i of issues) {
    const where = i.ranges?.length ? ` at ${i.ranges.map(([s, e]) => `[${s}, ${e})`).join(", ")}` : "";
    lines.push(`  ${i.claim_id}${i.citation_id ? ` / ${i.citation_id}` : ""}: ${i.code}${i.count !== undefined ? ` (${i.count} occurrences${where})` : ""} — ${i.message}`);
  }
  process.stderr.write(terminalSafe(lines.join("\n")) + "\n");
  return issues.length ? 1 : 0;
}

/** Runs `import …` or `locate …` (argv without the node and script paths). */
export function main(argv) {
  const [command, ...rest] = argv;
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(IMPORT_USAGE + "\n");
    return 0;
  }
  try {
    const lib = loadExtras();
    return command === "import" ? importAnthropic(lib, rest) : locate(lib, rest);
  } catch (err) {
    process.stderr.write(describeError(err) + "\n");
    if (err?.code === "usage") process.stderr.write(IMPORT_USAGE + "\n");
    return 3;
  }
}
