/** Crafted logs for the check tests: mcpgen traces written to temporary files. */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { tempProject } from "../../../helpers/tmp.js";

export type Entry =
  | { from: "client" | "server"; message: unknown; http?: unknown; time?: string }
  | { note: string; text?: string; from?: "client" | "server"; event?: string; http?: unknown };

const rpc = (m: Record<string, unknown>) => ({ jsonrpc: "2.0", ...m });
export const client = (m: Record<string, unknown>, extra: Record<string, unknown> = {}): Entry => ({ from: "client", message: rpc(m), ...extra });
export const server = (m: Record<string, unknown>, extra: Record<string, unknown> = {}): Entry => ({ from: "server", message: rpc(m), ...extra });

const TOOLS = [
  {
    name: "suggest_gifts",
    inputSchema: {
      type: "object",
      properties: { occasion: { type: "string" }, budget: { type: "number", minimum: 0 } },
      required: ["occasion", "budget"],
    },
    outputSchema: { type: "object", properties: { gifts: { type: "array" } }, required: ["gifts"] },
  },
  { name: "gift_details", inputSchema: { type: "object", properties: { name: { type: "string", minLength: 1 } }, required: ["name"] } },
];

/** tools/list, resources/list, templates and prompts/list answered: the catalog the rules judge names by. */
export const LISTS: Entry[] = [
  client({ id: "l1", method: "tools/list" }),
  server({ id: "l1", result: { tools: TOOLS } }),
  client({ id: "l2", method: "resources/list" }),
  server({ id: "l2", result: { resources: [{ uri: "mcp://gift-server/resources/gift_catalog", name: "gift_catalog" }] } }),
  client({ id: "l3", method: "resources/templates/list" }),
  server({ id: "l3", result: { resourceTemplates: [{ uriTemplate: "gift://{id}", name: "gift" }] } }),
  client({ id: "l4", method: "prompts/list" }),
  server({ id: "l4", result: { prompts: [{ name: "gift_congrats_style" }] } }),
];

const START = { mcpgenTrace: 1, time: "2025-12-05T16:00:00.000Z", transport: "stdio", command: ["node", "server.js"], mcpgen: "0.1.0" };

/** A trace file of these entries (times one millisecond apart unless given); its path. */
export function traceFile(entries: readonly Entry[], name = "run.jsonl"): string {
  const dir = tempProject();
  const lines = [JSON.stringify(START)];
  entries.forEach((e, i) => lines.push(JSON.stringify({ time: new Date(Date.parse(START.time) + i + 1).toISOString(), ...e })));
  const file = path.join(dir, name);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** A file of these lines, as they are. */
export function rawFile(lines: readonly string[], name: string): string {
  const file = path.join(tempProject(), name);
  writeFileSync(file, lines.map((l) => `${l}\n`).join(""));
  return file;
}
