/**
 * What JWT verification costs a generated server: tools/call per second over Streamable HTTP with
 * `concurrency` requests in flight (default 16), the same one-tool server generated with an `auth`
 * block (JWT access tokens from a real authorization server: oidc-provider on loopback,
 * test/helpers/authServer.ts; one token per client, as 16 clients each with their own) and without
 * one: `off` (no auth), `on` (the default limits: verified tokens cached), `uncached` (a cache of
 * one token, which 16 tokens in turn always miss: every request verified with jose). All of them
 * and both eras (2026-07-28 requests, 2025-11-25 sessions) are measured in the same process, in
 * rounds whose order rotates; per round, calls per second of each and the ratios to `off`. Prints a
 * table and one BENCH line (medians over the rounds, and the JWKS fetches of the whole run: 1 when
 * keys are cached). Run by `npm run bench -- --only auth`,
 * or alone (after `npm run build`): node --import tsx bench/auth.ts [rounds] [ms per measure] [in flight].
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startAuthServer, type AuthServer } from "../test/helpers/authServer.js";
import { client, type Call } from "./rpc.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = Number(process.argv[2] ?? 7);
const MEASURE_MS = Number(process.argv[3] ?? 1000);
const CONCURRENCY = Number(process.argv[4] ?? 16);
const WARM_MS = 500;
const SCOPE = "bench.read";
const BIN = path.join(ROOT, "dist", "cli", "bin.js");
if (!existsSync(BIN)) throw new Error("bench/auth.ts runs the built mcpgen: npm run build first");

// One authorization server per verifying server, so that each one's JWKS fetches are counted apart.
const issuers = { on: await startAuthServer({ scopes: [SCOPE] }), uncached: await startAuthServer({ scopes: [SCOPE] }) };

const tool = (scoped: boolean) => `tools:
  - name: echo
    description: Answers its text.
${scoped ? `    scopes: [${SCOPE}]\n` : ""}    inputSchema: {type: object, properties: {text: {type: string}}, required: [text]}
`;
const protectedManifest = (name: string, as: AuthServer) => `server: {name: ${name}, version: 1.0.0}
auth:
  resource: http://127.0.0.1/mcp
  authorizationServers: [${as.issuer}]
  scopesSupported: [${SCOPE}]
  jwt: {issuer: ${as.issuer}, jwksUri: ${as.jwksUri}, algorithms: [ES256]}
${tool(true)}`;
const manifests: Record<string, string> = {
  on: protectedManifest("bench-auth-on", issuers.on),
  uncached: protectedManifest("bench-auth-uncached", issuers.uncached),
  off: `server: {name: bench-auth-off, version: 1.0.0}
${tool(false)}`,
};

const dir = path.join(ROOT, ".cache", "bench", "auth");
rmSync(dir, { recursive: true, force: true });
mkdirSync(path.join(dir, "manifests"), { recursive: true });
symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
for (const [name, text] of Object.entries(manifests)) writeFileSync(path.join(dir, "manifests", `${name}.yaml`), text);
execFileSync(process.execPath, [BIN, "generate", "--quiet", "--out", "generated"], { cwd: dir, stdio: "inherit" });

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

type Serve = (handlers: unknown, options: Record<string, unknown>) => Promise<{ url: string; close(): Promise<void> }>;
async function serve(name: string, options: Record<string, unknown> = {}): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  // The resource is the URL clients use (the audience of their tokens).
  process.env.MCP_AUTH_RESOURCE = `http://127.0.0.1:${port}/mcp`;
  const { serveHttp } = (await import(pathToFileURL(path.join(dir, "generated", name, "serve.ts")).href)) as { serveHttp: Serve };
  return serveHttp({ tools: { echo: (args: { text: string }) => args.text } }, { port, onError: () => {}, ...options });
}

type Era = "modern" | "legacy";
type Kind = "off" | "on" | "uncached";
const KINDS: readonly Kind[] = ["off", "on", "uncached"];
const servers: Record<Kind, { url: string; close(): Promise<void> }> = {
  off: await serve("bench-auth-off"),
  on: await serve("bench-auth-on"),
  uncached: await serve("bench-auth-uncached", { auth: { tokenCacheMax: 1 } }),
};
const tokens: Partial<Record<Kind, string[]>> = {};
for (const kind of ["on", "uncached"] as const) {
  issuers[kind].addResource(servers[kind].url, { scopes: [SCOPE] });
  tokens[kind] = await Promise.all(Array.from({ length: CONCURRENCY }, () => issuers[kind].clientCredentials(servers[kind].url, [SCOPE])));
}

// A benchmark of a server that checks nothing would measure nothing: both verifying servers must refuse a call without a token.
for (const kind of ["on", "uncached"] as const) {
  const probe = client(servers[kind].url, 1);
  const anonymous = await probe.modern("tools/call", { name: "echo", arguments: { text: "hi" } }, "echo");
  probe.close();
  if (anonymous.result) throw new Error(`the ${kind} server answered a call without a token: ${JSON.stringify(anonymous).slice(0, 200)}`);
}

/** One caller per in-flight slot, each its own connection (and on a verified server its own token). */
async function callers(kind: Kind, era: Era): Promise<Call[]> {
  const out: Call[] = [];
  for (let i = 0; i < CONCURRENCY; i++) {
    const token = tokens[kind]?.[i];
    const c = client(servers[kind].url, 1, token === undefined ? {} : { authorization: `Bearer ${token}` });
    closers.push(c.close);
    out.push(era === "modern" ? c.modern : await c.legacy());
  }
  return out;
}
const closers: (() => void)[] = [];

