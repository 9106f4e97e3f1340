/**
 * Where a factory keeps what its replicas share, decided in one place before serving (no
 * transport knows of Redis). With REDIS_URL set, or a Redis task store passed as `taskStore`,
 * one Redis connection carries the tasks, the switched lists and the events of 2026-07-28
 * listen streams (resource updates); otherwise they stay in this process's memory.
 *
 * A server without tasks uses REDIS_URL only when its lists or resources can change (a
 * `listChanged` capability, `resources.subscribe`): REDIS_URL is a common name, set in many
 * deployments for other programs.
 */
import type { ServerDefinition } from "../../shared/definition.js";
import { MemoryListStateStore, type ListSwitch } from "../engine/listSwitch.js";
import type { ServerEventBus } from "../engine/sdk.js";
import type { Tasks } from "../tasks/tasks.js";
import { RedisEventRelay } from "../redis/redisBus.js";
import { RedisLink } from "../redis/redisLink.js";
import { RedisListStateStore } from "../redis/redisLists.js";
import { RedisTaskStore, redisSettings } from "../redis/redisTaskStore.js";

/** What serving code opens: the factory's tasks and lists. */
export interface SharedParts {
  readonly tasks?: Tasks;
  /** The factory's event bus, whose resource updates are relayed between replicas. */
  readonly bus?: ServerEventBus;
  readonly listState?: ListSwitch;
  readonly definition?: ServerDefinition;
}

export interface OpenedState {
  /** Closes what was opened (once; later calls answer the same promise). */
  close(): Promise<void>;
}

/** Opens a factory's state before serving; `relay`: resource updates of the factory's bus go to the other replicas and theirs come here (Streamable HTTP). */
export async function openState(parts: SharedParts, env: Record<string, string | undefined>, options: { relay?: boolean } = {}): Promise<OpenedState> {
  const { tasks, listState, definition } = parts;
  const settings = redisSettings(env);
  const chosen = tasks?.chosenStore;
  let redis: RedisLink | undefined;
  let prefix = "mcpgen:";
  let ownsLink = false;
  if (chosen instanceof RedisTaskStore) {
    redis = chosen.redis;
    prefix = chosen.prefix;
  } else if (settings && ((tasks !== undefined && chosen === undefined) || (definition !== undefined && changes(definition)))) {
    redis = new RedisLink({
      url: settings.url,
      commandTimeoutMs: settings.commandTimeoutMs ?? 5_000,
      why: "REDIS_URL is set",
      who: tasks ? "The task store" : "The list store",
    });
    ownsLink = true;
    prefix = settings.prefix ?? prefix;
    if (tasks && chosen === undefined) tasks.useStore(new RedisTaskStore(redis, false, { ...settings, ...tasks.limits }));
  }

  let lists: RedisListStateStore | undefined;
  let relay: RedisEventRelay | undefined;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      relay?.close();
      if (lists && listState) {
        // Switches made after closing stay in this process.
        lists.close();
        listState.useStore(
          new MemoryListStateStore({
            tools: listState.disabled("tools"),
            resources: listState.disabled("resources"),
            resourceTemplates: listState.disabled("resourceTemplates"),
            prompts: listState.disabled("prompts"),
          }),
        );
      }
      await tasks?.close();
      if (ownsLink) await redis?.close();
    })());
  try {
    await tasks?.open();
    if (redis && listState) {
      lists = new RedisListStateStore(redis, prefix, listState.initial);
      await lists.open();
      listState.useStore(lists);
    }
    if (redis && options.relay && parts.bus) {
      relay = new RedisEventRelay(redis, prefix, parts.bus);
      await relay.open();
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { close };
}

/** Whether the definition's lists or resources can change at run time (what replicas must share without tasks). */
function changes(definition: ServerDefinition): boolean {
  const capabilities = definition.capabilities;
  const flag = (kind: "tools" | "resources" | "prompts", name: string) => capabilities[kind]?.[name] === true;
  return flag("tools", "listChanged") || flag("resources", "listChanged") || flag("prompts", "listChanged") || flag("resources", "subscribe");
}
