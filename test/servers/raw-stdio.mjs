// A hand-written MCP server over stdio (2025-11-25, no SDK), for `mcpgen pull` tests: it pages its
// lists, sends fields mcpgen does not know, and misbehaves on demand (RAW_MODE).
import { createInterface } from "node:readline";

const mode = process.env.RAW_MODE ?? "ok";
const tools = [
  {
    name: "alpha",
    description: "First.",
    inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    annotations: { readOnlyHint: true, "x-vendor/cost": 3 },
  },
  { inputSchema: { type: "object" }, name: "beta", "x-extra": { kept: true } },
  {
    name: "gamma",
    title: "Third",
    inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 0 } } },
    outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
  },
];
const pages = [tools.slice(0, 1), tools.slice(1, 2), tools.slice(2)];

function answer(id, result) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`);
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  if (message.method === "initialize") {
    const serverInfo = mode === "no-info" ? undefined : { name: "Raw Server", version: "0.1.0", websiteUrl: "https://example.com" };
    return answer(message.id, {
      protocolVersion: "2025-11-25",
      capabilities: { tools: { listChanged: true }, logging: {} },
      serverInfo,
      instructions: "Page through me.",
    });
  }
  if (message.method === "tools/list") {
    const cursor = message.params?.cursor;
    if (mode === "garbage") return answer(message.id, { tools: "not a list" });
    if (mode === "loop") return answer(message.id, { tools: [], nextCursor: "again" });
    const page = cursor === undefined ? 0 : Number(cursor.slice(1));
    return answer(message.id, { tools: pages[page], ...(page < pages.length - 1 ? { nextCursor: `p${page + 1}` } : {}) });
  }
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } })}\n`);
});
