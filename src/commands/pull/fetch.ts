/**
 * `mcpgen pull`, part 1: connect to a live MCP server as a client (stdio command or Streamable
 * HTTP URL, either protocol era) and read its four lists, every page, as the wire has them.
 */
import type { JsonObject } from "../../common/objects.js";
import { limitedFetch } from "./http.js";
import { httpStatus, insufficientScope, probeAuthorization } from "./authProbe.js";
import { explainFailure } from "./explain.js";
import { Budget, type LimitError, pullLimits, type PullLimits } from "./limits.js";
import { shellLine } from "../../common/shell.js";
import { fitStdio, type FittedStdio } from "./stdio.js";
import { isPlainObject } from "../../common/objects.js";

export type PullTarget =
  { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string } | { kind: "http"; url: URL; headers: Record<string, string> };

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
  /** name and version checked as strings when it was read. */
  serverInfo: JsonObject & { name: string; version: string };
  instructions?: string;
  capabilities: JsonObject;
  era: "legacy" | "modern";
  protocolVersion: string;
  tools: JsonObject[];
  resources: JsonObject[];
  resourceTemplates: JsonObject[];
  prompts: JsonObject[];
  /** What pull took in a lenient way (a list method the server lacks), one sentence each. */
  warnings: string[];
}

/** A failure the user can act on (no stack trace): the server cannot be reached or answers garbage; `fix` says what to do when it is known. */
export class PullError extends Error {
  constructor(
    message: string,
    readonly fix?: string,
  ) {
    super(message);
  }
}

/** Results as sent: a pass-through Standard Schema, so the SDK does not re-parse (and reorder) them. */
const RAW = { "~standard": { version: 1, vendor: "mcpgen", validate: (value: unknown) => ({ value }) } };

/** JSON-RPC's code for a method the server does not have. */
const METHOD_NOT_FOUND = -32601;

/** What each list holds, for messages. */
const NOUNS: Record<string, string> = { tools: "tools", resources: "resources", resourceTemplates: "resource templates", prompts: "prompts" };

/**
 * The client capabilities pull declares: none. Written in the manifest's header, since a server may
 * list more to a client that declares more (`check` reads it).
 */
export const PULL_CLIENT_CAPABILITIES = {};

/** More pages than this is a server that never stops paging. */
const MAX_PAGES = 1000;

