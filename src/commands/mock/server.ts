/**
 * `startMock`: serves manifests without handlers. Each manifest goes through generate's own steps
 * (load, validate, model, widgets bundled), its definition is the one generate writes, and it is
 * served by the runtime the generated servers use (@mcpgen/runtime/server), so the wire is theirs:
 * stdio or Streamable HTTP, 2025-11-25 and 2026-07-28 clients alike. Only the handlers are the
 * mock's (answers.ts).
 */
import { readFile, stat } from "node:fs/promises";
import * as path from "node:path";
import type { Readable, Writable } from "node:stream";
import { applyLevels, hasErrors, sortDiagnostics, type Diagnostic, type DiagnosticLevels } from "../../common/diagnostics.js";
import { definitionValue } from "../../generator/model/definition.js";
import { displayPath, resolveManifests } from "../../generator/load/manifestPaths.js";
import { sha256 } from "../../generator/load/parseCache.js";
import { stampOf } from "../../generator/runRecords.js";
import { diagnosticAt, unreadableManifest } from "../../generator/load/loadManifest.js";
import type { ManifestRun } from "../../generator/manifestRun.js";
import type { ServerDefinition } from "@mcpgen/runtime/shared";
import { ajvValidators } from "@mcpgen/runtime/codegen";
import { toPosix } from "../../common/paths.js";
import type { ValueLimits } from "./values.js";
import { DEFAULT_SETTINGS, mockDefinition, mockHandlers, mockOutput, type MockSettings, type ToolExample } from "./answers.js";

export type { ValueLimits };

/** What `startMock` serves, and how. */
export interface MockOptions {
  /** Manifest files or folders (folders: every *.yaml / *.yml in them). */
  manifests: string[];
  /** Base of relative paths, and the project whose widget sources are bundled (default: process.cwd()). */
  cwd?: string;
  /** The generated output folder widget sources import from (default `generated`). */
  out?: string;
  /** Serve only the server of this name (`server.name`); required for stdio when the manifests hold several. */
  server?: string;
  /** `stdio` (default: this process's stdin/stdout, or the streams given) or `http`. */
  transport?: { kind: "stdio"; input?: Readable; output?: Writable } | { kind: "http"; port?: number; host?: string };
  /** Seed of generated values and of failRate (default 1). */
  seed?: number;
  /** Delay of each tools/call, resources/read, prompts/get and completion/complete, in ms (default 0). */
  latencyMs?: number;
  /** Fraction of tool calls answered with a mocked tool error (default 0). */
  failRate?: number;
  /** How arguments that break an inputSchema are answered, as the generated servers' option (default `tool-error`). */
  invalidArguments?: "tool-error" | "protocol-error";
  /** Levels of warning codes, as the config's `diagnostics`. */
  levels?: DiagnosticLevels;
  /** Caps of generated values (docs/reference/limits.md); each one left out keeps its default. */
  limits?: Partial<ValueLimits>;
}

/** One served server. */
export interface MockedServer {
  name: string;
  /** The endpoint, over HTTP. */
  url?: string;
}

export type MockResult =
  { ok: false; diagnostics: Diagnostic[]; problem?: string } | { ok: true; diagnostics: Diagnostic[]; servers: MockedServer[]; close(): Promise<void> };

/** A server ready to serve: its definition, as `generate` writes it, with its examples. */
interface Prepared {
  name: string;
  definition: ServerDefinition;
  examples: Map<string, ToolExample[]>;
}

/**
 * Compiles the manifests as generate does and serves them with mock handlers. Invalid manifests:
 * `ok: false` with the diagnostics (nothing served). Warnings (mock-unmockable among them) come
 * with the result either way.
 */
