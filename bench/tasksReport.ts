/**
 * The task-store figures of `npm run bench`: bench/tasks.ts run `runs` times, each in its own
 * process (each with its own redis-server), the medians of its figures, and their table.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const KINDS = ["perSec", "p50Ms", "p99Ms"] as const;
const ERAS = { modern: "2026-07-28", legacy: "2025-11-25" } as const;
const OPS = { create: "tools/call -> CreateTaskResult", get: "tasks/get" } as const;

type Kind = (typeof KINDS)[number];
type Figures = Record<Kind, number>;
export interface TaskFigure {
  memory: Figures;
  redis: Figures;
  /** Median over the runs of each run's memory / Redis: above 1 for req/s and below 1 for latency mean memory is faster. */
  memoryOverRedis: Figures;
}
export interface TaskBench {
  runs: number;
  concurrency: number;
  throughputMs: number;
  latencyMs: number;
  redisServer: string;
  figures: Record<(typeof ERAS)[keyof typeof ERAS], Record<keyof typeof OPS, TaskFigure>>;
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

export function measureTasks(root: string, runs: number, concurrency = 16, throughputMs = 1000, latencyMs = 500): TaskBench {
  const lines: Record<string, number>[] = [];
  for (let run = 0; run < runs; run++) {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", path.join(root, "bench", "tasks.ts"), String(run), String(throughputMs), String(latencyMs), String(concurrency)],
      { cwd: root, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
    );
    const line = r.stderr.split("\n").find((l) => l.startsWith("BENCH "));
    if (r.status !== 0 || !line) throw new Error(`bench/tasks.ts failed (${r.status}):\n${r.stderr}`);
    lines.push(JSON.parse(line.slice(6)) as Record<string, number>);
  }
  const version = spawnSync(process.env.REDIS_SERVER || "redis-server", ["--version"], { encoding: "utf8" }).stdout.match(/v=(\S+)/)?.[1] ?? "unknown";
  const figure = (key: string): TaskFigure => {
    const at = (store: string, kind: Kind) => lines.map((l) => l[`${key}.${store}.${kind}`]!);
    const of = (store: string) => Object.fromEntries(KINDS.map((k) => [k, median(at(store, k))])) as Figures;
    const ratio = Object.fromEntries(KINDS.map((k) => [k, median(at("memory", k).map((m, i) => m / at("redis", k)[i]!))])) as Figures;
    return { memory: of("memory"), redis: of("redis"), memoryOverRedis: ratio };
  };
  const figures = Object.fromEntries(
    Object.entries(ERAS).map(([era, label]) => [label, { create: figure(`${era}.create`), get: figure(`${era}.get`) }]),
  ) as TaskBench["figures"];
  return { runs, concurrency, throughputMs, latencyMs, redisServer: version, figures };
}

export function tasksTable(bench: TaskBench): string {
  const r = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
  const rows = [
    `\nTask stores over Streamable HTTP, conformance server, median of ${bench.runs} runs (redis-server ${bench.redisServer} on loopback; client, servers and Redis on this machine): req/s with ${bench.concurrency} in flight, latency one at a time\n`,
    `| era | request | req/s memory / Redis | memory / Redis | p50 ms memory / Redis | p99 ms memory / Redis | p50 memory / Redis |\n|---|---|---|---|---|---|---|\n`,
  ];
  for (const [era, ops] of Object.entries(bench.figures)) {
    for (const [op, f] of Object.entries(ops)) {
      rows.push(
        `| ${era} | ${OPS[op as keyof typeof OPS]} | ${r(f.memory.perSec)} / ${r(f.redis.perSec)} | ${r(f.memoryOverRedis.perSec)}x | ${r(f.memory.p50Ms)} / ${r(f.redis.p50Ms)} | ${r(f.memory.p99Ms)} / ${r(f.redis.p99Ms)} | ${r(f.memoryOverRedis.p50Ms)}x |\n`,
      );
    }
  }
  return rows.join("");
}
