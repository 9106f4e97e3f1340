/**
 * The generated client's engine: typed calls over any connected SDK Client (SDK v2's, in either
 * protocol era, or SDK 1.x's), with outputs checked against the manifest's outputSchemas.
 */
import type { JsonObject, ServerDefinition, WireTool } from "../shared/definition.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "../shared/mcp.js";
import { OutputValidationError, ToolCallError } from "../shared/errors.js";
import { PASS_THROUGH, TaskEngine, type TaskRequestOptions, type TaskStartOptions, type TaskWaitOptions, type ToolTask } from "./clientTasks.js";
import type { WireTransport } from "./taskWire.js";
import { fromAuthenticateResult, fromSdkScopeError } from "./authErrors.js";
import type { ToolTaskState } from "../shared/taskState.js";

export type { ToolTask } from "./clientTasks.js";
export type { ToolTaskState } from "../shared/taskState.js";
export { ToolAuthorizationError } from "./authErrors.js";
import { parseUriTemplate } from "../shared/uriTemplate.js";
import { SchemaValidators } from "../shared/validation.js";
import { ListChanges, type ListChangeKind, type ListChangeSubscription } from "./listChanges.js";

export type { ListChangeKind, ListChangeSubscription } from "./listChanges.js";

/** A tools/list entry of a tool the manifest declares, its name typed by the manifest (`ToolName`). */
export type ListedTool<N extends string> = WireTool & { name: N };

/** Per-call options, passed to the SDK Client (both SDK lines take these). */
export interface RequestOptions {
  /** Aborts the call (the client sends the cancellation). */
  signal?: AbortSignal;
  /** Milliseconds before the call fails (the SDK's default is 60 s). */
  timeout?: number;
  /** Called with each notifications/progress of the call. */
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeout?: number;
}

/**
 * An SDK 1.x Client (@modelcontextprotocol/sdk), seen through the calls made here. It has no
 * getProtocolEra, which tells it apart: its callTool takes a result schema before the options.
 */
export interface SdkClientV1 {
  getProtocolEra?: undefined;
  callTool(params: { name: string; arguments: JsonObject }, resultSchema: undefined, options?: RequestOptions): Promise<unknown>;
  readResource(params: { uri: string }, options?: RequestOptions): Promise<unknown>;
  getPrompt(params: { name: string; arguments: Record<string, string> }, options?: RequestOptions): Promise<unknown>;
  /**
   * For tasks: a request with a pass-through result schema. 1.x types the schema as a zod schema
   * (`never` here accepts that signature); at run time it calls the schema's `safeParse`, which
   * PASS_THROUGH has.
   */
  request(request: { method: string; params?: JsonObject }, resultSchema: never, options?: TaskRequestOptions): Promise<unknown>;
  /** Every SDK Client has it; optional so that a stand-in Client need not. */
  listTools?(params?: { cursor?: string }, options?: RequestOptions): Promise<unknown>;
  fallbackNotificationHandler?: ((notification: { method: string; params?: JsonObject }) => Promise<void>) | undefined;
}

/** An SDK v2 Client (@modelcontextprotocol/client), seen through the calls made here. */
export interface SdkClientV2 {
  getProtocolEra(): "legacy" | "modern" | undefined;
  callTool(params: { name: string; arguments: JsonObject; _meta?: JsonObject }, options?: RequestOptions & { toolDefinition?: JsonObject }): Promise<unknown>;
  readResource(params: { uri: string }, options?: RequestOptions): Promise<unknown>;
  getPrompt(params: { name: string; arguments: Record<string, string> }, options?: RequestOptions): Promise<unknown>;
  /** For tasks: a request with a pass-through result schema. */
  request(request: { method: string; params?: JsonObject }, resultSchema: typeof PASS_THROUGH, options?: TaskRequestOptions): Promise<unknown>;
  /** For 2026-07-28 tasks: the connected transport (see taskWire.ts). */
  readonly transport?: WireTransport | undefined;
  /** Every SDK Client has it; optional so that a stand-in Client need not. */
  listTools?(params?: { cursor?: string }, options?: RequestOptions): Promise<unknown>;
  fallbackNotificationHandler?: ((notification: { method: string; params?: JsonObject }) => Promise<void>) | undefined;
}

/** A connected SDK Client of either line. */
export type SdkClient = SdkClientV1 | SdkClientV2;

/** Options of a task-capable tool's method: the request's, and the task's wait (when it runs as one). */
export type TaskCallOptions = RequestOptions & TaskWaitOptions;

