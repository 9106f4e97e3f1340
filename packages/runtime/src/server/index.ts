/**
 * `@mcpgen/runtime/server`: the platform-neutral server core a generated `server.ts` builds on:
 * `createManifestServerFactory` (one SDK Server per connection, session or 2026-07-28 request,
 * answered from the definition and the handlers) and the handlers' types. Serving it is the
 * job of `@mcpgen/runtime/server/node` (stdio, Streamable HTTP on node:http) or of the SDK's own
 * entries.
 */
export * from "./server.js";
