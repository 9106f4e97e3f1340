/**
 * `mcpgen pull`, part 1: connect to a live MCP server as a client (stdio command or Streamable
 * HTTP URL, either protocol era) and read its four lists, every page, as the wire has them.
 */
import type { JsonObject } from "../model/types.js";
import { limitedFetch } from "./http.js";
import { Budget, LimitError, pullLimits, type PullLimits } from "./limits.js";
import { shellLine } from "./shell.js";
import { fitStdio, type FittedStdio } from "./stdio.js";
import { isPlainObject } from "../validate/shape.js";

export type PullTarget =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: "http"; url: URL; headers: Record<string, string> };

export interface PullOptions {
  /** Which handshake: "auto" (2026-07-28 where offered, else 2025), "legacy" or "modern". */
  era: "auto" | "legacy" | "modern";
  /** Milliseconds for connecting and for each request. */
  timeoutMs: number;
  /** The source as messages show it (credentials left out). */
  shown?: string;
  /** How much to read before giving up (default: `pullLimits()`, see limits.ts). */
  limits?: PullLimits;
}

/** What a server said about itself and the four lists, each item verbatim. */
export interface PulledServer {
  serverInfo: JsonObject;
  instructions?: string;
  capabilities: JsonObject;
  era: "legacy" | "modern";
  protocolVersion: string;
  tools: JsonObject[];
  resources: JsonObject[];
  resourceTemplates: JsonObject[];
  prompts: JsonObject[];
}

/** A failure the user can act on (no stack trace): the server cannot be reached or answers garbage. */
export class PullError extends Error {}

/** Results as sent: a pass-through Standard Schema, so the SDK does not re-parse (and reorder) them. */
const RAW = { "~standard": { version: 1, vendor: "mcpgen", validate: (value: unknown) => ({ value }) } };

/** More pages than this is a server that never stops paging. */
const MAX_PAGES = 1000;

