/**
 * `@mcpgen/runtime/server/redis`: what replicas of one server share on Redis (node-redis, loaded
 * when first used): the tasks, the switched lists, the resource updates of listen streams. The
 * generated serve.ts of a server with tasks, or with lists or resources that change, hands
 * `redisState` to serving, which opens it when REDIS_URL is set; pass `redisTaskStore(...)` as
 * the `taskStore` option to set the task store up in code.
 */
export { redisState } from "./redisState.js";
export { redisTaskStore, type RedisConnection, type RedisTaskStoreOptions } from "./redisTaskStore.js";
