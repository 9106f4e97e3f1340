/**
 * tools/call throughput of one server factory, in one protocol era: the SDK v2's serveStdio entry
 * on an in-memory pair (the SDK's own per-connection serving, so both eras are served as on
 * stdio), every tool called once first, then `calls` calls in batches of 50.
 */
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

export type Factory = () => unknown;
export type Era = "legacy" | "modern";

async function connect(factory: Factory, era: Era) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(factory as never, { transport: b });
  const client = new Client({ name: "bench", version: "1" }, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(a);
  return { client, close: async () => (await client.close(), await served.close()) };
}

/** Calls per second. Throws when a call answers `isError` (a benchmark of refusals measures nothing). */
export async function callsPerSecond(factory: Factory, era: Era, tools: readonly string[], args: Record<string, unknown>, calls: number): Promise<number> {
  const { client, close } = await connect(factory, era);
  const call = async (name: string) => {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} answered isError: ${JSON.stringify(result.content)}`);
  };
  // Steady state: every tool called once first (validators compiled, schemas built).
  for (const tool of tools) await call(tool);
  const start = performance.now();
  for (let i = 0; i < calls; i += 50) await Promise.all(Array.from({ length: Math.min(50, calls - i) }, (_, j) => call(tools[(i + j) % tools.length]!)));
  const seconds = (performance.now() - start) / 1000;
  await close();
  return calls / seconds;
}

/**
 * tools/list answers per second, in batches of 50, from a bare JSON-RPC peer (no SDK Client: its
 * own work per list, larger than the server's, would hide the server's cost).
 */
export async function listsPerSecond(factory: Factory, era: Era, lists: number): Promise<number> {
  const [peer, served] = InMemoryTransport.createLinkedPair();
  const server = serveStdio(factory as never, { transport: served });
  const waiting = new Map<number, () => void>();
  peer.onmessage = (message) => {
    const id = "id" in message && typeof message.id === "number" ? message.id : -1;
    waiting.get(id)?.();
    waiting.delete(id);
  };
  await peer.start();
  let ids = 0;
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<void>((resolve) => {
      const id = ++ids;
      waiting.set(id, resolve);
      void peer.send({ jsonrpc: "2.0", id, method, params });
    });
  const envelope = {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  };
  if (era === "legacy") {
    await request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
    await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
  const params = era === "legacy" ? {} : envelope;
  await request("tools/list", params);
  const start = performance.now();
  for (let i = 0; i < lists; i += 50) await Promise.all(Array.from({ length: Math.min(50, lists - i) }, () => request("tools/list", params)));
  const seconds = (performance.now() - start) / 1000;
  await peer.close();
  await server.close();
  return lists / seconds;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Rounds whose order rotates, so that JIT warm-up and the machine's noise fall on every contender
 * alike; the median round of each, keyed `<name>.<era>`.
 */
export async function rotatingRounds(
  factories: Record<string, Factory>,
  rounds: number,
  measure: (factory: Factory, era: Era) => Promise<number>,
): Promise<Record<string, number>> {
  const names = Object.keys(factories);
  const seen: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const era of ["legacy", "modern"] as const) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + round) % names.length]!;
        (seen[`${name}.${era}`] ??= []).push(await measure(factories[name]!, era));
      }
    }
  }
  return Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, median(v)]));
}
