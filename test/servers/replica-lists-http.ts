/**
 * One replica of the generated replica-lists server (test/fixtures/lists/replica-lists.yaml) over
 * Streamable HTTP, for test/e2e/replicas-lists.test.ts: the test generates the server and names its
 * serve.ts in LISTS_SERVE_MODULE; REDIS_URL and the prefix come from the environment, as in
 * production. Prints "listening on URL" once it serves; SIGTERM closes it cleanly.
 */
import { pathToFileURL } from "node:url";
import { serveReplica } from "./serveReplica.js";

interface Lists {
  enable(kind: "tools", name: string): void;
  disable(kind: "tools", name: string): void;
}
interface Context {
  lists: Lists;
  notifyResourceUpdated(uri: string): Promise<void>;
}
type Generated = Parameters<typeof serveReplica<typeof handlers>>[1];

const module = process.env.LISTS_SERVE_MODULE;
if (!module) throw new Error("LISTS_SERVE_MODULE names the generated serve.ts");
// serve.ts has serveHttp; fetch.ts beside it createFetchHandler.
const { serveHttp } = (await import(pathToFileURL(module).href)) as Pick<Generated, "serveHttp">;
const { createFetchHandler } = (await import(pathToFileURL(module.replace(/serve\.ts$/, "fetch.ts")).href)) as Pick<Generated, "createFetchHandler">;
const handlers = {
  tools: {
    search: () => "found",
    admin_reset: () => "reset",
    switch_tool: ({ name, enabled }: { name: string; enabled: boolean }, ctx: Context) => {
      if (enabled) ctx.lists.enable("tools", name);
      else ctx.lists.disable("tools", name);
      return `${name} ${enabled ? "enabled" : "disabled"}`;
    },
    touch: async ({ uri }: { uri: string }, ctx: Context) => {
      await ctx.notifyResourceUpdated(uri);
      return "touched";
    },
  },
};
await serveReplica(handlers, { serveHttp, createFetchHandler });
