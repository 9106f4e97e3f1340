/** The state of a tool task, as the generated client reports it and its errors carry it. */
import type { TaskStatus } from "./mcp.js";

/** A task as this client reports it, the same in both eras (durations in ms). */
export interface ToolTaskState {
  /** Absent for a call the server answered at once (a 2026-07-28 server may run a task-capable tool inline). */
  taskId?: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** How long the server keeps the task from its creation (null: no limit). */
  ttlMs?: number | null;
  /** How often the server suggests polling. */
  pollIntervalMs?: number;
  /** 2026-07-28, `input_required`: the questions the task waits on, by key (answer them with `update`). */
  inputRequests?: { [key: string]: unknown };
}
