/**
 * What the generated client puts on the wire, seen at the SDK Client's transport: prompts/get
 * always carries `arguments` (some servers, exa-mcp-server among them, reject it missing).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient, createServerFactory } from "../../generated/mcp-conformance-test-server/index.js";
import { handlers } from "../../conformance/handlers.js";
import { connectInMemory, type Era } from "../helpers/connect.js";

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

const RUNS: [string, "v2" | "v1", Era][] = [
  ["SDK v2 Client, 2025-11-25", "v2", "legacy"],
  ["SDK v2 Client, 2026-07-28", "v2", "modern"],
  ["SDK 1.x Client, 2025-11-25", "v1", "legacy"],
];

describe.each(RUNS)("prompts/get without arguments (%s)", (_name, line, era) => {
  it("sends `arguments: {}` (servers that require the field accept it)", async () => {
    const c = await connectInMemory(createServerFactory(handlers), { era, line });
    closers.push(c.close);
    const sent: { method?: string; params?: Record<string, unknown> }[] = [];
    const transport = c.sdk.transport!;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      sent.push(message as (typeof sent)[number]);
      return send(message, options);
    };
    const result = await createClient(c.sdk).getPrompt("test_simple_prompt");
    expect(result.messages).toHaveLength(1);
    const request = sent.find((m) => m.method === "prompts/get");
    expect(request?.params).toMatchObject({ name: "test_simple_prompt", arguments: {} });
  });
});
