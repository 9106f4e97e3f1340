/**
 * The gift widget in headless Chromium, mounted by mcpgen's harness (a mock MCP Apps host on the
 * official AppBridge) and served by the real generated gift server: it renders the tool result
 * the host sends, a click calls the app-only tool gift_details through the host to the server and
 * renders its typed answer, a tool not visible to apps is refused by the host, and nothing breaks
 * the Content-Security-Policy built from the manifest (no eval, no undeclared origin). The same
 * with ChatGPT's window.openai injected into the frame.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { Browser, ConsoleMessage, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPipeline } from "../../src/generator/pipeline.js";
import { createServerFactory } from "../../examples/gift-server/generated/gift-server/index.js";
import { serveHttp } from "../../examples/gift-server/generated/gift-server/serve.js";
import { scenarios } from "../../examples/gift-server/generated/gift-server/widgets/scenarios.js";
import { serveHarness, type Harness } from "../../src/harness/index.js";
import { launchChromium } from "../helpers/browser.js";
import { linkNodeModules, tempProject } from "../helpers/tmp.js";
import { giftHandlers } from "../servers/gift.js";

let browser: Browser;
let harness: Harness;

beforeAll(async () => {
  browser = await launchChromium();
  harness = await serveHarness({ server: createServerFactory(giftHandlers), scenarios });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/** A page with every console message of every frame kept (CSP violations are reported there). */
async function open(url: string): Promise<{ page: Page; console: string[] }> {
  const page = await browser.newPage();
  const console: string[] = [];
  page.on("console", (m: ConsoleMessage) => void console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => void console.push(`pageerror: ${e.message}`));
  await page.goto(url);
  return { page, console };
}

const violations = (console: string[]) => console.filter((line) => /Content Security Policy|Refused to|EvalError|unsafe-eval/i.test(line));

describe.each(["mcp-apps", "openai"] as const)("the gift widget, %s bridge", (bridge) => {
  it("renders the tool's input and result sent by the host", async () => {
    const { page, console } = await open(harness.scenarioUrl(0, bridge));
    const frame = page.frameLocator("iframe");
    await expect.poll(() => frame.locator("li[data-gift]").count(), { timeout: 15_000 }).toBe(2);
    expect(await frame.locator("h1").textContent()).toBe("Ideas for a birthday, up to $100");
    expect(await frame.locator("li[data-gift] .name").allTextContents()).toEqual(["Board game: Catan", "Dice set"]);
    expect(await frame.locator("li[data-gift] .price").allTextContents()).toEqual(["$45", "$20"]);
    // The openai page injects window.openai into the frame; the widget's client then talks through it.
    const view = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await view.evaluate("typeof window.openai")).toBe(bridge === "openai" ? "object" : "undefined");
    expect(violations(console)).toEqual([]);
    await page.close();
  });

  it("a click calls the app-only tool through the host to the real server and renders its typed answer", async () => {
    const before = harness.calls.length;
    const { page, console } = await open(harness.scenarioUrl(0, bridge));
    const frame = page.frameLocator("iframe");
    const dice = frame.locator('li[data-gift="Dice set"]');
    await dice.locator("button").click({ timeout: 15_000 });
    await expect.poll(() => dice.locator(".details").textContent(), { timeout: 10_000 }).toBe("Seven polyhedral dice for tabletop games. (games)");
    const calls = harness.calls.slice(before);
    expect(calls).toEqual([
      {
        tool: "gift_details",
        arguments: { name: "Dice set" },
        result: expect.objectContaining({
          structuredContent: { name: "Dice set", description: "Seven polyhedral dice for tabletop games.", category: "games" },
        }),
      },
    ]);
    expect(violations(console)).toEqual([]);
    await page.close();
  });
});

