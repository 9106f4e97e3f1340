/**
 * `mcpgen init [dir] [--name NAME] [--target T] [--force]`: a runnable MCP server project from the
 * templates in templates/init/, then a first `generate` so it builds at once. It refuses a folder
 * that is not empty unless --force, and even then never overwrites a file. The target picks where
 * it runs: Node (serveHttp), Deno or Bun (the fetch handler behind Deno.serve / Bun.serve), or AWS
 * Lambda (a handler besides the Node entry).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { printDiagnostics } from "../common/report.js";
import { shellWord } from "../common/shell.js";
import { runPipeline } from "../generator/pipeline.js";
import { runtimePackageDir } from "../generator/emit/runtime.js";
import { words } from "../generator/model/identifiers.js";
import { RUNTIME_PACKAGE } from "../generator/model/modules.js";
import { renderTemplate } from "../generator/print/templates.js";
import { SERVER_NAME } from "../generator/validate/fields.js";
import { conflictDiagnostic } from "../generator/plan/problems.js";

export interface InitOptions {
  dir: string;
  cwd: string;
  name?: string;
  force: boolean;
  /** mcpgen's own version, for the new project's devDependency. */
  version: string;
  /**
   * The new project's mcpgen dependency as npm takes it (`file:../mcpgen`, a tarball, `^0.2.0`).
   * Default: this mcpgen, packed into the project's vendor/ folder (mcpgen is not on the npm
   * registry yet, so a version range would not install). Its runtime, @mcpgen/runtime, is packed
   * beside it, unless the spec names a checkout (`file:DIR`), whose packages/runtime it takes.
   */
  mcpgen?: string;
  /** Scaffold a widget (an MCP Apps view) for the starter tool, and the harness to open it. */
  widget?: boolean;
  /** Protect the server (an `auth` block with JWT access tokens, a scope on the starter tool), and add jose. */
  auth?: boolean;
  /** Where the server runs (default node): the entry file and the config its platform expects. */
  target?: InitTarget;
}

/** The platforms init writes an entry for. */
export type InitTarget = "node" | "deno" | "bun" | "lambda" | "workers";

/** Several replicas locally, of the Node entry: Redis, two replicas, HAProxy sticky by Mcp-Session-Id for 2025-era clients. */
const REPLICA_FILES: [string, string][] = [
  ["init/compose.yaml.hbs", "compose.yaml"],
  ["init/haproxy.cfg.hbs", "haproxy.cfg"],
];

/** What each target adds or puts in place of the Node entry (src/main.ts). */
const TARGET_FILES: Record<InitTarget, [string, string][]> = {
  node: [["init/main.ts.hbs", "src/main.ts"], ...REPLICA_FILES],
  deno: [
    ["init/main.deno.ts.hbs", "src/main.ts"],
    ["init/deno.json.hbs", "deno.json"],
  ],
  bun: [["init/main.bun.ts.hbs", "src/main.ts"]],
  // The Node entry too: `npm start` serves it locally as it will run on Lambda.
  lambda: [
    ["init/main.ts.hbs", "src/main.ts"],
    ["init/lambda.ts.hbs", "src/lambda.ts"],
  ],
  // The Node entry too: stdio and `npm start` locally; the Worker's own loop is `npx wrangler dev`.
  workers: [
    ["init/main.ts.hbs", "src/main.ts"],
    ["init/worker.ts.hbs", "src/worker.ts"],
    ["init/wrangler.jsonc.hbs", "wrangler.jsonc"],
  ],
};

/** mcpgen's package folder (the checkout or the installed package this code runs from). */
const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The official SDK v2 line the generated code is written for (@modelcontextprotocol/server and /client). */
const SDK_RANGE = "~2.4.0";

/** The @modelcontextprotocol/ext-apps line the generated widget clients are written for. */
const APPS_RANGE = "~2.0.4";

/** node-redis, for the Redis task store compose.yaml turns on with REDIS_URL (the line the runtime is tested with). */
const REDIS_RANGE = "^6.4.0";

/**
 * The new project's TypeScript: the current major, 7 (the native compiler). The generated code
 * also compiles with 5.4, the oldest mcpgen promises (test/strict-compile.test.ts runs both).
 */
const TYPESCRIPT_RANGE = "^7.0.2";

