/**
 * Reading a 2026-07-28 task through an SDK v2 Client. With the `io.modelcontextprotocol/tasks`
 * extension a server may answer `tools/call` with a CreateTaskResult (`resultType: "task"`),
 * which SDK 2.4's Client refuses (UnsupportedResultType) before any caller sees it. So, for the
 * requests this client marks, a thin layer on the connected transport:
 *
 * - outbound: drops the mark, and declares the tasks extension in the request's
 *   `io.modelcontextprotocol/clientCapabilities` when the mark asks for it (2026-07-28 declares
 *   capabilities per request: this client reads task answers to exactly these requests);
 * - inbound: turns the answer to a marked request, when it is a CreateTaskResult, into a
 *   complete CallToolResult that carries the task under `_meta["mcpgen/task"]`.
 *
 * Unmarked traffic passes untouched. The layer is installed on first use and again after a
 * reconnect (which gives the transport a new `onmessage`).
 */
import type { JsonObject } from "../shared/definition.js";

const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
/** On a request's `_meta` (never sent): this client reads a task answer to it. */
export const TASK_MARK = "mcpgen/acceptsTask";
/** On a result's `_meta`: the task the server created, as it sent it. */
export const CARRIED_TASK = "mcpgen/task";

/** The mark: `declare` adds the tasks extension to the request's client capabilities. */
export interface TaskMark {
  declare: boolean;
}

/**
 * A message handler, checked bivariantly (as a method is), so that both SDKs' transports, whose
 * handlers take their own message types, fit.
 */
type MessageHandler = { handle(message: unknown, extra?: unknown): void }["handle"];

/** What this layer needs of a transport: the two members every MCP transport has. */
export interface WireTransport {
  send(message: unknown, options?: unknown): Promise<void>;
  onmessage?: MessageHandler | undefined;
}

type RequestId = string | number;
interface Layer {
  /** Ids of marked requests still waiting for their answer. */
  readonly waiting: Set<RequestId>;
  /** The transport's onmessage this layer wraps, and its wrapper. */
  inner: MessageHandler | undefined;
  outer: MessageHandler | undefined;
}

const layers = new WeakMap<object, Layer>();

/** Installs the layer on a connected transport (idempotent). */
export function acceptTaskAnswers(transport: WireTransport): void {
  let layer = layers.get(transport);
  if (!layer) {
    const created: Layer = { waiting: new Set(), inner: undefined, outer: undefined };
    layer = created;
    layers.set(transport, created);
    const send = transport.send;
    transport.send = (message: unknown, options?: unknown) => send.call(transport, unmark(message, created), options);
  }
  if (transport.onmessage !== undefined && transport.onmessage === layer.outer) return;
  const inner = transport.onmessage;
  const current = layer;
  const outer: MessageHandler = (message, extra) => current.inner?.(reshape(message, current), extra);
  current.inner = inner;
  current.outer = outer;
  transport.onmessage = outer;
}

/** A marked outbound request: remembered, its mark dropped, the extension declared if asked. */
function unmark(message: unknown, layer: Layer): unknown {
  if (!isObject(message) || !isObject(message["params"])) return message;
  // A marked request given up (aborted, timed out) gets no answer: forget it.
  if (message["method"] === "notifications/cancelled") layer.waiting.delete(message["params"]["requestId"] as RequestId);
  if (!isObject(message["params"]["_meta"])) return message;
  const meta = message["params"]["_meta"];
  const mark = meta[TASK_MARK];
  if (!isObject(mark) || (typeof message["id"] !== "string" && typeof message["id"] !== "number")) return message;
  layer.waiting.add(message["id"]);
  const { [TASK_MARK]: _, ...rest } = meta;
  if (mark["declare"] === true) {
    const declared = isObject(rest[CAPABILITIES]) ? rest[CAPABILITIES] : {};
    const extensions = isObject(declared["extensions"]) ? declared["extensions"] : {};
    rest[CAPABILITIES] = {
      ...declared,
      extensions: { ...extensions, [TASKS_EXTENSION]: isObject(extensions[TASKS_EXTENSION]) ? extensions[TASKS_EXTENSION] : {} },
    };
  }
  return { ...message, params: { ...message["params"], _meta: rest } };
}

/** The answer to a marked request: a CreateTaskResult becomes a CallToolResult carrying it. */
function reshape(message: unknown, layer: Layer): unknown {
  if (!isObject(message) || (typeof message["id"] !== "string" && typeof message["id"] !== "number") || !layer.waiting.has(message["id"])) return message;
  if (!("result" in message) && !("error" in message)) return message;
  layer.waiting.delete(message["id"]);
  const result = message["result"];
  if (!isObject(result) || result["resultType"] !== "task") return message;
  const { _meta, resultType: _, ...task } = result;
  const meta = isObject(_meta) ? _meta : {};
  return { ...message, result: { resultType: "complete", content: [], _meta: { ...meta, [CARRIED_TASK]: task } } };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
