/**
 * Serves the conformance server as a Worker on workerd (miniflare, from the npm registry into
 * .cache once): conformance/worker.ts bundled as wrangler bundles it, its Durable Object bound
 * as CONFORMANCE; prints the endpoint as server.ts does and serves until stopped.
 * `npm run conformance -- --runtime workerd` starts it.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { installMiniflare } from "../test/helpers/runtimes.js";
import { bundleWorker, startWorker } from "../test/helpers/workerd.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const script = await bundleWorker(path.join(here, "worker.ts"));
// esbuild's service process would outlive this one: bundling is done.
await esbuild.stop();
const worker = await startWorker(installMiniflare(), script, { durableObjects: { CONFORMANCE: "ConformanceServer" } });
console.log(`listening on ${worker.url}`);
const stop = () => void worker.dispose().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
