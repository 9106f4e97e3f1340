/**
 * One replica of the generated conformance server over Streamable HTTP on 127.0.0.1, for the
 * multi-replica tests (test/helpers/replicas.ts starts several). Port from PORT (default 0: a
 * free one); everything else a deployment configures comes from the environment the harness
 * passes (MCP_REQUEST_STATE_SECRET, MCP_REQUEST_STATE_PREVIOUS_SECRETS, REDIS_URL...), as in
 * production. Prints "listening on URL" once it serves; SIGTERM closes it cleanly.
 */
import { serveHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import { createFetchHandler } from "../../generated/mcp-conformance-test-server/index.js";
import { handlers } from "../../conformance/handlers.js";
import { serveReplica } from "./serveReplica.js";

await serveReplica(handlers, { serveHttp, createFetchHandler });
