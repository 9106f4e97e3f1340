/**
 * `mcpgen/harness`: a mock MCP Apps host for trying and testing widgets. It serves a host page
 * built on the official AppBridge (@modelcontextprotocol/ext-apps/app-bridge) that mounts a
 * widget, as the server serves it (resources/read), in a sandboxed iframe; sends it the tool's
 * input and result (from a scenario: the manifest's examples, or a live call); and forwards the
 * widget's tool calls to the real server, in process or over HTTP, refusing those a host must
 * refuse (tools whose visibility leaves out `app`) and recording them all. The `openai` bridge
 * injects ChatGPT's `window.openai` into the frame instead (pageOpenAi.ts, answered by the host
 * page through openaiHost.ts), refusing calls to tools that are not `openai/widgetAccessible`;
 * its approval mode holds the tool's input back until the page's Approve button is pressed.
 *
 * Loopback only; for development and tests. Like the generated servers it refuses requests whose
 * `Host` or `Origin` is not itself (DNS rebinding, a page the developer visits), and requests a
 * browser marks as sent from another site; its API takes JSON only, with the token of this run
 * (random, written into its pages), so no other page can call tools or read what was recorded.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { INLINE_SCRIPT_BUILD, inlineScript } from "../generator/bundle/inlineScript.js";
import { escapeHtml } from "../generator/bundle/widgets.js";
import { safeJson } from "../generator/print/literal.js";
import { hostAllowed, originAllowed } from "@mcpgen/runtime/codegen";
import { callRefusal, initialGlobals, type OpenAiGlobals, type ToolResult } from "./openaiHost.js";

/** The header the harness's pages send their run's token in; every /api/ request needs it. */
export const HARNESS_TOKEN_HEADER = "x-mcpgen-harness-token";

/** One widget opened by one tool call: the arguments, and the result (or none: the tool is called for real). */
export interface Scenario {
  /** The widget's `ui://` URI. */
  widget: string;
  /** The tool whose call opens it. */
  tool: string;
  arguments: { [key: string]: unknown };
  /** Its structured output, or a whole CallToolResult; absent: the harness calls the tool with the arguments. */
  result?: unknown;
}

export interface HarnessOptions {
  /**
   * The server: a factory of SDK Servers, served in this process (the generated
   * `createServerFactory(handlers)`), or the URL of a Streamable HTTP endpoint.
   */
  server: ((context?: { era?: "legacy" | "modern" }) => unknown) | string | URL;
  scenarios: readonly Scenario[];
  /** Port (default 0: a free one); the harness binds 127.0.0.1. */
  port?: number;
  /**
   * This build's id (`mcpgen dev`): the pages then follow GET /events and reload themselves when a
   * harness on this port names another build (after a rebuild, or a restart on the same port).
   */
  build?: string;
  /** Problems to show over every page (`mcpgen dev`: type errors); setProblems changes them in the open pages. Only with `build`. */
  problems?: PageProblems;
}

/** What `mcpgen dev` shows over the harness's pages: a heading, and one text per problem. */
export interface PageProblems {
  heading: string;
  problems: readonly string[];
}

/** A tool call a widget made through the host. */
export interface HarnessCall {
  tool: string;
  arguments: unknown;
  /** Why the host refused it (a tool not visible to apps, or not widget-accessible under `window.openai`), or undefined. */
  refused?: string;
  /** The server's answer. */
  result?: unknown;
}

/** What else the widget asked the host: messages, links, model context, display modes. */
export interface HarnessEvent {
  kind: string;
  params: unknown;
}

export interface Harness {
  /** The index page, listing the scenarios. */
  url: string;
  /**
   * The page that mounts scenario `index` with the MCP Apps bridge, or ChatGPT's `window.openai`.
   * `approval` (openai): the call is approval-gated, so `toolInput` and `toolOutput` are null
   * until the page's Approve button (`#approve`) is pressed.
   */
  scenarioUrl(index: number, bridge?: "mcp-apps" | "openai", options?: { approval?: boolean }): string;
  readonly calls: HarnessCall[];
  readonly events: HarnessEvent[];
  /** This run's token: its pages send it in the `x-mcpgen-harness-token` header of every /api/ request (GET /api/calls included). */
  readonly token: string;
  /** Shows these problems over the open pages (with `build`), or takes them away (undefined, or an empty list). */
  setProblems(problems: PageProblems | undefined): void;
  close(): Promise<void>;
}

