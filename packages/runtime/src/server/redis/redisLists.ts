/**
 * The switched lists in Redis, for several replicas of one server (ListStateStore, see
 * engine/listSwitch.ts). Reads stay synchronous: each replica keeps a copy of the disabled sets.
 *
 * - `<prefix>lists` is a hash of every switch made, `<kind>:<name>` to "1" (enabled) or "0";
 *   an entry never switched keeps the manifest's `enabled`. A replica that starts reads it, so it
 *   serves the current lists.
 * - A switch is applied to the local copy at once (this replica's next list shows it), then by a
 *   script that writes the hash, counts the change (`<prefix>lists:seq`) and publishes it on the
 *   channel `<prefix>lists`. Every replica, this one included, applies the published changes in
 *   the order Redis ran them, so two replicas switching one entry at once end alike (the last
 *   script wins, as in the hash).
 * - A message numbered at or below the state read at start is already in it; the messages that
 *   arrive while that state is read wait for it. Messages that are not of this format are ignored.
 *
 * A switch made while Redis does not answer applies on this replica at once (the failure goes to
 * stderr, once per outage) and is written when Redis answers again. Then, and whenever the
 * subscriber connection is back after it was lost (its messages of that time are lost), the
 * replica reads the hash again and applies what differs, so its clients hear of it
 * (list_changed) and every replica serves the same lists again.
 */
import { MemoryListStateStore, type ListChange, type ListKind, type ListStateStore } from "../engine/listSwitch.js";
import type { RedisLink } from "./redisLink.js";

const KINDS: readonly ListKind[] = ["tools", "resources", "resourceTemplates", "prompts"];
const WHAT = "the list store";

/** ARGV: the prefix. Answers the change count and the hash, read at one instant. */
const SNAPSHOT = `
local prefix = ARGV[1]
return {redis.call('GET', prefix .. 'lists:seq') or '0', redis.call('HGETALL', prefix .. 'lists')}
`;

/** ARGV: the prefix, the changes as JSON, then field/value pairs. Answers the change's number. */
const APPLY = `
local prefix = ARGV[1]
local seq = redis.call('INCR', prefix .. 'lists:seq')
for i = 3, #ARGV, 2 do redis.call('HSET', prefix .. 'lists', ARGV[i], ARGV[i + 1]) end
redis.call('PUBLISH', prefix .. 'lists', seq .. ' ' .. ARGV[2])
return seq
`;

export class RedisListStateStore implements ListStateStore {
  /** This replica's copy, and its listeners: every change, local or from the channel, is applied to it. */
  private readonly copy: MemoryListStateStore;
  /** The number of the last change in the state read at open: a message numbered up to it is in that state already. */
  private readAt = 0;
  private stop: (() => void) | undefined;
  private stopRecovering: (() => void) | undefined;
  /** Switches Redis did not take (it did not answer): written again when it is back, by field. */
  private readonly unwritten = new Map<string, ListChange>();
  /** The last switch made here of each entry, by field: only it is written again. */
  private readonly lastMade = new Map<string, ListChange>();
  /** Messages that arrive while the hash is read: applied after it (undefined: none is being read). */
  private waiting: string[] | undefined;
  /** A read of the hash under way (one at a time). */
  private reading: Promise<void> | undefined;

  constructor(
    private readonly redis: RedisLink,
    private readonly prefix: string,
    /** The entries the manifest disables at start. */
    initial: Readonly<Record<ListKind, readonly string[]>>,
    /**
     * Whether the manifest declares an entry: a change naming another (a forged PUBLISH, a replica
     * of another manifest on the same prefix) is ignored, so names nobody declared never pile up.
     */
    private readonly declared: (kind: ListKind, name: string) => boolean = () => true,
  ) {
    this.copy = new MemoryListStateStore(initial);
  }

  /** Subscribes, then reads the switches made so far (serving starts after it). */
  async open(): Promise<void> {
    this.waiting = [];
    this.stop = await this.redis.listen(`${this.prefix}lists`, (message) => (this.waiting ? this.waiting.push(message) : this.receive(message)));
    await this.read();
    this.stopRecovering = this.redis.onRecover(() => void this.resync());
  }

  close(): void {
    this.stop?.();
    this.stop = undefined;
    this.stopRecovering?.();
    this.stopRecovering = undefined;
  }

