/**
 * The type of a manifest that passed validation, derived from the field tables (fields.ts), so a
 * field added there is typed here with nothing else to write. The model builder reads only this
 * (`ValidManifest`), never the untyped parse.
 */
import { hasErrors, type Diagnostic } from "../../common/diagnostics.js";
import type { LoadedManifest } from "../load/loadManifest.js";
import type { JsonSchema } from "../../jsonSchema/refs.js";
import type { Json, JsonObject } from "../../common/objects.js";
import { isPlainObject } from "../../common/objects.js";
import type { authFields } from "./authFields.js";
import type { cacheHint, FieldSpec, Fields, promptFields, resourceFields, resourceTemplateFields, serverFields, toolFields } from "./fields.js";
import type { manifestFields } from "./manifestFields.js";
import type { widgetFields } from "./widgetFields.js";

/**
 * The value a field of this spec holds once valid. `json` is JSON data: the loader gives plain
 * data, and the shape check refuses numbers JSON cannot carry.
 */
export type FieldValue<S extends FieldSpec> = S extends { kind: "string"; oneOf: readonly (infer V)[] }
  ? V
  : S extends { kind: "string" }
    ? string
    : S extends { kind: "boolean" }
      ? boolean
      : S extends { kind: "number" }
        ? number
        : S extends { kind: "json"; object: true }
          ? JsonObject
          : S extends { kind: "json" }
            ? Json
            : S extends { kind: "record"; fields: infer F extends Fields }
              ? S extends { open: true }
                ? Entry<F> & OtherFields
                : Entry<F>
              : S extends { kind: "list"; item: infer I extends FieldSpec }
                ? FieldValue<I>[]
                : S extends { kind: "stringList" }
                  ? string[]
                  : S extends { kind: "schema" }
                    ? JsonSchema
                    : S extends { kind: "content" }
                      ? JsonObject
                      : never;

type RequiredKeys<F extends Fields> = { [K in keyof F]: F[K] extends { required: true } ? K : never }[keyof F];

/** A mapping with these fields: the required ones present, the others maybe. */
export type Entry<F extends Fields> = Flat<{ [K in RequiredKeys<F>]: FieldValue<F[K]> } & { [K in Exclude<keyof F, RequiredKeys<F>>]?: FieldValue<F[K]> }>;

/** One object type instead of an intersection (what an editor shows on hover). */
type Flat<T> = { [K in keyof T]: T[K] };

/** An MCP object's fields mcpgen does not know: served as they are (shape.ts warns about each). */
export type OtherFields = { readonly [other: string]: Json | undefined };

/** `T` with the fields in `R` typed as a later check (schemas.ts, semantics.ts) makes sure they are. */
type Refine<T, R> = Omit<T, keyof R> & R;

/** A completion source (`complete:`): the values offered, or "handler". semantics.ts checks it. */
export type CompletionSource = string[] | "handler";

export type ServerEntry = Entry<typeof serverFields> & OtherFields;
export type ToolEntry = Entry<typeof toolFields> & OtherFields;
export type WidgetEntry = Entry<typeof widgetFields>;
export type AuthEntry = Entry<typeof authFields>;
export type CacheHintEntry = FieldValue<typeof cacheHint>;
export type ResourceEntry = Entry<typeof resourceFields> & OtherFields;
export type ResourceTemplateEntry = Refine<Entry<typeof resourceTemplateFields>, { complete?: Record<string, CompletionSource> }> & OtherFields;
export type PromptArgumentEntry = Refine<Entry<typeof promptFields.arguments.item.fields>, { complete?: CompletionSource }> & OtherFields;
export type PromptEntry = Refine<Entry<typeof promptFields>, { arguments?: PromptArgumentEntry[] }> & OtherFields;

/** A valid manifest: each def is a JSON Schema (schemas.ts checks them). */
export type Manifest = Refine<
  Entry<typeof manifestFields>,
  {
    server: ServerEntry;
    defs?: Record<string, JsonSchema>;
    tools?: ToolEntry[];
    resources?: ResourceEntry[];
    resourceTemplates?: ResourceTemplateEntry[];
    prompts?: PromptEntry[];
    widgets?: WidgetEntry[];
  }
>;

/** A loaded manifest that passed validation: its value is typed. */
export interface ValidManifest extends LoadedManifest {
  readonly value: Manifest;
}

/**
 * The manifest as the model builder takes it, once its validation found no error; undefined while
 * there is one. This is where the parse becomes typed: the checks that make it so are the
 * validators' (shape.ts against the same tables the type is derived from, then schemas.ts and
 * semantics.ts for what `Refine` adds), so the type system cannot follow them and the one cast of
 * the validated manifest is here.
 */
export function validManifest(manifest: LoadedManifest, diagnostics: readonly Diagnostic[]): ValidManifest | undefined {
  if (hasErrors(diagnostics) || !isPlainObject(manifest.value)) return undefined;
  return manifest as ValidManifest;
}
