/**
 * `@mcpgen/runtime/server/node`: serving a factory on Node.js, over stdio (`serveStdioWith`) and
 * over Streamable HTTP on node:http (`serveHttpWith`), in both protocol eras.
 */
export { serveStdioWith, type StdioHandle, type StdioOptions } from "./serve.js";
export {
  serveHttpWith,
  type AuthOptions,
  type CorsOptions,
  type EventStore,
  type HttpHandle,
  type HttpLimitOptions,
  type HttpOptions,
  type ServingParts,
} from "./http.js";
