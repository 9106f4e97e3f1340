/**
 * The generated server's engine: answers MCP requests from a ServerDefinition and the user's
 * handlers, in both protocol eras. One engine serves every SDK Server instance a factory makes
 * (one per 2026-07-28 request, per 2025-era connection or session), so validators and tasks are
 * shared. The SDK owns the protocol (initialize, server/discover, the envelope, resultType,
 * transports, subscriptions/listen); the engine owns every method the manifest serves.
 */
import type { CacheHint, CompletionEntry, JsonObject, ServerDefinition, StaticContent, WirePrompt, WireTool } from "./definition.js";
import { ErrorCodes, MissingClientCapabilityError, ToolError, rpcError } from "./errors.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "./mcp.js";
import { InputRound, inputMethods, type InputChannel, type RequestContext } from "./context.js";
import { fillPlaceholders } from "./placeholders.js";
import { jsonRpcCode, passesThrough } from "./handlerErrors.js";
import { pageOf } from "./paging.js";
import { RequestStateCodec, stateBinding } from "./requestState.js";
import { CallToolResultSchema, GetPromptResultSchema, ReadResourceResultSchema, type ProtocolEra, type ResultSchema, type SdkContext } from "./sdk.js";
import { RELATED_TASK, TASKS_EXTENSION, TaskStore, type RunningTask, type TaskOptions, type TaskRecord } from "./tasks.js";
import { parseUriTemplate, type UriTemplate } from "./uriTemplate.js";
import { SchemaValidators } from "./validation.js";

export interface ToolContext extends RequestContext {
  /** The tool's MCP name. */
  tool: string;
  /**
   * Tools with `execution.taskSupport`: turns this call into a task. On 2026-07-28 requests whose
   * client declared the tasks extension, the client gets a CreateTaskResult now and the handler
   * goes on in the background (questions asked before this point were asked with input_required,
   * those after it wait in tasks/get). A no-op otherwise (a 2025-era task-augmented call is a task
   * from the start; a call without tasks simply goes on).
   */
  startTask(): Promise<void>;
  /** The task this call runs as, once it is one. */
  task?: { id: string };
}

export interface ResourceContext extends RequestContext {
  /** The URI being read. */
  uri: string;
}

export type PromptContext = RequestContext;

/** A resource handler answers the text, `{ blob: base64 }`, or a full ReadResourceResult. */
export type ResourceHandlerResult = string | { blob: string } | ReadResourceResult;

/** A tool without outputSchema answers a string (one text block) or a full CallToolResult. */
export type ToolTextResult = string | CallToolResult;

type Awaitable<T> = T | Promise<T>;
type AnyFunction = (...args: never[]) => Awaitable<unknown>;

/** A completion handler: the values that start (or match) what the user typed so far. */
export type CompletionHandler = (
  value: string,
  ctx: RequestContext & { arguments: Record<string, string> },
) => Awaitable<readonly string[] | { values: readonly string[]; total?: number; hasMore?: boolean }>;

/** The untyped view of the generated `Handlers` type. */
export interface RuntimeHandlers {
  tools?: { [name: string]: AnyFunction };
  resources?: { [name: string]: AnyFunction };
  resourceTemplates?: { [name: string]: AnyFunction };
  prompts?: { [name: string]: AnyFunction };
  completions?: {
    prompts?: { [name: string]: { [argument: string]: AnyFunction } };
    resourceTemplates?: { [name: string]: { [variable: string]: AnyFunction } };
  };
}

export interface ServerOptions extends TaskOptions {
  /**
   * How arguments that break a tool's inputSchema are answered: `"tool-error"` (default) is a
   * result with `isError: true` that the model can read and correct, as MCP advises;
   * `"protocol-error"` is a JSON-RPC error -32602 with the same message.
   */
  invalidArguments?: "tool-error" | "protocol-error";
  /** Where unexpected handler failures are reported. Default: a line on stderr. */
  onError?: (error: unknown, context: { method: string; name?: string }) => void;
  /** Items per page of every list method (default: all in one page). */
  pageSize?: number;
  /**
   * HMAC key of the 2026-07-28 `requestState` (see README). Share it between processes that
   * answer the same clients; by default each process draws a random one.
   */
  requestStateSecret?: string | Uint8Array;
  /** How long a requestState stays valid, in ms (default 10 minutes). */
  requestStateTtlMs?: number;
}