export async function fetchServer(target: PullTarget, options: PullOptions): Promise<PulledServer> {
  const { Client, StreamableHTTPClientTransport, deserializeMessage } = await import("@modelcontextprotocol/client");
  const negotiation = options.era === "auto" ? { mode: "auto" } : options.era === "modern" ? { mode: { pin: "2026-07-28" } } : { mode: "legacy" };
  const client = new Client({ name: "mcpgen-pull", version: "1.0.0" }, { versionNegotiation: negotiation as never });
  // A limit passed inside a transport may only reach the SDK's error handler (an SSE stream that
  // breaks is retried, a closed stdio pipe fails the request as "Connection closed"): every step
  // below also races `stopped`, which fails as soon as any limit is passed, with its message.
  let exceeded: LimitError | undefined;
  let stop: (error: LimitError) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(() => {});
  let stdio: FittedStdio | undefined;
  const budget = new Budget(options.limits ?? pullLimits(), (error) => {
    if (exceeded) return;
    exceeded = error;
    stdio?.kill();
    stop(error);
  });
  const stderr: string[] = [];
  let transport: unknown;
  if (target.kind === "stdio") {
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    // maxBufferSize is the limit where the SDK reads by itself (the version probe's process).
    const env = { ...(process.env as Record<string, string>), ...target.env };
    const sdk = new StdioClientTransport({ command: target.command, args: target.args, env, stderr: "pipe", maxBufferSize: budget.limits.answerBytes, ...(target.cwd ? { cwd: target.cwd } : {}) });
    sdk.stderr?.on("data", (d: Buffer) => {
      stderr.push(String(d));
      if (stderr.length > 50) stderr.shift();
    });
    stdio = fitStdio(sdk, budget, deserializeMessage);
    transport = sdk;
  } else {
    transport = new StreamableHTTPClientTransport(target.url, { requestInit: { headers: target.headers }, fetch: limitedFetch(budget) });
  }
  const where = options.shown ?? (target.kind === "stdio" ? `\`${shellLine([target.command, ...target.args])}\`` : target.url.origin);
  const explain = (error: unknown, doing: string) => new PullError(`${doing} ${where} failed: ${exceeded?.message ?? describe(error, target, stdio?.exit())}${tail(stderr)}`);
  const guard = <T>(step: Promise<T>): Promise<T> => Promise.race([step, stopped]);
  try {
    await guard(withTimeout(client.connect(transport as never, { timeout: options.timeoutMs } as never), options.timeoutMs, `no answer to the handshake within ${options.timeoutMs} ms`)).catch((error: unknown) => {
      throw explain(error, "connecting to");
    });
    const era = client.getProtocolEra() ?? "legacy";
    const capabilities = (client.getServerCapabilities() ?? {}) as JsonObject;
    const serverInfo = client.getServerVersion() as JsonObject | undefined;
    if (!serverInfo || typeof serverInfo.name !== "string" || typeof serverInfo.version !== "string") {
      throw new PullError(`${where} did not say who it is (serverInfo with name and version), so no manifest can be written for it`);
    }
    const list = async (method: string, key: string, capability: string): Promise<JsonObject[]> => {
      if (!isPlainObject(capabilities[capability])) return [];
      const items: JsonObject[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const result = (await guard(client.request({ method, params: cursor === undefined ? {} : { cursor } } as never, RAW as never, { timeout: options.timeoutMs } as never)).catch((error: unknown) => {
          throw explain(error, `${method} on`);
        })) as unknown;
        if (!isPlainObject(result) || !Array.isArray(result[key])) throw new PullError(`${where} answered ${method} without a \`${key}\` list: ${JSON.stringify(result).slice(0, 200)}`);
        try {
          budget.items((result[key] as unknown[]).length);
        } catch (error) {
          throw explain(error, `${method} on`);
        }
        for (const item of result[key] as unknown[]) {
          if (!isPlainObject(item)) throw new PullError(`${where} answered ${method} with an item that is not an object: ${JSON.stringify(item).slice(0, 200)}`);
          items.push(item as JsonObject);
        }
        const next = result.nextCursor;
        if (next === undefined || next === null || next === "") return items;
        if (typeof next !== "string") throw new PullError(`${where} answered ${method} with a nextCursor that is not a string`);
        if (next === cursor) throw new PullError(`${where} answered ${method} with the same nextCursor twice (${JSON.stringify(next)})`);
        cursor = next;
      }
      throw new PullError(`${where} answered ${method} with more than ${MAX_PAGES} pages`);
    };
    const instructions = client.getInstructions();
    return {
      serverInfo,
      ...(typeof instructions === "string" ? { instructions } : {}),
      capabilities,
      era,
      protocolVersion: client.getNegotiatedProtocolVersion() ?? "",
      tools: await list("tools/list", "tools", "tools"),
      resources: await list("resources/list", "resources", "resources"),
      resourceTemplates: await list("resources/templates/list", "resourceTemplates", "resources"),
      prompts: await list("prompts/list", "prompts", "prompts"),
    };
  } finally {
    await client.close().catch(() => {});
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** An error in the user's words: the command that did not start, the host that refused, the server that quit. */
function describe(error: unknown, target: PullTarget, exit: string | undefined): string {
  if (error instanceof LimitError) return error.message;
  const e = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  if (exit !== undefined && e.code === "CONNECTION_CLOSED") return `the server's process ${exit} before it answered`;
  // The system error code, however deep (fetch wraps it: probe error -> TypeError -> cause).
  let code: string | undefined;
  for (let c: unknown = error, depth = 0; c && depth < 8 && code === undefined; depth++) {
    const x = c as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof x.code === "string" && /^E[A-Z]+$/.test(x.code)) code = x.code;
    c = x.cause ?? (x as { data?: unknown }).data ?? (Array.isArray(x.errors) ? x.errors[0] : undefined);
  }
  if (code === "ENOENT" && target.kind === "stdio") return `the command \`${target.command}\` was not found (check the PATH, or give its full path)`;
  if (code === "EACCES" && target.kind === "stdio") return `the command \`${target.command}\` cannot be run (permission denied)`;
  if (code === "ECONNREFUSED") return "the connection was refused (is the server running, on that port?)";
  if (code === "ENOTFOUND") return "the host name does not resolve";
  // Each message down the chain once: "probe failed: fetch failed (bad port)".
  const messages: string[] = [];
  for (let c: unknown = error, depth = 0; c && depth < 8; depth++) {
    const x = c as { message?: unknown; cause?: unknown; data?: unknown };
    const m = typeof x.message === "string" ? x.message : typeof c === "string" ? c : "";
    if (m && !messages.some((seen) => seen.includes(m))) messages.push(m);
    c = x.cause ?? (typeof x.data === "object" ? x.data : undefined);
  }
  const [first = String(error), ...rest] = messages.map(issues);
  return rest.length ? `${first} (${rest.join("; ")})` : first;
}

/** The SDK's schema errors end in a JSON list of issues: said as `path: message` instead. */
function issues(message: string): string {
  const at = message.indexOf(": [");
  if (at === -1) return message;
  try {
    const list = JSON.parse(message.slice(at + 2)) as { path?: unknown[]; message?: unknown }[];
    if (!Array.isArray(list)) return message;
    const said = list.map((i) => `${Array.isArray(i.path) && i.path.length ? `${i.path.join(".")}: ` : ""}${String(i.message)}`);
    return `${message.slice(0, at)}: ${said.join("; ")}`;
  } catch {
    return message;
  }
}

function tail(stderr: string[]): string {
  const text = stderr.join("").trim();
  if (!text) return "";
  const lines = text.split("\n").slice(-8);
  return `\nthe server's stderr ended with:\n${lines.map((l) => `  ${l}`).join("\n")}`;
}
