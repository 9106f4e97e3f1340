/**
 * A replica of the generated conformance server (as test/servers/replica-http.ts) whose
 * slow_compute handler says on stderr what became of it: `slow_compute <label> aborted` when its
 * signal aborts (a cancel reached the process running it), `slow_compute <label> returned` when
 * it ran to its end. The multi-replica task test reads these lines to tell which process ran a
 * handler and whether a cancel sent through another replica stopped it.
 */
import { serveHttp } from "../../generated/mcp-conformance-test-server/serve.js";
import { createFetchHandler, type Handlers } from "../../generated/mcp-conformance-test-server/index.js";
import { handlers } from "../../conformance/handlers.js";
import { serveReplica } from "./serveReplica.js";

const slowCompute = handlers.tools.slow_compute;

const reporting: Handlers = {
  ...handlers,
  tools: {
    ...handlers.tools,
    slow_compute: async (args, ctx) => {
      const label = args.label ?? "result";
      ctx.signal.addEventListener("abort", () => console.error(`slow_compute ${label} aborted`), { once: true });
      const result = await slowCompute(args, ctx);
      console.error(`slow_compute ${label} returned`);
      return result;
    },
  },
};

await serveReplica(reporting, { serveHttp, createFetchHandler });
