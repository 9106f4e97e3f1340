/**
 * Whom a task belongs to (docs/guides/tasks.md, "Who may see a task"). A task is bound, when it is
 * created, to what identifies its caller, and only a caller with the same identity reaches it:
 *
 * - a server with `auth`: the principal of the verified token (issuer, subject, client);
 * - a 2025-era session (Streamable HTTP with sessions), or the stdio connection of a 2025-era
 *   client: that session (and the principal as well, when there is one);
 * - otherwise (2026-07-28 without `auth`, 2025-era stateless HTTP without `auth`) nothing
 *   identifies the caller: the task has no owner, and its id, 128 random bits, is the capability.
 *
 * A request for a task that is not the caller's is answered as a request for an unknown task.
 */
import type { AuthContext } from "./handlerTypes.js";
import type { ProtocolEra } from "./sdk.js";

/** Who asks for a task: the request's era and the owner it speaks for (undefined: nobody in particular). */
export interface TaskCaller {
  readonly era: ProtocolEra;
  readonly owner: string | undefined;
}

/** Where a request comes from, as far as task ownership goes. */
export interface CallerIdentity {
  readonly era: ProtocolEra;
  /** The verified token's principal (a server with `auth`, over HTTP). */
  readonly auth?: AuthContext | undefined;
  /** The 2025-era HTTP session the request belongs to. */
  readonly sessionId?: string | undefined;
  /** The stdio (or in-memory) connection, unique across processes: a 2025-era client's session there. */
  readonly connection?: string | undefined;
}

/** The owner a caller's tasks are bound to, or undefined when nothing identifies the caller. */
export function taskOwnerOf(identity: CallerIdentity): string | undefined {
  const parts: (string | null)[] = [];
  const auth = identity.auth;
  if (auth !== undefined) {
    const issuer = auth.claims["iss"];
    parts.push("principal", typeof issuer === "string" ? issuer : null, auth.subject ?? null, auth.clientId);
  }
  // 2026-07-28 has no sessions: a connection there is one request, which identifies nobody.
  if (identity.era === "legacy") {
    if (identity.sessionId !== undefined) parts.push("session", identity.sessionId);
    else if (identity.connection !== undefined) parts.push("connection", identity.connection);
  }
  // The era too: one principal's 2026-07-28 tasks never show in its 2025-era tasks/list.
  return parts.length === 0 ? undefined : JSON.stringify([identity.era, ...parts]);
}

/** Whether a task created by `owner` in `era` is the caller's. */
export function belongsTo(task: { readonly era: ProtocolEra; readonly owner?: string | undefined }, caller: TaskCaller): boolean {
  return task.era === caller.era && task.owner === caller.owner;
}

/**
 * A new task id: 128 bits from the platform's CSPRNG, base64url (22 characters). Where nothing
 * identifies the caller the id is the task's only protection, so the runtime never logs one.
 */
export function newTaskId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}
