/** Serves the conformance server over Streamable HTTP on 127.0.0.1 (port from argv, default 0). */
import { serveHttp } from "../generated/mcp-conformance-test-server/serve.js";
import { handlers } from "./handlers.js";

const port = Number(process.argv[2] ?? 0);
const { url } = await serveHttp(handlers, { port, eventStore: true, retryInterval: 500, pageSize: 50 });
console.log(`listening on ${url}`);
