/**
 * What MCP 2025-11-25 says a task's status notification must be, written from the spec text
 * (schema/2025-11-25/schema.ts `Task`, `TaskStatusNotification`; basic/utilities/tasks.mdx
 * "Task Status Lifecycle", "TTL and Resource Management", "Task Notifications"), for mcpgen's own
 * status-notification checks (conformance/statusNotifications.ts).
 */
import { Ajv } from "ajv";

export const STATUS_NOTIFICATION = "notifications/tasks/status";
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
export const TERMINAL: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/** The transitions the spec allows: working and input_required move among themselves or end; a terminal status never moves. */
const NEXT: Readonly<Record<string, readonly string[]>> = {
  working: ["input_required", "completed", "failed", "cancelled"],
  input_required: ["working", "completed", "failed", "cancelled"],
};

/** The first illegal step of `statuses`, a task that began `working` (a task MUST begin there), or undefined when every step is legal and the last is terminal. */
export function lifecycleError(statuses: readonly string[]): string | undefined {
  let current = "working";
  for (const [i, next] of statuses.entries()) {
    // A notification may repeat a non-terminal status (a new statusMessage, say); it is no transition.
    if (next === current && !TERMINAL.has(current)) continue;
    if (!(NEXT[current] ?? []).includes(next)) return `${current} -> ${next} (notification ${i + 1}) is not a transition the spec allows`;
    current = next;
  }
  return TERMINAL.has(current) ? undefined : `the last status is ${current}, not a terminal one`;
}

/** `Task` of schema/2025-11-25 (TaskStatusNotificationParams = NotificationParams & Task). */
const TASK_SCHEMA = {
  type: "object",
  required: ["taskId", "status", "createdAt", "lastUpdatedAt", "ttl"],
  properties: {
    taskId: { type: "string" },
    status: { enum: ["working", "input_required", "completed", "failed", "cancelled"] },
    statusMessage: { type: "string" },
    createdAt: { type: "string", format: "iso-date-time" },
    lastUpdatedAt: { type: "string", format: "iso-date-time" },
    ttl: { type: ["number", "null"] },
    pollInterval: { type: "number" },
    _meta: { type: "object" },
  },
} as const;

// ISO 8601 as the spec links it: RFC 3339 section 5.6 date-time.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const ajv = new Ajv({ allErrors: true });
ajv.addFormat("iso-date-time", (value: string) => DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)));
const validateTask = ajv.compile(TASK_SCHEMA);

/** Why `value` is not a 2025-11-25 Task, or undefined when it is. */
export function taskSchemaError(value: unknown): string | undefined {
  if (validateTask(value)) return undefined;
  return (validateTask.errors ?? []).map((e) => `${e.instancePath || "(params)"} ${e.message ?? "is invalid"}`).join("; ");
}
