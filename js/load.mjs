// Loads the Node build of the package: ../node/ inside the npm package, ../pkg/node/ in
// the repository.
import { isUtf8 } from "node:buffer";
import { createRequire } from "node:module";
import { randomBytes } from "node:crypto";
import {
  closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

function packageEntry() {
  // index.js: the Node entry (js/entry.cjs), which registers the exported error classes.
  const candidates = [join(here, "..", "node", "index.js"), join(here, "..", "pkg", "node", "index.js")];
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    const err = new Error("the WebAssembly package is not built (looked for " + candidates.join(", ") + "); run `make build`");
    err.code = "package_missing";
    throw err;
  }
  return found;
}

export function loadPackage() {
  return require(packageEntry());
}

/** evidence-check/extras (its own wasm module: the importers, schemas, outcomes…), next to the main entry. */
export function loadExtras() {
  return require(join(dirname(packageEntry()), "extras.js"));
}

/**
 * The package's version: from the package.json next to the Node build (the npm
 * package's own; in the repository pkg/package.json, which js/assemble.mjs writes from
 * Cargo.toml, the one place the version is kept).
 */
export function packageVersion() {
  return JSON.parse(readFileSync(join(dirname(packageEntry()), "..", "package.json"), "utf8")).version;
}

/**
 * --lang: "zh" or "en", or undefined without it (the library then follows the locale,
 * LC_ALL, LC_MESSAGES or LANG, itself; or Chinese under --compat reference).
 */
export function langArg(value) {
  if (value !== undefined && value !== "zh" && value !== "en") throw usageError('--lang takes "zh" or "en"');
  return value;
}

/**
 * The language of the CLI's own lines: --lang, else Chinese under --compat reference, else
 * the locale's as the library reads it (the first non-empty of LC_ALL, LC_MESSAGES and
 * LANG; zh* is Chinese, anything else English).
 */
export function messageLang(lang, compat) {
  if (lang !== undefined) return lang;
  if (compat === "reference") return "zh";
  const locale = ["LC_ALL", "LC_MESSAGES", "LANG"].map((k) => process.env[k]).find((v) => v) ?? "";
  return /^zh($|[_\-.@])/i.test(locale.trim()) ? "zh" : "en";
}

/**
 * The language of a command line that may not have been read: its `--lang` and
 * `--compat` as written (`--lang zh`, `--lang=zh`), else the locale's (messageLang).
 */
export function argvLang(argv) {
  const value = (flag) => {
    for (const [i, a] of argv.entries()) {
      if (a === "--") break;
      if (a === flag) return argv[i + 1];
      if (a.startsWith(flag + "=")) return a.slice(flag.length + 1);
    }
    return undefined;
  };
  const lang = value("--lang");
  return messageLang(lang === "zh" || lang === "en" ? lang : undefined, value("--compat"));
}

/**
 * The CLI's own refusals and usage errors (`{}`: a name, a path or a number) and their
 * Chinese texts, most specific first; the library's messages are in the language already.
 */