export async function fetchServer(target: PullTarget, options: PullOptions): Promise<PulledServer> {
  const { Client, StreamableHTTPClientTransport, deserializeMessage } = await import("@modelcontextprotocol/client");
  const negotiation = options.era === "auto" ? { mode: "auto" } : options.era === "modern" ? { mode: { pin: "2026-07-28" } } : { mode: "legacy" };
  const client = new Client({ name: "mcpgen-pull", version: "1.0.0" }, { capabilities: PULL_CLIENT_CAPABILITIES, versionNegotiation: negotiation as never });
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
    // --era modern has no fallback, so its server/discover probe may run on this very process (the
    // SDK does so for a subclass) instead of a sibling whose exit status and stderr nobody sees.
    const Transport = options.era === "modern" ? class InPlaceProbe extends StdioClientTransport {} : StdioClientTransport;
    const sdk = new Transport({
      command: target.command,
      args: target.args,
      env,
      stderr: "pipe",
      maxBufferSize: budget.limits.answerBytes,
      ...(target.cwd ? { cwd: target.cwd } : {}),
    });
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
  const context = { era: options.era, stderr, ...(target.kind === "stdio" ? { command: target.command } : {}) };
  const explain = (error: unknown, doing: string) =>
    new PullError(`${doing} ${where} failed: ${explainFailure(exceeded ?? error, { ...context, ...(stdio ? { stdio } : {}), ...negotiated() })}`);
  const negotiated = () => {
    const era = client.getProtocolEra();
    return era === "legacy" || era === "modern" ? { negotiated: era } : {};
  };
  const guard = <T>(step: Promise<T>): Promise<T> => Promise.race([step, stopped]);
  try {
    await guard(
      withTimeout(
        client.connect(transport as never, { timeout: options.timeoutMs } as never),
        options.timeoutMs,
        `no answer to the handshake within ${options.timeoutMs} ms`,
      ),
    ).catch(async (error: unknown) => {
      throw (
        (target.kind === "http" && (await authorizationFailure(error, target, where, options.timeoutMs, limitedFetch(budget)))) ||
        explain(error, "connecting to")
      );
    });
    const era = client.getProtocolEra() ?? "legacy";
    const capabilities = (client.getServerCapabilities() ?? {}) as JsonObject;
    const info = client.getServerVersion() as JsonObject | undefined;
    if (!info || typeof info.name !== "string" || typeof info.version !== "string") {
      throw new PullError(`${where} did not say who it is (serverInfo with name and version), so no manifest can be written for it`);
    }
    // The same object, its key order kept, typed with what was just checked.
    const serverInfo = { ...info, name: info.name, version: info.version };
    const warnings: string[] = [];
    const list = async (method: string, key: string, capability: string): Promise<JsonObject[]> => {
      if (!isPlainObject(capabilities[capability])) return [];
      const items: JsonObject[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const result = (await guard(
          client.request({ method, params: cursor === undefined ? {} : { cursor } } as never, RAW as never, { timeout: options.timeoutMs } as never),
        ).catch((error: unknown) => {
          // A server that declares a capability but not all its list methods (resources without
          // resources/templates/list is common): nothing of that kind, rather than no manifest.
          if (page === 0 && (error as { code?: unknown }).code === METHOD_NOT_FOUND) {
            warnings.push(
              `${serverInfo.name} (${where}) declares \`${capability}\` but answers ${method} with ${METHOD_NOT_FOUND} Method not found: taken as no ${NOUNS[key] ?? key}`,
            );
            return { [key]: [] };
          }
          throw scopeFailure(error, `${method} on ${where}`) ?? explain(error, `${method} on`);
        })) as unknown;
        if (!isPlainObject(result) || !Array.isArray(result[key]))
          throw new PullError(`${where} answered ${method} without a \`${key}\` list: ${JSON.stringify(result).slice(0, 200)}`);
        try {
          budget.items((result[key] as unknown[]).length);
        } catch (error) {
          throw explain(error, `${method} on`);
        }
        for (const item of result[key] as unknown[]) {
          if (!isPlainObject(item))
            throw new PullError(`${where} answered ${method} with an item that is not an object: ${JSON.stringify(item).slice(0, 200)}`);
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
      warnings,
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

/** A 401 at the handshake, said with the server's terms (its metadata, authorization servers, scopes) and the fix. */
async function authorizationFailure(
  error: unknown,
  target: { url: URL; headers: Record<string, string> },
  where: string,
  timeoutMs: number,
  fetchFn: typeof fetch,
): Promise<PullError | undefined> {
  const scope = scopeFailure(error, `connecting to ${where}`);
  if (scope) return scope;
  if (httpStatus(error) !== 401) return undefined;
  const needed = await probeAuthorization(target.url, target.headers, timeoutMs, fetchFn);
  return needed && new PullError(`connecting to ${where} failed: ${needed.message}`, needed.fix);
}

/** A 403 insufficient_scope (the SDK's InsufficientScopeError): the token given lacks scopes. */
function scopeFailure(error: unknown, doing: string): PullError | undefined {
  const scope = insufficientScope(error);
  if (!scope) return undefined;
  const metadata = scope.resourceMetadataUrl ? ` (its Protected Resource Metadata: ${scope.resourceMetadataUrl})` : "";
  return new PullError(
    `${doing} failed: the server refused the token given: insufficient_scope${scope.scope ? `, it needs ${JSON.stringify(scope.scope)}` : ""}${metadata}`,
    `pass a token with ${scope.scope ? `scope "${scope.scope}"` : "the scopes it needs"} in --header "Authorization: Bearer <token>"`,
  );
}
