/**
 * `mcpgen diff`, the loading half: each side is a manifest, a fixtures folder, or `REF:path` (that
 * manifest as git has it at REF); both become a Surface, classify() says what changed, and
 * format.ts prints the changes as a table or as JSON.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { formatDiagnostic, hasErrors } from "../../common/diagnostics.js";
import type { JsonObject } from "../../common/objects.js";
import { compile } from "../../generator/compile.js";
import { classify, type Difference, type Surface } from "./classify.js";
import { isPlainObject } from "../../common/objects.js";

export { fails, formatDifferences } from "./format.js";

/**
 * A side that cannot be read or compiled: `at` is which (the side as given, or a file in it), the
 * message why; `detail`, lines said under it (a manifest's errors).
 */
export class DiffInputError extends Error {
  constructor(
    readonly at: string,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** The fixture files a folder of fixtures holds (those absent are empty lists). */
const FIXTURES: [file: string, key: "tools" | "resources" | "resourceTemplates" | "prompts"][] = [
  ["tools-list.json", "tools"],
  ["resources-list.json", "resources"],
  ["resource-templates-list.json", "resourceTemplates"],
  ["prompts-list.json", "prompts"],
];

/** Reads one side: `REF:path` from git, a folder of fixtures, or a manifest file. */
export async function loadSurface(spec: string, cwd: string): Promise<Surface> {
  const abs = path.resolve(cwd, spec);
  if (!existsSync(abs)) {
    const git = /^([^:]+):(.+)$/.exec(spec);
    if (git && !/^[A-Za-z]$/.test(git[1]!)) return surfaceFromText(gitShow(git[1]!, git[2]!, cwd), path.resolve(cwd, git[2]!), spec);
    throw new DiffInputError(spec, `no such file or folder (give a manifest, a fixtures folder, or REF:path for a manifest in git)`);
  }
  if (statSync(abs).isDirectory()) return surfaceFromFixtures(abs, spec);
  return surfaceFromText(readFileSync(abs, "utf8"), abs, spec);
}

/** The changes between two manifest texts of the same file (pull --check). */
export async function diffManifestTexts(before: string, after: string, absPath: string, cwd: string): Promise<Difference[]> {
  const shown = path.relative(cwd, absPath) || absPath;
  return classify(await surfaceFromText(before, absPath, shown), await surfaceFromText(after, absPath, shown));
}

function gitShow(ref: string, file: string, cwd: string): string {
  // `./` makes git read the path from the working directory, as the user typed it.
  const object = `${ref}:${file.startsWith("/") || file.startsWith("./") ? file : `./${file}`}`;
  try {
    return execFileSync("git", ["show", object], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    const { stderr: output } = error as { stderr?: unknown };
    const stderr = typeof output === "string" ? output.trim() : "";
    const why = (error as { code?: unknown }).code === "ENOENT" ? "git is not installed" : stderr.split("\n")[0] || "git show failed";
    throw new DiffInputError(`${ref}:${file}`, `cannot read it from git: ${why}`);
  }
}

async function surfaceFromText(text: string, absPath: string, source: string): Promise<Surface> {
  const compiled = await compile({ absPath, file: source, text });
  if (hasErrors(compiled.diagnostics) || !compiled.model) {
    const errors = compiled.diagnostics.filter((d) => d.severity === "error").map(formatDiagnostic);
    throw new DiffInputError(source, "not a valid manifest, so it cannot be compared:", errors.join("\n  "));
  }
  const model = compiled.model;
  return {
    source,
    tools: model.tools.map((t) => t.wire),
    resources: model.resources.map((r) => r.wire),
    resourceTemplates: model.resourceTemplates.map((t) => t.wire),
    prompts: model.prompts.map((p) => p.wire),
    server: { info: model.serverInfo, ...(model.instructions === undefined ? {} : { instructions: model.instructions }) },
    staticResources: new Set(model.resources.filter((r) => r.content !== undefined).map((r) => r.uri)),
    staticPrompts: new Set(model.prompts.filter((p) => p.messages !== undefined).map((p) => p.name)),
    disabled: {
      tools: new Set(model.tools.filter((t) => t.switch?.enabled === false).map((t) => t.name)),
      resources: new Set(model.resources.filter((r) => r.switch?.enabled === false).map((r) => r.uri)),
      resourceTemplates: new Set(model.resourceTemplates.filter((t) => t.switch?.enabled === false).map((t) => t.name)),
      prompts: new Set(model.prompts.filter((p) => p.switch?.enabled === false).map((p) => p.name)),
    },
  };
}

function surfaceFromFixtures(dir: string, source: string): Surface {
  // Either the fixtures folder itself or a server's generated folder holding fixtures/.
  const folder = FIXTURES.some(([f]) => existsSync(path.join(dir, f))) ? dir : path.join(dir, "fixtures");
  const present = FIXTURES.filter(([f]) => existsSync(path.join(folder, f)));
  if (present.length === 0)
    throw new DiffInputError(source, `no fixtures in this folder (expected ${FIXTURES.map(([f]) => f).join(", ")}, as mcpgen generates them)`);
  const surface: Surface = { source, tools: [], resources: [], resourceTemplates: [], prompts: [] };
  for (const [file, key] of present) {
    const shown = path.join(source, path.relative(dir, path.join(folder, file)));
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(path.join(folder, file), "utf8"));
    } catch (error) {
      throw new DiffInputError(shown, `not JSON (${(error as Error).message})`);
    }
    const list = isPlainObject(value) ? value[key] : undefined;
    if (!Array.isArray(list) || !list.every(isPlainObject))
      throw new DiffInputError(
        shown,
        `expected a ${key === "resourceTemplates" ? "resources/templates/list" : `${key}/list`} answer, an object with a \`${key}\` list of objects`,
      );
    surface[key] = list as JsonObject[];
  }
  // The 2026-07-28 discover answer, when there, has the server's identity and instructions.
  const discover = path.join(folder, "2026-07-28", "server-discover.json");
  if (existsSync(discover)) {
    try {
      const value = JSON.parse(readFileSync(discover, "utf8")) as JsonObject;
      const info = isPlainObject(value._meta) ? (value._meta as JsonObject)["io.modelcontextprotocol/serverInfo"] : undefined;
      if (isPlainObject(info)) surface.server = { info, ...(typeof value.instructions === "string" ? { instructions: value.instructions } : {}) };
    } catch {
      // Not JSON: the lists still compare.
    }
  }
  return surface;
}
