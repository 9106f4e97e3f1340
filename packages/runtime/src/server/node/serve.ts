/**
 * stdio for a generated server, in both protocol eras: the SDK's serveStdio pins each connection
 * to the era of its first message (initialize: 2025-era; a request with the 2026-07-28 envelope:
 * modern) and calls the factory for it. The lines themselves go through mcpgen's own transport,
 * which treats its input as hostile: a line that is not JSON gets -32700 (the SDK's skips it
 * silently), one that is not a JSON-RPC message -32600, one over the size limit an error instead
 * of memory (the SDK's closes the connection), and the server keeps serving.
 */
import type { Readable, Writable } from "node:stream";
import type { AnyLists, FactoryHooks, ServerFactory } from "../server.js";
import { JSONRPCMessageSchema, serveStdio, type JsonRpcMessage, type SdkTransport } from "../engine/sdk.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../engine/options.js";
import type { SharedStatePart } from "../engine/parts.js";
import { openState } from "../state/openState.js";

export interface StdioOptions {
  /** Largest accepted line in bytes (default 4 MiB); a longer one is answered -32600 and dropped. */
  maxMessageBytes?: number;
}

export interface StdioHandle<L extends AnyLists = AnyLists> {
  /** Stops serving: closes the connection (in-flight requests are aborted). */
  close(): Promise<void>;
  /** Switches the server's lists at run time (docs/guides/lists.md). */
  readonly lists: L;
  /** Tells the client, if subscribed to `uri` (resources/subscribe, or a listen stream naming it), that it changed: for code outside a request. */
  notifyResourceUpdated(uri: string): Promise<void>;
}

/**
 * Serves a factory's servers over this process's stdin/stdout (or the given streams) until stdin
 * closes, answering 2025-era and 2026-07-28 clients alike.
 */
export async function serveStdioWith<L extends AnyLists>(
  factory: ServerFactory & FactoryHooks & { readonly lists: L },
  options: StdioOptions & { input?: Readable; output?: Writable } = {},
  /** `redisState` of `@mcpgen/runtime/server/redis`: tasks, lists and events shared by replicas when REDIS_URL is set. */
  parts: { redis?: SharedStatePart } = {},
): Promise<StdioHandle<L>> {
  const closeTasks = (await openState(factory, process.env, { redis: parts.redis })).close;
  const definition = factory.definition;
  // Said once, at start: the manifest's rules are not applied here, and whoever runs this should know.
  if (definition?.auth !== undefined)
    console.error(
      `[mcpgen] ${definition.serverInfo.name} declares auth, and stdio checks no tokens: every tool, resource and prompt serves whoever starts this process (docs/guides/authorization.md). Serve it over HTTP to check tokens.`,
    );
  const input = options.input ?? process.stdin;
  const transport = new LineTransport(input, options.output ?? process.stdout, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
  const served = serveStdio(factory, { transport, onerror: (error) => reportTransportError(error) });
  // The client is gone: the store's connections must not keep the process alive.
  input.once("end", () => void closeTasks());
  return {
    lists: factory.lists,
    notifyResourceUpdated: async (uri) => factory.notifyResourceUpdated?.(uri),
    close: async () => {
      await served.close();
      await closeTasks();
    },
  };
}

/** Transport-level problems (a client that went away, a write after close) go to stderr, not to stdout. */
function reportTransportError(error: Error): void {
  console.error(`[mcpgen] ${error.message}`);
}

/**
 * Newline-delimited JSON-RPC over a pair of streams (MCP's stdio framing), answering what the
 * SDK's stdio transport only reports to onerror: invalid JSON (-32700), messages that are not
 * JSON-RPC (-32600, with their id when they have one), and lines over the size limit.
 */
class LineTransport implements SdkTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** True while skipping the rest of a line that went over the limit. */
  private discarding = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxBytes: number,
  ) {}

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("error", this.onStreamError);
    this.input.on("end", this.onEnd);
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);
  private readonly onEnd = () => void this.close();

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      if (!this.discarding) this.line(Buffer.concat(this.chunks).toString("utf8").replace(/\r$/, ""));
      this.chunks = [];
      this.size = 0;
      this.discarding = false;
      start = nl + 1;
    }
    this.take(chunk.subarray(start));
  };

  private take(part: Buffer): void {
    if (this.discarding || part.length === 0) return;
    this.size += part.length;
    if (this.size > this.maxBytes) {
      this.discarding = true;
      this.chunks = [];
      this.reply(null, -32600, `Invalid Request: message larger than ${this.maxBytes} bytes`);
      return;
    }
    this.chunks.push(part);
  }

  private line(text: string): void {
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.reply(null, -32700, "Parse error: the line is not JSON");
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = typeof value === "object" && value !== null && "id" in value ? (value as { id: unknown }).id : null;
      return this.reply(typeof id === "string" || typeof id === "number" ? id : null, -32600, "Invalid Request: not a JSON-RPC 2.0 message");
    }
    try {
      // The message as sent (the schema only checked it): params reach the engine unchanged.
      this.onmessage?.(value as JsonRpcMessage);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private reply(id: string | number | null, code: number, message: string): void {
    this.output.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.closed || this.output.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("error", this.onStreamError);
    this.input.off("end", this.onEnd);
    this.onclose?.();
  }
}
