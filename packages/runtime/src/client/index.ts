/**
 * `@mcpgen/runtime/client`: the engine of a generated client (`createClient` in a server folder's
 * client.ts): typed calls over a connected SDK Client, outputs checked against the manifest.
 */
export * from "./client.js";
