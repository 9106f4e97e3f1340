/**
 * The MCP methods, by who sends them, after the specification's schema.ts of 2025-11-25 and
 * 2026-07-28 (github modelcontextprotocol/modelcontextprotocol, schema/<revision>/schema.ts) and
 * the tasks extension of SDK v2 (`tasks/update`). Both eras are known at once: a log may hold
 * either.
 */
import type { Side } from "./model.js";

/** Requests a client sends. */
const CLIENT_REQUESTS: readonly string[] = [
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "tasks/get",
  "tasks/result",
  "tasks/list",
  "tasks/cancel",
  "tasks/update",
  "server/discover",
  "subscriptions/listen",
];

/** Requests a server sends (2025-11-25; 2026-07-28 asks through input-required results instead). */
const SERVER_REQUESTS: readonly string[] = [
  "ping",
  "sampling/createMessage",
  "elicitation/create",
  "roots/list",
  "tasks/get",
  "tasks/result",
  "tasks/list",
  "tasks/cancel",
];

const CLIENT_NOTIFICATIONS: readonly string[] = [
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
  "notifications/tasks/status",
];

const SERVER_NOTIFICATIONS: readonly string[] = [
  "notifications/cancelled",
  "notifications/progress",
  "notifications/message",
  "notifications/resources/updated",
  "notifications/resources/list_changed",
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/elicitation/complete",
  "notifications/tasks/status",
  "notifications/subscriptions/acknowledged",
];

export const REQUEST_METHODS: ReadonlySet<string> = new Set([...CLIENT_REQUESTS, ...SERVER_REQUESTS]);
export const NOTIFICATION_METHODS: ReadonlySet<string> = new Set([...CLIENT_NOTIFICATIONS, ...SERVER_NOTIFICATIONS]);
export const ALL_METHODS: readonly string[] = [...new Set([...CLIENT_REQUESTS, ...SERVER_REQUESTS, ...CLIENT_NOTIFICATIONS, ...SERVER_NOTIFICATIONS])];

const SERVER_ONLY_REQUESTS = new Set(SERVER_REQUESTS.filter((m) => !CLIENT_REQUESTS.includes(m)));
const CLIENT_ONLY_NOTIFICATIONS = new Set(CLIENT_NOTIFICATIONS.filter((m) => !SERVER_NOTIFICATIONS.includes(m)));

/**
 * Who most likely sent a request or notification of `method`, for logs that do not say: the
 * server's own requests and notifications by name, progress and log messages from the server,
 * anything else (unknown methods included) from the client.
 */
export function senderOf(method: string, isRequest: boolean): Side {
  if (isRequest) return SERVER_ONLY_REQUESTS.has(method) ? "server" : "client";
  if (CLIENT_ONLY_NOTIFICATIONS.has(method) || method === "notifications/cancelled") return "client";
  return method.startsWith("notifications/") ? "server" : "client";
}

/** Who may send a method: one side, both, or undefined for a method MCP does not have. */
export function sentBy(method: string, isRequest: boolean): Side | "both" | undefined {
  const [client, server] = isRequest ? [CLIENT_REQUESTS, SERVER_REQUESTS] : [CLIENT_NOTIFICATIONS, SERVER_NOTIFICATIONS];
  const byClient = client.includes(method);
  const byServer = server.includes(method);
  return byClient && byServer ? "both" : byClient ? "client" : byServer ? "server" : undefined;
}

/** The revision whose requests carry their version in `_meta` and whose server sends no requests. */
export const STATELESS_REVISION = "2026-07-28";

/** `_meta` key of the protocol version on each 2026-07-28 request. */
export const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";

/** The params field the Mcp-Name header mirrors, per method (SEP-2243, SEP-2663). */
export const NAME_HEADER_SOURCE: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};
