/**
 * Issue 26's proof, the other server shapes, against the real authorization server: a mixed server
 * (test/fixtures/auth/mixed.yaml: `auth: none` entries next to protected ones), whose public tool
 * works without a token and whose protected tool answers the OpenAI tool-error form
 * (`_meta["mcp/www_authenticate"]`) while its protected resources and prompts answer 401; a server
 * with `hideUnauthorized` (test/fixtures/auth/hidden.yaml), whose lists follow the token's scopes,
 * `cacheScope: "private"` on 2026-07-28 lists; and the protected fixture verified by introspection
 * (RFC 7662) of opaque tokens instead of JWTs.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { INTROSPECTION_CLIENT, SERVICE_CLIENT, startAuthServer, type AuthServer } from "../helpers/authServer.js";
import {
  allScopes,
  generateServers,
  pointedAt,
  readFixture,
  ruleOf,
  sampleArgs,
  scopedTools,
  serveGenerated,
  type AuthManifest,
  type ServedServer,
} from "../helpers/authFixtures.js";
import { challengeParams, legacySession, modernCall, modernRequest } from "../helpers/authRequests.js";
import { envelope, modernHeaders } from "../helpers/wire.js";

let as: AuthServer;
let mixed: ServedServer;
let hidden: ServedServer;
let introspected: ServedServer;
let templates: ServedServer;
let filtered: ServedServer;
let strict: ServedServer;
/** Completion handlers that ran, by entry. */
const completed: string[] = [];

beforeAll(async () => {
  const fixtures = { mixed: readFixture("mixed"), hidden: readFixture("hidden"), protected: readFixture("protected"), templates: readFixture("templates") };
  as = await startAuthServer({ scopes: [...new Set(Object.values(fixtures).flatMap(allScopes))] });
  const byIntrospection = pointedAt(fixtures.protected, as, "introspection");
  const manifests: AuthManifest[] = [
    pointedAt(fixtures.mixed, as),
    pointedAt(fixtures.hidden, as),
    { ...byIntrospection, server: { ...byIntrospection.server, name: `${byIntrospection.server.name}-introspected` } },
    pointedAt(fixtures.templates, as),
    // hidden.yaml with hideUnauthorized: strict.
    (() => {
      const m = pointedAt(fixtures.hidden, as);
      return { ...m, server: { ...m.server, name: "strict-gifts" }, auth: { ...m.auth, hideUnauthorized: "strict" } } satisfies AuthManifest;
    })(),
  ];
  const folders = generateServers(manifests);
  const completions = {
    completions: {
      resourceTemplates: { public_doc: { id: () => (completed.push("public_doc"), ["1"]) } },
      prompts: { old_prompt: { topic: () => (completed.push("old_prompt"), ["x"]) } },
    },
  };
  strict = await serveGenerated(folders[manifests[4]!.server.name]!, manifests[4]!, as);
  const templatesFolder = folders[manifests[3]!.server.name]!;
  templates = await serveGenerated(templatesFolder, manifests[3]!, as, { handlers: completions });
  // The same server where a caller without a token is not shown public_doc: the engine then picks admin_doc for it.
  filtered = await serveGenerated(templatesFolder, manifests[3]!, as, {
    handlers: completions,
    httpOptions: { visible: (entry: { name: string }, context: { auth?: unknown }) => entry.name !== "public_doc" || context.auth !== undefined },
  });
  mixed = await serveGenerated(folders[manifests[0]!.server.name]!, manifests[0]!, as);
  hidden = await serveGenerated(folders[manifests[1]!.server.name]!, manifests[1]!, as);
  process.env.MCP_INTROSPECTION_SECRET = INTROSPECTION_CLIENT.secret;
  introspected = await serveGenerated(folders[manifests[2]!.server.name]!, manifests[2]!, as, { format: "opaque" });
}, 120_000);
afterAll(async () => {
  for (const s of [mixed, hidden, introspected, templates, filtered, strict]) await s?.close();
  await as?.close();
});

