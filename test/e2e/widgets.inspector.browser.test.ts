/**
 * The gift widget in a host mcpgen did not write: the mcp-use Inspector (`@mcp-use/inspector`, an
 * npm package, `npx @mcp-use/inspector`), a web app that connects to an MCP server and renders MCP
 * Apps views (host page → sandbox proxy on another origin → the view in a `srcdoc` frame) and
 * injects ChatGPT's `window.openai` into them, with `toolInput: null` until the host sends the input.
 * Headless Chromium drives its page as a user would: it auto-connects to the generated gift server
 * over Streamable HTTP, calls `suggest_gifts` from the Tools tab with the manifest's example
 * arguments, and the widget must render the input and the result, call the app-only tool
 * `gift_details` through the host to the real server, and break no CSP nor log an error; the
 * view's `tools/call` of a tool whose visibility leaves out "app" is refused by the host. (The
 * Inspector does not read `openai/widgetAccessible`: no refusal by that alias is tested here.) The
 * Inspector needs Node >= 22: it comes from the npm registry into .cache/mcp-use-inspector/<version>
 * once, and runs on the shared Node 22 (test/helpers/node22.ts, also from the registry), which is
 * why this suite is in the `network` project.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import * as path from "node:path";
import type { Browser, ConsoleMessage, Frame, FrameLocator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp, type HttpHandle } from "../../examples/gift-server/generated/gift-server/serve.js";
import type { Handlers } from "../../examples/gift-server/generated/gift-server/server.js";
import { launchChromium } from "../helpers/browser.js";
import { ROOT } from "../helpers/cli.js";
import { installNode22 } from "../helpers/node22.js";
import { started } from "../helpers/process.js";
import { giftHandlers } from "../servers/gift.js";

const HOST_VERSION = "20.3.10";
const CACHE = path.join(ROOT, ".cache", "mcp-use-inspector", HOST_VERSION);
const CLI = path.join(CACHE, "node_modules", "@mcp-use", "inspector", "dist", "cli.js");
/** The manifest's example call of suggest_gifts (examples/gift-server/manifests/gift-server.yaml). */
const ARGS = { occasion: "birthday", budget: 100, recipient: "friend who loves board games" };