const CLI_TEXTS = [
  ['--policy: the policy file {} does not exist (the presets are "documents" and "reference")', "--policy:策略文件 {} 不存在(预设为 \"documents\" 和 \"reference\")"],
  ["{} is more than {} bytes, over the limit of {} bytes; it was not read", "{} 的大小超过 {} 字节,超出 {} 字节的上限;未读取"],
  ["{} is {} bytes, over the limit of {} bytes; it was not read", "{} 有 {} 字节,超过 {} 字节的上限;未读取"],
  ["{} is {}, not a regular file; it was not read", "{} 是{},不是普通文件;未读取"],
  ["{} is not valid UTF-8", "{} 不是有效的 UTF-8"],
  ["the line is not valid UTF-8", "这一行不是有效的 UTF-8"],
  ["the line is over the limit of {} bytes; it was not read", "这一行超过 {} 字节的上限;未读取"],
  ["{} cannot be read ({})", "无法读取 {}({})"],
  ["{} does not exist", "{} 不存在"],
  ['--lang takes "zh" or "en"', '--lang 只接受 "zh" 或 "en"'],
  ['--compat takes "reference"', '--compat 只接受 "reference"'],
  ['--whitespace takes "exact" or "loose"', '--whitespace 只接受 "exact" 或 "loose"'],
  ["unknown option {}", "未知选项 {}"],
  ["{} needs a value", "{} 需要一个值"],
  ["{} takes no value", "{} 不接受值"],
  ["the command line cannot be read ({})", "无法读取命令行({})"],
  ["{} takes a whole number from {} to {}", "{} 须是 {} 到 {} 之间的整数"],
  ["the environment variable {} (--review-key-env) is not set or empty", "环境变量 {}(--review-key-env)未设置或为空"],
  ["--out writes artifacts; --no-render makes none", "--out 写出产物,而 --no-render 不生成产物,二者不能同用"],
  ["--mcp takes one bundle, not a directory", "--mcp 只用于单个证据包,不用于目录"],
  ["--mcp takes one bundle, not a stream", "--mcp 只用于单个证据包,不用于流"],
  ["--out takes one bundle or a directory, not a stream", "--out 只用于单个证据包或目录,不用于流"],
  ["--jobs takes a directory of bundles or - (stdin)", "--jobs 只用于证据包目录或 -(标准输入)"],
  ["{} holds no bundle (every *.json file in it was skipped as not a bundle); nothing was checked", "{} 中没有证据包(其中每个 *.json 文件都不是证据包,已跳过);未检查任何内容"],
  ["{} holds no *.json bundle; nothing was checked", "{} 中没有 *.json 证据包;未检查任何内容"],
  ["stdin held no bundle (one JSON bundle per line); nothing was checked", "标准输入中没有证据包(每行一个 JSON 证据包);未检查任何内容"],
  ["stdin cannot be read ({})", "无法读取标准输入({})"],
  ["check takes one BUNDLE.json, one directory or - (stdin)", "check 接受一个 BUNDLE.json、一个目录或 -(标准输入)"],
  ["digest takes one FILE", "digest 接受一个 FILE"],
  ["serve takes no argument but --port N", "serve 除 --port N 外不接受参数"],
  ["cannot listen on 127.0.0.1:{} ({}); choose another with --port N, or --port 0 for a free one", "无法监听 127.0.0.1:{}({});用 --port N 换一个端口,或用 --port 0 取一个空闲端口"],
  ["unknown command {}", "未知命令 {}"],
  ["no command given", "没有给出命令"],
  ["import takes anthropic, bedrock, openai or gemini, not nothing", "import 需要 anthropic、bedrock、openai 或 gemini 之一"],
  ["import takes anthropic, bedrock, openai or gemini, not {}", "import 接受 anthropic、bedrock、openai 或 gemini,而不是 {}"],
  ["import {} takes REQUEST.json and RESPONSE.json", "命令 import {} 接受 REQUEST.json 和 RESPONSE.json"],
  ["import {} needs --sources SOURCES.json (the host's snapshots)", "命令 import {} 需要 --sources SOURCES.json(宿主的快照)"],
  ["--sources {} must hold an object: the provider's key -> {}", "--sources {} 必须是一个对象:提供方的键 -> {}"],
  ["--sources {}: {}", "--sources {}:{}"],
  ["locate takes one DRAFT_BUNDLE.json", "locate 接受一个 DRAFT_BUNDLE.json"],
  ["{} takes no --{}", "{} 不接受 --{}"],
  // A directory's stray file (js/worker.mjs).
  ["not a bundle (JSON {}, not an object); skipped", "不是证据包(JSON {},不是对象);已跳过"],
  ["not a bundle (a JSON object without scope, sources or report); skipped", "不是证据包(JSON 对象中没有 scope、sources 或 report);已跳过"],
  // Reading sources through MCP (js/mcp.mjs).
  ["source {}: {}", "来源 {}:{}"],
  ["reading sources through MCP needs the package {}, an optional peer dependency that is not installed: npm install {}", "通过 MCP 读取来源需要软件包 {},它是未安装的可选对等依赖:npm install {}"],
  ["options.command must name the server to start", "options.command 必须指明要启动的服务器"],
  ["the response passed {} bytes unfinished, over the cap of {} bytes of JSON; it was not read further", "响应超过 {} 字节仍未结束,超出 {} 字节 JSON 的上限;未继续读取"],
  ["the MCP server did not answer the handshake within {} ms", "MCP 服务器未在 {} 毫秒内响应握手"],
  ["the MCP server could not be started or reached: {}", "无法启动或连接 MCP 服务器:{}"],
  ["no answer within {} ms", "{} 毫秒内无响应"],
  ["the call to {} failed: {}", "调用 {} 失败:{}"],
  ["the response is {} bytes of JSON, over the cap of {}", "响应为 {} 字节的 JSON,超过上限 {}"],
  ["{} reported an error: {}", "{} 报告了错误:{}"],
  ["{} reported an error", "{} 报告了错误"],
  ["{} returned neither a read result nor one text block", "{} 既未返回读取结果,也未返回单个文本块"],
  ["the result names {}, the catalogue {}", "结果指明的是 {},目录中为 {}"],
  ["{} returned status {} without a text", "{} 返回了状态 {},没有文本"],
  ["interrupted; the MCP server was shut down", "已中断;MCP 服务器已关闭"],
];