const parsed = (answer: { rpc?: { result?: Record<string, any> } }) => JSON.parse(answer.rpc!.result!.content[0].text);

/** The entries of a mixed fixture: a public tool, a protected one, a protected resource (by URI) and prompt when it has them. */
function mixedEntries(m: AuthManifest) {
  const publicTool = m.tools?.find((t) => ruleOf(m, t) === "none");
  const protectedTool = m.tools?.find((t) => ruleOf(m, t) !== "none");
  if (!publicTool || !protectedTool) throw new Error(`${m.server.name}: a mixed fixture needs a tool with auth: none and a protected one`);
  const protectedResource = m.resources?.find((r) => ruleOf(m, r) !== "none");
  const protectedPrompt = m.prompts?.find((p) => ruleOf(m, p) !== "none");
  return { publicTool, protectedTool, protectedResource, protectedPrompt };
}

describe("a mixed server (auth: none next to protected entries)", () => {
  it("runs its public tool without a token in both eras (ctx.auth undefined), and with a token (ctx.auth set)", async () => {
    const { publicTool } = mixedEntries(mixed.manifest);
    const args = sampleArgs(publicTool.inputSchema);
    const modern = await modernCall(mixed.url, undefined, publicTool.name, args);
    expect(modern.status).toBe(200);
    expect(parsed(modern)).toEqual({ kind: "tool", name: publicTool.name, auth: null });
    const legacy = await (await legacySession(mixed.url, undefined)).call(publicTool.name, args);
    expect(parsed(legacy)).toEqual({ kind: "tool", name: publicTool.name, auth: null });
    for (const mode of ["legacy", "auto"] as const) {
      const sdk = new Client({ name: "anonymous", version: "1" }, { versionNegotiation: { mode } });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(mixed.url)));
      const result = await sdk.callTool({ name: publicTool.name, arguments: args });
      expect(result.isError).toBeFalsy();
      await sdk.close();
    }
    const token = await as.clientCredentials(mixed.url, allScopes(mixed.manifest));
    expect(parsed(await modernCall(mixed.url, token, publicTool.name, args)).auth).toMatchObject({ clientId: SERVICE_CLIENT.id });
  });

  it("advertises each tool's securitySchemes at the top level and in _meta, as the generated fixture has them", async () => {
    const m = mixed.manifest;
    const token = await as.clientCredentials(mixed.url, allScopes(m));
    const listed = (await modernRequest(mixed.url, token, "tools/list")).rpc!.result!.tools as {
      name: string;
      securitySchemes?: unknown;
      _meta?: Record<string, unknown>;
    }[];
    const want = (m.tools ?? []).map((t) => {
      const rule = ruleOf(m, t);
      return { name: t.name, schemes: rule === "none" ? [{ type: "noauth" }] : [{ type: "oauth2", scopes: [...rule] }] };
    });
    expect(listed.map((t) => ({ name: t.name, schemes: t.securitySchemes }))).toEqual(want);
    expect(listed.map((t) => ({ name: t.name, schemes: t._meta?.securitySchemes }))).toEqual(want);
    // Without a token (hideUnauthorized is off): the same list.
    expect((await modernRequest(mixed.url, undefined, "tools/list")).rpc!.result!.tools).toEqual(listed);
    const fixture = JSON.parse(readFileSync(path.join(mixed.folder, "fixtures", "tools-list.json"), "utf8")) as { tools: unknown[] };
    expect(fixture.tools).toEqual(listed);
  });

  it("answers its protected tool without a token with isError and _meta mcp/www_authenticate, without running it", async () => {
    const { protectedTool } = mixedEntries(mixed.manifest);
    const rule = ruleOf(mixed.manifest, protectedTool) as readonly string[];
    const args = sampleArgs(protectedTool.inputSchema);
    const before = mixed.seen.length;
    // The OpenAI Apps SDK form: one Bearer challenge naming the metadata, the error and every scope.
    const expectChallenge = (meta: unknown) => {
      expect(Array.isArray(meta) && meta.length === 1).toBe(true);
      expect(challengeParams((meta as string[])[0]!)).toMatchObject({ resource_metadata: mixed.prmUrl, error: "insufficient_scope", scope: rule.join(" ") });
    };
    const modern = await modernCall(mixed.url, undefined, protectedTool.name, args);
    const legacy = await (await legacySession(mixed.url, undefined)).call(protectedTool.name, args);
    for (const answer of [modern, legacy]) {
      expect(answer.status).toBe(200);
      const result = answer.rpc!.result!;
      expect(result.isError).toBe(true);
      expect(result.content[0].type).toBe("text");
      expectChallenge(result._meta["mcp/www_authenticate"]);
    }
    const sdk = new Client({ name: "anonymous", version: "1" });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(mixed.url)));
    const result = await sdk.callTool({ name: protectedTool.name, arguments: args });
    expect(result.isError).toBe(true);
    expectChallenge(result._meta?.["mcp/www_authenticate"]);
    await sdk.close();
    expect(mixed.seen.length).toBe(before);
    // With a token that has the scopes, the tool runs.
    const token = await as.clientCredentials(mixed.url, rule);
    expect(parsed(await modernCall(mixed.url, token, protectedTool.name, args))).toMatchObject({ name: protectedTool.name, auth: { scopes: [...rule] } });
  });

  it("answers its protected resource and prompt without a token with 401, and an invalid token with 401 even on the public tool", async () => {
    const { publicTool, protectedResource, protectedPrompt } = mixedEntries(mixed.manifest);
    const before = mixed.seen.length;
    const refused: [string, number][] = [];
    if (protectedResource?.uri)
      refused.push([
        "resources/read",
        (await modernRequest(mixed.url, undefined, "resources/read", { uri: protectedResource.uri }, protectedResource.uri)).status,
      ]);
    if (protectedPrompt)
      refused.push(["prompts/get", (await modernRequest(mixed.url, undefined, "prompts/get", { name: protectedPrompt.name }, protectedPrompt.name)).status]);
    expect(refused.length).toBeGreaterThan(0);
    for (const [method, status] of refused) expect([method, status]).toEqual([method, 401]);
    const bad = await modernCall(mixed.url, "not-a-token", publicTool.name, sampleArgs(publicTool.inputSchema));
    expect(bad.status).toBe(401);
    expect(challengeParams(bad.challenge)).toMatchObject({ error: "invalid_token", resource_metadata: mixed.prmUrl });
    expect(mixed.seen.length).toBe(before);
  });
});