/** Installs Node 22 and the Inspector, each unless it is there, and returns the Node 22 that runs the Inspector. */
function installHost(): string {
  const node22 = installNode22();
  if (existsSync(CLI)) return node22;
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(path.join(CACHE, "package.json"), '{ "private": true }\n');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
  try {
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--no-save", `@mcp-use/inspector@${HOST_VERSION}`], {
      cwd: CACHE,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").slice(-2_000);
    throw new Error(`could not install @mcp-use/inspector@${HOST_VERSION} from the npm registry into ${CACHE}:\n${stderr}`, { cause: error });
  }
  if (!existsSync(CLI)) throw new Error(`npm installed @mcp-use/inspector@${HOST_VERSION} without ${CLI}`);
  return node22;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The Inspector's CLI on `node22` in its own process group; resolves with the page's URL it prints. */
async function startHost(node22: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(node22, [CLI, "--port", String(await freePort()), "--no-open"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, MCP_USE_ANONYMIZED_TELEMETRY: "false" },
  });
  await started(child);
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the mcp-use Inspector did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const found = /MCP Inspector started at (http:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the mcp-use Inspector exited (${code}) before it started:\n${output}`));
    });
  });
  return { child, url };
}

/** What the view's document saw, recorded from its first script on (every frame gets this). */
const PROBE = `(() => {
  const probe = (window.__probe = { violations: [], errors: [], inputs: [] });
  document.addEventListener("securitypolicyviolation", (e) => probe.violations.push(e.violatedDirective + " " + e.blockedURI));
  const error = console.error.bind(console);
  console.error = (...args) => { probe.errors.push(args.map(String).join(" ")); error(...args); };
  window.addEventListener("error", (e) => probe.errors.push("error: " + e.message));
  window.addEventListener("unhandledrejection", (e) => probe.errors.push("unhandledrejection: " + String(e.reason)));
  document.addEventListener("DOMContentLoaded", () => probe.inputs.push(window.openai ? JSON.stringify(window.openai.toolInput) : "no window.openai"));
})()`;
interface Probe {
  violations: string[];
  errors: string[];
  inputs: string[];
}

let browser: Browser;
let host: { child: ChildProcess; url: string } | undefined;
let server: HttpHandle;
let page: Page;
let widget: FrameLocator;
let view: Frame;
const consoleLines: { type: string; url: string; text: string }[] = [];
/** The calls the real server answered, by tool. */
const served: { tool: string; arguments: unknown; result: unknown }[] = [];

/** The gift handlers, each call recorded. */
const counted: Handlers = {
  tools: Object.fromEntries(
    Object.entries(giftHandlers.tools).map(([tool, handler]) => [
      tool,
      async (args: unknown, ctx: unknown) => {
        const result: unknown = await (handler as (a: unknown, c: unknown) => Promise<unknown>)(args, ctx);
        served.push({ tool, arguments: args, result });
        return result;
      },
    ]),
  ) as Handlers["tools"],
};

beforeAll(async () => {
  host = await startHost(installHost());
  // The Inspector's page calls the server from the browser (its proxy is the fallback): its origin is allowed.
  server = await serveHttp(counted, { port: 0, cors: { origins: [new URL(host.url).origin] } });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on("console", (m: ConsoleMessage) => void consoleLines.push({ type: m.type(), url: m.location().url, text: m.text() }));
  await page.addInitScript(PROBE);
  await page.goto(`${host.url}?autoConnect=${encodeURIComponent(server.url)}`);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  if (host?.child.pid !== undefined && host.child.exitCode === null) {
    const exited = new Promise((resolve) => host!.child.once("exit", resolve));
    process.kill(-host.child.pid, "SIGTERM");
    await exited;
  }
  await server?.close();
});

const probe = async (): Promise<Probe> => (await view.evaluate("window.__probe")) as Probe;

describe(`the gift widget in the mcp-use Inspector ${HOST_VERSION}`, () => {
  it("renders the input and the result of suggest_gifts called from the Tools tab, toolInput null first", async () => {
    await page.getByTestId("tool-item-suggest_gifts").click({ timeout: 60_000 });
    await page.getByTestId("tool-param-occasion").fill(ARGS.occasion);
    await page.getByTestId("tool-param-budget").fill(String(ARGS.budget));
    await page.getByTestId("tool-param-recipient").fill(ARGS.recipient);
    await page.getByTestId("tool-execution-execute-button").click();

    widget = page.frameLocator('iframe[title="MCP App: suggest_gifts"]').frameLocator("iframe");
    await expect.poll(() => widget.locator("li[data-gift]").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const call = served.find((c) => c.tool === "suggest_gifts");
    expect(call?.arguments).toEqual(ARGS);
    const gifts = (call!.result as { gifts: { name: string; price: number }[] }).gifts;
    expect(await widget.locator("li[data-gift] .name").allTextContents()).toEqual(gifts.map((g) => g.name));
    expect(await widget.locator("li[data-gift] .price").allTextContents()).toEqual(gifts.map((g) => `$${g.price}`));
    await expect.poll(() => widget.locator("h1").textContent()).toBe("Ideas for a birthday, up to $100");

    // The view: the sandbox proxy's srcdoc frame, on an opaque origin.
    view = page.frames().find((f) => f.url() === "about:srcdoc" && f.parentFrame()?.url().includes("/inspector/sandbox") === true)!;
    expect(view).toBeDefined();
    expect(await view.evaluate("location.origin")).toBe("null");
    // The host's window.openai was there with a null toolInput when the document loaded; the
    // widget waited for the input rather than reading the null.
    expect((await probe()).inputs).toEqual(["null"]);
    expect(await view.evaluate("window.openai.toolInput")).toEqual(ARGS);
  }, 120_000);

  it("calls the app-only gift_details through the host to the server and shows its answer", async () => {
    const before = served.length;
    const dice = widget.locator('li[data-gift="Dice set"]');
    await dice.locator("button").click();
    await expect.poll(() => dice.locator(".details").textContent(), { timeout: 15_000 }).toBe("Seven polyhedral dice for tabletop games. (games)");
    expect(served.slice(before)).toEqual([
      {
        tool: "gift_details",
        arguments: { name: "Dice set" },
        result: { name: "Dice set", description: "Seven polyhedral dice for tabletop games.", category: "games" },
      },
    ]);
  });

  it("is refused by the host a tool whose visibility leaves out the app, and the server never sees it", async () => {
    const before = served.length;
    // A tools/call of the view's own, over the MCP Apps postMessage channel, as any view's bridge sends it.
    const answer = await view.evaluate(`new Promise((resolve) => {
      const id = "refused-by-visibility";
      addEventListener("message", (e) => { if (e.source === parent && e.data && e.data.id === id) resolve(e.data); });
      parent.postMessage({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "suggest_gifts", arguments: ${JSON.stringify(ARGS)} } }, "*");
    })`);
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: "refused-by-visibility", error: { message: 'Tool "suggest_gifts" is not available to this app' } });
    // The same through the host's window.openai (suggest_gifts also has openai/widgetAccessible: false;
    // this host reads only the visibility).
    const viaOpenai = await view.evaluate(`window.openai.callTool("suggest_gifts", ${JSON.stringify(ARGS)}).then(() => "called", (e) => e.message)`);
    expect(viaOpenai).toBe('Tool "suggest_gifts" is not available to this app');
    expect(served.slice(before)).toEqual([]);
  });

  it("breaks no CSP and logs no error in the view", async () => {
    // A marker violation (an image from an undeclared origin), caused last: once it is reported, any earlier one is too.
    const marker = "https://csp-marker.example/pixel.png";
    await view.evaluate(`document.body.append(Object.assign(document.createElement("img"), { src: ${JSON.stringify(marker)} }))`);
    await expect.poll(async () => (await probe()).violations.some((v) => v.includes(marker)), { timeout: 10_000 }).toBe(true);
    const { violations, errors } = await probe();
    expect(violations.filter((v) => !v.includes(marker))).toEqual([]);
    expect(errors).toEqual([]);
    const fromView = consoleLines.filter((l) => l.url === "about:srcdoc" && !l.text.includes(marker));
    expect(fromView.filter((l) => l.type === "error" || /Content Security Policy|Refused to|EvalError|unsafe-eval/i.test(l.text))).toEqual([]);
  });
});
