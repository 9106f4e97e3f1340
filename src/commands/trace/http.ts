/**
 * `mcpgen trace --http URL`: a recording reverse proxy for Streamable HTTP. Every request
 * (POST, GET, DELETE, OPTIONS, any path) goes to the upstream's origin with the same method, path
 * and query, headers and body bytes; only the hop-by-hop headers are dropped and `Host` becomes the
 * upstream's (generated servers refuse a foreign Host). The response streams back as it arrives,
 * event streams included. A client points at the proxy with the upstream URL's own path:
 * upstream `https://api.example.com/v1/mcp` → `http://127.0.0.1:PORT/v1/mcp`.
 *
 * Since the upstream sees its own Host, the proxy checks the client's instead, before anything
 * goes upstream: a Host that does not name the proxy, or an Origin of another site, is refused
 * with 403 (DNS-rebinding protection, as the SDK's servers have it), so the recorder never lets
 * through what the server would refuse.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { requestSide, responseSide } from "./httpRecord.js";
import type { SideStream } from "./sideStream.js";
import type { TraceHttp } from "./record.js";
import { redactHeaders, redactPath, SessionNames } from "./redactLog.js";
import type { TraceSink } from "./writer.js";

/** Headers of one connection, not of the message (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "proxy-authenticate"]);

/** How long closing the proxy waits for the answers under way to end. */
const CLOSE_GRACE_MS = 2_000;

export interface HttpTraceOptions {
  upstream: URL;
  host: string;
  port: number;
  trace: TraceSink;
  maxBodyBytes?: number;
  /** Host names the proxy also answers to, besides loopback and the address it listens on. */
  allowHosts?: readonly string[];
}

export interface HttpTrace {
  /** The proxy's URL for the upstream's path: what the client connects to. */
  url: string;
  close(): Promise<void>;
}

export async function traceHttp(options: HttpTraceOptions): Promise<HttpTrace> {
  const { upstream, trace } = options;
  const sessions = new SessionNames();
  const client = upstream.protocol === "https:" ? https : http;
  let exchanges = 0;
  /** Exchanges whose answer is still going through (and being recorded): close waits for them. */
  const inFlight = new Set<Promise<void>>();

  /** The host names this proxy answers to (DNS-rebinding protection), and its port once it listens. */
  const names = allowedNames(options.host, options.allowHosts ?? []);
  let port = options.port;

  const server = http.createServer((req, res) => {
    const exchange = ++exchanges;
    const refused = refusal(req.headers.host, req.headers.origin, names, port);
    if (refused !== undefined) {
      // Before anything goes upstream: the recorder must not let through what the server would refuse.
      trace.note(`refused: ${refused}`, {
        from: "client",
        http: { exchange, method: req.method ?? "GET", path: redactPath(req.url ?? "/"), headers: {}, status: 403 },
      });
      req.resume();
      res.writeHead(403, { "content-type": "text/plain; charset=utf-8" }).end(`mcpgen trace: ${refused}\n`);
      return;
    }
    // Done once the answer went out whole (its copy recorded first) or the connection closed.
    const finished = new Promise<void>((resolve) => res.once("close", resolve));
    inFlight.add(finished);
    void finished.then(() => inFlight.delete(finished));
    const pathAndQuery = req.url ?? "/";
    const base: TraceHttp = { exchange, method: req.method ?? "GET", path: redactPath(pathAndQuery), headers: {} };
    // Off the MCP endpoint (an authorization server on the same origin, say), bodies are redacted.
    const endpoint = new URL(pathAndQuery, "http://proxy.invalid").pathname === upstream.pathname ? "mcp" : "other";
    const requestCopy = requestSide(trace, { ...base, headers: redactHeaders(req.headers, sessions) }, req.headers, endpoint, options.maxBodyBytes);

    // The client's headers in their order and case, Host made the upstream's.
    const headers = withoutHopByHop(req.rawHeaders);
    const forwarded: string[] = [];
    for (let i = 0; i < headers.length; i += 2) if (headers[i]!.toLowerCase() !== "host") forwarded.push(headers[i]!, headers[i + 1]!);
    forwarded.push("Host", upstream.host);
    const target = new URL(pathAndQuery.startsWith("/") ? pathAndQuery : `/${pathAndQuery}`, upstream.origin);
    const upstreamRequest = client.request(target, { method: req.method ?? "GET", headers: forwarded, setHost: false });
    let answered = false;
    let clientGone = false;

    upstreamRequest.on("response", (response) => {
      answered = true;
      const status = response.statusCode ?? 502;
      const responseHttp: TraceHttp = { ...base, status, headers: redactHeaders(response.headers, sessions) };
      const responseCopy = responseSide(trace, responseHttp, response.headers, endpoint, options.maxBodyBytes);
      res.writeHead(status, response.statusMessage, withoutHopByHop(response.rawHeaders));
      // An event stream's headers go out now, not with its first event.
      res.flushHeaders();
      relay(response, res, responseCopy);
      response.on("error", () => res.destroy());
      response.on("aborted", () => {
        // Not when it is the proxy that cut it, because the client went away.
        if (!clientGone) trace.note("the upstream cut the response short", { from: "server", http: responseHttp });
        res.destroy();
      });
    });
    upstreamRequest.on("error", (error: NodeJS.ErrnoException) => {
      if (answered || res.destroyed) return;
      const reason = error.code ?? error.message;
      trace.note(`the upstream did not answer: ${reason}`, { from: "server", http: { ...base, status: 502 } });
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
        res.end(`mcpgen trace: the upstream ${upstream.origin} did not answer (${reason}).\n`);
      }
    });

    relay(req, upstreamRequest, requestCopy);
    // The client went away before the whole answer (it closed an event stream, or cancelled).
    res.on("close", () => {
      if (res.writableFinished) return;
      clientGone = true;
      trace.note(answered ? "the client closed the connection before the end of the response" : "the client closed the connection before any response", {
        from: "client",
        http: base,
        event: "client-closed",
      });
      upstreamRequest.destroy();
    });
  });
  // Answers can take as long as the server takes; the proxy sets no limit of its own on them.
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  port = address.port;
  return {
    url: `http://${host}:${address.port}${upstream.pathname}`,
    // New connections are refused at once; the answers under way get CLOSE_GRACE_MS to end (a client may
    // have its answer's bytes before the upstream's end, whose copy is recorded then), and the rest
    // (an event stream left open) is cut.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        const cut = () => server.closeAllConnections();
        const grace = setTimeout(cut, CLOSE_GRACE_MS);
        void Promise.all(inFlight).then(() => {
          clearTimeout(grace);
          cut();
        });
      }),
  };
}

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

