/**
 * `@mcpgen/runtime/server/durable`: a task store in a Cloudflare Durable Object's storage, for a
 * server whose tools run as tasks on Workers (the generated fetch.ts re-exports it).
 */
export { durableTaskStore, type DurableObjectStorageLike } from "./durableTaskStore.js";
