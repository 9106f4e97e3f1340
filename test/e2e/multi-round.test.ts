/**
 * Multi round-trip requests (MCP 2026-07-28): a handler's ctx.elicit / ctx.sample / ctx.listRoots
 * become an `input_required` result; the retry with `inputResponses` (and the signed
 * `requestState`) runs the handler again, each question answered at once. Raw JSON-RPC, so every
 * field on the wire is checked.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServerFactory } from "../../generated/mcp-conformance-test-server/index.js";
import { handlers } from "../../conformance/handlers.js";
import type { ServerDefinition } from "../../packages/runtime/src/shared/definition.js";
import { createManifestServerFactory } from "../helpers/runtime.js";
import { rawSession } from "../helpers/wire.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const ALL = { elicitation: {}, sampling: {}, roots: {} };
async function session(capabilities: Record<string, unknown> = ALL, factory = createServerFactory(handlers)) {
  const s = await rawSession(factory, { era: "modern", capabilities });
  close = s.close;
  return s;
}
const NAME_REQUEST = {
  method: "elicitation/create",
  params: { mode: "form", message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
};
const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

describe("multi round-trip requests (2026-07-28)", () => {
  it("asks with input_required, then answers the retry that carries the answer", async () => {
    const s = await session();
    const first = await s.request("tools/call", { name: "test_input_required_result_elicitation", arguments: {} });
    expect(first.result).toEqual({
      resultType: "input_required",
      inputRequests: { user_name: NAME_REQUEST },
      requestState: expect.any(String),
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "mcp-conformance-test-server", version: "1.0.0" } },
    });
    const second = await s.request("tools/call", {
      name: "test_input_required_result_elicitation",
      arguments: {},
      inputResponses: { user_name: accept({ name: "Ada" }) },
    });
    expect(second.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Hello, Ada!" }] });
  });

  it("carries earlier answers in the signed requestState, so a second round still knows the first", async () => {
    const s = await session();
    const tool = "test_input_required_result_multi_round";
    const r1 = await s.request("tools/call", { name: tool, arguments: {} });
    expect(Object.keys(r1.result!.inputRequests as object)).toEqual(["step1"]);
    const r2 = await s.request("tools/call", {
      name: tool,
      arguments: {},
      inputResponses: { step1: accept({ name: "Ada" }) },
      requestState: r1.result!.requestState,
    });
    expect(Object.keys(r2.result!.inputRequests as object)).toEqual(["step2"]);
    expect(r2.result!.requestState).not.toBe(r1.result!.requestState);
    // Only step2 in this round: step1 comes from the state.
    const r3 = await s.request("tools/call", {
      name: tool,
      arguments: {},
      inputResponses: { step2: accept({ color: "green" }) },
      requestState: r2.result!.requestState,
    });
    expect(r3.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Ada likes green" }] });
    // The state is readable (signed, not encrypted): it holds the answers, bound to this call.
    const payload = JSON.parse(Buffer.from(String(r2.result!.requestState).split(".")[0]!, "base64url").toString("utf8"));
    expect(payload.answers).toEqual({ step1: accept({ name: "Ada" }) });
  });

  it("refuses a requestState that was changed, or minted for another tool or other arguments, with -32602", async () => {
    const s = await session();
    const r1 = await s.request("tools/call", { name: "test_input_required_result_tampered_state", arguments: {} });
    const state = String(r1.result!.requestState);
    const [payload, mac] = state.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), answers: { confirm: accept({ ok: true }) } }),
    ).toString("base64url");
    for (const [requestState, reason] of [
      [`${state}-TAMPERED`, "requestState failed its integrity check"],
      [`${forged}.${mac}`, "requestState failed its integrity check"],
      ["garbage", "malformed requestState"],
      // A signature that is not base64url (a length of 4n+1 makes atob throw a DOMException with code 5).
      [`${payload}.${mac!.slice(0, 41)}`, "malformed requestState"],
      [`${payload}.A`, "malformed requestState"],
      [`${payload}.${mac!.slice(0, 40)}==`, "malformed requestState"],
      [`${payload}.`, "requestState failed its integrity check"],
    ] as const) {
      const refused = await s.request("tools/call", { name: "test_input_required_result_tampered_state", arguments: {}, requestState });
      expect(refused.error).toEqual({ code: -32602, message: "Invalid or expired requestState", data: { reason } });
    }
    const elsewhere = await s.request("tools/call", { name: "test_input_required_result_request_state", arguments: {}, requestState: state });
    expect(elsewhere.error).toMatchObject({ code: -32602, data: { reason: "requestState was issued for another request" } });
  });

  it("asks again for a missing answer, ignores extra ones, and refuses an answer that breaks the form", async () => {
    const s = await session();
    const tool = "test_input_required_result_elicitation";
    const wrongKey = await s.request("tools/call", { name: tool, arguments: {}, inputResponses: { wrong_key: accept({ name: "x" }) } });
    expect(wrongKey.result).toMatchObject({ resultType: "input_required", inputRequests: { user_name: NAME_REQUEST } });
    const extra = await s.request("tools/call", { name: tool, arguments: {}, inputResponses: { user_name: accept({ name: "Bo" }), other: accept({}) } });
    expect(extra.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Hello, Bo!" }] });
    const bad = await s.request("tools/call", { name: tool, arguments: {}, inputResponses: { user_name: accept({ name: 42 }) } });
    expect(bad.error).toEqual({ code: -32602, message: "Invalid input response 'user_name': Property 'name' must be string" });
  });

  it("asks several questions of different kinds at once (Promise.all)", async () => {
    const s = await session();
    const first = await s.request("tools/call", { name: "test_input_required_result_multiple_inputs", arguments: {} });
    const requests = first.result!.inputRequests as Record<string, { method: string }>;
    expect(Object.fromEntries(Object.entries(requests).map(([k, v]) => [k, v.method]))).toEqual({
      user_name: "elicitation/create",
      greeting: "sampling/createMessage",
      client_roots: "roots/list",
    });
    const done = await s.request("tools/call", {
      name: "test_input_required_result_multiple_inputs",
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: {
        user_name: accept({ name: "Ada" }),
        greeting: { role: "assistant", content: { type: "text", text: "Hi" }, model: "m" },
        client_roots: { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] },
      },
    });
    expect(done.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Hi Ada (2 roots)" }] });
  });

  it("answers -32021 with the capability a question needs when the request does not declare it; a handler may ask only for what it may", async () => {
    const s = await session({});
    expect((await s.request("tools/call", { name: "test_missing_capability", arguments: {} })).error).toEqual({
      code: -32021,
      message: "The client did not declare the sampling capability, which sampling/createMessage needs",
      data: { requiredCapabilities: { sampling: {} } },
    });
    const onlySampling = await session({ sampling: {} });
    const asked = await onlySampling.request("tools/call", { name: "test_input_required_result_capabilities", arguments: {} });
    expect(Object.values(asked.result!.inputRequests as Record<string, { method: string }>).map((r) => r.method)).toEqual(["sampling/createMessage"]);
  });

  it("works for prompts/get and resources/read too, and not for the lists", async () => {
    const s = await session();
    const prompt = await s.request("prompts/get", { name: "test_input_required_result_prompt" });
    expect(Object.keys(prompt.result!.inputRequests as object)).toEqual(["user_context"]);
    const got = await s.request("prompts/get", { name: "test_input_required_result_prompt", inputResponses: { user_context: accept({ context: "tests" }) } });
    expect(got.result).toMatchObject({
      resultType: "complete",
      messages: [{ role: "user", content: { type: "text", text: "Write with this context: tests" } }],
    });

    const definition: ServerDefinition = {
      serverInfo: { name: "r", version: "1" },
      capabilities: { resources: {} },
      tools: [],
      resources: [{ resource: { uri: "x://secret", name: "secret" } }],
      resourceTemplates: [],
      prompts: [],
    };
    let runs = 0;
    const factory = createManifestServerFactory(definition, {
      resources: {
        secret: async (ctx: { elicit: (p: object) => Promise<{ content?: { pin?: string } }> }) => {
          runs++;
          return `pin ${(await ctx.elicit({ message: "PIN?", requestedSchema: { type: "object", properties: { pin: { type: "string" } } } })).content?.pin}`;
        },
      },
    });
    const r = await session(ALL, factory);
    const asked = await r.request("resources/read", { uri: "x://secret" });
    expect(asked.result).toMatchObject({ resultType: "input_required", inputRequests: { "elicitation-1": { method: "elicitation/create" } } });
    // An input_required result carries no cache hint.
    expect(asked.result).not.toHaveProperty("ttlMs");
    const read = await r.request("resources/read", {
      uri: "x://secret",
      inputResponses: { "elicitation-1": accept({ pin: "1234" }) },
      requestState: asked.result!.requestState,
    });
    expect(read.result).toMatchObject({ resultType: "complete", contents: [{ uri: "x://secret", text: "pin 1234" }], ttlMs: 0, cacheScope: "private" });
    // The handler ran once per round: work before a question is done again on each retry.
    expect(runs).toBe(2);
  });
});
