/**
 * Tasks kept in a Cloudflare Durable Object's storage: the memory store (tasks/taskStore.ts) writing
 * through to the object's key-value storage, and reading it back when the object starts again
 * (an object's isolate is evicted when idle, and on every deploy).
 *
 * Every request of the server goes to the one object that holds the store (the Worker forwards
 * them: init's worker.ts), so its isolate is the only process: events between replicas need no
 * bus, and a task found running after a restart is orphaned (nobody runs its handler any more)
 * and fails when next read, as a task does on Redis when its replica stops.
 *
 * Keys, under `mcpgen/task/`: `<id>` holds the record without its outcome, its place in the
 * order of creation, the outcome's size and its number of chunks; `<id>/<n>` holds the outcome's
 * JSON in chunks of at most 32,768 UTF-16 units, under the 128 KiB a value may hold.
 */
import { journaledTaskStore, type JournalEntry, type TaskJournal } from "../tasks/taskStore.js";
import type { TaskStore, TaskStoreLimits } from "../engine/parts.js";

/** What the store uses of a Durable Object's `state.storage` (the key-value API, on SQLite or not). */
export interface DurableObjectStorageLike {
  get(keys: string[]): Promise<Map<string, unknown>>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<number>;
  list(options: { prefix: string }): Promise<Map<string, unknown>>;
}

/**
 * A task store in a Durable Object's storage, for a server whose tools run as tasks on Cloudflare
 * Workers: pass it as `taskStore` to `createFetchHandler` in the object's constructor, and send
 * every request of the server to that object (docs/guides/serving.md). The limits are those of
 * the memory store (maxTasks, maxTaskResultBytes, ...), each with its default.
 */
export function durableTaskStore(storage: DurableObjectStorageLike, limits: TaskStoreLimits = {}): TaskStore {
  return journaledTaskStore(new DurableJournal(storage), limits);
}

const PREFIX = "mcpgen/task/";
/** UTF-16 units per chunk: at most 64 KiB as the value is serialized, whatever the characters. */
const CHUNK = 32_768;
/** Keys per call of get, put or delete (the storage's limit). */
const BATCH = 128;

/** A record's entry as stored. */
interface StoredEntry extends JournalEntry {
  chunks: number;
}

class DurableJournal implements TaskJournal {
  /** How many chunks each task's outcome has (to read and remove them). */
  private readonly chunks = new Map<string, number>();
  private pending: Promise<unknown>[] = [];

  constructor(private readonly storage: DurableObjectStorageLike) {}

  async restore(): Promise<JournalEntry[]> {
    const entries: JournalEntry[] = [];
    for (const [key, value] of await this.storage.list({ prefix: PREFIX })) {
      // Chunks have a slash after the id; ids never do (tasks.ts makes them).
      if (key.indexOf("/", PREFIX.length) !== -1) continue;
      const { chunks, ...entry } = value as StoredEntry;
      this.chunks.set(entry.task.id, chunks);
      entries.push(entry);
    }
    return entries;
  }

  write(entry: JournalEntry, outcome: string | undefined): void {
    const id = entry.task.id;
    const values: Record<string, unknown> = {};
    let chunks = this.chunks.get(id) ?? 0;
    if (outcome !== undefined) {
      chunks = Math.ceil(outcome.length / CHUNK);
      for (let n = 0; n < chunks; n++) values[`${PREFIX}${id}/${n}`] = outcome.slice(n * CHUNK, (n + 1) * CHUNK);
    }
    this.chunks.set(id, chunks);
    values[PREFIX + id] = { ...entry, chunks } satisfies StoredEntry;
    // The record last, in the same batch when it fits: a record never names chunks not yet written.
    const keys = Object.keys(values);
    for (let at = 0; at < keys.length; at += BATCH)
      this.pending.push(this.storage.put(Object.fromEntries(keys.slice(at, at + BATCH).map((key) => [key, values[key]]))));
  }

  remove(id: string): void {
    const chunks = this.chunks.get(id) ?? 0;
    this.chunks.delete(id);
    const keys = [PREFIX + id, ...Array.from({ length: chunks }, (_, n) => `${PREFIX}${id}/${n}`)];
    for (let at = 0; at < keys.length; at += BATCH) this.pending.push(this.storage.delete(keys.slice(at, at + BATCH)));
  }

  async outcome(id: string): Promise<string | undefined> {
    const chunks = this.chunks.get(id) ?? 0;
    if (chunks === 0) return undefined;
    const keys = Array.from({ length: chunks }, (_, n) => `${PREFIX}${id}/${n}`);
    let json = "";
    for (let at = 0; at < keys.length; at += BATCH) {
      const found = await this.storage.get(keys.slice(at, at + BATCH));
      for (const key of keys.slice(at, at + BATCH)) {
        const chunk = found.get(key);
        if (typeof chunk !== "string") return undefined;
        json += chunk;
      }
    }
    return json;
  }

  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
  }
}
