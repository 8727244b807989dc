// Reads a bundle's sources through an MCP server (the Model Context Protocol) and
// ingests them into an EvidenceStore. Node only; the wasm core never does I/O.
//
// Guards, each a clear error naming the source, with nothing ingested at all: the call
// fails or reports isError; the response is over the byte cap; the server does not
// answer in time; a structured read result names another file than the spec. The server
// runs in its own process group, and the whole group is shut down: after every read, on
// errors, on an abort, and (synchronously) when this process exits. Only a bounded tail
// of the server's stderr is kept.
//
// The MCP SDK (@modelcontextprotocol/sdk) is an optional peer dependency of the package:
// it is loaded on the first read, and its absence is an McpReadError naming it.
import { spawn } from "node:child_process";
import { errorClass, packageVersion } from "./load.mjs";

/**
 * The defaults. The response cap (`maxBytes`, bytes of the response's JSON) follows the
 * source limit (`maxSourceBytes`, 24,000 bytes, the reference preset's, unless given): a read
 * server may return the text twice (the official filesystem server sends `content` and
 * `structuredContent`), each line end escaped, so 4 × the limit, plus 64 KiB of envelope.
 */
export const MCP_DEFAULTS = { tool: "read_text_file", argument: "path", timeoutMs: 5000, maxSourceBytes: 24000 };

/** The response cap for a source limit. */
const responseCap = (maxSourceBytes) => 4 * maxSourceBytes + 65536;

const SDK = "@modelcontextprotocol/sdk";
let sdk;

/** The SDK's client and stdio helpers, imported once; a clear error when not installed. */
async function loadSdk() {
  if (sdk) return sdk;
  try {
    const [client, stdio, shared] = await Promise.all([
      import(`${SDK}/client/index.js`),
      import(`${SDK}/client/stdio.js`),
      import(`${SDK}/shared/stdio.js`),
    ]);
    sdk = { Client: client.Client, getDefaultEnvironment: stdio.getDefaultEnvironment, deserializeMessage: shared.deserializeMessage, serializeMessage: shared.serializeMessage };
    return sdk;
  } catch (e) {
    if (e?.code === "ERR_MODULE_NOT_FOUND" && String(e.message).includes(SDK)) {
      throw new McpReadError("mcp_sdk_missing", `reading sources through MCP needs the package ${SDK}, an optional peer dependency that is not installed: npm install ${SDK}`);
    }
    throw e;
  }
}

/** Characters of the server's stderr kept for error messages (the end of it). */
const STDERR_TAIL = 4096;
/** How long a server gets to exit after its stdin closes, and after SIGTERM. */
const GRACE_MS = 1000;
const POSIX = process.platform !== "win32";

/** An error with a stable code, naming the source it concerns. */
export class McpReadError extends errorClass("McpReadError") {
  constructor(code, message, sourceId) {
    super(code, sourceId === undefined ? message : `source ${sourceId}: ${message}`);
    if (sourceId !== undefined) this.source_id = sourceId;
  }
}

/** Servers that may still run; killed when the process exits, whatever the path. */
const live = new Set();

/** Sends `signal` to every server this process started that may still run (synchronous). */
export function killServers(signal = "SIGKILL") {
  for (const t of live) t.kill(signal);
}
const killOnExit = () => killServers("SIGKILL");

/**
 * The SDK's stdio transport, but the server is started in its own process group (so a
 * shell wrapper's children go with it), the group is killed on close, stderr is kept as
 * a bounded tail, and one message line may not exceed `maxLineBytes` (`overflow` then
 * holds how many bytes had come).
 */
class GroupStdioTransport {
  constructor({ command, args, cwd, env, maxLineBytes, sdk }) {
    Object.assign(this, { command, args, cwd, env, maxLineBytes, sdk });
    this.stderrTail = "";
    this.overflow = undefined;
    this.parts = [];
    this.size = 0;
  }