export interface ClientOptions {
  /** Check structured outputs against outputSchema (default true). */
  validate?: boolean;
  /**
   * The longest string, in UTF-16 code units, tested against an outputSchema `pattern` that runs
   * on RE2JS (default 100,000): a longer one fails the check untested (a hostile server's output
   * costs this client linear time, not length × a lookbehind's repetitions).
   */
  maxPatternInputLength?: number;
  /** Time for outputSchema patterns on RE2JS per output checked, in ms (default 100): a string that would not fit fails the check untested. */
  maxPatternMs?: number;
}

export class ManifestClient {
  private readonly tools = new Map<string, WireTool>();
  /** What the SDK v2 Client gets as `toolDefinition`: the tool without its outputSchema. */
  private readonly definitions = new Map<string, JsonObject>();
  private readonly validators: SchemaValidators;
  /** The task-capable tools, by name: "optional" or "required" (the definition's `taskSupport`). */
  private readonly taskSupport = new Map<string, "optional" | "required">();
  readonly tasks: TaskEngine;
  private readonly listChanges: ListChanges;

  /** True when a tool has `execution.taskSupport`: the generated client then has `tasks`. */
  get hasTaskTools(): boolean {
    return this.taskSupport.size > 0;
  }

  constructor(
    readonly sdk: SdkClient,
    definition: ServerDefinition,
    private readonly options: ClientOptions = {},
  ) {
    for (const name of ["maxPatternInputLength", "maxPatternMs"] as const) {
      const value = options[name];
      if (value !== undefined && (!Number.isInteger(value) || value <= 0))
        throw new RangeError(`${name} must be a positive whole number, not ${String(value)}`);
    }
    // ajv loads with the first output checked: a program that imports the client (a server's
    // handlers import the folder's index) and never calls a tool does not load it.
    this.validators = new SchemaValidators(
      definition.patterns,
      {
        ...(options.maxPatternInputLength === undefined ? {} : { maxPatternInput: options.maxPatternInputLength }),
        ...(options.maxPatternMs === undefined ? {} : { maxPatternMs: options.maxPatternMs }),
      },
      undefined,
      () => import("../shared/ajv.js"),
    );
    for (const tool of definition.tools) {
      this.tools.set(tool.name, tool);
      const { outputSchema: _, ...rest } = tool;
      this.definitions.set(tool.name, rest);
    }
    for (const [name, support] of Object.entries(definition.taskSupport ?? {})) this.taskSupport.set(name, support);
    this.listChanges = new ListChanges(sdk);
    this.tasks = new TaskEngine(
      sdk,
      (name, result) => this.checkedOutput(name, result),
      (name, args, meta, options) => this.callTool(name, args, options, meta),
    );
  }

  /**
   * tools/call, answering the raw CallToolResult (isError results included). The SDK v2 client's
   * InsufficientScopeError (a 403 it did not step up) rejects as ToolAuthorizationError.
   */
  async callTool(name: string, args: object | undefined, options?: RequestOptions, meta?: JsonObject): Promise<CallToolResult> {
    try {
      return await this.sendToolCall(name, args, options, meta);
    } catch (error) {
      throw fromSdkScopeError(name, error) ?? error;
    }
  }

  private async sendToolCall(name: string, args: object | undefined, options?: RequestOptions, meta?: JsonObject): Promise<CallToolResult> {
    const params = { name, arguments: { ...(args ?? {}) } as JsonObject, ...(meta ? { _meta: meta } : {}) };
    const sdk = this.sdk;
    // The SDK checks the answer against its CallToolResult schema before resolving.
    if (typeof sdk.getProtocolEra !== "function") return (await (sdk as SdkClientV1).callTool(params, undefined, options)) as CallToolResult;
    // SDK v2: the manifest's tool definition, so that 2026-07-28 Streamable HTTP mirrors its
    // x-mcp-header arguments without a tools/list first. Without outputSchema: this client checks
    // outputs itself (the same check and errors on every SDK), and the SDK's own check would
    // use whatever schema a tools/list by the host happened to cache.
    const toolDefinition = this.definitions.get(name);
    return (await sdk.callTool(params, { ...options, ...(toolDefinition ? { toolDefinition } : {}) })) as CallToolResult;
  }