/** Calls answered per second with every caller busy during `ms`; throws on any answer but a result. */
async function burst(calls: Call[], ms: number): Promise<number> {
  let done = 0;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(
    calls.map(async (call) => {
      while (performance.now() < end) {
        const answer = await call("tools/call", { name: "echo", arguments: { text: "hi" } }, "echo");
        if (!answer.result || answer.result.isError) throw new Error(`tools/call answered ${JSON.stringify(answer).slice(0, 300)}`);
        done++;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const out: Record<string, number> = {};
try {
  for (const era of ["modern", "legacy"] as const) {
    const by = { off: await callers("off", era), on: await callers("on", era), uncached: await callers("uncached", era) };
    for (const kind of KINDS) await burst(by[kind], WARM_MS);
    const rates: Record<Kind, number[]> = { off: [], on: [], uncached: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < KINDS.length; k++) {
        const kind = KINDS[(k + round) % KINDS.length]!;
        rates[kind].push(await burst(by[kind], MEASURE_MS));
      }
    }
    for (const kind of KINDS) out[`${era}.${kind}`] = median(rates[kind]);
    for (const kind of ["on", "uncached"] as const) {
      const ratios = rates[kind].map((r, i) => r / rates.off[i]!);
      out[`${era}.${kind}OverOff`] = median(ratios);
      out[`${era}.${kind}OverOffMin`] = Math.min(...ratios);
    }
  }
} finally {
  for (const close of closers) close();
  for (const kind of KINDS) await servers[kind].close();
  for (const as of Object.values(issuers)) await as.close();
}
// Each verifying server's JWKS fetches over the whole run (both eras, every round).
out["on.jwksFetches"] = issuers.on.jwksFetches;
out["uncached.jwksFetches"] = issuers.uncached.jwksFetches;
out.rounds = ROUNDS;
out.measureMs = MEASURE_MS;
out.concurrency = CONCURRENCY;

const r = (n: number) => n.toFixed(0);
const x = (era: string, kind: string) => `${out[`${era}.${kind}OverOff`]!.toFixed(2)}x (worst ${out[`${era}.${kind}OverOffMin`]!.toFixed(2)}x)`;
process.stdout.write(
  `tools/call per second over HTTP, ${CONCURRENCY} in flight, median of ${ROUNDS} rounds of ${MEASURE_MS} ms (order rotating):\n` +
    `| era | no auth | JWT, verified tokens cached (default) | JWT, every request verified | cached / no auth | every request / no auth |\n|---|---|---|---|---|---|\n` +
    (["modern", "legacy"] as const)
      .map(
        (era) =>
          `| ${era === "modern" ? "2026-07-28" : "2025-11-25"} | ${r(out[`${era}.off`]!)} | ${r(out[`${era}.on`]!)} | ${r(out[`${era}.uncached`]!)} | ${x(era, "on")} | ${x(era, "uncached")} |\n`,
      )
      .join("") +
    `JWKS fetches in the whole run: ${out["on.jwksFetches"]} (cached server), ${out["uncached.jwksFetches"]} (every request verified)\n`,
);
process.stderr.write(`BENCH ${JSON.stringify(out)}\n`);
