/**
 * Project configuration: `mcpgen.config.json`, `mcpgen.config.yaml` (or `.yml`), or an `mcpgen`
 * key in package.json, looked up in the working directory. Paths in it are relative to the file
 * that holds them. Unknown keys and bad values are diagnostics with file:line:col.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { sortDiagnostics, type Diagnostic, type DiagnosticLevels, type DocPath } from "../diagnostics.js";
import { diagnosticAt, parseManifestText, type LoadedManifest } from "../load/loadManifest.js";
import { suggest } from "../validate/shape.js";
import { isPlainObject } from "../util/objects.js";
import { readLevels } from "./levels.js";
import { toPosix } from "../util/paths.js";

export interface Config {
  /** Manifest files or folders (absolute). */
  manifests: string[];
  /** Output folder (absolute). */
  out: string;
  /** Folder of user-owned handler stubs (absolute), when stubs are wanted. */
  stubs?: string;
  /** Folder whose files override the built-in templates by name (absolute). */
  templates?: string;
  /** Default for the generated createServer's `invalidArguments` option. */
  invalidArguments?: "tool-error" | "protocol-error";
  /** Extra comment lines under the standard header of every generated file. */
  header: string[];
  /** Types, client and fixtures only (no server files): every server, or the servers named. */
  clientOnly?: boolean | string[];
  /**
   * Levels of warning codes (`diagnostics`, and the lint rules' `lint`), for generate, validate
   * and lint alike: off, warn or error, for every manifest or per manifest file or folder.
   */
  levels: DiagnosticLevels;
  /** The config file, relative to cwd, when one was found. */
  file?: string;
  /** Every file the config came from (absolute), for watch mode. */
  sources: string[];
}

export const CONFIG_FILES = ["mcpgen.config.json", "mcpgen.config.yaml", "mcpgen.config.yml"];

const KEYS = ["manifests", "out", "stubs", "templates", "invalidArguments", "header", "clientOnly", "diagnostics", "lint"] as const;

export function defaultConfig(cwd: string): Config {
  return { manifests: [path.resolve(cwd, "manifests")], out: path.resolve(cwd, "generated"), header: [], levels: [], sources: [] };
}

/** Finds and reads the config in `cwd` (or `explicit`); defaults when there is none. */
export function loadConfig(cwd: string, explicit?: string): { config: Config; diagnostics: Diagnostic[] } {
  const fail = (file: string, message: string) => ({
    config: defaultConfig(cwd),
    diagnostics: [{ severity: "error" as const, code: "config" as const, message, file, line: 1, col: 1, path: "" }],
  });
  const candidates = explicit ? [path.resolve(cwd, explicit)] : CONFIG_FILES.map((f) => path.join(cwd, f));
  const found = candidates.filter((f) => existsSync(f));
  if (explicit && found.length === 0) return fail(explicit, `no such config file: ${explicit}`);
  if (found.length > 1) {
    const names = found.map((f) => path.relative(cwd, f));
    return fail(names[1]!, `several config files (${names.join(", ")}); keep one`);
  }
  if (found.length === 1) {
    const loaded = parseFile(found[0]!, cwd);
    if (!loaded.ok) return { config: defaultConfig(cwd), diagnostics: loaded.diagnostics };
    return fromValue(loaded.manifest, [], cwd);
  }
  const pkg = path.join(cwd, "package.json");
  if (existsSync(pkg) && mayHaveConfig(readFileSync(pkg, "utf8"))) {
    const loaded = parseFile(pkg, cwd);
    if (loaded.ok && isPlainObject(loaded.manifest.value) && loaded.manifest.value.mcpgen !== undefined) return fromValue(loaded.manifest, ["mcpgen"], cwd);
  }
  return { config: defaultConfig(cwd), diagnostics: [] };
}

/**
 * False when package.json is plain JSON without an "mcpgen" key: most projects, whose runs then
 * never load a YAML parser for it. Anything else is parsed properly (with positions).
 */
function mayHaveConfig(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return !isPlainObject(value) || Object.hasOwn(value, "mcpgen");
  } catch {
    return true;
  }
}

function parseFile(absPath: string, cwd: string) {
  const file = toPosix(path.relative(cwd, absPath));
  return parseManifestText(readFileSync(absPath, "utf8"), absPath, file);
}

function fromValue(source: LoadedManifest, base: DocPath, cwd: string): { config: Config; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const config = defaultConfig(cwd);
  config.file = source.file;
  config.sources = [source.absPath];
  const dir = path.dirname(source.absPath);
  const report = (at: DocPath, message: string, side: "key" | "value" = "value") =>
    diagnostics.push(diagnosticAt(source, [...base, ...at], "config", message, { at: side }));

  let value: unknown = source.value;
  for (const key of base) value = isPlainObject(value) ? value[key as string] : undefined;
  if (!isPlainObject(value)) {
    report([], `the mcpgen config is a mapping with any of: ${KEYS.join(", ")}`);
    return { config, diagnostics };
  }
  for (const key of Object.keys(value)) {
    if ((KEYS as readonly string[]).includes(key)) continue;
    const near = suggest(key, KEYS);
    report([key], `unknown config key \`${key}\`${near ? ` (did you mean \`${near}\`?)` : ""}; allowed: ${KEYS.join(", ")}`, "key");
  }
  const pathValue = (key: string): string | undefined => {
    const v = value[key];
    if (v === undefined) return undefined;
    if (typeof v === "string" && v !== "") return path.resolve(dir, v);
    report([key], `\`${key}\` must be a path (a non-empty string)`);
    return undefined;
  };

  const manifests = value.manifests;
  if (typeof manifests === "string" && manifests !== "") config.manifests = [path.resolve(dir, manifests)];
  else if (Array.isArray(manifests) && manifests.length > 0 && manifests.every((m) => typeof m === "string" && m !== "")) {
    config.manifests = (manifests as string[]).map((m) => path.resolve(dir, m));
  } else if (manifests !== undefined) report(["manifests"], "`manifests` must be a path or a non-empty list of paths (files or folders)");
  config.out = pathValue("out") ?? config.out;
  const stubs = pathValue("stubs");
  if (stubs !== undefined) config.stubs = stubs;
  const templates = pathValue("templates");
  if (templates !== undefined) config.templates = templates;

  const mode = value.invalidArguments;
  if (mode === "tool-error" || mode === "protocol-error") config.invalidArguments = mode;
  else if (mode !== undefined) report(["invalidArguments"], '`invalidArguments` must be "tool-error" or "protocol-error"');

  const header = value.header;
  if (typeof header === "string") config.header = [header];
  else if (Array.isArray(header) && header.every((l) => typeof l === "string")) config.header = header as string[];
  else if (header !== undefined) report(["header"], "`header` must be a string or a list of strings (comment lines added under the generated header)");

  const clientOnly = value.clientOnly;
  if (typeof clientOnly === "boolean") config.clientOnly = clientOnly;
  else if (Array.isArray(clientOnly) && clientOnly.every((n) => typeof n === "string" && n !== "")) config.clientOnly = clientOnly as string[];
  else if (clientOnly !== undefined) report(["clientOnly"], "`clientOnly` must be true, false, or a list of server names (output folders) to generate a client for and no server");

  config.levels = readLevels(value, dir, report);
  return { config, diagnostics: sortDiagnostics(diagnostics) };
}