/** What a part of a CLI text names, in Chinese: a kind of file. */
const CLI_PARTS = {
  "a directory": "目录",
  "a FIFO": "FIFO",
  "a character device": "字符设备",
  "a block device": "块设备",
  "a socket": "套接字",
  "not a regular file": "非普通文件",
  "an array": "数组",
  "a string": "字符串",
  "a number": "数字",
  "a boolean": "布尔值",
};

const templateRe = (en) => new RegExp("^" + en.split("{}").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("(.*?)") + "$", "s");
const CLI_RES = CLI_TEXTS.map(([en, zh]) => [templateRe(en), zh]);

/**
 * One of the CLI's own texts in `lang`: in Chinese by CLI_TEXTS, each part named in
 * Chinese (a kind of file, a text it quotes: a nested CLI text, or a JSON
 * parser's, named by where it stopped); any other text as it is.
 */
export function cliText(text, lang) {
  if (lang !== "zh") return text;
  for (const [re, zh] of CLI_RES) {
    const m = re.exec(text);
    if (!m) continue;
    const parts = m.slice(1).map((p) => {
      if (p in CLI_PARTS) return CLI_PARTS[p];
      const inner = cliText(p, lang);
      if (inner !== p) return inner;
      // A JSON parser's sentence (Node's): where it stopped.
      const at = /position (\d+)/.exec(p);
      if (/JSON/.test(p)) return `不是有效的 JSON${at ? `(位置 ${at[1]})` : ""}`;
      return p;
    });
    let i = 0;
    return zh.replace(/\{\}/g, () => parts[i++]);
  }
  return text;
}

/** `err` with its message in `lang` where it is one of the CLI's own texts (cliText). */
export function inLang(err, lang) {
  if (err instanceof Error && typeof err.message === "string") {
    const message = cliText(err.message, lang);
    if (message !== err.message) err.message = message;
  }
  return err;
}

/** --compat: "reference", or undefined without it. */
export function compatArg(value) {
  if (value !== undefined && value !== "reference") throw usageError('--compat takes "reference"');
  return value;
}

let base;

/** The library's `EvidenceCheckError`: every error the package throws is one. */
export function evidenceCheckError() {
  if (base) return base;
  const lib = loadPackage();
  base = (typeof lib.EvidenceCheckError === "function" ? lib : lib.errorClasses()).EvidenceCheckError;
  return base;
}

const made = new Map();

/**
 * A JS-side error class named `name`, a subclass of the library's `EvidenceCheckError`
 * (so one `instanceof EvidenceCheckError` catches every refusal): `new C(code, message)`
 * with a stable `code`. `UsageError` (code "usage") is a wrong command line,
 * `InputError` an input file that cannot be read, `McpReadError` (js/mcp.mjs) a source
 * the MCP reader could not read.
 */
export function errorClass(name) {
  if (made.has(name)) return made.get(name);
  // A function, not `class … extends`: the library's constructor may not be callable
  // with `new` from JS; the prototype chain is what `instanceof` follows.
  function C(code, message) {
    const e = new Error(message);
    Object.setPrototypeOf(e, (new.target ?? C).prototype);
    e.code = code;
    return e;
  }
  C.prototype = Object.create(evidenceCheckError().prototype, {
    constructor: { value: C, writable: true, configurable: true },
    name: { value: name, writable: true, configurable: true },
  });
  Object.setPrototypeOf(C, evidenceCheckError());
  Object.defineProperty(C, "name", { value: name });
  made.set(name, C);
  return C;
}

/** A wrong command line: code "usage", exit 3. */
export function usageError(message) {
  return new (errorClass("UsageError"))("usage", message);
}

/**
 * The command line, read by util.parseArgs (`--flag value` and `--flag=value`, unknown
 * options refused). A refusal is a usage error that names the option, never Node's own
 * text (which tells a user to put the option after `--`).
 */
