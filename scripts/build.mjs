// Builds dist/ and packages/runtime/dist/ (`npm run build`): tsc on the runtime package, then on
// mcpgen, then removes the outputs whose source is gone (a file moved or deleted since the last
// build), which tsc leaves behind and `npm pack` would ship. Only stale files go, never a live
// one, so a build never pulls dist/ from under a test or a server running from it.
//
// The runtime's entries are then bundled from tsc's output into packages/runtime/dist/bundle/
// (esbuild, ES modules split into shared chunks, so that every entry shares one copy of each
// module; packages and node: built-ins stay imports), which the package's exports load: a server
// reads a few files at start rather than one per module of the runtime. Its types stay tsc's
// declarations, file by file.
//
// `--if-stale` builds only when a source, a tsconfig or the lockfile is newer than the last
// build's stamp (or an output is missing): what `generate`, the test setup and `npm pack` run, so
// one CI run compiles once (`npm ci` runs `prepare`, the full build) and later steps only look.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const STAMP = path.join(root, "dist", ".build-stamp");
const outputs = [
  { dist: "packages/runtime/dist", src: "packages/runtime/src", tsconfig: "packages/runtime/tsconfig.build.json", entry: "bundle/server/index.js" },
  { dist: "dist", src: "src", tsconfig: "tsconfig.build.json", entry: "cli/bin.js" },
];
/** Besides the sources: what changes the output of the same sources. */
const SETTINGS = ["tsconfig.json", "tsconfig.build.json", "packages/runtime/tsconfig.json", "packages/runtime/tsconfig.build.json", "package-lock.json"];

/** The newest modification time among the files under `dir` (0 when it is missing). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let time = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) time = Math.max(time, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  return time;
}

function stale() {
  if (!existsSync(STAMP)) return true;
  if (outputs.some(({ dist, entry }) => !existsSync(path.join(root, dist, entry)))) return true;
  const inputs = Math.max(...outputs.map(({ src }) => newest(path.join(root, src))), ...SETTINGS.map((file) => newest(path.join(root, file))));
  return inputs >= statSync(STAMP).mtimeMs;
}

/** The sources a dist file may come from: `x.js`, `x.d.ts` and their maps come from `x.ts` or `x.tsx`. */
function sourcesOf(rel) {
  const base = rel.replace(/(\.d)?\.(js|ts)(\.map)?$/, "");
  return [`${base}.ts`, `${base}.tsx`];
}

function prune({ dist, src }) {
  const distDir = path.join(root, dist);
  let removed = 0;
  for (const entry of readdirSync(distDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith(".")) continue;
    const abs = path.join(entry.parentPath, entry.name);
    // The runtime's bundle is made from tsc's output, whole, each time.
    const top = path.relative(distDir, abs).split(path.sep)[0];
    if (top === BUNDLE || top === `.${BUNDLE}-next`) continue;
    if (sourcesOf(path.relative(distDir, abs)).some((file) => existsSync(path.join(root, src, file)))) continue;
    rmSync(abs);
    removed++;
  }
  // Folders left empty go too.
  const empty = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) empty(path.join(dir, entry.name));
    if (dir !== distDir && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  };
  empty(distDir);
  if (removed > 0) console.error(`build: removed ${removed} stale file${removed === 1 ? "" : "s"} from ${dist}/`);
}

/** Where the runtime's bundled entries go, under its dist/ (made whole by each build). */
const BUNDLE = "bundle";

/**
 * Bundles the runtime's entries (the `default` files of its exports, under dist/bundle/) from
 * tsc's output, into a fresh folder put in place at the end: a server running from the old one
 * keeps its files until the swap.
 */
async function bundleRuntime() {
  const { build } = await import("esbuild");
  const dist = path.join(root, "packages/runtime/dist");
  const manifest = JSON.parse(readFileSync(path.join(root, "packages/runtime/package.json"), "utf8"));
  const prefix = `./dist/${BUNDLE}/`;
  const entryPoints = Object.values(manifest.exports)
    .map((entry) => entry.default)
    .filter((file) => typeof file === "string" && file.startsWith(prefix))
    .map((file) => path.join(dist, file.slice(prefix.length)));
  // A file of its own, so that what imports it evaluates it first, before the packages it imports
  // after it (zod made jitless before ext-apps builds its schemas): within one file, a bundle's
  // imports of packages are all evaluated before any of its code.
  entryPoints.push(path.join(dist, "widget/zodJitless.js"));
  const next = path.join(dist, `.${BUNDLE}-next`);
  rmSync(next, { recursive: true, force: true });
  await build({
    entryPoints,
    outdir: next,
    outbase: dist,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    packages: "external",
    external: ["node:*"],
    chunkNames: "chunks/[name]-[hash]",
    sourcemap: true,
    logLevel: "warning",
  });
  rmSync(path.join(dist, BUNDLE), { recursive: true, force: true });
  renameSync(next, path.join(dist, BUNDLE));
}

if (process.argv.includes("--if-stale") && !stale()) process.exit(0);
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
// The stamp carries the build's start time: a source saved while tsc ran is newer, so still stale.
const started = new Date();
for (const output of outputs) {
  try {
    execFileSync(process.execPath, [tsc, "-p", output.tsconfig], { cwd: root, stdio: "inherit" });
  } catch {
    rmSync(STAMP, { force: true });
    process.exit(1);
  }
  prune(output);
  if (output.dist === "packages/runtime/dist") await bundleRuntime();
}
writeFileSync(STAMP, "");
utimesSync(STAMP, started, started);
