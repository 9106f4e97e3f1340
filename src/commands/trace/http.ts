/**
 * `mcpgen trace --http URL`: a recording reverse proxy for Streamable HTTP. Every request
 * (POST, GET, DELETE, OPTIONS, any path) goes to the upstream's origin with the same method, path
 * and query, headers and body bytes; only the hop-by-hop headers are dropped and `Host` becomes the
 * upstream's (generated servers refuse a foreign Host). The response streams back as it arrives,
 * event streams included. A client points at the proxy with the upstream URL's own path:
 * upstream `https://api.example.com/v1/mcp` → `http://127.0.0.1:PORT/v1/mcp`.
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

  const server = http.createServer((req, res) => {
    const exchange = ++exchanges;
    // Done once the answer went out whole (its copy recorded first) or the connection closed.
    const finished = new Promise<void>((resolve) => res.once("close", resolve));
    inFlight.add(finished);
    void finished.then(() => inFlight.delete(finished));
    const pathAndQuery = req.url ?? "/";
    const base: TraceHttp = { exchange, method: req.method ?? "GET", path: redactPath(pathAndQuery), headers: {} };
    const requestCopy = requestSide(trace, { ...base, headers: redactHeaders(req.headers, sessions) }, req.headers, options.maxBodyBytes);

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
      const responseCopy = responseSide(trace, responseHttp, response.headers, options.maxBodyBytes);
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