  /**
   * tools/call for a generated tool method: rejects with ToolCallError on `isError`, resolves to
   * the checked `structuredContent` for tools with outputSchema, else to the CallToolResult.
   *
   * A task-capable tool is awaited as a task where it runs as one: a `required` one always (a task
   * is the only way to call it), an `optional` one when a 2026-07-28 server answers with a task.
   */
  async callToolOutput(name: string, args: object | undefined, options: TaskCallOptions = {}): Promise<unknown> {
    const support = this.taskSupport.get(name);
    if (support === "required" || (support === "optional" && this.tasks.modern)) return this.tasks.run(name, args, options, support === "required");
    return this.checkedOutput(name, await this.callTool(name, args, options));
  }

  /** outputOf, once the validator of the tool's outputSchema is ready. */
  private async checkedOutput(name: string, result: CallToolResult): Promise<unknown> {
    const outputSchema = this.tools.get(name)?.outputSchema;
    const loading = this.options.validate === false || result.isError ? undefined : this.validators.prepare(outputSchema);
    if (loading) await loading;
    return this.outputOf(name, result);
  }

  /**
   * A tool's answer as its method resolves: ToolAuthorizationError (an `isError` result with
   * `_meta["mcp/www_authenticate"]`), ToolCallError, OutputValidationError, or its output.
   */
  outputOf(name: string, result: CallToolResult): unknown {
    if (result.isError) throw fromAuthenticateResult(name, result) ?? new ToolCallError(name, result);
    const outputSchema = this.tools.get(name)?.outputSchema;
    if (outputSchema === undefined) return result;
    const output = result.structuredContent;
    if (output === undefined) throw new OutputValidationError(name, "the result has no structuredContent", result);
    if (this.options.validate !== false) {
      const problems = this.validators.check(outputSchema, output);
      if (problems !== undefined) throw new OutputValidationError(name, problems, result);
    }
    return output;
  }

  /** Calls `handler` on each change of the kind's list (see listChanges.ts for the two eras). */
  onListChanged(kind: ListChangeKind, handler: () => void): Promise<ListChangeSubscription> {
    return this.listChanges.on(kind, handler);
  }

  /**
   * tools/list, every page, keeping the tools the manifest declares (the server may list others:
   * `sdk.listTools()` has them), so each name is one of the manifest's.
   */
  async listTools(options?: RequestOptions): Promise<{ tools: WireTool[] }> {
    const tools: WireTool[] = [];
    const sdk = this.sdk;
    if (sdk.listTools === undefined) throw new TypeError("listTools: the SDK Client given to createClient has no listTools");
    let cursor: string | undefined;
    do {
      const page: unknown = await sdk.listTools(cursor === undefined ? {} : { cursor }, options);
      const entries: unknown = typeof page === "object" && page !== null ? Reflect.get(page, "tools") : undefined;
      for (const entry of Array.isArray(entries) ? entries : []) {
        const name: unknown = typeof entry === "object" && entry !== null ? Reflect.get(entry, "name") : undefined;
        if (typeof name === "string" && this.tools.has(name)) tools.push(entry as WireTool);
      }
      const next: unknown = typeof page === "object" && page !== null ? Reflect.get(page, "nextCursor") : undefined;
      cursor = typeof next === "string" && next !== "" ? next : undefined;
    } while (cursor !== undefined);
    return { tools };
  }

  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.sdk.readResource({ uri }, options) as Promise<ReadResourceResult>;
  }

  /** Reads a resource template's URI built from its variables. */
  readTemplate(template: string, variables: Readonly<Record<string, string>>, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.readResource(parseUriTemplate(template).expand(variables), options);
  }

  /** prompts/get; `arguments` is always sent (`{}` when none are given): some servers require it. */
  getPrompt(name: string, args: Readonly<Record<string, string>> | undefined, options?: RequestOptions): Promise<GetPromptResult> {
    return this.sdk.getPrompt({ name, arguments: { ...args } }, options) as Promise<GetPromptResult>;
  }
}

/**
 * Task calls of a generated client, typed by its task-capable tools (`T`: MCP name -> input and
 * output). 2025-11-25 and 2026-07-28 alike; see ToolTask.
 */
