/**
 * tools/call throughput over InMemoryTransport: the generated server (argv[2] = its folder)
 * against a hand-written McpServer with equivalent zod schemas for the same tools, in one process.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { z } from "zod";

const folder = process.argv[2]!;
const calls = Number(process.argv[3] ?? 3000);
const { tools } = JSON.parse(readFileSync(path.join(folder, "fixtures/tools-list.json"), "utf8")) as { tools: { name: string; description: string; inputSchema: Schema; outputSchema: Schema }[] };
type Schema = { [k: string]: any };

const output = { items: [{ id: "a", name: "A", amount: 1, status: "open", owner: { name: "Ann", email: null } }], total: 1, next: null };
const args = { id: "x1", limit: 10, status: "open", note: null, filter: { from: "2026-01-01", tags: ["a", "b"] }, address: { city: "Paris", country: "FR" } };

/** JSON Schema -> zod for the subset the synthetic manifests use. */
function toZod(schema: Schema, root: Schema): z.ZodTypeAny {
  if (schema.$ref) return toZod(root.$defs[schema.$ref.split("/").pop()], root);
  if (schema.enum) return z.enum(schema.enum);
  if (Array.isArray(schema.type)) return z.union(schema.type.map((t: string) => toZod({ ...schema, type: t }, root)) as never);
  switch (schema.type) {
    case "string":
      return z.string();
    case "integer": {
      let n = z.number().int();
      if (schema.minimum !== undefined) n = n.min(schema.minimum);
      if (schema.maximum !== undefined) n = n.max(schema.maximum);
      return n;
    }
    case "number":
      return z.number();
    case "null":
      return z.null();
    case "array": {
      const a = z.array(toZod(schema.items, root));
      return schema.maxItems !== undefined ? a.max(schema.maxItems) : a;
    }
    case "object": {
      const shape: Record<string, z.ZodTypeAny> = {};
      for (const [k, v] of Object.entries(schema.properties ?? {})) shape[k] = (schema.required ?? []).includes(k) ? toZod(v as Schema, root) : toZod(v as Schema, root).optional();
      const o = z.object(shape);
      return schema.additionalProperties === false ? o.strict() : o;
    }
  }
  return z.any();
}

async function measure(server: Server | McpServer): Promise<number> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "bench", version: "1" });
  await Promise.all([server.connect(b), client.connect(a)]);
  // Steady state: every tool called once first (the generated server compiles a tool's validators
  // on its first call; McpServer built its zod schemas at registration).
  for (const tool of tools) await client.callTool({ name: tool.name, arguments: args });
  const start = performance.now();
  for (let i = 0; i < calls; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, calls - i) }, (_, j) => client.callTool({ name: tools[(i + j) % tools.length]!.name, arguments: args })));
  }
  const seconds = (performance.now() - start) / 1000;
  await client.close();
  return calls / seconds;
}

const generated = await import(pathToFileURL(path.join(folder, "index.ts")).href);
const handlers = { tools: Object.fromEntries(tools.map((t) => [t.name, () => output])) };
const mcp = new McpServer({ name: "baseline", version: "1" });
for (const t of tools) {
  const input = toZod(t.inputSchema, t.inputSchema) as z.ZodObject<any>;
  const out = toZod(t.outputSchema, t.outputSchema) as z.ZodObject<any>;
  mcp.registerTool(t.name, { description: t.description, inputSchema: input.shape, outputSchema: out.shape }, async () => ({ content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output }));
}
const order = process.argv[4] === "baseline-first" ? ["baseline", "generated"] : ["generated", "baseline"];
const result: Record<string, number> = {};
for (const which of order) result[which] = which === "generated" ? await measure(generated.createServer(handlers)) : await measure(mcp);
process.stderr.write(`BENCH ${JSON.stringify(result)}\n`);
