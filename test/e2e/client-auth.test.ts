/**
 * The generated client over an SDK v2 Client whose Streamable HTTP transport has an `authProvider`:
 * the token reaches every request, and a 403 `insufficient_scope` the SDK does not step up (a
 * provider that is not an OAuth one) rejects the tool method with ToolAuthorizationError. The
 * server is the generated gift server behind a small gate that stands for a protected MCP server
 * (a resource server: it checks a fixed token table; no authorization server is involved).
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, ToolAuthorizationError } from "../../examples/gift-server/generated/gift-server/client.js";
import { serveHttp } from "../../examples/gift-server/generated/gift-server/serve.js";
import { giftHandlers } from "../servers/gift.js";

/** What each token may do; gift_details needs both scopes. */
const TOKENS: Record<string, string[]> = { narrow: ["gifts.read"], wide: ["gifts.read", "gifts.write"] };
const NEEDS: Record<string, string[]> = { gift_details: ["gifts.read", "gifts.write"] };

let upstream: Awaited<ReturnType<typeof serveHttp>>;
let gate: Server;
let url: string;
const authorizations: (string | undefined)[] = [];

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

beforeAll(async () => {
  upstream = await serveHttp(giftHandlers, { port: 0 });
  gate = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => gate.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(gate.address() as AddressInfo).port}${new URL(upstream.url).pathname}`;
});

/** The gate: 401 without a known token, 403 when its scopes fall short of the tool's, else the gift server's answer. */
async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const prm = `http://${req.headers.host}/.well-known/oauth-protected-resource/mcp`;
  const auth = req.headers.authorization;
  authorizations.push(auth);
  const token = auth?.startsWith("Bearer ") ? auth.slice(7) : undefined;
  const scopes = token === undefined ? undefined : TOKENS[token];
  if (scopes === undefined) {
    res.writeHead(401, { "www-authenticate": `Bearer error="invalid_token", resource_metadata="${prm}"` }).end();
    return;
  }
  const raw = await body(req);
  if (raw.length > 0) {
    const message = JSON.parse(raw.toString("utf8")) as { method?: string; params?: { name?: string } };
    const need = message.method === "tools/call" ? (NEEDS[message.params?.name ?? ""] ?? []) : [];
    if (!need.every((s) => scopes.includes(s))) {
      res
        .writeHead(403, {
          "www-authenticate": `Bearer error="insufficient_scope", error_description="needs ${need.join(" ")}", scope="${need.join(" ")}", resource_metadata="${prm}"`,
          "content-type": "application/json",
        })
        .end(JSON.stringify({ error: "insufficient_scope" }));
      return;
    }
  }
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "authorization") headers.set(k, v);
  const answer = await fetch(new URL(req.url ?? "/", upstream.url), { method: req.method ?? "GET", headers, ...(raw.length > 0 ? { body: raw } : {}) });
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body) Readable.fromWeb(answer.body).pipe(res);
  else res.end();
}

afterAll(async () => {
  gate.closeAllConnections();
  await new Promise((resolve) => gate.close(resolve));
  await upstream.close();
});

describe.each(["legacy", "auto"] as const)("generated client over an SDK v2 Client with an authProvider (versionNegotiation %s)", (mode) => {
  const connect = async (token: string) => {
    const sdk = new Client({ name: "auth-client", version: "1" }, mode === "auto" ? { versionNegotiation: { mode: "auto" } } : {});
    await sdk.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: { token: async () => token } }));
    return { sdk, client: createClient(sdk) };
  };

  it("sends the provider's token on every request, and calls go through when its scopes suffice", async () => {
    authorizations.length = 0;
    const { sdk, client } = await connect("wide");
    try {
      await expect(client.giftDetails({ name: "Dice set" })).resolves.toMatchObject({ name: "Dice set" });
      expect((await client.suggestGifts({ occasion: "birthday", budget: 50 })).gifts.length).toBeGreaterThan(0);
    } finally {
      await sdk.close();
    }
    expect(authorizations.length).toBeGreaterThan(2);
    expect(new Set(authorizations)).toEqual(new Set(["Bearer wide"]));
  });

  it("a 403 insufficient_scope rejects the tool method (and callTool) with ToolAuthorizationError naming the scopes and the resource metadata", async () => {
    const { sdk, client } = await connect("narrow");
    try {
      await expect(client.suggestGifts({ occasion: "birthday", budget: 50 })).resolves.toBeDefined();
      const error: unknown = await client.giftDetails({ name: "Dice set" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ToolAuthorizationError);
      expect(error).toMatchObject({
        tool: "gift_details",
        error: "insufficient_scope",
        errorDescription: "needs gifts.read gifts.write",
        scopes: ["gifts.read", "gifts.write"],
        resourceMetadataUrl: url.replace(/\/mcp$/, "/.well-known/oauth-protected-resource/mcp"),
      });
      await expect(client.callTool("gift_details", { name: "Dice set" })).rejects.toBeInstanceOf(ToolAuthorizationError);
    } finally {
      await sdk.close();
    }
  });
});
