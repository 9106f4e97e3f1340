/** The conformance server over stdio (its handlers include the task tools). */
import { serveStdio } from "../../generated/mcp-conformance-test-server/serve.js";
import { handlers } from "../../conformance/handlers.js";

await serveStdio(handlers);
