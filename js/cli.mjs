#!/usr/bin/env node
// evidence-check command line: check a bundle, or print a source digest.
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPackage, readInputFile, STATUS_EXIT, STATUS_MEANING } from "./load.mjs";

const USAGE = `usage:
  evidence-check check BUNDLE.json [--out ARTIFACT.md] [--json] [--now ISO-8601] [--compat reference] [--lang zh|en]
  evidence-check check DIR [--jobs N] [--json] [--now ISO-8601]
  evidence-check check BUNDLE.json --mcp "COMMAND ARGS…" [--mcp-tool NAME] [--mcp-arg NAME]
                       [--mcp-timeout MS] [--mcp-max-bytes N] [--out …] [--json] [--now …]
  evidence-check digest FILE
  evidence-check import anthropic REQUEST.json RESPONSE.json [--out BUNDLE.json] [--tenant T --user U]
  evidence-check locate DRAFT_BUNDLE.json [--out BUNDLE.json] [--whitespace loose]
  evidence-check --help | --version

check   assesses the bundle's report against its sources and reviews, prints the
        status, each claim's state and the issues, and writes the Markdown artifact
        with --out. Exit code: 0 reviewed_candidate, 1 needs_review or partial,
        2 invalid, 3 unusable input.
        Given a directory, checks every *.json bundle in it on N worker threads
        (default: the number of cores), prints a summary (a progress bar on a
        terminal) and exits with the worst code of all bundles.
        With --mcp, the sources' texts come from an MCP server started with that
        command (in the bundle's directory), read by the tool (default read_text_file)
        with each spec's filename (argument "path"); inline contents are not needed.
        --lang en gives English messages and artifact labels (zh, the reference's, is the default).
        --compat reference renders with the reference's escaping (byte-identical to
        it, weaker: bare URLs autolink) instead of the hardened default.
import, locate  make a bundle from what models return (see \`evidence-check import --help\`).
digest  prints the SHA-256 of the file's LF-normalised text (a source's digest).`;

const UNUSABLE = 3;

class UsageError extends Error {
  constructor(message) {
    super(message);
    this.code = "usage";
  }
}

function parseArgs(argv) {
  const opts = { positional: [], out: undefined, json: false, now: undefined, jobs: undefined, mcp: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new UsageError(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--out") opts.out = value();
    else if (a === "--now") opts.now = value();
    else if (a === "--json") opts.json = true;
    else if (a === "--mcp") opts.mcp = value();
    else if (a === "--lang") {
      opts.lang = value();
      if (opts.lang !== "zh" && opts.lang !== "en") throw new UsageError('--lang takes "zh" or "en"');
    } else if (a === "--compat") {
      opts.compat = value();
      if (opts.compat !== "reference") throw new UsageError('--compat takes "reference"');
    }
    else if (a === "--mcp-tool") opts.mcpTool = value();
    else if (a === "--mcp-arg") opts.mcpArg = value();
    else if (a === "--mcp-timeout" || a === "--mcp-max-bytes") {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`${a} takes a whole number above 0`);
      opts[a === "--mcp-timeout" ? "mcpTimeout" : "mcpMaxBytes"] = n;
    }
    else if (a === "--jobs") {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 256) throw new UsageError("--jobs takes a whole number from 1 to 256");
      opts.jobs = n;
    }
    else if (a === "--help" || a === "-h") opts.help = true;
    else if (a === "--version") opts.version = true;
    else if (a.startsWith("--")) throw new UsageError(`unknown option ${a}`);
    else opts.positional.push(a);
  }
  return opts;
}

// Control characters (C0 but the line feed, DEL, C1) and bidirectional controls: a report
// key, a file name or a server's error text holding them could clear the screen, colour a
// fake status or reorder a line. Everything the CLI prints shows them as ⟦U+XXXX⟧; --json
// output escapes them as \uXXXX (JSON.stringify leaves DEL, C1 and bidi controls raw).
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const hex = (c) => c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");

/** Text for a terminal: every control character shown as ⟦U+XXXX⟧, line feeds kept. */
function terminalSafe(text) {
  return String(text).replace(CONTROLS, (c) => `⟦U+${hex(c)}⟧`);
}

/** JSON for a terminal: the same value, every control character as a \uXXXX escape. */
function jsonOut(value) {
  return JSON.stringify(value, null, 2).replace(CONTROLS, (c) => `\\u${hex(c)}`) + "\n";
}

const print = (text) => process.stdout.write(terminalSafe(text) + "\n");

function pad(s, n) {
  return s + " ".repeat(Math.max(0, n - [...s].length));
}