/** One request as the engine sees it: its era, the SDK's context, and how to reach the client. */
export interface Call {
  era: ProtocolEra;
  sdk: SdkContext;
  /** The context fields that do not depend on the method (built by server.ts). */
  base: Omit<RequestContext, "elicit" | "sample" | "listRoots" | "signal">;
  /** How a 2025-era handler asks the client (a real request on the connection). */
  legacyChannel: (meta: JsonObject | undefined, signal: AbortSignal, waiting?: (on: boolean) => void) => InputChannel;
  /** Who owns tasks created by this call (for tasks/list). */
  owner: string;
}

interface TemplateEntry {
  name: string;
  mimeType?: string;
  matcher: UriTemplate;
}

type ListKind = "tools" | "resources" | "resourceTemplates" | "prompts";
const LIST_METHOD: Record<ListKind, "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list"> = {
  tools: "tools/list",
  resources: "resources/list",
  resourceTemplates: "resources/templates/list",
  prompts: "prompts/list",
};

/** Answers one method for one request. */
type MethodHandler = (params: JsonObject, call: Call, subscriptions: Set<string>) => Promise<object> | object;

/** One row of the method table: a method, the era it is offered in (both when absent), its handler. */
interface MethodEntry {
  method: string;
  era?: ProtocolEra;
  handle: MethodHandler;
}

/** What a handler run ended with, or that it asked a question on a 2026-07-28 request. */
type RoundOutcome = { value: unknown } | { error: unknown } | { inputRequired: JsonObject } | { task: RunningTask; running: Promise<{ value: unknown } | { error: unknown }> };

export class Engine {
  private readonly validators: SchemaValidators;
  private readonly tools = new Map<string, WireTool>();
  private readonly resources = new Map<string, { name: string; mimeType?: string; content?: StaticContent }>();
  private readonly templates: TemplateEntry[] = [];
  private readonly prompts = new Map<string, { prompt: WirePrompt; messages?: readonly JsonObject[] }>();
  private readonly lists: Record<ListKind, readonly object[]>;
  private readonly completions = new Map<string, CompletionEntry>();
  private readonly onError: NonNullable<ServerOptions["onError"]>;
  private readonly states: RequestStateCodec;
  readonly tasks: TaskStore;
  /** Whether any tool declares task support (the `tasks` capability, or the extension). */
  readonly taskTools: boolean;
  /** The method table, by era: what methods() lists and handle() answers. */
  private readonly routes: Record<ProtocolEra, Map<string, MethodHandler>> = { legacy: new Map(), modern: new Map() };

