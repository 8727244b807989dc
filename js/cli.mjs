#!/usr/bin/env node
// evidence-check command line: check a bundle, a directory of bundles or a stream of
// them, or print a source digest.
import { fstatSync, mkdirSync, read, readdirSync, statSync } from "node:fs";
import { availableParallelism, constants as osConstants } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { OrderedPool } from "./pool.mjs";
import {
  argvLang, cliText, compatArg, decodeInput, describeError, effectivePolicy, errorClass, errorData, inLang, jsonOut, langArg, loadPackage, messageLang, packageVersion, parseCommandLine,
  policyArg, readInputBytes, readInputFile, removeStale, STATUS_EXIT, STATUS_MEANING, terminalSafe, UNUSABLE_EXIT as UNUSABLE, usageError,
  withBytes, writeFileNoFollow,
} from "./load.mjs";

const USAGE = `usage:
  evidence-check check BUNDLE.json [--out ARTIFACT.md] [--json] [--now ISO-8601] [--compat reference]
                       [--lang zh|en] [--policy reference|documents|POLICY.json] [--review-key-env NAME]
  evidence-check check DIR [--jobs N] [--json] [--out DIR] [--no-render] [same options]
  evidence-check check - [--jobs N] [--no-render] [same options]   (JSON Lines in, JSON Lines out)
  evidence-check check BUNDLE.json --mcp "COMMAND ARGS…" [--mcp-tool NAME] [--mcp-arg NAME]
                       [--mcp-timeout MS] [--mcp-max-bytes N] [--out …] [--json] [same options]
  evidence-check digest FILE
  evidence-check serve [--port N]
  evidence-check import anthropic REQUEST.json RESPONSE.json [--out BUNDLE.json] [--tenant T --user U] [--title T]
  evidence-check import bedrock|openai|gemini REQUEST.json RESPONSE.json --sources SOURCES.json [--out …]
  evidence-check locate DRAFT_BUNDLE.json [--out BUNDLE.json] [--whitespace loose]
                        (import and locate also take --policy, --compat and --lang)
  evidence-check --help | --version

check   assesses the bundle's report against its sources and reviews, prints the
        status, each claim's state and the issues, and writes the Markdown artifact
        with --out (missing directories are made). --json prints one JSON document,
        {error: {code, message, issues}} when the input is unusable.
        Exit code: 0 reviewed_candidate, 1 needs_review or partial, 2 invalid,
        3 unusable input or a wrong command line, 4 some bundles of a directory
        or stream could not be read (the others' results are still written).
        Given a directory, checks every *.json bundle in it on N worker threads
        (default: the number of available cores), prints a summary (a progress bar on a
        terminal), or with --json one JSON line per bundle with its whole result;
        --out DIR writes each bundle's artifact there as NAME.md. A JSON file
        that is not a bundle (a stray package.json) is reported and skipped.
        Exits with the worst code of all bundles (4 once one could not be read).
        Given -, reads one bundle per line from stdin and writes one JSON line per
        bundle to stdout, in input order, on N worker threads (the same default);
        SIGTERM or SIGINT stops it once the write under way is done (exit 143 or 130).
        --no-render: no artifact, each result the assessment only (status,
        claims, issues).
        --policy sets the limits and vocabularies: documents (the default, for
        real documents), reference (the article's) or a policy JSON file.
        --review-key-env NAME: every review must carry an HMAC signature made with
        the key in the environment variable NAME (never on the command line).
        With --mcp, the sources' texts come from an MCP server started with that
        command (in the bundle's directory), read by the tool (default read_text_file)
        with each spec's filename (argument "path"); inline contents are not needed.
        It needs the package @modelcontextprotocol/sdk installed.
        --lang zh|en sets the language of messages and artifact labels (default:
        the locale's, from LC_ALL, LC_MESSAGES or LANG: Chinese for zh*, else English).
        --compat reference gives the reference's behaviour byte for byte: its
        policy, Chinese, its escaping (weaker: bare URLs autolink), its codes and
        texts. A --policy or --lang given beside it wins.
import, locate  make a bundle from what models return (see \`evidence-check import --help\`).
digest  prints the SHA-256 of the file's LF-normalised text (a source's digest).
serve   serves the in-browser checker from the installed package on
        http://127.0.0.1:N/ (default 8080; 0 picks a free port) until Ctrl-C.`;

