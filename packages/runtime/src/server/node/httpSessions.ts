/**
 * What a Streamable HTTP endpoint keeps of its 2025-era sessions: the sessions themselves
 * (bounded, closed when idle) and, with `eventStore: true`, their events for resumption.
 */
import type { ServerResponse } from "node:http";
import type { EventStore, JsonRpcMessage, SdkWebHttpTransport } from "../engine/sdk.js";

/**
 * An in-memory EventStore: events in order per stream, replayed after a Last-Event-ID. It keeps the
 * last `maxEvents` events of the session (default 1,000); a client that asks to replay from an
 * older one gets an error and starts over.
 */
export function memoryEventStore(maxEvents = 1000): EventStore {
  const events: { id: string; streamId: string; message: unknown }[] = [];
  let counter = 0;
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}_${(++counter).toString().padStart(12, "0")}`;
      events.push({ id, streamId, message });
      if (events.length > maxEvents) events.splice(0, events.length - maxEvents);
      return id;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.find((e) => e.id === lastEventId);
      if (!last) throw new Error(`unknown event id ${lastEventId}`);
      for (const e of events) if (e.streamId === last.streamId && e.id > lastEventId) await send(e.id, e.message as JsonRpcMessage);
      return last.streamId;
    },
  };
}

/** One session: its transport, when it was last used, its requests in flight and its open GET streams. */
interface Session {
  transport: SdkWebHttpTransport;
  lastSeen: number;
  /** Requests in flight (POST, DELETE): the session is busy while one runs. */
  open: number;
  /** GET streams open: they keep the session from idling out, not from being evicted. */
  streams: number;
  principal?: string;
}

/**
 * The 2025-era sessions of one endpoint, least recently used first, with the requests each has in
 * flight: bounded in number, and closed when idle too long. A session whose client only holds its
 * GET stream open is not busy: when the table is full it goes first, least recently used first
 * (its stream ends; a client that is still there gets 404 and starts a new session).
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly max: number,
    private readonly idleMs: number,
  ) {}

  /**
   * The session's transport, marked used until `res` ends (as a request in flight, or as a GET
   * stream when `stream`); undefined for an unknown id, or for a session bound to another
   * principal (a server with `auth`: the principal of its initialize, or of its first request with
   * a token when it began without one).
   */
  use(id: string, res: ServerResponse, principal?: string, stream = false): SdkWebHttpTransport | undefined {
    const entry = this.sessions.get(id);
    if (!entry) return undefined;
    if (entry.principal !== undefined && entry.principal !== principal) return undefined;
    if (principal !== undefined) entry.principal = principal;
    // Re-inserted: the Map's order is the order of last use.
    this.sessions.delete(id);
    this.sessions.set(id, entry);
    this.track(entry, res, stream ? "streams" : "open");
    return entry.transport;
  }

  add(id: string, transport: SdkWebHttpTransport, res: ServerResponse, principal?: string): void {
    const entry: Session = { transport, lastSeen: Date.now(), open: 0, streams: 0, ...(principal === undefined ? {} : { principal }) };
    this.sessions.set(id, entry);
    this.track(entry, res, "open");
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), Math.min(Math.max(this.idleMs / 2, 1000), 60_000));
      (this.sweeper as { unref?: () => void }).unref?.();
    }
  }

  /** A session whose transport closed (the client's DELETE, or closed here). */
  forget(id: string, transport: SdkWebHttpTransport): void {
    if (this.sessions.get(id)?.transport === transport) this.sessions.delete(id);
  }

  /** Room for one more session: closes the least recently used one without a request in flight if full; false when none is free. */
  makeRoom(): boolean {
    if (this.sessions.size < this.max) return true;
    for (const [id, entry] of this.sessions) {
      if (entry.open > 0) continue;
      this.sessions.delete(id);
      void entry.transport.close().catch(() => {});
      return true;
    }
    return false;
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((e) => e.transport.close()));
  }

  private track(entry: Session, res: ServerResponse, kind: "open" | "streams"): void {
    entry[kind]++;
    entry.lastSeen = Date.now();
    res.once("close", () => {
      entry[kind]--;
      entry.lastSeen = Date.now();
    });
  }

  private sweep(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [id, entry] of this.sessions) {
      // A GET stream has its own idle limit (standingStreamIdleTimeoutMs); the session's starts when it ends.
      if (entry.open > 0 || entry.streams > 0) continue;
      // Not `break` at the first recent one: a request or stream that ended late makes an early entry recent.
      if (entry.lastSeen > cutoff) continue;
      this.sessions.delete(id);
      void entry.transport.close().catch(() => {});
    }
  }
}
