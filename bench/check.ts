/**
 * `mcpgen check` on a log of about 100 MB: writes a trace of the gift server (tools/list, then
 * tools/call after tools/call with progress notifications, a few mistakes among them) to
 * .cache/bench/check-100mb.jsonl, and a trace of 120,000 requests never answered (past the 100,000
 * check follows at once) to .cache/bench/check-pending.jsonl; runs the built CLI on each in its own
 * process (bench/child.mjs) and reports the seconds, the peak RSS and the findings. check streams:
 * its memory must not grow with the log.
 * Run by `npm run bench -- --only check` (after a build), or alone: node --import tsx bench/check.ts.
 */
import { spawnSync } from "node:child_process";
import { createWriteStream, mkdirSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WORK = path.join(ROOT, ".cache", "bench");
const TARGET_BYTES = 100 * 1024 * 1024;

const TOOLS = [
  {
    name: "suggest_gifts",
    inputSchema: {
      type: "object",
      properties: { occasion: { type: "string" }, budget: { type: "number", minimum: 0 }, recipient: { type: "string" } },
      required: ["occasion", "budget"],
    },
    outputSchema: {
      type: "object",
      properties: {
        gifts: { type: "array", items: { type: "object", properties: { name: { type: "string" }, price: { type: "number" } }, required: ["name", "price"] } },
      },
      required: ["gifts"],
    },
  },
];

/** Writes lines to a file, waiting when the stream's buffer is full. */
async function writeLines(file: string, lines: (write: (line: string) => Promise<void>) => Promise<void>): Promise<number> {
  const out = createWriteStream(file);
  const write = (line: string) =>
    new Promise<void>((resolve) => {
      if (out.write(`${line}\n`)) resolve();
      else out.once("drain", resolve);
    });
  await lines(write);
  await new Promise<void>((resolve) => out.end(resolve));
  return statSync(file).size;
}

const start = (t: number) =>
  JSON.stringify({ mcpgenTrace: 1, time: new Date(t).toISOString(), transport: "stdio", command: ["node", "server.js"], mcpgen: "0.1.0" });
const line = (t: number, from: string, message: unknown) => JSON.stringify({ time: new Date(t).toISOString(), from, message });

async function bigTrace(file: string): Promise<number> {
  let t = Date.parse("2026-12-01T00:00:00.000Z");
  return writeLines(file, async (write) => {
    await write(start(t));
    await write(line(t++, "client", { jsonrpc: "2.0", id: 0, method: "tools/list" }));
    await write(line(t++, "server", { jsonrpc: "2.0", id: 0, result: { tools: TOOLS } }));
    let bytes = 0;
    for (let id = 1; bytes < TARGET_BYTES; id++) {
      const budget = id % 500 === 0 ? "cheap" : (id % 200) + 1;
      const lines = [
        line(t++, "client", {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: {
            name: "suggest_gifts",
            arguments: { occasion: "birthday", budget, recipient: `friend number ${id} who loves board games` },
            _meta: { progressToken: id },
          },
        }),
        line(t++, "server", {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: id, progress: 1, total: 2, message: "Looking for gift ideas" },
        }),
        line(
          (t += 40),
          "server",
          id % 1000 === 0
            ? { jsonrpc: "2.0", id, error: { code: -32603, message: `No gift named Kite ${id}` } }
            : {
                jsonrpc: "2.0",
                id,
                result: {
                  content: [{ type: "text", text: "Here are some gift ideas for your friend..." }],
                  structuredContent: {
                    gifts: [
                      { name: "Board game: Catan", price: 45 },
                      { name: "Dice set", price: 20 },
                    ],
                  },
                },
              },
        ),
      ];
      for (const l of lines) {
        bytes += l.length + 1;
        await write(l);
      }
    }
  });
}

async function pendingTrace(file: string): Promise<number> {
  const t = Date.parse("2026-12-01T00:00:00.000Z");
  return writeLines(file, async (write) => {
    await write(start(t));
    for (let id = 1; id <= 120_000; id++) await write(line(t + id, "client", { jsonrpc: "2.0", id, method: "ping" }));
  });
}

/** The built CLI on a log in its own process: seconds, peak RSS, findings per rule. */
function runCheck(file: string): { seconds: number; maxRssMiB: number; findings: number; rules: Record<string, number> } {
  const began = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [path.join(ROOT, "bench", "child.mjs"), "check", file, "--format", "json"], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  const bench = r.stderr.split("\n").find((l) => l.startsWith("BENCH "));
  if (!bench || (r.status !== 0 && r.status !== 1)) throw new Error(`check ${file} failed (${r.status}):\n${r.stderr}`);
  const { findings } = JSON.parse(r.stdout) as { findings: { rule: string }[] };
  const rules: Record<string, number> = {};
  for (const f of findings) rules[f.rule] = (rules[f.rule] ?? 0) + 1;
  return {
    seconds: Math.round(seconds * 100) / 100,
    maxRssMiB: Math.round((JSON.parse(bench.slice(6)) as { maxRssKb: number }).maxRssKb / 1024),
    findings: findings.length,
    rules,
  };
}

mkdirSync(WORK, { recursive: true });
const big = path.join(WORK, "check-100mb.jsonl");
const pending = path.join(WORK, "check-pending.jsonl");
const bigBytes = await bigTrace(big);
const pendingBytes = await pendingTrace(pending);
const results = {
  trace100mb: { bytes: bigBytes, ...runCheck(big) },
  pending120k: { bytes: pendingBytes, ...runCheck(pending) },
};
const mib = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
process.stdout.write(
  [
    "mcpgen check: seconds and peak RSS (the findings listed are capped at 1,000 per rule)",
    ...Object.entries(results).map(
      ([name, r]) =>
        `  ${name.padEnd(12)} ${mib(r.bytes).padStart(10)}  ${String(r.seconds).padStart(6)} s  ${String(r.maxRssMiB).padStart(4)} MiB RSS  ${JSON.stringify(r.rules)}`,
    ),
    "",
  ].join("\n"),
);
process.stderr.write(`BENCH ${JSON.stringify(results)}\n`);
