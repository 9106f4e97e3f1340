/**
 * validate/semantics.ts, ChatGPT's access aliases written by hand: a tool's
 * `openai/widgetAccessible` or `openai/visibility` that says otherwise than its visibility is an
 * `alias-contradiction` warning at the alias; one that agrees, or one on a tool without a
 * visibility, is not.
 */
import { describe, expect, it } from "vitest";
import { formatDiagnostic, sortDiagnostics } from "../../../../src/common/diagnostics.js";
import { parseManifestText } from "../../../../src/generator/load/loadManifest.js";
import { validateManifest } from "../../../../src/generator/validate/validate.js";

/** What validation says of a manifest: `line:col severity code: message`, sorted as mcpgen prints them. */
async function problemsOf(yaml: string): Promise<string[]> {
  const loaded = parseManifestText(yaml, "/nowhere/m.yaml", "m.yaml");
  if (!loaded.ok) throw new Error(loaded.diagnostics.map(formatDiagnostic).join("\n"));
  const { diagnostics } = await validateManifest(loaded.manifest);
  return sortDiagnostics(diagnostics).map((d) => `${d.line}:${d.col} ${d.severity} ${d.code}: ${d.message}`);
}

const SERVER = "server: {name: s, version: '1'}\n";
const WIDGETS = "widgets:\n  - {name: w, uri: 'ui://s/w.html', entry: w.ts}\n";
/** A server with one widget, opened by tool `opens`, and the tool under test. */
const manifest = (tool: string, widgets = true) =>
  `${SERVER}tools:\n  - {name: opens, inputSchema: {type: object}${widgets ? ", widget: w" : ""}}\n  - ${tool}\n${widgets ? WIDGETS : ""}`;

const cases: [string, { given: string; want: string[] }][] = [
  [
    "an app-only tool whose hand-written aliases hide it from views and show it to the model",
    {
      given: manifest("{name: t, inputSchema: {type: object}, visibility: [app], _meta: {openai/widgetAccessible: false, openai/visibility: public}}"),
      want: [
        "4:71 warning alias-contradiction: `openai/widgetAccessible: false` contradicts `visibility: [app]`: mcpgen serves true from the visibility; remove the alias (mcpgen writes ChatGPT's aliases from `visibility`), or change `visibility`",
        '4:103 warning alias-contradiction: `openai/visibility: "public"` contradicts `visibility: [app]`: mcpgen serves "private" from the visibility; remove the alias (mcpgen writes ChatGPT\'s aliases from `visibility`), or change `visibility`',
      ],
    },
  ],
  [
    "a model-only tool marked private by hand",
    {
      given: manifest("{name: t, inputSchema: {type: object}, visibility: [model], _meta: {openai/visibility: private}}"),
      want: [
        '4:73 warning alias-contradiction: `openai/visibility: "private"` contradicts `visibility: [model]`: mcpgen serves "public" from the visibility; remove the alias (mcpgen writes ChatGPT\'s aliases from `visibility`), or change `visibility`',
      ],
    },
  ],
  [
    "a tool that opens a widget (default visibility [model, app]) marked not widget-accessible",
    {
      given: `${SERVER}tools:\n  - {name: t, inputSchema: {type: object}, widget: w, _meta: {openai/widgetAccessible: false}}\n${WIDGETS}`,
      want: [
        "3:63 warning alias-contradiction: `openai/widgetAccessible: false` contradicts the default visibility [model, app] (the tool opens a widget): mcpgen serves true from the visibility; remove the alias (mcpgen writes ChatGPT's aliases from `visibility`), or change `visibility`",
      ],
    },
  ],
  [
    "on a server without widgets: the contradiction is still reported, with the value it should have",
    {
      given: manifest("{name: t, inputSchema: {type: object}, visibility: [model], _meta: {openai/widgetAccessible: true}}", false),
      want: [
        "4:73 warning alias-contradiction: `openai/widgetAccessible: true` contradicts `visibility: [model]`: it should be false; remove the alias (mcpgen writes ChatGPT's aliases from `visibility`), or change `visibility`",
      ],
    },
  ],
  [
    "aliases that agree with the visibility",
    {
      given: manifest("{name: t, inputSchema: {type: object}, visibility: [app], _meta: {openai/widgetAccessible: true, openai/visibility: private}}"),
      want: [],
    },
  ],
  [
    "aliases on a tool with no visibility and no widget: nothing to contradict",
    { given: manifest("{name: t, inputSchema: {type: object}, _meta: {openai/widgetAccessible: false, openai/visibility: private}}"), want: [] },
  ],
];

describe("hand-written ChatGPT aliases", () => {
  it.each(cases)("%s", async (_, { given, want }) => {
    expect(await problemsOf(given)).toEqual(want);
  });
});