  /** Redis is back: the switches it did not take are written, then the hash read again. */
  private async resync(): Promise<void> {
    if (this.reading) return this.reading;
    this.reading = (async () => {
      const unwritten = [...this.unwritten.values()];
      this.unwritten.clear();
      if (unwritten.length > 0) {
        try {
          await this.write(unwritten);
        } catch (error) {
          for (const change of unwritten)
            if (this.lastMade.get(fieldOf(change)) === change && !this.unwritten.has(fieldOf(change))) this.unwritten.set(fieldOf(change), change);
          throw error;
        }
      }
      this.waiting = [];
      await this.read();
    })()
      // Failed again (reported by the link; what was not written is kept): the next recovery tries again.
      .catch(() => {})
      .finally(() => (this.reading = undefined));
    return this.reading;
  }

  /**
   * Reads the hash and applies it to this replica's copy (what differs is announced), then the
   * messages that came meanwhile: one numbered at or below the hash's count is in it already.
   */
  private async read(): Promise<void> {
    try {
      const snapshot = await this.redis.run(WHAT, SNAPSHOT, [this.prefix]);
      const [seq, pairs] = Array.isArray(snapshot) ? snapshot : [];
      const switched: ListChange[] = [];
      if (Array.isArray(pairs)) {
        for (let i = 0; i + 1 < pairs.length; i += 2) {
          const change = parseField(String(pairs[i]), String(pairs[i + 1]));
          if (change && this.declared(change.kind, change.name)) switched.push(change);
        }
      }
      this.copy.apply(switched);
      this.readAt = Number(seq) || 0;
    } finally {
      // Read or not, the messages held meanwhile are applied (never held for good).
      const early = this.waiting ?? [];
      this.waiting = undefined;
      for (const message of early) this.receive(message);
    }
  }

  disabled(kind: ListKind): ReadonlySet<string> {
    return this.copy.disabled(kind);
  }

  apply(changes: readonly ListChange[]): void {
    this.copy.apply(changes);
    if (changes.length === 0) return;
    // A newer switch of an entry replaces one Redis did not take.
    for (const change of changes) {
      this.unwritten.delete(fieldOf(change));
      this.lastMade.set(fieldOf(change), change);
    }
    // Failures are reported by the link (stderr, once per outage): a switch is a void call. What
    // Redis did not take is written when it is back, unless a newer switch of the entry came.
    void this.write(changes).catch(() => {
      for (const change of changes) if (this.lastMade.get(fieldOf(change)) === change) this.unwritten.set(fieldOf(change), change);
    });
  }

  /** Writes switches to the hash and publishes them. */
  private async write(changes: readonly ListChange[]): Promise<void> {
    const fields = changes.flatMap((change) => [fieldOf(change), change.enabled ? "1" : "0"]);
    await this.redis.run(WHAT, APPLY, [this.prefix, JSON.stringify(changes), ...fields]);
  }

  subscribe(listener: (kinds: ReadonlySet<ListKind>) => void): () => void {
    return this.copy.subscribe(listener);
  }

  /** A message of the channel: `<seq> <changes as JSON>`. */
  private receive(message: string): void {
    const space = message.indexOf(" ");
    const seq = Number(message.slice(0, space));
    // Channel order is the order Redis ran the changes: the number only tells what the state read at open holds.
    if (space < 1 || !Number.isSafeInteger(seq) || seq <= this.readAt) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.slice(space + 1));
    } catch {
      return;
    }
    if (Array.isArray(parsed)) this.copy.apply(parsed.filter((c): c is ListChange => isChange(c) && this.declared(c.kind, c.name)));
  }
}

/** An entry's field in the hash: `<kind>:<name>`. */
function fieldOf({ kind, name }: ListChange): string {
  return `${kind}:${name}`;
}

function parseField(field: string, value: string): ListChange | undefined {
  const colon = field.indexOf(":");
  const kind = field.slice(0, colon);
  if (colon < 1 || !isKind(kind) || (value !== "0" && value !== "1")) return undefined;
  return { kind, name: field.slice(colon + 1), enabled: value === "1" };
}

function isKind(value: unknown): value is ListKind {
  return typeof value === "string" && (KINDS as readonly string[]).includes(value);
}

function isChange(value: unknown): value is ListChange {
  if (typeof value !== "object" || value === null) return false;
  const { kind, name, enabled } = value as Record<string, unknown>;
  return isKind(kind) && typeof name === "string" && typeof enabled === "boolean";
}
