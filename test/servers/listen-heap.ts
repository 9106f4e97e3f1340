/**
 * The server of the listen-stream flood (test/hostile/listen-streams.test.ts), in a process of its
 * own with a small heap: Streamable HTTP on loopback, a task tool whose result is RESULT_BYTES of
 * text (default 1 MiB), and a tool that announces a resource update `times` times. Prints
 * "listening on URL"; each "heap" line on stdin is answered on stdout with `heap {...}`: the heap
 * and the array buffers after full collections, in bytes.
 */
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { createManifestServerFactory, type ToolContext } from "../helpers/runtime.js";
import { serveHttpWith } from "../helpers/runtime.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const RESULT_BYTES = Number(process.env.RESULT_BYTES ?? 1024 * 1024);
const WATCHED = "test://watched";

const definition: ServerDefinition = {
  serverInfo: { name: "listen-heap", version: "1" },
  capabilities: { tools: {}, resources: { subscribe: true } },
  tools: [
    { name: "big", inputSchema: { type: "object", properties: { n: { type: "integer" } } }, execution: { taskSupport: "optional" } },
    { name: "touch", inputSchema: { type: "object", properties: { times: { type: "integer" } } } },
  ],
  taskSupport: { big: "optional" },
  resources: [{ resource: { uri: WATCHED, name: "watched" }, content: { text: "watched" } }],
  resourceTemplates: [],
  prompts: [],
};

const handlers = {
  tools: {
    big: async (args: { n?: number }, ctx: ToolContext) => {
      await ctx.startTask();
      // One flat string in the heap per task, as a parsed or built result is (repeat alone makes a rope of shared pieces).
      const prefix = `${args.n ?? 0}:`;
      return JSON.parse(`"${prefix}${"x".repeat(RESULT_BYTES - prefix.length)}"`) as string;
    },
    touch: async (args: { times?: number }, ctx: ToolContext) => {
      for (let i = 0; i < (args.times ?? 1); i++) await ctx.notifyResourceUpdated(WATCHED);
      return "touched";
    },
  },
};

// Room for the 100 results the test keeps (the default maxStoredResultBytes, 64 MiB, would evict the first ones).
const factory = createManifestServerFactory(definition, handlers as never, { onError: () => {}, maxStoredResultBytes: 128 * 1024 * 1024 });
const handle = await serveHttpWith(factory, definition, { port: 0 });

async function heap(): Promise<{ heapUsed: number; external: number }> {
  // Collections alternate with pauses: finalizers free more after each (see test/hostile/exhaustion.test.ts).
  for (let i = 0; i < 4; i++) {
    gc();
    await sleep(20);
  }
  const { heapUsed, external } = process.memoryUsage();
  return { heapUsed, external };
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "heap") void heap().then((h) => console.log(`heap ${JSON.stringify(h)}`));
});
process.stdin.once("end", () => void handle.close().then(() => process.exit(0)));
console.log(`listening on ${handle.url}`);
