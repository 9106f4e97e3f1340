/**
 * The SDK's ServerEventBus (the events 2026-07-28 `subscriptions/listen` streams read) across the
 * replicas of one server, on the channel `<prefix>bus`. An event reaches this replica's streams at
 * once; a resource update also goes to the other replicas' streams. List changes stay local: every
 * replica announces them itself, from the switched state it shares (redisLists.ts), so a change
 * published here as well would reach each stream once per replica.
 */
import type { ServerEvent, ServerEventBus } from "../engine/sdk.js";
import type { RedisLink } from "./redisLink.js";

export class RedisEventBus implements ServerEventBus {
  private readonly listeners = new Set<(event: ServerEvent) => void>();
  /** Tells this replica's messages from the others'. */
  private readonly origin = crypto.randomUUID();
  private stop: (() => void) | undefined;

  constructor(
    private readonly redis: RedisLink,
    private readonly prefix: string,
  ) {}

  async open(): Promise<void> {
    this.stop = await this.redis.listen(`${this.prefix}bus`, (message) => this.receive(message));
  }

  close(): void {
    this.stop?.();
    this.stop = undefined;
  }

  publish(event: ServerEvent): void {
    this.deliver(event);
    if (event.kind !== "resource_updated") return;
    const message = JSON.stringify({ origin: this.origin, event });
    // Failures are reported by the link (stderr, once per outage); the local streams have it already.
    this.redis.attempt("the event bus", (client) => this.redis.command(client, ["PUBLISH", `${this.prefix}bus`, message])).catch(() => {});
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private receive(message: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (typeof parsed !== "object" || parsed === null || !("origin" in parsed) || !("event" in parsed) || parsed.origin === this.origin) return;
    const event = parsed.event;
    if (
      typeof event !== "object" ||
      event === null ||
      !("kind" in event) ||
      event.kind !== "resource_updated" ||
      !("uri" in event) ||
      typeof event.uri !== "string"
    )
      return;
    const params = "params" in event && typeof event.params === "object" && event.params !== null && !Array.isArray(event.params) ? event.params : undefined;
    this.deliver({ kind: "resource_updated", uri: event.uri, ...(params ? { params: { ...params } } : {}) });
  }

  /** To this replica's listeners; one that throws does not stop the others. */
  private deliver(event: ServerEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error(`[mcpgen] event bus listener: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
