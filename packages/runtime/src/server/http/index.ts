/**
 * `@mcpgen/runtime/server/http`: Streamable HTTP on the web's Request and Response, for every
 * platform: `createFetchHandlerWith` (what a generated `createFetchHandler` calls), in both
 * protocol eras. `@mcpgen/runtime/server/node` serves the same endpoint on node:http.
 */
export { createFetchHandlerWith, type FetchHandler, type FetchHandlerOptions } from "./fetchHandler.js";
export type { AuthOptions, CorsOptions, EndpointOptions, EventStore, ServingParts } from "./endpoint.js";
