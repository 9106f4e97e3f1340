/**
 * The gift widget, built both ways (`sdk: mcpgen`, mcpgen's own MCP Apps bridge, and `sdk:
 * ext-apps`, the official App), in headless Chromium inside an independent host: a page on the
 * official AppBridge, a sandbox proxy on another origin serving the resource's CSP as an HTTP
 * header (test/helpers/hosts/), the view mounted by `srcdoc` and by `document.write`. It renders
 * the input and result the host sends, a click calls the app-only tool through the host to the
 * real server, and nothing breaks the CSP (no `securitypolicyviolation`: zod's eval probe was one
 * on every load) nor logs an error. Then ChatGPT's `window.openai` with a null toolInput (a tool
 * awaiting approval): inside an MCP Apps host it is left alone; alone, the input arrives with
 * `openai:set_globals`.
 */
import type { Browser, ConsoleMessage, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerFactory } from "../../examples/gift-server/generated/gift-server/index.js";
import { scenarios } from "../../examples/gift-server/generated/gift-server/widgets/scenarios.js";
import { launchChromium } from "../helpers/browser.js";
import { connectInMemory } from "../helpers/connect.js";
import { buildGiftWidget } from "../helpers/hosts/giftWidget.js";
import { serveTestHosts, type PageOptions, type TestHosts } from "../helpers/hosts/server.js";
import { sleep } from "../helpers/wait.js";
import { giftHandlers } from "../servers/gift.js";

const SDKS = ["mcpgen", "ext-apps"] as const;
let browser: Browser;
let hosts: TestHosts;
let closeClient: () => Promise<void>;
const widgets = new Map<string, { html: string; csp: PageOptions["csp"] }>();
const scenario = scenarios[0]!;

beforeAll(async () => {
  browser = await launchChromium();
  const client = await connectInMemory(createServerFactory(giftHandlers));
  closeClient = client.close;
  hosts = await serveTestHosts((name, args) => client.sdk.callTool({ name, arguments: args as { [key: string]: unknown } }));
  for (const sdk of SDKS) widgets.set(sdk, await buildGiftWidget(sdk));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await hosts?.close();
  await closeClient?.();
});

/** A host page with every console message of every frame kept. */
async function open(options: Omit<PageOptions, "html" | "csp" | "tool" | "arguments" | "result">, sdk: string): Promise<{ page: Page; console: string[] }> {
  const widget = widgets.get(sdk)!;
  const url = hosts.page({
    ...options,
    html: widget.html,
    csp: widget.csp,
    tool: scenario.tool,
    arguments: scenario.arguments,
    result: { content: [], structuredContent: scenario.result },
  });
  const page = await browser.newPage();
  const console: string[] = [];
  page.on("console", (m: ConsoleMessage) => void console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => void console.push(`pageerror: ${e.message}`));
  await page.goto(url);
  return { page, console };
}

/** The view's frame: the sandbox's inner frame. */
async function viewFrame(page: Page): Promise<Frame> {
  let view: Frame | undefined;
  await expect
    .poll(() => (view = page.frames().find((f) => f.parentFrame()?.parentFrame() === page.mainFrame())) !== undefined, { timeout: 10_000 })
    .toBe(true);
  return view!;
}

/**
 * The CSP violations of this page's view, made observable: a marker violation (an image from an
 * undeclared origin) is caused last, and once its report has arrived every earlier one has too.
 * Returns the reports other than the marker's, and the console lines about the CSP or errors.
 */
async function violationsAfter(view: Frame, before: number, console: string[]): Promise<{ reports: unknown[]; lines: string[] }> {
  const marker = `https://csp-marker-${before}.example/pixel.png`;
  await view.evaluate(`document.body.append(Object.assign(document.createElement("img"), { src: ${JSON.stringify(marker)} }))`);
  await expect.poll(() => hosts.reports.slice(before).some((r) => String(r["blocked-uri"]).startsWith(marker.slice(0, 30))), { timeout: 10_000 }).toBe(true);
  const reports = hosts.reports.slice(before).filter((r) => !String(r["blocked-uri"]).startsWith(marker.slice(0, 30)));
  const lines = console.filter((l) => !l.includes("csp-marker") && /^(error|pageerror)|Content Security Policy|Refused to|EvalError|unsafe-eval/i.test(l));
  return { reports, lines };
}