  start() {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, this.args, {
        cwd: this.cwd,
        env: { ...this.sdk.getDefaultEnvironment(), ...this.env },
        stdio: ["pipe", "pipe", "pipe"],
        detached: POSIX,
        windowsHide: true,
      });
      this.child = child;
      child.on("error", (e) => {
        reject(e);
        this.onerror?.(e);
      });
      child.on("spawn", () => {
        this.pid = child.pid;
        live.add(this);
        if (live.size === 1) process.on("exit", killOnExit);
        resolve();
      });
      child.on("close", () => this.closed());
      child.stdout.on("data", (chunk) => this.receive(chunk));
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (d) => (this.stderrTail = (this.stderrTail + d).slice(-STDERR_TAIL)));
      for (const s of [child.stdin, child.stdout, child.stderr]) s.on("error", (e) => this.onerror?.(e));
    });
  }

  /** Splits stdout into message lines, refusing a line over the cap. */
  receive(chunk) {
    if (this.overflow !== undefined) return;
    let at = chunk.indexOf(0x0a);
    while (at !== -1) {
      const line = Buffer.concat([...this.parts, chunk.subarray(0, at)]).toString("utf8").replace(/\r$/, "");
      this.parts = [];
      this.size = 0;
      chunk = chunk.subarray(at + 1);
      at = chunk.indexOf(0x0a);
      let message;
      try {
        message = this.sdk.deserializeMessage(line);
      } catch (e) {
        this.onerror?.(e);
        continue;
      }
      this.onmessage?.(message);
    }
    if (chunk.length === 0) return;
    this.parts.push(chunk);
    this.size += chunk.length;
    if (this.size > this.maxLineBytes) {
      this.overflow = this.size;
      this.parts = [];
      this.close().catch(() => {});
    }
  }

  send(message) {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || !stdin.writable) return reject(new Error("Not connected"));
      if (stdin.write(this.sdk.serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Signals the server's whole process group; false when nothing was there. */
  kill(signal) {
    if (this.pid === undefined || !live.has(this)) return false;
    try {
      process.kill(POSIX ? -this.pid : this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /** Closes stdin, then SIGTERM and at last SIGKILL to the group; idempotent. */
  close() {
    this.closing ??= (async () => {
      if (this.pid !== undefined) {
        const child = this.child;
        try {
          child.stdin.end();
        } catch {}
        await until(() => child.exitCode !== null || child.signalCode !== null, GRACE_MS);
        // The leader may be gone while a shell wrapper's children still run: signal the group.
        if (this.kill("SIGTERM")) await until(() => !this.kill(0), GRACE_MS);
        if (this.kill("SIGKILL")) await until(() => !this.kill(0), GRACE_MS);
        live.delete(this);
        if (live.size === 0) process.removeListener("exit", killOnExit);
        // Nothing of the server may keep this process's event loop alive.
        for (const s of [child.stdin, child.stdout, child.stderr]) s.destroy();
        child.unref();
      }
      this.closed();
    })();
    return this.closing;
  }

  closed() {
    if (this.done) return;
    this.done = true;
    this.onclose?.();
  }
}

/** Resolves once `test()` holds, or after `ms` at most (polling). */
async function until(test, ms) {
  const end = Date.now() + ms;
  while (!test() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

function withTimeout(promise, ms, onTimeout) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Splits "COMMAND ARG…" on spaces, honouring double and single quotes. */
export function splitCommand(line) {
  const out = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m;
  while ((m = re.exec(line))) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/**
 * What a tool result holds: a structured ReadResult ({status, message?, data: {filename,
 * content}}) in `structuredContent`, or plain text (content: [{type: "text", text}]).
 * Text is always text: a file whose text looks like a read result is read as that text.
 */
function interpret(response) {
  const sc = response.structuredContent;
  if (sc && typeof sc === "object" && "status" in sc && "data" in sc) return { readResult: sc };
  const texts = (response.content ?? []).filter((c) => c?.type === "text").map((c) => c.text);
  if (texts.length === 1) return { text: texts[0] };
  if (sc && typeof sc === "object" && typeof sc.content === "string") return { text: sc.content };
  return null;
}

/**
 * Connects to the server and reads every spec's `filename` with the read tool. Returns,
 * in spec order, `{spec, text, readResult?}`: the text, and the structured read result
 * it came in if any (its status "ok" and its filename the spec's); throws an McpReadError
 * when any read fails.
 */
export async function fetchSourcesViaMcp(specs, options = {}) {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const { command, args = [], cwd, env, tool, argument, timeoutMs, maxSourceBytes, signal } = { ...MCP_DEFAULTS, ...given };
  const maxBytes = given.maxBytes ?? responseCap(maxSourceBytes);
  if (typeof command !== "string" || command === "") throw new McpReadError("invalid_argument", "options.command must name the server to start");
  const sdk = await loadSdk();
  // One message line may hold the response with every character escaped (\uXXXX, 6 bytes
  // per byte) and the JSON-RPC envelope; a longer line is refused before it is parsed.
  const maxLineBytes = 6 * maxBytes + 65536;
  const transport = new GroupStdioTransport({ command, args, cwd, env: env ?? process.env, maxLineBytes, sdk });
  const client = new sdk.Client({ name: "evidence-check", version: packageVersion() });
  const stderr = () => transport.stderrTail.trim().slice(-300);
  const tooLarge = (sourceId) =>
    new McpReadError("mcp_response_too_large", `the response passed ${transport.overflow} bytes unfinished, over the cap of ${maxBytes} bytes of JSON; it was not read further`, sourceId);
  const reads = [];
  let interrupted = false;
  const onAbort = () => {
    interrupted = true;
    transport.kill("SIGTERM");
    transport.close().catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    if (signal?.aborted) onAbort();
    await withTimeout(client.connect(transport), timeoutMs, () =>
      new McpReadError("mcp_timeout", `the MCP server did not answer the handshake within ${timeoutMs} ms`),
    ).catch((e) => {
      if (e instanceof McpReadError) throw e;
      if (transport.overflow !== undefined) throw tooLarge(undefined);
      throw new McpReadError("mcp_unavailable", `the MCP server could not be started or reached: ${e.message}${stderr() ? ` (${stderr()})` : ""}`);
    });
    for (const spec of specs) {
      let response;
      try {
        response = await withTimeout(
          client.callTool({ name: tool, arguments: { [argument]: spec.filename } }, undefined, { timeout: timeoutMs }),
          timeoutMs + 100,
          () => new McpReadError("mcp_timeout", `no answer within ${timeoutMs} ms`, spec.source_id),
        );
      } catch (e) {
        if (transport.overflow !== undefined) throw tooLarge(spec.source_id);
        if (e instanceof McpReadError) throw e;
        const timedOut = /timed out|timeout/i.test(String(e?.message));
        throw new McpReadError(timedOut ? "mcp_timeout" : "mcp_call_failed", timedOut ? `no answer within ${timeoutMs} ms` : `the call to ${tool} failed: ${e?.message ?? e}`, spec.source_id);
      }
      const size = Buffer.byteLength(JSON.stringify(response));
      if (size > maxBytes) throw new McpReadError("mcp_response_too_large", `the response is ${size} bytes of JSON, over the cap of ${maxBytes}`, spec.source_id);
      if (response.isError) {
        const why = (response.content ?? []).filter((c) => c?.type === "text").map((c) => c.text).join(" ").slice(0, 300);
        throw new McpReadError("mcp_tool_error", `${tool} reported an error${why ? `: ${why}` : ""}`, spec.source_id);
      }
      const found = interpret(response);
      if (!found) throw new McpReadError("mcp_unexpected_result", `${tool} returned neither a read result nor one text block`, spec.source_id);
      if (found.readResult && found.readResult?.data?.filename !== spec.filename) {
        throw new McpReadError("read_mismatch", `the result names ${JSON.stringify(found.readResult?.data?.filename)}, the catalogue ${spec.filename}`, spec.source_id);
      }
      if (found.readResult && (found.readResult.status !== "ok" || typeof found.readResult.data?.content !== "string")) {
        throw new McpReadError("mcp_tool_error", `${tool} returned status ${JSON.stringify(found.readResult.status)} without a text`, spec.source_id);
      }
      reads.push({ spec, text: found.text ?? found.readResult.data.content, ...found });
    }
  } catch (e) {
    if (interrupted) throw new McpReadError("interrupted", "interrupted; the MCP server was shut down");
    throw e;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  }
  return reads;
}

/**
 * Connects to the server, reads every spec's `filename` with the read tool, and, only
 * when every read passed its guards, ingests them all. Returns the refs in spec order.
 */
export async function readSourcesViaMcp(store, scope, specs, options = {}) {
  const reads = await fetchSourcesViaMcp(specs, options);
  // Every read passed: ingest them all (the store's own checks still apply).
  return reads.map(({ spec, readResult, text }) => {
    try {
      return readResult ? store.ingestReadResult(scope, spec.source_id, readResult) : store.ingest(scope, spec.source_id, text);
    } catch (e) {
      e.message = `source ${spec.source_id}: ${e.message}`;
      e.source_id = spec.source_id;
      throw e;
    }
  });
}

