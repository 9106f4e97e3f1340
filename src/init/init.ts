/**
 * `mcpgen init [dir] [--name NAME] [--force]`: a runnable MCP server project from the templates in
 * templates/init/, then a first `generate` so it builds at once. It refuses a folder that is not
 * empty unless --force, and even then never overwrites a file.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { formatDiagnostic } from "../diagnostics.js";
import { runPipeline } from "../generate.js";
import { words } from "../model/identifiers.js";
import { renderTemplate } from "../templates/render.js";
import { SERVER_NAME } from "../validate/fields.js";

export interface InitOptions {
  dir: string;
  cwd: string;
  name?: string;
  force: boolean;
  /** mcpgen's own version, for the new project's devDependency. */
  version: string;
}

/** The official SDK v2 line the generated code is written for (@modelcontextprotocol/server and /client). */
const SDK_RANGE = "~2.4.0";

/** Template -> path in the new project (`NAME` is the server name). */
const FILES: [string, string][] = [
  ["init/package.json.hbs", "package.json"],
  ["init/tsconfig.json.hbs", "tsconfig.json"],
  ["init/mcpgen.config.json.hbs", "mcpgen.config.json"],
  ["init/manifest.yaml.hbs", "manifests/NAME.yaml"],
  ["init/greet.ts.hbs", "src/handlers/NAME/tools/greet.ts"],
  ["init/main.ts.hbs", "src/main.ts"],
  ["init/server.test.ts.hbs", "test/server.test.ts"],
  ["init/gitignore.hbs", ".gitignore"],
  ["init/README.md.hbs", "README.md"],
];

export async function runInit(options: InitOptions): Promise<number> {
  const relative = path.relative(options.cwd, options.dir);
  const shown = relative === "" ? "." : relative.startsWith("..") ? options.dir : relative;
  const name = options.name ?? suggestName(path.basename(options.dir));
  if (!name || !SERVER_NAME.test(name)) {
    process.stderr.write(
      `mcpgen: ${options.name ? `--name ${JSON.stringify(options.name)} is not` : `cannot make`} a server name${options.name ? "" : ` from the folder name ${JSON.stringify(path.basename(options.dir))}`}: use lowercase letters, digits and '-' (e.g. --name my-server)\n`,
    );
    return 2;
  }
  if (existsSync(options.dir) && readdirSync(options.dir).length > 0 && !options.force) {
    process.stderr.write(`mcpgen: ${shown} is not empty; init writes into an empty folder (use --force to add the files that are missing; existing files are never overwritten)\n`);
    return 1;
  }
  const data = { name, title: words(name).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" "), mcpgenVersion: options.version, serverRange: SDK_RANGE, clientRange: SDK_RANGE };
  const written: string[] = [];
  const kept: string[] = [];
  for (const [template, target] of FILES) {
    const rel = target.replace("NAME", name);
    const abs = path.join(options.dir, rel);
    if (existsSync(abs)) {
      kept.push(rel);
      continue;
    }
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, renderTemplate(template, data), { flag: "wx" });
    written.push(rel);
  }
  for (const rel of kept) process.stderr.write(`mcpgen: kept ${path.join(shown, rel)} (it exists; not overwritten)\n`);

  // A first generate, so the project type-checks and builds before anyone runs anything.
  const result = await runPipeline({ manifests: [path.join(options.dir, "manifests")], out: path.join(options.dir, "generated"), stubs: path.join(options.dir, "src/handlers"), cwd: options.dir, mode: "write", cache: false });
  for (const d of result.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  if (result.diagnostics.some((d) => d.severity === "error") || (result.plan?.conflicts.length ?? 0) > 0) {
    process.stderr.write("mcpgen: the project was created, but its first generate failed (see above).\n");
    return 1;
  }
  const step = shown === "." ? "" : `cd ${shown} && `;
  process.stdout.write(
    `mcpgen: created ${name} in ${shown} (${written.length} files, plus generated/).\n\nNext:\n  ${step}npm install\n  npm run build && npm test\n  npm start            # stdio; npm start -- --http 3000 for Streamable HTTP\n`,
  );
  return 0;
}

/** `My Server_2` -> `my-server-2`. */
function suggestName(folder: string): string {
  return folder
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
