/**
 * What the server keeps per request it is sent must be bounded by the server, not by the
 * requests. Elicitation answers: each accepted answer is checked against the handler's
 * `requestedSchema`, usually a new object per call; validators were kept by schema object (and
 * ajv kept every schema it compiled), about 8 KiB per answer. Tool names: the x-mcp-header
 * declarations of 2026-07-28 tools/call were kept per name asked, known or not. Measured as the
 * exhaustion tests measure: the heap after full collections, in this process.
 */
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { afterEach, describe, expect, it } from "vitest";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { serveHttpWith } from "../helpers/runtime.js";
import { createManifestServerFactory, type ToolContext } from "../helpers/runtime.js";
import { sleep } from "../helpers/wait.js";
import { postModern, rawSession } from "../helpers/wire.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
/** The heap after full collections, each followed by a pause for the finalizers it lets run (see exhaustion.test.ts). */
async function heap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await sleep(20);
  }
  return process.memoryUsage().heapUsed;
}

const definition: ServerDefinition = {
  serverInfo: { name: "forms", version: "1" },
  capabilities: { tools: {} },
  tools: [{ name: "ask", inputSchema: { type: "object", properties: { n: { type: "integer" }, distinct: { type: "boolean" } }, required: ["n"] } }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

/** Asks for a form built anew on every call: the same form each time, or (`distinct`) one with its own title. */
const ask = async ({ n, distinct }: { n: number; distinct?: boolean }, ctx: ToolContext) => {
  const answer = await ctx.elicit({
    message: "Your name?",
    requestedSchema: {
      type: "object",
      ...(distinct ? { title: `Form ${n}` } : {}),
      properties: { name: { type: "string", minLength: 1, maxLength: 40, pattern: "^\\p{L}[\\p{L} '-]*$" }, age: { type: "integer", minimum: 0 } },
      required: ["name"],
    },
  });
  return `hello ${(answer.content as { name: string }).name}`;
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

describe("elicitation answers", () => {
  it.each([
    ["the same form, a new object each call", false],
    ["a different form each call", true],
  ])(
    "6,000 accepted answers to %s: the heap stays flat",
    async (_name, distinct) => {
      const factory = createManifestServerFactory(definition, { tools: { ask } } as never, { onError: () => {} });
      const s = await rawSession(factory, { era: "modern", capabilities: { elicitation: {} } });
      closers.push(s.close);
      // The answer comes with the call (2026-07-28 inputResponses): checked, then handed to the handler.
      const call = async (n: number) => {
        const r = await s.request("tools/call", {
          name: "ask",
          arguments: { n, distinct },
          inputResponses: { "elicitation-1": { action: "accept", content: { name: `Ada ${"abcdefghij"[n % 10]}` } } },
        });
        expect(r.result).toMatchObject({ content: [{ type: "text", text: `hello Ada ${"abcdefghij"[n % 10]}` }] });
        // The raw peer records every message: not the server's memory.
        s.received.length = 0;
      };
      // The first requests of a process grow the heap whatever they do (compiled code, caches).
      for (let n = 0; n < 1000; n++) await call(n);
      const warm = await heap();
      for (let n = 1000; n < 7000; n++) await call(n);
      const grown = (await heap()) - warm;
      // Kept per answer (about 5 KiB each before), 6,000 answers would be 30 MB; at most 100 forms are kept.
      expect(grown).toBeLessThan(3_000_000);
    },
    120_000,
  );
});

describe("tool names", () => {
  it("2026-07-28 tools/call of 300 unknown tools named with 100 KB each: nothing kept per name", async () => {
    const factory = createManifestServerFactory(definition, { tools: { ask } } as never, { onError: () => {} });
    const handle = await serveHttpWith(factory, definition, { port: 0 });
    closers.push(handle.close);
    const call = async (n: number) => {
      const name = `${n}-${"x".repeat(100_000)}`;
      // No Mcp-Name header (100 KB is past Node's header limit): refused, but only after the
      // x-mcp-header check has looked the name up.
      const answer = await postModern(handle.url, "tools/call", { name, arguments: {} });
      expect(answer.error).toMatchObject({ code: -32020 });
    };
    for (let n = 0; n < 100; n++) await call(n);
    const warm = await heap();
    for (let n = 100; n < 400; n++) await call(n);
    // Kept, the names would be 30 MB.
    expect((await heap()) - warm).toBeLessThan(3_000_000);
  }, 120_000);
});
