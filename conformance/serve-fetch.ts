/**
 * Serves the conformance server from its generated `createFetchHandler` on the runtime that runs
 * this file, Deno (`Deno.serve`) or Bun (`Bun.serve`), on 127.0.0.1 and a free port; prints the
 * endpoint as server.ts does. `npm run conformance -- --runtime deno|bun` starts it.
 */
import { createFetchHandler } from "../generated/mcp-conformance-test-server/index.js";
import { handlers } from "./handlers.js";

type Handler = (request: Request) => Promise<Response>;
/** What this file uses of each runtime's global (neither is in Node's types). */
interface Runtimes {
  Deno?: { serve(options: { hostname: string; port: number; onListen(address: { port: number }): void }, handler: Handler): unknown };
  Bun?: { serve(options: { hostname: string; port: number; idleTimeout: number; fetch: Handler }): { port: number } };
}

const handler = createFetchHandler(handlers, { eventStore: true, retryInterval: 500, pageSize: 50 });
const { Deno, Bun } = globalThis as Runtimes;
const listening = (port: number) => console.log(`listening on http://127.0.0.1:${port}/mcp`);
if (Deno) Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => listening(port) }, handler);
// idleTimeout 0: Bun closes a connection quiet for 10 s, before the SDK's 15 s keep-alive on a standing stream.
else if (Bun) listening(Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: handler }).port);
else throw new Error("serve-fetch.ts runs on Deno or Bun; on Node, conformance/server.ts serves serveHttp");
