/**
 * Who sent each message of a log that does not say (plain JSONL): requests and notifications by
 * their method (methods.ts senderOf), a response by the side of the request it answers (the other
 * side), or the server when no request has that id.
 */
import { senderOf } from "../methods.js";
import { isRecord, other, type Side } from "../model.js";

/** Requests remembered for their side; beyond, the oldest are forgotten. */
const REMEMBERED = 100_000;

export class DirectionGuesser {
  private readonly sides = new Map<string, Side>();

  guess(message: unknown): Side {
    if (!isRecord(message)) return "client";
    const hasId = Object.hasOwn(message, "id");
    const key = hasId ? JSON.stringify(message["id"]) : "";
    if (typeof message["method"] === "string") {
      const side = senderOf(message["method"], hasId && !message["method"].startsWith("notifications/"));
      if (hasId) {
        this.sides.delete(key);
        this.sides.set(key, side);
        if (this.sides.size > REMEMBERED) this.sides.delete(this.sides.keys().next().value!);
      }
      return side;
    }
    const asker = this.sides.get(key);
    return asker === undefined ? "server" : other(asker);
  }
}
