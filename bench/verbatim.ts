/**
 * Which layer of SDK v2 serves a manifest's tools/list as written: the generated server (the
 * low-level Server) against McpServer.registerTool with fromJsonSchema, on the conformance
 * manifest's 35 tools (draft and 2020-12 schemas, `$schema` first, x-mcp-header, execution,
 * annotations). Prints one BENCH line: tools listed byte for byte, and the first differences.
 */
import { readFileSync } from "node:fs";
import { fromJsonSchema, InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServerFactory } from "../generated/mcp-conformance-test-server/index.js";
import { handlers } from "../conformance/handlers.js";

type Tool = {
  name: string;
  description?: string;
  title?: string;
  inputSchema: object;
  outputSchema?: object;
  annotations?: object;
  execution?: object;
  _meta?: object;
};
const fixture = JSON.parse(readFileSync(new URL("../generated/mcp-conformance-test-server/fixtures/tools-list.json", import.meta.url), "utf8")) as {
  tools: Tool[];
};

function viaRegisterTool(): McpServer {
  const mcp = new McpServer({ name: "c", version: "1" });
  for (const t of fixture.tools) {
    mcp.registerTool(
      t.name,
      {
        ...(t.title ? { title: t.title } : {}),
        ...(t.description ? { description: t.description } : {}),
        inputSchema: fromJsonSchema(t.inputSchema as never),
        ...(t.outputSchema ? { outputSchema: fromJsonSchema(t.outputSchema as never) } : {}),
        ...(t.annotations ? { annotations: t.annotations } : {}),
        ...(t._meta ? { _meta: t._meta } : {}),
      } as never,
      async () => ({ content: [] }),
    );
  }
  return mcp;
}

/** tools/list as the wire carries it (a raw peer: an SDK Client would re-parse and reorder keys). */
async function listed(factory: () => unknown): Promise<Tool[]> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(factory as never, { transport: b });
  const answers = new Map<number, (m: { result: { tools: Tool[] } }) => void>();
  a.onmessage = (m) => answers.get((m as { id: number }).id)?.(m as never);
  await a.start();
  const request = (id: number, method: string, params: object) =>
    new Promise<{ result: { tools: Tool[] } }>((resolve) => {
      answers.set(id, resolve);
      void a.send({ jsonrpc: "2.0", id, method, params } as never);
    });
  await request(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "v", version: "1" } });
  const { tools } = (await request(2, "tools/list", {})).result;
  await a.close();
  await served.close();
  return tools;
}

const out: Record<string, unknown> = { tools: fixture.tools.length };
for (const [name, factory] of [
  ["generated", createServerFactory(handlers)],
  ["fromJsonSchema", viaRegisterTool],
] as const) {
  const tools = await listed(factory as () => unknown);
  const same = tools.filter((t, i) => JSON.stringify(t) === JSON.stringify(fixture.tools[i]));
  out[`${name}.verbatim`] = same.length;
  out[`${name}.differs`] = fixture.tools
    .filter((t, i) => JSON.stringify(tools[i]) !== JSON.stringify(t))
    .slice(0, 3)
    .map((t) => t.name);
}
process.stderr.write(`BENCH ${JSON.stringify(out)}\n`);