describe("the host and the view's sandbox", () => {
  it("refuses a call to a tool not visible to apps (suggest_gifts is model-only)", async () => {
    const before = harness.calls.length;
    const { page } = await open(harness.scenarioUrl(0));
    await expect.poll(() => page.frameLocator("iframe").locator("li[data-gift]").count(), { timeout: 15_000 }).toBe(2);
    // What a widget would send by hand (the typed client refuses it before sending): tools/call to its host.
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    // Browser code as text: this file compiles without the DOM library.
    const answer = await frame.evaluate(`new Promise((resolve) => {
      addEventListener("message", (event) => { if (event.data && event.data.id === 9001) resolve(event.data); });
      parent.postMessage({ jsonrpc: "2.0", id: 9001, method: "tools/call", params: { name: "suggest_gifts", arguments: { occasion: "x", budget: 1 } } }, "*");
    })`);
    expect(answer).toMatchObject({ id: 9001, error: { message: expect.stringContaining("Tool suggest_gifts is not visible to apps") } });
    expect(harness.calls.slice(before)).toEqual([
      { tool: "suggest_gifts", arguments: { occasion: "x", budget: 1 }, refused: 'Tool suggest_gifts is not visible to apps (its visibility is ["model"])' },
    ]);
    await page.close();
  });

  it("runs the widget under the CSP built from the manifest: an inline script it did not ship is refused, and reported", async () => {
    const { page, console } = await open(harness.scenarioUrl(0));
    await expect.poll(() => page.frameLocator("iframe").locator("li[data-gift]").count(), { timeout: 15_000 }).toBe(2);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    const policy = await frame.evaluate<string>(`document.querySelector('meta[http-equiv="Content-Security-Policy"]').getAttribute("content")`);
    expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; /);
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toContain("unsafe-inline");
    // What the detector above would catch: code the widget did not ship (here, put in by the test).
    await frame.evaluate(
      `{ const script = document.createElement("script"); script.textContent = "document.title = 'injected'"; document.head.append(script); }`,
    );
    await expect.poll(() => violations(console).length, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(await frame.evaluate("document.title")).toBe("Gift ideas");
    await page.close();
  });
});

describe("the harness over Streamable HTTP", () => {
  it("forwards the widget's calls to a server it reaches by URL, as it does in process", async () => {
    const server = await serveHttp(giftHandlers, { port: 0 });
    const remote = await serveHarness({ server: server.url, scenarios });
    try {
      const { page, console } = await open(remote.scenarioUrl(0));
      const dice = page.frameLocator("iframe").locator('li[data-gift="Dice set"]');
      await dice.locator("button").click({ timeout: 15_000 });
      await expect.poll(() => dice.locator(".details").textContent(), { timeout: 10_000 }).toBe("Seven polyhedral dice for tabletop games. (games)");
      expect(remote.calls.map((c) => c.tool)).toEqual(["gift_details"]);
      expect(violations(console)).toEqual([]);
      await page.close();
    } finally {
      await remote.close();
      await server.close();
    }
  });
});

/** What puts the HTML parser of an inline script in its escaped states, or ends the element. */
const HOSTILE = ["<!--<script>", "</script><script>", "<!-- x --><SCRIPT>", "<!--"];

