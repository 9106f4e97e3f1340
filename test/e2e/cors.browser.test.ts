/**
 * CORS in a real browser: the generated gift server over Streamable HTTP with `cors: {origins}`,
 * called by a page that headless Chromium loads from another loopback origin (another port), as a
 * browser-based host such as ext-apps' basic-host would. The listed origin initializes a session,
 * reads its Mcp-Session-Id and lists the tools with it (preflights included); a page on an origin
 * not listed cannot, and neither can any page when `cors` is not set.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../../examples/gift-server/generated/gift-server/serve.js";
import { launchChromium } from "../helpers/browser.js";
import { rpcAnswer } from "../helpers/sse.js";
import { giftHandlers } from "../servers/gift.js";

let browser: Browser;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await browser?.close();
});

/** A page server: an empty page on `host` and a free port (its own origin). */
async function pageOrigin(host: "127.0.0.1" | "localhost"): Promise<string> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>host</title>"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

async function open(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

/**
 * What the page does, as browser code in text (this file compiles without the DOM library):
 * initialize, read Mcp-Session-Id, send initialized and tools/list with it; the tools/list body, or
 * the error fetch threw (a CORS refusal is a TypeError: "Failed to fetch").
 */
const sessionScript = (endpoint: string) => `(async () => {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  const post = (body, extra = {}) => fetch(${JSON.stringify(endpoint)}, { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  try {
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } } });
    const sid = init.headers.get("mcp-session-id");
    if (!sid) return { error: "no readable Mcp-Session-Id", status: init.status };
    await init.text();
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": sid });
    const listed = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": sid });
    return { sid: sid.length > 0, listed: await listed.text() };
  } catch (error) {
    return { error: error.name + ": " + error.message };
  }
})()`;

/** The page's session: whether it read a session id and the tools it listed (parsed here, JSON or SSE), or the error. */
async function session(page: Page, endpoint: string): Promise<{ sid: boolean; tools: string[] } | { error: string; status?: number }> {
  const outcome = await page.evaluate<{ sid: boolean; listed: string } | { error: string; status?: number }>(sessionScript(endpoint));
  if (!("listed" in outcome)) return outcome;
  return { sid: outcome.sid, tools: rpcAnswer<{ result: { tools: { name: string }[] } }>(outcome.listed).result.tools.map((t) => t.name) };
}

describe("the generated server's cors option, in Chromium", () => {
  it("lets a page on a listed origin initialize, read Mcp-Session-Id and call with it; a page on another origin is blocked", async () => {
    const allowed = await pageOrigin("127.0.0.1");
    const other = await pageOrigin("localhost");
    const server = await serveHttp(giftHandlers, { port: 0, cors: { origins: [allowed] } });
    closers.push(() => server.close());
    expect(new URL(allowed).port).not.toBe(new URL(server.url).port);

    const page = await open(allowed);
    expect(await session(page, server.url)).toEqual({ sid: true, tools: ["suggest_gifts", "gift_details"] });
    await page.close();

    const blocked = await open(other);
    expect(await session(blocked, server.url)).toEqual({ error: "TypeError: Failed to fetch" });
    await blocked.close();
  });

  it("with credentials, a page on the listed origin fetches with credentials: include", async () => {
    const allowed = await pageOrigin("127.0.0.1");
    const server = await serveHttp(giftHandlers, { port: 0, cors: { origins: [allowed], credentials: true } });
    closers.push(() => server.close());
    const page = await open(allowed);
    const outcome = await page.evaluate(`fetch(${JSON.stringify(server.url)}, {
      method: "POST", credentials: "include",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } } }),
    }).then((r) => [r.status, r.headers.get("mcp-session-id") !== null], (e) => String(e))`);
    expect(outcome).toEqual([200, true]);
    await page.close();
  });

  it("without cors, the same page on another loopback port is blocked", async () => {
    const origin = await pageOrigin("127.0.0.1");
    const server = await serveHttp(giftHandlers, { port: 0 });
    closers.push(() => server.close());
    const page = await open(origin);
    expect(await session(page, server.url)).toEqual({ error: "TypeError: Failed to fetch" });
    await page.close();
  });
});
