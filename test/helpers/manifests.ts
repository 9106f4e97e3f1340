/** The bundled manifests as tests use them. */
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { PULLED_CLIENT_ONLY_MARK } from "../../src/generator/load/loadManifest.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The gift manifest (the example project's: examples/gift-server/manifests/gift-server.yaml)
 * without its widget: bundling a widget needs its entry source next to the manifest and
 * @modelcontextprotocol/ext-apps in node_modules, which a project in a temporary folder has
 * neither of. Its two tools, resource and prompt are unchanged (visible to both the
 * model and views).
 */
export const GIFT_WITHOUT_WIDGET = withoutWidgets(readFileSync(path.join(ROOT, "examples/gift-server/manifests/gift-server.yaml"), "utf8"));

function withoutWidgets(text: string): string {
  const out = text
    .replace(/^ {4}# The view that shows its result.*\n/m, "")
    .replace(/^ {4}(widget|visibility): .*\n/gm, "")
    .replace(/^widgets:\n(?: .*\n|\n)*?(?=^\S)/m, "");
  if (/^ *(widgets?|visibility):/m.test(out))
    throw new Error("test/helpers/manifests.ts: the gift manifest's widget was not removed entirely; update withoutWidgets");
  return out;
}

/** Deletes a pulled manifest's client-only header line, as the line says to: generate then writes a server for it too. */
export function serveToo(file: string): void {
  const text = readFileSync(file, "utf8");
  const kept = text
    .split("\n")
    .filter((line) => !line.startsWith(PULLED_CLIENT_ONLY_MARK))
    .join("\n");
  if (kept === text) throw new Error(`${file} has no client-only line to delete`);
  writeFileSync(file, kept);
}
