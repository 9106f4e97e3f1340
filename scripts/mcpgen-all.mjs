// `mcpgen <command> [args]` (generate, validate) on this repository's goldens: the root's
// manifests/ into generated/, then each example in its own folder (examples/*/mcpgen.config.json),
// as its user runs it there. Every project is run; the exit code is the worst one.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = path.join(root, "dist/cli/bin.js");
const examples = readdirSync(path.join(root, "examples"))
  .sort()
  .map((name) => path.join(root, "examples", name))
  .filter((dir) => existsSync(path.join(dir, "mcpgen.config.json")));

let worst = 0;
for (const cwd of [root, ...examples]) {
  if (cwd !== root) console.error(`mcpgen: in ${path.relative(root, cwd)}/`);
  const run = spawnSync(process.execPath, [bin, ...process.argv.slice(2)], { cwd, stdio: "inherit" });
  worst = Math.max(worst, run.status ?? 1);
}
process.exit(worst);