describe("two templates matching one URI, the public one switched off (issue 39)", () => {
  const read = (server: ServedServer, token: string | undefined) => modernRequest(server.url, token, "resources/read", { uri: "docs://x" }, "docs://x");
  const ran = (server: ServedServer) => server.seen.map((s) => s.name);

  it("an anonymous read of docs://x is refused with 401 in both eras, and the admin handler never runs", async () => {
    const modern = await read(templates, undefined);
    expect(modern.status).toBe(401);
    expect(challengeParams(modern.challenge)).toMatchObject({ scope: "docs.admin" });
    const legacy = await (await legacySession(templates.url, undefined)).request("resources/read", { uri: "docs://x" });
    expect(legacy.status).toBe(401);
    expect(ran(templates)).toEqual([]);
    const token = await as.clientCredentials(templates.url, ["docs.admin"]);
    expect(JSON.parse((await read(templates, token)).rpc!.result!.contents[0].text)).toMatchObject({ kind: "template", name: "admin_doc" });
    templates.seen.length = 0;
  });

  it("once the public template is switched on, an anonymous read runs it; switched off again, 401 again", async () => {
    templates.lists.enable("resourceTemplates", "public_doc");
    try {
      const answer = await read(templates, undefined);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.rpc!.result!.contents[0].text)).toMatchObject({ kind: "template", name: "public_doc", auth: null });
    } finally {
      templates.lists.disable("resourceTemplates", "public_doc");
    }
    expect((await read(templates, undefined)).status).toBe(401);
    expect(ran(templates)).toEqual(["public_doc"]);
    templates.seen.length = 0;
  });

  it("a caller the visible filter sends to the admin template is refused by the engine before the handler runs", async () => {
    filtered.lists.enable("resourceTemplates", "public_doc");
    // The gate sees the public template first and lets the anonymous caller in; the engine, which
    // hides public_doc from it, picks admin_doc, and checks that entry's rule again.
    for (const answer of [
      await read(filtered, undefined),
      await (await legacySession(filtered.url, undefined)).request("resources/read", { uri: "docs://x" }),
    ]) {
      expect(answer.status).toBe(200);
      expect(answer.rpc!.error).toMatchObject({ code: -32600, message: expect.stringMatching(/^Resource docs:\/\/x needs authorization/) });
    }
    expect(ran(filtered)).toEqual([]);
    // A caller with a token sees public_doc, which serves it.
    const token = await as.clientCredentials(filtered.url, []);
    expect(JSON.parse((await read(filtered, token)).rpc!.result!.contents[0].text)).toMatchObject({ name: "public_doc" });
  });

  it("completion treats what is switched off as unknown, in both eras, without running its handler", async () => {
    const complete = (ref: Record<string, unknown>, argument: string) => ({ ref, argument: { name: argument, value: "" } });
    const cases = [
      [complete({ type: "ref/resource", uri: "docs://{id}" }, "id"), "Unknown resource: docs://{id}"],
      [complete({ type: "ref/prompt", name: "old_prompt" }, "topic"), "Unknown prompt: old_prompt"],
    ] as const;
    for (const [params, message] of cases) {
      const modern = await modernRequest(templates.url, undefined, "completion/complete", params);
      const legacy = await (await legacySession(templates.url, undefined)).request("completion/complete", params);
      for (const answer of [modern, legacy]) expect(answer.rpc!.error).toMatchObject({ code: -32602, message });
    }
    expect(completed).toEqual([]);
    // Switched on, public_doc's completion runs for anyone.
    templates.lists.enable("resourceTemplates", "public_doc");
    try {
      expect((await modernRequest(templates.url, undefined, "completion/complete", cases[0][0])).rpc!.result!.completion.values).toEqual(["1"]);
    } finally {
      templates.lists.disable("resourceTemplates", "public_doc");
    }
    expect(completed).toEqual(["public_doc"]);
  });

  it("a 2026-07-28 listen stream naming a protected resource is refused without a token, opened with one", async () => {
    /** The status of a subscriptions/listen for `uris`; a stream that opens is closed at once. */
    const listen = async (server: ServedServer, token: string | undefined, uris: string[]) => {
      const controller = new AbortController();
      const response = await fetch(server.url, {
        method: "POST",
        signal: controller.signal,
        headers: { ...modernHeaders("subscriptions/listen"), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "subscriptions/listen",
          params: { notifications: { resourceSubscriptions: uris }, _meta: envelope() },
        }),
      });
      controller.abort();
      return { status: response.status, challenge: response.headers.get("www-authenticate") };
    };
    const { protectedResource } = mixedEntries(mixed.manifest);
    const refused = await listen(mixed, undefined, ["mcp://mixed-gifts/resources/about", protectedResource!.uri!]);
    expect(refused.status).toBe(401);
    expect(challengeParams(refused.challenge)).toMatchObject({ scope: (ruleOf(mixed.manifest, protectedResource!) as string[]).join(" ") });
    expect((await listen(templates, undefined, ["docs://x"])).status).toBe(401);
    // Public resources only: the stream opens without a token.
    expect((await listen(mixed, undefined, ["mcp://mixed-gifts/resources/about"])).status).toBe(200);
    const token = await as.clientCredentials(mixed.url, allScopes(mixed.manifest));
    expect((await listen(mixed, token, [protectedResource!.uri!])).status).toBe(200);
  });

  it("a 2025-era subscription is taken as a read: 401 without a token, unknown for a URI nothing serves", async () => {
    expect((await (await legacySession(templates.url, undefined)).request("resources/subscribe", { uri: "docs://x" })).status).toBe(401);
    const token = await as.clientCredentials(templates.url, ["docs.admin"]);
    const session = await legacySession(templates.url, token);
    expect((await session.request("resources/subscribe", { uri: "docs://x" })).rpc).toMatchObject({ result: {} });
    expect((await session.request("resources/subscribe", { uri: "nothing://x" })).rpc!.error).toMatchObject({ code: -32602, message: "Resource not found" });
  });
});

