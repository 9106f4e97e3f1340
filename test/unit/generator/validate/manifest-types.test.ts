/**
 * The validated manifest's type against the field tables it is derived from: the same key names
 * (each key list below must be exactly the type's known keys, or tsc fails, and exactly the
 * table's, or the test fails), the values typed as the tables say, and the typed value handed on
 * only once validation found no error.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { parseManifestText } from "../../../../src/generator/load/loadManifest.js";
import type { JsonSchema } from "../../../../src/jsonSchema/refs.js";
import type { Json, JsonObject } from "../../../../src/common/objects.js";
import { authFields } from "../../../../src/generator/validate/authFields.js";
import { promptFields, resourceFields, resourceTemplateFields, serverFields, toolFields } from "../../../../src/generator/validate/fields.js";
import { manifestFields } from "../../../../src/generator/validate/manifestFields.js";
import { widgetFields } from "../../../../src/generator/validate/widgetFields.js";
import type {
  AuthEntry,
  Manifest,
  PromptArgumentEntry,
  PromptEntry,
  ResourceEntry,
  ResourceTemplateEntry,
  ServerEntry,
  ToolEntry,
  WidgetEntry,
} from "../../../../src/generator/validate/manifestTypes.js";
import { validateManifest } from "../../../../src/generator/validate/validate.js";

/** The keys a type declares, without the index signature of an MCP object's other fields. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
/** One `true` per known key: a list with a key missing or one too many does not compile. */
type KeyList<T> = { [K in KnownKeys<T>]-?: true };

const manifestKeys: KeyList<Manifest> = {
  server: true,
  capabilities: true,
  cache: true,
  auth: true,
  defs: true,
  tools: true,
  resources: true,
  resourceTemplates: true,
  prompts: true,
  widgets: true,
};
const serverKeys: KeyList<ServerEntry> = {
  name: true,
  folder: true,
  version: true,
  title: true,
  description: true,
  websiteUrl: true,
  icons: true,
  instructions: true,
};
const toolKeys: KeyList<ToolEntry> = {
  name: true,
  title: true,
  description: true,
  inputSchema: true,
  outputSchema: true,
  annotations: true,
  execution: true,
  icons: true,
  _meta: true,
  examples: true,
  widget: true,
  visibility: true,
  scopes: true,
  auth: true,
  enabled: true,
  tags: true,
  securitySchemes: true,
};
const widgetKeys: KeyList<WidgetEntry> = {
  name: true,
  uri: true,
  entry: true,
  title: true,
  description: true,
  sdk: true,
  csp: true,
  permissions: true,
  domain: true,
  prefersBorder: true,
  chatgpt: true,
  _meta: true,
  cache: true,
};
const resourceKeys: KeyList<ResourceEntry> = {
  uri: true,
  name: true,
  title: true,
  description: true,
  mimeType: true,
  size: true,
  annotations: true,
  icons: true,
  _meta: true,
  text: true,
  blob: true,
  file: true,
  cache: true,
  scopes: true,
  auth: true,
  enabled: true,
  tags: true,
};
const resourceTemplateKeys: KeyList<ResourceTemplateEntry> = {
  uriTemplate: true,
  name: true,
  title: true,
  description: true,
  mimeType: true,
  annotations: true,
  icons: true,
  _meta: true,
  complete: true,
  cache: true,
  scopes: true,
  auth: true,
  enabled: true,
  tags: true,
};
const promptKeys: KeyList<PromptEntry> = {
  name: true,
  title: true,
  description: true,
  arguments: true,
  icons: true,
  _meta: true,
  messages: true,
  scopes: true,
  auth: true,
  enabled: true,
  tags: true,
};
const authKeys: KeyList<AuthEntry> = {
  resource: true,
  authorizationServers: true,
  scopesSupported: true,
  defaultScopes: true,
  hideUnauthorized: true,
  resourceName: true,
  resourceDocumentation: true,
  jwt: true,
  introspection: true,
  verifier: true,
};
const promptArgumentKeys: KeyList<PromptArgumentEntry> = { name: true, title: true, description: true, required: true, complete: true };

