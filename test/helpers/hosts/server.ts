/**
 * A test MCP Apps host on two loopback origins: the host page (`http://127.0.0.1:<a>/`, the
 * official AppBridge, ./host.page.ts) and its sandbox proxy (`http://localhost:<b>/sandbox.html`,
 * ./sandbox.page.ts), served with the Content-Security-Policy built from the view resource's
 * `_meta.ui.csp` as an HTTP header (no `unsafe-eval`), whose violations are reported back here.
 * The view's tools/call goes host page -> this server -> `callTool` (the real server, in process).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { HostPageConfig } from "./config.js";

export interface PageOptions {
  host: "mcp-apps" | "none";
  /** How the sandbox mounts the view: `srcdoc`, or `document.write` into a frame of its origin. */
  mount: "srcdoc" | "write";
  /** Inject `window.openai` with a null toolInput before the view runs (`write` only). */
  openaiNull?: boolean;
  html: string;
  /** The resource's `_meta.ui.csp`. */
  csp: { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[]; baseUriDomains?: string[] };
  tool: string;
  arguments: { [key: string]: unknown };
  result: unknown;
}

export interface TestHosts {
  /** Registers a page; its URL on the host origin. */
  page(options: PageOptions): string;
  /** The tools/call requests the host forwarded, and what the server answered. */
  calls: { tool: string; arguments: unknown; result: unknown }[];
  /** What the host's AppBridge heard from the view (messages, links, sizes), by kind. */
  events: { page: string; kind: string; params: unknown }[];
  /** The CSP violation reports the browser sent (`report-uri`). */
  reports: { [key: string]: unknown }[];
  close(): Promise<void>;
}

const HERE = fileURLToPath(new URL(".", import.meta.url));

/** The two page scripts, bundled once for the browser. */
async function bundle(entry: string): Promise<string> {
  const { build } = await import("esbuild");
  const out = await build({
    entryPoints: [`${HERE}${entry}`],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

/** The sandbox's header policy: the view's origins from `_meta.ui.csp`, inline code allowed (the view's own meta policy hashes it), never eval. */
function sandboxPolicy(csp: PageOptions["csp"], reportUri: string): string {
  const r = (csp.resourceDomains ?? []).join(" ");
  const list = (origins: string[] | undefined, fallback: string) => (origins?.length ? origins.join(" ") : fallback);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${r}`,
    `style-src 'self' 'unsafe-inline' ${r}`,
    `img-src 'self' data: blob: ${r}`,
    `font-src 'self' data: ${r}`,
    `media-src 'self' data: blob: ${r}`,
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src 'self' blob: data: ${(csp.frameDomains ?? []).join(" ")}`,
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
    `report-uri ${reportUri}`,
  ]
    .map((d) => d.trim())
    .join("; ");
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

export async function serveTestHosts(callTool: (name: string, args: unknown) => Promise<unknown>): Promise<TestHosts> {
  const [hostJs, sandboxJs] = await Promise.all([bundle("host.page.ts"), bundle("sandbox.page.ts")]);
  const configs = new Map<string, HostPageConfig>();
  const pages = new Map<string, PageOptions>();
  const calls: TestHosts["calls"] = [];
  const events: TestHosts["events"] = [];
  const reports: TestHosts["reports"] = [];
  let sandboxOrigin = "";

  const send = (res: ServerResponse, status: number, type: string, text: string, headers: { [key: string]: string } = {}) => {
    res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...headers });
    res.end(text);
  };

  const hostServer = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://host");
      if (req.method === "GET" && url.pathname === "/")
        return send(
          res,
          200,
          "text/html",
          '<!doctype html><html><body><iframe id="sandbox" style="width:100%;height:640px;border:0"></iframe><script type="module" src="/host.js"></script></body></html>',
        );
      if (url.pathname === "/host.js") return send(res, 200, "text/javascript", hostJs);
      if (url.pathname === "/favicon.ico") return send(res, 204, "image/x-icon", "");
      if (url.pathname === "/config.json") {
        const config = configs.get(url.searchParams.get("id") ?? "");
        return config ? send(res, 200, "application/json", JSON.stringify(config)) : send(res, 404, "text/plain", "no such page");
      }
      if (req.method === "POST" && url.pathname === "/api/call") {
        const { name, arguments: args } = JSON.parse(await body(req)) as { name: string; arguments: unknown };
        try {
          const result = await callTool(name, args);
          calls.push({ tool: name, arguments: args, result });
          return send(res, 200, "application/json", JSON.stringify({ result }));
        } catch (error) {
          return send(res, 200, "application/json", JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
        }
      }
      if (req.method === "POST" && url.pathname === "/api/event") {
        const { id, kind, params } = JSON.parse(await body(req)) as { id: string; kind: string; params: unknown };
        events.push({ page: id, kind, params });
        return send(res, 200, "application/json", "{}");
      }
      send(res, 404, "text/plain", "not found");
    })();
  });

  const sandboxServer = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://sandbox");
      if (url.pathname === "/sandbox.html") {
        const page = pages.get(url.searchParams.get("id") ?? "");
        if (!page) return send(res, 404, "text/plain", "no such page");
        const policy = sandboxPolicy(page.csp, `${sandboxOrigin}/csp-report`);
        return send(res, 200, "text/html", '<!doctype html><html><body style="margin:0"><script src="/sandbox.js"></script></body></html>', {
          "content-security-policy": policy,
        });
      }
      if (url.pathname === "/sandbox.js") return send(res, 200, "text/javascript", sandboxJs);
      if (url.pathname === "/favicon.ico") return send(res, 204, "image/x-icon", "");
      if (req.method === "POST" && url.pathname === "/csp-report") {
        const text = await body(req);
        try {
          const report = JSON.parse(text) as { "csp-report"?: { [key: string]: unknown } };
          reports.push(report["csp-report"] ?? report);
        } catch {
          reports.push({ unparsed: text });
        }
        return send(res, 204, "text/plain", "");
      }
      send(res, 404, "text/plain", "not found");
    })();
  });

  const hostPort = await listen(hostServer, "127.0.0.1");
  const sandboxPort = await listen(sandboxServer, "127.0.0.1");
  // Another origin than the host page's: another host name as well as another port.
  sandboxOrigin = `http://localhost:${sandboxPort}`;
  let next = 0;
  return {
    page(options) {
      const id = String(++next);
      pages.set(id, options);
      const query = new URLSearchParams({ id, mode: options.mount, ...(options.openaiNull ? { openai: "null" } : {}) });
      configs.set(id, {
        host: options.host,
        html: options.html,
        tool: options.tool,
        arguments: options.arguments,
        result: options.result,
        sandboxUrl: `${sandboxOrigin}/sandbox.html?${query.toString()}`,
      });
      return `http://127.0.0.1:${hostPort}/?id=${id}`;
    },
    calls,
    events,
    reports,
    async close() {
      hostServer.closeAllConnections();
      sandboxServer.closeAllConnections();
      await Promise.all([new Promise((r) => hostServer.close(r)), new Promise((r) => sandboxServer.close(r))]);
    },
  };
}
