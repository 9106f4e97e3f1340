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
 * under maxStoredResultBytes by evicting finished tasks, as maxTasks does. Each owner has a share
 * of both (maxTasksPerOwner, maxStoredResultBytesPerOwner), so one caller's tasks do not push out
 * another's: past its share a caller's own finished tasks go, and when room is needed overall the
 * requester's own finished tasks go first, then those of callers nothing identifies, then anyone's
 * (which takes several owners filling their shares).
 *
 * The store's contract (TaskStore and its records) is in engine/parts.ts: every server's options
 * name it. The in-memory store is the default (one process); redis/redisTaskStore.ts keeps tasks in
 * Redis; durable/durableTaskStore.ts is the memory store writing through to a Durable Object's
 * storage (a TaskJournal), so that its tasks outlive the object's isolate.
 */
import { ErrorCodes, rpcError } from "../../shared/errors.js";
import type { TaskStatus } from "../../shared/mcp.js";
import { positiveOption } from "../engine/options.js";
import type { StoredTask, TaskChange, TaskEvent, TaskEventLink, TaskOutcome, TaskPage, TaskRecord, TaskStore, TaskStoreLimits } from "../engine/parts.js";

/**
 * The limits, defaults filled in and checked: an owner's share is never more than the whole, and a
 * result never more than an owner's share.
 */
export function storeLimits(limits: TaskStoreLimits): Required<TaskStoreLimits> {
  const maxTasks = positiveOption(limits.maxTasks, 10_000, "maxTasks");
  const maxStoredResultBytes = positiveOption(limits.maxStoredResultBytes, DEFAULT_MAX_STORED_RESULT_BYTES, "maxStoredResultBytes");
  const maxTaskResultBytes = positiveOption(limits.maxTaskResultBytes, DEFAULT_MAX_TASK_RESULT_BYTES, "maxTaskResultBytes");
  // By default a share holds at least the largest result a server allows.
  const maxStoredResultBytesPerOwner = Math.min(
    positiveOption(
      limits.maxStoredResultBytesPerOwner,
      Math.max(DEFAULT_MAX_STORED_RESULT_BYTES_PER_OWNER, maxTaskResultBytes),
      "maxStoredResultBytesPerOwner",
    ),
    maxStoredResultBytes,
  );
  return {
    maxTasks,
    maxTaskResultBytes: Math.min(maxTaskResultBytes, maxStoredResultBytesPerOwner),
    maxStoredResultBytes,
    maxTasksPerOwner: Math.min(positiveOption(limits.maxTasksPerOwner, 1_000, "maxTasksPerOwner"), maxTasks),
    maxStoredResultBytesPerOwner,
  };
}

/** The -32005 of a store whose maxTasks tasks all run. */
export function tooManyTasks(limit: number): Error {
  return rpcError(ErrorCodes.LimitExceeded, `Too many tasks: the ${limit} tasks kept are all running (the server's maxTasks); retry when one has ended`, {
    limit,
  });
}

/** The -32005 of an owner whose maxTasksPerOwner tasks all run. */
export function tooManyOwnTasks(limit: number): Error {
  return rpcError(
    ErrorCodes.LimitExceeded,
    `Too many tasks of yours: the ${limit} tasks kept for you are all running (the server's maxTasksPerOwner); retry when one has ended`,
    { limit },
  );
}

const DEFAULT_MAX_TASK_RESULT_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_STORED_RESULT_BYTES_PER_OWNER = 16 * 1024 * 1024;
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
 * Where a memory store writes what it keeps, so that its tasks outlive the process: it reads them
 * back when the store opens. The store keeps records in memory and outcomes only in the journal.
 * Writes are issued in order and awaited by the store method that made them (`flush`); a removal
 * made by the ttl sweep is awaited by the next method.
 */
