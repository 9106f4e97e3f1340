/**
 * The list methods (tools/list, resources/list, resources/templates/list, prompts/list): the
 * manifest's lists, frozen once, served a page at a time; 2026-07-28 answers carry the list's
 * cache hint.
 */
import type { AccessRule, AuthDefinition, CacheHint, ServerDefinition } from "../../shared/definition.js";
import type { Call, EngineCore, MethodEntry } from "./engineCore.js";
import { pageOf } from "./paging.js";
import { meetsRule } from "./authInfo.js";
import type { ListEntry, ListKind } from "./listSwitch.js";
import type { VisibleContext } from "./handlerTypes.js";

export type { ListKind } from "./listSwitch.js";

const LIST_METHOD: Record<ListKind, "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list"> = {
  tools: "tools/list",
  resources: "resources/list",
  resourceTemplates: "resources/templates/list",
  prompts: "prompts/list",
};

/** The four lists as they go out, frozen (handlers cannot change what the next client sees). */
export function manifestLists(definition: ServerDefinition): Record<ListKind, readonly object[]> {
  return deepFreeze({
    tools: definition.tools,
    resources: definition.resources.map((r) => r.resource),
    resourceTemplates: definition.resourceTemplates,
    prompts: definition.prompts.map((p) => p.prompt),
  });
}

/**
 * The method-table row of one list. Without pageSize, everything in one page (the fixture,
 * verbatim); with it, an opaque cursor in nextCursor (see paging.ts).
 */
export function listMethod(core: EngineCore, kind: ListKind): MethodEntry {
  const method = LIST_METHOD[kind];
  // The list with the disabled entries left out, kept until the switches move (no filter, no hiding: the same for every caller).
  let enabled: { version: number; items: readonly object[] } | undefined;
  // Each item's switch entry, in list order (looked up once, for the per-caller filter).
  let entries: (ListEntry | undefined)[] | undefined;
  const enabledItems = (): readonly object[] => {
    const version = core.switches.version;
    if (enabled?.version !== version) {
      const disabled = core.switches.disabled(kind);
      enabled = { version, items: Object.freeze(core.lists[kind].filter((item) => !disabled.has(keyOf(kind, item)))) };
    }
    return enabled.items;
  };
  return {
    method,
    handle: (params, call) => {
      const auth = core.definition.auth;
      // hideUnauthorized, over HTTP: only the entries this token (or no token) may use, in a private cache.
      const hide = auth?.hideUnauthorized !== undefined && call.sdk.http !== undefined;
      const visible = core.options.visible;
      let items: readonly object[];
      if (hide || visible !== undefined) {
        // Per caller: the caller's context built and the entries looked up once, then one pass over the list.
        const all = core.lists[kind];
        const disabled = core.switches.disabled(kind);
        const context = visibleContext(call);
        const scopes = call.sdk.http?.authInfo?.scopes;
        const looked = (entries ??= all.map((item) => core.switches.entry(kind, keyOf(kind, item))));
        const kept: object[] = [];
        for (let i = 0; i < all.length; i++) {
          const item = all[i]!;
          const entry = looked[i];
          if (hide && !meetsRule(ruleOf(auth, kind, item), scopes)) continue;
          if (entry !== undefined && (disabled.has(entry.name) || (visible !== undefined && !visible(entry, context)))) continue;
          kept.push(item);
        }
        items = kept;
      } else items = core.switches.disabled(kind).size > 0 ? enabledItems() : core.lists[kind];
      const page = pageOf(items, params["cursor"], core.options.pageSize, kind);
      const hint = core.definition.cache?.[method];
      const personal = hide || core.options.visible !== undefined;
      const cache: CacheHint | object = call.era !== "modern" ? {} : personal ? { ...hint, cacheScope: "private" } : (hint ?? {});
      return { [kind]: page.items, ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }), ...cache };
    },
  };
}

/**
 * Whether this caller sees the entry (by name; a resource by URI): enabled now, and passed by the
 * `visible` option. A call, get or read of an entry not shown answers as for an unknown one.
 */
export function shown(core: EngineCore, call: Call, kind: ListKind, name: string): boolean {
  if (core.switches.disabled(kind).has(name)) return false;
  // hideUnauthorized: strict: an entry the caller's token may not use is as unknown to it as one switched off.
  if (core.definition.auth?.hideUnauthorized === "strict" && !authorized(core, call, kind, name)) return false;
  const visible = core.options.visible;
  if (visible === undefined) return true;
  const entry = core.switches.entry(kind, name);
  if (entry === undefined) return true;
  return visible(entry, visibleContext(call));
}

/**
 * Whether the caller's token meets the manifest's rule for an entry (by name; a resource by URI).
 * Only over HTTP on a server with `auth`: stdio serves without tokens (docs/guides/authorization.md).
 * The HTTP gate decides first, from the request alone; this is the same rule applied to the entry
 * the engine actually picked, checked before any of its code runs.
 */
export function authorized(core: EngineCore, call: Call, kind: ListKind, key: string): boolean {
  const auth = core.definition.auth;
  if (auth === undefined || call.sdk.http === undefined) return true;
  const table = auth[kind];
  // An entry the rules do not name still needs a token: never open by omission.
  return meetsRule(Object.hasOwn(table, key) ? table[key]! : [], call.sdk.http.authInfo?.scopes);
}

/** What the `visible` option is told of the caller. */
function visibleContext(call: Call): VisibleContext {
  const { auth, sessionId } = call.base;
  return { era: call.era, ...(auth === undefined ? {} : { auth }), ...(sessionId === undefined ? {} : { sessionId }) };
}

function keyOf(kind: ListKind, item: object): string {
  return String(kind === "resources" ? Reflect.get(item, "uri") : Reflect.get(item, "name"));
}

/** The rule of one list entry (by name, or a resource's URI); one the rules do not name needs a token. */
function ruleOf(auth: AuthDefinition, kind: ListKind, item: object): AccessRule {
  const key = kind === "resources" ? Reflect.get(item, "uri") : Reflect.get(item, "name");
  const table = auth[kind];
  return typeof key === "string" && Object.hasOwn(table, key) ? table[key]! : [];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
