/**
 * Which store a factory's tasks keep their records in, decided in one place: serving code (stdio,
 * Streamable HTTP) opens the tasks through openTasks, so no transport knows of Redis.
 */
import { taskStoreFromEnvironment } from "./redis/redisTaskStore.js";
import type { Tasks } from "./tasks.js";

/**
 * Opens a factory's task store before serving: the one its options name, or else the one the
 * environment names (REDIS_URL), or memory. Answers how to close it (once).
 */
export async function openTasks(tasks: Tasks | undefined, env: Record<string, string | undefined>): Promise<() => Promise<void>> {
  if (!tasks) return async () => {};
  if (!tasks.chosen) {
    const store = taskStoreFromEnvironment(env, tasks.limits);
    if (store) tasks.useStore(store);
  }
  await tasks.open();
  let closing: Promise<void> | undefined;
  return () => (closing ??= tasks.close());
}
