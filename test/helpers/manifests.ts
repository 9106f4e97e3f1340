/** The bundled manifests as tests use them. */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

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
