// Declarations of `evidence-check/mcp` (js/mcp.mjs): reading a bundle's sources through an
// MCP server into an EvidenceStore. Node only. The data types are the package's own.
import type { EvidenceStore, EvidenceError, Scope, SourceRef, SourceSpec } from "../node/index.js";

/** The defaults of `readSourcesViaMcp`'s options. */
export declare const MCP_DEFAULTS: { tool: string; argument: string; timeoutMs: number; maxBytes: number };

/** How to start the server and read through it. */
export interface McpReadOptions {
  /** The server's executable (required). */
  command: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** The read tool (default "read_text_file") and the name of its path argument (default "path"). */
  tool?: string;
  argument?: string;
  timeoutMs?: number;
  /** The most bytes one response may hold. */
  maxBytes?: number;
  signal?: AbortSignal;
}

/** A read that failed its guards, with a stable code and the source it concerns. */
export declare class McpReadError extends Error {
  constructor(code: string, message: string, sourceId?: string);
  code: "invalid_argument" | "interrupted" | "read_mismatch" | "mcp_unavailable" | "mcp_timeout" | "mcp_tool_error" | "mcp_response_too_large" | "mcp_unexpected_result";
  source_id?: string;
}

/** Reads every spec's `filename` through the server and, when every read passed, ingests them all; the refs in spec order. */
export declare function readSourcesViaMcp(store: EvidenceStore, scope: Scope, specs: SourceSpec[], options: McpReadOptions): Promise<SourceRef[]>;

/** Splits a command line into words (quotes group words). */
export declare function splitCommand(line: string): string[];

/** Sends `signal` to every server this process started that may still run. */
export declare function killServers(signal?: string | number): void;
