/**
 * What a client sends about tasks, checked before anything reaches the store: the ttl a 2025-era
 * task-augmented call asks for, and the cursor of tasks/list.
 */
import { ErrorCodes, rpcError } from "../../shared/errors.js";
import { decodeCursor, encodeCursor } from "../engine/paging.js";

/** The longest ttl a client may ask for (the server's own taskTtlMs may be longer). */
const MAX_REQUESTED_TTL_MS = 24 * 3600_000;

/** Tasks in one tasks/list answer when the server has no pageSize, and at most with one. */
export const TASK_PAGE = 100;
export const MAX_TASK_PAGE = 1000;

/**
 * The ttl a task gets: MCP lets the receiver override the one requested, so a number is rounded
 * up to whole milliseconds and kept within the server's (no ttl, zero or a negative one: the
 * server's); anything but a number is -32602.
 */
export function taskTtl(requested: unknown, serverTtlMs: number): number {
  if (requested === undefined || requested === null) return serverTtlMs;
  if (typeof requested !== "number") throw rpcError(ErrorCodes.InvalidParams, "Invalid params: task.ttl must be a number of milliseconds");
  if (!(requested > 0)) return serverTtlMs;
  return Math.min(Math.ceil(requested), serverTtlMs, MAX_REQUESTED_TTL_MS);
}

/** Where a tasks/list page starts: undefined for the first page; -32602 for a cursor this server did not issue. */
export function taskCursor(cursor: unknown): number | undefined {
  if (cursor === undefined || cursor === null) return undefined;
  const after = typeof cursor === "string" ? decodeCursor(cursor, "tasks") : undefined;
  if (after === undefined || !Number.isSafeInteger(after))
    throw rpcError(ErrorCodes.InvalidParams, "Invalid cursor: pass the nextCursor of the previous page, or none for the first page");
  return after;
}

/** The cursor of the page after the key `next`. */
export function nextTaskCursor(next: number): string {
  return encodeCursor(next, "tasks");
}
