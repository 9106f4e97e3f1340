/**
 * Tasks: tool calls that outlive their request, polled by the client. Two wire forms share one
 * store (kept in memory by the server process):
 *
 * - MCP 2025-11-25 (2025-era clients): `tools/call` with `params.task` answers `{task}` at once;
 *   `tasks/get`, `tasks/result` (waits for the end), `tasks/list`, `tasks/cancel`; an `isError`
 *   result makes the task `failed`.
 * - The `io.modelcontextprotocol/tasks` extension of 2026-07-28: the server answers a flat
 *   CreateTaskResult (`resultType: "task"`) when the handler calls `ctx.startTask()`; `tasks/get`
 *   inlines the result, the error or the pending questions; `tasks/update` answers questions;
 *   `tasks/cancel` is an acknowledgement; an `isError` result is `completed`.
 */
import type { JsonObject } from "./definition.js";
import { ErrorCodes, rpcError } from "./errors.js";
import type { TaskStatus } from "./mcp.js";
import { checkCapability, rejected, responseProblem, type InputChannel, type InputRequest } from "./context.js";
import type { ProtocolEra } from "./sdk.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

export interface TaskOptions {
  /** How long a task is kept from its creation, in ms (default one hour; a 2025-era client may ask for less). */
  taskTtlMs?: number;
  /** The poll interval suggested to clients, in ms (default 500). */
  taskPollIntervalMs?: number;
}

/** How a task ended: the tool's result, or a JSON-RPC error. */
export type TaskOutcome = { result: JsonObject } | { error: { code: number; message: string; data?: unknown } };

export interface TaskRecord {
  readonly id: string;
  readonly era: ProtocolEra;
  /** Who may list it (a 2025-era HTTP session or stdio connection); tasks/get needs only the id. */
  readonly owner: string;
  status: TaskStatus;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  readonly ttlMs: number;
  outcome?: TaskOutcome;
  /** Questions waiting for the client, by key (2026-07-28 tasks). */
  readonly questions: Map<string, { request: InputRequest; answer: (response: unknown) => void; fail: (error: Error) => void }>;
  readonly usedKeys: Set<string>;
  /** Aborted by tasks/cancel; the handler's ctx.signal. */
  readonly controller: AbortController;
  /** Resolves when the task reaches a terminal status. */
  readonly done: Promise<void>;
  readonly capabilities: JsonObject | undefined;
  markDone(): void;
}

const TERMINAL: readonly TaskStatus[] = ["completed", "failed", "cancelled"];
const MAX_TTL_MS = 24 * 3600_000;

