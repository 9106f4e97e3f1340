/**
 * A Durable Object's key-value storage kept in a Map, for tests of the store's logic off workerd
 * (values structured-cloned as the storage does; its limits of 128 keys a call and 128 KiB a
 * value checked). test/e2e/durable-objects.test.ts runs the store on workerd's own storage.
 */
import type { DurableObjectStorageLike } from "@mcpgen/runtime/server/durable";

export interface MapStorage extends DurableObjectStorageLike {
  readonly map: Map<string, unknown>;
}

const MAX_KEYS = 128;
const MAX_VALUE_BYTES = 128 * 1024;

export function mapStorage(map = new Map<string, unknown>()): MapStorage {
  const keys = (list: string[]) => {
    if (list.length > MAX_KEYS) throw new RangeError(`more than ${MAX_KEYS} keys in one call`);
    return list;
  };
  return {
    map,
    get: async (list) => new Map(keys(list).flatMap((key) => (map.has(key) ? [[key, structuredClone(map.get(key))]] : []))),
    put: async (entries) => {
      keys(Object.keys(entries));
      for (const [key, value] of Object.entries(entries)) {
        // A string counts two bytes a unit at most as the storage serializes it.
        if (typeof value === "string" && value.length * 2 > MAX_VALUE_BYTES) throw new RangeError(`value of ${key} too large`);
        map.set(key, structuredClone(value));
      }
    },
    delete: async (list) => keys(list).filter((key) => map.delete(key)).length,
    list: async ({ prefix }) =>
      new Map(
        [...map]
          .filter(([key]) => key.startsWith(prefix))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => [k, structuredClone(v)]),
      ),
  };
}
