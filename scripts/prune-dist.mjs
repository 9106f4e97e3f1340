// After `tsc` builds dist/ and packages/runtime/dist/: removes the outputs whose source is gone
// (a file moved or deleted since the last build), which tsc leaves behind and `npm pack` would
// ship. Only stale files go, never a live one, so a build never pulls dist/ from under a test or
// a server running from it.
import { existsSync, readdirSync, rmSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outputs = [
  { dist: "dist", src: "src" },
  { dist: "packages/runtime/dist", src: "packages/runtime/src" },
];

/** The sources a dist file may come from: `x.js`, `x.d.ts` and their maps come from `x.ts` or `x.tsx`. */
function sourcesOf(rel) {
  const base = rel.replace(/(\.d)?\.(js|ts)(\.map)?$/, "");
  return [`${base}.ts`, `${base}.tsx`];
}

let removed = 0;
for (const { dist, src } of outputs) {
  const distDir = path.join(root, dist);
  if (!existsSync(distDir)) continue;
  for (const entry of readdirSync(distDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === ".tsbuildinfo") continue;
    const abs = path.join(entry.parentPath, entry.name);
    const rel = path.relative(distDir, abs);
    if (sourcesOf(rel).some((file) => existsSync(path.join(root, src, file)))) continue;
    rmSync(abs);
    removed++;
  }
  // Folders left empty go too.
  const prune = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) prune(path.join(dir, entry.name));
    if (dir !== distDir && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  };
  prune(distDir);
}
if (removed > 0) console.error(`prune-dist: removed ${removed} stale file${removed === 1 ? "" : "s"} from dist/`);
