/**
 * Seeded randomness for the mock: every draw comes from a generator seeded by a hash of what the
 * answer depends on (the seed, the tool, the arguments), so the same call always gets the same
 * answer, whatever was called before it.
 */
import { createHash } from "node:crypto";

/** A source of numbers in [0, 1), and the choices the value generator makes with them. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A generator seeded by the SHA-256 of `parts` (joined by NUL): the same parts, the same draws. */
  constructor(...parts: readonly (string | number)[]) {
    const digest = createHash("sha256").update(parts.map(String).join("\0")).digest();
    this.a = digest.readUInt32LE(0);
    this.b = digest.readUInt32LE(4);
    this.c = digest.readUInt32LE(8);
    this.d = digest.readUInt32LE(12);
  }

  /** sfc32: small, fast, and good enough for test data (never for secrets). */
  next(): number {
    this.a |= 0;
    this.b |= 0;
    this.c |= 0;
    this.d |= 0;
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both included; min when max < min). */
  int(min: number, max: number): number {
    if (max <= min) return min;
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** The items in a random order (a copy). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

/** JSON text with object keys sorted at every depth: equal values, equal text (argument order aside). */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
