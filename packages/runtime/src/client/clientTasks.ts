/**
 * Tasks in the generated client: a tool call that outlives its request, started, polled, read and
 * cancelled the same way in both protocol eras.
 *
 * - MCP 2025-11-25: `tools/call` with `params.task` answers `{task}`; `tasks/get` polls,
 *   `tasks/result` gives the tool's result (and carries the questions a server queues while the
 *   task is `input_required`), `tasks/cancel` cancels. Sent through the SDK Client's `request`
 *   with a pass-through result schema (neither SDK's callTool reads a CreateTaskResult).
 * - MCP 2026-07-28, the `io.modelcontextprotocol/tasks` extension: the server decides, and may
 *   answer `tools/call` with a CreateTaskResult (read through ./taskWire.js) or at once;
 *   `tasks/get` inlines the result, the error or the questions; `tasks/update` answers them;
 *   `tasks/cancel` acknowledges.
 */
import type { JsonObject } from "../shared/definition.js";
import { TaskEndedError, TaskInputRequiredError } from "../shared/errors.js";
import type { CallToolResult, TaskStatus } from "../shared/mcp.js";
import type { ToolTaskState } from "../shared/taskState.js";
import { acceptTaskAnswers, CARRIED_TASK, TASK_MARK, type TaskMark, type WireTransport } from "./taskWire.js";

/** Per-request options, as both SDK lines take them. */
export interface TaskRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
}

export interface TaskStartOptions extends TaskRequestOptions {
  /** 2025-11-25: how long the server should keep the task (it may keep it for less). */
  ttlMs?: number;
}

export interface TaskWaitOptions extends TaskRequestOptions {
  /** Called with the task's state at each poll. */
  onStatus?: (task: ToolTaskState) => void;
  /**
   * 2026-07-28: answers the questions of a task that is `input_required` (elicitation, sampling,
   * roots requests, by key); the answers go back with tasks/update and polling goes on. Without it
   * such a task rejects the wait with TaskInputRequiredError. (2025-11-25 questions are requests
   * to the SDK Client, answered by its handlers.)
   */
  onInputRequests?: (requests: { [key: string]: unknown }, task: ToolTaskState) => Promise<{ [key: string]: unknown }> | { [key: string]: unknown };
}

/** A started tool task: its id and last known state, and what can be done with it. */
export interface ToolTask<O> {
  /** The tool's MCP name. */
  readonly tool: string;
  /** Undefined when the server answered at once: `result()` then resolves without a request. */
  readonly taskId: string | undefined;
  /** The state last seen (at creation, or by the last `get` or poll). */
  readonly info: ToolTaskState;
  readonly status: TaskStatus;
  /** tasks/get: the task's state now. */
  get(options?: TaskRequestOptions): Promise<ToolTaskState>;
  /**
   * Polls (at the server's pollInterval, default 1 s) until the task ends, then resolves to the
   * tool's output, checked like a tool method's. Rejects with ToolCallError (an `isError`
   * result), TaskEndedError (cancelled, or failed with a JSON-RPC error) or OutputValidationError.
   * `signal` stops the waiting, not the task.
   */
  result(options?: TaskWaitOptions): Promise<O>;
  /** tasks/cancel. */
  cancel(options?: TaskRequestOptions): Promise<void>;
  /** 2026-07-28 tasks/update: answers questions of an `input_required` task, by key. */
  update(responses: { [key: string]: unknown }, options?: TaskRequestOptions): Promise<void>;
}

/** What the task engine needs of the SDK Client: a raw request, the era, the transport. */
interface TaskSdk {
  getProtocolEra?: (() => "legacy" | "modern" | undefined) | undefined;
  request(request: { method: string; params?: JsonObject }, resultSchema: typeof PASS_THROUGH, options?: TaskRequestOptions): Promise<unknown>;
  readonly transport?: WireTransport | undefined;
}

