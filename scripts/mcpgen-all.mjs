// `npm run generate` and `npm run validate`: mcpgen on this repository's goldens, the root's
// manifests/ into generated/, then each example in its own folder (examples/*/mcpgen.config.json),
// as its user runs it there. The exit code is the worst one.
//
// Arguments after `--` that only change how a run reports (--check, --quiet, --no-cache) go to
// every project. Any other argument (manifests, --out, --stubs, ...) names one run: it goes to a
// single mcpgen run at the root, and no example is touched, so `npm run generate -- x.yaml --out y`
// never writes an example's stubs or output.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = path.join(root, "dist/cli/bin.js");
const [command, ...args] = process.argv.slice(2);
const EVERY_PROJECT = new Set(["--check", "--quiet", "--no-cache"]);
const oneRun = args.some((arg) => !EVERY_PROJECT.has(arg));
const examples = oneRun
  ? []
  : readdirSync(path.join(root, "examples"))
      .sort()
      .map((name) => path.join(root, "examples", name))
      .filter((dir) => existsSync(path.join(dir, "mcpgen.config.json")));

if (oneRun) console.error(`mcpgen ${command} ${args.join(" ")}: one run, at the root (the examples run only without such arguments)`);
let worst = 0;
for (const cwd of [root, ...examples]) {
  if (cwd !== root) console.error(`mcpgen: in ${path.relative(root, cwd)}/`);
  const run = spawnSync(process.execPath, [bin, command, ...args], { cwd, stdio: "inherit" });
  worst = Math.max(worst, run.status ?? 1);
}
process.exit(worst);
