/**
 * `mcpgen dev`: generate, then serve the widgets in the harness against the project's handlers (or
 * the mock), and do it again on every edit of a manifest, the config, a template, a widget source
 * or a handler. Each rebuild starts a new server and a new harness on the same port; the open
 * pages follow the harness's build id (GET /events) and reload themselves. An edit that does not
 * generate, or a server that does not start, leaves the last good build serving.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import type { Config } from "../../config/loadConfig.js";
import { scenariosOf } from "../../generator/emit/widgets.js";
import type { PipelineResult } from "../../generator/pipeline.js";
import type { Harness, Scenario } from "../../harness/index.js";
import type { ServerModel } from "../../generator/model/types.js";
import { isPlainObject } from "../../common/objects.js";
import { startHandlers, startMockBackend, type Backend } from "./backend.js";
import { checkedProjects, projectCompiler, typecheck, type TypeCheck } from "./typecheck.js";

export interface DevOptions {
  cwd: string;
  /** The project root: where node_modules is (the handlers' bundle goes to its .cache). */
  root: string;
  /** The server to serve (needed when several servers have widgets). */
  server?: string;
  /** The harness's port (0: a free one, kept across rebuilds). */
  port: number;
  /** Serve the mock even when handlers exist. */
  mock: boolean;
  /** Type check the project after each build (default true). */
  typecheck?: boolean;
  /** One generate run (prints what it found); code 0 when it wrote. */
  generate(config: Config): Promise<{ code: number; result: PipelineResult }>;
  /** Lines for the terminal (default: stdout). */
  log?: (line: string) => void;
}

/** A dev session: the state of its last good build. */
export class DevSession {
  private harness: Harness | undefined;
  private backend: Backend | undefined;
  private port: number;
  private builds = 0;
  private folders: string[] = [];
  private saidNoCompiler = false;
  private readonly log: (line: string) => void;

  constructor(private readonly options: DevOptions) {
    this.port = options.port;
    this.log = options.log ?? ((line) => process.stdout.write(`${line}\n`));
  }

  /** The harness's index page, once a build serves. */
  get url(): string | undefined {
    return this.harness?.url;
  }

  /** The folders to watch besides the manifests' (which hold the widgets' sources): the handlers'. */
  watchFolders(): string[] {
    return this.folders;
  }

