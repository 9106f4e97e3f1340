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
 * The in-memory store is the default (one process); redisTaskStore.ts keeps tasks in Redis.
 */
import type { JsonObject } from "../../shared/definition.js";
import type { InputRequest } from "../engine/context.js";
import type { TaskStatus } from "../../shared/mcp.js";
import type { ProtocolEra } from "../engine/sdk.js";

/** How a task ended: the tool's result, or a JSON-RPC error. */
export type TaskOutcome = { result: JsonObject } | { error: { code: number; message: string; data?: unknown } };

/** A task as every replica sees it. */
export interface TaskRecord {
  readonly id: string;
  readonly era: ProtocolEra;
  /**
   * Whom it belongs to (taskOwner.ts): the principal, the 2025-era session, or both. Only that
   * caller reads, answers, cancels, follows and lists it; a 2025-era owner's connection gets its
   * status notifications. Absent: nothing identified its creator, and its id is the capability.
   */
  readonly owner?: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  /** When the ttl is over (ms since the epoch): the task is then forgotten (cancelled first if running). */
  readonly expiresAt: number;
  readonly outcome?: TaskOutcome;
  /** A 2026-07-28 task's questions waiting for tasks/update, by key. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
}

/**
 * A change of a task: its new status and what goes with it. Fields left out are removed from the
 * record (a task back to `working` has no questions; a new status has no old message).
 */
export interface TaskChange {
  status: TaskStatus;
  statusMessage?: string;
  outcome?: TaskOutcome;
  inputRequests?: Record<string, InputRequest>;
}

/** A record read from the store, and whether the process running it has stopped renewing its lease. */
export interface StoredTask {
  task: TaskRecord;
  /** Not ended, and its lease is gone: the process that ran it stopped. */
  orphaned: boolean;
}

/** What replicas tell each other about a task. */
export type TaskEvent =
  /** Abort the handler (tasks/cancel reached another replica; the record already says cancelled). */
  | { kind: "cancel"; taskId: string; message: string }
  /** Answers to a 2026-07-28 task's questions (tasks/update reached another replica). */
  | { kind: "update"; taskId: string; responses: JsonObject }
  /** The task's record changed (waiters on tasks/result wake; its owner's connection is notified). */
  | { kind: "status"; task: TaskRecord };

/** One process's link to the store's events: what it publishes goes to every other link. */
export interface TaskEventLink {
  publish(event: TaskEvent): Promise<void>;
  close(): void;
}

/** Where tasks are kept. Every method may be called concurrently from several processes. */
export interface TaskStore {
  /** How long a running task's lease lasts without renewal (ms); undefined: never lost (one process). */
  readonly leaseMs: number | undefined;
  /** Connects (a no-op in memory). Rejects with a message naming what is missing or unreachable. */
  open(): Promise<void>;
  /** Stores a new task (running: with its lease). */
  create(task: TaskRecord): Promise<void>;
  get(id: string): Promise<StoredTask | undefined>;
  /** The owner's tasks that have not expired, oldest first. */
  list(owner: string): Promise<StoredTask[]>;
  /**
   * Applies `change` when the task exists and has not ended (`ifOrphaned`: and its lease is
   * gone), atomically; answers the record as written, or undefined when nothing changed. A
   * terminal change drops the lease.
   */
  transition(id: string, change: TaskChange, at: string, ifOrphaned?: boolean): Promise<TaskRecord | undefined>;
  /** Renews the leases of the tasks this process runs. */
  renewLeases(ids: readonly string[]): Promise<void>;
  /** Events from the other processes (and other links) reach `listener`. */
  link(listener: (event: TaskEvent) => void): TaskEventLink;
  /** Closes connections (the store's owner calls it once, when it stops serving). */
  close(): Promise<void>;
}

export const TERMINAL: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.includes(status);
}

/** The record after `change`: the fixed fields kept, the changing ones replaced whole. */
export function applyChange(task: TaskRecord, change: TaskChange, at: string): TaskRecord {
  const { statusMessage: _m, outcome: _o, inputRequests: _i, ...fixed } = task;
  return { ...fixed, ...change, lastUpdatedAt: at };
}

export interface MemoryTaskStoreOptions {
  /** Tasks kept at once (default 10,000): a new task evicts the finished task that ended first. */
  maxTasks?: number;
  /** Leases that lapse (for tests that play two replicas on one store); default: never lost. */
  leaseMs?: number;
}

/** The default store: this process's memory. Tasks past their ttl are forgotten within a second. */
export function memoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  return new MemoryTaskStore(options.maxTasks ?? 10_000, options.leaseMs);
}

class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  /** Ids of finished tasks, in the order they ended: the first is evicted first. */
  private readonly finished = new Set<string>();
  /** When each running task's lease lapses (only with leaseMs). */
  private readonly leases = new Map<string, number>();
  private readonly links = new Set<(event: TaskEvent) => void>();
  /** Runs while tasks are kept: forgets those past their ttl (one timer, not one per task). */
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly maxTasks: number,
    readonly leaseMs: number | undefined,
  ) {}

  async open(): Promise<void> {}

  async create(task: TaskRecord): Promise<void> {
    // Room for one more: the finished task that ended first goes (running ones are never evicted).
    for (const id of this.finished) {
      if (this.tasks.size < this.maxTasks) break;
      this.remove(id);
    }
    this.tasks.set(task.id, task);
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
    return task && task.expiresAt > Date.now() ? { task, orphaned: this.orphaned(task) } : undefined;
  }

  async list(owner: string): Promise<StoredTask[]> {
    const now = Date.now();
    const found: StoredTask[] = [];
    for (const task of this.tasks.values()) if (task.owner === owner && task.expiresAt > now) found.push({ task, orphaned: this.orphaned(task) });
    return found;
  }

  async transition(id: string, change: TaskChange, at: string, ifOrphaned = false): Promise<TaskRecord | undefined> {
    const task = this.tasks.get(id);
    if (!task || isTerminal(task.status) || (ifOrphaned && !this.orphaned(task))) return undefined;
    const next = applyChange(task, change, at);
    this.tasks.set(id, next);
    if (isTerminal(next.status)) {
      this.leases.delete(id);
      this.finished.add(id);
    }
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
    this.finished.delete(id);
    this.leases.delete(id);
    this.tasks.delete(id);
  }
}

/** How often expired tasks are looked for: a task is forgotten at most this long after its ttl. */
const SWEEP_MS = 1000;
