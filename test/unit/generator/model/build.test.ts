/** model/build.ts: the server-wide facts of the model, and the order its entity builders claim names in. */
import { describe, expect, it } from "vitest";
import { buildOf, modelOf } from "../../../helpers/model.js";

const SERVER = "server: {name: s, version: '1'}\n";

describe("the server", () => {
  it("is named after `server.folder`, else its name; serverInfo leaves mcpgen's keys out", async () => {
    const model = await modelOf("server: {name: gift-server, version: '1.0.0', title: Gifts, folder: gifts-v2, instructions: Be kind.}\n");
    expect({ name: model.name, typePrefix: model.typePrefix, clientTypeName: model.clientTypeName }).toEqual({
      name: "gifts-v2",
      typePrefix: "GiftsV2",
      clientTypeName: "GiftsV2Client",
    });
    expect(model.serverInfo).toEqual({ name: "gift-server", version: "1.0.0", title: "Gifts" });
    expect(model.instructions).toBe("Be kind.");
  });

  it("holds its client interface's name against a def", async () => {
    const { diagnostics } = await buildOf(`${SERVER}defs:\n  SClient: {type: object}\n`);
    expect(diagnostics).toEqual([
      'm.yaml:3:3: error identifier-collision: def "SClient" and the generated client interface SClient both become the TypeScript type name SClient; rename one of them',
    ]);
  });
});

describe("whether the server needs handlers", () => {
  const cases: [string, { given: string; want: boolean }][] = [
    ["nothing served", { given: "", want: false }],
    ["a tool", { given: "tools:\n  - {name: t, inputSchema: {type: object}}\n", want: true }],
    ["a static resource", { given: "resources:\n  - {uri: 'a://x', name: x, text: x}\n", want: false }],
    ["a resource without content", { given: "resources:\n  - {uri: 'a://x', name: x}\n", want: true }],
    ["a resource template", { given: "resourceTemplates:\n  - {uriTemplate: 'a://{x}', name: x}\n", want: true }],
    ["a prompt with messages", { given: "prompts:\n  - {name: p, messages: [{role: user, content: {type: text, text: hi}}]}\n", want: false }],
    ["a prompt without", { given: "prompts:\n  - {name: p}\n", want: true }],
    [
      "only completions a handler answers (optional handlers)",
      { given: "prompts:\n  - {name: p, arguments: [{name: a, complete: handler}], messages: [{role: user, content: {type: text, text: hi}}]}\n", want: false },
    ],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    expect((await modelOf(SERVER + given)).needsHandlers).toBe(want);
  });
});

describe("the tools' patterns", () => {
  it("are planned once each, in the order the wire schemas first use them (defs bundled in, outputs too)", async () => {
    const model = await modelOf(
      `${SERVER}defs:\n  Code: {type: string, pattern: '^[A-Z]+$'}\ntools:\n  - name: a\n    inputSchema: {type: object, properties: {c: {$ref: '#/defs/Code'}, d: {type: string, pattern: '^d'}}}\n  - name: b\n    inputSchema: {type: object, patternProperties: {'^x-': {}}}\n    outputSchema: {type: object, properties: {d: {type: string, pattern: '^d'}, e: {type: string, pattern: 'e$'}}}\n`,
    );
    expect(Object.keys(model.patterns)).toEqual(["^d", "^[A-Z]+$", "^x-", "e$"]);
  });
});

describe("the order of the claims", () => {
  it("tools, then resources, then templates: the earlier keeps a name, each later one is reported", async () => {
    const { diagnostics } = await buildOf(
      `${SERVER}tools:\n  - {name: read_x, inputSchema: {type: object}}\nresources:\n  - {uri: 'a://x', name: x}\nresourceTemplates:\n  - {uriTemplate: 'a://{y}', name: x}\n`,
    );
    expect(diagnostics.map((d) => d.replace(/; rename one of them$/, ""))).toEqual([
      'm.yaml:5:26: error identifier-collision: resource "x" and tool "read_x" (line 3) both become the client method name readX',
      'm.yaml:7:36: error identifier-collision: resource template "x" and tool "read_x" (line 3) both become the client method name readX',
    ]);
  });
});
