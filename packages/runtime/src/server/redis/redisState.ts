/**
 * Where a factory keeps what its replicas share, on Redis: with REDIS_URL set, or a Redis task
 * store passed as `taskStore`, one Redis connection carries the tasks, the switched lists and the
 * events of 2026-07-28 listen streams (resource updates). Otherwise nothing is opened here and
 * they stay in the process's memory (state/openState.ts).
 *
 * A server without tasks uses REDIS_URL only when its lists or resources can change (a
 * `listChanged` capability, `resources.subscribe`): REDIS_URL is a common name, set in many
 * deployments for other programs.
 */
import { canChange, MemoryListStateStore } from "../engine/listSwitch.js";
import type { OpenedState, SharedParts, SharedStatePart } from "../engine/parts.js";
import { RedisEventRelay } from "./redisBus.js";
import { RedisLink } from "./redisLink.js";
import { RedisListStateStore } from "./redisLists.js";
import { RedisTaskStore, redisSettings } from "./redisTaskStore.js";

/** Opens the shared state on Redis; undefined when neither the options nor the environment ask for Redis. */
async function openRedisState(parts: SharedParts, env: Record<string, string | undefined>, options: { relay?: boolean }): Promise<OpenedState | undefined> {
  const { tasks, listState, definition } = parts;
  const settings = redisSettings(env);
  const chosen = tasks?.chosenStore;
  let redis: RedisLink;
  let prefix = "mcpgen:";
  let ownsLink = false;
  if (chosen instanceof RedisTaskStore) {
    redis = chosen.redis;
    prefix = chosen.prefix;
  } else if (settings && ((tasks !== undefined && chosen === undefined) || (definition !== undefined && canChange(definition)))) {
    redis = new RedisLink({
      url: settings.url,
      commandTimeoutMs: settings.commandTimeoutMs ?? 5_000,
      why: "REDIS_URL is set",
      who: tasks ? "The task store" : "The list store",
    });
    ownsLink = true;
    prefix = settings.prefix ?? prefix;
    if (tasks && chosen === undefined) tasks.useStore(new RedisTaskStore(redis, false, { ...settings, ...tasks.limits }));
  } else return undefined;

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
      if (ownsLink) await redis.close();
    })());
  try {
    await tasks?.open();
    if (listState) {
      lists = new RedisListStateStore(redis, prefix, listState.initial, (kind, name) => listState.entry(kind, name) !== undefined);
      await lists.open();
      listState.useStore(lists);
    }
    if (options.relay && parts.bus) {
      relay = new RedisEventRelay(redis, prefix, parts.bus);
      await relay.open();
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { close };
}

/** The Redis part: what the generated serve.ts of a server whose state replicas share passes to serving. */
export const redisState: SharedStatePart = { open: openRedisState };
