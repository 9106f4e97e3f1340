/**
 * The server `mcpgen dev` puts behind its harness, over Streamable HTTP on a free loopback port:
 * the project's own handlers (the generated server and the handler files the user owns, bundled
 * by esbuild and run in a child process, so each rebuild starts clean), or `mcpgen mock` in this
 * process when there are no handlers (or `--mock`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import type { DiagnosticLevels } from "../../common/diagnostics.js";
import { stringLiteral } from "../../generator/print/literal.js";

/** A running server: where it answers, and what answers. */
export interface Backend {
  url: string;
  /** What answers: `handlers` (the project's) or `mock`. */
  kind: "handlers" | "mock";
  close(): Promise<void>;
}

/** How long a child has to say where it listens before it counts as failed to start. */
const START_TIMEOUT_MS = 20_000;

/**
 * The generated server `<outDir>/<server>/` with its handlers, bundled into
 * `<root>/node_modules/.cache/mcpgen/dev/` (packages stay imports, found in the project's
 * node_modules) and run by this Node. Its output goes to ours, each line marked with the server's
 * name. It exits when this process goes (its IPC channel closes).
 */
export async function startHandlers(options: { root: string; outDir: string; server: string; log: (line: string) => void }): Promise<Backend> {
  const generated = path.join(options.outDir, options.server);
  const entry = [
    `import { handlers } from ${stringLiteral(path.join(generated, "handlers.ts"))};`,
    `import { serveHttp } from ${stringLiteral(path.join(generated, "serve.ts"))};`,
    `process.on("disconnect", () => process.exit(0));`,
    `const { url } = await serveHttp(handlers, { port: 0 });`,
    `process.send({ url });`,
  ].join("\n");
  const folder = path.join(options.root, "node_modules", ".cache", "mcpgen", "dev");
  mkdirSync(folder, { recursive: true });
  const outfile = path.join(folder, `${options.server.replace(/[^\w.-]/g, "_")}.mjs`);
  const { build } = await import("esbuild");
  const built = await build({
    stdin: { contents: entry, resolveDir: options.root, sourcefile: "mcpgen-dev-entry.mjs", loader: "js" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    outfile,
    logLevel: "silent",
  }).catch((error: unknown) => ({ failure: error }));
  if ("failure" in built) throw new Error(`the handlers do not build: ${bundleErrors(built.failure)}`);

  const child = spawn(process.execPath, ["--enable-source-maps", outfile], {
    cwd: options.root,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const tag = `[${options.server}] `;
  for (const stream of [child.stdout, child.stderr])
    stream?.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString("utf8").split("\n")) if (line !== "") options.log(`${tag}${line}`);
    });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.once("message", (message: { url?: unknown }) => {
      clearTimeout(timer);
      if (typeof message.url === "string") resolve(message.url);
      else reject(new Error("the server sent no URL"));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited before it listened (${signal ?? `exit code ${code}`}); its output is above`));
    });
  }).catch(async (error: unknown) => {
    await stop(child);
    throw error;
  });
  let closing = false;
  child.once("exit", (code, signal) => {
    if (!closing) options.log(`${tag}exited (${signal ?? `exit code ${code}`}); the next edit starts it again`);
  });
  return {
    url,
    kind: "handlers",
    close: () => {
      closing = true;
      return stop(child);
    },
  };
}

/** The project's manifests, served by `mcpgen mock` in this process. */
export async function startMockBackend(options: { manifests: string[]; cwd: string; out: string; server: string; levels: DiagnosticLevels }): Promise<Backend> {
  const { startMock } = await import("../mock/server.js");
  const mocked = await startMock({ ...options, transport: { kind: "http", port: 0 } });
  if (!mocked.ok) throw new Error(mocked.problem ?? "the manifests have errors");
  return { url: mocked.servers[0]!.url!, kind: "mock", close: () => mocked.close() };
}

/** Ends a child: SIGTERM, then SIGKILL after 2 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
  await exited;
  clearTimeout(timer);
}

/** esbuild's errors as one line each, with file:line:col. */
function bundleErrors(failure: unknown): string {
  const errors = (failure as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }).errors;
  if (!errors?.length) return failure instanceof Error ? failure.message : String(failure);
  return errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: ${e.text}` : e.text)).join("\n");
}