/**
 * A result schema both SDK lines accept and that checks nothing: a Standard Schema for SDK v2,
 * a zod-3-style `safeParse` for SDK 1.x (its request parses with whatever it is given).
 */
export const PASS_THROUGH = {
  "~standard": { version: 1 as const, vendor: "mcpgen", validate: (value: unknown) => ({ value }) },
  safeParse: (data: unknown) => ({ success: true as const, data }),
};

/** Starts, reads and waits for tasks; the output of a finished task comes from `output`. */
export class TaskEngine {
  constructor(
    private readonly sdk: TaskSdk,
    /** A tools/call answer of `tool` as its method resolves: the checked output, or a rejection. */
    readonly output: (tool: string, result: CallToolResult) => unknown,
    /** The SDK v2 callTool for a 2026-07-28 call (it mirrors x-mcp-header arguments). */
    private readonly callMarked: (tool: string, args: object | undefined, meta: JsonObject, options?: TaskRequestOptions) => Promise<CallToolResult>,
  ) {}

  get modern(): boolean {
    return typeof this.sdk.getProtocolEra === "function" && this.sdk.getProtocolEra() === "modern";
  }

  /**
   * Starts `tool` as a task. 2025-11-25: a task-augmented tools/call. 2026-07-28: a tools/call
   * declaring the tasks extension (`declare`), which the server may answer with a task or at once.
   */
  async start(tool: string, args: object | undefined, options: TaskStartOptions = {}, declare = true): Promise<ToolTask<unknown>> {
    const { ttlMs, ...request } = options;
    if (this.modern) {
      this.installWire();
      const mark: TaskMark = { declare };
      const answer = await this.callMarked(tool, args, { [TASK_MARK]: mark }, request);
      const carried = answer._meta?.[CARRIED_TASK];
      if (isObject(carried)) return new TaskHandle(this, tool, modernTask(carried).info);
      return new TaskHandle(this, tool, { status: "completed" }, answer);
    }
    const params: JsonObject = { name: tool, arguments: { ...(args ?? {}) }, task: ttlMs === undefined ? {} : { ttl: ttlMs } };
    const answer = await this.sdk.request({ method: "tools/call", params }, PASS_THROUGH, request);
    if (isObject(answer) && isObject(answer["task"])) return new TaskHandle(this, tool, legacyInfo(answer["task"]));
    // A server that ran it at once after all.
    return new TaskHandle(this, tool, { status: "completed" }, answer as CallToolResult);
  }

  /** A handle on a task started earlier (its id kept from `start`), to poll, read or cancel it. */
  resume(tool: string, taskId: string): ToolTask<unknown> {
    // Its state is not known yet: the first wait polls at once.
    return new TaskHandle(this, tool, { taskId, status: "working" }, undefined, false);
  }

  /** Starts `tool` as a task and waits for its output; aborting `signal` cancels the task. */
  async run(tool: string, args: object | undefined, options: TaskStartOptions & TaskWaitOptions = {}, declare = true): Promise<unknown> {
    const task = await this.start(tool, args, options, declare);
    try {
      return await task.result(options);
    } catch (error) {
      // Stopped waiting: the task would run on for nobody.
      if (options.signal?.aborted && task.taskId !== undefined)
        await task.cancel({ ...(options.timeout === undefined ? {} : { timeout: options.timeout }) }).catch(() => {});
      throw error;
    }
  }

  async get(taskId: string, options?: TaskRequestOptions): Promise<ToolTaskState> {
    return (await this.poll(taskId, options)).info;
  }

  /** tasks/get, with what 2026-07-28 inlines: the result or the error of an ended task. */
  private async poll(taskId: string, options?: TaskRequestOptions): Promise<Polled> {
    const answer = await this.taskRequest("tasks/get", { taskId }, options);
    if (!isObject(answer)) throw new Error(`tasks/get answered ${JSON.stringify(answer)}`);
    return this.modern ? modernTask(answer) : { info: legacyInfo(answer) };
  }