export class TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  readonly ttlMs: number;
  readonly pollIntervalMs: number;

  constructor(options: TaskOptions = {}) {
    this.ttlMs = options.taskTtlMs ?? 3600_000;
    this.pollIntervalMs = options.taskPollIntervalMs ?? 500;
  }

  create(era: ProtocolEra, owner: string, capabilities: JsonObject | undefined, requestedTtl?: unknown): TaskRecord {
    const ttl = typeof requestedTtl === "number" && Number.isFinite(requestedTtl) && requestedTtl > 0 ? Math.min(requestedTtl, this.ttlMs, MAX_TTL_MS) : this.ttlMs;
    const now = new Date().toISOString();
    let markDone!: () => void;
    const done = new Promise<void>((resolve) => (markDone = resolve));
    const task: TaskRecord = {
      // Unguessable: without an authorization context, the id is what protects a task.
      id: crypto.randomUUID(),
      era,
      owner,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: ttl,
      questions: new Map(),
      usedKeys: new Set(),
      controller: new AbortController(),
      done,
      capabilities,
      markDone,
    };
    this.tasks.set(task.id, task);
    const expiry = setTimeout(() => this.tasks.delete(task.id), ttl) as unknown as { unref?: () => void };
    // The expiry timer alone never keeps the process alive.
    expiry.unref?.();
    return task;
  }

  /** The task, or -32602 as MCP requires for an unknown or expired id. */
  get(taskId: unknown): TaskRecord {
    const task = typeof taskId === "string" ? this.tasks.get(taskId) : undefined;
    if (!task) throw rpcError(ErrorCodes.InvalidParams, typeof taskId === "string" ? `Failed to retrieve task: Task not found (${taskId})` : "Invalid params: expected 'taskId' (string)");
    return task;
  }

  /** Tasks an owner may see, oldest first. */
  list(owner: string): TaskRecord[] {
    return [...this.tasks.values()].filter((t) => t.owner === owner);
  }

  finish(task: TaskRecord, outcome: TaskOutcome): void {
    if (TERMINAL.includes(task.status)) return;
    task.outcome = outcome;
    const isError = "result" in outcome && outcome.result.isError === true;
    // 2025-11-25: an isError result fails the task. The extension: it completed (with isError).
    task.status = "error" in outcome || (isError && task.era === "legacy") ? "failed" : "completed";
    this.touch(task);
    for (const question of task.questions.values()) question.fail(new Error("the task ended"));
    task.questions.clear();
    task.markDone();
  }

  /** Cancels a running task: its handler's signal aborts and the status is `cancelled` at once. */
  cancel(task: TaskRecord): void {
    if (TERMINAL.includes(task.status)) return;
    task.status = "cancelled";
    task.statusMessage = "Cancelled by the client";
    this.touch(task);
    task.controller.abort(new Error("The task was cancelled"));
    for (const question of task.questions.values()) question.fail(new Error("The task was cancelled"));
    task.questions.clear();
    task.markDone();
  }

  isTerminal(task: TaskRecord): boolean {
    return TERMINAL.includes(task.status);
  }

  /** The 2025-era status change while a handler waits for the client (or stops waiting). */
  waiting(task: TaskRecord, on: boolean): void {
    if (TERMINAL.includes(task.status)) return;
    task.status = on ? "input_required" : "working";
    this.touch(task);
  }

  /** Where a 2026-07-28 task's handler asks its questions: they wait in tasks/get for tasks/update. */
  channel(task: TaskRecord): InputChannel {
    return {
      ask: (request, wanted) => {
        const missing = checkCapability(request, task.capabilities);
        if (missing) return rejected(missing);
        if (TERMINAL.includes(task.status)) return rejected(new Error("the task has ended"));
        // Keys are never reused over a task's life, so a client never mistakes an old answer.
        let key = wanted;
        for (let n = 2; task.usedKeys.has(key); n++) key = `${wanted}-${n}`;
        task.usedKeys.add(key);
        return new Promise((resolve, reject) => {
          task.questions.set(key, { request, answer: resolve, fail: reject });
          task.status = "input_required";
          this.touch(task);
        });
      },
    };
  }

  /** tasks/update: answers the questions it names; others (unknown, answered, invalid) are ignored. */
  update(task: TaskRecord, responses: unknown): void {
    if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
      throw rpcError(ErrorCodes.InvalidParams, "Invalid params for tasks/update: expected 'taskId' (string) and 'inputResponses' (object)");
    }
    for (const [key, response] of Object.entries(responses)) {
      const question = task.questions.get(key);
      if (!question || responseProblem(question.request, response) !== undefined) continue;
      task.questions.delete(key);
      question.answer(response);
    }
    if (task.questions.size === 0 && task.status === "input_required") {
      task.status = "working";
      this.touch(task);
    }
  }

  /** A Task as 2025-11-25 shows it (tasks/get, tasks/list, tasks/cancel, CreateTaskResult.task). */
  legacyView(task: TaskRecord): JsonObject {
    return {
      taskId: task.id,
      status: task.status,
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttl: task.ttlMs,
      pollInterval: this.pollIntervalMs,
    };
  }

  /** A Task as the 2026-07-28 extension shows it; `detailed` adds result, error or questions (tasks/get). */
  modernView(task: TaskRecord, detailed: boolean): JsonObject {
    const view: JsonObject = {
      taskId: task.id,
      status: task.status,
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: task.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
    if (!detailed) return view;
    if (task.status === "input_required") view.inputRequests = Object.fromEntries([...task.questions].map(([key, q]) => [key, q.request]));
    if (task.status === "completed" && task.outcome && "result" in task.outcome) view.result = task.outcome.result;
    if (task.status === "failed" && task.outcome) view.error = "error" in task.outcome ? task.outcome.error : { code: ErrorCodes.InternalError, message: "The tool answered isError" };
    return view;
  }

  private touch(task: TaskRecord): void {
    task.lastUpdatedAt = new Date().toISOString();
  }
}