const keyLists: [string, object, object][] = [
  ["manifest", manifestKeys, manifestFields],
  ["server", serverKeys, serverFields],
  ["tool", toolKeys, toolFields],
  ["widget", widgetKeys, widgetFields],
  ["resource", resourceKeys, resourceFields],
  ["resource template", resourceTemplateKeys, resourceTemplateFields],
  ["prompt", promptKeys, promptFields],
  ["prompt argument", promptArgumentKeys, promptFields.arguments.item.fields],
  ["auth", authKeys, authFields],
];

describe("the validated manifest's type", () => {
  it.each(keyLists)("has the %s table's keys", (_, typeKeys, table) => {
    expect(Object.keys(typeKeys)).toEqual(Object.keys(table));
  });

  it("types each value as its table says", () => {
    expectTypeOf<ToolEntry["name"]>().toEqualTypeOf<string>();
    expectTypeOf<ToolEntry["title"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ToolEntry["inputSchema"]>().toEqualTypeOf<JsonSchema>();
    expectTypeOf<ToolEntry["visibility"]>().toEqualTypeOf<("model" | "app")[] | undefined>();
    expectTypeOf<ToolEntry["_meta"]>().toEqualTypeOf<JsonObject | undefined>();
    expectTypeOf<NonNullable<ToolEntry["examples"]>[number]["result"]>().toEqualTypeOf<Json | undefined>();
    expectTypeOf<NonNullable<WidgetEntry["csp"]>["connectDomains"]>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<NonNullable<Manifest["cache"]>["tools/list"]>().toEqualTypeOf<{ ttlMs?: number; cacheScope?: "public" | "private" } | undefined>();
    expectTypeOf<PromptArgumentEntry["complete"]>().toEqualTypeOf<string[] | "handler" | undefined>();
    expectTypeOf<ToolEntry["auth"]>().toEqualTypeOf<"none" | undefined>();
    expectTypeOf<ToolEntry["scopes"]>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<AuthEntry["verifier"]>().toEqualTypeOf<"handler" | undefined>();
    expectTypeOf<NonNullable<AuthEntry["jwt"]>["algorithms"]>().toEqualTypeOf<
      ("RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512" | "ES256" | "ES384" | "ES512" | "EdDSA" | "Ed25519")[] | undefined
    >();
    expectTypeOf<Manifest["defs"]>().toEqualTypeOf<Record<string, JsonSchema> | undefined>();
    // An MCP object's other fields are served as they are; a closed one (a widget) has none.
    expectTypeOf<ToolEntry["x-vendor"]>().toEqualTypeOf<Json | undefined>();
    expectTypeOf<WidgetEntry>().not.toHaveProperty("x-vendor");
  });

  it("is handed on only when validation found no error", async () => {
    const parse = (text: string) => {
      const loaded = parseManifestText(text, "/nowhere/m.yaml", "m.yaml");
      if (!loaded.ok) throw new Error("unparsable");
      return loaded.manifest;
    };
    const good = parse("server: {name: s, version: '1'}\ntools:\n  - {name: t, inputSchema: {type: object}}\n");
    const passed = await validateManifest(good);
    expect(passed.valid).toBe(good);
    expect(passed.valid?.value.tools?.[0]?.name).toBe("t");

    const bad = await validateManifest(parse("server: {name: s, version: '1'}\ntools:\n  - {name: t}\n"));
    expect(bad.diagnostics.map((d) => d.code)).toContain("missing-field");
    expect(bad.valid).toBeUndefined();
    // A warning alone (an unknown field of an MCP object) does not hold it back.
    const warned = await validateManifest(parse("server: {name: s, version: '1'}\ntools:\n  - {name: t, inputSchema: {type: object}, x-vendor: 1}\n"));
    expect(warned.diagnostics.map((d) => d.severity)).toEqual(["warning"]);
    expect(warned.valid?.value.tools?.[0]?.["x-vendor"]).toBe(1);
    expect((await validateManifest(parse("- a list\n"))).valid).toBeUndefined();
  });
});
