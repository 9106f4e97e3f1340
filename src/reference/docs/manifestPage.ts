/**
 * docs/reference/manifest.md, from the field tables the validator checks with (validate/fields.ts,
 * validate/contentFields.ts): one table per object, in the order a manifest nests them. An object
 * several fields share (an icon, annotations, a cache hint) is documented once and linked to.
 */
import { contentFields } from "../../generator/validate/contentFields.js";
import { annotations, cacheHint, icon, type FieldSpec, type Fields } from "../../generator/validate/fields.js";
import { manifestFields } from "../../generator/validate/manifestFields.js";
import { code, generatedNote, slug, table } from "./markdown.js";

type RecordSpec = Extract<FieldSpec, { kind: "record" }>;

/** Objects used in several places, documented once under these headings. */
const SHARED = new Map<Fields, { title: string; doc: string }>([
  [icon.fields, { title: "Icon", doc: icon.doc }],
  [annotations.fields, { title: "Annotations", doc: annotations.doc }],
  [cacheHint.fields, { title: "Cache hint", doc: cacheHint.doc }],
]);

/** Where the guides say more about an object (paths as the headings show them). */
const SEE: Record<string, string> = {
  "": "[JSON Schemas in a manifest](schemas.md) (dialects, `$ref`s, types, patterns, names, `x-mcp-header`, cache hints)",
  capabilities: "[Handlers and their context](../guides/handlers.md) (logging, subscriptions, completion)",
  "tools[]": "[Handlers and their context](../guides/handlers.md), [the client](../guides/client.md)",
  "tools[].execution": "[Tasks](../guides/tasks.md)",
  "resourceTemplates[]": "[Handlers and their context](../guides/handlers.md#resource-templates)",
  "prompts[]": "[Handlers and their context](../guides/handlers.md#prompts)",
  "widgets[]": "[Widgets](../guides/widgets.md)",
  "Cache hint": "[Cache hints](schemas.md#cache-hints-2026-07-28)",
};

interface Section {
  title: string;
  spec: RecordSpec;
  /** Said under the heading: what the object is. */
  doc?: string;
}

