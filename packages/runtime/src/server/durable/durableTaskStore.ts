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
 * Keys: `mcpgen/task/<id>` holds the record without its outcome (or, for a record whose JSON is
 * larger than a chunk, the number of its chunks), its place in the order of creation, the
 * outcome's size and its number of chunks; `mcpgen/result/<id>/<n>` and `mcpgen/record/<id>/<n>`
 * hold an outcome's and a large record's JSON in chunks of at most 32,768 UTF-16 units, under the
 * 128 KiB a value may hold. Restoring lists the records only: results are read when asked for.
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
const RESULT = "mcpgen/result/";
const RECORD = "mcpgen/record/";
/** UTF-16 units per chunk: at most 64 KiB as the value is serialized, whatever the characters. */
const CHUNK = 32_768;
/** Keys per call of get, put or delete (the storage's limit). */
const BATCH = 128;

/** A record's entry as stored: the record inline, or the number of chunks its JSON is in. */
interface StoredEntry {
  task?: JournalEntry["task"];
  recordChunks?: number;
  order: number;
  bytes: number;
  chunks: number;
}

/** `text` in chunks, under `prefix` (`<prefix><n>`). */
function chunked(prefix: string, text: string, into: Record<string, unknown>): number {
  const count = Math.ceil(text.length / CHUNK);
  for (let n = 0; n < count; n++) into[`${prefix}${n}`] = text.slice(n * CHUNK, (n + 1) * CHUNK);
  return count;
}

class DurableJournal implements TaskJournal {
  /** How many chunks each task's outcome and record have (to read and remove them). */
  private readonly chunks = new Map<string, { result: number; record: number }>();
  private pending: Promise<unknown>[] = [];

  constructor(private readonly storage: DurableObjectStorageLike) {}

  async restore(): Promise<JournalEntry[]> {
    const entries: JournalEntry[] = [];
    for (const [key, value] of await this.storage.list({ prefix: PREFIX })) {
      const id = key.slice(PREFIX.length);
      const { task, recordChunks = 0, order, bytes, chunks } = value as StoredEntry;
      this.chunks.set(id, { result: chunks, record: recordChunks });
      const record = task ?? (await this.read(`${RECORD}${id}/`, recordChunks));
      // A large record whose chunks are missing cannot be read back: it goes.
      if (record === undefined) this.remove(id);
      else entries.push({ task: typeof record === "string" ? (JSON.parse(record) as JournalEntry["task"]) : record, order, bytes });
    }
    return entries;
  }

  write(entry: JournalEntry, outcome: string | undefined): void {
    const id = entry.task.id;
    const values: Record<string, unknown> = {};
    const before = this.chunks.get(id) ?? { result: 0, record: 0 };
    const result = outcome === undefined ? before.result : chunked(`${RESULT}${id}/`, outcome, values);
    // A record is small unless its questions are large: then it goes in chunks too.
    const json = JSON.stringify(entry.task);
    const record = json.length > CHUNK ? chunked(`${RECORD}${id}/`, json, values) : 0;
    const stale = Array.from({ length: Math.max(0, before.record - record) }, (_, n) => `${RECORD}${id}/${record + n}`);
    this.chunks.set(id, { result, record });
    const stored: StoredEntry = { order: entry.order, bytes: entry.bytes, chunks: result, ...(record > 0 ? { recordChunks: record } : { task: entry.task }) };
    values[PREFIX + id] = stored;
    // The record last, in the same batch when it fits: a record never names chunks not yet written.
    const keys = Object.keys(values);
    for (let at = 0; at < keys.length; at += BATCH)
      this.pending.push(this.storage.put(Object.fromEntries(keys.slice(at, at + BATCH).map((key) => [key, values[key]]))));
    for (let at = 0; at < stale.length; at += BATCH) this.pending.push(this.storage.delete(stale.slice(at, at + BATCH)));
  }

  remove(id: string): void {
    const { result, record } = this.chunks.get(id) ?? { result: 0, record: 0 };
    this.chunks.delete(id);
    const keys = [
      PREFIX + id,
      ...Array.from({ length: result }, (_, n) => `${RESULT}${id}/${n}`),
      ...Array.from({ length: record }, (_, n) => `${RECORD}${id}/${n}`),
    ];
    for (let at = 0; at < keys.length; at += BATCH) this.pending.push(this.storage.delete(keys.slice(at, at + BATCH)));
  }

  outcome(id: string): Promise<string | undefined> {
    return this.read(`${RESULT}${id}/`, this.chunks.get(id)?.result ?? 0);
  }

  /** The text stored in `count` chunks under `prefix`; undefined when there are none or one is missing. */
  private async read(prefix: string, count: number): Promise<string | undefined> {
    if (count === 0) return undefined;
    const keys = Array.from({ length: count }, (_, n) => `${prefix}${n}`);
    let text = "";
    for (let at = 0; at < keys.length; at += BATCH) {
      const found = await this.storage.get(keys.slice(at, at + BATCH));
      for (const key of keys.slice(at, at + BATCH)) {
        const chunk = found.get(key);
        if (typeof chunk !== "string") return undefined;
        text += chunk;
      }
    }
    return text;
  }

  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
  }
}