  /** Generate, then serve the result; a failure leaves the previous build serving. */
  async rebuild(config: Config): Promise<void> {
    const began = Date.now();
    const { code, result } = await this.options.generate(config);
    if (code !== 0) {
      if (this.harness) this.log(`mcpgen dev: still serving the last good build at ${this.harness.url}`);
      return;
    }
    const model = this.choose(result.models);
    if (!model) return;
    // The manifests' folders are watched already (widget sources are under them): add the handlers'.
    const handlers = config.stubs !== undefined && existsSync(path.join(config.out, model.name, "handlers.ts"));
    this.folders = config.stubs ? [path.join(config.stubs, model.name)] : [];
    // The type check runs while the server starts: a build with type errors replaces no good build.
    const [checked, started] = await Promise.all([
      this.typecheck(model),
      (handlers && !this.options.mock
        ? startHandlers({ root: this.options.root, outDir: config.out, server: model.name, log: this.log })
        : startMockBackend({ manifests: config.manifests, cwd: this.options.cwd, out: config.out, server: model.name, levels: config.levels })
      ).then(
        (backend) => ({ backend }),
        (error: unknown) => ({ error }),
      ),
    ]);
    const problems = checked?.problems ?? [];
    if (problems.length > 0) {
      this.log(`mcpgen dev: ${plural(problems.length, "type error")} (${checked!.compiler}, ${checked!.projects.join(", ")}):`);
      for (const problem of problems) this.log(`  ${problem.replace(/\n/g, "\n  ")}`);
    }
    if ("error" in started) {
      const { error } = started;
      this.log(`mcpgen dev: ${model.name} did not start: ${error instanceof Error ? error.message : String(error)}`);
      if (this.harness) this.log(`mcpgen dev: still serving the last good build at ${this.harness.url}`);
      return;
    }
    const backend = started.backend;
    if (problems.length > 0 && this.harness) {
      await backend.close();
      this.harness.setProblems({ heading: `${plural(problems.length, "type error")}: this page is the last build without them. Fix and save.`, problems });
      this.log(`mcpgen dev: still serving the last good build at ${this.harness.url} (its pages show the errors)`);
      return;
    }
    const { serveHarness } = await import("../../harness/index.js");
    const previous = { harness: this.harness, backend: this.backend };
    await previous.harness?.close();
    try {
      this.harness = await serveHarness({
        server: backend.url,
        scenarios: scenariosFor(model),
        port: this.port,
        build: `${++this.builds}`,
        // A first build with type errors serves (there is no other), the errors over its pages.
        ...(problems.length > 0 ? { problems: { heading: `${plural(problems.length, "type error")} in this build. Fix and save.`, problems } } : {}),
      });
    } catch (error) {
      this.log(`mcpgen dev: the harness did not start on port ${this.port}: ${error instanceof Error ? error.message : String(error)}`);
      this.harness = undefined;
      await backend.close();
      return;
    }
    this.backend = backend;
    await previous.backend?.close();
    this.port = Number(new URL(this.harness.url).port);
    const against = backend.kind === "mock" ? (handlers ? "mcpgen mock (--mock)" : "mcpgen mock (no handlers)") : "its handlers";
    this.log(`mcpgen dev: ${model.name} against ${against}: ${this.harness.url} (build ${this.builds}, ${Date.now() - began} ms)`);
  }

  async close(): Promise<void> {
    await this.harness?.close();
    await this.backend?.close();
    this.harness = undefined;
    this.backend = undefined;
  }

  /**
   * The project's type errors, with its own compiler (undefined when type checking is off, or the
   * project has no TypeScript: said once).
   */
  private async typecheck(model: ServerModel): Promise<TypeCheck | undefined> {
    if (this.options.typecheck === false) return undefined;
    const compiler = projectCompiler(this.options.root);
    if (!compiler) {
      if (!this.saidNoCompiler) this.log("mcpgen dev: no typescript in the project's node_modules: type errors are not checked (npm install -D typescript)");
      this.saidNoCompiler = true;
      return undefined;
    }
    const projects = checkedProjects(
      this.options.root,
      model.widgets.map((w) => w.entry),
    );
    if (projects.length === 0) return undefined;
    return typecheck({ root: this.options.root, compiler, projects });
  }

  /** The server to serve: the one named, or the only one with widgets; else why not, logged. */
  private choose(models: ServerModel[]): ServerModel | undefined {
    if (this.options.server !== undefined) {
      const named = models.find((m) => m.name === this.options.server);
      if (!named) this.log(`mcpgen dev: no server named ${JSON.stringify(this.options.server)} (${models.map((m) => m.name).join(", ") || "none"})`);
      return named;
    }
    const withWidgets = models.filter((m) => m.widgets.length > 0);
    if (withWidgets.length === 1) return withWidgets[0];
    if (withWidgets.length === 0) this.log("mcpgen dev: no server has a widget: add one under widgets: in a manifest (docs/guides/widgets.md), then save");
    else this.log(`mcpgen dev: several servers have widgets (${withWidgets.map((m) => m.name).join(", ")}): choose one with --server NAME`);
    return undefined;
  }
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The harness's scenarios of a model: each example of a tool that opens a widget. */
function scenariosFor(model: ServerModel): Scenario[] {
  return scenariosOf(model).map((s) => ({
    widget: s.widget,
    tool: s.tool,
    arguments: isPlainObject(s.arguments) ? s.arguments : {},
    ...(s.result === undefined ? {} : { result: s.result }),
  }));
}
