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
  /**
   * Starts the Worker again on the same port, as a deploy or an eviction does: every isolate and
   * Durable Object goes (nothing in their memory stays), their storage stays.
   */
  restart(): Promise<void>;
  dispose(): Promise<void>;
}

export interface WorkerOptions {
  /** Text bindings (the Worker's `env`). */
  bindings?: Record<string, string>;
  /** Durable Object namespaces, by binding name: the class the script exports (SQLite-backed, as new Workers get). */
  durableObjects?: Record<string, string>;
  /** The loopback port (default: a free one), for a Worker that must know its own URL (MCP_AUTH_RESOURCE). */
  port?: number;
}

/** Serves `script` on workerd through the miniflare module at `miniflarePath` (installMiniflare). */
export async function startWorker(miniflarePath: string, script: string, options: WorkerOptions = {}): Promise<RunningWorker> {
  const { Miniflare } = (await import(miniflarePath)) as {
    Miniflare: new (options: object) => { ready: Promise<URL>; setOptions(options: object): Promise<void>; dispose(): Promise<void> };
  };
  const durableObjects = Object.fromEntries(Object.entries(options.durableObjects ?? {}).map(([name, className]) => [name, { className, useSQLite: true }]));
  // One module, as wrangler uploads it (miniflare does not look for the modules it would import).
  const settings = {
    modules: [{ type: "ESModule", path: "worker.mjs", contents: script }],
    ...COMPATIBILITY,
    bindings: options.bindings ?? {},
    durableObjects,
    host: "127.0.0.1",
    port: options.port ?? 0,
  };
  const mf = new Miniflare(settings);
  const base = await mf.ready;
  return {
    url: new URL("/mcp", base).toString(),
    restart: async () => {
      await mf.setOptions({ ...settings, port: Number(base.port) });
      await mf.ready;
    },
    dispose: () => mf.dispose(),
  };
}