describe("a widget whose manifest and source hold <!--<script>", () => {
  it("runs, and shows those strings as they are: from its checks (an enum), its scenario, its own string and String.raw", async () => {
    const enumText = HOSTILE.map((v) => JSON.stringify(v)).join(", ");
    const dir = tempProject({
      "package.json": '{"type":"module"}',
      "m/m.yaml": [
        "server: {name: w, version: '1'}",
        "tools:",
        "  - name: tag",
        `    description: ${JSON.stringify(`Shows a tag such as ${HOSTILE[0]}`)}`,
        "    inputSchema: {type: object}",
        `    outputSchema: {type: object, properties: {tag: {type: string, enum: [${enumText}]}}, required: [tag]}`,
        "    widget: card",
        "    visibility: [model, app]",
        "    examples:",
        `      - {arguments: {}, result: {tag: ${JSON.stringify(HOSTILE[0])}}}`,
        "widgets:",
        "  - name: card",
        "    uri: ui://w/card.html",
        "    entry: widgets/card.ts",
        `    title: ${JSON.stringify(HOSTILE[0])}`,
        "",
      ].join("\n"),
      "m/widgets/card.ts": [
        'import { createCardWidget } from "../../out/w/widgets/card.js";',
        "const own = " + JSON.stringify(HOSTILE[2]) + ";",
        "const raw = String.raw`" + HOSTILE[0] + "\\n`;",
        "const widget = createCardWidget();",
        "widget.onToolResult((r) => {",
        '  const out = document.createElement("output");',
        "  out.textContent = JSON.stringify([r.ok ? r.output.tag : r.error.message, own, raw]);",
        "  document.body.append(out);",
        "});",
        "await widget.connect();",
        "",
      ].join("\n"),
    });
    linkNodeModules(dir);
    const generated = await runPipeline({ manifests: ["m"], out: "out", cwd: dir, mode: "write" });
    expect(generated.diagnostics).toEqual([]);
    const { createServerFactory } = (await import(path.join(dir, "out/w/index.ts"))) as { createServerFactory: (h: object) => () => unknown };
    const { scenarios: own } = (await import(path.join(dir, "out/w/widgets/scenarios.ts"))) as { scenarios: Parameters<typeof serveHarness>[0]["scenarios"] };
    const served = await serveHarness({ server: createServerFactory({ tools: { tag: async () => ({ tag: HOSTILE[1] }) } }), scenarios: own });
    try {
      for (const bridge of ["mcp-apps", "openai"] as const) {
        const { page, console } = await open(served.scenarioUrl(0, bridge));
        const frame = page.frameLocator("iframe");
        await expect.poll(() => frame.locator("output").count(), { timeout: 15_000 }).toBe(1);
        expect(JSON.parse((await frame.locator("output").textContent())!)).toEqual([HOSTILE[0], HOSTILE[2], `${HOSTILE[0]}\\n`]);
        const view = page.frames().find((f) => f !== page.mainFrame())!;
        expect(await view.evaluate("document.title")).toBe(HOSTILE[0]);
        // One script element, whole: nothing after it became script text.
        expect(await view.evaluate('document.querySelectorAll("script").length')).toBe(bridge === "openai" ? 2 : 1);
        expect([...violations(console), ...console.filter((line) => line.startsWith("pageerror"))]).toEqual([]);
        await page.close();
      }
    } finally {
      await served.close();
    }
  }, 90_000);
});