describe("a server with hideUnauthorized", () => {
  /** The names of `list` a token with `scopes` may use (undefined: no token). */
  const visible = (m: AuthManifest, list: { name: string; scopes?: string[]; auth?: "none" }[] | undefined, scopes?: readonly string[]) =>
    (list ?? [])
      .filter((e) => {
        const rule = ruleOf(m, e);
        if (rule === "none") return true;
        return scopes !== undefined && rule.every((s) => scopes.includes(s));
      })
      .map((e) => e.name);

  it("lists what the token may use, with cacheScope private on 2026-07-28 lists, in both eras", async () => {
    const m = hidden.manifest;
    const { narrow } = scopedTools(m);
    const all = allScopes(m);
    const cases: [string, string | undefined, readonly string[] | undefined][] = [
      ["narrow", await as.clientCredentials(hidden.url, narrow.scopes), narrow.scopes],
      ["every scope", await as.clientCredentials(hidden.url, all), all],
    ];
    if ((m.tools ?? []).some((t) => ruleOf(m, t) === "none")) cases.unshift(["no token", undefined, undefined]);
    const seenLists: string[][] = [];
    for (const [label, token, scopes] of cases) {
      for (const [method, key, entries] of [
        ["tools/list", "tools", m.tools],
        ["prompts/list", "prompts", m.prompts],
        ["resources/list", "resources", m.resources],
      ] as const) {
        if (!entries?.length) continue;
        const want = visible(m, entries, scopes);
        const modern = await modernRequest(hidden.url, token, method);
        expect([label, method, modern.status]).toEqual([label, method, 200]);
        expect([label, method, modern.rpc!.result![key].map((e: { name: string }) => e.name)]).toEqual([label, method, want]);
        expect([label, method, modern.rpc!.result!.cacheScope]).toEqual([label, method, "private"]);
        const legacy = await (await legacySession(hidden.url, token)).request(method);
        expect([label, method, legacy.rpc!.result![key].map((e: { name: string }) => e.name)]).toEqual([label, method, want]);
        if (method === "tools/list") seenLists.push(want);
      }
    }
    // The lists differ by token: what is hidden from the narrow token is there for a full one.
    expect(seenLists.at(-1)!.length).toBeGreaterThan(seenLists.at(-2)!.length);
  });
});

