// Reads a bundle's sources through an MCP server (the Model Context Protocol) and
// ingests them into an EvidenceStore. Node only; the wasm core never does I/O.
//
// Guards, each a clear error naming the source, with nothing ingested at all: the call
// fails or reports isError; the response is over the byte cap; the server does not
// answer in time; a structured read result names another file than the spec. The server
// process is always shut down.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const MCP_DEFAULTS = { tool: "read_text_file", argument: "path", timeoutMs: 5000, maxBytes: 32000 };

/** An error with a stable code, naming the source it concerns. */
export class McpReadError extends Error {
  constructor(code, message, sourceId) {
    super(sourceId === undefined ? message : `source ${sourceId}: ${message}`);
    this.name = "EvidenceError";
    this.code = code;
    if (sourceId !== undefined) this.source_id = sourceId;
  }
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
 * content}}), or plain text (content: [{type: "text", text}]).
 */
function interpret(response) {
  const sc = response.structuredContent;
  if (sc && typeof sc === "object" && "status" in sc && "data" in sc) return { readResult: sc };
  const texts = (response.content ?? []).filter((c) => c?.type === "text").map((c) => c.text);
  if (texts.length === 1) {
    try {
      const parsed = JSON.parse(texts[0]);
      if (parsed && typeof parsed === "object" && "status" in parsed && "data" in parsed) return { readResult: parsed };
    } catch {}
    return { text: texts[0] };
  }
  if (sc && typeof sc === "object" && typeof sc.content === "string") return { text: sc.content };
  return null;
}

/**
 * Connects to the server, reads every spec's `filename` with the read tool, and, only
 * when every read passed its guards, ingests them all. Returns the refs in spec order.
 */
export async function readSourcesViaMcp(store, scope, specs, options = {}) {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const { command, args = [], cwd, env, tool, argument, timeoutMs, maxBytes, signal } = { ...MCP_DEFAULTS, ...given };
  if (typeof command !== "string" || command === "") throw new McpReadError("invalid_argument", "options.command must name the server to start");
  const transport = new StdioClientTransport({ command, args, cwd, env: env ?? process.env, stderr: "pipe" });
  const client = new Client({ name: "evidence-check", version: "0.1.0" });
  const stderr = [];
  transport.stderr?.on("data", (d) => stderr.push(String(d)));
  const reads = [];
  let interrupted = false;
  const onAbort = () => {
    interrupted = true;
    transport.close().catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    if (signal?.aborted) onAbort();
    await withTimeout(client.connect(transport), timeoutMs, () =>
      new McpReadError("mcp_timeout", `the MCP server did not answer the handshake within ${timeoutMs} ms`),
    ).catch((e) => {
      if (e instanceof McpReadError) throw e;
      throw new McpReadError("mcp_unavailable", `the MCP server could not be started or reached: ${e.message}${stderr.length ? ` (${stderr.join("").trim().slice(0, 300)})` : ""}`);
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
      reads.push({ spec, ...found });
    }
  } catch (e) {
    if (interrupted) throw new McpReadError("interrupted", "interrupted; the MCP server was shut down");
    throw e;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  }
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
