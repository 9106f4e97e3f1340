/**
 * Where tasks are kept: the part of a task every replica sees (its record) and the events
 * replicas send each other about it. The part only the process running the handler has (its
 * AbortController, the resolvers of its questions) stays in that process (tasks.ts).
 *
 * Transitions are atomic and monotonic: a change applies only to a task that exists and has not
 * ended, and it writes the record whole (status, message, outcome, questions together). So a
 * handler that finishes after tasks/cancel changes nothing, and two replicas racing to end a task
 * leave one outcome.
 *
 * Both stores bound what they keep in count (maxTasks) and in bytes: a result larger than
 * maxTaskResultBytes fails its task instead of being kept, and the results kept together stay
 * under maxStoredResultBytes by evicting finished tasks, as maxTasks does.
 *
 * The store's contract (TaskStore and its records) is in engine/parts.ts: every server's options
 * name it. The in-memory store is the default (one process); redis/redisTaskStore.ts keeps tasks in Redis.
 */
import { ErrorCodes } from "../../shared/errors.js";
import type { TaskStatus } from "../../shared/mcp.js";
import { positiveOption } from "../engine/options.js";
import type { StoredTask, TaskChange, TaskEvent, TaskEventLink, TaskOutcome, TaskPage, TaskRecord, TaskStore, TaskStoreLimits } from "../engine/parts.js";

/** The limits, defaults filled in and checked (a result is never allowed more than the whole budget). */
export function storeLimits(limits: TaskStoreLimits): Required<TaskStoreLimits> {
  const maxStoredResultBytes = positiveOption(limits.maxStoredResultBytes, DEFAULT_MAX_STORED_RESULT_BYTES, "maxStoredResultBytes");
  return {
    maxTasks: positiveOption(limits.maxTasks, 10_000, "maxTasks"),
    maxTaskResultBytes: Math.min(positiveOption(limits.maxTaskResultBytes, DEFAULT_MAX_TASK_RESULT_BYTES, "maxTaskResultBytes"), maxStoredResultBytes),
    maxStoredResultBytes,
  };
}

const DEFAULT_MAX_TASK_RESULT_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_STORED_RESULT_BYTES = 64 * 1024 * 1024;

/** What a store keeps of a change: the change (its outcome replaced when too large), the outcome's JSON and its size in bytes. */
export interface KeptChange {
  change: TaskChange;
  outcome?: string;
  bytes: number;
}

/** The change a store writes: an outcome over `maxBytes` (bytes of its JSON) becomes an error, and the task fails. */
export function keptChange(change: TaskChange, maxBytes: number): KeptChange {
  if (change.outcome === undefined) return { change, bytes: 0 };
  const json = JSON.stringify(change.outcome);
  const bytes = utf8Bytes(json);
  if (bytes <= maxBytes) return { change, outcome: json, bytes };
  const message = resultTooLarge(bytes, maxBytes);
  const outcome: TaskOutcome = { error: { code: ErrorCodes.InternalError, message } };
  const replaced = JSON.stringify(outcome);
  return { change: { status: "failed", statusMessage: message, outcome }, outcome: replaced, bytes: utf8Bytes(replaced) };
}

const encoder = new TextEncoder();

/** The length of `text` in UTF-8 (what Redis stores), without Node's Buffer: this module is compiled into client-only programs too. */
function utf8Bytes(text: string): number {
  // Most results are ASCII: then no copy is made.
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

/** Why a task failed whose result was too large to keep. */
function resultTooLarge(bytes: number, maxBytes: number): string {
  return `The task's result was too large to keep: ${bytes} bytes, more than the server's maxTaskResultBytes (${maxBytes})`;
}

const TERMINAL: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.includes(status);
}

/** The record after `change`: the fixed fields kept, the changing ones replaced whole. */
function applyChange(task: TaskRecord, change: TaskChange, at: string): TaskRecord {
  const { statusMessage: _m, outcome: _o, inputRequests: _i, ...fixed } = task;
  return { ...fixed, ...change, lastUpdatedAt: at };
}

export interface MemoryTaskStoreOptions extends TaskStoreLimits {
  /** Leases that lapse (for tests that play two replicas on one store); default: never lost. */
  leaseMs?: number;
}

/**
 * The default store: this process's memory. Tasks past their ttl are forgotten within a second.
 * At most maxTasks tasks (a new one evicts the finished task that ended first) and
 * maxStoredResultBytes of outcomes (a new outcome evicts the finished tasks that ended first).
 */
export function memoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  return new MemoryTaskStore(storeLimits(options), options.leaseMs);
}

/**
 * The in-memory store. A finished task's outcome is kept as its JSON, the bytes the budget counts,
 * not as the handler's objects (a 4 MB array of `{}` is over a million objects, 30 times its JSON
 * in heap): a record read back gets it parsed on first access of its `outcome`.
 */
