// Typed usage of `evidence-check/mcp`: reading sources through an MCP server.
import { readSourcesViaMcp, fetchSourcesViaMcp, McpReadError, MCP_DEFAULTS } from "evidence-check/mcp";
import type { McpReadCode } from "evidence-check/mcp";
import { EvidenceStore, EvidenceCheckError } from "evidence-check";
import type { Scope, SourceRef, SourceSpec } from "evidence-check";

declare const specs: SourceSpec[];
declare const scope: Scope;
const store = new EvidenceStore(specs);
try {
  const refs: SourceRef[] = await readSourcesViaMcp(store, scope, specs, { command: "mcp-server-filesystem", args: ["."], timeoutMs: MCP_DEFAULTS.timeoutMs });
  console.log(refs.map((r) => r.digest));
} catch (e) {
  if (e instanceof McpReadError && e.code === "mcp_timeout") console.log(e.source_id);
  if (e instanceof McpReadError) {
    const code: McpReadCode = e.code;
    const base: EvidenceCheckError = e;
    console.log(code, base.code);
  }
}
const reads = await fetchSourcesViaMcp(specs, { command: "server", maxSourceBytes: MCP_DEFAULTS.maxSourceBytes });
for (const r of reads) console.log(r.spec.source_id, r.text.length, r.readResult?.status);
try {
  readSourcesViaMcp(store, scope, specs, { command: "" });
} catch {
}
