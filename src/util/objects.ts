/**
 * The plain-data helpers of the generator (src/runtime keeps its own: it is copied into the
 * generated output and imports nothing from here).
 */

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Defines an own data property even for keys such as `__proto__`, which plain assignment would not. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
