/**
 * The 2026-07-28 cache hints (the definition's `cache`): per list method, then per resource and
 * per template, the manifest's `cache:` over mcpgen's defaults.
 */
import { setOwn } from "../../common/objects.js";
import type { CacheHintEntry, Manifest } from "../validate/manifestTypes.js";
import type { ResourceModel } from "./types.js";
import type { JsonObject } from "../../common/objects.js";

/** Cache hints when the manifest gives none: lists and static contents are the same for everyone. */
const DEFAULT_CACHE = {
  static: { ttlMs: 300_000, cacheScope: "public" },
  handler: { ttlMs: 0, cacheScope: "private" },
} as const;

type CacheHint = { ttlMs: number; cacheScope: string };

const CACHED_METHODS = ["server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list"] as const;

/** The lists `auth.hideUnauthorized` filters by the caller's token. */
const FILTERED_LISTS = ["tools/list", "prompts/list", "resources/list", "resources/templates/list"] as const;

/**
 * `resources`: the models of the manifest's `resources:`, in order (a static content is cached
 * publicly by default, unless the server has `auth` and the resource is not `auth: none`).
 */
export function buildCacheHints(root: Manifest, resources: readonly ResourceModel[]): JsonObject {
  const hint = (given: CacheHintEntry | undefined, base: CacheHint): CacheHint => ({
    ttlMs: given?.ttlMs ?? base.ttlMs,
    cacheScope: given?.cacheScope ?? base.cacheScope,
  });
  const cacheIn = root.cache ?? {};
  const cache: JsonObject = {};
  for (const method of CACHED_METHODS) setOwn(cache, method, hint(cacheIn[method], DEFAULT_CACHE.static));
  // Lists filtered by the caller's token differ per caller: no cache may share them (MCP caching).
  if (root.auth?.hideUnauthorized === true || root.auth?.hideUnauthorized === "strict")
    for (const method of FILTERED_LISTS) setOwn(cache, method, { ...hint(cacheIn[method], DEFAULT_CACHE.static), cacheScope: "private" });
  const readDefault = hint(cacheIn["resources/read"], DEFAULT_CACHE.handler);
  setOwn(cache, "resources/read", readDefault);
  const perResource: JsonObject = {};
  (root.resources ?? []).forEach((r, i) => {
    let base: CacheHint = cacheIn["resources/read"] ? readDefault : resources[i]?.content ? DEFAULT_CACHE.static : DEFAULT_CACHE.handler;
    // On a server with auth, a resource that needs a token is for its caller's eyes: no shared cache keeps it.
    if (root.auth !== undefined && r.auth !== "none") base = { ...base, cacheScope: "private" };
    setOwn(perResource, r.uri, hint(r.cache, base));
  });
  const perTemplate: JsonObject = {};
  (root.resourceTemplates ?? []).forEach((t) => setOwn(perTemplate, t.name, hint(t.cache, readDefault)));
  if (Object.keys(perResource).length) cache.resources = perResource;
  if (Object.keys(perTemplate).length) cache.resourceTemplates = perTemplate;
  return cache;
}
