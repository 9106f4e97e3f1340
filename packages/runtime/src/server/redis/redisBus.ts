/**
 * Resource updates across the replicas of one server, on the channel `<prefix>bus`: a relay
 * between the factory's event bus (the SDK's ServerEventBus, which its 2026-07-28 listen streams
 * and the factory's 2025-era sessions read) and Redis. A resource update published on this
 * replica's bus goes to the others, whose relays publish it on their own buses. List changes are
 * not relayed: every replica announces them itself, from the switched state it shares
 * (redisLists.ts), so a relayed one would reach each stream once per replica.
 */
import type { ServerEvent, ServerEventBus } from "../engine/sdk.js";
import type { RedisLink } from "./redisLink.js";

export class RedisEventRelay {
  /** Tells this replica's messages from the others'. */
  private readonly origin = crypto.randomUUID();
  /** Set while an event from another replica is published here (the bus delivers synchronously): it is not sent back. */
  private relaying = false;
  private stops: (() => void)[] = [];

  constructor(
    private readonly redis: RedisLink,
    private readonly prefix: string,
    private readonly bus: ServerEventBus,
  ) {}

  async open(): Promise<void> {
    this.stops.push(this.bus.subscribe((event) => this.send(event)));
    this.stops.push(await this.redis.listen(`${this.prefix}bus`, (message) => this.receive(message)));
  }

  close(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
  }

  private send(event: ServerEvent): void {
    if (this.relaying || event.kind !== "resource_updated") return;
    const message = JSON.stringify({ origin: this.origin, event });
    // Failures are reported by the link (stderr, once per outage); this replica's streams have it already.
    this.redis.attempt("the event bus", (client) => this.redis.command(client, ["PUBLISH", `${this.prefix}bus`, message])).catch(() => {});
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
    this.relaying = true;
    try {
      this.bus.publish({ kind: "resource_updated", uri: event.uri, ...(params ? { params: { ...params } } : {}) });
    } finally {
      this.relaying = false;
    }
  }
}
