/**
 * `mcpgen pull` of a protected server: without a token it says what the server wants (its
 * Protected Resource Metadata, authorization servers, scopes) and how to pass a token; with
 * `--header` it pulls, keeping each tool's `securitySchemes` verbatim, and never prints the token.
 * The server is a small hand-written MCP server over HTTP (2025-11-25, JSON answers) that stands
 * for a protected one: it checks a fixed token; no authorization server is involved.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mcpgenAsync } from "./helpers/cli.js";
import { tempProject } from "./helpers/tmp.js";

const TOKEN = "s3cret-t0ken-value";
const SCHEMES = {
  read: [{ type: "oauth2", scopes: ["gifts.read"] }],
  mixed: [{ type: "noauth" }, { type: "oauth2", scopes: ["search.read"] }],
};

interface Protected {
  /** The 401's WWW-Authenticate (the base URL in place of `{base}`), or none. */
  challenge?: string;
  /** Path -> the metadata served there (404 elsewhere). */
  metadata?: Record<string, object>;
  /** A token answered 403 insufficient_scope on tools/list. */
  narrow?: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (d) => (text += d));
    req.on("end", () => resolve(text));
  });
}

/** The base URL of a server that answers 401 without `Bearer TOKEN`, and MCP with it. */
async function protectedServer(options: Protected): Promise<string> {
  let base = "";
  const server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", base);
    const doc = options.metadata?.[url.pathname];
    if (req.method === "GET" && (doc !== undefined || url.pathname.startsWith("/.well-known/"))) {
      if (doc) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(doc));
      else res.writeHead(404).end();
      return;
    }
    const auth = req.headers.authorization;
    if (auth !== `Bearer ${TOKEN}` && auth !== `Bearer ${options.narrow}`) {
      const headers: Record<string, string> = options.challenge ? { "www-authenticate": options.challenge.replaceAll("{base}", base) } : {};
      // A server that echoes what it got (the token must not reach the terminal through it).
      res.writeHead(401, { ...headers, "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_token", got: auth ?? null }));
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const message = JSON.parse(await body(req)) as { id?: number; method: string };
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (message.method === "tools/list" && auth === `Bearer ${options.narrow}`) {
      res
        .writeHead(403, {
          "www-authenticate": `Bearer error="insufficient_scope", scope="gifts.read gifts.write", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
      return;
    }
    const results: Record<string, object> = {
      initialize: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "locked", version: "1.0.0" } },
      "tools/list": {
        tools: [
          { name: "suggest", inputSchema: { type: "object" }, securitySchemes: SCHEMES.read, _meta: { securitySchemes: SCHEMES.read } },
          { name: "search", inputSchema: { type: "object" }, securitySchemes: SCHEMES.mixed },
        ],
      },
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: results[message.method] ?? {} }));
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return base;
}

const PRM = (base: string) => ({
  resource: `${base}/mcp`,
  authorization_servers: ["https://auth.example.com"],
  scopes_supported: ["gifts.read", "search.read"],
});

describe("mcpgen pull of a protected server", () => {
  it("without a token: names the metadata from the challenge, its authorization servers and scopes, and the --header fix; exit 1", async () => {
    const base = await protectedServer({
      challenge: `Bearer error="invalid_token", error_description="Missing Authorization header", scope="gifts.read", resource_metadata="{base}/prm"`,
    });
    // The metadata URL of the challenge is used as given (here not a well-known one).
    const server = await protectedServer({});
    void server;
    const metadata = { "/prm": PRM(base) };
    const withMetadata = await protectedServer({ challenge: `Bearer error="invalid_token", scope="gifts.read", resource_metadata="{base}/prm"`, metadata });
    const r = await mcpgenAsync(["pull", `${withMetadata}/mcp`], tempProject({ "package.json": "{}" }));
    expect(r).toMatchObject({ code: 1, stdout: "" });
    expect(r.stderr).toBe(
      `mcpgen: ${withMetadata}/mcp: error server-failed: connecting to ${withMetadata}/mcp failed: the server needs authorization (HTTP 401, invalid_token); ` +
        `its Protected Resource Metadata (${withMetadata}/prm) names resource ${base}/mcp; authorization servers https://auth.example.com; scopes gifts.read search.read; ` +
        `get an access token for ${base}/mcp with scope "gifts.read" from https://auth.example.com and pass it with --header "Authorization: Bearer <token>"\n`,
    );
  });

  it("finds the metadata at the well-known URLs when the challenge names none (path-aware, else the root)", async () => {
    const pathAware = await protectedServer({
      challenge: "Bearer",
      metadata: { "/.well-known/oauth-protected-resource/mcp": { resource: "https://p.example/mcp", authorization_servers: ["https://as.example"] } },
    });
    const bare = await protectedServer({ challenge: "Bearer", metadata: {} });
    const root = await protectedServer({
      challenge: "Bearer",
      metadata: { "/.well-known/oauth-protected-resource": { resource: "https://x.example/mcp", authorization_servers: ["https://as.example"] } },
    });
    const dir = tempProject({ "package.json": "{}" });
    const r = await mcpgenAsync(["pull", `${root}/mcp`], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `the server needs authorization (HTTP 401); its Protected Resource Metadata (${root}/.well-known/oauth-protected-resource) names resource https://x.example/mcp; authorization servers https://as.example; get an access token for https://x.example/mcp from https://as.example`,
    );
    const first = await mcpgenAsync(["pull", `${pathAware}/mcp`], dir);
    expect(first.stderr).toContain(
      `its Protected Resource Metadata (${pathAware}/.well-known/oauth-protected-resource/mcp) names resource https://p.example/mcp;`,
    );
    const none = await mcpgenAsync(["pull", `${bare}/mcp`], dir);
    expect(none.stderr).toBe(
      `mcpgen: ${bare}/mcp: error server-failed: connecting to ${bare}/mcp failed: the server needs authorization (HTTP 401); it publishes no Protected Resource Metadata (no resource_metadata in its WWW-Authenticate, nothing at the well-known URLs); ` +
        `get an access token from its authorization server (ask its operator which) and pass it with --header "Authorization: Bearer <token>"\n`,
    );
  });

  it("with --header: pulls, keeping each tool's securitySchemes (and their _meta mirror) verbatim, and never writes the token", async () => {
    const base = await protectedServer({ challenge: "Bearer" });
    const dir = tempProject({ "package.json": "{}" });
    const r = await mcpgenAsync(["pull", "--era", "legacy", "--header", `Authorization: Bearer ${TOKEN}`, `${base}/mcp`], dir);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const text = readFileSync(path.join(dir, "manifests/locked.yaml"), "utf8");
    expect(text).not.toContain(TOKEN);
    expect(text).toContain(
      [
        "tools:",
        "  - name: suggest",
        "    inputSchema:",
        "      type: object",
        "    securitySchemes:",
        "      - type: oauth2",
        "        scopes:",
        "          - gifts.read",
        "    _meta:",
        "      securitySchemes:",
        "        - type: oauth2",
        "          scopes:",
        "            - gifts.read",
        "  - name: search",
        "    inputSchema:",
        "      type: object",
        "    securitySchemes:",
        "      - type: noauth",
        "      - type: oauth2",
        "        scopes:",
        "          - search.read",
      ].join("\n"),
    );
  });

  it("a token refused (401) or without the scopes (403) is said so, the token never shown", async () => {
    const base = await protectedServer({
      challenge: `Bearer error="invalid_token", error_description="token ${TOKEN}x is expired", resource_metadata="{base}/.well-known/oauth-protected-resource/mcp"`,
      metadata: { "/.well-known/oauth-protected-resource/mcp": { resource: "https://r.example/mcp", authorization_servers: ["https://as.example"] } },
      narrow: "narrow-token-value",
    });
    const dir = tempProject({ "package.json": "{}" });
    const refused = await mcpgenAsync(["pull", "--header", `Authorization: Bearer ${TOKEN}x`, `${base}/mcp`], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "failed: the server refused the Authorization header given (HTTP 401, invalid_token: token ... is expired): the token may have expired, or have been issued for another resource; its Protected Resource Metadata",
    );
    expect(refused.stderr).not.toContain(TOKEN);
    const narrow = await mcpgenAsync(["pull", "--era", "legacy", "--header", "Authorization: Bearer narrow-token-value", `${base}/mcp`], dir);
    expect(narrow).toMatchObject({
      code: 1,
      stderr: `mcpgen: ${base}/mcp: error server-failed: tools/list on ${base}/mcp failed: the server refused the token given: insufficient_scope, it needs "gifts.read gifts.write" (its Protected Resource Metadata: ${base}/.well-known/oauth-protected-resource/mcp); pass a token with scope "gifts.read gifts.write" in --header "Authorization: Bearer <token>"\n`,
    });
  });
});