describe("a server with hideUnauthorized: strict", () => {
  it("answers a hidden entry exactly as an unknown one, in both eras, without a token or with too few scopes; the token's own entries run", async () => {
    const readOnly = await as.clientCredentials(strict.url, ["gifts.read"]);
    const write = await as.clientCredentials(strict.url, ["gifts.read", "gifts.write"]);
    const probes: [string, Record<string, unknown>, string | undefined][] = [
      ["tools/call", { name: "buy_gift", arguments: { name: "Kite" } }, "buy_gift"],
      ["resources/read", { uri: "mcp://hidden-gifts/orders/42" }, "mcp://hidden-gifts/orders/42"],
      ["prompts/get", { name: "gift_note" }, "gift_note"],
    ];
    const unknown: [string, Record<string, unknown>, string | undefined][] = [
      ["tools/call", { name: "no_such_tool", arguments: {} }, "no_such_tool"],
      ["resources/read", { uri: "mcp://hidden-gifts/nothing/42" }, "mcp://hidden-gifts/nothing/42"],
      ["prompts/get", { name: "no_such_prompt" }, "no_such_prompt"],
    ];
    const shape = (a: { status: number; challenge: string | null; rpc?: { error?: { code: number; message: string } } }, name: string) => ({
      status: a.status,
      challenge: a.challenge,
      code: a.rpc?.error?.code,
      // The name in the message is the one asked for: compare with it left out.
      message: a.rpc?.error?.message.replace(name, "NAME"),
    });
    // Anonymous, for the read-only token's hidden entries too: each answer has the shape of an unknown name's.
    for (const token of [undefined, readOnly]) {
      for (let i = 0; i < probes.length; i++) {
        const [method, params, name] = probes[i]!;
        if (token === readOnly && method === "prompts/get") continue; // gift_note needs gifts.read only: visible to it
        const [uMethod, uParams, uName] = unknown[i]!;
        const hidden = await modernRequest(strict.url, token, method, params, name);
        const none = await modernRequest(strict.url, token, uMethod, uParams, uName);
        expect([method, shape(hidden, name!)]).toEqual([method, shape(none, uName!)]);
        expect(hidden.status).toBe(200);
        expect(hidden.rpc!.error!.code).toBe(-32602);
        const legacy = await legacySession(strict.url, token);
        const legacyHidden = await legacy.request(method, params);
        const legacyNone = await legacy.request(uMethod, uParams);
        expect([method, shape(legacyHidden, name!)]).toEqual([method, shape(legacyNone, uName!)]);
      }
    }
    expect(strict.seen).toEqual([]);
    // The write token may use every entry: each runs.
    for (const [method, params, name] of probes) expect((await modernRequest(strict.url, write, method, params, name)).rpc?.result).toBeDefined();
    // (gift_note's messages come from the manifest: no handler to see.)
    expect(strict.seen.map((s) => s.name).sort()).toEqual(["buy_gift", "order"]);
    // A listen stream is not served by the engine: its resources are judged by the gate, strict or not.
    const listen = await fetch(strict.url, {
      method: "POST",
      headers: modernHeaders("subscriptions/listen"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 8,
        method: "subscriptions/listen",
        params: { notifications: { resourceSubscriptions: ["mcp://hidden-gifts/resources/catalog"] }, _meta: envelope() },
      }),
    });
    expect(listen.status).toBe(401);
    await listen.body?.cancel();
    // Lists hide as hideUnauthorized: true does.
    const listed = (await modernRequest(strict.url, readOnly, "tools/list")).rpc!.result!.tools.map((t: { name: string }) => t.name);
    expect(listed).toEqual(["suggest_gifts", "public_hello"]);
  });
});

