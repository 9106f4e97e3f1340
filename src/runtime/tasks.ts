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
  /** How long a task is kept from its creation, in ms (default one hour; a 2025-era client may ask for less). A task still running then is cancelled. */
  taskTtlMs?: number;
  /** The poll interval suggested to clients, in ms (default 500). */
  taskPollIntervalMs?: number;
  /**
   * Tasks kept at once, running and finished (default 10,000). A new task evicts the finished task
   * that ended first; finished tasks keep only their result.
   */
  maxTasks?: number;
  /** Tasks running at once (default 1,000); past it a new task is refused with -32005 until one ends. */
  maxRunningTasks?: number;
}

/** How a task ended: the tool's result, or a JSON-RPC error. */
type TaskOutcome = { result: JsonObject } | { error: { code: number; message: string; data?: unknown } };

/** What a running task holds: its handler's signal, its questions. Dropped when the task ends. */
interface LiveTask {
  /** Aborted by tasks/cancel or expiry; the handler's ctx.signal. */
  readonly controller: AbortController;
  /** Questions waiting for the client, by key (2026-07-28 tasks). */
  readonly questions: Map<string, { request: InputRequest; answer: (response: unknown) => void; fail: (error: Error) => void }>;
  readonly usedKeys: Set<string>;
  readonly capabilities: JsonObject | undefined;
  readonly markDone: () => void;
}

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
  /** When the ttl is over (ms since the epoch): the task is then forgotten (cancelled first if running). */
  readonly expiresAt: number;
  outcome?: TaskOutcome;
  /** Resolves when the task reaches a terminal status. */
  readonly done: Promise<void>;
  /** Set while the task runs; a finished task keeps nothing of its request. */
  live: LiveTask | undefined;
}

/** A task just created: running, with its live state. */
export type RunningTask = TaskRecord & { live: LiveTask };

const TERMINAL: readonly TaskStatus[] = ["completed", "failed", "cancelled"];
const MAX_TTL_MS = 24 * 3600_000;