type CallToolResult = { content: unknown[]; structuredContent?: unknown; isError?: boolean; _meta?: unknown };
type Tool = { name: string; _meta?: { ui?: { visibility?: string[]; resourceUri?: string }; [key: string]: unknown } };
/** The SDK v2 Client, through what the harness calls. */
interface Client {
  listTools(params?: { cursor?: string }): Promise<{ tools: Tool[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments: object }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; text?: string; mimeType?: string; _meta?: unknown }[] }>;
  close(): Promise<void>;
}

export async function serveHarness(options: HarnessOptions): Promise<Harness> {
  const { client, close: disconnect } = await connect(options.server);
  const tools = new Map<string, Tool>();
  for (let cursor: string | undefined, page = 0; page < 100; page++) {
    const listed = await client.listTools(cursor === undefined ? {} : { cursor });
    for (const tool of listed.tools) tools.set(tool.name, tool);
    cursor = listed.nextCursor;
    if (!cursor) break;
  }
  pageScripts ??= bundlePageScripts().catch((error: unknown) => {
    pageScripts = undefined;
    throw error;
  });
  const scripts = await pageScripts;
  const calls: HarnessCall[] = [];
  const events: HarnessEvent[] = [];
  const token = randomBytes(32).toString("base64url");
  /** The globals of each openai page loaded, for its frame (the same call, not a second one); the latest 100. */
  const loads = new Map<string, OpenAiGlobals>();
  const reloader = options.build === undefined ? "" : reloadScript(options.build);
  /** The open GET /events streams, and what they show over the page. */
  const streams = new Set<ServerResponse>();
  let problems: PageProblems | undefined = options.problems;
  let port = 0;

  const http = createServer((req, res) => {
    route(req, res).catch((error: unknown) => json(res, 500, { error: error instanceof Error ? error.message : String(error) }));
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = refusal(req);
    if (refused) return json(res, refused.status, { error: refused.error });
    const url = new URL(req.url!, "http://127.0.0.1");
    const parts = url.pathname.split("/").filter(Boolean);
    const bridge = url.searchParams.get("bridge") === "openai" ? "openai" : "mcp-apps";
    const approval = url.searchParams.get("approval") === "1";
    if (req.method === "GET" && parts.length === 0) return html(res, indexPage(options.scenarios, reloader));
    if (req.method === "GET" && url.pathname === "/events" && options.build !== undefined) return buildEvents(res, options.build, streams, problems);
    const scenario = parts[1] !== undefined ? options.scenarios[Number(parts[1])] : undefined;
    if (req.method === "GET" && parts[0] === "scenario" && scenario) return html(res, await hostPage(scenario, Number(parts[1]), bridge, approval));
    if (req.method === "GET" && parts[0] === "frame" && scenario) return html(res, await framePage(scenario, bridge, url.searchParams.get("load") ?? ""));
    if (req.method === "POST" && url.pathname === "/api/call") {
      const body = await readJson(req);
      if (!isObject(body)) return json(res, 400, { error: "the body must be a JSON object: {name, arguments, bridge?}" });
      return json(res, 200, await forward(String(body["name"]), (body["arguments"] ?? {}) as object, body["bridge"] === "openai" ? "openai" : "mcp-apps"));
    }
    if (req.method === "POST" && url.pathname === "/api/event") {
      const body = await readJson(req);
      if (!isObject(body)) return json(res, 400, { error: "the body must be a JSON object: {kind, params}" });
      events.push(body as unknown as HarnessEvent);
      return json(res, 200, {});
    }
    if (req.method === "GET" && url.pathname === "/api/calls") return json(res, 200, { calls, events });
    json(res, 404, { error: "not found" });
  }

  /**
   * Why a request is refused before it is routed: a target that is not a path, a Host or Origin
   * that is not the harness (the generated servers' checks), a browser request sent from another
   * site (Sec-Fetch-Site), and on /api/: no token of this run, or a POST body that is not JSON
   * (a form or text/plain POST needs no CORS preflight: any page could send one).
   */
  function refusal(req: IncomingMessage): { status: number; error: string } | undefined {
    if (!req.url?.startsWith("/")) return { status: 400, error: "Bad Request: the request target must be a path" };
    const rules = { host: "127.0.0.1", port };
    if (!hostAllowed(req.headers.host, rules)) return { status: 403, error: "Forbidden: Host not allowed" };
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, rules)) return { status: 403, error: "Forbidden: Origin not allowed" };
    const site = req.headers["sec-fetch-site"];
    if (site === "cross-site" || site === "same-site") return { status: 403, error: "Forbidden: a request from another site" };
    if (!req.url.startsWith("/api/")) return undefined;
    if (!tokenMatches(req.headers[HARNESS_TOKEN_HEADER]))
      return { status: 403, error: `Forbidden: the ${HARNESS_TOKEN_HEADER} header must hold this run's token` };
    if (req.method === "POST" && !/^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? ""))
      return { status: 415, error: "Unsupported Media Type: Content-Type must be application/json" };
    return undefined;
  }

  function tokenMatches(value: string | string[] | undefined): boolean {
    if (typeof value !== "string") return false;
    const given = Buffer.from(value);
    const wanted = Buffer.from(token);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }

  /**
   * A widget's tools/call: refused as the bridge's hosts do (MCP Apps: a visibility without `app`;
   * ChatGPT: not `openai/widgetAccessible`), else sent to the server.
   */
  async function forward(name: string, args: object, bridge: "mcp-apps" | "openai"): Promise<{ result?: unknown; error?: string }> {
    const refused = callRefusal(tools.get(name), name, bridge);
    if (refused !== undefined) {
      calls.push({ tool: name, arguments: args, refused });
      return { error: refused };
    }
    const result = await client.callTool({ name, arguments: args });
    calls.push({ tool: name, arguments: args, result });
    return { result };
  }

  /** The host page of one scenario: the bridge, the tool, its input and result (and for openai, the globals its frame starts with). */
  async function hostPage(scenario: Scenario, index: number, bridge: "mcp-apps" | "openai", approval: boolean): Promise<string> {
    const tool = tools.get(scenario.tool);
    if (!tool) throw new Error(`scenario ${index}: the server has no tool ${scenario.tool}`);
    const result = (
      scenario.result === undefined ? await client.callTool({ name: scenario.tool, arguments: scenario.arguments }) : asCallToolResult(scenario.result)
    ) as ToolResult;
    let load: string | undefined;
    if (bridge === "openai") {
      load = randomBytes(12).toString("base64url");
      loads.set(load, initialGlobals({ arguments: scenario.arguments, result }, approval));
      if (loads.size > 100) loads.delete(loads.keys().next().value!);
    }
    const config = { index, bridge, token, tool, arguments: scenario.arguments, result, approval, ...(load === undefined ? {} : { load }) };
    const data = JSON.stringify(config).replace(/</g, "\\u003c");
    return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>mcpgen harness: ${escapeHtml(scenario.tool)}</title>\n<style>body{font-family:system-ui,sans-serif;margin:16px;background:#f6f6f8}iframe{border:1px solid #ccc;border-radius:12px;background:#fff;width:480px;height:360px}</style>\n</head>\n<body>\n<p>${escapeHtml(scenario.tool)} → ${escapeHtml(scenario.widget)} (${bridge}${approval ? ", approval-gated" : ""})</p>\n${approval ? '<p><button id="approve" type="button">Approve</button></p>\n' : ""}<script type="application/json" id="config">${data}</script>\n<script type="module">${scripts.host}</script>\n${reloader}</body>\n</html>\n`;
  }

  /**
   * The widget's HTML, as resources/read serves it; for the `openai` bridge, with `window.openai`
   * injected before its Content-Security-Policy meta element (a policy given in a meta element
   * governs only what follows it, as a host's wrapper page would), the policy left as served.
   */
  async function framePage(scenario: Scenario, bridge: "mcp-apps" | "openai", load: string): Promise<string> {
    const read = await client.readResource({ uri: scenario.widget });
    const text = read.contents[0]?.text;
    if (typeof text !== "string") throw new Error(`resources/read ${scenario.widget} answered no text`);
    if (bridge === "mcp-apps") return text;
    const globals = loads.get(load);
    if (!globals) throw new Error("this frame's page is gone: reload the scenario page");
    const data = JSON.stringify(globals)
      .replace(/</g, "\\u003c")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029");
    const script = `<script>globalThis.__mcpgenOpenAiGlobals=${data};${scripts.openai}</script>\n`;
    const at = text.search(/<meta http-equiv="Content-Security-Policy"/i);
    const before = at === -1 ? text.search(/<script\b/i) : at;
    if (before === -1) throw new Error(`the widget ${scenario.widget} has no script and no Content-Security-Policy to put window.openai before`);
    return `${text.slice(0, before)}${script}${text.slice(before)}`;
  }

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/`,
    scenarioUrl: (index, bridge = "mcp-apps", options = {}) => `${base}/scenario/${index}?bridge=${bridge}${options.approval ? "&approval=1" : ""}`,
    calls,
    events,
    token,
    setProblems: (next) => {
      problems = next;
      for (const res of streams) res.write(problemsEvent(problems));
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await disconnect();
    },
  };
}

/** A Client of the server: over an in-memory pair to a factory served here, or over Streamable HTTP. */
async function connect(server: HarnessOptions["server"]): Promise<{ client: Client; close: () => Promise<void> }> {
  const { Client: SdkClient, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const sdk = new SdkClient({ name: "mcpgen-harness", version: "1.0.0" });
  if (typeof server === "function") {
    const { InMemoryTransport } = await import("@modelcontextprotocol/server");
    const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const served = serveStdio(server as never, { transport: serverSide, onerror: () => {} });
    await sdk.connect(clientSide);
    return { client: sdk as unknown as Client, close: async () => (await sdk.close(), await served.close()) };
  }
  await sdk.connect(new StreamableHTTPClientTransport(new URL(String(server))));
  return { client: sdk as unknown as Client, close: () => sdk.close() };
}

/**
 * The page scripts, bundled once per process: they are mcpgen's own files, the same for every
 * harness (`mcpgen dev` starts one per build). A failed bundle is not kept.
 */
let pageScripts: Promise<{ host: string; openai: string }> | undefined;

/** The host page's script and the `window.openai` shim, bundled from src/harness/ (shipped with mcpgen). */
async function bundlePageScripts(): Promise<{ host: string; openai: string }> {
  const { build } = await import("esbuild");
  const source = (name: string) => fileURLToPath(new URL(`../../src/harness/${name}`, import.meta.url));
  const bundle = async (file: string, format: "esm" | "iife") => {
    const out = await build({
      entryPoints: [source(file)],
      bundle: true,
      write: false,
      format,
      platform: "browser",
      target: "es2022",
      minify: true,
      logLevel: "silent",
      ...INLINE_SCRIPT_BUILD,
    });
    return inlineScript(out.outputFiles[0]!.text);
  };
  const [host, openai] = await Promise.all([bundle("page.ts", "esm"), bundle("pageOpenAi.ts", "iife")]);
  return { host, openai };
}

function asCallToolResult(value: unknown): CallToolResult {
  if (typeof value === "object" && value !== null && Array.isArray((value as CallToolResult).content)) return value as CallToolResult;
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** The styles of the index page: the look of the starter and gift widgets (system font, cards). */
const INDEX_STYLE = [
  ":root{font-family:system-ui,sans-serif;color:#1c1c1e;background:#f6f6f8}",
  "body{max-width:760px;margin:0 auto;padding:24px 16px}",
  "h1{font-size:20px;margin:0 0 4px}",
  "p{margin:0 0 16px;color:#3a3a3c;font-size:14px}",
  "ul{list-style:none;margin:0;padding:0;display:grid;gap:8px}",
  "li{display:flex;flex-wrap:wrap;align-items:center;gap:8px 12px;background:#fff;border:1px solid #d8d8dc;border-radius:8px;padding:10px 12px}",
  ".what{flex:1;min-width:220px}",
  ".tool{font-weight:600}",
  "code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;color:#6e6e73;overflow-wrap:anywhere}",
  ".widget,.args{display:block;margin-top:2px}",
  "a{font-size:14px;color:#1c1c1e;text-decoration:none;border:1px solid #b0b0b6;background:#f4f4f6;border-radius:6px;padding:3px 10px}",
  "a:hover{background:#e8e8ec}",
].join("\n");

/** The index page: one card per scenario (tool, widget, arguments), opening it in either bridge. */
function indexPage(scenarios: readonly Scenario[], reloader: string): string {
  const cards = scenarios.map((s, i) => {
    const args = JSON.stringify(s.arguments);
    const shown = args.length > 120 ? `${args.slice(0, 119)}…` : args;
    return (
      `<li><div class="what"><span class="tool">${escapeHtml(s.tool)}</span>` +
      `<code class="widget">${escapeHtml(s.widget)}</code><code class="args">${escapeHtml(shown)}</code></div>` +
      `<a href="/scenario/${i}">MCP Apps</a><a href="/scenario/${i}?bridge=openai">window.openai</a><a href="/scenario/${i}?bridge=openai&amp;approval=1">approval-gated</a></li>`
    );
  });
  const intro =
    scenarios.length === 0
      ? "No scenarios: give a tool that has a widget an example (examples: arguments and result) in the manifest, then generate."
      : "Each scenario is a call of a tool from the manifest's examples: it opens the tool's widget in a mock host, with the MCP Apps bridge or ChatGPT's window.openai.";
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>mcpgen harness</title>\n<style>\n${INDEX_STYLE}\n</style>\n</head>\n<body>\n<h1>Widgets</h1>\n<p>${escapeHtml(intro)}</p>\n<ul>\n${cards.join("\n")}\n</ul>\n${reloader}</body>\n</html>\n`;
}

