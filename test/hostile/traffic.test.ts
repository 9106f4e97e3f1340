/**
 * The seed's broken messages and hostile traffic against a generated server: every one gets the
 * right JSON-RPC answer (or none, for what is not a request), and the server keeps serving.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { createManifestServerFactory } from "../helpers/runtime.js";
import { ERAS, type Era } from "../helpers/connect.js";
import { sleep, untilValue } from "../helpers/wait.js";
import { envelope, rawSession } from "../helpers/wire.js";

type Message = { jsonrpc: "2.0"; id?: string | number | null; result?: any; error?: { code: number; message: string } };

const definition: ServerDefinition = {
  serverInfo: { name: "hostile", version: "1" },
  capabilities: { tools: {} },
  tools: [
    { name: "echo", inputSchema: { type: "object" } },
    { name: "slow", inputSchema: { type: "object", properties: { ms: { type: "number" } } } },
    {
      name: "tree",
      inputSchema: { type: "object", properties: { node: { $ref: "#/$defs/node" } }, $defs: { node: { type: "array", items: { $ref: "#/$defs/node" } } } },
    },
    { name: "boom", inputSchema: { type: "object" } },
  ],
  resources: [],
  resourceTemplates: [],
  prompts: [],
};

let seenArgs: unknown;
const handlers = {
  tools: {
    echo: (args: Record<string, unknown>) => {
      seenArgs = args;
      return JSON.stringify(Object.keys(args));
    },
    slow: async (args: { ms?: number; n?: number }) => {
      await sleep(args.ms ?? 0);
      return `n=${String(args.n)}`;
    },
    tree: () => "ok",
    boom: () => {
      throw new Error("boom");
    },
  },
};

/** A raw peer: sends what the test writes (2026-07-28 requests get the envelope), collects every message the server sends. */
async function peer(era: Era) {
  const session = await rawSession(createManifestServerFactory(definition, handlers as never, { onError: () => {} }), { era });
  const send = (m: { jsonrpc: "2.0"; id?: unknown; method?: string; params?: Record<string, unknown>; result?: unknown }) =>
    session.send(era === "modern" && m.method !== undefined && m.id !== undefined ? { ...m, params: { ...m.params, _meta: envelope() } } : m);
  const received = session.received;
  /** The messages with this id, once at least `count` have come. */
  const answers = (id: string | number, count = 1) =>
    untilValue(
      () => received.filter((m) => m.id === id) as Message[],
      (found) => found.length >= count,
      `${count === 1 ? "an answer" : `${count} answers`} to ${JSON.stringify(id)}`,
      { every: 5 },
    );
  /** A result as this era's client gets it. */
  const wire = (result: object) =>
    era === "modern" ? { ...result, resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "hostile", version: "1" } } } : result;
  return { send, received, answers, wire, close: session.close, init: session.init };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe.each(ERAS)("hostile traffic (in memory, %s era)", (era: Era) => {
  it("a 'notification' with an id is a request for an unknown method: -32601", async () => {
    const p = await peer(era);
    close = p.close;
    await p.send({ jsonrpc: "2.0", id: 5, method: "notifications/initialized" });
    expect((await p.answers(5))[0]!.error).toEqual({ code: -32601, message: "Method not found" });
  });

  it("a response without a request is ignored, and the server keeps serving", async () => {
    const p = await peer(era);
    close = p.close;
    await p.send({ jsonrpc: "2.0", id: 99, result: {} });
    await p.send({ jsonrpc: "2.0", id: 100, method: "tools/call", params: { name: "echo", arguments: {} } });
    expect((await p.answers(100))[0]!.result).toEqual(p.wire({ content: [{ type: "text", text: "[]" }] }));
    expect(p.received.filter((m) => m.id === 99)).toEqual([]);
  });

  it("refuses a second request with the id of one still in flight, and answers the first", async () => {
    const p = await peer(era);
    close = p.close;
    await p.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow", arguments: { ms: 50, n: 1 } } });
    await p.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow", arguments: { ms: 0, n: 2 } } });
    const answers = await p.answers(7, 2);
    expect(answers[0]!.error).toEqual({ code: -32600, message: "Invalid Request: id 7 is already used by a request in flight" });
    expect(answers[1]!.result).toEqual(p.wire({ content: [{ type: "text", text: "n=1" }] }));
  });

  it("answers 1,000 concurrent calls with interleaved ids, each with its own result", async () => {
    const p = await peer(era);
    close = p.close;
    const ids = Array.from({ length: 1000 }, (_, i) => (i % 2 ? `s${i}` : i));
    await Promise.all(
      ids.map((id, i) => p.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow", arguments: { ms: (i * 7) % 13, n: i } } })),
    );
    for (const [i, id] of ids.entries()) {
      const [answer] = await p.answers(id);
      expect(answer!.result).toEqual(p.wire({ content: [{ type: "text", text: `n=${i}` }] }));
    }
    expect(p.received.filter((m) => m.id !== undefined && m.id !== p.init?.id)).toHaveLength(1000);
  });

  it("keeps __proto__ and constructor keys as data: no prototype is polluted", async () => {
    const p = await peer(era);
    close = p.close;
    const args = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "toString": 1}');
    await p.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: args } });
    expect((await p.answers(1))[0]!.result).toEqual(p.wire({ content: [{ type: "text", text: '["__proto__","constructor","toString"]' }] }));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(seenArgs as object, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(seenArgs)).toBe(Object.prototype);
  });

  it("contains deeply nested arguments: no stack overflow, an answer either way", async () => {
    const p = await peer(era);
    close = p.close;
    const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000));
    await p.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "tree", arguments: { node: deep } } });
    const [nested] = await p.answers(1);
    expect(nested!.result).toEqual(
      p.wire({ content: [{ type: "text", text: "Invalid arguments for tool tree: Arguments are nested too deeply to check" }], isError: true }),
    );
    await p.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { deep } } });
    const [second] = await p.answers(2);
    expect(second!.result).toEqual(p.wire({ content: [{ type: "text", text: '["deep"]' }] }));
  });

  it("one throwing handler never stops the others", async () => {
    const p = await peer(era);
    close = p.close;
    await p.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "boom", arguments: {} } });
    await p.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: {} } });
    expect((await p.answers(1))[0]!.result).toMatchObject({ isError: true });
    expect((await p.answers(2))[0]!.result).toEqual(p.wire({ content: [{ type: "text", text: "[]" }] }));
  });
});