/** The exit status after a closed stdout: a SIGPIPE's, never one of the status codes. */
const BROKEN_PIPE = 141;

const usage = usageError;
const refusal = (code, message) => new (errorClass("InputError"))(code, message);

const OPTIONS = {
  out: { type: "string" },
  json: { type: "boolean" },
  "no-render": { type: "boolean" },
  now: { type: "string" },
  lang: { type: "string" },
  compat: { type: "string" },
  policy: { type: "string" },
  "review-key-env": { type: "string" },
  jobs: { type: "string" },
  mcp: { type: "string" },
  "mcp-tool": { type: "string" },
  "mcp-arg": { type: "string" },
  "mcp-timeout": { type: "string" },
  "mcp-max-bytes": { type: "string" },
  port: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
};

/** A whole number in [min, max], or a usage error naming the flag. */
function count(flag, text, min, max) {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) throw usage(`${flag} takes a whole number from ${min} to ${max}`);
  return n;
}

/** The options each command takes (any other is a usage error naming it). */
const COMMAND_OPTIONS = { digest: [], serve: ["port"], check: Object.keys(OPTIONS).filter((k) => k !== "port") };

/** The command line, read by util.parseArgs (`--flag value` and `--flag=value`). */
function readArgs(argv) {
  const parsed = parseCommandLine(argv, OPTIONS);
  const allowed = COMMAND_OPTIONS[parsed.positionals[0]];
  const stray = allowed && Object.keys(parsed.values).find((k) => !allowed.includes(k) && k !== "help" && k !== "version");
  if (stray) throw usage(`${parsed.positionals[0]} takes no --${stray}`);
  const v = parsed.values;
  return {
    positional: parsed.positionals,
    out: v.out,
    json: v.json ?? false,
    noRender: v["no-render"] ?? false,
    now: v.now,
    // Without --lang the library follows the locale (LC_ALL, LC_MESSAGES, LANG), or compat's.
    lang: langArg(v.lang),
    compat: compatArg(v.compat),
    policy: v.policy,
    reviewKeyEnv: v["review-key-env"],
    jobs: count("--jobs", v.jobs, 1, 256),
    mcp: v.mcp,
    mcpTool: v["mcp-tool"],
    mcpArg: v["mcp-arg"],
    mcpTimeout: count("--mcp-timeout", v["mcp-timeout"], 1, 2 ** 31 - 1),
    mcpMaxBytes: count("--mcp-max-bytes", v["mcp-max-bytes"], 1, Number.MAX_SAFE_INTEGER),
    port: count("--port", v.port, 0, 65535),
    help: v.help ?? false,
    version: v.version ?? false,
  };
}

/** The HMAC key of --review-key-env, from the environment only. */
function reviewKey(name) {
  if (name === undefined) return undefined;
  const key = process.env[name];
  if (key === undefined || key === "") throw refusal("review_key_missing", `the environment variable ${name} (--review-key-env) is not set or empty`);
  return key;
}

/** checkBundle's options from the command line. */
function checkOptions(lib, opts) {
  if (opts.noRender && opts.out !== undefined) throw usage("--out writes artifacts; --no-render makes none");
  const options = { render: !opts.noRender };
  if (opts.lang !== undefined) options.lang = opts.lang;
  if (opts.now !== undefined) options.now = opts.now;
  if (opts.compat !== undefined) options.compat = opts.compat;
  const policy = policyArg(lib, opts.policy, opts.lang);
  if (policy !== undefined) options.policy = policy;
  const key = reviewKey(opts.reviewKeyEnv);
  if (key !== undefined) options.reviewKey = key;
  return options;
}