/**
 * GET /events: a server-sent event naming this build, then the problems to show over the page
 * (`event: problems`, a JSON list, again on each change), then comments every 15 s so proxies keep
 * the stream open. A browser whose stream drops (the harness restarted) reconnects within `retry`
 * ms. It tells nothing a page's own project does not hold, so it needs no token.
 */
function buildEvents(res: ServerResponse, build: string, streams: Set<ServerResponse>, problems: PageProblems | undefined): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
  res.write(`retry: 250\ndata: ${build.replace(/[\r\n]/g, "")}\n\n`);
  if (problems && problems.problems.length > 0) res.write(problemsEvent(problems));
  streams.add(res);
  const beat = setInterval(() => res.write(": keep-alive\n\n"), 15_000);
  beat.unref();
  res.on("close", () => {
    clearInterval(beat);
    streams.delete(res);
  });
}

/** The problems as one server-sent event: JSON has no raw line break, so it is one `data:` line. */
function problemsEvent(problems: PageProblems | undefined): string {
  const shown = problems && problems.problems.length > 0 ? { heading: problems.heading, problems: problems.problems } : { heading: "", problems: [] };
  return `event: problems\ndata: ${JSON.stringify(shown)}\n\n`;
}

/**
 * The pages' script of `mcpgen dev`: reload when the harness answers another build than this
 * page's; show the problems it sends over the page (as text: nothing in them is markup), and take
 * them away when it sends none.
 */
