/**
 * Lists that change at run time: which tools, resources, templates and prompts are enabled,
 * starting from the manifest's `enabled` and switched by name, tag or predicate. The state sits
 * behind ListStateStore (in memory here; a store shared by replicas is the seam for Redis), and
 * the changes of one synchronous burst are announced once per list kind, after comparing with
 * what was last announced: a switch undone in the same burst announces nothing.
 */
import type { ServerDefinition } from "../../shared/definition.js";

/**
 * Whether a definition's lists or resources can change at run time (a `listChanged` capability,
 * `resources.subscribe`): what replicas must share besides tasks (redis/redisState.ts).
 */
export function canChange(definition: ServerDefinition): boolean {
  const capabilities = definition.capabilities;
  const flag = (kind: "tools" | "resources" | "prompts", name: string) => capabilities[kind]?.[name] === true;
  return flag("tools", "listChanged") || flag("resources", "listChanged") || flag("prompts", "listChanged") || flag("resources", "subscribe");
}

/** The four lists of a server, as their list methods name them (a template is a resource; its list is its own). */
export type ListKind = "tools" | "resources" | "resourceTemplates" | "prompts";

/** The notifications a change sends: resources covers the resources and their templates. */
export type AnnouncedKind = "tools" | "resources" | "prompts";

/** The names a server's lists know, per kind (resources by URI), and its tags: the generated code narrows them to the manifest's unions. */
export interface ListNames {
  tools: string;
  resources: string;
  resourceTemplates: string;
  prompts: string;
  tags: string;
}

/** One entry of a list as switches and filters see it (a resource's name is its URI). */
export type ListEntry = {
  [K in ListKind]: { kind: K; name: string; tags: readonly string[] };
}[ListKind];

/**
 * Switches a server's lists (`factory.lists`, `handle.lists`, `ctx.lists`). Every change applies
 * at once to the lists this process serves and is announced (notifications/<kind>/list_changed)
 * once per burst. Its members are function-typed properties, so the runtime's object (any name)
 * is a `Lists` of the generated code's names without a cast; a name the manifest does not declare
 * does not compile there.
 */
export interface Lists<N extends ListNames = ListNames> {
  /** Lists the entries again (resources by URI). */
  readonly enable: <K extends ListKind>(kind: K, names: N[K] | readonly N[K][]) => void;
  /** Leaves the entries out of their list; calls to them answer as to an unknown one. */
  readonly disable: <K extends ListKind>(kind: K, names: N[K] | readonly N[K][]) => void;
  /** Enables every entry with this tag. */
  readonly enableTag: (tag: N["tags"]) => void;
  /** Disables every entry with this tag. */
  readonly disableTag: (tag: N["tags"]) => void;
  /** Enables (or disables) every entry the predicate picks (it sees each entry of the manifest once). */
  readonly set: (predicate: (entry: ListEntry) => boolean, enabled: boolean) => void;
  /** Whether the entry is listed now (before any per-request `visible` filter). */
  readonly isEnabled: <K extends ListKind>(kind: K, name: N[K]) => boolean;
}

/**
 * What every server's `Lists` is (each takes fewer names than none): the default of the serving
 * handles' type, so `HttpHandle` holds any server's handle; `HttpHandle<ServerLists>` switches by name.
 */
export type AnyLists = Lists<{ tools: never; resources: never; resourceTemplates: never; prompts: never; tags: never }>;

/** One switch of one entry. */
export interface ListChange {
  kind: ListKind;
  name: string;
  enabled: boolean;
}

/**
 * Where the switched state is kept. Reads are synchronous (every list answer reads it): a store
 * shared by replicas keeps a local copy and updates it from its pub/sub channel, then calls its
 * listeners, so that each replica announces the change to its own clients.
 */
