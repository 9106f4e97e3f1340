/** server/engine/listSwitch.ts: the switched state behind ListStateStore, and one announcement per burst and kind. */
import { describe, expect, it } from "vitest";
import { ListSwitch, MemoryListStateStore, disabledAtStart, type ListChange, type ListStateStore } from "../../src/server/engine/listSwitch.js";
import type { ListKind } from "../../src/server/engine/lists.js";
import { definition } from "./engine-test-kit.js";
import { sleep } from "../../../../test/helpers/wait.js";

const DEFINITION = definition({
  tools: [
    { name: "a", inputSchema: { type: "object" } },
    { name: "b", inputSchema: { type: "object" } },
  ],
  resources: [{ resource: { uri: "x://r", name: "r" } }],
  resourceTemplates: [{ uriTemplate: "x://{id}", name: "t" }],
  prompts: [{ prompt: { name: "p" } }],
  switches: { tools: { b: { enabled: false, tags: ["admin"] } }, resourceTemplates: { t: { enabled: true, tags: ["admin"] } } },
});

function announced(lists: ListSwitch): string[] {
  const seen: string[] = [];
  lists.onChange((kind) => seen.push(kind));
  return seen;
}

describe("ListSwitch", () => {
  it("starts from the definition's switches", () => {
    expect(disabledAtStart(DEFINITION)).toEqual({ tools: ["b"], resources: [], resourceTemplates: [], prompts: [] });
    const lists = new ListSwitch(DEFINITION);
    expect([lists.isEnabled("tools", "a"), lists.isEnabled("tools", "b"), lists.isEnabled("tools", "nope")]).toEqual([true, false, false]);
    expect(lists.entry("resourceTemplates", "t")).toEqual({ kind: "resourceTemplates", name: "t", tags: ["admin"] });
  });

  it("announces once per burst and kind, templates as resources, and nothing for a burst that changes nothing", async () => {
    const lists = new ListSwitch(DEFINITION);
    const seen = announced(lists);
    lists.enableTag("admin"); // b on; t already on
    lists.disable("tools", "a");
    lists.disable("resourceTemplates", "t");
    // A burst is announced in a microtask: a macrotask later, it has been (and nothing more will be).
    await sleep(0);
    expect(seen).toEqual(["tools", "resources"]);
    lists.enable("prompts", "p"); // already on
    lists.disable("prompts", "p");
    lists.enable("prompts", "p");
    await sleep(0);
    expect(seen).toEqual(["tools", "resources"]);
  });

  it("moves its version on every change of the state, at once (list answers built from it are kept until then), and not for a switch that changes nothing", () => {
    const lists = new ListSwitch(DEFINITION);
    const start = lists.version;
    lists.enable("tools", "a"); // already on
    expect(lists.version).toBe(start);
    lists.disable("tools", "a");
    expect(lists.version).toBe(start + 1);
    expect([...lists.disabled("tools")].sort()).toEqual(["a", "b"]);
    lists.useStore(new MemoryListStateStore());
    expect(lists.version).toBe(start + 2);
    expect([...lists.disabled("tools")]).toEqual([]);
  });

  it("refuses a name the definition does not have, changing nothing", () => {
    const lists = new ListSwitch(DEFINITION);
    expect(() => lists.disable("tools", ["a", "nope"])).toThrow('lists.disable: the manifest declares no tools entry named "nope"');
    expect(lists.isEnabled("tools", "a")).toBe(true);
  });

  it("announces a change another replica made: a shared store calls its listeners, the switch compares and announces", async () => {
    // A stand-in for a store shared by replicas: its state changes from outside (a pub/sub message).
    const inner = new MemoryListStateStore();
    const listeners: ((kinds: ReadonlySet<ListKind>) => void)[] = [];
    const shared: ListStateStore & { remote(changes: ListChange[]): void } = {
      disabled: (kind) => inner.disabled(kind),
      apply: (changes) => inner.apply(changes),
      subscribe: (listener) => {
        listeners.push(listener);
        return inner.subscribe(listener);
      },
      remote: (changes) => inner.apply(changes),
    };
    const lists = new ListSwitch(DEFINITION, shared);
    const seen = announced(lists);
    shared.remote([{ kind: "prompts", name: "p", enabled: false }]);
    await sleep(0);
    expect(seen).toEqual(["prompts"]);
    expect(lists.isEnabled("prompts", "p")).toBe(false);
    expect(listeners).toHaveLength(1);
  });
});