/** jose, which the runtime loads to verify JWT access tokens (`auth.jwt`; the line it is tested with). */
const JOSE_RANGE = "^6.2.19";

/** With --widget: the widget's source and styles, its DOM-typed tsconfig, the harness script. */
const WIDGET_FILES: [string, string][] = [
  ["init/widget.ts.hbs", "manifests/widgets/greeting.ts"],
  ["init/widget.css.hbs", "manifests/widgets/greeting.css"],
  ["init/widget-styles.d.ts.hbs", "manifests/widgets/styles.d.ts"],
  ["init/widget-tsconfig.json.hbs", "manifests/widgets/tsconfig.json"],
  ["init/harness.ts.hbs", "src/harness.ts"],
];

/** Template -> path in the new project (`NAME` is the server name). */
const FILES: [string, string][] = [
  ["init/package.json.hbs", "package.json"],
  ["init/tsconfig.json.hbs", "tsconfig.json"],
  ["init/mcpgen.config.json.hbs", "mcpgen.config.json"],
  ["init/manifest.yaml.hbs", "manifests/NAME.yaml"],
  ["init/greet.ts.hbs", "src/handlers/NAME/tools/greet.ts"],
  ["init/server.test.ts.hbs", "test/server.test.ts"],
  ["init/gitignore.hbs", ".gitignore"],
  ["init/README.md.hbs", "README.md"],
];

