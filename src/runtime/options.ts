/** The runtime's numeric options: each a positive whole number, or its default. */

/** A positive whole number of an option, or its default; anything else is a programming error. */
export function positiveOption(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive whole number, not ${String(value)}`);
  return value;
}
