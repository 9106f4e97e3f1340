/**
 * The gift server on Deno, Bun and workerd, the real runtimes from the npm registry
 * (test/helpers/runtimes.ts): its generated `createFetchHandler` served by `Deno.serve`, `Bun.serve`
 * and a Cloudflare Worker (`export default { fetch }`, bundled as wrangler bundles it, run by
 * miniflare's workerd, which refuses code compiled at run time), and its `serveStdio` on Deno's and
 * Bun's Node compatibility. The SDK v2 Client, in both eras, lists the tools (the fixture's), calls
 * a tool (a business error and bad arguments too), reads a resource and gets a prompt: what the same
 * server answers on Node. On workerd, a server whose tools run as tasks refuses to serve, and says why.
 */
import type { ChildProcess } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, ToolError } from "../../examples/gift-server/generated/gift-server/index.js";
import { ROOT } from "../helpers/cli.js";
import { freePort } from "../helpers/ports.js";
import { spawnUntil } from "../helpers/process.js";
import { installBun, installDeno, installMiniflare } from "../helpers/runtimes.js";
import { bundleWorker, startWorker, type RunningWorker } from "../helpers/workerd.js";
import { linkNodeModules, tempProject } from "../helpers/tmp.js";

const EXAMPLE = path.join(ROOT, "examples", "gift-server");
const FIXTURE = JSON.parse(readFileSync(path.join(EXAMPLE, "generated", "gift-server", "fixtures", "tools-list.json"), "utf8")) as { tools: unknown[] };

/** The entries a user of each runtime writes: HTTP on the fetch handler, stdio on serveStdio. */
const ENTRIES = {
  "deno-http.ts": `import { handlers } from "./generated/gift-server/handlers.js";
import { createFetchHandler } from "./generated/gift-server/index.js";

Deno.serve({ hostname: "127.0.0.1", port: Number(Deno.env.get("PORT")), onListen: ({ port }) => console.error(\`ready on \${port}\`) }, createFetchHandler(handlers));
`,
  "bun-http.ts": `import { handlers } from "./generated/gift-server/handlers.js";
import { createFetchHandler } from "./generated/gift-server/index.js";

// idleTimeout 0: Bun closes a connection quiet for 10 s, before the SDK's 15 s keep-alive on a standing stream.
const server = Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT), idleTimeout: 0, fetch: createFetchHandler(handlers) });
console.error(\`ready on \${server.port}\`);
`,
  "worker.ts": `import { handlers } from "./generated/gift-server/handlers.js";
import { createFetchHandler } from "./generated/gift-server/index.js";

const handler = createFetchHandler(handlers, { stateless: true, allowedHosts: "any" });
export default { fetch: (request: Request) => handler(request) };
`,
  "notes-worker.ts": `import { createFetchHandler } from "./generated/notes-server/index.js";
import { notesHandlers } from "./notes.js";

const handler = createFetchHandler(notesHandlers(), { stateless: true, allowedHosts: "any" });
export default { fetch: (request: Request) => handler(request) };
`,
  "stdio.ts": `import { handlers } from "./generated/gift-server/handlers.js";
import { serveStdio } from "./generated/gift-server/serve.js";

await serveStdio(handlers);
`,
};

let project: string;
let deno: string;
let bun: string;
let miniflare: string;
const children: ChildProcess[] = [];
const workers: RunningWorker[] = [];

beforeAll(() => {
  deno = installDeno();
  bun = installBun();
  miniflare = installMiniflare();
  project = tempProject({ "package.json": JSON.stringify({ type: "module", private: true }) });
  linkNodeModules(project);
  cpSync(path.join(EXAMPLE, "generated"), path.join(project, "generated"), { recursive: true });
  cpSync(path.join(EXAMPLE, "src"), path.join(project, "src"), { recursive: true });
  cpSync(path.join(ROOT, "generated", "notes-server"), path.join(project, "generated", "notes-server"), { recursive: true });
  writeFileSync(
    path.join(project, "notes.ts"),
    readFileSync(path.join(ROOT, "test", "servers", "notes.ts"), "utf8").replace("../../generated/", "./generated/"),
  );
  for (const [file, text] of Object.entries(ENTRIES)) writeFileSync(path.join(project, file), text);
}, 120_000);

afterAll(async () => {
  for (const child of children) child.kill();
  for (const worker of workers) await worker.dispose();
});

