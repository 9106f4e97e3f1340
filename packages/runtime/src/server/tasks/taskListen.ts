/**
 * `notifications/tasks` on 2026-07-28 `subscriptions/listen` streams over Streamable HTTP (the
 * tasks extension, SEP-2663, on SEP-2575's listen). The SDK's listen streams know only the list
 * and resource events, so a listen whose filter names `taskIds` is served here; every other
 * listen stays with the SDK.
 *
 * The request first goes through the SDK with `taskIds` left out of its filter: so it gets every
 * check the SDK applies (envelope, protocol version, MCP-Protocol-Version and Mcp-Method headers,
 * the filter's shape) and the SDK's answer names the other fields it honors. An error answer is
 * the answer; otherwise that stream is dropped and this one serves:
 *
 * 1. `notifications/subscriptions/acknowledged` with the honored filter: the SDK's fields plus the
 *    named tasks that exist (2026-07-28 tasks; at most MAX_LISTEN_TASK_IDS, the first named);
 * 2. each named task as `tasks/get` shows it now, then again on every change, here or on another
 *    replica (the store's events), as `notifications/tasks`;
 * 3. the other fields' notifications, from the SDK's in-process event bus.
 *
 * Every message carries the subscription id (the listen request's JSON-RPC id). The stream ends
 * when the client goes away, or with a `subscriptions/listen` result when the server closes.
 */
import type { JsonObject } from "../../shared/definition.js";
import { ErrorCodes } from "../../shared/errors.js";
import { authContextOf } from "../engine/authInfo.js";
import { taskOwnerOf, type TaskCaller } from "../engine/owner.js";
import { TASKS_EXTENSION, type ListenBody, type SdkFetch, type TaskListenStreams, type TaskRecord } from "../engine/parts.js";
import type { SdkAuthInfo, ServerEvent, ServerEventBus } from "../engine/sdk.js";
import type { Tasks } from "./tasks.js";

/** Task ids one stream follows at most; further ids are left out of the acknowledgement. */
const MAX_LISTEN_TASK_IDS = 100;
const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
/** Comment frames keep idle streams open through proxies (as the SDK's listen streams do). */
const KEEP_ALIVE_MS = 15_000;

export class TaskListens implements TaskListenStreams {
  private readonly open = new Set<ListenStream>();
  /** The tasks some stream follows, by id: their latest state, serialized once for every stream. */
  private readonly followed = new Map<string, FollowedTask>();
  private readonly stopWatching: () => void;

  constructor(
    private readonly tasks: Tasks,
    private readonly bus: ServerEventBus,
    private readonly sdk: SdkFetch,
    /** Streams served here at once (the server's maxTaskListenStreams). */
    readonly max: number,
    /** Bytes that wait for one stream's client (the server's maxTaskListenQueueBytes; see ListenStream below). */
    private readonly maxQueueBytes: number,
  ) {
    // One watcher for every stream: a change is serialized once, when the first stream has room for
    // it; one heard from another replica is read then (its record did not travel).
    this.stopWatching = tasks.watch({
      changed: ({ id, era, record }) => {
        const task = this.followed.get(id);
        if (!task || era !== "modern") return;
        task.changed(record);
        for (const stream of [...task.streams]) stream.taskChanged(id);
      },
      resync: () => {
        for (const [id, task] of this.followed) {
          task.changed(undefined);
          for (const stream of [...task.streams]) stream.taskChanged(id);
        }
      },
    });
  }

  /** Whether this 2026-07-28 request is a subscriptions/listen that names tasks. */
  wants(body: unknown): body is ListenBody {
    return (
      isObject(body) &&
      body["method"] === "subscriptions/listen" &&
      isObject(body["params"]) &&
      isObject(body["params"]["notifications"]) &&
      body["params"]["notifications"]["taskIds"] !== undefined
    );
  }

  get count(): number {
    return this.open.size;
  }

  /** Serves the listen; `authInfo`: the verified token of a server with `auth` (a caller sees only its own tasks). */
  async serve(request: Request, body: ListenBody, authInfo?: SdkAuthInfo): Promise<Response> {
    const id = typeof body["id"] === "string" || typeof body["id"] === "number" ? body["id"] : null;
    const { taskIds, ...others } = body.params.notifications;
    const probe = await this.probe(request, { ...body, params: { ...body.params, notifications: others } });
    if (probe instanceof Response) return probe;
    if (id === null) return rpcErrorResponse(400, null, ErrorCodes.InvalidRequest, "Invalid Request: subscriptions/listen needs an id");
    const meta = isObject(body.params["_meta"]) ? body.params["_meta"] : {};
    const caps = isObject(meta[CAPABILITIES]) ? meta[CAPABILITIES] : {};
    if (!(isObject(caps["extensions"]) && isObject(caps["extensions"][TASKS_EXTENSION]))) {
      return rpcErrorResponse(
        400,
        id,
        ErrorCodes.MissingRequiredClientCapability,
        `Missing required client capability: taskIds on subscriptions/listen needs the ${TASKS_EXTENSION} extension`,
        {
          requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        },
      );
    }
    if (!Array.isArray(taskIds) || !taskIds.every((t) => typeof t === "string")) {
      return rpcErrorResponse(200, id, ErrorCodes.InvalidParams, "Invalid params: notifications.taskIds must be an array of task ids (strings)");
    }
    if (this.open.size >= this.max) {
      return rpcErrorResponse(
        503,
        id,
        ErrorCodes.LimitExceeded,
        `Service Unavailable: ${this.max} task listen streams are open (the server's maxTaskListenStreams); retry later`,
        { limit: this.max },
      );
    }
    const caller: TaskCaller = { era: "modern", owner: taskOwnerOf({ era: "modern", auth: authInfo && authContextOf(authInfo) }) };
    return this.stream(id, firstDistinct(taskIds as string[], MAX_LISTEN_TASK_IDS), probe, caller, request.signal);
  }