  constructor(
    readonly definition: ServerDefinition,
    private readonly handlers: RuntimeHandlers,
    private readonly options: ServerOptions,
  ) {
    this.validators = new SchemaValidators(definition.patterns);
    for (const tool of definition.tools) this.tools.set(tool.name, tool);
    for (const { resource, content } of definition.resources) {
      this.resources.set(resource.uri, { name: resource.name, ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }), ...(content === undefined ? {} : { content }) });
    }
    for (const t of definition.resourceTemplates) {
      this.templates.push({ name: t.name, matcher: parseUriTemplate(t.uriTemplate), ...(t.mimeType === undefined ? {} : { mimeType: t.mimeType }) });
    }
    for (const entry of definition.prompts) this.prompts.set(entry.prompt.name, entry);
    this.lists = deepFreeze({
      tools: definition.tools,
      resources: definition.resources.map((r) => r.resource),
      resourceTemplates: definition.resourceTemplates,
      prompts: definition.prompts.map((p) => p.prompt),
    });
    for (const entry of definition.completions ?? []) this.completions.set(completionKey(entry.ref, entry.name, entry.argument), entry);
    this.onError = options.onError ?? ((error, where) => console.error(`[mcpgen] ${where.method}${where.name ? ` ${where.name}` : ""} failed:`, error));
    this.states = new RequestStateCodec(options.requestStateSecret, options.requestStateTtlMs ?? 600_000);
    this.tasks = new TaskStore(options);
    this.taskTools = definition.tools.some((t) => taskSupport(t) !== "forbidden");
    for (const entry of this.methodTable()) {
      for (const era of entry.era === undefined ? (["legacy", "modern"] as const) : [entry.era]) this.routes[era].set(entry.method, entry.handle);
    }
  }

  /** The methods this server answers, in the era given (the SDK answers -32601 for the others). */
  methods(era: ProtocolEra): string[] {
    return [...this.routes[era].keys()];
  }

  async handle(method: string, params: JsonObject, call: Call, subscriptions: Set<string>): Promise<object> {
    const handler = this.routes[call.era].get(method);
    if (!handler) throw rpcError(ErrorCodes.MethodNotFound, "Method not found");
    return handler(params, call, subscriptions);
  }

  /**
   * Every method the manifest serves, in the order they are registered: when each is offered (the
   * capability it belongs to, and its era when it has one) and what answers it.
   */
  private methodTable(): MethodEntry[] {
    const caps = this.definition.capabilities;
    const table: MethodEntry[] = [];
    if (caps.tools) {
      table.push({ method: "tools/list", handle: (params, call) => this.page("tools", params, call.era) });
      table.push({ method: "tools/call", handle: (params, call) => this.callTool(params, call) });
    }
    if (caps.resources) {
      table.push({ method: "resources/list", handle: (params, call) => this.page("resources", params, call.era) });
      table.push({ method: "resources/templates/list", handle: (params, call) => this.page("resourceTemplates", params, call.era) });
      table.push({ method: "resources/read", handle: (params, call) => this.readResource(params, call) });
    }
    if (caps.resources?.subscribe) {
      const subscription = (method: string, on: boolean): MethodEntry => ({
        method,
        era: "legacy",
        handle: (params, _call, subscriptions) => {
          if (typeof params.uri !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields(method, params, "'uri' (string)"));
          if (on) subscriptions.add(params.uri);
          else subscriptions.delete(params.uri);
          return {};
        },
      });
      table.push(subscription("resources/subscribe", true), subscription("resources/unsubscribe", false));
    }
    if (caps.prompts) {
      table.push({ method: "prompts/list", handle: (params, call) => this.page("prompts", params, call.era) });
      table.push({ method: "prompts/get", handle: (params, call) => this.getPrompt(params, call) });
    }
    if (caps.completions) table.push({ method: "completion/complete", handle: (params, call) => this.complete(params, call) });
    if (this.taskTools) {
      for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) table.push({ method, era: "legacy", handle: (params, call) => this.taskMethod(method, params, call) });
      for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) table.push({ method, era: "modern", handle: (params, call) => this.taskMethod(method, params, call) });
    }
    return table;
  }

  /**
   * One page of a list. Without pageSize, everything in one page (the fixture, verbatim). With it,
   * an opaque cursor in nextCursor; a cursor this server did not issue is -32602. 2026-07-28
   * answers carry the list's cache hint.
   */
  private page(kind: ListKind, params: JsonObject, era: ProtocolEra): object {
    const page = pageOf(this.lists[kind], params.cursor, this.options.pageSize, kind);
    const cache = era === "modern" ? this.cacheHint(LIST_METHOD[kind]) : {};
    return { [kind]: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }), ...cache };
  }

  private cacheHint(method: "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list"): CacheHint | object {
    return this.definition.cache?.[method] ?? {};
  }

  private readCache(uri: string, template: string | undefined): CacheHint | object {
    const cache = this.definition.cache;
    const own = template === undefined ? cache?.resources?.[uri] : cache?.resourceTemplates?.[template];
    return own ?? cache?.["resources/read"] ?? {};
  }

  private async complete(params: JsonObject, call: Call): Promise<object> {
    const ref = params.ref;
    const argument = params.argument;
    if (!isObject(ref) || !isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string") {
      throw rpcError(ErrorCodes.InvalidParams, expectedFields("completion/complete", params, "'ref' ({type, name} or {type, uri}) and 'argument' ({name, value})"));
    }
    let entry: CompletionEntry | undefined;
    if (ref.type === "ref/prompt" && typeof ref.name === "string") {
      if (!this.prompts.has(ref.name)) throw rpcError(ErrorCodes.InvalidParams, `Unknown prompt: ${ref.name}`);
      entry = this.completions.get(completionKey("prompt", ref.name, argument.name));
    } else if (ref.type === "ref/resource" && typeof ref.uri === "string") {
      const template = this.definition.resourceTemplates.find((t) => t.uriTemplate === ref.uri);
      if (template) entry = this.completions.get(completionKey("resourceTemplate", template.name, argument.name));
      else if (!this.resources.has(ref.uri)) throw rpcError(ErrorCodes.InvalidParams, `Unknown resource: ${ref.uri}`);
    } else {
      throw rpcError(ErrorCodes.InvalidParams, "Invalid params for completion/complete: ref.type must be ref/prompt (with name) or ref/resource (with uri)");
    }
    const value = argument.value;
    let values: readonly string[] = [];
    let total: number | undefined;
    let hasMore: boolean | undefined;
    if (entry?.values) values = entry.values.filter((v) => v.startsWith(value));
    else if (entry?.handler) {
      const group = entry.ref === "prompt" ? this.handlers.completions?.prompts : this.handlers.completions?.resourceTemplates;
      const table = group && Object.hasOwn(group, entry.name) ? group[entry.name] : undefined;
      const handler = ownFunction(table, entry.argument);
      const context = isObject(params.context) && isObject(params.context.arguments) ? (params.context.arguments as Record<string, string>) : {};
      try {
        // Completion has no input_required in 2026-07-28: questions fail (on 2025-era connections they are asked).
        const ctx = this.context(call, call.era === "legacy" ? call.legacyChannel(undefined, call.sdk.mcpReq.signal) : noInput, call.sdk.mcpReq.signal);
        const answer = handler ? await (handler as CompletionHandler)(value, { ...ctx, arguments: context }) : [];
        if (Array.isArray(answer)) values = answer as string[];
        else {
          const a = answer as { values: readonly string[]; total?: number; hasMore?: boolean };
          values = a.values;
          total = a.total;
          hasMore = a.hasMore;
        }
      } catch (error) {
        throw this.passThrough(error, "completion/complete", `${entry.name}.${entry.argument}`, call.era);
      }
    }
    // The spec caps one answer at 100 values.
    const shown = values.slice(0, 100);
    return { completion: { values: shown, total: total ?? values.length, hasMore: hasMore ?? values.length > shown.length } };
  }

  private async callTool(params: JsonObject, call: Call): Promise<object> {
    if (typeof params.name !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields("tools/call", params, "'name' (string) and optional 'arguments' (object)"));
    const name = params.name;
    const tool = this.tools.get(name);
    if (!tool) throw rpcError(ErrorCodes.InvalidParams, `Unknown tool: ${name}`);
    const args = params.arguments ?? {};
    if (!isObject(args)) throw rpcError(ErrorCodes.InvalidParams, `Invalid params: 'arguments' of tools/call must be an object`);

    const support = taskSupport(tool);
    const capabilities = call.base.clientCapabilities;
    // A 2025-11-25 task-augmented call: the task is made once the call is known to run (below).
    let legacyTaskTtl: { ttl: unknown } | undefined;
    if (call.era === "legacy" && this.taskTools) {
      // 2025-11-25 tool-level negotiation: -32601 for the call a tool's taskSupport rules out.
      const augmented = isObject(params.task);
      if (augmented && support === "forbidden") throw rpcError(ErrorCodes.MethodNotFound, `Tool ${name} does not support task-augmented execution (its execution.taskSupport is "forbidden")`);
      if (!augmented && support === "required") throw rpcError(ErrorCodes.MethodNotFound, `Tool ${name} requires task-augmented execution: call it with params.task`);
      if (augmented) legacyTaskTtl = { ttl: (params.task as JsonObject).ttl };
    }
    // A refused task-augmented call still answers with a task (the client waits for one), ended at once.
    const refuse = (message: string): object => {
      if (!legacyTaskTtl) return errorResult(message);
      const task = this.tasks.create("legacy", call.owner, capabilities, legacyTaskTtl.ttl);
      this.tasks.finish(task, { result: errorResult(message) as JsonObject });
      return { task: this.tasks.legacyView(task) };
    };
    const extension = call.era === "modern" && isObject(capabilities.extensions) && isObject(capabilities.extensions[TASKS_EXTENSION]);
    if (call.era === "modern" && support === "required" && !extension) {
      throw new MissingClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } }, `Tool ${name} runs only as a task: declare the ${TASKS_EXTENSION} extension in the request's client capabilities`);
    }

    let problems: string | undefined;
    try {
      problems = this.validators.check(tool.inputSchema, args);
    } catch (error) {
      // A recursive schema walks the data as deep as it goes: a hostile nesting ends here.
      if (!(error instanceof RangeError)) throw error;
      problems = "Arguments are nested too deeply to check";
    }
    if (problems !== undefined) {
      const message = `Invalid arguments for tool ${name}: ${problems}`;
      if (this.options.invalidArguments === "protocol-error") throw rpcError(ErrorCodes.InvalidParams, message);
      return refuse(message);
    }
    const handler = ownFunction(this.handlers.tools, name);
    if (!handler) return refuse(`Tool ${name} has no handler on this server`);

    const run = async (ctx: ToolContext): Promise<unknown> => this.toolOutput(tool, await (handler as (a: unknown, c: ToolContext) => unknown)(args, ctx));
    const settle = (outcome: { value: unknown } | { error: unknown }): CallToolResult => {
      if ("value" in outcome) return outcome.value as CallToolResult;
      const error = outcome.error;
      if (error instanceof ToolError) return errorResult(error.message);
      // A missing capability is -32021 on 2026-07-28 requests; 2025-11-25 has no such error.
      if (passesThrough(error, call.era)) throw error;
      // A handler that stopped because the call was cancelled did not fail: nothing to report.
      if (!call.sdk.mcpReq.signal.aborted) this.onError(error, { method: "tools/call", name });
      return errorResult(`Tool ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    };

    if (legacyTaskTtl) {
      const task = this.tasks.create("legacy", call.owner, capabilities, legacyTaskTtl.ttl);
      const meta = { [RELATED_TASK]: { taskId: task.id } };
      const signal = task.live.controller.signal;
      const channel = call.legacyChannel(meta, signal, (on) => this.tasks.waiting(task, on));
      const ctx: ToolContext = { ...this.context(call, channel, signal), tool: name, startTask: async () => {}, task: { id: task.id } };
      this.finishTask(
        task,
        run(ctx).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
        settle,
      );
      return { task: this.tasks.legacyView(task) };
    }

    const outcome = await this.round("tools/call", name, args, call, extension && support !== "forbidden", (channel, signal, startTask, task) => run({ ...this.context(call, channel, signal), tool: name, startTask, ...(task ? { task } : {}) }));
    if ("inputRequired" in outcome) return outcome.inputRequired;
    if ("task" in outcome) {
      this.finishTask(outcome.task, outcome.running, settle);
      return { resultType: "task", ...this.tasks.modernView(outcome.task, false) };
    }
    return settle(outcome);
  }

  /** A tool's return value as the CallToolResult that goes out, checked; bad output is an isError result. */
  private toolOutput(tool: WireTool, output: unknown): CallToolResult {
    const name = tool.name;
    if (tool.outputSchema !== undefined) {
      // Check what will be on the wire: JSON turns NaN into null and drops undefined.
      let text: string | undefined;
      try {
        text = JSON.stringify(output);
      } catch (error) {
        return this.badOutput(name, `Tool ${name} returned output that is not JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
      const wire: unknown = text === undefined ? undefined : JSON.parse(text);
      const outputProblems = isObject(wire) ? this.validators.check(tool.outputSchema, wire) : "Output must be an object";
      if (outputProblems !== undefined) return this.badOutput(name, `Tool ${name} returned output that does not match its outputSchema: ${outputProblems}`);
      return { content: [{ type: "text", text: text! }], structuredContent: wire as JsonObject };
    }
    if (typeof output === "string") return { content: [{ type: "text", text: output }] };
    const resultProblems = schemaProblems(CallToolResultSchema, output);
    if (isObject(output) && Array.isArray(output.content) && resultProblems === undefined) return output as CallToolResult;
    return this.badOutput(name, `Tool ${name} returned neither a string nor a valid CallToolResult${resultProblems === undefined ? "" : `: ${resultProblems}`}`);
  }

  /**
   * Records how a task's handler ended, the way the call itself would have answered: a result
   * (isError ones included) completes the task, an error with a JSON-RPC code fails it.
   */
  private finishTask(task: TaskRecord, running: Promise<{ value: unknown } | { error: unknown }>, settle: (outcome: { value: unknown } | { error: unknown }) => CallToolResult): void {
    void running.then((outcome) => {
      // Cancelled (or expired): the handler's end is nobody's business.
      if (task.status === "cancelled") return;
      try {
        this.tasks.finish(task, { result: settle(outcome) as JsonObject });
      } catch (error) {
        const data = isObject(error) ? error.data : undefined;
        this.tasks.finish(task, { error: { code: jsonRpcCode(error) ?? ErrorCodes.InternalError, message: error instanceof Error ? error.message : String(error), ...(data === undefined ? {} : { data }) } });
      }
    });
  }

  /**
   * Runs a handler for one request. On 2025-era connections questions go to the client on the
   * connection; on 2026-07-28 requests the run stops at the first round of unanswered questions
   * and the answer is `input_required`, with the answers so far sealed in `requestState`.
   * `canTask`: the handler may turn the call into a 2026-07-28 task with ctx.startTask().
   */
  private async round(
    method: string,
    target: string,
    args: unknown,
    call: Call,
    canTask: boolean,
    run: (channel: InputChannel, signal: AbortSignal, startTask: () => Promise<void>, task?: { id: string }) => Promise<unknown>,
  ): Promise<RoundOutcome> {
    const requestSignal = call.sdk.mcpReq.signal;
    if (call.era === "legacy") {
      try {
        return { value: await run(call.legacyChannel(undefined, requestSignal), requestSignal, async () => {}) };
      } catch (error) {
        return { error };
      }
    }
    // A call that may become a task gets its own signal: the request's until the task starts,
    // the task's after (tasks/cancel). Others use the request's as it is.
    let controller: AbortController | undefined;
    let unlink = () => {};
    if (canTask) {
      const own = new AbortController();
      const onAbort = () => own.abort(requestSignal.reason);
      if (requestSignal.aborted) onAbort();
      else requestSignal.addEventListener("abort", onAbort, { once: true });
      unlink = () => requestSignal.removeEventListener("abort", onAbort);
      controller = own;
    }
    const signal = controller?.signal ?? requestSignal;

    // The binding (a digest of the arguments) is computed only when a requestState is read or minted.
    const binding = () => stateBinding(method, target, args);
    let earlier: Record<string, unknown> = {};
    const token = call.sdk.mcpReq.requestState();
    if (token !== undefined) {
      const opened = await this.states.open(await binding(), token);
      if ("refused" in opened) {
        unlink();
        throw rpcError(ErrorCodes.InvalidParams, "Invalid or expired requestState", { reason: opened.refused });
      }
      earlier = opened.answers;
    }
    // What stops the race before the handler ends: its questions, or the task it starts.
    let interrupt!: (why: "input" | { task: RunningTask }) => void;
    const interrupted = new Promise<"input" | { task: RunningTask }>((resolve) => (interrupt = resolve));
    // Made on the first question only: most calls ask none.
    let round: InputRound | undefined;
    const inputRound = () => (round ??= new InputRound(earlier, call.sdk.mcpReq.inputResponses ?? {}, call.base.clientCapabilities, () => interrupt("input")));
    let current: InputChannel | undefined;
    const channel: InputChannel = { ask: (request, key) => (current ?? inputRound()).ask(request, key) };
    let task: TaskRecord | undefined;
    const taskRef: { id: string } | undefined = canTask ? { id: "" } : undefined;
    const startTask = async () => {
      if (!canTask || task) return;
      const created = this.tasks.create("modern", call.owner, call.base.clientCapabilities);
      task = created;
      taskRef!.id = created.id;
      unlink();
      // Held by the task's live state only: it goes when the task ends.
      const taskSignal = created.live.controller.signal;
      taskSignal.addEventListener("abort", () => controller!.abort(taskSignal.reason), { once: true });
      current = this.tasks.channel(created);
      interrupt({ task: created });
    };
    // A handler that throws before its first await rejects here like one that throws after it.
    const running = (async () => run(channel, signal, startTask, taskRef))().then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    const first = await Promise.race([running, interrupted]);
    // The call is a task now: the caller records how the handler ends.
    if (first !== "input" && "task" in first) return { task: first.task, running };
    unlink();
    if (first !== "input") return first;
    // The run stops here: its pending questions never settle (a task-capable run's signal aborts).
    controller?.abort(new Error("input required: the client will retry with its answers"));
    const asked = inputRound();
    if (asked.invalid) throw rpcError(ErrorCodes.InvalidParams, `Invalid input response '${asked.invalid.key}': ${asked.invalid.problem}`);
    const inputRequests = Object.fromEntries(asked.pending);
    return { inputRequired: { resultType: "input_required", inputRequests, requestState: await this.states.mint(await binding(), { answers: asked.consumed }) } };
  }

  /** tasks/*, in the form of the request's era. */
  private async taskMethod(method: string, params: JsonObject, call: Call): Promise<object> {
    if (call.era === "modern") {
      const caps = call.base.clientCapabilities;
      if (!(isObject(caps.extensions) && isObject(caps.extensions[TASKS_EXTENSION]))) {
        throw new MissingClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } }, `${method} needs the ${TASKS_EXTENSION} extension in the request's client capabilities`);
      }
      const task = this.tasks.get(params.taskId);
      switch (method) {
        case "tasks/get":
          return this.tasks.modernView(task, true);
        case "tasks/update":
          // The SDK lifts `inputResponses` out of every request's params (they are MRTR's field).
          this.tasks.update(task, params.inputResponses ?? call.sdk.mcpReq.inputResponses);
          return {};
        case "tasks/cancel":
          this.tasks.cancel(task);
          return {};
      }
      throw rpcError(ErrorCodes.MethodNotFound, "Method not found");
    }
    if (method === "tasks/list") {
      const page = pageOf(this.tasks.list(call.owner), params.cursor, this.options.pageSize, "tasks");
      return { tasks: page.items.map((t) => this.tasks.legacyView(t)), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
    }
    const task = this.tasks.get(params.taskId);
    switch (method) {
      case "tasks/get":
        return this.tasks.legacyView(task);
      case "tasks/cancel":
        if (this.tasks.isTerminal(task)) throw rpcError(ErrorCodes.InvalidParams, `Cannot cancel task: already in terminal status '${task.status}'`);
        this.tasks.cancel(task);
        return this.tasks.legacyView(task);
      case "tasks/result": {
        // Waits for the end, then answers what the call itself would have answered.
        await Promise.race([task.done, abortion(call.sdk.mcpReq.signal)]);
        const outcome = task.outcome;
        const related = { [RELATED_TASK]: { taskId: task.id } };
        if (task.status === "cancelled" || outcome === undefined) throw rpcError(ErrorCodes.InternalError, `Task ${task.id} was cancelled`, related);
        if ("error" in outcome) throw rpcError(outcome.error.code, outcome.error.message, outcome.error.data);
        return { ...outcome.result, _meta: { ...(outcome.result._meta as JsonObject | undefined), ...related } };
      }
    }
    throw rpcError(ErrorCodes.MethodNotFound, "Method not found");
  }

  /** Output a tool should never have returned: logged, and answered as an isError result. */
  private badOutput(name: string, message: string): CallToolResult {
    this.onError(new Error(message), { method: "tools/call", name });
    return errorResult(message);
  }

  private async readResource(params: JsonObject, call: Call): Promise<object> {
    if (typeof params.uri !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields("resources/read", params, "'uri' (string)"));
    const uri = params.uri;
    const cache = (template?: string) => (call.era === "modern" ? this.readCache(uri, template) : {});
    const resource = this.resources.get(uri);
    if (resource) {
      if (resource.content) return { contents: [{ uri, ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }), ...resource.content }], ...cache() };
      const handler = ownFunction(this.handlers.resources, resource.name);
      return this.runResourceHandler(handler, undefined, call, uri, resource.mimeType, resource.name, cache());
    }
    for (const template of this.templates) {
      const variables = template.matcher.match(uri);
      if (!variables) continue;
      const handler = ownFunction(this.handlers.resourceTemplates, template.name);
      return this.runResourceHandler(handler, variables, call, uri, template.mimeType, template.name, cache(template.name));
    }
    // -32602 with the URI, as 2026-07-28 requires (2025-11-25 said -32002; the SDK sends -32602 in both eras).
    throw rpcError(ErrorCodes.InvalidParams, "Resource not found", { uri });
  }

  private async runResourceHandler(
    handler: AnyFunction | undefined,
    variables: Record<string, string> | undefined,
    call: Call,
    uri: string,
    mimeType: string | undefined,
    name: string,
    cache: object,
  ): Promise<object> {
    if (!handler) throw rpcError(ErrorCodes.InternalError, `Resource ${name} has no handler on this server`);
    const outcome = await this.round("resources/read", uri, variables ?? {}, call, false, (channel, signal) => {
      const ctx: ResourceContext = { ...this.context(call, channel, signal), uri };
      return Promise.resolve((handler as (...a: unknown[]) => unknown)(...(variables ? [variables, ctx] : [ctx])));
    });
    if ("inputRequired" in outcome) return outcome.inputRequired;
    if ("error" in outcome) throw this.passThrough(outcome.error, "resources/read", name, call.era);
    const result = "value" in outcome ? outcome.value : undefined;
    const mime = mimeType === undefined ? {} : { mimeType };
    let answer: unknown = result;
    if (typeof result === "string") answer = { contents: [{ uri, ...mime, text: result }] };
    else if (isObject(result) && !Array.isArray(result.contents) && typeof result.blob === "string") answer = { contents: [{ uri, ...mime, blob: result.blob }] };
    // The SDK's own schema, which also checks that blobs are base64.
    const why = schemaProblems(ReadResourceResultSchema, answer);
    if (why === undefined) return { ...(answer as object), ...cache };
    this.onError(new Error(`resources/read ${name}: ${why}`), { method: "resources/read", name });
    throw rpcError(ErrorCodes.InternalError, `Resource ${name}: the handler returned neither text, { blob: base64 } nor a valid ReadResourceResult (${why})`);
  }

  private async getPrompt(params: JsonObject, call: Call): Promise<object> {
    if (typeof params.name !== "string") throw rpcError(ErrorCodes.InvalidParams, expectedFields("prompts/get", params, "'name' (string) and optional 'arguments' (object of strings)"));
    const name = params.name;
    const entry = this.prompts.get(name);
    if (!entry) throw rpcError(ErrorCodes.InvalidParams, `Unknown prompt: ${name}`);
    const args = params.arguments ?? {};
    if (!isObject(args)) throw rpcError(ErrorCodes.InvalidParams, `Invalid params: 'arguments' of prompts/get must be an object of strings`);
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== "string") throw rpcError(ErrorCodes.InvalidParams, `Argument '${key}' of prompt ${name} must be a string`);
    }
    for (const argument of entry.prompt.arguments ?? []) {
      if (argument.required && !Object.hasOwn(args, argument.name)) throw rpcError(ErrorCodes.InvalidParams, `Missing required argument '${argument.name}' for prompt ${name}`);
    }
    const values = args as Record<string, string>;
    if (entry.messages) {
      const description = entry.prompt.description;
      return {
        ...(typeof description === "string" ? { description } : {}),
        messages: entry.messages.map((m) => fillPlaceholders(m, values)) as unknown as GetPromptResult["messages"],
      };
    }
    const handler = ownFunction(this.handlers.prompts, name);
    if (!handler) throw rpcError(ErrorCodes.InternalError, `Prompt ${name} has no handler on this server`);
    const outcome = await this.round("prompts/get", name, values, call, false, (channel, signal) => Promise.resolve((handler as (a: unknown, c: PromptContext) => unknown)(values, this.context(call, channel, signal))));
    if ("inputRequired" in outcome) return outcome.inputRequired;
    if ("error" in outcome) throw this.passThrough(outcome.error, "prompts/get", name, call.era);
    const result = "value" in outcome ? outcome.value : undefined;
    const why = schemaProblems(GetPromptResultSchema, result);
    if (why === undefined) return result as GetPromptResult;
    this.onError(new Error(`prompts/get ${name}: ${why}`), { method: "prompts/get", name });
    throw rpcError(ErrorCodes.InternalError, `Prompt ${name}: the handler did not return a valid GetPromptResult (${why})`);
  }

  /** The context a handler gets: the call's fields, its signal, and questions on `channel`. */
  private context(call: Call, channel: InputChannel, signal: AbortSignal): RequestContext {
    // One object, filled in place: cheaper than spreading the base into a new one per call.
    const ctx = inputMethods(channel) as RequestContext;
    Object.assign(ctx, call.base);
    ctx.signal = signal;
    return ctx;
  }

  /**
   * Errors that carry a JSON-RPC error code (-32768 to -32000, e.g. -32002 Resource not found) go
   * out as they are, and so does a missing client capability on a 2026-07-28 request (-32021);
   * anything else is logged and answered -32603.
   */
  private passThrough(error: unknown, method: string, name: string, era: ProtocolEra): Error {
    if (passesThrough(error, era)) return error;
    this.onError(error, { method, name });
    return rpcError(ErrorCodes.InternalError, `${method} ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** A channel for handlers that cannot ask anything (completion on 2026-07-28). */
const noInput: InputChannel = { ask: (request) => Promise.reject(new Error(`${request.method} cannot be asked while answering completion/complete on MCP 2026-07-28`)) };

function taskSupport(tool: WireTool): "forbidden" | "optional" | "required" {
  const support = isObject(tool.execution) ? tool.execution.taskSupport : undefined;
  return support === "optional" || support === "required" ? support : "forbidden";
}

function abortion(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** Undefined when `value` matches one of the SDK's result schemas, else its first problems in words. */
function schemaProblems(schema: ResultSchema, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  return parsed.error.issues.slice(0, 3).map((i) => `${i.path.map(String).join(".") || "result"} ${i.message}`).join("; ");
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A handler the user defined on the object itself, never one inherited from Object.prototype. */
function ownFunction(table: { [name: string]: AnyFunction } | undefined, name: string): AnyFunction | undefined {
  if (!table || !Object.hasOwn(table, name)) return undefined;
  const fn = table[name];
  return typeof fn === "function" ? fn : undefined;
}

/** The seed's classic mistake (`tool`/`args` instead of `name`/`arguments`) gets named. */
function expectedFields(method: string, params: JsonObject, expected: string): string {
  const got = Object.keys(params).filter((k) => k !== "_meta");
  return `Invalid params for ${method}: expected ${expected}; got ${got.length ? got.map((k) => `'${k}'`).join(", ") : "no fields"}`;
}

function completionKey(ref: string, name: string, argument: string): string {
  return JSON.stringify([ref, name, argument]);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