export function parseCommandLine(argv, options) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    const text = String(e?.message ?? e);
    // Node names the option in its first quotes: '--x', '--out <value>', '-h, --help'.
    const quoted = /'([^']*)'/.exec(text)?.[1] ?? "";
    const flag = /--[^\s,<']+/.exec(quoted)?.[0] ?? /-[^\s,<']+/.exec(quoted)?.[0] ?? "an option";
    if (e?.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") throw usageError(`unknown option ${flag}`);
    if (e?.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      throw usageError(/argument missing/.test(text) ? `${flag} needs a value` : `${flag} takes no value`);
    }
    throw usageError(`the command line cannot be read (${e?.code ?? "error"})`);
  }
}

/**
 * --policy: every field's value, read by the core (`lib.parsePolicy`) from a preset's
 * name or a policy JSON file (an unknown field is an error naming it and the file);
 * undefined without --policy. Its errors are in `lang` (--lang), else the host's language.
 */
export function policyArg(lib, value, lang) {
  if (value === undefined) return undefined;
  const options = lang === undefined ? undefined : { lang };
  if (value === "reference" || value === "documents") return lib.parsePolicy(value, options);
  if (!existsSync(value)) throw usageError(`--policy: the policy file ${value} does not exist (the presets are "documents" and "reference")`);
  try {
    return lib.parsePolicy(readInputFile(value), options);
  } catch (e) {
    if (e?.code?.startsWith?.("policy_")) e.message = `${value}: ${e.message}`;
    throw e;
  }
}

/**
 * The policy a call will apply: `policy` (policyArg's) when given, else the library's
 * default (a policy object with no field: the default preset), or under --compat
 * reference the reference preset. For what the CLI itself bounds (the bytes it reads).
 */
export function effectivePolicy(lib, policy, compat) {
  return policy ?? lib.parsePolicy(compat === undefined ? {} : "reference");
}

/** The exit code of a directory or a stream in which some bundles could not be read (the others' results are written). */
export const SOME_UNREADABLE_EXIT = 4;

/** The largest input file read: the core's default `maxInputBytes` (16 MiB). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

function inputError(code, message) {
  return new (errorClass("InputError"))(code, message);
}

function kindOf(st) {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

const utf8Fatal = new TextDecoder("utf-8", { fatal: true });
/** Files up to this size are read into a buffer kept for the next read. */
const REUSED_MAX = 1 << 20;
const buffers = {};

/** The buffer kept as `name`, at least `size` bytes (grown as needed), as a view of exactly `size` bytes. */
function reused(name, size) {
  if (!(buffers[name]?.length >= size)) buffers[name] = Buffer.allocUnsafeSlow(Math.max(size, 16384));
  return buffers[name].subarray(0, size);
}

/**
 * Reads an input file's bytes. It opens without blocking and stats the open file first:
 * anything but a regular file (a device such as /dev/zero, a FIFO) is refused unread, and
 * at most `limit` + 1 bytes are ever read. The bytes of a file up to 1 MiB are a view of
 * a buffer kept for the next read: use them (or copy them) before reading again.
 */
