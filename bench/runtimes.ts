/**
 * `npm run bench:runtimes`: the generated gift server on each platform, beside a plain
 * `@modelcontextprotocol/server` server with the same two tools on the same platform (McpServer
 * with zod schemas, served by the SDK's `createMcpHandler`), measured in one run:
 *
 * - the Worker's size: the Worker bundled as wrangler bundles it (esbuild, the `workerd` export
 *   conditions), raw and gzip, minified or not, against Cloudflare's limits (3 MiB gzip on the free
 *   plan, 10 MiB on the paid one);
 * - cold start: spawn to the first answered `tools/call` (Node, Deno, Bun), and on workerd (miniflare)
 *   the Worker's load to its first answer;
 * - requests per second: 2026-07-28 `tools/call` (stateless JSON POSTs, `concurrency` at a time
 *   from this process) for `seconds` per round, rounds rotating the order; medians.
 *
 * Args: [rounds=3] [seconds=4] [concurrency=32]. Prints a Markdown table and one BENCH line of JSON.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "../test/helpers/cli.js";
import { freePort } from "../test/helpers/ports.js";
import { installBun, installDeno, installMiniflare } from "../test/helpers/runtimes.js";
import { bundleWorker, startWorker } from "../test/helpers/workerd.js";
import { compileInPlace, median } from "./spawned.js";

const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 4);
const concurrency = Number(process.argv[4] ?? 32);

/** The plain SDK server: the gift server's two tools as a hand-written McpServer would declare them. */
const PLAIN_SERVER = `import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

const GIFTS = [
  { name: "Dice set", price: 20, category: "boardgames" },
  { name: "Book: The Hobbit", price: 15, category: "books" },
];

function factory() {
  const server = new McpServer({ name: "plain", version: "1.0.0" });
  server.registerTool(
    "suggest_gifts",
    {
      description: "Suggests gift ideas for a given occasion and budget.",
      inputSchema: z.object({ occasion: z.string(), budget: z.number().min(0), recipient: z.string().optional() }),
      outputSchema: z.object({ gifts: z.array(z.object({ name: z.string(), price: z.number().min(0) })) }),
    },
    ({ budget }) => {
      const gifts = GIFTS.filter((g) => g.price <= budget).map(({ name, price }) => ({ name, price }));
      return { content: [{ type: "text", text: JSON.stringify({ gifts }) }], structuredContent: { gifts } };
    },
  );
  return server;
}

export const handler = createMcpHandler(factory);
`;

/** Each entry: a fetch handler behind the platform's server (Node: a small node:http adapter for the plain one). */
const FILES: Record<string, string> = {
  "plain.ts": PLAIN_SERVER,
  "gift.ts": `import { createFetchHandler } from "./generated/gift-server/index.js";
import { handlers } from "./generated/gift-server/handlers.js";
export const handler = createFetchHandler(handlers, { stateless: true });
`,
  "node-gift.ts": `import { serveHttp } from "./generated/gift-server/serve.js";
import { handlers } from "./generated/gift-server/handlers.js";
await serveHttp(handlers, { port: Number(process.env.PORT), stateless: true });
console.error("ready");
`,
  "node-plain.ts": `import { createServer } from "node:http";
import { handler } from "./plain.js";
// The plain server on Node: each request made a web Request, its Response written back.
createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const response = await handler.fetch(new Request(\`http://\${req.headers.host}\${req.url}\`, { method: req.method, headers, ...(body.length ? { body } : {}) }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.error("ready"));
`,
  "deno-gift.ts": `import { handler } from "./gift.ts";
Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")), onListen: () => console.error("ready") }, handler);
`,
  "deno-plain.ts": `import { handler } from "./plain.ts";
Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")), onListen: () => console.error("ready") }, handler.fetch);
`,
  "bun-gift.ts": `import { handler } from "./gift.ts";
Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT), idleTimeout: 0, fetch: handler });
console.error("ready");
`,
  "bun-plain.ts": `import { handler } from "./plain.ts";
Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT), idleTimeout: 0, fetch: handler.fetch });
console.error("ready");
`,
  "worker-gift.ts": `import { handler } from "./gift.js";
export default { fetch: (request: Request) => handler(request) };
`,
  "worker-plain.ts": `import { handler } from "./plain.js";
export default { fetch: (request: Request) => handler.fetch(request) };
`,
};

const CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "suggest_gifts",
    arguments: { occasion: "birthday", budget: 20 },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "suggest_gifts",
};

async function call(url: string): Promise<void> {
  const response = await fetch(url, { method: "POST", headers: HEADERS, body: CALL });
  const text = await response.text();
  if (response.status !== 200 || !text.includes("Dice set")) throw new Error(`${url}: ${response.status} ${text.slice(0, 300)}`);
}

/** Requests per second: `concurrency` loops of calls for `seconds`. */
async function requestsPerSecond(url: string): Promise<number> {
  for (let i = 0; i < 200; i++) await call(url);
  let done = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call(url);
        done++;
      }
    }),
  );
  return done / seconds;
}

interface Platform {
  name: string;
  /** Starts `kind` and resolves with its endpoint once a first tools/call is answered; `ms`: spawn to that answer. */
  start(kind: "gift" | "plain"): Promise<{ url: string; ms: number; stop(): Promise<void> }>;
}

