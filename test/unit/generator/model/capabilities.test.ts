/** model/capabilities.ts: what the server declares, from what the manifest serves and opts into. */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../../src/common/objects.js";
import { buildOf, modelOf } from "../../../helpers/model.js";
import { tempProject } from "../../../helpers/tmp.js";

const SERVER = "server: {name: s, version: '1'}\n";
const TOOL = "tools:\n  - {name: t, inputSchema: {type: object}}\n";
const TASKS = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

describe("capabilities", () => {
  const cases: [string, { given: string; want: JsonObject }][] = [
    ["nothing served", { given: "", want: {} }],
    ["a tool", { given: TOOL, want: { tools: {} } }],
    [
      "a tool that is never a task",
      { given: "tools:\n  - {name: t, inputSchema: {type: object}, execution: {taskSupport: forbidden}}\n", want: { tools: {} } },
    ],
    [
      "a tool that may run as a task",
      { given: "tools:\n  - {name: t, inputSchema: {type: object}, execution: {taskSupport: optional}}\n", want: { tools: {}, tasks: TASKS } },
    ],
    [
      "a tool that runs only as a task",
      { given: "tools:\n  - {name: t, inputSchema: {type: object}, execution: {taskSupport: required}}\n", want: { tools: {}, tasks: TASKS } },
    ],
    ["a resource", { given: "resources:\n  - {uri: 'a://x', name: x, text: x}\n", want: { resources: {} } }],
    ["a resource template alone", { given: "resourceTemplates:\n  - {uriTemplate: 'a://{x}', name: x}\n", want: { resources: {} } }],
    [
      "resources with subscribe opted into",
      { given: "capabilities: {resources: {subscribe: true}}\nresources:\n  - {uri: 'a://x', name: x}\n", want: { resources: { subscribe: true } } },
    ],
    [
      "subscribe opted into, with no resource: nothing to subscribe to",
      { given: `capabilities: {resources: {subscribe: true}}\n${TOOL}`, want: { tools: {} } },
    ],
    ["a prompt", { given: "prompts:\n  - {name: p}\n", want: { prompts: {} } }],
    ["a completion", { given: "prompts:\n  - {name: p, arguments: [{name: a, complete: [x]}]}\n", want: { prompts: {}, completions: {} } }],
    [
      "a tool with tags: its list can change",
      { given: "tools:\n  - {name: t, inputSchema: {type: object}, tags: [a]}\n", want: { tools: { listChanged: true } } },
    ],
    [
      "a template off at start: the resources list can change",
      {
        given: "resourceTemplates:\n  - {uriTemplate: 'a://{x}', name: x, enabled: false}\nprompts:\n  - {name: p}\n",
        want: { resources: { listChanged: true }, prompts: {} },
      },
    ],
    [
      "listChanged opted into for each kind, with subscribe",
      {
        given: `capabilities: {tools: {listChanged: true}, resources: {subscribe: true, listChanged: true}, prompts: {listChanged: true}}\n${TOOL}resources:\n  - {uri: 'a://x', name: x}\nprompts:\n  - {name: p}\n`,
        want: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } },
      },
    ],
    ["listChanged opted into for a kind not served: nothing", { given: `capabilities: {prompts: {listChanged: true}}\n${TOOL}`, want: { tools: {} } }],
    ["logging and experimental, opted into", { given: "capabilities: {logging: {}, experimental: {x: {}}}\n", want: { logging: {}, experimental: { x: {} } } }],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    expect((await modelOf(SERVER + given)).capabilities).toEqual(want);
  });

  it("counts a widget as a resource", async () => {
    const dir = tempProject({ "card.ts": "" });
    const { model } = await buildOf(`${SERVER}widgets:\n  - {name: card, uri: 'ui://s/card.html', entry: card.ts}\n`, dir);
    expect(model!.capabilities).toEqual({ resources: {} });
  });
});
