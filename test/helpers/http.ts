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