function processPlatform(name: string, command: (kind: string) => [string, string[]], dir: string): Platform {
  return {
    name,
    async start(kind) {
      const port = await freePort();
      const [program, args] = command(kind);
      const t0 = performance.now();
      const child: ChildProcess = spawn(program, args, {
        cwd: dir,
        env: { ...process.env, PORT: String(port), NO_COLOR: "1" },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const url = `http://127.0.0.1:${port}/mcp`;
      // Spawn to the first answered call: poll until the port answers.
      for (;;) {
        if (child.exitCode !== null) throw new Error(`${name} ${kind} exited: ${stderr}`);
        try {
          await call(url);
          break;
        } catch (error) {
          if (!/fetch failed|ECONNREFUSED/.test(String((error as Error).cause ?? error))) throw error;
          await new Promise((r) => setTimeout(r, 2));
        }
      }
      const ms = performance.now() - t0;
      return {
        url,
        ms,
        stop: async () => {
          child.kill();
          await new Promise((r) => child.once("exit", r));
        },
      };
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpgen-bench-runtimes-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  cpSync(path.join(ROOT, "examples/gift-server/generated"), path.join(dir, "generated"), { recursive: true });
  cpSync(path.join(ROOT, "examples/gift-server/src"), path.join(dir, "src"), { recursive: true });
  for (const [file, text] of Object.entries(FILES)) writeFileSync(path.join(dir, file), text);
  // Node runs the compiled JavaScript, as a user's build has it (esbuild, no bundling).
  await compileInPlace(dir, [...Object.keys(FILES).filter((f) => !/^(deno|bun|worker)-/.test(f)), "generated/gift-server/**/*.ts", "src/**/*.ts"]);
  const deno = installDeno();
  const bun = installBun();
  const miniflare = installMiniflare();

  // Sizes: the Worker as wrangler bundles it.
  const sizes: Record<string, { raw: number; gzip: number; minRaw: number; minGzip: number }> = {};
  const scripts: Record<string, string> = {};
  for (const kind of ["gift", "plain"] as const) {
    const bundle = (minify: boolean) => bundleWorker(path.join(dir, `worker-${kind}.ts`), minify);
    const plainText = await bundle(false);
    const minText = await bundle(true);
    scripts[kind] = plainText;
    sizes[kind] = {
      raw: Buffer.byteLength(plainText),
      gzip: gzipSync(plainText).length,
      minRaw: Buffer.byteLength(minText),
      minGzip: gzipSync(minText).length,
    };
  }

  const workerd: Platform = {
    name: "workerd",
    async start(kind) {
      const t0 = performance.now();
      const worker = await startWorker(miniflare, scripts[kind]!);
      await call(worker.url);
      return { url: worker.url, ms: performance.now() - t0, stop: () => worker.dispose() };
    },
  };
  const platforms: Platform[] = [
    processPlatform("node", (kind) => [process.execPath, [`node-${kind}.js`]], dir),
    processPlatform("deno", (kind) => [deno, ["run", "--allow-net", "--allow-env", "--allow-read", "--sloppy-imports", `deno-${kind}.ts`]], dir),
    processPlatform("bun", (kind) => [bun, ["run", `bun-${kind}.ts`]], dir),
    workerd,
  ];

  const results: Record<string, { startMs: number[]; rps: number[] }> = {};
  for (let round = 0; round < rounds; round++) {
    // Rotate: each round starts with another platform, and alternates gift/plain.
    const order = platforms.slice(round % platforms.length).concat(platforms.slice(0, round % platforms.length));
    for (const platform of order) {
      for (const kind of (round % 2 ? ["plain", "gift"] : ["gift", "plain"]) as ("gift" | "plain")[]) {
        const key = `${platform.name} ${kind}`;
        const running = await platform.start(kind);
        try {
          const rps = await requestsPerSecond(running.url);
          (results[key] ??= { startMs: [], rps: [] }).startMs.push(running.ms);
          results[key].rps.push(rps);
          console.error(`round ${round + 1}: ${key}: start ${running.ms.toFixed(0)} ms, ${rps.toFixed(0)} req/s`);
        } finally {
          await running.stop();
        }
      }
    }
  }

  const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  let table = `Worker bundle (esbuild as wrangler bundles, conditions workerd/worker/browser)\n\n| Worker | raw | gzip | minified | minified gzip | gzip / 3 MiB (free) | gzip / 10 MiB (paid) |\n|---|---|---|---|---|---|---|\n`;
  for (const [kind, s] of Object.entries(sizes))
    table += `| ${kind === "gift" ? "generated gift server" : "plain SDK v2 (McpServer + zod)"} | ${kib(s.raw)} | ${kib(s.gzip)} | ${kib(s.minRaw)} | ${kib(s.minGzip)} | ${((100 * s.gzip) / (3 * 1024 * 1024)).toFixed(1)}% | ${((100 * s.gzip) / (10 * 1024 * 1024)).toFixed(1)}% |\n`;
  table += `\nCold start (spawn, or Worker load on workerd, to the first answered tools/call) and 2026-07-28 tools/call per second (${concurrency} concurrent, ${seconds} s, median of ${rounds} rounds)\n\n| runtime | generated: start ms | plain SDK: start ms | start ratio | generated: req/s | plain SDK: req/s | req/s ratio |\n|---|---|---|---|---|---|---|\n`;
  for (const platform of platforms) {
    const g = results[`${platform.name} gift`]!;
    const p = results[`${platform.name} plain`]!;
    table += `| ${platform.name} | ${median(g.startMs).toFixed(0)} | ${median(p.startMs).toFixed(0)} | ${(median(g.startMs) / median(p.startMs)).toFixed(2)} | ${median(g.rps).toFixed(0)} | ${median(p.rps).toFixed(0)} | ${(median(g.rps) / median(p.rps)).toFixed(2)} |\n`;
  }
  console.log(table);
  console.log(`BENCH ${JSON.stringify({ sizes, results })}`);
}

await main();
