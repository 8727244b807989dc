// The CLI's importers: `import anthropic|bedrock|openai|gemini` (a model API's request and
// its response with citations → a bundle) and `locate` (a draft bundle with quote-only
// citations → a bundle). Both write a bundle that `evidence-check check` takes.
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  argvLang, compatArg, describeError, effectivePolicy, inLang, langArg, loadExtras, messageLang, parseCommandLine, policyArg, readInputFile, terminalSafe, usageError, writeFileNoFollow,
} from "./load.mjs";

export const IMPORT_USAGE = `usage:
  evidence-check import anthropic REQUEST.json RESPONSE.json [--out BUNDLE.json]
                 [--tenant T] [--user U] [--fetched-at ISO-8601] [--source-ids ID,ID,…] [--uncited-as-gaps]
                 [--title TITLE] [COMMON]
  evidence-check import bedrock|openai|gemini REQUEST.json RESPONSE.json --sources SOURCES.json
                 [--out BUNDLE.json] [--tenant T] [--user U] [--fetched-at ISO-8601] [--title TITLE] [COMMON]
  evidence-check locate DRAFT_BUNDLE.json [--out BUNDLE.json] [--whitespace exact|loose] [COMMON]
COMMON: [--policy documents|reference|POLICY.json] [--compat reference] [--lang zh|en]

import anthropic  makes a bundle from a Messages API request (its document blocks are the
                  sources) and its response (each cited text block a claim). The scope is
                  --tenant/--user (default "local"/"local"). Check it with \`check\`.
import bedrock|openai|gemini
                  the same from a Bedrock Converse, OpenAI Responses or Gemini response,
                  checked against the host's snapshots: SOURCES.json maps the provider's
                  key (Bedrock document index or name, OpenAI file id, Gemini URI) to
                  {"sourceId": ID, "text": TEXT} or {"sourceId": ID, "file": PATH} (PATH
                  relative to SOURCES.json). Every citation that could not be checked is
                  listed on stderr with its code; exit 1 when there is any.
locate            locates every quote-only citation ({source_id, quote, prefix?, suffix?,
                  occurrence?}) of the draft's report in its sources, by exact match;
                  absent or ambiguous quotes are listed and left out (their claims can
                  only be insufficient). --whitespace loose matches whitespace runs
                  loosely (the report then says so in a gap).
--policy, --compat and --lang as for check: the policy the input is read under
(default documents), the reference's behaviour, the messages' language (default the
locale's, LC_ALL, LC_MESSAGES or LANG).
Both write the bundle to --out (or stdout) and what they found to stderr.
Exit code: 0 done, 1 some quotes were not located (locate) or some citations not checked
(import bedrock|openai|gemini), 3 unusable input.`;

const PROVIDERS = { bedrock: "fromBedrockResponse", openai: "fromOpenAIResponse", gemini: "fromGeminiResponse" };

const usage = usageError;

function write(out, bundle) {
  const text = JSON.stringify(bundle, null, 2) + "\n";
  if (out === undefined) process.stdout.write(text);
  else writeFileNoFollow(out, text);
}

/** The flags every importer and locate take: --policy, --compat, --lang. */
const COMMON = { policy: { type: "string" }, compat: { type: "string" }, lang: { type: "string" } };

const options = (argv, spec) => parseCommandLine(argv, { ...spec, ...COMMON });

/** The summary lines' texts, in each language. */
const SUMMARY = {
  en: {
    anthropic: (d, c, n) => `imported ${d} documents, ${c} claims, ${n} citations`,
    unmatched: (ids) => `  ranges that hold their cited_text in no unit (kept as the model gave them; the check will report them): ${ids}`,
    provider: (s, c, n, i) => `imported ${s} sources, ${c} claims, ${n} citations; ${i} not checked or flagged`,
    located: (n, loose) => `located ${n} quote${n === 1 ? "" : "s"}${loose ? " (some loosely: see the report's gaps)" : ""}`,
    occurrences: (n, where) => ` (${n} occurrences${where})`,
    at: (ranges) => ` at ${ranges}`,
  },
  zh: {
    anthropic: (d, c, n) => `已导入 ${d} 份文档、${c} 条论断、${n} 条引用`,
    unmatched: (ids) => `  以下引用的区间在任何计数单位下都不含其 cited_text(按模型给出的保留,检查时会报告):${ids}`,
    provider: (s, c, n, i) => `已导入 ${s} 个来源、${c} 条论断、${n} 条引用;${i} 条未核对或已标记`,
    located: (n, loose) => `已定位 ${n} 处引文${loose ? "(部分按宽松空白定位:见报告的缺口)" : ""}`,
    occurrences: (n, where) => `(出现 ${n} 次${where})`,
    at: (ranges) => `,位于 ${ranges}`,
  },
};

