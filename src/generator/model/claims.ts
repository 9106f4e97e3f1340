/**
 * The identifier claims of one model: the object every entity builder reserves its names with,
 * in manifest order. A clash is reported once, at the later declaration, naming the first one
 * and its line; the first keeps the name.
 *
 * Two namespaces: TypeScript type names (types.ts, where mcpgen's built-in types and the client
 * interface are taken before any manifest name) and the members of the client object (a member
 * the object already has, such as `then` or `toString`, gets a `$` suffix). The schemas' own
 * `$defs` are named last, once every other type holds its name (see localDefs.ts).
 */
import type { Diagnostic, DocPath } from "../../common/diagnostics.js";
import { diagnosticAt, type LoadedManifest } from "../load/loadManifest.js";
import { BUILTIN_TYPE_NAMES } from "./publicApi.js";
import { IdentifierScope, RESERVED_CLIENT_MEMBERS } from "./identifiers.js";
import { nameLocalDefs, type LocalDefsOwner } from "./localDefs.js";
import type { JsonSchema } from "../../jsonSchema/refs.js";
import type { SchemaModel } from "./types.js";

export class IdentifierClaims {
  private readonly types: IdentifierScope;
  private readonly members = new IdentifierScope();
  /** Where each claimed name was declared, for the line a clash names. */
  private readonly typeAt = new Map<string, DocPath>();
  private readonly memberAt = new Map<string, DocPath>();
  /** The schemas whose `$defs` `nameLocalDefs` names. */
  private readonly schemas: LocalDefsOwner[] = [];

  /** Clashes are pushed onto `diagnostics`; `clientTypeName` is taken before any manifest name. */
  constructor(
    private readonly manifest: LoadedManifest,
    private readonly diagnostics: Diagnostic[],
    clientTypeName: string,
  ) {
    this.types = new IdentifierScope([
      ...BUILTIN_TYPE_NAMES.map((n): [string, string] => [n, `mcpgen's built-in type ${n}`]),
      [clientTypeName, `the generated client interface ${clientTypeName}`],
    ]);
  }

  /** Claims a TypeScript type name for `owner` (`tool "x" (its input type)`), declared at `at`. */
  type(id: string, owner: string, at: DocPath): void {
    this.claim(this.types, this.typeAt, id, owner, at, "TypeScript type name");
  }

  /** Claims a member of the client object and returns it: `candidate`, or `candidate$` when the object already has that member. */
  member(candidate: string, owner: string, at: DocPath): string {
    const id = RESERVED_CLIENT_MEMBERS.has(candidate) ? `${candidate}$` : candidate;
    this.claim(this.members, this.memberAt, id, owner, at, "client method name");
    return id;
  }

  /** The model of a schema declared as `typeName` (claimed by the caller); its own `$defs` get their names in `nameLocalDefs`. */
  schema(schema: JsonSchema, typeName: string, owner: string, at: DocPath): SchemaModel {
    const model: SchemaModel = { schema, typeName, localTypeNames: new Map(), declares: [] };
    this.schemas.push({ model, owner, at });
    return model;
  }

  /** Names the used `$defs` of every schema made by `schema`: call once, after every other type name is claimed. */
  nameLocalDefs(): void {
    nameLocalDefs(this.schemas, {
      tryClaim: (id, owner, at) => {
        if (this.types.claim(id, owner) !== undefined) return false;
        this.typeAt.set(id, at);
        return true;
      },
      claim: (id, owner, at) => this.type(id, owner, at),
    });
  }

  private claim(scope: IdentifierScope, locs: Map<string, DocPath>, id: string, owner: string, at: DocPath, what: string): void {
    const previous = scope.claim(id, owner);
    if (previous === undefined) {
      locs.set(id, at);
      return;
    }
    // Defs are named by their key; everything else by its `name:` value.
    const side = at[0] === "defs" && at.length === 2 ? "key" : "value";
    const where = locs.get(id);
    const first = where ? ` (line ${this.manifest.locate(where).line})` : "";
    this.diagnostics.push(
      diagnosticAt(this.manifest, at, "identifier-collision", `${owner} and ${previous}${first} both become the ${what} ${id}; rename one of them`, {
        at: side,
      }),
    );
  }
}