export function readInputBytes(path, limit = MAX_INPUT_BYTES) {
  let fd;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    if (e?.code === "ENOENT") throw inputError("not_found", `${path} does not exist`);
    throw inputError("unreadable", `${path} cannot be read (${e?.code ?? e})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw inputError("not_a_file", `${path} is ${kindOf(st)}, not a regular file; it was not read`);
    const tooLarge = (what) => inputError("input_too_large", `${path} is ${what} bytes, over the limit of ${limit} bytes; it was not read`);
    if (st.size > limit) throw tooLarge(st.size);
    // The stat'ed size plus one in the first read; a file that grows meanwhile is read on, to
    // the limit. The reads go into buffers kept for the next call (a directory's thousands
    // of small files made a new 64 KiB buffer or two each, and a garbage collection for
    // "external memory pressure" every 150 files); what a later read gets is copied out.
    const first = Math.min(st.size + 1, limit + 1);
    const head = first <= REUSED_MAX ? reused("head", first) : Buffer.allocUnsafe(first);
    let got = readSync(fd, head, 0, first, null);
    const chunks = [head.subarray(0, got)];
    let n = got;
    while (got > 0 && n <= limit) {
      const tail = reused("tail", 65536);
      got = readSync(fd, tail, 0, Math.min(tail.length, limit + 1 - n), null);
      if (got > 0) chunks.push(Buffer.from(tail.subarray(0, got)));
      n += got;
    }
    if (n > limit) throw tooLarge(`more than ${limit}`);
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, n);
  } finally {
    closeSync(fd);
  }
}

/** The refusal of an input file (`path`) or a stream's line (`path` undefined) that is not UTF-8. */
export function notUtf8(path) {
  return path === undefined
    ? Object.assign(new Error("the line is not valid UTF-8"), { code: "invalid_utf8" })
    : inputError("invalid_utf8", `${path} is not valid UTF-8`);
}

/** `bytes` as text, as `TextDecoder("utf-8", { fatal: true })` reads them (a leading BOM dropped); `notUtf8(path)` when they are not UTF-8. */
export function decodeInput(bytes, path) {
  try {
    return utf8Fatal.decode(bytes);
  } catch {
    throw notUtf8(path);
  }
}

/**
 * Reads an input file as UTF-8 (a leading BOM dropped), refusing invalid bytes rather
 * than replacing them; see `readInputBytes`.
 */
export function readInputFile(path, limit = MAX_INPUT_BYTES) {
  return decodeInput(readInputBytes(path, limit), path);
}

/**
 * `lib.checkBundle` (or `parseBundle`, `fn`) given the input's bytes, not a string decoded
 * from them: the same result, and the same refusal of bytes that are not UTF-8 as
 * `decodeInput(bytes, path)` first (whatever else the call would have thrown first, e.g.
 * an option it refuses: the bytes are checked again, only when it throws).
 */
export function withBytes(fn, bytes, path, ...rest) {
  try {
    return fn(bytes, ...rest);
  } catch (err) {
    if (!isUtf8(bytes)) throw notUtf8(path);
    throw err;
  }
}

export { STATUS_MEANING, STATUS_EXIT, UNUSABLE_EXIT } from "./status.mjs";

// Control characters (C0 but the line feed, DEL, C1) and bidirectional controls: a report
// key, a file name or a server's error text holding them could clear the screen, colour a
// fake status or reorder a line. Everything the CLI prints shows them as ⟦U+XXXX⟧; JSON
// output escapes them as \uXXXX (JSON.stringify leaves DEL, C1 and bidi controls raw).
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const hex = (c) => c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");

/** Text for a terminal: every control character shown as ⟦U+XXXX⟧, line feeds kept. */
export function terminalSafe(text) {
  return String(text).replace(CONTROLS, (c) => `⟦U+${hex(c)}⟧`);
}

/** JSON for a terminal (`indent` 2) or one JSON Lines line (`indent` 0), control characters as \uXXXX. */
export function jsonOut(value, indent = 2) {
  return JSON.stringify(value, null, indent).replace(CONTROLS, (c) => `\\u${hex(c)}`) + "\n";
}

/** An error's lines for stderr: `evidence-check: code: message`, then each contract issue. */
export function describeError(err) {
  const prefix = err?.code && !String(err.message).startsWith(err.code) ? err.code + ": " : "";
  const lines = [`evidence-check: ${prefix}${err?.message ?? err}`];
  if (Array.isArray(err?.issues)) {
    for (const i of err.issues) lines.push(`  ${i.path === "" ? "/" : i.path}: ${i.message} (${i.code})`);
  }
  return terminalSafe(lines.join("\n"));
}

/** An error as data: `{code, message, issues}` (issues: the contract's violations, or []). */
export function errorData(err) {
  return { code: err?.code ?? "error", message: String(err?.message ?? err), issues: Array.isArray(err?.issues) ? err.issues : [] };
}

/**
 * Writes `content` to `path` without ever writing through what is already there: the text
 * goes to a new file created exclusively beside it (`wx`, which also refuses a symlink at
 * that name), which is then renamed over `path`. A symlink or hard link at `path` is
 * replaced by the new file; the file it pointed to is never opened. Missing parent
 * directories are made.
 */
export function writeFileNoFollow(path, content) {
  const dir = dirname(resolve(path));
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd = openSync(temp, "wx", 0o666);
  try {
    const bytes = Buffer.from(content);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {}
    throw e;
  }
}

/**
 * Removes what an earlier run left at `path` (a file, or a symlink itself, never what it
 * points to); true when something was removed. A directory or nothing there is left alone.
 */
export function removeStale(path) {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return false;
  }
  if (st.isDirectory()) return false;
  unlinkSync(path);
  return true;
}
