/**
 * `mcpgen check` on real Streamable HTTP traffic: the official SDK v2 Client and the gift server
 * served by `mcpgen mock`, in both protocol eras, each request and response recorded (as a trace
 * with its HTTP exchange and MCP headers) through the transport's fetch. No findings: the header
 * rules of 2026-07-28 agree with what the SDK's client sends.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { Client, StreamableHTTPClientTransport, type FetchLike } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { checkLog } from "../../src/commands/check/run.js";
import { startMock } from "../../src/commands/mock/server.js";
import { ROOT } from "../helpers/cli.js";
import { bodyMessages } from "../helpers/sse.js";
import { tempProject } from "../helpers/tmp.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** The headers a trace keeps (src/commands/trace/record.ts TraceHttp). */
function kept(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.startsWith("mcp-") || ["content-type", "accept", "last-event-id", "www-authenticate"].includes(name)) out[name] = value;
  });
  return out;
}

/** A fetch that records each POST and its answer as trace lines. */
function recorder(lines: string[]): { fetch: FetchLike; settled: () => Promise<unknown> } {
  let exchange = 0;
  const bodies: Promise<void>[] = [];
  const fetchAndRecord: FetchLike = async (url, init) => {
    const n = ++exchange;
    const u = new URL(String(url));
    const http = { exchange: n, method: init?.method ?? "GET", path: u.pathname + u.search };
    if (typeof init?.body === "string")
      for (const message of bodyMessages(init.body))
        lines.push(JSON.stringify({ time: new Date().toISOString(), from: "client", message, http: { ...http, headers: kept(new Headers(init.headers)) } }));
    const response = await fetch(url, init);
    // A GET stream stays open: only the answers of POSTs are waited for.
    const body = response
      .clone()
      .text()
      .then((text) => {
        for (const message of bodyMessages(text))
          lines.push(
            JSON.stringify({
              time: new Date().toISOString(),
              from: "server",
              message,
              http: { ...http, status: response.status, headers: kept(response.headers) },
            }),
          );
      })
      // The GET stream is aborted when the client closes.
      .catch(() => {});
    if (http.method === "POST") bodies.push(body);
    return response;
  };
  return { fetch: fetchAndRecord, settled: () => Promise.all(bodies) };
}

describe("mcpgen check on a Streamable HTTP session", () => {
  it.each(["legacy", "modern"] as const)("finds nothing in the %s era", async (era) => {
    const served = await startMock({ manifests: [path.join(ROOT, "examples/gift-server/manifests")], cwd: ROOT, transport: { kind: "http", port: 0 } });
    if (!served.ok) throw new Error(`not served: ${JSON.stringify(served.diagnostics)}`);
    closers.push(() => served.close());
    const lines = [JSON.stringify({ mcpgenTrace: 1, time: new Date().toISOString(), transport: "http", upstream: served.servers[0]!.url, mcpgen: "0.1.0" })];
    const rec = recorder(lines);
    const sdk = new Client({ name: "check-test", version: "1" }, {
      versionNegotiation: { mode: era === "modern" ? { pin: "2026-07-28" } : "legacy" },
    } as never);
    await sdk.connect(new StreamableHTTPClientTransport(new URL(served.servers[0]!.url!), { fetch: rec.fetch }));
    closers.push(() => sdk.close());
    expect(sdk.getProtocolEra()).toBe(era);
    await sdk.listTools();
    await sdk.listResources();
    await sdk.listPrompts();
    await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: "birthday", budget: 100, recipient: "friend who loves board games" } });
    await sdk.callTool({ name: "gift_details", arguments: { name: "Dice set" } });
    await sdk.readResource({ uri: "mcp://gift-server/resources/gift_catalog" });
    await sdk.getPrompt({ name: "gift_congrats_style", arguments: { tone: "funny" } });
    await rec.settled();
    const file = path.join(tempProject(), "session.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const result = await checkLog(file);
    expect(result.findings).toEqual([]);
    expect(result.messages).toBeGreaterThanOrEqual(14);
    if (era === "legacy") return;
    // The same session with one header changed on the way: the header rule sees it.
    const call = lines.findIndex((l) => l.includes('"mcp-method":"tools/call"') && l.includes('"mcp-name":"suggest_gifts"'));
    expect(call).toBeGreaterThan(0);
    lines[call] = lines[call]!.replace('"mcp-name":"suggest_gifts"', '"mcp-name":"gift_details"');
    writeFileSync(file, `${lines.join("\n")}\n`);
    const tampered = await checkLog(file);
    expect(tampered.findings.map((f) => [f.rule, f.line])).toEqual([["header-mismatch", call + 1]]);
    expect(tampered.findings[0]!.message).toMatch(/Mcp-Name is "gift_details" but the body's params.name is "suggest_gifts"$/);
  });
});