function isLoopback(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return LOOPBACK_NAMES.includes(name) || name === "::1" || /^127\.\d+\.\d+\.\d+$/.test(name);
}

/**
 * The host names a request may name (Host without its port, an Origin's host): the loopback names,
 * the address listened on (unless a wildcard), and those given with --allow-host. The upstream
 * sees its own Host (the proxy rewrites it, or it would refuse every request), so this check is the
 * one a rebinding page meets: a page of evil.example resolved to 127.0.0.1 sends
 * `Host: evil.example:PORT`, refused here as the server would refuse it.
 */
function allowedNames(listened: string, extra: readonly string[]): ReadonlySet<string> {
  const bare = listened.replace(/^\[|\]$/g, "").toLowerCase();
  const own = bare === "0.0.0.0" || bare === "::" || bare === "" ? [] : [bare.includes(":") ? `[${bare}]` : bare];
  return new Set([...LOOPBACK_NAMES, ...own, ...extra.map((name) => name.toLowerCase())]);
}

/** Why a request is refused (its Host is not the proxy's, or its Origin is a foreign site's), or undefined. */
function refusal(host: string | undefined, origin: string | string[] | undefined, names: ReadonlySet<string>, port: number): string | undefined {
  const hint = "; give the name with --allow-host if it is yours";
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host ?? "");
  if (!match || !names.has(match[1]!.toLowerCase()) || (match[2] !== undefined && Number(match[2]) !== port))
    return `Host ${JSON.stringify(host ?? "")} does not name this proxy: refused, as a server protected from DNS rebinding refuses it${hint}`;
  if (origin === undefined) return undefined;
  // `null` is what a sandboxed frame or a file page of any site sends: not a page of this machine.
  if (Array.isArray(origin) || origin === "null") return `Origin ${JSON.stringify(origin)} names no site: refused`;
  let hostname: string;
  try {
    hostname = new URL(origin).hostname;
  } catch {
    return `Origin ${JSON.stringify(origin)} is not a URL: refused`;
  }
  // A browser page may use the proxy from this machine, or from a name the proxy answers to.
  return isLoopback(hostname) || names.has(hostname.toLowerCase())
    ? undefined
    : `Origin ${origin} is another site: refused, as a server protected from DNS rebinding refuses it${hint}`;
}

/** Raw headers (name, value, name, value...) without the hop-by-hop ones and those `Connection` names. */
/**
 * Copies a body from one side to the other as it comes, holding the source while the other side
 * is full, and gives each chunk to the recording's side copy after it is passed on.
 */
function relay(from: http.IncomingMessage, to: http.ServerResponse | http.ClientRequest, copy: SideStream): void {
  from.on("data", (chunk: Buffer) => {
    if (!to.write(chunk)) {
      from.pause();
      to.once("drain", () => from.resume());
    }
    copy.write(chunk);
  });
  from.on("end", () => {
    to.end();
    copy.end();
  });
}

function withoutHopByHop(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() === "connection") for (const token of raw[i + 1]!.split(",")) named.add(token.trim().toLowerCase());
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}
