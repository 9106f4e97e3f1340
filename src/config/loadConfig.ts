/**
 * Project configuration: `mcpgen.config.json`, `mcpgen.config.yaml` (or `.yml`), or an `mcpgen`
 * key in package.json, looked up in the working directory. Paths in it are relative to the file
 * that holds them. It is checked with its field table (fields.ts) by the manifests' checker:
 * unknown keys and bad values are diagnostics with file:line:col.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { sortDiagnostics, type Diagnostic, type DiagnosticCode, type DiagnosticLevels, type DocPath } from "../common/diagnostics.js";
import { diagnosticAt, parseManifestText, type LoadedManifest } from "../generator/load/loadManifest.js";
import { checkRecord, QUOTE_IN_YAML } from "../generator/validate/shape.js";
import { configFields } from "./fields.js";
import { isPlainObject } from "../common/objects.js";
import { readLevels } from "./levels.js";
import { toPosix } from "../common/paths.js";
import type { RuntimeMode } from "../generator/model/modules.js";

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
  /** Where generated code finds mcpgen's runtime: the package (default) or a copy in the output. */
  runtime?: RuntimeMode;
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

const CONFIG_FILES = ["mcpgen.config.json", "mcpgen.config.yaml", "mcpgen.config.yml"];

function defaultConfig(cwd: string): Config {
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
  // A JSON config (mcpgen.config.json, package.json) is not YAML: quoting advice for YAML does not fit it.
  const json = source.file.endsWith(".json");
  const report = (at: DocPath, code: DiagnosticCode, message: string, side: "key" | "value" = "value") =>
    diagnostics.push(diagnosticAt(source, [...base, ...at], code, json ? message.replace(QUOTE_IN_YAML, "") : message, { at: side }));

  let value: unknown = source.value;
  for (const key of base) value = isPlainObject(value) ? value[key as string] : undefined;
  if (!isPlainObject(value)) {
    report([], "not-a-mapping", `the mcpgen config is a mapping with any of: ${Object.keys(configFields).join(", ")}`);
    return { config, diagnostics };
  }
  // Only the values the table took are used: a wrong one keeps the default (and fails the run).
  const bad = new Set<string | number>();
  checkRecord(value, configFields, [], "the config", (at, code, message, side) => {
    if (at[0] !== undefined) bad.add(at[0]);
    report(at, code, message, side);
  });
  const take = (key: string): unknown => (bad.has(key) ? undefined : value[key]);
  const strings = (v: unknown): string[] => [v].flat().filter((s): s is string => typeof s === "string");
  const folder = (key: string): string | undefined => {
    const v = take(key);
    return typeof v === "string" ? path.resolve(dir, v) : undefined;
  };

  if (take("manifests") !== undefined) config.manifests = strings(take("manifests")).map((m) => path.resolve(dir, m));
  config.out = folder("out") ?? config.out;
  const stubs = folder("stubs");
  if (stubs !== undefined) config.stubs = stubs;
  const templates = folder("templates");
  if (templates !== undefined) config.templates = templates;
  const mode = take("invalidArguments");
  if (mode === "tool-error" || mode === "protocol-error") config.invalidArguments = mode;
  if (take("header") !== undefined) config.header = strings(take("header"));
  const clientOnly = take("clientOnly");
  if (typeof clientOnly === "boolean") config.clientOnly = clientOnly;
  else if (clientOnly !== undefined) config.clientOnly = strings(clientOnly);
  const runtime = take("runtime");
  if (runtime === "package" || runtime === "vendor") config.runtime = runtime;

  config.levels = readLevels(value, dir, (at, message, side) => report(at, "config", message, side));
  return { config, diagnostics: sortDiagnostics(diagnostics) };
}
