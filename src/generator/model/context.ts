/** What every entity builder of the model takes, and the small helpers they share. */
import type { Diagnostic } from "../../common/diagnostics.js";
import { setOwn } from "../../common/objects.js";
import type { ValidManifest } from "../validate/manifestTypes.js";
import type { IdentifierClaims } from "./claims.js";
import type { JsonObject } from "../../common/objects.js";

export interface ModelContext {
  readonly manifest: ValidManifest;
  /** Where every identifier is reserved, in manifest order (see claims.ts). */
  readonly claims: IdentifierClaims;
  /** What the builders found wrong (a clash, an unreadable file): a model is made only without any. */
  readonly diagnostics: Diagnostic[];
}

/** A copy of `value` without `keys`, in its key order. */
export function omit(value: { readonly [key: string]: unknown }, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (!keys.includes(k)) setOwn(out, k, v);
  return out;
}

/** `{ [key]: value }`, or `{}` when the value is absent: spread into a model entry. */
export function optionalString<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  if (value !== undefined) out[key] = value;
  return out;
}