export interface ClientTasks<T extends { [name: string]: { input: unknown; output: unknown } }> {
  /**
   * Starts a tool as a task and resolves once the server has created it (2025-11-25: a
   * task-augmented tools/call; 2026-07-28: the server may also answer at once, and the handle's
   * `taskId` is then undefined).
   */
  start<N extends keyof T & string>(
    name: N,
    ...rest: {} extends T[N]["input"] ? [args?: T[N]["input"], options?: TaskStartOptions] : [args: T[N]["input"], options?: TaskStartOptions]
  ): Promise<ToolTask<T[N]["output"]>>;
  /** Starts a task and waits for its output (polling); aborting `signal` cancels the task. */
  run<N extends keyof T & string>(
    name: N,
    ...rest: {} extends T[N]["input"]
      ? [args?: T[N]["input"], options?: TaskStartOptions & TaskWaitOptions]
      : [args: T[N]["input"], options?: TaskStartOptions & TaskWaitOptions]
  ): Promise<T[N]["output"]>;
  /** A handle on a task started earlier, from its id. */
  resume<N extends keyof T & string>(name: N, taskId: string): ToolTask<T[N]["output"]>;
  /** tasks/get of any task. */
  get(taskId: string, options?: TaskRequestOptions): Promise<ToolTaskState>;
  /** tasks/cancel of any task. */
  cancel(taskId: string, options?: TaskRequestOptions): Promise<void>;
}

/** The members every generated client interface has besides its per-tool, -resource and -template methods. */
export type CommonClientMembers = "sdk" | "callTool" | "readResource" | "getPrompt" | "tasks" | "onListChanged" | "listTools";

/** What one generated client method calls: a tool by MCP name, a resource by URI, a URI template. */
export type ClientMethodTarget = { readonly tool: string } | { readonly resource: string } | { readonly template: string };

/**
 * The method table behind a generated client interface `T`: one entry per method of `T` besides
 * the common members, saying what it calls. The generated code checks its table with
 * `satisfies ClientMethods<ItsClient>`, so a method of the interface missing from the table (or an
 * entry that is no method of it) fails to compile. A table the runtime turns into methods, rather
 * than an object literal of hundreds of functions in the generated code: that would cost the
 * compiler a check per method.
 */
export type ClientMethods<T> = { readonly [K in Exclude<keyof T, CommonClientMembers> & string]: ClientMethodTarget };

/**
 * The object behind a generated client interface `T`: `sdk`, the generic calls, one method per
 * entry of `methods`, and `tasks` when the manifest has task-capable tools.
 */
export function clientObject<T extends object>(engine: ManifestClient, methods: ClientMethods<T>): T {
  const client: Record<string, unknown> = {};
  const define = (name: string, value: unknown) => Object.defineProperty(client, name, { value, enumerable: true, writable: true, configurable: true });
  const entries: [string, ClientMethodTarget][] = Object.entries(methods);
  define("sdk", engine.sdk);
  for (const [method, target] of entries)
    if ("tool" in target) define(method, (args: object | undefined, options?: RequestOptions) => engine.callToolOutput(target.tool, args, options));
  define("callTool", (name: string, args: object | undefined, options?: RequestOptions) => engine.callTool(name, args, options));
  define("listTools", (options?: RequestOptions) => engine.listTools(options));
  define("onListChanged", (kind: ListChangeKind, handler: () => void) => engine.onListChanged(kind, handler));
  define("readResource", (uri: string, options?: RequestOptions) => engine.readResource(uri, options));
  for (const [method, target] of entries) if ("resource" in target) define(method, (options?: RequestOptions) => engine.readResource(target.resource, options));
  for (const [method, target] of entries)
    if ("template" in target)
      define(method, (variables: Readonly<Record<string, string>>, options?: RequestOptions) =>
        engine.readTemplate(target.template, { ...variables }, options),
      );
  define("getPrompt", (name: string, args?: Readonly<Record<string, string>>, options?: RequestOptions) => engine.getPrompt(name, args, options));
  if (engine.hasTaskTools) {
    const tasks = engine.tasks;
    define("tasks", {
      start: (name: string, args?: object, options?: TaskStartOptions) => tasks.start(name, args, options),
      run: (name: string, args?: object, options?: TaskStartOptions & TaskWaitOptions) => tasks.run(name, args, options),
      resume: (name: string, taskId: string) => tasks.resume(name, taskId),
      get: (taskId: string, options?: TaskRequestOptions) => tasks.get(taskId, options),
      cancel: (taskId: string, options?: TaskRequestOptions) => tasks.cancel(taskId, options),
    });
  }
  // The client side's one cast at the seam: the members are defined one by one from the table, so
  // the compiler cannot see the object as T. The table's `satisfies ClientMethods<T>` in the
  // generated code is what ties each method of T to an entry here.
  return client as T;
}