class MemoryTaskStore implements TaskStore {
  /** The records, without their outcome (in `outcomes`, as JSON). */
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly outcomes = new Map<string, string>();
  /** Each task's place in the order of creation (tasks/list pages by it). */
  private readonly order = new Map<string, number>();
  private created = 0;
  /** Ids of finished tasks, in the order they ended: the first is evicted first. */
  private readonly finished = new Set<string>();
  /** The size of each finished task's outcome (bytes of its JSON), and their sum. */
  private readonly sizes = new Map<string, number>();
  private storedBytes = 0;
  /** When each running task's lease lapses (only with leaseMs). */
  private readonly leases = new Map<string, number>();
  private readonly links = new Set<(event: TaskEvent) => void>();
  /** Runs while tasks are kept: forgets those past their ttl (one timer, not one per task). */
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly limits: Required<TaskStoreLimits>,
    readonly leaseMs: number | undefined,
  ) {}

  async open(): Promise<void> {}

  async create(task: TaskRecord): Promise<void> {
    if (task.outcome !== undefined) throw new TypeError("a new task has no outcome yet: transition writes it");
    // Room for one more: the finished task that ended first goes (running ones are never evicted).
    for (const id of this.finished) {
      if (this.tasks.size < this.limits.maxTasks) break;
      this.remove(id);
    }
    this.tasks.set(task.id, task);
    this.order.set(task.id, ++this.created);
    if (isTerminal(task.status)) this.finished.add(task.id);
    else if (this.leaseMs !== undefined) this.leases.set(task.id, Date.now() + this.leaseMs);
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
      // The sweep alone never keeps the process alive.
      (this.sweeper as { unref?: () => void }).unref?.();
    }
  }

  async get(id: string): Promise<StoredTask | undefined> {
    const task = this.tasks.get(id);
    return task && task.expiresAt > Date.now() ? { task: this.whole(task), orphaned: this.orphaned(task) } : undefined;
  }

  /** A record with its outcome, parsed when first read (each read gets its own copy, as a store read from Redis does). */
  private whole(task: TaskRecord): TaskRecord {
    const json = this.outcomes.get(task.id);
    if (json === undefined) return task;
    let parsed: TaskOutcome | undefined;
    return Object.defineProperty({ ...task }, "outcome", {
      enumerable: true,
      configurable: true,
      get: () => (parsed ??= JSON.parse(json) as TaskOutcome),
    });
  }

  async list(owner: string, limit: number, after = 0): Promise<TaskPage> {
    const now = Date.now();
    const tasks: StoredTask[] = [];
    // The map is in the order of creation (a transition replaces a record in its place).
    for (const task of this.tasks.values()) {
      if (task.owner !== owner || task.expiresAt <= now || this.order.get(task.id)! <= after) continue;
      if (tasks.length === limit) return { tasks, next: this.order.get(tasks[limit - 1]!.task.id)! };
      tasks.push({ task: this.whole(task), orphaned: this.orphaned(task) });
    }
    return { tasks };
  }

  async transition(id: string, change: TaskChange, at: string, ifOrphaned = false): Promise<TaskRecord | undefined> {
    const task = this.tasks.get(id);
    if (!task || isTerminal(task.status) || (ifOrphaned && !this.orphaned(task))) return undefined;
    const kept = keptChange(change, this.limits.maxTaskResultBytes);
    const next = applyChange(task, kept.change, at);
    if (isTerminal(next.status)) {
      // Room for this outcome: the finished tasks that ended first go.
      for (const old of this.finished) {
        if (this.storedBytes + kept.bytes <= this.limits.maxStoredResultBytes) break;
        this.remove(old);
      }
      this.leases.delete(id);
      this.finished.add(id);
      if (kept.bytes > 0) {
        this.sizes.set(id, kept.bytes);
        this.storedBytes += kept.bytes;
      }
    }
    if (kept.outcome !== undefined) {
      // Kept as its JSON; the record given back (to the caller that finished it) keeps its objects.
      this.outcomes.set(id, kept.outcome);
      const { outcome: _parsed, ...bare } = next;
      this.tasks.set(id, bare);
    } else this.tasks.set(id, next);
    return next;
  }

  async renewLeases(ids: readonly string[]): Promise<void> {
    if (this.leaseMs === undefined) return;
    const until = Date.now() + this.leaseMs;
    for (const id of ids) if (this.leases.has(id)) this.leases.set(id, until);
  }

  link(listener: (event: TaskEvent) => void): TaskEventLink {
    this.links.add(listener);
    return {
      publish: async (event) => {
        for (const other of this.links) if (other !== listener) other(event);
      },
      close: () => void this.links.delete(listener),
    };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private orphaned(task: TaskRecord): boolean {
    if (this.leaseMs === undefined || isTerminal(task.status)) return false;
    return (this.leases.get(task.id) ?? 0) <= Date.now();
  }

  /** Forgets the tasks past their ttl (the process running one cancels it: see tasks.ts). */
  private sweep(): void {
    const now = Date.now();
    for (const task of this.tasks.values()) if (task.expiresAt <= now) this.remove(task.id);
    if (this.tasks.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private remove(id: string): void {
    this.outcomes.delete(id);
    this.finished.delete(id);
    this.leases.delete(id);
    this.tasks.delete(id);
    this.order.delete(id);
    const size = this.sizes.get(id);
    if (size !== undefined) {
      this.sizes.delete(id);
      this.storedBytes -= size;
    }
  }
}

/** How often expired tasks are looked for: a task is forgotten at most this long after its ttl. */
const SWEEP_MS = 1000;