/** The gift server in a process of its own, a line limit of 2,000 bytes; `answers(n)` waits for n answer lines and returns them all. */
function giftOverStdio() {
  const script = fileURLToPath(new URL("../servers/gift-stdio.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env, MAX_MESSAGE_BYTES: "2000" } });
  let out = "";
  let stderr = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (stderr += d));
  const lines = () =>
    out
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Message);
  // The first answer also waits for the process to start (tsx compiles the server first): seconds on a loaded machine.
  const answers = (n: number) =>
    untilValue(lines, (got) => got.length >= n, `${n} answer lines from the gift server`, { timeout: 20_000, every: 10 }).catch((error: Error) => {
      throw new Error(`${error.message}; its stderr: ${stderr || "(empty)"}`, { cause: error });
    });
  return { child, answers };
}

describe("hostile traffic over stdio", () => {
  it("answers invalid JSON -32700, non-JSON-RPC -32600 and oversized lines -32600, and keeps serving", async () => {
    const { child, answers } = giftOverStdio();
    try {
      child.stdin.write(
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\n',
      );
      await answers(1);
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      child.stdin.write("{this is not json\n");
      child.stdin.write('{"hello":"world","id":3}\n');
      child.stdin.write(`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"pad":"${"x".repeat(5000)}"}}\n`);
      child.stdin.write('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"tool":"suggest_gifts","args":{}}}\n');
      child.stdin.write('{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"suggest_gifts","arguments":{"occasion":"x","budget":20}}}\n');
      const got = await answers(6);
      expect(got.slice(1).map((m) => [m.id, m.error?.code ?? "ok"])).toEqual([
        [null, -32700],
        [3, -32600],
        [null, -32600],
        [5, -32602],
        [6, "ok"],
      ]);
      expect(got[3]!.error!.message).toBe("Invalid Request: message larger than 2000 bytes");
    } finally {
      child.kill();
    }
  });

  it("does the same on a connection of 2026-07-28 requests (no initialize)", async () => {
    const { child, answers } = giftOverStdio();
    const meta = JSON.stringify(envelope());
    try {
      child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${meta}}}\n`);
      await answers(1);
      child.stdin.write("{this is not json\n");
      child.stdin.write('{"hello":"world","id":3}\n');
      child.stdin.write(`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":${meta},"pad":"${"x".repeat(5000)}"}}\n`);
      child.stdin.write(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"_meta":${meta},"tool":"suggest_gifts","args":{}}}\n`);
      child.stdin.write('{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{}}\n');
      child.stdin.write(
        `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"_meta":${meta},"name":"suggest_gifts","arguments":{"occasion":"x","budget":20}}}\n`,
      );
      const got = await answers(7);
      expect(got[0]!.result!.resultType).toBe("complete");
      // Answers may overtake each other (a refused envelope is answered before a handler runs).
      const byId = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
      expect(
        got
          .slice(1)
          .map((m) => [m.id, m.error?.code ?? "ok"])
          .sort(byId),
      ).toEqual([
        [3, -32600],
        [5, -32602],
        // A request without the envelope on a 2026-07-28 connection.
        [6, -32602],
        [7, "ok"],
        [null, -32700],
        [null, -32600],
      ]);
    } finally {
      child.kill();
    }
  });
});
