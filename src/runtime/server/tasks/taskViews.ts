/**
 * How a task record reads on the wire: the 2025-11-25 Task (tasks/get, tasks/list, tasks/cancel,
 * CreateTaskResult.task, notifications/tasks/status) and the 2026-07-28 extension's (tasks/get
 * with its result, error or questions inlined, CreateTaskResult, notifications/tasks).
 */
import type { JsonObject } from "../../shared/definition.js";
import { ErrorCodes } from "../../shared/errors.js";
import type { TaskRecord } from "./taskStore.js";

/** A Task as 2025-11-25 shows it. */
export function legacyTaskView(task: TaskRecord, pollIntervalMs: number): JsonObject {
  return {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs,
    pollInterval: pollIntervalMs,
  };
}

/** A Task as the 2026-07-28 extension shows it; `detailed` adds result, error or questions (tasks/get). */
export function modernTaskView(task: TaskRecord, pollIntervalMs: number, detailed: boolean): JsonObject {
  const view: JsonObject = {
    taskId: task.id,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs,
  };
  if (!detailed) return view;
  if (task.status === "input_required" && task.inputRequests) view["inputRequests"] = { ...task.inputRequests };
  if (task.status === "completed" && task.outcome && "result" in task.outcome) view["result"] = task.outcome.result;
  if (task.status === "failed" && task.outcome)
    view["error"] = "error" in task.outcome ? task.outcome.error : { code: ErrorCodes.InternalError, message: "The tool answered isError" };
  return view;
}