export async function runInit(options: InitOptions): Promise<number> {
  const relative = path.relative(options.cwd, options.dir);
  const shown = relative === "" ? "." : relative.startsWith("..") ? options.dir : relative;
  const name = options.name ?? suggestName(path.basename(options.dir));
  if (!name || !SERVER_NAME.test(name)) {
    const folder = path.basename(options.dir);
    printDiagnostics([
      options.name
        ? { severity: "error", code: "invalid-argument", argument: `--name ${JSON.stringify(options.name)}`, message: "not a server name", fix: NAME_FIX }
        : {
            severity: "error",
            code: "invalid-argument",
            argument: shown,
            message: `cannot make a server name from the folder name ${JSON.stringify(folder)}`,
            fix: NAME_FIX,
          },
    ]);
    return 2;
  }
  if (existsSync(options.dir) && readdirSync(options.dir).length > 0 && !options.force) {
    printDiagnostics([
      {
        severity: "error",
        code: "invalid-argument",
        argument: shown,
        message: "the folder is not empty; init writes into an empty folder",
        fix: "use --force to add the files that are missing (existing files are never overwritten)",
      },
    ]);
    return 1;
  }
  const dependency = options.mcpgen ?? packSelf(options.dir, options.version);
  if (typeof dependency !== "string") {
    printDiagnostics([
      {
        severity: "error",
        code: "pack-failed",
        argument: shown,
        message: `cannot pack mcpgen for the new project (${dependency.error})`,
        fix: `give the dependency with --mcpgen (a checkout: --mcpgen file:${PACKAGE_ROOT})`,
      },
    ]);
    return 1;
  }
  const runtime = runtimeSpec(options.mcpgen, options.dir) ?? packRuntime(options.dir, options.version);
  if (typeof runtime !== "string") {
    printDiagnostics([
      {
        severity: "error",
        code: "pack-failed",
        argument: shown,
        message: `cannot pack ${RUNTIME_PACKAGE} for the new project (${runtime.error})`,
        fix: `give mcpgen with --mcpgen file:DIR, a checkout whose packages/runtime the project then uses (a checkout: --mcpgen file:${PACKAGE_ROOT})`,
      },
    ]);
    return 1;
  }
  const widget = options.widget === true;
  const target = options.target ?? "node";
  const data = {
    target,
    node: target === "node",
    deno: target === "deno",
    bun: target === "bun",
    lambda: target === "lambda",
    workers: target === "workers",
    // The runtime that runs src/main.ts when it is not Node.
    runtimeEntry: target === "deno" ? "Deno" : target === "bun" ? "Bun" : undefined,
    name,
    title: words(name)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(" "),
    mcpgenDependency: dependency,
    runtimeDependency: runtime,
    serverRange: SDK_RANGE,
    clientRange: SDK_RANGE,
    appsRange: APPS_RANGE,
    redisRange: REDIS_RANGE,
    joseRange: JOSE_RANGE,
    typescriptRange: TYPESCRIPT_RANGE,
    widget,
    auth: options.auth === true,
  };
  const written: string[] = [];
  const kept: string[] = [];
  for (const [template, file] of [...FILES, ...TARGET_FILES[target], ...(widget ? WIDGET_FILES : [])]) {
    const rel = file.replace("NAME", name);
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
  const result = await runPipeline({
    manifests: [path.join(options.dir, "manifests")],
    out: path.join(options.dir, "generated"),
    stubs: path.join(options.dir, "src/handlers"),
    cwd: options.dir,
    mode: "write",
    cache: false,
  });
  // The project is not installed yet (its next step is npm install): its runtime is not there.
  printDiagnostics(result.diagnostics.filter((d) => d.code !== "runtime-missing"));
  printDiagnostics((result.plan?.conflicts ?? []).map((file) => conflictDiagnostic(file, "generated/")));
  if (result.diagnostics.some((d) => d.severity === "error") || (result.plan?.conflicts.length ?? 0) > 0) {
    process.stderr.write("mcpgen: the project was created, but its first generate failed (see above).\n");
    return 1;
  }
  const step = shown === "." ? "" : `cd ${shellWord(shown)} && `;
  const from =
    options.mcpgen === undefined
      ? `mcpgen and ${RUNTIME_PACKAGE} come from vendor/, this mcpgen packed (they are not on the npm registry yet); --mcpgen SPEC picks another (file:/path/to/checkout, a tarball)`
      : `mcpgen comes from ${dependency}, ${RUNTIME_PACKAGE} from ${runtime}`;
  const main = path.join(options.dir, "dist/src/main.js");
  // The folder only when it says more than the name: "created my-server" for my-server/.
  const where = shown === name ? "" : shown === "." ? " in this folder" : ` in ${shown}`;
  const start = {
    node: "npm start            # stdio; npm start -- --http 3000 for Streamable HTTP",
    deno: "deno task start      # on Deno: stdio; deno task start --http 3000 for Streamable HTTP",
    bun: "bun run src/main.ts  # on Bun: stdio; bun run src/main.ts --http 3000 for Streamable HTTP",
    lambda: "npm start            # locally on Node: stdio; npm start -- --http 3000 for Streamable HTTP",
    workers: "npx wrangler dev     # the Worker on workerd, locally (wrangler needs Node 22)",
  }[target];
  const deploy =
    {
      lambda: "  # AWS Lambda: the handler dist/src/lambda.handler (README.md, AWS Lambda)\n",
      workers: "  npx wrangler deploy  # to Cloudflare (README.md, Cloudflare Workers)\n",
    }[target as string] ?? "";
  const stdioClient = {
    node: `For an MCP client over stdio, start it with node, not npm start (npm writes its own banner to stdout):\n  {"command": "node", "args": [${JSON.stringify(main)}]}\n`,
    lambda: `For an MCP client over stdio, start it with node, not npm start (npm writes its own banner to stdout):\n  {"command": "node", "args": [${JSON.stringify(main)}]}\n`,
    workers: `For an MCP client over stdio, start it with node, not npm start (npm writes its own banner to stdout):\n  {"command": "node", "args": [${JSON.stringify(main)}]}\n`,
    deno: `For an MCP client over stdio: {"command": "deno", "args": ["task", "--quiet", "--cwd", ${JSON.stringify(options.dir)}, "start"]}\n`,
    bun: `For an MCP client over stdio: {"command": "bun", "args": ["run", ${JSON.stringify(path.join(options.dir, "src/main.ts"))}]}\n`,
  }[target];
  process.stdout.write(
    `mcpgen: created ${name}${where} (${written.length} files, plus generated/); ${from}.\n\nNext:\n  ${step}npm install\n  npm test             # builds first (mcpgen generate, tsc), then runs test/\n  ${start}\n${deploy}${widget ? "  npm run harness      # the greeting widget in a mock MCP Apps host, in a browser (PORT=8080 to pick the port)\n" : ""}\n` +
      stdioClient,
  );
  return 0;
}

/** Scripts that only make sense in a checkout (scripts/pack-manifest.mjs strips the same ones on `npm pack`). */
const CHECKOUT_ONLY_SCRIPTS = ["prepare", "prepack", "postpack"];

/**
 * Packs this mcpgen, as it runs (its dist/ is not rebuilt), into `<dir>/vendor/`: the dependency
 * spec for it. npm pack without scripts. From a checkout, the package's files are copied to a
 * staging folder with a package.json without the checkout-only scripts (`prepare` would make npm
 * 11 ask the user to approve an install script), and that folder is packed: the checkout itself is
 * never edited, so packs running at once cannot meet. An installed mcpgen has none to strip.
 */
function packSelf(dir: string, version: string): string | { error: string } {
  const vendor = path.join(dir, "vendor");
  const file = `mcpgen-${version}.tgz`;
  if (existsSync(path.join(vendor, file))) return `file:vendor/${file}`;
  let staging: string | undefined;
  try {
    mkdirSync(vendor, { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { scripts?: Record<string, string> };
    const scripts = manifest.scripts ?? {};
    let source = PACKAGE_ROOT;
    if (CHECKOUT_ONLY_SCRIPTS.some((name) => scripts[name] !== undefined)) {
      staging = mkdtempSync(path.join(tmpdir(), "mcpgen-pack-"));
      const listing = JSON.parse(npm(["pack", PACKAGE_ROOT, "--dry-run", "--json", "--ignore-scripts"])) as { files: { path: string }[] }[];
      for (const { path: file } of listing[0]?.files ?? []) {
        if (file === "package.json") continue;
        mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
        copyFileSync(path.join(PACKAGE_ROOT, file), path.join(staging, file));
      }
      for (const name of CHECKOUT_ONLY_SCRIPTS) delete scripts[name];
      writeFileSync(path.join(staging, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      source = staging;
    }
    const packed = npm(["pack", source, "--pack-destination", vendor, "--ignore-scripts", "--silent"]).trim().split("\n").pop()!.trim();
    if (packed !== file) renameSync(path.join(vendor, packed), path.join(vendor, file));
    return `file:vendor/${file}`;
  } catch (error) {
    return { error: npmFailure(error) };
  } finally {
    if (staging !== undefined) rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The runtime that goes with `--mcpgen SPEC`: a version range names the same range of
 * @mcpgen/runtime (they move in lockstep); a checkout `file:DIR` its DIR/packages/runtime (a
 * `file:` spec, relative like the one given). Undefined otherwise (a tarball): this mcpgen's
 * runtime is packed then.
 */
function runtimeSpec(spec: string | undefined, project: string): string | undefined {
  if (spec !== undefined && /^[\^~]?\d+\.\d+\.\d+/.test(spec)) return spec;
  if (spec === undefined || !spec.startsWith("file:")) return undefined;
  const dir = spec.slice("file:".length);
  if (!existsSync(path.join(path.resolve(project, dir), "packages/runtime/package.json"))) return undefined;
  return `file:${path.posix.join(dir.split(path.sep).join("/"), "packages/runtime")}`;
}

/**
 * Packs this mcpgen's @mcpgen/runtime (the version its generated code needs) into `<dir>/vendor/`:
 * the dependency spec for it. Its package.json has no install script, so it is packed as it is.
 */
function packRuntime(dir: string, version: string): string | { error: string } {
  const vendor = path.join(dir, "vendor");
  const file = `mcpgen-runtime-${version}.tgz`;
  if (existsSync(path.join(vendor, file))) return `file:vendor/${file}`;
  try {
    mkdirSync(vendor, { recursive: true });
    const packed = npm(["pack", runtimePackageDir(), "--pack-destination", vendor, "--ignore-scripts", "--silent"]).trim().split("\n").pop()!.trim();
    if (packed !== file) renameSync(path.join(vendor, packed), path.join(vendor, file));
    return `file:vendor/${file}`;
  } catch (error) {
    return { error: npmFailure(error) };
  }
}

/** Runs npm with these arguments; its stdout. */
function npm(args: string[]): string {
  return execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Why npm failed, in one line. */
function npmFailure(error: unknown): string {
  const e = error as { code?: unknown; stderr?: unknown; message?: unknown };
  if (e.code === "ENOENT") return "npm is not on the PATH";
  return (
    String(e.stderr ?? e.message)
      .trim()
      .split("\n")[0] ?? "npm pack failed"
  );
}

const NAME_FIX = "use lowercase letters, digits and '-' (e.g. --name my-server)";

/** `My Server_2` -> `my-server-2`. */
function suggestName(folder: string): string {
  return folder
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
