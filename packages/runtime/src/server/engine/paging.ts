/**
 * Cursor paging, one rule for every paged answer of the list methods. Without a page size
 * everything is one page; with one, an opaque cursor names the next offset and the list it
 * belongs to, and a cursor this server did not issue is -32602. (2025-era tasks/list pages in its
 * store, with cursors of the same form naming a store's key: see tasks/tasks.ts.)
 */
import { ErrorCodes, rpcError } from "../../shared/errors.js";

interface Page<T> {
  /** The page's items (the list itself when there is no page size). */
  items: readonly T[];
  /** Set when more items follow. */
  nextCursor?: string;
}

/** The page of `items` that `cursor` (a request's `params.cursor`) asks for. */
export function pageOf<T>(items: readonly T[], cursor: unknown, pageSize: number | undefined, kind: string): Page<T> {
  let start = 0;
  if (cursor !== undefined && cursor !== null) {
    const offset = typeof cursor === "string" ? decodeCursor(cursor, kind) : undefined;
    if (offset === undefined || offset > items.length || pageSize === undefined)
      throw rpcError(ErrorCodes.InvalidParams, "Invalid cursor: pass the nextCursor of the previous page, or none for the first page");
    start = offset;
  }
  if (pageSize === undefined) return { items };
  const end = start + pageSize;
  return { items: items.slice(start, end), ...(end < items.length ? { nextCursor: encodeCursor(end, kind) } : {}) };
}

/** Cursors are opaque to clients: the next offset and the list they belong to. */
export function encodeCursor(offset: number, kind: string): string {
  return `${kind}.${offset.toString(36)}`;
}

export function decodeCursor(cursor: string, kind: string): number | undefined {
  const m = /^([A-Za-z]+)\.([0-9a-z]{1,11})$/.exec(cursor);
  return m && m[1] === kind ? parseInt(m[2]!, 36) : undefined;
}
