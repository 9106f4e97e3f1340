/**
 * Where a factory keeps what its replicas share, decided in one place before serving (no
 * transport knows of Redis): the Redis part (redis/redisState.ts) when serving was given it and
 * the environment or the options ask for Redis, else this process's memory.
 */
import type { OpenedState, SharedParts, SharedStatePart } from "../engine/parts.js";

export type { OpenedState, SharedParts } from "../engine/parts.js";

/** Opens a factory's state before serving; `relay`: resource updates of the factory's bus go to the other replicas and theirs come here (Streamable HTTP). */
export async function openState(
  parts: SharedParts,
  env: Record<string, string | undefined>,
  options: { relay?: boolean; redis?: SharedStatePart | undefined } = {},
): Promise<OpenedState> {
  const shared = await options.redis?.open(parts, env, options);
  if (shared) return shared;
  const tasks = parts.tasks;
  await tasks?.open();
  let closing: Promise<void> | undefined;
  return { close: () => (closing ??= Promise.resolve(tasks?.close())) };
}
