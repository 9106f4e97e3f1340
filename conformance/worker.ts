/**
 * The conformance server as a Cloudflare Worker: the Worker sends every request to one Durable
 * Object, which serves the generated `createFetchHandler` with its tasks in the object's storage
 * (`durableTaskStore`), as init's `--target workers` project does for a server with task tools.
 * `npm run conformance -- --runtime workerd` serves it on workerd (conformance/serve-workerd.ts).
 */
import { createFetchHandler, durableTaskStore, type DurableObjectStorageLike, type FetchHandler } from "../generated/mcp-conformance-test-server/index.js";
import { handlers } from "./handlers.js";

/** What this Worker uses of its Durable Object namespace binding. */
interface Namespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

export class ConformanceServer {
  private readonly handler: FetchHandler;

  constructor(state: { storage: DurableObjectStorageLike }) {
    this.handler = createFetchHandler(handlers, { eventStore: true, retryInterval: 500, pageSize: 50, taskStore: durableTaskStore(state.storage) });
  }

  fetch(request: Request): Promise<Response> {
    return this.handler(request);
  }
}

export default {
  fetch: (request: Request, env: { CONFORMANCE: Namespace }) => env.CONFORMANCE.get(env.CONFORMANCE.idFromName("conformance")).fetch(request),
};
