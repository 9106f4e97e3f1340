/**
 * One `subscriptions/listen` stream that follows tasks (taskListen.ts opens it), bounded in bytes
 * whatever its client does:
 *
 * - What waits for a client is at most `maxBytes` in the stream's queue (the Streams API's own
 *   byte count) plus the one notification being handed over, and at most `maxBytes` of other
 *   notifications (acknowledgement, list and resource changes) waiting behind them.
 * - A task notification is not queued when it happens: the task is marked changed, and its
 *   latest state is serialized when the client has room for it. So a client that does not read
 *   costs nothing more as its tasks change: it gets each task's latest state once it reads.
 * - The task's body (the tasks/get view) is serialized once per change for every stream of the
 *   process (taskListen.ts's followed tasks); a stream adds only its own few bytes around it.
 * - Other notifications cannot wait that way: past `maxBytes` of them, the client is not
 *   reading, and the stream is closed (the HTTP response is torn down).
 */
import type { JsonObject } from "../../shared/definition.js";
import type { TaskRecord } from "./taskStore.js";

const encoder = new TextEncoder();

/** A followed task's latest notification body (its tasks/get view without the opening brace), shared by every stream. */
export interface TaskBody {
  /** Grows with each change the process hears of. */
  readonly version: number;
  readonly bytes: Uint8Array;
}

/** Where a stream finds the bodies of the tasks it follows (taskListen.ts). */
export interface FollowedBodies {
  /** The latest body, or undefined when the record is no longer in memory (then `reload`). */
  latest(taskId: string): TaskBody | undefined;
  /** Reads the task from the store again; undefined when it is gone. */
  reload(taskId: string): Promise<TaskBody | undefined>;
}

/**
 * A task that streams of this process follow, shared by all of them: its latest record and that
 * record's notification body. Both are held weakly: the memory store holds its records anyway, a
 * queue holds a body while it waits for a client, and a record read from Redis that no queue
 * needs any more is read again when a stream wants it (FollowedBodies.reload).
 */
export class FollowedTask {
  readonly streams = new Set<ListenStream>();
  private version = 0;
  /** The latest state's lastUpdatedAt: a record read from the store before a change is not taken for newer. */
  private stamp = "";
  private record: WeakRef<TaskRecord> | undefined;
  private body: WeakRef<Uint8Array> | undefined;

  constructor(private readonly view: (record: TaskRecord) => JsonObject) {}

  /** The process heard of a change (here or on another replica). */
  changed(record: TaskRecord): void {
    this.version++;
    this.keep(record);
  }

  /** A record read from the store: taken when no record is in memory and it is not older than the last change heard of. */
  offer(record: TaskRecord): void {
    if (this.record?.deref() !== undefined || record.lastUpdatedAt < this.stamp) return;
    if (this.version === 0) this.version = 1;
    this.keep(record);
  }

  /** The latest state's body (serialized now if no queue holds it), or undefined when its record left memory. */
  latest(): TaskBody | undefined {
    const kept = this.body?.deref();
    if (kept) return { version: this.version, bytes: kept };
    const record = this.record?.deref();
    if (!record) return undefined;
    // The view's JSON without its opening brace: a stream's head opens the params object.
    const bytes = encoder.encode(JSON.stringify(this.view(record)).slice(1));
    this.body = new WeakRef(bytes);
    return { version: this.version, bytes };
  }

  private keep(record: TaskRecord): void {
    this.stamp = record.lastUpdatedAt;
    this.record = new WeakRef(record);
    this.body = undefined;
  }
}

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const TAIL = encoder.encode("}\n\n");
const KEEP_ALIVE = encoder.encode(": keepalive\n\n");

export class ListenStream {
  readonly body: ReadableStream<Uint8Array>;
  /** Tasks changed since the client last got them, in the order they changed. */
  private readonly changed = new Set<string>();
  /** The body version each task was last sent at. */
  private readonly sent = new Map<string, number>();
  /** Other notifications waiting for room in the queue, and their bytes. */
  private readonly outbox: Uint8Array[] = [];
  private outboxBytes = 0;
  /** What every task notification of this stream starts with (its subscription id). */
  private readonly head: Uint8Array;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  /** Task notifications go out once the acknowledgement has. */
  private acknowledged = false;
  private reloading = false;
  private closed = false;