export function manifestPage(): string {
  const titled = new Map<Fields, string>();
  /** The objects under `root`, breadth first: the top-level ones, then what they hold. */
  const walk = (root: Section): Section[] => {
    const found: Section[] = [];
    const queue = [root];
    while (queue.length) {
      const section = queue.shift()!;
      if (section !== root) found.push(section);
      for (const [key, spec] of Object.entries(section.spec.fields)) {
        const record = recordOf(spec);
        if (!record || titled.has(record.fields)) continue;
        const title = SHARED.get(record.fields)?.title ?? `${section.title ? `${section.title}.` : ""}${key}${spec.kind === "list" ? "[]" : ""}`;
        titled.set(record.fields, title);
        const doc = SHARED.get(record.fields)?.doc ?? spec.doc ?? record.doc;
        queue.push({ title, spec: record, ...(doc ? { doc } : {}) });
      }
    }
    return found;
  };
  const top: Section = { title: "", spec: { kind: "record", fields: manifestFields } };
  const sections = [top, ...walk(top)];
  const blocks = Object.entries(contentFields).map(([type, fields]) => {
    const block: Section = { title: type, spec: { kind: "record", open: true, fields } };
    return { block, inner: walk(block) };
  });
  const link = (spec: RecordSpec) => {
    const title = titled.get(spec.fields)!;
    return `[${SHARED.has(spec.fields) ? title : code(title)}](#${slug(SHARED.has(spec.fields) ? title : code(title))})`;
  };
  const typeOf = (spec: FieldSpec): string => {
    switch (spec.kind) {
      case "string": {
        const parts = [spec.oneOf ? spec.oneOf.map((v) => code(v)).join(", ") : "string"];
        if (spec.pattern && spec.pattern.source !== "^.+$") parts.push(`${spec.patternIsAdvice ? "should match" : "matching"} ${code(spec.pattern.source)}`);
        return parts.join(", ");
      }
      case "boolean":
        return "boolean";
      case "number": {
        const kind = spec.integer ? "integer" : "number";
        if (spec.min !== undefined && spec.max !== undefined && spec.max < Number.MAX_SAFE_INTEGER) return `${kind}, ${spec.min} to ${spec.max}`;
        return spec.min !== undefined ? `${kind}, at least ${spec.min}` : kind;
      }
      case "json":
        return spec.object ? "mapping" : "any JSON value";
      case "record":
        return `mapping: ${link(spec)}`;
      case "list":
        return `list of ${spec.item.kind === "record" ? `mappings: ${link(spec.item)}` : plural(typeOf(spec.item))}`;
      case "stringList":
        return "list of strings";
      case "schema":
        return "JSON Schema";
      case "content":
        return "content block: [Content blocks](#content-blocks)";
      case "anyOf":
        return spec.expected;
    }
  };
  const fieldTable = (fields: Fields) =>
    table(
      ["field", "type", "what it is"],
      Object.entries(fields).map(([key, spec]) => [
        `${code(key)}${spec.required ? " (required)" : ""}`,
        typeOf(spec),
        spec.doc ?? (spec.kind === "list" && spec.item.kind === "record" ? (spec.item.doc ?? "") : ""),
      ]),
    );

  const out = [
    generatedNote(["src/generator/validate/fields.ts", "src/generator/validate/contentFields.ts"]),
    "# Manifest reference (format v1)",
    [
      "A manifest is one YAML file that declares one MCP server.",
      "Field names are MCP's wire names, so an entry of a real server's `tools/list` can be pasted in as it is (or pulled: [`mcpgen pull`](../guides/consuming-servers.md)).",
      "Every field MCP 2025-11-25 defines (which 2026-07-28 keeps) is accepted and served verbatim.",
    ].join(" "),
    [
      "**Real definitions are taken as they are.** An object marked *MCP object* below is open: a field mcpgen does not know there (such as the vendor keys published servers put in a tool's `annotations`) is served verbatim, in its place, with an `unknown-field` **warning** that lists the known fields.",
      'A typo of a known key stays an **error** with its "did you mean": one edit away, case aside, a swap of two neighbouring letters counting as one edit (`titel`, `nmae`, `descritpion`, `inputschema`), two edits for names of 6 letters or more, three from 9 (the same rule for every "did you mean" of mcpgen, and for the keys of JSON Schemas: `properites`, `requried`). In a manifest written by `mcpgen pull` it is a warning: the server serves it so.',
      "Keys at the top of the manifest and mcpgen's own (`defs`, `cache`, `examples`, `text`/`blob`/`file`, `messages`, `folder`, `widgets`) are strict, and so are the objects not marked *MCP object*: an unknown key there is an error.",
    ].join(" "),
    "The editor schema `schema/manifest.schema.json` is written from the same tables: see [Editor support](generated-code.md#editor-support).",
  ];
  for (const section of sections) {
    const heading = section.title === "" ? "The manifest" : SHARED.has(section.spec.fields) ? section.title : code(section.title);
    out.push(`## ${heading}`);
    const said = [section.doc, section.title === "" ? "" : section.spec.open ? "*MCP object*: other fields are served as written, with a warning." : ""];
    const text = said.filter(Boolean).join(" ");
    if (text) out.push(text);
    const see = SEE[section.title];
    if (see) out.push(`See ${see}.`);
    out.push(fieldTable(section.spec.fields));
  }
  out.push(
    "## Content blocks",
    "A prompt message's `content` is one of these, chosen by its `type`. Each is an *MCP object*: other fields are served as written, with a warning.",
  );
  for (const { block, inner } of blocks) {
    out.push(`### ${code(block.title)}`, fieldTable(block.spec.fields));
    for (const section of inner) out.push(`### ${code(section.title)}`, ...(section.doc ? [section.doc] : []), fieldTable(section.spec.fields));
  }
  return `${out.join("\n\n")}\n`;
}

function recordOf(spec: FieldSpec): RecordSpec | undefined {
  if (spec.kind === "record") return spec;
  if (spec.kind === "list" && spec.item.kind === "record") return spec.item;
  return undefined;
}

function plural(type: string): string {
  return type === "string" ? "strings" : type;
}