export interface ListStateStore {
  /** The entries disabled now, of one kind (names; resources by URI). */
  disabled(kind: ListKind): ReadonlySet<string>;
  /** Applies the changes (to every replica, for a shared store). */
  apply(changes: readonly ListChange[]): void;
  /** Called with the kinds whose state may have changed; answers the unsubscribe. */
  subscribe(listener: (kinds: ReadonlySet<ListKind>) => void): () => void;
}

const KINDS: readonly ListKind[] = ["tools", "resources", "resourceTemplates", "prompts"];

/** The state in this process's memory, starting from the entries disabled at start. */
export class MemoryListStateStore implements ListStateStore {
  private readonly sets: Record<ListKind, Set<string>>;
  private readonly listeners = new Set<(kinds: ReadonlySet<ListKind>) => void>();

  constructor(initial: Partial<Record<ListKind, Iterable<string>>> = {}) {
    this.sets = {
      tools: new Set(initial.tools),
      resources: new Set(initial.resources),
      resourceTemplates: new Set(initial.resourceTemplates),
      prompts: new Set(initial.prompts),
    };
  }

  disabled(kind: ListKind): ReadonlySet<string> {
    return this.sets[kind];
  }

  apply(changes: readonly ListChange[]): void {
    const touched = new Set<ListKind>();
    for (const change of changes) if (switchIn(this.sets, change)) touched.add(change.kind);
    if (touched.size === 0) return;
    for (const listener of this.listeners) listener(touched);
  }

