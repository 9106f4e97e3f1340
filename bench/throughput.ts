/**
 * tools/call throughput in one process, over the SDK v2's serveStdio entry on an in-memory pair
 * (the SDK's own per-connection serving, so both protocol eras are served as on stdio), for the
 * same tools served three ways:
 *
 * - `generated`: the generated server (argv[2] = its folder): the low-level Server, mcpgen's
 *   engine, ajv validators;
 * - `zod`: a hand-written McpServer with equivalent zod schemas (the SDK's usual way);
 * - `fromJsonSchema`: McpServer.registerTool with the manifest's JSON Schemas through the SDK's
 *   fromJsonSchema (the other way to keep JSON Schemas);
 *
 * each in the 2025 era (initialize) and the 2026-07-28 era, in rounds (argv[4], default 3) whose
 * order rotates (bench/verbatim.ts compares what each serves in tools/list). argv[5]: the folder of the generated server compiled by tsc (the SDK is compiled
 * JavaScript too; through tsx the generated code would carry its transform's helpers). Prints one BENCH line (calls per second: the median round).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod/v4";
import { callsPerSecond, rotatingRounds, type Factory } from "./measure.js";

const folder = process.argv[2]!;
const calls = Number(process.argv[3] ?? 3000);
/** Where the generated server's compiled JavaScript is (as a user's build has it), else its TypeScript through tsx. */
const compiled = process.argv[5];
const { tools } = JSON.parse(readFileSync(path.join(folder, "fixtures/tools-list.json"), "utf8")) as {
  tools: { name: string; description: string; inputSchema: Schema; outputSchema: Schema }[];
};
type Schema = { [k: string]: any };

const output = { items: [{ id: "a", name: "A", amount: 1, status: "open", owner: { name: "Ann", email: null } }], total: 1, next: null };
const args = { id: "x1", limit: 10, status: "open", note: null, filter: { from: "2026-01-01", tags: ["a", "b"] }, address: { city: "Paris", country: "FR" } };

/** JSON Schema -> zod for the subset the synthetic manifests use. */
function toZod(schema: Schema, root: Schema): z.ZodType {
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
      const shape: Record<string, z.ZodType> = {};
      for (const [k, v] of Object.entries(schema.properties ?? {}))
        shape[k] = (schema.required ?? []).includes(k) ? toZod(v as Schema, root) : toZod(v as Schema, root).optional();
      const o = z.object(shape);
      return schema.additionalProperties === false ? o.strict() : o;
    }
  }
  return z.any();
}

const result = () => ({ content: [{ type: "text" as const, text: JSON.stringify(output) }], structuredContent: output });

function zodServer(): McpServer {
  const mcp = new McpServer({ name: "zod", version: "1" });
  for (const t of tools)
    mcp.registerTool(
      t.name,
      {
        description: t.description,
        inputSchema: toZod(t.inputSchema, t.inputSchema) as z.ZodObject,
        outputSchema: toZod(t.outputSchema, t.outputSchema) as z.ZodObject,
      },
      async () => result(),
    );
  return mcp;
}

function jsonSchemaServer(): McpServer {
  const mcp = new McpServer({ name: "json", version: "1" });
  for (const t of tools)
    mcp.registerTool(
      t.name,
      { description: t.description, inputSchema: fromJsonSchema(t.inputSchema as never), outputSchema: fromJsonSchema(t.outputSchema as never) },
      async () => result(),
    );
  return mcp;
}

const generated = await import(pathToFileURL(compiled ? path.join(compiled, "index.js") : path.join(folder, "index.ts")).href);
const handlers = { tools: Object.fromEntries(tools.map((t) => [t.name, () => output])) };
const factories: Record<string, Factory> = { generated: generated.createServerFactory(handlers), zod: zodServer, fromJsonSchema: jsonSchemaServer };
// Each contender answers the same calls; the median of rotating rounds (bench/measure.ts).
const out: Record<string, number> = await rotatingRounds(factories, Number(process.argv[4] ?? 3), (factory, era) =>
  callsPerSecond(
    factory,
    era,
    tools.map((t) => t.name),
    args,
    calls,
  ),
);
out.tools = tools.length;
process.stderr.write(`BENCH ${JSON.stringify(out)}\n`);