export async function startMock(options: MockOptions): Promise<MockResult> {
  const cwd = options.cwd ?? process.cwd();
  const settings: MockSettings = {
    ...DEFAULT_SETTINGS,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
    ...(options.failRate === undefined ? {} : { failRate: options.failRate }),
    limits: { ...DEFAULT_SETTINGS.limits, ...options.limits },
  };
  const { prepared, diagnostics } = await prepare(options, cwd, settings);
  if (hasErrors(diagnostics)) return { ok: false, diagnostics };
  let chosen = prepared;
  if (options.server !== undefined) {
    chosen = prepared.filter((p) => p.name === options.server);
    if (chosen.length === 0)
      return {
        ok: false,
        diagnostics,
        problem: `no server named ${JSON.stringify(options.server)} in the manifests (${prepared.map((p) => p.name).join(", ") || "none"})`,
      };
  }
  if (chosen.length === 0) return { ok: false, diagnostics, problem: "no manifest to mock: name a manifest file or folder" };
  const transport = options.transport ?? { kind: "stdio" };
  if (transport.kind === "stdio" && chosen.length > 1)
    return {
      ok: false,
      diagnostics,
      problem: `stdio serves one server, and the manifests hold ${chosen.length} (${chosen.map((p) => p.name).join(", ")}): choose one with --server NAME`,
    };

  const { createManifestServerFactory } = await import("@mcpgen/runtime/server");
  const servers: MockedServer[] = [];
  const closers: (() => Promise<void>)[] = [];
  try {
    for (const [i, p] of chosen.entries()) {
      const validators = ajvValidators(p.definition.patterns);
      const served = mockDefinition(p.definition);
      // The tasks part when a tool runs as a task; never Redis (a mock shares nothing with replicas), nor auth (mockDefinition drops it).
      const parts = Object.keys(served.taskSupport ?? {}).length > 0 ? { tasks: (await import("@mcpgen/runtime/server/tasks")).tasks } : {};
      const factory = createManifestServerFactory(
        served,
        mockHandlers(p.definition, p.examples, settings, validators),
        { ...(options.invalidArguments ? { invalidArguments: options.invalidArguments } : {}) },
        parts,
      );
      if (transport.kind === "stdio") {
        const { serveStdioWith } = await import("@mcpgen/runtime/server/node");
        const handle = await serveStdioWith(factory, {
          ...(transport.input ? { input: transport.input } : {}),
          ...(transport.output ? { output: transport.output } : {}),
        });
        closers.push(() => handle.close());
        servers.push({ name: p.name });
      } else {
        const { serveHttpWith } = await import("@mcpgen/runtime/server/node");
        // Several servers: one port each, from the one given (0: a free port each).
        const port = transport.port === undefined ? 3000 + i : transport.port === 0 ? 0 : transport.port + i;
        const handle = await serveHttpWith(factory, served, { port, ...(transport.host ? { host: transport.host } : {}) });
        closers.push(() => handle.close());
        servers.push({ name: p.name, url: handle.url });
      }
    }
  } catch (error) {
    for (const close of closers) await close();
    throw error;
  }
  return {
    ok: true,
    diagnostics,
    servers,
    close: async () => {
      for (const close of closers) await close();
    },
  };
}

/** Load, validate and model each manifest (generate's steps, widgets bundled), then look for tools the mock cannot answer. */
async function prepare(options: MockOptions, cwd: string, settings: MockSettings): Promise<{ prepared: Prepared[]; diagnostics: Diagnostic[] }> {
  const { files, diagnostics } = await resolveManifests(options.manifests, cwd);
  const stages = await import("../../generator/stages.js");
  const outDir = path.resolve(cwd, options.out ?? "generated");
  const prepared: Prepared[] = [];
  for (const absPath of files) {
    const file = toPosix(path.relative(cwd, absPath));
    let run: ManifestRun;
    try {
      const info = await stat(absPath);
      const text = await readFile(absPath, "utf8");
      run = { absPath, file, display: displayPath(absPath), text, hash: sha256(text), stamp: stampOf(info, Date.now()), diagnostics: [] };
    } catch (error) {
      diagnostics.push(unreadableManifest(file, error));
      continue;
    }
    await stages.compileRun(run, { headerLines: [], outDir, ...(options.invalidArguments ? { invalidArguments: options.invalidArguments } : {}) });
    await stages.bundleRun(run, { outDir, cwd });
    diagnostics.push(...run.diagnostics);
    const model = run.model;
    if (!model || hasErrors(run.diagnostics)) continue;
    // The definition generate writes, read back as the generated definition.ts reads it (JSON.parse of its JSON).
    const definition: ServerDefinition = JSON.parse(JSON.stringify(definitionValue(model, run.widgetHtml)));
    const examples = new Map(
      model.tools.map((t) => [t.name, t.examples.map((e) => ({ arguments: e.arguments, ...(e.result === undefined ? {} : { result: e.result }) }))]),
    );
    const validators = ajvValidators(definition.patterns);
    for (const [index, tool] of definition.tools.entries()) {
      if (tool.outputSchema === undefined) continue;
      const probe = mockOutput(tool, {}, settings, validators);
      if (!("unmockable" in probe) || !run.compiled?.manifest) continue;
      diagnostics.push(
        diagnosticAt(
          run.compiled.manifest,
          ["tools", index, "outputSchema"],
          "mock-unmockable",
          `mcpgen mock cannot make an output of tool ${tool.name} that matches its outputSchema (${probe.unmockable}); its calls answer a tool error`,
          { severity: "warning", at: "key" },
        ),
      );
    }
    prepared.push({ name: model.name, definition, examples });
  }
  return { prepared, diagnostics: sortDiagnostics(applyLevels(diagnostics, options.levels, cwd)) };
}
