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
import { RedisEventBus } from "../redis/redisBus.js";
import { RedisLink } from "../redis/redisLink.js";
import { RedisListStateStore } from "../redis/redisLists.js";
import { RedisTaskStore, redisSettings } from "../redis/redisTaskStore.js";

/** What serving code opens: the factory's tasks and lists. */
export interface SharedParts {
  readonly tasks?: Tasks;
  readonly listState?: ListSwitch;
  readonly definition?: ServerDefinition;
}

export interface OpenedState {
  /** The bus 2026-07-28 listen streams read, spanning the replicas (Redis); undefined: the SDK's in-process bus. */
  readonly bus?: ServerEventBus;
  /** Closes what was opened (once; later calls answer the same promise). */
  close(): Promise<void>;
}

/** Opens a factory's state before serving; `bus`: the caller serves 2026-07-28 listen streams itself (Streamable HTTP). */
export async function openState(parts: SharedParts, env: Record<string, string | undefined>, options: { bus?: boolean } = {}): Promise<OpenedState> {
  const { tasks, listState, definition } = parts;
  const settings = redisSettings(env);
  const chosen = tasks?.chosen ? tasks.currentStore : undefined;
  let redis: RedisLink | undefined;
  let prefix = "mcpgen:";
  let ownsLink = false;
  if (chosen instanceof RedisTaskStore) {
    redis = chosen.redis;
    prefix = chosen.prefix;
  } else if (settings && ((tasks !== undefined && !tasks.chosen) || (definition !== undefined && changes(definition)))) {
    redis = new RedisLink({
      url: settings.url,
      commandTimeoutMs: settings.commandTimeoutMs ?? 5_000,
      why: "REDIS_URL is set",
      who: tasks ? "The task store" : "The list store",
    });
    ownsLink = true;
    prefix = settings.prefix ?? prefix;
    if (tasks && !tasks.chosen) tasks.useStore(new RedisTaskStore(redis, false, { ...settings, ...tasks.limits }));
  }

  let lists: RedisListStateStore | undefined;
  let bus: RedisEventBus | undefined;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      bus?.close();
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
    if (redis) {
      if (options.bus) {
        bus = new RedisEventBus(redis, prefix);
        await bus.open();
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { ...(bus ? { bus } : {}), close };
}

/** Whether the definition's lists or resources can change at run time (what replicas must share without tasks). */
function changes(definition: ServerDefinition): boolean {
  const capabilities = definition.capabilities;
  const flag = (kind: "tools" | "resources" | "prompts", name: string) => capabilities[kind]?.[name] === true;
  return flag("tools", "listChanged") || flag("resources", "listChanged") || flag("prompts", "listChanged") || flag("resources", "subscribe");
}
