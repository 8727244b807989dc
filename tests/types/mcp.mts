// Typed usage of `evidence-check/mcp`: reading sources through an MCP server.
import { readSourcesViaMcp, McpReadError, MCP_DEFAULTS } from "evidence-check/mcp";
import { EvidenceStore } from "evidence-check";
import type { Scope, SourceRef, SourceSpec } from "evidence-check";

declare const specs: SourceSpec[];
declare const scope: Scope;
const store = new EvidenceStore(specs);
try {
  const refs: SourceRef[] = await readSourcesViaMcp(store, scope, specs, { command: "mcp-server-filesystem", args: ["."], timeoutMs: MCP_DEFAULTS.timeoutMs });
  console.log(refs.map((r) => r.digest));
} catch (e) {
  if (e instanceof McpReadError && e.code === "mcp_timeout") console.log(e.source_id);
}