  /** Ends every stream with its subscriptions/listen result (the server is closing). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.finish();
    this.stopWatching();
  }

  /** Where a stream of `caller` finds its tasks' bodies: the shared ones, or the store again. */
  private bodiesFor(caller: TaskCaller): FollowedBodies {
    return {
      latest: (taskId) => this.followed.get(taskId)?.latest(),
      reload: async (taskId) => {
        // A change heard while the record is read makes what is read stale: read again then.
        const since = this.followed.get(taskId)?.current;
        const record = await this.tasks.get(taskId, caller).catch(() => undefined);
        const task = this.followed.get(taskId);
        if (!record || !task) return undefined;
        if (task.current !== since) return "stale";
        task.offer(record);
        return task.latest();
      },
    };
  }

  /** The SDK's answer to the listen without taskIds: its error response, or the filter it honors. */
  private async probe(request: Request, body: JsonObject): Promise<Response | JsonObject> {
    const aborter = new AbortController();
    const text = JSON.stringify(body);
    const headers = new Headers(request.headers);
    headers.delete("content-length");
    const forward = new Request(request.url, { method: "POST", headers, body: text, signal: aborter.signal });
    const response = await this.sdk(forward, { parsedBody: body });
    if (response.status !== 200 || !/^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "") || !response.body) return response;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      while (!buffered.includes("\n\n")) {
        const { done, value } = await reader.read();
        if (done) break;
        buffered += decoder.decode(value, { stream: true });
      }
    } finally {
      aborter.abort();
      void reader.cancel().catch(() => {});
    }
    const data = buffered
      .split("\n\n")[0]!
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    const ack = parseJson(data);
    const honored = isObject(ack) && isObject(ack["params"]) && isObject(ack["params"]["notifications"]) ? ack["params"]["notifications"] : undefined;
    if (!honored) throw new Error("the SDK's subscriptions/listen stream did not open with its acknowledgement");
    return honored;
  }

  private async stream(subscriptionId: string | number, requested: string[], others: JsonObject, caller: TaskCaller, signal: AbortSignal): Promise<Response> {
    const stops: (() => void)[] = [];
    const followed: string[] = [];
    const stream = new ListenStream(subscriptionId, this.bodiesFor(caller), this.maxQueueBytes, () => {
      this.open.delete(stream);
      for (const taskId of followed) this.unfollow(taskId, stream);
      for (const stop of stops) stop();
    });
    this.open.add(stream);
    const onAbort = () => stream.end();
    signal.addEventListener("abort", onAbort, { once: true });
    stops.push(() => signal.removeEventListener("abort", onAbort));

    // Followed before they are read: a change meanwhile is not lost. Read one at a time, each
    // only the caller's (an unknown task, another owner's and a 2025-era one alike are left out).
    const held: TaskRecord[] = [];
    for (const taskId of requested) {
      const task = this.follow(taskId, stream);
      followed.push(taskId);
      try {
        const since = task.current;
        const record = await this.tasks.get(taskId, caller);
        // Changed elsewhere while read: left for the stream to read again when it sends.
        if (task.current === since) task.offer(record);
        // Kept until the first states are out (a record from Redis is otherwise only weakly held).
        held.push(record);
      } catch {
        followed.pop();
        this.unfollow(taskId, stream);
      }
      if (stream.isClosed) return sseResponse(stream.body);
    }
    const honored: JsonObject = { ...others, ...(followed.length > 0 ? { taskIds: [...followed] } : {}) };
    stream.notify("notifications/subscriptions/acknowledged", { notifications: honored });
    if (Object.keys(honored).length === 0) {
      stream.finish();
      return sseResponse(stream.body);
    }
    for (const taskId of followed) stream.taskChanged(taskId);
    stream.acknowledge();
    held.length = 0;

    stops.push(this.bus.subscribe((event) => accepts(others, event) && stream.notify(...toNotification(event))));
    const keepAlive = setInterval(() => stream.keepAlive(), KEEP_ALIVE_MS);
    (keepAlive as { unref?: () => void }).unref?.();
    stops.push(() => clearInterval(keepAlive));
    return sseResponse(stream.body);
  }

  /** `stream` follows the task: its shared entry, made on first use. */
  private follow(taskId: string, stream: ListenStream): FollowedTask {
    let task = this.followed.get(taskId);
    if (!task) this.followed.set(taskId, (task = new FollowedTask((record) => this.tasks.modernView(record, true))));
    task.streams.add(stream);
    return task;
  }

  private unfollow(taskId: string, stream: ListenStream): void {
    const task = this.followed.get(taskId);
    if (!task) return;
    task.streams.delete(stream);
    if (task.streams.size === 0) this.followed.delete(taskId);
  }
}

