/**
 * The gift widget's size (examples/gift-server), built both ways: `sdk: mcpgen` (mcpgen's own MCP
 * Apps bridge, the default) and `sdk: ext-apps` (the official App, zod and the MCP client with it).
 * And the same view written with `mcpgen/react` (test/fixtures/react-gifts/gifts.tsx: React 19 and
 * react-dom bundled in) on the default bridge.
 * Each is generated from a copy of the example's manifests in .cache/bench/widget-<name>/; prints
 * the HTML's bytes, minified as served, and gzip (level 9), a table, and one BENCH line.
 * Run by `npm run bench -- --only widget`, or alone: node --import tsx bench/widget.ts.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { runPipeline } from "../src/generator/pipeline.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLE = path.join(ROOT, "examples", "gift-server", "manifests");
/** The goal for the default build (issue 29). */
const TARGET = { bytes: 25_000, gzipBytes: 10_000 };

/** The builds measured: the widget's `sdk`, and its view (the example's, or the React one). */
const BUILDS = [
  { key: "mcpgen", name: "sdk: mcpgen", sdk: "mcpgen", react: false },
  { key: "ext-apps", name: "sdk: ext-apps", sdk: "ext-apps", react: false },
  { key: "react", name: "mcpgen/react (sdk: mcpgen)", sdk: "mcpgen", react: true },
] as const;

/** The gift widget's HTML, generated with the widget's `sdk` set, from the example's view or the React one. */
async function build({ sdk, react }: (typeof BUILDS)[number]): Promise<string> {
  const dir = path.join(ROOT, ".cache", "bench", `widget-${react ? "react" : sdk}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(EXAMPLE, path.join(dir, "manifests"), { recursive: true });
  const manifest = path.join(dir, "manifests", "gift-server.yaml");
  const text = readFileSync(manifest, "utf8");
  const entry = "    entry: widgets/gifts.ts\n";
  if (!text.includes(entry)) throw new Error(`bench/widget.ts: ${manifest} no longer has "${entry.trim()}"`);
  const entryNow = react ? "    entry: widgets/gifts.tsx\n" : entry;
  writeFileSync(manifest, text.replace(entry, `${entryNow}    sdk: ${sdk}\n`));
  if (react) {
    copyFileSync(path.join(ROOT, "test", "fixtures", "react-gifts", "gifts.tsx"), path.join(dir, "manifests", "widgets", "gifts.tsx"));
    // `mcpgen/react` resolves as in a project that installed mcpgen; react and react-dom from this checkout.
    mkdirSync(path.join(dir, "node_modules"));
    symlinkSync(ROOT, path.join(dir, "node_modules", "mcpgen"), "dir");
  }
  const run = await runPipeline({ manifests: [path.join(dir, "manifests")], out: path.join(dir, "generated"), cwd: dir, mode: "write", cache: false });
  const errors = run.diagnostics.filter((d) => d.severity === "error");
  if (errors.length) throw new Error(`bench/widget.ts: ${dir}: ${errors.map((d) => d.message).join("\n")}`);
  // The bundled HTML is served from the generated definition: one JSON line per resource entry.
  const definition = readFileSync(path.join(dir, "generated", "gift-server", "definition.ts"), "utf8");
  const line = definition.split("\n").find((l) => l.startsWith('{"resource":{"uri":"ui://widget/gifts.html"'));
  const served = line === undefined ? undefined : (JSON.parse(line.replace(/,$/, "")) as { content?: { text?: string } });
  const html = served?.content?.text;
  if (html === undefined) throw new Error(`bench/widget.ts: ${dir}: no HTML for ui://widget/gifts.html`);
  return html;
}

const rows: { key: string; name: string; bytes: number; gzipBytes: number }[] = [];
for (const variant of BUILDS) {
  const html = await build(variant);
  rows.push({ key: variant.key, name: variant.name, bytes: Buffer.byteLength(html), gzipBytes: gzipSync(html, { level: 9 }).length });
}
const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
process.stdout.write(`\n| gift widget HTML | minified | gzip |\n|---|---|---|\n`);
for (const row of rows) process.stdout.write(`| ${row.name} | ${kb(row.bytes)} | ${kb(row.gzipBytes)} |\n`);
process.stdout.write(`goal for sdk: mcpgen: <= ${kb(TARGET.bytes)} minified, <= ${kb(TARGET.gzipBytes)} gzip\n`);
process.stderr.write(
  `BENCH ${JSON.stringify({
    ...Object.fromEntries(
      rows.flatMap((row) => [
        [`${row.key}.bytes`, row.bytes],
        [`${row.key}.gzipBytes`, row.gzipBytes],
      ]),
    ),
    targetBytes: TARGET.bytes,
    targetGzipBytes: TARGET.gzipBytes,
  })}\n`,
);
