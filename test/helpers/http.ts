/** Raw HTTP to a server on loopback: exactly the request a test writes, the answer as it came. */
import { request } from "node:http";

export interface RawHttpResponse {
  status: number;
  body: string;
  headers: Record<string, unknown>;
}

/** POSTs `body` (JSON, with the Accept header Streamable HTTP wants) and reads the whole answer. */
export function post(url: string, body: string, headers: Record<string, string> = {}, path?: string): Promise<RawHttpResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: path ?? target.pathname,
        method: "POST",
        headers: { host: target.host, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A response read as it comes (an SSE stream): its status, the text so far, and when it ends. */
export interface OpenResponse {
  status: number;
  text(): string;
  /** Resolves when the response ends (the server ended it, or the connection closed). */
  ended: Promise<void>;
  done(): boolean;
  /** Closes the connection (the client goes away). */
  close(): void;
}

/** Sends a request and resolves at its response headers, the body collected as it arrives. */
export function open(url: string, method: "GET" | "POST", headers: Record<string, string>, body?: string): Promise<OpenResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method, headers: { host: target.host, ...headers } }, (res) => {
      let text = "";
      let finished = false;
      const ended = new Promise<void>((done) => res.on("close", () => ((finished = true), done())));
      res.on("data", (d) => (text += d));
      resolve({ status: res.statusCode ?? 0, text: () => text, ended, done: () => finished, close: () => req.destroy() });
    });
    req.on("error", reject);
    req.end(body);
  });
}