export interface TaskJournal {
  /** The tasks written before (expired ones may be among them: the store drops those). */
  restore(): Promise<JournalEntry[]>;
  /** A record written whole (without its outcome), with its place in the order of creation, and the JSON of its outcome when it has just ended with one. */
  write(entry: JournalEntry, outcome: string | undefined): void;
  remove(id: string): void;
  /** A finished task's outcome, as the JSON written. */
  outcome(id: string): Promise<string | undefined>;
  /** Settles when every write issued so far is kept; rejects when one failed. */
  flush(): Promise<void>;
}

/** A task as a journal keeps it: its record without the outcome, its place, and the outcome's size in bytes (0: none). */
export interface JournalEntry {
  task: TaskRecord;
  order: number;
  bytes: number;
}

/**
 * A memory store that writes through to `journal` and reads it back on open. A task restored still
 * running was run by a process that has stopped: it is orphaned, and the engine fails it when
 * it is next read (the process that restored it never ran its handler).
 */
export function journaledTaskStore(journal: TaskJournal, limits: TaskStoreLimits = {}): TaskStore {
  return new MemoryTaskStore(storeLimits(limits), undefined, journal);
}

/**
 * The default store: this process's memory. Tasks past their ttl are forgotten within a second.
 * At most maxTasks tasks and maxStoredResultBytes of outcomes, and of these at most
 * maxTasksPerOwner and maxStoredResultBytesPerOwner for one owner: room is made by evicting
 * finished tasks in the order they ended, never a running one (see the top of this file).
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
  /** What each owner has kept (NOBODY: the tasks whose caller nothing identifies). */
  private readonly shares = new Map<string, OwnerShare>();
  /** When each running task's lease lapses (only with leaseMs). */
  private readonly leases = new Map<string, number>();
  /** Running tasks read back from the journal: nobody runs them any more. */
  private readonly restored = new Set<string>();
  private readonly links = new Set<(event: TaskEvent) => void>();
  /** Runs while tasks are kept: forgets those past their ttl (one timer, not one per task). */
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly limits: Required<TaskStoreLimits>,
    readonly leaseMs: number | undefined,
    /** With a journal, outcomes are kept there only (`outcomes` stays empty). */
    private readonly journal?: TaskJournal,
  ) {}

  private opening: Promise<void> | undefined;
  /** Whether the journal's tasks are in memory (a failed open is tried again; they are read once). */
  private loaded = false;

  open(): Promise<void> {
    return (this.opening ??= this.restore().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    }));
  }

  /**
   * Reads the journal back: records in their order of creation, finished tasks in the order they
   * ended (by lastUpdatedAt), running ones orphaned. Expired tasks, and tasks past the limits
   * (which a journal written with other limits may hold), are removed from it.
   */
  private async restore(): Promise<void> {
    if (this.journal === undefined || this.loaded) return;
    const now = Date.now();
    const entries = (await this.journal.restore()).sort((a, b) => a.order - b.order);
    if (this.loaded) return;
    const ended = entries.filter((e) => isTerminal(e.task.status)).sort((a, b) => (a.task.lastUpdatedAt < b.task.lastUpdatedAt ? -1 : 1));
    const rank = new Map(ended.map((e, i) => [e.task.id, i]));
    // Running tasks first, so that the limits drop finished ones rather than them; then the
    // finished ones, the last ended first: when the limits are smaller than those the journal was
    // written with, the oldest go.
    const ordered = [...entries.filter((e) => !isTerminal(e.task.status)), ...[...ended].reverse()];
    let order = 0;
    for (const entry of ordered) {
      order = Math.max(order, entry.order);
      const { task, bytes } = entry;
      const owner = task.owner ?? NOBODY;
      const share = this.share(owner);
      const room =
        task.expiresAt > now &&
        this.tasks.size < this.limits.maxTasks &&
        share.tasks < this.limits.maxTasksPerOwner &&
        this.storedBytes + bytes <= this.limits.maxStoredResultBytes &&
        share.bytes + bytes <= this.limits.maxStoredResultBytesPerOwner;
      if (!room) {
        if (share.tasks === 0) this.shares.delete(owner);
        this.journal.remove(task.id);
        continue;
      }
      this.tasks.set(task.id, task);
      this.order.set(task.id, entry.order);
      share.tasks++;
      if (isTerminal(task.status)) {
        this.finished.add(task.id);
        share.finished.add(task.id);
        if (bytes > 0) {
          this.sizes.set(task.id, bytes);
          this.storedBytes += bytes;
          share.bytes += bytes;
        }
      } else this.restored.add(task.id);
    }
    this.created = order;
    // The map and the finished sets are in the orders they page and evict by.
    this.reorder(rank);
    this.loaded = true;
    if (this.tasks.size > 0) this.startSweeper();
    await this.journal.flush();
  }

  /** Puts `tasks` in the order of creation and each finished set in the order of `rank` (restore). */
  private reorder(rank: Map<string, number>): void {
    const records = [...this.tasks.values()].sort((a, b) => this.order.get(a.id)! - this.order.get(b.id)!);
    this.tasks.clear();
    for (const task of records) this.tasks.set(task.id, task);
    const byEnd = (set: Set<string>) => {
      const ids = [...set].sort((a, b) => rank.get(a)! - rank.get(b)!);
      set.clear();
      for (const id of ids) set.add(id);
    };
    byEnd(this.finished);
    for (const share of this.shares.values()) byEnd(share.finished);
  }

  async create(task: TaskRecord): Promise<void> {
    if (task.outcome !== undefined) throw new TypeError("a new task has no outcome yet: transition writes it");
    const owner = task.owner ?? NOBODY;
    // Room for one more of the owner's, from its own finished tasks; then room overall.
    // (A share as large as the whole is the whole: maxTasks says it.)
    const { maxTasks, maxTasksPerOwner } = this.limits;
    if (
      owner !== NOBODY &&
      maxTasksPerOwner < maxTasks &&
      !this.evict([this.shares.get(owner)?.finished], () => (this.shares.get(owner)?.tasks ?? 0) < maxTasksPerOwner)
    )
      throw tooManyOwnTasks(maxTasksPerOwner);
    if (!this.evict(this.pools(owner), () => this.tasks.size < maxTasks)) throw tooManyTasks(maxTasks);
    this.tasks.set(task.id, task);
    this.order.set(task.id, ++this.created);
    const share = this.share(owner);
    share.tasks++;
    if (isTerminal(task.status)) {
      this.finished.add(task.id);
      share.finished.add(task.id);
    } else if (this.leaseMs !== undefined) this.leases.set(task.id, Date.now() + this.leaseMs);
    this.startSweeper();
    if (this.journal) {
      this.journal.write({ task, order: this.created, bytes: 0 }, undefined);
      await this.journal.flush();
    }
  }

  private startSweeper(): void {
    if (this.sweeper !== undefined) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    // The sweep alone never keeps the process alive.
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  async get(id: string, summary = false): Promise<StoredTask | undefined> {
    const task = this.tasks.get(id);
    if (!task || task.expiresAt <= Date.now()) return undefined;
    if (this.journal === undefined || summary || !this.sizes.has(id)) return { task: this.whole(task), orphaned: this.orphaned(task) };
    const json = await this.journal.outcome(id);
    // Removed while it was read: gone, as if read a moment later.
    if (json === undefined || this.tasks.get(id) !== task) return undefined;
    return { task: { ...task, outcome: JSON.parse(json) as TaskOutcome }, orphaned: false };
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
      tasks.push({ task: this.journal ? task : this.whole(task), orphaned: this.orphaned(task) });
    }
    return { tasks };
  }

  async transition(id: string, change: TaskChange, at: string, ifOrphaned = false): Promise<TaskRecord | undefined> {
    const task = this.tasks.get(id);
    if (!task || isTerminal(task.status) || (ifOrphaned && !this.orphaned(task))) return undefined;
    const kept = keptChange(change, this.limits.maxTaskResultBytes);
    const next = applyChange(task, kept.change, at);
    if (isTerminal(next.status)) {
      const owner = task.owner ?? NOBODY;
      // Room for this outcome in the owner's share, from its own finished tasks; then room overall.
      // (It always fits: a result is never larger than a share, and every finished task may go.)
      const own = () => this.shares.get(owner)?.bytes ?? 0;
      if (owner !== NOBODY) this.evict([this.shares.get(owner)?.finished], () => own() + kept.bytes <= this.limits.maxStoredResultBytesPerOwner);
      this.evict(this.pools(owner), () => this.storedBytes + kept.bytes <= this.limits.maxStoredResultBytes);
      this.leases.delete(id);
      this.restored.delete(id);
      this.finished.add(id);
      const share = this.share(owner);
      share.finished.add(id);
      if (kept.bytes > 0) {
        this.sizes.set(id, kept.bytes);
        this.storedBytes += kept.bytes;
        share.bytes += kept.bytes;
      }
    }
    const { outcome: _parsed, ...bare } = next;
    if (kept.outcome !== undefined) {
      // Kept as its JSON; the record given back (to the caller that finished it) keeps its objects.
      if (!this.journal) this.outcomes.set(id, kept.outcome);
      this.tasks.set(id, bare);
    } else this.tasks.set(id, next);
    if (this.journal) {
      this.journal.write({ task: bare, order: this.order.get(id)!, bytes: kept.bytes }, kept.outcome);
      await this.journal.flush();
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
    await this.journal?.flush();
  }

  private orphaned(task: TaskRecord): boolean {
    if (isTerminal(task.status)) return false;
    if (this.restored.has(task.id)) return true;
    if (this.leaseMs === undefined) return false;
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

  /** What `owner` has kept, made when first needed. */
  private share(owner: string): OwnerShare {
    let share = this.shares.get(owner);
    if (share === undefined) this.shares.set(owner, (share = { tasks: 0, bytes: 0, finished: new Set() }));
    return share;
  }

  /** Where room for `owner` is taken from, in order: its own finished tasks, those of nobody in particular, anyone's. */
  private pools(owner: string): (Set<string> | undefined)[] {
    return [this.shares.get(owner)?.finished, this.shares.get(NOBODY)?.finished, this.finished];
  }

  /** Evicts finished tasks from `pools`, in turn and each in the order they ended, until `fits`; whether it does. */
  private evict(pools: readonly (Set<string> | undefined)[], fits: () => boolean): boolean {
    for (const pool of pools) {
      if (pool === undefined) continue;
      // Deleting the current member of a Set while iterating it is safe.
      for (const id of pool) {
        if (fits()) return true;
        this.remove(id);
      }
    }
    return fits();
  }

  private remove(id: string): void {
    const task = this.tasks.get(id);
    if (task === undefined) return;
    const owner = task.owner ?? NOBODY;
    const share = this.shares.get(owner)!;
    share.tasks--;
    share.finished.delete(id);
    share.bytes -= this.sizes.get(id) ?? 0;
    if (share.tasks === 0) this.shares.delete(owner);
    this.outcomes.delete(id);
    this.finished.delete(id);
    this.leases.delete(id);
    this.restored.delete(id);
    this.tasks.delete(id);
    this.order.delete(id);
    this.journal?.remove(id);
    const size = this.sizes.get(id);
    if (size !== undefined) {
      this.sizes.delete(id);
      this.storedBytes -= size;
    }
  }
}

/** What one owner has kept: its tasks, its finished ones in the order they ended, the bytes of their outcomes. */
interface OwnerShare {
  tasks: number;
  bytes: number;
  readonly finished: Set<string>;
}

/** The share of the tasks whose caller nothing identifies (an owner is never empty: engine/owner.ts). */
const NOBODY = "";

/** How often expired tasks are looked for: a task is forgotten at most this long after its ttl. */
const SWEEP_MS = 1000;