export class TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  /** Ids of finished tasks, in the order they ended: the first is evicted first. */
  private readonly finished = new Set<string>();
  /** Runs while tasks are kept: expires those past their ttl (one timer, not one per task). */
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private running = 0;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly maxTasks: number;
  readonly maxRunning: number;

  constructor(options: TaskOptions = {}) {
    this.ttlMs = positiveOption(options.taskTtlMs, 3600_000, "taskTtlMs");
    this.pollIntervalMs = positiveOption(options.taskPollIntervalMs, 500, "taskPollIntervalMs");
    this.maxTasks = positiveOption(options.maxTasks, 10_000, "maxTasks");
    this.maxRunning = Math.min(positiveOption(options.maxRunningTasks, 1_000, "maxRunningTasks"), this.maxTasks);
  }

  /** A new running task, or -32005 when maxRunningTasks are running. */
  create(era: ProtocolEra, owner: string, capabilities: JsonObject | undefined, requestedTtl?: unknown): RunningTask {
    if (this.running >= this.maxRunning) {
      throw rpcError(ErrorCodes.LimitExceeded, `Too many tasks: ${this.maxRunning} are running (the server's maxRunningTasks); retry when one has ended`, { limit: this.maxRunning });
    }
    // Room for one more: the finished task that ended first goes (running ones are never evicted).
    for (const id of this.finished) {
      if (this.tasks.size < this.maxTasks) break;
      this.remove(id);
    }
    const ttl = typeof requestedTtl === "number" && Number.isFinite(requestedTtl) && requestedTtl > 0 ? Math.min(requestedTtl, this.ttlMs, MAX_TTL_MS) : this.ttlMs;
    const now = new Date().toISOString();
    let markDone!: () => void;
    const done = new Promise<void>((resolve) => (markDone = resolve));
    const task: RunningTask = {
      // Unguessable: without an authorization context, the id is what protects a task.
      id: crypto.randomUUID(),
      era,
      owner,
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: ttl,
      expiresAt: Date.now() + ttl,
      done,
      live: { controller: new AbortController(), questions: new Map(), usedKeys: new Set(), capabilities, markDone },
    };
    this.tasks.set(task.id, task);
    this.running++;
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
      // The sweep alone never keeps the process alive.
      (this.sweeper as { unref?: () => void }).unref?.();
    }
    return task;
  }

  /** How many tasks are kept, and how many of them run (for tests and monitoring). */
  get size(): { kept: number; running: number } {
    return { kept: this.tasks.size, running: this.running };
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
    this.end(task, "the task ended");
  }

  /** Cancels a running task: its handler's signal aborts and the status is `cancelled` at once. */
  cancel(task: TaskRecord, message = "Cancelled by the client"): void {
    if (TERMINAL.includes(task.status)) return;
    task.status = "cancelled";
    task.statusMessage = message;
    this.touch(task);
    task.live?.controller.abort(new Error(`The task was cancelled: ${message}`));
    this.end(task, "The task was cancelled");
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
  channel(task: RunningTask): InputChannel {
    const live = task.live;
    return {
      ask: (request, wanted) => {
        const missing = checkCapability(request, live.capabilities);
        if (missing) return rejected(missing);
        if (TERMINAL.includes(task.status)) return rejected(new Error("the task has ended"));
        // Keys are never reused over a task's life, so a client never mistakes an old answer.
        let key = wanted;
        for (let n = 2; live.usedKeys.has(key); n++) key = `${wanted}-${n}`;
        live.usedKeys.add(key);
        return new Promise((resolve, reject) => {
          live.questions.set(key, { request, answer: resolve, fail: reject });
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
    const questions = task.live?.questions;
    if (!questions) return;
    for (const [key, response] of Object.entries(responses)) {
      const question = questions.get(key);
      if (!question || responseProblem(question.request, response) !== undefined) continue;
      questions.delete(key);
      question.answer(response);
    }
    if (questions.size === 0 && task.status === "input_required") {
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
    if (task.status === "input_required" && task.live) view.inputRequests = Object.fromEntries([...task.live.questions].map(([key, q]) => [key, q.request]));
    if (task.status === "completed" && task.outcome && "result" in task.outcome) view.result = task.outcome.result;
    if (task.status === "failed" && task.outcome) view.error = "error" in task.outcome ? task.outcome.error : { code: ErrorCodes.InternalError, message: "The tool answered isError" };
    return view;
  }

  private touch(task: TaskRecord): void {
    task.lastUpdatedAt = new Date().toISOString();
  }

  /**
   * A task reached a terminal status: its waiting questions fail, its live state goes (the
   * handler's signal, the request it came from), and it queues for eviction by count.
   */
  private end(task: TaskRecord, why: string): void {
    const live = task.live;
    if (!live) return;
    if (live.questions.size > 0) {
      const error = new Error(why);
      for (const question of live.questions.values()) question.fail(error);
    }
    // Assigned, not deleted: the record keeps its shape (a deleted property makes it a slower, larger dictionary).
    task.live = undefined;
    this.running--;
    this.finished.add(task.id);
    live.markDone();
  }

  /** Forgets the tasks past their ttl, cancelling those still running. */
  private sweep(): void {
    const now = Date.now();
    for (const task of this.tasks.values()) {
      if (task.expiresAt > now) continue;
      if (task.live) this.cancel(task, "Expired: its ttl has passed");
      this.remove(task.id);
    }
    if (this.tasks.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private remove(id: string): void {
    if (this.tasks.get(id)?.live) return;
    this.finished.delete(id);
    this.tasks.delete(id);
  }
}

/** How often expired tasks are looked for: a task is forgotten at most this long after its ttl. */
const SWEEP_MS = 1000;

/** A positive whole number of an option, or its default; anything else is a programming error. */
export function positiveOption(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive whole number, not ${String(value)}`);
  return value;
}
