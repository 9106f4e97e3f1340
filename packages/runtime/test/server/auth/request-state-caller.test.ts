/**
 * A 2026-07-28 `requestState` on a server with `auth` is bound to its caller: alice's state, with
 * her answer to "delete everything?", is refused when bob presents it for the same tool and
 * arguments (-32602, "issued to another caller"), and the handler does not run. Alice herself may
 * present it again within its ttl (the documented replay window). Over Streamable HTTP, in
 * process, with `verifier: handler` tokens.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { ServerDefinition } from "../../../src/shared/definition.js";
import { createManifestServerFactory, type AuthContext, type RequestContext, type TokenVerifier } from "../../../../../test/helpers/runtime.js";
import { serveHttpWith } from "../../../../../test/helpers/runtime.js";
import { envelope, modernHeaders } from "../../../../../test/helpers/wire.js";
import { rpcAnswer } from "../../../../../test/helpers/sse.js";

const DEFINITION: ServerDefinition = {
  serverInfo: { name: "files", version: "1.0.0" },
  capabilities: { tools: {} },
  tools: [{ name: "wipe", inputSchema: { type: "object", properties: { folder: { type: "string" } } } }],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  auth: {
    resource: "https://files.example.test/mcp",
    authorizationServers: ["https://auth.example.test"],
    scopesSupported: ["files.write"],
    defaultScopes: ["files.write"],
    verifier: { kind: "handler" },
    tools: { wipe: ["files.write"] },
    resources: {},
    resourceTemplates: {},
    prompts: {},
  },
};

const TOKENS: Record<string, AuthContext> = {
  "tok-alice": { subject: "alice", clientId: "app", scopes: ["files.write"], claims: {} },
  "tok-bob": { subject: "bob", clientId: "app", scopes: ["files.write"], claims: {} },
  "tok-alice-other-app": { subject: "alice", clientId: "other-app", scopes: ["files.write"], claims: {} },
};
const verifyToken: TokenVerifier = async (token) => TOKENS[token];

const wiped: string[] = [];
const YES_NO = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } as const;
const yes = { action: "accept", content: { ok: true } };
/** Two questions, one after the other: the second round's requestState carries the first answer. */
const handlers = {
  verifyToken,
  tools: {
    wipe: async (args: { folder?: string }, ctx: RequestContext) => {
      const first = await ctx.elicit({ message: `Delete everything in ${args.folder}?`, requestedSchema: YES_NO }, { key: "confirm" });
      if (first.action !== "accept" || first.content?.["ok"] !== true) return "kept";
      const second = await ctx.elicit({ message: "Really? This cannot be undone.", requestedSchema: YES_NO }, { key: "really" });
      if (second.action !== "accept" || second.content?.["ok"] !== true) return "kept";
      wiped.push(`${ctx.auth?.subject}@${ctx.auth?.clientId}:${args.folder}`);
      return "wiped";
    },
  },
};

const handle = await serveHttpWith(createManifestServerFactory(DEFINITION, handlers), DEFINITION, { port: 0 });
afterAll(() => handle.close());

let ids = 0;
async function call(token: string, params: Record<string, unknown>): Promise<{ result?: any; error?: any }> {
  const response = await fetch(handle.url, {
    method: "POST",
    headers: { ...modernHeaders("tools/call", "wipe"), authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++ids,
      method: "tools/call",
      params: { name: "wipe", arguments: { folder: "/home" }, ...params, _meta: envelope({ elicitation: {} }) },
    }),
  });
  return rpcAnswer(await response.text());
}

describe("a requestState on a server with auth", () => {
  it("is refused when another caller presents it, with -32602, and the handler does not act", async () => {
    await call("tok-alice", {});
    const second = await call("tok-alice", { inputResponses: { confirm: yes } });
    expect(second.result).toMatchObject({ resultType: "input_required", inputRequests: { really: { method: "elicitation/create" } } });
    // Alice's state holds her first answer; another user (or another client of hers) cannot use it.
    for (const other of ["tok-bob", "tok-alice-other-app"]) {
      const refused = await call(other, { requestState: second.result.requestState, inputResponses: { really: yes } });
      expect(refused.error).toEqual({
        code: -32602,
        message: "Invalid or expired requestState",
        data: { reason: "requestState was issued to another caller" },
      });
    }
    expect(wiped).toEqual([]);
    // Alice finishes her own conversation.
    const done = await call("tok-alice", { requestState: second.result.requestState, inputResponses: { really: yes } });
    expect(done.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "wiped" }] });
    expect(wiped).toEqual(["alice@app:/home"]);
  });

  it("is taken again from the same caller within its ttl: the replay window the docs name", async () => {
    wiped.length = 0;
    const second = await call("tok-alice", { inputResponses: { confirm: yes } });
    const retry = { requestState: second.result.requestState, inputResponses: { really: yes } };
    expect((await call("tok-alice", retry)).result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "wiped" }] });
    expect((await call("tok-alice", retry)).result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "wiped" }] });
    expect(wiped).toEqual(["alice@app:/home", "alice@app:/home"]);
  });
});
