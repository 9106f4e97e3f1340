/**
 * Connects a generated server to the official SDK v2 Client in memory, in either protocol era:
 * the SDK's serveStdio entry (which pins each connection to the era of its first message) over an
 * in-memory pair, so 2026-07-28 requests are served exactly as on stdio.
 */
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

export type Era = "legacy" | "modern";
/** What createServerFactory returns (typed loosely: tests pass factories of several servers). */
export type Factory = (context?: { era?: Era }) => unknown;

export interface ConnectOptions {
  era?: Era;
  /** Which SDK's Client: v2 (@modelcontextprotocol/client, default) or 1.x (@modelcontextprotocol/sdk, 2025 era only). */
  line?: "v2" | "v1";
  /** Client capabilities (declared at initialize, or in every 2026-07-28 request's envelope). */
  capabilities?: Record<string, unknown>;
  /** Runs before connect: register the client's request handlers (elicitation, sampling...). */
  setup?: (client: Client) => void;
}

export async function connectInMemory(factory: Factory, options: ConnectOptions = {}): Promise<{ sdk: Client; era: Era; close: () => Promise<void> }> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(factory as never, { transport: serverTransport, onerror: () => {} });
  const era = options.era ?? "legacy";
  if (options.line === "v1") {
    if (era !== "legacy") throw new Error("SDK 1.x Clients speak the 2025 era only");
    const { Client: V1Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const v1 = new V1Client({ name: "mcpgen-test-v1", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
    await v1.connect(clientTransport as never);
    return {
      // Typed as the v2 Client for the tests' convenience; the generated client takes either.
      sdk: v1 as unknown as Client,
      era,
      close: async () => {
        await v1.close();
        await handle.close();
      },
    };
  }
  const sdk = new Client({ name: "mcpgen-test", version: "1.0.0" }, {
    capabilities: options.capabilities ?? {},
    ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
  } as never);
  options.setup?.(sdk);
  await sdk.connect(clientTransport);
  if (sdk.getProtocolEra() !== era) throw new Error(`connected in the ${sdk.getProtocolEra()} era, not ${era}`);
  return {
    sdk,
    era,
    close: async () => {
      await sdk.close();
      await handle.close();
    },
  };
}

/** Runs a test body once per era. */
export const ERAS: readonly Era[] = ["legacy", "modern"];
