// The gift server in memory, called through its generated client in both protocol eras (a
// 2025-era client and a 2026-07-28 one): the handlers in src/handlers, as generated/ wires them.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { handlers } from "../generated/gift-server/handlers.js";
import { createClient, createServerFactory, ToolCallError } from "../generated/gift-server/index.js";

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

async function connect(era: "legacy" | "modern") {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // The SDK's stdio entry over an in-memory pair: it serves the era the client opens with.
  const served = serveStdio(createServerFactory(handlers), { transport: serverSide });
  const sdk = new Client({ name: "test", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await sdk.connect(clientSide);
  expect(sdk.getProtocolEra()).toBe(era);
  opened.push(async () => {
    await sdk.close();
    await served.close();
  });
  return { sdk, gifts: createClient(sdk) };
}

describe.each(["legacy", "modern"] as const)("gift-server (%s era)", (era) => {
  it("suggests the gifts within the budget, typed as the manifest's outputSchema", async () => {
    const { gifts } = await connect(era);
    const { gifts: ideas } = await gifts.suggestGifts({ occasion: "birthday", budget: 20 });
    expect(ideas).toEqual([
      { name: "Dice set", price: 20 },
      { name: "Book: The Hobbit", price: 15 },
    ]);
  });

  it("answers a handler's ToolError with isError, which the client throws as a ToolCallError", async () => {
    const { gifts } = await connect(era);
    const refused = await gifts.suggestGifts({ occasion: "wedding", budget: 2 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolCallError);
    expect(refused).toMatchObject({ message: "No gift ideas under $2 for a wedding", result: { isError: true } });
    await expect(gifts.giftDetails({ name: "Kite" })).rejects.toThrow("No gift named Kite");
    expect(await gifts.giftDetails({ name: "Dice set" })).toEqual({
      name: "Dice set",
      description: "Seven polyhedral dice for tabletop games.",
      category: "games",
    });
  });
});

it("lists its tools exactly as the generated fixture says", async () => {
  const { sdk } = await connect("legacy");
  const fixture: unknown = JSON.parse(readFileSync(new URL("../generated/gift-server/fixtures/tools-list.json", import.meta.url), "utf8"));
  expect(await sdk.listTools()).toEqual(fixture);
});