/** The command that runs `entry` on `runtime` (Deno maps the generated `./x.js` imports to their `.ts` with --sloppy-imports). */
function command(runtime: "deno" | "bun", entry: string): [string, string[]] {
  return runtime === "deno" ? [deno, ["run", "--allow-net", "--allow-env", "--allow-read", "--sloppy-imports", entry]] : [bun, ["run", entry]];
}

/** Starts the HTTP entry of `runtime` and resolves with its endpoint once it listens. */
async function serveHttp(runtime: "deno" | "bun"): Promise<string> {
  const port = await freePort();
  const [program, args] = command(runtime, `${runtime}-http.ts`);
  await spawnUntil(program, args, { cwd: project, env: { ...process.env, PORT: String(port), NO_COLOR: "1" }, line: `ready on ${port}` }, children);
  return `http://127.0.0.1:${port}/mcp`;
}

/** What the server answers one SDK Client in `mode`, as the test compares it across runtimes. */
async function session(transport: Transport, mode: "legacy" | "auto") {
  const sdk = new Client({ name: "runtimes", version: "1" }, { versionNegotiation: { mode } });
  await sdk.connect(transport);
  const gifts = createClient(sdk);
  try {
    const refused = await gifts.suggestGifts({ occasion: "birthday", budget: 1 }).catch((error: unknown) => error);
    const invalid = await sdk.callTool({ name: "suggest_gifts", arguments: { occasion: 3, budget: -1 } });
    return {
      era: sdk.getProtocolEra(),
      tools: (await sdk.listTools()).tools,
      suggested: await gifts.suggestGifts({ occasion: "birthday", budget: 20 }),
      refused: refused instanceof ToolError ? refused.message : refused,
      invalid: invalid.content,
      catalog: (await sdk.readResource({ uri: "mcp://gift-server/resources/gift_catalog" })).contents,
      prompt: (await sdk.getPrompt({ name: "gift_congrats_style", arguments: { tone: "funny" } })).messages,
    };
  } finally {
    await sdk.close();
  }
}

const WANT = (era: "legacy" | "modern") => ({
  era,
  tools: FIXTURE.tools,
  suggested: {
    gifts: [
      { name: "Dice set", price: 20 },
      { name: "Book: The Hobbit", price: 15 },
    ],
  },
  refused: "No gift ideas under $1 for a birthday",
  invalid: [{ type: "text", text: "Invalid arguments for tool suggest_gifts: Property 'occasion' must be string; Property 'budget' must be >= 0" }],
  catalog: [{ uri: "mcp://gift-server/resources/gift_catalog", mimeType: "application/json", text: '{"categories":["boardgames","books"]}' }],
  prompt: [{ role: "user", content: { type: "text", text: "Write a short, funny birthday note to go with the gift." } }],
});

describe.each(["deno", "bun"] as const)("the gift server on %s", (runtime) => {
  it("serves both eras over Streamable HTTP from createFetchHandler", async () => {
    const url = await serveHttp(runtime);
    expect(await session(new StreamableHTTPClientTransport(new URL(url)), "legacy")).toEqual(WANT("legacy"));
    expect(await session(new StreamableHTTPClientTransport(new URL(url)), "auto")).toEqual(WANT("modern"));
  });

  it("serves both eras over stdio from serveStdio", async () => {
    for (const [mode, era] of [
      ["legacy", "legacy"],
      ["auto", "modern"],
    ] as const) {
      const [program, args] = command(runtime, "stdio.ts");
      const transport = new StdioClientTransport({ command: program, args, cwd: project, env: { ...process.env, NO_COLOR: "1" } as Record<string, string> });
      expect(await session(transport, mode)).toEqual(WANT(era));
    }
  });
});

describe("the gift server on workerd (Cloudflare Workers)", () => {
  it("serves both eras over Streamable HTTP from a Worker's fetch", async () => {
    const worker = await startWorker(miniflare, await bundleWorker(path.join(project, "worker.ts")));
    workers.push(worker);
    expect(await session(new StreamableHTTPClientTransport(new URL(worker.url)), "legacy")).toEqual(WANT("legacy"));
    expect(await session(new StreamableHTTPClientTransport(new URL(worker.url)), "auto")).toEqual(WANT("modern"));
  });

  it("refuses to serve a server whose tools run as tasks, and says why", async () => {
    const worker = await startWorker(miniflare, await bundleWorker(path.join(project, "notes-worker.ts")));
    workers.push(worker);
    const response = await fetch(worker.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
    });
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toContain("on Cloudflare Workers a task kept in one isolate's memory is lost");
  });
});
