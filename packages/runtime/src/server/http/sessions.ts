/**
 * What a Streamable HTTP endpoint keeps of its 2025-era sessions: the sessions themselves
 * (bounded, closed when idle) and, with `eventStore: true`, their events for resumption.
 */
import type { EventStore, JsonRpcMessage, SdkWebHttpTransport } from "../engine/sdk.js";

/** One stored event: its message as JSON (what the budgets count), `null` once evicted. */
interface StoredEvent {
  id: string;
  streamId: string;
  json: string | null;
  events: StoredEvent[];
}

/**
 * The bytes the in-memory event stores of one endpoint keep together (default 64 MiB): past it,
 * the oldest events of any session go first.
 */
export class EventBudget {
  private queue: StoredEvent[] = [];
  private head = 0;
  /** Events released since the queue was last compacted (a closed session's, a session's own evictions). */
  private released = 0;
  bytes = 0;

  constructor(readonly maxBytes = 64 * 1024 * 1024) {}

  add(event: StoredEvent): void {
    this.queue.push(event);
    this.bytes += event.json!.length;
    while (this.bytes > this.maxBytes && this.head < this.queue.length) {
      const oldest = this.queue[this.head++]!;
      if (oldest.json === null) continue;
      // A store's events are in the order they came, so its oldest one is first in its own list.
      const own = oldest.events;
      if (own[0] === oldest) own.shift();
      else own.splice(own.indexOf(oldest), 1);
      this.release(oldest);
    }
    // Released events are dropped from the queue once they are half of it, so it stays in proportion to what is kept.
    if (this.head + this.released > 1024 && (this.head + this.released) * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head).filter((e) => e.json !== null);
      this.head = 0;
      this.released = 0;
    }
  }

  /** Events in the queue, released or not (what compaction bounds). */
  get queued(): number {
    return this.queue.length - this.head;
  }

  release(event: StoredEvent): void {
    if (event.json === null) return;
    this.bytes -= event.json.length;
    event.json = null;
    this.released++;
  }
}

/**
 * An in-memory EventStore: events in order per stream, replayed after a Last-Event-ID. It keeps the
 * last `maxEvents` events of the session (default 1,000) and at most `maxBytes` of them (their
 * JSON, default 8 MiB), within what `budget` allows all the sessions of the endpoint together; a
 * client that asks to replay from an older one gets an error and starts over. `dispose` (the
 * session closed) gives its bytes back to the budget.
 */
export function memoryEventStore(maxEvents = 1000, maxBytes = 8 * 1024 * 1024, budget = new EventBudget()): EventStore & { dispose(): void } {
  const events: StoredEvent[] = [];
  let bytes = 0;
  let counter = 0;
  const evictOldest = () => {
    const oldest = events.shift()!;
    if (oldest.json !== null) bytes -= oldest.json.length;
    budget.release(oldest);
  };
  return {
    async storeEvent(streamId, message) {
      const id = `${streamId}_${(++counter).toString().padStart(12, "0")}`;
      const json = JSON.stringify(message);
      // One event larger than a session's whole share is sent, never kept for a replay.
      if (json.length > maxBytes) return id;
      const event: StoredEvent = { id, streamId, json, events };
      events.push(event);
      bytes += json.length;
      while (events.length > maxEvents || bytes > maxBytes) evictOldest();
      budget.add(event);
      // The budget may have evicted this store's oldest events: count them out.
      bytes = events.reduce((sum, e) => sum + (e.json?.length ?? 0), 0);
      return id;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.find((e) => e.id === lastEventId);
      if (!last) throw new Error(`unknown event id ${lastEventId}`);
      for (const e of events) if (e.streamId === last.streamId && e.id > lastEventId && e.json !== null) await send(e.id, JSON.parse(e.json) as JsonRpcMessage);
      return last.streamId;
    },
    dispose() {
      while (events.length > 0) evictOldest();
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
   * The session's transport, marked used until `release` is called (as a request in flight, or as
   * a GET stream when `stream`); undefined for an unknown id, or for a session bound to another
   * principal (a server with `auth`: the principal of its initialize, or of its first request with
   * a token when it began without one).
   */
  use(id: string, principal?: string, stream = false): { transport: SdkWebHttpTransport; release: () => void } | undefined {
    const entry = this.sessions.get(id);
    if (!entry) return undefined;
    if (entry.principal !== undefined && entry.principal !== principal) return undefined;
    if (principal !== undefined) entry.principal = principal;
    // Re-inserted: the Map's order is the order of last use.
    this.sessions.delete(id);
    this.sessions.set(id, entry);
    return { transport: entry.transport, release: this.track(entry, stream ? "streams" : "open") };
  }

  /** A new session, its initialize in flight until `release` is called (the sweeper starts with the first one, never at load). */
  add(id: string, transport: SdkWebHttpTransport, principal?: string): () => void {
    const entry: Session = { transport, lastSeen: Date.now(), open: 0, streams: 0, ...(principal === undefined ? {} : { principal }) };
    this.sessions.set(id, entry);
    if (this.sweeper === undefined) {
      this.sweeper = setInterval(() => this.sweep(), Math.min(Math.max(this.idleMs / 2, 1000), 60_000));
      (this.sweeper as { unref?: () => void }).unref?.();
    }
    return this.track(entry, "open");
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

  /** Counts one request or stream of `entry`; the function given back ends it (once, however often called). */
  private track(entry: Session, kind: "open" | "streams"): () => void {
    entry[kind]++;
    entry.lastSeen = Date.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry[kind]--;
      entry.lastSeen = Date.now();
    };
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
