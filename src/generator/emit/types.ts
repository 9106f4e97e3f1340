/** Emits `types.ts`: shared def types, tool input/output types, prompt and template types, name maps. */
import type { SchemaModel, ServerModel } from "../model/types.js";
import { docComment, stringLiteral, typePropertyKey } from "../print/literal.js";
import { codeFile, type OutputFile } from "./common.js";
import { isInterfaceLike, objectMembers, refResolver, schemaDoc, typeOf, type TypeContext } from "./schemaType.js";
import type { JsonSchema } from "../../jsonSchema/refs.js";
import { admitsAnyObject } from "../../jsonSchema/objects.js";

/** Any JSON object: `{ [key: string]: unknown }`. */
const OPEN_OBJECT: JsonSchema = { type: "object" };

export function emitTypes(model: ServerModel): OutputFile[] {
  const file = codeFile(model, "types.ts");
  const defTypes = new Map(model.defs.map((d) => [d.name, d.typeName]));
  const plainCtx = refResolver(defTypes);

  const declare = (name: string, schema: JsonSchema, ctx: TypeContext, doc: string[]) => file.exportDeclaration({ doc, name, ...declaration(schema, ctx) });
  for (const def of model.defs) declare(def.typeName, def.schema, plainCtx, schemaDoc(def.schema));

  const schemaDeclarations = (s: SchemaModel, doc: string[]) => {
    const ctx = refResolver(defTypes, { rootTypeName: s.typeName, localTypeNames: s.localTypeNames });
    // Arguments and structured output are JSON objects on the wire: a schema that admits any
    // value (only a pulled manifest has one) types them as an open record, not `unknown`.
    declare(s.typeName, admitsAnyObject(s.schema) ? OPEN_OBJECT : s.schema, ctx, doc);
    if (typeof s.schema === "object") {
      for (const key of s.declares) {
        const typeName = s.localTypeNames.get(key)!;
        const [container, name] = splitOnce(key);
        const local = (s.schema[container] as Record<string, JsonSchema>)[name]!;
        declare(typeName, local, ctx, schemaDoc(local));
      }
    }
  };
  for (const tool of model.tools) {
    schemaDeclarations(tool.input, [`Arguments of tool \`${tool.name}\`.`, ...(tool.description ? [tool.description] : [])]);
    if (tool.output) schemaDeclarations(tool.output, [`Structured output of tool \`${tool.name}\`.`]);
  }
  for (const template of model.resourceTemplates) {
    const members = template.variables.map((v) => `  ${typePropertyKey(v)}: string;\n`).join("");
    file.exportDeclaration({
      doc: [`Variables of resource template \`${template.uriTemplate}\` (${template.name}).`],
      kind: "interface",
      name: template.variablesTypeName,
      text: ` {\n${members}}`,
    });
  }
  for (const prompt of model.prompts) {
    const members = prompt.arguments
      .map((a) => `${docComment(a.description ? [a.description] : [], "  ")}  ${typePropertyKey(a.name)}${a.required ? "" : "?"}: string;\n`)
      .join("");
    file.exportDeclaration({ doc: [`Arguments of prompt \`${prompt.name}\`.`], kind: "interface", name: prompt.argumentsTypeName, text: ` {\n${members}}` });
  }

  const map = (doc: string, name: string, entries: [string, string][]) =>
    file.exportDeclaration({
      doc: [doc],
      kind: "interface",
      name,
      text: ` {${entries.length ? `\n${entries.map(([k, v]) => `  ${typePropertyKey(k)}: ${v};\n`).join("")}` : ""}}`,
    });
  const names = (doc: string, name: string, values: string[]) =>
    file.exportDeclaration({ doc: [doc], kind: "type", name, text: ` = ${values.length ? values.map(stringLiteral).join(" | ") : "never"};` });

  map(
    "Input type of each tool, by MCP name.",
    "ToolInputs",
    model.tools.map((t) => [t.name, t.input.typeName]),
  );
  map(
    "Structured output type of each tool that declares an outputSchema, by MCP name.",
    "ToolOutputs",
    model.tools.flatMap((t) => (t.output ? [[t.name, t.output.typeName] as [string, string]] : [])),
  );
  names(
    "MCP names of the tools.",
    "ToolName",
    model.tools.map((t) => t.name),
  );
  names(
    "Names of the resources.",
    "ResourceName",
    model.resources.map((r) => r.name),
  );
  names(
    "URIs of the resources.",
    "ResourceUri",
    model.resources.map((r) => r.uri),
  );
  map(
    "Variables of each resource template, by name.",
    "ResourceTemplateVariables",
    model.resourceTemplates.map((t) => [t.name, t.variablesTypeName]),
  );
  names(
    "Names of the resource templates.",
    "ResourceTemplateName",
    model.resourceTemplates.map((t) => t.name),
  );
  map(
    "Arguments of each prompt, by name.",
    "PromptArguments",
    model.prompts.map((p) => [p.name, p.argumentsTypeName]),
  );
  names(
    "Names of the prompts.",
    "PromptName",
    model.prompts.map((p) => p.name),
  );
  const tagged = [...model.tools, ...model.resources, ...model.resourceTemplates, ...model.prompts];
  names("The tags of the tools, resources, templates and prompts (`lists.enableTag`).", "ListTag", [...new Set(tagged.flatMap((e) => e.switch?.tags ?? []))]);
  file.exportDeclaration({
    doc: ["The names `lists` switches, by kind (resources by URI), and the tags."],
    kind: "interface",
    name: "ListNames",
    text: " {\n  tools: ToolName;\n  resources: ResourceUri;\n  resourceTemplates: ResourceTemplateName;\n  prompts: PromptName;\n  tags: ListTag;\n}",
  });
  return [{ path: file.path, content: file.render() }];
}

/** The declaration of a schema's type: an interface when it is object-like, else a type alias. */
function declaration(schema: JsonSchema, ctx: TypeContext): { kind: "interface" | "type"; text: string } {
  if (isInterfaceLike(schema)) {
    const members = objectMembers(schema as Record<string, unknown>, ctx, "  ");
    return { kind: "interface", text: ` {${members ? `\n${members}` : ""}}` };
  }
  return { kind: "type", text: ` = ${typeOf(schema, ctx)};` };
}

function splitOnce(key: string): [string, string] {
  const i = key.indexOf("/");
  return [key.slice(0, i), key.slice(i + 1)];
}