const print = (text) => write(terminalSafe(text) + "\n");

/** A file name for a line of output: its line feeds too shown as ⟦U+000A⟧, so that it stays on its line. */
const nameSafe = (name) => terminalSafe(name).replaceAll("\n", "⟦U+000A⟧");

/** Writes to stdout; resolves once stdout can take more (backpressure). */
function write(text) {
  if (process.stdout.write(text)) return undefined;
  return new Promise((done) => process.stdout.once("drain", done));
}

/** The columns `s` takes in a terminal: a wide (CJK) character takes two. */
const width = (s) => [...s].reduce((w, c) => w + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(c) ? 2 : 1), 0);

function pad(s, n) {
  return s + " ".repeat(Math.max(0, n - width(s)));
}

/** The words of the result table and its artifact line, in each language (statuses, states and codes stay codes). */
const TABLE = {
  en: {
    status: "status",
    meaning: STATUS_MEANING,
    digest: "report digest",
    columns: ["claim", "kind", "state"],
    none: "issues: none",
    issues: (n) => `issues: ${n}`,
    hint: (h, where) => `    hint: the quote occurs ${where} in revision ${h.ref.revision} of ${h.ref.source_id} (not applied)`,
    once: (h) => `once, at [${h.start}, ${h.end})`,
    times: (n) => `${n} times`,
    notRendered: (e) => `artifact: not rendered — ${e.code}: ${e.message}`,
    written: (out, digest) => `artifact: ${out} (content digest ${digest})`,
    notWritten: (out) => `artifact: not written to ${out}`,
    checked: (n, dir, jobs, seconds, rate) => `checked ${n} bundle${n === 1 ? "" : "s"} in ${dir} with ${jobs} job${jobs === 1 ? "" : "s"} in ${seconds} s (${rate} bundles/s)`,
    skipped: (path, s) => nameSafe(`  ${path}: skipped: ${s.code}: ${s.message}`),
    artifacts: (dir) => `artifacts: ${dir}`,
  },
  zh: {
    status: "状态",
    meaning: {
      reviewed_candidate: "每条引用均成立,每条论断均经审阅认为支持;这仍只是候选,不是证明。",
      needs_review: "每条引用均成立,但仍有论断等待审阅。",
      partial: "每条引用均成立,但报告有缺口,或有论断证据不足、被反驳或存在冲突。",
      invalid: "有引用不成立:来源已变更或移除、摘要不符,或引文不在其区间内。",
    },
    digest: "报告摘要",
    columns: ["论断", "类型", "状态"],
    none: "问题:无",
    issues: (n) => `问题:${n} 个`,
    hint: (h, where) => `    提示:引文在来源 ${h.ref.source_id} 的第 ${h.ref.revision} 版中${where}(未采用)`,
    once: (h) => `出现一次,位于 [${h.start}, ${h.end})`,
    times: (n) => `出现 ${n} 次`,
    notRendered: (e) => `产物:未生成 — ${e.code}:${e.message}`,
    written: (out, digest) => `产物:${out}(内容摘要 ${digest})`,
    notWritten: (out) => `产物:未写入 ${out}`,
    checked: (n, dir, jobs, seconds, rate) => `已检查 ${dir} 中的 ${n} 个证据包,${jobs} 个并行任务,用时 ${seconds} 秒(每秒 ${rate} 个)`,
    skipped: (path, s) => nameSafe(`  ${path}:已跳过:${s.code}:${s.message}`),
    artifacts: (dir) => `产物目录:${dir}`,
  },
};