  subscribe(listener: (kinds: ReadonlySet<ListKind>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Applies one change to disabled sets; whether it changed anything. */
function switchIn(sets: Record<ListKind, Set<string>>, { kind, name, enabled }: ListChange): boolean {
  const set = sets[kind];
  if (enabled === !set.has(name)) return false;
  if (enabled) set.delete(name);
  else set.add(name);
  return true;
}

/** The entries disabled at start, by kind, as the definition's `switches` says. */
export function disabledAtStart(definition: ServerDefinition): Record<ListKind, string[]> {
  const out: Record<ListKind, string[]> = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  for (const kind of KINDS) {
    for (const [name, entry] of Object.entries(definition.switches?.[kind] ?? {})) if (!entry.enabled) out[kind].push(name);
  }
  return out;
}

function announcedKind(kind: ListKind): AnnouncedKind {
  return kind === "resourceTemplates" ? "resources" : kind;
}

/** A factory's lists: the entries the manifest declares, their tags, and the store of what is switched off. */
export class ListSwitch implements Lists {
  /** Every entry of the manifest, by kind, in manifest order. */
  private readonly entries: Record<ListKind, ListEntry[]>;
  private readonly byName: Record<ListKind, Map<string, ListEntry>>;
  /** What was last announced of each kind: a burst is announced only if it differs. */
  private readonly announced: Record<ListKind, Set<string>>;
  private readonly pending = new Set<ListKind>();
  private readonly listeners = new Set<(kind: AnnouncedKind) => void>();
  /** The entries the manifest disables at start, by kind. */
  readonly initial: Readonly<Record<ListKind, readonly string[]>>;
  private store: ListStateStore;
  private unsubscribe: () => void;
  /** Counts the changes of the state (not the announcements): list answers built from it are kept until it moves. */
  private changes = 0;

  constructor(definition: ServerDefinition, store?: ListStateStore) {
    this.initial = disabledAtStart(definition);
    this.store = store ?? new MemoryListStateStore(this.initial);
    const tags = (kind: ListKind, name: string): readonly string[] => {
      const table = definition.switches?.[kind];
      return table !== undefined && Object.hasOwn(table, name) ? table[name]!.tags : [];
    };
    const entry = (kind: ListKind, name: string): ListEntry => ({ kind, name, tags: tags(kind, name) }) as ListEntry;
    this.entries = {
      tools: definition.tools.map((t) => entry("tools", t.name)),
      resources: definition.resources.map((r) => entry("resources", r.resource.uri)),
      resourceTemplates: definition.resourceTemplates.map((t) => entry("resourceTemplates", t.name)),
      prompts: definition.prompts.map((p) => entry("prompts", p.prompt.name)),
    };
    this.byName = { tools: new Map(), resources: new Map(), resourceTemplates: new Map(), prompts: new Map() };
    this.announced = { tools: new Set(), resources: new Set(), resourceTemplates: new Set(), prompts: new Set() };
    for (const kind of KINDS) {
      for (const e of this.entries[kind]) this.byName[kind].set(e.name, e);
      this.announced[kind] = new Set(this.store.disabled(kind));
    }
    this.unsubscribe = this.store.subscribe((kinds) => this.changed(kinds));
  }

  /**
   * Moves the state to another store (one shared by replicas) before serving: what it holds is
   * the state announced so far, so a replica that starts after a switch announces nothing.
   */
  useStore(store: ListStateStore): void {
    this.unsubscribe();
    this.changes++;
    this.store = store;
    for (const kind of KINDS) this.announced[kind] = new Set(store.disabled(kind));
    this.unsubscribe = store.subscribe((kinds) => this.changed(kinds));
  }

  enable<K extends ListKind>(kind: K, names: string | readonly string[]): void {
    this.switchNames(kind, names, true);
  }

  disable<K extends ListKind>(kind: K, names: string | readonly string[]): void {
    this.switchNames(kind, names, false);
  }

  enableTag(tag: string): void {
    this.set((entry) => entry.tags.includes(tag), true);
  }

  disableTag(tag: string): void {
    this.set((entry) => entry.tags.includes(tag), false);
  }

  set(predicate: (entry: ListEntry) => boolean, enabled: boolean): void {
    const changes: ListChange[] = [];
    for (const kind of KINDS) for (const entry of this.entries[kind]) if (predicate(entry)) changes.push({ kind, name: entry.name, enabled });
    this.store.apply(changes);
  }

  isEnabled(kind: ListKind, name: string): boolean {
    return this.byName[kind].has(name) && !this.store.disabled(kind).has(name);
  }

  /** A number that changes whenever which entries are disabled may have changed. */
  get version(): number {
    return this.changes;
  }

  /** The entries of one kind disabled now (names; resources by URI). */
  disabled(kind: ListKind): ReadonlySet<string> {
    return this.store.disabled(kind);
  }

  /** The entry of one kind, by name (resources by URI); undefined for a name the manifest does not declare. */
  entry(kind: ListKind, name: string): ListEntry | undefined {
    return this.byName[kind].get(name);
  }

  /** Called once per burst and kind announced (tools, resources, prompts); answers the unsubscribe. */
  onChange(listener: (kind: AnnouncedKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private switchNames(kind: ListKind, names: string | readonly string[], enabled: boolean): void {
    const list = typeof names === "string" ? [names] : names;
    for (const name of list) {
      // The generated types rule this out; plain JavaScript callers get told.
      if (!this.byName[kind].has(name))
        throw new Error(`lists.${enabled ? "enable" : "disable"}: the manifest declares no ${kind} entry named ${JSON.stringify(name)}`);
    }
    this.store.apply(list.map((name) => ({ kind, name, enabled })));
  }

  /** A change arrived: the burst is announced once the current synchronous code is done. */
  private changed(kinds: ReadonlySet<ListKind>): void {
    this.changes++;
    const first = this.pending.size === 0;
    for (const kind of kinds) this.pending.add(kind);
    if (first) queueMicrotask(() => this.flush());
  }

  private flush(): void {
    const out = new Set<AnnouncedKind>();
    for (const kind of this.pending) {
      const now = this.store.disabled(kind);
      const before = this.announced[kind];
      if (now.size === before.size && [...now].every((name) => before.has(name))) continue;
      this.announced[kind] = new Set(now);
      out.add(announcedKind(kind));
    }
    this.pending.clear();
    for (const kind of out) for (const listener of this.listeners) listener(kind);
  }
}
