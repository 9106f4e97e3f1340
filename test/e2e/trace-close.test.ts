/**
 * Stopping `mcpgen trace --http` while an answer is under way: the proxy takes no new connection,
 * lets the answer end, records it, then closes. (A client may hold its answer's bytes before the
 * upstream's end reaches the proxy: stopping at once lost the last answer of a session.)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { traceHttp } from "../../src/commands/trace/http.js";
import { openTrace } from "../../src/commands/trace/writer.js";
import { tempProject } from "../helpers/tmp.js";
import { readTrace } from "../helpers/trace.js";
import { until } from "../helpers/wait.js";

describe("closing the HTTP recorder", () => {
  it("waits for an answer under way, records it, and then closes", async () => {
    let asked = false;
    const upstream = createServer((req, res) => {
      asked = true;
      req.resume();
      // The answer comes 300 ms after the request: the recorder is told to stop in between.
      setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":{}}'), 300);
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
    const file = path.join(tempProject(), "close.jsonl");
    const trace = openTrace(file, { transport: "http", upstream: url });
    const proxy = await traceHttp({ upstream: new URL(url), host: "127.0.0.1", port: 0, trace });
    try {
      const answer = fetch(proxy.url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      await until(() => asked, "the request to reach the upstream");
      const closed = proxy.close();
      const response = await answer;
      expect([response.status, await response.text()]).toEqual([200, '{"jsonrpc":"2.0","id":1,"result":{}}']);
      await closed;
      await trace.close();
      const messages = readTrace(file).messages.map((m) => [m.from, m.message]);
      expect(messages).toEqual([
        ["client", { jsonrpc: "2.0", id: 1, method: "ping" }],
        ["server", { jsonrpc: "2.0", id: 1, result: {} }],
      ]);
      // Closed: no new connection is taken.
      await expect(fetch(proxy.url, { method: "POST", body: "{}" })).rejects.toThrow();
    } finally {
      await new Promise((resolve) => upstream.close(resolve));
    }
  });
});
