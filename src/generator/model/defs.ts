/** The manifest's shared `defs:`: one exported type each, named after its key. */
import { toIdentifier } from "./identifiers.js";
import type { IdentifierClaims } from "./claims.js";
import type { ModelContext } from "./context.js";
import type { DefModel } from "./types.js";

export function buildDefs(ctx: ModelContext): DefModel[] {
  return Object.entries(ctx.manifest.value.defs ?? {}).map(([name, schema]) => ({ name, typeName: claimDef(ctx.claims, name), schema }));
}

/** Claims the type of the def named `name` and returns it (also run on a manifest with errors: modelProblems.ts). */
export function claimDef(claims: IdentifierClaims, name: string): string {
  const typeName = toIdentifier(name, "pascal");
  claims.type(typeName, `def "${name}"`, ["defs", name]);
  return typeName;
}
