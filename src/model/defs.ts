/** The manifest's shared `defs:`: one exported type each, named after its key. */
import { toIdentifier } from "./identifiers.js";
import type { ModelContext } from "./context.js";
import type { DefModel } from "./types.js";

export function buildDefs(ctx: ModelContext): DefModel[] {
  return Object.entries(ctx.manifest.value.defs ?? {}).map(([name, schema]) => {
    const typeName = toIdentifier(name, "pascal");
    ctx.claims.type(typeName, `def "${name}"`, ["defs", name]);
    return { name, typeName, schema };
  });
}
