/**
 * A cache of parsed manifests, keyed by a hash of their text: parsing YAML with source positions
 * is the slowest step on large manifests, and most runs (prebuild, watch) see unchanged files.
 * Only manifests that parsed cleanly and needed the full parser (anchors, tags...) are cached, as
 * plain JSON: the fast parser reads the others about as fast as the cache would. Positions are
 * recomputed from the text only when a diagnostic needs one.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

/** Bump when the YAML -> JSON mapping changes (parser options, tag handling). */
const PARSE_FORMAT = 1;

const yamlVersion = (() => {
  try {
    return (createRequire(import.meta.url)("yaml/package.json") as { version: string }).version;
  } catch {
    return "unknown";
  }
})();

export class ParseCache {
  private readonly dir: string;

  /** `root`: the project's mcpgen cache folder (node_modules/.cache/mcpgen). */
  private constructor(readonly root: string) {
    this.dir = path.join(root, "parsed");
  }

  /**
   * The cache under `<project>/node_modules/.cache/mcpgen/` (the usual home of tool caches), or
   * undefined when the project has no node_modules folder: mcpgen never creates one.
   */
  static forProject(projectRoot: string): ParseCache | undefined {
    const modules = path.join(projectRoot, "node_modules");
    return existsSync(modules) ? new ParseCache(path.join(modules, ".cache", "mcpgen")) : undefined;
  }

  /** The key of a manifest text, from the text's own sha256. */
  key(textHash: string): string {
    return createHash("sha256").update(`${PARSE_FORMAT}\0${yamlVersion}\0${textHash}`).digest("hex");
  }

  get(key: string): unknown {
    try {
      return JSON.parse(readFileSync(path.join(this.dir, `${key}.json`), "utf8"));
    } catch {
      return undefined;
    }
  }

  set(key: string, value: unknown): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const file = path.join(this.dir, `${key}.json`);
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(value));
      renameSync(temp, file);
    } catch {
      // A cache that cannot be written only costs speed.
    }
  }
}

/** The sha256 of a text or file, in hex: the key of a parsed manifest, and of every file the run records. */
export function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}