/** A raw HTTP request to the harness, with any Host, Origin or other header (fetch would not send Host). */
function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  const { port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        method,
        headers: { ...(body === undefined ? {} : { "content-length": Buffer.byteLength(body) }), ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the harness refuses other pages and other hosts (DNS rebinding)", () => {
  const call = JSON.stringify({ name: "gift_details", arguments: { name: "Dice set" } });

  it("a page on another origin, visited in the same browser, cannot call a tool: text/plain (no preflight), JSON, or a form", async () => {
    const evil = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>evil</title>"));
    await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
    const before = harness.calls.length;
    const page = await browser.newPage();
    try {
      // Another port is another origin, as https://evil.example would be.
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
      const target = new URL("/api/call", harness.url).href;
      const outcomes = await page.evaluate(`Promise.all([
        fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: ${JSON.stringify(call)} }).then((r) => r.type, (e) => "failed"),
        fetch(${JSON.stringify(target)}, { method: "POST", headers: { "content-type": "application/json" }, body: ${JSON.stringify(call)} }).then((r) => r.status, (e) => "failed"),
      ])`);
      expect(outcomes).toEqual(["opaque", "failed"]);
      // A form posts text/plain across origins too, and navigates to the answer.
      await Promise.all([
        page.waitForURL(target),
        page.evaluate(`{ const f = document.createElement("form"); f.method = "POST"; f.enctype = "text/plain"; f.action = ${JSON.stringify(target)};
          const i = document.createElement("input"); i.name = '{"name":"gift_details","arguments":{"name":"Dice set"},"x":"'; i.value = '"}'; f.append(i); document.body.append(f); f.submit(); }`),
      ]);
      expect(await page.evaluate("document.body.innerText")).toContain("Forbidden");
    } finally {
      await page.close();
      await new Promise((resolve) => evil.close(resolve));
    }
    expect(harness.calls.slice(before)).toEqual([]);
  });

  it.each([
    [
      "POST text/plain from Origin https://evil.example",
      "POST",
      { origin: "https://evil.example", "content-type": "text/plain" },
      403,
      "Forbidden: Origin not allowed",
    ],
    [
      "POST JSON with the token from Origin https://evil.example",
      "POST",
      { origin: "https://evil.example", "content-type": "application/json", token: true },
      403,
      "Forbidden: Origin not allowed",
    ],
    [
      "POST JSON with the token to Host evil.example (rebinding)",
      "POST",
      { host: "evil.example", "content-type": "application/json", token: true },
      403,
      "Forbidden: Host not allowed",
    ],
    [
      "POST JSON marked Sec-Fetch-Site: cross-site",
      "POST",
      { "sec-fetch-site": "cross-site", "content-type": "application/json", token: true },
      403,
      "Forbidden: a request from another site",
    ],
    [
      "POST JSON without the token",
      "POST",
      { "content-type": "application/json" },
      403,
      "Forbidden: the x-mcpgen-harness-token header must hold this run's token",
    ],
    [
      "POST JSON with a wrong token",
      "POST",
      { "content-type": "application/json", "x-mcpgen-harness-token": "guess" },
      403,
      "Forbidden: the x-mcpgen-harness-token header must hold this run's token",
    ],
    [
      "POST text/plain with the token",
      "POST",
      { "content-type": "text/plain", token: true },
      415,
      "Unsupported Media Type: Content-Type must be application/json",
    ],
  ] as const)("/api/call: %s is refused, no tool is called", async (_, method, given, status, error) => {
    const before = harness.calls.length;
    const { token, host, ...headers } = given as Record<string, string | boolean>;
    const port = new URL(harness.url).port;
    const answer = await raw(
      new URL("/api/call", harness.url).href,
      method,
      {
        ...(headers as Record<string, string>),
        host: `${host ?? "127.0.0.1"}:${port}`,
        ...(token ? { "x-mcpgen-harness-token": harness.token } : {}),
      },
      call,
    );
    expect([answer.status, JSON.parse(answer.body)]).toEqual([status, { error }]);
    expect(harness.calls.slice(before)).toEqual([]);
  });

  it("GET /api/calls and the pages (which hold the token) to Host evil.example are refused; its own host, with the token, is answered", async () => {
    const port = new URL(harness.url).port;
    for (const path of ["/api/calls", "/scenario/0", "/frame/0", "/"]) {
      const answer = await raw(new URL(path, harness.url).href, "GET", { host: `evil.example:${port}`, "x-mcpgen-harness-token": harness.token });
      expect([path, answer.status, answer.body]).toEqual([path, 403, '{"error":"Forbidden: Host not allowed"}']);
    }
    expect((await raw(new URL("/api/calls", harness.url).href, "GET", { host: `127.0.0.1:${port}` })).status).toBe(403);
    const own = await raw(new URL("/api/calls", harness.url).href, "GET", { host: `localhost:${port}`, "x-mcpgen-harness-token": harness.token });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body)).toHaveProperty("calls");
    // The same call, as the harness's own page sends it, goes through.
    const before = harness.calls.length;
    const ok = await raw(
      new URL("/api/call", harness.url).href,
      "POST",
      {
        host: `127.0.0.1:${port}`,
        origin: `http://127.0.0.1:${port}`,
        "content-type": "application/json",
        "x-mcpgen-harness-token": harness.token,
      },
      call,
    );
    expect(ok.status).toBe(200);
    expect(harness.calls.slice(before).map((c) => c.tool)).toEqual(["gift_details"]);
  });
});
