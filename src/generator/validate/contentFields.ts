/**
 * Content blocks (MCP ContentBlock), keyed by their `type`: the fields of a prompt message's
 * `content`, checked by validate/shape.ts and documented by the manifest reference.
 */
import { annotations, meta, resourceFields, type FieldSpec } from "./fields.js";

const blockCommon: Record<string, FieldSpec> = { annotations, _meta: meta };
const blockType = (type: string): FieldSpec => ({ kind: "string", required: true, doc: `\`${type}\`` });
const data = { kind: "string", required: true, doc: "The bytes, base64." } as const satisfies FieldSpec;

export const contentFields: Record<string, Record<string, FieldSpec>> = {
  text: { type: blockType("text"), text: { kind: "string", required: true, doc: "The text." }, ...blockCommon },
  image: { type: blockType("image"), data, mimeType: { kind: "string", required: true, doc: "`image/png`, ..." }, ...blockCommon },
  audio: { type: blockType("audio"), data, mimeType: { kind: "string", required: true, doc: "`audio/wav`, ..." }, ...blockCommon },
  resource_link: {
    type: blockType("resource_link"),
    ...Object.fromEntries(Object.entries(resourceFields).filter(([k]) => !["text", "blob", "file", "cache"].includes(k))),
  },
  resource: {
    type: blockType("resource"),
    resource: {
      kind: "record",
      required: true,
      doc: "The embedded resource's contents: its `uri`, and its `text` or its `blob`.",
      fields: {
        uri: { kind: "string", required: true, doc: "Its URI." },
        mimeType: { kind: "string", doc: "Its MIME type." },
        text: { kind: "string", doc: "Its content as text." },
        blob: { kind: "string", doc: "Its content as base64." },
        _meta: meta,
      },
    },
    ...blockCommon,
  },
};
