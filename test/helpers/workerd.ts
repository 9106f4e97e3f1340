/**
 * A Worker on workerd, the runtime of Cloudflare Workers, as miniflare runs it locally: bundled
 * the way wrangler bundles a Worker (esbuild, ES module output, the `workerd`, `worker` and
 * `browser` export conditions, `node:` built-ins left to `nodejs_compat`), then served on a
 * loopback port. workerd refuses code compiled from strings and random values or timers at load.
 */
import * as esbuild from "esbuild";

/** The compatibility settings init's wrangler.jsonc writes. */
const COMPATIBILITY = { compatibilityDate: "2026-04-01", compatibilityFlags: ["nodejs_compat"] };

/** `entry` and what it imports, as one ES module (`minify`: as `wrangler deploy --minify`). */
export async function bundleWorker(entry: string, minify = false): Promise<string> {
  const out = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["node:*", "cloudflare:*"],
    minify,
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

export interface RunningWorker {
  /** The MCP endpoint, on loopback. */
  url: string;
  dispose(): Promise<void>;
}

/** Serves `script` on workerd through the miniflare module at `miniflarePath` (installMiniflare). */
export async function startWorker(miniflarePath: string, script: string, bindings: Record<string, string> = {}): Promise<RunningWorker> {
  const { Miniflare } = (await import(miniflarePath)) as {
    Miniflare: new (options: object) => { ready: Promise<URL>; dispose(): Promise<void> };
  };
  // One module, as wrangler uploads it (miniflare does not look for the modules it would import).
  const mf = new Miniflare({ modules: [{ type: "ESModule", path: "worker.mjs", contents: script }], ...COMPATIBILITY, bindings, host: "127.0.0.1", port: 0 });
  const base = await mf.ready;
  return { url: new URL("/mcp", base).toString(), dispose: () => mf.dispose() };
}