  async cancel(taskId: string, options?: TaskRequestOptions): Promise<void> {
    await this.taskRequest("tasks/cancel", { taskId }, options);
  }

  async update(taskId: string, responses: { [key: string]: unknown }, options?: TaskRequestOptions): Promise<void> {
    if (!this.modern) throw new Error("tasks/update is a 2026-07-28 method: on a 2025-era connection the SDK Client's handlers answer a task's questions");
    await this.taskRequest("tasks/update", { taskId, inputResponses: responses }, options);
  }

  /** Polls until the task ends, then its output (see ToolTask.result). */
  async wait(tool: string, first: ToolTaskState, options: TaskWaitOptions = {}): Promise<unknown> {
    const taskId = first.taskId!;
    const request = requestOptions(options);
    let polled: Polled = { info: first };
    for (;;) {
      const info = polled.info;
      options.onStatus?.(info);
      if (this.modern) {
        if (info.status === "completed") {
          // The state seen at creation has no result: read it.
          if (!polled.result) polled = await this.poll(taskId, request);
          return this.output(tool, polled.result ?? missing(taskId));
        }
        if (info.status === "input_required" && info.inputRequests && Object.keys(info.inputRequests).length > 0) {
          if (!options.onInputRequests) throw new TaskInputRequiredError(info);
          await this.update(taskId, await options.onInputRequests(info.inputRequests, info), request);
        }
      } else if (info.status === "completed" || info.status === "failed" || info.status === "input_required") {
        // tasks/result waits for the end, and carries what a server queued for an input_required task.
        return this.output(tool, await this.legacyResult(taskId, info, request));
      }
      if (info.status === "cancelled") throw new TaskEndedError(taskId, "cancelled", info.statusMessage ?? `Task ${taskId} was cancelled`);
      if (info.status === "failed") {
        const error = polled.error;
        throw new TaskEndedError(
          taskId,
          "failed",
          typeof error?.message === "string" ? error.message : (info.statusMessage ?? `Task ${taskId} failed`),
          typeof error?.code === "number" ? error.code : undefined,
          error?.data,
        );
      }
      await sleep(Math.max(info.pollIntervalMs ?? 1000, 10), options.signal);
      polled = await this.poll(taskId, request);
    }
  }

  private async legacyResult(taskId: string, info: ToolTaskState, options: TaskRequestOptions): Promise<CallToolResult> {
    try {
      return (await this.sdk.request({ method: "tasks/result", params: { taskId } }, PASS_THROUGH, options)) as CallToolResult;
    } catch (error) {
      // A task that failed with a JSON-RPC error: tasks/result repeats it.
      const code = (error as { code?: unknown }).code;
      if (info.status !== "failed" && (await this.get(taskId, options)).status !== "failed") throw error;
      throw new TaskEndedError(
        taskId,
        "failed",
        error instanceof Error ? error.message : String(error),
        typeof code === "number" ? code : undefined,
        (error as { data?: unknown }).data,
      );
    }
  }

  /** tasks/*: on 2026-07-28, marked so the request declares the tasks extension. */
  private taskRequest(method: string, params: JsonObject, options?: TaskRequestOptions): Promise<unknown> {
    if (!this.modern) return this.sdk.request({ method, params }, PASS_THROUGH, options);
    this.installWire();
    const mark: TaskMark = { declare: true };
    return this.sdk.request({ method, params: { ...params, _meta: { [TASK_MARK]: mark } } }, PASS_THROUGH, options);
  }

  private installWire(): void {
    const transport = this.sdk.transport;
    if (!transport) throw new Error("The SDK Client is not connected");
    acceptTaskAnswers(transport);
  }
}

class TaskHandle implements ToolTask<unknown> {
  constructor(
    private readonly engine: TaskEngine,
    readonly tool: string,
    public info: ToolTaskState,
    /** The answer of a call the server ran at once. */
    private readonly inline?: CallToolResult,
    /** Whether `info` is the server's (false for a resumed task until it is polled). */
    private known = true,
  ) {}