describe.each(SDKS.flatMap((sdk) => (["srcdoc", "write"] as const).map((mount) => [sdk, mount] as const)))("sdk: %s, view mounted by %s", (sdk, mount) => {
  it("renders the host's input and result, calls a tool through the host, and breaks no CSP", async () => {
    const reportsBefore = hosts.reports.length;
    const callsBefore = hosts.calls.length;
    const { page, console } = await open({ host: "mcp-apps", mount }, sdk);
    const frame = page.frameLocator("iframe").frameLocator("iframe");
    await expect.poll(() => frame.locator("li[data-gift]").count(), { timeout: 15_000 }).toBe(2);
    expect(await frame.locator("h1").textContent()).toBe("Ideas for a birthday, up to $100");
    expect(await frame.locator("li[data-gift] .name").allTextContents()).toEqual(["Board game: Catan", "Dice set"]);

    const dice = frame.locator('li[data-gift="Dice set"]');
    await dice.locator("button").click();
    await expect.poll(() => dice.locator(".details").textContent(), { timeout: 10_000 }).toBe("Seven polyhedral dice for tabletop games. (games)");
    expect(hosts.calls.slice(callsBefore)).toEqual([
      {
        tool: "gift_details",
        arguments: { name: "Dice set" },
        result: expect.objectContaining({ structuredContent: expect.objectContaining({ name: "Dice set" }) }),
      },
    ]);

    // The handshake, and the view's size from its ResizeObserver, as the AppBridge heard them.
    const id = new URL(page.url()).searchParams.get("id");
    const heard = hosts.events.filter((e) => e.page === id);
    expect(heard.map((e) => e.kind)).toContain("initialized");
    expect(heard.find((e) => e.kind === "size-changed")?.params).toEqual({ width: expect.any(Number), height: expect.any(Number) });

    const view = await viewFrame(page);
    // Mounted as asked: a srcdoc frame sandboxed to an opaque origin; a written one of the sandbox's origin (not the host's).
    const origin = String(await view.evaluate("location.origin"));
    if (mount === "srcdoc") expect(origin).toBe("null");
    else expect(origin).toMatch(/^http:\/\/localhost:\d+$/);
    expect(await view.evaluate("typeof window.openai")).toBe("undefined");
    const { reports, lines } = await violationsAfter(view, reportsBefore, console);
    expect(reports).toEqual([]);
    expect(lines).toEqual([]);
    await page.close();
  });
});

describe.each(SDKS)("sdk: %s, window.openai with a null toolInput", (sdk) => {
  it("inside an MCP Apps host: the host's input is shown, nothing reads the null", async () => {
    const reportsBefore = hosts.reports.length;
    const { page, console } = await open({ host: "mcp-apps", mount: "write", openaiNull: true }, sdk);
    const frame = page.frameLocator("iframe").frameLocator("iframe");
    await expect.poll(() => frame.locator("li[data-gift]").count(), { timeout: 15_000 }).toBe(2);
    expect(await frame.locator("h1").textContent()).toBe("Ideas for a birthday, up to $100");
    const view = await viewFrame(page);
    expect(await view.evaluate("window.openai.toolInput")).toBeNull();
    const { reports, lines } = await violationsAfter(view, reportsBefore, console);
    expect(reports).toEqual([]);
    expect(lines).toEqual([]);
    await page.close();
  });

  it("alone: nothing until openai:set_globals brings the input and the output", async () => {
    const reportsBefore = hosts.reports.length;
    const { page, console } = await open({ host: "none", mount: "write", openaiNull: true }, sdk);
    const frame = page.frameLocator("iframe").frameLocator("iframe");
    const view = await viewFrame(page);
    await expect.poll(() => frame.locator("h1").count(), { timeout: 10_000 }).toBe(1);
    // Past the MCP Apps handshake's time limit (1 s): the widget is on window.openai by now, and nothing may have changed the page meanwhile.
    await sleep(1_500);
    expect(await frame.locator("h1").textContent()).toBe("Gift ideas");
    expect(console.filter((l) => /^(error|pageerror)/.test(l))).toEqual([]);
    // As ChatGPT does once the user approved the call: the globals change, the event names only those.
    const globals = JSON.stringify({ toolInput: scenario.arguments, toolOutput: scenario.result });
    await view.evaluate(
      `Object.assign(window.openai, ${globals}); window.dispatchEvent(new CustomEvent("openai:set_globals", { detail: { globals: ${globals} } }))`,
    );
    await expect.poll(() => frame.locator("li[data-gift]").count(), { timeout: 10_000 }).toBe(2);
    expect(await frame.locator("h1").textContent()).toBe("Ideas for a birthday, up to $100");
    const { reports, lines } = await violationsAfter(view, reportsBefore, console);
    expect(reports).toEqual([]);
    expect(lines).toEqual([]);
    await page.close();
  });
});