function printTable(result, bundle, say) {
  const a = result.assessment;
  const lines = [];
  lines.push(`${say.status}: ${a.status}`);
  lines.push(`  ${say.meaning[a.status]}`);
  lines.push(`${say.digest}: ${a.report_digest}`);
  lines.push("");
  const kinds = new Map((bundle?.report?.claims ?? []).map((c) => [c.claim_id, c.kind]));
  const ids = Object.keys(a.claims);
  const w = Math.max(5, ...ids.map(width));
  const [claim, kind, state] = say.columns;
  lines.push(`${pad(claim, w)}  ${pad(kind, 10)}  ${state}`);
  for (const id of ids) lines.push(`${pad(id, w)}  ${pad(kinds.get(id) ?? "", 10)}  ${a.claims[id]}`);
  lines.push("");
  if (a.issues.length === 0) lines.push(say.none);
  else {
    lines.push(say.issues(a.issues.length));
    for (const i of a.issues) {
      lines.push(`  ${i.claim_id}${i.citation_id ? ` / ${i.citation_id}` : ""}: ${i.code} — ${i.message}`);
      if (i.hint) lines.push(say.hint(i.hint, i.hint.occurrences === 1 ? say.once(i.hint) : say.times(i.hint.occurrences)));
    }
  }
  if (result.render_error) lines.push(say.notRendered(result.render_error));
  return lines.join("\n");
}

