/** This mcpgen's version, read once from its package.json. */
import { readFileSync } from "node:fs";

let cached: string | undefined;

/** This mcpgen's version, from its package.json (in src/ and in dist/ alike): the CLI's `--version`, and the header of every generated file. */
export function version(): string {
  cached ??= (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  return cached;
}
