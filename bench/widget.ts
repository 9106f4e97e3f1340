/**
 * The gift widget's size (examples/gift-server), built both ways: `sdk: mcpgen` (mcpgen's own MCP
 * Apps bridge, the default) and `sdk: ext-apps` (the official App, zod and the MCP client with it).
 * Each is generated from a copy of the example's manifests in .cache/bench/widget-<sdk>/; prints
 * the HTML's bytes, minified as served, and gzip (level 9), a table, and one BENCH line.
 * Run by `npm run bench -- --only widget`, or alone: node --import tsx bench/widget.ts.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { runPipeline } from "../src/generate.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLE = path.join(ROOT, "examples", "gift-server", "manifests");
/** The goal for the default build (issue 29). */
const TARGET = { bytes: 25_000, gzipBytes: 10_000 };

/** The gift widget's HTML, generated with the widget's `sdk` set to `sdk`. */
async function build(sdk: "mcpgen" | "ext-apps"): Promise<string> {
  const dir = path.join(ROOT, ".cache", "bench", `widget-${sdk}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(EXAMPLE, path.join(dir, "manifests"), { recursive: true });
  const manifest = path.join(dir, "manifests", "gift-server.yaml");
  const text = readFileSync(manifest, "utf8");
  const entry = "    entry: widgets/gifts.ts\n";
  if (!text.includes(entry)) throw new Error(`bench/widget.ts: ${manifest} no longer has "${entry.trim()}"`);
  writeFileSync(manifest, text.replace(entry, `${entry}    sdk: ${sdk}\n`));
  const run = await runPipeline({ manifests: [path.join(dir, "manifests")], out: path.join(dir, "generated"), cwd: dir, mode: "write", cache: false });
  const errors = run.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new Error(`bench/widget.ts: ${sdk}: ${errors.map((d) => d.message).join("\n")}`);
  const content = run.models[0]?.resources.find((r) => r.uri === "ui://widget/gifts.html")?.content;
  const html = content && "text" in content ? content.text : undefined;
  if (html === undefined) throw new Error(`bench/widget.ts: ${sdk}: no HTML for ui://widget/gifts.html`);
  return html;
}

const rows: Record<string, { bytes: number; gzipBytes: number }> = {};
for (const sdk of ["mcpgen", "ext-apps"] as const) {
  const html = await build(sdk);
  rows[sdk] = { bytes: Buffer.byteLength(html), gzipBytes: gzipSync(html, { level: 9 }).length };
}
const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
process.stdout.write(`\n| gift widget HTML | minified | gzip |\n|---|---|---|\n`);
for (const [sdk, row] of Object.entries(rows)) process.stdout.write(`| sdk: ${sdk} | ${kb(row.bytes)} | ${kb(row.gzipBytes)} |\n`);
process.stdout.write(`goal for sdk: mcpgen: <= ${kb(TARGET.bytes)} minified, <= ${kb(TARGET.gzipBytes)} gzip\n`);
process.stderr.write(
  `BENCH ${JSON.stringify({
    ...Object.fromEntries(
      Object.entries(rows).flatMap(([sdk, row]) => [
        [`${sdk}.bytes`, row.bytes],
        [`${sdk}.gzipBytes`, row.gzipBytes],
      ]),
    ),
    targetBytes: TARGET.bytes,
    targetGzipBytes: TARGET.gzipBytes,
  })}\n`,
);