function reloadScript(build: string): string {
  const script = `const s=new EventSource("/events");
s.onmessage=(e)=>{if(e.data!==${safeJson(JSON.stringify(build))})location.reload()};
s.addEventListener("problems",(e)=>{const {heading,problems:list}=JSON.parse(e.data);let o=document.getElementById("mcpgen-problems");
if(list.length===0){o?.remove();return}
if(!o){o=document.createElement("div");o.id="mcpgen-problems";o.setAttribute("role","alert");o.style.cssText="position:fixed;inset:0;z-index:2147483647;overflow:auto;margin:0;padding:24px;background:rgba(24,24,28,.94);color:#fde8e8;font:13px/1.5 ui-monospace,monospace";document.body.append(o)}
const h=document.createElement("h2");h.style.cssText="font:600 16px system-ui,sans-serif;color:#ff8080;margin:0 0 12px";
h.textContent=heading;
const pre=document.createElement("pre");pre.style.whiteSpace="pre-wrap";pre.textContent=list.join("\\n\\n");o.replaceChildren(h,pre)})`;
  return `<script>${script}</script>\n`;
}

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** The body as JSON, or undefined when it is not JSON. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  try {
    return JSON.parse(await readBody(req));
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > 4 * 1024 * 1024) req.destroy(new Error("request body too large"));
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