function printTable(result, bundle) {
  const a = result.assessment;
  const lines = [];
  lines.push(`status: ${a.status}`);
  lines.push(`  ${STATUS_MEANING[a.status]}`);
  lines.push(`report digest: ${a.report_digest}`);
  lines.push("");
  const kinds = new Map((bundle?.report?.claims ?? []).map((c) => [c.claim_id, c.kind]));
  const ids = Object.keys(a.claims);
  const w = Math.max(5, ...ids.map((id) => [...id].length));
  lines.push(`${pad("claim", w)}  ${pad("kind", 10)}  state`);
  for (const id of ids) lines.push(`${pad(id, w)}  ${pad(kinds.get(id) ?? "", 10)}  ${a.claims[id]}`);
  lines.push("");
  if (a.issues.length === 0) lines.push("issues: none");
  else {
    lines.push(`issues: ${a.issues.length}`);
    for (const i of a.issues) {
      lines.push(`  ${i.claim_id}${i.citation_id ? ` / ${i.citation_id}` : ""}: ${i.code} — ${i.message}`);
      if (i.hint) {
        const where = i.hint.occurrences === 1 ? `once, at [${i.hint.start}, ${i.hint.end})` : `${i.hint.occurrences} times`;
        lines.push(`    hint: the quote occurs ${where} in revision ${i.hint.ref.revision} of ${i.hint.ref.source_id} (not applied)`);
      }
    }
  }
  if (result.render_error) lines.push(`artifact: not rendered — ${result.render_error.code}: ${result.render_error.message}`);
  return lines.join("\n");
}

function isDirectory(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Checks every bundle of a directory on worker threads (a piscina pool). */
async function checkDirectory(opts) {
  const dir = opts.positional[1];
  if (opts.out !== undefined) throw new UsageError("--out takes one bundle, not a directory");
  if (opts.mcp !== undefined) throw new UsageError("--mcp takes one bundle, not a directory");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((f) => join(dir, f));
  const { Piscina } = await import("piscina");
  const jobs = opts.jobs ?? availableParallelism();
  const pool = new Piscina({ filename: fileURLToPath(new URL("./worker.mjs", import.meta.url)), minThreads: jobs, maxThreads: jobs });
  const tty = process.stderr.isTTY;
  const started = performance.now();
  let done = 0;
  const progress = () => {
    if (!tty) return;
    const width = 30;
    const filled = files.length ? Math.round((done / files.length) * width) : width;
    process.stderr.write(`\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${files.length}`);
  };
  const results = await Promise.all(
    files.map((path) =>
      pool.run({ path, now: opts.now, compat: opts.compat, lang: opts.lang }).then((r) => {
        done++;
        if (done % 64 === 0 || done === files.length) progress();
        return r;
      }),
    ),
  );
  await pool.destroy();
  if (tty) process.stderr.write("\n");
  const seconds = (performance.now() - started) / 1000;
  const counts = { reviewed_candidate: 0, needs_review: 0, partial: 0, invalid: 0, unusable: 0 };
  let worst = 0;
  for (const r of results) {
    if (r.error) {
      counts.unusable++;
      worst = 3;
    } else {
      counts[r.status]++;
      worst = Math.max(worst, STATUS_EXIT[r.status]);
    }
  }
  if (opts.json) {
    process.stdout.write(jsonOut({ directory: dir, jobs, bundles: files.length, seconds, counts, results }));
  } else {
    const lines = [`checked ${files.length} bundles in ${dir} with ${jobs} job${jobs === 1 ? "" : "s"} in ${seconds.toFixed(2)} s (${(files.length / seconds).toFixed(0)} bundles/s)`];
    for (const [k, v] of Object.entries(counts)) if (v) lines.push(`  ${k}: ${v}`);
    for (const r of results.filter((r) => r.error)) lines.push(`  ${r.path}: ${r.error.code}: ${r.error.message}`);
    print(lines.join("\n"));
  }
  return worst;
}

/**
 * With --mcp: the catalogue, report and reviews from the bundle (read as strictly as
 * checkBundle reads it, contents optional), the texts from the server. SIGINT, SIGTERM
 * and SIGHUP shut the server down; a second one kills its process group at once and exits.
 */
async function checkViaMcp(lib, opts, path, text) {
  const { readSourcesViaMcp, splitCommand, killServers } = await import("./mcp.mjs");
  const bundle = lib.parseBundle(text, { requireContents: false, ...(opts.lang === undefined ? {} : { lang: opts.lang }) });
  const [command, ...args] = splitCommand(opts.mcp);
  const specs = bundle.sources.map((s) => s.spec);
  const store = new lib.EvidenceStore(specs, { ...(opts.now === undefined ? {} : { now: opts.now }), ...(opts.lang === undefined ? {} : { lang: opts.lang }) });
  const ac = new AbortController();
  const onSignal = () => {
    if (!ac.signal.aborted) return ac.abort();
    killServers("SIGKILL");
    process.stderr.write("evidence-check: interrupted; the MCP server was shut down\n");
    process.exit(UNUSABLE);
  };
  const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const s of SIGNALS) process.on(s, onSignal);
  try {
    await readSourcesViaMcp(store, bundle.scope, specs, {
      command,
      args,
      cwd: dirname(resolve(path)),
      tool: opts.mcpTool,
      argument: opts.mcpArg,
      timeoutMs: opts.mcpTimeout,
      maxBytes: opts.mcpMaxBytes,
      signal: ac.signal,
    });
  } finally {
    for (const s of SIGNALS) process.removeListener(s, onSignal);
  }
  const clock = {};
  if (opts.now !== undefined) clock.now = opts.now;
  if (opts.compat !== undefined) clock.compat = opts.compat;
  if (opts.lang !== undefined) clock.lang = opts.lang;
  const report = bundle.report;
  const assessment = lib.assess(bundle.scope, report, store, bundle.reviews, opts.lang === undefined ? {} : { lang: opts.lang });
  const result = { assessment };
  try {
    result.artifact = lib.render(bundle.scope, report, store, bundle.reviews, clock);
  } catch (e) {
    if (e?.code === "report_invalid" || e?.code === "artifact_too_large") result.render_error = { code: e.code, message: e.message };
    else throw e;
  }
  store.free();
  return result;
}

