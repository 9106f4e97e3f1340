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
import type { SdkAuthInfo, ServerEvent, ServerEventBus } from "../engine/sdk.js";
import { FollowedTask, ListenStream, type FollowedBodies } from "./listenStream.js";
import { TASKS_EXTENSION, type TaskCaller, type Tasks } from "./tasks.js";
import { taskOwnerOf } from "./taskOwner.js";
import type { TaskRecord } from "./taskStore.js";

/** Task ids one stream follows at most; further ids are left out of the acknowledgement. */
export const MAX_LISTEN_TASK_IDS = 100;
const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
/** Comment frames keep idle streams open through proxies (as the SDK's listen streams do). */
const KEEP_ALIVE_MS = 15_000;

/** The SDK's own 2026-07-28 serving (createMcpHandler's fetch). */
type SdkFetch = (request: Request, options: { parsedBody: unknown }) => Promise<Response>;

export class TaskListens {
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
    /** Bytes that wait for one stream's client (the server's maxTaskListenQueueBytes; see listenStream.ts). */
    private readonly maxQueueBytes: number,
  ) {
    // One listener for every stream: a change is serialized once, when the first stream has room for it.
    this.stopWatching = tasks.watch((record) => {
      const task = this.followed.get(record.id);
      if (!task || record.era !== "modern") return;
      task.changed(record);
      for (const stream of [...task.streams]) stream.taskChanged(record.id);
    });
  }

  /** Whether this 2026-07-28 request is a subscriptions/listen that names tasks. */
  static wants(body: unknown): body is JsonObject & { params: JsonObject & { notifications: JsonObject } } {
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
  async serve(request: Request, body: JsonObject & { params: JsonObject & { notifications: JsonObject } }, authInfo?: SdkAuthInfo): Promise<Response> {
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
        const record = await this.tasks.get(taskId, caller).catch(() => undefined);
        const task = this.followed.get(taskId);
        if (!record || !task) return undefined;
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
        const record = await this.tasks.get(taskId, caller);
        task.offer(record);
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
