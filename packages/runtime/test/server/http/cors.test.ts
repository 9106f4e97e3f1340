/**
 * server/http/cors.ts and the Streamable HTTP entry with `cors`: the headers of each answer for a
 * listed origin, an unlisted one and none; the preflight; the options refused at start; and the
 * server in process: a listed origin's preflight and requests carry the headers (the session id
 * readable), an unlisted origin gets none and is refused, the Host check still applies, and the
 * metadata of a server with `auth` gets the policy's headers instead of the SDK's `*`.
 * (test/e2e/cors.browser.test.ts shows the same to a real browser.)
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { corsPolicy, type CorsOptions } from "../../../src/server/http/cors.js";
import type { ServerDefinition } from "../../../src/shared/definition.js";
import { createManifestServerFactory } from "../../../../../test/helpers/runtime.js";
import { serveHttpWith, type HttpOptions } from "../../../../../test/helpers/runtime.js";

const APP = "https://app.example.com";
const ALLOW_HEADERS = "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID";
const EXPOSE = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate";

describe("the CORS policy", () => {
  const cases: [string, { options: CorsOptions; origin: string | undefined; want: Record<string, string> }][] = [
    [
      "a listed origin: echoed, the Mcp-* headers and the challenge exposed, Vary",
      { options: { origins: [APP] }, origin: APP, want: { vary: "Origin", "access-control-allow-origin": APP, "access-control-expose-headers": EXPOSE } },
    ],
    [
      "with credentials: the origin echoed, never *",
      {
        options: { origins: [APP], credentials: true },
        origin: APP,
        want: { vary: "Origin", "access-control-allow-origin": APP, "access-control-allow-credentials": "true", "access-control-expose-headers": EXPOSE },
      },
    ],
    ["an origin not listed: Vary only", { options: { origins: [APP] }, origin: "https://evil.example", want: { vary: "Origin" } }],
    ["another port of a listed host is another origin", { options: { origins: [APP] }, origin: "https://app.example.com:8443", want: { vary: "Origin" } }],
    ["no Origin (not a browser's cross-origin request): Vary only", { options: { origins: [APP] }, origin: undefined, want: { vary: "Origin" } }],
    [
      "an origin written with capitals, a trailing slash or its default port matches what browsers send",
      {
        options: { origins: ["HTTPS://App.Example.com:443/"] },
        origin: APP,
        want: { vary: "Origin", "access-control-allow-origin": APP, "access-control-expose-headers": EXPOSE },
      },
    ],
  ];
  it.each(cases)("%s", (_, { options, origin, want }) => {
    expect(corsPolicy(options).responseHeaders(origin)).toEqual(want);
  });

  it("answers a listed origin's preflight with the methods, MCP's request headers and the tools' Mcp-Param-* headers; none for another origin", () => {
    const policy = corsPolicy({ origins: [APP, "http://localhost:5173"], credentials: true, maxAgeSeconds: 60 }, ["Region"]);
    expect(policy.preflightHeaders("http://localhost:5173")).toEqual({
      vary: "Origin",
      "access-control-allow-origin": "http://localhost:5173",
      "access-control-allow-credentials": "true",
      "access-control-allow-methods": "POST, GET, DELETE, OPTIONS",
      "access-control-allow-headers": `${ALLOW_HEADERS}, Mcp-Param-Region`,
      "access-control-max-age": "60",
    });
    expect(policy.preflightHeaders("https://evil.example")).toBeUndefined();
    expect(policy.preflightHeaders(undefined)).toBeUndefined();
    expect(corsPolicy({ origins: [APP] }).preflightHeaders(APP)).toMatchObject({ "access-control-max-age": "600" });
    expect(corsPolicy({ origins: [APP] }).preflightHeaders(APP)).not.toHaveProperty("access-control-allow-credentials");
  });

  it.each([
    "*",
    "https://*.example.com",
    "null",
    "https://app.example.com/mcp",
    "https://app.example.com?x",
    "ftp://files.example.com",
    "https://u:p@app.example.com",
    "app.example.com",
  ])("refuses %s, which is not an origin, when the server starts", (origin) => {
    expect(() => corsPolicy({ origins: [origin] })).toThrow(`cors.origins: ${JSON.stringify(origin)} is not an origin`);
  });

  it("refuses a maxAgeSeconds that is not a whole number of seconds", () => {
    expect(() => corsPolicy({ origins: [APP], maxAgeSeconds: -1 })).toThrow("cors.maxAgeSeconds must be a whole number");
    expect(() => corsPolicy({ origins: [APP], maxAgeSeconds: 1.5 })).toThrow("cors.maxAgeSeconds must be a whole number");
  });
});

function definition(auth = false): ServerDefinition {
  return {
    serverInfo: { name: "gifts", version: "1.0.0" },
    capabilities: { tools: {} },
    tools: [
      {
        name: "route",
        inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
      },
    ],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...(auth
      ? {
          auth: {
            resource: "https://gifts.example.test/mcp",
            authorizationServers: ["https://auth.example.test"],
            verifier: { kind: "handler" as const },
            tools: { route: [] },
            resources: {},
            resourceTemplates: {},
            prompts: {},
          },
        }
      : {}),
  };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function serve(options: HttpOptions, auth = false): Promise<string> {
  const handlers = { tools: { route: async () => "ok" }, verifyToken: async () => undefined };
  const handle = await serveHttpWith(createManifestServerFactory(definition(auth), handlers), definition(auth), { port: 0, ...options });
  closers.push(handle.close);
  return handle.url;
}

/** A raw request (node's fetch would not let a test set Host), answering the status and headers. */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  const { port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: pathname, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } },
});
const POST = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("serveHttp with cors", () => {
  it("answers a listed origin's preflight 204 with the headers; another origin's 403 without them; a foreign Host 403", async () => {
    const url = await serve({ cors: { origins: [APP] } });
    const preflight = { "access-control-request-method": "POST", "access-control-request-headers": "content-type, mcp-session-id" };
    const allowed = await raw(url, "OPTIONS", { origin: APP, ...preflight });
    expect(allowed.status).toBe(204);
    expect(allowed.headers).toMatchObject({
      "access-control-allow-origin": APP,
      "access-control-allow-methods": "POST, GET, DELETE, OPTIONS",
      "access-control-allow-headers": `${ALLOW_HEADERS}, Mcp-Param-Region`,
      "access-control-max-age": "600",
      vary: "Origin",
    });
    const other = await raw(url, "OPTIONS", { origin: "https://evil.example", ...preflight });
    expect(other.status).toBe(403);
    expect(Object.keys(other.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    const rebound = await raw(url, "OPTIONS", { origin: APP, host: "evil.example", ...preflight });
    expect(rebound.status).toBe(403);
  });

  it("serves a listed origin's request with the session id exposed; refuses another origin's without CORS headers", async () => {
    const url = await serve({ cors: { origins: [APP], credentials: true } });
    const answer = await raw(url, "POST", { ...POST, origin: APP }, INITIALIZE);
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({
      "access-control-allow-origin": APP,
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": EXPOSE,
      vary: "Origin",
      "mcp-session-id": expect.any(String),
    });
    const other = await raw(url, "POST", { ...POST, origin: "https://evil.example" }, INITIALIZE);
    expect(other.status).toBe(403);
    expect(other.headers["access-control-allow-origin"]).toBeUndefined();
    expect(other.headers["vary"]).toBe("Origin");
  });

  it("is off by default: no CORS header, a foreign origin refused, a preflight not answered", async () => {
    const url = await serve({});
    const answer = await raw(url, "OPTIONS", { origin: APP, "access-control-request-method": "POST" });
    expect(answer.status).toBe(403);
    const own = await raw(url, "POST", { ...POST, origin: `http://127.0.0.1:${new URL(url).port}` }, INITIALIZE);
    expect(own.status).toBe(200);
    expect(Object.keys(own.headers).filter((h) => h.startsWith("access-control-") || h === "vary")).toEqual([]);
  });

  it("gives a server with auth the policy's headers on its 401 (the challenge readable) and on its metadata, instead of the SDK's *", async () => {
    const url = await serve({ cors: { origins: [APP], credentials: true } }, true);
    const challenge = await raw(url, "POST", { ...POST, origin: APP }, INITIALIZE);
    expect(challenge.status).toBe(401);
    expect(challenge.headers).toMatchObject({
      "access-control-allow-origin": APP,
      "access-control-expose-headers": EXPOSE,
      "www-authenticate": expect.any(String),
    });
    const metadata = await raw(new URL("/.well-known/oauth-protected-resource/mcp", url).href, "GET", { origin: APP });
    expect(metadata.status).toBe(200);
    expect(metadata.headers).toMatchObject({ "access-control-allow-origin": APP, "access-control-allow-credentials": "true" });
    // An origin not listed still reads the public metadata, as without cors.
    const other = await raw(new URL("/.well-known/oauth-protected-resource/mcp", url).href, "GET", { origin: "https://evil.example" });
    expect(other.headers["access-control-allow-origin"]).toBe("*");
    expect(other.headers["access-control-allow-credentials"]).toBeUndefined();
  });
});
