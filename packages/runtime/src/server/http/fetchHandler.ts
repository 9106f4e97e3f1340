/**
 * The Web-standard entry: a generated server as `(request: Request) => Promise<Response>`, for
 * every platform that serves fetch handlers (Deno.serve, Bun.serve, Cloudflare Workers, a Lambda
 * function translating its events, Node through serveHttp).
 */
import type { AnyLists, FactoryHooks, ServerFactory } from "../server.js";
import type { ServerDefinition } from "../../shared/definition.js";
import { StateRefused } from "../state/openState.js";
import { errorAnswer, openEndpoint, type EndpointOptions, type ServingParts } from "./endpoint.js";

/** Options of `createFetchHandler`: the endpoint's, and where the environment comes from. */
export interface FetchHandlerOptions extends EndpointOptions {
  /**
   * The environment variables the server reads (MCP_REQUEST_STATE_SECRET, REDIS_URL, MCP_AUTH_*):
   * default `process.env` where there is one. On Cloudflare Workers, pass the Worker's `env`.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A server as a fetch handler: call it with a Request; `fetch` is the same function, so `export default handler` serves on Deno, Bun and Workers. */
export interface FetchHandler<L extends AnyLists = AnyLists> {
  (request: Request): Promise<Response>;
  readonly fetch: (request: Request) => Promise<Response>;
  /** Switches the server's lists at run time (docs/guides/lists.md); announced to every replica's clients with Redis. */
  readonly lists: L;
  /** Tells the clients subscribed to `uri` that it changed, from code outside a request (docs/guides/serving.md). */
  notifyResourceUpdated(uri: string): Promise<void>;
  /**
   * Opens the state (Redis when REDIS_URL is set) and the authorization gate now rather than at
   * the first request, so that a misconfiguration throws here. Not at a Worker's global scope:
   * Workers allow I/O only while handling a request.
   */
  ready(): Promise<void>;
  /** Closes the 2025-era sessions, the listen streams and the state. */
  close(): Promise<void>;
}

/** The environment of the process, where the platform has one (Node, Deno and Bun do; Workers without nodejs_compat do not). */
function processEnv(): Record<string, string | undefined> {
  const found = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return found ?? {};
}

/**
 * Serves a factory's servers as a fetch handler, to both eras: what the generated
 * `createFetchHandler` calls. The options are checked now; nothing opens until the first request.
 */
export function createFetchHandlerWith<L extends AnyLists>(
  factory: ServerFactory & FactoryHooks & { readonly lists: L },
  definition: ServerDefinition,
  options: FetchHandlerOptions = {},
  parts: ServingParts = {},
): FetchHandler<L> {
  const { env, ...endpointOptions } = options;
  const endpoint = openEndpoint(factory, definition, endpointOptions, parts, { env: env ?? processEnv() });
  const handler = async (request: Request): Promise<Response> => {
    try {
      // null: the client left while sending its body; nobody reads this.
      return (await endpoint.handle(request)) ?? errorAnswer(400, -32600, "Bad Request: the body ended early");
    } catch (error) {
      console.error("[mcpgen] HTTP request failed:", error);
      // What the server cannot serve at all (it refuses to open) is said; anything else stays unsaid.
      if (error instanceof StateRefused) return errorAnswer(500, -32603, error.message);
      return errorAnswer(500, -32603, "Internal error");
    }
  };
  return Object.assign(handler, {
    fetch: handler,
    lists: factory.lists,
    notifyResourceUpdated: (uri: string) => endpoint.notifyResourceUpdated(uri),
    ready: async () => void (await endpoint.ready()),
    close: () => endpoint.close(),
  });
}
