// Declarations of `evidence-check/mcp` (js/mcp.mjs): reading a bundle's sources through an
// MCP server into an EvidenceStore. Node only. The data types are the package's own.
import type { EvidenceStore, EvidenceCheckError, ReadResult, Scope, SourceRef, SourceSpec } from "../node/index.js";

/** The defaults of `readSourcesViaMcp`'s options. */
export declare const MCP_DEFAULTS: { tool: string; argument: string; timeoutMs: number; maxSourceBytes: number };

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
  /** The largest source text (its response cap follows from it), or the cap itself. */
  maxSourceBytes?: number;
  maxBytes?: number;
  signal?: AbortSignal;
}

/** The codes of `McpReadError`. */
export type McpReadCode =
  | "invalid_argument" | "interrupted" | "read_mismatch" | "mcp_sdk_missing" | "mcp_unavailable" | "mcp_timeout"
  | "mcp_tool_error" | "mcp_response_too_large" | "mcp_unexpected_result";

/** A read that failed its guards, with a stable code and the source it concerns (an `EvidenceCheckError`). */
export declare class McpReadError extends EvidenceCheckError {
  constructor(code: McpReadCode, message: string, sourceId?: string);
  code: McpReadCode;
  source_id?: string;
}

/** One source as read: its text, and the structured read result it came in, if any. */
export interface McpRead { spec: SourceSpec; text: string; readResult?: ReadResult; }

/** Reads every spec's `filename` through the server; throws an McpReadError when any read fails. */
export declare function fetchSourcesViaMcp(specs: SourceSpec[], options: McpReadOptions): Promise<McpRead[]>;

/** Reads every spec's `filename` through the server and, when every read passed, ingests them all; the refs in spec order. */
export declare function readSourcesViaMcp(store: EvidenceStore, scope: Scope, specs: SourceSpec[], options: McpReadOptions): Promise<SourceRef[]>;

/** Splits a command line into words (quotes group words). */
export declare function splitCommand(line: string): string[];

/** Sends `signal` to every server this process started that may still run. */
export declare function killServers(signal?: string | number): void;