/** Whether an honored filter (the SDK's fields) asks for a bus event. */
function accepts(filter: JsonObject, event: ServerEvent): boolean {
  switch (event.kind) {
    case "tools_list_changed":
      return filter["toolsListChanged"] === true;
    case "prompts_list_changed":
      return filter["promptsListChanged"] === true;
    case "resources_list_changed":
      return filter["resourcesListChanged"] === true;
    case "resource_updated":
      return Array.isArray(filter["resourceSubscriptions"]) && event.uri !== undefined && filter["resourceSubscriptions"].includes(event.uri);
  }
  return false;
}

/** A bus event as its MCP notification. */
function toNotification(event: ServerEvent): [string, JsonObject] {
  if (event.kind === "resource_updated") return ["notifications/resources/updated", { ...event.params, uri: event.uri ?? "" }];
  const list = event.kind.replace(/_list_changed$/, "");
  return [`notifications/${list}/list_changed`, { ...event.params }];
}

function sseResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" },
  });
}

function rpcErrorResponse(status: number, id: string | number | null, code: number, message: string, data?: unknown): Response {
  return Response.json(
    { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } },
    { status, ...(status === 503 ? { headers: { "retry-after": "5" } } : {}) },
  );
}

/** The first `max` distinct strings of `values`. */
function firstDistinct(values: readonly string[], max: number): string[] {
  const found = new Set<string>();
  for (const value of values) {
    if (found.size >= max) break;
    found.add(value);
  }
  return [...found];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// One `subscriptions/listen` stream that follows tasks (TaskListens opens it), bounded in bytes
// whatever its client does:
//
// - What waits for a client is at most `maxBytes` in the stream's queue (the Streams API's own
//   byte count) plus the one notification being handed over, and at most `maxBytes` of other
//   notifications (acknowledgement, list and resource changes) waiting behind them.
// - A task notification is not queued when it happens: the task is marked changed, and its
//   latest state is serialized when the client has room for it. So a client that does not read
//   costs nothing more as its tasks change: it gets each task's latest state once it reads.
// - The task's body (the tasks/get view) is serialized once per change for every stream of the
//   process (TaskListens's followed tasks); a stream adds only its own few bytes around it.
// - Other notifications cannot wait that way: past `maxBytes` of them, the client is not
//   reading, and the stream is closed (the HTTP response is torn down).

const encoder = new TextEncoder();

/** A followed task's latest notification body (its tasks/get view without the opening brace), shared by every stream. */
interface TaskBody {
  /** Grows with each change the process hears of. */
  readonly version: number;
  readonly bytes: Uint8Array;
}

/** Where a stream finds the bodies of the tasks it follows (TaskListens). */
interface FollowedBodies {
  /** The latest body, or undefined when the record is no longer in memory (then `reload`). */
  latest(taskId: string): TaskBody | undefined;
  /** Reads the task from the store again; undefined when it is gone, "stale" when it changed meanwhile (read again). */
  reload(taskId: string): Promise<TaskBody | undefined | "stale">;
}

/**
 * A task that streams of this process follow, shared by all of them: its latest record and that
 * record's notification body. Both are held weakly: the memory store holds its records anyway, a
 * queue holds a body while it waits for a client, and a record read from Redis that no queue
 * needs any more is read again when a stream wants it (FollowedBodies.reload).
 */
class FollowedTask {
  readonly streams = new Set<ListenStream>();
  private version = 0;
  /** The latest state's lastUpdatedAt: a record read from the store before a change is not taken for newer. */
  private stamp = "";
  private record: WeakRef<TaskRecord> | undefined;
  private body: WeakRef<Uint8Array> | undefined;

  constructor(private readonly view: (record: TaskRecord) => JsonObject) {}

  /** Grows with each change heard of (a read begun before the last change is stale). */
  get current(): number {
    return this.version;
  }

  /** The process heard of a change: made here (with its record), or on another replica (read when a stream wants it). */
  changed(record: TaskRecord | undefined): void {
    this.version++;
    if (record) return this.keep(record);
    this.record = undefined;
    this.body = undefined;
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

class ListenStream {
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
        // Stale: the task stays marked changed, and the next pump reads it again.
        if (body !== "stale") {
          this.changed.delete(taskId);
          if (body) this.sendTask(taskId, body);
        }
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