  constructor(
    readonly subscriptionId: string | number,
    private readonly bodies: FollowedBodies,
    private readonly maxBytes: number,
    /** Called once, when the stream ends (any way). */
    private readonly onClose: () => void,
  ) {
    const id = JSON.stringify(subscriptionId);
    this.head = encoder.encode(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tasks","params":{"_meta":{"${SUBSCRIPTION_ID}":${id}},`);
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          this.controller = c;
        },
        pull: () => this.pump(),
        cancel: () => this.end(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: maxBytes }),
    );
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends a notification stamped with the subscription id (the acknowledgement, list and resource changes). */
  notify(method: string, params: JsonObject): void {
    const meta = typeof params["_meta"] === "object" && params["_meta"] !== null ? (params["_meta"] as JsonObject) : {};
    this.push({ method, params: { ...params, _meta: { ...meta, [SUBSCRIPTION_ID]: this.subscriptionId } } });
  }

  /** The acknowledgement is out: the followed tasks' states may follow. */
  acknowledge(): void {
    this.acknowledged = true;
    this.pump();
  }

  /** A followed task changed (or is to be shown first): its latest state goes out when the client has room. */
  taskChanged(taskId: string): void {
    if (this.closed) return;
    // Moved to the end: the order of the notifications is the order of the last changes.
    this.changed.delete(taskId);
    this.changed.add(taskId);
    this.pump();
  }

  /** A comment frame keeps an idle stream open through proxies; a stream with something queued needs none. */
  keepAlive(): void {
    if (this.closed || this.outbox.length > 0 || (this.controller.desiredSize ?? 0) < this.maxBytes) return;
    this.enqueue(KEEP_ALIVE);
  }

  /** Ends the stream with the listen request's result (the server is closing): what waits in the outbox goes first. */
  finish(): void {
    if (this.closed) return;
    for (const frame of this.outbox.splice(0)) this.enqueue(frame);
    this.enqueue(frame({ id: this.subscriptionId, result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: this.subscriptionId } } }));
    this.end();
  }

  /** The client went away, or nothing is honored: the stream ends (what is queued is still read). */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.release();
    try {
      this.controller.close();
    } catch {
      // Already closed by the reader's cancel.
    }
  }

  private push(message: JsonObject): void {
    if (this.closed) return;
    const bytes = frame(message);
    this.outboxBytes += bytes.byteLength;
    this.outbox.push(bytes);
    this.pump();
    // Still waiting after the pump: the queue is full, and has been for `maxBytes` of notifications.
    if (this.outboxBytes > this.maxBytes) this.abandon();
  }

  /** The client does not read: the stream errors, which drops what it queued and tears the response down. */
  private abandon(): void {
    if (this.closed) return;
    this.closed = true;
    this.release();
    this.controller.error(new Error(`the client of listen stream ${JSON.stringify(this.subscriptionId)} does not read: more than ${this.maxBytes} bytes wait`));
  }

  private release(): void {
    this.outbox.length = 0;
    this.outboxBytes = 0;
    this.changed.clear();
    this.sent.clear();
    this.onClose();
  }

  /** Fills the queue while it has room: other notifications first, then the changed tasks' latest states. */
  private pump(): void {
    while (!this.closed && !this.reloading && (this.controller.desiredSize ?? 0) > 0) {
      const waiting = this.outbox.shift();
      if (waiting) {
        this.outboxBytes -= waiting.byteLength;
        this.enqueue(waiting);
        continue;
      }
      if (!this.acknowledged) return;
      const next = this.changed.values().next();
      if (next.done) return;
      const taskId = next.value;
      const body = this.bodies.latest(taskId);
      if (body === undefined) return this.reload(taskId);
      this.changed.delete(taskId);
      this.sendTask(taskId, body);
    }
  }

  /** The task's record left memory (a record read from Redis): read again, then go on. */
  private reload(taskId: string): void {
    this.reloading = true;
    void this.bodies.reload(taskId).then(
      (body) => {
        this.reloading = false;
        this.changed.delete(taskId);
        if (body) this.sendTask(taskId, body);
        this.pump();
      },
      () => {
        this.reloading = false;
        this.changed.delete(taskId);
        this.pump();
      },
    );
  }

  private sendTask(taskId: string, body: TaskBody): void {
    if (this.closed || this.sent.get(taskId) === body.version) return;
    this.sent.set(taskId, body.version);
    this.enqueue(this.head);
    this.enqueue(body.bytes);
    this.enqueue(TAIL);
  }

  private enqueue(bytes: Uint8Array): void {
    try {
      this.controller.enqueue(bytes);
    } catch {
      this.end();
    }
  }
}

/** A JSON-RPC message as one SSE frame. */
function frame(message: JsonObject): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...message })}\n\n`);
}
