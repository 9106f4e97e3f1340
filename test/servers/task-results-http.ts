/**
 * A server over Streamable HTTP whose tool `job` starts a 2026-07-28 task and returns a text of
 * `bytes` bytes (or `empties` empty objects as structured content), for the tests of the bytes tasks keep (test/hostile/task-results.test.ts). Run it
 * with a small heap (--max-old-space-size) and --expose-gc; SERVER_OPTIONS (JSON) are its server
 * options. Prints "listening on URL"; each "heap" line on stdin answers "heap N": the heap after
 * full collections, in bytes.
 */
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { createManifestServerFactory, type ToolContext } from "../helpers/runtime.js";
import { serveHttpWith } from "../helpers/runtime.js";

const definition: ServerDefinition = {
  serverInfo: { name: "task-results", version: "1" },
  capabilities: { tools: {} },
  tools: [
    {
      name: "job",
      inputSchema: { type: "object", properties: { bytes: { type: "integer" }, empties: { type: "integer" } } },
      execution: { taskSupport: "optional" },
    },
  ],
  taskSupport: { job: "optional" },
  resources: [],
  resourceTemplates: [],
  prompts: [],
};
const handlers = {
  tools: {
    job: async (args: { bytes?: number; empties?: number }, ctx: ToolContext) => {
      await ctx.startTask();
      // `empties`: that many `{}` as structured content: few bytes of JSON, many objects in a heap.
      if (args.empties !== undefined)
        return { content: [{ type: "text", text: "empties" }], structuredContent: { items: Array.from({ length: args.empties }, () => ({})) } };
      return text(args.bytes ?? 1);
    },
  },
};

const KIB = "x".repeat(1024);
/**
 * A text of `bytes` bytes held in the heap, as a handler's own data would be: "x".repeat() builds
 * a rope of a few hundred bytes, and a Buffer's toString() a string outside the heap.
 */
function text(bytes: number): string {
  return new Array<string>(Math.floor(bytes / 1024)).fill(KIB).join("") + "x".repeat(bytes % 1024);
}

const options = JSON.parse(process.env.SERVER_OPTIONS ?? "{}") as Record<string, number>;
const factory = createManifestServerFactory(definition, handlers as never, { onError: () => {}, ...options });
const handle = await serveHttpWith(factory, definition, { port: 0 });
console.log(`listening on ${handle.url}`);

const gc = (globalThis as { gc?: () => void }).gc;
createInterface({ input: process.stdin }).on("line", (line) => {
  if (line !== "heap" || !gc) return;
  void (async () => {
    // Collections alternate with pauses: finalizers free more after each (see test/hostile/exhaustion.test.ts).
    for (let i = 0; i < 4; i++) {
      gc();
      await sleep(20);
    }
    console.log(`heap ${process.memoryUsage().heapUsed}`);
  })();
});
process.stdin.once("end", () => void handle.close().then(() => process.exit(0)));