  get taskId(): string | undefined {
    return this.info.taskId;
  }

  get status(): TaskStatus {
    return this.info.status;
  }

  async get(options?: TaskRequestOptions): Promise<ToolTaskState> {
    if (this.info.taskId === undefined) return this.info;
    this.info = await this.engine.get(this.info.taskId, options);
    this.known = true;
    return this.info;
  }

  async result(options: TaskWaitOptions = {}): Promise<unknown> {
    if (this.inline) return this.engine.output(this.tool, this.inline);
    if (!this.known) await this.get(requestOptions(options));
    return this.engine.wait(this.tool, this.info, {
      ...options,
      onStatus: (info) => {
        this.info = info;
        options.onStatus?.(info);
      },
    });
  }

  async cancel(options?: TaskRequestOptions): Promise<void> {
    if (this.info.taskId !== undefined) await this.engine.cancel(this.info.taskId, options);
  }

  async update(responses: { [key: string]: unknown }, options?: TaskRequestOptions): Promise<void> {
    if (this.info.taskId === undefined) return;
    await this.engine.update(this.info.taskId, responses, options);
    // The questions answered are no longer the task's state.
    this.info = await this.engine.get(this.info.taskId, options);
  }
}

/** A 2025-11-25 Task (`ttl`, `pollInterval` in ms). */
function legacyInfo(task: JsonObject): ToolTaskState {
  return {
    ...common(task),
    ...(typeof task["ttl"] === "number" || task["ttl"] === null ? { ttlMs: task["ttl"] } : {}),
    ...(typeof task["pollInterval"] === "number" ? { pollIntervalMs: task["pollInterval"] } : {}),
  };
}

/** A task polled, and on 2026-07-28 the result or the error tasks/get inlines once it ended. */
interface Polled {
  info: ToolTaskState;
  result?: CallToolResult;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** A 2026-07-28 Task (`ttlMs`, `pollIntervalMs`; tasks/get adds result, error or inputRequests). */
function modernTask(task: JsonObject): Polled {
  const info: ToolTaskState = {
    ...common(task),
    ...(typeof task["ttlMs"] === "number" || task["ttlMs"] === null ? { ttlMs: task["ttlMs"] } : {}),
    ...(typeof task["pollIntervalMs"] === "number" ? { pollIntervalMs: task["pollIntervalMs"] } : {}),
    ...(isObject(task["inputRequests"]) ? { inputRequests: task["inputRequests"] } : {}),
  };
  return {
    info,
    // The server's answer as sent: its reader (ManifestClient.outputOf) looks only at isError and
    // at structuredContent, which it checks against the tool's outputSchema.
    ...(isObject(task["result"]) ? { result: task["result"] as CallToolResult } : {}),
    ...(isObject(task["error"]) ? { error: task["error"] } : {}),
  };
}

const STATUSES: readonly TaskStatus[] = ["working", "input_required", "completed", "failed", "cancelled"];

function common(task: JsonObject): ToolTaskState {
  if (typeof task["taskId"] !== "string" || !STATUSES.includes(task["status"] as TaskStatus)) throw new Error(`Not a task: ${JSON.stringify(task)}`);
  return {
    taskId: task["taskId"],
    status: task["status"] as TaskStatus,
    ...(typeof task["statusMessage"] === "string" ? { statusMessage: task["statusMessage"] } : {}),
    ...(typeof task["createdAt"] === "string" ? { createdAt: task["createdAt"] } : {}),
    ...(typeof task["lastUpdatedAt"] === "string" ? { lastUpdatedAt: task["lastUpdatedAt"] } : {}),
  };
}

function requestOptions(options: TaskWaitOptions): TaskRequestOptions {
  return { ...(options.signal ? { signal: options.signal } : {}), ...(options.timeout === undefined ? {} : { timeout: options.timeout }) };
}

function missing(taskId: string): never {
  throw new Error(`Task ${taskId} completed without a result in tasks/get`);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
