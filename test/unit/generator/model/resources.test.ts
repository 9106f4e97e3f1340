/** model/resources.ts: resources (static or served by a handler) and resource templates, from small manifests. */
import { describe, expect, it } from "vitest";
import { buildResources, buildResourceTemplates } from "../../../../src/generator/model/resources.js";
import type { ResourceModel } from "../../../../src/generator/model/types.js";
import { buildOf, contextOf } from "../../../helpers/model.js";
import { tempProject } from "../../../helpers/tmp.js";

const SERVER = "server: {name: s, version: '1'}\n";
const lines = (key: string, entries: string[]) => `${key}:\n${entries.map((e) => `  - ${e}\n`).join("")}`;

describe("a resource", () => {
  const cases: [
    string,
    { given: string; want: Pick<ResourceModel, "readerName" | "handlerName" | "needsHandler" | "wire"> & { content?: ResourceModel["content"] } },
  ][] = [
    [
      "with text: served from the manifest, no handler",
      {
        given: "{uri: 'a://readme', name: readme, mimeType: text/plain, text: hello}",
        want: {
          readerName: "readReadme",
          handlerName: "readme",
          needsHandler: false,
          content: { text: "hello" },
          wire: { uri: "a://readme", name: "readme", mimeType: "text/plain" },
        },
      },
    ],
    [
      "with a blob",
      {
        given: "{uri: 'a://logo', name: logo-image, blob: aGk=}",
        want: {
          readerName: "readLogoImage",
          handlerName: "logoImage",
          needsHandler: false,
          content: { blob: "aGk=" },
          wire: { uri: "a://logo", name: "logo-image" },
        },
      },
    ],
    [
      "without content: a handler serves it",
      {
        given: "{uri: 'a://now', name: now, cache: {ttlMs: 5}}",
        want: { readerName: "readNow", handlerName: "now", needsHandler: true, wire: { uri: "a://now", name: "now" } },
      },
    ],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    const ctx = await contextOf(SERVER + lines("resources", [given]));
    const { resources, sourceFiles } = await buildResources(ctx);
    const [r] = resources;
    expect({
      readerName: r!.readerName,
      handlerName: r!.handlerName,
      needsHandler: r!.needsHandler,
      wire: r!.wire,
      ...(r!.content ? { content: r!.content } : {}),
    }).toEqual(want);
    expect(sourceFiles).toEqual([]);
    expect(ctx.diagnostics).toEqual([]);
  });

  it("reads a `file:` next to the manifest (text by its MIME type), records it as a source, and needs no handler", async () => {
    const dir = tempProject({ "docs/guide.md": "# Guide\n" });
    const ctx = await contextOf(SERVER + lines("resources", ["{uri: 'a://guide', name: guide, mimeType: text/markdown, file: docs/guide.md}"]), dir);
    const { resources, sourceFiles } = await buildResources(ctx);
    expect(resources[0]!.content).toEqual({ text: "# Guide\n" });
    expect(resources[0]!.needsHandler).toBe(false);
    expect(resources[0]!.wire).toEqual({ uri: "a://guide", name: "guide", mimeType: "text/markdown" });
    expect(sourceFiles).toHaveLength(1);
    expect(sourceFiles[0]!.endsWith("guide.md")).toBe(true);
  });

  it("reports a `file:` that does not exist, at the file, and goes on with the next resources", async () => {
    const ctx = await contextOf(SERVER + lines("resources", ["{uri: 'a://x', name: x, file: nope.txt}", "{uri: 'a://y', name: y, text: y}"]), tempProject());
    const { resources, sourceFiles } = await buildResources(ctx);
    expect(ctx.diagnostics.map((d) => `${d.line}:${d.col} ${d.code}: ${d.message}`)).toEqual([
      `3:35 file-content: file "nope.txt" does not exist (paths are relative to the manifest's folder)`,
    ]);
    expect(resources.map((r) => [r.name, r.content])).toEqual([
      ["x", undefined],
      ["y", { text: "y" }],
    ]);
    expect(sourceFiles).toEqual([]);
  });
});

describe("a resource template", () => {
  it("takes its variables from the URI template, in order, and leaves mcpgen's keys off the wire", async () => {
    const ctx = await contextOf(
      SERVER + lines("resourceTemplates", ["{uriTemplate: 'notes://{folder}/{note_id}', name: note-by-id, cache: {ttlMs: 1}, complete: {folder: [a, b]}}"]),
    );
    const [t] = buildResourceTemplates(ctx);
    expect(t).toEqual({
      name: "note-by-id",
      uriTemplate: "notes://{folder}/{note_id}",
      wire: { uriTemplate: "notes://{folder}/{note_id}", name: "note-by-id" },
      variables: ["folder", "note_id"],
      variablesTypeName: "NoteByIdVariables",
      readerName: "readNoteById",
      handlerName: "noteById",
    });
    expect(ctx.diagnostics).toEqual([]);
  });
});

describe("reader names across resources, widgets and templates", () => {
  it("reports a template whose reader a resource already has, naming the resource's line", async () => {
    const { diagnostics } = await buildOf(
      SERVER + lines("resources", ["{uri: 'a://n', name: notes, text: x}"]) + lines("resourceTemplates", ["{uriTemplate: 'a://{id}', name: Notes}"]),
    );
    expect(diagnostics).toEqual([
      'm.yaml:5:37: error identifier-collision: resource template "Notes" and resource "notes" (line 3) both become the client method name readNotes; rename one of them',
    ]);
  });

  it("reports a resource whose reader is a tool's method (tools claim first)", async () => {
    const { diagnostics } = await buildOf(
      SERVER + lines("tools", ["{name: read_notes, inputSchema: {type: object}}"]) + lines("resources", ["{uri: 'a://n', name: notes}"]),
    );
    expect(diagnostics).toEqual([
      'm.yaml:5:26: error identifier-collision: resource "notes" and tool "read_notes" (line 3) both become the client method name readNotes; rename one of them',
    ]);
  });
});