/** The library options of COMMON's flags (only those given), and the policy read. */
function common(lib, values) {
  const out = {};
  const lang = langArg(values.lang);
  const compat = compatArg(values.compat);
  const policy = policyArg(lib, values.policy, lang);
  if (lang !== undefined) out.lang = lang;
  if (compat !== undefined) out.compat = compat;
  if (policy !== undefined) out.policy = policy;
  return out;
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
    title: { type: "string" },
  });
  if (positionals[0] !== "anthropic") throw usage(`import takes anthropic, bedrock, openai or gemini, not ${positionals[0] ?? "nothing"}`);
  if (positionals.length !== 3) throw usage("import anthropic takes REQUEST.json and RESPONSE.json");
  const opts = { scope: { tenant_id: values.tenant, user_id: values.user }, uncitedAsGaps: values["uncited-as-gaps"], ...common(lib, values) };
  if (values["fetched-at"] !== undefined) opts.fetchedAt = values["fetched-at"];
  if (values["source-ids"] !== undefined) opts.sourceIds = values["source-ids"].split(",");
  if (values.title !== undefined) opts.title = values.title;
  const bundle = lib.fromAnthropicMessage(readInputFile(positionals[1]), readInputFile(positionals[2]), opts);
  write(values.out, bundle);
  const citations = bundle.report.claims.reduce((n, c) => n + c.citations.length, 0);
  const unmatched = (bundle.import_notes ?? []).filter((n) => n.unit === "unmatched").map((n) => n.citation_id);
  const say = SUMMARY[messageLang(values.lang, values.compat)];
  const lines = [say.anthropic(bundle.sources.length, bundle.report.claims.length, citations)];
  if (unmatched.length) lines.push(say.unmatched(unmatched.join(", ")));
  process.stderr.write(terminalSafe(lines.join("\n")) + "\n");
  return 0;
}

/** The host's snapshots of SOURCES.json: each `file` read (relative to it) into `text`. */
function hostSources(path) {
  let map;
  try {
    map = JSON.parse(readInputFile(path));
  } catch (e) {
    throw usage(`--sources ${path}: ${e.message}`);
  }
  if (map === null || typeof map !== "object" || Array.isArray(map)) throw usage(`--sources ${path} must hold an object: the provider's key -> {sourceId, text | file}`);
  const out = {};
  for (const [key, entry] of Object.entries(map)) {
    if (entry && typeof entry === "object" && typeof entry.file === "string") {
      const { file, ...rest } = entry;
      out[key] = { ...rest, text: readFileSync(resolve(dirname(path), file), "utf8") };
    } else out[key] = entry;
  }
  return out;
}

/** `import bedrock|openai|gemini REQUEST RESPONSE --sources SOURCES`: the bundle, and every
 * citation not checked on stderr; exit 1 when there is any. */
export function importProvider(lib, argv) {
  const { values, positionals } = options(argv, {
    out: { type: "string" },
    tenant: { type: "string", default: "local" },
    user: { type: "string", default: "local" },
    "fetched-at": { type: "string" },
    title: { type: "string" },
    sources: { type: "string" },
  });
  const fn = PROVIDERS[positionals[0]];
  if (positionals.length !== 3) throw usage(`import ${positionals[0]} takes REQUEST.json and RESPONSE.json`);
  if (values.sources === undefined) throw usage(`import ${positionals[0]} needs --sources SOURCES.json (the host's snapshots)`);
  const opts = { scope: { tenant_id: values.tenant, user_id: values.user }, sources: hostSources(values.sources), ...common(lib, values) };
  if (values["fetched-at"] !== undefined) opts.fetchedAt = values["fetched-at"];
  if (values.title !== undefined) opts.title = values.title;
  const { bundle, issues } = lib[fn](readInputFile(positionals[1]), readInputFile(positionals[2]), opts);
  write(values.out, bundle);
  const citations = bundle.report.claims.reduce((n, c) => n + c.citations.length, 0);
  const lines = [SUMMARY[messageLang(values.lang, values.compat)].provider(bundle.sources.length, bundle.report.claims.length, citations, issues.length)];
  for (const i of issues) lines.push(`  ${i.path}${i.citation_id ? ` (${i.citation_id})` : ""}: ${i.code} — ${i.message}`);
  process.stderr.write(terminalSafe(lines.join("\n")) + "\n");
  return issues.length ? 1 : 0;
}

/** `locate DRAFT_BUNDLE`: the located bundle; the issues on stderr; exit 1 when any. */
export function locate(lib, argv) {
  const { values, positionals } = options(argv, {
    out: { type: "string" },
    whitespace: { type: "string", default: "exact" },
  });
  if (positionals.length !== 1) throw usage("locate takes one DRAFT_BUNDLE.json");
  if (values.whitespace !== "exact" && values.whitespace !== "loose") throw usage('--whitespace takes "exact" or "loose"');
  const opts = { whitespace: values.whitespace, ...common(lib, values) };
  const text = readInputFile(positionals[0], effectivePolicy(lib, opts.policy, opts.compat).max_input_bytes);
  const { bundle, located, issues } = lib.locateBundle(text, opts);
  write(values.out, bundle);
  const say = SUMMARY[messageLang(values.lang, values.compat)];
  const lines = [say.located(located.length, located.some((l) => l.whitespace === "loose"))];
  for (const i of issues) {
    const where = i.ranges?.length ? say.at(i.ranges.map(([s, e]) => `[${s}, ${e})`).join(", ")) : "";
    lines.push(`  ${i.claim_id}${i.citation_id ? ` / ${i.citation_id}` : ""}: ${i.code}${i.count !== undefined ? say.occurrences(i.count, where) : ""} — ${i.message}`);
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
    if (command === "import" && rest[0] in PROVIDERS) return importProvider(lib, rest);
    return command === "import" ? importAnthropic(lib, rest) : locate(lib, rest);
  } catch (err) {
    const lang = argvLang(rest);
    process.stderr.write(describeError(inLang(err, lang)) + "\n");
    // After a usage error the usage (English, as --help is); in Chinese a pointer to it.
    if (err?.code === "usage") process.stderr.write((lang === "zh" ? "用法见 evidence-check import --help(英文)" : IMPORT_USAGE) + "\n");
    return 3;
  }
}