function isDirectory(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** At most this many bundles make one worker task (a chunk)… */
const CHUNK_BUNDLES = 32;
/** …and a chunk takes no further bundle once its inputs (files or lines) reach this many bytes. */
const CHUNK_BYTES = 256 * 1024;

/**
 * Runs `chunks` (an iterable or async iterable of batches, see worker.mjs) on a pool of
 * `jobs` worker threads (pool.mjs), `shared` (what every chunk shares) their workerData,
 * and hands each chunk's result (`{parts, bundles}`) to `take`, in order. At most 4 ×
 * `jobs` chunks are in the pool, and `take` may return a promise (stdout's backpressure):
 * the next chunk waits for it, so memory stays flat however many come. `onPool` is told
 * the pool (for a signal to stop it).
 */
async function runOrdered(chunks, jobs, shared, take, onPool) {
  const pool = new OrderedPool({ jobs, shared, take });
  onPool?.(pool);
  try {
    for await (const chunk of chunks) await pool.submit(chunk);
  } catch (e) {
    pool.end();
    throw e;
  }
  await pool.finish();
}

/** Writes a result's parts (its JSON lines as bytes) to stdout in turn; resolves once stdout has taken the last. */
async function writeParts(parts) {
  for (const { bytes } of parts) {
    writing = new Promise((done) => process.stdout.write(bytes, done));
    await writing;
  }
}

/** The write to stdout under way (a signal lets it finish, so that no line is cut). */
let writing = Promise.resolve();

/** A file's size, or 0 when it cannot be stat'ed (its worker then reports why it cannot be read). */
function sizeOf(path) {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Files as chunks, in order: `size` files each, fewer once a chunk's
 * files reach CHUNK_BYTES (made lazily, as the pool takes them).
 */
function* fileChunks(paths, size) {
  for (let i = 0; i < paths.length; ) {
    const items = [];
    let bytes = 0;
    while (i < paths.length && items.length < size && bytes < CHUNK_BYTES) {
      const path = paths[i++];
      items.push({ tag: { path }, path });
      bytes += sizeOf(path);
    }
    yield { items };
  }
}

/** Checks every bundle of a directory on worker threads, in name order. */
async function checkDirectory(opts, options, inputLimit) {
  const dir = opts.positional[1];
  if (opts.mcp !== undefined) throw usage("--mcp takes one bundle, not a directory");
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  const paths = files.map((f) => join(dir, f));
  if (files.length === 0) throw refusal("no_bundles", `${dir} holds no *.json bundle; nothing was checked`);
  if (opts.out !== undefined) mkdirSync(opts.out, { recursive: true });
  const jobs = opts.jobs ?? availableParallelism();
  const tty = process.stderr.isTTY && !opts.json;
  const started = performance.now();
  const counts = { reviewed_candidate: 0, needs_review: 0, partial: 0, invalid: 0, unusable: 0, skipped: 0 };
  const failures = [];
  const skips = [];
  let worst = 0;
  let done = 0;
  // Chunks of up to CHUNK_BUNDLES files, smaller for a few files, so that every job gets several.
  const size = Math.max(1, Math.min(CHUNK_BUNDLES, Math.ceil(files.length / (jobs * 4))));
  const shared = { options, inputLimit, json: opts.json, artifacts: opts.out !== undefined };
  await runOrdered(fileChunks(paths, size), jobs, shared, (chunk) => {
    for (const b of chunk.bundles) {
      const path = paths[done];
      worst = Math.max(worst, b.exit);
      counts[b.status]++;
      if (b.error) failures.push(nameSafe(`  ${path}: ${b.error.code}: ${cliText(b.error.message, messageLang(opts.lang, opts.compat))}`));
      if (b.skipped) skips.push([path, b.skipped]);
      // A stray file's NAME.md (not a bundle, no artifact of ours) is left alone.
      if (opts.out !== undefined && !b.skipped) {
        const target = join(opts.out, basename(path, ".json") + ".md");
        // No artifact (invalid, not rendered, unusable): an earlier run's is removed, not left as if current.
        if (b.artifact !== undefined) writeFileNoFollow(target, b.artifact);
        else removeStale(target);
      }
      done++;
      if (tty && (done % 64 === 0 || done === files.length)) {
        const width = 30;
        const filled = Math.round((done / files.length) * width);
        process.stderr.write(`\r[${"#".repeat(filled)}${" ".repeat(width - filled)}] ${done}/${files.length}`);
      }
    }
    return writeParts(chunk.parts);
  });
  if (tty) process.stderr.write("\n");
  const checked = files.length - counts.skipped;
  if (!opts.json) {
    const seconds = (performance.now() - started) / 1000;
    const say = TABLE[messageLang(opts.lang, opts.compat)];
    const lines = [say.checked(checked, nameSafe(dir), jobs, seconds.toFixed(2), (checked / seconds).toFixed(0))];
    for (const [k, v] of Object.entries(counts)) if (v) lines.push(`  ${k}: ${v}`);
    lines.push(...failures, ...skips.map(([path, s]) => say.skipped(path, s)));
    if (opts.out !== undefined) lines.push(say.artifacts(nameSafe(opts.out)));
    await print(lines.join("\n"));
  }
  if (checked === 0) throw refusal("no_bundles", `${dir} holds no bundle (every *.json file in it was skipped as not a bundle); nothing was checked`);
  return worst;
}

/** Stdin is read into shared buffers of this size (a longer line, into one that fits it)… */
const SLAB = 2 * 1024 * 1024;
/** …and a batch of its lines takes no further line once they reach this many bytes. */
const BATCH_BYTES = 1024 * 1024;

/**
 * A reader of stdin's bytes, `read(view, at, length)` resolving to how many it put there (0
 * at the end), nothing decoded. A regular file (`< file`) is read by fs.read, as much as
 * the view takes at a time; anything else (a pipe, a terminal) through process.stdin,
 * whose reads never block a thread: a read blocked in the thread pool would keep the
 * process from exiting on a signal or a closed stdout until more input came.
 */
function stdinReader() {
  let isFile = false;
  try {
    isFile = fstatSync(0).isFile();
  } catch {}
  if (isFile) {
    return (view, at, length) =>
      new Promise((done, fail) => read(0, view, at, length, null, (err, n) => (err ? fail(refusal("unreadable", `stdin cannot be read (${err.code ?? err})`)) : done(n))));
  }
  const chunks = process.stdin[Symbol.asyncIterator]();
  let rest;
  return async (view, at, length) => {
    if (!rest?.length) {
      const next = await chunks.next();
      if (next.done) return 0;
      rest = next.value;
    }
    const n = Math.min(length, rest.length);
    view.set(rest.subarray(0, n), at);
    rest = rest.subarray(n);
    return n;
  };
}

/**
 * A stream's bundles as batches, in input order. Stdin is read into SharedArrayBuffers
 * (`SLAB` bytes, or larger for a longer line) that the workers read the lines from where
 * they are: the main thread only finds the line feeds, never decodes, and copies nothing
 * but the unfinished line at a buffer's end into the next. Each read's complete lines are
 * shared out among the `jobs` (at most CHUNK_BUNDLES lines, or BATCH_BYTES, a batch) at
 * once, never held back for the next read; `tag` is the line number. Empty lines are
 * skipped here, lines of white space by the worker; a line over `limit` bytes is an item
 * with its error, its bytes skipped, not kept. A buffer is read into again once every
 * batch of its lines was checked; stdin is read only as fast as the pool takes batches.
 */
async function* lineBatches(readInto, limit, jobs) {
  const free = [];
  const slab = (size) => {
    const sab = size <= SLAB ? (free.pop() ?? new SharedArrayBuffer(SLAB)) : new SharedArrayBuffer(size);
    return { sab, view: new Uint8Array(sab), bytes: Buffer.from(sab), users: 1 };
  };
  // A buffer is reused once no batch and no read needs it (only those of the usual size, a few).
  const leave = (s) => {
    if (--s.users === 0 && s.sab.byteLength === SLAB && free.length < 4) free.push(s.sab);
  };
  const overLimit = (line) => ({ tag: { line }, error: errorData(refusal("input_too_large", `the line is over the limit of ${limit} bytes; it was not read`)) });
  let s = slab(SLAB);
  let fill = 0;
  let start = 0; // where the line not yet ended begins
  let skipping = false; // that line is over the limit: its bytes are dropped
  let line = 0;
  const batches = function* (items) {
    const size = Math.max(1, Math.min(CHUNK_BUNDLES, Math.ceil(items.length / jobs)));
    for (let k = 0; k < items.length; ) {
      const batch = [];
      let bytes = 0;
      while (k < items.length && batch.length < size && bytes < BATCH_BYTES) {
        const item = items[k++];
        batch.push(item);
        bytes += item.error ? 0 : item.end - item.at;
      }
      const held = s;
      held.users++;
      yield { items: batch, slab: held.sab, release: () => leave(held) };
    }
  };
  for (;;) {
    if (fill === s.view.length) {
      // Full: the unfinished line moves to a new buffer, one that fits it if it is long.
      const partial = skipping ? 0 : fill - start;
      const next = slab(partial < SLAB / 2 ? SLAB : Math.min(Math.max(2 * partial, SLAB), limit + 1));
      next.view.set(s.view.subarray(start, fill), 0);
      leave(s);
      s = next;
      fill = partial;
      start = 0;
    }
    const n = await readInto(s.view, fill, s.view.length - fill);
    if (n === 0) break;
    const items = [];
    const region = s.bytes.subarray(0, fill + n);
    let at = region.indexOf(0x0a, fill);
    fill += n;
    while (at !== -1) {
      line++;
      if (skipping || at - start > limit) items.push(overLimit(line));
      else if (at > start) items.push({ tag: { line }, at: start, end: at });
      skipping = false;
      start = at + 1;
      at = region.indexOf(0x0a, start);
    }
    if (!skipping && fill - start > limit) skipping = true;
    if (skipping) start = fill;
    if (items.length) yield* batches(items);
  }
  line++;
  if (skipping) yield* batches([overLimit(line)]);
  else if (fill > start) yield* batches([{ tag: { line }, at: start, end: fill }]);
  leave(s);
}

/** `check -`: one bundle per stdin line, one JSON result line per bundle on stdout, in order. */
async function checkStream(opts, options, inputLimit) {
  if (opts.mcp !== undefined) throw usage("--mcp takes one bundle, not a stream");
  if (opts.out !== undefined) throw usage("--out takes one bundle or a directory, not a stream");
  const jobs = opts.jobs ?? availableParallelism();
  let worst = 0;
  let bundles = 0;
  const shared = { options, inputLimit, json: true, artifacts: false };
  // SIGTERM or SIGINT: no more checks; the write under way finishes (no line is cut), then
  // the exit (128 + the signal's number). A second signal exits at once.
  let stopping = false;
  let pool;
  const onSignal = (signal) => {
    const code = 128 + osConstants.signals[signal];
    if (stopping) process.exit(code);
    stopping = true;
    Promise.resolve(pool?.stop()).then(() => writing).then(() => process.exit(code));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    const take = (chunk) => {
      for (const b of chunk.bundles) worst = Math.max(worst, b.exit);
      bundles += chunk.bundles.length;
      return writeParts(chunk.parts);
    };
    await runOrdered(lineBatches(stdinReader(), inputLimit, jobs), jobs, shared, take, (p) => (pool = p));
  } finally {
    if (!stopping) for (const signal of STOP_SIGNALS) process.removeListener(signal, onSignal);
  }
  if (bundles === 0) throw refusal("no_bundles", "stdin held no bundle (one JSON bundle per line); nothing was checked");
  return worst;
}

/** The signals that stop `check -` (after the write under way). */
const STOP_SIGNALS = ["SIGTERM", "SIGINT"];

/**
 * With --mcp: the catalogue, report and reviews from the bundle (read as strictly as
 * checkBundle reads it, contents optional), the texts from the server, put into the
 * bundle, which checkBundle then checks as any other. SIGINT, SIGTERM and SIGHUP shut
 * the server down; a second one kills its process group at once and exits.
 */
async function checkViaMcp(lib, opts, path, text, options) {
  const { fetchSourcesViaMcp, splitCommand, killServers } = await import("./mcp.mjs");
  const parseOptions = { requireContents: false };
  for (const k of ["lang", "policy", "compat"]) if (options[k] !== undefined) parseOptions[k] = options[k];
  const bundle = lib.parseBundle(text, parseOptions);
  const [command, ...args] = splitCommand(opts.mcp);
  const specs = bundle.sources.map((s) => s.spec);
  const ac = new AbortController();
  const onSignal = () => {
    if (!ac.signal.aborted) return ac.abort();
    killServers("SIGKILL");
    process.stderr.write(`evidence-check: ${cliText("interrupted; the MCP server was shut down", messageLang(opts.lang, opts.compat))}\n`);
    process.exit(UNUSABLE);
  };
  const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const s of SIGNALS) process.on(s, onSignal);
  let reads;
  try {
    reads = await fetchSourcesViaMcp(specs, {
      command,
      args,
      cwd: dirname(resolve(path)),
      tool: opts.mcpTool,
      argument: opts.mcpArg,
      timeoutMs: opts.mcpTimeout,
      maxBytes: opts.mcpMaxBytes,
      maxSourceBytes: effectivePolicy(lib, options.policy, options.compat).max_source_bytes,
      signal: ac.signal,
    });
  } finally {
    for (const s of SIGNALS) process.removeListener(s, onSignal);
  }
  bundle.sources = bundle.sources.map((s, i) => {
    const source = { spec: s.spec, content: reads[i].text, revision: s.revision };
    if (s.fetched_at !== null && s.fetched_at !== undefined) source.fetched_at = s.fetched_at;
    return source;
  });
  return lib.checkBundle(bundle, options);
}

async function check(lib, opts) {
  if (opts.positional.length !== 2) throw usage("check takes one BUNDLE.json, one directory or - (stdin)");
  const path = opts.positional[1];
  const options = checkOptions(lib, opts);
  const inputLimit = effectivePolicy(lib, options.policy, options.compat).max_input_bytes;
  if (path === "-") return checkStream(opts, options, inputLimit);
  if (isDirectory(path)) return checkDirectory(opts, options, inputLimit);
  if (opts.jobs !== undefined) throw usage("--jobs takes a directory of bundles or - (stdin)");
  // The file's bytes go to checkBundle as they are; the text is made only for --mcp and the table.
  const bytes = readInputBytes(path, inputLimit);
  const text = opts.mcp === undefined ? undefined : decodeInput(bytes, path);
  const result = opts.mcp === undefined ? withBytes(lib.checkBundle, bytes, path, options) : await checkViaMcp(lib, opts, path, text, options);
  if (opts.out !== undefined && result.artifact) writeFileNoFollow(opts.out, result.artifact.content);
  if (opts.json) {
    await write(jsonOut(result));
  } else {
    let bundle;
    try {
      bundle = JSON.parse(text ?? decodeInput(bytes, path));
    } catch {
      bundle = undefined;
    }
    const say = TABLE[messageLang(opts.lang, opts.compat)];
    await print(printTable(result, bundle, say));
    if (opts.out !== undefined) {
      const out = nameSafe(opts.out);
      await print(result.artifact ? say.written(out, result.artifact.content_digest) : say.notWritten(out));
    }
  }
  return STATUS_EXIT[result.assessment.status];
}

async function digest(lib, opts) {
  if (opts.positional.length !== 2) throw usage("digest takes one FILE");
  await write(lib.digestText(readInputFile(opts.positional[1])) + "\n");
  return 0;
}

/** `serve [--port N]`: the page (www/) on 127.0.0.1 until SIGINT or SIGTERM; exit 0 then. */
async function serve(opts) {
  if (opts.positional.length !== 1) throw usage("serve takes no argument but --port N");
  const { startServer } = await import("./serve.mjs");
  const port = opts.port ?? 8080;
  let server;
  try {
    server = await startServer({ port });
  } catch (e) {
    throw refusal("port_unavailable", `cannot listen on 127.0.0.1:${port} (${e?.code ?? e}); choose another with --port N, or --port 0 for a free one`);
  }
  await print(`evidence-check page: ${server.url}  (Ctrl-C to stop)`);
  return new Promise((done) => {
    const stop = () => server.close().then(() => done(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

export async function main(argv) {
  // `import` and `locate` live in importers.mjs (their own options and usage).
  if (argv[0] === "import" || argv[0] === "locate") return (await import("./importers.mjs")).main(argv);
  let opts;
  try {
    opts = readArgs(argv);
    if (opts.help) {
      await write(USAGE + "\n");
      return 0;
    }
    if (opts.version) {
      await write(`evidence-check ${packageVersion()}\n`);
      return 0;
    }
    const lib = loadPackage();
    switch (opts.positional[0]) {
      case "check":
        return await check(lib, opts);
      case "digest":
        return await digest(lib, opts);
      case "serve":
        return await serve(opts);
      default:
        throw usage(opts.positional[0] ? `unknown command ${opts.positional[0]}` : "no command given");
    }
  } catch (err) {
    // The CLI's own refusals in the language of the command line (the library's are in it).
    const lang = opts ? messageLang(opts.lang, opts.compat) : argvLang(argv);
    inLang(err, lang);
    // --json: one JSON document on stdout, whatever happened (also when the flags did not parse).
    if (opts?.json ?? argv.includes("--json")) await write(jsonOut({ error: errorData(err) }));
    process.stderr.write(describeError(err) + "\n");
    // After a usage error the usage (English, as --help is); in Chinese a pointer to it.
    if (err?.code === "usage" && !(opts?.json ?? argv.includes("--json"))) process.stderr.write((lang === "zh" ? "用法见 evidence-check --help(英文)" : USAGE) + "\n");
    return UNUSABLE;
  }
}

// A closed stdout (`… | head -c1`) ends the command at once and quietly.
process.stdout.on("error", (e) => {
  if (e?.code === "EPIPE") process.exit(BROKEN_PIPE);
  throw e;
});
process.exitCode = await main(process.argv.slice(2));
