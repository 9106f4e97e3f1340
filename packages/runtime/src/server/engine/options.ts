/** The runtime's numeric options: each a positive whole number, or its default. */

/** A positive whole number of an option, or its default; anything else is a programming error. */
export function positiveOption(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive whole number, not ${String(value)}`);
  return value;
}

/** Default cap on one message (a stdio line or an HTTP body). */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
