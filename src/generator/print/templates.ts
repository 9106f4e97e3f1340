/**
 * Whole-file templates (handler stubs, a new project's files): handlebars with `noEscape` and
 * `strict`. Callers pass only values the model already made safe: checked identifiers, string
 * literals from print/literal.ts, and relative import paths mcpgen computed. A folder given as
 * `templates` in the config overrides the built-in files by name.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

// handlebars is CommonJS with `export =` typings: loaded through require, and only when a
// template is rendered (generate without stubs never needs it).
let handlebars: typeof import("handlebars") | undefined;
const Handlebars = () => (handlebars ??= createRequire(import.meta.url)("handlebars") as typeof import("handlebars"));

/** templates/ of the mcpgen package, from src/generator/print and dist/generator/print alike. */
const BUILTIN_TEMPLATES = fileURLToPath(new URL("../../../templates/", import.meta.url));

const compiled = new Map<string, Handlebars.TemplateDelegate>();

/** Renders `name` (e.g. `stubs/tool.ts.hbs`) from the override folder when it has it, else built-in. */
export function renderTemplate(name: string, data: Record<string, unknown>, overrideDir?: string): string {
  const override = overrideDir ? path.join(overrideDir, name) : undefined;
  const file = override && existsSync(override) ? override : path.join(BUILTIN_TEMPLATES, name);
  let template = compiled.get(file);
  if (!template) {
    template = Handlebars().compile(readFileSync(file, "utf8").replace(/\r\n/g, "\n"), { noEscape: true, strict: true });
    compiled.set(file, template);
  }
  return template(data);
}