describe("the protected server verified by introspection (opaque tokens)", () => {
  it("accepts an opaque token the authorization server says is active for this resource, and gives ctx.auth from it", async () => {
    const { narrow } = scopedTools(introspected.manifest);
    const token = await as.clientCredentials(introspected.url, narrow.scopes);
    expect(token.split(".")).toHaveLength(1);
    const introspections = () => as.log.filter((l) => l.startsWith("POST /token/introspection")).length;
    const before = introspections();
    const answer = await modernCall(introspected.url, token, narrow.tool, narrow.args);
    expect(answer.status).toBe(200);
    expect(parsed(answer).auth).toMatchObject({ clientId: SERVICE_CLIENT.id, scopes: [...narrow.scopes] });
    expect(typeof parsed(answer).auth.expiresAt).toBe("number");
    expect(introspections()).toBe(before + 1);
    // Cached: the same token again is not introspected again.
    expect((await modernCall(introspected.url, token, narrow.tool, narrow.args)).status).toBe(200);
    expect(introspections()).toBe(before + 1);
  });

  it("refuses an unknown opaque token and one issued for another resource with 401, without a handler call", async () => {
    const { narrow } = scopedTools(introspected.manifest);
    const other = "https://other-opaque.example.com/mcp";
    as.addResource(other, { scopes: narrow.scopes, format: "opaque" });
    const before = introspected.seen.length;
    for (const token of ["no-such-token", await as.clientCredentials(other, narrow.scopes)]) {
      const answer = await modernCall(introspected.url, token, narrow.tool, narrow.args);
      expect(answer.status).toBe(401);
      expect(challengeParams(answer.challenge)).toMatchObject({ error: "invalid_token" });
    }
    expect(introspected.seen.length).toBe(before);
  });
});
