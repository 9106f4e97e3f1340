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
import { TASKS_EXTENSION, type TaskCaller, type Tasks } from "./tasks.js";
import { taskOwnerOf } from "./taskOwner.js";
import type { TaskRecord } from "./taskStore.js";

/** Task ids one stream follows at most; further ids are left out of the acknowledgement. */
export const MAX_LISTEN_TASK_IDS = 100;
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
/** Comment frames keep idle streams open through proxies (as the SDK's listen streams do). */
const KEEP_ALIVE_MS = 15_000;

/** The SDK's own 2026-07-28 serving (createMcpHandler's fetch). */
type SdkFetch = (request: Request, options: { parsedBody: unknown }) => Promise<Response>;

export class TaskListens {
  private readonly open = new Set<(graceful: boolean) => void>();

  constructor(
    private readonly tasks: Tasks,
    private readonly bus: ServerEventBus,
    private readonly sdk: SdkFetch,
    /** Streams served here at once (the server's maxTaskListenStreams). */
    readonly max: number,
  ) {}

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
    return this.stream(id, [...new Set(taskIds as string[])].slice(0, MAX_LISTEN_TASK_IDS), probe, caller, request.signal);
  }

  /** Ends every stream with its subscriptions/listen result (the server is closing). */
  closeAll(): void {
    for (const teardown of [...this.open]) teardown(true);
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
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      cancel: () => teardown(false),
    });
    let closed = false;
    const stops: (() => void)[] = [];
    const write = (frame: string) => {
      if (closed) return;
      try {
        controller.enqueue(encoder.encode(frame));
      } catch {
        teardown(false);
      }
    };
    const message = (value: JsonObject) => write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", ...value })}\n\n`);
    const notify = (method: string, params: JsonObject) =>
      message({ method, params: { ...params, _meta: { ...(isObject(params["_meta"]) ? params["_meta"] : {}), [SUBSCRIPTION_ID]: subscriptionId } } });
    const teardown = (graceful: boolean) => {
      if (closed) return;
      if (graceful) message({ id: subscriptionId, result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: subscriptionId } } });
      closed = true;
      this.open.delete(teardown);
      for (const stop of stops) stop();
      try {
        controller.close();
      } catch {
        // Already closed by the reader's cancel.
      }
    };
    this.open.add(teardown);

    // Changes are heard from now on; those before the snapshot is shown wait in `pending`.
    const ids = new Set(requested);
    const sent = new Map<string, string>();
    let pending: TaskRecord[] | undefined = [];
    const show = (task: TaskRecord) => {
      const view = JSON.stringify(this.tasks.modernView(task, true));
      if (sent.get(task.id) === view) return;
      sent.set(task.id, view);
      notify("notifications/tasks", JSON.parse(view) as JsonObject);
    };
    stops.push(
      this.tasks.watch((task) => {
        if (closed || !ids.has(task.id)) return;
        if (pending) pending.push(task);
        else show(task);
      }),
    );
    // Only the caller's tasks: an unknown one, another owner's and a 2025-era one alike are left out.
    const found = await Promise.all(requested.map((taskId) => this.tasks.get(taskId, caller).catch(() => undefined)));
    const now = found.filter((task): task is TaskRecord => task !== undefined && task.era === "modern");
    for (const taskId of requested) if (!now.some((t) => t.id === taskId)) ids.delete(taskId);
    const honored: JsonObject = { ...others, ...(now.length > 0 ? { taskIds: now.map((t) => t.id) } : {}) };

    notify("notifications/subscriptions/acknowledged", { notifications: honored });
    if (Object.keys(honored).length === 0 || signal.aborted) {
      teardown(!signal.aborted);
      return sseResponse(body);
    }
    const queued = pending;
    pending = undefined;
    for (const task of now) if (!queued.some((q) => q.id === task.id)) show(task);
    for (const task of queued) show(task);

    stops.push(this.bus.subscribe((event) => !closed && accepts(others, event) && notify(...toNotification(event))));
    const keepAlive = setInterval(() => write(": keepalive\n\n"), KEEP_ALIVE_MS);
    (keepAlive as { unref?: () => void }).unref?.();
    stops.push(() => clearInterval(keepAlive));
    const onAbort = () => teardown(false);
    signal.addEventListener("abort", onAbort, { once: true });
    stops.push(() => signal.removeEventListener("abort", onAbort));
    return sseResponse(body);
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