async function check(lib, opts) {
  if (opts.positional.length !== 2) throw new UsageError("check takes one BUNDLE.json or one directory");
  if (opts.jobs !== undefined) throw new UsageError("--jobs takes a directory of bundles");
  const path = opts.positional[1];
  const text = readInputFile(path);
  const options = { render: true };
  if (opts.now !== undefined) options.now = opts.now;
  if (opts.compat !== undefined) options.compat = opts.compat;
  if (opts.lang !== undefined) options.lang = opts.lang;
  const result = opts.mcp === undefined ? lib.checkBundle(text, options) : await checkViaMcp(lib, opts, path, text);
  if (opts.out !== undefined && result.artifact) writeFileSync(opts.out, result.artifact.content);
  if (opts.json) {
    process.stdout.write(jsonOut(result));
  } else {
    let bundle;
    try {
      bundle = JSON.parse(text);
    } catch {
      bundle = undefined;
    }
    print(printTable(result, bundle));
    if (opts.out !== undefined) {
      print(result.artifact ? `artifact: ${opts.out} (content digest ${result.artifact.content_digest})` : `artifact: not written to ${opts.out}`);
    }
  }
  return STATUS_EXIT[result.assessment.status];
}

function digest(lib, opts) {
  if (opts.positional.length !== 2) throw new UsageError("digest takes one FILE");
  process.stdout.write(lib.digestText(readInputFile(opts.positional[1])) + "\n");
  return 0;
}

function describe(err) {
  const prefix = err.code && !String(err.message).startsWith(err.code) ? err.code + ": " : "";
  const lines = [`evidence-check: ${prefix}${err.message}`];
  if (Array.isArray(err.issues)) {
    for (const i of err.issues) lines.push(`  ${i.path === "" ? "/" : i.path}: ${i.message} (${i.code})`);
  }
  return terminalSafe(lines.join("\n"));
}

export async function main(argv) {
  // `import` and `locate` live in importers.mjs (their own options and usage).
  if (argv[0] === "import" || argv[0] === "locate") return (await import("./importers.mjs")).main(argv);
  let opts;
  try {
    opts = parseArgs(argv);
    if (opts.help) {
      process.stdout.write(USAGE + "\n");
      return 0;
    }
    if (opts.version) {
      process.stdout.write("evidence-check 0.1.0\n");
      return 0;
    }
    const lib = loadPackage();
    switch (opts.positional[0]) {
      case "check":
        return opts.positional[1] !== undefined && isDirectory(opts.positional[1]) ? await checkDirectory(opts) : await check(lib, opts);
      case "digest":
        return digest(lib, opts);
      default:
        throw new UsageError(opts.positional[0] ? `unknown command ${opts.positional[0]}` : "no command given");
    }
  } catch (err) {
    process.stderr.write(describe(err) + "\n");
    if (err instanceof UsageError) process.stderr.write(USAGE + "\n");
    return UNUSABLE;
  }
}

process.exitCode = await main(process.argv.slice(2));
